"""The resampling engine (plain, grouped, paired draws; percentile intervals) and the rounding helper."""
from __future__ import annotations

from decimal import Decimal
from fractions import Fraction

import numpy as np
import pytest

from sentiprobe.core.errors import ConfigError
from sentiprobe.stats import resampling as R
from sentiprobe.stats.rounding import percent, round_half_up, round_half_up_int


# ---- draws ------------------------------------------------------------------------------------------
def test_count_draws_are_resamples_of_the_cells():
    counts = np.array([5, 0, 3, 2])
    d = R.count_draws(counts, 500, seed=0)
    assert d.shape == (500, 4) and (d.sum(axis=1) == 10).all() and (d[:, 1] == 0).all()
    assert d.mean(axis=0) == pytest.approx(counts, abs=0.3)
    assert (R.count_draws(counts, 50, seed=1) == R.count_draws(counts, 50, seed=1)).all()


def test_group_weights_and_grouped_cells():
    w = R.group_weights(7, 300, seed=2)
    assert w.shape == (300, 7) and (w.sum(axis=1) == 7).all()
    codes = np.array([0, 1, 1, 2, 0, 0])
    groups = ["b", "b", "a", "a", "c", "c"]  # resampled whole: per-group cells are (1,1,0) (0,1,1) (2,0,0)
    cells = R.cell_count_draws(codes, 3, n_boot=200, seed=3, groups=groups)
    assert (cells.sum(axis=1) == 6).all()
    per_group = np.array([[0, 1, 1], [1, 1, 0], [2, 0, 0]])  # groups in sorted order a, b, c
    assert (cells == R.group_weights(3, 200, seed=3) @ per_group).all()


def test_group_index_sorted_and_empty():
    inv, g = R.group_index(["z", "a", "z", "m"])
    assert inv.tolist() == [2, 0, 2, 1] and g == 3
    inv, g = R.group_index([])
    assert inv.size == 0 and g == 0


def test_index_draws_plain_and_grouped():
    blocks = list(R.index_draws(5, 130, seed=0))
    assert [b.shape for b in blocks] == [(64, 5), (64, 5), (2, 5)]
    groups = np.array([0, 0, 1, 1, 1, 2])
    sizes = np.bincount(groups)
    for (row,) in R.index_draws(6, 40, seed=1, groups=groups):
        drawn = np.bincount(groups[row], minlength=3)
        assert (drawn % sizes == 0).all() and (drawn // sizes).sum() == 3  # 3 whole groups per resample
    d = R.statistic_distribution(lambda i: float(len(i)), 5, n_boot=70, seed=0)
    assert d.shape == (70,) and (d == 5).all()


def test_paired_p_value_and_interval_edge_cases():
    assert R.paired_p_value(np.zeros(99)) == 1.0
    assert R.paired_p_value(np.ones(99)) == pytest.approx(2 / 100)
    assert R.paired_p_value(np.array([np.nan])) == 1.0
    assert R.percentile_interval(np.array([np.nan, np.nan]), alpha=0.05) == (None, None)
    assert R.percentile_interval(np.array([1.0, np.nan, 3.0]), 0.5) == (1.5, 2.5)
    for bad in (0, 1, -0.1, 1.5):
        with pytest.raises(ConfigError):
            R.percentile_interval(np.arange(5.0), bad)


# ---- alpha is honoured by the grouped mean too -------------------------------------------------------------
def test_grouped_means_honour_alpha():
    from sentiprobe.stats.bootstrap import grouped_mean

    rng = np.random.default_rng(7)
    groups = [str(i // 3) for i in range(40)]
    x = rng.random(40)
    w = grouped_mean("m", x, groups, n_boot=200, seed=1, alpha=0.01)
    n = grouped_mean("m", x, groups, n_boot=200, seed=1, alpha=0.3)
    assert w.ci_low < n.ci_low <= n.ci_high < w.ci_high and w.n == 14


# ---- rounding -----------------------------------------------------------------------------------------
def test_round_half_up_exact_values():
    assert round_half_up(Fraction(147, 1120) * 100) == Decimal("13.13")  # 13.125: a tie, rounded up
    assert round_half_up(Fraction(-1, 8)) == Decimal("-0.13")  # ties away from zero
    assert str(round_half_up(Fraction(-1, 1000))) == "0.00"  # never "-0.00"
    assert str(round_half_up(Decimal("2.675"))) == "2.68"  # the decimal, not the binary float 2.67499...
    assert str(round_half_up(7, 0)) == "7" and str(round_half_up(Fraction(1, 3), 4)) == "0.3333"


def test_floats_are_read_as_their_shortest_decimal():
    assert percent(0.80625) == "80.63" and percent(0.13125) == "13.13" and percent(1.0) == "100.00"
    assert percent(np.float64(0.00005)) == "0.01" and percent(0) == "0.00"
    assert str(round_half_up(2.675)) == "2.68"  # round(2.675, 2) == 2.67
    with pytest.raises(ValueError):
        round_half_up(float("nan"))


def test_round_half_up_int_matches_floor_plus_half_for_non_negative_values():
    import math

    values = [Fraction(k, 6) for k in range(37)] + [k / 4 for k in range(25)] + [2.4999999999999996, 0.5]
    for v in values:
        assert round_half_up_int(v) == math.floor(Fraction(v) + Fraction(1, 2)), v


def test_report_pct_uses_the_helper():
    from sentiprobe.report.html import pct

    assert pct(0.80625) == "80.63" and pct(1) == "100.00" and pct(None) == "\u2014" and pct(float("nan")) == "\u2014"
