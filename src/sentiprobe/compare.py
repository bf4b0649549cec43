"""Paired comparison of systems, on each suite's own headline metrics and its own resampling unit.

One engine (:func:`sentiprobe.stats.paired.compare_units`) serves ``sentiprobe compare`` (prediction files, or
several columns of one published file), ``sentiprobe report``, ``sentiprobe run`` with several models and
``sentiprobe sweep`` (run directories, :func:`compare_systems`: pairing over what ran, a sweep's seeds pooled).
Each system's result is the per-unit scores its suite's score stage returns (:class:`~sentiprobe.stats.units.
UnitScores`, stored in results.json, so stored runs compare without the data); the metrics compared are the
suite's ``compared`` ones: ARS and accuracy on the originals over ARTS source examples, SOUL accuracy over
reviews, NonCompSST correlations and F1 over phrases, SST-7 pooled over seeds, SENTiVENT macro-F1 and accuracy
over items (plus McNemar and Cochran's Q), triplet F1 over sentences, LexComp accuracy over items and span F1 over
sentences.

>>> from sentiprobe.compare import compare_predictions
>>> doc = compare_predictions("sentivent-polar", ["a.csv", "b.csv", "c.csv"], confidence=0.95)  # doctest: +SKIP
>>> doc["pairs"][0]["metrics"]["macro_f1"]["difference"]                       # doctest: +SKIP
"""
from __future__ import annotations

import json
from collections.abc import Mapping, Sequence
from pathlib import Path
from typing import Any

import numpy as np

from .core.errors import ConfigError, DataError, SentiprobeError
from .core.hashing import file_sha256, package_source_hash, stable_hash
from .core.io import read_jsonl
from .core.results import mark_small_sample_comparison, read_results
from .core.types import SCHEMA_VERSION, Prediction
from .stats.paired import compare_units
from .stats.significance import cochrans_q
from .stats.units import UnitScores, pooled
from .suites import SUITES, get_suite
from .suites.predictions_io import prediction_from_record
from .stats.level import alpha_of
from .suites.spec import ScoreConfig


def check_reference(reference: str | None, names: Sequence[str]) -> None:
    """ConfigError when ``reference`` (the system every other is compared with first) is not one of ``names``."""
    if reference is not None and reference not in names:
        raise ConfigError(f"--reference {reference!r} is not one of the systems {list(names)}")


def check_settings(*, n_boot: int, confidence: float) -> None:
    """ConfigError for resampling and test settings outside their domain (before any work is done)."""
    if isinstance(n_boot, bool) or not isinstance(n_boot, int) or n_boot < 0:
        raise ConfigError(f"--n-boot must be a non-negative integer, not {n_boot!r}")
    alpha_of(confidence)


def system_names(paths: Sequence[str | Path]) -> list[str]:
    """Readable unique names, never a path: a run's model directory (``runs/x/tfidf-lr/predictions/s.jsonl``,
    beside ``runs/x/tfidf-lr/results.json``, -> ``tfidf-lr``), else the file stem. Names that clash get the
    nearest parent folder that tells them apart (``preds (a)``, ``preds (b)``), then a number (``preds#2``)."""
    def base(p: Path) -> tuple[str, list[str]]:
        p = Path(p)
        parents = [q.name for q in p.resolve().parents if q.name]
        if p.parent.name == "predictions" and (p.parent.parent / "results.json").is_file():
            return p.parent.parent.name, parents[2:]
        return p.stem, parents

    bases = [base(Path(p)) for p in paths]
    names = [b for b, _ in bases]
    for i, (b, parents) in enumerate(bases):
        rivals = [k for k, (o, _) in enumerate(bases) if o == b and k != i]
        if not rivals:
            continue
        distinct = next((q for depth, q in enumerate(parents)
                         if all(depth >= len(bases[k][1]) or bases[k][1][depth] != q for k in rivals)), None)
        if distinct is not None:
            names[i] = f"{b} ({distinct})"
    out: list[str] = []
    for n in names:
        name, k = n, 2
        while name in out:
            name, k = f"{n}#{k}", k + 1
        out.append(name)
    return out


