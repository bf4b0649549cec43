"""Paired significance tests for systems evaluated on the same units (usable by every suite).

- :func:`mcnemar`: two systems' correctness vectors. By default the exact two-sided binomial test when there are
  fewer than :data:`EXACT_BELOW` discordant pairs, else the continuity-corrected chi-square
  ``max(0, |b - c| - 1)^2 / (b + c)`` with 1 df: clamped at 0, so b = c gives p = 1 and p never rises as
  ``|b - c|`` grows. ``exact=True`` / ``False`` forces one test; ``clamp=False`` gives the unclamped statistic of
  the SENTiVENT paper's code (mlxtend ``mcnemar(corrected=True)``, statsmodels ``mcnemar(exact=False)``), which
  that suite records as its protocol setting. Every result names its ``method``. Defined when there are no
  discordant pairs: statistic 0, p = 1.
- :func:`cochrans_q`: k >= 2 systems; ``Q = (k - 1)(k sum_j G_j^2 - T^2) / (k T - sum_i L_i^2)``, chi-square
  with k - 1 df. Defined (Q = 0, p = 1) when every item is answered identically by all systems. With
  two systems it equals McNemar's uncorrected chi-square.
- :func:`holm`: Holm's step-down adjustment of a family of p-values.
- :func:`welch_t_test`: Welch's unequal-variance t-test of two independent samples (``scipy.stats.ttest_ind(
  equal_var=False)``), for protocols whose papers used it (ARTS).

The paired bootstrap of metric differences is :mod:`sentiprobe.stats.paired` (the one paired engine, which
``sentiprobe compare``, ``run`` and ``report`` use; it calls the tests here). scipy provides the distributions;
statsmodels is not needed (it is used as a reference in the tests).
"""
from __future__ import annotations

import math
import warnings
from collections.abc import Sequence
from dataclasses import asdict, dataclass, field
from typing import Any

import numpy as np


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


EXACT_BELOW = 25
"""Fewer discordant pairs than this: McNemar's default is the exact binomial test (the chi-square approximation
is poor there)."""


def mcnemar(correct_a: Sequence | np.ndarray, correct_b: Sequence | np.ndarray, *, exact: bool | None = None,
            correction: bool = True, clamp: bool = True, exact_below: int = EXACT_BELOW) -> HypothesisTest:
    """McNemar's test on paired correctness (``b`` = A right & B wrong, ``c`` = A wrong & B right).

    ``exact=None`` (default): the exact two-sided binomial test when ``b + c < exact_below``, else the
    chi-square; ``exact=True`` / ``False`` forces one. The chi-square is continuity-corrected (``correction=
    False``: plain) and its corrected statistic clamped at 0 (``clamp=False``: ``(|b - c| - 1)^2 / (b + c)`` as
    mlxtend and statsmodels compute it, which gives p < 1 for b = c). ``method`` in the result says which ran.
    """
    # heavy (seconds on a busy machine): only this path needs it, `import sentiprobe.api` stays light
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
    if exact is None:
        exact = b + c < exact_below
    if exact:
        p = float(min(1.0, 2.0 * stats.binom.cdf(min(b, c), b + c, 0.5)))
        return HypothesisTest("mcnemar", float(min(b, c)), p, None, "exact-binomial", n, counts)
    corr = 1.0 if correction else 0.0
    dev = abs(b - c) - corr
    if clamp:
        dev = max(0.0, dev)
    stat = dev ** 2 / (b + c)
    p = float(stats.chi2.sf(stat, 1))
    method = "chi2" if not correction else ("chi2-continuity-corrected" if clamp
                                             else "chi2-continuity-corrected-unclamped")
    return HypothesisTest("mcnemar", float(stat), p, 1, method, n, counts)


def cochrans_q(correct: np.ndarray | Sequence[Sequence]) -> HypothesisTest:
    """Cochran's Q for an ``items x systems`` 0/1 correctness matrix (k >= 2 systems)."""
    # heavy (seconds on a busy machine): only this path needs it, `import sentiprobe.api` stays light
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


def welch_t_test(a: Sequence | np.ndarray, b: Sequence | np.ndarray) -> tuple[float, float, float] | None:
    """Welch's two-sided t-test of two independent samples: ``(t, df, p)`` from ``scipy.stats.ttest_ind(a, b,
    equal_var=False)``; ``None`` when undefined (a sample of fewer than two values, both samples constant, or a
    non-finite statistic).
    """
    from scipy.stats import ttest_ind

    x1, x2 = np.asarray(a, dtype=np.float64), np.asarray(b, dtype=np.float64)
    if x1.size < 2 or x2.size < 2 or not (x1.var() > 0 or x2.var() > 0):
        return None
    with warnings.catch_warnings():  # a constant sample (all correct) is exact here, not "nearly identical"
        warnings.filterwarnings("ignore", "Precision loss occurred", RuntimeWarning)
        res = ttest_ind(x1, x2, equal_var=False)
    t, p, df = float(res.statistic), float(res.pvalue), float(res.df)
    if not (math.isfinite(t) and math.isfinite(p)):
        return None
    return t, df, p
