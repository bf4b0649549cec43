"""Paired comparison of systems on one suite, on the suite's own metrics and its own resampling unit.

Each system's result is its :class:`~sentiprobe.stats.units.UnitScores` (the score stage's per-unit scores). The
engine draws the units once and evaluates every system on the same draws, so the bootstrap distribution of a
difference is paired; differences of rates are reported in percentage points, of correlations in r. Each
(pair, metric) gets one test: McNemar's when both systems carry per-unit 0/1 correctness (by default the exact
binomial test when b + c < 25, else the continuity-corrected chi-square clamped at 0; a protocol may record its
paper's variant), else the two-sided paired bootstrap with enough resamples that its floor is below the
strictest Holm threshold; Holm-corrected over every (pair, metric) of the suite. Several seeds of one system are
pooled on the same resamples (:func:`sentiprobe.stats.units.pooled`).
"""
from __future__ import annotations

import itertools
import math
from collections.abc import Mapping
from typing import Any

import numpy as np

from ..core.errors import ConfigError
from . import units
from .resampling import check_alpha, paired_p_value, percentile_interval
from .significance import holm, mcnemar
from .units import UnitScores

KINDS = {"rate": ("pp", 100.0), "correlation": ("r", 1.0), "score": ("points", 1.0)}
"""How a difference is shown: rates in percentage points, correlations in r, other scores as they are."""


def holm_resamples(n_tests: int, alpha: float, n_boot: int) -> int:
    """Resamples for the paired bootstrap's p-values: at least ``n_boot`` (0 keeps the bootstrap off), and
    enough that the smallest p-value it can give, ``2 / (B + 1)``, is at most half the strictest Holm threshold
    ``alpha / n_tests`` (rounded up to a multiple of 100).

    Why: with a fixed 1,000 resamples, every pair of well-separated systems got the floor p = 0.002 and, after
    Holm over 30 tests, 0.06 > 0.05: the resolution of the resampling, not the data, decided significance.
    """
    if n_boot <= 0:
        return 0
    need = math.ceil(4 * max(1, n_tests) / alpha / 100) * 100
    return max(n_boot, need)


def competition_ranks(values: Mapping[str, float | None], higher_is_better: bool = True) -> dict[str, int | None]:
    """Rank per system (``1, 2, 2, 4``: tied values share the better rank); None for a missing value."""
    ok = {k: float(v) for k, v in values.items() if v is not None and math.isfinite(float(v))}
    sign = -1.0 if higher_is_better else 1.0
    return {k: (1 + sum(1 for w in ok.values() if sign * w < sign * ok[k]) if k in ok else None) for k in values}


