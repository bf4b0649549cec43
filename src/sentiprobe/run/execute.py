"""Running one model on the configured suites: fit (where the model learns), predict through the cache,
score, and write the model's directory of the run layout (see :mod:`.runner`).

Every file is written atomically and the results after every suite; finished model calls and fitted states
live in the SQLite cache, so a run killed at any point and started again recomputes nothing that finished.
"""
from __future__ import annotations

import logging
import platform
import sys
from dataclasses import asdict
from datetime import UTC, datetime
from pathlib import Path
from typing import Any

from .. import __version__
from ..core.errors import CapabilityError, ConfigError, MissingDataError, SentiprobeError
from ..core.hashing import stable_hash
from ..core.io import atomic_write_text, json_text
from ..core.types import Prediction
from ..data import resolve_data_dir
from ..models import MODELS, create_model
from ..report.html import render_report
from ..core.results import RESULTS_SCHEMA_VERSION, mark_small_samples, validate_results
from ..suites import Suite, get_suite
from .cache import NullCache, PredictionCache
from .config import RunConfig, capability_problem, model_identity, validate_config
from .fitting import prepare
from .limit import apply_limit, unit_names
from .predictor import CachedPredictor, with_seed
from .progress import NULL_PROGRESS, Progress
from .provenance import data_hashes, git_commit, package_versions, prediction_lines
from .score_cache import score_cached, with_generation

log = logging.getLogger("sentiprobe")


def run_suite(suite_name: str, cfg: RunConfig, cache: PredictionCache, *,
              progress: Progress = NULL_PROGRESS) -> tuple[dict[str, Any], list[Prediction]]:
    """Fit/predict/score one suite with one model. Returns the suite's results entry and predictions."""
    entry, preds, _ = run_suite_items(suite_name, cfg, cache, progress=progress)
    return entry, preds


SuitePool = dict[tuple[str, str], Suite]
"""Bound suites of one run over several models, by (suite, options): each model uses a :meth:`Suite.shared`
twin, so the data is read, verified and turned into items once per run, not once per model."""


def bind_suite(suite_name: str, cfg: RunConfig, pool: SuitePool | None = None) -> Suite:
    """The suite ``suite_name`` bound to the run's data dir and options (shared through ``pool``)."""
    options = cfg.suite_options.get(suite_name)
    if pool is None:
        return get_suite(suite_name, cfg.data_dir, options)
    key = (suite_name, stable_hash({"data_dir": cfg.data_dir, "options": options}, 32))
    if key not in pool:
        pool[key] = get_suite(suite_name, cfg.data_dir, options)
    return pool[key].shared()


