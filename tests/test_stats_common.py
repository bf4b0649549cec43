"""Common properties of every metric / agreement / test function in sentiprobe.stats (like scikit-learn's
test_common.py): order invariance, perfect agreement gives 1, Cochran's Q with two systems equals the
uncorrected McNemar chi-square, McNemar without discordant pairs is defined; plus reference values from
scikit-learn, scipy and statsmodels."""
from __future__ import annotations

import numpy as np
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from sentiprobe.stats.agreement import (cohen_kappa, fleiss_kappa, gwet_ac1, krippendorff_alpha,
                                        percent_agreement)
from sentiprobe.stats.metrics_common import classification_report
from sentiprobe.stats.significance import cochrans_q, mcnemar, paired_bootstrap

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
    "percent_agreement": lambda rows: percent_agreement(rows),
    "fleiss_kappa": lambda rows: fleiss_kappa(rows),
    "gwet_ac1": lambda rows: gwet_ac1(rows),
    "alpha_nominal": lambda rows: krippendorff_alpha(rows),
    "alpha_ordinal": lambda rows: krippendorff_alpha(rows, level="ordinal", categories=LABELS, n_boot=50),
    "alpha_interval": lambda rows: krippendorff_alpha(rows, level="interval", categories=LABELS, n_boot=50),
    "fleiss_quadratic": lambda rows: fleiss_kappa(rows, weights="quadratic", categories=LABELS),
    "ac2_linear": lambda rows: gwet_ac1(rows, weights="linear", categories=LABELS),
}
COHEN = {
    "cohen": lambda a, b: cohen_kappa(a, b),
    "cohen_linear": lambda a, b: cohen_kappa(a, b, weights="linear", categories=LABELS),
    "cohen_quadratic": lambda a, b: cohen_kappa(a, b, weights="quadratic", categories=LABELS),
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
    a = classification_report(y, p, LABELS, n_boot=50, seed=3)
    b = classification_report([y[i] for i in idx], [p[i] for i in idx], LABELS, n_boot=50, seed=3)
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
    rep = classification_report(y, y, LABELS, n_boot=20)
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


def test_paired_bootstrap_of_identical_systems():
    y = list(LABELS) * 10
    p = list(reversed(y))
    for metric in ("accuracy", "macro_f1"):
        d = paired_bootstrap(y, p, p, metric=metric, labels=LABELS, n_boot=200)
        assert d.delta == 0.0 and d.ci_low == 0.0 and d.ci_high == 0.0 and d.p_value == 1.0


# ---- reference values -----------------------------------------------------------------------------
@FAST
@given(_pairs(None))
def test_classification_report_matches_sklearn(pair):
    from sklearn.metrics import accuracy_score, precision_recall_fscore_support

    y, p = pair
    pp = ["<invalid>" if v is None else v for v in p]
    rep = classification_report(y, p, LABELS, n_boot=0)
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
        ours = mcnemar(a, b, exact=exact)
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

    ours = fleiss_kappa(rows)
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
        ours = cohen_kappa(a, b, weights=w, categories=LABELS)
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
