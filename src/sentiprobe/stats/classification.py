"""The one classification engine: accuracy, macro and per-label P/R/F1 with bootstrap CIs.

Every classification number in sentiprobe comes from :func:`scores_from_counts`, applied to the
(gold, predicted) cell counts of the data or of a resample; there is no second formula to drift.

Conventions (scikit-learn's ``zero_division=0``; docs/protocols/sentivent.md#metrics):

- per label k: P_k = TP_k / #{pred = k}, R_k = TP_k / #{gold = k}, F1_k = 2 P R / (P + R), each 0 when
  its denominator is 0;
- macro averages are unweighted means over the labels that occur in the gold labels *or* the
  predictions (macro-F1 is the mean of per-label F1, not the F1 of macro P and R);
- a prediction outside ``labels`` (``None`` for an unparseable output, or a missing prediction) is
  wrong: it counts in its gold label's support and in no predicted column (the extra column k);
- a *gold* label outside ``labels`` raises :class:`~sentiprobe.core.errors.LabelSetError`: it can be
  neither right nor wrong, and mapping it to a made-up class would silently change every rate.

``classification_report`` returns, as :class:`Metric` objects, ``accuracy``, ``macro_f1``,
``macro_precision``, ``macro_recall`` and ``f1_<label>``, ``precision_<label>``, ``recall_<label>``
(labels lower-cased), plus the confusion matrix and supports as JSON-able details. Its bootstrap draws
the resampled cell counts directly (multinomial; whole groups with ``groups``) and scores them all at
once. :func:`macro_f1` and :func:`accuracy` are the single-number forms used by NonCompSST / SST-7;
they keep their index-based resampling so their published intervals stay as they were.

``alpha`` has no default (the caller's confidence level, :func:`~sentiprobe.stats.level.alpha_of`); a score stage,
which never sees a level, asks for values and tables only with ``n_boot=0, alpha=None``.
"""
from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass, field
from typing import Any

import numpy as np

from ..core.errors import LabelSetError
from ..core.types import Metric
from .bootstrap import bootstrap_metric, mean_metric
from .resampling import (CI_METHOD, DEFAULT_N_BOOT, cell_count_draws, group_index,
                         percentile_interval)


def label_key(label: str) -> str:
    """The metric-name form of a label (``Positive`` -> ``positive``)."""
    return str(label).lower()


def encode(y_true: Sequence, y_pred: Sequence, labels: Sequence[str]) -> tuple[np.ndarray, np.ndarray]:
    """Integer-encode labels; predictions outside ``labels`` (incl. None) become -1 (always wrong).

    Raises LabelSetError when a gold label is not in ``labels``.
    """
    index = {lab: i for i, lab in enumerate(labels)}
    t = np.fromiter((index.get(y, -1) for y in y_true), dtype=np.int64, count=len(y_true))
    if (t < 0).any():
        raise LabelSetError(labels, (y for y, c in zip(y_true, t) if c < 0))
    p = np.fromiter((index.get(y, -1) for y in y_pred), dtype=np.int64, count=len(y_pred))
    return t, p


def cell_codes(y_true: Sequence, y_pred: Sequence, labels: Sequence[str]) -> np.ndarray:
    """Integer code ``gold * (k + 1) + pred`` per unit; a prediction outside ``labels`` gets column k.

    Raises ValueError when the lengths differ, LabelSetError when a gold label is not in ``labels``.
    """
    if len(y_true) != len(y_pred):
        raise ValueError(f"y_true has {len(y_true)} entries but y_pred has {len(y_pred)}")
    t, p = encode(list(y_true), list(y_pred), labels)
    k = len(labels)
    return t * (k + 1) + np.where(p < 0, k, p)


