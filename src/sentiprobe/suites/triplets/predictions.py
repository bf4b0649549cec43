"""Reading any system's triplets: JSONL with word-index spans, or loose JSON with text spans (LLM output).

File layouts (one record per sentence; ids are the dataset's sentence ids, e.g. ``lap14:123``):

- JSONL: ``{"id": ..., "triplets": [...], "targets": [...]?, "polars": [...]?}`` per line;
- a JSON list of such records;
- a JSON object ``{sentence id: [triplets]}``.

Triplet shapes are those of :mod:`.parse`. Optional ``targets``/``polars`` give the system's extracted spans
for the span metrics (else the spans of its triplets are used).

Why nothing here raises on a bad record: a broken line, an unknown id, an out-of-range or overlapping span or an
unknown polarity is a *counted failure naming the record* (``meta["failures"]``), scored as a miss. Only a file
that cannot be read at all (absent, a directory, binary, not UTF-8, empty) is an error here; at scoring,
:func:`check_coverage` refuses a file that names no sentence of the test set and applies ``--missing``.
"""
from __future__ import annotations

import json
from collections.abc import Sequence
from pathlib import Path
from typing import TYPE_CHECKING, Any

from ...core.errors import PredictionError
from ...core.io import JSONNestingError, loads_json, read_user_text
from ...core.types import Item, Prediction
from .parse import ID_KEYS, LIST_KEYS, read_spans, read_triplet_list, reply_triplets

if TYPE_CHECKING:
    from ..base import Suite

UNATTRIBUTED = "@unattributed"


def split_records(text: str) -> list[tuple[str, Any, str | None]]:
    """``(record name, value, error)`` of every record of the file (JSON document or JSON lines)."""
    stripped = text.strip()
    try:
        doc = loads_json(stripped)
    except json.JSONDecodeError:  # JSONNestingError too: read line by line, each bad line a counted failure
        doc = None
    else:
        if isinstance(doc, list):
            return [(f"record {k}", v, None) for k, v in enumerate(doc)]
        if isinstance(doc, dict) and not any(k in doc for k in ID_KEYS):
            return [(f"key {k!r}", {"id": k, "triplets": v}, None) for k, v in doc.items()]
        first = next(n for n, ln in enumerate(text.splitlines(), start=1) if ln.strip())
        return [(f"line {first}", doc, None)]  # a one-record JSON lines file
    out: list[tuple[str, Any, str | None]] = []
    for n, line in enumerate(text.splitlines(), start=1):
        if not line.strip():
            continue
        try:
            out.append((f"line {n}", loads_json(line), None))
        except JSONNestingError as exc:
            out.append((f"line {n}", None, f"broken JSON: {exc.msg}"))
        except json.JSONDecodeError as exc:
            out.append((f"line {n}", None, f"broken JSON: {exc.msg} at column {exc.colno}"))
    return out


def _record_id(value: Any) -> str | None:
    if isinstance(value, dict):
        for k in ID_KEYS:
            if k in value and isinstance(value[k], str | int) and not isinstance(value[k], bool):
                return str(value[k])
    return None


def _unwrap_run_record(value: dict[str, Any]) -> dict[str, Any]:
    """A ``sentiprobe run`` predictions line (a Prediction: triplets in ``meta``) as a plain record.

    Generated replies (``meta.mode == "generate"``) come back as ``reply`` so they are parsed again with the
    same failures; a tagger's triplets and spans are taken as they are.
    """
    meta = value.get("meta")
    if any(k in value for k in LIST_KEYS) or not isinstance(meta, dict) or "triplets" not in meta:
        return value
    if meta.get("mode") == "generate":
        if meta.get("generation_error"):  # unanswered: no triplet (misses), not a parse failure
            return {"triplets": []}
        if meta.get("parse_error"):  # cut off, or not JSON under structured decoding: it stays one counted failure
            return {"reply": ""}
        return {"reply": value["raw"] if isinstance(value.get("raw"), str) else ""}
    return {k: meta[k] for k in ("triplets", "targets", "polars") if meta.get(k) is not None}


