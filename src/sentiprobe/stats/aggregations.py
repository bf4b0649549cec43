"""The closed registry of aggregations the per-unit engine (:mod:`.units`) knows.

Each aggregation names the per-unit arrays it reads, the per-unit columns a bootstrap resample sums and the
statistic of those sums (mean, ratio, Pearson and Spearman correlations, pooled slot correlations, corpus BLEU,
macro F1 from a confusion matrix, P/R/F1 counts, per-label counts). A metric refers to one by name, so the
per-unit scores hold no closure and can be written to ``results.json`` as they are.
"""
from __future__ import annotations

import math
from collections.abc import Callable, Mapping, Sequence
from typing import Any

import numpy as np

def _safe_div(num: np.ndarray, den: np.ndarray, undefined: float) -> np.ndarray:
    with np.errstate(divide="ignore", invalid="ignore"):
        return np.where(den > 0, num / np.where(den > 0, den, 1.0), undefined)


def _onehot(codes: np.ndarray, k: int) -> np.ndarray:
    out = np.zeros((codes.size, k))
    ok = codes >= 0
    out[np.flatnonzero(ok), codes[ok]] = 1.0
    return out


def _ones(a: Mapping[str, np.ndarray]) -> np.ndarray:
    return np.ones(next(iter(a.values())).size)


# Each aggregation is (the per-unit columns a resample sums, the statistic of those sums): a resample enters only
# through the number of times it draws each unit, so one product ``counts @ columns`` per block of resamples
# serves every metric of every system.
def _mean_cols(a: Mapping[str, np.ndarray], p: Mapping[str, Any]) -> list[np.ndarray]:
    return [a["values"], _ones(a)]


def _ratio_fin(s: np.ndarray, p: Mapping[str, Any]) -> np.ndarray:
    return _safe_div(s[:, 0], s[:, 1], np.nan)


def _pearson_cols(a: Mapping[str, np.ndarray], p: Mapping[str, Any]) -> list[np.ndarray]:
    x, y = a["x"], a["y"]
    return [x, y, x * x, y * y, x * y, _ones(a)]


def _pearson_fin(s: np.ndarray, p: Mapping[str, Any]) -> np.ndarray:
    """Pearson's r per resample; NaN when a side is constant or there are fewer than ``min_units`` units."""
    sx, sy, sxx, syy, sxy, m = (s[:, j] for j in range(6))
    with np.errstate(divide="ignore", invalid="ignore"):
        vx, vy = sxx - sx * sx / m, syy - sy * sy / m
        cov = sxy - sx * sy / m
        ok = (vx > 1e-10 * np.abs(sxx)) & (vy > 1e-10 * np.abs(syy)) & (m >= int(p.get("min_units", 2)))
        r = np.where(ok, cov / np.sqrt(np.where(ok, vx * vy, 1.0)), np.nan)
    return np.clip(r, -1.0, 1.0)


def rankdata(a: np.ndarray) -> np.ndarray:
    """Average ranks (1-based; ties share the mean rank), as ``scipy.stats.rankdata``."""
    a = np.asarray(a)
    sorter = np.argsort(a, kind="mergesort")
    inv = np.empty(sorter.size, dtype=np.intp)
    inv[sorter] = np.arange(sorter.size)
    s = a[sorter]
    obs = np.r_[True, s[1:] != s[:-1]]
    dense = obs.cumsum()[inv]
    count = np.r_[np.nonzero(obs)[0], len(obs)]
    return np.asarray(0.5 * (count[dense] + count[dense - 1] + 1), dtype=np.float64)


def _spearman_cols(a: Mapping[str, np.ndarray], p: Mapping[str, Any]) -> list[np.ndarray]:
    """Spearman's rho as Pearson's r of the ranks over all units: a unit keeps its rank in every resample (ranks
    re-computed within a resample are not a sum of per-unit columns), so the point value is Spearman's rho and
    a resample's value is the correlation of the drawn units' full-sample ranks."""
    return _pearson_cols({"x": rankdata(a["x"]), "y": rankdata(a["y"])}, p)


