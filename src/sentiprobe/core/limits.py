"""The ranges of the numbers every entry point checks: the CLI at parse time (``cli/argtypes.py``), the Python API
and sweep configs when they are built. One table, so the three cannot disagree.

Why upper bounds at all: a number far outside any sensible range is not a big request but a typo or an attack
(``--n-boot 1000000000000`` runs for days; a seed above 2^32 crashes scikit-learn deep inside a fit).
"""
from __future__ import annotations

from .errors import ConfigError, short_repr

MAX_N_BOOT = 100_000
"""Most bootstrap resamples: each costs time linear in the units; published intervals use 1,000 to 10,000."""
MAX_FETCH_RETRIES = 20
"""Most retries of one download on connection errors (``data fetch --retries``)."""
FETCH_STALL_RATE = 1024.0
"""Default bytes/s a download must deliver on average over ``FETCH_STALL_WINDOW`` (``data fetch --stall-rate``)."""
FETCH_STALL_WINDOW = 30.0
"""Default seconds over which the stall rate is measured (``data fetch --stall-window``)."""
MAX_FETCH_STALL_RATE = 1e9
"""Largest ``--stall-rate`` in bytes/s: a bigger one is a typo (every transfer would stall)."""
MAX_SEED = 2**31 - 1
"""Largest seed (multi-seed suites add up to their seed count to it; every library takes 32-bit seeds)."""


def check_int(value: object, what: str, lo: int, hi: int | None = None) -> int:
    """``value`` as an int in ``[lo, hi]`` (booleans refused), else ConfigError naming ``what``."""
    if isinstance(value, bool) or not isinstance(value, int) or value < lo or (hi is not None and value > hi):
        rng = f"from {lo:,} to {hi:,}" if hi is not None else f">= {lo:,}"
        raise ConfigError(f"{what} must be an integer {rng}, not {short_repr(value)}")
    return value


def check_n_boot(value: object, what: str = "n_boot") -> int:
    """Bootstrap resamples in ``[0, MAX_N_BOOT]`` (0: no intervals)."""
    return check_int(value, what, 0, MAX_N_BOOT)


def check_seed(value: object, what: str = "seed") -> int:
    """A seed in ``[0, MAX_SEED]``."""
    return check_int(value, what, 0, MAX_SEED)
