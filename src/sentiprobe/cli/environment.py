"""The one place sentiprobe reads the process environment (see :mod:`sentiprobe.core.env`).

``sentiprobe`` commands call :func:`use_environment` before anything else; so do the processes a command starts
(run lanes, sweep jobs on Ray workers) when the command that started them did. The variables read are those the
command-line help and the README name: ``SENTIPROBE_DATA_DIR``, ``SENTIPROBE_CACHE_DIR``, the LLM endpoint, model
and key, and the suite options' own variables (read by :mod:`.suite_args`).
"""
from __future__ import annotations

import os
from collections.abc import Iterator, Mapping
from typing import Any

from ..core import env
from ..core.paths import CACHE_ENV_VAR, DATA_ENV_VAR

PATH_VARIABLES = (DATA_ENV_VAR, CACHE_ENV_VAR)
"""Directories named by the environment: a relative value is read against the current directory when it is read,
and handed on absolute (every message, record and worker process sees the directory that was meant)."""


class ResolvedEnvironment(Mapping[str, str]):
    """A live view of ``environ`` in which :data:`PATH_VARIABLES` are absolute paths (``~`` expanded)."""

    def __init__(self, environ: Mapping[str, str]) -> None:
        self._environ = environ

    def __getitem__(self, name: str) -> str:
        value = self._environ[name]
        if name in PATH_VARIABLES and value.strip():
            return os.path.abspath(os.path.expanduser(value.strip()))
        return value

    def __iter__(self) -> Iterator[str]:
        return iter(self._environ)

    def __len__(self) -> int:
        return len(self._environ)


def use_environment() -> None:
    """Let the library see this process's environment (a live view: later changes are seen too)."""
    env.install(ResolvedEnvironment(os.environ))


def execute_job_in_environment(payload: Mapping[str, Any]) -> dict[str, Any]:
    """A sweep job (:func:`sentiprobe.api.sweep_job`) on a worker, seeing the worker's environment as the
    command line would (the LLM endpoint and key of the machine the job runs on)."""
    # the command's implementation loads when it runs: `sentiprobe --help` stays instant
    from ..api import sweep_job

    use_environment()
    return sweep_job(payload)
