"""Score stage of the ``noncompsst`` and ``sst7`` suites (pure: no file, environment, memo or model).

What scoring needs beyond the items (the NonCompSST release's tables, a user's human score table, the training
source) is read by the data stage into a frozen :class:`NonCompContext` (:func:`.data.score_context`).

``sst7`` (docs/protocols/noncompsst.md#sst7-metrics): means over seeds of per-seed accuracy / macro-F1, as per-unit
scores over sentences.

``noncompsst`` (docs/protocols/noncompsst.md#ratings, #metrics): predictions of every seed are pooled per stimulus
string, rated (:mod:`.ratings`) and compared with the human ratings (:mod:`.metrics`). The pooled scores and the five
rating tables used to be written by scoring itself (``--ratings-out``); they are returned as
``SuiteScore.tables`` instead (``sentiprobe score --tables-out DIR`` writes them, byte for byte the same). Every
computable metric (the correlations, a phrase's two sides resampled together, Spearman's rho included, and the
F1s) is a per-unit score over phrases (:func:`phrase_units`), one definition for the suite's own numbers and its
comparisons; only the correlations that need an unpublished human table stay "not computable" metrics.

Both suites validate predictions with the one seeded check (:func:`.predictions.check_seeded`), so every
seed is checked and scored.
"""
from __future__ import annotations

from collections import Counter
from collections.abc import Mapping, Sequence
from dataclasses import dataclass
from typing import Any

import numpy as np

from ...core.errors import PredictionError
from ...core.types import Item, Prediction
from ...stats.classification import confusion, encode, prf_from_confusion
from ...stats.unit_builders import label_codes, subset_label_counts
from ...stats.units import UnitMetric, UnitScores
from ..spec import ScoreConfig, ScoreContext, SuiteScore
from .load import LINES_PER_PHRASE, NonCompSST, Phrase
from .metrics import TOP_THRESHOLD, evaluate, round_half_up
from .predictions import check_seeded
from .ratings import PHRASE_VARIANTS, format_ratings, format_scores, pool, ratings, side_key


@dataclass(frozen=True)
class NonCompContext(ScoreContext):
    """The score context of ``noncompsst`` / ``sst7`` (built by :func:`.data.score_context`).

    Attributes:
        release: the loaded NonCompSST release (phrases, flags, human ratings); None for ``sst7``.
        human_scores: the user's full human score table (``human_scores`` option), read and checked; None
            without one.
    """

    release: NonCompSST | None = None
    human_scores: Mapping[str, float] | None = None


def score(items: Sequence[Item], predictions: Sequence[Prediction], options: Any, context: NonCompContext,
          config: ScoreConfig) -> SuiteScore:
    """Stage of ``noncompsst``: score seeded predictions on its stimulus items (``sst7``'s stage is
    :func:`score_sst7`; each suite's spec names its own)."""
    return score_noncompsst(items, predictions, options, context, config)


def _macro_f1(t: np.ndarray, p: np.ndarray, k: int) -> float:
    cm = confusion(t, p, k)
    g = np.bincount(t, minlength=k)
    _, _, f = prf_from_confusion(cm, g)
    return float(f[(g > 0) | (cm.sum(axis=0) > 0)].mean())


def score_sst7(items: Sequence[Item], predictions: Sequence[Prediction], options: Any, context: ScoreContext,
               config: ScoreConfig) -> SuiteScore:
    """Stage of ``sst7``: macro-F1 and accuracy, means over seeds of the per-seed values
    (docs/protocols/noncompsst.md#sst7-metrics); ``options`` are unused."""
    labels = context.labels
    sd = check_seeded(items, predictions, labels, suite=context.suite, missing=config.missing, path=config.path)
    gold = [it.label for it in items]
    enc = [encode(gold, [sd.labels[s][it.item_id] for it in items], labels) for s in sd.seeds]
    k = len(labels)
    per_f1 = [_macro_f1(t, p, k) for t, p in enc]
    per_acc = [float(np.mean(t == p)) for t, p in enc]
    correct = np.mean([(t == p).astype(np.float64) for t, p in enc], axis=0)
    note = f"mean over {len(sd.seeds)} seed(s)"
    parts = tuple(UnitMetric("macro_f1", {"gold": t, "predicted": p}, {"n_labels": k}) for t, p in enc)
    units = UnitScores("sentence", len(items), len(items), {
        "macro_f1": UnitMetric("seed_mean", parts=parts, note=note),
        "accuracy": UnitMetric("mean", {"values": correct}, note=note)}, compared=("macro_f1", "accuracy"),
        note=f"means over {len(sd.seeds)} seed(s); the seeds of a system are pooled per sentence")
    cm = np.sum([confusion(t, p, k) for t, p in enc], axis=0)
    details = {"seeds": list(sd.seeds), "per_seed": {"macro_f1": [round(v, 6) for v in per_f1],
                                                      "accuracy": [round(v, 6) for v in per_acc]},
               "confusion_summed_over_seeds": cm.tolist(), "missing": len(sd.missing),
               "unparsed": len(sd.unparsed), "train": dict(context.provenance["train"])}
    return SuiteScore({}, details, units=units)


