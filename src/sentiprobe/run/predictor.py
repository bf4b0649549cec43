"""A model wrapped with the prediction cache: batched, deduplicated, resumable."""
from __future__ import annotations

import sys
from collections.abc import Callable, Sequence
from dataclasses import replace
from typing import Any

from ..core.errors import SentiprobeError
from ..core.hashing import stable_hash
from ..core.types import Item, Prediction
from ..models.base import ModelAdapter
from .cache import PredictionCache


def _progress(total: int, desc: str, enabled: Any):
    """A bar for ``total`` items: ``enabled`` is a :class:`~.progress.Progress` (the runner's) or a bool."""
    if hasattr(enabled, "bar"):
        return enabled.bar(total, desc)
    if not enabled or total == 0:
        return None
    from tqdm.auto import tqdm  # only when a progress bar is shown

    return tqdm(total=total, desc=desc, unit="item", file=sys.stderr, leave=True,
                disable=not sys.stderr.isatty() and enabled != "force")


class CachedPredictor:
    """Calls a model through the cache.

    Identical requests (same model fingerprint and same request payload) are computed once;
    each computed batch is committed before the next starts. ``hits`` and ``computed`` count
    cache hits and model calls (per request) for the run's record.
    """

    def __init__(self, model: ModelAdapter, cache: PredictionCache, *, progress: Any = True,
                 desc: str = "", fingerprint: str | None = None, ready: Callable[[], None] | None = None) -> None:
        """``fingerprint``: the model's, when known before its state is loaded; ``ready``: loads the state (or
        fits) and is called once, before the first request missing from the cache (see :mod:`.fitting`)."""
        self.model = model
        self.cache = cache
        self.progress = progress
        self.desc = desc or model.name
        self.hits = 0
        self.computed = 0
        self._fp: str | None = fingerprint
        self._ready = ready

    @property
    def fingerprint(self) -> str:
        if self._fp is None:
            self._fp = self.model.fingerprint
        return self._fp

    def _cached(self, ns_of: Callable[[str], str], table: str, keys: list[str], inputs: Sequence[Any], fn, *,
                chunk: int, what: str, size=None) -> dict[str, Any]:
        """Values for ``keys`` from the cache, computing the missing ones with ``fn(inputs_chunk)``.

        ``ns_of(fingerprint)`` is the cache namespace. Identical keys are computed once; each chunk is committed
        before the next starts. ``size`` (optional) sorts the pending inputs so batches hold inputs of similar
        length.
        """
        ns = ns_of(self.fingerprint)
        found = self.cache.get_many(ns, keys, table=table)
        if self._ready is not None and any(k not in found for k in keys):
            ready, self._ready = self._ready, None
            ready()
            if self.model.fingerprint != self._fp:  # refitted (its stored state was gone): other answers
                self._fp = self.model.fingerprint
                ns = ns_of(self._fp)
                found = self.cache.get_many(ns, keys, table=table)
        todo: dict[str, Any] = {}
        for x, k in zip(inputs, keys):
            if k not in found and k not in todo:
                todo[k] = x
        self.hits += sum(1 for k in keys if k in found)
        pending = sorted(todo.items(), key=lambda kv: size(kv[1])) if size else list(todo.items())
        plan = getattr(self.model, "plan_requests", None)
        if pending and callable(plan):  # an HTTP model sets (and announces) its default deadline for them
            plan(what, [x for _, x in pending])
        self._say()
        bar = _progress(len(pending), self.desc, self.progress)
        try:
            for i in range(0, len(pending), chunk):
                part = pending[i:i + chunk]
                try:
                    outs = fn([x for _, x in part])
                finally:
                    self._say()
                if len(outs) != len(part):
                    raise SentiprobeError(f"model {self.model.name!r}.{what} returned {len(outs)} results "
                                          f"for {len(part)} inputs")
                batch = dict(zip([k for k, _ in part], outs))
                self.cache.put_many(ns, batch, table=table)
                found.update(batch)
                self.computed += len(part)
                if bar is not None:
                    bar.update(len(part))
        finally:
            if bar is not None:
                bar.close()
        return found

    def _say(self) -> None:
        """Print the model's notes for the user (a structured-decoding fallback, a deadline) on the terminal."""
        pop = getattr(self.model, "pop_notes", None)
        if not callable(pop):
            return
        for text in pop():
            note = getattr(self.progress, "note", None)
            if callable(note):
                note(f"{self.desc}: {text}")
            elif self.progress:
                print(f"{self.desc}: {text}", file=sys.stderr)

    def classify(self, items: Sequence[Item], labels: Sequence[str], input_kind: str) -> list[Prediction]:
        """Cached classification: one cache entry per (fingerprint, request payload incl. ``input_kind``)."""

        def run(batch: list[Item]) -> list[dict[str, Any]]:
            out = []
            for p in self.model.classify(batch, labels, input_kind):
                d = p.to_dict()
                d.pop("item_id", None)  # identical requests of different items share one entry
                out.append(d)
            return out

        keys = [stable_hash(self.model.request(it, labels, input_kind), 32) for it in items]
        # a few model batches per call: the model can still sort a call's inputs by length
        chunk = 4 * max(1, int(getattr(self.model, "batch_size", 64)))
        found = self._cached(lambda fp: fp, "predictions", keys, items, run, chunk=chunk, what="classify",
                             size=lambda it: len(it.text) + len(it.text_pair or ""))
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
        keys = [stable_hash({"payload": p, "kw": kwargs}, 32) for p in payloads]
        found = self._cached(lambda fp: f"{method}:{fp}", "blobs", keys, payloads,
                             lambda batch: fn(batch, **kwargs), what=method,
                             chunk=max(1, int(getattr(self.model, "batch_size", 8))))
        return [found[k] for k in keys]


def with_seed(preds: list[Prediction], seed: int) -> list[Prediction]:
    """The predictions of the model trained with ``seed`` (``Prediction.seed`` set)."""
    return [replace(p, seed=seed) for p in preds]
