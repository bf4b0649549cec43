"""Issue 15 for the openai-compatible adapter: secrets in replies, Ctrl-C, dead servers, deadlines.

Every test here talks only to 127.0.0.1 (the fake server of ``fake_openai.py``, or a port with nothing
listening) and bounds its own time: subprocesses are killed after a timeout, so a regression shows as a
failure, not as a hung test session. Measured times are printed (``pytest -s`` shows them).
"""
from __future__ import annotations

import os
import signal
import socket
import sqlite3
import subprocess
import sys
import threading
import time
from pathlib import Path

import pytest
from fake_openai import TRUE_MARK, FakeOpenAI, answer_for

from sentiprobe import api
from sentiprobe.core.errors import SentiprobeError
from sentiprobe.models import create_model
from sentiprobe.models.base import MODELS, ModelAdapter
from sentiprobe.models.http_retry import (
    LLMCircuitOpenError,
    LLMConnectionError,
    LLMDeadlineError,
    LLMFatalError,
    RequestGuard,
)
from sentiprobe.models.llm import configure
from sentiprobe.models.redaction import redact
from sentiprobe.run.cache import PredictionCache
from sentiprobe.run.predictor import CachedPredictor

SECRET = "sk-test-HARDENING-SECRET-0123456789abcdef"
FAST = {"timeout": "5", "backoff": "0.01", "max_backoff": "0.05"}
SRC = Path(__file__).resolve().parents[1] / "src"


@pytest.fixture(autouse=True)
def _env():
    configure(api_key=SECRET)  # what the CLI does with SENTIPROBE_LLM_API_KEY (only cli/ reads the environment)
    yield
    configure()


def _dead_url() -> str:
    """A base URL on a local port with nothing listening (bound, then released)."""
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        port = s.getsockname()[1]
    return f"http://127.0.0.1:{port}/v1"


def _files_with_secret(*roots: Path) -> list[str]:
    """Every file under ``roots`` whose bytes contain the key (sqlite, WAL and logs included)."""
    bad = []
    for root in roots:
        for p in root.rglob("*"):
            if p.is_file() and SECRET.encode() in p.read_bytes():
                bad.append(str(p))
    return bad


def _cli_env() -> dict[str, str]:
    env = {k: v for k, v in os.environ.items() if not k.startswith(("OPENAI_", "SENTIPROBE_LLM_"))}
    env.update(PYTHONPATH=str(SRC), SENTIPROBE_LLM_API_KEY=SECRET, HF_HUB_OFFLINE="1", TRANSFORMERS_OFFLINE="1",
               PYTHONUNBUFFERED="1")
    return env


def _cli_run(base_url: str, tmp_path: Path, data_dir: Path, *extra: str) -> list[str]:
    return [sys.executable, "-m", "sentiprobe", "run", "--suite", "soul-rc", "--model", "openai-compatible",
            "--model-arg", f"base_url={base_url}", "--model-arg", "model=fake", "--limit", "20",
            "--data-dir", str(data_dir), "--cache-dir", str(tmp_path / "cache"), "--out", str(tmp_path / "run"),
            "--n-boot", "0", "--no-progress", *extra]


# ---- secrets ---------------------------------------------------------------------------------------

def test_redact_hides_key_and_header_values():
    text = ('Authorization: Bearer sk-other-abcdefghijklmnop; {"api-key": "k-123456789"} x-api-key=zzz9 '
            f"bearer abcdefgh12345678 and {SECRET}")
    out = redact(text, [SECRET])
    for leaked in ("sk-other-abcdefghijklmnop", "k-123456789", "zzz9", "abcdefgh12345678", SECRET):
        assert leaked not in out, out
    assert "Authorization: Bearer ***" in out and '"api-key": "***"' in out and "x-api-key=***" in out
    for prose in ("true. The review says so.", "The bearer instruments were sold; authorization pending."):
        assert redact(prose, [SECRET]) == prose  # ordinary text intact


