"""Scoring SOUL predictions (docs/protocols/soul.md#rc-metrics, #text-metrics): pure functions of items, predictions and
options.

Metrics (rates on the 0-1 scale; CIs resample whole reviews, ``n`` = reviews):

- ``accuracy``: share of statements whose primary label equals the gold label; unparseable
  (``label=None``) and missing predictions are wrong and stay in the denominator;
- ``f1_true``, ``f1_false``, ``f1_not_given``: per-class F1 with scikit-learn's ``zero_division=0``;
  a junk prediction lowers the recall of its gold class only (docs/protocols/soul.md#rc-metrics);
- ``macro_f1``: mean of the three real classes' F1 (not in the paper; sentiprobe extra);
- ``accuracy_lenient``: accuracy under the lenient rule (RC: docs/protocols/soul.md#label-extraction extraction; JG:
equals ``accuracy``);
- ``parse_failure_rate`` (lower is better): share of the answered statements whose reply did not parse (an item
  the model never answered is counted in ``n_generation_errors``, not here);
- JG only: ``bleu``, ``rouge1``, ``rouge2``, ``rougeL``, ``bertscore_f1`` (see ``textmetrics``), not
  computable when no prediction carries a justification (classify-only models).

:func:`score` is the SOUL suites' score stage; :func:`score_predictions` the protocol's scoring of checked
predictions. Both are pure: no file, environment, memo or model. BERTScore's per-item values come from the
metric stage (:func:`.textmetrics.measure`) through the score context, the training provenance from the data
stage (:func:`.data.score_context`).

``details`` hold the confusion matrix, per-class precision / recall / F1, the junk replies
(each distinct unparseable reply is a row of the reference per-class report), counts of missing
predictions and generation errors, the prompt templates seen, and a few failure examples.
"""
from __future__ import annotations

from collections import Counter
from collections.abc import Mapping, Sequence
from typing import Any


from ...core.errors import PredictionError
from ...core.hashing import stable_hash
from ...core.types import Item, Metric, Prediction
from ...stats.metrics_common import classification_report
from ...stats.unit_builders import grouped_rate, label_count_units
from ...stats.units import UnitMetric, UnitScores
from ..spec import Measure, ScoreConfig, ScoreContext, SuiteScore
from .load import LABELS
from .parse import extract_label, normalise_junk
from .prompts import soul_task, template_for
from .textmetrics import BERTSCORE, TextMetricOptions, text_metrics

METRIC_KEY = {"true": "true", "false": "false", "not-given": "not_given"}
N_EXAMPLES = 6
SNIPPET = 400


def lenient_label(p: Prediction | None) -> str | None:
    """The lenient label of a prediction: recorded in meta, else extracted from ``raw``, else its label."""
    if p is None:
        return None
    if "label_lenient" in p.meta:
        return p.meta["label_lenient"]
    if p.raw is not None:
        return extract_label(p.raw)
    return p.label


def _clip(text: str | None, n: int = SNIPPET) -> str | None:
    if text is None:
        return None
    return text if len(text) <= n else text[:n] + "\u2026"


def classification_metrics(gold: Sequence[str | None], pred: Sequence[str | None], groups: Sequence[str], *,
                           suffix: str = "") -> tuple[dict[str, Metric], dict[str, Any]]:
    """Accuracy, per-class and macro F1 (renamed ``f1_not_given`` etc.) and the details' tables, without intervals
    (the suite's numbers are its per-unit scores, :func:`unit_scores`)."""
    rep = classification_report(list(gold), list(pred), LABELS, n_boot=0, seed=0, alpha=None,
                                groups=list(groups))
    out: dict[str, Metric] = {}

    def put(name: str, m: Metric) -> None:
        out[name + suffix] = Metric(name + suffix, m.value, m.ci_low, m.ci_high, m.n, m.higher_is_better,
                                    m.ci_method, m.note)

    put("accuracy", rep.metrics["accuracy"])
    for lab in LABELS:
        put(f"f1_{METRIC_KEY[lab]}", rep.metrics[f"f1_{lab}"])
    put("macro_f1", rep.metrics["macro_f1"])
    details = rep.details()
    for row in details["per_label"]:
        lab = row["label"]
        row["precision_ci"] = [rep.metrics[f"precision_{lab}"].ci_low, rep.metrics[f"precision_{lab}"].ci_high]
        row["recall_ci"] = [rep.metrics[f"recall_{lab}"].ci_low, rep.metrics[f"recall_{lab}"].ci_high]
    return out, details


