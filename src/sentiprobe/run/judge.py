"""Running the SOUL judge on finished runs (``sentiprobe judge --run DIR --model NAME``).

A small runner (model, prediction cache, results and report files), so it lives in ``run/``; the judge
protocol itself (prompt, parsing, summary) is :mod:`sentiprobe.suites.soul.judge`.

Reads ``DIR/results.json`` (system name = the run's model name, or the directory name when two runs share
a model name) and ``DIR/predictions/soul-jg.jsonl``; samples items, asks the judge model through the
prediction cache, and writes into the output directory (default: the single run directory):

- ``judge.jsonl``: one :class:`JudgeRecord` per sampled item (prompt, raw reply, retry, scores, error);
- ``judge.json``: the summary (per system and criterion, mean 1-3 with CI), the judge's model, arguments and
  fingerprint, the configuration, and judge-human agreement when ``human`` ratings are given (else the
  status "not validated against human ratings").

Each run's ``results.json`` gets the document under ``suites["soul-jg"]["details"]["judge"]`` and its
``report.html`` is re-rendered, so the report shows judge scores next to the agreement.
"""
from __future__ import annotations

from dataclasses import asdict
from pathlib import Path
from typing import Any

from ..core.errors import CapabilityError, ConfigError, DataError
from ..core.io import atomic_write_text, read_jsonl, write_json, write_jsonl
from ..core.types import SCHEMA_VERSION, Prediction
from ..models import create_model
from ..report.html import render_report
from ..core.results import read_results
from ..suites.base import get_suite
from ..suites.predictions_io import prediction_from_record
from ..suites.soul.agreement import judge_human_agreement, read_ratings
from ..suites.soul.judge import (
    CRITERIA,
    JUDGE_TEMPLATE,
    NOT_VALIDATED,
    JudgeConfig,
    run_judge,
    summarize,
)
from .cache import NullCache, PredictionCache
from .predictor import CachedPredictor

SUITE = "soul-jg"


def _load_run(run_dir: Path) -> tuple[dict[str, Any], dict[str, Prediction]]:
    res = run_dir / "results.json"
    preds = run_dir / "predictions" / f"{SUITE}.jsonl"
    if not res.is_file():
        raise DataError("not a run directory (no results.json)", path=run_dir)
    if not preds.is_file():
        raise DataError(f"the run has no {SUITE} predictions (run `sentiprobe run --suite {SUITE}` first)", path=preds)
    doc = read_results(res)
    out: dict[str, Prediction] = {}
    for i, row in enumerate(read_jsonl(preds, "predictions file"), 1):
        p = prediction_from_record(row, preds, i)
        if p.item_id in out:
            raise DataError("duplicate prediction (a multi-seed run?)", path=preds, record=p.item_id)
        out[p.item_id] = p
    return doc, out


def judge_runs(run_dirs: list[str | Path], model: str, model_args: dict[str, Any] | None = None, *,
               cfg: JudgeConfig | None = None, human: str | Path | None = None, out: str | Path | None = None,
               data_dir: str | None = None, cache_dir: str | None = None, use_cache: bool = True,
               n_boot: int = 1000, confidence: float, update_runs: bool = True) -> dict[str, Any]:
    """Judge the soul-jg justifications of one or more runs; returns the ``judge.json`` document (intervals at
    ``confidence``)."""
    cfg = JudgeConfig() if cfg is None else cfg
    if not run_dirs:
        raise ConfigError("give at least one --run directory")
    dirs = [Path(d) for d in run_dirs]
    if out is None and len(dirs) > 1:
        raise ConfigError("several --run directories: give --out for the judge files")
    out_dir = Path(out) if out is not None else dirs[0]
    loaded = [_load_run(d) for d in dirs]
    names = [str(doc.get("model", {}).get("name") or d.name) for d, (doc, _) in zip(dirs, loaded)]
    if len(set(names)) < len(names):
        names = [d.resolve().name for d in dirs]
        if len(set(names)) < len(names):
            raise ConfigError(f"cannot tell the runs apart by model or directory name: {names}")
    systems = {n: preds for n, (_, preds) in zip(names, loaded)}
    suite = get_suite(SUITE, data_dir or loaded[0][0].get("config", {}).get("data_dir"))
    items = suite.items("test")
    judge_model = create_model(model, **(model_args or {}))
    if "generate" not in judge_model.capabilities:
        raise CapabilityError(f"the judge model {model!r} cannot generate text; its capabilities: "
                              f"{sorted(judge_model.capabilities)}")
    cache = PredictionCache.open(cache_dir) if use_cache else NullCache()
    try:
        predictor = CachedPredictor(judge_model, cache, progress=False, desc=f"judge/{model}")
        records = run_judge(predictor, items, systems, cfg)
        fingerprint = predictor.fingerprint
    finally:
        cache.close()
        judge_model.close()
    doc: dict[str, Any] = {
        "schema_version": SCHEMA_VERSION, "suite": SUITE,
        "judge_model": {"name": model, "args": dict(model_args or {}), "fingerprint": fingerprint},
        "config": asdict(cfg), "template": JUDGE_TEMPLATE.describe(),
        "criteria": list(CRITERIA), "runs": {n: str(d) for n, d in zip(names, dirs)},
        "judge_file": str(out_dir / "judge.jsonl"),
        "summary": summarize(records, n_boot=n_boot, seed=cfg.seed, confidence=confidence),
        "cache": {"hits": predictor.hits, "computed": predictor.computed},
    }
    if human is not None:
        judged: dict[tuple[str, str], dict[str, int | None]] = {
            (r.item_id, s): dict(sc) for r in records if r.scores for s, sc in r.scores.items()}
        ratings, info = read_ratings(human)
        doc["agreement"] = {**judge_human_agreement(judged, ratings, n_boot=n_boot, seed=cfg.seed,
                                                  confidence=confidence),
                            "human_file": info}
        doc["validation"] = "validated against human ratings"
    else:
        doc["agreement"] = None
        doc["validation"] = NOT_VALIDATED
    write_jsonl(out_dir / "judge.jsonl", [r.to_dict() for r in records])
    write_json(out_dir / "judge.json", doc)
    if update_runs:
        for d, (res, _) in zip(dirs, loaded):
            _attach(d, res, doc)
    return doc


def _attach(run_dir: Path, results: dict[str, Any], doc: dict[str, Any]) -> None:
    """Store the judge document in a run's results.json and re-render its report."""
    entry = results.get("suites", {}).get(SUITE)
    if entry is None:
        return
    entry.setdefault("details", {})["judge"] = doc
    write_json(run_dir / "results.json", results)
    atomic_write_text(run_dir / "report.html", render_report(results))
