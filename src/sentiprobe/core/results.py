"""The results schema: one typed definition of ``results.json``, validated when written and when read.

Layout (``schema_version`` 2; the ``suites.<name>.metrics.<metric>.{value,ci_low,ci_high,n}`` path of version 1
is unchanged, so scripts reading metrics keep working)::

    {
      "schema_version": 2,
      "sentiprobe_version": "0.1.0",
      "created": "2026-11-26T03:00:00+00:00",
      "command": "sentiprobe run ...",
      "config": {...RunConfig...},
      "seed": 0,
      "model": {"name": "tfidf-lr", "args": {...}},
      "provenance": {"packages": {...}, "git_commit": "abc..." | null, "data_dir": "/abs/path",
                     "platform": "Linux-..."},
      "suites": {"<suite>": SuiteResult},
      "errors": {"<suite>": {"type": "PredictionError", "message": "...", "kind": "error" | "missing-data"}},
      "skipped": {"<suite>": "why"}
    }

A metric whose interval rests on fewer than :data:`SMALL_SAMPLE_UNITS` units also carries ``small_sample: true``
and ``small_sample_note`` (why: ``"3 source examples < 30: interval unreliable"``).

A :class:`SuiteResult` holds the suite's identity (name, version, effective options), the hash of the items
asked, the metrics, the details, the data-file hashes, the model fingerprints, per-stage seconds and (optional,
written since the engine of :mod:`sentiprobe.stats.units`) the per-unit scores every engine metric is derived
from: ``units = {schema_version, unit, n_units, n_items, compared, paired_test, note, arrays: {name: [one value
per unit]}, metrics: {name: {aggregation, arrays: {role: array name}, params, kind, higher_is_better, correct,
n_units, n_items, note, parts}}}``, written on one line (the arrays hold one number per unit).
"""
from __future__ import annotations

import math
from collections.abc import Mapping
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

from .errors import SentiprobeError
from .io import read_json

RESULTS_SCHEMA_VERSION = 2
READABLE_VERSIONS = (1, 2)

SMALL_SAMPLE_UNITS = 30
"""Below this many units (a metric's ``n``: the items or groups it resamples) an interval is marked unreliable
everywhere it is shown or written: a bootstrap or Wilson interval over a handful of units is mostly an artefact
of the few values it can draw (3 source examples give a 0 %-wide interval as easily as a 100 %-wide one). 30 is
the usual rule of thumb for a normal-like sampling distribution; the mark is a warning, the numbers are kept."""


class ResultsSchemaError(SentiprobeError):
    """A results document does not follow the schema (names the file and the offending key path)."""

    def __init__(self, message: str, *, path: str | Path | None = None, key: str | None = None) -> None:
        self.path = None if path is None else str(path)
        self.key = key
        where = ", ".join(x for x in (f"file {self.path}" if self.path else "", f"at {key}" if key else "") if x)
        super().__init__(f"invalid results document: {message}" + (f" ({where})" if where else ""))


@dataclass(frozen=True)
class SuiteIdentity:
    """Which suite produced an entry.

    Attributes:
        name: suite name.
        version: suite version (bumped when items or metrics change).
        family: data family.
        options: the effective suite options (every option that changed items or metrics).
    """

    name: str
    version: str
    family: str
    options: dict[str, Any] = field(default_factory=dict)


@dataclass(frozen=True)
class SuiteResult:
    """One suite's entry under ``suites``.

    Attributes:
        suite: identity of the suite (:class:`SuiteIdentity`).
        items_hash: hash of the test items asked (two runs with the same hash asked the same questions).
        metrics: metric name -> ``{name, value, ci_low, ci_high, n, ...}`` (``Metric.to_dict``).
        details: suite-specific JSON (tables, warnings, examples).
        n_items: number of test items asked.
        data_files: manifest path -> sha256 of each data file read.
        model_fingerprints: the adapter fingerprint per seed.
        seconds: wall-clock seconds per stage (``load``, ``fit``, ``predict``, ``score``).
        units: the per-unit scores every engine metric was derived from (``UnitScores.to_dict``: unit, n_units,
            n_items, per metric its aggregation and per-unit arrays); ``compare`` and ``report`` rebuild values,
            intervals and tests from them without the data. None in results written before they were stored.
    """

    suite: SuiteIdentity
    items_hash: str
    metrics: dict[str, dict[str, Any]]
    details: dict[str, Any]
    n_items: int
    data_files: dict[str, str | None]
    model_fingerprints: list[str]
    seconds: dict[str, float]
    units: dict[str, Any] | None = None