def run_suite_items(suite_name: str, cfg: RunConfig, cache: PredictionCache, *, progress: Progress = NULL_PROGRESS,
                    suites: SuitePool | None = None) -> tuple[dict[str, Any], list[Prediction], str]:
    """:func:`run_suite` plus the predictions file's text (each prediction with its item's gold label).

    Each stage (load, fit, predict, score) is reported through ``progress`` with the model and suite named,
    and timed in the entry's ``seconds``. ``suites`` shares loaded suites between the models of a run.
    """
    seconds: dict[str, float] = {"load": 0.0, "fit": 0.0, "predict": 0.0, "score": 0.0}
    MODELS.entry(cfg.model)
    suite = bind_suite(suite_name, cfg, suites)
    _check_capability(suite, cfg)  # before loading: a bare run skips what the model cannot do at no cost
    with progress.stage(cfg.run_label, suite_name, "load") as t:
        items, limit_record = apply_limit(suite.items("test"), cfg.limit, mode=cfg.limit_mode, seed=cfg.limit_seed,
                                          unit=suite.spec.groups_name)
    seconds["load"] = t["seconds"]
    n_seeds = suite.n_seeds
    preds: list[Prediction] = []
    fits, fingerprints = [], []
    model_config: dict[str, Any] = {}
    label_mapping: dict[str, Any] | None = None
    hits = computed = 0
    seeds_identical = False
    asked: dict[str, Any] | None = None  # how a generative model was asked (prompt, schema, decoding mode)
    for k in range(n_seeds):
        model = create_model(cfg.model, **cfg.model_args)
        try:
            if k == 0:  # the model's labels against the suite's, before any fit or inference
                label_mapping = _label_mapping(model, suite, cfg)
            # fine-tuned checkpoints live beside the cache that records their fitted state
            root = Path(cfg.out_dir) if isinstance(cache, NullCache) else cache.path.parent
            model.set_workdir(root / "checkpoints")
            seed = cfg.seed + k
            tag = f"seed {seed}" if n_seeds > 1 else ""
            if model.learns:
                with progress.stage(cfg.run_label, suite_name, "fit", tag) as t:
                    prepared = prepare(model, suite, cache, seed)
                seconds["fit"] += t["seconds"]
            else:
                prepared = prepare(model, suite, cache, seed)
            fits.append(prepared.fit)
            predictor = CachedPredictor(model, cache, progress=progress,
                                        desc=f"{suite_name}/{cfg.run_label}" + (f"/seed{seed}" if n_seeds > 1 else ""),
                                        fingerprint=prepared.fingerprint, ready=prepared.ready)
            detail = ", ".join(x for x in (f"{len(items)} items", tag) if x)
            with progress.stage(cfg.run_label, suite_name, "predict", detail) as t:
                predicted = suite.predict_stage(predictor, items)
            p = list(predicted.predictions)
            asked = dict(predicted.asked) if predicted.asked is not None else asked
            seconds["predict"] += t["seconds"]
            preds.extend(with_seed(p, seed) if n_seeds > 1 else p)
            fingerprints.append(predictor.fingerprint)
            if not model_config:
                model_config = model.config()  # the full recipe (every hyper-parameter), not only the given args
            hits += predictor.hits
            computed += predictor.computed
            if n_seeds > 1 and (not model.learns or getattr(model, "seed_invariant", False)):
                # a model that does not learn, or whose fit ignores the seed, gives the same predictions
                # for every seed: fitted and asked once, recorded per seed
                seeds_identical = True
                for extra in range(1, n_seeds):
                    preds.extend(with_seed(p, cfg.seed + extra))
                break
        finally:
            model.close()
    lines = prediction_lines(preds, items)
    # written before scoring: a bug of the score stage must not lose the predictions
    target = Path(cfg.out_dir) / "predictions" / f"{suite_name}.jsonl"
    target.parent.mkdir(parents=True, exist_ok=True)
    atomic_write_text(target, lines)
    hashes = data_hashes(suite)
    with progress.stage(cfg.run_label, suite_name, "score", f"{cfg.n_boot} bootstrap resamples") as t:
        metrics, details, units, from_cache = score_cached(suite, items, preds, lines, hashes, cfg, cache,
                                                    learned=any(f.get("fitted") for f in fits))
    seconds["score"] = t["seconds"]
    metrics, details = with_generation(preds, asked, metrics, details, cfg)
    metrics = mark_small_samples(metrics, unit_names(metrics, items, suite.spec.groups_name))
    entry = {
        "suite": suite.describe(),
        "items_hash": suite.items_hash(items),
        "metrics": metrics,
        "details": details,
        "n_items": len(items),
        **({"units": units} if units is not None else {}),
        "confidence": cfg.confidence,
        "limit": limit_record,
        "task": suite.task,
        "labels": list(suite.labels),
        "model_fingerprints": fingerprints,
        "model_config": model_config,
        **({"label_mapping": label_mapping} if label_mapping is not None else {}),
        "fit": fits,
        "cache": {"hits": hits, "computed": computed, "score_from_cache": from_cache},
        "seeds_identical_by_construction": seeds_identical,
        "seconds": {k: round(v, 3) for k, v in seconds.items()},
        "data_files": hashes,
    }
    return entry, preds, lines


def _label_mapping(model: Any, suite: Suite, cfg: RunConfig) -> dict[str, Any] | None:
    """``model.label_mapping``, with a ``label_map`` hint addressed to this model's label (``LABEL:label_map=``):
    pasted unprefixed, it would go to every selected model that takes ``label_map`` and break the others."""
    try:
        return model.label_mapping(suite.labels)
    except ConfigError as exc:
        msg = str(exc)
        if "--model-arg label_map=" not in msg:
            raise
        raise ConfigError(msg.replace("--model-arg label_map=", f"--model-arg {cfg.run_label}:label_map=")) from None


def _check_capability(suite: Suite, cfg: RunConfig) -> None:
    model = create_model(cfg.model, **cfg.model_args)  # cheap: weights load on first use
    try:
        problem = capability_problem(suite, model.capabilities, cfg.run_label, bare=cfg.bare)
        if problem:
            raise CapabilityError(problem)
        why = suite.refusal(model)
        if why:
            raise CapabilityError(why)
    finally:
        model.close()


