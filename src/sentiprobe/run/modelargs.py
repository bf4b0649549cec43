"""``--model-arg`` matching: which selected model gets which factory argument.

``MODEL:KEY=VALUE`` targets one model; ``KEY=VALUE`` goes to every selected model whose factory takes ``KEY``,
the same rule as ``--suite-arg`` for suites. A key nobody takes is an error with did-you-mean, never dropped.
"""
from __future__ import annotations

from collections.abc import Mapping, Sequence
from typing import Any

from ..core.errors import ConfigError, did_you_mean
from ..core.registry import accepted_arguments, check_arguments
from ..models import MODELS


def assign_model_args(models: Sequence[str], model_args: Mapping[str, Any] | None) -> dict[str, dict[str, Any]]:
    """Each model's factory arguments from ``{"KEY": value}`` and ``{"MODEL:KEY": value}`` entries.

    ``MODEL:KEY`` targets one of ``models`` (its factory must accept ``KEY``); an unqualified ``KEY`` goes to
    every model whose factory accepts it (a factory taking ``**kwargs`` accepts every key). A key no selected
    model accepts is a ConfigError with did-you-mean, never silently dropped. ``-`` in keys reads as ``_``.
    """
    def accepted(name: str) -> list[str] | None:
        """The factory's keyword names (None: it takes ``**kwargs`` and documents none)."""
        entry = MODELS.entry(name)
        return accepted_arguments(entry.factory, entry.params)

    out: dict[str, dict[str, Any]] = {m: {} for m in models}
    for raw_key, value in (model_args or {}).items():
        if ":" in raw_key:
            model, key = raw_key.split(":", 1)
            key = key.strip().replace("-", "_")
            if model not in out:
                MODELS.entry(model)  # unknown name: did-you-mean
                raise ConfigError(f"--model-arg {raw_key}={value}: model {model!r} is not among the selected "
                                  f"models ({', '.join(models)})")
            entry = MODELS.entry(model)
            check_arguments(f"--model-arg {raw_key}: model {model!r}", entry.factory, {key: value}, entry.params)
            out[model][key] = value
            continue
        key = raw_key.strip().replace("-", "_")
        targets = [m for m in models if (known := accepted(m)) is None or key in known]
        if not targets:
            known_all = sorted({k for m in models for k in (accepted(m) or [])})
            hint = did_you_mean(key, known_all)
            raise ConfigError(f"--model-arg {raw_key}={value}: unknown argument {key!r}: no selected model "
                              f"({', '.join(models)}) takes it{hint}; known: {', '.join(known_all) or 'none'}")
        for m in targets:
            out[m][key] = value
    return out
