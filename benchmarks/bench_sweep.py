"""Sweep throughput: the local executor vs a local Ray cluster with 1 and with 2 worker nodes (1 CPU each).

The same 8-job grid (majority and tfidf-lr on arts-laptop and arts-rest, seeds 0 and 1, 200 test items each)
runs three times, each into a fresh output and cache directory so every job fits and predicts: in process
(``--executor local``), then on a cluster of a 0-CPU head and one worker node, then one with two worker nodes
(``tests/ray_cluster.py``: 127.0.0.2 only, started and stopped here). Prints jobs per minute and the ratios
against the local executor, and checks the three give identical metrics. Re-measure:

    SENTIPROBE_DATA_DIR=../shared/data PYTHONPATH=src .venv/bin/python benchmarks/bench_sweep.py
"""
from __future__ import annotations

import json
import os
import secrets
import sys
import tempfile
import time
from pathlib import Path

from _common import report, require_data

sys.path.insert(0, str(Path(__file__).resolve().parents[1] / "tests"))

GRID = {"models": ["majority", {"name": "tfidf-lr", "args": {"char": False, "max_iter": 300}}],
        "suites": ["arts-laptop", "arts-rest"], "seeds": [0, 1], "limit": 200, "n_boot": 200}


def _metrics(out: Path) -> dict:
    return {j: r.get("metrics") for j, r in json.loads((out / "summary.json").read_text())["runs"].items()}


def main() -> None:
    require_data()
    os.environ.setdefault("RAY_USAGE_STATS_ENABLED", "0")
    from ray_cluster import LocalRayCluster

    from sentiprobe.run.executors import LocalExecutor, RayExecutor
    from sentiprobe.run.sweep import parse_config, run_sweep

    cfg = parse_config(GRID)
    data_dir = os.environ["SENTIPROBE_DATA_DIR"]
    doc: dict = {"jobs": len(cfg.jobs()), "grid": GRID, "runs": {}}
    metrics = {}
    with tempfile.TemporaryDirectory() as tmp:
        def once(name: str, executor) -> None:
            t0 = time.perf_counter()
            index = run_sweep(cfg, f"{tmp}/{name}", executor, data_dir=data_dir, cache_dir=f"{tmp}/cache-{name}")
            dt = time.perf_counter() - t0
            assert {r["status"] for r in index["jobs"].values()} == {"done"}, index["jobs"]
            doc["runs"][name] = {"seconds": round(dt, 2), "jobs_per_min": round(60 * len(index["jobs"]) / dt, 2)}
            metrics[name] = _metrics(Path(tmp) / name)

        once("local", LocalExecutor())
        token = secrets.token_hex(16)  # one per driver process: Ray caches it
        for workers in (1, 2):
            with LocalRayCluster(workers=workers, cpus=1, head_cpus=0, token=token) as cluster:
                os.environ.update(cluster.auth)  # this process is the driver
                once(f"ray-{workers}-worker", RayExecutor(cluster.address))
    base = doc["runs"]["local"]["seconds"]
    doc["throughput_vs_local"] = {k: round(base / v["seconds"], 2) for k, v in doc["runs"].items()}
    doc["identical_metrics"] = all(m == metrics["local"] for m in metrics.values())
    doc["load_average_1m_after"] = round(os.getloadavg()[0], 2)
    report("sweep", doc)


if __name__ == "__main__":
    main()
