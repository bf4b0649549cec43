"""Per-unit scores: the one object every number of a suite is derived from, and the engine that derives them.

A suite's score stage describes a system's result on the suite's resampling unit (an ARTS source example with
its variants, a SOUL review, a NonCompSST phrase, a sentence, an item) as a :class:`UnitScores`: per metric, the
per-unit arrays and the name of an aggregation from the closed registry :data:`AGGREGATIONS`. Nothing in it is
a closure, so it is written to ``results.json`` as it is (:meth:`UnitScores.to_dict`) and a comparison of stored
runs rebuilds every number from it without the data.

The engine (:func:`unit_metrics`, :func:`distributions`) computes from that object:

- the point value: the aggregation over all units;
- the interval: the percentile bootstrap over units, from the draws
  :func:`~sentiprobe.stats.resampling.index_draws` ``(n_units, n_boot, seed)`` (blocks of
  ``rng(seed).integers(0, n_units, (64, n_units))``), at the level ``1 - alpha``. A paired comparison draws more
  resamples from the same generator for its p-values; the first ``n_boot`` of them are the same draws, so the
  per-system intervals of a comparison are the intervals of the single-system results, to the last bit.

``n`` of every metric is the number of units it is computed over, labelled with the unit's name
(``Metric.unit_name``); the items behind them are ``Metric.n_items``.
"""
from __future__ import annotations

import math
from collections.abc import Callable, Iterator, Mapping, Sequence
from dataclasses import dataclass, field
from typing import Any

import numpy as np

from ..core.errors import ConfigError
from ..core.types import Metric
from .resampling import CI_METHOD, check_alpha, index_draws, percentile_interval

UNIT_SCORES_SCHEMA_VERSION = 1
KINDS = ("rate", "correlation", "score")
"""How a metric's differences are shown: rates in percentage points, correlations in r, scores as they are."""
PAIRED_TESTS = ("auto", "chi2-corrected-unclamped")
"""McNemar's variant for metrics with per-unit correctness: ``auto`` (exact binomial when b + c < 25, else the
continuity-corrected chi-square clamped at 0), or the SENTiVENT paper's unclamped corrected chi-square."""

Block = Callable[[Mapping[str, np.ndarray], Mapping[str, Any], np.ndarray], np.ndarray]


def _rows(idx: np.ndarray) -> np.ndarray:
    return idx if idx.ndim == 2 else idx[None, :]


def _mean(a: Mapping[str, np.ndarray], p: Mapping[str, Any], idx: np.ndarray) -> np.ndarray:
    v = a["values"][idx]
    return v.mean(axis=1) if idx.shape[1] else np.full(idx.shape[0], np.nan)


def _ratio(a: Mapping[str, np.ndarray], p: Mapping[str, Any], idx: np.ndarray) -> np.ndarray:
    num, den = a["numerator"][idx].sum(axis=1), a["denominator"][idx].sum(axis=1)
    with np.errstate(divide="ignore", invalid="ignore"):
        return np.where(den > 0, num / np.where(den > 0, den, 1.0), np.nan)


def _pearson(a: Mapping[str, np.ndarray], p: Mapping[str, Any], idx: np.ndarray) -> np.ndarray:
    """Pearson's r per row; NaN when a side is constant or there are fewer than ``min_units`` units."""
    if idx.shape[1] < int(p.get("min_units", 2)):
        return np.full(idx.shape[0], np.nan)
    if idx.shape[0] == 1:  # the point value: dot products, as the suites' own correlation code computes it
        xv, yv = a["x"][idx[0]], a["y"][idx[0]]
        xm, ym = xv - xv.mean(), yv - yv.mean()
        den1 = math.sqrt(float(xm @ xm) * float(ym @ ym))
        return np.array([max(-1.0, min(1.0, float(xm @ ym) / den1)) if den1 != 0.0 else np.nan])
    x, y = a["x"][idx], a["y"][idx]
    x = x - x.mean(axis=1, keepdims=True)
    y = y - y.mean(axis=1, keepdims=True)
    num = (x * y).sum(axis=1)
    den = np.sqrt((x * x).sum(axis=1) * (y * y).sum(axis=1))
    with np.errstate(divide="ignore", invalid="ignore"):
        r = np.where(den > 0, num / np.where(den > 0, den, 1.0), np.nan)
    return np.clip(r, -1.0, 1.0)