def n_slots(p: Mapping[str, Any]) -> int:
    return int(p["slots"])


def _pearson_slots_cols(a: Mapping[str, np.ndarray], p: Mapping[str, Any]) -> list[np.ndarray]:
    """Pearson's r over pairs grouped in units (a NonCompSST phrase's left and right sides): unit k holds up to
    ``slots`` pairs ``(x_j, y_j)`` where ``w_j`` is 1; a resample sums the unit's pairs."""
    k = n_slots(p)
    xs, ys, ws = ([a[f"{c}_{j}"] for j in range(k)] for c in "xyw")
    return [sum(w * x for x, w in zip(xs, ws)), sum(w * y for y, w in zip(ys, ws)),
            sum(w * x * x for x, w in zip(xs, ws)), sum(w * y * y for y, w in zip(ys, ws)),
            sum(w * x * y for x, y, w in zip(xs, ys, ws)), sum(ws)]


def _macro_cols(a: Mapping[str, np.ndarray], p: Mapping[str, Any]) -> list[np.ndarray]:
    k = int(p["n_labels"])
    g1, p1 = _onehot(a["gold"], k), _onehot(a["predicted"], k)
    return [*(g1 * p1).T, *g1.T, *p1.T]


def _macro_fin(s: np.ndarray, p: Mapping[str, Any]) -> np.ndarray:
    """Macro-F1 over the labels present in the resample's gold labels or predictions (code -1: no prediction)."""
    k = int(p["n_labels"])
    tp, gold, pred = s[:, :k], s[:, k:2 * k], s[:, 2 * k:]
    present = (gold > 0) | (pred > 0)
    with np.errstate(divide="ignore", invalid="ignore"):  # the arithmetic of stats.classification, bit for bit
        prec = np.where(pred > 0, tp / np.where(pred > 0, pred, 1), 0.0)
        rec = np.where(gold > 0, tp / np.where(gold > 0, gold, 1), 0.0)
        t = prec + rec
        f1 = np.where(t > 0, 2 * prec * rec / np.where(t > 0, t, 1), 0.0)
        cnt = present.sum(axis=1)
        return np.where(cnt > 0, (f1 * present).sum(axis=1) / np.where(cnt > 0, cnt, 1), np.nan)


def _f1_fin(s: np.ndarray, p: Mapping[str, Any]) -> np.ndarray:
    """Micro F1 (or ``stat``: precision, recall) of summed (true positive, predicted, gold) counts; 0 where
    nothing is predicted or gold."""
    tp, npred, ngold = s[:, 0], s[:, 1], s[:, 2]
    prec, rec = _safe_div(tp, npred, 0.0), _safe_div(tp, ngold, 0.0)
    stat = p.get("stat", "f1")
    if stat != "f1":
        return prec if stat == "precision" else rec
    with np.errstate(divide="ignore", invalid="ignore"):
        return np.where(prec + rec > 0, 2 * prec * rec / np.where(prec + rec > 0, prec + rec, 1.0), 0.0)


BLEU_ORDER = 4
BLEU_STATS = ("hyp_len", "ref_len", *(f"correct_{j}" for j in range(1, BLEU_ORDER + 1)),
              *(f"total_{j}" for j in range(1, BLEU_ORDER + 1)))
"""The sufficient statistics of corpus BLEU per unit, in sacreBLEU's order: hypothesis and reference lengths,
matched and total n-grams of orders 1-4."""


