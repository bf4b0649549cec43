"""Hugging Face transformers sequence(-pair) classifiers from LOCAL checkpoint directories.

- ``hf-classifier`` (:class:`HFClassifier`): an already fine-tuned classifier. Its ``config.id2label``
  names are mapped to the suite's labels by meaning, before any inference (:func:`resolve_label_map`):
  the same name in any case (``Positive``), the common abbreviations (``NEG``/``NEU``/``POS``,
  ``neg``/``neu``/``pos``) and the NLI reading of SOUL's labels (``entailment``/``contradiction``/``neutral``
  -> ``true``/``false``/``not-given``). Names without a meaning (``LABEL_0``...) need ``label_map``; the error
  names them and shows the syntax with the suite's labels, never a guessed (positional) assignment. A suite
  label no model label maps to is allowed (a binary model on a three-class suite never predicts neutral) and
  recorded in the results (``label_mapping``) and the report.
- ``hf-finetune`` (:class:`~.hf_finetune.HFFinetune`, in :mod:`.hf_finetune`): fine-tunes a local checkpoint
  (any encoder, e.g. the packaged MiniLM) on the suite's train split with a plain torch loop and saves the result as
  safetensors; its fitted state is that directory's path and weights hash (no arrays).

Inputs follow :func:`format_input`: (sentence, aspect) pairs for ``text+aspect`` suites,
(text, text_pair) for ``text-pair`` suites, the text alone otherwise. Weights are loaded from
safetensors only; pickle checkpoints (``pytorch_model.bin``) need ``allow_pickle=true``.
Nothing is ever fetched from a hub: ``path`` must be an existing local directory.
"""
from __future__ import annotations

import re
from collections.abc import Iterator, Sequence
from dataclasses import dataclass
from pathlib import Path
from typing import Any

import numpy as np

from ..core.errors import ConfigError, require
from ..core.options import option
from ..core.types import Item, Prediction
from .assets import checkpoint_identity, local_dir, resolve_device, set_threads, weight_files
from .base import MODELS, ModelAdapter, format_input
from .utils import predictions_from_proba

EXTRA = "hf"


def _norm(label: str) -> str:
    return re.sub(r"[\s_\-]+", "", str(label).lower())


MEANINGS = {
    "neg": "negative", "negative": "negative", "neu": "neutral", "neutral": "neutral", "pos": "positive",
    "positive": "positive",
    "entailment": "entailment", "entail": "entailment", "entailed": "entailment", "entails": "entailment",
    "contradiction": "contradiction", "contradict": "contradiction", "contradicted": "contradiction",
    "contradicts": "contradiction",
    "true": "entailment", "false": "contradiction", "notgiven": "neutral",  # SOUL's labels read as NLI classes
}
"""Normalised label name -> what it means, for matching a model's labels with a suite's by meaning."""
_MEANINGLESS = re.compile(r"label\d+|\d+")


def _meaning(label: str) -> str:
    n = _norm(label)
    return MEANINGS.get(n, n)


def label_map_hint(names: Sequence[str], unmatched: Sequence[str], labels: Sequence[str]) -> str:
    """How to write ``label_map`` for these model labels: the syntax with the suite's label names, never a
    guessed assignment (a positional guess, pasted as suggested, silently scores NEG as positive)."""
    choice = "|".join([*labels, "none"])
    why = ("names like LABEL_0 say nothing about what a class means" if any(_MEANINGLESS.fullmatch(_norm(n))
                                                                          for n in unmatched)
           else f"no suite label means the same as {list(unmatched)}")
    return (f"{why}; say which suite label each model label is with label_map, e.g. --model-arg "
            f"label_map={','.join(f'{n}:<{choice}>' for n in names)} (each model label to one of the suite's "
            f"labels {', '.join(labels)}, or none to drop the class)")