def _macro_f1(a: Mapping[str, np.ndarray], p: Mapping[str, Any], idx: np.ndarray) -> np.ndarray:
    """Macro-F1 over the labels present in the resample's gold labels or predictions (code -1: no prediction)."""
    k = int(p["n_labels"])
    t, q = a["gold"][idx].astype(np.int64), a["predicted"][idx].astype(np.int64)
    b = idx.shape[0]
    off = (np.arange(b) * k)[:, None]
    ok = q >= 0
    hit = ok & (t == q)
    tp = np.bincount((t + off)[hit], minlength=b * k).reshape(b, k).astype(np.float64)
    gold = np.bincount((t + off).ravel(), minlength=b * k).reshape(b, k).astype(np.float64)
    pred = np.bincount((q + off)[ok], minlength=b * k).reshape(b, k).astype(np.float64)
    present = (gold > 0) | (pred > 0)
    with np.errstate(divide="ignore", invalid="ignore"):  # the arithmetic of stats.classification, bit for bit
        prec = np.where(pred > 0, tp / np.where(pred > 0, pred, 1), 0.0)
        rec = np.where(gold > 0, tp / np.where(gold > 0, gold, 1), 0.0)
        s = prec + rec
        f1 = np.where(s > 0, 2 * prec * rec / np.where(s > 0, s, 1), 0.0)
        cnt = present.sum(axis=1)
        return np.where(cnt > 0, (f1 * present).sum(axis=1) / np.where(cnt > 0, cnt, 1), np.nan)


def _f1_counts(a: Mapping[str, np.ndarray], p: Mapping[str, Any], idx: np.ndarray) -> np.ndarray:
    """Micro F1 of summed (true positive, predicted, gold) counts; 0 when nothing is predicted or gold."""
    tp, npred, ngold = (a[k][idx].sum(axis=1) for k in ("tp", "predicted", "gold"))
    with np.errstate(divide="ignore", invalid="ignore"):
        prec = np.where(npred > 0, tp / np.where(npred > 0, npred, 1.0), 0.0)
        rec = np.where(ngold > 0, tp / np.where(ngold > 0, ngold, 1.0), 0.0)
        return np.where(prec + rec > 0, 2 * prec * rec / np.where(prec + rec > 0, prec + rec, 1.0), 0.0)


AGGREGATIONS: dict[str, tuple[tuple[str, ...], Block]] = {
    "mean": (("values",), _mean),
    "ratio": (("numerator", "denominator"), _ratio),
    "pearson": (("x", "y"), _pearson),
    "macro_f1": (("gold", "predicted"), _macro_f1),
    "f1_counts": (("tp", "predicted", "gold"), _f1_counts),
}
"""The closed registry: aggregation name -> (the per-unit arrays it reads, its statistic over a block of index
rows). ``seed_mean`` (the mean over seeds of one of these, on the same resample) is built from ``parts``."""


