"""The Python API. The CLI calls exactly these functions.

>>> import sentiprobe.api as sp
>>> doc = sp.score("arts-laptop", "laptop_results.csv", column="bert_pt")   # doctest: +SKIP
>>> doc["metrics"]["ars"]["value"]                                          # doctest: +SKIP
"""
from __future__ import annotations

import os
from collections.abc import Callable, Mapping, Sequence
from pathlib import Path
from types import SimpleNamespace
from typing import Any

from .compare import compare_predictions, compare_runs, load_run
from .core.errors import ConfigError, DataError, SentiprobeError
from .core.io import atomic_write_text, check_output_file
from .core.limits import FETCH_STALL_RATE, FETCH_STALL_WINDOW
from .core.results import mark_small_samples
from .core.runspec import DEFAULT_CONFIDENCE, RunSettings, parse_limit
from .core.types import SCHEMA_VERSION
from .models import MODELS, create_model
from .report.html import format_value as format_value  # re-exported: how reports and the console show a metric
from .report.html import is_percentage as is_percentage  # re-exported
from .report.comparison import test_phrase as test_phrase  # re-exported: how the console names a pair's test
from .report.html import render_comparison, render_report
from .run.config import available_suites, capability_problem, plan_run
from .run.config import expand_suite_groups as expand_suite_groups  # re-exported: the API of --suite groups
from .run.config import run_errors as run_errors  # re-exported: the API the CLI and sweeps read errors with
from .run.export import iter_rows, render
from .run.labels import label_problem as label_problem  # re-exported: the model label rule the CLI parses with
from .run.limit import unit_names
from .run.progress import NULL_PROGRESS
from .run.progress import Progress as Progress  # re-exported: the run's progress reporter
from .run.progress import compact_summary as compact_summary  # re-exported: `run --json`'s document
from .run.progress import results_table as results_table  # re-exported: the table `run` and `sweep` print
from .run.refcatalog import (NOT_RERUN, PUBLISHED, parse_reference_file, parse_selection, published_references,
                             select_references)
from .run.runner import run_models
from .run.sweep_plan import SweepConfig
from .stats.level import alpha_of
from .suites import SUITES, get_suite
from .suites.spec import describe_options


def list_suites() -> list[dict[str, Any]]:
    return [{"name": s.name, "family": s.family, "version": s.version, "task": s.task, "input_kind": s.input_kind,
             "labels": list(s.labels), "seeds": s.seeds, "description": s.description,
             "options": describe_options(s.options)} for s in SUITES]


def list_prompts(suites: list[str] | None = None) -> list[dict[str, Any]]:
    """How each suite asks a generative model: template (text, version, hash), reply schema, JSON instruction."""
    specs = [SUITES.get(n) for n in suites] if suites else list(SUITES)
    return [{"suite": s.name, **s.prompting.describe()} for s in specs if s.prompting is not None]


def list_models() -> list[dict[str, Any]]:
    """Each model: name, description, tags, ``options`` (typed: default, help, choices, type; None for a plug-in
    that documents free-text ``params`` only) and ``params`` (one line per argument)."""
    from .core.options import describe_options
    from .models import MODELS

    models = [{"name": e.name, "description": e.description, "params": e.params, "tags": list(e.tags),
               "options": describe_options(e.options) if e.options is not None else None} for e in MODELS]
    return models + list_references()


def list_references() -> list[dict[str, Any]]:
    """The reference systems (tag ``reference``): the papers' own systems, whose predictions ship with the data;
    ``sentiprobe run`` reads them (never runs them) and pairs them with the models (``--reference``). Each with
    its files, their sha256 from the data manifest, the paper and what it covers."""
    from .data import load_manifest

    manifest = load_manifest()
    out = []
    for r in published_references():
        files = []
        for s in r.sources:
            entry = manifest.get(s.path)
            files.append({**s.to_dict(), "sha256": entry.sha256 if entry is not None else None})
        desc = f"{r.system}, from {r.cite}; predictions {NOT_RERUN}, on {', '.join(r.suites)}"
        out.append({"name": r.name, "description": desc, "params": {}, "tags": ["reference"], "options": None,
                    "reference": {**r.describe(), "sources": files}})
    return out


