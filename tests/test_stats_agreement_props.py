"""Property-based tests of the agreement coefficients: invariant to unit and rater order, bounded, and equal
to 1 under perfect agreement (hypothesis; deterministic profile in conftest)."""
from __future__ import annotations

import math

import numpy as np
from hypothesis import assume, given
from hypothesis import strategies as st

from sentiprobe.stats.agreement import fleiss_kappa, gwet_ac1, krippendorff_alpha, percent_agreement

CATS = ["a", "b", "c"]


@st.composite
def tables(draw, min_units=3, max_units=12, min_raters=2, max_raters=4, missing=True):
    n = draw(st.integers(min_units, max_units))
    r = draw(st.integers(min_raters, max_raters))
    cell = st.sampled_from(CATS + ([None] if missing else []))
    rows = [draw(st.lists(cell, min_size=r, max_size=r)) for _ in range(n)]
    # every unit needs two ratings to be pairable; keep at least two units pairable
    rows = [row for row in rows if sum(v is not None for v in row) >= 2]
    assume(len(rows) >= 2)
    return rows


def _value(fn, rows, **kw):
    return fn(rows, categories=CATS, **{"alpha": 0.05, **kw}).value


def _close(a, b):
    if a is None or b is None:
        return a is None and b is None
    if math.isnan(a) or math.isnan(b):
        return math.isnan(a) and math.isnan(b)
    return abs(a - b) < 1e-9


COEFS = [("percent", percent_agreement, {}), ("fleiss", fleiss_kappa, {}), ("ac1", gwet_ac1, {}),
         ("alpha", krippendorff_alpha, {"level": "nominal"})]


@given(tables(missing=False), st.randoms(use_true_random=False))
def test_invariant_to_unit_and_rater_order(rows, rnd):
    units = list(rows)
    rnd.shuffle(units)
    perm = list(range(len(rows[0])))
    rnd.shuffle(perm)
    raters = [[row[j] for j in perm] for row in rows]
    for _, fn, kw in COEFS:
        v = _value(fn, rows, **kw)
        assert _close(v, _value(fn, units, **kw))
        assert _close(v, _value(fn, raters, **kw))


@given(tables())
def test_bounded(rows):
    for name, fn, kw in COEFS:
        v = _value(fn, rows, **kw)
        if v is None or math.isnan(v):
            continue
        assert v <= 1 + 1e-9, name
        if name == "percent":
            assert v >= -1e-9
        else:
            assert v >= -1 - 1e-9 or name == "alpha"  # alpha's floor is -1 for two coders, lower only in theory


@given(st.lists(st.sampled_from(CATS), min_size=3, max_size=10), st.integers(2, 4))
def test_perfect_agreement_is_one(labels, r):
    assume(len(set(labels)) >= 2)  # with one category the chance-corrected coefficients are undefined
    rows = [[lab] * r for lab in labels]
    for name, fn, kw in COEFS:
        assert _close(_value(fn, rows, **kw), 1.0), name


@given(tables(missing=False))
def test_interval_alpha_matches_nominal_on_two_values(rows):
    """With two categories coded 0/1 the interval metric equals the nominal one (d = 0 or 1)."""
    two = [["a" if v == "a" else "b" for v in row] for row in rows]
    num = [[0.0 if v == "a" else 1.0 for v in row] for row in two]
    nominal = krippendorff_alpha(two, level="nominal", categories=["a", "b"], alpha=0.05).value
    interval = krippendorff_alpha(num, level="interval", alpha=0.05).value
    assert _close(nominal, interval) or (nominal is None and interval is None) or (
        np.isnan(nominal) and np.isnan(interval))
