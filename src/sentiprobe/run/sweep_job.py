"""One job of a sweep: run one model on one suite and seed into the job's directory, through the runner.

The function both executors call (:mod:`.executors`), in the driver's process or on a Ray worker.
"""
from __future__ import annotations

import json
import os
import socket
import time
from collections.abc import Mapping
from pathlib import Path
from typing import Any

from ..core.errors import SentiprobeError
from ..core.io import write_json
from ..core.runspec import RunSettings, setting_names
from .config import plan_run, run_errors
from .modelargs import ModelEntry
from .progress import NULL_PROGRESS
from .runner import run_models
from .sweep_plan import JOB_FILE, RUN_SUBDIR


def execute_job(payload: Mapping[str, Any]) -> dict[str, Any]:
    """Run one job through the runner in this process; the function both executors call.

    Returns ``{"status": "done"|"failed", "error": ..., "seconds": ...}``. Errors of the run (a typed error, a
    suite error recorded in results.json, an unexpected exception) make a failed job, never an exception,
    so that only a dying worker is retried: a deterministic error would fail again.
    """
    job_dir = Path(payload["out_dir"])
    job_dir.mkdir(parents=True, exist_ok=True)
    with open(job_dir / "attempts.jsonl", "a", encoding="utf-8") as f:  # counted by the driver
        f.write(json.dumps({"pid": os.getpid(), "host": socket.gethostname(), "started": time.time()}) + "\n")
    t0 = time.perf_counter()
    suite_options = {payload["suite"]: dict(payload["suite_args"])} if payload["suite_args"] else None
    try:
        label = payload.get("label") or payload["model"]
        entries, base = plan_run([payload["suite"]], [ModelEntry(label, payload["model"], {})],
                                 model_args=dict(payload["model_args"]), out=str(job_dir / RUN_SUBDIR),
                                 data_dir=payload.get("data_dir"), cache_dir=payload.get("cache_dir"),
                                 settings=RunSettings(**{k: payload[k] for k in setting_names() if k in payload}),
                                 progress=False, suite_options=suite_options)
        doc = run_models(entries, base, progress=NULL_PROGRESS)
        errors = run_errors(doc)
        error = None
        if errors:
            first = next(iter(errors.values()))
            error = {"type": str(first.get("type")), "message": str(first.get("message"))}
    except SentiprobeError as exc:
        error = {"type": type(exc).__name__, "message": str(exc)}
    except Exception as exc:  # a bug in one job must not stop the sweep; recorded as failed
        error = {"type": type(exc).__name__, "message": f"unexpected error (a bug): {exc}"}
    status = "failed" if error else "done"
    rec = {k: v for k, v in payload.items() if k not in ("out_dir", "data_dir", "cache_dir")}
    write_json(job_dir / JOB_FILE, {"key": payload["key"], "status": status, "error": error, "job": rec})
    return {"status": status, "error": error, "seconds": round(time.perf_counter() - t0, 3)}


def count_attempts(job_dir: Path) -> int:
    try:
        return sum(1 for line in (job_dir / "attempts.jsonl").read_text(encoding="utf-8").splitlines() if line)
    except OSError:
        return 0


