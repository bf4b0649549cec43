"""Atomic file writes and JSON/JSONL helpers. A crash never leaves a half-written file."""
from __future__ import annotations

import csv
import io
import json
import os
import sys
import tempfile
from collections.abc import Callable, Iterable, Iterator, Mapping
from pathlib import Path
from typing import Any

from .errors import ConfigError, DataError


def _umask() -> int:
    mask = os.umask(0)
    os.umask(mask)
    return mask


PART_SUFFIX = ".part"
"""Suffix of the temporary file an atomic write renames into place (``.<name>.<random>.part`` beside it)."""


def is_partial_write(f: Path, names: Iterable[str]) -> bool:
    """Whether ``f`` is the temporary file an atomic write of one of ``names`` left behind (a kill before the
    rename): ``.<name>.<random>.part`` in the same directory."""
    n = f.name
    return n.endswith(PART_SUFFIX) and any(n.startswith(f".{name}.") for name in names)


def atomic_write_bytes(path: str | Path, data: bytes) -> None:
    path = Path(path)
    path.parent.mkdir(parents=True, exist_ok=True)
    fd, tmp = tempfile.mkstemp(prefix=f".{path.name}.", suffix=PART_SUFFIX, dir=path.parent)
    try:
        os.chmod(tmp, 0o666 & ~_umask())  # mkstemp creates 0600; give the usual permissions
        with os.fdopen(fd, "wb") as f:
            f.write(data)
            f.flush()
            os.fsync(f.fileno())
        os.replace(tmp, path)
    except BaseException:
        try:
            os.unlink(tmp)
        except FileNotFoundError:
            pass
        raise


def atomic_write_text(path: str | Path, text: str) -> None:
    atomic_write_bytes(path, text.encode("utf-8"))


def _json(obj: Any) -> str:
    return json.dumps(obj, indent=2, ensure_ascii=False, sort_keys=False)


def write_json(path: str | Path, obj: Any) -> None:
    atomic_write_text(path, _json(obj) + "\n")


def json_text(doc: Mapping[str, Any], section: str, parts: dict[str, tuple[Any, str]],
              compact: tuple[str, ...] = ()) -> str:
    """:func:`write_json`'s text of ``doc``, with each value of the object ``doc[section]`` encoded once: ``parts``
    (value key -> (the value, its text)), kept by the caller between calls, holds the values already encoded,
    reused while the very same object is there. In each of those values, the members named in ``compact`` are
    written on one line (no indentation, no spaces); with none named the text is :func:`write_json`'s, character
    for character.

    Why: a run rewrites its ``results.json`` after every suite (partial results survive a kill); encoding every
    suite done so far again each time made the writes quadratic in the suites, and the per-unit arrays, one
    number per line, made the file four times its size."""
    inner = doc.get(section)
    if not isinstance(inner, dict) or not all(isinstance(k, str) for k in inner):
        return _json(doc) + "\n"
    head = _spliced(doc, {section: _json_members(inner, parts, compact)})
    return (_json(doc) if head is None else head) + "\n"


def _marker(key: str) -> str:
    return f"\x00{key}\x00"  # a string no document holds: JSON writes it as \u0000...\u0000


def _spliced(obj: Mapping[str, Any], texts: Mapping[str, str]) -> str | None:
    """``_json(obj)`` with the members named in ``texts`` written as those texts (a member's lines indented by
    its depth, 2 spaces); None when a marker is not found exactly once."""
    out = _json({k: (_marker(k) if k in texts else v) for k, v in obj.items()})
    for k, text in texts.items():
        token = _json(_marker(k))
        if out.count(token) != 1:
            return None
        out = out.replace(token, text.replace("\n", "\n  "), 1)
    return out


def _json_members(inner: Mapping[str, Any], parts: dict[str, tuple[Any, str]], compact: tuple[str, ...]) -> str:
    rows = []
    for k, v in inner.items():
        got = parts.get(k)
        if got is None or got[0] is not v:
            text = None
            if isinstance(v, Mapping) and any(c in v for c in compact):
                text = _spliced(v, {c: json.dumps(v[c], ensure_ascii=False, separators=(",", ":"))
                                    for c in compact if c in v})
            got = parts[k] = (v, _json(v) if text is None else text)
        rows.append(f"  {json.dumps(k, ensure_ascii=False)}: " + got[1].replace("\n", "\n  "))
    return "{\n" + ",\n".join(rows) + "\n}" if rows else "{}"


