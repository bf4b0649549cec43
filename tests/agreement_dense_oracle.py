"""TEST ORACLE, not product code: sentiprobe's agreement module as it was at 83308b5 (dense coincidence arrays,
memory units x categories^2). The sparse engine in ``sentiprobe.stats.agreement`` must give the same values and
intervals (``tests/test_stats_agreement_sparse.py``); this copy only runs on small tables there. The engine
is frozen here; the result type and the small helpers that hold no arithmetic of the engine (the Landis & Koch
band, non-finite -> None, the bootstrap summary) are the module's own, imported.
"""
from __future__ import annotations

from collections.abc import Sequence
from typing import Any

import numpy as np

from sentiprobe.core.errors import ConfigError
from sentiprobe.stats.agreement import LEVELS, AgreementResult, _boot_summary, _finite
from sentiprobe.stats.resampling import (CI_METHOD, DEFAULT_N_BOOT, count_draws, group_weights)

# ---- input handling ------------------------------------------------------------------------------
def _is_missing(v: Any) -> bool:
    return v is None or (isinstance(v, float) and np.isnan(v)) or (isinstance(v, str) and v.strip() == "")


def category_order(values: Sequence[Any], categories: Sequence[Any] | None = None, *,
                   ordered: bool = False) -> tuple[list[str], np.ndarray | None]:
    """The categories (as strings) and, for ordered use, their numeric values.

    Given ``categories`` are used in their order (unknown ratings raise ConfigError). Otherwise numeric
    labels are sorted numerically and keep their values; other labels are sorted alphabetically and, when
    ``ordered`` is needed, raise ConfigError (pass the order explicitly).
    """
    seen = sorted({str(v).strip() for v in values if not _is_missing(v)})
    if categories is not None:
        cats = [str(c).strip() for c in categories]
        if len(set(cats)) != len(cats):
            raise ConfigError(f"duplicate categories in {cats}")
        unknown = [c for c in seen if c not in set(cats)]
        if unknown:
            raise ConfigError(f"ratings {unknown[:5]} are not among the given categories {cats}")
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
            raise ConfigError(f"ordered weights / levels need the category order for non-numeric labels "
                              f"{cats}: pass categories (e.g. --categories {','.join(cats)})")
        nums = np.arange(len(cats), dtype=np.float64)
    return cats, nums


def rating_counts(ratings: Sequence[Sequence[Any]], categories: Sequence[Any] | None = None, *,
                  ordered: bool = False) -> tuple[np.ndarray, list[str], np.ndarray | None, int]:
    """``(counts[n, q], categories, numeric values or None, n_unrated)`` for a units x raters table.

    Units without any rating are dropped and counted.
    """
    flat = [v for row in ratings for v in row]
    cats, nums = category_order(flat, categories, ordered=ordered)
    index = {c: i for i, c in enumerate(cats)}
    counts = np.zeros((len(ratings), len(cats)), dtype=np.float64)
    for i, row in enumerate(ratings):
        for v in row:
            if not _is_missing(v):
                counts[i, index[str(v).strip()]] += 1
    rated = counts.sum(axis=1) > 0
    return counts[rated], cats, nums, int((~rated).sum())


def weight_matrix(weights: str | np.ndarray | None, q: int, values: np.ndarray | None = None) -> np.ndarray:
    """Agreement weights (identity, linear or quadratic over ``values``, or a given q x q matrix)."""
    if weights is None or (isinstance(weights, str) and weights in ("identity", "unweighted", "none")):
        return np.eye(q)
    if isinstance(weights, str):
        if weights not in ("linear", "quadratic"):
            raise ConfigError(f"unknown weights {weights!r}; use identity, linear or quadratic")
        v = np.arange(q, dtype=np.float64) if values is None else np.asarray(values, dtype=np.float64)
        span = v.max() - v.min() if q > 1 else 1.0
        d = np.abs(v[:, None] - v[None, :]) / (span or 1.0)
        return 1.0 - (d if weights == "linear" else d ** 2)
    w = np.asarray(weights, dtype=np.float64)
    if w.shape != (q, q):
        raise ConfigError(f"weights must be a {q} x {q} matrix, got shape {w.shape}")
    return w


