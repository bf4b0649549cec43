"""SOUL scoring on tiny synthetic fixtures: metric names, docs/protocols/soul.md#rc-metrics conventions vs scikit-learn,
missing / unparseable predictions, review-level bootstrap, JG text metrics, prediction files."""
from __future__ import annotations

import json

import numpy as np
import pytest

from sentiprobe.core.errors import ConfigError, PredictionError
from sentiprobe.core.types import Item, Prediction
from sentiprobe.stats.metrics_common import classification_report
from sentiprobe.suites import SUITES, get_suite
from sentiprobe.suites.soul.predfile import read_soul_predictions

LABELS = ("true", "false", "not-given")
RC_METRICS = {"accuracy", "f1_true", "f1_false", "f1_not_given", "macro_f1", "accuracy_lenient",
              "parse_failure_rate", "parse_failure_rate_lenient"}
TEXT_METRICS = {"bleu", "rouge1", "rouge2", "rougeL", "bertscore_f1"}


def make_items(n_reviews: int = 12, per_review: int = 3) -> list[Item]:
    out = []
    for r in range(n_reviews):
        rid = f"yelp-{r}"
        for k in range(per_review):
            lab = LABELS[(r + k) % 3]
            out.append(Item(f"{rid}:{k + 1}", rid, "test", f"Review {r}: the soup was hot and the staff kind.", lab,
                            text_pair=f"The reviewer statement {k}.",
                            meta={"rid": rid, "justification": f"The reviewer says the soup was hot {k}."}))
    return out


@pytest.fixture()
def rc(tmp_path):
    return get_suite("soul-rc", tmp_path)


@pytest.fixture()
def jg(tmp_path):
    return get_suite("soul-jg", tmp_path, bertscore=False)


def test_rc_metric_names_and_perfect_score(rc):
    items = make_items()
    res = rc.score(items, [Prediction(i.item_id, i.label) for i in items], n_boot=50)
    assert set(res.metrics) == RC_METRICS
    for k in ("accuracy", "f1_true", "f1_false", "f1_not_given", "macro_f1", "accuracy_lenient"):
        assert res.metrics[k].value == pytest.approx(1.0)
    assert res.metrics["parse_failure_rate"].value == 0.0
    assert res.metrics["parse_failure_rate"].higher_is_better is False
    assert res.metrics["accuracy"].n == 12  # n = reviews (bootstrap unit)
    d = res.details
    assert d["n_statements"] == 36 and d["n_reviews"] == 12
    assert d["train_source"] == "dev (stand-in: official train split unpublished)"
    assert d["prompt_template"]["name"] == "rc-chat" and d["prompt_template"]["hash"]


def test_rc_matches_sklearn_with_junk_classes(rc):
    items = make_items(20, 4)
    rng = np.random.default_rng(3)
    replies = []
    for it in items:
        u = rng.random()
        replies.append(it.label if u < 0.5 else ("False." if u < 0.65 else ("Not given" if u < 0.75 else
                                                                             LABELS[int(rng.integers(3))])))
    preds = [Prediction(i.item_id, r if r in LABELS else None, raw=r, parse_ok=r in LABELS)
             for i, r in zip(items, replies)]
    res = rc.score(items, preds, n_boot=0)
    from sklearn.metrics import accuracy_score
    from sklearn.metrics import classification_report as skl

    gold = [i.label for i in items]
    norm = [r.lower().strip() for r in replies]
    ref = skl(gold, norm, output_dict=True, zero_division=0)  # class set = union incl. junk strings
    assert res.metrics["accuracy"].value == pytest.approx(accuracy_score(gold, norm))
    for lab in LABELS:
        assert res.metrics[f"f1_{lab.replace('-', '_')}"].value == pytest.approx(ref[lab]["f1-score"])
    assert res.metrics["macro_f1"].value == pytest.approx(np.mean([ref[lab]["f1-score"] for lab in LABELS]))
    fails = sum(r not in LABELS for r in replies)
    assert res.metrics["parse_failure_rate"].value == pytest.approx(fails / len(items))
    lenient = ["not-given" if r == "Not given" else ("false" if r == "False." else r) for r in replies]
    assert res.metrics["accuracy_lenient"].value == pytest.approx(accuracy_score(gold, lenient))
    junk = {j["reply"]: j["count"] for j in res.details["junk_predictions"]}
    counts = {"false.": replies.count("False."), "not given": replies.count("Not given")}
    assert junk == {k: v for k, v in counts.items()
                    if v}


def test_constant_prediction_scores_exactly(rc):
    items = make_items(9, 3)
    res = rc.score(items, [Prediction(i.item_id, "true") for i in items], n_boot=0)
    n_true = sum(i.label == "true" for i in items)
    p, r = n_true / len(items), 1.0
    assert res.metrics["accuracy"].value == pytest.approx(p)
    assert res.metrics["f1_true"].value == pytest.approx(2 * p * r / (p + r))
    assert res.metrics["f1_false"].value == 0.0 and res.metrics["f1_not_given"].value == 0.0


