"""SENTiVENT lexicon features (docs/protocols/sentivent.md#lexicon-features): the worked example, malformed lexicons,
scaling on train+dev only, and an independent re-computation of the combination features on the shipped data."""
from __future__ import annotations

import numpy as np
import pytest
from test_sentivent_load import make_data_dir

from sentiprobe.core.errors import ConfigError, DataError
from sentiprobe.suites.sentivent import lexicon as lx

EXAMPLE = "The company witnessed a 3.1 % rise in traffic"


def _shipped(root):
    return [lx.read_lexicon_tsv(root / "sentivent" / rel, name, kind=kind) for name, (rel, kind) in lx.SHIPPED.items()]


@pytest.mark.realdata
def test_worked_example_golden(data_dir):
    f = lx.raw_features(EXAMPLE, _shipped(data_dir))
    assert f["henry_polarity-seqsum"] == 1.0
    assert f["henry_polarity-seqnorm"] == pytest.approx(1 / 9)
    assert f["henry_polarity-matchnorm"] == 1.0
    assert f["ntusd_market_sentiment-seqsum"] == pytest.approx(1.40197, abs=5e-6)
    assert f["ntusd_market_sentiment-seqnorm"] == pytest.approx(0.15577, abs=5e-6)
    assert f["ntusd_market_sentiment-matchnorm"] == pytest.approx(0.46732, abs=5e-6)
    assert all(v == 0.0 for k, v in f.items() if k.startswith("lm_"))
    assert len([k for k in f if k.startswith("lm_")]) == 30  # 7 lists + 3 derived, x 3 scores


def test_sequence_scores_and_zero_is_no_match(tmp_path):
    root = make_data_dir(tmp_path)
    lex = _shipped(root)
    f = lx.raw_features("Record loss and lawsuit may weak", lex)  # LM: record +, loss/lawsuit/weak -, may unc.
    assert f["lm_negative-seqsum"] == 3 and f["lm_negative-seqnorm"] == pytest.approx(3 / 6)
    assert f["lm_negative-matchnorm"] == 1.0  # zeros of other LM lists never count as matches
    assert f["lm_negativecombo-seqsum"] == 3 + 1 + 1  # negative + uncertainty (may) + litigious (lawsuit)
    assert f["lm_polarity-seqsum"] == 1 - 3 and f["lm_polaritycombo-seqsum"] == 1 - 5
    empty = lx.raw_features("", lex)
    assert set(empty) == set(f) and all(v == 0.0 for v in empty.values())


def test_malformed_lexicon_lines(tmp_path):
    p = tmp_path / "l.tsv"
    p.write_text("lex-uncased\tpolarity\ngood\t1\nbad\tminus\nTwo words\t1\nGreat\t1\ngood\t1\n", encoding="utf-8")
    with pytest.raises(DataError, match="not a number") as e:
        lx.read_lexicon_tsv(p, "x")
    assert e.value.record == "line 3" and e.value.field == "polarity" and e.value.path == str(p)
    lex = lx.read_lexicon_tsv(p, "x", strict=False)
    assert set(lex.entries) == {"good", "great"}
    notes = " | ".join(lex.notes)
    assert "line 3 skipped" in notes and "line 4 skipped" in notes and "lower-cased" in notes
    assert "duplicate entry 'good' with identical values" in notes
    p.write_text("lex-uncased\tpolarity\ngood\t1\ngood\t-1\n", encoding="utf-8")
    with pytest.raises(DataError, match="different values"):
        lx.read_lexicon_tsv(p, "x")
    p.write_text("word\tpolarity\ngood\t1\n", encoding="utf-8")
    with pytest.raises(DataError, match="lex-uncased"):
        lx.read_lexicon_tsv(p, "x")
    p.write_text("lex-uncased\tpolarity\ngood\t1\t2\n", encoding="utf-8")
    with pytest.raises(DataError, match="fields"):
        lx.read_lexicon_tsv(p, "x")


