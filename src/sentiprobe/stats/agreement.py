"""Inter-rater agreement: percent agreement, Fleiss' kappa, Gwet's AC1, Krippendorff's alpha, Cohen's kappa.

Input is a ``units x raters`` table of labels with ``None`` for a missing rating. Missing data follow
Gwet's handbook (as the R package irrCAC and docs/protocols/sentivent.md#agreement):

- units with no rating are dropped (counted in ``n_units_unrated``);
- observed agreement p_a is averaged over the units with >= 2 ratings (``n_units``);
- category prevalence pi_k for Fleiss' kappa and AC1 uses every unit with >= 1 rating, so a unit rated
  by a single rater counts for prevalence but not for observed agreement (``n_units_single``);
- Krippendorff's alpha uses only units with >= 2 ratings (coincidence matrix; Krippendorff 2011),
  for ``nominal``, ``ordinal``, ``interval`` and ``ratio`` data. For nominal data it equals Gwet's
  formulation in irrCAC.

Weights (Fleiss, AC1, percent agreement, Cohen) are agreement weights ``w[k, l]`` (1 on the
diagonal): ``None``/``"identity"`` (unweighted), ``"linear"`` ``1 - |k - l| / (q - 1)`` and
``"quadratic"`` ``1 - (k - l)^2 / (q - 1)^2`` over the category order, or a q x q matrix.

Uncertainty: ``ci="analytic"`` uses Gwet's linearisation variance (irrCAC) with a t interval for
percent agreement, Fleiss' kappa, AC1 and nominal alpha, and the Fleiss-Cohen-Everitt asymptotic
variance for Cohen's kappa; ``ci="bootstrap"`` (and alpha at other levels) resamples units with a
seeded percentile bootstrap. Every result carries its standard error (bootstrap SD when bootstrapped).

This module is an independent implementation (the ``krippendorff`` package is GPL and is used only as
a test oracle).
"""
from __future__ import annotations

from collections.abc import Callable, Iterator, Sequence
from dataclasses import asdict, dataclass
from typing import Any

import numpy as np
from scipy import sparse

from ..core.errors import ConfigError
from ..core.limits import check_n_boot
from ..core.types import Metric
from .agreement_sparse import (Weights, block_size, category_order, col_sums, is_missing, moment_disagreement,
                               quadratic_form_blocks, rating_counts, ratio_d2, row_sums, weighted_col_sums,
                               within_unit_pairs)
from .resampling import (CI_METHOD, DEFAULT_N_BOOT, count_draw_blocks, group_weight_blocks,
                         percentile_interval)

LEVELS = ("nominal", "ordinal", "interval", "ratio")
LANDIS_KOCH = ((0.0, "poor"), (0.2, "slight"), (0.4, "fair"), (0.6, "moderate"), (0.8, "substantial"),
               (1.0, "almost perfect"))


def landis_koch(value: float | None) -> str | None:
    """Landis & Koch band of a coefficient (<= 0 poor, ..., 0.8-1 almost perfect)."""
    if value is None or not np.isfinite(value):
        return None
    for upper, name in LANDIS_KOCH:
        if value <= upper:
            return name
    return "almost perfect"


