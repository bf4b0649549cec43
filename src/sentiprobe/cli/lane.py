"""The entry of a run lane's worker process (started by :func:`sentiprobe.run.lanes.run_lanes`).

A process entry point, hence here: it reads the environment when the run that started it did (``sentiprobe run``
does; an API caller who did not opt in keeps its lanes as blind to the environment as itself).
"""
from __future__ import annotations

import json
import os
from pathlib import Path

from .environment import use_environment


def main(spec_path: str, error_path: str) -> int:
    """Run the lane described by the JSON spec at ``spec_path``; exit 0, 130 (Ctrl-C) or 1."""
    spec = json.loads(Path(spec_path).read_text(encoding="utf-8"))
    if spec.get("threads") and "OMP_NUM_THREADS" not in os.environ:  # before torch loads; the user's value wins
        os.environ["OMP_NUM_THREADS"] = str(spec["threads"])
    # imported after OMP_NUM_THREADS is set: torch reads it when it loads
    from ..api import run_lane

    if spec.get("environment"):
        use_environment()
    return run_lane(spec, error_path)