def compare_suite(suite: Any, systems: Mapping[str, Sequence[Prediction]], *, items: Sequence[Any] | None = None,
                  missing: str = "error", n_boot: int = 1000, seed: int = 0, confidence: float,
                  mcnemar_exact: bool = False, reference: str | None = None,
                  paths: Mapping[str, str | Path] | None = None) -> dict[str, Any]:
    """Compare systems' predictions on one bound suite (see the module docstring); the suite's comparison entry."""
    paths = paths or {}
    return compare_seeded(suite, {n: [(preds, paths.get(n))] for n, preds in systems.items()}, items=items,
                          missing=missing, n_boot=n_boot, seed=seed, confidence=confidence, mcnemar_exact=mcnemar_exact,
                          reference=reference)


SeedRuns = Sequence[tuple[Sequence[Prediction], "str | Path | None"]]
"""One system on one suite: its predictions per run (one run, or one per seed of a sweep) and their file."""


def compare_seeded(suite: Any, systems: Mapping[str, SeedRuns], *, items: Sequence[Any] | None = None,
                   missing: str = "error", n_boot: int = 1000, seed: int = 0, confidence: float,
                   mcnemar_exact: bool = False, reference: str | None = None) -> dict[str, Any]:
    """:func:`compare_suite` where a system may have several runs (seeds): they are pooled on the same
    resamples of the suite's units (:func:`sentiprobe.stats.units.pooled`).

    ``confidence``: the level of the intervals (the tests' level is ``1 - confidence``). McNemar's test is the
    suite's protocol setting (by default exact below 25 discordant pairs, else the clamped continuity-corrected
    chi-square; SENTiVENT: its paper's unclamped chi-square) unless ``mcnemar_exact``.
    """
    check_settings(n_boot=n_boot, confidence=confidence)
    check_reference(reference, list(systems))  # before any scoring: a misspelt name is the first thing to fix
    its = suite.items("test") if items is None else list(items)

    def table(preds: Sequence[Prediction], path: str | Path | None) -> UnitScores:
        cfg = ScoreConfig(missing=missing, path=None if path is None else str(path))
        units = suite.spec.score(its, preds, suite.options, suite.score_context(), cfg).units
        if units is None:
            raise ConfigError(f"suite {suite.name!r} returns no per-unit scores: its systems cannot be compared")
        return units

    return compare_unit_scores(suite.name, {n: [table(p, f) for p, f in runs] for n, runs in systems.items()},
                               n_boot=n_boot, seed=seed, confidence=confidence, mcnemar_exact=mcnemar_exact,
                               reference=reference, suite_version=suite.spec.version,
                               options=suite.describe()["options"], missing=missing)


def compare_unit_scores(suite: str, systems: Mapping[str, Sequence[UnitScores]], *, n_boot: int, seed: int,
                        confidence: float, mcnemar_exact: bool = False, reference: str | None = None,
                        suite_version: str | None = None, options: Mapping[str, Any] | None = None,
                        missing: str = "error") -> dict[str, Any]:
    """The comparison entry of one suite from each system's per-unit scores (one per run or seed, pooled): no
    suite, data or prediction file is needed, so stored results compare as they are."""
    check_settings(n_boot=n_boot, confidence=confidence)
    names = list(systems)
    check_reference(reference, names)
    tables = {n: pooled(list(systems[n])) for n in names}
    doc = compare_units(tables, n_boot=n_boot, seed=seed, alpha=alpha_of(confidence), mcnemar_exact=mcnemar_exact)
    headline = doc["metrics"][0] if doc["metrics"] else None
    if reference is None and headline is not None:
        reference = doc["leaderboard"][headline][0]
    for p in doc["pairs"]:
        if p["b"] == reference:  # the reference on the left, differences read "reference minus other"
            p["a"], p["b"] = p["b"], p["a"]
            for m in p["metrics"].values():
                for k in ("difference", "ci_low", "ci_high"):
                    if m.get(k) is not None:
                        m[k] = -m[k]
                m["ci_low"], m["ci_high"] = m["ci_high"], m["ci_low"]
                if "mcnemar" in m:
                    c = m["mcnemar"].get("counts", {})
                    if "b" in c and "c" in c:
                        c["b"], c["c"] = c["c"], c["b"]
        p["involves_reference"] = reference in (p["a"], p["b"])
    doc["reference"] = reference
    binary = [m for m in doc["metrics"] if all(t.metrics[m].correct is not None for t in tables.values())]
    if binary and len(names) >= 2:
        cols = [np.asarray(tables[n].metrics[binary[0]].correct) for n in names]
        doc["cochran_q"] = cochrans_q(np.column_stack(cols)).to_dict()
        doc["cochran_q"]["metric"] = binary[0]
    doc.update({"schema_version": SCHEMA_VERSION, "suite": suite, "suite_version": suite_version,
                "options": dict(options or {}), "missing_policy": missing, "system_names": names,
                "seeds_per_system": {n: len(systems[n]) for n in names},
                "confidence": float(confidence), "mcnemar": doc["tests"]["mcnemar"]})
    return mark_small_sample_comparison(doc)


