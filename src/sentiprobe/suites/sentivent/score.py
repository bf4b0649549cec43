"""SENTiVENT scoring (spec section 8): accuracy, macro and per-label precision / recall / F1 with
bootstrap CIs over items, the confusion matrix and supports.

Pure: a function of the items, the predictions and the score settings. The lexicon setting reported in
the details is the one the bound suite attached to its items (``suite.memo["lexicon_info"]``, empty when
the suite never loaded them), as before the stage split.
"""
from __future__ import annotations

from collections.abc import Sequence
from typing import TYPE_CHECKING

from ...core.types import Item, Prediction
from ...stats.metrics_common import classification_report
from ..base import check_predictions
from ..spec import ScoreConfig, SuiteScore
from .data import task

if TYPE_CHECKING:
    from ..base import Suite


def score(suite: Suite, items: Sequence[Item], predictions: Sequence[Prediction], config: ScoreConfig) -> SuiteScore:
    """Classification report of ``predictions`` on ``items``; ``config.missing`` decides on absent ones."""
    by_id = check_predictions(suite.name, suite.labels, items, predictions, missing=config.missing,
                              path=config.path)
    y_true = [it.label for it in items]
    y_pred = [by_id[it.item_id].label if it.item_id in by_id else None for it in items]
    rep = classification_report(y_true, y_pred, suite.labels, n_boot=config.n_boot, seed=config.seed)
    n_missing = sum(it.item_id not in by_id for it in items)
    n_unparsed = sum(1 for it in items if it.item_id in by_id and by_id[it.item_id].label is None)
    info = suite.memo.get("lexicon_info", {})
    details = rep.details()
    details.update({
        "n_items": len(items), "n_missing_predictions": n_missing, "n_unparsed_predictions": n_unparsed,
        "missing_policy": config.missing, "input": task(suite).input_field,
        "splits": sorted({it.split for it in items}),
        "bootstrap": {"n_boot": config.n_boot, "seed": config.seed, "unit": "item", "method": "percentile"},
        "macro_average_over": "labels occurring in the gold labels or the predictions",
        "lexicon": {k: v for k, v in info.items() if k in ("setting", "label", "reason")},
    })
    return SuiteScore(rep.metrics, details)


def unit_table(suite: Suite, items: Sequence[Item], predictions: Sequence[Prediction], config: ScoreConfig):
    """Paired-comparison stage: macro-F1 (paired bootstrap) and accuracy (McNemar) over items (spec section 10)."""
    from ...stats.paired import classification_table

    by_id = check_predictions(suite.name, suite.labels, items, predictions,
                              missing="error" if config.missing == "error" else "wrong", path=config.path)
    return classification_table([it.label for it in items],
                                [by_id[it.item_id].label if it.item_id in by_id else None for it in items],
                                suite.labels,
                                note="items are independent units (Jacobs & Hoste 2021 compare systems per item)")