def _t_interval(value: float, se: float, n: int, alpha: float) -> tuple[float | None, float | None]:
    from scipy import stats

    if n < 2 or not np.isfinite(se):
        return None, None
    h = float(stats.t.ppf(1 - alpha / 2, n - 1)) * se
    return value - h, min(1.0, value + h)


# ---- the Gwet family (percent agreement, Fleiss' kappa, AC1) ---------------------------------------
def _gwet_stats(counts: np.ndarray, w: np.ndarray, kind: str, unit_w: np.ndarray):
    """pa, pe, coefficient for unit weights ``unit_w`` of shape (B, n) (vectorised over resamples)."""
    q = counts.shape[1]
    ri = counts.sum(axis=1)
    sumq = (counts * (counts @ w.T - 1.0)).sum(axis=1)
    m2 = ri >= 2
    pa_i = np.where(m2, sumq / np.where(m2, ri * (ri - 1), 1.0), 0.0)
    with np.errstate(divide="ignore", invalid="ignore"):
        pa = (unit_w @ pa_i) / (unit_w @ m2.astype(np.float64))
        pi = (unit_w @ (counts / ri[:, None])) / unit_w.sum(axis=1, keepdims=True)
        if kind == "percent_agreement":
            pe = np.zeros_like(pa)
        elif kind == "fleiss_kappa":
            pe = np.einsum("bk,kl,bl->b", pi, w, pi)
        else:  # gwet_ac1; a single category in use has no chance agreement (irrCAC: pe ~ 0)
            pe = (w.sum() / (q * (q - 1)) * (pi * (1 - pi)).sum(axis=1)) if q > 1 else np.zeros_like(pa)
        coef = pa if kind == "percent_agreement" else (pa - pe) / (1 - pe)
    return pa, pe, pi, coef


def _gwet_variance(counts: np.ndarray, w: np.ndarray, kind: str, coef: float, pe: float,
                   pi: np.ndarray) -> float:
    """Gwet's linearisation variance (irrCAC ``*.raw`` functions, infinite population)."""
    n, q = counts.shape
    ri = counts.sum(axis=1)
    sumq = (counts * (counts @ w.T - 1.0)).sum(axis=1)
    m2 = ri >= 2
    n2 = int(m2.sum())
    pa_i = np.where(m2, sumq / np.where(m2, ri * (ri - 1), 1.0), 0.0)
    if n < 2 or n2 == 0:
        return float("nan")
    if kind == "percent_agreement":
        pa = pa_i[m2].mean()
        return float((((n / n2) * pa_i - pa) ** 2).sum() / (n * (n - 1)))
    pe_r2 = pe * m2
    c_i = (n / n2) * (pa_i - pe_r2) / (1 - pe)
    if kind == "fleiss_kappa":
        piw = ((w @ pi) + (w.T @ pi)) / 2
        pe_i = (counts @ piw) / ri
    else:
        pe_i = (w.sum() / (q * (q - 1))) * (counts @ (1 - pi)) / ri if q > 1 else np.zeros(n)
    c_x = c_i - 2 * (1 - coef) * (pe_i - pe) / (1 - pe)
    return float(((c_x - coef) ** 2).sum() / (n * (n - 1)))


def _gwet_coefficient(kind: str, ratings, *, weights=None, categories=None, ci: str = "analytic",
                      n_boot: int = DEFAULT_N_BOOT, seed: int = 0, alpha: float) -> AgreementResult:
    ordered = isinstance(weights, str) and weights in ("linear", "quadratic")
    counts, cats, nums, unrated = rating_counts(ratings, categories, ordered=ordered)
    q = len(cats)
    w = weight_matrix(weights, q, nums)
    wname = weights if isinstance(weights, str) else ("identity" if weights is None else "custom")
    n = counts.shape[0]
    ri = counts.sum(axis=1)
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
    pa, pe, pi, coef = (x[0] for x in _gwet_stats(counts, w, kind, np.ones((1, n))))
    if kind == "fleiss_kappa" and (q < 2 or not np.isfinite(coef)):
        return result(None, None, None, None, "none", float(pa), None,
                      "undefined: fewer than two categories in use (chance agreement is 1)")
    coef, pa, pe = float(coef), float(pa), float(pe)
    if ci == "bootstrap":
        uw = group_weights(n, n_boot, seed)  # resample units: how often each unit is drawn
        se, lo, hi = _boot_summary(_gwet_stats(counts, w, kind, uw)[3], alpha)
        return result(coef, se, lo, hi, CI_METHOD, pa, pe)
    if ci != "analytic":
        raise ConfigError(f"unknown ci method {ci!r}; use analytic or bootstrap")
    se = float(np.sqrt(_gwet_variance(counts, w, kind, coef, pe, pi)))
    lo, hi = _t_interval(coef, se, n, alpha)
    return result(coef, se, lo, hi, "gwet-analytic-t", pa, pe)