def score(suite: str, predictions: str | Path, *, column: str | None = None, data_dir: str | None = None,
          missing: str = "error", n_boot: int = 1000, seed: int = 0, confidence: float = DEFAULT_CONFIDENCE,
          suite_options: Mapping[str, Any] | None = None, tables_out: str | Path | None = None) -> dict[str, Any]:
    """Score a predictions file made elsewhere on a suite. Returns the JSON-able score document.

    ``confidence``: the level of every interval and test (``0.9`` gives 90% intervals; recorded). ``suite_options``
    are the suite's typed options (``sentiprobe list suites`` shows them); an unknown one is a ConfigError.
    ``tables_out``: write the suite's extra tables (e.g. NonCompSST rating TSVs) there; a ConfigError when the
    suite has none.
    """
    alpha = alpha_of(confidence)  # ConfigError before any work
    s = get_suite(suite, data_dir, suite_options)
    preds = s.read_predictions(predictions, column=column)
    items = s.items("test")
    result = s.score(items, preds, n_boot=n_boot, seed=seed, missing=missing, confidence=confidence,
                     path=predictions)
    written: list[str] = []
    if tables_out is not None:
        if not result.tables:
            raise ConfigError(f"suite {suite!r} has no extra tables to write (--tables-out)")
        for name, text in result.tables.items():
            target = Path(tables_out) / name
            target.parent.mkdir(parents=True, exist_ok=True)
            atomic_write_text(target, text)
            written.append(str(target))
    scored = result.to_dict()
    scored["metrics"] = mark_small_samples(scored["metrics"], unit_names(scored["metrics"], items, s.spec.groups_name))
    scored_columns = sorted({str(p.meta["column"]) for p in preds if isinstance(p.meta, dict) and "column" in p.meta})
    return {"schema_version": SCHEMA_VERSION, "suite": suite, "suite_info": s.describe(),
            "items_hash": s.items_hash(items), "predictions": str(predictions), "column": column,
            "scored_column": scored_columns[0] if len(scored_columns) == 1 else (scored_columns or None),
            "n_boot": n_boot, "seed": seed, "confidence": confidence, "alpha": alpha, **scored,
            **({"tables_written": written} if written else {})}


