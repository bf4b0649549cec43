"""Paired comparison of systems on one suite, on the suite's own metrics and its own resampling unit.

Each suite describes a system's result as a :class:`UnitTable`: its headline metrics as functions of a resample
of the suite's units (ARTS source examples with their variants, SOUL reviews, NonCompSST phrases, SENTiVENT
items...). The engine draws the units once and evaluates every system on the same draws, so the bootstrap
distribution of a difference is paired; differences of rates are reported in percentage points, of correlations
in r. Each (pair, metric) gets one test: McNemar's (continuity-corrected chi-square; the
exact binomial test on request) when both tables
carry per-unit 0/1 correctness, else the two-sided paired bootstrap with enough resamples that its floor is
below the strictest Holm threshold; Holm-corrected over every (pair, metric) of the suite. Several seeds of one
system are pooled on the same resamples (:func:`pooled_table`).
"""
from __future__ import annotations

import itertools
import math
from collections.abc import Callable, Mapping, Sequence
from dataclasses import dataclass, field
from typing import Any

import numpy as np

from ..core.errors import ConfigError
from .resampling import DEFAULT_ALPHA, check_alpha, paired_p_value, percentile_interval
from .significance import holm, mcnemar

KINDS = {"rate": ("pp", 100.0), "correlation": ("r", 1.0), "score": ("points", 1.0)}
"""How a difference is shown: rates in percentage points, correlations in r, other scores as they are."""


@dataclass(frozen=True)
class UnitTable:
    """One system's result on one suite, as the paired engine needs it.

    Attributes:
        unit: the resampling unit (``source example``, ``review``, ``phrase``, ``item``...).
        n_units: number of units; unit k is the same unit for every system compared.
        metrics: metric name -> ``statistic(idx)``: the metric over the units ``idx`` (an int array with
            repetitions; ``arange(n_units)`` gives the point value). Order = display order (headline first).
        kinds: metric name -> ``rate``, ``correlation`` or ``score`` (how differences are shown).
        correct: metric name -> per-unit 0/1 correctness (enables McNemar for that metric).
        note: what the unit and the metrics are, for the report.
    """

    unit: str
    n_units: int
    metrics: dict[str, Callable[[np.ndarray], float]]
    kinds: dict[str, str] = field(default_factory=dict)
    correct: dict[str, np.ndarray] = field(default_factory=dict)
    note: str = ""


def _draws(n: int, n_boot: int, seed: int) -> np.ndarray:
    return np.random.default_rng(seed).integers(0, n, size=(n_boot, n)) if n_boot > 0 else np.empty((0, n), int)


def _safe(fn: Callable[[np.ndarray], float], idx: np.ndarray) -> float:
    v = fn(idx)
    return float("nan") if v is None else float(v)


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


