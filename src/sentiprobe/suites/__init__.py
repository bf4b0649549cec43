"""Suite registry. Importing this package registers every built-in suite.

Each protocol subpackage declares one :class:`~.spec.SuiteSpec` per suite and registers it in ``SUITES``.
"""
from __future__ import annotations

from .base import SUITES, Suite, check_predictions, get_suite
from .spec import NoOptions, ScoreConfig, SuiteScore, SuiteSpec, option, parse_options

# built-in protocol subpackages (each registers its suites on import)
from . import arts, lexcomp, noncompsst, sentivent, soul, triplets  # noqa: F401

__all__ = ["SUITES", "NoOptions", "ScoreConfig", "Suite", "SuiteScore", "SuiteSpec", "check_predictions",
           "get_suite", "option", "parse_options"]
