"""Suite registry. Importing this package registers every built-in suite.

Each protocol subpackage registers its suites into ``SUITES`` when imported.
"""
from __future__ import annotations

from .base import SUITES, Suite, SuiteScore

# built-in protocol subpackages (each registers its suites on import)
from . import arts, noncompsst, sentivent, soul  # noqa: E402,F401

__all__ = ["SUITES", "Suite", "SuiteScore", "get_suite"]


def get_suite(name: str, data_dir=None) -> Suite:
    """Instantiate a registered suite by name (did-you-mean error when unknown)."""
    return SUITES.entry(name).factory(data_dir=data_dir)