@dataclass(frozen=True)
class AgreementResult:
    """One agreement coefficient.

    Attributes:
        name: ``percent_agreement``, ``fleiss_kappa``, ``gwet_ac1``, ``krippendorff_alpha``, ``cohen_kappa``.
        value: the coefficient (None when undefined, e.g. a single category in use).
        se: standard error (analytic, or the bootstrap standard deviation).
        ci_low, ci_high: confidence interval; ci_method says how it was obtained.
        n_units: units entering observed agreement (>= 2 ratings; pairs for Cohen's kappa).
        n_units_single: units with exactly one rating (prevalence only; not for alpha/Cohen).
        n_units_unrated: units without any rating (dropped).
        pa, pe: observed and chance agreement.
        categories: the category order used.
        weighting: weights (or alpha's level of measurement).
        note: why a value is missing, or other remarks.
    """

    name: str
    value: float | None
    se: float | None
    ci_low: float | None
    ci_high: float | None
    ci_method: str
    n_units: int
    n_units_single: int
    n_units_unrated: int
    pa: float | None
    pe: float | None
    categories: tuple[str, ...]
    weighting: str
    note: str | None = None

    def to_dict(self) -> dict[str, Any]:
        d = asdict(self)
        d["categories"] = list(self.categories)
        d["interpretation"] = landis_koch(self.value) if self.name != "percent_agreement" else None
        return d

    def to_metric(self) -> Metric:
        return Metric(self.name, self.value, self.ci_low, self.ci_high, self.n_units, True, self.ci_method,
                      self.note)


# ---- input handling ------------------------------------------------------------------------------
def _finite(x: float | None) -> float | None:
    return None if x is None or not np.isfinite(x) else float(x)


def _t_interval(value: float, se: float, n: int, alpha: float) -> tuple[float | None, float | None]:
    # heavy (seconds on a busy machine): only this path needs it, `import sentiprobe.api` stays light
    from scipy import stats

    if n < 2 or not np.isfinite(se):
        return None, None
    h = float(stats.t.ppf(1 - alpha / 2, n - 1)) * se
    return value - h, min(1.0, value + h)


def _boot_summary(dist: np.ndarray, alpha: float) -> tuple[float | None, float | None, float | None]:
    """(bootstrap SD, ci_low, ci_high) of the finite resampled coefficients; None with fewer than 2."""
    d = dist[np.isfinite(dist)]
    if d.size < 2:
        return None, None, None
    lo, hi = percentile_interval(d, alpha)
    return float(d.std(ddof=1)), lo, hi


def _resampled(blocks: Iterator[np.ndarray], statistic: Callable[[np.ndarray], np.ndarray]) -> np.ndarray:
    """``statistic`` of every block of resamples, concatenated (empty for ``n_boot = 0``)."""
    parts = [statistic(b) for b in blocks]
    return np.concatenate(parts) if parts else np.zeros(0)


def _check_ci(ci: str, n_boot: int) -> None:
    if ci not in ("analytic", "bootstrap"):
        raise ConfigError(f"unknown ci method {ci!r}; use analytic or bootstrap")
    check_n_boot(n_boot)


# ---- the Gwet family (percent agreement, Fleiss' kappa, AC1) ---------------------------------------
def _gwet_parts(counts: sparse.csr_matrix, w: Weights) -> tuple[np.ndarray, np.ndarray, np.ndarray, Any]:
    """Per unit: ratings ``r_i``, ``r_i >= 2``, weighted observed agreement ``pa_i``; and ``c_ik / r_i`` (sparse)."""
    ri = row_sums(counts)
    if w.kind == "identity":
        cwc = row_sums(counts.multiply(counts))
    else:  # sum_kl c_ik w_kl c_il over the categories rated in each unit
        unit, a, b = within_unit_pairs(counts)
        vals = counts.data[a] * counts.data[b] * w.at(counts.indices[a], counts.indices[b])
        cwc = np.bincount(unit, weights=vals, minlength=counts.shape[0])
    sumq = cwc - ri
    m2 = ri >= 2
    pa_i = np.where(m2, sumq / np.where(m2, ri * (ri - 1), 1.0), 0.0)
    share = sparse.csr_matrix(sparse.diags(1.0 / ri) @ counts)
    return ri, m2, pa_i, share