def resolve_label_map(id2label: dict[int, str], labels: Sequence[str],
                      label_map: dict[str, str | None] | None) -> list[str | None]:
    """For each model class index, the suite label it counts towards (``None``: dropped).

    Without ``label_map`` each model label must name a suite label: the same name (ignoring case, spaces, ``-``
    and ``_``), or the same meaning (:data:`MEANINGS`: ``NEG`` is ``negative``, ``entailment`` is SOUL's
    ``true``). With it, every model label must be mapped (to a suite label or none). Raises ConfigError naming
    the labels it cannot map, with :func:`label_map_hint`.
    """
    names = [str(id2label[i]) for i in sorted(id2label)]
    by_norm = {_norm(lab): lab for lab in labels}
    out: list[str | None] = []
    if label_map is None:
        meanings = [_meaning(lab) for lab in labels]
        by_meaning = {m: lab for m, lab in zip(meanings, labels) if meanings.count(m) == 1}
        unmatched = [n for n in names if _norm(n) not in by_norm and _meaning(n) not in by_meaning]
        if unmatched:
            raise ConfigError(f"the model's labels {unmatched} (all of them: {names}) do not name one of the "
                              f"suite's labels {list(labels)}: " + label_map_hint(names, unmatched, labels))
        return [by_norm.get(_norm(n)) or by_meaning[_meaning(n)] for n in names]
    lm = {_norm(k): v for k, v in label_map.items()}
    missing = []
    for i, n in zip(sorted(id2label), names):
        key = _norm(n) if _norm(n) in lm else str(i) if str(i) in lm else None
        if key is None:
            missing.append(n)
            continue
        v = lm[key]
        if v is not None and v not in labels:
            if _norm(v) not in by_norm:
                raise ConfigError(f"label_map maps {n!r} to {v!r}, which is not a suite label {list(labels)}")
            v = by_norm[_norm(v)]
        out.append(v)
    if missing:
        raise ConfigError(f"label_map does not cover the model's labels {missing} (model labels: {names}); "
                          + label_map_hint(names, missing, labels))
    if all(v is None for v in out):
        raise ConfigError("label_map drops every model label")
    return out


class HFClassifier(ModelAdapter):
    """A local fine-tuned ``AutoModelForSequenceClassification`` checkpoint (see the module docstring)."""

    name = "hf-classifier"

    def __init__(self, path: str | None = None, label_map: dict[str, str | None] | None = None, batch_size: int = 32,
                 max_length: int = 256, device: str = "cpu", threads: int | None = None,
                 allow_pickle: bool = False) -> None:
        """Arguments as :class:`HFClassifierOptions` declares them (``MODELS.create`` parses and checks them)."""
        self.path = local_dir(path, "checkpoint")
        self.allow_pickle = allow_pickle
        self.label_map = label_map
        self.batch_size = batch_size
        self.max_length = max_length
        self.device = resolve_device(device, "Hugging Face models", EXTRA)
        self.threads = threads
        _, self._safe = weight_files(self.path, self.allow_pickle)  # refuse pickle-only dirs early
        self._identity: dict[str, Any] | None = None
        self._tok: Any = None
        self._model: Any = None

    def config(self) -> dict[str, Any]:
        if self._identity is None:
            self._identity = checkpoint_identity(self.path, self.allow_pickle)
        return {"checkpoint": self._identity, "label_map": self.label_map, "max_length": self.max_length}

    # ---- loading ---------------------------------------------------------------------------------
    def _load_from(self, d: Path, new_head: bool = False, **kwargs: Any) -> None:
        """Load tokenizer and classifier from ``d``. Unless ``new_head`` (fine-tuning), a checkpoint
        whose classification head is missing (a bare encoder) is refused: its head would be random."""
        require("torch", EXTRA, "Hugging Face models")
        tr = require("transformers", EXTRA, "Hugging Face models")
        set_threads(self.threads, EXTRA)
        _, safe = weight_files(d, self.allow_pickle)
        self._tok = tr.AutoTokenizer.from_pretrained(str(d), local_files_only=True)
        logs = tr.utils.logging
        verbosity = logs.get_verbosity()
        if new_head:  # the new head's weights are missing by design: no "newly initialized" load report
            logs.set_verbosity_error()
        try:
            model, info = tr.AutoModelForSequenceClassification.from_pretrained(
                str(d), local_files_only=True, use_safetensors=safe, output_loading_info=True,
                **({} if safe else {"weights_only": True}), **kwargs)
        finally:
            logs.set_verbosity(verbosity)
        missing = [k for k in info.get("missing_keys", []) if not k.endswith("position_ids")]
        if missing and not new_head:
            raise ConfigError(f"{d} is not a fine-tuned sequence classifier: the weights {missing[:4]} are missing "
                              "and would be random. Use hf-finetune to train a classification head on it.")
        self._model = model.to(self.device).eval()

    def _ensure_loaded(self) -> None:
        if self._model is None:
            self._load_from(self.path)

    def _id2label(self) -> dict[int, str]:
        """The checkpoint's ``config.id2label`` (from the loaded model, else from its config alone: no weights)."""
        if self._model is not None:
            cfg = self._model.config
        else:
            tr = require("transformers", EXTRA, "Hugging Face models")
            cfg = tr.AutoConfig.from_pretrained(str(self.path), local_files_only=True)
            archs = getattr(cfg, "architectures", None) or []
            if archs and not any("SequenceClassification" in str(a) for a in archs):
                raise ConfigError(f"{self.path} is not a fine-tuned sequence classifier (config.json architectures "
                                  f"{archs}): its classification head would be random. Use hf-finetune to train "
                                  "a classification head on it.")
        return {int(k): str(v) for k, v in cfg.id2label.items()}

    def _class_targets(self, labels: Sequence[str]) -> list[str | None]:
        return resolve_label_map(self._id2label(), labels, self.label_map)

    def label_mapping(self, labels: Sequence[str]) -> dict[str, Any] | None:
        """How the checkpoint's labels map to the suite's, resolved from its config before any inference (a
        ConfigError when they cannot be: see :func:`resolve_label_map`); recorded in the results."""
        id2label = self._id2label()
        targets = self._class_targets(labels)
        names = [id2label[i] for i in sorted(id2label)]
        return {"model_labels": names, "to_suite": dict(zip(names, targets)),
                "by": "label_map" if self.label_map is not None else "label names",
                "never_predicted": [lab for lab in labels if lab not in targets]}

    # ---- batching --------------------------------------------------------------------------------
    def _inputs(self, items: Sequence[Item], input_kind: str) -> tuple[list[str], list[str | None]]:
        pairs = [format_input(it, input_kind) for it in items]
        return [a for a, _ in pairs], [b for _, b in pairs]

    def _encode(self, firsts: Sequence[str], seconds: Sequence[str | None]) -> dict[str, Any]:
        has_pair = any(s is not None for s in seconds)
        enc = self._tok(list(firsts), [s or "" for s in seconds] if has_pair else None, padding=True,
                        truncation=True, max_length=self.max_length, return_tensors="pt")
        return {k: v.to(self.device) for k, v in enc.items()}

    def _batches(self, firsts: Sequence[str], seconds: Sequence[str | None],
                 order: Sequence[int] | None = None) -> Iterator[tuple[list[int], dict[str, Any]]]:
        """Batches in ``order`` (default: longest first, for little padding)."""
        if order is None:
            lengths = [len(a) + len(b or "") for a, b in zip(firsts, seconds)]
            order = sorted(range(len(firsts)), key=lambda i: -lengths[i])
        order = list(order)
        for s in range(0, len(order), self.batch_size):
            rows = order[s:s + self.batch_size]
            yield rows, self._encode([firsts[r] for r in rows], [seconds[r] for r in rows])

    def _proba(self, items: Sequence[Item], input_kind: str) -> np.ndarray:
        """Softmax over the model's classes, ``(n, num_labels)``."""
        import torch

        self._ensure_loaded()
        firsts, seconds = self._inputs(items, input_kind)
        out = np.zeros((len(items), self._model.config.num_labels))
        with torch.inference_mode():
            for rows, batch in self._batches(firsts, seconds):
                logits = self._model(**batch).logits.float()
                out[rows] = torch.softmax(logits, dim=-1).cpu().numpy()
        return out

    def classify(self, items: Sequence[Item], labels: Sequence[str], input_kind: str) -> list[Prediction]:
        targets = self._class_targets(labels)  # from the config: a mapping error comes before the weights load
        self._ensure_loaded()
        if not items:
            return []
        p = self._proba(items, input_kind)
        agg = np.zeros((len(items), len(labels)))
        for j, t in enumerate(targets):
            if t is not None:
                agg[:, list(labels).index(t)] += p[:, j]
        agg /= np.maximum(agg.sum(1, keepdims=True), 1e-12)
        return predictions_from_proba(items, agg, list(labels), labels, self.name)

    def close(self) -> None:
        self._model = None
        self._tok = None


