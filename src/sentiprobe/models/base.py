"""The model adapter protocol (DESIGN.md "Model adapters").

An adapter implements the capabilities it can:

- ``classify(items, labels) -> list[Prediction]`` for text, text pairs and text + aspect;
- ``fit(train, dev, labels, seed)`` for models that learn (``learns = True``);
- ``generate(prompts) -> list[str]`` for LLMs;
- ``embed(sentences) -> per-layer token vectors`` for frozen-representation probes.

Every adapter has a ``fingerprint`` (name, config, weights/state hash, prompt-template hash)
that keys the prediction cache. A learning adapter's fingerprint includes the hash of its
fitted state, so predictions of two differently trained models never collide.

Fitted state is exported with ``get_state()`` as ``(json_meta, {name: numpy array})`` and
restored with ``load_state``; the runner stores it in the cache so a resumed run does not refit.
Nothing is pickled.
"""
from __future__ import annotations

import hashlib
from abc import ABC
from collections.abc import Sequence
from typing import Any, ClassVar

import numpy as np

from ..core.errors import CapabilityError
from ..core.hashing import canonical_json, stable_hash
from ..core.registry import Registry
from ..core.types import Item, Prediction

State = tuple[dict[str, Any], dict[str, np.ndarray]]


def format_input(item: Item, input_kind: str) -> tuple[str, str | None]:
    """The (text, text_pair) a pair/sequence model sees for an item.

    ``text+aspect``: sentence paired with the aspect term (BERT-pair style);
    ``text-pair``: text with ``text_pair``; ``text``: the text alone.
    """
    if input_kind == "text+aspect" and item.aspect is not None:
        return item.text, item.aspect
    if input_kind == "text-pair" and item.text_pair is not None:
        return item.text, item.text_pair
    return item.text, None


def mark_aspect(item: Item, left: str = "[", right: str = "]") -> str:
    """The sentence with the aspect span marked (``Nice [screen], keyboard ...``).

    Uses the character span when it is valid, else the first occurrence of the term, else appends
    the term (``sentence [SEP] term``-style) so the aspect is never lost.
    """
    t = item.text
    if item.aspect is None:
        return t
    if item.span is not None:
        a, b = item.span
        if 0 <= a < b <= len(t) and t[a:b].lower() == item.aspect.lower():
            return f"{t[:a]}{left}{t[a:b]}{right}{t[b:]}"
    k = t.find(item.aspect)
    if k >= 0:
        return f"{t[:k]}{left}{item.aspect}{right}{t[k + len(item.aspect):]}"
    return f"{t} {left}{item.aspect}{right}"


class ModelAdapter(ABC):
    """Base class for model adapters. Subclasses override what they support."""

    name: ClassVar[str] = "model"
    learns: ClassVar[bool] = False
    capabilities: ClassVar[frozenset[str]] = frozenset({"classify"})
    batch_size: int = 64
    #: input_kind is set by the runner from the suite before fit/classify
    input_kind: str = "text"

    def config(self) -> dict[str, Any]:
        """Hyper-parameters and weight identifiers (JSON-able); enters the fingerprint."""
        return {}

    def state_hash(self) -> str | None:
        """Hash of the fitted state (None for models that do not learn or are not yet fitted)."""
        st = self.get_state() if self.learns else None
        if st is None:
            return None
        meta, arrays = st
        h = hashlib.sha256(canonical_json(meta).encode())
        for k in sorted(arrays):
            a = np.ascontiguousarray(arrays[k])
            h.update(f"{k}|{a.dtype}|{a.shape}|".encode())
            h.update(a.tobytes())
        return h.hexdigest()[:32]

    @property
    def fingerprint(self) -> str:
        return stable_hash({"adapter": self.name, "config": self.config(), "input_kind": self.input_kind,
                            "state": self.state_hash()}, 32)

    def request(self, item: Item, labels: Sequence[str]) -> dict[str, Any]:
        """The part of an item the model's output depends on (keys the cache)."""
        return {"text": item.text, "pair": item.text_pair, "aspect": item.aspect,
                "span": list(item.span) if item.span else None, "labels": list(labels)}

    # ---- capabilities ------------------------------------------------------------------------
    def fit(self, train: Sequence[Item], dev: Sequence[Item], labels: Sequence[str], seed: int = 0) -> None:
        if self.learns:
            raise NotImplementedError
        return None

    def get_state(self) -> State | None:
        return None

    def load_state(self, state: State) -> None:
        raise CapabilityError(f"model {self.name!r} cannot load a fitted state")

    def classify(self, items: Sequence[Item], labels: Sequence[str]) -> list[Prediction]:
        raise CapabilityError(f"model {self.name!r} cannot classify")

    def generate(self, prompts: Sequence[str], **kwargs: Any) -> list[str]:
        raise CapabilityError(f"model {self.name!r} cannot generate text")

    def embed(self, sentences: Sequence[Sequence[str]]) -> list[np.ndarray]:
        raise CapabilityError(f"model {self.name!r} cannot embed")

    def close(self) -> None:
        """Release resources (servers, GPU memory)."""


MODELS: Registry[ModelAdapter] = Registry("model", "sentiprobe.models")
