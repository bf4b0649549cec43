"""Score stage of the ``noncompsst`` and ``sst7`` suites (pure: no file writes, no model, no env variables).

``sst7`` (spec §6.3): means over seeds of per-seed accuracy / macro-F1, CIs by bootstrap over sentences.

``noncompsst`` (spec §5, §6): predictions of every seed are pooled per stimulus string, rated
(:mod:`.ratings`) and compared with the human ratings (:mod:`.metrics`). The pooled scores and the five
rating tables used to be written by scoring itself (``--ratings-out``); they are returned as
``SuiteScore.tables`` instead (``sentiprobe score --tables-out DIR`` writes them, byte for byte the same).

Both suites validate predictions with the one seeded check (:func:`.predictions.check_seeded`), so every
seed is checked and scored.
"""
from __future__ import annotations

from collections import Counter
from collections.abc import Sequence
from typing import TYPE_CHECKING, Any

import numpy as np

from ...core.errors import PredictionError
from ...core.types import Item, Prediction
from ...stats.bootstrap import bootstrap_metric, mean_metric
from ...stats.classification import confusion, encode, prf_from_confusion
from ..spec import ScoreConfig, SuiteScore
from .data import TRAIN_INFO_ERRORS, release, train_info, user_file_record
from .load import LINES_PER_PHRASE, NonCompSST, Phrase
from .metrics import evaluate
from .predictions import check_seeded
from .ratings import format_ratings, format_scores, pool, ratings, read_score_table

if TYPE_CHECKING:
    from ..base import Suite


def score(suite: Suite, items: Sequence[Item], predictions: Sequence[Prediction],
          config: ScoreConfig) -> SuiteScore:
    """Stage: score seeded predictions on items (``sst7`` or ``noncompsst``)."""
    if suite.name == "sst7":
        return score_sst7(suite, items, predictions, config)
    return score_noncompsst(suite, items, predictions, config)


def _train_details(suite: Suite) -> dict[str, Any]:
    """Train info; built only when the suite already loaded SST-7 train (a model was fitted)."""
    try:
        return train_info(suite, build=suite.loaded("train"))
    except TRAIN_INFO_ERRORS as exc:  # scoring predictions made elsewhere must not need the SST files
        return {"error": str(exc)}


def _macro_f1(t: np.ndarray, p: np.ndarray, k: int) -> float:
    cm = confusion(t, p, k)
    g = np.bincount(t, minlength=k)
    _, _, f = prf_from_confusion(cm, g)
    return float(f[(g > 0) | (cm.sum(axis=0) > 0)].mean())


def score_sst7(suite: Suite, items: Sequence[Item], predictions: Sequence[Prediction],
               config: ScoreConfig) -> SuiteScore:
    """Macro-F1 and accuracy: means over seeds of the per-seed values (§6.3)."""
    labels = suite.labels
    sd = check_seeded(items, predictions, labels, suite=suite.name, missing=config.missing, path=config.path)
    gold = [it.label for it in items]
    enc = [encode(gold, [sd.labels[s][it.item_id] for it in items], labels) for s in sd.seeds]
    k = len(labels)
    per_f1 = [_macro_f1(t, p, k) for t, p in enc]
    per_acc = [float(np.mean(t == p)) for t, p in enc]
    correct = np.mean([(t == p).astype(np.float64) for t, p in enc], axis=0)
    note = f"mean over {len(sd.seeds)} seed(s)"
    n_boot, seed = config.n_boot, config.seed
    metrics = {
        "macro_f1": bootstrap_metric("macro_f1",
                                     lambda idx: float(np.mean([_macro_f1(t[idx], p[idx], k) for t, p in enc])),
                                     len(items), n_boot=n_boot, seed=seed, note=note),
        "accuracy": mean_metric("accuracy", correct, n_boot=n_boot, seed=seed, note=note),
    }
    cm = np.sum([confusion(t, p, k) for t, p in enc], axis=0)
    details = {"seeds": list(sd.seeds), "per_seed": {"macro_f1": [round(v, 6) for v in per_f1],
                                                      "accuracy": [round(v, 6) for v in per_acc]},
               "confusion_summed_over_seeds": cm.tolist(), "missing": len(sd.missing),
               "unparsed": len(sd.unparsed), "train": _train_details(suite)}
    return SuiteScore(metrics, details)


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


