"""Hyper-parameter search of a trainable model on a suite's dev split with Ray Tune.

The protocol (as SENTiVENT's: Bayesian search with hyperband early stopping, winner by dev score):

1. **Search** (:func:`search`): each trial fits the model with one configuration on growing fractions of the
   training split (``fidelities``, e.g. 1/4, 1/2, all: the rungs of the ASHA scheduler, which stops the
   trials whose dev score trails) and reports the dev selection metric (macro-F1 by default) and the dev log
   loss. Configurations come from Optuna's TPE sampler through Ray Tune's ``OptunaSearch`` when ``optuna`` is
   installed, else from Ray's ``BasicVariantGenerator`` (random search over the same space; recorded).
2. **Selection**: among the trials that reached the last rung, the highest dev score; ties (equal to 1e-12)
   go to the lowest dev log loss (the SENTiVENT spec's rule), then to the earliest trial.
3. **Final**: the chosen configuration is retrained with several seeds on the full training split and
   evaluated once on test, as a sweep (one run directory per seed, :mod:`.sweep`).

Outputs under ``out``: ``trials.csv`` (one row per trial: configuration, rungs reached, dev score and loss,
stopped early or not), ``tune.json`` (settings, searcher used, chosen configuration, final test metrics per
seed and their mean) and ``final/`` (the sweep of the retrained model). Never imported by the core: Ray is an
optional extra.
"""
from __future__ import annotations

import csv
import io
import json
import math
import re
import shutil
import tempfile
from collections.abc import Mapping, Sequence
from dataclasses import asdict, dataclass, field
from pathlib import Path
from typing import Any

import numpy as np

from ..core.errors import ConfigError
from ..core.io import atomic_write_text, write_json
from ..core.runspec import RunSettings
from ..models import MODELS, create_model
from ..stats.classification import accuracy, macro_f1
from ..suites import get_suite
from .executors import import_ray, make_executor, private_runtime_env
from .sweep import run_sweep
from .sweep_plan import ModelSpec, SuiteEntry, SweepConfig

SPACE_KINDS = ("loguniform", "uniform", "choice")


@dataclass(frozen=True)
class TuneConfig:
    """A search (recorded in ``tune.json``).

    Attributes:
        model: registered trainable model (``learns``), e.g. ``tfidf-lr``.
        suite: suite whose train split fits and whose dev split scores the trials.
        space: model argument -> ``("loguniform"|"uniform", low, high)`` or ``("choice", [values])``.
        fixed_args: model arguments shared by every trial.
        num_samples: trials to run.
        metric: dev selection metric, ``macro_f1`` or ``accuracy``.
        fidelities: increasing fractions of the training split, one ASHA rung each (the last should be 1).
        max_train: cap on the training items the search uses (None: all); the final retrain uses the full split.
        seeds: seeds of the final retrain (one run directory each).
        search_seed: seed of the searcher and of the training subsamples.
        limit, n_boot: as in ``run`` for the final test evaluation.
        searcher: ``optuna`` (TPE; falls back to ``random`` when optuna is missing, recorded) or ``random``.
        max_concurrent: trials running at once.
    """

    model: str
    suite: str
    space: Mapping[str, tuple]
    fixed_args: Mapping[str, Any] = field(default_factory=dict)
    num_samples: int = 16
    metric: str = "macro_f1"
    fidelities: tuple[float, ...] = (0.25, 0.5, 1.0)
    max_train: int | None = None
    seeds: tuple[int, ...] = (0, 1, 2)
    search_seed: int = 0
    limit: int | None = None
    n_boot: int = 1000
    searcher: str = "optuna"
    max_concurrent: int = 2

    def __post_init__(self) -> None:
        if self.metric not in ("macro_f1", "accuracy"):
            raise ConfigError(f"tune: metric must be macro_f1 or accuracy, not {self.metric!r}")
        if not self.fidelities or any(not 0 < f <= 1 for f in self.fidelities) or \
                list(self.fidelities) != sorted(set(self.fidelities)):
            raise ConfigError(f"tune: fidelities must be increasing fractions in (0, 1], not {self.fidelities!r}")
        if self.searcher not in ("optuna", "random"):
            raise ConfigError(f"tune: searcher must be optuna or random, not {self.searcher!r}")
        for name, spec in self.space.items():
            if not spec or spec[0] not in SPACE_KINDS:
                raise ConfigError(f"tune: space.{name} must start with one of {', '.join(SPACE_KINDS)}")
            if spec[0] != "choice" and not (len(spec) == 3 and 0 < float(spec[1]) < float(spec[2])):
                raise ConfigError(f"tune: space.{name}: ({spec[0]!r}, low, high) with 0 < low < high")
        if self.num_samples < 1 or not self.seeds:
            raise ConfigError("tune: num_samples must be >= 1 and seeds non-empty")


