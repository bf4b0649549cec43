"""Loaders for every ARTS file format (docs/protocols/arts.md#data).

- :func:`load_flat`: ``src_data/<domain>/{train,dev,test}.json`` (one record per aspect);
- :func:`load_sent` / :func:`load_towe`: ``*_sent.json`` / ``*_sent_towe.json`` (per sentence);
- :func:`load_enriched`: ``arts_testset/<domain>_test_enriched.json`` (``_adv4`` accepted as AddDiff);
- :func:`load_aspectset`: ``aspectset/aspectset_<domain>.txt``;
- :func:`load_results_csv`: ``output/<domain>_results.csv`` (CRLF, quoted, one column per model).

Malformed records raise :class:`DataError` naming the file, the record id and the field. The
irregularities documented in docs/protocols/arts.md#data-irregularities (offsets not matching the term, a variant whose
term differs from its source's) are tolerated: each becomes a :class:`DataWarning`, appended to ``warnings_out`` and
logged, and the span is re-located when possible. Nothing is dropped silently.
"""
from __future__ import annotations

import csv
import functools
from pathlib import Path
from typing import Any

from ...core.errors import DataError
from ...core.io import parse_json_text, read_user_text
from .formats import (
    LABELS,
    ORIGINAL,
    AspectExample,
    DataWarning,
    EnrichedExample,
    ResultsRow,
    ResultsTable,
    SentenceRecord,
    TermAnnotation,
    check_span,
    expected_label,
    normalise_key,
    parse_key,
    split_example_id,
    warn,
)

RESULTS_FIXED_COLUMNS = ("id", "sentence", "term", "gold_label")
"""Columns of a published results CSV that are not model columns (docs/protocols/arts.md#results-csv)."""


# ---- generic field checks --------------------------------------------------------------------------

def read_json_object(path: str | Path) -> dict[str, Any]:
    """Parse a JSON file whose top level must be an object keyed by id."""
    path = Path(path)
    obj = parse_json_text(read_user_text(path, "ARTS JSON file"), path)
    if not isinstance(obj, dict):
        raise DataError("top level must be a JSON object keyed by id", path=path)
    return obj


def _record(obj: Any, path: Path, key: str) -> dict[str, Any]:
    if not isinstance(obj, dict):
        raise DataError("record must be a JSON object", path=path, record=key)
    return obj


def _str(rec: dict, name: str, path: Path, key: str, *, nonempty: bool = True) -> str:
    if name not in rec:
        raise DataError("missing field", path=path, record=key, field=name)
    v = rec[name]
    if not isinstance(v, str):
        raise DataError(f"expected a string, got {type(v).__name__}", path=path, record=key, field=name)
    if nonempty and not v:
        raise DataError("empty string", path=path, record=key, field=name)
    return v


def _int(rec: dict, name: str, path: Path, key: str) -> int:
    if name not in rec:
        raise DataError("missing field", path=path, record=key, field=name)
    v = rec[name]
    if isinstance(v, bool) or not isinstance(v, int):
        raise DataError(f"expected an integer offset, got {v!r}", path=path, record=key, field=name)
    return v


def _bool(rec: dict, name: str, path: Path, key: str) -> bool:
    if name not in rec:
        raise DataError("missing field", path=path, record=key, field=name)
    v = rec[name]
    if not isinstance(v, bool):
        raise DataError(f"expected true/false, got {v!r}", path=path, record=key, field=name)
    return v


def _label(rec: dict, name: str, path: Path, key: str) -> str:
    v = _str(rec, name, path, key)
    if v not in LABELS:
        raise DataError(f"label {v!r} is not one of {list(LABELS)}", path=path, record=key, field=name)
    return v


def _example_id(value: str, path: Path, key: str, field: str) -> str:
    try:
        split_example_id(value)
    except ValueError as exc:
        raise DataError(f"bad example id: {exc}", path=path, record=key, field=field) from None
    return value


def _same_id(rec: dict, key: str, path: Path) -> str:
    v = _str(rec, "id", path, key)
    if v != key:
        raise DataError(f"id field {v!r} differs from the record key", path=path, record=key, field="id")
    return v


# ---- flat split files ------------------------------------------------------------------------------