def covered(items: Sequence[Item], data: NonCompSST) -> tuple[list[Phrase], list[int]]:
    """Phrases whose 7 stimuli are all among ``items`` (all of them unless the run used --limit), their lines."""
    have = {it.meta.get("line") for it in items}
    phrases = [p for p in data.phrases
               if all(LINES_PER_PHRASE * p.index + j in have for j in range(LINES_PER_PHRASE))]
    if not phrases:
        raise PredictionError("no phrase has all 7 of its stimuli among the items (was --limit below 7?)",
                              [it.item_id for it in items][:10])
    lines = [LINES_PER_PHRASE * p.index + j for p in phrases for j in range(LINES_PER_PHRASE)]
    return phrases, lines


def _int_or_none(label: str | None) -> int | None:
    return None if label is None else int(label)


def _pool(items: Sequence[Item], predictions: Sequence[Prediction], context: NonCompContext, config: ScoreConfig):
    """Checked seeded predictions pooled per stimulus (docs/protocols/noncompsst.md#ratings): what scoring and the
    paired comparison share."""
    data = context.release
    if data is None:
        raise ValueError(f"suite {context.suite}: the score context has no NonCompSST release")
    sd = check_seeded(items, predictions, context.labels, suite=context.suite, missing=config.missing,
                      path=config.path)
    phrases, lines = covered(items, data)
    by_line = {it.meta["line"]: it.item_id for it in items}
    per_seed_lines = {s: [_int_or_none(sd.labels[s][by_line[i]]) for i in lines] for s in sd.seeds}
    line_text = [data.lines[i] for i in lines]
    pooled = pool(line_text, per_seed_lines, skip_missing=(config.missing == "wrong"))
    naturals = {p.text: by_line[LINES_PER_PHRASE * p.index] for p in phrases}
    per_seed_nat = {s: {t: sd.labels[s][iid] for t, iid in naturals.items()} for s in sd.seeds}
    human = None if context.human_scores is None else dict(context.human_scores)
    return data, sd, phrases, line_text, pooled, per_seed_nat, human


def _side_pairs(phrases: Sequence[Phrase], human: Mapping[str, float], model: Mapping[str, float]
                ) -> dict[str, np.ndarray]:
    """Per-phrase (human, model) rating pairs of a side-level variant: slot 0 the left side, slot 1 the right; a
    side rated on only one of the two sides (or neither) has weight 0."""
    arrays: dict[str, np.ndarray] = {}
    for j, side in enumerate(("left", "right")):
        keys = [side_key(side, p) for p in phrases]
        w = np.array([k in human and k in model for k in keys], dtype=np.float64)
        arrays[f"x_{j}"] = np.array([float(human[k]) if k in human and k in model else 0.0 for k in keys])
        arrays[f"y_{j}"] = np.array([float(model[k]) if k in human and k in model else 0.0 for k in keys])
        arrays[f"w_{j}"] = w
    return arrays


