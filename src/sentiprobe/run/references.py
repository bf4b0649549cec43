"""Reference systems in a run: their predictions read (never run), scored, and paired with every model.

A reference system (:mod:`.refcatalog`) is a predictions source at the run level, beside the models: on each suite
of the run that it covers, its file is verified (a published file through the data layer's manifest, a user file
against the sha256 given with it), read with the suite's own ``read_predictions``, validated against the suite's
test items, cut to the items the run asks (the same ``--limit`` sample as every model: same units), scored by the
same score stage through the same cache, and written as a model directory under ``<out>/references/<name>/``. The
comparison (:func:`compare_with_references`) then pairs it with every model by the same engine
(:func:`sentiprobe.compare.compare_systems`), on the suite's own unit.

A reference that covers only part of a suite's units is scored on the whole units it covers; it is paired with the
models over those shared units only (``comparison.json``: ``partial_references.<suite>.<name>``, with how many).
"""
from __future__ import annotations

import json
import platform
import sys
from collections.abc import Mapping, Sequence
from datetime import UTC, datetime
from pathlib import Path
from typing import Any

from .. import __version__
from ..compare import compare_suite, compare_systems, load_run
from ..core.errors import ChecksumError, ConfigError, SentiprobeError
from ..core.hashing import file_sha256, package_source_hash, stable_hash
from ..core.io import atomic_write_text, json_text, read_jsonl, write_json
from ..core.results import RESULTS_SCHEMA_VERSION, mark_small_samples, validate_results
from ..core.types import Item, Prediction
from ..data import require_file, resolve_data_dir
from ..report.html import render_report
from ..suites import Suite, get_suite
from ..suites.predictions_io import prediction_from_record
from .cache import NullCache, PredictionCache
from .config import RunConfig
from .execute import SuitePool, bind_suite
from .limit import apply_limit, unit_names
from .progress import NULL_PROGRESS, Progress
from .provenance import data_hashes, prediction_lines
from .refcatalog import NOT_RERUN, PUBLISHED, ReferenceSource, ReferenceSystem, published_references
from .score_cache import score_cached

REF_DIR = "references"
"""Where the reference systems' directories live in a run directory (``<out>/references/<slug>/``)."""


def reference_dir(out: Path, ref: ReferenceSystem) -> Path:
    return Path(out) / REF_DIR / ref.slug


def _mark(ref: ReferenceSystem) -> str:
    return NOT_RERUN if ref.kind == PUBLISHED else "user-registered predictions, not re-run"


def _open_cache(base: RunConfig) -> Any:
    return PredictionCache.open(base.cache_dir, repair=base.repair_cache) if base.use_cache else NullCache()


def run_references(refs: Sequence[ReferenceSystem], base: RunConfig, out: Path, *,
                   pool: SuitePool | None = None, progress: Progress = NULL_PROGRESS) -> dict[str, dict[str, Any]]:
    """Read, verify and score every reference on the run's suites it covers; write its directory. Returns the
    results documents by reference name.

    A published file that cannot be used (absent, modified, or not matching the suite's items under the run's
    options) is recorded under the reference's ``errors`` and the run goes on; a user-registered file is
    validated like any prediction file: its error stops the run (it was asked for by name).
    """
    docs: dict[str, dict[str, Any]] = {}
    if not refs:
        return docs
    cache = _open_cache(base)
    try:
        for ref in refs:
            docs[ref.name] = _run_one(ref, base, Path(out), cache, pool, progress)
    finally:
        cache.close()
    return docs


def check_user_references(refs: Sequence[ReferenceSystem], base: RunConfig, *,
                          pool: SuitePool | None = None) -> None:
    """Validate the user-registered references before any model runs: sha256, layout, ids and labels against the
    suite's test items (the typed error of a bad file, at no cost to the models' work)."""
    for ref in refs:
        if ref.kind == PUBLISHED:
            continue
        for src in ref.sources:
            if src.suite in base.suites:
                suite = bind_suite(src.suite, base, pool)
                path = source_path(src, base.data_dir)
                suite.check_predictions(suite.items("test"), suite.read_predictions(path, column=src.column),
                                        missing="wrong", path=path)


