"""Common properties of every metric / agreement / test function in sentiprobe.stats (like scikit-learn's
test_common.py): order invariance, perfect agreement gives 1, Cochran's Q with two systems equals the
uncorrected McNemar chi-square, McNemar without discordant pairs is defined; plus reference values from
scikit-learn, scipy and statsmodels."""
from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass

import numpy as np
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from sentiprobe.core.errors import LabelSetError
from sentiprobe.core.types import Metric
from sentiprobe.stats import bootstrap as B
from sentiprobe.stats import classification as C
from sentiprobe.stats.agreement import (AgreementResult, cohen_kappa, fleiss_kappa, gwet_ac1, krippendorff_alpha,
                                        percent_agreement)
from sentiprobe.stats.metrics_common import classification_report
from sentiprobe.stats.significance import cochrans_q, mcnemar

LABELS = ("negative", "neutral", "positive")
FAST = settings(max_examples=25, deadline=None)

labels_st = st.lists(st.sampled_from(LABELS), min_size=4, max_size=40)


def _pairs(draw_len):
    return st.integers(4, 40).flatmap(lambda n: st.tuples(
        st.lists(st.sampled_from(LABELS), min_size=n, max_size=n),
        st.lists(st.sampled_from(LABELS + (None,)), min_size=n, max_size=n)))


def _ratings(min_raters=2, max_raters=4, missing=True):
    cell = st.sampled_from(LABELS + ((None,) if missing else ()))
    return st.integers(min_raters, max_raters).flatmap(
        lambda r: st.lists(st.lists(cell, min_size=r, max_size=r), min_size=3, max_size=30))


AGREEMENT = {
    "percent_agreement": lambda rows: percent_agreement(rows, alpha=0.05),
    "fleiss_kappa": lambda rows: fleiss_kappa(rows, alpha=0.05),
    "gwet_ac1": lambda rows: gwet_ac1(rows, alpha=0.05),
    "alpha_nominal": lambda rows: krippendorff_alpha(rows, alpha=0.05),
    "alpha_ordinal": lambda rows: krippendorff_alpha(rows, level="ordinal", categories=LABELS, n_boot=50, alpha=0.05),
    "alpha_interval": lambda rows: krippendorff_alpha(rows, level="interval", categories=LABELS, n_boot=50, alpha=0.05),
    "fleiss_quadratic": lambda rows: fleiss_kappa(rows, weights="quadratic", categories=LABELS, alpha=0.05),
    "ac2_linear": lambda rows: gwet_ac1(rows, weights="linear", categories=LABELS, alpha=0.05),
}
COHEN = {
    "cohen": lambda a, b: cohen_kappa(a, b, alpha=0.05),
    "cohen_linear": lambda a, b: cohen_kappa(a, b, weights="linear", categories=LABELS, alpha=0.05),
    "cohen_quadratic": lambda a, b: cohen_kappa(a, b, weights="quadratic", categories=LABELS, alpha=0.05),
}


def _close(a, b):
    if a is None or b is None:
        return a is None and b is None
    return a == pytest.approx(b, abs=1e-9)


# ---- order invariance ------------------------------------------------------------------------------
@FAST
@given(_pairs(None), st.randoms(use_true_random=False))
def test_classification_report_order_invariant(pair, rnd):
    y, p = pair
    idx = list(range(len(y)))
    rnd.shuffle(idx)
    a = classification_report(y, p, LABELS, n_boot=50, seed=3, alpha=0.05)
    b = classification_report([y[i] for i in idx], [p[i] for i in idx], LABELS, n_boot=50, seed=3, alpha=0.05)
    for k, m in a.metrics.items():
        assert _close(m.value, b.metrics[k].value), k
        # resamples are multinomial over the confusion cells: the CI does not depend on the order either
        assert _close(m.ci_low, b.metrics[k].ci_low) and _close(m.ci_high, b.metrics[k].ci_high), k