def load_flat(path: str | Path, *, warnings_out: list[DataWarning] | None = None
              ) -> dict[str, AspectExample]:
    """Load a flat split file (docs/protocols/arts.md#flat-files): ``{example_id: AspectExample}`` in file order."""
    path = Path(path)
    out: dict[str, AspectExample] = {}
    for key, raw in read_json_object(path).items():
        rec = _record(raw, path, key)
        _example_id(key, path, key, "id")
        _same_id(rec, key, path)
        sentence = _str(rec, "sentence", path, key)
        term = _str(rec, "term", path, key)
        start, end = _int(rec, "from", path, key), _int(rec, "to", path, key)
        span = check_span(sentence, term, start, end, path=str(path), record=key, warnings_out=warnings_out)
        out[key] = AspectExample(key, sentence, term, _label(rec, "polarity", path, key), start, end, span,
                                 _bool(rec, "multi", path, key), _bool(rec, "contra", path, key))
    return out


# ---- per-sentence files ----------------------------------------------------------------------------

def _opinions(term: dict, sentence: str, path: Path, tid: str, warnings_out) -> tuple[tuple, tuple]:
    words, spans = term.get("opinion_words"), term.get("opinion_position")
    if words is None and spans is None:
        raise DataError("missing field", path=path, record=tid, field="opinion_words")
    if not isinstance(words, list) or not all(isinstance(w, str) for w in words):
        raise DataError("expected a list of strings", path=path, record=tid, field="opinion_words")
    if not isinstance(spans, list) or len(spans) != len(words):
        raise DataError("expected a list of [from, to] parallel to opinion_words", path=path, record=tid,
                        field="opinion_position")
    out = []
    for w, sp in zip(words, spans):
        if (not isinstance(sp, list) or len(sp) != 2
                or not all(isinstance(x, int) and not isinstance(x, bool) for x in sp)):
            raise DataError(f"bad opinion span {sp!r}", path=path, record=tid, field="opinion_position")
        a, b = sp
        if sentence[a:b] != w or not 0 <= a <= b <= len(sentence):
            warn(DataWarning(str(path), tid, "opinion_position",
                             f"span {a}:{b} gives {sentence[a:b]!r}, not the opinion {w!r}"), warnings_out)
        out.append((a, b))
    return tuple(words), tuple(out)


def load_sent(path: str | Path, *, towe: bool | None = None,
              warnings_out: list[DataWarning] | None = None) -> dict[str, SentenceRecord]:
    """Load a per-sentence file (docs/protocols/arts.md#sentence-files; docs/protocols/arts.md#towe-files when
    ``towe``): ``{sentence_id: SentenceRecord}``.

    ``towe=None`` reads opinion fields when a term has them; ``True`` requires them; ``False``
    ignores them.
    """
    path = Path(path)
    out: dict[str, SentenceRecord] = {}
    for key, raw in read_json_object(path).items():
        rec = _record(raw, path, key)
        _same_id(rec, key, path)
        sentence = _str(rec, "sentence", path, key)
        tl = rec.get("term_list")
        if not isinstance(tl, dict):
            raise DataError("expected an object of example id -> term", path=path, record=key, field="term_list")
        terms = []
        for tid, traw in tl.items():
            t = _record(traw, path, tid)
            _example_id(tid, path, tid, "id")
            _same_id(t, tid, path)
            if split_example_id(tid)[0] != key:
                raise DataError(f"example id does not belong to sentence {key!r}", path=path, record=tid,
                                field="id")
            term = _str(t, "term", path, tid)
            start, end = _int(t, "from", path, tid), _int(t, "to", path, tid)
            span = check_span(sentence, term, start, end, path=str(path), record=tid, warnings_out=warnings_out)
            words: tuple = ()
            spans: tuple = ()
            if towe or (towe is None and ("opinion_words" in t or "opinion_position" in t)):
                words, spans = _opinions(t, sentence, path, tid, warnings_out)
            terms.append(TermAnnotation(tid, term, _label(t, "polarity", path, tid), start, end, span,
                                        words, spans))
        out[key] = SentenceRecord(key, sentence, _bool(rec, "multi", path, key),
                                  _bool(rec, "contra", path, key), tuple(terms))
    return out