def compare_predictions(suite: str, predictions: Sequence[str | Path], *, names: Sequence[str] | None = None,
                        reference: str | None = None, column: str | Sequence[str] | None = None,
                        data_dir: str | None = None, missing: str = "error", n_boot: int = 1000, seed: int = 0,
                        confidence: float, mcnemar_exact: bool = False,
                        suite_options: Mapping[str, Any] | None = None) -> dict[str, Any]:
    """Compare prediction files (or several ``column``s of one file) on a suite (the API of ``sentiprobe compare``).

    Every file is read with the suite's own reader (so published layouts work) and validated against the
    suite's test items. With several columns, each column of each file is one system named after it.
    """
    cols = [column] if column is None or isinstance(column, str) else list(column)
    sources = [(Path(p), c) for p in predictions for c in cols]
    if len(sources) < 2:
        raise ConfigError("compare needs at least two systems: two prediction files, or --column given twice")
    check_settings(n_boot=n_boot, confidence=confidence)
    s = get_suite(suite, data_dir, suite_options)
    if s.task != "classify":
        raise ConfigError(f"suite {suite!r} is a {s.task} suite; compare works on classification suites")
    items = s.items("test")
    if names is not None:
        sys_names = list(names)
        if len(sys_names) != len(sources) or len(set(sys_names)) != len(sys_names):
            raise ConfigError(f"--names needs {len(sources)} unique names, got {sys_names}")
    elif len(cols) > 1:
        files = system_names([p for p, _ in sources[::len(cols)]]) if len(predictions) > 1 else [""]
        sys_names = [f"{f}:{c}" if f else str(c) for f in files for c in cols]
    else:
        sys_names = system_names([p for p, _ in sources])
    systems = {n: s.read_predictions(p, column=c) for n, (p, c) in zip(sys_names, sources)}
    doc = compare_suite(s, systems, items=items, missing=missing, n_boot=n_boot, seed=seed, confidence=confidence,
                        mcnemar_exact=mcnemar_exact, reference=reference,
                        paths={n: p for n, (p, _) in zip(sys_names, sources)})
    suite_metrics = {}
    for n, preds in systems.items():
        scored = s.score(items, preds, n_boot=n_boot, seed=seed, missing=missing, confidence=confidence)
        suite_metrics[n] = {k: m.to_dict() for k, m in scored.metrics.items()}
    doc.update({"predictions": {n: f"{p}" + (f" [{c}]" if c else "") for n, (p, c) in zip(sys_names, sources)},
                "suite_metrics": suite_metrics})
    return doc


def load_run(run_dir: str | Path) -> tuple[dict[str, Any], Path]:
    """``(results document, run directory)`` of a run directory (validated results schema)."""
    d = Path(run_dir)
    if not d.is_dir():
        raise DataError("not a run directory", path=d)
    if not (d / "results.json").exists():
        raise DataError(_no_results_hint(d), path=d / "results.json")
    return read_results(d / "results.json"), d