def write_jsonl(path: str | Path, rows: Iterable[dict[str, Any]]) -> None:
    atomic_write_text(path, "".join(json.dumps(r, ensure_ascii=False) + "\n" for r in rows))


def check_output_file(path: str | Path, flag: str = "--out") -> Path:
    """``path`` as a file to write: ConfigError naming ``flag`` when it is a directory or a parent is a file."""
    p = Path(path)
    if p.is_dir():
        raise ConfigError(f"{flag} {p} is a directory; give a file path")
    for parent in p.parents:
        if parent.exists() and not parent.is_dir():
            raise ConfigError(f"{flag} {p}: {parent} exists and is not a directory")
    return p


MAX_INPUT_BYTES = 2 << 30
"""Largest user file read into memory (2 GiB): a larger one is refused with a typed error."""


def read_user_text(path: str | Path, what: str = "file") -> str:
    """The text of a user-supplied file (predictions, ratings, judgements), checked.

    The one input layer: a missing path, a directory, an oversized file, binary content (NUL bytes) and
    bytes that are not UTF-8 raise DataError naming the file and, for decoding errors, the line and byte
    offset. A UTF-8 byte-order mark is removed.
    """
    p = Path(path)
    if not p.exists():
        raise DataError(f"{what} not found", path=p)
    if p.is_dir():
        raise DataError(f"{what} is a directory, not a file", path=p)
    size = p.stat().st_size
    if size > MAX_INPUT_BYTES:
        raise DataError(f"{what} is {size} bytes; the limit is {MAX_INPUT_BYTES}", path=p)
    try:
        data = p.read_bytes()
    except PermissionError:
        raise DataError(f"{what} is not readable (permission denied)", path=p) from None
    nul = data.find(b"\x00")
    if nul >= 0:
        line = data.count(b"\n", 0, nul) + 1
        raise DataError(f"{what} holds binary content (a NUL byte at offset {nul}); expected UTF-8 text", path=p,
                        record=f"line {line}")
    try:
        text = data.decode("utf-8")
    except UnicodeDecodeError as exc:
        line = data.count(b"\n", 0, exc.start) + 1
        raise DataError(f"{what} is not UTF-8 text (byte 0x{data[exc.start]:02x} at offset {exc.start}); save it "
                        "as UTF-8", path=p, record=f"line {line}") from None
    return text[1:] if text.startswith("\ufeff") else text


MAX_JSON_DEPTH = 100
"""Deepest nesting of arrays and objects accepted in a JSON input (no sentiprobe file needs more than ~10).

Why a limit: the json module recurses once per level, so a document nested 100,000 deep raises RecursionError
(and one nested just under the interpreter's limit parses but breaks every recursive consumer after it)."""


class JSONNestingError(json.JSONDecodeError):
    """A JSON value nested deeper than :data:`MAX_JSON_DEPTH` (a JSONDecodeError, so every handler of invalid
    JSON also refuses it)."""

    def __init__(self, doc: str, depth: int | None = None) -> None:
        at = f" (level {depth} reached)" if depth is not None else ""
        super().__init__(f"nested deeper than {MAX_JSON_DEPTH} levels{at}", doc, 0)


_SCALARS = {int, float, str, bool, type(None)}


def _too_deep(obj: Any, limit: int) -> int | None:
    """The first depth above ``limit`` met while walking ``obj`` (iteratively), or None."""
    stack: list[tuple[Any, int]] = [(obj, 1)]
    while stack:
        o, d = stack.pop()
        children = o.values() if isinstance(o, dict) else o
        if set(map(type, children)) <= _SCALARS:
            continue  # a list of numbers (a results file's per-unit arrays): no container to walk, seen at once
        for v in children:
            if isinstance(v, dict | list):
                if d + 1 > limit:
                    return d + 1
                stack.append((v, d + 1))
    return None


def loads_json(text: str | bytes, *, object_pairs_hook: Callable[[list[tuple[str, Any]]], Any] | None = None) -> Any:
    """``json.loads`` behind the depth guard: the one JSON parser for user and model files.

    Raises ``json.JSONDecodeError`` for invalid JSON (an integer of more than 4300 digits included, which
    ``json`` reports as a bare ValueError) and :class:`JSONNestingError` (a JSONDecodeError) for a value nested
    deeper than :data:`MAX_JSON_DEPTH`, never RecursionError.
    """
    try:
        obj = json.loads(text, object_pairs_hook=object_pairs_hook)
    except RecursionError:
        raise JSONNestingError(text if isinstance(text, str) else "") from None
    except json.JSONDecodeError:
        raise
    except ValueError:  # an integer literal longer than int's conversion limit (4300 digits by default)
        raise json.JSONDecodeError(f"a number with more than {sys.get_int_max_str_digits()} digits",
                                   text if isinstance(text, str) else "", 0) from None
    if isinstance(obj, dict | list):
        depth = _too_deep(obj, MAX_JSON_DEPTH)
        if depth is not None:
            raise JSONNestingError(text if isinstance(text, str) else "", depth)
    return obj


