"""Entry point of a worker process of ``run --jobs N`` (``python -m sentiprobe.cli.lane SPEC ERROR``).

A lane is started by the CLI's run, so it reads the environment as the CLI does (the LLM key and endpoint,
never written into the lane's spec file) and then runs :func:`sentiprobe.run.lanes.lane_main`.
"""
from __future__ import annotations

import sys

from .llm_env import apply_llm_environment

if __name__ == "__main__":
    apply_llm_environment()
    from ..run.lanes import lane_main

    sys.exit(lane_main(sys.argv[1], sys.argv[2]))
