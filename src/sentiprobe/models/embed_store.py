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
Other components with their own fixed-size encodings can use the same store with their own fingerprint via
:meth:`EmbeddingStore.get_many` / :meth:`EmbeddingStore.put_many`.

Per-token representations (the LexComp probes' ``(layers, tokens, dim)`` arrays, whose shape differs per
input) are kept by :class:`EmbeddingCache`, the same store's second layout (one ``.npy`` per input, see its
docstring). Both layouts share the atomic write and the "a damaged entry is encoded again" rule.
"""
from __future__ import annotations

import hashlib
import json
import logging
import os
import threading
import time
import uuid
import zipfile
from collections import OrderedDict
from collections.abc import Callable, Sequence
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


def _atomic_write(path: Path, write: Callable[[Any], None]) -> None:
    """Write ``path`` through ``write(file)`` into a unique temporary name beside it, then rename: a reader
    never sees a half-written file (the temporary name never ends in ``.npz``/``.npy``/``.json``)."""
    tmp = path.with_name(f".{path.name}.{uuid.uuid4().hex}.tmp")
    try:
        with open(tmp, "wb") as f:
            write(f)
        os.replace(tmp, path)
    except OSError:
        tmp.unlink(missing_ok=True)
        raise


def _atomic_bytes(path: Path, data: bytes) -> None:
    _atomic_write(path, lambda f: f.write(data))


def _save_shard(path: Path, keys: list[str], vectors: np.ndarray) -> None:
    _atomic_write(path, lambda f: np.savez(f, keys=np.array(keys, dtype="<U32"),
                                           vectors=np.asarray(vectors, dtype=np.float32)))


_STORES: dict[str | None, EmbeddingStore] = {}


def open_store(root: str | Path | None) -> EmbeddingStore:
    """The process-wide store for ``root`` (one per directory, so adapters share it in memory)."""
    key = None if root is None else str(Path(root).resolve())
    if key not in _STORES:
        _STORES[key] = EmbeddingStore(key)
    return _STORES[key]


# ---- per-token arrays (LexComp probe representations) ----------------------------------------------
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
    """Cached ``layers(sentences)`` of a representation for one layer set: the store's per-token layout.

    On-disk cache of frozen representations, keyed by (model identity, layer set, token sequence hash).

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
        _atomic_write(f, lambda fh: np.save(fh, arr))

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
