"""The openai-compatible adapter against the fault-injecting fake server (tests/fake_openai.py)."""
from __future__ import annotations

import logging
import time
from pathlib import Path

import pytest

from fake_openai import FALSE_MARK, TRUE_MARK, FakeOpenAI, answer_for
from sentiprobe.core.errors import ConfigError, SentiprobeError
from sentiprobe.models import MODELS, create_model
from sentiprobe.models.http_retry import LLMError, parse_retry_after
from sentiprobe.models.llm import OpenAICompatibleModel
from sentiprobe.models.llm import configure
from sentiprobe.run.cache import PredictionCache
from sentiprobe.run.predictor import CachedPredictor

SECRET = "sk-test-THIS-IS-A-SECRET-0123456789abcdef"
FAST = {"timeout": "0.5", "backoff": "0.01", "max_backoff": "0.05"}  # strings, as the CLI passes them


@pytest.fixture(autouse=True)
def _env():
    configure(api_key=SECRET)  # what the CLI does with SENTIPROBE_LLM_API_KEY (only cli/ reads the environment)
    yield
    configure()


def make(srv: FakeOpenAI, **kw) -> OpenAICompatibleModel:
    args = {"base_url": srv.base_url, "model": "fake", **FAST, **kw}
    return create_model("openai-compatible", **args)


PROMPTS = [f"review {i}: is it good? {TRUE_MARK if i % 2 else FALSE_MARK}" for i in range(6)]
EXPECTED = [answer_for(p) for p in PROMPTS]


def test_registered_and_light():
    e = MODELS.entry("openai-compatible")
    assert "api_key" in e.params and "base_url" in e.params


@pytest.mark.parametrize("endpoint", ["chat", "completions"])
def test_normal_answers_and_payloads(endpoint):
    with FakeOpenAI() as srv:
        m = make(srv, endpoint=endpoint, max_tokens="12", stop="\n")
        assert m.generate(PROMPTS, system="Be brief.") == EXPECTED
        req = srv.requests[0]
        body = req["body"]
        assert req["auth"] == f"Bearer {SECRET}"
        assert body["model"] == "fake" and body["max_tokens"] == 12 and body["temperature"] == 0.0
        assert body["stop"] == ["\n"] and body["n"] == 1
        if endpoint == "chat":
            assert req["path"] == "/v1/chat/completions"
            assert body["messages"][0] == {"role": "system", "content": "Be brief."}
            assert body["messages"][1]["role"] == "user" and body["messages"][1]["content"].startswith("review ")
            assert "prompt" not in body
        else:
            assert req["path"] == "/v1/completions"
            assert body["prompt"].startswith("Be brief.\n\nreview ") and "messages" not in body
        m.close()


def test_chat_messages_prompt_and_completions_refuses_them():
    msgs = [{"role": "system", "content": "S"}, {"role": "user", "content": f"x {TRUE_MARK}"}]
    with FakeOpenAI() as srv:
        assert make(srv).generate([msgs]) == ["true"]
        assert srv.requests[0]["body"]["messages"] == msgs
        with pytest.raises(ConfigError, match="string prompts"):
            make(srv, endpoint="completions").generate([msgs])
        with pytest.raises(ConfigError, match="unknown argument"):
            make(srv).generate(["x"], frequency=1)


@pytest.mark.parametrize("fault", ["429", "500", "503", "slow", "truncate", "nonjson", "badjson"])
def test_survives_each_fault(fault):
    with FakeOpenAI(faults=[fault, fault], slow_s=1.0) as srv:
        m = make(srv, max_concurrency="1", max_retries="3")
        assert m.generate(PROMPTS[:3]) == EXPECTED[:3]
        assert srv.posts == 5  # two failures, then three good answers
        m.close()


def test_survives_mixed_faults_concurrently():
    faults = ["429", "500", "truncate", "nonjson", "slow", "503", "badjson", "ok"] * 2
    with FakeOpenAI(faults=faults, slow_s=1.0) as srv:
        m = make(srv, max_concurrency="4", max_retries="6")
        prompts = PROMPTS + [f"plain prompt {i}" for i in range(10)]
        assert m.generate(prompts) == [answer_for(p) for p in prompts]
        m.close()


def test_retry_after_is_honoured():
    with FakeOpenAI(faults=["429"], retry_after="1") as srv:
        m = make(srv, max_concurrency="1")
        t0 = time.perf_counter()
        assert m.generate(PROMPTS[:1]) == EXPECTED[:1]
        assert time.perf_counter() - t0 >= 0.95  # backoff alone would be <= 0.05 s
    assert parse_retry_after("2.5") == 2.5 and parse_retry_after("junk") is None
    assert parse_retry_after("Wed, 21 Oct 2015 07:28:00 GMT") == 0.0  # a date in the past


def test_typed_error_after_max_retries(caplog):
    with FakeOpenAI(faults=["500"] * 10) as srv:
        m = make(srv, max_concurrency="1", max_retries="2")
        with pytest.raises(LLMError) as ei:
            m.generate(PROMPTS[:1])
        assert isinstance(ei.value, SentiprobeError)
        assert ei.value.status == 500 and ei.value.attempts == 3 and srv.posts == 3
        assert "after 3 attempt(s)" in str(ei.value)


