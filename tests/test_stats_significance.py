"""Significance tests: McNemar's exact/chi-square switch, paired bootstrap, compare_systems' document."""
from __future__ import annotations

import json

import numpy as np
import pytest

from sentiprobe.stats.metrics_common import classification_report
from sentiprobe.stats.significance import compare_systems, mcnemar, paired_bootstrap

LABELS = ("negative", "neutral", "positive")


def _systems(n=300, seed=0):
    rng = np.random.default_rng(seed)
    y = rng.choice(LABELS, n).tolist()

    def noisy(p):
        return [t if rng.random() < p else rng.choice([x for x in LABELS if x != t]) for t in y]

    return y, {"good": noisy(0.8), "mid": noisy(0.7), "bad": noisy(0.5)}


def test_mcnemar_exact_switch():
    a = np.array([1] * 10 + [0] * 5 + [1] * 50, dtype=bool)
    b = np.array([0] * 10 + [1] * 5 + [1] * 50, dtype=bool)
    r = mcnemar(a, b)  # b + c = 15 < 25: exact binomial
    assert r.method == "exact-binomial" and r.counts["b"] == 10 and r.counts["c"] == 5
    from scipy.stats import binomtest

    assert r.p_value == pytest.approx(binomtest(5, 15, 0.5).pvalue)
    big_a = np.concatenate([a, a])
    big_b = np.concatenate([b, b])
    r2 = mcnemar(big_a, big_b)  # 30 discordant pairs: continuity-corrected chi-square
    assert r2.method == "chi2-continuity-corrected" and r2.statistic == pytest.approx((20 - 10 - 1) ** 2 / 30)
    assert mcnemar(a, b, exact_below=10).method == "chi2-continuity-corrected"
    with pytest.raises(ValueError):
        mcnemar(a, b[:-1])


def test_paired_bootstrap_named_and_callable_agree():
    from sklearn.metrics import accuracy_score, f1_score

    y, s = _systems()
    named = paired_bootstrap(y, s["good"], s["bad"], metric="accuracy", labels=LABELS, n_boot=400)
    func = paired_bootstrap(y, s["good"], s["bad"], metric=accuracy_score, n_boot=400)
    assert named.delta == pytest.approx(func.delta)
    assert named.ci_low == pytest.approx(func.ci_low, abs=0.03) and named.ci_high == pytest.approx(func.ci_high,
                                                                                                   abs=0.03)
    assert named.p_value < 0.01 and func.p_value < 0.01
    mf = paired_bootstrap(y, s["good"], s["mid"], metric="macro_f1", labels=LABELS, n_boot=300)
    ref = f1_score(y, s["good"], average="macro") - f1_score(y, s["mid"], average="macro")
    assert mf.delta == pytest.approx(ref)
    again = paired_bootstrap(y, s["good"], s["mid"], metric="macro_f1", labels=LABELS, n_boot=300)
    assert again == mf  # seeded, deterministic
    with pytest.raises(ValueError, match="unknown metric"):
        paired_bootstrap(y, y, y, metric="nope", labels=LABELS)


def test_compare_systems_document():
    y, s = _systems()
    doc = compare_systems(y, s, LABELS, n_boot=200)
    json.dumps(doc)  # JSON-able
    assert doc["reference"] == "good" and doc["systems"] == ["good", "mid", "bad"]
    assert doc["cochran_q"]["df"] == 2 and doc["cochran_q"]["reject"]
    assert len(doc["pairs"]) == 3
    holm = sorted(p["mcnemar"]["p_holm"] for p in doc["pairs"])
    raw = sorted(p["mcnemar"]["p_value"] for p in doc["pairs"])
    assert all(h >= r for h, r in zip(holm, raw))
    ref_pairs = [p for p in doc["pairs"] if p["involves_reference"]]
    assert len(ref_pairs) == 2 and all(p["a"] == "good" for p in ref_pairs)
    acc = classification_report(y, s["mid"], LABELS, n_boot=200).metrics["accuracy"]
    assert doc["metrics"]["mid"]["accuracy"]["value"] == pytest.approx(acc.value)
    with pytest.raises(ValueError, match="at least two"):
        compare_systems(y, {"a": s["good"]}, LABELS)
    doc2 = compare_systems(y, s, LABELS, reference="bad", n_boot=50)
    assert all(p["a"] == "bad" for p in doc2["pairs"] if p["involves_reference"])
