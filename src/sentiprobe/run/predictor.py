"""A model wrapped with the prediction cache: batched, deduplicated, resumable."""
from __future__ import annotations

import sys
from collections.abc import Sequence
from dataclasses import replace
from typing import Any

from ..core.errors import SentiprobeError
from ..core.hashing import stable_hash
from ..core.types import Item, Prediction
from ..models.base import ModelAdapter
from .cache import PredictionCache


def _progress(total: int, desc: str, enabled: bool):
    if not enabled or total == 0:
        return None
    from tqdm.auto import tqdm

    return tqdm(total=total, desc=desc, unit="item", file=sys.stderr, leave=False,
                disable=not sys.stderr.isatty() and enabled != "force")


class CachedPredictor:
    """Calls a model through the cache.

    Identical requests (same model fingerprint and same request payload) are computed once;
    each computed batch is committed before the next starts. ``hits`` and ``computed`` count
    cache hits and model calls (per request) for the run's record.
    """

    def __init__(self, model: ModelAdapter, cache: PredictionCache, *, progress: bool | str = True,
                 desc: str = "") -> None:
        self.model = model
        self.cache = cache
        self.progress = progress
        self.desc = desc or model.name
        self.hits = 0
        self.computed = 0
        self._fp: str | None = None

    @property
    def fingerprint(self) -> str:
        if self._fp is None:
            self._fp = self.model.fingerprint
        return self._fp

    def classify(self, items: Sequence[Item], labels: Sequence[str]) -> list[Prediction]:
        fp = self.fingerprint
        keys = [stable_hash(self.model.request(it, labels), 32) for it in items]
        found = self.cache.get_many(fp, keys)
        todo: dict[str, Item] = {}
        for it, k in zip(items, keys):
            if k not in found and k not in todo:
                todo[k] = it
        self.hits += sum(1 for k in keys if k in found)
        bar = _progress(len(todo), self.desc, self.progress)
        # batches of similar length: padding dominates the cost of batched encoders
        pending = sorted(todo.items(), key=lambda kv: len(kv[1].text) + len(kv[1].text_pair or ""))
        # a few model batches per call and per committed transaction: the model can still sort by length
        bs = 4 * max(1, int(getattr(self.model, "batch_size", 64)))
        try:
            for i in range(0, len(pending), bs):
                chunk = pending[i:i + bs]
                preds = self.model.classify([it for _, it in chunk], labels)
                if len(preds) != len(chunk):
                    raise SentiprobeError(f"model {self.model.name!r} returned {len(preds)} predictions "
                                          f"for {len(chunk)} items")
                batch = {}
                for (k, it), p in zip(chunk, preds):
                    d = p.to_dict()
                    d.pop("item_id", None)
                    batch[k] = d
                self.cache.put_many(fp, batch)
                found.update(batch)
                self.computed += len(chunk)
                if bar is not None:
                    bar.update(len(chunk))
        finally:
            if bar is not None:
                bar.close()
        return [Prediction.from_dict({**found[k], "item_id": it.item_id}) for it, k in zip(items, keys)]

    def generate(self, prompts: Sequence[str], **kwargs: Any) -> list[str]:
        """Cached text generation: one cache entry per (fingerprint, prompt, generation kwargs)."""
        return self.call("generate", prompts, **kwargs)

    def call(self, method: str, payloads: Sequence[Any], **kwargs: Any) -> list[Any]:
        """Cached batched call of ``model.<method>(payloads_batch, **kwargs)`` (JSON-able results).

        Used for generation, label log-probability scoring and judge calls: one cache entry per
        (fingerprint, method, payload, kwargs); each batch is committed before the next starts.
        """
        fn = getattr(self.model, method)
        ns = f"{method}:{self.fingerprint}"
        keys = [stable_hash({"payload": p, "kw": kwargs}, 32) for p in payloads]
        found = self.cache.get_many(ns, keys, table="blobs")
        todo: dict[str, Any] = {}
        for p, k in zip(payloads, keys):
            if k not in found and k not in todo:
                todo[k] = p
        self.hits += sum(1 for k in keys if k in found)
        pending = list(todo.items())
        bs = max(1, int(getattr(self.model, "batch_size", 8)))
        bar = _progress(len(pending), self.desc, self.progress)
        try:
            for i in range(0, len(pending), bs):
                chunk = pending[i:i + bs]
                outs = fn([p for _, p in chunk], **kwargs)
                if len(outs) != len(chunk):
                    raise SentiprobeError(f"model {self.model.name!r}.{method} returned {len(outs)} results "
                                          f"for {len(chunk)} inputs")
                batch = dict(zip([k for k, _ in chunk], outs))
                self.cache.put_many(ns, batch, table="blobs")
                found.update(batch)
                self.computed += len(chunk)
                if bar is not None:
                    bar.update(len(chunk))
        finally:
            if bar is not None:
                bar.close()
        return [found[k] for k in keys]


def with_seed(preds: list[Prediction], seed: int) -> list[Prediction]:
    return [replace(p, meta={**p.meta, "seed": seed}) for p in preds]
