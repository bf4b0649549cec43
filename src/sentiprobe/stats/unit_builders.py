"""Per-unit scores of the common shapes, built for a suite's score stage: label codes, a classification report
as per-unit label counts, a rate pooled over groups, label counts over a subset. They only build
:class:`~sentiprobe.stats.units.UnitMetric` and :class:`~sentiprobe.stats.units.UnitScores`; the engine that
turns them into values, intervals and tests is :mod:`sentiprobe.stats.units`."""
from __future__ import annotations

from collections.abc import Mapping, Sequence
from typing import Any

import numpy as np

from ..core.errors import ConfigError
from .units import UnitMetric


def label_codes(values: Sequence[str | None], labels: Sequence[str]) -> np.ndarray:
    """Label index per unit (-1: no prediction, or a label outside ``labels``)."""
    index = {lab: i for i, lab in enumerate(labels)}
    return np.array([index.get(v, -1) if v is not None else -1 for v in values], dtype=np.int64)


def classification_units(y_true: Sequence[str | None], y_pred: Sequence[str | None], labels: Sequence[str]
                         ) -> dict[str, UnitMetric]:
    """``macro_f1`` (labels in gold or predictions) and ``accuracy`` (with per-unit correctness) over items as
    units. A missing or unparsed prediction (``None``) is wrong. Gold labels must come from ``labels``."""
    t = label_codes(y_true, labels)
    if (t < 0).any():
        raise ConfigError("gold labels outside the label set: per-unit scores need a gold label per item")
    p = label_codes(y_pred, labels)
    correct = (t == p).astype(np.float64)
    return {"macro_f1": UnitMetric("macro_f1", {"gold": t, "predicted": p}, {"n_labels": len(labels)}),
            "accuracy": UnitMetric("mean", {"values": correct}, correct=correct)}


def grouped_rate(groups: Sequence[str], values: Sequence[float] | np.ndarray, *, higher_is_better: bool = True,
                 note: str | None = None, counted: Sequence[bool] | np.ndarray | None = None
                 ) -> tuple[list[str], UnitMetric]:
    """A rate pooled over items, whole groups as units (``sum values / sum items`` per resample): the group ids
    in order of first appearance and the metric. ``counted``: which items the rate is over (default all; the
    others stay in their group, which keeps every metric of a suite on the same units, but count nowhere)."""
    keys = {g: i for i, g in enumerate(dict.fromkeys(groups))}
    inv = np.array([keys[g] for g in groups], dtype=np.int64)
    w = np.ones(inv.size) if counted is None else np.asarray(counted, dtype=np.float64)
    num = np.bincount(inv, weights=np.asarray(values, dtype=np.float64) * w, minlength=len(keys))
    den = np.bincount(inv, weights=w, minlength=len(keys)).astype(np.float64)
    return list(keys), UnitMetric("ratio", {"numerator": num, "denominator": den},
                                  higher_is_better=higher_is_better, n_items=round(float(w.sum())), note=note)


def label_count_units(y_true: Sequence[str | None], y_pred: Sequence[str | None], labels: Sequence[str], *,
                      groups: Sequence[str] | None = None, names: Mapping[str, str] | None = None
                      ) -> tuple[list[str], dict[str, UnitMetric]]:
    """A classification report as per-unit scores: ``accuracy``, ``macro_f1``, ``macro_precision``,
    ``macro_recall`` and per label ``f1_<l>``, ``precision_<l>``, ``recall_<l>`` (``names`` renames a label in
    the metric names), each a statistic of per-unit label counts. Units are the items, or whole ``groups``
    (a review and its statements). A prediction of ``None`` (missing or unparsed) is wrong: it counts in its
    gold label's recall and in no label's predictions. Returns the unit ids in order and the metrics."""
    t, p = label_codes(y_true, labels), label_codes(y_pred, labels)
    if (t < 0).any():
        raise ConfigError("gold labels outside the label set: per-unit scores need a gold label per item")
    keys = list(dict.fromkeys(groups)) if groups is not None else [str(i) for i in range(len(t))]
    index = {g: i for i, g in enumerate(keys)}  # built once: per item it made the grouping quadratic
    inv = np.array([index[g] for g in groups], dtype=np.int64) if groups is not None else np.arange(len(t))
    n, k = len(keys), len(labels)

    def per_unit(weights: np.ndarray) -> np.ndarray:
        return np.bincount(inv, weights=weights, minlength=n)

    arrays: dict[str, np.ndarray] = {}
    for j in range(k):
        arrays[f"tp_{j}"] = per_unit(((t == j) & (p == j)).astype(np.float64))
        arrays[f"gold_{j}"] = per_unit((t == j).astype(np.float64))
        arrays[f"predicted_{j}"] = per_unit((p == j).astype(np.float64))
    correct = (t == p).astype(np.float64)
    items = len(t)
    out: dict[str, UnitMetric] = {}
    if groups is None:
        out["accuracy"] = UnitMetric("mean", {"values": correct}, correct=correct, n_items=items)
    else:
        out["accuracy"] = UnitMetric("ratio", {"numerator": per_unit(correct), "denominator": per_unit(
            np.ones(items))}, n_items=items)

    def lc(stat: str, label: int | None = None) -> UnitMetric:
        params: dict[str, Any] = {"n_labels": k, "stat": stat}
        if label is not None:
            params["label"] = label
        return UnitMetric("label_counts", arrays, params, n_items=items)

    for stat in ("macro_f1", "macro_precision", "macro_recall"):
        out[stat] = lc(stat)
    for j, lab in enumerate(labels):
        key = (names or {}).get(lab, lab)
        for stat in ("f1", "precision", "recall"):
            out[f"{stat}_{key}"] = lc(stat, j)
    return keys, out


def subset_label_counts(gold: np.ndarray, predicted: np.ndarray, n_labels: int, keep: np.ndarray, stat: str,
                        note: str | None = None) -> UnitMetric:
    """A ``label_counts`` metric of label codes (-1: no prediction) over the units where ``keep`` is true: the
    others contribute no count, so a resample's value is the statistic over the kept units it drew."""
    k = np.asarray(keep, dtype=bool)
    arrays: dict[str, np.ndarray] = {}
    for j in range(n_labels):
        arrays[f"tp_{j}"] = ((gold == j) & (predicted == j) & k).astype(np.float64)
        arrays[f"gold_{j}"] = ((gold == j) & k).astype(np.float64)
        arrays[f"predicted_{j}"] = ((predicted == j) & k).astype(np.float64)
    return UnitMetric("label_counts", arrays, {"n_labels": n_labels, "stat": stat}, n_units=int(k.sum()),
                      n_items=int(k.sum()), note=note)