def scores_from_counts(counts: np.ndarray, k: int) -> dict[str, np.ndarray]:
    """All report scores from cell counts of shape ``(..., k * (k + 1))`` (last column: invalid).

    Returns arrays with the leading shape: ``accuracy``, ``macro_precision``, ``macro_recall``,
    ``macro_f1`` and per-label ``precision``, ``recall``, ``f1``, ``support`` (shape ``(..., k)``).
    """
    c = np.asarray(counts, dtype=np.float64).reshape(*np.shape(counts)[:-1], k, k + 1)
    cm = c[..., :k]
    tp = np.diagonal(cm, axis1=-2, axis2=-1)
    pred = cm.sum(axis=-2)
    gold = c.sum(axis=-1)
    n = gold.sum(axis=-1)
    with np.errstate(divide="ignore", invalid="ignore"):
        prec = np.where(pred > 0, tp / np.where(pred > 0, pred, 1), 0.0)
        rec = np.where(gold > 0, tp / np.where(gold > 0, gold, 1), 0.0)
        s = prec + rec
        f1 = np.where(s > 0, 2 * prec * rec / np.where(s > 0, s, 1), 0.0)
        present = (gold > 0) | (pred > 0)
        npres = present.sum(axis=-1)
        denom = np.where(npres > 0, npres, 1)
        macro = {name: np.where(npres > 0, (arr * present).sum(axis=-1) / denom, np.nan)
                 for name, arr in (("macro_precision", prec), ("macro_recall", rec), ("macro_f1", f1))}
        acc = np.where(n > 0, tp.sum(axis=-1) / np.where(n > 0, n, 1), np.nan)
    return {"accuracy": acc, **macro, "precision": prec, "recall": rec, "f1": f1, "support": gold}


def confusion(t: np.ndarray, p: np.ndarray, k: int) -> np.ndarray:
    """k x k confusion matrix (rows gold, columns predicted) of encoded labels; predictions of -1 dropped."""
    ok = (p >= 0) & (t >= 0)
    return np.bincount(t[ok] * k + p[ok], minlength=k * k).reshape(k, k)


def prf_from_confusion(cm: np.ndarray, gold_counts: np.ndarray | None = None):
    """Per-label precision, recall, F1 of a k x k confusion matrix (0 where undefined).

    ``gold_counts`` (default: the row sums) also counts gold items whose prediction is invalid.
    """
    cm = np.asarray(cm, dtype=np.float64)
    k = cm.shape[0]
    gold = cm.sum(axis=1) if gold_counts is None else np.asarray(gold_counts, dtype=np.float64)
    cells = np.concatenate([cm, (gold - cm.sum(axis=1))[:, None]], axis=1)
    s = scores_from_counts(cells.reshape(-1), k)
    return s["precision"], s["recall"], s["f1"]


def accuracy(y_true: Sequence, y_pred: Sequence, *, labels: Sequence[str] | None = None, name: str = "accuracy",
             n_boot: int = DEFAULT_N_BOOT, seed: int = 0, alpha: float | None) -> Metric:
    """Share of exact matches, CI by the exact bootstrap of a mean.

    With ``labels`` gold labels are checked (LabelSetError); without, any values are compared.
    """
    if labels is not None:
        cell_codes(y_true, y_pred, labels)
    t = np.asarray(y_true, dtype=object)
    p = np.asarray(y_pred, dtype=object)
    return mean_metric(name, (t == p).astype(np.float64), n_boot=n_boot, seed=seed, alpha=alpha)


def macro_f1(y_true: Sequence, y_pred: Sequence, labels: Sequence[str], *, name: str = "macro_f1",
             n_boot: int = DEFAULT_N_BOOT, seed: int = 0, alpha: float | None,
             groups: np.ndarray | None = None) -> Metric:
    """Macro-F1 over labels in gold or prediction; CI from index resamples of units (or ``groups``)."""
    k = len(labels)
    codes = cell_codes(y_true, y_pred, labels)
    n_cells = k * (k + 1)

    def stat(idx: np.ndarray) -> float:
        return float(scores_from_counts(np.bincount(codes[idx], minlength=n_cells), k)["macro_f1"])

    return bootstrap_metric(name, stat, len(codes), groups=groups, n_boot=n_boot, seed=seed, alpha=alpha)