def run(suites: Sequence[str] | None = None, models: Sequence[Any] | None = None, *,
        model_args: Mapping[str, Any] | None = None, out: str | Path = "runs/latest", data_dir: str | None = None,
        cache_dir: str | None = None, use_cache: bool = True, seed: int = 0, n_boot: int = 1000,
        confidence: float = DEFAULT_CONFIDENCE, limit: int | float | str | None = None, limit_mode: str = "sample",
        limit_seed: int = 0, missing: str = "error", progress: bool | Any = True,
        repair_cache: bool = False, overwrite: bool = False,
        suite_options: Mapping[str, Mapping[str, Any]] | None = None,
        log: Callable[[str], None] = lambda m: None, jobs: int | str | None = 1,
        skip_unsupported: bool = False, reference: str | Sequence[str] | None = "all",
        reference_files: Sequence[str] = ()) -> dict[str, Any]:
    """Run models on suites and write the run directory ``out`` (``out/<label>/`` per model, plus
    ``out/summary.json``, ``out/comparison.json`` and the comparison report ``out/report.html``, whatever the
    number of models).

    ``suites=None`` runs every suite whose data is available (missing ones are reported through
    ``log`` and listed in the results). ``models=None`` runs the default models; a model is a registered name,
    ``"LABEL=NAME"`` (the same model may run twice under two labels) or a ``ModelEntry``. ``model_args``:
    ``{"KEY": value}`` for every selected model whose factory takes ``KEY``, ``{"LABEL:KEY": value}`` for
    one model. ``seed``, ``n_boot``, ``confidence``, ``limit``, ``limit_mode``, ``limit_seed`` and ``missing``
    are the run spec (:class:`~sentiprobe.core.runspec.RunSettings`, where each is documented; the same
    settings as ``sentiprobe run``'s flags and a sweep config's keys): e.g. ``confidence`` is the level of every
    interval and test (default 0.95), ``limit`` a positive item count or a fraction in (0, 1].
    ``suite_options``: suite name -> that suite's options. ``out`` holding a run of another configuration is
    refused unless ``overwrite``; the same configuration resumes. ``progress``: True reports stages on stderr
    (a :class:`~sentiprobe.run.progress.Progress` for another stream). ``jobs``: 1 runs the
    models one after another in this process; N > 1 (or ``"auto"``: one per CPU, at most 4) runs them in N
    worker processes side by side (:mod:`sentiprobe.run.lanes`), with the same results. ``skip_unsupported``: a
    (model, suite) pair that cannot run is skipped and recorded under the model's ``skipped`` instead of failing (a
    bare run, without suites or without models, always skips).
    ``reference``: the papers' own systems beside the models (read from the prediction files that ship with the
    data, never run; :mod:`sentiprobe.run.references`): ``all`` (default: those of the suites run), ``none``, or
    names (``published:bert_pt``; a ``published:`` name among ``models`` joins them). ``reference_files``: user
    prediction files registered as reference systems, each ``LABEL=PATH[:COLUMN][,sha256=HEX][,suite=NAME]`` or a
    YAML file (``references:`` entries).

    Returns the summary document: ``runs.<label>`` is that model's full results document (``suites``,
    ``errors``...). A suite that fails is recorded under ``errors`` (see :func:`run_errors`) while the
    others still run.
    """
    # the run spec, checked before any work (ConfigError)
    settings = RunSettings(seed=seed, n_boot=n_boot, confidence=confidence, limit=parse_limit(limit),
                           limit_mode=limit_mode, limit_seed=limit_seed, missing=missing)
    named = [m for m in models or [] if isinstance(m, str) and m.strip().startswith(f"{PUBLISHED}:")]
    if named:  # `--model published:bert_pt`: a reference system, read beside the models, never run
        models = [m for m in models or [] if m not in named]
        if not models:
            raise ConfigError(f"{', '.join(named)}: reference systems are read, not run, and paired with the models "
                              "of a run; name a model too (--model NAME), or score the file alone with "
                              "`sentiprobe score`")
        sel = parse_selection(reference)
        if sel != "all":
            reference = [*(sel if isinstance(sel, list) else []), *(m.strip() for m in named)]
    entries, base = plan_run(suites, models, model_args=model_args, out=str(out), data_dir=data_dir, log=log,
                             settings=settings, suite_options=suite_options, cache_dir=cache_dir,
                             use_cache=use_cache, progress=bool(progress), repair_cache=repair_cache,
                             skip_unsupported=skip_unsupported)
    user = [r for text in reference_files for r in parse_reference_file(text, base.suites)]
    refs = select_references(reference, base.suites, user)
    reporter = progress if isinstance(progress, Progress) else Progress() if progress else NULL_PROGRESS
    return run_models(entries, base, overwrite=overwrite, progress=reporter, jobs=jobs, references=refs)


