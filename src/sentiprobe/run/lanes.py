"""The models of one run side by side: each lane is a worker process running its models one after another.

Why processes and not threads: a frozen encoder's forward pass and the linear models' fits hold the GIL
for much of their time. Why a fresh interpreter (started on :mod:`sentiprobe.cli.lane`) and not
:mod:`multiprocessing`: nothing is pickled between processes (a lane reads a JSON spec and writes the
run directory, the parent reads ``results.json`` back through the results schema), and no user script is
re-imported by a spawned child.

Lanes are filled longest first, each model onto the least loaded lane (LPT scheduling), by the rough cost a
model declares when it is registered (``cost=``: seconds of its part of the main job on a 2-core machine), else
by its tags (a ``baseline`` is light, anything else, an encoder, a fine-tuned or generative model, heavy). On two
cores the main job's encoder model (minilm-lr) runs in one lane beside the baselines and the LexComp probe in the
other. With several lanes each worker gets its share of the cores as ``OMP_NUM_THREADS`` (unless the caller set
it), so torch models of two lanes do not fight over the same cores. The models of a lane share loaded suites (the run's
:data:`~sentiprobe.run.execute.SuitePool`) and every lane shares the prediction cache (SQLite, WAL) and the
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
import threading
import time
import traceback
from collections.abc import Mapping, Sequence
from dataclasses import asdict, fields
from pathlib import Path
from typing import Any

from ..core import env
from ..core.errors import ConfigError, SentiprobeError
from ..core.io import write_json
from ..core.results import read_results
from ..models import MODELS
from ..suites import SUITES
from .config import RunConfig
from .execute import SuitePool, run
from .progress import Progress

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
    entry = MODELS.entry(name)
    if entry.cost is not None:
        return float(entry.cost)
    return LIGHT if "baseline" in entry.tags else HEAVY


def plan_lanes(models: Sequence[str], jobs: int, names: Mapping[str, str] | None = None) -> list[list[str]]:
    """Assign models (labels; ``names`` maps a label to its registered model) to ``jobs`` lanes: heavy ones
    first, each onto the least loaded lane (ties: the first).

    The order inside a lane keeps the given order; lanes without models are dropped.
    """
    lanes: list[list[str]] = [[] for _ in range(max(1, jobs))]
    load = [0.0] * len(lanes)
    costs = {m: model_cost((names or {}).get(m, m)) for m in models}
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
    """Run each config (one model each) in ``jobs`` worker processes; returns label -> results document.

    A lane that fails outside the suites (the cache cannot be opened, a report cannot be written) makes this
    raise after the other lanes finished (their work is kept); Ctrl-C stops every lane.
    """
    by_model = {c.run_label: c for c in configs}
    lanes = plan_lanes([c.run_label for c in configs], jobs, {c.run_label: c.model for c in configs})
    work = Path(tempfile.mkdtemp(prefix="sentiprobe-lanes-"))
    procs: list[tuple[list[str], subprocess.Popen, Path]] = []
    try:
        try:
            for k, lane in enumerate(lanes):
                spec = work / f"lane-{k}.json"
                write_json(spec, {"schema_version": LANE_SPEC_VERSION, "progress": progress.enabled,
                                  "environment": env.installed(), "parent": os.getpid(),
                                      "threads": lane_threads(len(lanes)),
                                  "configs": [asdict(by_model[m]) for m in lane]})
                err = work / f"lane-{k}.error.json"
                procs.append((lane, subprocess.Popen(_child_command(spec, err)), err))
            progress.note(f"running {len(configs)} models in {len(lanes)} parallel processes:\n"
                          + "\n".join("  " + ", ".join(lane) for lane in lanes))
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
        return {c.run_label: read_results(Path(c.out_dir) / "results.json") for c in configs}
    finally:
        shutil.rmtree(work, ignore_errors=True)


_BOOT = ("import json, sys\n"
         "try:\n"
         "    sys.path[:0] = json.loads(sys.argv[1])\n"
         "    from sentiprobe.cli.lane import main\n"
         "    code = main(sys.argv[2], sys.argv[3])\n"
         "except KeyboardInterrupt:  # Ctrl-C while the lane was still starting\n"
         "    code = 130\n"
         "sys.exit(code)\n")


def lane_threads(n_lanes: int) -> int | None:
    """``OMP_NUM_THREADS`` for each of ``n_lanes`` workers (None: one lane, torch's default): the lane's share of
    the CPUs. Torch's default, one thread per core in every lane, oversubscribes the cores (on a busy 2-core
    machine a LexComp probe fit took 1,028 s with two torch threads, 137 s with one). The worker sets it unless
    the user did (:func:`sentiprobe.cli.lane.main`, before torch loads)."""
    return max(1, (os.cpu_count() or 1) // n_lanes) if n_lanes > 1 else None


def _child_command(spec: Path, err: Path) -> list[str]:
    """The worker's command line: the parent's import path first (a source checkout run with PYTHONPATH=src, a
    plug-in on ``sys.path``), then :func:`sentiprobe.cli.lane.main`. The worker inherits the parent's environment
    and reads it when the parent did (the spec says so)."""
    return [sys.executable, "-c", _BOOT, json.dumps([p for p in sys.path if p]), str(spec), str(err)]


def _stop(procs: Sequence[subprocess.Popen], grace: float = 5.0) -> None:
    """Interrupt the worker processes (they got the terminal's SIGINT already, if any), then kill laggards.

    SIGTERM, not SIGINT: a worker of a run started in the background of a script ignores SIGINT (the shell set it so
    and the worker inherits it); a lane turns SIGTERM into the same interruption (:func:`run_lane`)."""
    for p in procs:
        if p.poll() is None:
            p.send_signal(signal.SIGTERM)
    deadline = time.monotonic() + grace
    for p in procs:
        try:
            p.wait(max(0.0, deadline - time.monotonic()))
        except subprocess.TimeoutExpired:
            p.kill()
            p.wait()


PDEATHSIG = 1  # prctl(2) option PR_SET_PDEATHSIG (Linux)


def _interrupt(signum: int, frame: object) -> None:
    """SIGTERM in a lane: the same interruption as Ctrl-C (finished work stays in the cache, exit 130). Once: a
    second SIGTERM (the kernel's and the watchdog's) must not interrupt the lane's own cleanup."""
    signal.signal(signal.SIGTERM, signal.SIG_IGN)
    raise KeyboardInterrupt


def _stop_with_parent(parent: int | None = None, every: float = 1.0, grace: float = 10.0) -> None:
    """End this lane when the parent run dies (killed, not interrupted): an orphan would go on computing and
    writing into a run directory its user believes stopped. Finished work stays in the cache.

    Whatever the signal disposition: the lane is interrupted by SIGTERM (handled by :func:`run_lane` as Ctrl-C), not
    SIGINT, which a run started with ``&`` from a script ignores and its workers with it. On Linux the kernel sends
    it the moment the parent dies (``PR_SET_PDEATHSIG``); everywhere a watchdog thread polls the parent's pid and
    sends it itself, and ends the process outright ``grace`` seconds later if it is still there (stuck in a long
    native call).

    ``parent``: the pid of the run that started the lane (from its spec): a parent killed while the lane was
    still importing is noticed too (the lane's parent is then already another process)."""
    parent = os.getppid() if parent is None else parent
    if sys.platform.startswith("linux"):
        try:
            import ctypes

            ctypes.CDLL(None, use_errno=True).prctl(PDEATHSIG, int(signal.SIGTERM), 0, 0, 0)
        except (OSError, AttributeError):  # no libc prctl: the watchdog below still ends the lane
            pass

    def watch() -> None:
        while os.getppid() == parent:
            time.sleep(every)
        os.kill(os.getpid(), signal.SIGTERM)
        time.sleep(grace)
        os._exit(130)  # the interruption did not end the process: the main thread is stuck

    threading.Thread(target=watch, name="sentiprobe-lane-parent-watch", daemon=True).start()


def run_lane(spec: dict[str, Any], error_path: str) -> int:
    """A lane (its parsed spec): run its configs one after another, sharing loaded suites. Exit 0, 130 (Ctrl-C)
    or 1 (the error written to ``error_path`` for the parent). The process entry is :mod:`sentiprobe.cli.lane`."""
    progress = Progress(sys.stderr, enabled=bool(spec.get("progress")), tty=False)  # lines interleave, bars would not
    signal.signal(signal.SIGTERM, _interrupt)  # the parent's stop, or its death (below)
    _stop_with_parent(spec.get("parent"))
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


