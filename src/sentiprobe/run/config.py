"""Planning a run: its configuration, the suites and models it will run, and checks before any work.

Pure except for reading the registries and the data directory (which suites have their data): nothing here
fits, predicts or writes. :mod:`.execute` runs one model, :mod:`.runner` several, :mod:`.provenance` writes
what a run records.
"""
from __future__ import annotations

from collections.abc import Callable, Mapping, Sequence
from dataclasses import dataclass, field, replace
from typing import Any

from ..core.errors import ConfigError
from ..core.runspec import RunSettings, settings_of
from ..core.runspec import parse_limit as parse_limit  # re-exported: the API of --limit
from ..data import resolve_data_dir
from ..models import MODELS, create_model
from ..suites import SUITES, get_suite
from .modelargs import ModelEntry, assign_model_args, check_label, model_entries


@dataclass(frozen=True, kw_only=True)
class RunConfig(RunSettings):
    """The configuration of one run (recorded in results.json): the run spec's settings
    (:class:`~sentiprobe.core.runspec.RunSettings`: seed, n_boot, confidence, limit, limit_mode, limit_seed,
    missing) plus what to run and where.

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
        progress: show progress bars.
        skip_unsupported: skip (and record) suites the model cannot run instead of failing
            (the bare ``sentiprobe run`` over every suite and default model, and ``--skip-unsupported``).
        bare: the suites were not named: a generation suite is also skipped for a model that cannot generate
            (named with ``--suite``, it runs).
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
    progress: bool = True
    skip_unsupported: bool = False
    bare: bool = False
    unavailable_suites: tuple[str, ...] = ()
    suite_options: dict[str, dict[str, Any]] = field(default_factory=dict)

    def __post_init__(self) -> None:
        super().__post_init__()
        check_label(self.run_label)

    @property
    def run_label(self) -> str:
        """The model's name in the run: its label, else its registered name."""
        return self.label or self.model

    @property
    def settings(self) -> RunSettings:
        """The run spec's part of this configuration."""
        return settings_of(self)


NO_SHIPPED_DATA = frozenset({"arts-custom"})
"""Suites whose data is the user's own file (``--suite-arg path=FILE``): nothing to fetch, so a bare run leaves
them out without telling the user to ``data fetch`` them."""


def available_suites(data_dir: str | None = None) -> tuple[list[str], list[str]]:
    """(suites whose data is present, suites whose data is missing)."""
    ok: list[str] = []
    missing: list[str] = []
    for spec in SUITES:
        (ok if get_suite(spec.name, data_dir).available() else missing).append(spec.name)
    return ok, missing


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


def validate_config(cfg: RunConfig) -> None:
    """ConfigError before any work: no suite, an unknown suite or model (did-you-mean), options of a suite that
    is not run or that its options type refuses."""
    if not cfg.suites:
        raise ConfigError("no suite to run")
    for s in cfg.suites:
        SUITES.get(s)  # fail early, with did-you-mean
    for s in cfg.suite_options:
        if s not in cfg.suites:
            raise ConfigError(f"suite options given for {s!r}, which is not among the suites run")
        get_suite(s, cfg.data_dir, cfg.suite_options[s])  # validate options before any work
    MODELS.entry(cfg.model)


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


def model_config(name: str, args: Mapping[str, Any]) -> dict[str, Any]:
    """What of a model's arguments decides its outputs: the adapter's ``config()`` (the fingerprint's part).

    Arguments that only change how it runs (a delay, a timeout) leave the run's configuration unchanged, so
    a run resumed with them is still the same run. Building an adapter is cheap: weights load on first use.
    """
    model = create_model(name, **dict(args))
    try:
        return {"config": model.config()}
    finally:
        model.close()


def run_errors(doc: Mapping[str, Any]) -> dict[str, dict[str, str]]:
    """``{"<model>/<suite>" or "<suite>": error record}`` of a results or summary document."""
    if "runs" in doc:
        return {f"{m}/{s}": e for m, r in doc["runs"].items() for s, e in (r.get("errors") or {}).items()}
    return dict(doc.get("errors") or {})


