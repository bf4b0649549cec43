"""Arguments several commands share, and the run spec's flags.

``sentiprobe run``'s settings are not declared here: :func:`add_run_settings` derives one flag per field of
:class:`~sentiprobe.core.runspec.RunSettings` (name, help, default, choices, checked parser), so the command
line, the Python API and sweep configs take the same settings.
"""
from __future__ import annotations

import argparse
from collections.abc import Callable, Sequence
from typing import Any

from ..core.runspec import DEFAULT_CONFIDENCE, RunSettings, Setting, setting_fields, setting_names
from .argtypes import N_BOOT, PROBABILITY, SEED

PARSERS: dict[str, Callable[[str], Any] | None] = {"seed": SEED, "n_boot": N_BOOT, "confidence": PROBABILITY,
                                                   "limit": None, "choice": None}
"""The checked parser of each kind of setting (``limit``: parsed by the run spec, which takes a count or a
fraction and says so in its error)."""


def add_confidence(p: argparse._ActionsContainer, what: str = "every confidence interval and test") -> None:
    """``--confidence LEVEL``: a number in (0, 1), checked at parse time (a usage error, exit 2)."""
    p.add_argument("--confidence", type=PROBABILITY, default=DEFAULT_CONFIDENCE, metavar="LEVEL",
                   help=f"confidence level of {what}, in (0, 1) (default {DEFAULT_CONFIDENCE}); recorded and "
                        "named in the report headers")


def flag(name: str) -> str:
    """The command-line flag of a run setting: ``limit_mode`` -> ``--limit-mode``."""
    return "--" + name.replace("_", "-")


def add_run_settings(p: argparse.ArgumentParser, *, only: Sequence[str] | None = None) -> None:
    """One flag per run setting (all of them, or ``only`` those), derived from the run spec."""
    for f in setting_fields():
        if only is not None and f.name not in only:
            continue
        meta: Setting = f.metadata["setting"]
        kw: dict[str, Any] = {"default": f.default, "help": meta.help}
        if meta.choices:
            kw["choices"] = meta.choices
        if PARSERS[meta.kind] is not None:
            kw["type"] = PARSERS[meta.kind]
        if meta.metavar:
            kw["metavar"] = meta.metavar
        p.add_argument(flag(f.name), dest=f.name, **kw)


def run_settings(args: argparse.Namespace) -> RunSettings:
    """The run spec of parsed arguments (a ConfigError for a value the flags' parsers let through, e.g.
    ``--limit 0``)."""
    return RunSettings(**{n: getattr(args, n) for n in setting_names() if hasattr(args, n)})