@FAST
@given(_ratings(), st.randoms(use_true_random=False))
@pytest.mark.parametrize("name", sorted(AGREEMENT))
def test_agreement_unit_and_rater_order_invariant(name, rows, rnd):
    f = AGREEMENT[name]
    base = f(rows)
    shuffled = list(rows)
    rnd.shuffle(shuffled)
    perm = list(range(len(rows[0])))
    rnd.shuffle(perm)
    cols = [[r[j] for j in perm] for r in shuffled]
    for other in (f(shuffled), f(cols)):
        assert _close(base.value, other.value)
        if base.ci_method != "bootstrap-percentile":
            assert _close(base.se, other.se)


@FAST
@given(_pairs(None), st.randoms(use_true_random=False))
@pytest.mark.parametrize("name", sorted(COHEN))
def test_cohen_order_invariant(name, pair, rnd):
    a, b = pair
    idx = list(range(len(a)))
    rnd.shuffle(idx)
    r1 = COHEN[name](a, b)
    r2 = COHEN[name]([a[i] for i in idx], [b[i] for i in idx])
    assert _close(r1.value, r2.value) and _close(r1.se, r2.se)


@FAST
@given(st.lists(st.tuples(st.booleans(), st.booleans(), st.booleans()), min_size=2, max_size=60),
       st.randoms(use_true_random=False))
def test_tests_order_invariant(rows, rnd):
    x = np.array(rows, dtype=bool)
    idx = list(range(len(rows)))
    rnd.shuffle(idx)
    y = x[idx]
    assert mcnemar(x[:, 0], x[:, 1]).to_dict() == mcnemar(y[:, 0], y[:, 1]).to_dict()
    q1, q2 = cochrans_q(x), cochrans_q(y)
    assert q1.statistic == pytest.approx(q2.statistic) and q1.p_value == pytest.approx(q2.p_value)


# ---- perfect agreement -----------------------------------------------------------------------------
@FAST
@given(labels_st)
def test_perfect_predictions_score_one(y):
    rep = classification_report(y, y, LABELS, n_boot=20, alpha=0.05)
    assert rep.metrics["accuracy"].value == 1.0
    assert rep.metrics["macro_f1"].value == 1.0
    for lab in set(y):
        assert rep.metrics[f"f1_{lab}"].value == 1.0


@FAST
@given(st.integers(2, 4), st.lists(st.sampled_from(LABELS), min_size=3, max_size=30).filter(lambda v: len(set(v)) > 1))
@pytest.mark.parametrize("name", sorted(AGREEMENT))
def test_perfect_agreement_is_one(name, r, units):
    rows = [[u] * r for u in units]
    assert AGREEMENT[name](rows).value == pytest.approx(1.0)


@FAST
@given(st.lists(st.sampled_from(LABELS), min_size=3, max_size=30).filter(lambda v: len(set(v)) > 1))
@pytest.mark.parametrize("name", sorted(COHEN))
def test_cohen_perfect_is_one(name, units):
    assert COHEN[name](units, units).value == pytest.approx(1.0)


def test_single_category_is_undefined_not_a_crash():
    rows = [["positive", "positive"]] * 5
    for name, f in AGREEMENT.items():
        r = f(rows)
        if name in ("percent_agreement", "gwet_ac1", "ac2_linear"):
            assert r.value == 1.0  # AC1 has no chance agreement with a single category (as irrCAC)
        else:
            assert r.value is None and r.note, name


# ---- tests ------------------------------------------------------------------------------------------
@FAST
@given(st.lists(st.tuples(st.booleans(), st.booleans()), min_size=1, max_size=80))
def test_cochran_q_two_systems_equals_uncorrected_mcnemar(rows):
    x = np.array(rows, dtype=bool)
    q = cochrans_q(x)
    m = mcnemar(x[:, 0], x[:, 1], exact=False, correction=False)
    assert q.statistic == pytest.approx(m.statistic)
    assert q.p_value == pytest.approx(m.p_value)


