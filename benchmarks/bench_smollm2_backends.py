"""SmolLM2-135M-Instruct tokens per second: llama.cpp (llama-cpp-python) vs transformers, same GGUF, same CPU.

Both backends of the ``smollm2`` adapter generate greedy replies to the same prompts in this process, one
after the other, alternating over ``ROUNDS`` rounds (machines are noisy: the ratio of the two, per round and
overall, is the figure, not the absolute rate). Free-text and constrained (a suite's reply schema through
llguidance) generation are both timed. The faster backend is the adapter's default (``backend=auto``).
Re-measure (needs ``llama-cpp-python``, see docs/llm.md, and the ``[hf]`` extra)::

    PYTHONPATH=src .venv/bin/python benchmarks/bench_smollm2_backends.py [--threads 2] [--tokens 32]
"""
from __future__ import annotations

import argparse
import os
import time

from _common import report

PROMPTS = [
    "Summarise in one sentence: the battery lasts all day but the screen is dim.",
    "Is the statement 'the food was cold' true, false or not-given for the review 'Great pizza, hot and fresh'?",
    "Name three colours.",
    "Write one sentence about the stock market.",
]


def run_backend(backend: str, threads: int, tokens: int, schema: dict | None) -> dict:
    from sentiprobe.models import create_model

    m = create_model("smollm2", backend=backend, threads=str(threads), max_tokens=str(tokens))
    m.generate(["Hi"], max_tokens=2)  # load outside the timing
    kw = {"schema": schema, "structured": "json_schema"} if schema else {}
    t0 = time.perf_counter()
    m.generate(PROMPTS, max_tokens=tokens, **kw)
    secs = time.perf_counter() - t0
    stats = dict(m.last_generation)
    m.close()
    return {"seconds": round(secs, 2), "new_tokens": stats["new_tokens"],
            "tokens_per_s": round(stats["new_tokens"] / secs, 2) if secs else None}


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    ap.add_argument("--threads", type=int, default=1)
    ap.add_argument("--tokens", type=int, default=32)
    ap.add_argument("--rounds", type=int, default=2)
    args = ap.parse_args()
    from sentiprobe.suites.sentivent.prompts import POLAR_TASK

    schema = POLAR_TASK.reply.wire()
    out: dict = {"threads": args.threads, "max_tokens": args.tokens, "prompts": len(PROMPTS),
                 "load_average_1m_before": round(os.getloadavg()[0], 2), "rounds": []}
    for _ in range(args.rounds):
        r = {}
        for kind, sch in (("free", None), ("structured", schema)):
            for backend in ("llama-cpp", "transformers"):
                r[f"{backend}/{kind}"] = run_backend(backend, args.threads, args.tokens, sch)
        for kind in ("free", "structured"):
            a, b = r[f"llama-cpp/{kind}"]["tokens_per_s"], r[f"transformers/{kind}"]["tokens_per_s"]
            r[f"ratio llama-cpp/transformers ({kind})"] = round(a / b, 2) if a and b else None
        out["rounds"].append(r)
    out["load_average_1m_after"] = round(os.getloadavg()[0], 2)
    ratios = [r["ratio llama-cpp/transformers (free)"] for r in out["rounds"] if r.get(
        "ratio llama-cpp/transformers (free)")]
    out["faster"] = "llama-cpp" if ratios and min(ratios) > 1 else "transformers"
    report("smollm2_backends", out)


if __name__ == "__main__":
    main()