def read_predictions(suite: Suite, path: Path, column: str | None = None) -> list[Prediction]:
    """One Prediction per sentence id met (triplets in ``meta``), plus unattributed failure records."""
    text = read_user_text(path, "predictions file")
    records = split_records(text)
    if not records:
        raise PredictionError("the predictions file holds no records", path=path)
    tokens = {it.item_id: list(it.tokens or ()) for it in suite.items("test")}
    merged: dict[str, dict[str, Any]] = {}
    stray: list[dict] = []
    for name, value, error in records:
        if error is not None:
            stray.append({"record": name, "reason": error})
            continue
        sid = _record_id(value)
        if sid is None:
            stray.append({"record": name, "reason": f"no sentence id (expected one of {list(ID_KEYS)})"})
            continue
        rec = f"{name} ({sid})"
        if sid not in tokens:
            stray.append({"record": rec, "reason": "sentence id is not in the suite's test set"})
            continue
        acc = merged.setdefault(sid, {"triplets": [], "targets": None, "polars": None, "failures": [],
                                      "entries": 0, "records": []})
        acc["records"].append(name)
        value = _unwrap_run_record(value)
        if isinstance(value.get("reply"), str):  # an LLM reply saved by a run: parse it again, failures included
            trip, fails, n = reply_triplets(value["reply"], tokens[sid], rec)
            acc["entries"] += n
        else:
            raw = next((value[k] for k in LIST_KEYS if k in value), None)
            trip, fails = read_triplet_list(raw, tokens[sid], rec)
            acc["entries"] += max(len(raw) if isinstance(raw, list) else 1, len(trip) + len(fails)) \
                if raw is not None else 0
        acc["triplets"] += [list(t) for t in trip if list(t) not in acc["triplets"]]
        acc["failures"] += fails
        for key in ("targets", "polars"):
            spans, sf = read_spans(value.get(key), tokens[sid], rec, key)
            acc["failures"] += sf
            acc["entries"] += len(sf)
            if spans is not None:
                acc[key] = sorted({*(tuple(s) for s in acc[key] or []), *spans})
    out = [Prediction(sid, None, parse_ok=not acc["failures"],
                      meta={"triplets": acc["triplets"],
                            "targets": None if acc["targets"] is None else [list(s) for s in acc["targets"]],
                            "polars": None if acc["polars"] is None else [list(s) for s in acc["polars"]],
                            "failures": acc["failures"], "entries": acc["entries"], "records": acc["records"]})
           for sid, acc in merged.items()]
    if stray:
        out.append(Prediction(UNATTRIBUTED, None, parse_ok=False,
                              meta={"failures": stray, "entries": len(stray), "triplets": []}))
    return out


def check_coverage(items: Sequence[Item], predictions: Sequence[Prediction], *, missing: str = "error",
                   path: str | Path | None = None) -> list[str]:
    """The ids of the sentences without a prediction record, after the checks every suite makes.

    A file none of whose records names a sentence of the items (ids of another dataset, free text, every line
    broken) is a PredictionError whatever ``missing`` says: it would score F1 0 for a reason that is not the
    system's. Sentences without a record are an error under ``missing="error"`` (the default, as in every
    suite); under ``wrong``/``variants-wrong`` they are scored as "no triplets predicted" and reported.
    """
    known = {it.item_id for it in items}
    # a blank record (an empty cell of a file) is a missing prediction, as in every suite
    got = {p.item_id for p in predictions
           if p.item_id in known and not (isinstance(p.meta, dict) and p.meta.get("blank"))}
    if items and not got:
        stray = [f"{f.get('record')}: {f.get('reason')}" for p in predictions
                 for f in (p.meta.get("failures") if isinstance(p.meta, dict) else None) or []]
        raise PredictionError("no record names a sentence of the suite's test set (wrong dataset or split, or "
                              "not a triplet predictions file)", stray or [p.item_id for p in predictions],
                              path=path, limit=3)
    absent = [it.item_id for it in items if it.item_id not in got]
    if absent and missing == "error":
        raise PredictionError(f"{len(absent)} of {len(items)} sentences have no prediction record (use --missing "
                              "wrong to score them as 'no triplets predicted')", absent, path=path)
    return absent


def to_jsonl_rows(predictions: list[Prediction]) -> list[dict[str, Any]]:
    """Predictions as the JSONL layout this module reads (``{"id", "triplets", "targets", "polars"}``)."""
    rows = []
    for p in predictions:
        if p.item_id == UNATTRIBUTED:
            continue
        row = {"id": p.item_id, "triplets": p.meta.get("triplets", [])}
        for k in ("targets", "polars"):
            if p.meta.get(k) is not None:
                row[k] = p.meta[k]
        rows.append(row)
    return rows
