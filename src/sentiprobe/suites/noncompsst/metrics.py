"""NonCompSST evaluation (docs/protocols/noncompsst.md#metrics): correlations of ratings and F1 on the natural phrases.

- ``pearson_maxabs`` / ``spearman_maxabs``: model vs human MAXABS over the phrases; model ratings
  from the seed-pooled scores (docs/protocols/noncompsst.md#correlation); human ratings from ``maxabs_ranking.tsv`` (the
  printed 2-decimal values recovered exactly as multiples of 1/9, docs/protocols/noncompsst.md#numerics). Intervals:
  the engine's bootstrap over phrases (per-unit scores, :func:`.score.phrase_units`).
- ``macro_f1_all`` / ``macro_f1_top67``: gold = human mean sentiment rounded, prediction = the
  seed-mean score rounded (half up; no .5 can occur with 3 seeds), macro over labels in gold ∪
  prediction; top set = human MAXABS strictly > 1 (docs/protocols/noncompsst.md#phrase-f1). Secondary ``*_per_seed``:
  mean over seeds of per-seed macro-F1 of the argmax labels.
- ``pearson_max``, ``pearson_all``, ``pearson_allabs``, ``pearson_allclean``: need the human score
  of every control stimulus (unpublished, docs/protocols/noncompsst.md#computable) -> ``Metric.not_computable`` unless
  the user gives a human score table.
"""
from __future__ import annotations

import math
from collections.abc import Mapping, Sequence
from dataclasses import dataclass, field
from fractions import Fraction
from typing import Any

import numpy as np

from ...core.types import Metric
from ...stats.classification import confusion, encode, macro_f1, prf_from_confusion
from ...stats.rounding import round_half_up_int as round_half_up
from ...stats.aggregations import rankdata
from .load import NonCompSST, Phrase
from .ratings import PHRASE_VARIANTS, VARIANTS, phrase_of_key, ratings
from .sst7 import LABELS7

UNPUBLISHED = ("human {variant} ratings need the human score of every control stimulus, which is unpublished "
               "(Dankers & Lucas 2023 released only the natural phrases' ratings; see docs/noncompsst.md); "
               "give a stimulus<TAB>score table with the suite option human_scores "
               "(--suite-arg human_scores=FILE) to compute it")
TOP_THRESHOLD = Fraction(1)


def _pearson(x: np.ndarray, y: np.ndarray) -> float:
    xm, ym = x - x.mean(), y - y.mean()
    den = math.sqrt(float(xm @ xm) * float(ym @ ym))
    if den == 0.0:
        return float("nan")
    return max(-1.0, min(1.0, float(xm @ ym) / den))


def _spearman(x: np.ndarray, y: np.ndarray) -> float:
    return _pearson(rankdata(x), rankdata(y))


def correlation_metric(name: str, human: Mapping[str, float], model: Mapping[str, float], *, kind: str = "pearson",
                       note: str | None = None) -> Metric:
    """Correlation of ``human`` and ``model`` ratings over their shared keys (the point value; the suite's
    intervals come from its per-unit scores over phrases)."""
    keys = [k for k in model if k in human]
    if len(keys) < 3:
        return Metric.not_computable(name, f"only {len(keys)} shared keys", len(keys))
    x = np.array([float(human[k]) for k in keys])
    y = np.array([float(model[k]) for k in keys])
    if np.ptp(x) == 0 or np.ptp(y) == 0:
        who = "model" if np.ptp(y) == 0 else "human"
        return Metric.not_computable(name, f"the {who} ratings are constant (e.g. a model that predicts one class "
                                           "everywhere): the correlation is undefined", len(keys))
    fn = _pearson if kind == "pearson" else _spearman
    value = fn(x, y)
    return Metric(name, value if math.isfinite(value) else None, None, None, len({phrase_of_key(k) for k in keys}),
                  True, "none", note)


def _per_seed_f1(name: str, gold: Sequence[str], per_seed: Sequence[Sequence[str | None]]
                 ) -> tuple[Metric, list[float]]:
    """Mean over seeds of per-seed macro-F1 (labels in gold ∪ prediction), and each seed's."""
    k = len(LABELS7)
    each = [_single(t, p, k) for t, p in (encode(gold, preds, LABELS7) for preds in per_seed)]
    return Metric(name, float(np.mean(each)), None, None, len(gold), True, "none",
                  "mean over seeds of per-seed macro-F1 (argmax labels)"), each


def _single(t: np.ndarray, p: np.ndarray, k: int) -> float:
    cm = confusion(t, p, k)
    g = np.bincount(t, minlength=k)
    _, _, f1 = prf_from_confusion(cm, g)
    return float(f1[(g > 0) | (cm.sum(axis=0) > 0)].mean())


@dataclass(frozen=True)
class Evaluation:
    """Result of :func:`evaluate`.

    Attributes:
        metrics: metric name -> Metric.
        details: JSON-able extras for the report.
        model_ratings: variant -> {key: rating} of the model.
        human_ratings: variant -> {key: rating} of the humans (MAXABS only, unless a table was given).
    """

    metrics: dict[str, Metric]
    details: dict[str, Any]
    model_ratings: dict[str, dict[str, float]]
    human_ratings: dict[str, dict[str, float]] = field(default_factory=dict)


def _r(v: float | None, nd: int = 4) -> float | None:
    return None if v is None or not math.isfinite(v) else round(float(v), nd)


