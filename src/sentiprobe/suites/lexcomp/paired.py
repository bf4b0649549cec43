"""Paired-comparison stage of the LexComp suites, on the suite's own metric and unit.

The classification tasks compare accuracy over items (with McNemar's test on the per-item correctness); Phrase
Type compares strict span F1 over sentences (per-sentence span counts summed over a resample, as the suite's
own interval does).
"""
from __future__ import annotations

from collections.abc import Sequence
from typing import TYPE_CHECKING, Any

import numpy as np

from ...core.types import Item, Prediction
from ...protocols.lexcomp import tags
from ...stats.paired import UnitTable, mean_of
from ..spec import ScoreConfig
from .predictions import check_tags

if TYPE_CHECKING:
    from .score import LexCompContext


def unit_table(items: Sequence[Item], predictions: Sequence[Prediction], options: Any, context: LexCompContext,
               config: ScoreConfig):
    """``accuracy`` over items, or ``span_f1`` over sentences for Phrase Type (pure, like the score stage)."""
    wrong = "error" if config.missing == "error" else "wrong"
    if context.task == "phrase-type":
        by_id = check_tags(context.suite, items, predictions, missing=wrong, path=config.path)
        gold = [(it.label or "").split() for it in items]
        pred = [(by_id[it.item_id].label or "").split() if it.item_id in by_id and by_id[it.item_id].label
                else ["O"] * len(it.tokens or ()) for it in items]
        counts = tags.span_counts(gold, pred, "strict")
        return UnitTable(unit="sentence", n_units=len(items),
                         metrics={"span_f1": lambda idx: tags.f1_from_counts(counts[idx])},
                         kinds={"span_f1": "rate"}, note="strict BIO span F1; sentences resampled whole")
    by_id = context.check(items, predictions, config, missing=wrong)
    correct = np.array([float(it.item_id in by_id and by_id[it.item_id].label == it.label) for it in items])
    return UnitTable(unit="item", n_units=len(items), metrics={"accuracy": mean_of(correct)},
                     kinds={"accuracy": "rate"}, correct={"accuracy": correct})