def _tune_space(space: Mapping[str, tuple]) -> dict[str, Any]:
    from ray import tune  # optional extra [ray], heavy: imported only when used

    out = {}
    for k, spec in space.items():
        if spec[0] == "loguniform":
            out[k] = tune.loguniform(float(spec[1]), float(spec[2]))
        elif spec[0] == "uniform":
            out[k] = tune.uniform(float(spec[1]), float(spec[2]))
        else:
            out[k] = tune.choice(list(spec[1]))
    return out


def subsample(n: int, fraction: float, seed: int) -> list[int]:
    """Indices of a seeded ``fraction`` of ``range(n)`` (nested: a larger fraction contains a smaller one)."""

    order = np.random.default_rng(seed).permutation(n)
    return sorted(int(i) for i in order[: max(1, math.ceil(fraction * n))])


def dev_scores(model: Any, dev: Sequence[Any], labels: Sequence[str], input_kind: str, metric: str
               ) -> tuple[float, float]:
    """(selection metric, mean log loss) of a fitted model on the dev items (loss NaN without scores)."""
    preds = model.classify(dev, labels, input_kind)
    gold = [it.label for it in dev]
    got = [p.label for p in preds]
    m = (macro_f1(gold, got, labels, n_boot=0, alpha=None) if metric == "macro_f1"
         else accuracy(gold, got, n_boot=0, alpha=None))  # the value only: no interval
    losses = [-math.log(max(p.scores.get(it.label, 0.0), 1e-15)) for p, it in zip(preds, dev) if p.scores]
    value = float(m.value) if m.value is not None else float("nan")
    return value, (sum(losses) / len(losses) if len(losses) == len(dev) else float("nan"))


def trainable(config: dict[str, Any], *, model: str, fixed_args: Mapping[str, Any], train: list, dev: list,
              labels: list[str], input_kind: str, fidelities: Sequence[float], metric: str, seed: int) -> None:
    """A Ray Tune function trainable: one report per fidelity rung (ASHA may stop it between rungs)."""
    from ray import tune  # optional extra [ray], heavy: imported only when used

    for rung, fraction in enumerate(fidelities, 1):
        sub = [train[i] for i in subsample(len(train), fraction, seed)]
        m = create_model(model, **{**dict(fixed_args), **config})
        try:
            m.fit(sub, dev, labels, input_kind=input_kind, seed=seed)
            score, loss = dev_scores(m, dev, labels, input_kind, metric)
        finally:
            m.close()
        tune.report({"dev_score": score, "dev_loss": loss, "rung": rung, "n_train": len(sub)})


def select(rows: Sequence[Mapping[str, Any]], last_rung: int) -> Mapping[str, Any]:
    """The winner: highest dev score among trials at the last rung; ties: lowest dev loss, then earliest."""
    full = [r for r in rows if r["rungs"] == last_rung and r["dev_score"] is not None]
    if not full:
        errors = [r["error"] for r in rows if r.get("error")]
        if errors:
            raise ConfigError(f"tune: no trial finished; {len(errors)} failed, the first with: {errors[0][:2000]}")
        raise ConfigError("tune: no trial reached the last fidelity rung; raise num_samples")

    def key(r: Mapping[str, Any]) -> tuple:
        loss = r["dev_loss"] if r["dev_loss"] is not None and not math.isnan(r["dev_loss"]) else math.inf
        return (-round(r["dev_score"], 12), loss, r["order"])

    return min(full, key=key)


def _creation_order(res: Any) -> tuple[int, str]:
    """Trials in the order the searcher proposed them: Ray names a trial's directory ``<fn>_<id>_<index>_...``."""
    name = Path(str(getattr(res, "path", "") or "")).name
    m = re.search(r"_[0-9a-f]{5,}_(\d+)_", name)
    return (int(m.group(1)) if m else 1 << 30, name)


def _searcher(cfg: TuneConfig) -> tuple[Any, str]:
    # optional extra [ray], heavy: imported only when used
    from ray.tune.search import BasicVariantGenerator, ConcurrencyLimiter

    if cfg.searcher == "optuna":
        try:
            import optuna  # noqa: F401 - only to know whether the TPE searcher can run
        except ImportError:
            pass
        else:
            from ray.tune.search.optuna import OptunaSearch  # optional extra [ray], heavy: imported only when used

            return ConcurrencyLimiter(OptunaSearch(seed=cfg.search_seed), max_concurrent=cfg.max_concurrent), \
                "optuna-tpe"
    return BasicVariantGenerator(random_state=cfg.search_seed, max_concurrent=cfg.max_concurrent), "random"