def phrase_units(data: NonCompSST, phrases: Sequence[Phrase], model_scores: Mapping[str, float],
                 per_seed_nat: Mapping[int, Mapping[str, str | None]], human: Mapping[str, float] | None,
                 labels: Sequence[str]) -> UnitScores:
    """Per-unit scores over phrases (docs/protocols/noncompsst.md#metrics): ``pearson_maxabs`` and
    ``spearman_maxabs`` (human vs model MAXABS ratings), ``macro_f1_all`` (gold = human mean sentiment rounded,
    prediction = the seed-pooled score rounded), ``macro_f1_top67`` (the same over the phrases whose human MAXABS
    is above 1), their ``_per_seed`` means over seeds of per-seed macro-F1 of the argmax labels, and, with a
    user's human score table, ``pearson_max`` (per phrase) and ``pearson_all`` / ``pearson_allabs`` /
    ``pearson_allclean`` (per side: a phrase's two sides are resampled together)."""
    model_all = ratings(model_scores, data.flags, phrases)
    model = model_all["MAXABS"]
    human_all = ratings(human, data.flags, phrases) if human is not None else None
    hum = human_all["MAXABS"] if human_all is not None else \
        {p.text: float(data.human[p.text].maxabs) for p in phrases}
    x = np.array([hum[p.text] for p in phrases], dtype=np.float64)
    y = np.array([model[p.text] for p in phrases], dtype=np.float64)
    gold = label_codes([str(round_half_up(data.human[p.text].sentiment)) for p in phrases], labels)
    pred = label_codes([str(round_half_up(model_scores[p.text])) for p in phrases], labels)
    k = {"n_labels": len(labels)}
    note = "human ratings from the user-supplied score table" if human is not None else None
    metrics = {
        "pearson_maxabs": UnitMetric("pearson", {"x": x, "y": y}, {"min_units": 3}, kind="correlation", note=note),
        "macro_f1_all": UnitMetric("macro_f1", {"gold": gold, "predicted": pred}, k,
                                   note="prediction: the seed-pooled score rounded half up"),
    }
    top = np.array([data.human[p.text].maxabs > TOP_THRESHOLD for p in phrases])
    n_top = int(top.sum())
    if n_top:  # the phrases whose human MAXABS rating is above 1 (docs/protocols/noncompsst.md#phrase-f1)
        metrics["macro_f1_top67"] = subset_label_counts(gold, pred, len(labels), top, "macro_f1")
    seeds = sorted(per_seed_nat)
    per_seed = [label_codes([per_seed_nat[s][p.text] for p in phrases], labels) for s in seeds]
    if per_seed:
        seed_note = "mean over seeds of per-seed macro-F1 (argmax labels)"
        metrics["macro_f1_all_per_seed"] = UnitMetric(
            "seed_mean", parts=tuple(UnitMetric("macro_f1", {"gold": gold, "predicted": q}, k) for q in per_seed),
            note=seed_note)
        if n_top:
            metrics["macro_f1_top67_per_seed"] = UnitMetric(
                "seed_mean", parts=tuple(subset_label_counts(gold, q, len(labels), top, "macro_f1")
                                         for q in per_seed), n_units=n_top, n_items=n_top, note=seed_note)
    metrics["spearman_maxabs"] = UnitMetric("spearman", {"x": x, "y": y}, {"min_units": 3}, kind="correlation",
                                            note=note)
    side_note = "per side; a phrase's two sides are resampled together"
    if human_all is not None:
        for variant in ("MAX", "ALL", "ALLABS", "ALLCLEAN"):
            name = f"pearson_{variant.lower()}"
            if variant not in human_all or variant not in model_all:
                continue
            h, m = human_all[variant], model_all[variant]
            if variant in PHRASE_VARIANTS:
                metrics[name] = UnitMetric(
                    "pearson", {"x": np.array([h[p.text] for p in phrases], dtype=np.float64),
                                "y": np.array([m[p.text] for p in phrases], dtype=np.float64)},
                    {"min_units": 3}, kind="correlation", note=note)
                continue
            arrays = _side_pairs(phrases, h, m)
            rated = int(((arrays["w_0"] + arrays["w_1"]) > 0).sum())
            metrics[name] = UnitMetric("pearson_slots", arrays, {"slots": 2, "min_units": 3}, kind="correlation",
                                       n_units=rated, note="; ".join(filter(None, (note, side_note))))
    return UnitScores("phrase", len(phrases), LINES_PER_PHRASE * len(phrases), metrics,
                      compared=("pearson_maxabs", "macro_f1_all"),
                      note="phrases resampled; correlations of model and human MAXABS ratings over the phrases")


def score_noncompsst(items: Sequence[Item], predictions: Sequence[Prediction], options: Any,
                     context: NonCompContext, config: ScoreConfig) -> SuiteScore:
    """Pool, rate and correlate with the humans; the score and rating TSVs go into ``tables``."""
    data, sd, phrases, line_text, pooled, per_seed_nat, human = _pool(items, predictions, context, config)
    opts = options
    # point values and the report's tables; every computable metric is derived from the per-unit scores
    ev = evaluate(pooled.scores, data, per_seed=per_seed_nat, human_scores=human, phrases=phrases)
    details = dict(ev.details)
    occurrences = Counter(line_text)
    dup = {s: pooled.counts[s] for s, c in occurrences.items() if c > 1}
    details.update({
        "seeds": list(sd.seeds),
        "pooling": {"duplicated_strings": dup, "n_distinct_stimuli": len(pooled.scores)},
        "missing": {"pairs": len(sd.missing), "unparsed": len(sd.unparsed),
                    "stimuli_with_skipped_predictions": len(pooled.skipped)},
        "limited": len(phrases) < len(data.phrases),
        "text_options": {"lowercase": opts.lowercase, "tokenize": opts.tokenize},
    })
    if "human_scores" in context.provenance:
        details["human_scores"] = dict(context.provenance["human_scores"])
    if sd.missing or sd.unparsed:
        n = len(sd.missing) + len(sd.unparsed)
        details["missing"]["note"] = (f"{n} (stimulus, seed) predictions missing or unparseable: left out of the "
                                      "pooled scores; counted as wrong in the per-seed F1")
    details["train"] = dict(context.provenance["train"])
    tables = {"model_scores.tsv": format_scores(pooled.scores, pooled.counts),
              **format_ratings(ev.model_ratings, "model", extra={"human": ev.human_ratings})}
    units = phrase_units(data, phrases, pooled.scores, per_seed_nat, human, context.labels)
    return SuiteScore({k: m for k, m in ev.metrics.items() if k not in units.metrics}, details, tables, units)