def test_echoed_key_is_redacted_in_replies_and_cache(tmp_path: Path):
    """Adapter + cache directly: the files are grepped while the cache is still open (its WAL exists)."""
    prompts = [f"review {i} {TRUE_MARK}" for i in range(6)]
    cache = PredictionCache.open(tmp_path / "cache")
    try:
        with FakeOpenAI(echo_auth=True) as srv:
            m = create_model("openai-compatible", base_url=srv.base_url, model="fake", batch_size="3", **FAST)
            outs = CachedPredictor(m, cache, progress=False).generate(prompts)
            assert srv.requests[0]["auth"] == f"Bearer {SECRET}"  # the server did get (and echo) the key
        assert all(o.startswith(answer_for(p)) and "Authorization: Bearer ***" in o and "token=***" in o
                   for o, p in zip(outs, prompts)), outs
        assert any(p.name.endswith("-wal") for p in tmp_path.rglob("*")), "the WAL should be grepped too"
        assert _files_with_secret(tmp_path) == []
    finally:
        cache.close()
    assert _files_with_secret(tmp_path) == []


@pytest.mark.realdata
def test_echoed_key_reaches_no_file_of_a_run(data_dir, tmp_path: Path):
    """A real SOUL run against a server that echoes the Authorization header into every reply."""
    with FakeOpenAI(echo_auth=True) as srv:
        api.run(["soul-rc"], ["openai-compatible"], model_args={"base_url": srv.base_url, "model": "fake", **FAST},
                out=tmp_path / "run", cache_dir=str(tmp_path / "cache"), data_dir=str(data_dir), limit=5,
                n_boot=0, progress=False)
        assert srv.posts >= 5 and all(r["auth"] == f"Bearer {SECRET}" for r in srv.requests)
    written = {p.name for p in tmp_path.rglob("*") if p.is_file()}
    assert {"results.json", "report.html", "run.log", "soul-rc.jsonl"} <= written, written
    pfile = tmp_path / "run" / "openai-compatible" / "predictions" / "soul-rc.jsonl"
    assert "Bearer ***" in pfile.read_text()  # the reply was kept
    assert _files_with_secret(tmp_path) == []


# ---- interrupts ------------------------------------------------------------------------------------

def test_interrupt_during_concurrent_requests_propagates_at_once():
    """Ctrl-C (SIGINT to the main thread) while 4 requests hang: KeyboardInterrupt, not a join."""
    with FakeOpenAI(delay=30.0, lifetime=40.0) as srv:
        m = create_model("openai-compatible", base_url=srv.base_url, model="fake", max_concurrency="4",
                         timeout="20", max_retries="5")
        main = threading.main_thread().ident
        fired: list[float] = []

        def interrupt_when_busy() -> None:
            t_end = time.monotonic() + 10
            while srv.posts < 4 and time.monotonic() < t_end:
                time.sleep(0.01)
            fired.append(time.monotonic())
            signal.pthread_kill(main, signal.SIGINT)

        threading.Thread(target=interrupt_when_busy, daemon=True).start()
        with pytest.raises(KeyboardInterrupt):
            m.generate([f"p{i}" for i in range(8)])
        latency = time.monotonic() - fired[0]
    print(f"in-process interrupt latency: {latency:.3f}s")
    assert latency < 5.0  # before: the pool joined the hanging requests (20 s timeout x 6 attempts)


