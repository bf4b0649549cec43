"""Input formats of ARTS generation: TOWE JSON, SemEval-2014 ABSA XML and a JSONL format for users' data.

All three become :class:`Sentence` records holding every aspect of the sentence (the non-targets matter
to RevNon and AddDiff) with their opinion spans when the input has them.

**Malformed files** (invalid JSON/XML, a record of the wrong shape, JSON nested too deeply) raise
:class:`DataError` naming the file and the record (or line). **Colliding ids** are refused the same way,
never overwritten: a duplicated key in a JSON object (TOWE sentence or term ids), the same id on two JSONL
lines or two aspects, two SemEval ``<sentence>`` elements with one id, one aspect id in two sentences, or an
id that ends like a generated variant's key (``_adv1``). A sentence longer than ``max_chars`` is refused
(a typed error naming the record), so one pathological record cannot stall the parser.

**Bad records** (offsets that do not match the term, an empty sentence or term, an unknown label, an aspect
without opinion spans where spans are required) are *skipped* with a reason: :class:`Skip` entries end up in
the generation report and the audit, so nothing is dropped silently. XML is parsed with ``defusedxml``: entity
declarations (billion laughs, external entities) are refused, not expanded.

JSONL format (one sentence per line; ``opinions`` optional, ``[from, to]`` character spans)::

    {"id": "s1", "sentence": "The screen is great but the battery dies.",
     "aspects": [{"term": "screen", "from": 4, "to": 10, "polarity": "positive", "opinions": [[14, 19]]},
                 {"term": "battery", "from": 28, "to": 35, "polarity": "negative", "opinions": [[36, 40]]}]}

Aspect ids are ``<sentence id>_<index>`` unless an aspect carries its own ``id``.
"""
from __future__ import annotations

from dataclasses import dataclass, field
from pathlib import Path
from typing import Any
from xml.etree.ElementTree import ParseError

from ...core.errors import DataError
from ...core.io import iter_jsonl_text, parse_json_text, read_user_text
from ...suites.arts.formats import GENERATED_RE, LABELS, VARIANT_RE

FORMATS = ("towe", "semeval-xml", "jsonl")


@dataclass(frozen=True)
class Aspect:
    """One annotated aspect: term, gold label, character span, opinion spans (may be empty)."""

    id: str
    term: str
    polarity: str
    start: int
    end: int
    opinions: tuple[tuple[int, int], ...] = ()
    opinion_source: str = "gold"


@dataclass(frozen=True)
class Sentence:
    """One sentence with all of its (valid) aspects, in file order."""

    id: str
    text: str
    aspects: tuple[Aspect, ...]


@dataclass(frozen=True)
class Skip:
    """A record left out of generation, and why (reported in the generation report and the audit)."""

    record: str
    reason: str
    stage: str = "input"

    def to_dict(self) -> dict[str, str]:
        return {"record": self.record, "stage": self.stage, "reason": self.reason}


@dataclass
class Loaded:
    """What a reader returns: sentences, skipped records, the format and whether opinions were given."""

    sentences: list[Sentence]
    skipped: list[Skip] = field(default_factory=list)
    format: str = "towe"
    has_opinions: bool = True


def detect_format(path: Path) -> str:
    """``semeval-xml`` for ``.xml``, ``jsonl`` for ``.jsonl``, otherwise ``towe`` (a JSON object)."""
    suf = path.suffix.lower()
    return "semeval-xml" if suf == ".xml" else "jsonl" if suf == ".jsonl" else "towe"


def read_input(path: str | Path, fmt: str | None = None, *, max_chars: int | None = None) -> Loaded:
    """Read a generation input file (format from ``fmt`` or the file name); checks ids and sentence lengths."""
    path = Path(path)
    fmt = fmt or detect_format(path)
    text = read_user_text(path, "generation input")
    if fmt == "towe":
        loaded = _read_towe(path, text)
    elif fmt == "jsonl":
        loaded = _read_jsonl(path, text)
    elif fmt == "semeval-xml":
        loaded = _read_xml(path, text)
    else:
        raise DataError(f"unknown input format {fmt!r}; expected one of {list(FORMATS)}", path=path)
    _check_ids(path, loaded.sentences)
    if max_chars is not None:
        for s in loaded.sentences:
            if len(s.text) > max_chars:
                raise DataError(f"sentence has {len(s.text)} characters; the limit is {max_chars} "
                                "(--max-sentence-chars)", path=path, record=s.id, field="sentence")
    return loaded