def _gwet_stats(parts: tuple, w: Weights, kind: str, unit_w: np.ndarray):
    """pa, pe, pi, coefficient for unit weights ``unit_w`` of shape (B, n) (vectorised over resamples)."""
    _, m2, pa_i, share = parts
    q = w.q
    with np.errstate(divide="ignore", invalid="ignore"):
        pa = (unit_w @ pa_i) / (unit_w @ m2.astype(np.float64))
        pi = weighted_col_sums(unit_w, share) / unit_w.sum(axis=1, keepdims=True)
        if kind == "percent_agreement":
            pe = np.zeros_like(pa)
        elif kind == "fleiss_kappa":
            pe = (pi * w.matvec(pi)).sum(axis=1)
        else:  # gwet_ac1; a single category in use has no chance agreement (irrCAC: pe ~ 0)
            pe = (w.total() / (q * (q - 1)) * (pi * (1 - pi)).sum(axis=1)) if q > 1 else np.zeros_like(pa)
        coef = pa if kind == "percent_agreement" else (pa - pe) / (1 - pe)
    return pa, pe, pi, coef


def _gwet_variance(counts: sparse.csr_matrix, parts: tuple, w: Weights, kind: str, coef: float, pe: float,
                   pi: np.ndarray) -> float:
    """Gwet's linearisation variance (irrCAC ``*.raw`` functions, infinite population)."""
    n, q = counts.shape
    ri, m2, pa_i, _ = parts
    n2 = int(m2.sum())
    if n < 2 or n2 == 0:
        return float("nan")
    if kind == "percent_agreement":
        pa = pa_i[m2].mean()
        return float((((n / n2) * pa_i - pa) ** 2).sum() / (n * (n - 1)))
    pe_r2 = pe * m2
    c_i = (n / n2) * (pa_i - pe_r2) / (1 - pe)
    if kind == "fleiss_kappa":
        piw = (w.matvec(pi) + w.matvec(pi, transpose=True)) / 2
        pe_i = (counts @ piw) / ri
    else:
        pe_i = (w.total() / (q * (q - 1))) * (counts @ (1 - pi)) / ri if q > 1 else np.zeros(n)
    c_x = c_i - 2 * (1 - coef) * (pe_i - pe) / (1 - pe)
    return float(((c_x - coef) ** 2).sum() / (n * (n - 1)))


def _weights_name(weights: str | np.ndarray | None) -> str:
    return weights if isinstance(weights, str) else ("identity" if weights is None else "custom")


def _gwet_coefficient(kind: str, ratings, *, weights=None, categories=None, ci: str = "analytic",
                      n_boot: int = DEFAULT_N_BOOT, seed: int = 0, alpha: float) -> AgreementResult:
    _check_ci(ci, n_boot)
    ordered = isinstance(weights, str) and weights in ("linear", "quadratic")
    counts, cats, nums, unrated = rating_counts(ratings, categories, ordered=ordered)
    q = len(cats)
    w = Weights(weights, q, nums)
    wname = _weights_name(weights)
    n = counts.shape[0]
    parts = _gwet_parts(counts, w)
    ri = parts[0]
    n2 = int((ri >= 2).sum())
    single = int((ri == 1).sum())

    def result(value, se, lo, hi, method, pa, pe, note=None):
        se = _finite(se)
        if lo is None:
            method = "none" if se is None else method
        return AgreementResult(kind, value, se, lo, hi, method, n2, single, unrated, pa, pe, tuple(cats), wname,
                               note)

    if n2 == 0:
        return result(None, None, None, None, "none", None, None, "no unit has two or more ratings")
    pa, pe, pi, coef = (x[0] for x in _gwet_stats(parts, w, kind, np.ones((1, n))))
    if kind == "fleiss_kappa" and (q < 2 or not np.isfinite(coef)):
        return result(None, None, None, None, "none", float(pa), None,
                      "undefined: fewer than two categories in use (chance agreement is 1)")
    coef, pa, pe = float(coef), float(pa), float(pe)
    if ci == "bootstrap":  # resample units: how often each unit is drawn
        dist = _resampled(group_weight_blocks(n, n_boot, seed, block_size(n + 4 * q)),
                          lambda uw: _gwet_stats(parts, w, kind, uw)[3])
        se, lo, hi = _boot_summary(dist, alpha)
        return result(coef, se, lo, hi, CI_METHOD, pa, pe)
    se = float(np.sqrt(_gwet_variance(counts, parts, w, kind, coef, pe, pi)))
    lo, hi = _t_interval(coef, se, n, alpha)
    return result(coef, se, lo, hi, "gwet-analytic-t", pa, pe)