def compare_units(tables: Mapping[str, UnitTable], *, n_boot: int = 1000, seed: int = 0,
                  alpha: float = DEFAULT_ALPHA, mcnemar_exact: bool = False) -> dict[str, Any]:
    """Per-system metrics with CIs, a leaderboard per metric and every pairwise paired test.

    Returns ``{"unit", "n_units", "metrics", "systems": {name: {metric: {value, ci_low, ci_high, n}}},
    "leaderboard": {metric: [names, best first]}, "ranks": {metric: {name: rank}}, "pairs": [...], "tests"}``;
    each pair entry holds per metric the difference ``a - b`` (in the metric's display unit), its CI and one
    test: McNemar's (continuity-corrected chi-square; exact binomial with ``mcnemar_exact``) where both systems
    carry per-unit 0/1 correctness, else the two-sided paired bootstrap, whose p-value is marked ``at_floor``
    when no resample crossed zero (it then only says ``p <= p_floor``). The p-values are Holm-corrected over
    every (pair, metric) of the suite; the number of resamples is raised so that the floor stays below the
    strictest Holm threshold (:func:`holm_resamples`; recorded under ``tests``).
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
    metrics = [m for m in first.metrics if all(m in tables[n].metrics for n in names)]
    n_pairs = len(names) * (len(names) - 1) // 2
    resamples = holm_resamples(n_pairs * len(metrics), alpha, n_boot)
    floor = 2.0 / (resamples + 1) if resamples > 0 else None
    n = first.n_units
    full = np.arange(n)
    draws = _draws(n, resamples, seed)
    point = {s: {m: _safe(tables[s].metrics[m], full) for m in metrics} for s in names}
    dist = {s: {m: np.array([_safe(tables[s].metrics[m], d) for d in draws]) for m in metrics} for s in names}
    systems: dict[str, dict[str, Any]] = {}
    for s in names:
        systems[s] = {}
        for m in metrics:
            lo, hi = percentile_interval(dist[s][m], alpha) if resamples > 0 else (None, None)
            v = point[s][m]
            systems[s][m] = {"value": v if np.isfinite(v) else None, "ci_low": lo, "ci_high": hi, "n": n}
    leaderboard = {m: sorted(names, key=lambda s: (-(point[s][m] if np.isfinite(point[s][m]) else -np.inf),
                                                   names.index(s))) for m in metrics}
    ranks = {m: competition_ranks({s: systems[s][m]["value"] for s in names}) for m in metrics}
    pairs = []
    for a, b in itertools.combinations(names, 2):
        entry: dict[str, Any] = {"a": a, "b": b, "metrics": {}}
        for m in metrics:
            kind = first.kinds.get(m, "rate")
            shown, scale = KINDS[kind]
            d = point[a][m] - point[b][m]
            dd = dist[a][m] - dist[b][m]
            lo, hi = percentile_interval(dd, alpha) if resamples > 0 else (None, None)
            e: dict[str, Any] = {
                "difference": None if not np.isfinite(d) else d * scale, "unit": shown,
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
            if m in first.correct and all(m in tables[s].correct for s in (a, b)):
                mc = mcnemar(tables[a].correct[m], tables[b].correct[m], exact=mcnemar_exact).to_dict()
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
             "mcnemar": "exact binomial" if mcnemar_exact else "continuity-corrected chi-square",
             "primary": "McNemar where both systems have per-unit 0/1 correctness, else the paired bootstrap"}
    return {"unit": first.unit, "n_units": n, "note": first.note, "metrics": metrics,
            "kinds": {m: first.kinds.get(m, "rate") for m in metrics}, "systems": systems,
            "leaderboard": leaderboard, "ranks": ranks, "pairs": pairs, "alpha": alpha, "n_boot": resamples,
            "seed": seed, "holm": "over every (pair, metric) of the suite", "tests": tests}


def pooled_table(tables: Sequence[UnitTable]) -> UnitTable:
    """Several seeds of one system as one table: each metric is the mean over seeds of its value on the same
    resample of units (how SST-7 and NonCompSST pool their seeds). Per-unit correctness is kept only where every
    seed has the same (then McNemar applies); otherwise the bootstrap tests the pooled metric.
    """
    ts = list(tables)
    if not ts:
        raise ConfigError("no table to pool")
    if len(ts) == 1:
        return ts[0]
    first = ts[0]
    for t in ts[1:]:
        if t.n_units != first.n_units or t.unit != first.unit:
            raise ConfigError(f"seeds of one system were not scored on the same units ({first.n_units} vs "
                              f"{t.n_units} {first.unit}s)")
    names = [m for m in first.metrics if all(m in t.metrics for t in ts)]

    def mean_over(m: str) -> Callable[[np.ndarray], float]:
        fns = [t.metrics[m] for t in ts]
        return lambda idx: float(np.mean([_safe(f, idx) for f in fns]))

    correct = {m: first.correct[m] for m in names if m in first.correct
               and all(m in t.correct and np.array_equal(t.correct[m], first.correct[m]) for t in ts)}
    note = f"mean over {len(ts)} seeds, pooled on the same resamples of {first.unit}s"
    return UnitTable(unit=first.unit, n_units=first.n_units, metrics={m: mean_over(m) for m in names},
                     kinds={m: first.kinds.get(m, "rate") for m in names}, correct=correct,
                     note=f"{first.note}; {note}" if first.note else note)


# ---- unit tables for the common shapes -----------------------------------------------------------
def mean_of(values: np.ndarray) -> Callable[[np.ndarray], float]:
    """The mean of per-unit values over a resample of units."""
    v = np.asarray(values, dtype=np.float64)
    return lambda idx: float(v[idx].mean()) if len(idx) else float("nan")


def ratio_of(numerator: np.ndarray, denominator: np.ndarray) -> Callable[[np.ndarray], float]:
    """``sum(numerator) / sum(denominator)`` over a resample of units (e.g. correct / statements per review)."""
    a, b = np.asarray(numerator, dtype=np.float64), np.asarray(denominator, dtype=np.float64)

    def stat(idx: np.ndarray) -> float:
        den = b[idx].sum()
        return float(a[idx].sum() / den) if den > 0 else float("nan")

    return stat


def pearson_of(x: np.ndarray, y: np.ndarray) -> Callable[[np.ndarray], float]:
    """Pearson's r of paired per-unit values over a resample of units (NaN when a side is constant)."""
    xv, yv = np.asarray(x, dtype=np.float64), np.asarray(y, dtype=np.float64)

    def stat(idx: np.ndarray) -> float:
        a, b = xv[idx], yv[idx]
        a, b = a - a.mean(), b - b.mean()
        den = float(np.sqrt((a @ a) * (b @ b)))
        return float(a @ b / den) if den > 0 else float("nan")

    return stat


