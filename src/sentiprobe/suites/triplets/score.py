"""Triplet scoring (docs/protocols/triplets.md#metrics): micro P/R/F1 of triplets, target spans and polar spans,
bootstrap CIs over sentences, the parse-failure rate, a per-polarity breakdown and examples for the report.

Pure: a function of items, predictions, options and the context the data stage built (dataset, protocol,
training source); no file, memo or model. Why micro counts per sentence: the bootstrap resamples sentences (the unit the
data was drawn in) and recomputes the micro ratios from the resampled per-sentence counts, so one pass of
count arrays serves every metric.

Missing sentences (absent from the predictions) are an error under ``--missing error`` (the default, as in every
suite); under ``--missing wrong`` they count as "no triplets predicted" (every gold triplet of the sentence is a
miss) and are reported (``missing_rate``, ids in details). A file that names no sentence of the test set is an
error either way (:func:`.predictions.check_coverage`).
"""
from __future__ import annotations

from collections.abc import Sequence
from typing import Any

import numpy as np

from ...core.errors import PredictionError
from ...core.types import Item, Metric, Prediction
from ...stats.units import UnitMetric, UnitScores
from ..spec import ScoreConfig, ScoreContext, SuiteScore
from ...protocols.triplets.grid import POLARITIES
from .predictions import UNATTRIBUTED, check_coverage

KINDS = ("triplet", "target", "polar")


def _prf(tp: float, npred: float, ngold: float) -> tuple[float, float, float]:
    p = tp / npred if npred else 0.0
    r = tp / ngold if ngold else 0.0
    return p, r, (2 * p * r / (p + r) if p + r else 0.0)


def _sets(pred: Prediction | None) -> tuple[set, set, set]:
    if pred is None:
        return set(), set(), set()
    trip = {tuple(t) for t in pred.meta.get("triplets") or []}
    tg = pred.meta.get("targets")
    pl = pred.meta.get("polars")
    targets = {tuple(s) for s in tg} if tg is not None else {(t[0], t[1]) for t in trip}
    polars = {tuple(s) for s in pl} if pl is not None else {(t[2], t[3]) for t in trip}
    return trip, targets, polars


def marked(tokens: Sequence[str], t: Sequence[Any]) -> str:
    """The sentence with the target in ``[[...]]`` and the polar span in ``<<...>>`` (plain text)."""
    out = []
    for i, w in enumerate(tokens):
        if i == t[0]:
            w = "[[" + w
        if i == t[2]:
            w = "<<" + w
        if i == t[1]:
            w = w + "]]"
        if i == t[3]:
            w = w + ">>"
        out.append(w)
    return " ".join(out)


def _check(items: Sequence[Item], predictions: Sequence[Prediction], labels: Sequence[str],
           config: ScoreConfig) -> None:
    """Typed errors, as every suite gives them: a record of a sentence that is not in the items, two records of
    one sentence and seed, a polarity outside the labels (a reader turns malformed records into counted failures
    of the record that has them)."""
    known = {it.item_id for it in items}
    seen: set[tuple[str, int | None]] = set()
    dups, bad = [], []
    unknown = [p.item_id for p in predictions if p.item_id != UNATTRIBUTED and p.item_id not in known]
    if unknown and len(unknown) < sum(1 for p in predictions if p.item_id != UNATTRIBUTED):
        # (a file naming no sentence at all is refused by check_coverage with its own message)
        raise PredictionError("predictions for sentence ids that are not in the suite's test set", unknown,
                              path=config.path)
    for p in predictions:
        if p.item_id == UNATTRIBUTED:
            continue
        if (p.item_id, p.seed) in seen:
            dups.append(p.item_id)
        seen.add((p.item_id, p.seed))
        meta = p.meta if isinstance(p.meta, dict) else {}
        bad += [f"{p.item_id}={t[4]}" for t in meta.get("triplets") or []
                if isinstance(t, list | tuple) and len(t) == 5 and t[4] not in labels]
    if dups:
        raise PredictionError("duplicate predictions", dups, path=config.path)
    if bad:
        raise PredictionError(f"triplet polarities outside the label set {list(labels)}", bad, path=config.path)


def failure_rate_units(per_sentence: np.ndarray, unattributed: int, *, note: str) -> UnitMetric:
    """``parse_failure_rate`` over sentences: (failed records) / (records), a sentence's records (one per seed)
    resampled with it.

    Records that name no test sentence (broken JSON lines, unknown ids) are failures of no sentence; they count
    in every resample as they count in the point value (a fixed number, not drawn): each sentence carries
    ``unattributed / n`` of them, so a resample of ``n`` sentences always carries all of them. The per-unit
    arrays are that ratio's terms times ``n``, whole numbers, so the point value is the plain share of failed
    records to the last bit: (n F + n U) / (n R + n U) = (F + U) / (R + U)."""
    n = per_sentence.shape[0]
    num = n * per_sentence[:, 0] + unattributed
    den = n * per_sentence[:, 1] + unattributed
    return UnitMetric("ratio", {"numerator": num, "denominator": den}, higher_is_better=False, note=note)