def percent_agreement(ratings: Sequence[Sequence[Any]], *, alpha: float, **kw: Any) -> AgreementResult:
    """Observed agreement over units with >= 2 ratings (weighted when ``weights`` is given)."""
    return _gwet_coefficient("percent_agreement", ratings, alpha=alpha, **kw)


def fleiss_kappa(ratings: Sequence[Sequence[Any]], *, alpha: float, **kw: Any) -> AgreementResult:
    """Fleiss' (generalised) kappa: p_e = sum_kl w_kl pi_k pi_l (Fleiss 1971; Gwet for missing data)."""
    return _gwet_coefficient("fleiss_kappa", ratings, alpha=alpha, **kw)


def gwet_ac1(ratings: Sequence[Sequence[Any]], *, alpha: float, **kw: Any) -> AgreementResult:
    """Gwet's AC1 (AC2 when weighted): p_e = sum(w) / (q (q - 1)) * sum_k pi_k (1 - pi_k)."""
    return _gwet_coefficient("gwet_ac1", ratings, alpha=alpha, **kw)


# ---- Krippendorff's alpha --------------------------------------------------------------------------
MAX_RATIO_BOOTSTRAP_WORK = 10**10
"""Largest ``n_boot x v^2`` (v distinct values in use) for a ratio-level bootstrap: its expected disagreement has
no shortcut (``((c - k) / (c + k))^2`` does not expand), so every resample sums over all value pairs. Above it the
interval is not computed (and the result says so); the value always is."""


class _Coincidences:
    """The pairable units' coincidences as within-unit category pairs (never the q x q matrix).

    Attributes:
        c2: CSR counts of the units with >= 2 ratings; r2 their ratings.
        unit, k, k2, val: unit ``unit`` contributes ``val`` to the coincidence ``o[k, k2]``
            (``(c_k c_k2 - [k = k2] c_k) / (r - 1)``).
    """

    def __init__(self, counts: sparse.csr_matrix, level: str, values: np.ndarray | None) -> None:
        ri = row_sums(counts)
        keep = ri >= 2
        self.c2 = sparse.csr_matrix(counts[np.flatnonzero(keep)])
        self.r2 = ri[keep]
        self.n2 = self.c2.shape[0]
        self.level, self.values = level, values
        unit, a, b = within_unit_pairs(self.c2)
        d = self.c2.data
        val = (d[a] * d[b] - (a == b) * d[a]) / (self.r2[unit] - 1)
        nz = val != 0
        self.unit, self.val = unit[nz], val[nz]
        self.k, self.k2 = self.c2.indices[a[nz]], self.c2.indices[b[nz]]
        self.used = np.flatnonzero(col_sums(self.c2) > 0)  # the ratio level sums over these value pairs only
        self.do_i: np.ndarray | None = None
        if level != "ordinal":  # a fixed difference function: each unit's observed disagreement once
            if level == "nominal":
                d2 = (self.k != self.k2).astype(np.float64)
            elif level == "interval":
                assert values is not None
                d2 = (values[self.k] - values[self.k2]) ** 2
            else:
                assert values is not None
                d2 = ratio_d2(values[self.k], values[self.k2])
            self.do_i = np.bincount(self.unit, weights=self.val * d2, minlength=self.n2)

    def width(self) -> int:
        """Numbers one resample needs (for the block size)."""
        return max(self.n2, self.c2.shape[1], len(self.val) if self.level == "ordinal" else 0) * 4

    def alpha(self, uw: np.ndarray) -> np.ndarray:
        """Alpha of each resample (rows of unit weights ``uw``, b x pairable units); NaN where undefined."""
        n_b = uw @ self.r2
        marg = weighted_col_sums(uw, self.c2)
        if self.level == "ordinal":  # distance = difference of mid-ranks cum(n) - n/2 of the resample's marginals
            mid = np.cumsum(marg, axis=1) - marg / 2
            do_b = (uw[:, self.unit] * self.val * (mid[:, self.k] - mid[:, self.k2]) ** 2).sum(axis=1)
            de_b = moment_disagreement(mid, marg)
        else:
            assert self.do_i is not None
            do_b = uw @ self.do_i
            if self.level == "nominal":
                de_b = n_b ** 2 - (marg ** 2).sum(axis=1)
            elif self.level == "interval":
                assert self.values is not None
                de_b = moment_disagreement(self.values, marg)
            else:
                assert self.values is not None
                de_b = quadratic_form_blocks(marg[:, self.used], ratio_d2, self.values[self.used])
        with np.errstate(divide="ignore", invalid="ignore"):
            return np.where(de_b > 0, 1.0 - (n_b - 1) * do_b / np.where(de_b > 0, de_b, 1), np.nan)


