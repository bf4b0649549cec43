"""What a sweep reports: its models, not its jobs.

A sweep's systems are its model entries (registered name + arguments, named by their label in the YAML). For
each system, the jobs that finished give one results document per (suite, seed); :func:`write_reports` turns
them into what ``sentiprobe run`` writes for several models, at the sweep's root:

- ``comparison.json``: paired comparisons over what ran (:func:`sentiprobe.compare.compare_systems`): on every
  suite, every two models with results on it, their seeds pooled on the same resamples of the suite's unit;
- ``report.html``: the comparison report, one row per model; a metric over several seeds shows the pooled
  system's value and interval under the interval header, and the seeds' standard deviation (their spread) in
  a column of its own;
- ``summary.json``: ``jobs`` (every job's status and metrics; also under ``runs``, as before), ``aggregate``
  (mean and sd over seeds per model and suite), ``failed``, and ``models`` (per model the results-table
  entry: pooled metrics, n, limit, seconds, errors), which :func:`results_table` prints at the end of a sweep.
"""
from __future__ import annotations

import json
import statistics
from collections.abc import Mapping
from pathlib import Path
from typing import Any

from ..compare import compare_systems
from ..core.io import atomic_write_text, write_json
from ..report.html import render_comparison
from ..suites import SUITES
from .provenance import summary_entry
from .sweep_plan import SWEEP_SCHEMA_VERSION, find_results

SUMMARY_SCHEMA_VERSION = 2


def _metric_values(doc: Mapping[str, Any], suite: str) -> dict[str, float]:
    ms = (doc.get("suites") or {}).get(suite, {}).get("metrics", {})
    return {k: m["value"] for k, m in ms.items() if isinstance(m, Mapping) and isinstance(m.get("value"), int | float)}


def pooled_entry(entries: list[tuple[int, dict[str, Any]]],
                 pooled: Mapping[str, Mapping[str, Any]] | None = None) -> dict[str, Any]:
    """One model's results entries for one suite over seeds as one entry: with a single seed the entry itself;
    otherwise each metric holds the pooled system's value and interval where the paired comparison computed
    them (``pooled``: metric -> ``{value, ci_low, ci_high, n}`` of ``comparison.json``'s ``systems``, the seeds
    pooled on the same resamples of the suite's units), and the seeds' spread apart from it: ``seed_mean``,
    ``seed_sd`` and ``n_seeds`` (``seed_sd`` 0 when every seed gave the same value). A metric the comparison did
    not pool keeps the mean over seeds without an interval, and says so in its note."""
    if len(entries) == 1:
        seed, e = entries[0]
        return {**e, "seeds": [seed]}
    pooled = pooled or {}
    first = entries[0][1]
    metrics: dict[str, Any] = {}
    for name, m in first.get("metrics", {}).items():
        vals = [e["metrics"].get(name, {}).get("value") for _, e in entries]
        nums = [float(v) for v in vals if isinstance(v, int | float)]
        mean = statistics.fmean(nums) if len(nums) == len(vals) else None
        sd = statistics.stdev(nums) if mean is not None and len(nums) > 1 else None
        p = pooled.get(name) or {}
        if isinstance(p.get("value"), int | float):
            note = f"pooled over {len(entries)} seeds on the same resamples of the suite's units"
            value, lo, hi, n = p["value"], p.get("ci_low"), p.get("ci_high"), p.get("n", m.get("n"))
        else:
            note = (f"mean of {len(entries)} seeds; no pooled interval (the paired comparison needs two or more "
                    "models and covers the suite's headline metrics)" if mean is not None else
                    f"not computable for every one of {len(entries)} seeds")
            value, lo, hi, n = mean, None, None, m.get("n")
        drop = ("value", "ci_low", "ci_high", "n", "note", "small_sample", "small_sample_note")
        metrics[name] = {**{k: v for k, v in m.items() if k not in drop},
                         "value": value, "ci_low": lo, "ci_high": hi, "n": n, "n_seeds": len(entries),
                         "seed_mean": mean, "seed_sd": sd, "note": note,
                         **{k: p[k] for k in ("small_sample", "small_sample_note") if k in p and lo is not None}}
    seconds: dict[str, float] = {}
    for _, e in entries:
        for k, v in (e.get("seconds") or {}).items():
            if isinstance(v, int | float):
                seconds[k] = seconds.get(k, 0.0) + float(v)
    return {**first, "metrics": metrics, "seconds": seconds, "seeds": [s for s, _ in entries]}