def _classifier_factory(**kwargs: Any) -> HFClassifier:
    return HFClassifier(**kwargs)


@dataclass(frozen=True)
class HFOptions:
    """The arguments every local Hugging Face checkpoint model takes."""

    path: str | None = option(None, "LOCAL checkpoint directory, required (hub ids are refused: nothing is "
                                    "downloaded)")
    batch_size: int = option(32, "items per batch", lo=1)
    max_length: int = option(256, "truncation length in tokens", lo=8, hi=100_000)
    device: str = option("cpu", "cpu, cuda, cuda:N or auto")
    threads: int | None = option(None, "torch.set_num_threads (process-wide); unset: torch's", lo=1)
    allow_pickle: bool = option(False, "accept pickle-based pytorch_model.bin when no safetensors exist")


@dataclass(frozen=True)
class HFClassifierOptions(HFOptions):
    """``--model-arg`` of ``hf-classifier``."""

    label_map: dict[str, str | None] | None = option(
        None, "model label -> suite label ('POS:positive,NEG:negative' or JSON; 'none' drops a class); unset: "
              "case-insensitive name match")


MODELS.register(
    "hf-classifier", _classifier_factory, tags=("hf",), options=HFClassifierOptions,
    description="a local fine-tuned Hugging Face sequence(-pair) classifier (safetensors)")

__all__ = ["HFClassifier", "resolve_label_map"]
