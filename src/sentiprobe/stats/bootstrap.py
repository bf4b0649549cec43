"""Metrics with seeded percentile-bootstrap CIs, built on :mod:`sentiprobe.stats.resampling`.

These are the functions suites call; the draws and intervals themselves live in ``resampling`` only.

- ``mean_metric`` / ``mean_ci``: a rate or mean over units. Its bootstrap distribution depends only on
  how often each distinct value is drawn, so the counts are drawn exactly (multinomial over the
  distinct values): O(n_boot x distinct) instead of O(n_boot x n); 0/1 vectors of 10^6 units cost
  microseconds.
- ``grouped_mean``: a mean over items whose CI resamples whole groups (a SOUL review and its
  statements); ``n`` is the number of groups.
- ``bootstrap_metric``: any statistic of resampled units (macro-F1, a correlation) on index arrays;
  ``groups=`` keeps each group's items together.

``alpha`` has no default: it is the caller's one confidence level (:func:`~sentiprobe.stats.level.alpha_of`), so a
call that forgets it fails the type check. ``alpha=None`` says "values only" and goes with ``n_boot=0``.
"""
from __future__ import annotations

from collections.abc import Callable, Sequence

import numpy as np

from ..core.types import Metric
from .resampling import (CI_METHOD, DEFAULT_N_BOOT, count_draws, group_index, group_weights,
                         index_draws, percentile_interval, statistic_distribution)

resample_indices = index_draws  # the name this generator had before the resampling module existed

__all__ = ["DEFAULT_N_BOOT", "bootstrap_metric", "grouped_mean", "mean_ci", "mean_metric",
           "resample_indices"]


def mean_ci(values: Sequence[float] | np.ndarray, *, n_boot: int = DEFAULT_N_BOOT, seed: int = 0,
            alpha: float | None) -> tuple[float | None, float | None, float | None]:
    """(mean, ci_low, ci_high) of the mean of ``values`` by an exact multinomial bootstrap."""
    x = np.asarray(values, dtype=np.float64)
    n = x.size
    if n == 0:
        return None, None, None
    point = float(x.mean())
    if n_boot <= 0:
        return point, None, None
    uniq, counts = np.unique(x, return_counts=True)
    dist = count_draws(counts, n_boot, seed) @ uniq / n
    lo, hi = percentile_interval(dist, alpha)
    return point, lo, hi


def mean_metric(name: str, values: Sequence[float] | np.ndarray, *, n_boot: int = DEFAULT_N_BOOT,
                seed: int = 0, alpha: float | None, higher_is_better: bool = True,
                note: str | None = None) -> Metric:
    """A Metric for the mean of per-unit values (e.g. 0/1 correctness) with a bootstrap CI."""
    x = np.asarray(values, dtype=np.float64)
    if x.size == 0:
        return Metric.not_computable(name, note or "no units", 0, higher_is_better)
    v, lo, hi = mean_ci(x, n_boot=n_boot, seed=seed, alpha=alpha)
    return Metric(name, v, lo, hi, int(x.size), higher_is_better, CI_METHOD, note)


def grouped_mean(name: str, values: Sequence[float] | np.ndarray, groups: Sequence, *, n_boot: int = DEFAULT_N_BOOT,
                 seed: int = 0, alpha: float | None, higher_is_better: bool = True,
                 note: str | None = None) -> Metric:
    """Mean of per-item values with a percentile CI from resampling whole groups; ``n`` = groups.

    Group ids are compared as strings. A resample's mean is (drawn item total) / (drawn item count),
    i.e. items of larger groups weigh more, as in the point estimate.
    """
    x = np.asarray(values, dtype=np.float64)
    if x.size == 0:
        return Metric.not_computable(name, "no items", 0, higher_is_better)
    inv, g = group_index([str(v) for v in groups])
    point = float(x.mean())
    if n_boot <= 0:
        return Metric(name, point, None, None, g, higher_is_better, "none", note)
    sums = np.bincount(inv, weights=x, minlength=g)
    counts = np.bincount(inv, minlength=g).astype(np.float64)
    draws = group_weights(g, n_boot, seed)
    lo, hi = percentile_interval((draws @ sums) / (draws @ counts), alpha)
    return Metric(name, point, lo, hi, g, higher_is_better, CI_METHOD, note)


def bootstrap_metric(name: str, statistic: Callable[[np.ndarray], float], n: int, *,
                     groups: np.ndarray | None = None, n_boot: int = DEFAULT_N_BOOT, seed: int = 0,
                     alpha: float | None, higher_is_better: bool = True,
                     note: str | None = None, n_units: int | None = None) -> Metric:
    """A Metric for ``statistic(indices)`` with a percentile bootstrap CI.

    ``statistic`` receives an index array into the caller's data (the identity for the point
    estimate) and returns a float (NaN when undefined on a resample; such resamples are dropped).
    """
    if n == 0:
        return Metric.not_computable(name, note or "no units", 0, higher_is_better)
    point = float(statistic(np.arange(n)))
    units = n_units if n_units is not None else (group_index(groups)[1] if groups is not None else n)
    if n_boot <= 0 or not np.isfinite(point):
        return Metric(name, point if np.isfinite(point) else None, None, None, units, higher_is_better,
                      "none", note)
    dist = statistic_distribution(statistic, n, n_boot=n_boot, seed=seed, groups=groups)
    lo, hi = percentile_interval(dist, alpha)
    return Metric(name, point, lo, hi, units, higher_is_better, CI_METHOD, note)