@pytest.mark.parametrize("exact", [None, True, False])
def test_mcnemar_without_discordant_pairs_is_defined(exact):
    a = np.array([1, 0, 1, 1, 0], dtype=bool)
    r = mcnemar(a, a, exact=exact)
    assert (r.statistic, r.p_value, r.method) == (0.0, 1.0, "no-discordant-pairs")
    q = cochrans_q(np.stack([a, a, a], axis=1))
    assert (q.statistic, q.p_value) == (0.0, 1.0)


# ---- reference values -----------------------------------------------------------------------------
@FAST
@given(_pairs(None))
def test_classification_report_matches_sklearn(pair):
    from sklearn.metrics import accuracy_score, precision_recall_fscore_support

    y, p = pair
    pp = ["<invalid>" if v is None else v for v in p]
    rep = classification_report(y, p, LABELS, n_boot=0, alpha=0.05)
    assert rep.metrics["accuracy"].value == pytest.approx(accuracy_score(y, pp))
    present = sorted(set(y) | {v for v in p if v is not None})
    P, R, F, S = precision_recall_fscore_support(y, pp, labels=present, zero_division=0)
    assert rep.metrics["macro_f1"].value == pytest.approx(F.mean())
    assert rep.metrics["macro_precision"].value == pytest.approx(P.mean())
    assert rep.metrics["macro_recall"].value == pytest.approx(R.mean())
    for lab, pk, rk, fk, sk in zip(present, P, R, F, S):
        assert rep.metrics[f"precision_{lab}"].value == pytest.approx(pk)
        assert rep.metrics[f"recall_{lab}"].value == pytest.approx(rk)
        assert rep.metrics[f"f1_{lab}"].value == pytest.approx(fk)
        assert rep.support[lab] == sk


@FAST
@given(st.lists(st.tuples(st.booleans(), st.booleans()), min_size=1, max_size=120))
def test_mcnemar_matches_statsmodels(rows):
    from statsmodels.stats.contingency_tables import mcnemar as sm_mcnemar

    x = np.array(rows, dtype=bool)
    a, b = x[:, 0], x[:, 1]
    table = [[int((a & b).sum()), int((a & ~b).sum())], [int((~a & b).sum()), int((~a & ~b).sum())]]
    if table[0][1] + table[1][0] == 0:
        return
    for exact in (True, False):
        ours = mcnemar(a, b, exact=exact, clamp=False)  # statsmodels does not clamp the corrected statistic
        ref = sm_mcnemar(table, exact=exact, correction=True)
        assert ours.p_value == pytest.approx(ref.pvalue)
        assert ours.statistic == pytest.approx(ref.statistic)


@FAST
@given(st.integers(3, 5).flatmap(lambda k: st.lists(st.lists(st.booleans(), min_size=k, max_size=k),
                                                    min_size=2, max_size=60)))
def test_cochrans_q_matches_statsmodels(rows):
    from statsmodels.stats.contingency_tables import cochrans_q as sm_q

    x = np.array(rows, dtype=int)
    ours = cochrans_q(x)
    if ours.method == "no-discordant-items":
        return
    ref = sm_q(x)
    assert ours.statistic == pytest.approx(ref.statistic)
    assert ours.p_value == pytest.approx(ref.pvalue)


@pytest.mark.filterwarnings("ignore::RuntimeWarning")  # statsmodels divides by zero for a single category
@FAST
@given(st.integers(2, 5).flatmap(lambda r: st.lists(st.lists(st.sampled_from(LABELS), min_size=r, max_size=r),
                                                    min_size=3, max_size=30)))
def test_fleiss_complete_data_matches_statsmodels(rows):
    from statsmodels.stats.inter_rater import aggregate_raters, fleiss_kappa as sm_fleiss

    ours = fleiss_kappa(rows, alpha=0.05)
    table, _ = aggregate_raters(np.array(rows))
    ref = sm_fleiss(table)
    if ours.value is None:
        assert not np.isfinite(ref) or len({v for r in rows for v in r}) < 2
    else:
        assert ours.value == pytest.approx(ref)