def macro_f1_of(y_true: np.ndarray, y_pred: np.ndarray, n_labels: int) -> Callable[[np.ndarray], float]:
    """Macro-F1 over the labels present in the resample's gold labels or predictions (-1 = wrong/missing).

    The same averaging rule as the suites' own macro-F1 (labels occurring in gold or predictions).
    """
    t, p = np.asarray(y_true, dtype=np.int64), np.asarray(y_pred, dtype=np.int64)

    def stat(idx: np.ndarray) -> float:
        tt, pp = t[idx], p[idx]
        ok = pp >= 0
        tp = np.bincount(tt[ok & (tt == pp)], minlength=n_labels).astype(np.float64)
        gold = np.bincount(tt, minlength=n_labels).astype(np.float64)
        pred = np.bincount(pp[ok], minlength=n_labels).astype(np.float64)
        present = (gold > 0) | (pred > 0)
        with np.errstate(divide="ignore", invalid="ignore"):
            f1 = np.where(gold + pred > 0, 2 * tp / (gold + pred), 0.0)
        return float(f1[present].mean()) if present.any() else float("nan")

    return stat


def _codes(values: list[str | None], index: dict[str, int]) -> np.ndarray:
    return np.array([index.get(v, -1) if v is not None else -1 for v in values], dtype=np.int64)


def classification_table(y_true: list[str | None], y_pred: list[str | None], labels: tuple[str, ...] | list[str], *,
                         unit: str = "item", note: str = "") -> UnitTable:
    """``macro_f1`` (paired bootstrap) and ``accuracy`` (paired bootstrap and McNemar) with items as units.

    A missing or unparsed prediction (``None``) is wrong. Gold labels must come from ``labels``.
    """
    index = {lab: i for i, lab in enumerate(labels)}
    t = _codes(y_true, index)
    if (t < 0).any():
        raise ConfigError("gold labels outside the label set: a paired comparison needs a gold label per item")
    p = _codes(y_pred, index)
    correct = (t == p).astype(np.float64)
    return UnitTable(unit=unit, n_units=len(t), metrics={"macro_f1": macro_f1_of(t, p, len(labels)),
                                                         "accuracy": mean_of(correct)},
                     kinds={"macro_f1": "rate", "accuracy": "rate"}, correct={"accuracy": correct}, note=note)


def seeded_classification_table(y_true: list[str | None], per_seed: list[list[str | None]],
                                labels: tuple[str, ...] | list[str], *, unit: str = "item") -> UnitTable:
    """``macro_f1`` and ``accuracy`` as means over seeds of the per-seed values, items as units (SST-7)."""
    index = {lab: i for i, lab in enumerate(labels)}
    t = _codes(y_true, index)
    ps = [_codes(p, index) for p in per_seed]
    f1s = [macro_f1_of(t, p, len(labels)) for p in ps]
    correct = np.mean([(t == p).astype(np.float64) for p in ps], axis=0)
    return UnitTable(unit=unit, n_units=len(t),
                     metrics={"macro_f1": lambda idx: float(np.mean([f(idx) for f in f1s])),
                              "accuracy": mean_of(correct)},
                     kinds={"macro_f1": "rate", "accuracy": "rate"},
                     note=f"means over {len(ps)} seed(s); the seeds of a system are pooled per item")


def grouped_accuracy_table(groups: list[str], correct: np.ndarray, *, unit: str, metric: str = "accuracy",
                           note: str = "") -> UnitTable:
    """Accuracy pooled over items, resampling whole groups (``sum correct / sum items`` per resample)."""
    keys = {g: i for i, g in enumerate(dict.fromkeys(groups))}
    inv = np.array([keys[g] for g in groups], dtype=np.int64)
    num = np.bincount(inv, weights=np.asarray(correct, dtype=np.float64), minlength=len(keys))
    den = np.bincount(inv, minlength=len(keys)).astype(np.float64)
    return UnitTable(unit=unit, n_units=len(keys), metrics={metric: ratio_of(num, den)}, kinds={metric: "rate"},
                     note=note)
