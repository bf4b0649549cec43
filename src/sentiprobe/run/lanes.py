"""The models of one run side by side: each lane is a worker process running its models one after another.

Why processes and not threads: a frozen encoder's forward pass and the linear models' fits hold the GIL
for much of their time. Why a fresh interpreter (``python -m sentiprobe.run.lanes SPEC``) and not
:mod:`multiprocessing`: nothing is pickled between processes (a lane reads a JSON spec and writes the
run directory, the parent reads ``results.json`` back through the results schema), and no user script is
re-imported by a spawned child.

Lanes are filled longest first, each model onto the least loaded lane (LPT scheduling), by the rough cost a
model declares when it is registered (``cost=``: seconds of its part of the main job on a 2-core machine), else
by its tags (a ``baseline`` is light, anything else, an encoder, a fine-tuned or generative model, heavy). On two
cores the main job's encoder model (minilm-lr) runs in one lane beside the baselines and the LexComp probe in the
other. With several lanes each worker gets its share of the cores as ``OMP_NUM_THREADS`` (unless the caller set
it), so torch models of two lanes do not fight over the same cores. The models of a lane share loaded suites (the run's
:data:`~sentiprobe.run.runner.SuitePool`) and every lane shares the prediction cache (SQLite, WAL) and the
embedding store, so the results are those of the same run made serially: every model's run is
independent of the others.
"""
from __future__ import annotations

import json
import os
import shutil
import signal
import subprocess
import sys
import tempfile
import time
from collections.abc import Sequence
from dataclasses import asdict, fields
from pathlib import Path
from typing import Any

from ..core.errors import ConfigError, SentiprobeError
from ..core.io import write_json
from .progress import Progress
from .runner import RunConfig, SuitePool, run

LANE_SPEC_VERSION = 1
HEAVY, LIGHT = 100.0, 5.0  # rough cost (seconds) of a model registered without ``cost=``: no ``baseline`` tag / tagged


def default_jobs(n_models: int) -> int:
    """Lanes for ``n_models`` when ``--jobs`` is not given: one per CPU, at most one per model, at most 4."""
    return max(1, min(n_models, os.cpu_count() or 1, 4))


def parse_jobs(value: Any, n_models: int) -> int:
    """``--jobs``: a positive integer, or ``auto``/None for :func:`default_jobs`; never more lanes than models."""
    if value is None or (isinstance(value, str) and value.strip().lower() in ("", "auto")):
        return default_jobs(n_models)
    text = str(value).strip()
    if isinstance(value, bool) or not isinstance(value, int | str) or not text.isdigit() or int(text) < 1:
        raise ConfigError(f"--jobs must be a positive integer or auto, not {value!r}")
    return min(int(text), max(1, n_models))


def model_cost(name: str) -> float:
    """Rough cost of a registered model: its registered ``cost``, else light for ``baseline``-tagged ones and
    heavy otherwise."""
    from ..models import MODELS

    entry = MODELS.entry(name)
    if entry.cost is not None:
        return float(entry.cost)
    return LIGHT if "baseline" in entry.tags else HEAVY


def plan_lanes(models: Sequence[str], jobs: int) -> list[list[str]]:
    """Assign models to ``jobs`` lanes: costliest first, each onto the least loaded lane (ties: the first).

    The order inside a lane keeps the given order; lanes without models are dropped.
    """
    lanes: list[list[str]] = [[] for _ in range(max(1, jobs))]
    load = [0.0] * len(lanes)
    costs = {m: model_cost(m) for m in models}
    for m in sorted(models, key=lambda m: -costs[m]):  # stable: the given order among equals
        k = min(range(len(lanes)), key=lambda i: (load[i], i))
        lanes[k].append(m)
        load[k] += costs[m]
    rank = {m: i for i, m in enumerate(models)}
    return [sorted(lane, key=rank.__getitem__) for lane in lanes if lane]


def _defined_in_sentiprobe(obj: Any) -> bool:
    target = getattr(obj, "func", obj)  # functools.partial
    return str(getattr(target, "__module__", "") or "").startswith("sentiprobe.")


def not_in_a_fresh_process(models: Sequence[str], suites: Sequence[str]) -> list[str]:
    """The models and suites a worker process would not know: registered at run time by the calling code
    (a script, a test), neither by sentiprobe itself nor by an entry-point plug-in."""
    from ..models import MODELS
    from ..suites import SUITES

    out = [f"model {m}" for m in models
           if m not in MODELS.plugin_names and not _defined_in_sentiprobe(MODELS.entry(m).factory)]
    out += [f"suite {s}" for s in suites
            if s not in SUITES.plugin_names and not _defined_in_sentiprobe(SUITES.get(s).load_items)]
    return out


def _config_from_json(d: dict[str, Any]) -> RunConfig:
    names = {f.name for f in fields(RunConfig)}
    kw = {k: v for k, v in d.items() if k in names}
    for k in ("suites", "unavailable_suites"):
        kw[k] = tuple(kw.get(k) or ())
    return RunConfig(**kw)