@FAST
@given(_pairs(None))
def test_cohen_matches_sklearn_and_statsmodels(pair):
    from sklearn.metrics import cohen_kappa_score
    from statsmodels.stats.inter_rater import cohens_kappa

    a, b = pair
    b = [x if x is not None else "neutral" for x in b]
    if len(set(a) | set(b)) < 2:
        return
    idx = {lab: i for i, lab in enumerate(LABELS)}
    table = np.zeros((3, 3))
    for x, y in zip(a, b):
        table[idx[x], idx[y]] += 1
    for w in (None, "linear", "quadratic"):
        ours = cohen_kappa(a, b, weights=w, categories=LABELS, alpha=0.05)
        ref = cohen_kappa_score(a, b, labels=list(LABELS), weights=w)
        if ours.value is None:
            continue
        assert ours.value == pytest.approx(ref)
        sm = cohens_kappa(table, wt=w) if w else cohens_kappa(table)
        if np.isnan(sm.std_kappa):
            # statsmodels takes the sqrt of a variance that rounding made slightly negative
            assert ours.se is not None and ours.se == pytest.approx(0.0, abs=1e-6)
        else:
            assert ours.se == pytest.approx(sm.std_kappa, rel=1e-6, abs=1e-9)


def test_holm_matches_statsmodels():
    from statsmodels.stats.multitest import multipletests

    from sentiprobe.stats.significance import holm

    p = [0.01, 0.04, 0.03, 0.2, 0.001, 0.04]
    assert holm(p) == pytest.approx(list(multipletests(p, method="holm")[1]))
    assert holm([]) == []


# ---- the common table: every metric function of sentiprobe.stats ------------------------------------
# Each row says how to compute one metric (value, CI, n) on a dataset of N units; the tests below check
# the same properties for every row, as scikit-learn's test_common.py does. A new metric function in
# sentiprobe.stats must get a row (test_every_stats_metric_is_in_the_table enforces it).

N = 120
N_GROUPS = N // 3
NB = 200


def _dataset(seed: int = 0, perfect: bool = False) -> dict:
    """Gold labels, two systems' predictions (None = unparseable), groups of 3 units, scores, ratings."""
    rng = np.random.default_rng(seed)
    y = rng.choice(LABELS, N).tolist()

    def noisy(acc: float) -> list:
        return [t if rng.random() < acc else (None if rng.random() < 0.1 else str(rng.choice(LABELS))) for t in y]

    p, q = (list(y), list(y)) if perfect else (noisy(0.7), noisy(0.6))
    x = rng.random(N)
    z = x.copy() if perfect else x + rng.normal(0, 0.3, N)
    return {"y": y, "p": p, "q": q, "g": [f"g{i // 3}" for i in range(N)], "x": x, "z": z,
            "correct": np.array([a == b for a, b in zip(y, p)], dtype=np.float64),
            "ratings": [[a, b, c] for a, b, c in zip(y, p, q)]}


def _permute(d: dict, idx: list[int]) -> dict:
    out = {}
    for k, v in d.items():
        out[k] = v[idx] if isinstance(v, np.ndarray) else [v[i] for i in idx]
    return out


def _pearson(a: np.ndarray, b: np.ndarray) -> float:
    return float(np.corrcoef(a, b)[0, 1]) if np.ptp(a) > 0 and np.ptp(b) > 0 else float("nan")


@dataclass(frozen=True)
class Row:
    """One metric of the table.

    Attributes:
        fn: function under test (its name is matched against sentiprobe.stats' public functions).
        call: ``call(data, seed, alpha)`` -> Metric / AgreementResult / tuple.
        perfect: the value on perfect predictions (all systems equal to gold, raters agreeing).
        bounds: the range every value and CI bound must stay in.
        order_ci: the CI does not depend on the order of the units (resamples are drawn as counts or
            group weights keyed by group id, not by position).
        n: ``n(data)`` -> the n the metric must report (units, groups, rated pairs).
        bootstrap: the CI is a bootstrap (so the seed matters).
    """

    fn: Callable
    call: Callable
    perfect: float = 1.0
    bounds: tuple[float, float] = (0.0, 1.0)
    order_ci: bool = True
    n: Callable[[dict], int] = lambda d: N
    bootstrap: bool = True


