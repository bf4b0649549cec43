"""Sweeps: a declarative grid of models x suites x seeds, one run directory per job.

A sweep config (YAML, read with ``yaml.safe_load``)::

    models: [majority, {name: tfidf-lr, label: tfidf-c1, args: {C: 1.0}}]
    suites: [arts-laptop, {name: sentivent-polar, args: {lexicon: none}}]
    seeds: [0, 1]
    limit: 200            # optional, and so is every setting of `sentiprobe run` (the run spec): limit (a count
    limit_mode: sample    #   or a fraction such as 0.3), limit_mode, limit_seed, n_boot, confidence, missing
    confidence: 0.95
    retries: 2            # optional: re-runs of a job whose worker died (Ray) before it is recorded as failed
    resources: {num_cpus: 1, memory_mb: 2048, num_gpus: 0}   # optional: what one job declares to Ray

Each (model, suite, seed) job runs through the runner (:func:`sentiprobe.run.runner.run_models`) into its own directory
``OUT/jobs/<model label>/<suite>/seed<k>/``. Why one suite per job: jobs are the unit a cluster schedules and
retries, and a failed suite must not cost the others. A job is finished when its directory holds a ``job.json``
whose key matches the job (model, args, suite, suite args and every run setting) and a ``results.json``
with the suite and no error; such a job is never run again (the run cache makes an interrupted one cheap). The
run itself lives in the job directory's ``run/<model label>/``.

This module is the pure part, the plan: parsing, validation, the job list, and reading what a finished job left
on disk (it writes and runs nothing). :mod:`.sweep_job` runs one job, :mod:`.executors` run the jobs (in this
process or on Ray), :mod:`.sweep` drives them and writes the index (``sweep.json``); :mod:`.sweep_report` the
summary, the paired comparisons of the models and their report at the sweep's root.
"""
from __future__ import annotations

import math
from collections.abc import Callable, Mapping, Sequence
from dataclasses import asdict, dataclass, field, replace
from pathlib import Path
from typing import Any

import yaml

from ..core.errors import ConfigError, SentiprobeError, short_repr, unknown_keys
from ..core.hashing import stable_hash
from ..core.io import loads_json, read_user_text
from ..core.limits import MAX_SEED, check_int
from ..core.runspec import RunSettings, setting_names, settings_from_mapping
from ..models import MODELS
from ..suites import SUITES
from .labels import label_problem
from .yamlsafe import load_yaml

SWEEP_SCHEMA_VERSION = 1
SPEC_KEYS = tuple(n for n in setting_names() if n != "seed")
"""The run spec's settings a sweep config takes at its top level (``seed`` is the grid's ``seeds``)."""
TOP_KEYS = ("models", "suites", "seeds", *SPEC_KEYS, "retries", "resources")
MODEL_KEYS = ("name", "label", "args")
SUITE_KEYS = ("name", "args")
RESOURCE_KEYS = ("num_cpus", "num_gpus", "memory_mb")


def _unknown(keys: Sequence[str], known: Sequence[str], where: str, path: str) -> None:
    bad = [k for k in keys if k not in known]
    if bad:
        raise ConfigError(f"{path}: unknown key(s) in {where}: {unknown_keys(bad, known)}; known: {', '.join(known)}")


@dataclass(frozen=True)
class ModelSpec:
    """One model of the grid.

    Attributes:
        name: registered model name (``sentiprobe list models``).
        label: name of the job directory and of the row in the comparison (default: ``name``); two entries of
            the same model with different args need different labels.
        args: keyword arguments for the model factory, as in ``run --model-arg`` (JSON values).
    """

    name: str
    label: str
    args: Mapping[str, Any] = field(default_factory=dict)


@dataclass(frozen=True)
class SuiteEntry:
    """One suite of the grid.

    Attributes:
        name: registered suite name.
        args: the suite's typed options (as ``run --suite-arg``), validated by the suite when the job runs.
    """

    name: str
    args: Mapping[str, Any] = field(default_factory=dict)


@dataclass(frozen=True)
class Resources:
    """What one job declares to Ray (ignored by the local executor).

    Attributes:
        num_cpus: CPUs reserved per job (Ray schedules no more jobs on a node than its CPUs allow).
        num_gpus: GPUs reserved per job (0 for CPU models).
        memory_mb: memory reserved per job in MiB (None: no reservation).
    """

    num_cpus: float = 1.0
    num_gpus: float = 0.0
    memory_mb: int | None = None