def score(items: Sequence[Item], predictions: Sequence[Prediction], options: Any, context: ScoreContext,
          config: ScoreConfig) -> SuiteScore:
    """Metrics of predicted triplets against the decoded gold grids of ``items``."""
    _check(items, predictions, context.labels, config)
    by_id: dict[str, Prediction] = {}
    failures: list[dict] = []
    entries = 0
    known = {it.item_id for it in items}
    records: list[float] = []  # one sentence record (an LLM's reply) each, 1 = it failed
    index = {it.item_id: i for i, it in enumerate(items)}
    per_sentence = np.zeros((len(items), 2))  # (failed records, records) of each sentence
    unattributed = 0  # failed records naming no test sentence
    for p in predictions:
        meta = p.meta if isinstance(p.meta, dict) else {}
        failures += meta.get("failures") or []
        entries += int(meta.get("entries") or 0)
        if p.item_id == UNATTRIBUTED:  # records naming no test sentence: each one a failed unit
            records += [1.0] * len(meta.get("failures") or [])
            unattributed += len(meta.get("failures") or [])
            continue
        if meta.get("blank"):  # a blank record is a missing prediction
            continue
        if p.item_id not in known:
            failures.append({"record": p.item_id, "reason": "sentence id is not in the test set"})
            entries += 1
            records.append(1.0)
            unattributed += 1
            continue
        if not meta.get("generation_error"):  # an unanswered sentence is no reply, so no parse failure
            records.append(float(bool(meta.get("failures"))))
            per_sentence[index[p.item_id]] += (records[-1], 1.0)
        if p.item_id in by_id:  # several seeds or duplicate predictions: merge their sets
            old = by_id[p.item_id].meta
            meta = {k: (old.get(k) or []) + (meta.get(k) or []) if k in ("triplets",) else old.get(k)
                    for k in ("triplets", "targets", "polars")}
            p = Prediction(p.item_id, None, meta=meta)
        by_id[p.item_id] = p
    missing = check_coverage(items, predictions, missing=config.missing, path=config.path)
    n = len(items)
    counts = {k: np.zeros((n, 3)) for k in (*KINDS, *POLARITIES)}
    missed: list[dict] = []
    spurious: list[dict] = []
    k_ex = int(getattr(options, "n_examples", 10))
    for i, it in enumerate(items):
        gold = {tuple(t) for t in it.meta["gold"]}
        gt = {tuple(s) for s in it.meta["gold_targets"]}
        gp = {tuple(s) for s in it.meta["gold_polars"]}
        trip, pt, pp = _sets(by_id.get(it.item_id))
        counts["triplet"][i] = (len(gold & trip), len(trip), len(gold))
        counts["target"][i] = (len(gt & pt), len(pt), len(gt))
        counts["polar"][i] = (len(gp & pp), len(pp), len(gp))
        for pol in POLARITIES:
            g = {t for t in gold if t[4] == pol}
            s = {t for t in trip if t[4] == pol}
            counts[pol][i] = (len(g & s), len(s), len(g))
        toks = list(it.tokens or ())
        for t in sorted(gold - trip)[: max(0, k_ex - len(missed))]:
            missed.append({"id": it.item_id, "polarity": t[4], "text": marked(toks, t),
                           "predicted_in_sentence": len(trip)})
        for t in sorted(trip - gold)[: max(0, k_ex - len(spurious))]:
            spurious.append({"id": it.item_id, "polarity": t[4], "text": marked(toks, t)})
    metrics: dict[str, Metric] = {}
    per_unit: dict[str, UnitMetric] = {}
    for kind in KINDS:
        c = counts[kind]
        for stat in ("precision", "recall", "f1"):
            per_unit[f"{kind}_{stat}"] = UnitMetric("f1_counts", {"tp": c[:, 0], "predicted": c[:, 1],
                                                                  "gold": c[:, 2]}, {"stat": stat})
    entries = max(entries, len(failures))
    n_failed = int(sum(records))
    if records:
        per_unit["parse_failure_rate"] = failure_rate_units(
            per_sentence, unattributed, note=f"{n_failed} of {len(records)} sentence records (an LLM's replies) had "
                                             f"an entry that could not be read or aligned ({len(failures)} of "
                                             f"{entries} entries)")
    else:
        metrics["parse_failure_rate"] = Metric("parse_failure_rate", 0.0, None, None, 0, False, "none",
                                               "no prediction records")
    metrics["missing_rate"] = Metric("missing_rate", len(missing) / n if n else None, None, None, n, False, "none",
                                     f"{len(missing)} of {n} sentences have no prediction record")
    per_pol = {}
    for pol in POLARITIES:
        tp, npred, ngold = counts[pol].sum(axis=0)
        prec, rec, f1 = _prf(tp, npred, ngold)
        per_pol[pol] = {"precision": prec, "recall": rec, "f1": f1, "gold": int(ngold), "predicted": int(npred),
                        "correct": int(tp)}
    totals = {k: dict(zip(("correct", "predicted", "gold"), map(int, counts[k].sum(axis=0)))) for k in KINDS}
    details: dict[str, Any] = {
        "sentences": n, "counts": totals, "per_polarity": per_pol, "parse_failures": len(failures),
        "prediction_entries": entries, "failures": failures[:50], "missing_sentences": len(missing),
        "missing_ids": missing[:20], "missed_examples": missed, "spurious_examples": spurious,
        "gold": "decoded gold grid (see docs/triplets.md)",
        "dataset": context.provenance["dataset"], "protocol": context.provenance["protocol"],
    }
    details["train_source"] = context.provenance.get("train_source")
    units = UnitScores("sentence", n, n, per_unit, compared=("triplet_f1",),
                       note="micro F1 of exact <target, polar span, polarity> triplets; sentences resampled whole")
    return SuiteScore(metrics, details, units=units)