def _no_results_hint(d: Path) -> str:
    """Why ``d`` is not a model's run directory, and the ones below it (a run root holds one per model)."""
    below = sorted({p.parent for p in d.glob("*/results.json")} | {p.parent for p in d.glob("*/*/results.json")})
    if not below:
        return "no results.json here or in the directories below: not a run directory (`sentiprobe run --out DIR`)"
    shown = " ".join(str(p) for p in below[:8]) + (" ..." if len(below) > 8 else "")
    root = (" (a run root: its models are already compared in comparison.json and report.html)"
            if (d / "summary.json").is_file() else "")
    return (f"no results.json: --runs takes the directory of each model, not the folder above them{root}; the "
            f"run directories below it: {shown}, e.g. sentiprobe compare --runs {' '.join(map(str, below[:2]))}")


def compare_runs(run_dirs: Sequence[str | Path], *, names: Sequence[str] | None = None, n_boot: int = 1000,
                 seed: int = 0, confidence: float, suites: Sequence[str] | None = None,
                 cache: Any = None) -> dict[str, Any]:
    """Paired comparisons of several run directories (one model each), suite by suite (:func:`compare_systems`).

    Systems are named by ``names``, else by the label each run recorded (``--model LABEL=NAME``), else by the
    model's name or directory.
    """
    runs = [load_run(d) for d in run_dirs]
    if len(runs) < 2:
        raise ConfigError("a comparison needs at least two run directories")
    labels = list(names) if names is not None else [str(doc.get("model", {}).get("label")
                                                        or doc.get("model", {}).get("name") or d.name)
                                                    for doc, d in runs]
    if names is not None and (len(labels) != len(runs) or len(set(labels)) != len(labels)):
        raise ConfigError(f"--names needs {len(runs)} unique names, got {labels}")
    if len(set(labels)) != len(labels):
        labels = system_names([d / "predictions" / "x.jsonl" for _, d in runs])
    return compare_systems({n: [r] for n, r in zip(labels, runs)}, n_boot=n_boot, seed=seed, confidence=confidence,
                           suites=suites, cache=cache)


def _run_items(suite: Any, entry: Mapping[str, Any], pred_path: Path) -> list[Any]:
    """The test items a run asked: the suite's test items whose ids its predictions file holds (a ``--limit``
    sample or prefix included), checked against the ``items_hash`` it recorded."""
    ids = {r.get("item_id") for r in read_jsonl(pred_path, "predictions file") if isinstance(r, dict)}
    items = [it for it in suite.items("test") if it.item_id in ids]
    if suite.items_hash(items) != entry.get("items_hash"):  # e.g. a system that answered only part of them
        items = suite.items("test")[: int(entry.get("n_items") or 0)]
    if suite.items_hash(items) != entry.get("items_hash"):
        raise DataError("the recorded items_hash does not match the suite's items (other data or options)",
                        path=pred_path)
    return items