def compatibility(models: Sequence[str] | None = None, suites: Sequence[str] | None = None, *,
                  bare: bool = True) -> dict[str, dict[str, str | None]]:
    """Which model can run which suite: ``{suite: {model: None (it can) or why not}}``.

    ``models``: registered names (default: the default models); ``suites``: names (default: every suite).
    ``bare``: the rule of a bare ``sentiprobe run`` (a generation suite also needs a model that generates).
    A model that cannot be built without arguments (an endpoint) is described by its factory's error.
    """
    names = list(models) if models else MODELS.names(tag="default")
    specs = [SUITES.get(s) for s in suites] if suites else list(SUITES)
    caps: dict[str, Any] = {}
    for m in names:
        try:
            model = create_model(m)
        except SentiprobeError as exc:
            caps[m] = f"needs arguments to be built: {exc}"
            continue
        try:
            caps[m] = set(model.capabilities)
        finally:
            model.close()

    def problem(spec: Any, label: str, c: Any) -> str | None:
        if isinstance(c, str):
            return c
        why = capability_problem(spec, c, label, bare=bare)
        if why is None and spec.refuse is not None:  # e.g. LexComp VPC/LVC without sentences: baselines only
            why = get_suite(spec.name).refusal(SimpleNamespace(capabilities=frozenset(c)))
        return why

    return {s.name: {m: problem(s, m, c) for m, c in caps.items()} for s in specs}


def export(run_dir: str | Path, fmt: str = "csv", out: str | Path | None = None, *,
           data_dir: str | None = None) -> str:
    """The per-item table of a run directory (model, suite, item id, group id, input text, gold, prediction,
    correct, seed) as CSV or JSON lines; written to ``out`` when given. Returns the text.

    ``run_dir``: a run's top directory (every model) or one model's directory. The items are read from the data
    the run used (``data_dir`` overrides the recorded directory).
    """
    if out is not None:
        check_output_file(out)  # before the work, not after it
    text = render(iter_rows(run_dir, data_dir), fmt)
    if out is not None:
        atomic_write_text(out, text)
    return text


def available_suite_names(data_dir: str | None = None) -> list[str]:
    """Suites whose data is present (what a bare ``sentiprobe run`` runs)."""
    return available_suites(data_dir)[0]


def report(run_dirs: Sequence[str | Path], out: str | Path, *, names: Sequence[str] | None = None,
           n_boot: int = 1000, seed: int = 0, confidence: float = DEFAULT_CONFIDENCE) -> dict[str, Any]:
    """Write the HTML report of one run, or the comparison report of several (the API of ``sentiprobe report``).

    A directory holding several models' runs (``<out>/<model>/results.json``) stands for all of them. Returns
    ``{"out": path, "runs": [...], "comparison": document or None}``.
    """
    alpha_of(confidence)  # ConfigError before any work
    dirs: list[Path] = []
    for d in map(Path, run_dirs):
        if (d / "results.json").is_file():
            dirs.append(d)
        elif d.is_dir() and any((c / "results.json").is_file() for c in d.iterdir() if c.is_dir()):
            dirs += sorted(c for c in d.iterdir() if c.is_dir() and (c / "results.json").is_file())
            refs = d / "references"  # the run's reference systems (published predictions, read, not re-run)
            if refs.is_dir():
                dirs += sorted(c for c in refs.iterdir() if c.is_dir() and (c / "results.json").is_file())
        else:
            raise DataError("not a run directory (no results.json in it or in its model sub-directories)", path=d)
    target = Path(out)
    if target.exists() and target.is_dir():
        raise ConfigError(f"--out {target} is a directory; give an .html file path")
    if len(dirs) == 1:
        doc, _ = load_run(dirs[0])
        atomic_write_text(target, render_report(doc))
        return {"out": str(target), "runs": [str(dirs[0])], "comparison": None}
    comparison = compare_runs(dirs, names=names, n_boot=n_boot, seed=seed, confidence=confidence)
    docs = {n: load_run(d)[0] for n, d in zip(comparison["systems"], dirs)}
    links = {n: os.path.relpath(d / "report.html", target.resolve().parent) for n, d in zip(comparison["systems"],
                                                                                            dirs)}
    atomic_write_text(target, render_comparison(docs, comparison, links))
    return {"out": str(target), "runs": [str(d) for d in dirs], "comparison": comparison}


# ---- the other commands: one function each (the command line calls these and nothing below them) ----------------

