"""Paired significance tests for systems evaluated on the same items (usable by every suite).

- :func:`mcnemar`: two systems' correctness vectors. Exact two-sided binomial test when the
  discordant pairs are few (``b + c < exact_below``, default 25), else the continuity-corrected
  chi-square ``(|b - c| - 1)^2 / (b + c)`` with 1 df (SENTiVENT spec section 10; statsmodels'
  ``mcnemar`` gives the same numbers). Defined when there are no discordant pairs: statistic 0, p = 1.
- :func:`cochrans_q`: k >= 2 systems; ``Q = (k - 1)(k sum_j G_j^2 - T^2) / (k T - sum_i L_i^2)``, chi-square
  with k - 1 df. Defined (Q = 0, p = 1) when every item is answered identically by all systems. With
  two systems it equals McNemar's uncorrected chi-square.
- :func:`paired_bootstrap`: the difference of a metric between two systems, resampling items jointly.
  Named classification metrics (``accuracy``, ``macro_f1``, ...) use exact multinomial draws over the
  joint (gold, A, B) cells; any other ``metric(y_true, y_pred) -> float`` is run on resampled indices.
- :func:`holm`: Holm's step-down adjustment of a family of p-values.
- :func:`compare_systems`: everything above for k systems (what ``sentiprobe compare`` prints).

scipy provides the distributions; statsmodels is not needed (it is used as a reference in the tests).
"""
from __future__ import annotations

import itertools
from collections.abc import Callable, Mapping, Sequence
from dataclasses import asdict, dataclass, field
from typing import Any

import numpy as np

from ..core.types import SCHEMA_VERSION
from .classification import cell_codes, classification_report, scores_from_counts
from .resampling import (DEFAULT_ALPHA, DEFAULT_N_BOOT, count_draws, paired_p_value, percentile_interval,
                         statistic_distribution)

EXACT_BELOW = 25


@dataclass(frozen=True)
class HypothesisTest:
    """One hypothesis test.

    Attributes:
        test: ``mcnemar`` or ``cochran_q``.
        statistic: the test statistic (for exact McNemar, min(b, c) as in statsmodels).
        p_value: two-sided p-value.
        df: degrees of freedom of the chi-square reference (None for the exact test).
        method: ``exact-binomial``, ``chi2-continuity-corrected``, ``chi2`` or ``no-discordant-pairs``.
        n: number of items.
        counts: the counts the test used (``b``, ``c`` for McNemar; per-system successes for Q).
    """

    test: str
    statistic: float
    p_value: float
    df: int | None
    method: str
    n: int
    counts: dict[str, Any] = field(default_factory=dict)

    def to_dict(self) -> dict[str, Any]:
        return asdict(self)


def _as_bool(x: Sequence | np.ndarray) -> np.ndarray:
    a = np.asarray(x)
    if a.dtype != bool:
        if not np.isin(a, (0, 1)).all():
            raise ValueError("correctness vectors must be 0/1 or boolean")
        a = a.astype(bool)
    return a


def mcnemar(correct_a: Sequence | np.ndarray, correct_b: Sequence | np.ndarray, *, exact: bool | None = None,
            exact_below: int = EXACT_BELOW, correction: bool = True) -> HypothesisTest:
    """McNemar's test on paired correctness (``b`` = A right & B wrong, ``c`` = A wrong & B right).

    ``exact=None`` chooses the exact binomial test when ``b + c < exact_below``.
    """
    from scipy import stats

    a, b_ = _as_bool(correct_a), _as_bool(correct_b)
    if a.shape != b_.shape:
        raise ValueError(f"correctness vectors differ in length: {a.size} vs {b_.size}")
    b = int((a & ~b_).sum())
    c = int((~a & b_).sum())
    n = int(a.size)
    counts = {"b": b, "c": c, "both_right": int((a & b_).sum()), "both_wrong": int((~a & ~b_).sum())}
    if b + c == 0:
        return HypothesisTest("mcnemar", 0.0, 1.0, None, "no-discordant-pairs", n, counts)
    use_exact = (b + c < exact_below) if exact is None else bool(exact)
    if use_exact:
        p = float(min(1.0, 2.0 * stats.binom.cdf(min(b, c), b + c, 0.5)))
        return HypothesisTest("mcnemar", float(min(b, c)), p, None, "exact-binomial", n, counts)
    corr = 1.0 if correction else 0.0
    stat = (abs(b - c) - corr) ** 2 / (b + c)
    p = float(stats.chi2.sf(stat, 1))
    return HypothesisTest("mcnemar", float(stat), p, 1,
                      "chi2-continuity-corrected" if correction else "chi2", n, counts)