@pytest.mark.realdata
@pytest.mark.parametrize("concurrency", ["1", "4"])
def test_ctrl_c_in_cli_exits_130_fast_and_keeps_finished_batches(data_dir, tmp_path: Path, concurrency):
    """The CLI against a server that answers one batch and then hangs; SIGINT after the hang begins.

    ``max_concurrency=1`` runs the requests in the main thread, 4 on the worker threads.
    """
    # one batch of 4 answers (soul-rc keeps its free-text protocol prompt under structured=auto: no probe)
    with FakeOpenAI(faults=["ok"] * 4 + ["slow"] * 100, slow_s=60.0, lifetime=120.0) as srv:
        cmd = _cli_run(srv.base_url, tmp_path, data_dir, "--model-arg", "batch_size=4",
                       "--model-arg", f"max_concurrency={concurrency}")
        proc = subprocess.Popen(cmd, env=_cli_env(), stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True)
        try:
            t_end = time.monotonic() + 60
            while srv.posts < 5 and time.monotonic() < t_end and proc.poll() is None:
                time.sleep(0.02)
            assert srv.posts >= 5, "the CLI never reached the hanging batch"
            time.sleep(0.2)  # let all 4 workers get stuck in their reads
            t0 = time.monotonic()
            proc.send_signal(signal.SIGINT)
            try:
                _, err = proc.communicate(timeout=30)
            except subprocess.TimeoutExpired:
                proc.kill()
                _, err = proc.communicate()
                pytest.fail("the CLI did not stop within 30 s of SIGINT")
            elapsed = time.monotonic() - t0
        finally:
            if proc.poll() is None:
                proc.kill()
                proc.wait()
    print(f"CLI SIGINT-to-exit (max_concurrency={concurrency}): {elapsed:.3f}s (rc {proc.returncode})")
    assert proc.returncode == 130, err
    assert "interrupted" in err and "Traceback" not in err, err
    assert elapsed < 5.0  # the requirement is 2 s; slack for interpreter teardown on a loaded machine
    with sqlite3.connect(tmp_path / "cache" / "cache.sqlite") as db:
        (n,) = db.execute("SELECT COUNT(*) FROM blobs").fetchone()
    assert n == 4  # the finished batch is in the cache


# ---- dead servers and deadlines --------------------------------------------------------------------

def test_guard_counts_consecutive_failures_of_every_kind():
    g = RequestGuard("http://h/v1", max_failures=3)
    for _ in range(2):
        g.connect_failed("refused")
    g.succeeded()  # a usable reply proves the server is up and answering
    g.failed("refused", "connect")
    g.failed("timed out", "timeout")
    with pytest.raises(LLMCircuitOpenError, match=r"http://h/v1 is not answering usably: 3 consecutive failures "
                                                  r"\(1 connection failure, 1 timeout, 1 unusable reply; last: html"):
        g.failed("html", "unusable")
    with pytest.raises(LLMCircuitOpenError):  # stays open
        g.check("chat request", "http://h/v1/chat/completions")


def test_circuit_breaker_trips_on_a_dead_server():
    url = _dead_url()
    m = create_model("openai-compatible", base_url=url, model="fake", max_concurrency="4", max_retries="10")
    t0 = time.monotonic()
    with pytest.raises(LLMCircuitOpenError) as ei:
        m.generate([f"p{i}" for i in range(8)])
    took = time.monotonic() - t0
    print(f"circuit breaker tripped after {took:.2f}s")
    err = ei.value
    assert isinstance(err, SentiprobeError) and isinstance(err, LLMFatalError)
    assert err.base_url == url and err.failures == 5 and url in str(err) and "5 consecutive" in str(err)
    assert took < 30.0  # 10 retries per request at the default backoff would take minutes
    t0 = time.monotonic()
    with pytest.raises(LLMCircuitOpenError):  # open for good: no new connection attempts
        m.generate(["again"])
    assert time.monotonic() - t0 < 0.5


def test_breaker_trips_on_connect_timeouts_at_defaults():
    """A host that drops connection attempts (a listener whose accept queue is full): connect timeouts.

    At the defaults (connect_timeout 5 s, 5 failures, 4 workers) the breaker trips after two rounds of
    connect timeouts, about 11 s; serially about 31 s (measured, not tested: too slow for the suite).
    """
    with socket.socket() as srv:
        srv.bind(("127.0.0.1", 0))
        srv.listen(0)
        url = f"http://127.0.0.1:{srv.getsockname()[1]}/v1"
        fill = [socket.socket() for _ in range(3)]
        try:
            for c in fill:
                c.setblocking(False)
                c.connect_ex(srv.getsockname())
            m = create_model("openai-compatible", base_url=url, model="fake")
            t0 = time.monotonic()
            with pytest.raises(LLMCircuitOpenError, match=r"5 consecutive failures \(5 connection failures"):
                m.generate([f"p{i}" for i in range(8)])
            took = time.monotonic() - t0
        finally:
            for c in fill:
                c.close()
    print(f"connect timeouts tripped the breaker after {took:.2f}s")
    assert took < 60.0  # before: 60 s timeout x 6 attempts per request, then per-prompt fallback