def write_reports(cfg: Any, out: Path, index: Mapping[str, Any]) -> dict[str, Any]:
    """Write ``summary.json``, ``comparison.json`` and ``report.html`` of a sweep (see the module docstring)."""

    jobs: dict[str, Any] = {}
    by_pair: dict[tuple[str, str], list[dict[str, float]]] = {}
    systems: dict[str, list[tuple[dict[str, Any], Path]]] = {m.label: [] for m in cfg.models}
    per_suite: dict[str, dict[str, list[tuple[int, dict[str, Any]]]]] = {m.label: {} for m in cfg.models}
    errors: dict[str, dict[str, Any]] = {m.label: {} for m in cfg.models}
    models: dict[str, dict[str, Any]] = {}
    links: dict[str, str] = {}
    for job in cfg.jobs():
        row = index["jobs"][job.job_id]
        label, suite = job.model.label, job.suite.name
        entry: dict[str, Any] = {"model": label, "suite": suite, "seed": job.seed, "status": row["status"]}
        res = (find_results(out / job.rel_dir, job.model.label, job.model.name)
               if row["status"] in ("done", "cached") else None)
        if res is not None:
            doc = json.loads(res.read_text(encoding="utf-8"))
            rel = res.parent.relative_to(out).as_posix()
            entry["results"] = f"{rel}/results.json"
            entry["metrics"] = _metric_values(doc, suite)
            by_pair.setdefault((label, suite), []).append(entry["metrics"])
            systems[label].append((doc, res.parent))
            per_suite[label].setdefault(suite, []).append((job.seed, doc["suites"][suite]))
            models.setdefault(label, doc.get("model") or {})
            links.setdefault(label, f"{rel}/report.html")
        else:
            entry["error"] = row.get("error")
            errors[label][suite] = row.get("error") or {"type": "Failed", "message": "the job did not finish"}
        jobs[job.job_id] = entry
    aggregate: dict[str, dict[str, Any]] = {}
    for (label, suite), rows in by_pair.items():
        names = [k for k in rows[0] if all(k in r for r in rows)]
        aggregate.setdefault(label, {})[suite] = {
            k: {"mean": statistics.fmean(r[k] for r in rows),
                "sd": statistics.stdev([r[k] for r in rows]) if len(rows) > 1 else 0.0, "n_seeds": len(rows)}
            for k in names}
    ran = {k: v for k, v in systems.items() if v}
    spec = cfg.settings  # the sweep's own settings: its confidence, resamples and (first) seed
    comparison = (compare_systems(ran, n_boot=spec.n_boot, seed=spec.seed, confidence=spec.confidence)
                  if len(ran) >= 2 else None)
    if comparison is not None:
        write_json(out / "comparison.json", comparison)
    compared = (comparison or {}).get("suites", {})
    docs: dict[str, dict[str, Any]] = {}
    for m in cfg.models:
        model = {**(models.get(m.label) or {"name": m.name, "args": dict(m.args)}), "label": m.label}
        docs[m.label] = {"model": model,
                         "suites": {s: pooled_entry(es, (compared.get(s) or {}).get("systems", {}).get(m.label))
                                    for s, es in per_suite[m.label].items()},
                         "errors": {s: e for s, e in errors[m.label].items() if s not in per_suite[m.label]}}

    failed = sorted(j for j, r in index["jobs"].items() if r["status"] == "failed")
    summary = {"schema_version": SWEEP_SCHEMA_VERSION, "summary_version": SUMMARY_SCHEMA_VERSION, "out": str(out),
               "report": "report.html", "comparison": "comparison.json" if comparison is not None else None,
               "headline": {s.name: list(SUITES.get(s.name).headline) for s in cfg.suites if s.name in SUITES},
               "models": {label: {**summary_entry(label, d, f"jobs/{label}"),
                                  "report": links.get(label, f"jobs/{label}")}
                          for label, d in docs.items()},
               "jobs": jobs, "runs": jobs, "aggregate": aggregate, "failed": failed}
    write_json(out / "summary.json", summary)
    seeds = ", ".join(str(s) for s in cfg.seeds)
    intro = (f"A sweep of {len(cfg.models)} model(s) x {len(cfg.suites)} suite(s) x seeds {seeds}: each model is "
             "one system, its seeds pooled on the same resamples of the suite's units; the interval column holds "
             "that pooled system's interval, and the spread of the seeds (their standard deviation) has a column "
             "of its own.")
    atomic_write_text(out / "report.html", render_comparison(docs, comparison, links, title="sweep", intro=intro))
    return summary


def table_summary(summary: Mapping[str, Any]) -> dict[str, Any]:
    """A sweep's ``summary.json`` in the shape :func:`~.progress.results_table` prints (one row per model)."""
    return {"headline": summary.get("headline", {}), "runs": summary.get("models", {}), "out": summary.get("out"),
            "report": summary.get("report", "report.html"), "comparison": summary.get("comparison")}