def load_towe(path: str | Path, *, warnings_out: list[DataWarning] | None = None) -> dict[str, SentenceRecord]:
    """Load a ``_sent_towe`` file (docs/protocols/arts.md#towe-files); every term must carry opinion words and spans."""
    return load_sent(path, towe=True, warnings_out=warnings_out)


# ---- released ARTS test sets -----------------------------------------------------------------------

def load_enriched(path: str | Path, *, warnings_out: list[DataWarning] | None = None
                  ) -> dict[str, EnrichedExample]:
    """Load a released ARTS test set (docs/protocols/arts.md#enriched-sets): ``{item_key: EnrichedExample}`` in file
    order.

    ``_adv4`` keys are accepted as AddDiff and keyed by their ``_adv3`` form. Checks: the ``id``
    field is the key without its suffix; every variant's source is present; no key appears as both
    ``_adv3`` and ``_adv4``. Warnings (not errors): offsets not matching the term (the span is
    re-located, preferring for a variant the occurrence nearest to its source's offset), a variant
    term differing from its source's term, a variant label breaking the docs/protocols/arts.md#enriched-sets label rule.
    """
    path = Path(path)
    raw_records: dict[str, tuple] = {}
    for key, raw in read_json_object(path).items():
        rec = _record(raw, path, key)
        source_id, kind = parse_key(key)
        _example_id(source_id, path, key, "id")
        sid = _str(rec, "id", path, key)
        if sid != source_id:
            raise DataError(f"id field {sid!r} does not name this record's source {source_id!r}",
                            path=path, record=key, field="id")
        sentence = _str(rec, "sentence", path, key)
        term = _str(rec, "term", path, key)
        start, end = _int(rec, "from", path, key), _int(rec, "to", path, key)
        polarity = _label(rec, "polarity", path, key)
        item_key = normalise_key(key)
        if item_key in raw_records:
            raise DataError(f"duplicate record (same as {raw_records[item_key][0]!r})", path=path, record=key,
                            field="id")
        raw_records[item_key] = (key, source_id, kind, sentence, term, polarity, start, end)
    out: dict[str, EnrichedExample] = {}
    for item_key, (key, source_id, kind, sentence, term, polarity, start, end) in raw_records.items():
        src = raw_records.get(source_id) if kind != ORIGINAL else None
        near = src[6] if src is not None else None
        span = check_span(sentence, term, start, end, path=str(path), record=key, warnings_out=warnings_out,
                          near=near)
        out[item_key] = EnrichedExample(key, item_key, source_id, kind, sentence, term, polarity, start, end, span)
    _check_units(out.values(), path, warnings_out, key_of=lambda e: e.key, label_of=lambda e: e.polarity,
                 lookup=out)
    return out


def _check_units(records, path: Path, warnings_out, *, key_of, label_of, lookup, log: bool = True) -> None:
    """Every variant needs its source; warn on a changed term or a broken label rule."""
    for e in records:
        if e.kind == ORIGINAL:
            continue
        src = lookup.get(e.source_id)
        if src is None or src.kind != ORIGINAL:
            raise DataError(f"variant without its source example {e.source_id!r}", path=path,
                            record=key_of(e), field="id")
        if e.term != src.term:
            warn(DataWarning(str(path), key_of(e), "term",
                             f"variant term {e.term!r} differs from the source term {src.term!r} "
                             "(human edit; the variant's own term is used)"), warnings_out, log=log)
        want = expected_label(label_of(src), e.kind)
        if label_of(e) != want:
            warn(DataWarning(str(path), key_of(e), "polarity",
                             f"{e.kind} variant labelled {label_of(e)!r}; the label rule gives {want!r}"),
                 warnings_out, log=log)


# ---- AspectSet -------------------------------------------------------------------------------------

def load_aspectset(path: str | Path) -> tuple[str, ...]:
    """Load an AspectSet phrase list (docs/protocols/arts.md#aspectset): one phrase per line, duplicates kept, in file
    order."""
    path = Path(path)
    try:
        text = path.read_text(encoding="utf-8")
    except UnicodeDecodeError as exc:
        raise DataError(f"not UTF-8 text: {exc.reason}", path=path) from None
    lines = text.split("\n")
    if lines and lines[-1] == "":
        lines.pop()  # the final line terminator
    out = []
    for i, line in enumerate(lines, 1):
        phrase = line.rstrip("\r")
        if not phrase.strip():
            raise DataError("empty phrase", path=path, record=f"line {i}", field="phrase")
        out.append(phrase)
    return tuple(out)