def _check_ids(path: Path, sentences: list[Sentence]) -> None:
    """Every aspect id is unique across the file and cannot be mistaken for a generated variant's key."""
    seen: dict[str, str] = {}
    for s in sentences:
        for a in s.aspects:
            if a.id in seen:
                raise DataError(f"aspect id {a.id!r} is used twice (sentences {seen[a.id]!r} and {s.id!r}); ids must "
                                "be unique, or variants would overwrite each other", path=path, record=s.id, field="id")
            if VARIANT_RE.search(a.id) or GENERATED_RE.search(a.id):
                raise DataError(f"aspect id {a.id!r} ends like a generated variant's key; rename it", path=path,
                                record=s.id, field="id")
            seen[a.id] = s.id


class _DuplicateKey(Exception):
    def __init__(self, key: str) -> None:
        self.key = key


def _no_duplicates(pairs: list[tuple[str, Any]]) -> dict[str, Any]:
    out: dict[str, Any] = {}
    for k, v in pairs:
        if k in out:
            raise _DuplicateKey(k)
        out[k] = v
    return out


def parse_json(path: Path, what: str) -> Any:
    """A JSON file through the input layer: typed errors for invalid, over-deep JSON and duplicated keys."""
    return _parse_json(path, read_user_text(path, what))


def _check_aspect(sent_id: str, text: str, aid: str, term: Any, pol: Any, a: Any, b: Any, ops: list,
                  skipped: list[Skip]) -> Aspect | None:
    """Validate one aspect; a bad one becomes a :class:`Skip` (never an exception)."""
    if not isinstance(term, str) or not term.strip():
        skipped.append(Skip(aid, "empty or missing term"))
        return None
    if pol not in LABELS:
        skipped.append(Skip(aid, f"label {pol!r} is not one of {list(LABELS)}"))
        return None
    if not (isinstance(a, int) and isinstance(b, int)) or isinstance(a, bool) or isinstance(b, bool):
        skipped.append(Skip(aid, f"offsets {a!r}:{b!r} are not integers"))
        return None
    if text[a:b] != term or not 0 <= a < b <= len(text):
        skipped.append(Skip(aid, f"offsets {a}:{b} give {text[a:b]!r}, not the term {term!r}"))
        return None
    spans = []
    for sp in ops:
        if (not isinstance(sp, list | tuple) or len(sp) != 2 or not all(isinstance(x, int) for x in sp)
                or not 0 <= sp[0] < sp[1] <= len(text)):
            skipped.append(Skip(aid, f"opinion span {sp!r} is not a [from, to] pair inside the sentence"))
            return None
        spans.append((int(sp[0]), int(sp[1])))
    return Aspect(aid, term, pol, a, b, tuple(spans))


def _sentence(sid: str, text: Any, aspects: list[Aspect], skipped: list[Skip]) -> Sentence | None:
    if not aspects:
        skipped.append(Skip(sid, "no usable aspect"))
        return None
    return Sentence(sid, text, tuple(aspects))


def _parse_json(path: Path, text: str) -> Any:
    try:
        return parse_json_text(text, path, object_pairs_hook=_no_duplicates)
    except _DuplicateKey as exc:
        raise DataError(f"key {exc.key!r} appears twice in one JSON object; ids must be unique", path=path,
                        record=exc.key) from None


def _read_towe(path: Path, text: str) -> Loaded:
    obj = _parse_json(path, text)
    if not isinstance(obj, dict):
        raise DataError("top level must be a JSON object keyed by sentence id", path=path)
    out: list[Sentence] = []
    skipped: list[Skip] = []
    for sid, rec in obj.items():
        if not isinstance(rec, dict) or not isinstance(rec.get("term_list"), dict):
            raise DataError("expected an object with 'sentence' and 'term_list'", path=path, record=sid)
        sent = rec.get("sentence")
        if not isinstance(sent, str) or not sent.strip():
            skipped.append(Skip(sid, "empty or missing sentence"))
            continue
        aspects = []
        for tid, t in rec["term_list"].items():
            if not isinstance(t, dict):
                raise DataError("term must be a JSON object", path=path, record=tid)
            ops = t.get("opinion_position") or []
            if not isinstance(ops, list):
                raise DataError("expected a list of [from, to]", path=path, record=tid, field="opinion_position")
            asp = _check_aspect(sid, sent, tid, t.get("term"), t.get("polarity"), t.get("from"), t.get("to"),
                                ops, skipped)
            if asp is not None:
                aspects.append(asp)
        s = _sentence(sid, sent, aspects, skipped)
        if s is not None:
            out.append(s)
    return Loaded(out, skipped, "towe", True)


