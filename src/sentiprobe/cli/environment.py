"""The one place sentiprobe reads the process environment (see :mod:`sentiprobe.core.env`).

``sentiprobe`` commands call :func:`use_environment` before anything else; so do the processes a command starts
(run lanes, sweep jobs on Ray workers) when the command that started them did. The variables read are those the
command-line help and the README name: ``SENTIPROBE_DATA_DIR``, ``SENTIPROBE_CACHE_DIR``, the LLM endpoint, model
and key, and the suite options' own variables (read by :mod:`.suite_args`).
"""
from __future__ import annotations

import os
from collections.abc import Mapping
from typing import Any

from ..core import env


def use_environment() -> None:
    """Let the library see this process's environment (a live view: later changes are seen too)."""
    env.install(os.environ)


def execute_job_in_environment(payload: Mapping[str, Any]) -> dict[str, Any]:
    """A sweep job (:func:`sentiprobe.api.sweep_job`) on a worker, seeing the worker's environment as the
    command line would (the LLM endpoint and key of the machine the job runs on)."""
    # the command's implementation loads when it runs: `sentiprobe --help` stays instant
    from ..api import sweep_job

    use_environment()
    return sweep_job(payload)