@dataclass(frozen=True)
class UnitMetric:
    """One metric as per-unit arrays and an aggregation.

    Attributes:
        aggregation: a name of :data:`AGGREGATIONS`, or ``seed_mean`` (then ``parts`` holds one per seed).
        arrays: the per-unit arrays the aggregation reads (index k is unit k).
        params: the aggregation's settings (``n_labels`` of ``macro_f1``).
        kind: ``rate``, ``correlation`` or ``score``.
        higher_is_better: direction for ranks.
        correct: per-unit 0/1 correctness (enables McNemar's test), or ``None``.
        n_units: units the metric is computed over (None: every unit of the suite).
        n_items: items behind those units (None: unknown / the suite's).
        note: what the metric is, for the reader.
        parts: for ``seed_mean``: one :class:`UnitMetric` per seed.
    """

    aggregation: str
    arrays: Mapping[str, np.ndarray] = field(default_factory=dict)
    params: Mapping[str, Any] = field(default_factory=dict)
    kind: str = "rate"
    higher_is_better: bool = True
    correct: np.ndarray | None = None
    n_units: int | None = None
    n_items: int | None = None
    note: str | None = None
    parts: tuple[UnitMetric, ...] = ()

    def __post_init__(self) -> None:
        if self.kind not in KINDS:
            raise ConfigError(f"metric kind {self.kind!r} is not one of {KINDS}")
        if self.aggregation == "seed_mean":
            if not self.parts:
                raise ConfigError("a seed_mean metric needs one part per seed")
            return
        if self.aggregation not in AGGREGATIONS:
            raise ConfigError(f"aggregation {self.aggregation!r} is not one of {sorted(AGGREGATIONS)} or seed_mean")
        need = AGGREGATIONS[self.aggregation][0]
        missing = [k for k in need if k not in self.arrays]
        if missing:
            raise ConfigError(f"aggregation {self.aggregation!r} needs the per-unit arrays {missing}")
        object.__setattr__(self, "arrays", {k: np.asarray(self.arrays[k], dtype=np.float64
                                                          if self.aggregation != "macro_f1" else np.int64)
                                            for k in need})

    def length(self) -> int:
        if self.parts:
            return self.parts[0].length()
        return int(next(iter(self.arrays.values())).size)

    def block(self, idx: np.ndarray) -> np.ndarray:
        """The metric on each row of ``idx`` (``(b, n)`` unit indices): ``(b,)`` values, NaN where undefined."""
        idx = _rows(idx)
        if self.parts:
            return np.mean([p.block(idx) for p in self.parts], axis=0)
        return AGGREGATIONS[self.aggregation][1](self.arrays, self.params, idx)

    def to_dict(self) -> dict[str, Any]:
        d: dict[str, Any] = {"aggregation": self.aggregation, "kind": self.kind,
                             "higher_is_better": self.higher_is_better}
        if self.parts:
            d["parts"] = [p.to_dict() for p in self.parts]
        else:
            d["arrays"] = {k: _plain(v) for k, v in self.arrays.items()}
        for k in ("n_units", "n_items", "note"):
            if getattr(self, k) is not None:
                d[k] = getattr(self, k)
        if self.params:
            d["params"] = dict(self.params)
        if self.correct is not None:
            d["correct"] = [int(x) for x in np.asarray(self.correct)]
        return d

    @classmethod
    def from_dict(cls, d: Mapping[str, Any]) -> UnitMetric:
        try:
            return cls(aggregation=str(d["aggregation"]), arrays={k: np.asarray(v) for k, v in
                                                                 (d.get("arrays") or {}).items()},
                       params=dict(d.get("params") or {}), kind=str(d.get("kind", "rate")),
                       higher_is_better=bool(d.get("higher_is_better", True)),
                       correct=None if d.get("correct") is None else np.asarray(d["correct"], dtype=np.float64),
                       n_units=d.get("n_units"), n_items=d.get("n_items"), note=d.get("note"),
                       parts=tuple(cls.from_dict(p) for p in d.get("parts") or ()))
        except (KeyError, TypeError, ValueError) as exc:
            raise ConfigError(f"invalid per-unit metric record: {exc}") from exc


def _plain(v: np.ndarray) -> list[float] | list[int]:
    a = np.asarray(v)
    if a.dtype.kind in "iub":
        return [int(x) for x in a]
    return [int(x) if float(x).is_integer() and abs(x) < 2 ** 53 else float(x) for x in a]


