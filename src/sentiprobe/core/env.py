"""The environment as the library sees it: the variables the command line handed down, nothing read here.

Only ``cli/`` reads the process environment. When a command starts, it installs a view of it here
(:func:`install`, called by :func:`sentiprobe.cli.environment.use_environment`), and the few defaults that the
environment may set are looked up in that view: the data directory (``SENTIPROBE_DATA_DIR``), the cache directory
(``SENTIPROBE_CACHE_DIR``) and the LLM endpoint, model and API key (``SENTIPROBE_LLM_*``, ``OPENAI_*``). Nothing is
installed otherwise, so the Python API is a function of its arguments: ``api.run(data_dir=...)``, not of
whatever shell it was started from. A program that wants the command line's behaviour calls
``sentiprobe.cli.environment.use_environment()`` once.

Why a view and not a copy: the CLI installs ``os.environ`` itself, so a variable set later in the process (a test
that sets the cache directory, a worker that inherited it) is seen as the command line would see it.
"""
from __future__ import annotations

from collections.abc import Mapping
from types import MappingProxyType

_EMPTY: Mapping[str, str] = MappingProxyType({})
_installed: Mapping[str, str] = _EMPTY


def install(environ: Mapping[str, str] | None) -> Mapping[str, str]:
    """Make ``environ`` (None: nothing) the environment the library sees; returns the previous one."""
    global _installed
    previous, _installed = _installed, (_EMPTY if environ is None else environ)
    return previous


def installed() -> bool:
    """Whether an environment was installed (by the command line, or a program opting in)."""
    return _installed is not _EMPTY


def variable(*names: str) -> str | None:
    """The first of ``names`` set to a non-blank value in the installed environment (stripped), else None."""
    for name in names:
        value = _installed.get(name)
        if value is not None and value.strip():
            return value.strip()
    return None
