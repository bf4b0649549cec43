"""ARTS scoring (docs/protocols/arts.md#ars, #subset-accuracy): accuracy, ARS and per-strategy subset accuracies.

Pure functions of items, predictions and the suite's frozen score context. One pass over the items builds
integer/boolean numpy arrays (group index, kind code, correctness); everything after that is vectorised, so
scoring is O(n). Counts are exact integers. The score stage returns per-unit scores (:func:`unit_scores`):
every metric as per-unit arrays over the ARTS unit, a source example with all its variants, from which the
engine (:mod:`sentiprobe.stats.units`) derives values and percentile-bootstrap intervals over units, so every
metric is resampled as ARS is. The tests below record p-values; the score stage never sees a confidence level.

Rounding rule for reported percentages: exact :class:`~fractions.Fraction` arithmetic, then
round-half-up to two decimals (ties away from zero, as ``decimal.ROUND_HALF_UP``), see
:func:`round_half_up`. 147/1120 = 13.125% prints as ``13.13``.

Welch's t-test (optional, docs/protocols/arts.md#subset-accuracy): the paper marks significant drops by Welch's t-test
without saying over which samples. We assume the samples are the per-example 0/1 correctness of the
Ori(S) sources and of the New(S) variants, treated as independent samples with unequal variances
(``scipy.stats.ttest_ind(equal_var=False)``, two-sided); this ignores the pairing of variants with
their sources.
"""
from __future__ import annotations

import math
from collections.abc import Mapping, Sequence
from dataclasses import dataclass, replace
from fractions import Fraction
from typing import Any

import numpy as np

from ...core.errors import ConfigError, DataError, PredictionError
from ...core.types import Item, Prediction
from ...stats.units import UnitMetric, UnitScores
from ...stats.rounding import round_half_up
from ...stats.significance import mcnemar
from ..spec import MISSING_POLICIES, ScoreConfig, ScoreContext, SuiteScore
from .formats import ORIGINAL, STRATEGIES, STRATEGY_NAMES

ROUNDING_RULE = ("percentages from exact integer counts (Fraction), rounded half-up to two decimals "
                 "(ties away from zero, as decimal.ROUND_HALF_UP)")
WELCH_NOTE = ("Welch's t-test (scipy ttest_ind, equal_var=False) of per-example 0/1 correctness, Ori(S) "
              "sources vs New(S) variants, treated as independent samples; this is an assumption, the "
              "paper does not say which samples it used")
BOTH_NOTE = "Both(S): share of units of S whose source and every S variant are correct; not a paper metric"
MAX_EXAMPLES = 10
MAX_LISTED = 20


# ---- exact percentages -------------------------------------------------------------------------------

def format_percent(value: Fraction | None) -> str | None:
    """A rate in [0, 1] as a percentage with two decimals (``Fraction(147, 1120)`` -> ``'13.13'``)."""
    if value is None:
        return None
    return f"{round_half_up(Fraction(value) * 100):.2f}"


def format_rate(value: float | None) -> str | None:
    """A float rate (e.g. a metric value or CI bound) as a percentage, by the same half-up rule.

    The float is first turned back into the fraction it came from (``limit_denominator(10**9)``:
    exact for ``k/n`` with n up to about a million), so ``0.80625`` prints as ``80.63``.
    """
    if value is None or not math.isfinite(value):
        return None
    return format_percent(Fraction(value).limit_denominator(10 ** 9))


def format_pp(value: Fraction | None) -> str | None:
    """A difference of two rates in percentage points, signed, two decimals (``'-25.24'``, ``'+1.50'``)."""
    if value is None:
        return None
    d = round_half_up(Fraction(value) * 100)
    return f"{d:+.2f}" if d != 0 else "0.00"


@dataclass(frozen=True)
class Count:
    """An exact rate: ``correct`` out of ``total``."""

    correct: int
    total: int

    @property
    def fraction(self) -> Fraction | None:
        return Fraction(self.correct, self.total) if self.total else None

    def to_dict(self) -> dict[str, Any]:
        return {"correct": self.correct, "total": self.total, "percent": format_percent(self.fraction)}


def _difference(a: Count, b: Count) -> Fraction | None:
    """``a - b`` as exact rates; ``None`` when either has no units."""
    fa, fb = a.fraction, b.fraction
    return None if fa is None or fb is None else fa - fb


def _count(mask: np.ndarray) -> Count:
    return Count(int(np.count_nonzero(mask)), int(mask.size))


