"""Readers of the GTS triplet JSON (docs/protocols/triplets.md#data) and the reconstructed train split of the paper's
dataset.

Why validated readers: a tag string whose word count differs from the sentence, an unknown polarity or a
span outside the sentence would silently shift every grid cell; such records raise DataError naming the file
and the sentence id. The reconstruction of the missing ``sentivent-event-devproto`` train split follows the
protocol's fallback (train rows of ``coarse/sentivent_implicit.csv``) and is always labelled "reconstructed train".
"""
from __future__ import annotations

import json
from collections import OrderedDict
from pathlib import Path
from typing import Any

from ...core.errors import DataError
from ...core.types import Item
from ...protocols.triplets.grid import POLARITY_TAG, Entry, read_bio, round_trip

DATASETS = ("sentivent-event-devproto", "sentivent-event-devproto-no-empty", "sentivent-devproto",
            "sentivent-devproto-no-empty", "joinedsemeval")
#: datasets shipped without train.json (docs/protocols/triplets.md#data)
NO_TRAIN = ("sentivent-event-devproto", "sentivent-event-devproto-no-empty")
RECONSTRUCTED = "reconstructed train"


def _tags(field: str, n: int, path: Path, sid: str, what: str) -> list[str]:
    parts = field.split(" ")
    if len(parts) != n:
        raise DataError(f"{what} has {len(parts)} tagged words, the sentence has {n}", path=path, record=sid)
    return [p.rsplit("\\", 1)[-1] if "\\" in p else "O" for p in parts]


def parse_sentence(rec: Any, path: Path, k: int) -> tuple[str, list[str], list[Entry]]:
    """(id, tokens, entries) of one JSON sentence record, validated."""
    if not isinstance(rec, dict) or not isinstance(rec.get("sentence"), str) or "id" not in rec:
        raise DataError("expected an object with 'id', 'sentence' and 'triples'", path=path, record=f"sentence {k}")
    sid = str(rec["id"])
    tokens = rec["sentence"].split(" ")
    entries = []
    for t in rec.get("triples") or []:
        pol = str(t.get("sentiment", "")).lower()
        if pol not in POLARITY_TAG:
            raise DataError(f"unknown sentiment {t.get('sentiment')!r}", path=path, record=sid)
        targets = read_bio(_tags(str(t.get("target_tags", "")), len(tokens), path, sid, "target_tags"))
        polars = read_bio(_tags(str(t.get("opinion_tags", "")), len(tokens), path, sid, "opinion_tags"))
        entries.append(Entry(tuple(targets), tuple(polars), pol))
    return sid, tokens, entries


def make_item(sid: str, tokens: list[str], entries: list[Entry], split: str, source: str) -> Item:
    """One item per sentence: tokens in ``Item.tokens``, entries and the decoded gold in ``meta``."""
    gold = round_trip(len(tokens), entries)
    raw = {t for e in entries for t in e.triplets()}
    meta = {"entries": [e.to_json() for e in entries], "gold": [list(t) for t in gold.triplets],
            "gold_targets": [list(s) for s in gold.targets], "gold_polars": [list(s) for s in gold.polars],
            "raw_triplets": sum(len(e.triplets()) for e in entries), "raw_unique_triplets": len(raw),
            "raw_surviving": len(raw & set(gold.triplets)),
            "source": source}
    meta["doc"] = sid.split(":", 1)[0]
    # the resampling unit of the CIs is the sentence (docs/protocols/triplets.md#metrics micro counts per sentence)
    return Item(sid, sid, split, " ".join(tokens), None, meta=meta, tokens=tuple(tokens))


def read_gts(path: Path, split: str, source: str) -> list[Item]:
    """Items of one GTS JSON file."""
    try:
        data = json.loads(path.read_text(encoding="utf-8"))
    except (json.JSONDecodeError, UnicodeDecodeError) as exc:
        raise DataError(f"not valid JSON: {exc}", path=path) from None
    if not isinstance(data, list):
        raise DataError("expected a JSON list of sentences", path=path)
    items, seen = [], set()
    for k, rec in enumerate(data):
        sid, tokens, entries = parse_sentence(rec, path, k)
        if sid in seen:
            raise DataError("duplicate sentence id", path=path, record=sid)
        seen.add(sid)
        items.append(make_item(sid, tokens, entries, split, source))
    return items


def _span(v: Any) -> tuple[int, int]:
    lo, r = v
    return int(lo), int(r)


def reconstruct_split(polar_items: list[Item], sentences: list[Item], split: str) -> list[Item]:
    """GTS items rebuilt from task-A rows (docs/protocols/triplets.md#data fallback).

    One triplet per (polar span, target span) of every row; triplets are grouped per sentence into entries per
    (target span, polarity), in row order; sentences without rows come from ``sentences`` (the
    ``sentivent-devproto`` sentence list of the split), so empty sentences are kept.
    """
    by_sent: OrderedDict[str, tuple[list[str], OrderedDict[tuple, list]]] = OrderedDict()
    for s in sentences:
        by_sent[s.item_id] = (list(s.tokens or ()), OrderedDict())
    for it in polar_items:
        doc, sent_idx = it.item_id.split(" ")[:2]
        sid = f"{doc}:{int(sent_idx)}"
        tokens = it.meta.get("sentence", "").split(" ") if it.meta.get("sentence") else None
        if sid not in by_sent:
            by_sent[sid] = (tokens or [], OrderedDict())
        groups = by_sent[sid][1]
        pol = _span(it.meta["polex_span"])
        for tgt in it.meta["target_spans"]:
            key = (_span(tgt), it.label)
            groups.setdefault(key, [])
            if pol not in groups[key]:
                groups[key].append(pol)
    out = []
    for sid, (tokens, groups) in by_sent.items():
        entries = [Entry((t,), tuple(pols), str(lab)) for (t, lab), pols in groups.items()]
        n = len(tokens)
        entries = [e for e in entries if all(r < n for _, r in e.targets + e.polars)]
        out.append(make_item(sid, tokens, entries, split, RECONSTRUCTED))
    return out