def compare(runs: Sequence[str | Path] | None = None, *, suite: str | None = None,
            predictions: Sequence[str | Path] | None = None, names: Sequence[str] | None = None,
            reference: str | None = None, column: str | Sequence[str] | None = None, data_dir: str | None = None,
            missing: str = "error", n_boot: int = 1000, seed: int = 0, confidence: float = DEFAULT_CONFIDENCE,
            mcnemar: str = "protocol", suite_options: Mapping[str, Any] | None = None) -> dict[str, Any]:
    """Paired comparisons (the API of ``sentiprobe compare``): of stored runs (``runs``: run directories, every
    suite two of them ran), or of prediction files on one suite (``suite`` with ``predictions``, or several
    ``column``s of one file). ``confidence``: the level of every interval and test; ``mcnemar``: ``protocol`` (the
    suite's setting: the exact binomial test below 25 discordant pairs, else the continuity-corrected chi-square
    clamped at 0; SENTiVENT: its paper's chi-square) or ``exact`` (always the exact binomial test); ``chi2`` is the
    former name of ``protocol``. Returns the comparison document."""
    alpha_of(confidence)  # ConfigError before any work
    if mcnemar not in ("protocol", "chi2", "exact"):
        raise ConfigError(f"--mcnemar must be protocol or exact, not {mcnemar!r}")
    if runs:
        if predictions or suite:
            raise ConfigError("give either --runs, or --suite with --predictions")
        return compare_runs(runs, names=names, n_boot=n_boot, seed=seed, confidence=confidence)
    if not suite or not predictions:
        raise ConfigError("compare needs --suite and --predictions (or --runs)")
    return compare_predictions(suite, predictions, names=names, reference=reference, column=column,
                               data_dir=data_dir, missing=missing, n_boot=n_boot, seed=seed, confidence=confidence,
                               mcnemar_exact=mcnemar == "exact", suite_options=suite_options)


def sweep(config: str | Path | SweepConfig, out: str | Path, *, executor: str = "local", address: str | None = None,
          data_dir: str | None = None, cache_dir: str | None = None, log: Callable[[str], None] = lambda m: None,
          job_fn: Callable[[Mapping[str, Any]], dict[str, Any]] | None = None) -> dict[str, Any]:
    """Run a sweep config (a YAML path or a parsed :class:`~sentiprobe.run.sweep_plan.SweepConfig`) into ``out``
    (the API of ``sentiprobe sweep``); returns the index document (``sweep.json``).

    Workers may run on other machines, so the data and cache directories are resolved to absolute paths here
    (``None``: ``$SENTIPROBE_DATA_DIR`` / ``$SENTIPROBE_CACHE_DIR`` or the user cache). ``job_fn``: what runs
    one job (default :func:`sweep_job`).
    """
    from .data import resolve_data_dir
    from .run.cache import default_cache_dir
    from .run.sweep import sweep as run_sweep_config

    data = str(resolve_data_dir(data_dir).resolve())
    cache = str(Path(cache_dir or default_cache_dir()).expanduser().resolve())
    return run_sweep_config(config, out, executor=executor, address=address, data_dir=data, cache_dir=cache,
                            log=log, job_fn=job_fn)


def sweep_job(payload: Mapping[str, Any]) -> dict[str, Any]:
    """Run one job of a sweep (the function a sweep's workers call; see :func:`sweep`)."""
    from .run.sweep import execute_job

    return execute_job(payload)


def sweep_table(out: str | Path) -> str:
    """The results table of a finished sweep directory (one line per suite and model), as ``sweep`` prints it."""
    from .core.io import loads_json
    from .run.sweep_report import table_summary

    summary = loads_json((Path(out) / "summary.json").read_text(encoding="utf-8"))
    return results_table(table_summary(summary))


def run_lane(spec: Mapping[str, Any], error_path: str) -> int:
    """Run one lane of a run with several models in this (worker) process (see :mod:`sentiprobe.run.lanes`)."""
    from .run.lanes import run_lane as lane

    return lane(dict(spec), error_path)


