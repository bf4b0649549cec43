"""Models of a run by label, and ``--model-arg`` matching: which selected model gets which factory argument.

``--model LABEL=NAME`` runs the registered model NAME under LABEL (its directory ``out/<LABEL>/``, its row in
every table); without ``=`` the label is the name. One model may run twice under two labels with different
arguments (``--model plain=openai-compatible,json=openai-compatible``).

``LABEL:KEY=VALUE`` targets one model; ``KEY=VALUE`` goes to every selected model whose options declare ``KEY``,
the same rule as ``--suite-arg`` for suites. A key nobody takes is an error with did-you-mean, never dropped; a
value is checked against the model's typed options (:mod:`sentiprobe.core.options`) before anything runs.
"""
from __future__ import annotations

from collections.abc import Mapping, Sequence
from dataclasses import dataclass, field
from typing import Any

from ..core.errors import ConfigError, did_you_mean
from ..models import MODELS
from .labels import check_label


@dataclass(frozen=True)
class ModelEntry:
    """One model of a run.

    Attributes:
        label: its name in the run (directory ``out/<label>/``, rows of tables and reports).
        name: the registered model (``sentiprobe list models``).
        args: keyword arguments for the model factory.
    """

    label: str
    name: str
    args: Mapping[str, Any] = field(default_factory=dict)


def parse_model_spec(text: str) -> ModelEntry:
    """``LABEL=NAME`` or ``NAME`` (then the label is the name) as a :class:`ModelEntry` without arguments."""
    if "=" in text:
        label, name = (x.strip() for x in text.split("=", 1))
        if not label or not name:
            raise ConfigError(f"--model expects NAME or LABEL=NAME, got {text!r}")
    else:
        label = name = text.strip()
    MODELS.entry(name)  # unknown name: did-you-mean
    return ModelEntry(check_label(label), name)


def model_entries(models: Sequence[Any]) -> list[ModelEntry]:
    """``models`` as entries: each a :class:`ModelEntry`, an object with ``label``/``name``/``args`` (a sweep's
    model), ``"LABEL=NAME"`` or ``"NAME"``, ``(NAME, ARGS)`` or ``(LABEL, NAME, ARGS)``. Labels must follow
    :func:`~.labels.check_label` and be unique, without regard to case."""
    out: list[ModelEntry] = []
    for m in models:
        if isinstance(m, ModelEntry):
            e = m
        elif isinstance(m, str):
            e = parse_model_spec(m)
        elif isinstance(m, tuple) and len(m) == 2:
            e = ModelEntry(m[0], m[0], dict(m[1]))
        elif isinstance(m, tuple) and len(m) == 3:
            e = ModelEntry(m[0], m[1], dict(m[2]))
        elif all(hasattr(m, k) for k in ("label", "name", "args")):
            e = ModelEntry(m.label, m.name, dict(m.args))
        else:
            raise ConfigError(f"not a model: {m!r} (a name, LABEL=NAME, (name, args) or (label, name, args))")
        check_label(e.label)
        out.append(e)
    labels = [e.label.casefold() for e in out]  # `A` and `a` are one directory on a case-insensitive disk
    dupes = sorted({e.label for e in out if labels.count(e.label.casefold()) > 1})
    if dupes:
        raise ConfigError(f"model label(s) {', '.join(map(repr, dupes))} given more than once; run a model twice "
                          "under two labels: --model a=NAME,b=NAME --model-arg a:KEY=VALUE")
    return out


def assign_model_args(models: Sequence[str] | Mapping[str, str],
                      model_args: Mapping[str, Any] | None) -> dict[str, dict[str, Any]]:
    """Each model's factory arguments from ``{"KEY": value}`` and ``{"LABEL:KEY": value}`` entries.

    ``models``: model names, or label -> model name. ``LABEL:KEY`` targets one of them (its factory must
    accept ``KEY``); an unqualified ``KEY`` goes to every model whose factory accepts it (a factory taking
    ``**kwargs`` accepts every key). A key no selected model accepts is a ConfigError with did-you-mean, never
    silently dropped. ``-`` in keys reads as ``_``. Returns label -> arguments.
    """
    names: dict[str, str] = dict(models) if isinstance(models, Mapping) else {m: m for m in models}
    def accepted(name: str) -> list[str] | None:
        """The model's argument names (None: a plug-in factory taking ``**kwargs`` that documents none)."""
        return MODELS.entry(name).arguments()

    out: dict[str, dict[str, Any]] = {m: {} for m in names}
    for raw_key, value in (model_args or {}).items():
        if ":" in raw_key:
            label, key = raw_key.split(":", 1)
            key = key.strip().replace("-", "_")
            if label not in out:
                if label not in MODELS:
                    MODELS.entry(label)  # unknown name: did-you-mean
                raise ConfigError(f"--model-arg {raw_key}={value}: model {label!r} is not among the selected "
                                  f"models ({', '.join(names)})")
            what = f"model {label!r}" if names[label] == label else f"model {label!r} ({names[label]})"
            MODELS.entry(names[label]).parse({key: value}, f"--model-arg {raw_key}: {what}")
            out[label][key] = value
            continue
        key = raw_key.strip().replace("-", "_")
        targets = [m for m, n in names.items() if (known := accepted(n)) is None or key in known]
        if not targets:
            known_all = sorted({k for n in names.values() for k in (accepted(n) or [])})
            hint = did_you_mean(key, known_all)
            raise ConfigError(f"--model-arg {raw_key}={value}: unknown argument {key!r}: no selected model "
                              f"({', '.join(names)}) takes it{hint}; known: {', '.join(known_all) or 'none'}")
        for m in targets:
            MODELS.entry(names[m]).parse({key: value}, f"--model-arg {raw_key}: model {m!r}")
            out[m][key] = value
    return out
