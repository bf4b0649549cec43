"""Executors run a sweep's jobs: in this process (``local``) or as Ray tasks (``ray``).

Both call the same function, :func:`sentiprobe.run.sweep_job.execute_job`, which runs one job through the public
API into its own directory, so the two give identical ``results.json`` metrics. Ray adds what one process
cannot: jobs spread over a cluster's CPUs/GPUs with declared resources, and a job whose worker process dies
(killed, out of memory, node lost) is run again up to ``retries`` times, then recorded as failed with Ray's
error while the other jobs finish. Jobs write their run directories themselves, so on a multi-node cluster
``--out`` and the cache directory must be on a filesystem every node mounts (NFS, a shared volume).
"""
from __future__ import annotations

import os
import sys
from collections.abc import Callable, Mapping, Sequence
from typing import Any

from ..core.errors import ConfigError
from .sweep_job import execute_job
from .sweep_plan import Executor, JobFn, Resources

OnDone = Callable[[str, dict[str, Any]], None]
DEFAULT_RESOURCES = Resources()


class LocalExecutor(Executor):
    """Runs jobs one after the other in this process (the default; Ray is not needed)."""

    name = "local"

    def __init__(self, job_fn: JobFn = execute_job) -> None:
        self.job_fn = job_fn

    def run(self, todo: Sequence[tuple[str, dict[str, Any]]], on_done: OnDone) -> None:
        for jid, payload in todo:
            on_done(jid, self.job_fn(payload))


def import_ray() -> Any:
    """Import Ray or raise a ConfigError saying how to install it."""
    try:
        import ray  # optional extra [ray], heavy: imported only when used
    except ImportError:
        raise ConfigError("the ray executor needs Ray: pip install 'sentiprobe[ray]'") from None
    return ray


def private_runtime_env() -> dict[str, Any]:
    """For a private single-node Ray started by the driver: workers import exactly what the driver imports.

    Why: Ray workers are fresh interpreters; without this a source checkout run with ``PYTHONPATH=src`` (or a
    plugin on ``sys.path``) would import another installed sentiprobe, or none, on the workers.
    """
    return {"env_vars": {"PYTHONPATH": os.pathsep.join(p for p in sys.path if p)}}


def _error_of(exc: BaseException) -> dict[str, str]:
    text = str(exc).strip().splitlines()
    return {"type": type(exc).__name__, "message": text[0] if text else type(exc).__name__}


class RayExecutor(Executor):
    """Runs each job as a Ray task with declared resources; retries a job whose worker died.

    Attributes:
        address: the cluster to join (``auto``, ``HOST:PORT`` or ``ray://HOST:PORT``); None starts a private
            single-node Ray in this process for the duration of the sweep.
        resources: CPUs/GPUs/memory each task declares (Ray runs no more tasks on a node than they allow).
        retries: Ray's ``max_retries``: new attempts after a worker dies. Exceptions inside a job are not
            retried (``execute_job`` returns them as a failed outcome; they would fail again).
        runtime_env: passed to ``ray.init`` (e.g. ``{"env_vars": {...}}``); None uses the cluster's own.
    """

    name = "ray"

    def __init__(self, address: str | None = None, resources: Resources = DEFAULT_RESOURCES, retries: int = 2,
                 runtime_env: Mapping[str, Any] | None = None, job_fn: JobFn = execute_job) -> None:
        self.address = address
        self.resources = resources
        self.retries = retries
        self.runtime_env = dict(runtime_env) if runtime_env else None
        self.job_fn = job_fn

    def task_options(self) -> dict[str, Any]:
        opts: dict[str, Any] = {"num_cpus": self.resources.num_cpus, "num_gpus": self.resources.num_gpus,
                                "max_retries": self.retries, "retry_exceptions": False}
        if self.resources.memory_mb:
            opts["memory"] = self.resources.memory_mb * 1024 * 1024
        return opts

    def run(self, todo: Sequence[tuple[str, dict[str, Any]]], on_done: OnDone) -> None:
        ray = import_ray()
        started_here = not ray.is_initialized()
        if started_here:
            kwargs: dict[str, Any] = {"address": self.address, "log_to_driver": False}
            if self.address is None:
                kwargs.update(include_dashboard=False, runtime_env=self.runtime_env or private_runtime_env())
            elif self.runtime_env:
                kwargs["runtime_env"] = self.runtime_env
            try:
                ray.init(**kwargs)
            except ConnectionError as exc:
                raise ConfigError(f"cannot connect to the Ray cluster at {self.address!r}: {exc}") from None
        try:
            task = ray.remote(self.job_fn).options(**self.task_options())
            refs = {task.remote(payload): jid for jid, payload in todo}
            pending = list(refs)
            while pending:
                done, pending = ray.wait(pending, num_returns=1)
                for ref in done:
                    try:
                        res = ray.get(ref)
                    except ray.exceptions.RayError as exc:  # worker died more often than allowed, node lost
                        res = {"status": "failed", "error": _error_of(exc), "seconds": 0.0}
                    on_done(refs[ref], res)
        finally:
            if started_here:
                ray.shutdown()


def make_executor(kind: str, *, address: str | None = None, resources: Resources = DEFAULT_RESOURCES,
                  retries: int = 2, job_fn: JobFn = execute_job) -> Executor:
    """The executor named by ``--executor`` (``local`` or ``ray``), running ``job_fn`` for each job."""
    if kind == "local":
        if address is not None:
            raise ConfigError("--address applies to --executor ray")
        return LocalExecutor(job_fn)
    if kind == "ray":
        import_ray()
        return RayExecutor(address, resources, retries, job_fn=job_fn)
    raise ConfigError(f"unknown executor {kind!r}; choose local or ray")
