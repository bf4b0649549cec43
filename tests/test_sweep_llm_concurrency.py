"""The openai-compatible adapter keeps ``max_concurrency`` requests in flight (no timing assertions)."""
from __future__ import annotations

from fake_openai import FakeOpenAI

from sentiprobe.models.llm import OpenAICompatibleModel
from sentiprobe.run.cache import PredictionCache
from sentiprobe.run.predictor import CachedPredictor


def test_default_batch_covers_the_concurrency():
    m = OpenAICompatibleModel(base_url="http://127.0.0.1:9/v1", model="x", max_concurrency=64)
    assert m.batch_size >= 4 * 64  # a batch ends in a barrier: smaller than the concurrency caps what is in flight
    assert OpenAICompatibleModel(base_url="http://127.0.0.1:9/v1", model="x").batch_size == 32
    assert OpenAICompatibleModel(base_url="http://127.0.0.1:9/v1", model="x", batch_size="3").batch_size == 3


def test_64_requests_in_flight_through_the_cached_predictor(tmp_path):
    with FakeOpenAI(delay=0.5, lifetime=60) as srv:
        m = OpenAICompatibleModel(base_url=srv.base_url, model="fake", max_concurrency=64, max_tokens=4)
        cache = PredictionCache.open(str(tmp_path))
        try:
            out = CachedPredictor(m, cache, progress=False).generate([f"prompt {i}" for i in range(128)])
        finally:
            cache.close()
            m.close()
        assert len(out) == 128 and srv.posts == 128
        assert srv.max_in_flight == 64  # with the old default batch of 32 prompts it was 32
