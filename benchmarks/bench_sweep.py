"""Sweep throughput: the local executor vs a local Ray cluster with 1 and with 2 worker nodes (1 CPU each).

The same 8-job grid (majority and tfidf-lr on arts-laptop and arts-rest, seeds 0 and 1, 200 test items each)
runs as ``sentiprobe sweep`` commands, each into a fresh output and cache directory so every job fits and
predicts:

- ``local``: ``--executor local`` as a user runs it (numpy/BLAS use every core);
- ``local-1-thread``: the same with ``OMP_NUM_THREADS=1`` etc., which is what Ray gives a task declaring one CPU,
  to separate the effect of thread oversubscription from that of parallel jobs;
- ``ray-1-worker`` / ``ray-2-workers``: ``--executor ray`` on a cluster of a 0-CPU head and one or two worker
  nodes of 1 CPU (``tests/ray_cluster.py``: 127.0.0.2 only, started and stopped here).

Prints seconds, jobs per minute and throughput ratios against ``local``, and checks that all give identical
metrics. Re-measure:

    SENTIPROBE_DATA_DIR=../shared/data PYTHONPATH=src .venv/bin/python benchmarks/bench_sweep.py
"""
from __future__ import annotations

import json
import os
import secrets
import subprocess
import sys
import tempfile
import time
from pathlib import Path

from _common import report, require_data

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT / "tests"))

GRID = {"models": ["majority", "tfidf-lr"], "suites": ["arts-laptop", "arts-rest"], "seeds": [0, 1],
        "limit": 200, "n_boot": 200}
ONE_THREAD = {k: "1" for k in ("OMP_NUM_THREADS", "OPENBLAS_NUM_THREADS", "MKL_NUM_THREADS")}


def _metrics(out: Path) -> dict:
    return {j: r.get("metrics") for j, r in json.loads((out / "summary.json").read_text())["runs"].items()}


def main() -> None:
    data_dir = require_data()
    from ray_cluster import LocalRayCluster

    doc: dict = {"jobs": 8, "grid": GRID, "runs": {}}
    metrics = {}
    with tempfile.TemporaryDirectory() as tmp:
        cfg = Path(tmp) / "grid.yaml"
        cfg.write_text(json.dumps(GRID))
        base_env = {**os.environ, "SENTIPROBE_DATA_DIR": data_dir, "RAY_USAGE_STATS_ENABLED": "0",
                    "PYTHONPATH": os.pathsep.join(p for p in (str(ROOT / "src"), os.environ.get("PYTHONPATH"))
                                                  if p)}

        def once(name: str, env: dict, *extra: str) -> None:
            t0 = time.perf_counter()
            res = subprocess.run([sys.executable, "-m", "sentiprobe", "sweep", str(cfg), "--out", f"{tmp}/{name}",
                                  "--cache-dir", f"{tmp}/cache-{name}", *extra], env=env, capture_output=True,
                                 text=True, check=False)
            dt = time.perf_counter() - t0
            if res.returncode != 0:
                sys.exit(f"{name} failed: {res.stderr[-3000:]}")
            doc["runs"][name] = {"seconds": round(dt, 2), "jobs_per_min": round(60 * 8 / dt, 2)}
            metrics[name] = _metrics(Path(tmp) / name)

        once("local", base_env)
        once("local-1-thread", {**base_env, **ONE_THREAD})
        token = secrets.token_hex(16)
        for workers in (1, 2):
            with LocalRayCluster(workers=workers, cpus=1, head_cpus=0, token=token) as cluster:
                once(f"ray-{workers}-worker{'s' if workers > 1 else ''}", {**base_env, **cluster.auth},
                     "--executor", "ray", "--address", cluster.address)
    base = doc["runs"]["local"]["seconds"]
    doc["throughput_vs_local"] = {k: round(base / v["seconds"], 2) for k, v in doc["runs"].items()}
    doc["ray_2_vs_1_worker"] = round(doc["runs"]["ray-1-worker"]["seconds"] / doc["runs"]["ray-2-workers"]["seconds"],
                                     2)
    doc["identical_metrics"] = all(m == metrics["local"] for m in metrics.values())
    doc["load_average_1m_after"] = round(os.getloadavg()[0], 2)
    report("sweep", doc)


if __name__ == "__main__":
    main()