def judge(runs: Sequence[str | Path], model: str, model_args: Mapping[str, Any] | None = None, *, n: int = 100,
          seed: int = 0, anonymise: bool = True, max_tokens: int | None = None, human: str | Path | None = None,
          out: str | Path | None = None, data_dir: str | None = None, cache_dir: str | None = None,
          use_cache: bool = True, n_boot: int = 1000, confidence: float = DEFAULT_CONFIDENCE,
          update_runs: bool = True) -> dict[str, Any]:
    """Judge the soul-jg justifications of runs with an LLM (the API of ``sentiprobe judge``): ``n`` items
    sampled with ``seed``, intervals at ``confidence``; returns the ``judge.json`` document."""
    from .run.judge import judge_runs
    from .suites.soul.judge import JudgeConfig

    kw: dict[str, Any] = {"n": n, "seed": seed, "anonymise": anonymise}
    if max_tokens is not None:
        kw["max_tokens"] = max_tokens
    return judge_runs(list(runs), model, dict(model_args or {}), cfg=JudgeConfig(**kw), human=human, out=out,
                      data_dir=data_dir, cache_dir=cache_dir, use_cache=use_cache, n_boot=n_boot,
                      confidence=confidence, update_runs=update_runs)


def judge_agreement(judge_file: str | Path, human_file: str | Path, *, n_boot: int = 1000,
                    seed: int = 0, confidence: float = DEFAULT_CONFIDENCE) -> dict[str, Any]:
    """Judge-human agreement per SOUL criterion (the API of ``sentiprobe judge-agreement``), intervals at
    ``confidence``."""
    from .suites.soul.agreement import judge_human_agreement, read_ratings

    judged, jinfo = read_ratings(judge_file)
    human, hinfo = read_ratings(human_file)
    doc = judge_human_agreement(judged, human, n_boot=n_boot, seed=seed, confidence=confidence)
    doc["judge_file"], doc["human_file"] = jinfo, hinfo
    return doc


def agree(path: str | Path, *, raters: Sequence[str] | None = None, id_column: str | None = None,
          ignore: Sequence[str] = (), missing: Sequence[str] = ("",), level: str = "nominal",
          categories: Sequence[str] | None = None, weights: str | None = None, ci: str = "analytic",
          n_boot: int = 1000, seed: int = 0, confidence: float = DEFAULT_CONFIDENCE) -> dict[str, Any]:
    """Inter-rater agreement of a rating table (the API of ``sentiprobe agree``): Fleiss' kappa, Krippendorff's
    alpha, Gwet's AC1, percent agreement and pairwise Cohen kappas, with intervals at ``confidence``."""
    from .stats.agreement_report import agree as agreement

    return agreement(path, raters=raters, id_column=id_column, ignore=ignore, missing=missing, level=level,
                     categories=categories, weights=weights, ci=ci, n_boot=n_boot, seed=seed,
                     alpha=alpha_of(confidence))


def data_families(names: Sequence[str] | None) -> list[str] | None:
    """Data families of ``names`` (each a family or a suite name; None or empty: every family); UnknownNameError
    with did-you-mean."""
    from .data import load_manifest, resolve_families

    if not names:
        return None
    known = load_manifest().families
    suites = {} if all(n in known for n in names) else {s.name: s.family for s in SUITES}
    return resolve_families(list(names), suites)


def data_fetch(names: Sequence[str] | None = None, *, data_dir: str | None = None, mirror: str | None = None,
               force: bool = False, progress: bool = False, include_unpublished: bool = False,
               keep_going: bool = True, timeout: float = 30.0, retries: int = 3, deadline: float | None = None,
               total_deadline: float | None = None, stall_rate: float = FETCH_STALL_RATE,
               stall_window: float = FETCH_STALL_WINDOW, log: Callable[[str], None] | None = None) -> Any:
    """Download (and verify) the data of ``names`` (families or suites; None: all) into the data directory (the
    API of ``sentiprobe data fetch``); returns the :class:`~sentiprobe.data.fetch_report.FetchReport`. A transfer
    under ``stall_rate`` bytes/s over ``stall_window`` seconds is a typed stall (0: no check); ``log`` receives the
    fetch's announcements (its deadlines and limits)."""
    from .data import fetch

    return fetch(data_families(names), data_dir=data_dir, mirror=mirror, force=force, progress=progress,
                 include_unpublished=include_unpublished, keep_going=keep_going, timeout=timeout, retries=retries,
                 deadline=deadline, total_deadline=total_deadline, stall_rate=stall_rate,
                 stall_window=stall_window, log=log)