@dataclass(frozen=True)
class SweepConfig:
    """A validated sweep config (recorded in ``sweep.json``).

    Attributes:
        models: the models, in config order.
        suites: the suites, in config order.
        seeds: the base seeds; every (model, suite) pair runs once per seed.
        settings: the run spec shared by every job (limit, limit_mode, limit_seed, n_boot, confidence,
            missing; its ``seed`` is the first of ``seeds``, the seed of the sweep's paired comparisons), each
            job's seed replaced by its own.
        retries: how many times a job whose worker died is run again before it is recorded as failed.
        resources: what each job declares to Ray.
    """

    models: tuple[ModelSpec, ...]
    suites: tuple[SuiteEntry, ...]
    seeds: tuple[int, ...] = (0,)
    settings: RunSettings = RunSettings()
    retries: int = 2
    resources: Resources = Resources()

    def __post_init__(self) -> None:
        if self.seeds and self.settings.seed != self.seeds[0]:
            object.__setattr__(self, "settings", replace(self.settings, seed=self.seeds[0]))

    @property
    def limit(self) -> int | float | None:
        return self.settings.limit

    @property
    def n_boot(self) -> int:
        return self.settings.n_boot

    @property
    def missing(self) -> str:
        return self.settings.missing

    @property
    def confidence(self) -> float:
        return self.settings.confidence

    def jobs(self) -> list[Job]:
        """Every (model, suite, seed) job, models outermost (the order of the index and the report)."""
        return [Job(m, s, replace(self.settings, seed=seed))
                for m in self.models for s in self.suites for seed in self.seeds]

    def to_dict(self) -> dict[str, Any]:
        d = asdict(self)
        d.pop("settings")
        d.update({k: v for k, v in self.settings.to_dict().items() if k != "seed"})
        d["models"] = [{"name": m.name, "label": m.label, "args": dict(m.args)} for m in self.models]
        d["suites"] = [{"name": s.name, "args": dict(s.args)} for s in self.suites]
        return d


@dataclass(frozen=True)
class Job:
    """One unit of a sweep: one model on one suite with one seed.

    Attributes:
        model: the model.
        suite: the suite.
        settings: the job's run spec (its ``seed``: the base seed of the job's run).
    """

    model: ModelSpec
    suite: SuiteEntry
    settings: RunSettings

    @property
    def seed(self) -> int:
        return self.settings.seed

    @property
    def job_id(self) -> str:
        return f"{self.model.label}/{self.suite.name}/seed{self.seed}"

    @property
    def rel_dir(self) -> str:
        """The job's directory relative to the sweep's output directory."""
        return f"jobs/{self.job_id}"

    @property
    def key(self) -> str:
        """Hash of everything that changes the job's results (not where or how it runs).

        The settings sweeps gained with the run spec (:data:`LATER_SETTINGS`) enter the hash only when they differ
        from their defaults, which every earlier job ran with: a sweep finished before resumes without re-running.
        """
        payload = self.payload("")
        for name in LATER_SETTINGS:
            if payload[name] == RunSettings.__dataclass_fields__[name].default:
                del payload[name]
        return stable_hash(payload, 24)

    def payload(self, out_dir: str) -> dict[str, Any]:
        """The JSON-able description a worker receives (and writes back as ``job.json``)."""
        return {"model": self.model.name, "label": self.model.label, "model_args": dict(self.model.args),
                "suite": self.suite.name, "suite_args": dict(self.suite.args), **self.settings.to_dict(),
                "out_dir": out_dir}


LATER_SETTINGS = ("confidence", "limit_mode", "limit_seed")
"""Run settings a sweep job's key did not hold before every run setting reached sweeps."""

MAX_JOBS = 10_000
"""Largest grid (models x suites x seeds) one sweep accepts: each job is a run directory and a row of the index;
a grid of a million jobs is a mistake in the config, not a plan."""
MAX_RETRIES = 100
MAX_CONFIG_BYTES = 1 << 20
MAX_YAML_DEPTH = 64
"""Deepest nesting of a sweep config (a real one nests 4 levels)."""
MAX_YAML_VALUES = 100_000
"""Most values a sweep config may expand to, YAML aliases counted at every use (an alias bomb expands to 10^9)."""


def _as_int(v: Any, what: str, path: str, lo: int = 0, hi: int | None = None) -> int:
    return check_int(v, f"{path}: {what}", lo, hi)


def _as_mapping(v: Any, what: str, path: str) -> dict[str, Any]:
    if v is None:
        return {}
    if not isinstance(v, Mapping):
        raise ConfigError(f"{path}: {what} must be a mapping of names to values, not {type(v).__name__}")
    for k, val in v.items():
        if not isinstance(k, str):
            raise ConfigError(f"{path}: {what}: key {short_repr(k)} is not a string")
        if (not isinstance(val, str | int | float | bool) and val is not None) or \
                (isinstance(val, float) and not math.isfinite(val)):
            raise ConfigError(f"{path}: {what}.{k} must be a scalar (string, number, boolean), not {short_repr(val)}")
    return {k.replace("-", "_"): val for k, val in v.items()}