def _pool(suite: Suite, items: Sequence[Item], predictions: Sequence[Prediction], config: ScoreConfig):
    """Checked seeded predictions pooled per stimulus (§5): what scoring and the paired comparison share."""
    data = release(suite)
    sd = check_seeded(items, predictions, suite.labels, suite=suite.name, missing=config.missing, path=config.path)
    phrases, lines = covered(items, data)
    by_line = {it.meta["line"]: it.item_id for it in items}
    per_seed_lines = {s: [_int_or_none(sd.labels[s][by_line[i]]) for i in lines] for s in sd.seeds}
    line_text = [data.lines[i] for i in lines]
    pooled = pool(line_text, per_seed_lines, skip_missing=(config.missing == "wrong"))
    naturals = {p.text: by_line[LINES_PER_PHRASE * p.index] for p in phrases}
    per_seed_nat = {s: {t: sd.labels[s][iid] for t, iid in naturals.items()} for s in sd.seeds}
    human = None
    if suite.options.human_scores is not None:
        human = read_score_table(suite.options.human_scores, [s for p in phrases for s in p.stimuli])
    return data, sd, phrases, line_text, pooled, per_seed_nat, human


def unit_table(suite: Suite, items: Sequence[Item], predictions: Sequence[Prediction], config: ScoreConfig):
    """Paired-comparison stage. ``sst7``: macro-F1 and accuracy (means over seeds), sentences as units.
    ``noncompsst``: ``pearson_maxabs`` (model vs human MAXABS) and ``macro_f1_all`` (mean over seeds), phrases
    as units: two systems' correlations are compared on the same resamples of phrases.
    """
    from ...stats.paired import UnitTable, macro_f1_of, pearson_of, seeded_classification_table
    from .metrics import round_half_up

    if suite.name == "sst7":
        sd = check_seeded(items, predictions, suite.labels, suite=suite.name, missing=config.missing,
                          path=config.path)
        return seeded_classification_table([it.label for it in items],
                                           [[sd.labels[s][it.item_id] for it in items] for s in sd.seeds],
                                           suite.labels, unit="sentence")
    data, sd, phrases, _, pooled, per_seed_nat, human = _pool(suite, items, predictions, config)
    model = ratings(pooled.scores, data.flags, phrases)["MAXABS"]
    hum = ratings(human, data.flags, phrases)["MAXABS"] if human is not None else \
        {p.text: float(data.human[p.text].maxabs) for p in phrases}
    x = np.array([model[p.text] for p in phrases], dtype=np.float64)
    y = np.array([hum[p.text] for p in phrases], dtype=np.float64)
    index = {lab: i for i, lab in enumerate(suite.labels)}
    gold = np.array([index[str(round_half_up(data.human[p.text].sentiment))] for p in phrases])
    f1s = [macro_f1_of(gold, np.array([index.get(per_seed_nat[s][p.text] or "", -1) for p in phrases]),
                       len(suite.labels)) for s in sd.seeds]
    return UnitTable(unit="phrase", n_units=len(phrases),
                     metrics={"pearson_maxabs": pearson_of(x, y),
                              "macro_f1_all": lambda idx: float(np.mean([f(idx) for f in f1s]))},
                     kinds={"pearson_maxabs": "correlation", "macro_f1_all": "rate"},
                     note="phrases resampled; correlations of model and human MAXABS ratings over the phrases")


def score_noncompsst(suite: Suite, items: Sequence[Item], predictions: Sequence[Prediction],
                     config: ScoreConfig) -> SuiteScore:
    """Pool, rate and correlate with the humans; the score and rating TSVs go into ``tables``."""
    data, sd, phrases, line_text, pooled, per_seed_nat, human = _pool(suite, items, predictions, config)
    opts = suite.options
    ev = evaluate(pooled.scores, data, per_seed=per_seed_nat, human_scores=human, phrases=phrases,
                  n_boot=config.n_boot, seed=config.seed)
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
    if opts.human_scores is not None:
        details["human_scores"] = user_file_record(opts.human_scores)
    if sd.missing or sd.unparsed:
        n = len(sd.missing) + len(sd.unparsed)
        details["missing"]["note"] = (f"{n} (stimulus, seed) predictions missing or unparseable: left out of the "
                                      "pooled scores; counted as wrong in the per-seed F1")
    details["train"] = _train_details(suite)
    tables = {"model_scores.tsv": format_scores(pooled.scores, pooled.counts),
              **format_ratings(ev.model_ratings, "model", extra={"human": ev.human_ratings})}
    return SuiteScore(ev.metrics, details, tables)
