"""Running several models into one run directory: each model's run (:mod:`.execute`, in this process or in
worker lanes, :mod:`.lanes`), then ``summary.json``, the paired comparison and the comparison report.

Run directory layout (the same for one model or several; see :mod:`.rundir`)::

    out/summary.json                        configuration hash, headline metric names, metrics per model
    out/report.html                         comparison report over the models
    out/<model>/predictions/<suite>.jsonl   one Prediction per line (JSON) plus ``gold`` and ``correct``
    out/<model>/results.json                metrics per suite under suites.<name>.metrics, provenance
    out/<model>/report.html                 self-contained report
    out/<model>/run.log                     log of the run, errors included

The run is planned in :mod:`.config` (configuration, checks), executed in :mod:`.execute` (one model), its
scores cached in :mod:`.score_cache` and its provenance and comparison written by :mod:`.provenance`.
"""
from __future__ import annotations

from collections.abc import Sequence
from dataclasses import asdict, replace
from datetime import UTC, datetime
from pathlib import Path
from typing import Any

from .. import __version__
from ..core.errors import ConfigError
from ..core.io import atomic_write_text, write_json
from ..report.html import render_comparison
from ..core.results import RESULTS_SCHEMA_VERSION
from ..suites import SUITES
from .config import RunConfig, model_config, validate_config
from .execute import SuitePool, run
from .lanes import not_in_a_fresh_process, parse_jobs, run_lanes
from .modelargs import model_entries
from .progress import NULL_PROGRESS, Progress
from .provenance import log_to_models, summary_entry
from .refcatalog import ReferenceSystem
from .references import REF_DIR, check_user_references, compare_with_references, run_references
from .rundir import SUMMARY, config_hash, prepare


def run_models(models: Sequence[Any], base: RunConfig, *, overwrite: bool = False,
               progress: Progress = NULL_PROGRESS, jobs: int | str | None = 1,
               references: Sequence[ReferenceSystem] = ()) -> dict[str, Any]:
    """Run each model into ``out/<label>/`` and write ``out/summary.json``, ``out/comparison.json`` and the
    comparison report.

    ``models``: :class:`~.modelargs.ModelEntry` values, ``(name, args)`` or ``(label, name, args)`` tuples (see
    :func:`~.modelargs.model_entries`); one registered model may run under several labels.
    ``out`` is refused when it holds another configuration's run, unless ``overwrite`` (see :mod:`.rundir`).
    ``jobs``: models run in this process one after another (1), or in that many worker processes side by side
    (``auto``/None: one per CPU, see :mod:`.lanes`); the results are the same either way.
    ``references``: reference systems (:mod:`.references`) read, scored and paired with the models after they ran
    (a bad user-registered file stops the run before any model runs); ``summary.references`` lists them.
    Returns the summary document, with ``runs.<label>`` the model's full results document (``summary.json``
    on disk holds the path of each instead, with the metrics).
    """
    entries = model_entries(models)
    if not entries:
        raise ConfigError("no model to run")
    labels = [e.label for e in entries]
    clash = sorted({r.name for r in references} & set(labels)) or ([REF_DIR] if references and REF_DIR in labels
                                                                      else [])
    if clash:
        raise ConfigError(f"model label(s) {clash} clash with the reference systems of the run")
    lanes = parse_jobs(jobs, len(entries))
    for e in entries:
        validate_config(replace(base, model=e.name, model_args=dict(e.args), label=e.label))
    local = not_in_a_fresh_process(sorted({e.name for e in entries}), base.suites) if lanes > 1 else []
    if local:
        lanes = 1
        progress.note(f"running the models one after another in this process: {', '.join(local[:3])} "
                      "registered at run time would be unknown to a worker process")
    out = Path(base.out_dir)
    config = asdict(base)
    chash = config_hash([(e.name if e.label == e.name else f"{e.label}={e.name}", model_config(e.name, e.args))
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
    pool: SuitePool = {}
    check_user_references(references, base, pool=pool)  # a bad file stops the run before any model runs
    docs: dict[str, dict[str, Any]] = {}
    cfgs = [replace(base, model=e.name, model_args=dict(e.args), label=e.label, out_dir=str(out / e.label))
            for e in entries]
    done = run_lanes(cfgs, lanes, progress=progress) if lanes > 1 else {}
    for cfg in cfgs:
        label = cfg.run_label
        docs[label] = done[label] if lanes > 1 else run(cfg, progress=progress, suites=pool)
        summary["runs"][label] = summary_entry(label, docs[label])
        write_json(out / SUMMARY, summary)
    try:
        ref_docs = run_references(references, base, out, pool=pool, progress=progress)
        if references:
            summary["references"] = {r.name: {**summary_entry(r.name, ref_docs[r.name], f"{REF_DIR}/{r.slug}"),
                                              "mark": ref_docs[r.name]["model"]["reference"]["mark"]}
                                     for r in references}
            write_json(out / SUMMARY, summary)
        comparison = compare_with_references(out, labels, base, references, ref_docs)
        if comparison is not None:
            summary["comparison"] = "comparison.json"
            write_json(out / SUMMARY, summary)
        links = {**{m: f"{m}/report.html" for m in docs},
                 **{r.name: f"{REF_DIR}/{r.slug}/report.html" for r in references}}
        atomic_write_text(out / "report.html", render_comparison({**docs, **ref_docs}, comparison, links))
    except Exception as exc:  # any failure of the report: recorded in the models' logs, then raised
        log_to_models(out, labels, exc)
        raise
    return {**summary, "runs": {m: {**summary["runs"][m], **docs[m]} for m in labels}}