def _read_jsonl(path: Path, text: str) -> Loaded:
    out: list[Sentence] = []
    skipped: list[Skip] = []
    has_ops = False
    expected = "expected an object with 'id', 'sentence' and 'aspects'"
    lines: dict[str, int] = {}
    for i, rec in iter_jsonl_text(text, path, expected):
        if not isinstance(rec.get("aspects", []), list):
            raise DataError(expected, path=path, record=f"line {i}")
        sid = str(rec.get("id", f"line{i}"))
        if sid in lines:
            raise DataError(f"sentence id {sid!r} is used twice (lines {lines[sid]} and {i}); ids must be unique",
                            path=path, record=f"line {i}", field="id")
        lines[sid] = i
        sent = rec.get("sentence")
        if not isinstance(sent, str) or not sent.strip():
            skipped.append(Skip(sid, "empty or missing sentence"))
            continue
        aspects = []
        for j, a in enumerate(rec.get("aspects", [])):
            if not isinstance(a, dict):
                raise DataError("aspect must be a JSON object", path=path, record=f"line {i}", field=f"aspects[{j}]")
            ops = a.get("opinions") or []
            has_ops = has_ops or bool(ops)
            asp = _check_aspect(sid, sent, str(a.get("id", f"{sid}_{j}")), a.get("term"), a.get("polarity"),
                                a.get("from"), a.get("to"), ops if isinstance(ops, list) else [ops], skipped)
            if asp is not None:
                aspects.append(asp)
        s = _sentence(sid, sent, aspects, skipped)
        if s is not None:
            out.append(s)
    return Loaded(out, skipped, "jsonl", has_ops)


def _read_xml(path: Path, text: str) -> Loaded:
    """SemEval-2014 ABSA XML (``<sentence id><text/><aspectTerms><aspectTerm .../>``), no entity expansion."""
    try:
        import defusedxml.ElementTree as DET  # guarded: a missing install gets a MissingExtraError naming the extra
        from defusedxml import DefusedXmlException
    except ModuleNotFoundError:
        from ...core.errors import MissingExtraError

        raise MissingExtraError("defusedxml", "generate", "reading SemEval XML safely") from None

    try:
        root = DET.fromstring(text.encode("utf-8"), forbid_dtd=False, forbid_entities=True,
                              forbid_external=True)
    except DefusedXmlException as exc:
        raise DataError(f"XML refused: {type(exc).__name__} (entity declarations are not expanded)",
                        path=path) from None
    except ParseError as exc:
        line = exc.position[0] if getattr(exc, "position", None) else None
        raise DataError(f"invalid XML: {exc}", path=path, record=f"line {line}" if line else None) from None
    out: list[Sentence] = []
    skipped: list[Skip] = []
    ids: dict[str, int] = {}
    for n, s in enumerate(root.iter("sentence")):
        sid = s.get("id") or f"sentence{n}"
        if sid in ids:
            raise DataError(f"<sentence id={sid!r}> appears twice (elements {ids[sid] + 1} and {n + 1}); ids must be "
                            "unique", path=path, record=sid, field="id")
        ids[sid] = n
        sent = s.findtext("text")
        if not sent or not sent.strip():
            skipped.append(Skip(sid, "empty or missing <text>"))
            continue
        aspects = []
        for j, at in enumerate(s.iter("aspectTerm")):
            aid = f"{sid}_{j}"
            pol = at.get("polarity")
            if pol == "conflict":
                skipped.append(Skip(aid, "polarity 'conflict' (removed upstream in ARTS)"))
                continue
            try:
                a, b = int(at.get("from", "")), int(at.get("to", ""))
            except ValueError:
                skipped.append(Skip(aid, f"offsets {at.get('from')!r}:{at.get('to')!r} are not integers"))
                continue
            asp = _check_aspect(sid, sent, aid, at.get("term"), pol, a, b, [], skipped)
            if asp is not None:
                aspects.append(asp)
        if not aspects and not list(s.iter("aspectTerm")):
            continue  # a sentence without aspect terms is normal in SemEval files, not a skip
        sent_obj = _sentence(sid, sent, aspects, skipped)
        if sent_obj is not None:
            out.append(sent_obj)
    if root.tag != "sentences" and not out:
        raise DataError(f"expected a <sentences> document, found <{root.tag}>", path=path)
    return Loaded(out, skipped, "semeval-xml", False)