def test_single_request_against_dead_server_is_a_connection_error():
    m = create_model("openai-compatible", base_url=_dead_url(), model="fake", max_retries="2", **FAST)
    with pytest.raises(LLMConnectionError, match="could not connect") as ei:
        m.generate(["x"])
    assert ei.value.attempts == 3 and not isinstance(ei.value, LLMCircuitOpenError)


@pytest.mark.parametrize("concurrency", ["1", "4"])
def test_deadline_stops_a_hanging_server(concurrency):
    with FakeOpenAI(delay=30.0, lifetime=40.0) as srv:
        url = srv.base_url
        m = create_model("openai-compatible", base_url=url, model="fake", timeout="20",
                         max_concurrency=concurrency, deadline_s="1")
        t0 = time.monotonic()
        with pytest.raises(LLMDeadlineError, match=r"deadline of 1s .*deadline_s") as ei:
            m.generate([f"p{i}" for i in range(4)])
        took = time.monotonic() - t0
    print(f"deadline_s=1 stopped the run after {took:.2f}s")
    assert isinstance(ei.value, LLMFatalError) and url in str(ei.value)
    assert took < 10.0  # without the deadline: a 20 s timeout and 5 retries per request


def test_deadline_argument_is_checked():
    with pytest.raises(SentiprobeError, match="deadline_s"):
        create_model("openai-compatible", base_url="http://127.0.0.1:1/v1", model="m", deadline_s="-1")
    with pytest.raises(SentiprobeError, match="max_failures"):
        create_model("openai-compatible", base_url="http://127.0.0.1:1/v1", model="m", max_connect_failures="0")
    with pytest.raises(SentiprobeError, match="max_failures"):
        create_model("openai-compatible", base_url="http://127.0.0.1:1/v1", model="m", max_failures="0")
    fp = create_model("openai-compatible", base_url="http://127.0.0.1:1/v1", model="m").fingerprint
    other = create_model("openai-compatible", base_url="http://127.0.0.1:1/v1", model="m", deadline_s="9",
                         max_connect_failures="2", connect_timeout="1")
    assert other.fingerprint == fp  # fail-fast settings do not change outputs, so not the cache key


class DeadGenerator(ModelAdapter):
    """Every call fails as against a dead server; counts the calls."""

    name = "test-llm-dead"
    capabilities = frozenset({"generate"})
    batch_size = 32
    calls = 0

    def config(self):
        return {}

    def generate(self, prompts, **kw):
        type(self).calls += 1
        raise LLMConnectionError("chat request to http://127.0.0.1:9/v1 failed after 6 attempt(s)", attempts=6)


if DeadGenerator.name not in MODELS:
    MODELS.register(DeadGenerator.name, DeadGenerator)


@pytest.mark.realdata
def test_soul_does_not_retry_prompts_one_by_one_on_a_dead_server(data_dir, tmp_path):
    DeadGenerator.calls = 0
    doc = api.run(["soul-rc"], [DeadGenerator.name], out=tmp_path / "r", data_dir=str(data_dir), limit=20,
                  n_boot=0, progress=False)["runs"][DeadGenerator.name]
    assert doc["errors"]["soul-rc"]["type"] == LLMConnectionError.__name__
    assert DeadGenerator.calls == 1  # before: 1 batch call + 20 single-prompt calls, each with full retries


@pytest.mark.realdata
def test_cli_fails_fast_on_a_dead_server_at_defaults(data_dir, tmp_path: Path):
    url = _dead_url()
    t0 = time.monotonic()
    try:
        proc = subprocess.run(_cli_run(url, tmp_path, data_dir), env=_cli_env(), capture_output=True, text=True,
                              check=False,
                              timeout=120)
    except subprocess.TimeoutExpired:
        pytest.fail("a run against a dead server did not fail within 120 s")
    took = time.monotonic() - t0
    print(f"CLI against a dead server failed after {took:.2f}s (rc {proc.returncode})")
    err = proc.stderr
    assert proc.returncode == 1, err
    assert "Traceback" not in err, err
    # the first request is the structured-decoding probe (one retry): it names the refused connection
    assert (f"the LLM server at {url} is unreachable: 5 consecutive failures (5 connection failures" in err
            or ("could not connect" in err and "Connection refused" in err and url in err)), err
    assert took < 60.0