# ---- arrays ------------------------------------------------------------------------------------------

@dataclass(frozen=True)
class ScoreArrays:
    """Per-item arrays built in one pass (index ``i`` is ``items[i]``).

    Attributes:
        group: group (unit) index per item, 0..n_units-1 in order of first appearance.
        kind: kind code per item (see ``kinds``).
        kinds: kind names, indexed by code.
        correct: prediction present, parsed and equal to the gold label.
        present: a prediction exists for the item.
        source: per unit, the index of its original item.
        unparsed: number of predictions whose label is ``None`` (unparseable model output).
        warned: indices of items that carry ``meta["data_warnings"]``.
    """

    group: np.ndarray
    kind: np.ndarray
    kinds: tuple[str, ...]
    correct: np.ndarray
    present: np.ndarray
    source: np.ndarray
    unparsed: int = 0
    warned: tuple[int, ...] = ()

    @property
    def n_units(self) -> int:
        return int(self.source.size)

    def mask(self, kind: str) -> np.ndarray:
        if kind not in self.kinds:
            return np.zeros(self.group.size, dtype=bool)
        return self.kind == self.kinds.index(kind)


def build_arrays(items: Sequence[Item], by_id: Mapping[str, Prediction]) -> ScoreArrays:
    """One pass over the items; checks that every unit has exactly one original item."""
    n = len(items)
    gidx: dict[str, int] = {}
    kidx: dict[str, int] = {ORIGINAL: 0}
    group = np.empty(n, dtype=np.int64)
    kind = np.empty(n, dtype=np.int16)
    correct = np.zeros(n, dtype=bool)
    present = np.zeros(n, dtype=bool)
    get = by_id.get
    unparsed = 0
    warned: list[int] = []
    for i, it in enumerate(items):
        group[i] = gidx.setdefault(it.group_id, len(gidx))
        kind[i] = kidx.setdefault(it.kind, len(kidx))
        p = get(it.item_id)
        if p is not None:
            present[i] = True
            if p.label is None:
                unparsed += 1
            else:
                correct[i] = p.label == it.label
        if it.meta and "data_warnings" in it.meta:
            warned.append(i)
    is_orig = kind == 0
    n_units = len(gidx)
    per_group = np.bincount(group[is_orig], minlength=n_units)
    bad = np.flatnonzero(per_group != 1)
    if bad.size:
        names = list(gidx)
        first = names[int(bad[0])]
        what = "no original (source) item" if per_group[bad[0]] == 0 else "several original items"
        raise DataError(f"{bad.size} unit(s) with {what} among the items; first: {first!r}", record=first,
                        field="group_id")
    source = np.empty(n_units, dtype=np.int64)
    orig_idx = np.flatnonzero(is_orig)
    source[group[orig_idx]] = orig_idx
    return ScoreArrays(group, kind, tuple(kidx), correct, present, source, unparsed, tuple(warned))


def unit_all_correct(arr: ScoreArrays) -> np.ndarray:
    """Per unit: the source and every variant are correct (the ARS numerator, docs/protocols/arts.md#ars)."""
    wrong = np.bincount(arr.group, weights=(~arr.correct).astype(np.float64), minlength=arr.n_units)
    return wrong == 0


def strategy_arrays(arr: ScoreArrays, kind: str) -> tuple[np.ndarray, np.ndarray, np.ndarray]:
    """``(ori, new, both)`` 0/1 arrays for one strategy (docs/protocols/arts.md#subset-accuracy).

    ``ori``: correctness of the sources of units having a ``kind`` variant; ``new``: correctness of
    the ``kind`` variants; ``both``: per such unit, source and all its ``kind`` variants correct.
    """
    m = arr.mask(kind)
    g = arr.group[m]
    has = np.bincount(g, minlength=arr.n_units) > 0
    wrong = np.bincount(g, weights=(~arr.correct[m]).astype(np.float64), minlength=arr.n_units)
    src_ok = arr.correct[arr.source]
    return src_ok[has], arr.correct[m], (src_ok & (wrong == 0))[has]


def strategies_present(arr: ScoreArrays) -> list[str]:
    """The paper's three strategies, then any other variant kind present (e.g. generated recipes)."""
    return list(STRATEGIES) + sorted(k for k in arr.kinds if k != ORIGINAL and k not in STRATEGIES)