def run_lanes(configs: Sequence[RunConfig], jobs: int, *, progress: Progress) -> dict[str, dict[str, Any]]:
    """Run each config (one model each) in ``jobs`` worker processes; returns model -> results document.

    A lane that fails outside the suites (the cache cannot be opened, a report cannot be written) makes this
    raise after the other lanes finished (their work is kept); Ctrl-C stops every lane.
    """
    from ..report.schema import read_results

    by_model = {c.model: c for c in configs}
    lanes = plan_lanes([c.model for c in configs], jobs)
    work = Path(tempfile.mkdtemp(prefix="sentiprobe-lanes-"))
    procs: list[tuple[list[str], subprocess.Popen, Path]] = []
    try:
        try:
            for k, lane in enumerate(lanes):
                spec = work / f"lane-{k}.json"
                write_json(spec, {"schema_version": LANE_SPEC_VERSION, "progress": progress.enabled,
                                  "configs": [asdict(by_model[m]) for m in lane]})
                err = work / f"lane-{k}.error.json"
                procs.append((lane, subprocess.Popen([sys.executable, "-m", "sentiprobe.run.lanes", str(spec),
                                                      str(err)], env=_child_env(len(lanes))), err))
            progress.note(f"running {len(configs)} models in {len(lanes)} parallel processes: "
                          + "; ".join(", ".join(lane) for lane in lanes))
            failures = [(lane, proc.wait(), err) for lane, proc, err in procs]
        finally:  # Ctrl-C, or an error starting a lane: none is left running
            _stop([p for _, p, _ in procs if p.poll() is None])
        for lane, code, err in failures:
            if code == 130:
                raise KeyboardInterrupt
            if code != 0:
                detail = json.loads(err.read_text(encoding="utf-8")) if err.is_file() else {}
                message = detail.get("message") or f"the worker process exited with status {code}"
                cls = SentiprobeError if detail.get("sentiprobe_error") else RuntimeError
                logs = ", ".join(str(Path(by_model[m].out_dir) / "run.log") for m in lane)
                raise cls(f"model(s) {', '.join(lane)}: {detail.get('type', 'error')}: {message} (see {logs})")
        return {c.model: read_results(Path(c.out_dir) / "results.json") for c in configs}
    finally:
        shutil.rmtree(work, ignore_errors=True)


def _child_env(n_lanes: int = 1) -> dict[str, str]:
    """The parent's environment, with the parent's import path (a source checkout run with PYTHONPATH=src) and,
    unless set, ``OMP_NUM_THREADS`` = the lane's share of the CPUs: torch's default, one thread per core in every
    lane, oversubscribes the cores (on a busy 2-core machine a LexComp probe fit took 1,028 s with two torch
    threads, 137 s with one)."""
    env = dict(os.environ)
    env["PYTHONPATH"] = os.pathsep.join(p for p in sys.path if p)
    if n_lanes > 1 and "OMP_NUM_THREADS" not in env:
        env["OMP_NUM_THREADS"] = str(max(1, (os.cpu_count() or 1) // n_lanes))
    return env


def _stop(procs: Sequence[subprocess.Popen], grace: float = 5.0) -> None:
    """Interrupt the worker processes (they got the terminal's SIGINT already, if any), then kill laggards."""
    for p in procs:
        if p.poll() is None:
            p.send_signal(signal.SIGINT)
    deadline = time.monotonic() + grace
    for p in procs:
        try:
            p.wait(max(0.0, deadline - time.monotonic()))
        except subprocess.TimeoutExpired:
            p.kill()
            p.wait()


def _stop_with_parent(every: float = 1.0) -> None:
    """Interrupt this lane when the parent run dies (killed, not interrupted): an orphan would go on computing
    and writing into a run directory its user believes stopped. Finished work stays in the cache."""
    import threading

    parent = os.getppid()

    def watch() -> None:
        while os.getppid() == parent:
            time.sleep(every)
        os.kill(os.getpid(), signal.SIGINT)

    threading.Thread(target=watch, name="sentiprobe-lane-parent-watch", daemon=True).start()


def lane_main(spec_path: str, error_path: str) -> int:
    """A lane: run its configs one after another, sharing loaded suites. Exit 0, 130 (Ctrl-C) or 1."""
    import traceback

    spec = json.loads(Path(spec_path).read_text(encoding="utf-8"))
    progress = Progress(sys.stderr, enabled=bool(spec.get("progress")), tty=False)  # lines interleave, bars would not
    _stop_with_parent()
    pool: SuitePool = {}
    try:
        for d in spec["configs"]:
            run(_config_from_json(d), progress=progress, suites=pool)
    except KeyboardInterrupt:
        return 130
    except Exception as exc:  # reported to the parent, which raises it for the whole run
        write_json(error_path, {"type": type(exc).__name__, "message": str(exc),
                                "sentiprobe_error": isinstance(exc, SentiprobeError),
                                "traceback": traceback.format_exc()})
        return 1
    return 0


if __name__ == "__main__":
    sys.exit(lane_main(sys.argv[1], sys.argv[2]))
