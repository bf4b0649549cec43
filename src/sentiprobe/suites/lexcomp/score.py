"""Stage ``score`` (pure): accuracy for the classification tasks, span F1 for Phrase Type
(docs/protocols/lexcomp.md#metrics).

Pure: items, predictions, options and the frozen :class:`LexCompContext` the data stage built (the majority
baselines fitted on the training split, the notes on missing BNC text); no file, memo or model.

Besides the main metric the entry carries what makes a probe score meaningful:

- ``details["baselines"]``: the docs/protocols/lexcomp.md#majority-baselines majority table computed from the suite's
labels;
- ``details["probe"]``: the probe configuration the predictions were made with (from ``Prediction.meta``);
- extra heads a probe trained beside the task probe (``Prediction.meta["extra"]``, see models/probes.py):
  ``control`` -> metrics ``control_accuracy`` and ``selectivity`` (accuracy - control accuracy, paired
  bootstrap CI); ``ablation:<mode>`` -> ``accuracy_ablation_<mode>``; ``layer:<k>`` -> ``details["layers"]``.
"""
from __future__ import annotations

from collections.abc import Mapping, Sequence
from dataclasses import dataclass, field
from typing import Any

import numpy as np

from ...core.types import Item, Metric, Prediction
from ...stats.bootstrap import bootstrap_metric, mean_metric
from ..spec import ScoreConfig, ScoreContext, SuiteScore
from ...protocols.lexcomp import baselines, tags
from .predictions import check_tags


@dataclass(frozen=True)
class LexCompContext(ScoreContext):
    """The score context of a LexComp suite (built by :func:`.data.score_context`).

    Attributes:
        task: the probing task (``nc-literality``, ``phrase-type``...).
        baselines: the docs/protocols/lexcomp.md#majority-baselines majority baselines fitted on the training split
        (:func:`.baselines.fit_all`).
    """

    task: str = ""
    baselines: Mapping[str, Any] = field(default_factory=dict)


def _probe_info(preds: Sequence[Prediction]) -> dict[str, Any] | None:
    return next((p.meta["probe_config"] for p in preds if isinstance(p.meta.get("probe_config"), dict)), None)


def _metric_name(extra: str) -> str:
    return "accuracy_" + extra.replace(":", "_").replace("+", "_")


def score(items: Sequence[Item], predictions: Sequence[Prediction], options: Any, context: LexCompContext,
          config: ScoreConfig) -> SuiteScore:
    if context.task == "phrase-type":
        return _score_tags(items, predictions, context, config)
    by_id = context.check(items, predictions, config)
    correct = np.array([float(it.item_id in by_id and by_id[it.item_id].label == it.label) for it in items])
    missing = sum(1 for it in items if it.item_id not in by_id)
    metrics = {"accuracy": mean_metric("accuracy", correct, n_boot=config.n_boot, seed=config.seed,
                                       alpha=config.alpha, note=f"{missing} missing" if missing else None)}
    details: dict[str, Any] = {"task": context.task, "missing": missing}
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
    details["baselines"] = baselines.table(dict(context.baselines), items)
    probe = _probe_info(list(by_id.values()))
    if probe is not None:
        details["probe"] = probe
    for key in ("note", "bnc_extraction"):
        if key in context.provenance:
            details[key] = context.provenance[key]
    ablation = getattr(options, "ablation", "none")
    if ablation != "none":
        details["ablation"] = ablation
    return SuiteScore(metrics, details)


def _f1_metric(name: str, counts: np.ndarray, config: ScoreConfig, note: str) -> Metric:
    return bootstrap_metric(name, lambda idx: tags.f1_from_counts(counts[idx]), len(counts), n_boot=config.n_boot,
                            seed=config.seed, alpha=config.alpha, note=note)


def _score_tags(items: Sequence[Item], predictions: Sequence[Prediction], context: LexCompContext,
                config: ScoreConfig) -> SuiteScore:
    by_id = check_tags(context.suite, items, predictions, missing=config.missing, path=config.path)
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
    word = [baselines.tag_words(context.baselines["majority_word"], it) for it in items]
    details["baselines"] = {"majority_all": 0.0, **{
        f"majority_word_{mode}": tags.f1_from_counts(tags.span_counts(gold, word, mode)) for mode in tags.MODES}}
    if probe is not None:
        details["probe"] = probe
    return SuiteScore(metrics, details)