def cochrans_q(correct: np.ndarray | Sequence[Sequence]) -> HypothesisTest:
    """Cochran's Q for an ``items x systems`` 0/1 correctness matrix (k >= 2 systems)."""
    from scipy import stats

    x = np.asarray(correct)
    if x.ndim != 2 or x.shape[1] < 2:
        raise ValueError("Cochran's Q needs an items x systems matrix with at least two systems")
    x = _as_bool(x).astype(np.float64)
    n, k = x.shape
    g = x.sum(axis=0)
    lrow = x.sum(axis=1)
    t = g.sum()
    den = k * t - (lrow ** 2).sum()
    counts = {"successes": g.astype(int).tolist(), "k": k}
    if den == 0:
        return HypothesisTest("cochran_q", 0.0, 1.0, k - 1, "no-discordant-items", n, counts)
    q = (k - 1) * (k * (g ** 2).sum() - t ** 2) / den
    return HypothesisTest("cochran_q", float(q), float(stats.chi2.sf(q, k - 1)), k - 1, "chi2", n, counts)


def holm(p_values: Sequence[float]) -> list[float]:
    """Holm step-down adjusted p-values (monotone, capped at 1), in the input order."""
    p = np.asarray(p_values, dtype=np.float64)
    m = p.size
    if m == 0:
        return []
    order = np.argsort(p, kind="stable")
    adj = np.empty(m)
    running = 0.0
    for rank, i in enumerate(order):
        running = max(running, min(1.0, (m - rank) * p[i]))
        adj[i] = running
    return adj.tolist()


@dataclass(frozen=True)
class BootstrapDifference:
    """Paired bootstrap of ``metric(A) - metric(B)``.

    Attributes:
        metric: metric name.
        delta: the observed difference A - B.
        ci_low, ci_high: percentile interval of the bootstrap differences.
        p_value: two-sided, ``min(1, 2 * (min(#(d <= 0), #(d >= 0)) + 1) / (n_boot + 1))`` over the
            resampled differences d (the +1 keeps it above 0 with a finite number of resamples).
        n: items; n_boot: resamples; seed: RNG seed.
    """

    metric: str
    delta: float
    ci_low: float | None
    ci_high: float | None
    p_value: float
    n: int
    n_boot: int
    seed: int

    def to_dict(self) -> dict[str, Any]:
        return asdict(self)


NAMED_METRICS = ("accuracy", "macro_f1", "macro_precision", "macro_recall")


def paired_bootstrap(y_true: Sequence, pred_a: Sequence, pred_b: Sequence, *,
                     metric: str | Callable[[Sequence, Sequence], float] = "accuracy",
                     labels: Sequence[str] | None = None, n_boot: int = DEFAULT_N_BOOT, seed: int = 0,
                     alpha: float = DEFAULT_ALPHA) -> BootstrapDifference:
    """Paired bootstrap of a metric difference between systems A and B on the same items.

    ``metric`` is a name in :data:`NAMED_METRICS` (needs ``labels``) or a callable
    ``metric(y_true, y_pred) -> float``.
    """
    n = len(y_true)
    if not (len(pred_a) == len(pred_b) == n):
        raise ValueError("y_true, pred_a and pred_b must have the same length")
    if n == 0:
        raise ValueError("no items to compare")
    if isinstance(metric, str):
        if metric not in NAMED_METRICS:
            raise ValueError(f"unknown metric {metric!r}; use one of {NAMED_METRICS} or a callable")
        if labels is None:
            labels = sorted({str(y) for y in y_true})
        k = len(labels)
        w = k + 1
        ca = cell_codes(y_true, pred_a, labels)
        cb = cell_codes(y_true, pred_b, labels)
        gold, pa, pb = ca // w, ca % w, cb % w
        joint = (gold * w + pa) * w + pb
        n_cells = k * w * w
        full = np.bincount(joint, minlength=n_cells).astype(np.float64)

        def split(counts: np.ndarray) -> tuple[np.ndarray, np.ndarray]:
            c = counts.reshape(*counts.shape[:-1], k, w, w)
            return c.sum(axis=-1).reshape(*counts.shape[:-1], k * w), c.sum(axis=-2).reshape(
                *counts.shape[:-1], k * w)

        a0, b0 = split(full)
        delta = float(scores_from_counts(a0, k)[metric] - scores_from_counts(b0, k)[metric])
        ad, bd = split(count_draws(full, n_boot, seed))
        dist = scores_from_counts(ad, k)[metric] - scores_from_counts(bd, k)[metric]
        name = metric
    else:
        yt, ya, yb = list(y_true), list(pred_a), list(pred_b)
        delta = float(metric(yt, ya) - metric(yt, yb))
        fn = metric

        def diff(idx: np.ndarray) -> float:
            t = [yt[i] for i in idx]
            return fn(t, [ya[i] for i in idx]) - fn(t, [yb[i] for i in idx])

        # one resample per block: the random stream this test has always used
        dist = statistic_distribution(diff, n, n_boot=n_boot, seed=seed, chunk=1)
        name = getattr(metric, "__name__", "metric")
    lo, hi = percentile_interval(dist, alpha)
    return BootstrapDifference(name, delta, lo, hi, paired_p_value(dist), n, n_boot, seed)


