"""An on-disk store of fixed-size embeddings: each distinct input is encoded once per encoder.

Why: the main job encodes the same texts many times (every SOUL statement re-encoded its review, the
ARTS and SST training sentences were encoded again for every seed and every suite that shares them).
The store keys a vector by the *encoder fingerprint* (weights, layer, pooling, max length, backend and
its library version: everything that changes the numbers) and the *input key* (a hash of the text, or of
``(text, pair)``), so every model and suite that uses the same encoder shares one encoding.

Layout (nothing is pickled)::

    <root>/<fingerprint>/meta.json        what the fingerprint stands for (for people; never trusted)
    <root>/<fingerprint>/<shard>.npz      arrays ``keys`` (unicode, one per row) and ``vectors`` (float32)

Shards are written atomically (temporary file + rename) under a fresh name, so concurrent runs never
overwrite each other's work; a reader loads every shard of a fingerprint once per process and merges
them into one shard when there are many. A shard that cannot be read (truncated by a kill) is moved aside
(``.bad``) and its inputs are simply encoded again: the store is a cache and is safe to delete.

``root=None`` keeps vectors in memory only (still one encoding per distinct input in a process).
Other components with their own fixed-size encodings (LexComp probe vectors per layer) can use the same
store with their own fingerprint via :meth:`EmbeddingStore.get_many` / :meth:`EmbeddingStore.put_many`.
"""
from __future__ import annotations

import json
import logging
import os
import threading
import uuid
import zipfile
from collections.abc import Sequence
from pathlib import Path
from typing import Any

import numpy as np

from ..core.hashing import stable_hash

log = logging.getLogger("sentiprobe")

#: bump when the meaning of a stored vector changes without the fingerprint inputs changing
STORE_FORMAT = 1
#: pending rows that trigger a write; :meth:`EmbeddingStore.flush` writes the rest
FLUSH_ROWS = 4096
#: shards of one fingerprint above which a reader merges them into one
COMPACT_SHARDS = 32


def input_key(text: str, pair: str | None = None) -> str:
    """The store key of one encoder input (text, optional second text of a pair)."""
    return stable_hash([text] if pair is None else [text, pair], 32)


def encoder_fingerprint(parts: dict[str, Any]) -> str:
    """The store fingerprint of an encoder configuration (a JSON-able description of what sets the numbers)."""
    return stable_hash({"store_format": STORE_FORMAT, **parts}, 32)


class EmbeddingStore:
    """Vectors by (fingerprint, input key), in memory and, with ``root``, in npz shards on disk.

    Args:
        root: directory of the store; ``None`` for a memory-only store.
    """

    def __init__(self, root: str | Path | None = None) -> None:
        self.root = Path(root) if root is not None else None
        self._mem: dict[str, dict[str, np.ndarray]] = {}
        self._pending: dict[str, dict[str, np.ndarray]] = {}
        self._meta: dict[str, dict[str, Any]] = {}
        self._lock = threading.Lock()
        self.hits = 0
        self.misses = 0

    # ---- reading ---------------------------------------------------------------------------------
    def _dir(self, fp: str) -> Path | None:
        return None if self.root is None else self.root / fp

    def _load(self, fp: str) -> dict[str, np.ndarray]:
        if fp in self._mem:
            return self._mem[fp]
        table: dict[str, np.ndarray] = {}
        d = self._dir(fp)
        shards = sorted(d.glob("*.npz")) if d is not None and d.is_dir() else []
        for shard in shards:
            try:
                with np.load(shard, allow_pickle=False) as z:
                    keys, vecs = z["keys"], z["vectors"]
            except (OSError, ValueError, KeyError, zipfile.BadZipFile) as exc:
                log.warning("embedding store: unreadable shard %s (%s); moved aside, its inputs are re-encoded",
                            shard, exc)
                os.replace(shard, shard.with_suffix(".bad"))
                continue
            if keys.ndim != 1 or vecs.ndim != 2 or len(keys) != len(vecs):
                log.warning("embedding store: shard %s has inconsistent arrays; moved aside", shard)
                os.replace(shard, shard.with_suffix(".bad"))
                continue
            for k, v in zip(keys.tolist(), vecs):
                table[k] = v
        self._mem[fp] = table
        if d is not None and len(shards) > COMPACT_SHARDS and table:
            self._compact(fp, shards)
        return table

    def get_many(self, fp: str, keys: Sequence[str]) -> dict[str, np.ndarray]:
        """The stored vectors of ``keys`` (those absent are left out)."""
        with self._lock:
            table = self._load(fp)
            found = {k: table[k] for k in keys if k in table}
        self.hits += len(found)
        self.misses += len(set(keys)) - len(found)
        return found

    # ---- writing ---------------------------------------------------------------------------------
    def put_many(self, fp: str, keys: Sequence[str], vectors: np.ndarray, meta: dict[str, Any] | None = None) -> None:
        """Add vectors (rows of ``vectors``, float32) for ``keys``; written to disk in shards."""
        vectors = np.asarray(vectors, dtype=np.float32)
        if vectors.ndim != 2 or len(keys) != len(vectors):
            raise ValueError(f"put_many: {len(keys)} keys for vectors of shape {vectors.shape}")
        with self._lock:
            table = self._load(fp)
            pend = self._pending.setdefault(fp, {})
            for k, v in zip(keys, vectors):
                table[k] = v
                pend[k] = v
            if meta is not None:
                self._meta.setdefault(fp, meta)
            if len(pend) >= FLUSH_ROWS:
                self._write(fp)

    def flush(self) -> None:
        """Write every pending vector to disk (a no-op for a memory-only store)."""
        with self._lock:
            for fp in list(self._pending):
                self._write(fp)

    def _write(self, fp: str) -> None:
        pend = self._pending.pop(fp, {})
        d = self._dir(fp)
        if d is None or not pend:
            return
        d.mkdir(parents=True, exist_ok=True)
        meta_path = d / "meta.json"
        if fp in self._meta and not meta_path.exists():
            _atomic_bytes(meta_path, json.dumps(self._meta[fp], indent=1, sort_keys=True).encode())
        keys = list(pend)
        _save_shard(d / f"{uuid.uuid4().hex}.npz", keys, np.stack([pend[k] for k in keys]))

    def _compact(self, fp: str, shards: list[Path]) -> None:
        d = self._dir(fp)
        assert d is not None
        table = self._mem[fp]
        keys = list(table)
        _save_shard(d / f"{uuid.uuid4().hex}.npz", keys, np.stack([table[k] for k in keys]))
        for s in shards:  # another process may have compacted them already
            try:
                s.unlink()
            except FileNotFoundError:
                pass


def _atomic_bytes(path: Path, data: bytes) -> None:
    tmp = path.with_name(f".{path.name}.{uuid.uuid4().hex}.tmp")
    tmp.write_bytes(data)
    os.replace(tmp, path)


def _save_shard(path: Path, keys: list[str], vectors: np.ndarray) -> None:
    tmp = path.with_name(f".{path.stem}.tmp")  # not *.npz: readers never see a half-written shard
    with open(tmp, "wb") as f:
        np.savez(f, keys=np.array(keys, dtype="<U32"), vectors=np.asarray(vectors, dtype=np.float32))
    os.replace(tmp, path)


_STORES: dict[str | None, EmbeddingStore] = {}


def open_store(root: str | Path | None) -> EmbeddingStore:
    """The process-wide store for ``root`` (one per directory, so adapters share it in memory)."""
    key = None if root is None else str(Path(root).resolve())
    if key not in _STORES:
        _STORES[key] = EmbeddingStore(key)
    return _STORES[key]