def _report(key: str, groups: bool = False) -> Callable:
    def call(d, seed, alpha):
        return C.classification_report(d["y"], d["p"], LABELS, n_boot=NB, seed=seed, alpha=alpha,
                                       groups=d["g"] if groups else None).metrics[key]
    return call


def _rated_pairs(d: dict) -> int:
    return sum(1 for r in d["ratings"] if r[0] is not None and r[1] is not None)


def _multi_rated(d: dict) -> int:
    return sum(1 for r in d["ratings"] if sum(v is not None for v in r) >= 2)


def _rating_call(f, ci: str, kw: dict) -> Callable:
    def call(d, seed, alpha):
        return f(d["ratings"], ci=ci, n_boot=NB, seed=seed, alpha=alpha, **kw)
    return call


def _cohen_call(ci: str, kw: dict) -> Callable:
    def call(d, seed, alpha):
        return cohen_kappa([r[0] for r in d["ratings"]], [r[1] for r in d["ratings"]], ci=ci, n_boot=NB,
                           seed=seed, alpha=alpha, **kw)
    return call


TABLE: dict[str, Row] = {
    **{f"report_{k}": Row(C.classification_report, _report(k)) for k in
       ("accuracy", "macro_f1", "macro_precision", "macro_recall", "f1_positive", "precision_negative",
        "recall_neutral")},
    "report_macro_f1_grouped": Row(C.classification_report, _report("macro_f1", groups=True),
                                   n=lambda d: N_GROUPS),
    "macro_f1": Row(C.macro_f1, lambda d, s, a: C.macro_f1(d["y"], d["p"], LABELS, n_boot=NB, seed=s, alpha=a),
                    order_ci=False),
    "macro_f1_grouped": Row(C.macro_f1, lambda d, s, a: C.macro_f1(d["y"], d["p"], LABELS, n_boot=NB, seed=s,
                                                                   alpha=a, groups=np.array(d["g"])),
                            order_ci=False, n=lambda d: N_GROUPS),
    "accuracy": Row(C.accuracy, lambda d, s, a: C.accuracy(d["y"], d["p"], labels=LABELS, n_boot=NB, seed=s,
                                                           alpha=a)),
    "mean_metric": Row(B.mean_metric, lambda d, s, a: B.mean_metric("m", d["correct"], n_boot=NB, seed=s,
                                                                    alpha=a)),
    "mean_ci": Row(B.mean_ci, lambda d, s, a: (*B.mean_ci(d["correct"], n_boot=NB, seed=s, alpha=a),
                                               len(d["correct"]))),
    "grouped_mean": Row(B.grouped_mean, lambda d, s, a: B.grouped_mean("g", d["correct"], d["g"], n_boot=NB,
                                                                       seed=s, alpha=a), n=lambda d: N_GROUPS),
    "bootstrap_metric_pearson": Row(
        B.bootstrap_metric, lambda d, s, a: B.bootstrap_metric(
            "r", lambda i: _pearson(d["x"][i], d["z"][i]), N, n_boot=NB, seed=s, alpha=a),
        bounds=(-1.0, 1.0), order_ci=False),
    "bootstrap_metric_grouped": Row(
        B.bootstrap_metric, lambda d, s, a: B.bootstrap_metric(
            "acc", lambda i: float(d["correct"][i].mean()), N, groups=np.array(d["g"]), n_boot=NB, seed=s,
            alpha=a), order_ci=False, n=lambda d: N_GROUPS),
}
for _ci in ("analytic", "bootstrap"):
    _boot = _ci == "bootstrap"
    for _name, _f, _kw in (("percent_agreement", percent_agreement, {}), ("fleiss_kappa", fleiss_kappa, {}),
                           ("gwet_ac1", gwet_ac1, {}),
                           ("fleiss_quadratic", fleiss_kappa, {"weights": "quadratic", "categories": LABELS}),
                           ("alpha_nominal", krippendorff_alpha, {}),
                           ("alpha_ordinal", krippendorff_alpha, {"level": "ordinal", "categories": LABELS}),
                           ("alpha_interval", krippendorff_alpha, {"level": "interval", "categories": LABELS})):
        if _name in ("alpha_ordinal", "alpha_interval") and not _boot:
            continue  # these levels are always bootstrapped: one row each is enough
        TABLE[f"{_name}_{_ci}"] = Row(_f, _rating_call(_f, _ci, _kw), bounds=(-1.0, 1.0), order_ci=not _boot,
                                      n=_multi_rated, bootstrap=_boot)
    TABLE[f"cohen_{_ci}"] = Row(cohen_kappa, _cohen_call(_ci, {}), bounds=(-1.0, 1.0), n=_rated_pairs,
                                bootstrap=_boot)
    TABLE[f"cohen_linear_{_ci}"] = Row(cohen_kappa, _cohen_call(_ci, {"weights": "linear", "categories": LABELS}),
                                       bounds=(-1.0, 1.0), n=_rated_pairs, bootstrap=_boot)


