"""Range-checked number types for argparse: every numeric option of every command uses one of these, so a bad
number is a usage error at parse time (exit 2, naming the option) before any file is read or model loaded.

``tests/test_cli_argtypes.py`` walks the whole parser and fails on a bare ``type=int`` / ``type=float``.
"""
from __future__ import annotations

import argparse
import math
from collections.abc import Callable

from ..core.limits import MAX_N_BOOT, MAX_SEED

MAX_SECONDS = 7 * 24 * 3600.0
"""Longest time limit accepted (a week): a bigger one is a typo for 'no limit'."""


def int_in(lo: int, hi: int | None = None) -> Callable[[str], int]:
    """An integer in ``[lo, hi]`` (``hi`` None: no upper bound)."""
    rng = f"from {lo:,} to {hi:,}" if hi is not None else f">= {lo:,}"

    def parse(text: str) -> int:
        try:
            v = int(text)
        except ValueError:
            raise argparse.ArgumentTypeError(f"must be an integer {rng}, not {text!r}") from None
        if v < lo or (hi is not None and v > hi):
            raise argparse.ArgumentTypeError(f"must be an integer {rng}, not {text!r}")
        return v

    parse.__name__ = f"int_in({lo}, {hi})"  # argparse names the type in some messages
    return parse


def float_in(lo: float, hi: float, *, open_lo: bool = True, open_hi: bool = True) -> Callable[[str], float]:
    """A finite number in the interval from ``lo`` to ``hi`` (open at the ends marked open)."""
    rng = f"{'(' if open_lo else '['}{lo:g}, {hi:g}{')' if open_hi else ']'}"

    def parse(text: str) -> float:
        try:
            v = float(text)
        except ValueError:
            raise argparse.ArgumentTypeError(f"must be a number in {rng}, not {text!r}") from None
        ok = math.isfinite(v) and (v > lo if open_lo else v >= lo) and (v < hi if open_hi else v <= hi)
        if not ok:
            raise argparse.ArgumentTypeError(f"must be a number in {rng}, not {text!r}")
        return v

    parse.__name__ = f"float_in({lo}, {hi})"
    return parse


SEED = int_in(0, MAX_SEED)
N_BOOT = int_in(0, MAX_N_BOOT)
COUNT = int_in(1)
"""A positive count (items, variants, tokens)."""
SECONDS = float_in(0.0, MAX_SECONDS, open_hi=False)
"""A positive, finite number of seconds."""
PROBABILITY = float_in(0.0, 1.0)
"""A level such as a significance level, in the open interval (0, 1)."""