def data_verify(names: Sequence[str] | None = None, *, data_dir: str | None = None) -> Any:
    """Check the data files of ``names`` against the manifest (the API of ``sentiprobe data verify``); returns the
    :class:`~sentiprobe.data.integrity.VerifyReport`."""
    from .data import verify

    return verify(data_families(names), data_dir=data_dir)


def data_list(names: Sequence[str] | None = None) -> dict[str, Any]:
    """The manifest's files of ``names`` (the API of ``sentiprobe data list``)."""
    from .data import load_manifest

    fams = data_families(names)
    m = load_manifest()
    return {"schema_version": m.schema_version, "kind": "sentiprobe-manifest-listing",
            "files": [e.to_dict() for e in m.select(fams)]}


def data_path(file: str | None = None, *, data_dir: str | None = None) -> Path:
    """The absolute data directory, or the path of one manifest file in it, checked against the manifest (the API
    of ``sentiprobe data path``): a shell command can then name a shipped file wherever the data lives, e.g.
    ``--input "$(sentiprobe data path arts/src_data/laptop/test_sent_towe.json)"``.

    Raises:
        UnknownNameError: ``file`` is not a file of the manifest (with did-you-mean).
        MissingDataError, TamperedDataError: the file is absent (with fetch advice) or differs from the manifest.
    """
    from .core.errors import UnknownNameError
    from .data import load_manifest, require_file, resolve_data_dir

    root = resolve_data_dir(data_dir).absolute()
    if file is None:
        return root
    m = load_manifest()
    if m.get(file) is None:
        family = file.split("/", 1)[0]
        near = [e.path for e in m if e.path.startswith(family + "/")] or [e.path for e in m]
        raise UnknownNameError("data file", file, near)
    return require_file(root, file).absolute()


def data_stats(name: str, *, data_dir: str | None = None) -> dict[str, Any]:
    """Dataset statistics of a suite, or of every suite of a family (the API of ``sentiprobe data stats``)."""
    from .core.errors import UnknownNameError

    names = SUITES.names()
    if name in names:
        chosen = [name]
    else:
        fams = {s.name: s.family for s in SUITES}
        chosen = [s for s, f in fams.items() if f == name]
        if not chosen:
            raise UnknownNameError("suite or data family", name, list(names) + sorted(set(fams.values())))
    return {"schema_version": 1, "kind": "sentiprobe-data-stats", "name": name,
            "suites": {s: get_suite(s, data_dir=data_dir).stats() for s in chosen}}


def suite_option_names(suite: str) -> tuple[list[str], dict[str, str]]:
    """A suite's option names and the environment variables that give some of them defaults."""
    from .suites.spec import env_defaults, option_fields

    spec = SUITES.get(suite)
    return [f.name for f in option_fields(spec.options)], dict(env_defaults(spec.options))


def arts_generate(input_path: str | Path, out: str | Path, *, input_format: str | None = None,
                  cache_dir: str | Path | None = None, run_audit: bool = True, **config: Any) -> Any:
    """Generate ARTS-style variants of a file (the API of ``sentiprobe arts generate``): writes the enriched JSON
    to ``out`` and its report beside it (:func:`arts_report_path`); ``config``: the generation options
    (``strategies``, ``mode``, ``seed``, ``k``...). Returns the generation (variants with their choices)."""
    from .run.cache import default_cache_dir
    from .generate.arts import GenerateConfig, generate_file

    try:
        cfg = GenerateConfig(**config)
    except TypeError as exc:
        raise ConfigError(f"arts generate: {exc}") from None
    cache = Path(cache_dir).expanduser() if cache_dir else default_cache_dir()
    return generate_file(input_path, out, cfg, input_format=input_format, cache_dir=cache, run_audit=run_audit)