def expand_suite_groups(names: Sequence[str], data_dir: str | None = None) -> list[str]:
    """Suite names with family groups expanded: ``lexcomp`` -> every ``lexcomp-*`` suite whose data is present.

    A name that is a suite stays as it is (unknown names are reported by the runner with did-you-mean).
    """
    out: list[str] = []
    available: list[str] | None = None
    for name in names:
        members = [s.name for s in SUITES if s.family == name] if name not in SUITES else []
        if members:
            available = available_suites(data_dir)[0] if available is None else available
            members = [m for m in members if m in available]
            if not members:
                raise ConfigError(f"suite group {name!r}: no suite of it has its data available")
        for m in members or [name]:
            if m not in out:
                out.append(m)
    return out


def plan_run(suites: Sequence[str] | None = None, models: Sequence[Any] | None = None, *,
             model_args: Mapping[str, Any] | None = None, out: str = "runs/latest",
             data_dir: str | None = None, log: Callable[[str], None] = lambda m: None,
             settings: RunSettings | None = None, suite_options: Mapping[str, Mapping[str, Any]] | None = None,
             **where: Any) -> tuple[list[ModelEntry], RunConfig]:
    """The model entries and the base configuration of a run (the arguments of :func:`sentiprobe.api.run`).

    ``suites=None``: every suite whose data is available (the missing ones reported through ``log`` and
    recorded); family names are expanded. ``models=None``: the default models. ``settings``: the run spec
    (seed, limit, confidence...; default: its defaults). ``where``: the other :class:`RunConfig` fields, which say
    where and how the run executes (``cache_dir``, ``use_cache``, ``progress``...). A bare run (no suites or no
    models) skips the suites a model cannot run instead of failing; so does ``skip_unsupported=True``
    (``--skip-unsupported``).
    """
    skipped: list[str] = []
    for what, given in (("suites", suites), ("models", models)):
        if given is not None and not [n for n in given if str(n).strip()]:
            raise ConfigError(f"{what}={list(given)!r} names no {what[:-1]}; pass None for the default {what}")
    bare = not suites
    asked_skip = bool(where.pop("skip_unsupported", False))  # popped whatever the run: RunConfig gets `skip`
    skip = bare or not models or asked_skip
    root = resolve_data_dir(data_dir)
    if suites:
        suites = expand_suite_groups(suites, data_dir)
        for s in suites:
            SUITES.get(s)  # an unknown name first, with did-you-mean
        options = suite_options or {}
        needing = [s for s in suites if not get_suite(s, data_dir, options.get(s)).available()]
        if needing and not root.is_dir():  # refused before a run folder full of failures is written
            raise ConfigError(f"the data directory {root} does not exist, and suite(s) {', '.join(needing)} read "
                              "their data from it; run `sentiprobe data fetch` or point --data-dir / "
                              "SENTIPROBE_DATA_DIR at the directory that holds the data")
    if not suites:
        suites, skipped = available_suites(data_dir)
        fetchable = [s for s in skipped if s not in NO_SHIPPED_DATA]
        if fetchable:
            log(f"skipping suites whose data is missing: {', '.join(fetchable)} "
                "(run `sentiprobe data fetch` to get them)")
        if not suites:
            raise ConfigError(f"no suite has its data available in {root}; run `sentiprobe data fetch` or point "
                              "--data-dir / SENTIPROBE_DATA_DIR at the directory that holds the data")
    entries = model_entries(list(models) if models else MODELS.names(tag="default"))
    per_model = assign_model_args({e.label: e.name for e in entries}, model_args)
    entries = [replace(e, args={**dict(e.args), **per_model[e.label]}) for e in entries]
    first = entries[0]
    spec = (settings or RunSettings()).to_dict()
    base = RunConfig(suites=tuple(suites), model=first.name, model_args=dict(first.args), label=first.label,
                     out_dir=str(out), data_dir=data_dir, skip_unsupported=skip, bare=bare,
                     unavailable_suites=tuple(skipped),
                     suite_options={k: dict(v) for k, v in (suite_options or {}).items()}, **spec, **where)
    return entries, base