def krippendorff_alpha(ratings: Sequence[Sequence[Any]], *, level: str = "nominal",
                       categories: Sequence[Any] | None = None, ci: str = "analytic",
                       n_boot: int = DEFAULT_N_BOOT, seed: int = 0, alpha: float) -> AgreementResult:
    """Krippendorff's alpha with missing ratings, at ``level`` nominal / ordinal / interval / ratio.

    Ordinal data use the category order (``categories``, or numeric order for numeric labels);
    interval and ratio data use numeric labels (or the rank of each category in ``categories``). Ratio data
    must be non-negative (a ratio scale has an absolute zero; with negative values ``c + k`` can be 0 and two
    different values would count as agreeing). The analytic SE (Gwet) exists for nominal data; other levels
    are bootstrapped over units.
    """
    if level not in LEVELS:
        raise ConfigError(f"unknown level {level!r}; use one of {', '.join(LEVELS)}")
    _check_ci(ci, n_boot)
    counts, cats, nums, unrated = rating_counts(ratings, categories, ordered=level != "nominal")
    if level == "ratio" and nums is not None and (nums < 0).any():
        neg = [c for c, v in zip(cats, nums) if v < 0]
        raise ConfigError(f"the ratio level needs non-negative values (a ratio scale has an absolute zero); "
                          f"{len(neg)} value(s) are negative, e.g. {neg[:3]}: use the interval level")
    ri = row_sums(counts)
    single = int((ri == 1).sum())
    co = _Coincidences(counts, level, nums)
    n2 = co.n2

    def result(value, se, lo, hi, method, pa=None, pe=None, note=None):
        se = _finite(se)
        if lo is None:
            method = "none" if se is None else method
        return AgreementResult("krippendorff_alpha", value, se, lo, hi, method, n2, single, unrated, pa, pe,
                               tuple(cats), level, note)

    if n2 == 0:
        return result(None, None, None, None, "none", note="no unit has two or more ratings")
    value = float(co.alpha(np.ones((1, n2)))[0])
    if not np.isfinite(value):
        return result(None, None, None, None, "none",
                      note="undefined: no variation in the pairable values (expected disagreement is 0)")
    pa = pe = None
    if level == "nominal":
        pa, pe, se = _alpha_nominal_gwet(co.c2, co.r2)
        if ci == "analytic":
            lo, hi = _t_interval(value, se, n2, alpha)
            return result(value, se, lo, hi, "gwet-analytic-t", pa, pe)
    note = None if ci == "bootstrap" else f"analytic SE exists for nominal data only; bootstrapped at level {level}"
    if level == "ratio" and n_boot * len(co.used) ** 2 > MAX_RATIO_BOOTSTRAP_WORK:
        return result(value, None, None, None, "none", pa, pe,
                      f"no interval: a ratio-level bootstrap sums over all pairs of the {len(co.used):,} distinct "
                      f"values in every resample ({n_boot:,} x {len(co.used):,}^2 > {MAX_RATIO_BOOTSTRAP_WORK:.0e} "
                      "operations); use fewer resamples (--n-boot), the interval level, or bin the values")
    dist = _resampled(group_weight_blocks(n2, n_boot, seed, block_size(co.width())), co.alpha)  # units >= 2 ratings
    bse, lo, hi = _boot_summary(dist, alpha)
    return result(value, bse, lo, hi, CI_METHOD, pa, pe, note)


