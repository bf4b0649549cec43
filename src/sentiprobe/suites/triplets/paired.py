"""Paired-comparison stage of the triplet suites: triplet F1 over sentences (the suite's resampling unit).

Each system's sentences give (correct, predicted, gold) triplet counts; a resample of sentences sums them and
takes micro F1, as the suite's own interval does (:mod:`.score`), so two extractors are compared on the same
resamples of sentences. A sentence without a prediction record counts as "no triplets predicted".
"""
from __future__ import annotations

from collections.abc import Sequence
from typing import Any

import numpy as np

from ...core.types import Item, Prediction
from ...stats.paired import UnitTable
from ..spec import ScoreConfig
from .predictions import UNATTRIBUTED
from .score import _prf, _sets


def unit_table(items: Sequence[Item], predictions: Sequence[Prediction], options: Any, context: Any,
               config: ScoreConfig):
    """``triplet_f1`` as a function of a resample of sentences (micro F1 of the summed counts; pure, like the
    score stage)."""
    merged: dict[str, set] = {}
    for p in predictions:
        if p.item_id == UNATTRIBUTED:
            continue
        merged.setdefault(p.item_id, set()).update(_sets(p)[0])  # several seeds: the union, as scoring does
    counts = np.zeros((len(items), 3))
    for i, it in enumerate(items):
        gold = {tuple(t) for t in it.meta["gold"]}
        trip = merged.get(it.item_id, set())
        counts[i] = (len(gold & trip), len(trip), len(gold))

    def f1(idx: np.ndarray) -> float:
        return _prf(*counts[idx].sum(axis=0))[2]

    return UnitTable(unit="sentence", n_units=len(items), metrics={"triplet_f1": f1}, kinds={"triplet_f1": "rate"},
                     note="micro F1 of exact <target, polar span, polarity> triplets; sentences resampled whole")
