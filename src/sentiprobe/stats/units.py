"""Per-unit scores: the one object every number of a suite is derived from, and the engine that derives them.

A suite's score stage describes a system's result on the suite's resampling unit (an ARTS source example with
its variants, a SOUL review, a NonCompSST phrase, a sentence, an item) as a :class:`UnitScores`: per metric, the
per-unit arrays and the name of an aggregation from the closed registry
:data:`.aggregations.AGGREGATIONS`. Nothing in it is a closure, so it is written to ``results.json`` as it is
(:meth:`UnitScores.to_dict`) and a comparison of stored runs rebuilds every number from it without the data.

The engine (:func:`unit_metrics`, :func:`distributions`) computes from that object:

- the point value: the aggregation over all units;
- the interval: the percentile bootstrap over units at the level ``1 - alpha``: ``n_boot`` resamples of the
  units with replacement, drawn as the number of times each distinct per-unit row is drawn
  (:func:`pattern_draws`, seeded), so any statistic of summed per-unit columns costs O(resamples x distinct
  rows). A paired comparison reports each system's interval from these very draws and draws the units once
  more, jointly for all systems, for the differences and p-values.

``n`` of every metric is the number of units it is computed over, labelled with the unit's name
(``Metric.unit_name``); the items behind them are ``Metric.n_items``.
"""
from __future__ import annotations

import hashlib
import math
from collections import OrderedDict
from collections.abc import Iterator, Mapping, Sequence
from contextlib import contextmanager
from dataclasses import dataclass, field
from typing import Any

import numpy as np

from ..core.errors import ConfigError
from ..core.types import Metric
from .aggregations import AGGREGATIONS, LABEL_STATS, n_slots, rankdata
from .resampling import CI_METHOD, check_alpha, count_draw_blocks, percentile_interval