def bleu_of_stats(row: Sequence[float]) -> float:
    """Corpus BLEU (0-1 scale, capped at 1) of summed :data:`BLEU_STATS`, with sacreBLEU's exponential smoothing
    and no effective order: sacreBLEU 2's ``BLEU.compute_bleu`` operation for operation (Python floats and
    ``math``), so the corpus value is sacreBLEU's to the last bit."""
    sys_len, ref_len = row[0], row[1]
    correct, total = row[2:2 + BLEU_ORDER], row[2 + BLEU_ORDER:2 + 2 * BLEU_ORDER]
    bp = 1.0
    if sys_len < ref_len:
        bp = math.exp(1 - ref_len / sys_len) if sys_len > 0 else 0.0
    if not any(correct):
        return 0.0
    precisions = [0.0] * BLEU_ORDER
    smooth = 1.0
    for n in range(BLEU_ORDER):
        if total[n] == 0:
            break
        if correct[n] == 0:
            smooth *= 2
            precisions[n] = 100.0 / (smooth * total[n])
        else:
            precisions[n] = 100.0 * correct[n] / total[n]
    score = bp * math.exp(sum([math.log(q) if q != 0.0 else -9999999999 for q in precisions]) / BLEU_ORDER)
    return min(1.0, score / 100.0)  # identical texts give 100.00000000000004


def _bleu_fin(s: np.ndarray, p: Mapping[str, Any]) -> np.ndarray:
    return np.array([bleu_of_stats([float(v) for v in row]) for row in s], dtype=np.float64)


LABEL_STATS = ("macro_f1", "macro_precision", "macro_recall", "f1", "precision", "recall")


def _label_cols(a: Mapping[str, np.ndarray], p: Mapping[str, Any]) -> list[np.ndarray]:
    k = int(p["n_labels"])
    return [a[f"{what}_{j}"] for what in ("tp", "gold", "predicted") for j in range(k)]


def _label_fin(s: np.ndarray, p: Mapping[str, Any]) -> np.ndarray:
    """Per-label or macro precision / recall / F1 of summed per-label counts (0 where undefined; the macro average
    over the labels present in the resample's gold labels or predictions), as :mod:`.classification` computes."""
    k = int(p["n_labels"])
    tp, gold, pred = s[:, :k], s[:, k:2 * k], s[:, 2 * k:]
    with np.errstate(divide="ignore", invalid="ignore"):
        prec = np.where(pred > 0, tp / np.where(pred > 0, pred, 1), 0.0)
        rec = np.where(gold > 0, tp / np.where(gold > 0, gold, 1), 0.0)
        t = prec + rec
        f1 = np.where(t > 0, 2 * prec * rec / np.where(t > 0, t, 1), 0.0)
        stat = str(p["stat"])
        per = {"f1": f1, "precision": prec, "recall": rec}[stat.removeprefix("macro_")]
        if not stat.startswith("macro_"):
            return per[:, int(p["label"])]
        present = (gold > 0) | (pred > 0)
        cnt = present.sum(axis=1)
        return np.where(cnt > 0, (per * present).sum(axis=1) / np.where(cnt > 0, cnt, 1), np.nan)


Columns = Callable[[Mapping[str, np.ndarray], Mapping[str, Any]], list[np.ndarray]]
Finish = Callable[[np.ndarray, Mapping[str, Any]], np.ndarray]


def _named(*names: str) -> Columns:
    return lambda a, p: [a[k] for k in names]


AGGREGATIONS: dict[str, tuple[tuple[str, ...], Columns, Finish]] = {
    "mean": (("values",), _mean_cols, _ratio_fin),
    "ratio": (("numerator", "denominator"), _named("numerator", "denominator"), _ratio_fin),
    "pearson": (("x", "y"), _pearson_cols, _pearson_fin),
    "spearman": (("x", "y"), _spearman_cols, _pearson_fin),
    "pearson_slots": ((), _pearson_slots_cols, _pearson_fin),
    "bleu": (BLEU_STATS, _named(*BLEU_STATS), _bleu_fin),
    "macro_f1": (("gold", "predicted"), _macro_cols, _macro_fin),
    "f1_counts": (("tp", "predicted", "gold"), _named("tp", "predicted", "gold"), _f1_fin),
    "label_counts": ((), _label_cols, _label_fin),
}
"""The closed registry: aggregation name -> (the per-unit arrays it reads, the per-unit columns a resample sums,
the statistic of those sums). ``seed_mean`` (the mean over seeds of one of these, on the same resample) is
built from ``parts``."""
