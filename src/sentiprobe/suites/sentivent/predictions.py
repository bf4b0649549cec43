"""Reading SENTiVENT prediction files made elsewhere.

Three layouts are accepted (ids are the data files' ids verbatim, e.g. ``aapl14 00 00`` or
``aapl14_gil_s01_c00``):

1. ``item_id,label`` (or ``id,pred``) CSV / JSONL: the generic reader of :mod:`..predictions_io`;
2. the published ``predictions/gold-test-*.csv`` (``id,text,labels,pred``, one row per test item): read
   the same way; the ``labels`` (gold) column is checked against the data, so a misaligned file fails;
3. the error-analysis lists (``error-analysis/*``, tab-separated, **unquoted**, ``id,text,labels,pred``
   followed by category flags) that list every test error of a model: the full prediction vector is
   rebuilt (an unlisted test item was predicted correctly; such predictions carry
   ``meta["rebuilt"] = "not listed: correct"``).
"""
from __future__ import annotations

import csv
import io
from collections import Counter
from collections.abc import Sequence
from pathlib import Path
from typing import TYPE_CHECKING

from ...core.errors import DataError, PredictionError
from ...core.io import read_table, read_user_text
from ...core.types import Item, Prediction
from ..predictions_io import read_label_file

if TYPE_CHECKING:
    from ..base import Suite

ERROR_LIST_HEAD = ("id", "text", "labels", "pred")


def read_predictions(suite: Suite, path: Path, column: str | None = None) -> list[Prediction]:
    """The predictions stage: any of the three layouts, checked against the suite's test items."""
    return read_sentivent_predictions(path, suite.items("test"), column=column)


def _header(path: Path) -> str:
    return read_user_text(path, "predictions file").split("\n", 1)[0].rstrip("\r")


def is_error_list(path: str | Path) -> bool:
    """True for the error-analysis layout: tab-separated ``id, text, labels, pred`` + category columns."""
    cols = _header(Path(path)).split("\t")
    return tuple(c.strip() for c in cols[:4]) == ERROR_LIST_HEAD and len(cols) > 4


def read_error_list(path: str | Path) -> tuple[list[str], list[dict[str, str]]]:
    """``(category columns, rows)`` of an error-analysis file (tab-separated, quoting disabled)."""
    path = Path(path)
    with io.StringIO(read_user_text(path, "predictions file"), newline="") as f:
        reader = csv.reader(f, delimiter="\t", quoting=csv.QUOTE_NONE)
        header = next(reader, None)
        if not header or tuple(h.strip() for h in header[:4]) != ERROR_LIST_HEAD:
            raise DataError(f"expected columns {list(ERROR_LIST_HEAD)} first", path=path, record="header")
        cats = [h.strip() for h in header[4:]]
        rows = []
        for n, r in enumerate(reader, start=1):
            if not r or (len(r) == 1 and not r[0].strip()):
                continue
            if len(r) > len(header) and any(x.strip() for x in r[len(header):]):
                raise DataError(f"expected at most {len(header)} fields, found {len(r)}", path=path,
                                record=f"row {n}")
            r = r + [""] * (len(header) - len(r))
            rows.append({"id": r[0], "text": r[1], "labels": r[2], "pred": r[3],
                         **{c: r[4 + j].strip() for j, c in enumerate(cats)}})
    return cats, rows


def _check_gold(path: Path, ids_gold: list[tuple[str, str]], gold: dict[str, str]) -> None:
    bad = [f"{i}: file says {g!r}, data says {gold[i]!r}" for i, g in ids_gold if i in gold and gold[i] != g]
    if bad:
        raise PredictionError("the gold 'labels' column disagrees with the data (misaligned or foreign file)",
                              bad, path=path)


def read_sentivent_predictions(path: str | Path, test_items: Sequence[Item], *,
                               column: str | None = None) -> list[Prediction]:
    """Read any of the three layouts of the module docstring."""
    path = Path(path)
    read_user_text(path, "predictions file")  # the input layer: missing, directory, binary, encoding
    gold = {it.item_id: str(it.label) for it in test_items}
    if column is None and is_error_list(path):
        _, rows = read_error_list(path)
        unknown = [r["id"] for r in rows if r["id"] not in gold]
        if unknown:
            raise PredictionError("error list names ids that are not test items of this suite", unknown, path=path)
        _check_gold(path, [(r["id"], r["labels"]) for r in rows], gold)
        dups = [i for i, c in Counter(r["id"] for r in rows).items() if c > 1]
        if dups:
            raise PredictionError("duplicate ids in the error list", dups, path=path)
        listed = {r["id"]: r["pred"].strip() or None for r in rows}
        src = {"source": str(path)}
        return [Prediction(it.item_id, listed[it.item_id], parse_ok=listed[it.item_id] is not None, meta=src)
                if it.item_id in listed else
                Prediction(it.item_id, it.label, meta={**src, "rebuilt": "not listed: correct"})
                for it in test_items]
    preds = read_label_file(path, column=column)
    if path.suffix not in (".jsonl", ".json"):
        rows = read_table(path, "predictions file")
        if rows and "labels" in rows[0] and ("id" in rows[0] or "item_id" in rows[0]):
            idc = "item_id" if "item_id" in rows[0] else "id"
            _check_gold(path, [(r[idc], r["labels"]) for r in rows], gold)
    return preds