def arts_clause_cap() -> float:
    """The largest share of a file's variants one AddDiff clause may serve (what ``arts generate`` prints)."""
    from .generate.arts.adddiff import CLAUSE_CAP

    return CLAUSE_CAP


def arts_report_path(out: str | Path) -> Path:
    """Where :func:`arts_generate` writes the report of ``out``."""
    from .generate.arts import report_path

    return report_path(out)


def arts_report(generated: str | Path) -> dict[str, Any]:
    """The generation report of a generated file (the API of ``sentiprobe arts audit``); DataError when it is not
    one."""
    from .generate.arts.inputs import parse_json

    path = arts_report_path(generated)
    rep = parse_json(path, "generation report (<out>.report.json)")
    if not isinstance(rep, dict) or not isinstance(rep.get("skipped"), list):
        raise DataError("not a generation report (no 'skipped' list)", path=path)
    return rep


def arts_audit_sample(generated: str | Path, out: str | Path, *, per_strategy: int = 50,
                      seed: int = 0) -> dict[str, int]:
    """A blind sample of generated variants to judge by hand (the API of ``sentiprobe arts audit-sample``)."""
    from .generate.arts import audit_sample

    return audit_sample(generated, out, per_strategy=per_strategy, seed=seed)


def arts_audit_score(path: str | Path, *, key: str | Path | None = None,
                     confidence: float = DEFAULT_CONFIDENCE) -> dict[str, Any]:
    """Rates of a filled-in audit sheet with Wilson intervals at ``confidence`` (``sentiprobe arts audit-score``)."""
    from .generate.arts import audit_score

    return audit_score(path, key=key, confidence=confidence)


def arts_fidelity(generated: str | Path, reference: str, *, data_dir: str | None = None) -> dict[str, Any]:
    """How close generated variants are to a reference set (``arts-laptop``, ``arts-rest`` or an enriched JSON
    path; the API of ``sentiprobe arts fidelity``)."""
    from .generate.arts import fidelity_report

    ref = reference
    if ref in SUITES:  # a released suite whose test set is an enriched file (arts-mams has none)
        suite = get_suite(ref, data_dir)
        enriched = [f for f in suite.data_files() if f.endswith("_test_enriched.json")]
        if enriched:
            ref = str(suite.path(enriched[0]))
    return fidelity_report(generated, ref)


def arts_review(generated: str | Path, *, out: str | Path | None = None, export_audit: str | Path | None = None,
                reviewer: str = "", port: int = 0, open_browser: bool = True, display: bool = False,
                write_refused: bool = False, log: Callable[[str], None] | None = None) -> dict[str, Any]:
    """Serve the review page of a generated ARTS file on 127.0.0.1 until its *finish* action or Ctrl-C (the API of
    ``sentiprobe arts review``; docs/arts-generate.md#reviewing). The decisions are saved after every action in
    ``GENERATED.review.json`` (a later call resumes); ``out`` receives the curated file (accepted variants and their
    sources, in the generator's format) and ``export_audit`` the judgements as an ``arts audit-score`` sheet.
    ``write_refused``: after the variants, every polar target the generator refused under RevTgt (read from the
    report beside ``generated``) is an item the reviewer writes (docs/arts-generate.md#writing-refused-targets).
    Returns ``{"status": "finished" | "interrupted", "url", "reviewed", "total", "state"}``."""
    # the server loads when a review starts: `import sentiprobe.api` stays light
    from .run.arts_review_server import ReviewSession, serve

    session = ReviewSession(generated, out=out, export_audit=export_audit, reviewer=reviewer,
                            write_refused=write_refused)
    if log is None:
        return serve(session, port=port, open_browser=open_browser, display=display)
    return serve(session, port=port, open_browser=open_browser, display=display, log=log)