def _named(entry: Any, i: int, path: str, kind: str, keys: Sequence[str], lookup: Callable[[str], Any]
           ) -> tuple[Mapping[str, Any], str, Any]:
    """A grid entry (a name, or a mapping with ``name``) checked: its keys, and its name in the registry.

    Returns (the entry as a mapping, its name, what ``lookup(name)`` returned).
    """
    where = f"{kind}s[{i}]"
    if isinstance(entry, str):
        entry = {"name": entry}
    if not isinstance(entry, Mapping):
        raise ConfigError(f"{path}: {where} must be a {kind} name or a mapping with 'name', not {short_repr(entry)}")
    _unknown(list(entry), keys, where, path)
    name = entry.get("name")
    if not isinstance(name, str) or not name:
        raise ConfigError(f"{path}: {where} needs a 'name' (a registered {kind})")
    try:
        found = lookup(name)
    except SentiprobeError as exc:
        raise ConfigError(f"{path}: {where}: {exc}") from None
    return entry, name, found


def _model(entry: Any, i: int, path: str) -> ModelSpec:
    entry, name, registered = _named(entry, i, path, "model", MODEL_KEYS, MODELS.entry)
    args = _as_mapping(entry.get("args"), f"models[{i}].args", path)
    registered.parse(args, f"{path}: models[{i}]: model {name!r}")
    label = entry.get("label", name)
    problem = label_problem(label)  # the rule of `run --model LABEL=NAME`: the label names jobs/<label>/
    if problem is not None:
        raise ConfigError(f"{path}: models[{i}].label {short_repr(label)} {problem}")
    return ModelSpec(name, label, args)


def _suite(entry: Any, i: int, path: str) -> SuiteEntry:
    entry, name, _ = _named(entry, i, path, "suite", SUITE_KEYS, SUITES.get)
    return SuiteEntry(name, _as_mapping(entry.get("args"), f"suites[{i}].args", path))


def _names_list(doc: Mapping[str, Any], key: str, path: str) -> list[Any]:
    v = doc.get(key)
    if v is None:
        raise ConfigError(f"{path}: '{key}' is required (a list)")
    if isinstance(v, str | Mapping):
        v = [v]
    if not isinstance(v, list) or not v:
        raise ConfigError(f"{path}: '{key}' must be a non-empty list, not {short_repr(v)}")
    return v


def parse_config(doc: Any, path: str = "<config>") -> SweepConfig:
    """Validate a loaded YAML document into a :class:`SweepConfig` (ConfigError naming the file and key)."""
    if not isinstance(doc, Mapping):
        raise ConfigError(f"{path}: a sweep config is a mapping with 'models', 'suites' and 'seeds', "
                          f"not {type(doc).__name__}")
    _unknown(list(doc), TOP_KEYS, "the sweep config", path)
    models = tuple(_model(e, i, path) for i, e in enumerate(_names_list(doc, "models", path)))
    labels = [m.label for m in models]
    dup = sorted({x for x in labels if labels.count(x) > 1})
    if dup:
        raise ConfigError(f"{path}: models: {', '.join(map(repr, dup))} appear(s) twice; give each entry a "
                          "distinct 'label'")
    suites = tuple(_suite(e, i, path) for i, e in enumerate(_names_list(doc, "suites", path)))
    names = [s.name for s in suites]
    if len(set(names)) != len(names):
        raise ConfigError(f"{path}: suites: a suite appears twice")
    raw_seeds = doc.get("seeds", [0])
    if isinstance(raw_seeds, int) and not isinstance(raw_seeds, bool):
        raw_seeds = [raw_seeds]
    if not isinstance(raw_seeds, list) or not raw_seeds:
        raise ConfigError(f"{path}: 'seeds' must be a non-empty list of integers, not {short_repr(raw_seeds)}")
    seeds = tuple(_as_int(s, "every seed", path, hi=MAX_SEED) for s in raw_seeds)
    if len(set(seeds)) != len(seeds):
        raise ConfigError(f"{path}: seeds: a seed appears twice")
    settings = settings_from_mapping({k: doc[k] for k in SPEC_KEYS if k in doc}, path)
    raw_res = doc.get("resources") or {}
    if not isinstance(raw_res, Mapping):
        raise ConfigError(f"{path}: 'resources' must be a mapping ({', '.join(RESOURCE_KEYS)})")
    _unknown(list(raw_res), RESOURCE_KEYS, "resources", path)
    res: dict[str, Any] = {}
    for k in ("num_cpus", "num_gpus"):
        if k in raw_res:
            v = raw_res[k]
            if isinstance(v, bool) or not isinstance(v, int | float) or not math.isfinite(v) or v < 0:
                raise ConfigError(f"{path}: resources.{k} must be a number >= 0, not {short_repr(v)}")
            res[k] = float(v)
    if raw_res.get("memory_mb") is not None:
        res["memory_mb"] = _as_int(raw_res["memory_mb"], "resources.memory_mb", path, lo=1)
    n_jobs = len(models) * len(suites) * len(seeds)
    if n_jobs > MAX_JOBS:
        raise ConfigError(f"{path}: the grid has {n_jobs:,} jobs ({len(models)} model(s) x {len(suites)} suite(s) x "
                          f"{len(seeds)} seed(s)); a sweep runs at most {MAX_JOBS:,}: split it into several sweeps")
    return SweepConfig(models=models, suites=suites, seeds=seeds, settings=settings,
                       retries=_as_int(doc.get("retries", 2), "'retries'", path, hi=MAX_RETRIES),
                       resources=Resources(**res))