def _run_one(ref: ReferenceSystem, base: RunConfig, out: Path, cache: Any, pool: SuitePool | None,
             progress: Progress) -> dict[str, Any]:
    d = reference_dir(out, ref)
    (d / "predictions").mkdir(parents=True, exist_ok=True)
    covered = [s for s in base.suites if ref.source(s) is not None]
    doc: dict[str, Any] = {
        "schema_version": RESULTS_SCHEMA_VERSION, "sentiprobe_version": __version__,
        "created": datetime.now(UTC).isoformat(timespec="seconds"), "command": " ".join(sys.argv),
        "config": {"reference": ref.describe(), "n_boot": base.n_boot, "seed": base.seed,
                   "confidence": base.confidence, "missing": base.missing, "limit": base.limit,
                   "limit_mode": base.limit_mode, "limit_seed": base.limit_seed, "data_dir": base.data_dir},
        "seed": base.seed,
        "model": {"name": ref.name, "label": ref.name, "args": {}, "identity": ref.identity(),
                  "reference": {"kind": ref.kind, "mark": _mark(ref), "suites": list(ref.suites)}},
        "provenance": {"data_dir": str(resolve_data_dir(base.data_dir).resolve()), "platform": platform.platform()},
        "suites": {}}
    for name in covered:
        src = ref.source(name)
        assert src is not None
        try:
            doc["suites"][name] = _score_one(ref, src, name, base, d, cache, pool, progress)
        except SentiprobeError as exc:
            if ref.kind != PUBLISHED:
                raise
            doc.setdefault("errors", {})[name] = {"type": type(exc).__name__, "message": str(exc), "kind": "error"}
            progress.note(f"reference {ref.name} on {name} left out: {type(exc).__name__}: {exc}")
    validate_results(doc, d / "results.json")
    atomic_write_text(d / "results.json", json_text(doc, "suites", {}, ("units",)))  # as a model's results.json
    atomic_write_text(d / "report.html", render_report(doc))
    return doc


def source_path(src: ReferenceSource, data_dir: str | None) -> Path:
    """The verified file of a source: a published file through the data layer (sha256 of the manifest), a user
    file against the sha256 given with it (ChecksumError when it differs)."""
    if src.managed:
        return require_file(resolve_data_dir(data_dir), src.path)
    from ..data import hash_user_file

    path = Path(src.path)
    if src.sha256 is not None:
        actual = hash_user_file(path)
        if actual != src.sha256:
            raise ChecksumError(path, src.sha256, actual, "the sha256 registered with --reference-file; the file "
                                                          "was modified or is not the registered one")
    return path


def _score_one(ref: ReferenceSystem, src: ReferenceSource, name: str, base: RunConfig, d: Path, cache: Any,
               pool: SuitePool | None, progress: Progress) -> dict[str, Any]:
    suite = bind_suite(name, base, pool)
    with progress.stage(ref.name, name, "load", _mark(ref)) as t:
        path = source_path(src, base.data_dir)
        sha = file_sha256(path.resolve())
        hashes = data_hashes(suite)
        key = _entry_key(ref, src, suite, sha, hashes, base)
        found = cache.get_many(_ENTRIES, [key], table="blobs").get(key)
        if found is None:
            test = suite.items("test")
            by_id = suite.check_predictions(test, suite.read_predictions(path, column=src.column), missing="wrong",
                                            path=path)
            asked, limit_record = apply_limit(test, base.limit, mode=base.limit_mode, seed=base.limit_seed,
                                              unit=suite.spec.groups_name)
            asked = test if limit_record is None else asked  # the suite's own list: its items hash is computed once
            items, coverage = covered_units(asked, by_id, suite.spec.groups_name, path)
    if found is not None:  # the same file, data, options and settings: the entry and the file they gave
        atomic_write_text(d / "predictions" / f"{name}.jsonl", found["lines"])
        entry: dict[str, Any] = found["entry"]
        entry["cache"] = {"hits": 0, "computed": 0, "score_from_cache": True}
        entry["seconds"] = {"load": round(t["seconds"], 3), "fit": 0.0, "predict": 0.0, "score": 0.0}
        return entry
    preds = [by_id[it.item_id] for it in items]
    lines = prediction_lines(preds, items)
    atomic_write_text(d / "predictions" / f"{name}.jsonl", lines)
    with progress.stage(ref.name, name, "score", f"{base.n_boot} bootstrap resamples") as s:
        metrics, details, units, from_cache = score_cached(suite, items, preds, lines, hashes, base, cache)
    metrics = mark_small_samples(metrics, unit_names(metrics, items, suite.spec.groups_name))
    entry = {"suite": suite.describe(), "items_hash": suite.items_hash(items), "metrics": metrics, "details": details,
             "n_items": len(items), **({"units": units} if units is not None else {}),
             "confidence": base.confidence, "limit": limit_record, "task": suite.task,
             "labels": list(suite.labels), "model_fingerprints": [], "model_config": {}, "fit": [],
             "cache": {"hits": 0, "computed": 0, "score_from_cache": from_cache},
             "seconds": {"load": round(t["seconds"], 3), "fit": 0.0, "predict": 0.0, "score": round(s["seconds"], 3)},
             "data_files": hashes,
             "reference": {"source": src.path, "column": src.column, "sha256": sha,
                           "verified": "manifest sha256" if src.managed else
                           ("registered sha256" if src.sha256 else "not checked (no sha256 given)"),
                           "coverage": coverage}}
    cache.put_many(_ENTRIES, {key: {"entry": entry, "lines": lines}}, table="blobs")
    return entry


