"""Seeded bootstrap confidence intervals (percentile method).

- ``mean_metric``: a rate/mean over units (items or groups). The bootstrap distribution of a mean
  only depends on the counts of each distinct value, so it is drawn exactly with a multinomial over
  the distinct values: O(n_boot * distinct) instead of O(n_boot * n). 0/1 correctness vectors (accuracy,
  ARS over groups) cost microseconds even for 10^6 units.
- ``bootstrap_metric``: any statistic of resampled units (macro-F1, correlation), computed in chunks
  of resampled index arrays. Resampling groups (``groups=``) keeps each group's items together.
"""
from __future__ import annotations

from collections.abc import Callable, Sequence

import numpy as np

from ..core.types import Metric

DEFAULT_N_BOOT = 1000
DEFAULT_ALPHA = 0.05


def _percentiles(dist: np.ndarray, alpha: float) -> tuple[float | None, float | None]:
    dist = dist[np.isfinite(dist)]
    if dist.size == 0:
        return None, None
    lo, hi = np.quantile(dist, [alpha / 2, 1 - alpha / 2])
    return float(lo), float(hi)


def mean_ci(values: Sequence[float] | np.ndarray, *, n_boot: int = DEFAULT_N_BOOT, seed: int = 0,
            alpha: float = DEFAULT_ALPHA) -> tuple[float | None, float | None, float | None]:
    """(mean, ci_low, ci_high) of the mean of ``values`` by an exact multinomial bootstrap."""
    x = np.asarray(values, dtype=np.float64)
    n = x.size
    if n == 0:
        return None, None, None
    point = float(x.mean())
    if n_boot <= 0:
        return point, None, None
    uniq, counts = np.unique(x, return_counts=True)
    rng = np.random.default_rng(seed)
    draws = rng.multinomial(n, counts / n, size=n_boot)
    dist = draws @ uniq / n
    lo, hi = _percentiles(dist, alpha)
    return point, lo, hi


def mean_metric(name: str, values: Sequence[float] | np.ndarray, *, n_boot: int = DEFAULT_N_BOOT,
                seed: int = 0, alpha: float = DEFAULT_ALPHA, higher_is_better: bool = True,
                note: str | None = None) -> Metric:
    """A Metric for the mean of per-unit values (e.g. 0/1 correctness) with a bootstrap CI."""
    x = np.asarray(values, dtype=np.float64)
    if x.size == 0:
        return Metric.not_computable(name, note or "no units", 0, higher_is_better)
    v, lo, hi = mean_ci(x, n_boot=n_boot, seed=seed, alpha=alpha)
    return Metric(name, v, lo, hi, int(x.size), higher_is_better, "bootstrap-percentile", note)


def resample_indices(n: int, n_boot: int, seed: int, groups: np.ndarray | None = None,
                     chunk: int = 64):
    """Yield chunks of bootstrap index arrays (shape ``(b, m)``) over units or whole groups."""
    rng = np.random.default_rng(seed)
    if groups is None:
        done = 0
        while done < n_boot:
            b = min(chunk, n_boot - done)
            yield rng.integers(0, n, size=(b, n))
            done += b
        return
    groups = np.asarray(groups)
    _, inv = np.unique(groups, return_inverse=True)
    order = np.argsort(inv, kind="stable")
    sizes = np.bincount(inv)
    starts = np.concatenate([[0], np.cumsum(sizes)[:-1]])
    g = sizes.size
    for _ in range(n_boot):
        pick = rng.integers(0, g, size=g)
        idx = np.concatenate([order[starts[k]:starts[k] + sizes[k]] for k in pick])
        yield idx[None, :]


def bootstrap_metric(name: str, statistic: Callable[[np.ndarray], float], n: int, *,
                     groups: np.ndarray | None = None, n_boot: int = DEFAULT_N_BOOT, seed: int = 0,
                     alpha: float = DEFAULT_ALPHA, higher_is_better: bool = True,
                     note: str | None = None, n_units: int | None = None) -> Metric:
    """A Metric for ``statistic(indices)`` with a percentile bootstrap CI.

    ``statistic`` receives an index array into the caller's data (the identity for the point
    estimate) and returns a float (NaN when undefined on a resample; such resamples are dropped).
    """
    if n == 0:
        return Metric.not_computable(name, note or "no units", 0, higher_is_better)
    point = float(statistic(np.arange(n)))
    units = n_units if n_units is not None else (len(np.unique(groups)) if groups is not None else n)
    if n_boot <= 0 or not np.isfinite(point):
        return Metric(name, point if np.isfinite(point) else None, None, None, units, higher_is_better,
                      "none", note)
    dist = []
    for chunk in resample_indices(n, n_boot, seed, groups):
        for row in chunk:
            dist.append(statistic(row))
    lo, hi = _percentiles(np.asarray(dist, dtype=np.float64), alpha)
    return Metric(name, point, lo, hi, units, higher_is_better, "bootstrap-percentile", note)
