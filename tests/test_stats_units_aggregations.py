"""The engine's aggregations that replaced the score stages' own bootstraps: Spearman's rho, Pearson's r over
pairs grouped in units, corpus BLEU from per-unit statistics, and the triplet parse-failure rate over sentences.

Each point value is checked against an independent computation (scipy, numpy, sacreBLEU), and a resample's value
against the same computation on the units that resample drew."""
from __future__ import annotations

import math

import numpy as np
import pytest

from sentiprobe.core.errors import ConfigError
from sentiprobe.stats.units import UnitMetric, UnitScores, point, unit_metrics


def _draw(n: int, seed: int) -> np.ndarray:
    """How often each of ``n`` units is drawn in one resample."""
    return np.bincount(np.random.default_rng(seed).integers(0, n, n), minlength=n).astype(np.float64)


def test_spearman_is_scipys_and_a_resample_keeps_each_units_rank():
    from scipy.stats import spearmanr

    rng = np.random.default_rng(0)
    x = rng.integers(0, 6, 40).astype(float)  # ties, as ratings have
    y = x + rng.integers(-2, 3, 40)
    m = UnitMetric("spearman", {"x": x, "y": y}, {"min_units": 3}, kind="correlation")
    assert point(m, 40) == pytest.approx(float(spearmanr(x, y)[0]), abs=1e-15)
    c = _draw(40, 1)
    rx, ry = np.repeat(_ranks(x), c.astype(int)), np.repeat(_ranks(y), c.astype(int))
    assert m.block(c[None, :])[0] == pytest.approx(np.corrcoef(rx, ry)[0, 1], abs=1e-12)
    us = UnitScores("phrase", 40, 40, {"rho": m})
    got = unit_metrics(us, n_boot=200, seed=0, alpha=0.05)["rho"]
    assert got.ci_low < got.value < got.ci_high and got.n == 40
    constant = UnitMetric("spearman", {"x": x, "y": np.ones(40)}, kind="correlation")
    assert math.isnan(point(constant, 40))


def _ranks(a: np.ndarray) -> np.ndarray:
    from scipy.stats import rankdata

    return rankdata(a)


def test_pearson_over_slots_is_the_correlation_of_every_present_pair():
    rng = np.random.default_rng(2)
    n = 30
    xs, ys = rng.normal(size=(2, n)), rng.normal(size=(2, n))
    ys = ys + xs
    w = np.ones((2, n))
    w[:, :4] = 0  # phrases with no side rated (ALLCLEAN)
    arrays = {f"{c}_{j}": v[j] for j in range(2) for c, v in (("x", xs), ("y", ys), ("w", w))}
    m = UnitMetric("pearson_slots", arrays, {"slots": 2, "min_units": 3}, kind="correlation", n_units=n - 4)
    keep = w.T.reshape(-1) > 0  # unit order, a unit's slots in slot order
    fx, fy = xs.T.reshape(-1)[keep], ys.T.reshape(-1)[keep]
    assert point(m, n) == pytest.approx(np.corrcoef(fx, fy)[0, 1], abs=1e-14)
    c = _draw(n, 3)
    rep = np.repeat(np.arange(n), c.astype(int))
    dx = np.concatenate([[xs[j, k] for j in range(2) if w[j, k]] for k in rep])
    dy = np.concatenate([[ys[j, k] for j in range(2) if w[j, k]] for k in rep])
    assert m.block(c[None, :])[0] == pytest.approx(np.corrcoef(dx, dy)[0, 1], abs=1e-12)
    got = unit_metrics(UnitScores("phrase", n, 7 * n, {"r": m}), n_boot=100, seed=0, alpha=0.05)["r"]
    assert got.n == n - 4 and got.ci_low <= got.value <= got.ci_high
    with pytest.raises(ConfigError, match="slots"):
        UnitMetric("pearson_slots", arrays, {"slots": 0})
    with pytest.raises(ConfigError, match="w_1"):
        UnitMetric("pearson_slots", {k: v for k, v in arrays.items() if k != "w_1"}, {"slots": 2})


def test_corpus_bleu_from_per_review_statistics_is_sacrebleus():
    pytest.importorskip("sacrebleu")
    from sacrebleu.metrics import BLEU

    from sentiprobe.suites.soul.textmetrics import bleu_units

    rng = np.random.default_rng(7)
    words = ["the", "food", "was", "good", "bad", "great", "service", "slow", "fast", "and"]
    cands = [" ".join(rng.choice(words, rng.integers(1, 9))) for _ in range(40)]
    refs = [" ".join(rng.choice(words, 6)) for _ in range(40)]
    cands[5] = ""
    groups = [f"r{i // 3}" for i in range(40)]
    m, info = bleu_units(cands, refs, groups)
    assert isinstance(m, UnitMetric) and m.length() == 14 and "13a" in info["signature"]
    assert point(m, 14) == min(1.0, BLEU().corpus_score(cands, [refs]).score / 100)  # to the last bit
    c = _draw(14, 5)
    drawn = [i for k in range(14) for _ in range(int(c[k])) for i in range(40) if groups[i] == f"r{k}"]
    again = BLEU().corpus_score([cands[i] for i in drawn], [[refs[i] for i in drawn]]).score / 100
    assert m.block(c[None, :])[0] == pytest.approx(min(1.0, again), abs=1e-12)
    same, _ = bleu_units(refs, refs, groups)
    assert point(same, 14) == 1.0
    # the one confidence level is the engine's: it sets the interval's width
    us = UnitScores("review", 14, 40, {"bleu": m})
    wide = unit_metrics(us, n_boot=200, seed=3, alpha=0.01)["bleu"]
    narrow = unit_metrics(us, n_boot=200, seed=3, alpha=0.3)["bleu"]
    assert wide.ci_low < narrow.ci_low <= narrow.ci_high < wide.ci_high and wide.value == narrow.value


def test_triplet_parse_failures_over_sentences_keep_the_share_of_failed_records():
    from sentiprobe.suites.triplets.score import failure_rate_units

    per_sentence = np.array([[0, 1], [1, 2], [0, 0], [2, 3], [0, 1]], dtype=float)  # (failed, records)
    unattributed = 3  # records naming no test sentence
    m = failure_rate_units(per_sentence, unattributed, note="")
    f, r = per_sentence.sum(axis=0)
    assert point(m, 5) == (f + unattributed) / (r + unattributed)  # the old mean over records, to the last bit
    for seed in range(5):  # every resample carries all unattributed records, whatever sentences it draws
        c = _draw(5, seed)
        want = (c @ per_sentence[:, 0] + unattributed) / (c @ per_sentence[:, 1] + unattributed)
        assert m.block(c[None, :])[0] == pytest.approx(want, abs=1e-15)
    assert not m.higher_is_better