UNIT_SCORES_SCHEMA_VERSION = 1
KINDS = ("rate", "correlation", "score")
"""How a metric's differences are shown: rates in percentage points, correlations in r, scores as they are."""
PAIRED_TESTS = ("auto", "chi2-corrected-unclamped")
"""McNemar's variant for metrics with per-unit correctness: ``auto`` (exact binomial when b + c < 25, else the
continuity-corrected chi-square clamped at 0), or the SENTiVENT paper's unclamped corrected chi-square."""




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
        if self.aggregation == "label_counts":
            if self.params.get("stat") not in LABEL_STATS or not isinstance(self.params.get("n_labels"), int):
                raise ConfigError(f"label_counts needs n_labels and a stat of {LABEL_STATS}")
            need = tuple(f"{w}_{j}" for w in ("tp", "gold", "predicted") for j in range(self.params["n_labels"]))
        if self.aggregation == "pearson_slots":
            if not isinstance(self.params.get("slots"), int) or self.params["slots"] < 1:
                raise ConfigError("pearson_slots needs a positive integer number of slots")
            need = tuple(f"{c}_{j}" for j in range(self.params["slots"]) for c in "xyw")
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

    def columns(self) -> list[np.ndarray]:
        """The per-unit columns a resample of this metric sums (the parts' one after the other)."""
        if self.parts:
            return [c for p in self.parts for c in p.columns()]
        return AGGREGATIONS[self.aggregation][1](self.arrays, self.params)

    def finish(self, sums: np.ndarray) -> np.ndarray:
        """The metric from ``(b, len(columns()))`` sums: ``(b,)`` values, NaN where undefined."""
        if self.parts:
            out, at = [], 0
            for p in self.parts:
                c = len(p.columns())
                out.append(p.finish(sums[:, at:at + c]))
                at += c
            return np.mean(out, axis=0)
        return AGGREGATIONS[self.aggregation][2](sums, self.params)

    def block(self, counts: np.ndarray) -> np.ndarray:
        """The metric on each resample given as ``(b, n_units)`` times each unit is drawn."""
        return self.finish(counts @ np.column_stack(self.columns()))

    def to_dict(self, pool: dict[bytes, tuple[str, list[Any]]] | None = None) -> dict[str, Any]:
        """JSON-able record; with ``pool`` (content -> (name, values)) each array is stored once, by name."""
        d: dict[str, Any] = {"aggregation": self.aggregation, "kind": self.kind,
                             "higher_is_better": self.higher_is_better}
        if self.parts:
            d["parts"] = [p.to_dict(pool) for p in self.parts]
        elif pool is None:
            d["arrays"] = {k: _plain(v) for k, v in self.arrays.items()}
        else:
            refs = {}
            for k, v in self.arrays.items():
                key = np.asarray(v, dtype=np.float64).tobytes()
                if key not in pool:
                    pool[key] = (f"a{len(pool)}", _plain(v))
                refs[k] = pool[key][0]
            d["arrays"] = refs
        for k in ("n_units", "n_items", "note"):
            if getattr(self, k) is not None:
                d[k] = getattr(self, k)
        if self.params:
            d["params"] = dict(self.params)
        if self.correct is not None:
            d["correct"] = [int(x) for x in np.asarray(self.correct)]
        return d

    @classmethod
    def from_dict(cls, d: Mapping[str, Any], pool: Mapping[str, Any] | None = None) -> UnitMetric:
        """The metric of :meth:`to_dict`; an array given by name is read from ``pool``."""
        def array(v: Any) -> np.ndarray:
            return np.asarray((pool or {})[v] if isinstance(v, str) else v)

        try:
            return cls(aggregation=str(d["aggregation"]), arrays={k: array(v) for k, v in
                                                                 (d.get("arrays") or {}).items()},
                       params=dict(d.get("params") or {}), kind=str(d.get("kind", "rate")),
                       higher_is_better=bool(d.get("higher_is_better", True)),
                       correct=None if d.get("correct") is None else np.asarray(d["correct"], dtype=np.float64),
                       n_units=d.get("n_units"), n_items=d.get("n_items"), note=d.get("note"),
                       parts=tuple(cls.from_dict(p, pool) for p in d.get("parts") or ()))
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
        """JSON-able record: every distinct per-unit array once under ``arrays`` (``a0``, ``a1``...), each
        metric naming the arrays it reads."""
        pool: dict[bytes, tuple[str, list[Any]]] = {}
        metrics = {k: m.to_dict(pool) for k, m in self.metrics.items()}
        return {"schema_version": UNIT_SCORES_SCHEMA_VERSION, "unit": self.unit, "n_units": self.n_units,
                "n_items": self.n_items, "compared": list(self.compared), "paired_test": self.paired_test,
                "note": self.note, "arrays": dict(pool.values()), "metrics": metrics}

    @classmethod
    def from_dict(cls, d: Mapping[str, Any]) -> UnitScores:
        if not isinstance(d, Mapping) or d.get("schema_version") != UNIT_SCORES_SCHEMA_VERSION:
            got = d.get("schema_version") if isinstance(d, Mapping) else None
            raise ConfigError(f"per-unit scores: schema_version {got!r} is not {UNIT_SCORES_SCHEMA_VERSION}")
        try:
            return cls(unit=str(d["unit"]), n_units=int(d["n_units"]), n_items=int(d["n_items"]),
                       metrics={str(k): UnitMetric.from_dict(v, d.get("arrays")) for k, v in d["metrics"].items()},
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


BLOCK = 64
"""Resamples drawn per block (bounds memory at ``BLOCK x`` distinct per-unit rows)."""


def pattern_draws(table: np.ndarray, n_boot: int, seed: int) -> Iterator[np.ndarray]:
    """The engine's resamples of units, as blocks of ``(b, columns)`` sums of the per-unit ``table`` rows.

    A resample of n units with replacement enters every aggregation only through the sums of its rows, and
    units with identical rows are interchangeable, so the number of times each distinct row is drawn is
    multinomial(n, its share): that is what is drawn (``rng(seed).multinomial`` over the distinct rows in
    sorted order, :func:`~sentiprobe.stats.resampling.count_draw_blocks`), in O(resamples x distinct rows)
    instead of O(resamples x units). One (table, seed) gives one set of draws in any process.
    """
    if n_boot <= 0 or table.shape[0] == 0:
        return iter(())
    table, spread = _distinct_columns(table)
    rows, inv = np.unique(table, axis=0, return_inverse=True)
    freq = np.bincount(inv.reshape(-1), minlength=rows.shape[0]).astype(np.float64)
    if spread is None:
        return (block @ rows for block in count_draw_blocks(freq, n_boot, seed, BLOCK))
    return ((block @ rows)[:, spread] for block in count_draw_blocks(freq, n_boot, seed, BLOCK))


def _distinct_columns(table: np.ndarray) -> tuple[np.ndarray, np.ndarray | None]:
    """``table`` without repeated columns (each kept where it first appears) and the index that spreads the sums
    back over the columns asked; ``(table, None)`` when nothing repeats or a column is not whole numbers.

    Why: the metrics of one classification report read the same per-label count columns (a label-count metric
    per label and statistic), so most columns of a suite's table repeat. Dropping the repeats changes neither
    the distinct rows nor their sorted order (a repeated column never decides the order of two rows), so the
    draws are the same; with whole numbers whose sums stay below 2**53 every sum is exact in any order, so the
    sums are the very same numbers. Other tables are left as they are (a smaller product may sum in another
    order)."""
    c = table.shape[1]
    first: dict[bytes, int] = {}
    spread = np.array([first.setdefault(np.ascontiguousarray(table[:, j]).tobytes(), len(first)) for j in range(c)],
                      dtype=np.intp)
    if len(first) == c or not _whole(table):
        return table, None
    keep = np.unique(spread, return_index=True)[1]
    return table[:, np.sort(keep)], spread


def _whole(table: np.ndarray) -> bool:
    """Whether every resample's sums of ``table``'s rows are exact in floating point, whatever the order of the
    additions: whole numbers whose sums over n rows stay below 2**53."""
    return table.size > 0 and bool(np.array_equal(table, np.round(table))) and \
        float(np.abs(table).max()) * table.shape[0] < 2.0 ** 53


@contextmanager
def _blas_threads() -> Iterator[None]:
    """One BLAS thread for the resampling products, in every process.

    Why: a product's sums of fractions depend on how the BLAS library splits the work between threads, and the
    run's lane workers already run on one thread while the main process would use the library's default; a
    system's interval must not depend on which process drew it. One thread also costs less: the products are
    small (a block of resamples by the distinct rows) and many, and a second thread mostly waits for work, its
    waiting counted as CPU time of the run."""
    from threadpoolctl import threadpool_limits

    with threadpool_limits(limits=1, user_api="blas"):
        yield


def _pairs(m: UnitMetric) -> tuple[np.ndarray, np.ndarray]:
    """The (x, y) pairs of a correlation metric, in unit order (a unit's slots in slot order)."""
    if m.aggregation == "pearson":
        return m.arrays["x"], m.arrays["y"]
    if m.aggregation == "spearman":
        return rankdata(m.arrays["x"]), rankdata(m.arrays["y"])
    k = n_slots(m.params)
    keep = np.column_stack([m.arrays[f"w_{j}"] for j in range(k)]) > 0
    x = np.column_stack([m.arrays[f"x_{j}"] for j in range(k)])[keep]
    y = np.column_stack([m.arrays[f"y_{j}"] for j in range(k)])[keep]
    return x, y


def point(m: UnitMetric, n_units: int) -> float:
    """The metric over every unit once (Pearson's r by centred dot products, as the suites' own code)."""
    if m.aggregation in ("pearson", "spearman", "pearson_slots"):
        x, y = _pairs(m)
        if x.size < int(m.params.get("min_units", 2)):
            return float("nan")
        xm, ym = x - x.mean(), y - y.mean()
        den = math.sqrt(float(xm @ xm) * float(ym @ ym))
        return max(-1.0, min(1.0, float(xm @ ym) / den)) if den != 0.0 else float("nan")
    if m.parts:
        return float(np.mean([point(p, n_units) for p in m.parts]))
    sums = np.array([[float(np.sum(c)) for c in m.columns()]])  # 1-D (pairwise) sums, as numpy's own mean
    v = float(m.finish(sums)[0])
    return v if math.isfinite(v) else float("nan")


def distributions(us: UnitScores, names: Sequence[str], n_boot: int, seed: int) -> dict[str, np.ndarray]:
    """Each metric of ``names`` on the same ``n_boot`` resamples of units (NaN where undefined). The draws are
    those of the system's whole per-unit table (every metric), so they do not depend on which metrics are asked."""
    key = _draws_key(us, n_boot, seed)
    every = _DRAWN.get(key)
    if every is None:
        every = distributions_of({"": us}, list(us.metrics), n_boot, seed)[""]
        for v in every.values():
            v.setflags(write=False)  # shared by every later call with the same scores
        _DRAWN[key] = every
        while len(_DRAWN) > DRAWN_KEPT:
            _DRAWN.popitem(last=False)
    else:
        _DRAWN.move_to_end(key)
    return {m: every[m] for m in names}


DRAWN_KEPT = 256
"""Systems whose metric distributions a process keeps (:func:`distributions`): a run computes each system's
intervals when it scores a suite and again when it compares the systems, from the same per-unit scores."""
_DRAWN: OrderedDict[str, dict[str, np.ndarray]] = OrderedDict()


def _draws_key(us: UnitScores, n_boot: int, seed: int) -> str:
    """What a system's distributions are a function of: the resampling settings, each metric's aggregation and
    settings, and the bytes of its per-unit columns."""
    h = hashlib.sha256(repr((n_boot, seed)).encode())

    def add(m: UnitMetric) -> None:
        h.update(repr((m.aggregation, sorted(m.params.items()), len(m.parts))).encode())
        for p in m.parts:
            add(p)
        if not m.parts:
            for c in m.columns():
                a = np.ascontiguousarray(c)
                h.update(repr((a.dtype.str, a.shape)).encode())
                h.update(a.tobytes())

    for name, m in us.metrics.items():
        h.update(repr(name).encode())
        add(m)
    return h.hexdigest()


def distributions_of(systems: Mapping[str, UnitScores], names: Sequence[str], n_boot: int, seed: int
                     ) -> dict[str, dict[str, np.ndarray]]:
    """:func:`distributions` of several systems scored on the same units, on one shared (paired) set of draws
    of the units (their joint per-unit rows: :func:`pattern_draws`)."""
    out: dict[str, dict[str, list[np.ndarray]]] = {s: {m: [] for m in names} for s in systems}
    spans: list[tuple[str, str, int, int]] = []
    cols: list[np.ndarray] = []
    for s, us in systems.items():  # every column of every metric of every system: one product per block
        for m in names:
            c = us.metrics[m].columns()
            spans.append((s, m, len(cols), len(cols) + len(c)))
            cols += c
    if not cols or n_boot <= 0:
        return {s: {m: np.empty(0) for m in names} for s in systems}
    table = np.column_stack(cols)
    with _blas_threads():
        for sums in pattern_draws(table, n_boot, seed):
            for s, m, a, b in spans:
                out[s][m].append(systems[s].metrics[m].finish(sums[:, a:b]))
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
            ("pearson", "spearman", "pearson_slots", "seed_mean") else "")
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