def paired_strategy_test(arr: ScoreArrays, kind: str) -> dict[str, Any] | None:
    """McNemar's test of Ori vs New on the paired observations: each ``kind`` variant with its source example.

    The primary test of a strategy's effect: the source and its variant are the same example before and after
    the edit, so the comparison is paired (b = source right and variant wrong, c = the reverse; sentiprobe's
    default McNemar: exact below 25 discordant pairs, else the clamped continuity-corrected chi-square). Welch's
    t-test (the paper's choice) is kept beside it for comparison with the paper's tables. A unit with several
    variants of one kind contributes one pair per variant.
    """
    m = arr.mask(kind)
    if not m.any():
        return None
    src = arr.correct[arr.source[arr.group[m]]]
    res = mcnemar(src, arr.correct[m]).to_dict()
    res["pairs"] = int(m.sum())
    res["note"] = "paired: each variant with its source example (primary test)"
    return res


def welch(ori: np.ndarray, new: np.ndarray) -> dict[str, Any] | None:
    """Welch's t-test of two 0/1 samples (see the module docstring; :func:`~sentiprobe.stats.significance.
    welch_t_test`): ``t``, ``df`` and the two-sided ``p``; ``None`` when undefined."""
    from ...stats.significance import welch_t_test

    res = welch_t_test(ori, new)
    if res is None:
        return None
    t, df, p = res
    return {"t": t, "df": df, "p": p}


# ---- scoring -----------------------------------------------------------------------------------------

def score(items: Sequence[Item], predictions: Sequence[Prediction], options: Any, context: ScoreContext,
          config: ScoreConfig) -> SuiteScore:
    """The suite's score stage: accuracy on originals, ARS and per-strategy subset accuracies
    (docs/protocols/arts.md#ars, #subset-accuracy).

    ``config.missing`` (from :data:`~sentiprobe.suites.spec.MISSING_POLICIES`): ``error`` (any missing
    prediction raises), ``wrong`` (missing predictions count as wrong, reported) or ``variants-wrong``
    (the docs/protocols/arts.md#ars rule: a missing source raises, a missing variant counts as wrong). Pure: the
    data warnings reported come from the items' own ``meta``; ``arts-custom``'s input file record (path and sha256)
    from the context the data stage built.
    """
    by_id = context.check(items, predictions, config, missing="wrong")
    out = score_items(items, by_id, missing=config.missing, suite=context.suite, path=config.path)
    if "input_file" in context.provenance:  # arts-custom: the scored file is the user's
        out.details["input_file"] = dict(context.provenance["input_file"])
        out = _note_coverage(out)
    return out


UNIT = "source example"
UNITS_NOTE = "units: a source example with all its variants (ARS counts a unit only when all are right)"
POLAR = ("positive", "negative")


def _rate(correct: np.ndarray, unit_of: np.ndarray, n_units: int, note: str, *,
          weight: np.ndarray | None = None, per_unit: bool = False, items: np.ndarray | None = None) -> UnitMetric:
    """A rate over items (or units) of a subset, as ``sum(correct) / sum(count)`` per unit: the resampling unit
    is always the source example with its variants, so every metric of the suite is resampled the same way.
    ``items``: the items behind each unit when they are not what is counted (ARS counts units of several items)."""
    w = np.ones(correct.size) if weight is None else weight
    num = np.bincount(unit_of, weights=correct.astype(np.float64) * w, minlength=n_units)
    den = np.bincount(unit_of, weights=w, minlength=n_units)
    has = den > 0
    corr = None
    if per_unit and has.all():  # one 0/1 value per unit: McNemar's test applies
        corr = num / den
    n_items = round(float(den.sum())) if items is None else int(items[has].sum())
    return UnitMetric("ratio", {"numerator": num, "denominator": den}, correct=corr, n_units=int(has.sum()),
                      n_items=n_items, note=note)