_TOP = {"schema_version": int, "sentiprobe_version": str, "created": str, "config": dict, "model": dict,
        "provenance": dict, "suites": dict}
_ENTRY = {"suite": dict, "items_hash": str, "metrics": dict, "details": dict, "n_items": int, "data_files": dict,
          "model_fingerprints": list, "seconds": dict}
_UNITS = {"schema_version": int, "unit": str, "n_units": int, "n_items": int, "compared": list, "metrics": dict}
_METRIC = {"value": (int, float, type(None)), "ci_low": (int, float, type(None)),
           "ci_high": (int, float, type(None)), "n": int}


def _plural(unit: str, n: int) -> str:
    return unit if n == 1 or unit.endswith("s") else f"{unit}s"


def small_sample_note(metric: Mapping[str, Any], unit: str | None = None) -> str | None:
    """Why ``metric``'s interval is unreliable (``"3 source examples < 30: interval unreliable"``), or None: it
    has an interval over fewer than :data:`SMALL_SAMPLE_UNITS` units. ``unit`` names what ``n`` counts (the
    suite's resampling unit); a note already written into the metric is kept. Derived from ``n`` alone, so it
    holds whatever computed the metric."""
    n = metric.get("n")
    if metric.get("ci_low") is None or metric.get("ci_high") is None or not isinstance(n, int) or isinstance(n, bool) \
            or n >= SMALL_SAMPLE_UNITS:
        return None
    note = metric.get("small_sample_note")
    if isinstance(note, str) and note:
        return note
    return f"{n} {_plural(unit or 'unit', n)} < {SMALL_SAMPLE_UNITS}: interval unreliable"


def mark_small_samples(metrics: Mapping[str, Any], unit: str | Mapping[str, str] | None = None) -> dict[str, Any]:
    """``metrics`` (name -> metric dict) with ``small_sample: true`` and ``small_sample_note`` added to every
    metric whose interval rests on fewer than :data:`SMALL_SAMPLE_UNITS` units (others unchanged). ``unit``: the
    name of what ``n`` counts, or a metric name -> unit name mapping."""
    out: dict[str, Any] = {}
    for name, m in metrics.items():
        u = unit.get(name) if isinstance(unit, Mapping) else unit
        note = small_sample_note(m, u) if isinstance(m, Mapping) else None
        out[name] = {**m, "small_sample": True, "small_sample_note": note} if note else m
    return out


def mark_small_sample_comparison(doc: dict[str, Any]) -> dict[str, Any]:
    """Mark one suite's comparison entry (``comparison.json``'s ``suites.<suite>``) in place: each system's
    metric as :func:`mark_small_samples` does, and the entry itself (``small_sample``, ``small_sample_note``)
    when its paired unit count is below :data:`SMALL_SAMPLE_UNITS` (the differences' intervals and the tests
    rest on those few units too)."""
    unit = str(doc.get("unit") or "unit")
    systems = doc.get("systems")
    if isinstance(systems, dict):
        doc["systems"] = {s: mark_small_samples(ms, unit) if isinstance(ms, Mapping) else ms
                          for s, ms in systems.items()}
    n = doc.get("n_units")
    if isinstance(n, int) and not isinstance(n, bool) and n < SMALL_SAMPLE_UNITS:
        doc["small_sample"] = True
        doc["small_sample_note"] = (f"{n} {_plural(unit, n)} < {SMALL_SAMPLE_UNITS}: the intervals and paired "
                                    "tests are unreliable")
    return doc