@dataclass(frozen=True)
class ClassificationReport:
    """Metrics (with CIs) and details of one system's predictions.

    Attributes:
        metrics: metric name -> Metric (see the module docstring for the names).
        labels: the label order used for the confusion matrix and per-label tables.
        confusion: k x k counts, rows gold, columns predicted (invalid predictions excluded).
        invalid: per gold label, predictions outside the label set (``None`` / missing / unknown).
        support: gold count per label.
    """

    metrics: dict[str, Metric]
    labels: tuple[str, ...]
    confusion: list[list[int]]
    invalid: list[int]
    support: dict[str, int]
    extra: dict[str, Any] = field(default_factory=dict)

    def details(self) -> dict[str, Any]:
        """JSON-able details for a SuiteScore: confusion matrix, supports and per-label table."""
        per_label = []
        for lab in self.labels:
            key = label_key(lab)
            per_label.append({"label": lab, "support": self.support[lab],
                              **{m: self.metrics[f"{m}_{key}"].value for m in ("precision", "recall", "f1")}})
        return {"labels": list(self.labels), "confusion_matrix": self.confusion,
                "confusion_rows": "gold", "confusion_columns": "predicted",
                "invalid_predictions_per_gold_label": dict(zip(self.labels, self.invalid)),
                "n_invalid_predictions": int(sum(self.invalid)), "support": dict(self.support),
                "per_label": per_label, **self.extra}


def classification_report(y_true: Sequence, y_pred: Sequence, labels: Sequence[str], *,
                          n_boot: int = DEFAULT_N_BOOT, seed: int = 0, alpha: float | None,
                          groups: Sequence | np.ndarray | None = None) -> ClassificationReport:
    """Accuracy, macro and per-label P/R/F1 with percentile bootstrap CIs (see the module docstring).

    ``y_pred`` entries outside ``labels`` (including ``None``) count as wrong. ``groups`` (one id per
    unit) resamples whole groups; ``n`` of every metric is then the number of groups.
    """
    labels = tuple(labels)
    k = len(labels)
    if k == 0:
        raise ValueError("empty label set")
    codes = cell_codes(y_true, y_pred, labels)
    n_cells = k * (k + 1)
    n = int(codes.size)
    n_units = n if groups is None else group_index(groups)[1]
    full = np.bincount(codes, minlength=n_cells).astype(np.float64)
    point = scores_from_counts(full, k)
    dist = None
    if n > 0 and n_boot > 0:
        dist = scores_from_counts(cell_count_draws(codes, n_cells, n_boot=n_boot, seed=seed, groups=groups), k)

    def metric(name: str, key: str, j: int | None = None) -> Metric:
        if n == 0:
            return Metric.not_computable(name, "no units")
        v = float(point[key] if j is None else point[key][j])
        if not np.isfinite(v):
            return Metric.not_computable(name, "undefined (no labels present)", n_units)
        if dist is None:
            return Metric(name, v, None, None, n_units, True, "none")
        lo, hi = percentile_interval(dist[key] if j is None else dist[key][:, j], alpha)
        note = None
        if j is not None and point["support"][j] == 0:
            note = f"label {labels[j]!r} has no gold items (recall set to 0)"
        return Metric(name, v, lo, hi, n_units, True, CI_METHOD, note)

    metrics = {m: metric(m, m) for m in ("accuracy", "macro_f1", "macro_precision", "macro_recall")}
    for j, lab in enumerate(labels):
        key = label_key(lab)
        for m in ("f1", "precision", "recall"):
            metrics[f"{m}_{key}"] = metric(f"{m}_{key}", m, j)
    cells = full.reshape(k, k + 1)
    return ClassificationReport(
        metrics=metrics, labels=labels,
        confusion=cells[:, :k].astype(int).tolist(), invalid=cells[:, k].astype(int).tolist(),
        support={lab: int(cells[j].sum()) for j, lab in enumerate(labels)})