def read_json(path: str | Path, what: str = "file") -> Any:
    """The JSON document of a user file through the input layer (:func:`read_user_text`, :func:`loads_json`):
    unreadable files, invalid JSON and over-deep nesting are DataErrors naming the file (and line)."""
    text = read_user_text(path, what)
    try:
        return loads_json(text)
    except JSONNestingError as exc:
        raise DataError(f"invalid JSON: {exc.msg}", path=path) from None
    except json.JSONDecodeError as exc:
        raise DataError(f"invalid JSON: {exc.msg} (column {exc.colno})", path=path, record=f"line {exc.lineno}"
                        ) from None


def iter_jsonl(path: str | Path, what: str = "file") -> Iterator[tuple[int, dict[str, Any]]]:
    """``(1-based line number, object)`` of every non-blank line of a JSON-lines file, through the input layer;
    invalid JSON or a line that is not an object is a DataError naming the file and line."""
    return iter_jsonl_text(read_user_text(path, what), path)


def iter_jsonl_text(text: str, path: str | Path, expected: str = "expected a JSON object"
                    ) -> Iterator[tuple[int, dict[str, Any]]]:
    """:func:`iter_jsonl` over text already read from ``path`` (``expected``: the message for a non-object line)."""
    for i, line in enumerate(text.splitlines(), 1):
        if not line.strip():
            continue
        try:
            obj = loads_json(line)
        except json.JSONDecodeError as exc:
            raise DataError(f"invalid JSON: {exc.msg}", path=path, record=f"line {i}") from None
        if not isinstance(obj, dict):
            raise DataError(expected, path=path, record=f"line {i}")
        yield i, obj


def parse_json_text(text: str, path: str | Path, *, object_pairs_hook: Any = None) -> Any:
    """``json.loads`` for a user file's text: invalid JSON names the line, and JSON nested too deeply for the
    parser (the depth guard: a RecursionError) is a DataError naming the file, never an internal error."""
    try:
        return json.loads(text, object_pairs_hook=object_pairs_hook)
    except json.JSONDecodeError as exc:
        raise DataError(f"invalid JSON: {exc.msg}", path=path, record=f"line {exc.lineno}") from None
    except RecursionError:
        raise DataError("JSON nested too deeply", path=path) from None


def read_jsonl(path: str | Path, what: str = "file") -> list[dict[str, Any]]:
    """Objects of a JSON-lines file (blank lines skipped); typed errors name the file and line."""
    return [obj for _, obj in iter_jsonl(path, what)]


def read_table(path: str | Path, what: str = "file") -> list[dict[str, Any]]:
    """Rows of a JSONL (``.jsonl``/``.json``), TSV (``.tsv``, unquoted) or CSV file as dicts.

    A CSV whose first 4 kB hold more tabs than commas is read as TSV. A row with more or fewer
    fields than the header, a duplicated or empty header name, or malformed quoting raises DataError naming
    the file and line. Reading goes through :func:`read_user_text` (encoding, binary content, directories).
    """

    path = Path(path)
    if path.suffix in (".jsonl", ".json"):
        return read_jsonl(path, what)
    text = read_user_text(path, what)
    sample = text[:4096]
    tsv = path.suffix == ".tsv" or sample.count("\t") > sample.count(",")
    f = io.StringIO(text, newline="")
    reader = csv.DictReader(f, delimiter="\t", quoting=csv.QUOTE_NONE) if path.suffix == ".tsv" else \
        csv.DictReader(f, delimiter="\t" if tsv else ",")
    rows = []
    try:
        header = reader.fieldnames or []
        dup = sorted({h for h in header if header.count(h) > 1})
        if dup:
            raise DataError(f"duplicated column name(s) {dup} in the header", path=path, record="line 1")
        for r in reader:
            if None in r or any(v is None for v in r.values()):
                raise DataError("row has a different number of fields than the header", path=path,
                                record=f"line {reader.line_num}")
            rows.append(r)
    except csv.Error as exc:
        raise DataError(f"malformed CSV: {exc}", path=path, record=f"line {reader.line_num}") from None
    return rows