def _error_record(exc: BaseException, kind: str) -> dict[str, str]:
    return {"type": type(exc).__name__, "message": str(exc), "kind": kind}


def run(cfg: RunConfig, *, progress: Progress = NULL_PROGRESS, suites: SuitePool | None = None) -> dict[str, Any]:
    """Run one model on the configured suites into ``cfg.out_dir`` (a model directory of the layout).

    Returns the results document. A suite that fails records its error (type, message; ``kind``
    ``missing-data`` for a missing data file, ``bug`` for an unexpected exception, whose traceback goes to
    ``run.log``) under ``errors`` and the other suites still run; callers exit non-zero when ``errors`` is
    not empty. An error outside the suites (the cache cannot be opened, the report cannot be written) is
    written to ``run.log`` too, then raised.
    """
    validate_config(cfg)
    out = Path(cfg.out_dir)
    for p in (out, *out.parents):
        if p.exists() and not p.is_dir():
            raise ConfigError(f"--out {out}: {p} exists and is not a directory")
    (out / "predictions").mkdir(parents=True, exist_ok=True)
    handler = logging.FileHandler(out / "run.log", encoding="utf-8")
    handler.setFormatter(logging.Formatter("%(asctime)s %(levelname)s %(message)s"))
    log.addHandler(handler)
    log.setLevel(logging.INFO)
    try:
        return _run_logged(cfg, out, progress, suites)
    except BaseException as exc:
        log.error("run of model %s stopped: %s: %s", cfg.run_label, type(exc).__name__, exc,
                  exc_info=not isinstance(exc, SentiprobeError | KeyboardInterrupt))
        raise
    finally:
        log.removeHandler(handler)
        handler.close()


def _run_logged(cfg: RunConfig, out: Path, progress: Progress, suites: SuitePool | None) -> dict[str, Any]:
    cache = PredictionCache.open(cfg.cache_dir, repair=cfg.repair_cache) if cfg.use_cache else NullCache()
    results: dict[str, Any] = {
        "schema_version": RESULTS_SCHEMA_VERSION,
        "sentiprobe_version": __version__,
        "created": datetime.now(UTC).isoformat(timespec="seconds"),
        "command": " ".join(sys.argv),
        "config": asdict(cfg),
        "seed": cfg.seed,
        "model": {"name": cfg.model, "label": cfg.run_label, "args": dict(cfg.model_args),
                  "identity": model_identity(cfg.model, cfg.model_args)},
        "provenance": {"packages": package_versions(), "git_commit": git_commit(),
                       "data_dir": str(resolve_data_dir(cfg.data_dir).resolve()), "platform": platform.platform()},
        "suites": {},
    }
    encoded: dict[str, tuple[Any, str]] = {}
    try:
        for name in cfg.suites:
            log.info("suite %s: model %s", name, cfg.run_label)
            try:
                entry, _, _ = run_suite_items(name, cfg, cache, progress=progress, suites=suites)
            except CapabilityError as exc:
                if cfg.skip_unsupported:
                    results.setdefault("skipped", {})[name] = str(exc)
                    log.info("suite %s skipped: %s", name, exc)
                else:
                    results.setdefault("errors", {})[name] = _error_record(exc, "error")
                    log.error("suite %s failed: %s", name, exc)
            except MissingDataError as exc:
                results.setdefault("errors", {})[name] = _error_record(exc, "missing-data")
                log.error("suite %s: data missing: %s", name, exc)
            except SentiprobeError as exc:
                results.setdefault("errors", {})[name] = _error_record(exc, "error")
                log.error("suite %s failed: %s: %s", name, type(exc).__name__, exc)
            except Exception as exc:  # a bug in one suite must not lose the others' results
                results.setdefault("errors", {})[name] = _error_record(exc, "bug")
                log.exception("suite %s failed with an unexpected error (a bug; please report it)", name)
            else:
                results["suites"][name] = entry
                log.info("suite %s done in %s: %s", name, entry["seconds"],
                         {k: v["value"] for k, v in entry["metrics"].items()})
            validate_results(results, out / "results.json")
            # after every suite: partial results survive a kill (each suite's text encoded once, per-unit
            # scores on one line)
            atomic_write_text(out / "results.json", json_text(results, "suites", encoded, ("units",)))
        atomic_write_text(out / "report.html", render_report(results))
    finally:
        cache.close()
    return results

