"""The sparse machinery behind :mod:`.agreement`: rating counts, agreement weights and coincidences in memory
linear in units + categories.

Why: a units x categories count array, a categories x categories weight matrix and a units x categories x
categories coincidence array grow with the square of the distinct values. 1,900 units rated with all-distinct
values (5,700 categories) asked for 204 GiB; 60,000 categories for a 28.8 GB Cohen table. Here:

- counts are a CSR matrix (one entry per unit and category rated);
- the identity, linear and quadratic weights are never materialised: ``W x`` is computed in O(q log q) from
  prefix sums over the category values (``sum_l |v_k - v_l| x_l`` with the values sorted; the quadratic case
  from the moments of ``x``), ``sum(W)`` likewise; a user-given matrix is used as given;
- Krippendorff's coincidences are the within-unit pairs of rated categories (at most ``sum_i m_i^2`` entries
  for ``m_i`` distinct values in unit ``i``), never the q x q matrix;
- resamples come in blocks (:data:`BLOCK_CELLS` numbers at a time) with the same random stream as one draw.
"""
from __future__ import annotations

from collections import Counter
from collections.abc import Callable, Sequence
from typing import Any

import numpy as np
from scipy import sparse

from ..core.errors import ConfigError

BLOCK_CELLS = 1 << 21
"""Numbers per block of resamples (16 MiB of float64): a block of ``b`` resamples holds ``b x max(units,
categories, pairs)`` of them."""


