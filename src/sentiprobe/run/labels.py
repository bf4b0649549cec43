"""Model labels: the rule a label must follow, checked when the command line is parsed and again by the API.

A label names a directory of the run (``<out>/<label>/``, ``jobs/<label>/`` of a sweep) and a row of every table,
so it must be a portable file name that cannot land on anything else the run writes: ``--model
report.html=majority`` would make ``<out>/report.html`` a directory and the comparison report could not be written;
a 300-character label is longer than a file name may be. Hence a short ASCII name (letters, digits and ``. _ - +
@``, starting with a letter or digit, so never a hidden file or a ``.part`` temporary) that is none of the run's
own file or folder names, compared without case (a case-insensitive file system sees ``Report.HTML`` as
``report.html``).
"""
from __future__ import annotations

import re

from ..core.errors import ConfigError
from .rundir import TOP_FILES

MAX_LABEL_LENGTH = 64
"""Longest label accepted: well under a file name's 255 bytes, and still a readable table row."""

_LABEL = re.compile(r"[A-Za-z0-9][A-Za-z0-9._@+-]*\Z")

RESERVED_LABELS = (*TOP_FILES, "predictions", "checkpoints", "jobs", "run", "sweep.json")
"""Names a run or a sweep writes beside the model directories (the run's own files, the one-model layout's
``predictions/``, a sweep's ``jobs/`` and ``run/``): a label must not be one of them."""


def label_problem(label: object) -> str | None:
    """Why ``label`` cannot be a model label (None when it can)."""
    if not isinstance(label, str) or not label:
        return "must be a non-empty name"
    if len(label) > MAX_LABEL_LENGTH:
        return f"is {len(label)} characters long; at most {MAX_LABEL_LENGTH} are allowed"
    if not _LABEL.match(label):
        return ("may hold only ASCII letters, digits and '.', '_', '-', '+', '@', and must start with a letter or "
                "digit")
    if label.casefold() in {r.casefold() for r in RESERVED_LABELS}:
        return f"is the name of a file or folder the run writes ({', '.join(RESERVED_LABELS)})"
    return None


def check_label(label: str) -> str:
    """``label`` when it can name a model's directory and table row (see the module docstring); else a ConfigError
    that quotes it (shortened) and says why."""
    problem = label_problem(label)
    if problem is not None:
        shown = label if not isinstance(label, str) or len(label) <= 40 else f"{label[:37]}..."
        raise ConfigError(f"model label {shown!r} {problem}")
    return label


__all__ = ["MAX_LABEL_LENGTH", "RESERVED_LABELS", "check_label", "label_problem"]
