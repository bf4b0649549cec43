"""Entry point of a worker process of ``run --jobs N`` (``python -m sentiprobe.cli.lane SPEC ERROR``).

A lane is started by the CLI's run, so it reads the environment as the CLI does (the LLM key and endpoint,
never written into the lane's spec file) and then runs :func:`sentiprobe.run.lanes.lane_main`. A Ctrl-C that
arrives while the lane is still importing ends it quietly with status 130, as one during its work does, and
so does a parent that died meanwhile (the lane's parent watch starts only after the imports).
"""
from __future__ import annotations

import os
import sys

PARENT = os.getppid()  # before the slow imports: a parent killed meanwhile is noticed below


def main(argv: list[str]) -> int:
    try:
        from .llm_env import apply_llm_environment

        apply_llm_environment()
        from ..run.lanes import lane_main
    except KeyboardInterrupt:
        return 130
    if os.getppid() != PARENT:  # the run died while this lane was starting: nothing to do for it
        return 130
    return lane_main(argv[0], argv[1])


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
