"""Atomic file writes and JSON/JSONL helpers. A crash never leaves a half-written file."""
from __future__ import annotations

import json
import os
import tempfile
from collections.abc import Iterable
from pathlib import Path
from typing import Any


def _umask() -> int:
    mask = os.umask(0)
    os.umask(mask)
    return mask


def atomic_write_bytes(path: str | Path, data: bytes) -> None:
    path = Path(path)
    path.parent.mkdir(parents=True, exist_ok=True)
    fd, tmp = tempfile.mkstemp(prefix=f".{path.name}.", suffix=".part", dir=path.parent)
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


def write_json(path: str | Path, obj: Any) -> None:
    atomic_write_text(path, json.dumps(obj, indent=2, ensure_ascii=False, sort_keys=False) + "\n")


def write_jsonl(path: str | Path, rows: Iterable[dict[str, Any]]) -> None:
    atomic_write_text(path, "".join(json.dumps(r, ensure_ascii=False) + "\n" for r in rows))


def read_jsonl(path: str | Path) -> list[dict[str, Any]]:
    from .errors import DataError

    out = []
    with open(path, encoding="utf-8") as f:
        for i, line in enumerate(f, 1):
            if not line.strip():
                continue
            try:
                obj = json.loads(line)
            except json.JSONDecodeError as exc:
                raise DataError(f"invalid JSON: {exc.msg}", path=path, record=f"line {i}") from None
            if not isinstance(obj, dict):
                raise DataError("expected a JSON object", path=path, record=f"line {i}")
            out.append(obj)
    return out


def read_table(path: str | Path) -> list[dict[str, Any]]:
    """Rows of a JSONL (``.jsonl``/``.json``), TSV (``.tsv``, unquoted) or CSV file as dicts.

    A CSV whose first 4 kB hold more tabs than commas is read as TSV. A row with more or fewer
    fields than the header, or malformed quoting, raises DataError naming the file and line.
    """
    import csv

    from .errors import DataError

    path = Path(path)
    if path.suffix in (".jsonl", ".json"):
        return read_jsonl(path)
    with open(path, encoding="utf-8", newline="") as f:
        sample = f.read(4096)
        f.seek(0)
        tsv = path.suffix == ".tsv" or sample.count("\t") > sample.count(",")
        reader = csv.DictReader(f, delimiter="\t", quoting=csv.QUOTE_NONE) if path.suffix == ".tsv" else \
            csv.DictReader(f, delimiter="\t" if tsv else ",")
        rows = []
        try:
            for r in reader:
                if None in r or any(v is None for v in r.values()):
                    raise DataError("row has a different number of fields than the header", path=path,
                                    record=f"line {reader.line_num}")
                rows.append(r)
        except csv.Error as exc:
            raise DataError(f"malformed CSV: {exc}", path=path, record=f"line {reader.line_num}") from None
    return rows