def load_config(path: str | Path) -> SweepConfig:
    """Read and validate a sweep config file (YAML; JSON is YAML too).

    Read with a safe loader that also refuses a key given twice in one mapping (YAML would keep the last one
    silently), nesting deeper than :data:`MAX_YAML_DEPTH` and a document expanding to more than
    :data:`MAX_YAML_VALUES` values through aliases (:mod:`.yamlsafe`).
    """

    size = Path(path).stat().st_size if Path(path).is_file() else 0
    if size > MAX_CONFIG_BYTES:
        raise ConfigError(f"{path}: {size:,} bytes; a sweep config is at most {MAX_CONFIG_BYTES:,} (a grid is a few "
                          "lines of names)")
    text = read_user_text(path, "sweep config")
    try:
        doc = load_yaml(text, max_depth=MAX_YAML_DEPTH, max_values=MAX_YAML_VALUES)
    except yaml.YAMLError as exc:
        raise ConfigError(f"{path}: not valid YAML: {exc}") from None
    return parse_config(doc, str(path))


# ---- job state on disk (the source of truth) -------------------------------------------------------

JOB_FILE = "job.json"
RUN_SUBDIR = "run"


def find_results(job_dir: Path, *models: str) -> Path | None:
    """The results.json of a job directory: the run lives in ``DIR/run/<label>/`` (``DIR`` itself keeps the sweep's
    own ``job.json`` and ``attempts.jsonl``, which a run directory would refuse as foreign files); ``models``: the
    label, then the registered name (the directory of sweeps written before labels)."""
    for model in models:
        for p in (job_dir / RUN_SUBDIR / model / "results.json", job_dir / model / "results.json"):
            if p.is_file():
                return p
    p = job_dir / "results.json"
    return p if p.is_file() else None


def job_done(job: Job, out: Path) -> bool:
    """Whether ``job`` finished in an earlier invocation: matching ``job.json`` and a clean results file."""
    d = out / job.rel_dir
    try:
        rec = loads_json((d / JOB_FILE).read_text(encoding="utf-8"))
    except (OSError, ValueError):
        return False
    if not isinstance(rec, dict) or rec.get("key") != job.key or rec.get("status") != "done":
        return False
    res = find_results(d, job.model.label, job.model.name)
    if res is None:
        return False
    try:
        doc = loads_json(res.read_text(encoding="utf-8"))
    except (OSError, ValueError):
        return False
    return isinstance(doc, dict) and job.suite.name in (doc.get("suites") or {}) and not (doc.get("errors") or {})


@dataclass(frozen=True)
class JobOutcome:
    """What happened to one job in this invocation (a row of ``sweep.json``).

    Attributes:
        job_id: ``<label>/<suite>/seed<k>``.
        status: ``done`` (ran now), ``cached`` (finished earlier; not run), ``failed``, or ``pending`` while the
            sweep runs (an index left by a killed driver shows what had not ended).
        attempts: how many times a worker started the job in this invocation (more than 1: a worker died).
        error: for ``failed``: ``{"type", "message"}``; None otherwise.
        seconds: wall time of the last attempt as seen by the worker (0 for ``cached``).
    """

    job_id: str
    status: str
    attempts: int = 0
    error: dict[str, str] | None = None
    seconds: float = 0.0


JobFn = Callable[[Mapping[str, Any]], dict[str, Any]]


class Executor:
    """What :func:`run_sweep` needs from an executor (see :mod:`.executors`)."""

    name = "abstract"

    def run(self, todo: Sequence[tuple[str, dict[str, Any]]],
            on_done: Callable[[str, dict[str, Any]], None]) -> None:  # pragma: no cover - interface
        raise NotImplementedError
