"""Stage ``score`` (pure): accuracy for the classification tasks, span F1 for Phrase Type (spec §4).

Besides the main metric the entry carries what makes a probe score meaningful:

- ``details["baselines"]``: the spec §5 majority table computed from the suite's labels;
- ``details["probe"]``: the probe configuration the predictions were made with (from ``Prediction.meta``);
- extra heads a probe trained beside the task probe (``Prediction.meta["extra"]``, see models/probes.py):
  ``control`` -> metrics ``control_accuracy`` and ``selectivity`` (accuracy - control accuracy, paired
  bootstrap CI); ``ablation:<mode>`` -> ``accuracy_ablation_<mode>``; ``layer:<k>`` -> ``details["layers"]``.
"""
from __future__ import annotations

from collections.abc import Sequence
from typing import Any

import numpy as np

from ...core.types import Item, Metric, Prediction
from ...stats.bootstrap import bootstrap_metric, mean_metric
from ..spec import ScoreConfig, SuiteScore
from . import baselines, tags
from .data import task_of
from .predictions import check_tags


def _probe_info(preds: Sequence[Prediction]) -> dict[str, Any] | None:
    return next((p.meta["probe_config"] for p in preds if isinstance(p.meta.get("probe_config"), dict)), None)


def _metric_name(extra: str) -> str:
    return "accuracy_" + extra.replace(":", "_").replace("+", "_")


def score(suite, items: Sequence[Item], predictions: Sequence[Prediction], config: ScoreConfig) -> SuiteScore:
    if task_of(suite) == "phrase-type":
        return _score_tags(suite, items, predictions, config)
    by_id = suite.check_predictions(items, predictions, missing=config.missing, path=config.path)
    correct = np.array([float(it.item_id in by_id and by_id[it.item_id].label == it.label) for it in items])
    missing = sum(1 for it in items if it.item_id not in by_id)
    metrics = {"accuracy": mean_metric("accuracy", correct, n_boot=config.n_boot, seed=config.seed,
                                       alpha=config.alpha, note=f"{missing} missing" if missing else None)}
    details: dict[str, Any] = {"task": task_of(suite), "missing": missing}
    extras = sorted({k for p in by_id.values() for k in (p.meta.get("extra") or {})})
    layers = {}
    for name in extras:
        gold = [it.meta.get("control") if name == "control" else it.label for it in items]
        got = np.array([float(it.item_id in by_id and (by_id[it.item_id].meta.get("extra") or {}).get(name) == g)
                        for it, g in zip(items, gold)])
        if name.startswith("layer:"):
            layers[name.split(":", 1)[1]] = float(got.mean()) if len(got) else None
            continue
        mname = "control_accuracy" if name == "control" else _metric_name(name)
        metrics[mname] = mean_metric(mname, got, n_boot=config.n_boot, seed=config.seed, alpha=config.alpha)
        if name == "control":
            diff = correct - got
            def selectivity(idx: np.ndarray, diff: np.ndarray = diff) -> float:
                return float(diff[idx].mean())

            metrics["selectivity"] = bootstrap_metric(
                "selectivity", selectivity, len(diff), n_boot=config.n_boot,
                seed=config.seed, alpha=config.alpha, note="accuracy - control accuracy (Hewitt & Liang 2019)")
    if layers:
        details["layers"] = layers
    train = suite.items("train")
    details["baselines"] = baselines.table(train, items, task_of(suite))
    probe = _probe_info(list(by_id.values()))
    if probe is not None:
        details["probe"] = probe
    if "no_text" in suite.memo:
        details["note"] = suite.memo["no_text"]
    if "bnc" in suite.memo:
        details["bnc_extraction"] = suite.memo["bnc"]
    ablation = getattr(suite.options, "ablation", "none")
    if ablation != "none":
        details["ablation"] = ablation
    return SuiteScore(metrics, details)


def _f1_metric(name: str, counts: np.ndarray, config: ScoreConfig, note: str) -> Metric:
    return bootstrap_metric(name, lambda idx: tags.f1_from_counts(counts[idx]), len(counts), n_boot=config.n_boot,
                            seed=config.seed, alpha=config.alpha, note=note)


def _score_tags(suite, items, predictions, config: ScoreConfig) -> SuiteScore:
    by_id = check_tags(suite.name, items, predictions, missing=config.missing, path=config.path)
    missing = sum(1 for it in items if it.item_id not in by_id)
    gold = [(it.label or "").split() for it in items]
    pred = [(by_id[it.item_id].label or "").split() if it.item_id in by_id and by_id[it.item_id].label
            else ["O"] * len(it.tokens or ()) for it in items]
    probe = _probe_info(list(by_id.values()))
    decoding = (probe or {}).get("decoding", "unknown")
    metrics, details = {}, {"task": "phrase-type", "missing": missing, "decoding": decoding}
    for mode in tags.MODES:
        c = tags.span_counts(gold, pred, mode)
        name = "span_f1" if mode == "strict" else "span_f1_allennlp08"
        metrics[name] = _f1_metric(name, c, config, f"{mode} spans, decoding {decoding}")
        tp, fp, fn = (int(x) for x in c.sum(0))
        details[mode] = {"tp": tp, "fp": fp, "fn": fn}
    train = suite.items("train")
    table = baselines.fit_words(train)
    word = [baselines.tag_words(table, it) for it in items]
    details["baselines"] = {"majority_all": 0.0, **{
        f"majority_word_{mode}": tags.f1_from_counts(tags.span_counts(gold, word, mode)) for mode in tags.MODES}}
    if probe is not None:
        details["probe"] = probe
    return SuiteScore(metrics, details)
