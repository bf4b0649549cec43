"""The one resampling engine of ``sentiprobe.stats``: every bootstrap draw and percentile interval.

Why one module: intervals used to be written in several places, with their own quantile rules (one
ignored ``alpha``), so a fix in one was not a fix in the others. Every draw here starts from a fresh
``np.random.default_rng(seed)``, so one (data, seed) pair gives one interval in any process.

What is drawn depends on the statistic; all of it is the same percentile bootstrap of units:

- **counts** (:func:`count_draws`, :func:`cell_count_draws`): a statistic of category counts (a mean
  over a few distinct values, a confusion matrix, a Cohen table) sees a resample only through its
  counts, which are multinomial. Drawing the counts directly costs O(n_boot x cells), not O(n_boot x n).
- **grouped / cluster** (:func:`group_weights`, :func:`cell_count_draws` with ``groups``): whole groups
  (a review and its statements, a source and its variants) are resampled; a resample is the number of
  times each group is drawn (multinomial, uniform over groups), so totals are matrix products.
- **indices** (:func:`index_draws`, :func:`statistic_distribution`): any other statistic (a
  correlation, a median) runs on resampled index arrays; with ``groups`` whole groups are drawn and their
  items concatenated.
- **paired**: two systems on the same items share one resample, by drawing over the joint
  (gold, A, B) cells (:func:`count_draws`) or shared indices (``chunk=1``); :func:`paired_p_value`
  turns the differences into a two-sided p-value.

The three kinds draw different random streams, and each caller keeps the kind it always used: the
published intervals are reproduced to the last digit.
"""
from __future__ import annotations

from collections.abc import Callable, Iterator, Sequence

import numpy as np

from ..core.errors import ConfigError

DEFAULT_N_BOOT = 1000
CI_METHOD = "bootstrap-percentile"
INDEX_CHUNK = 64
"""Resamples per index block; part of the random stream (numpy drops a half-used 32-bit word at the end
of each block), so changing it changes every index-based interval."""


def check_alpha(alpha: float | None) -> float:
    """``alpha`` as a float in (0, 1), else ConfigError (an interval of level 1 - alpha must exist).

    ``None`` is what a caller passes that wants values only (``n_boot=0``): reaching an interval with it is an
    error, never a silent default level."""
    if alpha is None:
        raise ConfigError("an interval needs a confidence level: alpha=None is only for values without an "
                          "interval (n_boot=0)")
    a = float(alpha)
    if not 0.0 < a < 1.0:
        raise ConfigError(f"alpha must be in (0, 1), got {alpha!r}")
    return a


def percentile_interval(dist: Sequence[float] | np.ndarray,
                        alpha: float | None) -> tuple[float | None, float | None]:
    """The ``alpha / 2`` and ``1 - alpha / 2`` quantiles of the finite resampled values.

    Resamples on which a statistic is undefined (NaN, e.g. a correlation of a constant resample) are
    dropped rather than counted; ``(None, None)`` when none is left.
    """
    a = check_alpha(alpha)
    d = np.asarray(dist, dtype=np.float64)
    d = d[np.isfinite(d)]
    if d.size == 0:
        return None, None
    lo, hi = np.quantile(d, [a / 2, 1 - a / 2])
    return float(lo), float(hi)


def paired_p_value(diffs: np.ndarray) -> float:
    """Two-sided bootstrap p-value of paired differences: ``min(1, 2 (min(#d<=0, #d>=0) + 1) / (B + 1))``.

    The +1 keeps it above 0 with a finite number of resamples; non-finite differences are dropped.
    """
    d = np.asarray(diffs, dtype=np.float64)
    d = d[np.isfinite(d)]
    if d.size == 0:
        return 1.0
    tail = min(int((d <= 0).sum()), int((d >= 0).sum()))
    return float(min(1.0, 2.0 * (tail + 1) / (d.size + 1)))


def count_draws(counts: Sequence[float] | np.ndarray, n_boot: int, seed: int) -> np.ndarray:
    """``(n_boot, cells)`` resampled counts: multinomial(total, counts / total), as floats.

    A resample of n units puts each unit in its cell; only the cell counts matter, so they are drawn
    exactly and directly.
    """
    c = np.asarray(counts, dtype=np.float64)
    n = round(float(c.sum()))
    rng = np.random.default_rng(seed)
    return rng.multinomial(n, c / n, size=n_boot).astype(np.float64)