def unit_scores(items: Sequence[Item], arr: ScoreArrays) -> UnitScores:
    """Every ARTS metric as per-unit scores over source examples (docs/protocols/arts.md#ars, #subset-accuracy).

    ``accuracy_original`` and ``ars`` are one 0/1 value per unit (McNemar applies); ``accuracy_<s>`` is the
    share of correct ``s`` variants and ``accuracy_<s>_source`` the accuracy on the sources of units with an
    ``s`` variant, each a ratio of per-unit counts; ``ars_polar`` is ARS over the units whose target is positive
    or negative (a neutral target keeps its label under every strategy, so a constant ``neutral`` answer gets
    those units right by construction).
    """
    n = arr.n_units
    units = np.arange(n)
    src_ok = arr.correct[arr.source]
    all_ok = unit_all_correct(arr)
    gold_src = np.array([items[int(i)].label for i in arr.source], dtype=object)
    polar = np.isin(gold_src, POLAR).astype(np.float64)
    size = np.bincount(arr.group, minlength=n)
    metrics: dict[str, UnitMetric] = {
        "accuracy_original": _rate(src_ok, units, n, "unit: original examples", per_unit=True),
        "ars": _rate(all_ok, units, n, "units (source + all its variants)", per_unit=True, items=size),
        "ars_polar": _rate(all_ok, units, n, "ARS over the units whose target is positive or negative",
                           weight=polar, items=size),
    }
    for s in strategies_present(arr):
        m = arr.mask(s)
        g = arr.group[m]
        has = (np.bincount(g, minlength=n) > 0).astype(np.float64)
        metrics[f"accuracy_{s}"] = _rate(arr.correct[m], g, n, f"{s} variants")
        metrics[f"accuracy_{s}_source"] = _rate(src_ok, units, n, f"sources of units with a {s} variant",
                                                weight=has)
    return UnitScores(UNIT, n, len(items), metrics, compared=("ars", "accuracy_original"), note=UNITS_NOTE)


def constant_label_units(items: Sequence[Item], arr: ScoreArrays, label: str = "neutral") -> dict[str, Any] | None:
    """The share of units a constant ``label`` answer gets right by construction: every item of the unit has
    that gold label (a neutral target keeps ``neutral`` under every strategy); ``None`` when there is none."""
    off = np.bincount(arr.group, weights=np.array([it.label != label for it in items], dtype=np.float64),
                      minlength=arr.n_units)
    k = int(np.count_nonzero(off == 0))
    if not k:
        return None
    return {"label": label, **Count(k, arr.n_units).to_dict(),
            "note": (f"a system that always answers {label!r} gets {format_percent(Fraction(k, arr.n_units))}% "
                     f"ARS by construction: every item of those units has the gold label {label!r} (a neutral "
                     "target keeps its label under every strategy); ars_polar leaves them out")}


RELEASED_STRATEGIES = ("revtgt", "revnon", "adddiff")


def _note_coverage(out: SuiteScore) -> SuiteScore:
    """arts-custom: which of the released strategies the file's ARS covers; an ARS over fewer strategies is not
    comparable with the released sets' ARS (a unit is robust more easily when it has fewer variants). The note goes
    to the details and to the per-unit ``ars`` metric, so every output of ``ars`` carries it."""
    have = [r["strategy"] for r in out.details.get("strategies", []) if r.get("variants")]
    lacking = [s for s in RELEASED_STRATEGIES if s not in have]
    note = None
    if lacking:
        note = (f"this ARS covers {', '.join(have) or 'no strategy'}; the file has no {', '.join(lacking)} "
                "variants, so it is not comparable with the ARS of the released ARTS sets")
    out.details["strategy_coverage"] = {"covered": have, "lacking": lacking, "note": note}
    if note is None or out.units is None or "ars" not in out.units.metrics:
        return out
    ars = out.units.metrics["ars"]
    metrics = {**out.units.metrics, "ars": replace(ars, note=f"{ars.note}; {note}" if ars.note else note)}
    return replace(out, units=replace(out.units, metrics=metrics))


def _missing(items: Sequence[Item], arr: ScoreArrays, policy: str, path: str | None = None) -> dict[str, Any]:
    miss = np.flatnonzero(~arr.present)
    ids = [items[int(i)].item_id for i in miss]
    src = [items[int(i)].item_id for i in miss if arr.kind[i] == 0]
    if policy == "error" and ids:
        raise PredictionError("missing predictions (use --missing wrong to count them as wrong)", ids, path=path)
    if policy == "variants-wrong" and src:
        raise PredictionError("missing predictions for source examples (a unit needs its source)", src,
                              path=path)
    by_kind = {arr.kinds[k]: int(np.count_nonzero(arr.kind[miss] == k)) for k in range(len(arr.kinds))}
    return {"policy": policy, "count": len(ids), "sources": len(src), "variants": len(ids) - len(src),
            "by_kind": {k: v for k, v in by_kind.items() if v}, "first_ids": ids[:MAX_LISTED],
            "note": "missing predictions count as wrong" if ids else None}


