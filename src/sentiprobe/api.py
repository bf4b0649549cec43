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

from .compare import compare_runs, load_run
from .core.errors import ConfigError, DataError, SentiprobeError
from .core.io import atomic_write_text, check_output_file
from .core.types import SCHEMA_VERSION
from .models import MODELS, create_model
from .report.html import render_comparison, render_report
from .run.config import available_suites, capability_problem, plan_run
from .run.config import expand_suite_groups as expand_suite_groups  # re-exported: the API of --suite groups
from .run.config import run_errors as run_errors  # re-exported: the API the CLI and sweeps read errors with
from .run.export import iter_rows, render
from .run.progress import NULL_PROGRESS, Progress
from .run.refcatalog import (NOT_RERUN, PUBLISHED, parse_reference_file, parse_selection, published_references,
                             select_references)
from .run.runner import run_models
from .suites import SUITES, get_suite
from .suites.spec import DEFAULT_CONFIDENCE, alpha_of, describe_options


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
          missing: str = "error", n_boot: int = 1000, seed: int = 0, confidence: float = 0.95,
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
    scored_columns = sorted({str(p.meta["column"]) for p in preds if isinstance(p.meta, dict) and "column" in p.meta})
    return {"schema_version": SCHEMA_VERSION, "suite": suite, "suite_info": s.describe(),
            "items_hash": s.items_hash(items), "predictions": str(predictions), "column": column,
            "scored_column": scored_columns[0] if len(scored_columns) == 1 else (scored_columns or None),
            "n_boot": n_boot, "seed": seed, "confidence": confidence, "alpha": alpha, **result.to_dict(),
            **({"tables_written": written} if written else {})}


def run(suites: Sequence[str] | None = None, models: Sequence[Any] | None = None, *,
        model_args: Mapping[str, Any] | None = None, out: str | Path = "runs/latest", data_dir: str | None = None,
        cache_dir: str | None = None, use_cache: bool = True, seed: int = 0, n_boot: int = 1000,
        confidence: float = 0.95, limit: int | float | str | None = None, limit_mode: str = "sample",
        limit_seed: int = 0, missing: str = "error", progress: bool | Any = True,
        repair_cache: bool = False, overwrite: bool = False,
        suite_options: Mapping[str, Mapping[str, Any]] | None = None,
        log: Callable[[str], None] = lambda m: None, jobs: int | str | None = 1,
        reference: str | Sequence[str] | None = "all", reference_files: Sequence[str] = ()) -> dict[str, Any]:
    """Run models on suites and write the run directory ``out`` (``out/<label>/`` per model, plus
    ``out/summary.json``, ``out/comparison.json`` and the comparison report ``out/report.html``, whatever the
    number of models).

    ``suites=None`` runs every suite whose data is available (missing ones are reported through
    ``log`` and listed in the results). ``models=None`` runs the default models; a model is a registered name,
    ``"LABEL=NAME"`` (the same model may run twice under two labels) or a ``ModelEntry``. ``model_args``:
    ``{"KEY": value}`` for every selected model whose factory takes ``KEY``, ``{"LABEL:KEY": value}`` for
    one model. ``confidence``: the level of every interval and test (default 0.95; recorded, and
    printed in the reports). ``limit``: a positive item count or a fraction in (0, 1]; ``limit_mode``
    ``sample`` (default: a seeded random sample of each suite's unit, stratified by gold label, seeded by
    ``limit_seed``) or ``first``. ``suite_options``: suite name -> that suite's options. ``out`` holding a run of
    another configuration is refused unless ``overwrite``; the same configuration resumes. ``progress``: True reports
    stages on stderr (a :class:`~sentiprobe.run.progress.Progress` for another stream). ``jobs``: 1 runs the
    models one after another in this process; N > 1 (or ``"auto"``: one per CPU, at most 4) runs them in N
    worker processes side by side (:mod:`sentiprobe.run.lanes`), with the same results.
    ``reference``: the papers' own systems beside the models (read from the prediction files that ship with the
    data, never run; :mod:`sentiprobe.run.references`): ``all`` (default: those of the suites run), ``none``, or
    names (``published:bert_pt``; a ``published:`` name among ``models`` joins them). ``reference_files``: user
    prediction files registered as reference systems, each ``LABEL=PATH[:COLUMN][,sha256=HEX][,suite=NAME]`` or a
    YAML file (``references:`` entries).

    Returns the summary document: ``runs.<label>`` is that model's full results document (``suites``,
    ``errors``...). A suite that fails is recorded under ``errors`` (see :func:`run_errors`) while the
    others still run.
    """
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
                             cache_dir=cache_dir, use_cache=use_cache, seed=seed, n_boot=n_boot,
                             confidence=confidence, limit=limit, limit_mode=limit_mode, limit_seed=limit_seed,
                             missing=missing, progress=bool(progress), repair_cache=repair_cache,
                             suite_options=suite_options)
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
    alpha = alpha_of(confidence)  # ConfigError before any work
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
    comparison = compare_runs(dirs, names=names, n_boot=n_boot, seed=seed, alpha=alpha)
    docs = {n: load_run(d)[0] for n, d in zip(comparison["systems"], dirs)}
    links = {n: os.path.relpath(d / "report.html", target.resolve().parent) for n, d in zip(comparison["systems"],
                                                                                            dirs)}
    atomic_write_text(target, render_comparison(docs, comparison, links))
    return {"out": str(target), "runs": [str(d) for d in dirs], "comparison": comparison}
