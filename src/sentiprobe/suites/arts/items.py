"""Turn ARTS records into :class:`Item` objects (docs/protocols/arts.md#enriched-sets, #results-csv, #ars,
#data-irregularities).

Test items are the originals plus their variants. ``item_id`` is the enriched key with AddDiff
normalised to ``_adv3`` (originals keep their id verbatim), ``group_id`` is the source example id
(the ARS unit), ``kind`` is ``original``/``revtgt``/``revnon``/``adddiff`` and ``aspect`` is the
item's **own** term. Items whose record had a data warning carry the messages in
``meta["data_warnings"]`` so that scoring can report them.
"""
from __future__ import annotations

from collections.abc import Iterable, Mapping

from ...core.errors import DataError
from ...core.types import Item
from .formats import (ORIGINAL, AspectExample, DataWarning, EnrichedExample, ResultsTable, locate_term,
                      normalise_key, warn)


def warnings_by_record(warnings: Iterable[DataWarning]) -> dict[str, list[str]]:
    """Group warning texts by record id (``_adv4`` record ids mapped to ``_adv3``)."""
    out: dict[str, list[str]] = {}
    for w in warnings:
        out.setdefault(normalise_key(w.record), []).append(f"{w.field}: {w.message}")
    return out


def _meta(item_id: str, notes: Mapping[str, list[str]]) -> dict:
    msgs = notes.get(item_id)
    return {"data_warnings": list(msgs)} if msgs else {}


def enriched_items(records: Mapping[str, EnrichedExample], warnings: Iterable[DataWarning] = ()) -> list[Item]:
    """Test items of a released ARTS set (laptop, restaurant), in file order."""
    notes = warnings_by_record(warnings)
    return [Item(item_id=e.item_key, group_id=e.source_id, split="test", text=e.sentence, label=e.polarity,
                 aspect=e.term, span=e.span, kind=e.kind, meta=_meta(e.item_key, notes))
            for e in records.values()]


def results_items(table: ResultsTable, originals: Mapping[str, AspectExample] | None = None, *,
                  warnings_out: list[DataWarning] | None = None,
                  extra_warnings: Iterable[DataWarning] = ()) -> list[Item]:
    """Test items built from a published results CSV (the only copy of the MAMS enriched set).

    The CSV has no offsets. For originals, ``originals`` (the flat ``test.json`` records) supply
    them; the CSV's sentence, term and gold label must agree with that file (else DataError naming
    the row and field). For variants the term is located in the sentence: an AddDiff variant first
    tries its source's span (AddDiff copies it, docs/protocols/arts.md#adddiff); a term occurring several times gets the
    occurrence nearest to its source's offset and a term that is absent gets ``span=None``, each
    with a :class:`DataWarning`.
    """
    local: list[DataWarning] = []
    spans: dict[str, tuple[int, int] | None] = {}
    for r in table.rows:
        if r.kind != ORIGINAL:
            continue
        src = originals.get(r.id) if originals is not None else None
        if originals is not None and src is None:
            raise DataError("original row has no record in the flat test file", path=table.path, record=r.id,
                            field="id")
        if src is not None:
            for field, mine, theirs in (("sentence", r.sentence, src.sentence), ("term", r.term, src.term),
                                        ("gold_label", r.gold, src.polarity)):
                if mine != theirs:
                    raise DataError(f"{mine!r} disagrees with the flat test file's {theirs!r}", path=table.path,
                                    record=r.id, field=field)
            spans[r.id] = src.span
        else:
            spans[r.id] = _locate(r.sentence, r.term, None, table.path, r.id, local, None)
    for r in table.rows:
        if r.kind == ORIGINAL:
            continue
        src_span = spans.get(r.source_id)
        hint = src_span if r.kind == "adddiff" else None
        near = src_span[0] if src_span is not None else None
        spans[r.item_key] = _locate(r.sentence, r.term, hint, table.path, r.id, local, near)
    for w in local:
        warn(w, warnings_out)
    notes = warnings_by_record(list(extra_warnings) + local)
    return [Item(item_id=r.item_key, group_id=r.source_id, split="test", text=r.sentence, label=r.gold,
                 aspect=r.term, span=spans[r.item_key], kind=r.kind, meta=_meta(r.item_key, notes))
            for r in table.rows]


def _locate(sentence: str, term: str, hint, path: str, record: str, out: list[DataWarning], near):
    span, problem = locate_term(sentence, term, hint, near)
    if problem:
        out.append(DataWarning(path, record, "term", f"no offsets in the file: {problem}"))
    return span


def flat_items(records: Mapping[str, AspectExample], split: str,
               warnings: Iterable[DataWarning] = ()) -> list[Item]:
    """Items of a flat split file (train/dev/test originals): one unit per example."""
    notes = warnings_by_record(warnings)
    return [Item(item_id=e.id, group_id=e.id, split=split, text=e.sentence, label=e.polarity, aspect=e.term,
                 span=e.span, kind=ORIGINAL, meta=_meta(e.id, notes))
            for e in records.values()]