def _need(doc: Mapping[str, Any], spec: Mapping[str, Any], where: str, path: str | Path | None) -> None:
    for key, typ in spec.items():
        if key not in doc:
            raise ResultsSchemaError(f"missing key {key!r}", path=path, key=where)
        if not isinstance(doc[key], typ) or (typ is int and isinstance(doc[key], bool)):
            raise ResultsSchemaError(f"{key!r} has type {type(doc[key]).__name__}", path=path,
                                     key=f"{where}.{key}" if where else key)


def validate_metric(m: Any, where: str, path: str | Path | None = None) -> None:
    if not isinstance(m, Mapping):
        raise ResultsSchemaError("a metric must be an object", path=path, key=where)
    _need(m, _METRIC, where, path)
    for k in ("value", "ci_low", "ci_high"):
        v = m[k]
        if isinstance(v, float) and not math.isfinite(v):
            raise ResultsSchemaError(f"{k} is not finite", path=path, key=f"{where}.{k}")
    lo, hi, v = m["ci_low"], m["ci_high"], m["value"]
    if lo is not None and hi is not None and lo > hi + 1e-12:
        raise ResultsSchemaError(f"ci_low {lo} > ci_high {hi}", path=path, key=where)
    if v is None and (lo is not None or hi is not None):
        raise ResultsSchemaError("an interval without a value", path=path, key=where)
    if "small_sample" in m and not isinstance(m["small_sample"], bool):
        raise ResultsSchemaError("'small_sample' must be true or false", path=path, key=f"{where}.small_sample")
    if m.get("small_sample") and not isinstance(m.get("small_sample_note"), str):
        raise ResultsSchemaError("'small_sample' without a 'small_sample_note' saying why", path=path, key=where)


def validate_suite_result(entry: Any, where: str, path: str | Path | None = None) -> SuiteResult:
    if not isinstance(entry, Mapping):
        raise ResultsSchemaError("a suite entry must be an object", path=path, key=where)
    _need(entry, _ENTRY, where, path)
    ident = entry["suite"]
    _need(ident, {"name": str, "version": str, "family": str, "options": dict}, f"{where}.suite", path)
    for name, m in entry["metrics"].items():
        validate_metric(m, f"{where}.metrics.{name}", path)
    units = entry.get("units")
    if units is not None:
        validate_units(units, f"{where}.units", path)
    return SuiteResult(SuiteIdentity(ident["name"], ident["version"], ident["family"], dict(ident["options"])),
                       entry["items_hash"], dict(entry["metrics"]), dict(entry["details"]), entry["n_items"],
                       dict(entry["data_files"]), list(entry["model_fingerprints"]), dict(entry["seconds"]),
                       None if units is None else dict(units))


def _check_array(v: Any, n_units: int, where: str, path: str | Path | None) -> None:
    if not isinstance(v, list) or len(v) != n_units:
        raise ResultsSchemaError(f"a per-unit array must be a list of {n_units} numbers", path=path, key=where)
    kinds = set(map(type, v))
    if kinds <= {int, float} and (float not in kinds or all(map(math.isfinite, v))):
        return  # plain numbers, as JSON reads them: checked at once (the arrays hold a million values per run)
    if any(isinstance(x, bool) or not isinstance(x, int | float) or not math.isfinite(x) for x in v):
        raise ResultsSchemaError("a per-unit array holds a value that is not a finite number", path=path, key=where)


def _zero_one(v: list[Any]) -> bool:
    try:
        return set(v) <= {0, 1}
    except TypeError:  # an unhashable element: not 0 or 1
        return False