def test_scaling_uses_train_and_dev_only(tmp_path):
    lex = tuple(_shipped(make_data_dir(tmp_path)))
    fit_texts = ["profit rise", "weak loss", "growth", "declined demand", "stock hits"]
    feat = lx.LexiconFeaturizer(lex, "lexecon")
    test_a = ["profit"]
    test_b = ["profit rise growth increase profit rise"]  # extreme: clipped, never refits
    rows_a = feat.fit_transform(fit_texts + test_a, [True] * 5 + [False])
    scalers = dict(feat.scalers)
    rows_b = feat.fit_transform(fit_texts + test_b, [True] * 5 + [False])
    assert feat.scalers == scalers
    assert rows_a[:5] == rows_b[:5]
    combo = [k for k in rows_b[0] if k.startswith("econcombo_")]
    assert len(combo) == 6 and list(rows_b[0])[-6:] == combo
    assert all(-3.0 <= r[k] <= 3.0 for r in rows_b for k in combo if k.endswith("sum"))
    assert all(-1.0 <= r[k] <= 1.0 for r in rows_b for k in combo if k.endswith("mean"))
    assert rows_b[-1]["econcombo_polarity-seqsummean"] >= rows_a[-1]["econcombo_polarity-seqsummean"]


def test_settings(tmp_path):
    lex = _shipped(make_data_dir(tmp_path))
    assert lx.setting_lexicons("nolex", lex) == ()
    with pytest.raises(ConfigError, match="MSOL"):
        lx.setting_lexicons("lexall", lex)
    with pytest.raises(ConfigError, match="unknown lexicon setting"):
        lx.setting_lexicons("everything", lex)
    assert "SentiEcon not available" in lx.setting_label("lexecon")


def test_vader_setting_is_labelled(tmp_path):
    pytest.importorskip("vaderSentiment")
    lex = lx.setting_lexicons("lexecon+vader", _shipped(make_data_dir(tmp_path)))
    assert lex[-1].name == "vader" and lex[-1].kind == "general"
    feat = lx.LexiconFeaturizer(lex, "lexecon+vader")
    rows = feat.fit_transform(["good profit", "bad loss", "great growth", "terrible weak demand"], [True] * 4)
    assert "allcombo_polarity-seqnormsum" in rows[0] and "vader_polarity-seqsum" in rows[0]
    assert "not a setting of the paper" in feat.describe()["label"]


@pytest.mark.realdata
def test_combos_match_an_independent_computation(data_dir):
    """econcombo columns re-computed with pandas quantiles + scikit-learn's MinMaxScaler on non-test rows."""
    import pandas as pd
    from sklearn.preprocessing import MinMaxScaler

    from sentiprobe.suites import get_suite
    from sentiprobe.suites.sentivent.data import all_items, lexicon_info

    suite = get_suite("sentivent-polar", data_dir)
    items = all_items(suite)
    feats = pd.DataFrame([it.features for it in items])
    fit = np.array([it.split != "test" for it in items])
    for s in lx.SCORES:
        cols = [f"henry_polarity-{s}", f"ntusd_market_sentiment-{s}", f"lm_polarity-{s}"]
        X = feats[cols]
        lower = X[fit].apply(lambda c: np.quantile(c[c < 0], 0.05))
        upper = X[fit].apply(lambda c: np.quantile(c[c > 0], 0.95))
        scaler = MinMaxScaler((-1, 1)).fit(X[fit].clip(lower=lower, upper=upper, axis=1))
        scaled = scaler.transform(X.clip(lower=lower, upper=upper, axis=1))
        np.testing.assert_allclose(feats[f"econcombo_polarity-{s}sum"], scaled.sum(axis=1), atol=1e-9)
        np.testing.assert_allclose(feats[f"econcombo_polarity-{s}mean"], scaled.mean(axis=1), atol=1e-9)
    info = lexicon_info(suite)
    assert info["setting"] == "lexecon" and "secon" in info["not_available"]
    henry = next(x for x in info["lexicons"] if x["name"] == "henry")
    assert henry["entries"] == 189 and any("leading" in n for n in henry["notes"])
    assert len({tuple(it.features) for it in items}) == 1  # same keys, same order for every item
