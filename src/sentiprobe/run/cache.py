"""SQLite prediction cache keyed by adapter fingerprint and request hash.

Three tables:
- ``predictions(fp, key, value)``: one JSON prediction per (adapter fingerprint, request hash);
- ``blobs(ns, key, value)``: generic JSON values (generated texts, judge outputs) by namespace;
- ``states(key, meta, arrays)``: fitted model states (JSON meta + ``.npz`` arrays, loaded with
  ``allow_pickle=False``), so a resumed run does not refit.

Every batch is committed in its own transaction (WAL journal), so a run killed at any point keeps
all finished batches. The cache is safe to delete.
"""
from __future__ import annotations

import io
import json
import os
import sqlite3
from collections.abc import Iterable, Mapping
from pathlib import Path
from typing import Any

import numpy as np

ENV_VAR = "SENTIPROBE_CACHE_DIR"
_SCHEMA = """
CREATE TABLE IF NOT EXISTS predictions (fp TEXT NOT NULL, key TEXT NOT NULL, value TEXT NOT NULL,
    PRIMARY KEY (fp, key)) WITHOUT ROWID;
CREATE TABLE IF NOT EXISTS blobs (ns TEXT NOT NULL, key TEXT NOT NULL, value TEXT NOT NULL,
    PRIMARY KEY (ns, key)) WITHOUT ROWID;
CREATE TABLE IF NOT EXISTS states (key TEXT PRIMARY KEY, meta TEXT NOT NULL, arrays BLOB NOT NULL);
CREATE TABLE IF NOT EXISTS info (k TEXT PRIMARY KEY, v TEXT NOT NULL);
"""
CACHE_SCHEMA_VERSION = "1"


def default_cache_dir() -> Path:
    env = os.environ.get(ENV_VAR)
    if env:
        return Path(env).expanduser()
    import platformdirs

    return Path(platformdirs.user_cache_dir("sentiprobe"))


class PredictionCache:
    """A process-safe SQLite cache. Use ``PredictionCache.open(cache_dir)``."""

    def __init__(self, path: str | Path) -> None:
        self.path = Path(path)
        self.path.parent.mkdir(parents=True, exist_ok=True)
        self._db = sqlite3.connect(str(self.path), timeout=60, isolation_level=None)
        self._db.execute("PRAGMA journal_mode=WAL")
        self._db.execute("PRAGMA synchronous=NORMAL")
        self._db.executescript(_SCHEMA)
        self._db.execute("INSERT OR IGNORE INTO info VALUES ('schema_version', ?)", (CACHE_SCHEMA_VERSION,))

    @classmethod
    def open(cls, cache_dir: str | Path | None = None) -> PredictionCache:
        return cls(Path(cache_dir or default_cache_dir()) / "cache.sqlite")

    def close(self) -> None:
        self._db.close()

    # ---- predictions ---------------------------------------------------------------------------
    def get_many(self, fp: str, keys: Iterable[str], table: str = "predictions") -> dict[str, Any]:
        col = "fp" if table == "predictions" else "ns"
        keys = list(dict.fromkeys(keys))
        out: dict[str, Any] = {}
        for i in range(0, len(keys), 500):
            chunk = keys[i:i + 500]
            q = f"SELECT key, value FROM {table} WHERE {col}=? AND key IN ({','.join('?' * len(chunk))})"
            for k, v in self._db.execute(q, (fp, *chunk)):
                out[k] = json.loads(v)
        return out

    def put_many(self, fp: str, values: Mapping[str, Any], table: str = "predictions") -> None:
        if not values:
            return
        rows = [(fp, k, json.dumps(v, ensure_ascii=False)) for k, v in values.items()]
        with self._transaction():
            self._db.executemany(f"INSERT OR REPLACE INTO {table} VALUES (?, ?, ?)", rows)

    def count(self, fp: str | None = None) -> int:
        if fp is None:
            return self._db.execute("SELECT COUNT(*) FROM predictions").fetchone()[0]
        return self._db.execute("SELECT COUNT(*) FROM predictions WHERE fp=?", (fp,)).fetchone()[0]

    # ---- fitted states -------------------------------------------------------------------------
    def get_state(self, key: str) -> tuple[dict[str, Any], dict[str, np.ndarray]] | None:
        row = self._db.execute("SELECT meta, arrays FROM states WHERE key=?", (key,)).fetchone()
        if row is None:
            return None
        meta = json.loads(row[0])
        with np.load(io.BytesIO(row[1]), allow_pickle=False) as z:
            arrays = {k: z[k] for k in z.files}
        return meta, arrays

    def put_state(self, key: str, state: tuple[dict[str, Any], dict[str, np.ndarray]]) -> None:
        meta, arrays = state
        buf = io.BytesIO()
        np.savez(buf, **{k: np.asarray(v) for k, v in arrays.items()})
        with self._transaction():
            self._db.execute("INSERT OR REPLACE INTO states VALUES (?, ?, ?)",
                             (key, json.dumps(meta, sort_keys=True), buf.getvalue()))

    def _transaction(self):
        db = self._db

        class _Tx:
            def __enter__(self_inner):
                db.execute("BEGIN IMMEDIATE")

            def __exit__(self_inner, exc_type, exc, tb):
                db.execute("COMMIT" if exc_type is None else "ROLLBACK")
                return False

        return _Tx()


class NullCache(PredictionCache):
    """A cache that stores nothing (``--no-cache``)."""

    def __init__(self) -> None:  # noqa: D107 - nothing to open
        self.path = Path(os.devnull)

    def close(self) -> None:
        pass

    def get_many(self, fp, keys, table="predictions"):
        return {}

    def put_many(self, fp, values, table="predictions"):
        pass

    def count(self, fp=None):
        return 0

    def get_state(self, key):
        return None

    def put_state(self, key, state):
        pass