# ---- published prediction CSVs ---------------------------------------------------------------------

@functools.lru_cache(maxsize=8)
def _results_cached(path: str, mtime_ns: int, size: int) -> ResultsTable:
    return load_results_csv(path, log=False)


def cached_results_csv(path: str | Path) -> ResultsTable:
    """:func:`load_results_csv` (``log=False``), cached per file and its modification time and size: a run's
    reference systems read one results CSV per model column (nine ARTS systems, one file per domain), so parsing it
    once per file, not once per column, keeps them cheap. The table is frozen, so sharing it is safe."""
    p = Path(path).resolve()
    st = p.stat()
    return _results_cached(str(p), st.st_mtime_ns, st.st_size)


def load_results_csv(path: str | Path, *, warnings_out: list[DataWarning] | None = None,
                     log: bool = True) -> ResultsTable:
    """Load a published results CSV (docs/protocols/arts.md#results-csv): CRLF, standard quoting, one column per model.

    Row ids keep their verbatim form in ``ResultsRow.id``; ``item_key`` maps ``_adv4`` to ``_adv3``.
    Gold labels must be valid labels; prediction cells are kept as written (an empty cell becomes
    ``None``) and validated when scored. Every variant row needs its source row. ``log=False``
    only collects the warnings (used when a predictions file repeats the suite's own data).
    """
    path = Path(path)
    try:
        with open(path, encoding="utf-8", newline="") as f:
            reader = csv.reader(f)
            header = next(reader, None)
            if header is None:
                raise DataError("empty file", path=path)
            missing = [c for c in RESULTS_FIXED_COLUMNS if c not in header]
            if missing:
                raise DataError(f"missing columns {missing} (header: {header})", path=path, record="line 1",
                                field=missing[0])
            if len(set(header)) != len(header) or any(not h for h in header):
                raise DataError(f"empty or duplicate column names in header {header}", path=path,
                                record="line 1")
            pos = {c: header.index(c) for c in RESULTS_FIXED_COLUMNS}
            model_idx = [i for i, h in enumerate(header) if h not in RESULTS_FIXED_COLUMNS]
            rows: list[ResultsRow] = []
            seen: dict[str, int] = {}
            for raw in reader:
                line = reader.line_num
                if not raw:
                    raise DataError("empty row", path=path, record=f"line {line}")
                rid = raw[pos["id"]] if len(raw) > pos["id"] else ""
                record = rid or f"line {line}"
                if len(raw) != len(header):
                    raise DataError(f"{len(raw)} fields, header has {len(header)}", path=path, record=record)
                for c in ("id", "sentence", "term", "gold_label"):
                    if not raw[pos[c]]:
                        raise DataError("empty field", path=path, record=record, field=c)
                source_id, kind = parse_key(rid)
                _example_id(source_id, path, rid, "id")
                gold = raw[pos["gold_label"]]
                if gold not in LABELS:
                    raise DataError(f"label {gold!r} is not one of {list(LABELS)}", path=path, record=rid,
                                    field="gold_label")
                item_key = normalise_key(rid)
                if item_key in seen:
                    raise DataError(f"duplicate row (same item as line {seen[item_key]})", path=path,
                                    record=rid, field="id")
                seen[item_key] = line
                preds = tuple((raw[i] or None) for i in model_idx)
                rows.append(ResultsRow(rid, item_key, source_id, kind, raw[pos["sentence"]], raw[pos["term"]],
                                       gold, preds, line))
    except UnicodeDecodeError as exc:
        raise DataError(f"not UTF-8 text: {exc.reason}", path=path) from None
    except csv.Error as exc:
        raise DataError(f"CSV syntax error: {exc}", path=path) from None
    if not rows:
        raise DataError("no rows", path=path)
    by_key = {r.item_key: r for r in rows}
    _check_units(rows, path, warnings_out, key_of=lambda r: r.id, label_of=lambda r: r.gold, lookup=by_key,
                 log=log)
    return ResultsTable(str(path), tuple(header[i] for i in model_idx), tuple(rows))