_ENTRIES = "reference-entries"


def _entry_key(ref: ReferenceSystem, src: ReferenceSource, suite: Suite, sha: str, hashes: dict[str, str | None],
               base: RunConfig) -> str:
    """Everything a reference's suite entry is a function of: the file's bytes and how it is read, the suite (name,
    version, options, data files), the run's ``--limit`` and score settings and sentiprobe's own code.

    Why a cache of the whole entry: a re-run would otherwise read the suite's items and the file again in the main
    process (the models' worker processes read the items too) only to find the scores in the cache."""
    return stable_hash({"reference": ref.name, "kind": ref.kind, "source": src.to_dict(), "file": sha,
                        "suite": suite.describe(), "data": hashes, "limit": base.limit, "limit_mode": base.limit_mode,
                        "limit_seed": base.limit_seed, "n_boot": base.n_boot, "seed": base.seed,
                        "missing": base.missing, "confidence": base.confidence, "code": package_source_hash(),
                        "sentiprobe": __version__}, 40)


def covered_units(items: Sequence[Item], predicted: Mapping[str, Prediction], unit: str,
                  path: Path) -> tuple[list[Item], dict[str, Any] | None]:
    """The whole units of ``items`` that ``predicted`` answers, and the coverage record (None: all of them)."""
    groups: dict[str, list[Item]] = {}
    for it in items:
        groups.setdefault(it.group_id, []).append(it)
    keep = {g for g, its in groups.items() if all(it.item_id in predicted for it in its)}
    if len(keep) == len(groups):
        return items if isinstance(items, list) else list(items), None
    if not keep:
        raise ConfigError(f"{path} predicts no whole {unit} of the {len(groups)} the run asks")
    chosen = [it for it in items if it.group_id in keep]
    return chosen, {"unit": unit, "n_units": len(keep), "of_units": len(groups), "n_items": len(chosen),
                    "of_items": len(items)}


# ---- the comparison of a run with references ----------------------------------------------------------------

def compare_with_references(out: Path, models: Sequence[str], base: RunConfig, refs: Sequence[ReferenceSystem],
                            ref_docs: Mapping[str, dict[str, Any]]) -> dict[str, Any] | None:
    """``out/comparison.json`` over the models and the references (None when fewer than two systems).

    Complete references are systems like the models (:func:`~sentiprobe.compare.compare_systems`); a partial one
    is paired with the systems of its suite over the units it covers (``partial_references``). ``references``
    says, per suite of the run, which reference systems it holds or that none ships for it.
    """
    out = Path(out)
    systems: dict[str, list[tuple[dict[str, Any], Path]]] = {
        m: [load_run(out / m)] for m in models if (out / m / "results.json").is_file()}
    dirs = {m: out / m for m in systems}
    partial: list[tuple[ReferenceSystem, str]] = []
    for ref in refs:
        doc = ref_docs.get(ref.name)
        if doc is None:
            continue
        full = {s: e for s, e in doc["suites"].items() if not (e.get("reference") or {}).get("coverage")}
        partial += [(ref, s) for s in doc["suites"] if s not in full]
        if full or not doc["suites"]:
            systems[ref.name] = [({**doc, "suites": full}, reference_dir(out, ref))]
        dirs[ref.name] = reference_dir(out, ref)
    if len(systems) + len(partial) < 2:
        return None
    cache = _open_cache(base)
    comparison: dict[str, Any]
    try:
        comparison = compare_systems(systems, n_boot=base.n_boot, seed=base.seed, confidence=base.confidence,
                                     cache=cache) if len(systems) >= 2 else \
            {"systems": list(systems), "suites": {}, "not_compared": {}, "coverage": {}}
    finally:
        cache.close()
    covers = {r.name: set(r.suites) for r in refs}
    for suite, cov in comparison.get("coverage", {}).items():  # a reference of another suite was not "not run"
        cov["not_run"] = [n for n in cov.get("not_run", []) if n not in covers or suite in covers[n]]
        if suite in comparison["suites"]:
            comparison["suites"][suite]["not_run"] = cov["not_run"]
    comparison["references"] = reference_notes(base.suites, refs, ref_docs)
    if partial:
        comparison["partial_references"] = _pair_partial(partial, comparison, systems, dirs, ref_docs, base)
    write_json(out / "comparison.json", comparison)
    return comparison