def percent_agreement(ratings: Sequence[Sequence[Any]], **kw: Any) -> AgreementResult:
    """Observed agreement over units with >= 2 ratings (weighted when ``weights`` is given)."""
    return _gwet_coefficient("percent_agreement", ratings, **kw)


def fleiss_kappa(ratings: Sequence[Sequence[Any]], **kw: Any) -> AgreementResult:
    """Fleiss' (generalised) kappa: p_e = sum_kl w_kl pi_k pi_l (Fleiss 1971; Gwet for missing data)."""
    return _gwet_coefficient("fleiss_kappa", ratings, **kw)


def gwet_ac1(ratings: Sequence[Sequence[Any]], **kw: Any) -> AgreementResult:
    """Gwet's AC1 (AC2 when weighted): p_e = sum(w) / (q (q - 1)) * sum_k pi_k (1 - pi_k)."""
    return _gwet_coefficient("gwet_ac1", ratings, **kw)


# ---- Krippendorff's alpha --------------------------------------------------------------------------
def _delta2(level: str, values: np.ndarray | None, marg: np.ndarray) -> np.ndarray:
    """Squared difference metric; ``marg`` (..., q) are the coincidence marginals (ordinal only)."""
    q = marg.shape[-1]
    if level == "nominal":
        return np.broadcast_to(1.0 - np.eye(q), (*marg.shape[:-1], q, q))
    v = np.asarray(values, dtype=np.float64)
    if level == "interval":
        return np.broadcast_to((v[:, None] - v[None, :]) ** 2, (*marg.shape[:-1], q, q))
    if level == "ratio":
        s = v[:, None] + v[None, :]
        with np.errstate(divide="ignore", invalid="ignore"):
            d = np.where(s != 0, ((v[:, None] - v[None, :]) / np.where(s != 0, s, 1)) ** 2, 0.0)
        return np.broadcast_to(d, (*marg.shape[:-1], q, q))
    # ordinal: (sum_{g between c and k} n_g - (n_c + n_k) / 2)^2, categories in rank order
    cum = np.cumsum(marg, axis=-1)
    lo = np.minimum.outer(np.arange(q), np.arange(q))
    hi = np.maximum.outer(np.arange(q), np.arange(q))
    between = np.take(cum, hi, axis=-1) - np.take(cum, lo, axis=-1) + np.take(marg, lo, axis=-1)
    half = (marg[..., :, None] + marg[..., None, :]) / 2
    return (between - half) ** 2


def _alpha_from_coincidence(o: np.ndarray, level: str, values: np.ndarray | None) -> np.ndarray:
    """Alpha from coincidence matrices ``o`` of shape (..., q, q)."""
    marg = o.sum(axis=-1)
    n = marg.sum(axis=-1)
    d2 = _delta2(level, values, marg)
    do = (o * d2).sum(axis=(-2, -1))
    de = (marg[..., :, None] * marg[..., None, :] * d2).sum(axis=(-2, -1))
    with np.errstate(divide="ignore", invalid="ignore"):
        return np.where(de > 0, 1.0 - (n - 1) * do / np.where(de > 0, de, 1), np.nan)


