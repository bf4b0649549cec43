"""A throw-away local Ray cluster (a head and worker nodes on 127.0.0.2) for tests and benchmarks.

Why 127.0.0.2 and not 127.0.0.1: Ray replaces a node address of ``127.0.0.1``/``localhost`` by the machine's
outward address; any other loopback address is kept, so every connection stays on the loopback interface.
A driver needs ``cluster.auth`` in its environment (Ray caches the token per process: one token per driver
process, see ``token``). Stopping never calls ``ray stop`` (it would stop every Ray on the machine): it ends
only the processes this
cluster started, found by its unique GCS address and temp directory, and their children.
"""
from __future__ import annotations

import os
import secrets
import shutil
import signal
import socket
import subprocess
import sys
import tempfile
import time
from pathlib import Path

HOST = "127.0.0.2"
SRC = str(Path(__file__).resolve().parents[1] / "src")


def free_port() -> int:
    with socket.socket() as s:
        s.bind((HOST, 0))
        return s.getsockname()[1]


def ray_bin() -> str:
    exe = Path(sys.executable).parent / "ray"
    return str(exe) if exe.exists() else (shutil.which("ray") or "ray")


def _cmdline(pid: int) -> str:
    try:
        return Path(f"/proc/{pid}/cmdline").read_bytes().replace(b"\0", b" ").decode("utf-8", "replace")
    except OSError:
        return ""


def _ppid(pid: int) -> int:
    try:
        stat = Path(f"/proc/{pid}/stat").read_text()
    except OSError:
        return -1
    return int(stat.rsplit(")", 1)[1].split()[1])


def _pids() -> list[int]:
    return [int(p) for p in os.listdir("/proc") if p.isdigit()]


class LocalRayCluster:
    """``ray start --head`` (``head_cpus``, default ``cpus``) plus ``workers`` nodes of ``cpus`` CPUs, on 127.0.0.2."""

    def __init__(self, workers: int = 1, cpus: int = 1, timeout: float = 150.0, head_cpus: int | None = None,
                 token: str | None = None) -> None:
        self.workers = workers
        self.cpus = cpus
        self.head_cpus = cpus if head_cpus is None else head_cpus
        self.timeout = timeout
        self.port = free_port()
        self.address = f"{HOST}:{self.port}"
        self.temp = tempfile.mkdtemp(prefix="spray-", dir="/tmp")  # short: unix socket paths <= 107 bytes
        pythonpath = os.pathsep.join(p for p in (SRC, os.environ.get("PYTHONPATH", "")) if p)
        # token authentication with a token of this cluster's own: explicit, so neither a ~/.ray/auth_token left by
        # another Ray (which `ray start --head` would pick up, and a worker node not) nor its absence matters
        self.auth = {"RAY_AUTH_MODE": "token", "RAY_AUTH_TOKEN": token or secrets.token_hex(16)}
        self.env = {**os.environ, "PYTHONPATH": pythonpath, "RAY_USAGE_STATS_ENABLED": "0", **self.auth}

    def _start(self, args: list[str], deadline: float, cpus: int) -> None:
        common = [f"--node-ip-address={HOST}", f"--num-cpus={cpus}", "--object-store-memory=80000000",
                  f"--dashboard-agent-listen-port={free_port()}"]
        out = subprocess.run([ray_bin(), "start", *args, *common], env=self.env, capture_output=True, text=True,
                             timeout=max(5.0, deadline - time.monotonic()), check=False)
        if out.returncode != 0:
            raise RuntimeError(f"ray start failed ({out.returncode}): {out.stderr[-2000:]}")

    def start(self) -> LocalRayCluster:
        deadline = time.monotonic() + self.timeout
        try:
            self._start(["--head", f"--port={self.port}", "--include-dashboard=false", f"--temp-dir={self.temp}",
                         "--disable-usage-stats", f"--dashboard-port={free_port()}"], deadline, self.head_cpus)
            for _ in range(self.workers):
                self._start([f"--address={self.address}"], deadline, self.cpus)
        except BaseException:
            self.stop()
            raise
        return self

    def raylets(self) -> list[int]:
        return [p for p in _pids() if "raylet" in _cmdline(p) and self.address in _cmdline(p)]

    def task_processes(self, title: str) -> list[int]:
        """Worker processes of this cluster now running a task whose process title starts with ``title``."""
        raylets = set(self.raylets())
        return [p for p in _pids() if _ppid(p) in raylets and _cmdline(p).startswith(title)]

    def own_processes(self) -> list[int]:
        roots = {p for p in _pids() if self.address in _cmdline(p) or self.temp in _cmdline(p)}
        roots.discard(os.getpid())
        found = set(roots)
        changed = True
        while changed:  # and every descendant (workers, agents)
            changed = False
            for p in _pids():
                if p not in found and _ppid(p) in found:
                    found.add(p)
                    changed = True
        return sorted(found)

    def stop(self) -> None:
        pids = self.own_processes()
        for sig, wait in ((signal.SIGTERM, 5.0), (signal.SIGKILL, 2.0)):
            for p in pids:
                try:
                    os.kill(p, sig)
                except ProcessLookupError:
                    pass
            end = time.monotonic() + wait
            while time.monotonic() < end and any(Path(f"/proc/{p}").exists() and _ppid(p) != -1
                                                 and "<defunct>" not in _cmdline(p) and _cmdline(p) for p in pids):
                time.sleep(0.1)
            pids = [p for p in pids if _cmdline(p)]
            if not pids:
                break
        shutil.rmtree(self.temp, ignore_errors=True)

    def __enter__(self) -> LocalRayCluster:
        return self.start()

    def __exit__(self, *exc: object) -> None:
        self.stop()


def crash_job(payload):
    """A job function whose worker process dies on every attempt for the model label ``crash``."""
    from sentiprobe.run.sweep_job import execute_job

    if payload["label"] == "crash":
        import json as _json

        job_dir = Path(payload["out_dir"])
        job_dir.mkdir(parents=True, exist_ok=True)
        with open(job_dir / "attempts.jsonl", "a", encoding="utf-8") as f:
            f.write(_json.dumps({"pid": os.getpid()}) + "\n")
        os._exit(1)
    return execute_job(payload)


if __name__ == "__main__":  # stop a cluster left by a killed test: python tests/ray_cluster.py ADDRESS TEMP
    c = LocalRayCluster.__new__(LocalRayCluster)
    c.address, c.temp = sys.argv[1], sys.argv[2]
    c.stop()