def compare_systems(y_true: Sequence, systems: Mapping[str, Sequence], labels: Sequence[str], *,
                    reference: str | None = None, n_boot: int = DEFAULT_N_BOOT, seed: int = 0,
                    alpha: float = DEFAULT_ALPHA, exact_below: int = EXACT_BELOW,
                    metrics: Sequence[str] = ("accuracy", "macro_f1")) -> dict[str, Any]:
    """Per-system metrics, Cochran's Q, and every pairwise McNemar + paired bootstrap (Holm-adjusted).

    ``systems`` maps a system name to its predictions aligned with ``y_true`` (``None`` = wrong).
    ``reference`` (default: the system with the highest accuracy, ties by input order) marks the
    comparisons of SENTiVENT spec section 10 (reference vs each other system) in ``pairs``.
    Holm's adjustment is applied separately to each family: all McNemar p-values, and the
    bootstrap p-values of each metric.
    """
    names = list(systems)
    if len(names) < 2:
        raise ValueError("comparing needs at least two systems")
    y = list(y_true)
    correct = np.array([[p == t for p, t in zip(systems[s], y)] for s in names], dtype=bool).T
    per_system = {}
    for s in names:
        rep = classification_report(y, list(systems[s]), labels, n_boot=n_boot, seed=seed, alpha=alpha)
        per_system[s] = {m: rep.metrics[m].to_dict() for m in metrics}
    if reference is None:
        accs = correct.mean(axis=0)
        reference = names[int(np.argmax(accs))]
    elif reference not in systems:
        raise ValueError(f"reference {reference!r} is not one of the systems {names}")
    q = cochrans_q(correct)
    pairs: list[dict[str, Any]] = []
    for i, j in itertools.combinations(range(len(names)), 2):
        a, b = names[i], names[j]
        if b == reference:  # keep the reference on the left
            a, b, i, j = b, a, j, i
        mc = mcnemar(correct[:, i], correct[:, j], exact_below=exact_below)
        boots = {m: paired_bootstrap(y, systems[a], systems[b], metric=m, labels=labels, n_boot=n_boot,
                                     seed=seed, alpha=alpha) for m in metrics}
        pairs.append({"a": a, "b": b, "involves_reference": reference in (a, b),
                      "mcnemar": mc.to_dict(), "bootstrap": {m: bd.to_dict() for m, bd in boots.items()}})
    for p, adj in zip(pairs, holm([p["mcnemar"]["p_value"] for p in pairs])):
        p["mcnemar"]["p_holm"] = adj
        p["mcnemar"]["reject_holm"] = adj < alpha
    for m in metrics:
        for p, adj in zip(pairs, holm([p["bootstrap"][m]["p_value"] for p in pairs])):
            p["bootstrap"][m]["p_holm"] = adj
    return {"schema_version": SCHEMA_VERSION, "n_items": len(y), "labels": list(labels),
            "systems": names, "reference": reference, "alpha": alpha, "n_boot": n_boot, "seed": seed,
            "metrics": per_system,
            "cochran_q": {**q.to_dict(), "reject": q.p_value < alpha},
            "pairs": pairs,
            "notes": [f"McNemar uses the exact binomial test when b + c < {exact_below}, else the continuity-corrected "
                      "chi-square; p = 1 when there are no discordant pairs.",
                      "Holm's adjustment is applied within each family of tests (McNemar; bootstrap per "
                      "metric) over all pairs."]}
