"""McNemar's test: by default the exact binomial test below 25 discordant pairs, else the continuity-corrected
chi-square clamped at zero (p = 1 when b = c, monotone in |b - c|); the SENTiVENT paper's unclamped chi-square
(mlxtend ``mcnemar(corrected=True)``) on request; the method named in the result."""
from __future__ import annotations

import itertools

import numpy as np
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from sentiprobe.stats import significance
from sentiprobe.stats.significance import EXACT_BELOW, mcnemar


def _pairs(b: int, c: int, both: int = 50) -> tuple[np.ndarray, np.ndarray]:
    a = np.array([1] * b + [0] * c + [1] * both, dtype=bool)
    other = np.array([0] * b + [1] * c + [1] * both, dtype=bool)
    return a, other


@pytest.mark.parametrize(("b", "c"), [(30, 10), (20, 10), (40, 41), (25, 0)])
def test_with_many_discordant_pairs_the_default_is_the_corrected_chi_square(b, c):
    from statsmodels.stats.contingency_tables import mcnemar as sm_mcnemar

    r = mcnemar(*_pairs(b, c))
    ref = sm_mcnemar([[50, b], [c, 0]], exact=False, correction=True)
    assert r.method == "chi2-continuity-corrected" and (r.counts["b"], r.counts["c"]) == (b, c)
    assert r.statistic == pytest.approx(ref.statistic) and r.p_value == pytest.approx(ref.pvalue)


@pytest.mark.parametrize(("b", "c"), [(8, 1), (10, 5), (3, 3), (1, 0), (1, 1), (4, 3)])
def test_few_discordant_pairs_get_the_exact_binomial_test(b, c):
    from scipy.stats import binomtest

    r = mcnemar(*_pairs(b, c))
    assert b + c < EXACT_BELOW and r.method == "exact-binomial" and r.df is None
    assert r.p_value == pytest.approx(binomtest(min(b, c), b + c, 0.5).pvalue)


def test_the_issues_cases_are_monotone_now():
    # unclamped corrected chi-square: b = c = 1 gave p = 0.48 while b = 4, c = 3 gave p = 1.0
    assert mcnemar(*_pairs(1, 1)).p_value == 1.0
    assert mcnemar(*_pairs(4, 3)).p_value == 1.0
    assert mcnemar(*_pairs(30, 30)).p_value == 1.0  # the chi-square, clamped at 0
    assert mcnemar(*_pairs(1, 1), exact=False, clamp=False).p_value == pytest.approx(0.4795, abs=1e-4)


def test_the_sentivent_papers_variant_is_the_unclamped_corrected_chi_square():
    from statsmodels.stats.contingency_tables import mcnemar as sm_mcnemar

    for b, c in [(8, 1), (3, 3), (1, 1), (20, 10)]:
        r = mcnemar(*_pairs(b, c), exact=False, clamp=False)
        ref = sm_mcnemar([[50, b], [c, 0]], exact=False, correction=True)
        assert r.method == "chi2-continuity-corrected-unclamped" and r.p_value == pytest.approx(ref.pvalue)
    assert round(mcnemar(*_pairs(8, 1), exact=False, clamp=False).p_value, 4) == 0.0455  # mlxtend corrected=True


@settings(max_examples=60, deadline=None)
@given(st.integers(0, 60), st.booleans())
def test_p_is_one_for_b_equal_c_and_monotone_in_the_difference(total, exact):
    ps = []
    for b in range(total // 2, total + 1):  # |b - c| = 2b - total grows with b at fixed b + c
        r = mcnemar(*_pairs(b, total - b), exact=exact if total else None)
        ps.append(r.p_value)
        if b == total - b:
            assert r.p_value == 1.0
    assert all(x >= y - 1e-12 for x, y in itertools.pairwise(ps)), ps


def test_explicit_options_and_errors():
    assert mcnemar(*_pairs(30, 10), correction=False).method == "chi2"
    assert mcnemar(*_pairs(8, 1), exact=False).method == "chi2-continuity-corrected"
    assert mcnemar(*_pairs(0, 0)).method == "no-discordant-pairs"
    with pytest.raises(ValueError):
        a, b = _pairs(3, 2)
        mcnemar(a, b[:-1])


def test_one_paired_engine():
    # the paired bootstrap lives in stats.paired (compare, run and report use it); no second one here
    assert not hasattr(significance, "paired_bootstrap") and not hasattr(significance, "compare_systems")
