"""The score step of a run through the cache: a suite's scores of given predictions are computed once.

The key holds exactly what the score stage is a function of (see :func:`score_cached`), so a re-run with the
same predictions skips the score context, the metric stage and the bootstrap.
"""
from __future__ import annotations

import hashlib
import json
from collections.abc import Sequence
from typing import Any

from .. import __version__
from ..core.hashing import package_source_hash, stable_hash
from ..core.types import Item, Prediction
from ..suites import Suite
from ..suites.prompting import generation_record, parse_failure_metric
from .cache import PredictionCache
from .config import RunConfig


def score_cached(suite: Suite, items: Sequence[Item], preds: Sequence[Prediction], lines: str,
           data_hashes: dict[str, str | None], cfg: RunConfig, cache: PredictionCache, *, learned: bool = False
           ) -> tuple[dict[str, Any], dict[str, Any], dict[str, Any] | None, bool]:
    """The suite's score stage through the cache: (metrics as dicts, details, the per-unit scores as a dict (None
    for a suite without them), whether they came from it).

    The score stage is a pure function of its arguments: the items, the predictions, the options and the score
    context, which the data stage computes from the suite (name, version, options, user files), its data files
    and whether a model was fitted on its training data (``learned``: the context then says where that data came
    from), completed by the metric stage (model-based metrics, a function of the predictions and options). The
    key holds exactly those inputs, the resampling settings and sentiprobe's own source code, so a re-run with
    the same predictions skips the context, the metric stage and the bootstrap.
    """
    key = stable_hash({"suite": suite.describe(), "items": suite.items_hash(items),
                       "predictions": hashlib.sha256(lines.encode("utf-8")).hexdigest(), "data": data_hashes,
                       "trained": learned, "n_boot": cfg.n_boot, "seed": cfg.seed, "missing": cfg.missing,
                       "confidence": cfg.confidence, "code": package_source_hash(), "sentiprobe": __version__}, 40)
    found = cache.get_many(_SCORES, [key], table="blobs").get(key)
    if found is not None:
        return found["metrics"], found["details"], found.get("units"), True
    context = suite.full_context(items, preds, trained=learned, cache=cache)
    scored = suite.score(items, preds, n_boot=cfg.n_boot, seed=cfg.seed, missing=cfg.missing,
                         confidence=cfg.confidence, context=context)
    doc = json.loads(json.dumps(scored.to_dict(), ensure_ascii=False))  # what results.json will hold
    cache.put_many(_SCORES, {key: doc}, table="blobs")
    return doc["metrics"], doc["details"], doc.get("units"), False


_SCORES = "suite-scores"


def with_generation(preds: Sequence[Prediction], asked: dict[str, Any] | None, metrics: dict[str, Any],
                     details: dict[str, Any], cfg: RunConfig) -> tuple[dict[str, Any], dict[str, Any]]:
    """Parse accounting of generated predictions (``details.generation``, metric ``parse_failure_rate``)."""
    gen = generation_record(preds, asked)
    if gen is None:
        return metrics, details
    if "parse_failure_rate" not in metrics:
        metrics = {**metrics, "parse_failure_rate": parse_failure_metric(
            preds, n_boot=cfg.n_boot, seed=cfg.seed, confidence=cfg.confidence).to_dict()}
    return metrics, {**details, "generation": gen}

