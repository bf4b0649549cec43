"""Reading ARTS predictions made elsewhere (docs/protocols/arts.md#results-csv, #ars).

Two layouts are accepted:

1. a published results CSV (``output/<domain>_results.csv``: ``id,sentence,term,gold_label`` then one
   column per model); ``column`` picks the model and is required when there are several (ConfigError
   listing them). Its sentence, term and gold label must agree with the suite's test items (DataError
   naming the first disagreeing rows), so a file of another domain or a misaligned copy fails loudly;
2. an ``item_id,label`` CSV / JSONL (the generic reader of :mod:`..predictions_io`).

In both, ``_adv4`` ids (the released files' AddDiff suffix) map to ``_adv3``, the items' id.
"""
from __future__ import annotations

import csv
import io
from collections.abc import Sequence
from dataclasses import replace
from pathlib import Path
from typing import TYPE_CHECKING

from ...core.errors import ConfigError, DataError
from ...core.io import read_user_text
from ...core.types import Item, Prediction
from ..predictions_io import read_label_file
from . import load
from .formats import normalise_key

if TYPE_CHECKING:
    from ..base import Suite


def read_predictions(suite: Suite, path: Path, column: str | None = None) -> list[Prediction]:
    """Read a published results CSV or an ``item_id,label`` CSV/JSONL (see the module docstring)."""
    path = Path(path)
    read_user_text(path, "predictions file")  # the input layer: missing, directory, binary, encoding
    if path.suffix not in (".jsonl", ".json") and is_results_csv(path):
        return read_results(path, column, suite.items("test"), suite.name)

    return [replace(p, item_id=normalise_key(p.item_id)) if p.item_id.endswith("_adv4") else p
            for p in read_label_file(path, column=column)]


def read_results(path: Path, column: str | None, test_items: Sequence[Item], suite_name: str) -> list[Prediction]:
    """Predictions of one model column of a results CSV, validated against ``test_items``."""
    table = load.cached_results_csv(path)  # its irregularities are the test items' own; parsed once per file
    if column is None:
        if len(table.models) != 1:
            raise ConfigError(f"{path} is a results table with the model columns {list(table.models)}; "
                              "choose one with --column")
        column = table.models[0]
    if column not in table.models:
        raise ConfigError(f"no model column {column!r} in {path}; available: {list(table.models)}")
    by_id = {it.item_id: it for it in test_items}
    bad: list[tuple[str, str]] = []
    for r in table.rows:
        it = by_id.get(r.item_key)
        if it is None:
            continue  # unknown ids are reported by check_predictions
        for field, mine, theirs in (("sentence", r.sentence, it.text), ("term", r.term, it.aspect),
                                    ("gold_label", r.gold, it.label)):
            if mine != theirs:
                bad.append((r.id, field))
    if bad:
        shown = ", ".join(f"{i} ({f})" for i, f in bad[:10])
        raise DataError(f"{len(bad)} value(s) disagree with the {suite_name} test items; first: {shown}",
                        path=path, record=bad[0][0], field=bad[0][1])
    j = table.models.index(column)
    src = {"source": str(path), "column": column}
    return [Prediction(r.item_key, r.predictions[j], raw=r.predictions[j], parse_ok=r.predictions[j] is not None,
                       meta=src) for r in table.rows]


def is_results_csv(path: Path) -> bool:
    """Whether the file's header has the published results' fixed columns (docs/protocols/arts.md#results-csv)."""
    try:
        header = next(csv.reader(io.StringIO(read_user_text(path, "predictions file"), newline="")), [])
    except csv.Error:
        return False
    return all(c in header for c in load.RESULTS_FIXED_COLUMNS)