def _vci(res) -> tuple[float | None, float | None, float | None, int]:
    """(value, ci_low, ci_high, n) of any result type in the table."""
    if isinstance(res, Metric):
        return res.value, res.ci_low, res.ci_high, res.n
    if isinstance(res, AgreementResult):
        return res.value, res.ci_low, res.ci_high, res.n_units
    return tuple(res)  # mean_ci: (value, low, high) + n


ROWS = sorted(TABLE)
EPS = 1e-9


def test_every_stats_metric_is_in_the_table():
    """Every public function of sentiprobe.stats that returns a metric with a CI has a row."""
    import inspect

    from sentiprobe.stats import agreement, bootstrap, classification, significance

    results = ("Metric", "AgreementResult", "ClassificationReport")
    public = set()
    for mod in (bootstrap, classification, agreement, significance):
        for name, f in vars(mod).items():
            if name.startswith("_") or not inspect.isfunction(f) or f.__module__ != mod.__name__:
                continue
            ret = str(inspect.signature(f).return_annotation)
            if ret in results or name == "mean_ci":
                public.add(f)
    covered = {row.fn for row in TABLE.values()}
    assert len(public) >= 12
    assert public - covered == set(), sorted(f.__name__ for f in public - covered)


@pytest.mark.parametrize("name", ROWS)
def test_common_order_invariance(name):
    row = TABLE[name]
    d = _dataset(1)
    idx = list(np.random.default_rng(5).permutation(N))
    a, b = _vci(row.call(d, 3, 0.05)), _vci(row.call(_permute(d, idx), 3, 0.05))
    assert _close(a[0], b[0]) and a[3] == b[3]
    if row.order_ci:
        assert _close(a[1], b[1]) and _close(a[2], b[2])


@pytest.mark.parametrize("name", ROWS)
def test_common_perfect_prediction_bounds(name):
    row = TABLE[name]
    v, lo, hi, _ = _vci(row.call(_dataset(2, perfect=True), 0, 0.05))
    assert v == pytest.approx(row.perfect, abs=EPS)
    if row.bootstrap:  # every resample of perfect data is perfect
        assert lo == pytest.approx(row.perfect, abs=EPS) and hi == pytest.approx(row.perfect, abs=EPS)
    for seed in range(3):  # and on imperfect data the value and CI stay in range
        v, lo, hi, _ = _vci(row.call(_dataset(seed), 0, 0.05))
        assert all(row.bounds[0] - EPS <= u <= row.bounds[1] + EPS for u in (v, lo, hi)), (v, lo, hi)