def _alpha_nominal_gwet(c2: sparse.csr_matrix, ri: np.ndarray) -> tuple[float, float, float]:
    """Gwet's formulation of nominal alpha (irrCAC ``krippen.alpha.raw``): ``(pa, pe, se)``.

    ``pa = (1 - eps) pa' + eps`` and ``pe = sum_k pi_k^2`` over units with >= 2 ratings
    (docs/protocols/sentivent.md#agreement); the standard error is irrCAC's linearisation variance (that of alpha').
    """
    n = c2.shape[0]
    rbar = ri.mean()
    eps = 1.0 / ri.sum()
    sumq = row_sums(c2.multiply(c2)) - ri  # sum_k c_ik (c_ik - 1)
    paprime = (sumq / (rbar * (ri - 1))).mean()
    pi = col_sums(c2) / (rbar * n)
    pe = float((pi ** 2).sum())
    pa = float((1 - eps) * paprime + eps)
    if n < 2 or pe >= 1:
        return pa, pe, float("nan")
    a_prime = (paprime - pe) / (1 - pe)
    pa_i = sumq / (rbar * (ri - 1)) - paprime * (ri - rbar) / rbar
    a_i = (pa_i - pe) / (1 - pe)
    pe_i = (c2 @ pi) / rbar - pe * (ri - rbar) / rbar
    a_x = a_i - 2 * (1 - a_prime) * (pe_i - pe) / (1 - pe)
    return pa, pe, float(np.sqrt(((a_x - a_prime) ** 2).sum() / (n * (n - 1))))


