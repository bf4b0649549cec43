"""Sweeps on a real local Ray cluster: a head and a worker node (1 CPU each) on 127.0.0.2, started and stopped here.

Skipped with the reason when Ray is not installed, except under ``CI=true`` where CI installs ``sentiprobe[ray]``
and a missing Ray is a failure. Real data (two suites, ``limit`` items), cheap models.
"""
from __future__ import annotations

import importlib.util
import json
import os
import signal
import subprocess
import sys
import threading
import time
from pathlib import Path

import pytest

pytestmark = pytest.mark.realdata

if importlib.util.find_spec("ray") is None:
    if os.environ.get("CI") == "true":
        pytest.fail("Ray is not installed but CI=true: CI must install sentiprobe[ray] (scripts/setup_venv.sh)",
                    pytrace=False)
    pytest.skip("Ray is not installed (pip install 'sentiprobe[ray]'); the Ray executor tests need it",
                allow_module_level=True)

from ray_cluster import SRC, LocalRayCluster

from sentiprobe.run.executors import LocalExecutor
from sentiprobe.run.sweep import parse_config, run_sweep

TESTS = str(Path(__file__).parent)
GRID = {"models": ["majority", {"name": "tfidf-lr", "args": {"char": False, "max_iter": 200}}],
        "suites": ["arts-laptop", "sentivent-polar"], "seeds": [0, 1], "limit": 40, "n_boot": 100,
        "resources": {"num_cpus": 1, "memory_mb": 512}}


@pytest.fixture(scope="module")
def cluster():
    c = LocalRayCluster(workers=1, cpus=1)
    c.env["PYTHONPATH"] = os.pathsep.join((TESTS, c.env["PYTHONPATH"]))  # crash_job below, for the workers
    try:
        c.start()
        yield c
    finally:
        c.stop()


def _yaml(tmp_path: Path, doc: dict) -> Path:
    p = tmp_path / "sweep.yaml"
    p.write_text(json.dumps(doc))  # JSON is YAML
    return p


def _job_metrics(out: Path) -> dict:
    """Every job's full metric records (value, CI, n) from its results.json."""
    summary = json.loads((out / "summary.json").read_text())
    got = {}
    for jid, row in summary["runs"].items():
        doc = json.loads((out / row["results"]).read_text())
        got[jid] = doc["suites"][row["suite"]]["metrics"]
    return got


def _kill_one_task_worker(c: LocalRayCluster, out: Path, stop: threading.Event, killed: list) -> None:
    """SIGKILL the first worker process that has started a job (its pid is in the job's attempts file)."""
    while not stop.is_set() and not killed:
        pids = set(c.task_processes("ray::execute_job"))
        for attempts in out.glob("jobs/*/*/*/attempts.jsonl"):
            for line in attempts.read_text().splitlines():
                pid = json.loads(line)["pid"]
                if pid in pids and not (attempts.parent / "job.json").exists():
                    os.kill(pid, signal.SIGKILL)
                    killed.append((attempts.parent.relative_to(out / "jobs").as_posix(), pid))
                    return
        time.sleep(0.05)


def _cli(args: list[str], env: dict, timeout: float = 240) -> subprocess.CompletedProcess:
    return subprocess.run([sys.executable, "-m", "sentiprobe", "sweep", *args], env=env, capture_output=True,
                          text=True, timeout=timeout, check=False)


def test_ray_sweep_equals_local_survives_a_killed_worker_and_resumes(cluster, tmp_path, data_dir):
    cfg_path = _yaml(tmp_path, GRID)
    local = tmp_path / "local"
    run_sweep(parse_config(GRID), local, LocalExecutor(), data_dir=str(data_dir), cache_dir=str(tmp_path / "c1"))

    out = tmp_path / "ray"
    env = {**cluster.env, "SENTIPROBE_DATA_DIR": str(data_dir), "PYTHONPATH": SRC}
    args = [str(cfg_path), "--executor", "ray", "--address", cluster.address, "--out", str(out),
            "--cache-dir", str(tmp_path / "c2")]  # its own cache: the Ray workers fit and predict everything
    stop, killed = threading.Event(), []
    watcher = threading.Thread(target=_kill_one_task_worker, args=(cluster, out, stop, killed), daemon=True)
    watcher.start()
    try:
        res = _cli(args, env)
    finally:
        stop.set()
        watcher.join(5)
    assert res.returncode == 0, res.stderr[-3000:]
    assert killed, "no task worker was seen running (the kill did not happen)"
    index = json.loads((out / "sweep.json").read_text())
    assert index["executor"] == "ray"
    assert {r["status"] for r in index["jobs"].values()} == {"done"}
    killed_job = killed[0][0]
    assert index["jobs"][killed_job]["attempts"] == 2, index["jobs"][killed_job]
    assert _job_metrics(out) == _job_metrics(local)  # identical metrics, CIs and n to the local executor
    assert (out / "report.html").read_text().count("<h2 id=") == 2  # one section per suite

    before = {p: p.read_text() for p in out.glob("jobs/*/*/*/attempts.jsonl")}
    again = _cli(args, env)
    assert again.returncode == 0, again.stderr[-3000:]
    assert "8 already finished, 0 to run" in again.stderr
    index = json.loads((out / "sweep.json").read_text())
    assert {r["status"] for r in index["jobs"].values()} == {"cached"}
    assert {p: p.read_text() for p in out.glob("jobs/*/*/*/attempts.jsonl")} == before  # no worker started


CRASH_DRIVER = """
import json, sys
from ray_cluster import crash_job
from sentiprobe.run.executors import RayExecutor
from sentiprobe.run.sweep import Resources, parse_config, run_sweep
grid, address, out, data_dir, cache_dir = json.loads(sys.argv[1])
cfg = parse_config(grid)
ex = RayExecutor(address, Resources(num_cpus=1), retries=cfg.retries, job_fn=crash_job)
print(json.dumps(run_sweep(cfg, out, ex, data_dir=data_dir, cache_dir=cache_dir)))
"""


def test_ray_job_whose_worker_keeps_dying_is_failed_and_others_finish(cluster, tmp_path, data_dir):
    grid = {"models": ["majority", {"name": "majority", "label": "crash"}], "suites": ["arts-laptop"],
            "seeds": [0], "limit": 20, "n_boot": 20, "retries": 1}
    # the driver in its own process (as the CLI): Ray keeps per-process state (the cluster's token) that must not
    # leak into later tests of this process
    args = json.dumps([grid, cluster.address, str(tmp_path / "o"), str(data_dir), str(tmp_path / "c")])
    res = subprocess.run([sys.executable, "-c", CRASH_DRIVER, args], env=cluster.env, capture_output=True,
                         text=True, timeout=240, check=False)
    assert res.returncode == 0, res.stderr[-3000:]
    index = json.loads(res.stdout.strip().splitlines()[-1])
    assert index["jobs"]["majority/arts-laptop/seed0"]["status"] == "done"
    bad = index["jobs"]["crash/arts-laptop/seed0"]
    assert bad["status"] == "failed" and bad["attempts"] == 2  # the first run and one retry
    assert "Crash" in bad["error"]["type"] or "died" in bad["error"]["message"].lower(), bad["error"]
    summary = json.loads((tmp_path / "o" / "summary.json").read_text())
    assert summary["failed"] == ["crash/arts-laptop/seed0"]