@dataclass(frozen=True)
class UnitScores:
    """One system's result on one suite, per unit: what every value, interval, test and rank is derived from.

    Attributes:
        unit: the resampling unit's name (``source example``, ``review``, ``phrase``, ``sentence``, ``item``).
        n_units: number of units; unit k is the same unit for every system scored on the same items.
        n_items: number of items behind the units.
        metrics: metric name -> :class:`UnitMetric` (order = display order).
        compared: the metrics a paired comparison of systems tests (headline first).
        paired_test: McNemar's variant (:data:`PAIRED_TESTS`), the protocol's setting.
        note: what the unit is, for the report.
    """

    unit: str
    n_units: int
    n_items: int
    metrics: Mapping[str, UnitMetric]
    compared: tuple[str, ...] = ()
    paired_test: str = "auto"
    note: str = ""

    def __post_init__(self) -> None:
        if self.paired_test not in PAIRED_TESTS:
            raise ConfigError(f"paired_test {self.paired_test!r} is not one of {PAIRED_TESTS}")
        for name, m in self.metrics.items():
            if m.length() != self.n_units:
                raise ConfigError(f"metric {name!r} has {m.length()} per-unit values for {self.n_units} units")
        bad = [m for m in self.compared if m not in self.metrics]
        if bad:
            raise ConfigError(f"compared metrics {bad} have no per-unit scores")

    def to_dict(self) -> dict[str, Any]:
        return {"schema_version": UNIT_SCORES_SCHEMA_VERSION, "unit": self.unit, "n_units": self.n_units,
                "n_items": self.n_items, "compared": list(self.compared), "paired_test": self.paired_test,
                "note": self.note, "metrics": {k: m.to_dict() for k, m in self.metrics.items()}}

    @classmethod
    def from_dict(cls, d: Mapping[str, Any]) -> UnitScores:
        if not isinstance(d, Mapping) or d.get("schema_version") != UNIT_SCORES_SCHEMA_VERSION:
            got = d.get("schema_version") if isinstance(d, Mapping) else None
            raise ConfigError(f"per-unit scores: schema_version {got!r} is not {UNIT_SCORES_SCHEMA_VERSION}")
        try:
            return cls(unit=str(d["unit"]), n_units=int(d["n_units"]), n_items=int(d["n_items"]),
                       metrics={str(k): UnitMetric.from_dict(v) for k, v in d["metrics"].items()},
                       compared=tuple(d.get("compared") or ()), paired_test=str(d.get("paired_test", "auto")),
                       note=str(d.get("note") or ""))
        except (KeyError, TypeError, ValueError, AttributeError) as exc:
            raise ConfigError(f"invalid per-unit scores record: {exc}") from exc


def pooled(seeds: Sequence[UnitScores]) -> UnitScores:
    """Several seeds of one system as one: each metric the mean over seeds on the same resample (``seed_mean``);
    per-unit correctness is kept only where every seed has the same."""
    ss = list(seeds)
    if not ss:
        raise ConfigError("no per-unit scores to pool")
    if len(ss) == 1:
        return ss[0]
    first = ss[0]
    for s in ss[1:]:
        if s.n_units != first.n_units or s.unit != first.unit:
            raise ConfigError(f"seeds of one system were not scored on the same units ({first.n_units} vs "
                              f"{s.n_units} {first.unit}s)")
    names = [m for m in first.metrics if all(m in s.metrics for s in ss)]
    out = {}
    for m in names:
        f = first.metrics[m]
        fc = f.correct
        same = fc is not None and all((c := s.metrics[m].correct) is not None and np.array_equal(c, fc) for s in ss)
        out[m] = UnitMetric("seed_mean", kind=f.kind, higher_is_better=f.higher_is_better,
                            correct=f.correct if same else None, n_units=f.n_units, n_items=f.n_items,
                            note=f.note, parts=tuple(s.metrics[m] for s in ss))
    note = f"mean over {len(ss)} seeds, pooled on the same resamples of {first.unit}s"
    return UnitScores(first.unit, first.n_units, first.n_items, out, tuple(c for c in first.compared if c in out),
                      first.paired_test, f"{first.note}; {note}" if first.note else note)


def draws(n_units: int, n_boot: int, seed: int) -> Iterator[np.ndarray]:
    """The engine's resamples of units: blocks of index rows; the first ``k`` rows never depend on ``n_boot``."""
    if n_boot <= 0 or n_units <= 0:
        return iter(())
    return index_draws(n_units, n_boot, seed)


def point(m: UnitMetric, n_units: int) -> float:
    v = float(m.block(np.arange(n_units)[None, :])[0])
    return v if math.isfinite(v) else float("nan")


def distributions(us: UnitScores, names: Sequence[str], n_boot: int, seed: int) -> dict[str, np.ndarray]:
    """Each metric on the same ``n_boot`` resamples of units (NaN where undefined)."""
    return distributions_of({"": us}, names, n_boot, seed)[""]