def compare_systems(systems: Mapping[str, Sequence[tuple[Mapping[str, Any], Path]]], *, n_boot: int = 1000,
                    seed: int = 0, confidence: float, suites: Sequence[str] | None = None,
                    cache: Any = None) -> dict[str, Any]:
    """Paired comparisons of systems, each one or several run directories (the seeds of a sweep), suite by suite.

    Pairing over what ran: on every suite, the systems with results on it are compared (their seeds pooled on
    the same resamples); a system without results there is listed under ``coverage.<suite>.not_run`` and
    blocks nothing. A system that asked other items than the rest (other options, data or ``--limit``) is
    left out of that suite with the reason (``coverage.<suite>.excluded``); a suite with fewer than two
    comparable systems is listed under ``not_compared`` with the reason. Items come from the data directory and
    the suite options the runs recorded; the predictions from each run's ``predictions/<suite>.jsonl``.

    ``cache``: a prediction cache (``get_many``/``put_many`` of blobs) that keeps each suite's comparison under
    the hash of what decides it (the predictions files' bytes, the items, the settings, sentiprobe's code), so a
    re-run whose predictions did not change reads no items and draws no resample.
    """
    labels = list(systems)
    order: list[str] = []
    for runs in systems.values():
        for doc, _ in runs:
            order += [s for s in doc.get("suites", {}) if s not in order]
    if suites is not None:
        order = [s for s in order if s in suites]
    out: dict[str, Any] = {
        "schema_version": SCHEMA_VERSION, "systems": labels,
        "runs": {n: (str(rs[0][1]) if len(rs) == 1 else [str(d) for _, d in rs]) for n, rs in systems.items()},
        "system_info": {n: _system_info(rs) for n, rs in systems.items()},
        "pairing": "over what ran: every pair of systems with results on a suite is compared on it",
        "suites": {}, "not_compared": {}, "coverage": {}}
    for name in order:
        ran = {n: [(doc["suites"][name], doc, d) for doc, d in rs if name in doc.get("suites", {})]
               for n, rs in systems.items()}
        ran = {n: r for n, r in ran.items() if r}
        cover: dict[str, Any] = {"ran": list(ran), "not_run": [n for n in labels if n not in ran], "excluded": {}}
        out["coverage"][name] = cover
        if name not in SUITES:
            out["not_compared"][name] = "suite not installed"
            continue
        hashes: dict[str, str] = {}
        for n, rs in ran.items():
            hs = {e["items_hash"] for e, _, _ in rs}
            if len(hs) == 1:
                hashes[n] = hs.pop()
            else:
                cover["excluded"][n] = "its seeds asked different items"
        counts: dict[str, int] = {}
        for h in hashes.values():
            counts[h] = counts.get(h, 0) + 1
        common = max(counts, key=lambda h: (counts[h], -list(hashes.values()).index(h))) if counts else None
        asked = {n: _asked(ran[n][0][0]) for n in hashes}
        for n, h in hashes.items():
            if h != common:
                cover["excluded"][n] = (f"asked other items than the others (different options, data or --limit): "
                                        f"{asked[n]}")
        keep = [n for n in ran if hashes.get(n) == common and n not in cover["excluded"]]
        if len(keep) < 2:
            why = (f"only {len(keep)} system ran it ({', '.join(keep) or 'none'})" if not cover["excluded"] else
                   "fewer than two systems asked the same items (" + "; ".join(f"{n}: {a}" for n, a in asked.items())
                   + ")")
            if any((ran[n][0][0].get("limit") or None) for n in hashes) and \
                    len({str(ran[n][0][0].get("limit")) for n in hashes}) > 1:
                why += "; --limit differs: run the systems with the same --limit (or none) to compare them"
            out["not_compared"][name] = why
            continue
        entry0, doc0, dir0 = ran[keep[0]][0]
        stored = all(isinstance(e.get("units"), dict) for n in keep for e, _, _ in ran[n])
        if stored:  # the per-unit scores the runs recorded: no suite, data or predictions file is read
            key: str | None = stable_hash({"suite": name, "units": [[e["units"] for e, _, _ in ran[n]] for n in keep],
                                           "names": keep, "n_boot": n_boot, "seed": seed,
                                           "alpha": alpha_of(confidence), "code": package_source_hash()}, 40)
        else:
            key = _comparison_key(name, entry0, {n: [d / "predictions" / f"{name}.jsonl" for _, _, d in ran[n]]
                                                 for n in keep}, doc0, n_boot=n_boot, seed=seed,
                                  alpha=alpha_of(confidence))
        found = cache.get_many(_COMPARISONS, [key], table="blobs").get(key) if cache is not None and key else None
        if found is not None:
            out["suites"][name] = {**found, "not_run": cover["not_run"], "excluded": cover["excluded"]}
            continue
        try:
            if stored:  # the per-unit scores the runs recorded: no suite, data or predictions file is read
                doc = compare_unit_scores(
                    name, {n: [UnitScores.from_dict(e["units"]) for e, _, _ in ran[n]] for n in keep},
                    n_boot=n_boot, seed=seed, confidence=confidence, suite_version=entry0["suite"].get("version"),
                    options=entry0["suite"].get("options"), missing=doc0.get("config", {}).get("missing", "error"))
            else:  # results written before the per-unit scores were stored: score the predictions again
                doc = _rescore(name, {n: [d for _, _, d in ran[n]] for n in keep}, entry0, doc0, dir0,
                               n_boot=n_boot, seed=seed, confidence=confidence)
        except SentiprobeError as exc:  # one suite that cannot be compared does not hide the others
            out["not_compared"][name] = f"{type(exc).__name__}: {exc}"
            continue
        doc["not_run"] = cover["not_run"]
        doc["excluded"] = cover["excluded"]
        doc = json.loads(json.dumps(doc))  # what comparison.json holds (and the cache returns)
        if cache is not None and key:
            cache.put_many(_COMPARISONS, {key: doc}, table="blobs")
        out["suites"][name] = doc
    return out