def test_missing_predictions(rc):
    items = make_items(4, 3)
    preds = [Prediction(i.item_id, i.label) for i in items[:-2]]
    with pytest.raises(PredictionError, match="missing predictions"):
        rc.score(items, preds)
    res = rc.score(items, preds, missing="wrong", n_boot=0)
    assert res.details["n_missing"] == 2
    assert res.metrics["accuracy"].value == pytest.approx(10 / 12)
    assert res.metrics["parse_failure_rate"].value == 0.0  # missing is not a parse failure
    with pytest.raises(PredictionError, match="outside the label set"):
        rc.score(items, [Prediction(i.item_id, "False.") for i in items])


def test_review_level_bootstrap(rc):
    # every statement of a review is right or wrong together: resampling reviews must widen the CI
    items = make_items(30, 5)
    preds = [Prediction(i.item_id, i.label if int(i.group_id.split("-")[1]) % 2 else None, raw="?", parse_ok=False)
             for i in items]
    res = rc.score(items, preds, n_boot=400, seed=1)
    acc = res.metrics["accuracy"]
    assert acc.value == pytest.approx(0.5) and acc.n == 30
    flat = classification_report([i.label for i in items], [p.label for p in preds], LABELS, n_boot=400,
                                 seed=1, alpha=0.05).metrics["accuracy"]
    assert (acc.ci_high - acc.ci_low) > 1.5 * (flat.ci_high - flat.ci_low)
    again = rc.score(items, preds, n_boot=400, seed=1).metrics["accuracy"]
    assert (again.ci_low, again.ci_high) == (acc.ci_low, acc.ci_high)
    pf = res.metrics["parse_failure_rate"]
    assert pf.value == pytest.approx(0.5) and pf.n == 30 and pf.ci_low < 0.5 < pf.ci_high


def test_jg_text_metrics(jg):
    items = make_items(6, 3)
    gold = [Prediction(i.item_id, i.label, text=i.meta["justification"]) for i in items]
    res = jg.score(items, gold, n_boot=50)
    assert set(res.metrics) == RC_METRICS | TEXT_METRICS
    for k in ("bleu", "rouge1", "rouge2", "rougeL"):
        assert res.metrics[k].value == pytest.approx(1.0)
        assert res.metrics[k].n == 6
    assert res.metrics["bertscore_f1"].value is None and "disabled" in res.metrics["bertscore_f1"].note
    assert "13a" in res.details["text_metrics"]["bleu"]["signature"]
    # a wrong label keeps its justification in the text metrics; an empty candidate scores 0
    mixed = [Prediction(p.item_id, "false", text="" if k == 0 else p.text) for k, p in enumerate(gold)]
    r2 = jg.score(items, mixed, n_boot=0)
    assert r2.metrics["rouge1"].value == pytest.approx(17 / 18)
    assert r2.details["text_metrics"]["n_empty_candidates"] == 1


def test_jg_classify_only_has_no_text_metrics(jg):
    items = make_items(3, 3)
    res = jg.score(items, [Prediction(i.item_id, i.label) for i in items], n_boot=0)
    for k in TEXT_METRICS:
        assert res.metrics[k].value is None and res.metrics[k].ci_method == "none"
        assert "no justifications" in res.metrics[k].note


def test_bertscore_packaged_minilm_records_layer(tmp_path):
    s = get_suite("soul-jg", tmp_path)
    items = make_items(2, 2)
    preds = [Prediction(i.item_id, i.label, text=t) for i, t in
             zip(items, [items[0].meta["justification"], "Totally unrelated words here.", "", "The soup was hot."])]
    res = s.score(items, preds, n_boot=20)
    m = res.metrics["bertscore_f1"]
    info = res.details["text_metrics"]["bertscore"]
    assert info["num_layers"] == 5 and info["rescale_with_baseline"] is False and info["idf"] is False
    assert "MiniLM" in info["model"] and "layer 5" in m.note
    assert 0.0 < m.value < 1.0


def test_prediction_files(tmp_path):
    p = tmp_path / "preds.csv"
    p.write_text("item_id,label,justification\nyelp-0:1,False.,It is not said.\nyelp-0:2,Not given,\n"
                 "yelp-0:3,not-given,\"A, quoted \"\"one\"\"\"\n", encoding="utf-8")
    rc_preds = read_soul_predictions(p, "rc")
    assert [x.label for x in rc_preds] == [None, None, "not-given"]
    assert [x.meta["label_lenient"] for x in rc_preds] == ["false", "not-given", "not-given"]
    assert rc_preds[0].raw == "False." and rc_preds[0].text is None
    jg_preds = read_soul_predictions(p, "jg")
    assert [x.label for x in jg_preds] == ["false", "not-given", "not-given"]
    assert [x.text for x in jg_preds] == ["It is not said.", "", 'A, quoted "one"']