def test_client_error_not_retried():
    with FakeOpenAI(faults=["400"]) as srv:
        with pytest.raises(LLMError, match="HTTP 400"):
            make(srv, max_retries="5").generate(PROMPTS[:1])
        assert srv.posts == 1


def test_connection_refused_is_retried_then_typed_error():
    with FakeOpenAI() as srv:
        url = srv.base_url
    m = create_model("openai-compatible", base_url=url, model="fake", max_retries="2", **{**FAST, "timeout": "0.3"})
    with pytest.raises(LLMError, match="transport error|timeout") as ei:
        m.generate(["hello"])
    assert ei.value.attempts == 3


def test_concurrency_is_bounded():
    with FakeOpenAI(delay=0.15) as srv:
        m = make(srv, max_concurrency="3", timeout="5")
        prompts = [f"p{i}" for i in range(12)]
        assert m.generate(prompts) == [answer_for(p) for p in prompts]
        assert srv.max_in_flight == 3
    with FakeOpenAI(delay=0.05) as srv:
        make(srv, max_concurrency="1", timeout="5").generate(prompts[:4])
        assert srv.max_in_flight == 1


def test_cached_rerun_makes_zero_requests(tmp_path: Path, caplog):
    caplog.set_level(logging.DEBUG)
    cache = PredictionCache.open(tmp_path / "cache")
    prompts = PROMPTS + ["unmarked prompt"]
    with FakeOpenAI(faults=["429", "500", "truncate"]) as srv:
        m = make(srv, batch_size="3")
        first = CachedPredictor(m, cache, progress=False).generate(prompts, max_tokens=8)
        n = srv.posts
        assert first == [answer_for(p) for p in prompts] and n == len(prompts) + 3
        p2 = CachedPredictor(make(srv, batch_size="3"), cache, progress=False)
        assert p2.generate(prompts, max_tokens=8) == first
        assert srv.posts == n and p2.hits == len(prompts) and p2.computed == 0
        # a different template hash is a different fingerprint: recomputed
        m3 = make(srv)
        m3.template_hash = "abc123"
        assert m3.fingerprint != m.fingerprint
        CachedPredictor(m3, cache, progress=False).generate(prompts[:1], max_tokens=8)
        assert srv.posts == n + 1
    cache.close()
    _assert_no_secret(tmp_path, caplog)


def test_failed_batch_is_not_committed(tmp_path: Path):
    cache = PredictionCache.open(tmp_path / "cache")
    with FakeOpenAI() as srv:
        m = make(srv, batch_size="2", max_concurrency="1", max_retries="1")
        pred = CachedPredictor(m, cache, progress=False)
        srv.faults.extend(["ok", "ok", "ok", "500", "500"])  # batch 1 fine; batch 2 fails on its 2nd prompt
        with pytest.raises(LLMError):
            pred.generate(PROMPTS[:4])
        assert pred.computed == 2
        n = srv.posts
        pred2 = CachedPredictor(make(srv, batch_size="2"), cache, progress=False)
        assert pred2.generate(PROMPTS[:4]) == EXPECTED[:4]
        assert pred2.hits == 2 and srv.posts == n + 2


def test_key_never_leaks(tmp_path: Path, caplog):
    caplog.set_level(logging.DEBUG)
    with FakeOpenAI(faults=["echo_auth", "500", "500"]) as srv:
        m = make(srv, max_retries="1")
        assert SECRET not in repr(m) and SECRET not in str(m.config()) and SECRET not in m.fingerprint
        assert SECRET not in str(vars(m).get("policy"))
        with pytest.raises(LLMError) as e1:
            m.generate(["a"])
        assert srv.requests[0]["auth"] == f"Bearer {SECRET}"  # the server did get the key ...
        assert SECRET not in str(e1.value) and "***" in str(e1.value)  # ... but the error text hides it
        with pytest.raises(LLMError) as e2:
            m.generate(["b"])
        texts = [str(e1.value), str(e2.value), repr(e1.value), e1.value.reason, e2.value.reason]
        assert all(SECRET not in t for t in texts)
    _assert_no_secret(tmp_path, caplog)


def _assert_no_secret(tmp_path: Path, caplog) -> None:
    assert SECRET not in caplog.text
    for rec in caplog.records:
        assert SECRET not in rec.getMessage()
    for p in tmp_path.rglob("*"):
        if p.is_file():
            assert SECRET.encode() not in p.read_bytes(), p