def krippendorff_alpha(ratings: Sequence[Sequence[Any]], *, level: str = "nominal",
                       categories: Sequence[Any] | None = None, ci: str = "analytic",
                       n_boot: int = DEFAULT_N_BOOT, seed: int = 0, alpha: float) -> AgreementResult:
    """Krippendorff's alpha with missing ratings, at ``level`` nominal / ordinal / interval / ratio.

    Ordinal data use the category order (``categories``, or numeric order for numeric labels);
    interval and ratio data use numeric labels (or the rank of each category in ``categories``).
    The analytic SE (Gwet) exists for nominal data; other levels are bootstrapped over units.
    """
    if level not in LEVELS:
        raise ConfigError(f"unknown level {level!r}; use one of {', '.join(LEVELS)}")
    if level in ("interval", "ratio"):
        cats0, nums0 = category_order([v for row in ratings for v in row], categories, ordered=True)
        if level == "interval" or len(cats0) > MAX_DENSE_CATEGORIES:
            return _alpha_metric_by_pairs(ratings, cats0, nums0, level, ci=ci, n_boot=n_boot, seed=seed,
                                          alpha=alpha)
    counts, cats, nums, unrated = rating_counts(ratings, categories, ordered=level != "nominal")
    ri = counts.sum(axis=1)
    single = int((ri == 1).sum())
    keep = ri >= 2
    c2, r2 = counts[keep], ri[keep]
    n2 = int(keep.sum())

    def result(value, se, lo, hi, method, pa=None, pe=None, note=None):
        se = _finite(se)
        if lo is None:
            method = "none" if se is None else method
        return AgreementResult("krippendorff_alpha", value, se, lo, hi, method, n2, single, unrated, pa, pe,
                               tuple(cats), level, note)

    if n2 == 0:
        return result(None, None, None, None, "none", note="no unit has two or more ratings")
    per_unit = (c2[:, :, None] * c2[:, None, :] - np.einsum("ik,kl->ikl", c2, np.eye(len(cats)))) \
        / (r2 - 1)[:, None, None]
    o = per_unit.sum(axis=0)
    value = float(_alpha_from_coincidence(o, level, nums))
    if not np.isfinite(value):
        return result(None, None, None, None, "none",
                      note="undefined: no variation in the pairable values (expected disagreement is 0)")
    pa = pe = None
    if level == "nominal":
        pa, pe, se = _alpha_nominal_gwet(c2)
        if ci == "analytic":
            lo, hi = _t_interval(value, se, n2, alpha)
            return result(value, se, lo, hi, "gwet-analytic-t", pa, pe)
    if ci not in ("analytic", "bootstrap"):
        raise ConfigError(f"unknown ci method {ci!r}; use analytic or bootstrap")
    uw = group_weights(n2, n_boot, seed)  # resample units with >= 2 ratings
    q = len(cats)
    boot_o = (uw @ per_unit.reshape(n2, q * q)).reshape(n_boot, q, q)
    bse, lo, hi = _boot_summary(_alpha_from_coincidence(boot_o, level, nums), alpha)
    note = None if ci == "bootstrap" else f"analytic SE exists for nominal data only; bootstrapped at level {level}"
    return result(value, bse, lo, hi, CI_METHOD, pa, pe, note)