_COMPARISONS = "suite-comparisons"


def _asked(entry: Mapping[str, Any]) -> str:
    """Which of a suite's test items a run asked, in words (``--limit 5 (sample): 9 items``)."""
    n = entry.get("n_items")
    lim = entry.get("limit")
    if isinstance(lim, dict) and lim.get("value") is not None:
        return f"--limit {lim['value']} ({lim.get('mode', 'sample')}): {n} item{'' if n == 1 else 's'}"
    return f"all {n} items"
def _rescore(name: str, dirs: Mapping[str, Sequence[Path]], entry0: Mapping[str, Any], doc0: Mapping[str, Any],
             dir0: Path, *, n_boot: int, seed: int, confidence: float) -> dict[str, Any]:
    """A suite's comparison from the runs' predictions files, re-bound to the data the first run recorded."""
    data_dir = doc0.get("provenance", {}).get("data_dir") or doc0.get("config", {}).get("data_dir")
    suite = get_suite(name, data_dir, entry0["suite"]["options"])
    items = _run_items(suite, entry0, dir0 / "predictions" / f"{name}.jsonl")
    seeded: dict[str, list[tuple[list[Prediction], Path]]] = {}
    for n, ds in dirs.items():
        for d in ds:
            path = d / "predictions" / f"{name}.jsonl"
            preds = [prediction_from_record(r, path, i) for i, r in enumerate(read_jsonl(path, "predictions file"), 1)]
            seeded.setdefault(n, []).append((preds, path))
    missing = doc0.get("config", {}).get("missing", "error")
    return compare_seeded(suite, seeded, items=items, missing=missing, n_boot=n_boot, seed=seed, confidence=confidence)


def _comparison_key(suite: str, entry: Mapping[str, Any], files: Mapping[str, list[Path]], doc: Mapping[str, Any],
                    **settings: Any) -> str | None:
    """Hash of everything a suite's comparison depends on; None when a predictions file cannot be read."""
    from . import __version__  # read when called: the key follows the running version

    try:
        preds = {n: [file_sha256(f) for f in fs] for n, fs in files.items()}
    except OSError:
        return None
    return stable_hash({"suite": suite, "options": (entry.get("suite") or {}).get("options"),
                        "items": entry.get("items_hash"), "predictions": preds,
                        "missing": (doc.get("config") or {}).get("missing", "error"), **settings,
                        "code": package_source_hash(), "sentiprobe": __version__}, 40)


def _system_info(runs: Sequence[tuple[Mapping[str, Any], Path]]) -> dict[str, Any]:
    """What a system is (model name, label, arguments, identity) as its first run recorded it."""
    doc = runs[0][0]
    model = dict(doc.get("model") or {})
    return {"model": model.get("name"), "label": model.get("label") or model.get("name"),
            "args": model.get("args") or {}, "identity": model.get("identity") or {},
            "runs": len(runs), "seeds": sorted({int(d.get("seed", 0)) for d, _ in runs})}