def distributions_of(systems: Mapping[str, UnitScores], names: Sequence[str], n_boot: int, seed: int
                     ) -> dict[str, dict[str, np.ndarray]]:
    """:func:`distributions` of several systems scored on the same units, on one shared set of draws."""
    out: dict[str, dict[str, list[np.ndarray]]] = {s: {m: [] for m in names} for s in systems}
    n = next(iter(systems.values())).n_units if systems else 0
    for block in draws(n, n_boot, seed):
        for s, us in systems.items():
            for m in names:
                out[s][m].append(us.metrics[m].block(block))
    return {s: {m: (np.concatenate(v) if v else np.empty(0)) for m, v in d.items()} for s, d in out.items()}


def metric_of(name: str, us: UnitScores, value: float, dist: np.ndarray | None, alpha: float) -> Metric:
    """The :class:`Metric` a reader sees: value, percentile interval of ``dist`` at ``1 - alpha``, ``n`` units."""
    check_alpha(alpha)
    m = us.metrics[name]
    n = us.n_units if m.n_units is None else m.n_units
    items = us.n_items if m.n_items is None else m.n_items
    if not math.isfinite(value):
        why = f"{name} is undefined on these {n} {us.unit}s" + (
            " (constant values: e.g. a model that predicts one class everywhere)" if m.aggregation in
            ("pearson", "seed_mean") else "")
        return Metric(name, None, None, None, n, m.higher_is_better, "none", why, unit_name=us.unit, n_items=items)
    lo, hi = percentile_interval(dist, alpha) if dist is not None and dist.size else (None, None)
    return Metric(name, value, lo, hi, n, m.higher_is_better, CI_METHOD if lo is not None else "none", m.note,
                  unit_name=us.unit, n_items=items)


def unit_metrics(us: UnitScores, *, n_boot: int, seed: int, alpha: float) -> dict[str, Metric]:
    """Every metric of ``us``: its point value and percentile-bootstrap interval over units at level
    ``1 - alpha`` (``alpha`` is required: the one confidence level of the run)."""
    check_alpha(alpha)
    names = list(us.metrics)
    dist = distributions(us, names, n_boot, seed)
    return {m: metric_of(m, us, point(us.metrics[m], us.n_units), dist[m], alpha) for m in names}


# ---- per-unit scores of the common shapes ----------------------------------------------------------------
def label_codes(values: Sequence[str | None], labels: Sequence[str]) -> np.ndarray:
    """Label index per unit (-1: no prediction, or a label outside ``labels``)."""
    index = {lab: i for i, lab in enumerate(labels)}
    return np.array([index.get(v, -1) if v is not None else -1 for v in values], dtype=np.int64)


def classification_units(y_true: Sequence[str | None], y_pred: Sequence[str | None], labels: Sequence[str]
                         ) -> dict[str, UnitMetric]:
    """``macro_f1`` (labels in gold or predictions) and ``accuracy`` (with per-unit correctness) over items as
    units. A missing or unparsed prediction (``None``) is wrong. Gold labels must come from ``labels``."""
    t = label_codes(y_true, labels)
    if (t < 0).any():
        raise ConfigError("gold labels outside the label set: per-unit scores need a gold label per item")
    p = label_codes(y_pred, labels)
    correct = (t == p).astype(np.float64)
    return {"macro_f1": UnitMetric("macro_f1", {"gold": t, "predicted": p}, {"n_labels": len(labels)}),
            "accuracy": UnitMetric("mean", {"values": correct}, correct=correct)}


def grouped_rate(groups: Sequence[str], values: Sequence[float] | np.ndarray, *, higher_is_better: bool = True,
                 note: str | None = None) -> tuple[list[str], UnitMetric]:
    """A rate pooled over items, whole groups as units (``sum values / sum items`` per resample): the group ids
    in order of first appearance and the metric."""
    keys = {g: i for i, g in enumerate(dict.fromkeys(groups))}
    inv = np.array([keys[g] for g in groups], dtype=np.int64)
    num = np.bincount(inv, weights=np.asarray(values, dtype=np.float64), minlength=len(keys))
    den = np.bincount(inv, minlength=len(keys)).astype(np.float64)
    return list(keys), UnitMetric("ratio", {"numerator": num, "denominator": den},
                                  higher_is_better=higher_is_better, n_items=len(inv), note=note)