def evaluate(model_scores: Mapping[str, float], data: NonCompSST, *,
             per_seed: Mapping[int, Mapping[str, str | None]] | None = None,
             human_scores: Mapping[str, float] | None = None, phrases: Sequence[Phrase] | None = None
             ) -> Evaluation:
    """Score a model's pooled stimulus scores against the human data (docs/protocols/noncompsst.md#metrics): the
    point values, the rating tables and the report's details. The suite's values and intervals are derived from
    its per-unit scores over phrases (:func:`.score.phrase_units`); these are the same point values.

    ``per_seed``: seed -> {natural phrase: argmax label "0".."6" or None} for the secondary F1.
    ``human_scores``: optional full human table (stimulus -> mean rating) enabling all five correlations.
    ``phrases``: restrict to these phrases (default: all of ``data``).
    """
    phrases = list(data.phrases if phrases is None else phrases)
    model = ratings(model_scores, data.flags, phrases)
    metrics: dict[str, Metric] = {}
    published = {p.text: float(data.human[p.text].maxabs) for p in phrases}
    if human_scores is not None:
        human = ratings(human_scores, data.flags, phrases)
        human_note = "human ratings from the user-supplied score table"
    else:
        human = {"MAXABS": published}
        human_note = None
    metrics["pearson_maxabs"] = correlation_metric("pearson_maxabs", human["MAXABS"], model["MAXABS"],
                                                   note=human_note)
    metrics["spearman_maxabs"] = correlation_metric("spearman_maxabs", human["MAXABS"], model["MAXABS"],
                                                    kind="spearman", note=human_note)
    # F1 on the natural phrases
    gold = {p.text: str(round_half_up(data.human[p.text].sentiment)) for p in phrases}
    pred = {p.text: str(round_half_up(model_scores[p.text])) for p in phrases}
    top = [p.text for p in phrases if data.human[p.text].maxabs > TOP_THRESHOLD]
    sets = {"all": [p.text for p in phrases], "top67": top}
    per_seed_values: dict[str, list[float]] = {}
    for tag, keys in sets.items():
        name = f"macro_f1_{tag}"
        if not keys:
            metrics[name] = Metric.not_computable(name, "no phrase in the set")
            continue
        metrics[name] = macro_f1([gold[k] for k in keys], [pred[k] for k in keys], LABELS7, name=name, n_boot=0,
                                 alpha=None)
        if per_seed:
            seeds = sorted(per_seed)
            m, each = _per_seed_f1(f"{name}_per_seed", [gold[k] for k in keys],
                                   [[per_seed[s].get(k) for k in keys] for s in seeds])
            metrics[m.name] = m
            per_seed_values[m.name] = [round(v, 6) for v in each]
    for variant in ("MAX", "ALL", "ALLABS", "ALLCLEAN"):
        name = f"pearson_{variant.lower()}"
        if variant in human:
            metrics[name] = correlation_metric(name, human[variant], model[variant], note=human_note)
        else:
            metrics[name] = Metric.not_computable(name, UNPUBLISHED.format(variant=variant), 0)
    details = _details(phrases, data, model, human, model_scores, pred, gold, top, metrics, per_seed_values,
                       human_scores is not None)
    return Evaluation(metrics, details, model, human)


def _details(phrases, data, model, human, scores, pred, gold, top, metrics, per_seed_values, user_table):
    variants = {}
    for v in VARIANTS:
        vals = np.array(list(model[v].values()), dtype=np.float64)
        m = metrics.get("pearson_maxabs" if v == "MAXABS" else f"pearson_{v.lower()}")
        variants[v] = {
            "n": int(vals.size), "per": "phrase" if v in PHRASE_VARIANTS else "side",
            "model_mean": _r(float(vals.mean())) if vals.size else None,
            "model_sd": _r(float(vals.std())) if vals.size else None,
            "human": ("user table" if user_table else ("published" if v == "MAXABS" else "unpublished")),
            "pearson": _r(m.value) if m is not None else None,
        }
    rows = []
    for p in phrases:
        h = data.human[p.text]
        rows.append([p.index, p.a, p.b, _r(float(h.maxabs)), _r(model["MAXABS"][p.text]), _r(model["MAX"][p.text]),
                     _r(float(h.sentiment)), _r(float(scores[p.text]))])
    agree = None
    if user_table:
        diffs = [abs(round(human["MAXABS"][p.text], 2) - float(data.human[p.text].maxabs_printed)) for p in phrases]
        agree = {"max_abs_difference_vs_published_maxabs": _r(max(diffs), 6)}
    return {
        "n_phrases": len(phrases),
        "n_top": len(top),
        "top_rule": "human MAXABS strictly greater than 1 (exact multiples of 1/9)",
        "f1_labels": "gold = human mean sentiment rounded; prediction = seed-mean score rounded half up",
        "human_source": "user table" if user_table else "maxabs_ranking.tsv (published)",
        "human_table_agreement": agree,
        "variants": variants,
        "per_seed": per_seed_values,
        "phrase_columns": ["index", "a", "b", "human_maxabs", "model_maxabs", "model_max", "human_sentiment",
                           "model_sentiment"],
        "phrases": rows,
        "prediction_counts": {g: sum(1 for k in pred if pred[k] == g) for g in LABELS7},
        "gold_counts": {g: sum(1 for k in gold if gold[k] == g) for g in LABELS7},
    }