def compare_units(tables: Mapping[str, UnitScores], *, n_boot: int, seed: int, alpha: float,
                  mcnemar_exact: bool = False) -> dict[str, Any]:
    """Per-system metrics with CIs, a leaderboard per metric and every pairwise paired test.

    ``tables``: each system's :class:`~sentiprobe.stats.units.UnitScores` on the same units; the metrics tested
    are their ``compared`` ones. Returns ``{"unit", "n_units", "metrics", "systems": {name: {metric: {value,
    ci_low, ci_high, n}}}, "leaderboard": {metric: [names, best first]}, "ranks": {metric: {name: rank}},
    "pairs": [...], "tests"}``. The per-system values and intervals are those of
    :func:`~sentiprobe.stats.units.unit_metrics` at the same ``n_boot``, ``seed`` and ``alpha`` (drawn the same
    way, so they are the results' own); differences and p-values come from paired draws of the units, shared
    by all systems (:func:`~sentiprobe.stats.units.distributions_of`).

    Each pair entry holds per metric the difference ``a - b`` (in the metric's display unit), its CI and one
    test: McNemar's where both systems carry per-unit 0/1 correctness (the protocol's variant, ``paired_test``:
    by default the exact binomial test when b + c < 25, else the continuity-corrected chi-square clamped at 0;
    ``mcnemar_exact`` forces the exact test), else the two-sided paired bootstrap, whose p-value is marked
    ``at_floor`` when no resample crossed zero (it then only says ``p <= p_floor``). The p-values are
    Holm-corrected over every (pair, metric) of the suite; the number of resamples is raised so that the floor
    stays below the strictest Holm threshold (:func:`holm_resamples`; recorded under ``tests``).
    """
    check_alpha(alpha)
    names = list(tables)
    if len(names) < 2:
        raise ConfigError("a comparison needs at least two systems")
    first = tables[names[0]]
    for nm in names[1:]:
        t = tables[nm]
        if t.n_units != first.n_units or t.unit != first.unit:
            raise ConfigError(f"systems {names[0]!r} and {nm!r} were not scored on the same units "
                              f"({first.n_units} {first.unit}s vs {t.n_units} {t.unit}s)")
    metrics = [m for m in first.compared if all(m in tables[n].metrics for n in names)]
    n_pairs = len(names) * (len(names) - 1) // 2
    resamples = holm_resamples(n_pairs * len(metrics), alpha, n_boot)
    floor = 2.0 / (resamples + 1) if resamples > 0 else None
    n = first.n_units
    point = {s: {m: units.point(tables[s].metrics[m], n) for m in metrics} for s in names}
    dist = units.distributions_of(tables, metrics, resamples, seed)
    systems: dict[str, dict[str, Any]] = {}
    for s in names:
        systems[s] = {}
        own = units.distributions(tables[s], metrics, n_boot, seed)  # the single-system draws: the same intervals
        for m in metrics:
            shown = units.metric_of(m, tables[s], point[s][m], own[m], alpha)
            systems[s][m] = {"value": shown.value, "ci_low": shown.ci_low, "ci_high": shown.ci_high,
                             "n": shown.n, "unit_name": shown.unit_name, "n_items": shown.n_items}
    hib = {m: first.metrics[m].higher_is_better for m in metrics}
    leaderboard = {m: sorted(names, key=lambda s: (-(point[s][m] if np.isfinite(point[s][m]) else -np.inf)
                                                   * (1 if hib[m] else -1), names.index(s))) for m in metrics}
    ranks = {m: competition_ranks({s: systems[s][m]["value"] for s in names}, hib[m]) for m in metrics}
    exact = "exact" if mcnemar_exact else first.paired_test
    pairs = []
    for a, b in itertools.combinations(names, 2):
        entry: dict[str, Any] = {"a": a, "b": b, "metrics": {}}
        for m in metrics:
            kind = first.metrics[m].kind
            shown_unit, scale = KINDS[kind]
            d = point[a][m] - point[b][m]
            dd = dist[a][m] - dist[b][m]
            lo, hi = percentile_interval(dd, alpha) if resamples > 0 else (None, None)
            e: dict[str, Any] = {
                "difference": None if not np.isfinite(d) else d * scale, "unit": shown_unit,
                "ci_low": None if lo is None else lo * scale, "ci_high": None if hi is None else hi * scale}
            if not np.isfinite(d):  # undefined for a system (a constant prediction's correlation): no test
                e.update(test=f"none: {m} is undefined for {a if not np.isfinite(point[a][m]) else b}",
                         p_value=None, at_floor=False)
                entry["metrics"][m] = e
                continue
            if resamples > 0:
                bp = paired_p_value(dd)
                e["bootstrap"] = {"p_value": bp, "resamples": resamples, "p_floor": floor,
                                  "at_floor": bool(floor is not None and bp <= floor)}
            ca, cb = tables[a].metrics[m].correct, tables[b].metrics[m].correct
            if ca is not None and cb is not None:
                mc = mcnemar_test(ca, cb, exact).to_dict()
                e["mcnemar"] = mc
                e.update(test=f"McNemar ({mc.get('method')}) over {first.unit}s", p_value=mc["p_value"],
                         at_floor=False)
            elif resamples > 0:
                e.update(test=f"paired bootstrap over {first.unit}s ({resamples} resamples)",
                         p_value=e["bootstrap"]["p_value"], at_floor=e["bootstrap"]["at_floor"])
            else:
                e.update(test="none (no resamples: --n-boot 0)", p_value=None, at_floor=False)
            entry["metrics"][m] = e
        pairs.append(entry)
    flat = [(p, m) for p in pairs for m in metrics if p["metrics"][m]["p_value"] is not None]
    for (p, m), adj in zip(flat, holm([p["metrics"][m]["p_value"] for p, m in flat])):
        p["metrics"][m]["p_holm"] = adj
        p["metrics"][m]["significant"] = bool(adj < alpha)
    tests = {"family": "every (pair, metric) of the suite", "correction": "holm", "n_tests": len(flat),
             "alpha": alpha, "strictest_holm_threshold": alpha / len(flat) if flat else None,
             "bootstrap_resamples": resamples, "bootstrap_resamples_requested": n_boot, "p_floor": floor,
             "mcnemar": MCNEMAR_NAMES[exact],
             "primary": "McNemar where both systems have per-unit 0/1 correctness, else the paired bootstrap"}
    return {"unit": first.unit, "n_units": n, "note": first.note, "metrics": metrics,
            "kinds": {m: first.metrics[m].kind for m in metrics}, "systems": systems,
            "leaderboard": leaderboard, "ranks": ranks, "pairs": pairs, "alpha": alpha, "n_boot": resamples,
            "seed": seed, "holm": "over every (pair, metric) of the suite", "tests": tests}


MCNEMAR_NAMES = {"auto": "exact binomial when b + c < 25, else continuity-corrected chi-square clamped at 0",
                 "exact": "exact binomial",
                 "chi2-corrected-unclamped": "continuity-corrected chi-square (the SENTiVENT paper's, unclamped)"}
"""What each McNemar variant is, as recorded beside the tests."""


def mcnemar_test(a: np.ndarray, b: np.ndarray, variant: str) -> Any:
    """McNemar's test of the variant a protocol records (see :data:`MCNEMAR_NAMES`)."""
    if variant == "exact":
        return mcnemar(a, b, exact=True)
    if variant == "chi2-corrected-unclamped":
        return mcnemar(a, b, exact=False, clamp=False)
    return mcnemar(a, b)


