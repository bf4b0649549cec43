"""Classification metrics as Metric objects (value, bootstrap CI, n), scikit-learn conventions."""
from __future__ import annotations

from collections.abc import Sequence

import numpy as np

from ..core.types import Metric
from .bootstrap import DEFAULT_N_BOOT, bootstrap_metric, mean_metric


def encode(y_true: Sequence, y_pred: Sequence, labels: Sequence[str]) -> tuple[np.ndarray, np.ndarray]:
    """Integer-encode labels; predictions outside ``labels`` (incl. None) become -1 (always wrong)."""
    index = {lab: i for i, lab in enumerate(labels)}
    t = np.fromiter((index.get(y, -1) for y in y_true), dtype=np.int64, count=len(y_true))
    p = np.fromiter((index.get(y, -1) for y in y_pred), dtype=np.int64, count=len(y_pred))
    return t, p


def confusion(t: np.ndarray, p: np.ndarray, k: int) -> np.ndarray:
    """k x k confusion matrix (rows gold, columns predicted); predictions of -1 are dropped from columns."""
    ok = (p >= 0) & (t >= 0)
    return np.bincount(t[ok] * k + p[ok], minlength=k * k).reshape(k, k)


def prf_from_confusion(cm: np.ndarray, gold_counts: np.ndarray | None = None):
    """Per-label precision, recall, F1 (0 where undefined, as scikit-learn's zero_division=0)."""
    tp = np.diag(cm).astype(np.float64)
    pred = cm.sum(axis=0).astype(np.float64)
    gold = cm.sum(axis=1).astype(np.float64) if gold_counts is None else gold_counts.astype(np.float64)
    with np.errstate(divide="ignore", invalid="ignore"):
        prec = np.where(pred > 0, tp / pred, 0.0)
        rec = np.where(gold > 0, tp / gold, 0.0)
        f1 = np.where(prec + rec > 0, 2 * prec * rec / (prec + rec), 0.0)
    return prec, rec, f1


def accuracy(y_true: Sequence, y_pred: Sequence, *, name: str = "accuracy", n_boot: int = DEFAULT_N_BOOT,
             seed: int = 0) -> Metric:
    t = np.asarray(y_true, dtype=object)
    p = np.asarray(y_pred, dtype=object)
    return mean_metric(name, (t == p).astype(np.float64), n_boot=n_boot, seed=seed)


def macro_f1(y_true: Sequence, y_pred: Sequence, labels: Sequence[str], *, name: str = "macro_f1",
             n_boot: int = DEFAULT_N_BOOT, seed: int = 0, groups: np.ndarray | None = None) -> Metric:
    t, p = encode(y_true, y_pred, labels)
    k = len(labels)

    def stat(idx: np.ndarray) -> float:
        cm = confusion(t[idx], p[idx], k)
        gold = np.bincount(t[idx], minlength=k)
        present = gold > 0
        if not present.any():
            return float("nan")
        _, _, f1 = prf_from_confusion(cm, gold)
        return float(f1[present | (cm.sum(axis=0) > 0)].mean())

    return bootstrap_metric(name, stat, len(t), groups=groups, n_boot=n_boot, seed=seed)
