"""The LLM adapter's settings from the environment (only ``cli/`` reads the environment).

``SENTIPROBE_LLM_API_KEY`` (else ``OPENAI_API_KEY``), ``SENTIPROBE_LLM_BASE_URL`` (else ``OPENAI_BASE_URL``)
and ``SENTIPROBE_LLM_MODEL`` become the process defaults of the ``openai-compatible`` adapter
(:func:`sentiprobe.models.llm.configure`); the key never becomes a model argument, so it is never recorded.
"""
from __future__ import annotations

import os
from collections.abc import Mapping, Sequence


def _first(environ: Mapping[str, str], names: Sequence[str]) -> str | None:
    for n in names:
        v = environ.get(n)
        if v and v.strip():
            return v.strip()
    return None


def apply_llm_environment(environ: Mapping[str, str] | None = None) -> None:
    """Pass the LLM variables of ``environ`` (default: the process environment) to the adapter's defaults."""
    from ..models.llm import ENV_API_KEY, ENV_BASE_URL, ENV_MODEL, configure

    env = os.environ if environ is None else environ
    configure(api_key=_first(env, ENV_API_KEY), base_url=_first(env, ENV_BASE_URL), model=_first(env, ENV_MODEL))