# ---- Cohen's kappa --------------------------------------------------------------------------------
def cohen_kappa(rater_a: Sequence[Any], rater_b: Sequence[Any], *, weights: str | np.ndarray | None = None,
                categories: Sequence[Any] | None = None, ci: str = "analytic", n_boot: int = DEFAULT_N_BOOT,
                seed: int = 0, alpha: float) -> AgreementResult:
    """Cohen's kappa between two raters (weighted: ``linear`` / ``quadratic`` / a matrix).

    Units where either rating is missing are excluded (``n_units_single`` counts units with exactly
    one rating). The analytic SE is the Fleiss-Cohen-Everitt (1969) large-sample formula. The q x q table is
    kept as its non-empty cells.
    """
    if len(rater_a) != len(rater_b):
        raise ConfigError(f"the raters rated different numbers of units ({len(rater_a)} vs {len(rater_b)})")
    _check_ci(ci, n_boot)
    ordered = isinstance(weights, str) and weights in ("linear", "quadratic")
    cats, nums = category_order(list(rater_a) + list(rater_b), categories, ordered=ordered)
    q = len(cats)
    w = Weights(weights, q, nums)
    wname = _weights_name(weights)
    index = {c: i for i, c in enumerate(cats)}
    pairs, single, unrated = [], 0, 0
    for a, b in zip(rater_a, rater_b):
        ma, mb = is_missing(a), is_missing(b)
        if ma and mb:
            unrated += 1
        elif ma or mb:
            single += 1
        else:
            pairs.append(index[str(a).strip()] * q + index[str(b).strip()])
    n = len(pairs)

    def result(value, se, lo, hi, method, pa=None, pe=None, note=None):
        se = _finite(se)
        if lo is None:
            method = "none" if se is None else method
        return AgreementResult("cohen_kappa", value, se, lo, hi, method, n, single, unrated, pa, pe, tuple(cats),
                               wname, note)

    if n == 0:
        return result(None, None, None, None, "none", note="no unit rated by both raters")
    cells, cell_n = np.unique(np.asarray(pairs, dtype=np.int64), return_counts=True)  # the table's non-empty cells
    row, col = cells // q, cells % q
    w_cell = w.at(row, col)
    ones = np.ones(len(cells))
    rows_of = sparse.csr_matrix((ones, (np.arange(len(cells)), row)), shape=(len(cells), q))
    cols_of = sparse.csr_matrix((ones, (np.arange(len(cells)), col)), shape=(len(cells), q))

    def kappa(tab: np.ndarray) -> tuple[np.ndarray, np.ndarray, np.ndarray]:
        p = tab / tab.sum(axis=1, keepdims=True)
        po = p @ w_cell
        pe = (weighted_col_sums(p, rows_of) * w.matvec(weighted_col_sums(p, cols_of))).sum(axis=1)
        with np.errstate(divide="ignore", invalid="ignore"):
            return po, pe, np.where(pe < 1, (po - pe) / (1 - pe), np.nan)

    po, pe, k = (float(x[0]) for x in kappa(cell_n[None, :].astype(np.float64)))
    if not np.isfinite(k):
        return result(None, None, None, None, "none", po, pe, "undefined: chance agreement is 1")
    if ci == "bootstrap":  # the table's cells in order, the last one kept even when empty: the dense draws
        last = [] if cells[-1] == q * q - 1 else [0]
        dist = _resampled(count_draw_blocks(np.r_[cell_n, last], n_boot, seed, block_size(len(cells) + 3 * q)),
                          lambda tab: kappa(tab[:, :len(cells)])[2])
        se, lo, hi = _boot_summary(dist, alpha)
        return result(k, se, lo, hi, CI_METHOD, po, pe)
    p = cell_n / n
    pr, pc = np.bincount(row, p, q), np.bincount(col, p, q)
    wr = w.matvec(pc)                    # wbar_i. = sum_j p_.j w_ij
    wc = w.matvec(pr, transpose=True)    # wbar_.j = sum_i p_i. w_ij
    term = (p * (w_cell - (wr[row] + wc[col]) * (1 - k)) ** 2).sum()
    var = (term - (k - pe * (1 - k)) ** 2) / (n * (1 - pe) ** 2)
    se = float(np.sqrt(max(var, 0.0)))
    # heavy (seconds on a busy machine): only this path needs it, `import sentiprobe.api` stays light
    from scipy import stats

    h = float(stats.norm.ppf(1 - alpha / 2)) * se
    return result(k, se, k - h, min(1.0, k + h), "asymptotic-normal", po, pe)


def pairwise_cohen(ratings: Sequence[Sequence[Any]], raters: Sequence[str], *, alpha: float,
                   **kw: Any) -> list[dict[str, Any]]:
    """Cohen's kappa for every pair of raters (columns of ``ratings``)."""
    out = []
    cols = list(zip(*ratings)) if ratings else [() for _ in raters]
    for i in range(len(raters)):
        for j in range(i + 1, len(raters)):
            r = cohen_kappa(cols[i], cols[j], alpha=alpha, **kw)
            out.append({"rater_a": raters[i], "rater_b": raters[j], **r.to_dict()})
    return out


MAX_CATEGORICAL_VALUES = 200
"""Above this many distinct values at the interval or ratio level, the categorical coefficients (Fleiss' kappa,
AC1, percent agreement, Cohen's kappa) are not reported: they would treat every distinct number as a category."""
