"""ARTS scoring (docs/protocols/arts.md#ars, #subset-accuracy): accuracy, ARS and per-strategy subset accuracies.

Pure functions of items, predictions and the suite's frozen score context. One pass over the items builds
integer/boolean numpy arrays (group index, kind code, correctness); everything after that is vectorised, so
scoring is O(n). Counts are exact integers; CIs come from :func:`sentiprobe.stats.bootstrap.mean_metric`
(exact multinomial bootstrap of a mean) over *units*: items for accuracies, groups (a source and
all its variants) for ARS, so the ARS bootstrap resamples groups; the level is ``config.alpha``
(``--confidence``), which is also the level the tests below are read at.

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
from ...core.types import Item, Metric, Prediction
from ...stats.bootstrap import mean_metric
from ...stats.paired import UnitTable, mean_of
from ...stats.resampling import DEFAULT_ALPHA
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


def paired_strategy_test(arr: ScoreArrays, kind: str, alpha: float = DEFAULT_ALPHA) -> dict[str, Any] | None:
    """McNemar's test of Ori vs New on the paired observations: each ``kind`` variant with its source example.

    The primary test of a strategy's effect: the source and its variant are the same example before and after
    the edit, so the comparison is paired (b = source right and variant wrong, c = the reverse; the
    continuity-corrected chi-square, as everywhere in sentiprobe). Welch's t-test (the paper's choice) is kept
    beside it for comparison with the paper's tables. A unit with several variants of one kind contributes one
    pair per variant. ``significant`` reads the p-value at level ``alpha``.
    """
    m = arr.mask(kind)
    if not m.any():
        return None
    src = arr.correct[arr.source[arr.group[m]]]
    res = mcnemar(src, arr.correct[m]).to_dict()
    res.update(alpha=alpha, significant=res["p_value"] < alpha)
    res["pairs"] = int(m.sum())
    res["note"] = "paired: each variant with its source example (primary test)"
    return res


def unit_table(items: Sequence[Item], predictions: Sequence[Prediction], options: Any, context: ScoreContext,
               config: ScoreConfig):
    """Paired-comparison stage: ``ars`` and ``accuracy_original`` over ARTS units (a source and its variants).

    A missing or unparsed prediction is wrong here (scoring's own ``missing`` policy has already been applied
    when the runs were scored); both metrics carry per-unit correctness, so McNemar's test is added.
    """
    by_id = context.check(items, predictions, config, missing="error" if config.missing == "error" else "wrong")
    arr = build_arrays(items, by_id)
    orig = arr.correct[arr.source].astype(np.float64)
    units = unit_all_correct(arr).astype(np.float64)
    return UnitTable(unit="source example", n_units=arr.n_units,
                     metrics={"ars": mean_of(units), "accuracy_original": mean_of(orig)},
                     kinds={"ars": "rate", "accuracy_original": "rate"},
                     correct={"ars": units, "accuracy_original": orig},
                     note="units: a source example with all its variants (ARS counts a unit only when all are right)")


def welch(ori: np.ndarray, new: np.ndarray, alpha: float = DEFAULT_ALPHA) -> dict[str, Any] | None:
    """Welch's t-test of two 0/1 samples (see the module docstring; :func:`~sentiprobe.stats.significance.
    welch_t_test`); ``None`` when undefined.

    ``significant``: ``p <= alpha`` (the level of the run, ``--confidence``; recorded as ``alpha``).
    """
    from ...stats.significance import welch_t_test

    res = welch_t_test(ori, new)
    if res is None:
        return None
    t, df, p = res
    return {"t": t, "df": df, "p": p, "alpha": alpha, "significant": p <= alpha}


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
    out = score_items(items, by_id, n_boot=config.n_boot, seed=config.seed, missing=config.missing,
                      suite=context.suite, path=config.path, alpha=config.alpha)
    if "input_file" in context.provenance:  # arts-custom: the scored file is the user's
        out.details["input_file"] = dict(context.provenance["input_file"])
        _note_coverage(out)
    return out


RELEASED_STRATEGIES = ("revtgt", "revnon", "adddiff")


def _note_coverage(out: SuiteScore) -> None:
    """arts-custom: which of the released strategies the file's ARS covers; an ARS over fewer strategies is not
    comparable with the released sets' ARS (a unit is robust more easily when it has fewer variants)."""
    have = [r["strategy"] for r in out.details.get("strategies", []) if r.get("variants")]
    lacking = [s for s in RELEASED_STRATEGIES if s not in have]
    note = None
    if lacking:
        note = (f"this ARS covers {', '.join(have) or 'no strategy'}; the file has no {', '.join(lacking)} "
                "variants, so it is not comparable with the ARS of the released ARTS sets")
    out.details["strategy_coverage"] = {"covered": have, "lacking": lacking, "note": note}
    ars = out.metrics.get("ars")
    if note is not None and ars is not None:
        out.metrics["ars"] = replace(ars, note=f"{ars.note}; {note}" if ars.note else note)


def _metric(name: str, values: np.ndarray, n_boot: int, seed: int, unit: str, alpha: float) -> Metric:
    if values.size == 0:
        return Metric.not_computable(name, f"no {unit}")
    return mean_metric(name, values, n_boot=n_boot, seed=seed, alpha=alpha, note=f"unit: {unit}")


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


def score_items(items: Sequence[Item], by_id: Mapping[str, Prediction], *, n_boot: int = 1000, seed: int = 0,
                missing: str = "error", suite: str | None = None, path: str | None = None,
                alpha: float = DEFAULT_ALPHA) -> SuiteScore:
    """Score validated predictions (``by_id`` from :func:`~sentiprobe.suites.base.check_predictions`) on ARTS items.

    Metrics (fractions in [0, 1], CI, n): ``accuracy_original``, ``ars`` (n = units),
    ``accuracy_<s>`` (New(S), n = variants) and ``accuracy_<s>_source`` (Ori(S), n = units with an
    S variant) for s in revtgt, revnon, adddiff (and any other variant kind present).
    """
    if missing not in MISSING_POLICIES:
        raise ConfigError(f"missing must be one of {list(MISSING_POLICIES)}, not {missing!r}")
    arr = build_arrays(items, by_id)
    miss = _missing(items, arr, missing, path)
    is_orig = arr.mask(ORIGINAL)
    orig_ok = arr.correct[is_orig]
    units_ok = unit_all_correct(arr)
    metrics: dict[str, Metric] = {
        "accuracy_original": _metric("accuracy_original", orig_ok, n_boot, seed, "original examples", alpha),
        "ars": _metric("ars", units_ok, n_boot, seed, "units (source + all its variants)", alpha),
    }
    counts: dict[str, dict[str, Any]] = {"accuracy_original": _count(orig_ok).to_dict(),
                                         "ars": _count(units_ok).to_dict()}
    strategies = strategies_present(arr)
    rows = []
    for s in strategies:
        ori, new, both = strategy_arrays(arr, s)
        metrics[f"accuracy_{s}"] = _metric(f"accuracy_{s}", new, n_boot, seed, f"{s} variants", alpha)
        metrics[f"accuracy_{s}_source"] = _metric(f"accuracy_{s}_source", ori, n_boot, seed,
                                                  f"sources of units with a {s} variant", alpha)
        c_ori, c_new, c_both = _count(ori), _count(new), _count(both)
        counts[f"accuracy_{s}"], counts[f"accuracy_{s}_source"] = c_new.to_dict(), c_ori.to_dict()
        change = _difference(c_new, c_ori)
        rows.append({"strategy": s, "name": STRATEGY_NAMES.get(s, s), "units": c_ori.total,
                     "variants": c_new.total, "ori": c_ori.to_dict(), "new": c_new.to_dict(),
                     "change_pp": format_pp(change),
                     "both_not_in_paper": {**c_both.to_dict(), "note": BOTH_NOTE},
                     "paired": paired_strategy_test(arr, s, alpha),
                     "welch": welch(ori, new, alpha)})
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
    }
    return SuiteScore(metrics, details)


def predictions_from_mapping(mapping: Mapping[str, str | None]) -> list[Prediction]:
    """``{example_id: label}`` (the protocol's mapping input) as Predictions."""
    return [Prediction(str(k), v, parse_ok=v is not None) for k, v in mapping.items()]