def reference_notes(suites: Sequence[str], refs: Sequence[ReferenceSystem],
                    ref_docs: Mapping[str, dict[str, Any]]) -> dict[str, Any]:
    """Per suite: the reference systems on it, or why there is none (what the comparison report says)."""
    shipped = {s for r in published_references() for s in r.suites}
    per: dict[str, Any] = {}
    for s in suites:
        on = [r.name for r in refs if s in (ref_docs.get(r.name) or {}).get("suites", {})]
        failed = {r.name: (ref_docs.get(r.name) or {}).get("errors", {}).get(s) for r in refs
                  if s in (ref_docs.get(r.name) or {}).get("errors", {})}
        if on:
            note = f"{len(on)} reference system(s), {NOT_RERUN} (their predictions read from the released files)"
        elif s in shipped:
            note = "published predictions ship for this suite but none was selected (--reference)"
        else:
            note = "no published predictions ship for this suite: no reference system"
        per[s] = {"systems": on, "note": note, **({"failed": failed} if failed else {})}
    return {"mark": NOT_RERUN, "systems": {r.name: {**r.describe(), "mark": _mark(r)} for r in refs},
            "suites": per}


def _read_preds(path: Path) -> list[Prediction]:
    return [prediction_from_record(r, path, i) for i, r in enumerate(read_jsonl(path, "predictions file"), 1)]


def _pair_partial(partial: Sequence[tuple[ReferenceSystem, str]], comparison: Mapping[str, Any],
                  systems: Mapping[str, Sequence[tuple[Mapping[str, Any], Path]]], dirs: Mapping[str, Path],
                  ref_docs: Mapping[str, dict[str, Any]], base: RunConfig) -> dict[str, Any]:
    """Each partial reference paired with the systems of its suite over the whole units it covers."""
    out: dict[str, dict[str, Any]] = {}
    for ref, suite_name in partial:
        entry = ref_docs[ref.name]["suites"][suite_name]
        cov = entry["reference"]["coverage"]
        comp = comparison.get("suites", {}).get(suite_name)
        others = list(comp["system_names"]) if comp else \
            [n for n, rs in systems.items() if suite_name in rs[0][0].get("suites", {})]
        record: dict[str, Any] = {"coverage": cov, "paired_over": f"{cov['n_units']} of {cov['of_units']} "
                                                                  f"{cov['unit']} units shared with the models"}
        try:
            suite: Suite = get_suite(suite_name, base.data_dir, base.suite_options.get(suite_name))
            mine = _read_preds(dirs[ref.name] / "predictions" / f"{suite_name}.jsonl")
            ids = {p.item_id for p in mine}
            items = [it for it in suite.items("test") if it.item_id in ids]
            preds = {ref.name: mine}
            for n in others:
                preds[n] = [p for p in _read_preds(dirs[n] / "predictions" / f"{suite_name}.jsonl") if p.item_id in ids]
            if len(preds) < 2:
                raise ConfigError("no model ran this suite")
            doc = compare_suite(suite, preds, items=items, missing=base.missing, n_boot=base.n_boot, seed=base.seed,
                                confidence=base.confidence, reference=ref.name)
            record.update(json.loads(json.dumps(doc)))
        except SentiprobeError as exc:
            record["not_compared"] = f"{type(exc).__name__}: {exc}"
        out.setdefault(suite_name, {})[ref.name] = record
    return out
