"""A full classification report with bootstrap CIs, computed from resampled confusion matrices.

``classification_report(y_true, y_pred, labels)`` returns, as :class:`Metric` objects, accuracy,
macro precision / recall / F1 and per-label precision / recall / F1 (keys ``accuracy``,
``macro_f1``, ``macro_precision``, ``macro_recall``, ``f1_<label>``, ``precision_<label>``,
``recall_<label>``; labels lower-cased), plus the confusion matrix and supports as JSON-able details.

Conventions (scikit-learn's ``zero_division=0``; SENTiVENT spec section 8):

- per label k: P_k = TP_k / #{pred = k}, R_k = TP_k / #{gold = k}, F1_k = 2 P R / (P + R), each 0 when
  its denominator is 0;
- macro averages are unweighted means over the labels that occur in the gold labels *or* the
  predictions (macro-F1 is the mean of per-label F1, not the F1 of macro P and R);
- a prediction outside ``labels`` (``None`` for an unparseable output, or a missing prediction) is
  wrong: it counts in its gold label's support and in no predicted column.

Bootstrap: the confusion counts of a resample of n units are multinomial over the cells of the
(gold, predicted) table, so resamples are drawn exactly and cheaply as multinomial cell counts
(``n_boot`` x cells) and every metric is computed vectorised from them. With ``groups`` whole
groups are resampled (per-group cell counts weighted by multinomial group draws).
"""
from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass, field
from typing import Any

import numpy as np

from ..core.types import Metric
from .bootstrap import DEFAULT_ALPHA, DEFAULT_N_BOOT
from .classification import encode

CI_METHOD = "bootstrap-percentile"


def label_key(label: str) -> str:
    """The metric-name form of a label (``Positive`` -> ``positive``)."""
    return str(label).lower()


def cell_codes(y_true: Sequence, y_pred: Sequence, labels: Sequence[str]) -> np.ndarray:
    """Integer code ``gold * (k + 1) + pred`` per unit; a prediction outside ``labels`` gets column k.

    Raises ValueError when a gold label is not in ``labels``.
    """
    if len(y_true) != len(y_pred):
        raise ValueError(f"y_true has {len(y_true)} entries but y_pred has {len(y_pred)}")
    t, p = encode(list(y_true), list(y_pred), labels)
    if (t < 0).any():
        bad = sorted({str(y) for y, c in zip(y_true, t) if c < 0})
        raise ValueError(f"gold labels outside the label set {list(labels)}: {bad[:5]}")
    k = len(labels)
    p = np.where(p < 0, k, p)
    return t * (k + 1) + p


def scores_from_counts(counts: np.ndarray, k: int) -> dict[str, np.ndarray]:
    """All report scores from cell counts of shape ``(..., k * (k + 1))`` (last column: invalid).

    Returns arrays with the leading shape: ``accuracy``, ``macro_precision``, ``macro_recall``,
    ``macro_f1`` and per-label ``precision``, ``recall``, ``f1``, ``support`` (shape ``(..., k)``).
    """
    c = np.asarray(counts, dtype=np.float64).reshape(*counts.shape[:-1], k, k + 1)
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


def bootstrap_counts(codes: np.ndarray, n_cells: int, *, n_boot: int, seed: int,
                     groups: np.ndarray | None = None) -> np.ndarray:
    """Cell counts of ``n_boot`` bootstrap resamples of units (or of whole ``groups``)."""
    rng = np.random.default_rng(seed)
    codes = np.asarray(codes, dtype=np.int64)
    n = codes.size
    if groups is None:
        full = np.bincount(codes, minlength=n_cells).astype(np.float64)
        return rng.multinomial(n, full / n, size=n_boot).astype(np.float64)
    _, inv = np.unique(np.asarray(groups), return_inverse=True)
    g = int(inv.max()) + 1
    per_group = np.zeros((g, n_cells))
    np.add.at(per_group, (inv, codes), 1.0)
    draws = rng.multinomial(g, np.full(g, 1.0 / g), size=n_boot).astype(np.float64)
    return draws @ per_group


def _interval(dist: np.ndarray, alpha: float) -> tuple[float | None, float | None]:
    d = dist[np.isfinite(dist)]
    if d.size == 0:
        return None, None
    lo, hi = np.quantile(d, [alpha / 2, 1 - alpha / 2])
    return float(lo), float(hi)


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
                          n_boot: int = DEFAULT_N_BOOT, seed: int = 0, alpha: float = DEFAULT_ALPHA,
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
    n_units = n if groups is None else len(set(np.asarray(groups).tolist()))
    full = np.bincount(codes, minlength=n_cells).astype(np.float64)
    point = scores_from_counts(full, k)
    dist = None
    if n > 0 and n_boot > 0:
        dist = scores_from_counts(bootstrap_counts(codes, n_cells, n_boot=n_boot, seed=seed,
                                                   groups=None if groups is None else np.asarray(groups)), k)

    def metric(name: str, key: str, j: int | None = None) -> Metric:
        if n == 0:
            return Metric.not_computable(name, "no units")
        v = point[key] if j is None else point[key][j]
        v = float(v)
        if not np.isfinite(v):
            return Metric.not_computable(name, "undefined (no labels present)", n_units)
        if dist is None:
            return Metric(name, v, None, None, n_units, True, "none")
        lo, hi = _interval(dist[key] if j is None else dist[key][:, j], alpha)
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