def _examples(items, by_id, arr: ScoreArrays, strategies: list[str]) -> list[dict[str, Any]]:
    """Up to MAX_EXAMPLES robustness failures: the source is right, the variant is wrong."""
    src_ok_item = arr.correct[arr.source][arr.group]
    per = max(1, -(-MAX_EXAMPLES // max(1, len(strategies))))
    out: list[dict[str, Any]] = []

    def side(i: int) -> dict[str, Any]:
        it = items[i]
        p = by_id.get(it.item_id)
        return {"item_id": it.item_id, "kind": it.kind, "text": it.text, "aspect": it.aspect, "gold": it.label,
                "predicted": p.label if p is not None else None}

    for s in strategies:
        idx = np.flatnonzero(arr.mask(s) & ~arr.correct & src_ok_item)[:per]
        for i in idx:
            if len(out) >= MAX_EXAMPLES:
                return out
            i = int(i)
            out.append({"strategy": s, "group_id": items[i].group_id,
                        "source": side(int(arr.source[arr.group[i]])), "variant": side(i)})
    return out


def score_items(items: Sequence[Item], by_id: Mapping[str, Prediction], *, missing: str = "error",
                suite: str | None = None, path: str | None = None) -> SuiteScore:
    """Score validated predictions (``by_id`` from :func:`~sentiprobe.suites.base.check_predictions`) on ARTS items.

    Per-unit scores (:func:`unit_scores`) of ``accuracy_original``, ``ars``, ``ars_polar``, ``accuracy_<s>``
    (New(S)) and ``accuracy_<s>_source`` (Ori(S)) for s in revtgt, revnon, adddiff (and any other variant kind
    present); ``n`` of each is the number of units it covers, ``n_items`` the items behind them. The exact counts
    of the paper's tables are in the details.
    """
    if missing not in MISSING_POLICIES:
        raise ConfigError(f"missing must be one of {list(MISSING_POLICIES)}, not {missing!r}")
    arr = build_arrays(items, by_id)
    miss = _missing(items, arr, missing, path)
    is_orig = arr.mask(ORIGINAL)
    orig_ok = arr.correct[is_orig]
    units_ok = unit_all_correct(arr)
    counts: dict[str, dict[str, Any]] = {"accuracy_original": _count(orig_ok).to_dict(),
                                         "ars": _count(units_ok).to_dict()}
    strategies = strategies_present(arr)
    rows = []
    for s in strategies:
        ori, new, both = strategy_arrays(arr, s)
        c_ori, c_new, c_both = _count(ori), _count(new), _count(both)
        counts[f"accuracy_{s}"], counts[f"accuracy_{s}_source"] = c_new.to_dict(), c_ori.to_dict()
        change = _difference(c_new, c_ori)
        rows.append({"strategy": s, "name": STRATEGY_NAMES.get(s, s), "units": c_ori.total,
                     "variants": c_new.total, "ori": c_ori.to_dict(), "new": c_new.to_dict(),
                     "change_pp": format_pp(change),
                     "both_not_in_paper": {**c_both.to_dict(), "note": BOTH_NOTE},
                     "paired": paired_strategy_test(arr, s),
                     "welch": welch(ori, new)})
    c_o, c_a = _count(orig_ok), _count(units_ok)
    overall_drop = _difference(c_a, c_o)
    warnings = [{"item_id": items[i].item_id, "messages": list(items[i].meta["data_warnings"])}
                for i in arr.warned]
    details = {
        "suite": suite, "n_items": len(items), "n_units": arr.n_units,
        "counts": counts, "strategies": rows,
        "ars_minus_original_pp": format_pp(overall_drop),
        "missing": miss, "unparsed_predictions": arr.unparsed,
        "data_warnings": warnings, "examples": _examples(items, by_id, arr, strategies),
        "rounding": ROUNDING_RULE, "welch_assumption": WELCH_NOTE,
        "intervals": (f"percentile bootstrap over {UNIT}s (a source with all its variants) for every metric, "
                      "so each is resampled as ARS is"),
    }
    degenerate = constant_label_units(items, arr)
    if degenerate is not None:
        details["constant_label"] = degenerate
    return SuiteScore({}, details, units=unit_scores(items, arr))


def predictions_from_mapping(mapping: Mapping[str, str | None]) -> list[Prediction]:
    """``{example_id: label}`` (the protocol's mapping input) as Predictions."""
    return [Prediction(str(k), v, parse_ok=v is not None) for k, v in mapping.items()]
