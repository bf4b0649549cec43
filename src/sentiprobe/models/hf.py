"""Hugging Face transformers sequence(-pair) classifiers from LOCAL checkpoint directories.

- ``hf-classifier`` (:class:`HFClassifier`): an already fine-tuned classifier. Its ``id2label``
  names are mapped to the suite's labels case-insensitively, or through ``label_map``.
- ``hf-finetune`` (:class:`HFFinetune`): fine-tunes a local checkpoint (any encoder, e.g. the
  packaged MiniLM) on the suite's train split with a plain torch loop and saves the result as
  safetensors; its fitted state is that directory's path and weights hash (no arrays).

Inputs follow :func:`format_input`: (sentence, aspect) pairs for ``text+aspect`` suites,
(text, text_pair) for ``text-pair`` suites, the text alone otherwise. Weights are loaded from
safetensors only; pickle checkpoints (``pytorch_model.bin``) need ``allow_pickle=true``.
Nothing is ever fetched from a hub: ``path`` must be an existing local directory.
"""
from __future__ import annotations

import re
from collections.abc import Iterator, Sequence
from pathlib import Path
from typing import Any

import numpy as np

from ..core.errors import ConfigError, require
from ..core.types import Item, Prediction
from .assets import checkpoint_identity, local_dir, resolve_device, set_threads, weight_files
from .base import MODELS, ModelAdapter, format_input
from .utils import as_bool, as_int, as_mapping, as_optional_int, predictions_from_proba

EXTRA = "hf"


def _norm(label: str) -> str:
    return re.sub(r"[\s_\-]+", "", str(label).lower())


def resolve_label_map(id2label: dict[int, str], labels: Sequence[str],
                      label_map: dict[str, str | None] | None) -> list[str | None]:
    """For each model class index, the suite label it counts towards (``None``: dropped).

    Without ``label_map`` the model's label names must match the suite's labels (ignoring case,
    spaces, ``-`` and ``_``). With it, every model label must be mapped (to a suite label or none).
    """
    names = [str(id2label[i]) for i in sorted(id2label)]
    by_norm = {_norm(lab): lab for lab in labels}
    out: list[str | None] = []
    if label_map is None:
        unmatched = [n for n in names if _norm(n) not in by_norm]
        if unmatched:
            raise ConfigError(
                f"the model's labels {names} do not match the suite's labels {list(labels)} "
                f"(unmatched: {unmatched}); pass label_map, e.g. "
                f"label_map='{','.join(f'{n}:{labels[min(i, len(labels) - 1)]}' for i, n in enumerate(names))}'")
        return [by_norm[_norm(n)] for n in names]
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
                          "map each to a suite label, or to 'none' to drop it")
    if all(v is None for v in out):
        raise ConfigError("label_map drops every model label")
    return out


class HFClassifier(ModelAdapter):
    """A local fine-tuned ``AutoModelForSequenceClassification`` checkpoint (see the module docstring)."""

    name = "hf-classifier"

    def __init__(self, path: Any = None, label_map: Any = None, batch_size: Any = 32, max_length: Any = 256,
                 device: Any = "cpu", threads: Any = None, allow_pickle: Any = False) -> None:
        self.path = local_dir(path, "checkpoint")
        self.allow_pickle = as_bool("allow_pickle", allow_pickle)
        self.label_map = as_mapping("label_map", label_map)
        self.batch_size = as_int("batch_size", batch_size, lo=1)
        self.max_length = as_int("max_length", max_length, lo=8, hi=100_000)
        self.device = resolve_device(device, "Hugging Face models", EXTRA)
        self.threads = as_optional_int("threads", threads, lo=1)
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
        model, info = tr.AutoModelForSequenceClassification.from_pretrained(
            str(d), local_files_only=True, use_safetensors=safe, output_loading_info=True,
            **({} if safe else {"weights_only": True}), **kwargs)
        missing = [k for k in info.get("missing_keys", []) if not k.endswith("position_ids")]
        if missing and not new_head:
            raise ConfigError(f"{d} is not a fine-tuned sequence classifier: the weights {missing[:4]} are missing "
                              "and would be random. Use hf-finetune to train a classification head on it.")
        self._model = model.to(self.device).eval()

    def _ensure_loaded(self) -> None:
        if self._model is None:
            self._load_from(self.path)

    def _class_targets(self, labels: Sequence[str]) -> list[str | None]:
        id2label = {int(k): v for k, v in self._model.config.id2label.items()}
        return resolve_label_map(id2label, labels, self.label_map)

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
        self._ensure_loaded()
        targets = self._class_targets(labels)
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


_COMMON: dict[str, str] = {
    "path": "str, required: LOCAL checkpoint directory (hub ids are refused: nothing is downloaded)",
    "batch_size": "int, default 32 (hf-classifier) / 16 (hf-finetune): items per batch",
    "max_length": "int, default 256 (hf-classifier) / 128 (hf-finetune): truncation length in tokens",
    "device": "cpu|cuda|cuda:N|auto, default cpu",
    "threads": "int, default unset: torch.set_num_threads (process-wide)",
    "allow_pickle": "bool, default false: accept pickle-based pytorch_model.bin when no safetensors exist",
}

MODELS.register(
    "hf-classifier", _classifier_factory, tags=("hf",),
    description="a local fine-tuned Hugging Face sequence(-pair) classifier (safetensors)",
    params={**_COMMON, "label_map": "mapping model label -> suite label ('POS:positive,NEG:negative' or JSON; "
                                    "'none' drops a class), default: case-insensitive name match"})

from .hf_finetune import HFFinetune  # noqa: E402  (registers hf-finetune)

__all__ = ["HFClassifier", "HFFinetune", "resolve_label_map"]
