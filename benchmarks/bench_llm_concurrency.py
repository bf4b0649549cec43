"""LLM throughput at concurrency 1, 8, 32, 64 against a fake OpenAI-compatible server (goal: >= 90% at 64).

The server (``tests/fake_openai.py``, 127.0.0.1) answers every request after a fixed 100 ms, so the ideal
throughput at concurrency c is c / 0.1 s requests per second. Each level sends ``WAVES * c`` distinct prompts
through the same path as a run (``CachedPredictor.generate`` over the ``openai-compatible`` adapter, SQLite
cache in a temp directory, one commit per batch) and prints the achieved fraction of the ideal, with the
adapter's default ``batch_size`` and with ``batch_size`` pinned to 32 (the old default, which capped the
requests in flight at 32 whatever ``max_concurrency`` said). Re-measure:

    PYTHONPATH=src .venv/bin/python benchmarks/bench_llm_concurrency.py [--waves 8]

``--waves``: prompts per level = waves x concurrency (default 8). Each level pays a fixed start (threads, 64
keep-alive connections, the first barrier) once, so short levels understate the steady rate.
"""
from __future__ import annotations

import os
import resource
import subprocess
import sys
import tempfile
import time
from pathlib import Path

from _common import report

LATENCY = 0.1
WAVES = 8  # --waves
LEVELS = (1, 8, 32, 64)


def server_cpu(pid: int | None) -> float:
    """CPU seconds the server process used so far (Linux /proc; 0 elsewhere)."""
    try:
        fields = Path(f"/proc/{pid}/stat").read_text().rsplit(")", 1)[1].split()
    except (OSError, IndexError):
        return 0.0
    return (int(fields[11]) + int(fields[12])) / os.sysconf("SC_CLK_TCK")


SERVER_PID: int | None = None


def measure(base_url: str, c: int, tag: str, cache_dir: str, **args) -> dict:
    from sentiprobe.models.llm import OpenAICompatibleModel
    from sentiprobe.run.cache import PredictionCache
    from sentiprobe.run.predictor import CachedPredictor

    model = OpenAICompatibleModel(base_url=base_url, model="fake", max_concurrency=c, max_tokens=4, **args)
    cache = PredictionCache.open(cache_dir)
    try:
        predictor = CachedPredictor(model, cache, progress=False)
        prompts = [f"{tag} c={c} prompt {i}" for i in range(WAVES * c)]
        s0 = server_cpu(SERVER_PID)
        r0, t0 = resource.getrusage(resource.RUSAGE_SELF), time.perf_counter()
        predictor.generate(prompts)
        elapsed = time.perf_counter() - t0
        r1 = resource.getrusage(resource.RUSAGE_SELF)
        s1 = server_cpu(SERVER_PID)
    finally:
        cache.close()
        model.close()
    rate = len(prompts) / elapsed
    return {"requests": len(prompts), "seconds": round(elapsed, 3), "req_per_s": round(rate, 1),
            "fraction_of_ideal": round(rate / (c / LATENCY), 3),
            "client_cpu_ms_per_request": round(1000 * (r1.ru_utime + r1.ru_stime - r0.ru_utime - r0.ru_stime)
                                               / len(prompts), 2),
            "server_cpu_ms_per_request": round(1000 * (s1 - s0) / len(prompts), 2)}


SERVER = """
import sys, time
sys.path.insert(0, {tests!r})
from fake_openai import FakeOpenAI
with FakeOpenAI(delay={latency}, lifetime=600) as srv:
    print(srv.base_url, flush=True)
    sys.stdin.read()  # until the benchmark closes our stdin
"""


def main() -> None:
    global WAVES
    if "--waves" in sys.argv:
        WAVES = int(sys.argv[sys.argv.index("--waves") + 1])
    # the server in its own process: in ours it would share the GIL with the 64 client threads it measures
    tests = str(Path(__file__).resolve().parents[1] / "tests")
    server = subprocess.Popen([sys.executable, "-c", SERVER.format(tests=tests, latency=LATENCY)],
                              stdin=subprocess.PIPE, stdout=subprocess.PIPE, text=True)
    out: dict = {"latency_s": LATENCY, "waves": WAVES, "levels": {}}
    load_before = round(os.getloadavg()[0], 2)
    global SERVER_PID
    SERVER_PID = server.pid
    try:
        base_url = server.stdout.readline().strip()
        with tempfile.TemporaryDirectory() as tmp:
            measure(base_url, 4, "warm-up", tmp)  # imports, first connections
            for c in LEVELS:
                out["levels"][c] = {"default": measure(base_url, c, "default", tmp),
                                    "batch_size=32": measure(base_url, c, "b32", tmp, batch_size=32)}
    finally:
        server.stdin.close()
        server.wait(timeout=30)
    out["load_average_1m_after"] = round(os.getloadavg()[0], 2)  # other work on the machine competes for the CPU
    out["load_average_1m_before"] = load_before
    out["goal"] = ">= 0.90 of ideal at concurrency 64 (default settings)"
    out["met"] = out["levels"][64]["default"]["fraction_of_ideal"] >= 0.9
    report("llm_concurrency", out)


if __name__ == "__main__":
    main()
