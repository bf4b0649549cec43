"""The OpenAI-compatible adapter's process defaults: base URL, model and API key, and base-URL checks.

A program sets them with :func:`configure`; the command line installs its environment (:mod:`sentiprobe.core.env`)
and the variables :data:`ENV_BASE_URL`, :data:`ENV_MODEL` and :data:`ENV_API_KEY` fill what was not configured.
The key is never a model argument (those are recorded in ``results.json``).
"""
from __future__ import annotations

import threading
from collections.abc import Sequence
from urllib.parse import parse_qsl, urlsplit

from ..core import env
from ..core.errors import ConfigError

ENV_BASE_URL = ("SENTIPROBE_LLM_BASE_URL", "OPENAI_BASE_URL")
ENV_MODEL = ("SENTIPROBE_LLM_MODEL",)
ENV_API_KEY = ("SENTIPROBE_LLM_API_KEY", "OPENAI_API_KEY")
"""The environment variables of the LLM adapter's defaults (first non-empty wins; read through
:mod:`sentiprobe.core.env`, which only the command line fills)."""
_SECRET_QUERY = ("key", "token", "secret", "sig", "password")

_DEFAULTS: dict[str, str | None] = {"api_key": None, "base_url": None, "model": None}
_DEFAULTS_LOCK = threading.Lock()


def _env(names: Sequence[str]) -> str | None:
    return env.variable(*names)  # the environment the command line installed (only cli/ reads os.environ)


def configure(*, api_key: str | None = None, base_url: str | None = None, model: str | None = None) -> None:
    """Set the process defaults of the OpenAI-compatible adapter (a program's explicit settings).

    The API key is never a model argument (those are recorded in ``results.json``): give it here. Adapters
    created afterwards use these values when their ``base_url`` / ``model`` arguments are empty; without
    them, the variables of the environment the command line installed (:mod:`sentiprobe.core.env`).
    """
    with _DEFAULTS_LOCK:
        _DEFAULTS.update(api_key=(api_key or "").strip() or None, base_url=(base_url or "").strip() or None,
                         model=(model or "").strip() or None)


def default_setting(key: str, names: Sequence[str]) -> str | None:
    """A setting given to :func:`configure`, else the first of ``names`` in the installed environment."""
    return _DEFAULTS[key] or _env(names)


def resolve_api_key() -> str | None:
    """The API key set by :func:`configure`, else ``SENTIPROBE_LLM_API_KEY`` / ``OPENAI_API_KEY`` of the installed
    environment (never a model argument, so never recorded)."""
    return default_setting("api_key", ENV_API_KEY)


def check_base_url(url: str) -> str:
    """A normalised base URL; refuses embedded credentials (they would be written into results)."""
    u = url.strip().rstrip("/")
    parts = urlsplit(u)
    if parts.scheme not in ("http", "https") or not parts.netloc:
        raise ConfigError(f"base_url must be an http(s) URL such as http://127.0.0.1:8000/v1, got {url!r}")
    if parts.username or parts.password:
        raise ConfigError("base_url must not contain credentials (user:password@host): sentiprobe records the "
                          "base URL in results; put the key in SENTIPROBE_LLM_API_KEY instead")
    for k, _ in parse_qsl(parts.query):
        if any(s in k.lower() for s in _SECRET_QUERY):
            raise ConfigError(f"base_url must not carry secrets in its query string (parameter {k!r}): "
                              "put the key in SENTIPROBE_LLM_API_KEY instead")
    return u


__all__ = ["ENV_API_KEY", "ENV_BASE_URL", "ENV_MODEL", "check_base_url", "configure", "default_setting",
           "resolve_api_key"]
