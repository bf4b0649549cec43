"""The Python API. The CLI calls exactly these functions.

>>> import sentiprobe.api as sp
>>> doc = sp.score("arts-laptop", "laptop_results.csv", column="bert_pt")   # doctest: +SKIP
>>> doc["metrics"]["ars"]["value"]                                          # doctest: +SKIP
"""
from __future__ import annotations

import inspect
from collections.abc import Callable, Sequence
from pathlib import Path
from typing import Any

from .core.errors import ConfigError
from .core.types import SCHEMA_VERSION


def list_suites() -> list[dict[str, Any]]:
    from .suites import SUITES

    return [{"name": e.name, "family": getattr(e.factory, "family", ""), "task": getattr(e.factory, "task", ""),
             "labels": list(getattr(e.factory, "labels", ())),
             "description": e.description or getattr(e.factory, "description", "")} for e in SUITES]


def list_models() -> list[dict[str, Any]]:
    from .models import MODELS

    return [{"name": e.name, "description": e.description, "params": e.params, "tags": list(e.tags)}
            for e in MODELS]


def score(suite: str, predictions: str | Path, *, column: str | None = None, data_dir: str | None = None,
          missing: str = "error", n_boot: int = 1000, seed: int = 0, **options: Any) -> dict[str, Any]:
    """Score a predictions file made elsewhere on a suite. Returns the JSON-able score document."""
    from .suites import get_suite

    s = get_suite(suite, data_dir)
    preds = s.read_predictions(predictions, column=column)
    items = s.items("test")
    sig = inspect.signature(s.score).parameters
    if not any(p.kind is inspect.Parameter.VAR_KEYWORD for p in sig.values()):
        options = {k: v for k, v in options.items() if k in sig}
    result = s.score(items, preds, n_boot=n_boot, seed=seed, missing=missing, **options)
    return {"schema_version": SCHEMA_VERSION, "suite": suite, "predictions": str(predictions),
            "column": column, "n_boot": n_boot, "seed": seed, **result.to_dict()}


def run(suites: Sequence[str] | None = None, models: Sequence[str] | None = None, *,
        model_args: dict[str, Any] | None = None, out: str | Path = "runs/latest", data_dir: str | None = None,
        cache_dir: str | None = None, use_cache: bool = True, seed: int = 0, n_boot: int = 1000,
        limit: int | None = None, missing: str = "error", progress: bool = True, repair_cache: bool = False,
        log: Callable[[str], None] = lambda m: None) -> dict[str, Any]:
    """Run models on suites and write the run directory.

    ``suites=None`` runs every suite whose data is available (missing ones are reported through
    ``log`` and listed in the results). ``models=None`` runs the default models. With one model,
    returns its results document; with several, the summary document.
    """
    from .models import MODELS
    from .run.runner import RunConfig, available_suites, run as run_one, run_many

    skipped: list[str] = []
    bare = not suites or not models
    if not suites:
        suites, skipped = available_suites(data_dir)
        if skipped:
            log(f"skipping suites whose data is missing: {', '.join(skipped)} "
                "(run `sentiprobe data fetch` to get them)")
        if not suites:
            raise ConfigError("no suite has its data available; run `sentiprobe data fetch` or set "
                              "SENTIPROBE_DATA_DIR")
    models = list(models) if models else MODELS.names(tag="default")
    if model_args and len(models) > 1:
        raise ConfigError("--model-arg applies to a single --model")
    base = RunConfig(suites=tuple(suites), model=models[0], model_args=dict(model_args or {}), out_dir=str(out),
                     data_dir=data_dir, cache_dir=cache_dir, use_cache=use_cache, seed=seed, n_boot=n_boot,
                     limit=limit, missing=missing, progress=progress, skip_unsupported=bare, repair_cache=repair_cache,
                     unavailable_suites=tuple(skipped))
    if len(models) == 1:
        doc = run_one(base)
    else:
        doc = run_many([(m, {}) for m in models], base)
    log(f"wrote {out}")
    return doc