def test_config_and_arguments(monkeypatch):
    with pytest.raises(ConfigError, match="environment"):
        create_model("openai-compatible", base_url="http://127.0.0.1:1/v1", model="m", api_key="sk-x")
    with pytest.raises(ConfigError, match="credentials"):
        create_model("openai-compatible", base_url="http://u:pw@127.0.0.1:1/v1", model="m")
    with pytest.raises(ConfigError, match="query"):
        create_model("openai-compatible", base_url="http://127.0.0.1:1/v1?api_key=x", model="m")
    with pytest.raises(ConfigError, match="base URL"):
        create_model("openai-compatible", model="m")
    with pytest.raises(ConfigError, match="model name"):
        create_model("openai-compatible", base_url="http://127.0.0.1:1/v1")
    for bad in ({"max_concurrency": "zero"}, {"endpoint": "embeddings"}, {"timeout": "-1"}, {"max_retries": "1.5"}):
        with pytest.raises(ConfigError):
            create_model("openai-compatible", base_url="http://127.0.0.1:1/v1", model="m", **bad)
    from sentiprobe.core import env

    previous = env.install({"SENTIPROBE_LLM_BASE_URL": "http://127.0.0.1:9/v1/", "SENTIPROBE_LLM_MODEL": "envmodel",
                            "SENTIPROBE_LLM_API_KEY": SECRET})  # what `sentiprobe` installs from os.environ
    m = create_model("openai-compatible", temperature="0.5", max_tokens="7")
    cfg = m.config()
    assert cfg["base_url"] == "http://127.0.0.1:9/v1" and cfg["model"] == "envmodel"
    assert cfg["temperature"] == 0.5 and cfg["max_tokens"] == 7 and cfg["template_hash"] is None
    assert m.capabilities == frozenset({"generate"})
    fp = m.fingerprint
    m.template_hash = "t1"
    assert m.fingerprint != fp
    # settings that do not change outputs do not change the fingerprint
    m2 = create_model("openai-compatible", temperature="0.5", max_tokens="7", max_concurrency="9", timeout="3")
    assert m2.fingerprint == fp
    env.install({"OPENAI_BASE_URL": "https://api.example.invalid/v1", "SENTIPROBE_LLM_MODEL": "m",
                 "OPENAI_API_KEY": SECRET})
    try:
        assert create_model("openai-compatible").base_url == "https://api.example.invalid/v1"
    finally:
        env.install(previous)


def test_score_labels_via_echo_logprobs(tmp_path: Path):
    with FakeOpenAI() as srv:
        m = make(srv, score_labels="true")
        assert "score_labels" in m.capabilities
        payloads = [{"prompt": f"Answer: {TRUE_MARK}", "options": ["true", "false", "not given"]},
                    {"prompt": f"Answer: {FALSE_MARK}", "options": ["true", "false"]}]
        cache = PredictionCache.open(tmp_path / "c")
        out = CachedPredictor(m, cache, progress=False).call("score_labels", payloads)
        assert out[0] == {"true": -0.5, "false": -3.0, "not given": -6.0}
        assert max(out[1], key=out[1].get) == "false"
        body = srv.requests[0]["body"]
        assert body["echo"] is True and body["logprobs"] == 1 and body["prompt"].startswith("Answer: ")
        n = srv.posts
        assert CachedPredictor(make(srv, score_labels="true"), cache, progress=False).call(
            "score_labels", payloads) == out
        assert srv.posts == n
        with pytest.raises(ConfigError, match="score_labels=true"):
            make(srv).score_labels(payloads)
        with pytest.raises(ConfigError, match="chat messages"):
            m.score_labels([{"prompt": [{"role": "user", "content": "x"}], "options": ["a"]}])
    with FakeOpenAI(logprobs=False) as srv, pytest.raises(LLMError, match="logits_all"):
        make(srv, score_labels="true", max_retries="0").score_labels(payloads[:1])


def test_option_logprob_token_alignment():
    from sentiprobe.models.llm import option_logprob

    full = "<|im_start|>user\nQ?<|im_end|>\n<|im_start|>assistant\nnot-given"
    start = full.index("not-given")
    # llama.cpp style: special tokens detokenise to "" (offsets skip them), no generated token listed
    toks = ["", "user", "\n", "Q", "?", "", "\n", "", "assistant", "\n", "not", "-", "given"]
    vals = [None, -1, -1, -1, -1, -1, -1, -1, -1, -1, -0.5, -0.25, -0.125]
    assert option_logprob(toks, vals, None, full, start, full) == -0.875
    assert option_logprob(toks, vals, None, full, start, full + "\n") == -0.875  # generated "\n" not listed
    # OpenAI style: the generated token is listed, and it spells the option again
    toks2 = ["Answer", ":", " true", " true"]
    full2 = "Answer: true"
    assert option_logprob(toks2, [None, -1, -0.5, -9], [0, 6, 7, 12], full2, 7, full2 + " true") == -0.5
    # a token straddling the separator counts wholly; offsets fallback when the text is not echoed
    assert option_logprob(toks2, [None, -1, -0.5, -9], [0, 6, 7, 12], full2, 8, None) == -0.5
    with pytest.raises(Exception, match="do not end with"):
        option_logprob(["a", "b"], [None, -1], None, "ab c", 3, "ab c")


def test_token_param_and_unknown_args():
    with FakeOpenAI() as srv:
        m = make(srv, token_param="max_completion_tokens", max_tokens="9")
        assert m.generate(PROMPTS[:1]) == EXPECTED[:1]
        body = srv.requests[0]["body"]
        assert body["max_completion_tokens"] == 9 and "max_tokens" not in body
        with pytest.raises(ConfigError, match="unknown argument"):
            make(srv, temprature="0")
