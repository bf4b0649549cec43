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
from ...stats.units import UnitMetric, UnitScores
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
    metrics: dict[str, Metric] = {}
    per_unit = {"accuracy": UnitMetric("mean", {"values": correct}, correct=correct,
                                       note=f"{missing} missing" if missing else None)}
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
        per_unit[mname] = UnitMetric("mean", {"values": got})
        if name == "control":
            per_unit["selectivity"] = UnitMetric("mean", {"values": correct - got},
                                                 note="accuracy - control accuracy (Hewitt & Liang 2019)")
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
    return SuiteScore(metrics, details, units=UnitScores("item", len(items), len(items), per_unit,
                                                         compared=("accuracy",)))


def _score_tags(items: Sequence[Item], predictions: Sequence[Prediction], context: LexCompContext,
                config: ScoreConfig) -> SuiteScore:
    by_id = check_tags(context.suite, items, predictions, missing=config.missing, path=config.path)
    missing = sum(1 for it in items if it.item_id not in by_id)
    gold = [(it.label or "").split() for it in items]
    pred = [(by_id[it.item_id].label or "").split() if it.item_id in by_id and by_id[it.item_id].label
            else ["O"] * len(it.tokens or ()) for it in items]
    probe = _probe_info(list(by_id.values()))
    decoding = (probe or {}).get("decoding", "unknown")
    per_unit: dict[str, UnitMetric] = {}
    details: dict[str, Any] = {"task": "phrase-type", "missing": missing, "decoding": decoding}
    for mode in tags.MODES:
        c = tags.span_counts(gold, pred, mode)
        name = "span_f1" if mode == "strict" else "span_f1_allennlp08"
        per_unit[name] = UnitMetric("f1_counts", {"tp": c[:, 0], "predicted": c[:, 0] + c[:, 1],
                                                  "gold": c[:, 0] + c[:, 2]},
                                    note=f"{mode} spans, decoding {decoding}")
        tp, fp, fn = (int(x) for x in c.sum(0))
        details[mode] = {"tp": tp, "fp": fp, "fn": fn}
    word = [baselines.tag_words(context.baselines["majority_word"], it) for it in items]
    details["baselines"] = {"majority_all": 0.0, **{
        f"majority_word_{mode}": tags.f1_from_counts(tags.span_counts(gold, word, mode)) for mode in tags.MODES}}
    if probe is not None:
        details["probe"] = probe
    units = UnitScores("sentence", len(items), len(items), per_unit, compared=("span_f1",),
                       note="strict BIO span F1; sentences resampled whole")
    return SuiteScore({}, details, units=units)
