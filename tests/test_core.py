"""Core types, registry, errors and bootstrap helpers."""
from __future__ import annotations

import json

import numpy as np
import pytest

from sentiprobe.core.errors import DataError, PredictionError, UnknownNameError
from sentiprobe.core.registry import Registry
from sentiprobe.core.types import Item, Metric, Prediction
from sentiprobe.stats.bootstrap import bootstrap_metric, mean_ci, mean_metric


def test_item_and_prediction_roundtrip_json():
    it = Item("a_adv1", "a", "test", "Nice screen", "positive", aspect="screen", span=(5, 11), kind="revtgt",
              meta={"x": 1})
    d = json.loads(json.dumps(it.to_dict()))
    assert Item.from_dict(d) == it
    p = Prediction("a", None, scores={"positive": 0.2}, raw="??", parse_ok=False)
    assert Prediction.from_dict(json.loads(json.dumps(p.to_dict()))) == p


def test_items_are_frozen():
    it = Item("a", "a", "test", "t")
    with pytest.raises(AttributeError):
        it.text = "other"  # type: ignore[misc]


def test_metric_not_computable_serialises_nulls():
    m = Metric.not_computable("pearson_study1", "needs unpublished data")
    d = m.to_dict()
    assert d["value"] is None and d["n"] == 0 and "unpublished" in d["note"]
    assert Metric("x", float("nan"), None, None, 3).to_dict()["value"] is None


def test_registry_did_you_mean_and_prefix():
    r: Registry[object] = Registry("suite")
    for n in ("arts-laptop", "arts-rest", "arts-mams"):
        r.register(n, object)
    with pytest.raises(UnknownNameError) as e:
        r.entry("arts-lap")
    assert "did you mean 'arts-laptop'" in str(e.value)
    with pytest.raises(UnknownNameError) as e:
        r.entry("arts")
    assert "arts-laptop" in str(e.value)
    with pytest.raises(UnknownNameError) as e:
        r.entry("zzz")
    assert "known:" in str(e.value)


def test_errors_name_file_record_field():
    e = DataError("label outside the label set", path="x.json", record="1094:1_1", field="polarity")
    assert "x.json" in str(e) and "1094:1_1" in str(e) and "polarity" in str(e)
    e2 = PredictionError("unknown ids", [f"id{i}" for i in range(30)], path="p.csv")
    assert "30 offender(s)" in str(e2) and "'id0'" in str(e2) and "20 more" in str(e2)


def test_mean_ci_matches_naive_bootstrap_distribution():
    rng = np.random.default_rng(0)
    x = (rng.random(500) < 0.7).astype(float)
    v, lo, hi = mean_ci(x, n_boot=4000, seed=1, alpha=0.05)
    naive = [x[rng.integers(0, 500, 500)].mean() for _ in range(4000)]
    nlo, nhi = np.quantile(naive, [0.025, 0.975])
    assert v == pytest.approx(x.mean())
    assert lo == pytest.approx(nlo, abs=0.01) and hi == pytest.approx(nhi, abs=0.01)
    assert lo <= v <= hi


def test_mean_metric_properties():
    m = mean_metric("acc", [1, 1, 1, 1], n_boot=100, alpha=0.05)
    assert (m.value, m.ci_low, m.ci_high, m.n) == (1.0, 1.0, 1.0, 4)
    assert mean_metric("acc", [], n_boot=100, alpha=0.05).value is None
    a = mean_metric("acc", [1, 0, 1, 1, 0], n_boot=200, seed=3, alpha=0.05)
    b = mean_metric("acc", [0, 1, 1, 0, 1], n_boot=200, seed=3, alpha=0.05)
    assert (a.value, a.ci_low, a.ci_high) == (b.value, b.ci_low, b.ci_high)  # order invariance


def test_bootstrap_metric_groups_resample_whole_groups():
    vals = np.array([1.0, 1.0, 0.0, 0.0, 1.0, 1.0])
    groups = np.array(["a", "a", "b", "b", "c", "c"])
    seen = set()

    def stat(idx):
        g = groups[idx]
        # every resampled group comes whole: counts per group are multiples of 2
        _, c = np.unique(g, return_counts=True)
        assert (c % 2 == 0).all()
        seen.add(len(idx))
        return float(vals[idx].mean())

    m = bootstrap_metric("x", stat, len(vals), groups=groups, n_boot=50, alpha=0.05)
    assert m.n == 3 and m.value == pytest.approx(4 / 6)
    assert seen == {6}
