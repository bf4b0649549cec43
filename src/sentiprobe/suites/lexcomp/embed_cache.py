"""On-disk cache of frozen representations, keyed by (model identity, layer set, token sequence hash).

A sweep of probes (encoders x layer modes x tasks) trains many probes on the same frozen vectors; the
expensive part is the transformer forward pass, so each token sequence is embedded once per model and
layer set and stored as ``<root>/<model key>/<layer set>/<hh>/<hash>.npy``:

- layer set ``all`` stores every layer ``(L, T, d)``; ``top`` stores ``(1, T, d)`` and is served from an
  ``all`` entry when one exists (so a Top run after an All run computes nothing); with ``store_all`` a Top
  run stores every layer too (one forward pass gives them all), so a later All run computes nothing either;
- vectors are stored as float16 (half the disk; the probes train in float32 and the rounding is far below
  the probe's noise), written atomically (temp file + rename) so concurrent runs never read half a file;
- ``root=None`` keeps vectors in memory only (tests);
- within a process, vectors read or computed once are shared by every cache of the same model and layer set
  (a sweep builds one adapter per cell), up to :data:`MEMORY_CAP` bytes (oldest entries evicted first);
  :func:`clear_memory` empties it (the benchmark does, to time a fresh process).

The model key hashes the representation's identity (package version and weight sha256), so new weights
never hit old vectors.
"""
from __future__ import annotations

import hashlib
import json
import os
import tempfile
import time
from collections import OrderedDict
from collections.abc import Sequence
from pathlib import Path
from typing import Any

import numpy as np

LAYER_SETS = ("top", "all")
CHUNK = 256
"""Sequences embedded per call of the representation (then written to disk)."""
MEMORY_CAP = 2 << 30
"""Bytes of float16 vectors kept in memory per process (shared across caches)."""

_SHARED: OrderedDict[tuple[str, str, str], np.ndarray] = OrderedDict()
_SHARED_BYTES = [0]


def clear_memory() -> None:
    """Forget the vectors kept in memory (the disk cache stays)."""
    _SHARED.clear()
    _SHARED_BYTES[0] = 0


def _remember(key: tuple[str, str, str], arr: np.ndarray) -> None:
    if key in _SHARED:
        return
    _SHARED[key] = arr
    _SHARED_BYTES[0] += arr.nbytes
    while _SHARED_BYTES[0] > MEMORY_CAP and _SHARED:
        _, old = _SHARED.popitem(last=False)
        _SHARED_BYTES[0] -= old.nbytes


class EmbeddingCache:
    """Cached ``layers(sentences)`` of a representation for one layer set."""

    def __init__(self, rep: Any, root: str | Path | None, layer_set: str = "all", store_all: bool = False) -> None:
        if layer_set not in LAYER_SETS:
            raise ValueError(f"layer_set must be one of {LAYER_SETS}")
        self.rep, self.layer_set, self.store_all = rep, layer_set, store_all or layer_set == "all"
        self.root = Path(root) if root is not None else None
        self.model_key = hashlib.sha256(json.dumps(rep.identity(), sort_keys=True).encode()).hexdigest()[:20]
        self.hits = self.computed = 0
        self.compute_seconds = 0.0
        self.get_seconds = 0.0

    def _key(self, tokens: Sequence[str]) -> str:
        return hashlib.sha256("\u241f".join(tokens).encode()).hexdigest()[:32]

    def _file(self, layer_set: str, key: str) -> Path:
        assert self.root is not None
        return self.root / self.model_key / layer_set / key[:2] / f"{key}.npy"

    def _read(self, key: str) -> np.ndarray | None:
        hit = _SHARED.get((self.model_key, self.layer_set, key))
        if hit is not None:
            return hit
        if self.root is None:
            return None
        sets = ("top", "all") if self.layer_set == "top" else ("all",)
        for ls in sets:
            f = self._file(ls, key)
            if f.is_file():
                try:
                    arr = np.load(f)
                except (OSError, ValueError):  # a damaged entry is recomputed
                    continue
                return arr[-1:] if ls == "all" and self.layer_set == "top" else arr
        return None

    def _write(self, key: str, arr: np.ndarray, layer_set: str) -> None:
        if self.root is None:
            return
        f = self._file(layer_set, key)
        f.parent.mkdir(parents=True, exist_ok=True)
        fd, tmp = tempfile.mkstemp(dir=f.parent, suffix=".tmp")
        try:
            with os.fdopen(fd, "wb") as fh:
                np.save(fh, arr)
            os.replace(tmp, f)
        except OSError:
            Path(tmp).unlink(missing_ok=True)
            raise

    def get(self, sentences: Sequence[Sequence[str]]) -> list[np.ndarray]:
        """``(L', T, d)`` float32 per sentence (L' = 1 for ``top``), computing only what is not cached."""
        t_get = time.perf_counter()
        keys = [self._key(s) for s in sentences]
        found: dict[str, np.ndarray] = {}
        todo: dict[str, Sequence[str]] = {}
        for k, s in zip(keys, sentences):
            if k in found or k in todo:
                continue
            arr = self._read(k)
            if arr is None:
                todo[k] = s
            else:
                found[k] = arr
        self.hits += len(found)
        pending = list(todo.items())
        for i in range(0, len(pending), CHUNK):  # written chunk by chunk: an interrupted run keeps its work
            part = pending[i:i + CHUNK]
            t0 = time.perf_counter()
            outs = self.rep.layers([s for _, s in part])
            self.compute_seconds += time.perf_counter() - t0
            for (k, _), arr in zip(part, outs):
                arr = arr.astype(np.float16)
                self._write(k, arr if self.store_all else arr[-1:], "all" if self.store_all else "top")
                found[k] = arr[-1:] if self.layer_set == "top" else arr
            self.computed += len(part)
        for k, arr in found.items():
            _remember((self.model_key, self.layer_set, k), arr)
        out = [found[k].astype(np.float32) for k in keys]
        self.get_seconds += time.perf_counter() - t_get
        return out

    def stats(self) -> dict[str, Any]:
        return {"hits": self.hits, "computed": self.computed, "compute_seconds": round(self.compute_seconds, 3),
                "get_seconds": round(self.get_seconds, 3),
                "root": str(self.root) if self.root else None, "layer_set": self.layer_set}