def group_weights(n_groups: int, n_boot: int, seed: int) -> np.ndarray:
    """``(n_boot, n_groups)`` times each group (or unit) is drawn in each resample of ``n_groups``."""
    rng = np.random.default_rng(seed)
    return rng.multinomial(n_groups, np.full(n_groups, 1.0 / n_groups), size=n_boot).astype(np.float64)


def _multinomial_blocks(total: int, p: np.ndarray, n_boot: int, seed: int, chunk: int) -> Iterator[np.ndarray]:
    rng = np.random.default_rng(seed)
    done = 0
    while done < n_boot:
        b = min(max(1, chunk), n_boot - done)
        yield rng.multinomial(total, p, size=b).astype(np.float64)
        done += b


def group_weight_blocks(n_groups: int, n_boot: int, seed: int, chunk: int) -> Iterator[np.ndarray]:
    """:func:`group_weights` in blocks of at most ``chunk`` resamples: the same draws in the same order, in memory
    ``chunk x n_groups`` instead of ``n_boot x n_groups``."""
    return _multinomial_blocks(n_groups, np.full(n_groups, 1.0 / n_groups), n_boot, seed, chunk)


def count_draw_blocks(counts: Sequence[float] | np.ndarray, n_boot: int, seed: int, chunk: int
                      ) -> Iterator[np.ndarray]:
    """:func:`count_draws` in blocks of at most ``chunk`` resamples (the same draws in the same order).

    Inner cells with a zero count draw nothing and consume no randomness, so the non-zero cells in their order,
    followed by one zero cell when the last cell is empty (the last cell is never drawn, it takes the rest),
    give the same draws of those cells as the whole table."""
    c = np.asarray(counts, dtype=np.float64)
    n = round(float(c.sum()))
    return _multinomial_blocks(n, c / n, n_boot, seed, chunk)


def group_index(groups: Sequence | np.ndarray) -> tuple[np.ndarray, int]:
    """Integer group per unit (groups in sorted order) and the number of groups."""
    arr = np.asarray(groups)
    if arr.size == 0:
        return np.zeros(0, dtype=np.intp), 0
    _, inv = np.unique(arr, return_inverse=True)
    inv = inv.reshape(-1)
    return inv, int(inv.max()) + 1


def cell_count_draws(codes: np.ndarray, n_cells: int, *, n_boot: int, seed: int,
                     groups: Sequence | np.ndarray | None = None) -> np.ndarray:
    """``(n_boot, n_cells)`` cell counts of resamples of units (or of whole ``groups``).

    ``codes`` is the cell of each unit (e.g. ``gold * (k + 1) + predicted``).
    """
    codes = np.asarray(codes, dtype=np.int64)
    if groups is None:
        return count_draws(np.bincount(codes, minlength=n_cells), n_boot, seed)
    inv, g = group_index(groups)
    per_group = np.zeros((g, n_cells))
    np.add.at(per_group, (inv, codes), 1.0)
    return group_weights(g, n_boot, seed) @ per_group


def index_draws(n: int, n_boot: int, seed: int, groups: Sequence | np.ndarray | None = None,
                chunk: int = INDEX_CHUNK) -> Iterator[np.ndarray]:
    """Blocks of bootstrap index arrays (shape ``(b, m)``) over ``n`` units or whole ``groups``.

    Plain resamples come ``chunk`` at a time; grouped ones one at a time (their length varies with the
    groups drawn), each the concatenation of the items of ``g`` groups drawn with replacement.
    """
    rng = np.random.default_rng(seed)
    if groups is None:
        done = 0
        while done < n_boot:
            b = min(chunk, n_boot - done)
            yield rng.integers(0, n, size=(b, n))
            done += b
        return
    inv, g = group_index(groups)
    order = np.argsort(inv, kind="stable")
    sizes = np.bincount(inv)
    starts = np.concatenate([[0], np.cumsum(sizes)[:-1]])
    for _ in range(n_boot):
        pick = rng.integers(0, g, size=g)
        idx = np.concatenate([order[starts[k]:starts[k] + sizes[k]] for k in pick])
        yield idx[None, :]


def statistic_distribution(statistic: Callable[[np.ndarray], float], n: int, *, n_boot: int, seed: int,
                           groups: Sequence | np.ndarray | None = None,
                           chunk: int = INDEX_CHUNK) -> np.ndarray:
    """``statistic(indices)`` on each of ``n_boot`` index resamples (NaN where it is undefined)."""
    out = [statistic(row) for block in index_draws(n, n_boot, seed, groups, chunk) for row in block]
    return np.asarray(out, dtype=np.float64)