def _check_arrays(m: Mapping[str, Any], n_units: int, where: str, path: str | Path | None,
                  pool: Mapping[str, Any]) -> None:
    if m.get("parts") is not None:
        if not isinstance(m["parts"], list) or not m["parts"]:
            raise ResultsSchemaError("'parts' must be a non-empty list", path=path, key=where)
        for k, part in enumerate(m["parts"]):
            if not isinstance(part, Mapping):
                raise ResultsSchemaError("a part must be an object", path=path, key=f"{where}.parts.{k}")
            _check_arrays(part, n_units, f"{where}.parts.{k}", path, pool)
        return
    arrays = m.get("arrays")
    if not isinstance(arrays, Mapping) or not arrays:
        raise ResultsSchemaError("missing per-unit arrays", path=path, key=f"{where}.arrays")
    for k, v in arrays.items():
        if isinstance(v, str):  # a name in the shared pool of arrays
            if v not in pool:
                raise ResultsSchemaError(f"per-unit array {k!r} names {v!r}, which is not among the arrays",
                                         path=path, key=f"{where}.arrays.{k}")
            continue
        _check_array(v, n_units, f"{where}.arrays.{k}", path)


def validate_units(units: Any, where: str, path: str | Path | None = None) -> None:
    """Check the stored per-unit scores: the keys and types the engine reads, one value per unit in each array."""
    if not isinstance(units, Mapping):
        raise ResultsSchemaError("the per-unit scores must be an object", path=path, key=where)
    _need(units, _UNITS, where, path)
    n = units["n_units"]
    pool = units.get("arrays") or {}
    if not isinstance(pool, Mapping):
        raise ResultsSchemaError("'arrays' must be an object", path=path, key=f"{where}.arrays")
    for name, v in pool.items():
        _check_array(v, n, f"{where}.arrays.{name}", path)
    for name, m in units["metrics"].items():
        at = f"{where}.metrics.{name}"
        if not isinstance(m, Mapping) or not isinstance(m.get("aggregation"), str):
            raise ResultsSchemaError("a per-unit metric needs an 'aggregation' name", path=path, key=at)
        _check_arrays(m, n, at, path, pool)
        corr = m.get("correct")
        if corr is not None and (not isinstance(corr, list) or len(corr) != n or not _zero_one(corr)):
            raise ResultsSchemaError(f"'correct' must be a list of {n} 0/1 values", path=path, key=f"{at}.correct")
    for c in units["compared"]:
        if c not in units["metrics"]:
            raise ResultsSchemaError(f"compared metric {c!r} has no per-unit scores", path=path,
                                     key=f"{where}.compared")


def validate_results(doc: Any, path: str | Path | None = None) -> dict[str, SuiteResult]:
    """Check a results document against the schema; returns its suites as typed :class:`SuiteResult`.

    Raises ResultsSchemaError naming the file and the key path of the first problem.
    """
    if not isinstance(doc, Mapping):
        raise ResultsSchemaError("the document must be a JSON object", path=path)
    version = doc.get("schema_version")
    if version not in READABLE_VERSIONS:
        raise ResultsSchemaError(f"schema_version {version!r} is not one of {list(READABLE_VERSIONS)}", path=path,
                                 key="schema_version")
    if version == 1:  # written before the typed schema: metrics only
        for sname, entry in (doc.get("suites") or {}).items():
            for mname, m in (entry.get("metrics") or {}).items():
                validate_metric(m, f"suites.{sname}.metrics.{mname}", path)
        return {}
    _need(doc, _TOP, "", path)
    out = {name: validate_suite_result(e, f"suites.{name}", path) for name, e in doc["suites"].items()}
    for name, err in (doc.get("errors") or {}).items():
        _need(err, {"type": str, "message": str, "kind": str}, f"errors.{name}", path)
    return out


def read_results(path: str | Path) -> dict[str, Any]:
    """Read and validate a ``results.json`` (typed errors for unreadable or invalid files)."""
    p = Path(path)
    if p.is_dir():
        p = p / "results.json"
    doc = read_json(p, "results file")  # the input layer: absent, directory, binary, invalid or over-deep JSON
    validate_results(doc, p)
    return doc
