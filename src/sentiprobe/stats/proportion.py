"""Confidence intervals of a binomial proportion (human audit rates, validity rates).

:func:`wilson_interval` is the Wilson score interval, the same formula as statsmodels'
``proportion_confint(count, nobs, alpha, method="wilson")`` (tested against it); written here so product code
needs only scipy's normal quantile, not statsmodels (a test-only oracle in this project).
"""
from __future__ import annotations

import math

from ..core.errors import ConfigError


def _check(k: int, n: int, alpha: float) -> None:
    if not (isinstance(alpha, float | int) and 0 < alpha < 1):
        raise ConfigError(f"alpha must be in (0, 1), not {alpha!r} (confidence = 1 - alpha)")
    if n < 0 or not 0 <= k <= n:
        raise ConfigError(f"a proportion needs 0 <= successes <= trials, got {k} of {n}")


def wilson_interval(k: int, n: int, alpha: float) -> tuple[float | None, float | None]:
    """Wilson score interval of ``k`` successes in ``n`` trials at confidence ``1 - alpha``; ``(None, None)``
    when ``n`` is 0."""
    _check(k, n, alpha)
    if n == 0:
        return None, None
    # heavy (seconds on a busy machine): only this path needs it, `import sentiprobe.api` stays light
    from scipy.stats import norm

    z = float(norm.isf(alpha / 2))
    p = k / n
    z2 = z * z
    denom = 1 + z2 / n
    centre = (p + z2 / (2 * n)) / denom
    half = z * math.sqrt(p * (1 - p) / n + z2 / (4 * n * n)) / denom
    return max(0.0, centre - half), min(1.0, centre + half)
