"""The one conversion of a confidence level to ``alpha``, at the boundary of ``stats/``.

Why here: every layer above ``stats/`` speaks of ``confidence`` (the run's one level, ``--confidence``); only the
functions of ``stats/`` take ``alpha``, always as a required argument, so a caller that forgets to pass the run's
level fails the type check instead of silently using 0.05. Every call into ``stats/`` converts with
:func:`alpha_of`; :func:`confidence_of` (the run spec's) reads an alpha back as a level.
"""
from __future__ import annotations

from ..core.runspec import check_confidence, confidence_of

__all__ = ["alpha_of", "confidence_of"]


def alpha_of(confidence: float) -> float:
    """``1 - confidence`` as the decimal it reads as (``0.95`` -> exactly ``0.05``, not ``0.050000000000000044``),
    so that the default level draws the same quantiles, to the last bit, as the code before the option existed.

    Raises ConfigError unless ``confidence`` is a finite number in (0, 1)."""
    return round(1.0 - check_confidence(confidence), 12)
