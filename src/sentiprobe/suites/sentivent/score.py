"""SENTiVENT scoring (docs/protocols/sentivent.md#metrics): accuracy, macro and per-label precision / recall / F1 with
bootstrap CIs over items, the confusion matrix and supports. ``macro_f1`` and ``accuracy`` are per-unit scores
(items as units) that the engine turns into values, intervals and paired tests; their McNemar variant is the
paper's continuity-corrected chi-square without clamping (docs/protocols/sentivent.md#significance), the test
of the authors' script (its published table needs systems whose predictions were not released).

Pure: a function of the items, the predictions, the options and the score context. The lexicon setting
reported in the details is the one the data stage attached to the items (:func:`.data.score_context`).
"""
from __future__ import annotations

from collections.abc import Sequence
from typing import Any

from ...core.types import Item, Prediction
from ...stats.metrics_common import classification_report
from ...stats.unit_builders import label_count_units
from ...stats.units import UnitScores
from ..spec import ScoreConfig, ScoreContext, SuiteScore


def score(items: Sequence[Item], predictions: Sequence[Prediction], options: Any, context: ScoreContext,
          config: ScoreConfig) -> SuiteScore:
    """Classification report of ``predictions`` on ``items``; ``config.missing`` decides on absent ones."""
    by_id = context.check(items, predictions, config)
    y_true = [it.label for it in items]
    y_pred = [by_id[it.item_id].label if it.item_id in by_id else None for it in items]
    rep = classification_report(y_true, y_pred, context.labels, n_boot=0, seed=0, alpha=None)  # counts only
    n_missing = sum(it.item_id not in by_id for it in items)
    n_unparsed = sum(1 for it in items if it.item_id in by_id and by_id[it.item_id].label is None)
    details = rep.details()
    details.update({
        "n_items": len(items), "n_missing_predictions": n_missing, "n_unparsed_predictions": n_unparsed,
        "missing_policy": config.missing, "input": context.provenance["input"],
        "splits": sorted({it.split for it in items}),
        "bootstrap": {"unit": "item", "method": "percentile, over items (the engine's, sentiprobe.stats.units)"},
        "macro_average_over": "labels occurring in the gold labels or the predictions",
        "lexicon": dict(context.provenance["lexicon"]),
    })
    _, per_unit = label_count_units(y_true, y_pred, context.labels)
    order = ["macro_f1", "accuracy", *(k for k in per_unit if k not in ("macro_f1", "accuracy"))]
    units = UnitScores("item", len(items), len(items), {k: per_unit[k] for k in order},
                       compared=("macro_f1", "accuracy"), paired_test="chi2-corrected-unclamped",
                       note="items are independent units (Jacobs & Hoste 2021 compare systems per item)")
    return SuiteScore({}, details, units=units)