def _alpha_nominal_gwet(c2: np.ndarray) -> tuple[float, float, float]:
    """Gwet's formulation of nominal alpha (irrCAC ``krippen.alpha.raw``): ``(pa, pe, se)``.

    ``pa = (1 - eps) pa' + eps`` and ``pe = sum_k pi_k^2`` over units with >= 2 ratings
    (docs/protocols/sentivent.md#agreement); the standard error is irrCAC's linearisation variance (that of alpha').
    """
    n, _ = c2.shape
    ri = c2.sum(axis=1)
    rbar = ri.mean()
    eps = 1.0 / ri.sum()
    sumq = (c2 * (c2 - 1)).sum(axis=1)
    paprime = (sumq / (rbar * (ri - 1))).mean()
    pi = (c2 / rbar).mean(axis=0)
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
    one rating). The analytic SE is the Fleiss-Cohen-Everitt (1969) large-sample formula.
    """
    if len(rater_a) != len(rater_b):
        raise ConfigError(f"the raters rated different numbers of units ({len(rater_a)} vs {len(rater_b)})")
    ordered = isinstance(weights, str) and weights in ("linear", "quadratic")
    cats, nums = category_order(list(rater_a) + list(rater_b), categories, ordered=ordered)
    q = len(cats)
    w = weight_matrix(weights, q, nums)
    wname = weights if isinstance(weights, str) else ("identity" if weights is None else "custom")
    index = {c: i for i, c in enumerate(cats)}
    pairs, single, unrated = [], 0, 0
    for a, b in zip(rater_a, rater_b):
        ma, mb = _is_missing(a), _is_missing(b)
        if ma and mb:
            unrated += 1
        elif ma or mb:
            single += 1
        else:
            pairs.append((index[str(a).strip()], index[str(b).strip()]))
    n = len(pairs)

    def result(value, se, lo, hi, method, pa=None, pe=None, note=None):
        se = _finite(se)
        if lo is None:
            method = "none" if se is None else method
        return AgreementResult("cohen_kappa", value, se, lo, hi, method, n, single, unrated, pa, pe, tuple(cats),
                               wname, note)

    if n == 0:
        return result(None, None, None, None, "none", note="no unit rated by both raters")
    codes = np.array([i * q + j for i, j in pairs])
    table = np.bincount(codes, minlength=q * q).reshape(q, q).astype(np.float64)

    def kappa(tab: np.ndarray) -> tuple[np.ndarray, np.ndarray, np.ndarray]:
        p = tab / tab.sum(axis=(-2, -1), keepdims=True)
        po = (p * w).sum(axis=(-2, -1))
        pe = np.einsum("...k,kl,...l->...", p.sum(axis=-1), w, p.sum(axis=-2))
        with np.errstate(divide="ignore", invalid="ignore"):
            return po, pe, np.where(pe < 1, (po - pe) / (1 - pe), np.nan)

    po, pe, k = (float(x) for x in kappa(table))
    if not np.isfinite(k):
        return result(None, None, None, None, "none", po, pe, "undefined: chance agreement is 1")
    if ci == "bootstrap":
        draws = count_draws(table.ravel(), n_boot, seed).reshape(n_boot, q, q)
        se, lo, hi = _boot_summary(kappa(draws)[2], alpha)
        return result(k, se, lo, hi, CI_METHOD, po, pe)
    if ci != "analytic":
        raise ConfigError(f"unknown ci method {ci!r}; use analytic or bootstrap")
    p = table / n
    pr, pc = p.sum(axis=1), p.sum(axis=0)
    wr = w @ pc          # wbar_i. = sum_j p_.j w_ij
    wc = pr @ w          # wbar_.j = sum_i p_i. w_ij
    term = (p * (w - (wr[:, None] + wc[None, :]) * (1 - k)) ** 2).sum()
    var = (term - (k - pe * (1 - k)) ** 2) / (n * (1 - pe) ** 2)
    se = float(np.sqrt(max(var, 0.0)))
    from scipy import stats

    h = float(stats.norm.ppf(1 - alpha / 2)) * se
    return result(k, se, k - h, min(1.0, k + h), "asymptotic-normal", po, pe)


def pairwise_cohen(ratings: Sequence[Sequence[Any]], raters: Sequence[str], **kw: Any) -> list[dict[str, Any]]:
    """Cohen's kappa for every pair of raters (columns of ``ratings``)."""
    out = []
    cols = list(zip(*ratings)) if ratings else [() for _ in raters]
    for i in range(len(raters)):
        for j in range(i + 1, len(raters)):
            r = cohen_kappa(cols[i], cols[j], **kw)
            out.append({"rater_a": raters[i], "rater_b": raters[j], **r.to_dict()})
    return out


MAX_DENSE_CATEGORIES = 200
"""Above this many distinct values, alpha at the ratio level is computed from value pairs, not from a
units x categories x categories coincidence array (whose size grows with the square of the distinct values)."""
MAX_RATIO_BOOTSTRAP_UNITS = 4000
"""The ratio-level bootstrap over many distinct values needs a units x units matrix; above this many pairable
units the interval is not computed (and says so)."""


