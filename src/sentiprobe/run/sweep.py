"""Driving a sweep: run every unfinished job of a plan (:mod:`.sweep_plan`) on an executor and write the index,
then the sweep's summary, comparison and report (:mod:`.sweep_report`).

The names of the plan and of one job are re-exported here (``from sentiprobe.run.sweep import parse_config``).
"""
from __future__ import annotations

import time
from collections.abc import Callable, Mapping
from dataclasses import asdict
from pathlib import Path
from typing import Any

from ..core.errors import ConfigError
from ..core.io import write_json
from .executors import make_executor
from .sweep_job import count_attempts
from .sweep_job import execute_job as execute_job  # re-exported: both executors' job function
from .sweep_plan import SWEEP_SCHEMA_VERSION, JobFn, JobOutcome, job_done
from .sweep_plan import Executor as Executor  # re-exported: the executors' interface
from .sweep_plan import Resources as Resources  # re-exported
from .sweep_plan import SweepConfig as SweepConfig  # re-exported
from .sweep_plan import load_config as load_config  # re-exported
from .sweep_plan import parse_config as parse_config  # re-exported
from .sweep_report import write_reports

INDEX_INTERVAL = 5.0
"""Seconds between rewrites of ``sweep.json`` while jobs end (it holds a row per job: rewriting it after every job
costs time quadratic in the grid)."""


def run_sweep(cfg: SweepConfig, out: str | Path, executor: Executor, *, data_dir: str | None = None,
              cache_dir: str | None = None, log: Callable[[str], None] = lambda m: None) -> dict[str, Any]:
    """Run every unfinished job of ``cfg`` on ``executor`` and write ``out``'s index, summary and report.

    Writes ``out/sweep.json`` (the index: one :class:`JobOutcome` per job, rewritten at most every
    :data:`INDEX_INTERVAL` seconds while jobs end and once at the end, so a killed driver leaves an index of what
    had finished a few seconds before; each job's own ``job.json`` is the record a resumed sweep trusts),
    and ``out/summary.json``, ``out/comparison.json`` and ``out/report.html`` over the sweep's models
    (:mod:`.sweep_report`). ``cache_dir`` should be
    given explicitly for a cluster (every worker must share it; the CLI resolves ``$SENTIPROBE_CACHE_DIR``).
    Returns the index document.
    """
    out = Path(out)
    for p in (out, *out.parents):
        if p.exists() and not p.is_dir():
            raise ConfigError(f"--out {out}: {p} exists and is not a directory")
    out.mkdir(parents=True, exist_ok=True)
    jobs = {j.job_id: j for j in cfg.jobs()}
    index: dict[str, Any] = {"schema_version": SWEEP_SCHEMA_VERSION, "executor": executor.name,
                             "config": cfg.to_dict(), "jobs": {}}
    todo: list[tuple[str, dict[str, Any]]] = []
    before: dict[str, int] = {}
    for jid, job in jobs.items():
        row = {"dir": job.rel_dir, "model": job.model.label, "suite": job.suite.name, "seed": job.seed,
               "key": job.key}
        if job_done(job, out):
            index["jobs"][jid] = {**row, **asdict(JobOutcome(jid, "cached"))}
            continue
        index["jobs"][jid] = {**row, **asdict(JobOutcome(jid, "pending"))}
        before[jid] = count_attempts(out / job.rel_dir)
        todo.append((jid, {**job.payload(str(out / job.rel_dir)), "key": job.key, "data_dir": data_dir,
                           "cache_dir": cache_dir}))
    log(f"sweep: {len(jobs)} job(s), {len(jobs) - len(todo)} already finished, {len(todo)} to run "
        f"({executor.name} executor)")
    write_json(out / "sweep.json", index)

    last_write = time.monotonic()

    def on_done(jid: str, res: dict[str, Any]) -> None:
        nonlocal last_write
        attempts = count_attempts(out / jobs[jid].rel_dir) - before[jid]
        outcome = JobOutcome(jid, res["status"], attempts, res.get("error"), float(res.get("seconds") or 0.0))
        index["jobs"][jid].update(asdict(outcome))
        if time.monotonic() - last_write >= INDEX_INTERVAL:  # not after every job: the index grows with the grid
            write_json(out / "sweep.json", index)
            last_write = time.monotonic()
        msg = f"sweep: {jid} {outcome.status}"
        if outcome.error:
            msg += f": {outcome.error['type']}: {outcome.error['message']}"
        log(msg + (f" (after {attempts} attempts)" if attempts > 1 else ""))

    if todo:
        executor.run(todo, on_done)
    for row in index["jobs"].values():
        if row["status"] == "pending":  # an executor that lost a job without telling: say so, never hide it
            row.update(status="failed", error={"type": "LostJob", "message": "the executor returned no outcome"})
    write_json(out / "sweep.json", index)
    write_comparison(cfg, out, index)
    return index


def write_comparison(cfg: SweepConfig, out: Path, index: Mapping[str, Any]) -> dict[str, Any]:
    """Write the sweep's ``summary.json``, ``comparison.json`` and ``report.html`` over its models
    (:func:`.sweep_report.write_reports`)."""
    return write_reports(cfg, out, index)


def sweep(config: str | Path | SweepConfig, out: str | Path, *, executor: str = "local",
          address: str | None = None, data_dir: str | None = None, cache_dir: str | None = None,
          log: Callable[[str], None] = lambda m: None, job_fn: JobFn | None = None) -> dict[str, Any]:
    """Load ``config`` (a path or a parsed config), run it on the named executor; returns the index document.

    ``job_fn``: what runs one job (default :func:`execute_job`; the command line's also reads the worker's
    environment, see :func:`sentiprobe.cli.environment.execute_job_in_environment`)."""
    cfg = config if isinstance(config, SweepConfig) else load_config(config)
    ex = make_executor(executor, address=address, resources=cfg.resources, retries=cfg.retries,
                       job_fn=job_fn or execute_job)
    return run_sweep(cfg, out, ex, data_dir=data_dir, cache_dir=cache_dir, log=log)