def _examples(items: Sequence[Item], by_id: dict[str, Prediction], wrong: list[int], jg: bool) -> list[dict]:
    """A few failure examples, spread over gold labels, chosen by a stable hash of the item id."""
    order = sorted(wrong, key=lambda i: stable_hash(items[i].item_id))
    picked: list[int] = []
    for lab in LABELS:
        picked += [i for i in order if items[i].label == lab][: max(1, N_EXAMPLES // len(LABELS))]
    out = []
    for i in picked[:N_EXAMPLES]:
        it, p = items[i], by_id.get(items[i].item_id)
        ex = {"item_id": it.item_id, "review": _clip(it.text), "statement": it.text_pair, "gold": it.label,
              "predicted": p.label if p else None, "raw": _clip(p.raw, 300) if p else None,
              "missing": p is None}
        if jg:
            ex["justification"] = _clip(p.text, 300) if p else None
            ex["reference_justification"] = it.meta.get("justification")
        out.append(ex)
    return out


def score_predictions(items: Sequence[Item], by_id: dict[str, Prediction], *, task: str,
                      text_options: TextMetricOptions | None = None, measures: Mapping[str, Measure] | None = None
                      ) -> tuple[dict[str, UnitMetric | Metric], dict[str, Any]]:
    """The text metrics (JG: per-review scores, or a :class:`Metric` where not computable) and the details of
    checked predictions (``by_id`` from ``Suite.check_predictions``); ``measures``: the metric stage's values
    (BERTScore, JG). The classification metrics are :func:`unit_scores`."""
    groups = [it.group_id for it in items]
    gold = [it.label for it in items]
    preds = [by_id.get(it.item_id) for it in items]
    for it, p in zip(items, preds):
        stmt = p.meta.get("statement") if p is not None else None
        if stmt is not None and stmt != it.text_pair:
            raise PredictionError("prediction rows do not match the data's statements (row order changed?)",
                                  [f"{it.item_id}: {stmt!r} != {it.text_pair!r}"])
    primary = [p.label if p is not None else None for p in preds]
    lenient = [lenient_label(p) for p in preds]
    # the classification metrics and parse-failure rates are per-unit scores (:func:`unit_scores`); these calls
    # give the details' tables (counts only)
    _, cls_details = classification_metrics(gold, primary, groups)
    _, len_details = classification_metrics(gold, lenient, groups, suffix="_lenient")
    metrics: dict[str, UnitMetric | Metric] = {}
    # parse failures are counted over the answered statements: an item the model never answered is unanswered
    # (scored wrong, counted in n_generation_errors), not a reply that did not parse
    failed = [float(p is not None and p.label is None and not p.meta.get("generation_error")) for p in preds]
    junk = Counter(normalise_junk(p.raw) for p in preds
                   if p is not None and p.label is None and not p.meta.get("generation_error"))
    wrong = [i for i, (g, p) in enumerate(zip(gold, primary)) if g != p]
    details: dict[str, Any] = {
        **cls_details,
        "lenient": {k: len_details[k] for k in ("confusion_matrix", "per_label", "n_invalid_predictions")},
        "n_statements": len(items), "n_reviews": len(set(groups)),
        "n_missing": sum(1 for p in preds if p is None),
        "n_parse_failures": int(sum(failed)),
        "n_generation_errors": sum(1 for p in preds if p is not None and p.meta.get("generation_error")),
        "junk_predictions": [{"reply": k, "count": v} for k, v in junk.most_common(20)],
        "n_distinct_junk_predictions": len(junk),
        "ci": "percentile bootstrap over reviews (group_id = rid); n = reviews",
        "examples": _examples(items, by_id, wrong, task == "jg"),
        "prompt_templates": sorted({f"{p.meta['prompt_template']} v{p.meta.get('prompt_version')} "
                                    f"#{p.meta.get('prompt_hash')}" for p in preds
                                    if p is not None and "prompt_template" in p.meta}),
        "modes": dict(Counter(str(p.meta.get("mode", "external")) for p in preds if p is not None)),
    }
    if task == "jg":
        has_text = [p for p in preds if p is not None and p.text is not None]
        names = ("bleu", "rouge1", "rouge2", "rougeL", "bertscore_f1")
        if not has_text:
            why = "no justifications: the model only classifies (or the file has no justification column)"
            for k in names:
                metrics[k] = Metric.not_computable(k, why, len(items))
            details["text_metrics"] = {"not_computable": why}
        else:
            cands = [(p.text or "") if p is not None else "" for p in preds]
            refs = [it.meta.get("justification") or "" for it in items]
            tm, tdetails = text_metrics(cands, refs, groups, text_options or TextMetricOptions(),
                                        item_ids=[it.item_id for it in items],
                                        bertscore=(measures or {}).get(BERTSCORE))
            metrics.update(tm)
            details["text_metrics"] = {**tdetails, "n_without_justification": sum(
                1 for p in preds if p is None or p.text is None)}
    return metrics, details


def sent_template(predictions: Sequence[Prediction]) -> dict[str, Any] | None:
    """The template the generated predictions say they were sent with (name, version, hash), when they agree on
    one; None otherwise (the record of the template sent is ``details.generation``)."""
    seen = {(p.meta.get("prompt_template"), p.meta.get("prompt_version"), p.meta.get("prompt_hash"))
            for p in predictions if p.meta.get("prompt_template")}
    if len(seen) != 1:
        return None
    name, version, hsh = seen.pop()
    return {"name": name, "version": version, "hash": hsh}


PARSE_RULES = {
    "rc": ("strict = exact label after lower-case/strip (reference code); "
           "lenient = the answer extraction of docs/soul.md"),
    "jg": "answer extraction of docs/soul.md (strict and lenient coincide); justification as in Deng et al. 2023",
}


def score(items: Sequence[Item], predictions: Sequence[Prediction], options: Any, context: ScoreContext,
          config: ScoreConfig) -> SuiteScore:
    """The SOUL score stage: check predictions, score them, record how they were asked for and trained."""
    by_id = context.check(items, predictions, config)
    task = soul_task(context.suite)
    opts = options
    metrics, details = score_predictions(items, by_id, task=task, text_options=opts.text_metrics(),
                                         measures=context.measures)
    details.update({
        "task": task, **context.provenance,
        "parse": PARSE_RULES[task],
        "prompt_template": sent_template(predictions) or template_for(task, opts.prompt_style).describe(),
        "options": {"mode": opts.mode, "prompt_style": opts.prompt_style, "max_tokens": opts.max_tokens,
                    "temperature": float(opts.temperature), "missing": config.missing},
        "item_ids": "<rid>:<n>, n = 1-based position of the statement among its review's rows",
    })
    units = unit_scores(items, by_id, {k: m for k, m in metrics.items() if isinstance(m, UnitMetric)})
    return SuiteScore({k: m for k, m in metrics.items() if isinstance(m, Metric) and k not in units.metrics},
                      details, units=units)


def unit_scores(items: Sequence[Item], by_id: Mapping[str, Prediction],
                text: Mapping[str, UnitMetric] | None = None) -> UnitScores:
    """Per-unit scores over reviews (statements of one review are not independent, so intervals and paired
    comparisons resample reviews, never statements): ``accuracy``, ``f1_true``, ``f1_false``, ``f1_not_given``
    (scikit-learn's ``zero_division=0``), ``macro_f1``, ``accuracy_lenient`` and the parse-failure rates, each a
    statistic of per-review counts of statements; and ``text``, JG's per-review text metrics."""
    groups = [it.group_id for it in items]
    gold = [it.label for it in items]
    preds = [by_id.get(it.item_id) for it in items]
    reviews, report = label_count_units(gold, [p.label if p is not None else None for p in preds], LABELS,
                                        groups=groups, names=METRIC_KEY)
    _, lenient = label_count_units(gold, [lenient_label(p) for p in preds], LABELS, groups=groups)
    keep = ["accuracy", *(f"f1_{METRIC_KEY[lab]}" for lab in LABELS), "macro_f1"]
    metrics = {k: report[k] for k in keep}
    metrics["accuracy_lenient"] = lenient["accuracy"]
    # over the answered statements: an item the model never answered is unanswered, not a reply that did not parse
    answered = [p is None or not p.meta.get("generation_error") for p in preds]
    _, metrics["parse_failure_rate"] = grouped_rate(
        groups, [float(p is not None and p.label is None) for p in preds], higher_is_better=False,
        note="share of answered statements whose output gave no label (scored wrong)", counted=answered)
    _, metrics["parse_failure_rate_lenient"] = grouped_rate(
        groups, [float(p is not None and lenient_label(p) is None) for p in preds], higher_is_better=False,
        note="under the lenient rule", counted=answered)
    metrics.update(text or {})
    return UnitScores("review", len(reviews), len(items), metrics, compared=("accuracy",),
                      note="statements pooled per review; reviews resampled whole")
