"""McNemar's test: the continuity-corrected chi-square by default (the SENTiVENT paper's mlxtend
``mcnemar(corrected=True)``), the exact binomial test only when asked for, and the method named in the result."""
from __future__ import annotations

import numpy as np
import pytest

from sentiprobe.stats import significance
from sentiprobe.stats.significance import mcnemar


def _pairs(b: int, c: int, both: int = 50) -> tuple[np.ndarray, np.ndarray]:
    a = np.array([1] * b + [0] * c + [1] * both, dtype=bool)
    other = np.array([0] * b + [1] * c + [1] * both, dtype=bool)
    return a, other


@pytest.mark.parametrize(("b", "c"), [(8, 1), (10, 5), (3, 3), (20, 10), (1, 0)])
def test_mcnemar_defaults_to_the_continuity_corrected_chi_square(b, c):
    from statsmodels.stats.contingency_tables import mcnemar as sm_mcnemar

    r = mcnemar(*_pairs(b, c))
    ref = sm_mcnemar([[50, b], [c, 0]], exact=False, correction=True)
    assert r.method == "chi2-continuity-corrected" and (r.counts["b"], r.counts["c"]) == (b, c)
    assert r.statistic == pytest.approx(ref.statistic) and r.p_value == pytest.approx(ref.pvalue)


def test_few_discordant_pairs_are_not_switched_to_the_exact_test():
    r = mcnemar(*_pairs(8, 1))  # b + c = 9: the case; mlxtend corrected=True gives 0.0455
    assert round(r.p_value, 4) == 0.0455 and r.statistic == pytest.approx(4.0)


def test_the_exact_binomial_test_is_an_explicit_option():
    from scipy.stats import binomtest

    r = mcnemar(*_pairs(8, 1), exact=True)
    assert r.method == "exact-binomial" and r.df is None
    assert r.p_value == pytest.approx(binomtest(1, 9, 0.5).pvalue) and round(r.p_value, 4) == 0.0391
    assert mcnemar(*_pairs(8, 1), correction=False).method == "chi2"
    assert mcnemar(*_pairs(0, 0)).method == "no-discordant-pairs"
    with pytest.raises(ValueError):
        a, b = _pairs(3, 2)
        mcnemar(a, b[:-1])


def test_one_paired_engine():
    # the paired bootstrap lives in stats.paired (compare, run and report use it); no second one here
    assert not hasattr(significance, "paired_bootstrap") and not hasattr(significance, "compare_systems")
