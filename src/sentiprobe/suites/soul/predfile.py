"""Reading SOUL predictions made elsewhere (``sentiprobe score --suite soul-rc|soul-jg``).

Accepted files (CSV, TSV or JSONL):

- sentiprobe prediction dumps (``predictions/soul-*.jsonl`` of a run: rows with ``parse_ok``), read as is;
- tables with an id column ``item_id`` (or ``id``), a label column (``label`` / ``prediction`` /
  ``pred``, or ``--column``), and optionally ``justification`` (JG candidate), ``output`` / ``raw``
  (the model's raw reply);
- the reference code's output CSV (``rid``, ``statement``, ``prediction``, optionally ``output``) with no
  id column: the item id is ``<rid>:<n>`` with ``n`` the row's position among the rows of its review,
  which needs the data's row order (the reference script keeps it). The ``statement`` column is then
  checked against the data when scoring, so a reordered file fails loudly instead of being misscored.

Labels are parsed like model replies: RC ``strict`` (lower-cased, stripped, exact match), JG with
docs/protocols/soul.md#label-extraction's extraction; the lenient label (docs/protocols/soul.md#label-extraction) is
kept in ``meta["label_lenient"]``. A label that does not parse becomes ``label=None`` (scored wrong, counted, shown in
the junk table). For JG, without a ``justification`` column the candidate is extracted from ``output`` when present;
without either, the text metrics are not computable.
"""
from __future__ import annotations

from collections import Counter
from pathlib import Path
from typing import Any

from ...core.errors import DataError
from ...core.io import read_table
from ...core.types import Prediction
from ..predictions_io import prediction_from_record
from .parse import extract_justification, extract_label, parse_answer

ID_COLUMNS = ("item_id", "id")
LABEL_COLUMNS = ("prediction", "pred", "label")
"""Prediction columns first: the reference code's output holds the gold ``label`` beside ``prediction``."""
TEXT_COLUMNS = ("justification",)
RAW_COLUMNS = ("output", "raw")


def _first(header: list[str], wanted: tuple[str, ...]) -> str | None:
    return next((w for w in wanted if w in header), None)


def read_soul_predictions(path: str | Path, task: str, column: str | None = None) -> list[Prediction]:
    """Predictions from a file (see the module docstring); ``task`` is ``rc`` or ``jg``."""
    path = Path(path)
    rows = read_table(path, "predictions file")
    if not rows:
        raise DataError("no predictions in file", path=path)
    if all("parse_ok" in r and "item_id" in r for r in rows):
        return [prediction_from_record(r, path, i) for i, r in enumerate(rows, 1)]
    header = list(rows[0].keys())
    idc = _first(header, ID_COLUMNS)
    if idc is None and not ("rid" in header and "statement" in header):
        raise DataError(f"no id column (looked for {', '.join(ID_COLUMNS)}, or rid + statement; "
                        f"header has {header})", path=path)
    labc = column or _first(header, LABEL_COLUMNS)
    if labc is None or labc not in header:
        raise DataError(f"no label column (looked for {column or ', '.join(LABEL_COLUMNS)}; header has {header})",
                        path=path)
    textc = _first(header, TEXT_COLUMNS)
    rawc = _first(header, RAW_COLUMNS)
    position: Counter[str] = Counter()
    out = []
    for i, r in enumerate(rows, 1):
        meta: dict[str, Any] = {"source": str(path), "row": i}
        if idc is not None:
            if r.get(idc) in (None, ""):
                raise DataError("missing id", path=path, record=f"row {i}", field=idc)
            item_id = str(r[idc])
        else:
            rid = str(r.get("rid") or "").strip()
            if not rid:
                raise DataError("missing rid", path=path, record=f"row {i}", field="rid")
            position[rid] += 1
            item_id = f"{rid}:{position[rid]}"
            meta["statement"] = r.get("statement")
        if labc not in r:
            raise DataError("missing label column", path=path, record=item_id, field=labc)
        given = r[labc]
        given = None if given is None or str(given) == "" else str(given)
        parsed = parse_answer(given, task)
        meta["label_given"] = given
        meta["label_lenient"] = parsed.label_lenient
        raw = r.get(rawc) if rawc else None
        raw = str(raw) if raw not in (None, "") else None
        text = None
        if task == "jg":
            if textc is not None:
                text = "" if r.get(textc) is None else str(r[textc])
            elif raw is not None:
                text = extract_justification(raw)
                if given is None:  # a reference-style row with only the raw reply
                    parsed = parse_answer(raw, task)
                    meta["label_lenient"] = extract_label(raw)
        if given is None and raw is None and text is None:
            meta["blank"] = True  # an empty cell: a missing prediction (see suites.base.check_predictions)
        meta["column"] = labc
        out.append(Prediction(item_id, parsed.label, text=text, raw=raw if raw is not None else given,
                              parse_ok=parsed.label is not None, meta=meta))
    return out