def test_reference_format_file_maps_ids_and_checks_statements(tmp_path, rc):
    items = make_items(2, 2)
    p = tmp_path / "ref.csv"
    rows = ["rid,statement,prediction,output"]
    rows += [f'{i.meta["rid"]},{i.text_pair},{i.label},"{i.label}"' for i in items]
    p.write_text("\n".join(rows) + "\n", encoding="utf-8")
    preds = read_soul_predictions(p, "rc")
    assert [x.item_id for x in preds] == [i.item_id for i in items]
    assert rc.score(items, preds, n_boot=0).metrics["accuracy"].value == 1.0
    swapped = [Prediction(q.item_id, q.label, meta={"statement": items[k].text_pair})
               for k, q in enumerate([preds[1], preds[0]] + preds[2:])]
    with pytest.raises(PredictionError, match="do not match"):
        rc.score(items, swapped)


def test_prediction_dump_roundtrip(tmp_path, rc):
    items = make_items(2, 2)
    preds = [Prediction(i.item_id, None if k == 0 else i.label, raw="Maybe" if k == 0 else i.label,
                        parse_ok=k != 0, meta={"label_lenient": None if k == 0 else i.label})
             for k, i in enumerate(items)]
    p = tmp_path / "soul-rc.jsonl"
    p.write_text("".join(json.dumps(x.to_dict()) + "\n" for x in preds), encoding="utf-8")
    back = rc.read_predictions(p)
    assert back == preds
    assert rc.score(items, back, n_boot=0).metrics["accuracy"].value == 0.75


# ---- options (the suite contract) ---------------------------------------------------------------------
def test_specs_and_options_recorded(tmp_path):
    rc, jg = SUITES.get("soul-rc"), SUITES.get("soul-jg")
    assert rc.labels == jg.labels == LABELS and rc.family == jg.family == "soul"
    assert rc.accepts == {"classify", "generate", "score_labels"} and jg.accepts == {"generate", "classify"}
    assert rc.input_kind == "text-pair" and rc.training is not None and rc.predict is not None
    s = get_suite("soul-jg", tmp_path, {"rouge_stemmer": "1", "max_tokens": "64", "bertscore_layers": "3"})
    opts = s.describe()["options"]
    assert opts["rouge_stemmer"] is True and opts["max_tokens"] == 64 and opts["bertscore_layers"] == 3
    assert opts["mode"] == "auto" and opts["train_file"] is None and opts["bertscore"] is True


def test_unknown_and_invalid_options(tmp_path):
    with pytest.raises(ConfigError, match="did you mean 'bertscore_layers'"):
        get_suite("soul-jg", tmp_path, {"bertscore_layer": "3"})
    with pytest.raises(ConfigError, match="not one of"):
        get_suite("soul-rc", tmp_path, {"mode": "sideways"})
    with pytest.raises(ConfigError, match="not one of"):
        get_suite("soul-rc", tmp_path, {"prompt_style": "poem"})
    for bad in ({"bertscore_layers": "99"}, {"bertscore_layers": "0"}, {"max_tokens": "0"},
                {"temperature": "2.5"}, {"temperature": "nan"}):
        with pytest.raises(ConfigError):
            get_suite("soul-jg", tmp_path, bad)


def test_env_is_not_read_by_the_suite(tmp_path, monkeypatch):
    from sentiprobe.cli.suite_args import parse_suite_args

    env = {"SENTIPROBE_SOUL_MODE": "score", "SENTIPROBE_SOUL_BERTSCORE": "0", "SENTIPROBE_SOUL_MAX_TOKENS": "24",
           "SENTIPROBE_SOUL_ROUGE_STEMMER": "1", "SENTIPROBE_SOUL_TRAIN_FILE": str(tmp_path / "train.csv")}
    for k, v in env.items():
        monkeypatch.setenv(k, v)
    s = get_suite("soul-rc", tmp_path)
    assert s.options == SUITES.get("soul-rc").options()  # all defaults: the suite ignores the environment
    # the CLI helper is what maps the variables to options (an explicit --suite-arg wins)
    args = parse_suite_args(["soul-rc:max_tokens=32"], ["soul-rc"], environ=env)["soul-rc"]
    assert args == {"mode": "score", "bertscore": "0", "max_tokens": "32", "rouge_stemmer": "1",
                    "train_file": str(tmp_path / "train.csv")}
    o = get_suite("soul-rc", tmp_path, args).options
    assert (o.mode, o.bertscore, o.max_tokens, o.rouge_stemmer) == ("score", False, 32, True)


def test_bertscore_layers_beyond_the_model_is_a_config_error(tmp_path):
    pytest.importorskip("bert_score")
    s = get_suite("soul-jg", tmp_path, bertscore_layers=7)  # the packaged MiniLM has 6 layers
    items = make_items(2, 2)
    preds = [Prediction(i.item_id, i.label, text=i.meta["justification"]) for i in items]
    from sentiprobe.core.errors import MissingExtraError
    from sentiprobe.models.assets import minilm_dir

    try:
        minilm_dir()
    except (MissingExtraError, ConfigError) as exc:  # the packaged encoder is an optional extra
        pytest.skip(f"packaged MiniLM unavailable: {exc}")
    with pytest.raises(ConfigError, match="has 6 layers"):
        s.score(items, preds, n_boot=0)