@pytest.mark.parametrize("seed", [0, 1, 2])
@pytest.mark.parametrize("name", ROWS)
def test_common_ci_contains_value(name, seed):
    v, lo, hi, _ = _vci(TABLE[name].call(_dataset(seed), seed, 0.05))
    assert lo is not None and hi is not None
    assert lo - EPS <= v <= hi + EPS


@pytest.mark.parametrize("name", ROWS)
def test_common_alpha_sets_the_width(name):
    """Smaller alpha, wider interval: the three intervals are nested and not all the same."""
    row = TABLE[name]
    d = _dataset(0)
    wide, mid, narrow = (_vci(row.call(d, 7, a)) for a in (0.01, 0.05, 0.3))
    assert wide[1] - EPS <= mid[1] <= narrow[1] + EPS and narrow[2] - EPS <= mid[2] <= wide[2] + EPS
    assert wide[2] - wide[1] > narrow[2] - narrow[1] + 1e-6


@pytest.mark.parametrize("name", ROWS)
def test_common_same_seed_same_ci(name):
    row = TABLE[name]
    d = _dataset(0)
    a, b = _vci(row.call(d, 11, 0.05)), _vci(row.call(d, 11, 0.05))
    assert a == b
    if row.bootstrap:  # and the seed is really used
        c = _vci(row.call(d, 12, 0.05))
        assert (a[1], a[2]) != (c[1], c[2])


@pytest.mark.parametrize("name", ROWS)
def test_common_n_reported(name):
    row = TABLE[name]
    d = _dataset(0)
    assert _vci(row.call(d, 0, 0.05))[3] == row.n(d)


# ---- one classification engine: unknown gold labels are errors, unknown predictions are wrong ------
@pytest.mark.parametrize("call", [
    lambda y, p: C.classification_report(y, p, LABELS, n_boot=10, alpha=0.05),
    lambda y, p: C.macro_f1(y, p, LABELS, n_boot=10, alpha=0.05),
    lambda y, p: C.accuracy(y, p, labels=LABELS, n_boot=10, alpha=0.05),
    lambda y, p: C.encode(y, p, LABELS),
])
def test_unknown_gold_label_is_a_typed_error(call):
    y = ["positive", "negative", "mixed", "positive"]
    p = ["positive", "negative", "neutral", "positive"]
    with pytest.raises(LabelSetError) as err:
        call(y, p)
    assert err.value.offenders == ["mixed"] and "mixed" in str(err.value)
    assert isinstance(err.value, ValueError)  # what callers caught before the type existed


def test_unknown_prediction_counts_as_wrong():
    y = ["positive", "negative", "neutral", "positive"]
    rep = C.classification_report(y, ["positive", "mixed", None, "positive"], LABELS, n_boot=0, alpha=0.05)
    assert rep.metrics["accuracy"].value == 0.5 and rep.invalid == [1, 1, 0]
    _, p = C.encode(y, ["positive", "mixed", None, "positive"], LABELS)
    assert p.tolist() == [2, -1, -1, 2]
    assert C.macro_f1(y, ["positive", "mixed", None, "positive"], LABELS, n_boot=0, alpha=0.05).value == \
        rep.metrics["macro_f1"].value


def test_prf_from_confusion_matches_the_report():
    y = ["positive", "negative", "neutral", "positive", "neutral"]
    p = ["positive", None, "positive", "negative", "neutral"]
    t, q = C.encode(y, p, LABELS)
    prec, rec, f1 = C.prf_from_confusion(C.confusion(t, q, 3), np.bincount(t, minlength=3))
    rep = C.classification_report(y, p, LABELS, n_boot=0, alpha=0.05)
    for j, lab in enumerate(LABELS):
        assert (prec[j], rec[j], f1[j]) == (rep.metrics[f"precision_{lab}"].value,
                                            rep.metrics[f"recall_{lab}"].value, rep.metrics[f"f1_{lab}"].value)
