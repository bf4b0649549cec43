"""Scoring 100k ARTS predictions (goal: < 1 s), against a bare numpy accuracy in the same process.

The 100k items are arts-rest's 3,530 test items replicated with fresh ids and groups (29 copies
= 102,370 items); predictions are gold labels with 20% replaced. Both the harness (validation of
every prediction, ARS + six subset accuracies, each with a 1,000-resample bootstrap CI) and the
baselines run here: the minimal Python scorer (index predictions by id, compare with gold: no
validation, no grouping, no CI) and one vectorised numpy accuracy over pre-encoded arrays.

    SENTIPROBE_DATA_DIR=../shared/data .venv/bin/python benchmarks/bench_score.py
"""
from __future__ import annotations

from dataclasses import replace

import numpy as np
from _common import best_of, report, require_data

from sentiprobe.core.types import Prediction
from sentiprobe.suites import get_suite


def main() -> None:
    require_data()
    suite = get_suite("arts-rest")
    base = suite.items("test")
    copies = -(-100_000 // len(base))
    items = [replace(it, item_id=f"{it.item_id}#c{c}", group_id=f"{it.group_id}#c{c}")
             for c in range(copies) for it in base]
    rng = np.random.default_rng(0)
    labels = list(suite.labels)
    flip = rng.random(len(items)) < 0.2
    other = rng.integers(0, len(labels), len(items))
    preds = [Prediction(it.item_id, labels[o] if f else it.label) for it, f, o in zip(items, flip, other)]

    def harness():
        return suite.score(items, preds, n_boot=1000, seed=0)

    gold = np.array([labels.index(it.label) for it in items])
    pred = np.array([labels.index(p.label) for p in preds])

    def bare():
        return float((gold == pred).mean())

    def minimal():
        # the least any scorer must do: index predictions by id and compare with gold, in Python
        by_id = {p.item_id: p.label for p in preds}
        return sum(by_id[it.item_id] == it.label for it in items) / len(items)

    t_h = best_of(harness, 3)
    t_b = best_of(bare, 3)
    t_m = best_of(minimal, 3)
    res = harness()
    report("score-100k", {
        "n_items": len(items), "n_units": res.metrics["ars"].n,
        "harness_seconds": round(t_h, 4), "bare_numpy_accuracy_seconds": round(t_b, 6),
        "minimal_python_accuracy_seconds": round(t_m, 4),
        "ratio_harness_over_minimal_python": round(t_h / t_m, 2),
        "ratio_harness_over_bare_numpy": round(t_h / t_b, 1),
        "goal_harness_under_1s": t_h < 1.0,
        "ars": round(res.metrics["ars"].value, 4),
    })


if __name__ == "__main__":
    main()