def search(cfg: TuneConfig, out: str | Path, *, data_dir: str | None = None, cache_dir: str | None = None,
           address: str | None = None, executor: str = "local") -> dict[str, Any]:
    """Run the search, write ``trials.csv`` and ``tune.json``, retrain the winner with ``cfg.seeds``.

    ``address``: Ray cluster for the trials (None: a private single-node Ray). ``executor``: where the final
    retrain runs (``local`` or ``ray``, as ``sentiprobe sweep``).
    """

    ray = import_ray()
    from ray import tune  # optional extra [ray], heavy: imported only when used
    from ray.tune.schedulers import ASHAScheduler  # optional extra [ray], heavy: imported only when used

    probe = create_model(cfg.model, **dict(cfg.fixed_args))
    try:
        if not probe.learns:
            raise ConfigError(f"tune: model {cfg.model!r} does not learn; nothing to search")
    finally:
        probe.close()
    MODELS.entry(cfg.model)
    suite = get_suite(cfg.suite, data_dir)
    train, dev = suite.training()
    if not train or not dev:
        raise ConfigError(f"tune: suite {cfg.suite!r} needs train and dev items")
    if cfg.max_train is not None:
        train = [train[i] for i in subsample(len(train), min(1.0, cfg.max_train / len(train)), cfg.search_seed)]
    out = Path(out)
    out.mkdir(parents=True, exist_ok=True)
    # Ray Tune's own experiment state (which includes pickles) lives in a temp dir: nothing kept is a pickle
    storage = tempfile.mkdtemp(prefix="sentiprobe-tune-")
    started_here = not ray.is_initialized()
    if started_here:
        ray.init(address=address, log_to_driver=False,
                 **({"include_dashboard": False, "runtime_env": private_runtime_env()} if address is None else {}))
    try:
        search_alg, searcher_used = _searcher(cfg)
        fn = tune.with_parameters(trainable, model=cfg.model, fixed_args=dict(cfg.fixed_args), train=train,
                                  dev=dev, labels=list(suite.labels), input_kind=suite.input_kind,
                                  fidelities=list(cfg.fidelities), metric=cfg.metric, seed=cfg.search_seed)
        scheduler = ASHAScheduler(time_attr="training_iteration", max_t=len(cfg.fidelities), grace_period=1,
                                  reduction_factor=2)
        tuner = tune.Tuner(
            tune.with_resources(fn, {"cpu": 1}), param_space=_tune_space(cfg.space),
            tune_config=tune.TuneConfig(metric="dev_score", mode="max", num_samples=cfg.num_samples,
                                        scheduler=scheduler, search_alg=search_alg),
            run_config=tune.RunConfig(name="search", storage_path=storage, verbose=0))
        grid = tuner.fit()
        rows = []
        results = [grid[i] for i in range(len(grid))]
        for order, res in enumerate(sorted(results, key=_creation_order)):
            metrics = res.metrics or {}
            hist = res.metrics_dataframe
            rows.append({"order": order, "trial_id": metrics.get("trial_id"),
                         **{f"config.{k}": v for k, v in sorted((res.config or {}).items())},
                         "rungs": int(metrics.get("rung", 0) or 0),
                         "dev_score": metrics.get("dev_score"), "dev_loss": metrics.get("dev_loss"),
                         "n_train": metrics.get("n_train"),
                         "dev_score_per_rung": ";".join(f"{v:.6f}" for v in hist["dev_score"])
                         if hist is not None and "dev_score" in hist else "",
                         "error": str(res.error) if res.error else ""})
    finally:
        if started_here:
            ray.shutdown()
        shutil.rmtree(storage, ignore_errors=True)
    for r in rows:
        r["stopped_early"] = r["rungs"] < len(cfg.fidelities) and not r["error"]
    best = select(rows, len(cfg.fidelities))
    best_args = {**dict(cfg.fixed_args), **{k[7:]: v for k, v in best.items() if k.startswith("config.")}}
    buf = io.StringIO()
    fields = list(dict.fromkeys(k for r in rows for k in r))
    w = csv.DictWriter(buf, fieldnames=fields, lineterminator="\n")
    w.writeheader()
    w.writerows(rows)
    atomic_write_text(out / "trials.csv", buf.getvalue())

    final_cfg = SweepConfig(models=(ModelSpec(cfg.model, "best", best_args),), suites=(SuiteEntry(cfg.suite),),
                            seeds=tuple(cfg.seeds), settings=RunSettings(limit=cfg.limit, n_boot=cfg.n_boot))
    index = run_sweep(final_cfg, out / "final", make_executor(executor, address=address),
                      data_dir=data_dir, cache_dir=cache_dir)

    summary = json.loads((out / "final" / "summary.json").read_text(encoding="utf-8"))
    doc = {"settings": {**asdict(cfg), "space": {k: list(v) for k, v in cfg.space.items()}},
           "searcher": searcher_used, "scheduler": "asha", "n_trials": len(rows),
           "n_stopped_early": sum(1 for r in rows if r["stopped_early"]),
           "selection": {"metric": f"dev {cfg.metric}", "tie_rule": "lowest dev log loss, then earliest trial",
                         "trial_id": best["trial_id"], "dev_score": best["dev_score"],
                         "dev_loss": best["dev_loss"]},
           "chosen_args": best_args, "final": {"jobs": {j: r["status"] for j, r in index["jobs"].items()},
                                               "test": summary["aggregate"].get("best", {}).get(cfg.suite, {}),
                                               "per_seed": {j: r.get("metrics") for j, r in summary["runs"].items()}},
           "trials_csv": "trials.csv"}
    write_json(out / "tune.json", doc)
    return doc