def block_size(width: int) -> int:
    """Resamples per block for per-resample arrays of ``width`` numbers."""
    return max(1, BLOCK_CELLS // max(1, width))


def is_missing(v: Any) -> bool:
    return v is None or (isinstance(v, float) and np.isnan(v)) or (isinstance(v, str) and v.strip() == "")


def category_order(values: Sequence[Any], categories: Sequence[Any] | None = None, *,
                   ordered: bool = False) -> tuple[list[str], np.ndarray | None]:
    """The categories (as strings) and, for ordered use, their numeric values.

    Given ``categories`` are used in their order (unknown ratings raise ConfigError). Otherwise numeric
    labels are sorted numerically and keep their values; other labels are sorted alphabetically and, when
    ``ordered`` is needed, raise ConfigError (pass the order explicitly).
    """
    seen = sorted({str(v).strip() for v in values if not is_missing(v)})
    if categories is not None:
        cats = [str(c).strip() for c in categories]
        given = set(cats)
        if len(given) != len(cats):
            dup = sorted(c for c, k in Counter(cats).items() if k > 1)
            raise ConfigError(f"duplicate categories {dup[:5]}")
        unknown = [c for c in seen if c not in given]
        if unknown:
            raise ConfigError(f"ratings {unknown[:5]} are not among the given categories "
                              f"{cats[:10]}{' ...' if len(cats) > 10 else ''}")
    else:
        cats = seen
    try:
        nums = np.array([float(c) for c in cats], dtype=np.float64)
    except ValueError:
        nums = None
    if categories is None and nums is not None:
        order = np.argsort(nums, kind="stable")
        cats, nums = [cats[i] for i in order], nums[order]
    if ordered and nums is None:
        if categories is None:
            shown = ",".join(cats[:10]) + (",..." if len(cats) > 10 else "")
            raise ConfigError(f"ordered weights / levels need the category order for non-numeric labels "
                              f"{cats[:10]}{' ...' if len(cats) > 10 else ''}: pass categories (e.g. "
                              f"--categories {shown})")
        nums = np.arange(len(cats), dtype=np.float64)
    return cats, nums


def rating_counts(ratings: Sequence[Sequence[Any]], categories: Sequence[Any] | None = None, *,
                  ordered: bool = False) -> tuple[sparse.csr_matrix, list[str], np.ndarray | None, int]:
    """``(counts, categories, numeric values or None, n_unrated)`` of a units x raters table.

    ``counts`` is a sparse (CSR) rated-units x categories matrix; units without any rating are dropped and counted.
    """
    cats, nums = category_order([v for row in ratings for v in row], categories, ordered=ordered)
    index = {c: i for i, c in enumerate(cats)}
    rows: list[int] = []
    cols: list[int] = []
    n = unrated = 0
    for row in ratings:
        got = [index[str(v).strip()] for v in row if not is_missing(v)]
        if not got:
            unrated += 1
            continue
        rows.extend([n] * len(got))
        cols.extend(got)
        n += 1
    m = sparse.csr_matrix((np.ones(len(rows)), (np.asarray(rows, dtype=np.int64), np.asarray(cols, dtype=np.int64))),
                          shape=(n, len(cats)))
    m.sum_duplicates()
    return m, cats, nums, unrated


def row_sums(m: sparse.csr_matrix) -> np.ndarray:
    return np.asarray(m.sum(axis=1)).ravel()


def col_sums(m: sparse.csr_matrix) -> np.ndarray:
    return np.asarray(m.sum(axis=0)).ravel()


def weighted_col_sums(uw: np.ndarray, m: sparse.csr_matrix) -> np.ndarray:
    """``uw @ m`` for a dense block ``uw`` (b x units): b x categories."""
    return np.asarray((m.T @ uw.T).T)


def within_unit_pairs(m: sparse.csr_matrix) -> tuple[np.ndarray, np.ndarray, np.ndarray]:
    """``(unit, a, b)``: every ordered pair of stored entries ``a``, ``b`` (positions in ``m.data``) of the same
    unit, diagonal included; ``sum_i m_i^2`` pairs for ``m_i`` entries in unit ``i``."""
    lengths = np.diff(m.indptr).astype(np.int64)
    sq = lengths * lengths
    unit = np.repeat(np.arange(len(lengths)), sq)
    first = np.repeat(np.cumsum(sq) - sq, sq)
    t = np.arange(int(sq.sum()), dtype=np.int64) - first
    length = np.repeat(lengths, sq)
    start = np.repeat(m.indptr[:-1].astype(np.int64), sq)
    return unit, start + t // np.maximum(length, 1), start + t % np.maximum(length, 1)


# ---- agreement weights without the q x q matrix ------------------------------------------------------------
def _abs_diff_matvec(v: np.ndarray, x: np.ndarray) -> np.ndarray:
    """``y[..., k] = sum_l |v_k - v_l| x[..., l]`` by prefix sums over the sorted values."""
    order = np.argsort(v, kind="stable")
    vs = v[order]
    xs = x[..., order]
    p = np.cumsum(xs, axis=-1)
    s = np.cumsum(xs * vs, axis=-1)
    ys = vs * p - s + (s[..., -1:] - s) - vs * (p[..., -1:] - p)
    y = np.empty_like(ys)
    y[..., order] = ys
    return y


def _sq_diff_matvec(v: np.ndarray, x: np.ndarray) -> np.ndarray:
    """``y[..., k] = sum_l (v_k - v_l)^2 x[..., l]`` from the moments of ``x`` (values centred first)."""
    c = v - v.mean()
    x0 = x.sum(axis=-1, keepdims=True)
    x1 = (x * c).sum(axis=-1, keepdims=True)
    x2 = (x * c * c).sum(axis=-1, keepdims=True)
    return c * c * x0 - 2 * c * x1 + x2


class Weights:
    """Agreement weights ``w[k, l]`` (1 on the diagonal) over ``q`` categories without a q x q array.

    ``identity``; ``linear`` ``1 - |v_k - v_l| / span`` and ``quadratic`` ``1 - (v_k - v_l)^2 / span^2`` over the
    category values ``v`` (their ranks when None); or a given q x q matrix (used as given).
    """

    def __init__(self, weights: str | np.ndarray | None, q: int, values: np.ndarray | None = None) -> None:
        self.q = q
        self.matrix: np.ndarray | None = None
        if weights is None or (isinstance(weights, str) and weights in ("identity", "unweighted", "none")):
            self.kind = "identity"
            return
        if isinstance(weights, str):
            if weights not in ("linear", "quadratic"):
                raise ConfigError(f"unknown weights {weights!r}; use identity, linear or quadratic")
            self.kind = weights
            self.v = np.arange(q, dtype=np.float64) if values is None else np.asarray(values, dtype=np.float64)
            span = float(self.v.max() - self.v.min()) if q > 1 else 1.0
            self.span = span or 1.0
            return
        w = np.asarray(weights, dtype=np.float64)
        if w.shape != (q, q):
            raise ConfigError(f"weights must be a {q} x {q} matrix, got shape {w.shape}")
        self.kind, self.matrix = "custom", w

    def at(self, k: np.ndarray, k2: np.ndarray) -> np.ndarray:
        """``w[k, k2]`` for index arrays."""
        if self.kind == "identity":
            return (k == k2).astype(np.float64)
        if self.kind == "custom":
            assert self.matrix is not None
            return self.matrix[k, k2]
        d = np.abs(self.v[k] - self.v[k2]) / self.span
        return 1.0 - (d if self.kind == "linear" else d * d)

    def matvec(self, x: np.ndarray, transpose: bool = False) -> np.ndarray:
        """``W x`` (``W^T x`` with ``transpose``) along the last axis of ``x``."""
        if self.kind == "identity":
            return x
        if self.kind == "custom":
            assert self.matrix is not None
            return x @ (self.matrix if transpose else self.matrix.T)
        total = x.sum(axis=-1, keepdims=True)
        if self.kind == "linear":
            return total - _abs_diff_matvec(self.v, x) / self.span
        return total - _sq_diff_matvec(self.v, x) / self.span ** 2

    def total(self) -> float:
        """``sum_kl w[k, l]``."""
        if self.kind == "identity":
            return float(self.q)
        if self.kind == "custom":
            assert self.matrix is not None
            return float(self.matrix.sum())
        return float(self.matvec(np.ones(self.q)).sum())


# ---- Krippendorff's difference functions -----------------------------------------------------------------------
def ratio_d2(a: np.ndarray, b: np.ndarray) -> np.ndarray:
    """Krippendorff's ratio difference ``((a - b) / (a + b))^2`` (0 where ``a + b`` is 0), broadcasting."""
    s = a + b
    with np.errstate(divide="ignore", invalid="ignore"):
        return np.where(s != 0, ((a - b) / np.where(s != 0, s, 1)) ** 2, 0.0)


def moment_disagreement(values: np.ndarray, marg: np.ndarray) -> np.ndarray:
    """``sum_kl marg_k marg_l (v_k - v_l)^2`` per row of ``marg`` (``values`` broadcast against it)."""
    c = values - (values * marg).sum(axis=-1, keepdims=True) / np.maximum(marg.sum(axis=-1, keepdims=True), 1e-300)
    n = marg.sum(axis=-1)
    s1 = (marg * c).sum(axis=-1)
    s2 = (marg * c * c).sum(axis=-1)
    return 2 * n * s2 - 2 * s1 ** 2


def quadratic_form_blocks(marg: np.ndarray, d2: Callable[[np.ndarray, np.ndarray], np.ndarray], values: np.ndarray,
                          ) -> np.ndarray:
    """``marg_b^T D marg_b`` per row ``b`` of ``marg`` for ``D[k, l] = d2(v_k, v_l)`` (broadcasting ``d2``), D
    built a block of rows at a time."""
    q = len(values)
    rows = block_size(q)
    out = np.zeros(marg.shape[0])
    for i in range(0, q, rows):
        block = d2(values[i:i + rows, None], values[None, :])  # (rows, q)
        out += ((marg @ block.T) * marg[:, i:i + rows]).sum(axis=1)
    return out
