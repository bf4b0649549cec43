"""The default directories, resolved in one place: the cache directory and the data directory.

Both follow the same rule: the variable the command line handed down (:mod:`sentiprobe.core.env`; the library never
reads the process environment itself), else a folder under the user cache directory (``platformdirs``). The
prediction cache, the verified-stamp store, converted local models and ARTS generation resources all live under
:func:`cache_dir`; the datasets under :func:`data_dir`.
"""
from __future__ import annotations

from pathlib import Path

import platformdirs

from . import env

CACHE_ENV_VAR = "SENTIPROBE_CACHE_DIR"
DATA_ENV_VAR = "SENTIPROBE_DATA_DIR"


def user_cache_dir() -> Path:
    """The user cache directory of sentiprobe (``~/.cache/sentiprobe`` on Linux), whatever the environment says."""
    return Path(platformdirs.user_cache_dir("sentiprobe"))


def cache_dir() -> Path:
    """``$SENTIPROBE_CACHE_DIR`` (as the command line installed it), else :func:`user_cache_dir`."""
    value = env.variable(CACHE_ENV_VAR)
    return Path(value).expanduser() if value else user_cache_dir()


def data_dir() -> Path:
    """``$SENTIPROBE_DATA_DIR`` (as the command line installed it), else ``<user cache dir>/data``."""
    value = env.variable(DATA_ENV_VAR)
    return Path(value).expanduser() if value else user_cache_dir() / "data"


__all__ = ["CACHE_ENV_VAR", "DATA_ENV_VAR", "cache_dir", "data_dir", "user_cache_dir"]
