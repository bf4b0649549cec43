"""A cached re-run against a cold run of the same command (goal: >= 20x faster).

Cold: ``api.run(["arts-laptop", "arts-rest"], ["minilm-lr"])`` with an empty cache, the encoder
weights not yet loaded. Warm: the same call again on the same cache after dropping every
in-process memo (loaded encoders, in-memory embedding stores), so only the SQLite cache helps:
the fitted state and every prediction are restored, the encoder is never loaded. Re-measure:

    SENTIPROBE_DATA_DIR=../shared/data .venv/bin/python benchmarks/bench_cache.py
"""
from __future__ import annotations

import tempfile
import time

from _common import report, require_data

SUITES = ["arts-laptop", "arts-rest"]


def main() -> None:
    require_data()
    from sentiprobe import api
    from sentiprobe.models import embed_store, encoders

    with tempfile.TemporaryDirectory() as tmp:
        def once(out: str) -> tuple[float, dict]:
            embed_store._STORES.clear()
            encoders._ENCODERS.clear()
            t0 = time.perf_counter()
            doc = api.run(SUITES, ["minilm-lr"], out=f"{tmp}/{out}", cache_dir=f"{tmp}/cache",
                          progress=False)["runs"]["minilm-lr"]
            return time.perf_counter() - t0, doc

        cold, d1 = once("cold")
        warm, d2 = once("warm")
        same = all(d1["suites"][s]["metrics"] == d2["suites"][s]["metrics"] for s in SUITES)
        computed = sum(d2["suites"][s]["cache"]["computed"] for s in SUITES)
    report("cache-rerun", {
        "suites": SUITES, "cold_seconds": round(cold, 2), "cached_seconds": round(warm, 3),
        "ratio_cold_over_cached": round(cold / warm, 1), "goal_at_least_20x": cold / warm >= 20,
        "cached_run_model_calls": computed, "identical_metrics": same,
    })


if __name__ == "__main__":
    main()
