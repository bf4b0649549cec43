"""Arguments several commands share."""
from __future__ import annotations

import argparse

from ..suites.spec import DEFAULT_CONFIDENCE
from .argtypes import PROBABILITY


def add_confidence(p: argparse.ArgumentParser, what: str = "every confidence interval and test") -> None:
    """``--confidence LEVEL``: a number in (0, 1), checked at parse time (a usage error, exit 2)."""
    p.add_argument("--confidence", type=PROBABILITY, default=DEFAULT_CONFIDENCE, metavar="LEVEL",
                   help=f"confidence level of {what}, in (0, 1) (default {DEFAULT_CONFIDENCE}); recorded and "
                        "named in the report headers")