def _alpha_metric_by_pairs(ratings: Sequence[Sequence[Any]], cats: list[str], nums: np.ndarray | None, level: str, *,
                           ci: str, n_boot: int, seed: int, alpha: float) -> AgreementResult:
    """Krippendorff's alpha at the interval or ratio level from the pairable values, in memory linear in the table.

    Interval: with per-unit sums ``m``, ``s1 = sum v``, ``s2 = sum v^2`` the within-unit disagreement is
    ``(2 m s2 - 2 s1^2) / (m - 1)`` and the expected one ``2 n S2 - 2 S1^2`` (the coincidence-matrix formula
    expanded), so the value and every bootstrap resample of units are linear in the number of units. Ratio
    (``((c - k) / (c + k))^2``, no such expansion): the within-unit sums are direct, the expected disagreement is
    summed over value pairs in chunks, and the bootstrap uses the units x units matrix of pair sums (bounded by
    :data:`MAX_RATIO_BOOTSTRAP_UNITS`). Same draws as the coincidence-matrix path, so the intervals agree.
    """
    assert nums is not None  # ordered=True guarantees numeric values
    value_of = {c: float(v) for c, v in zip(cats, nums)}
    units = [np.array([value_of[str(v).strip()] for v in row if not _is_missing(v)]) for row in ratings]
    unrated = sum(len(u) == 0 for u in units)
    single = sum(len(u) == 1 for u in units)
    pairable = [u for u in units if len(u) >= 2]
    n2 = len(pairable)

    def result(value, se, lo, hi, method, note=None):
        se = _finite(se)
        if lo is None:
            method = "none" if se is None else method
        return AgreementResult("krippendorff_alpha", value, se, lo, hi, method, n2, single, unrated, None, None,
                               tuple(cats), level, note)

    if n2 == 0:
        return result(None, None, None, None, "none", note="no unit has two or more ratings")
    m = np.array([len(u) for u in pairable], dtype=np.float64)
    if level == "interval":
        s1 = np.array([u.sum() for u in pairable])
        s2 = np.array([(u * u).sum() for u in pairable])
        do_u = (2 * m * s2 - 2 * s1 ** 2) / (m - 1)

        def alpha_of(w_m, w_do, w_s1, w_s2):
            de = 2 * w_m * w_s2 - 2 * w_s1 ** 2
            with np.errstate(divide="ignore", invalid="ignore"):
                return np.where(de > 0, 1.0 - (w_m - 1) * w_do / np.where(de > 0, de, 1), np.nan)

        value = float(alpha_of(m.sum(), do_u.sum(), s1.sum(), s2.sum()))
    else:
        def d2(a, b):
            s = a[:, None] + b[None, :]
            with np.errstate(divide="ignore", invalid="ignore"):
                return np.where(s != 0, ((a[:, None] - b[None, :]) / np.where(s != 0, s, 1)) ** 2, 0.0)

        do_u = np.array([d2(u, u).sum() for u in pairable]) / (m - 1)
        flat = np.concatenate(pairable)
        owner = np.repeat(np.arange(n2), m.astype(int))
        de_total = 0.0
        for i in range(0, len(flat), 512):
            de_total += float(d2(flat[i:i + 512], flat).sum())
        n = m.sum()
        value = float(1.0 - (n - 1) * do_u.sum() / de_total) if de_total > 0 else float("nan")
    if not np.isfinite(value):
        return result(None, None, None, None, "none",
                      note="undefined: no variation in the pairable values (expected disagreement is 0)")
    if ci not in ("analytic", "bootstrap"):
        raise ConfigError(f"unknown ci method {ci!r}; use analytic or bootstrap")
    note = None if ci == "bootstrap" else f"analytic SE exists for nominal data only; bootstrapped at level {level}"
    if n_boot <= 0:
        return result(value, None, None, None, "none", note)
    if level == "ratio" and n2 > MAX_RATIO_BOOTSTRAP_UNITS:
        return result(value, None, None, None, "none",
                      f"no interval: the ratio-level bootstrap over {n2} units with {len(cats)} distinct values "
                      f"needs a {n2} x {n2} matrix; use the interval level or bin the values")
    uw = group_weights(n2, n_boot, seed)  # resample units with >= 2 ratings (the same draws as the dense path)
    if level == "interval":
        dist = alpha_of(uw @ m, uw @ do_u, uw @ s1, uw @ s2)
    else:
        pair = np.zeros((n2, n2))
        for i in range(0, len(flat), 512):
            block = d2(flat[i:i + 512], flat)  # values i.. x all values
            rows = np.zeros((n2, block.shape[0]))
            rows[owner[i:i + 512], np.arange(block.shape[0])] = 1.0
            pair += rows @ np.add.reduceat(block, np.r_[0, np.cumsum(m.astype(int))[:-1]], axis=1)
        de_b = ((uw @ pair) * uw).sum(axis=1)
        n_b = uw @ m
        with np.errstate(divide="ignore", invalid="ignore"):
            dist = np.where(de_b > 0, 1.0 - (n_b - 1) * (uw @ do_u) / np.where(de_b > 0, de_b, 1), np.nan)
    se, lo, hi = _boot_summary(dist, alpha)
    return result(value, se, lo, hi, CI_METHOD, note)
