"""SQLite prediction cache keyed by adapter fingerprint and request hash.

Three tables:
- ``predictions(fp, key, value)``: one JSON prediction per (adapter fingerprint, request hash);
- ``blobs(ns, key, value)``: generic JSON values (generated texts, judge outputs) by namespace;
- ``states(key, meta, arrays)``: fitted model states (JSON meta + ``.npz`` arrays, loaded with
  ``allow_pickle=False``), so a resumed run does not refit.

Every batch is committed in its own transaction (WAL journal), so a run killed at any point keeps
all finished batches. The cache is safe to delete.

A damaged database file (random bytes, truncated, bit-flipped) is detected when the cache is opened
(``PRAGMA quick_check``) or read, and raised as :class:`~sentiprobe.core.errors.CacheCorruptError` naming
the file instead of a raw sqlite3 traceback; ``repair=True`` (``sentiprobe run --repair-cache``) moves the
file and its ``-wal``/``-shm`` companions aside to ``cache.sqlite.corrupt-<timestamp>`` and starts fresh.
"""
from __future__ import annotations

import functools
import io
import json
import logging
import os
import sqlite3
import time
from collections.abc import Callable, Iterable, Mapping
from pathlib import Path
from typing import Any

import numpy as np

from ..core.errors import CacheCorruptError, ConfigError
from ..core.paths import CACHE_ENV_VAR
from ..core.retry import DeadlinePassed, RetriesExhausted, Transient, retry_call
from ..core.paths import cache_dir as default_cache_dir  # the one resolver (re-exported)

log = logging.getLogger("sentiprobe.cache")

ENV_VAR = CACHE_ENV_VAR
_SCHEMA = """
CREATE TABLE IF NOT EXISTS predictions (fp TEXT NOT NULL, key TEXT NOT NULL, value TEXT NOT NULL,
    PRIMARY KEY (fp, key)) WITHOUT ROWID;
CREATE TABLE IF NOT EXISTS blobs (ns TEXT NOT NULL, key TEXT NOT NULL, value TEXT NOT NULL,
    PRIMARY KEY (ns, key)) WITHOUT ROWID;
CREATE TABLE IF NOT EXISTS states (key TEXT PRIMARY KEY, meta TEXT NOT NULL, arrays BLOB NOT NULL);
CREATE TABLE IF NOT EXISTS info (k TEXT PRIMARY KEY, v TEXT NOT NULL);
"""
CACHE_SCHEMA_VERSION = "1"
CORRUPT_SUFFIXES = ("", "-wal", "-shm")  # the database and its WAL companions move aside together


def is_corruption(exc: sqlite3.DatabaseError) -> bool:
    """True when ``exc`` says the database file is damaged (SQLITE_CORRUPT*, SQLITE_NOTADB).

    Why so narrow: "database is locked", a full disk or a permission problem are OperationalErrors that
    moving the file aside would not fix (and would lose a good cache over).
    """
    name = getattr(exc, "sqlite_errorname", None)
    if name:
        return name.startswith(("SQLITE_CORRUPT", "SQLITE_NOTADB"))
    return type(exc) is sqlite3.DatabaseError  # pragma: no cover - Python < 3.11 has no error names


def _guarded(fn: Callable) -> Callable:
    """Turn a corruption error met while reading or writing into CacheCorruptError naming the file."""

    @functools.wraps(fn)
    def wrapper(self, *args, **kwargs):
        try:
            return fn(self, *args, **kwargs)
        except sqlite3.DatabaseError as exc:
            if not is_corruption(exc):
                raise
            raise CacheCorruptError(self.path, str(exc)) from None

    return wrapper


class _Locked(Transient):
    """"database is locked" while switching to WAL: worth another try (``error``: SQLite's own error)."""

    def __init__(self, error: sqlite3.OperationalError) -> None:
        super().__init__(str(error))
        self.error = error


def _set_wal(db: sqlite3.Connection, wait: float = 60.0) -> None:
    """Switch ``db`` to write-ahead logging, waiting while another process does the same.

    Why a loop: two lanes opening a new cache at once both ask for WAL; SQLite answers the second "database is
    locked" at once, without calling the busy handler that ``timeout`` sets, so the wait is done here (the retry
    helper, :func:`sentiprobe.core.retry.retry_call`: 10 ms doubling up to 0.5 s, for ``wait`` seconds at most,
    then SQLite's error).
    """
    end = time.monotonic() + wait

    def attempt(_k: int) -> None:
        try:
            db.execute("PRAGMA journal_mode=WAL")
        except sqlite3.OperationalError as exc:
            if "locked" not in str(exc):
                raise
            raise _Locked(exc) from None

    try:
        retry_call(attempt, retries=1_000_000, wait=lambda k, _f: min(0.01 * 2 ** min(k, 6), 0.5),
                   remaining=lambda: end - time.monotonic())
    except (DeadlinePassed, RetriesExhausted) as stop:
        assert isinstance(stop.last, _Locked)
        raise stop.last.error from None


class PredictionCache:
    """A process-safe SQLite cache. Use ``PredictionCache.open(cache_dir)``."""

    def __init__(self, path: str | Path, *, repair: bool = False) -> None:
        """Open (or create) the cache at ``path``.

        Raises ConfigError when the cache directory is a file (or the database path a directory), and
        CacheCorruptError for a damaged database unless ``repair``, which moves it aside (see
        :meth:`move_aside`) and starts an empty cache; ``moved_aside`` then lists the moved files.
        """
        self.path = Path(path)
        self.moved_aside: list[Path] = []
        try:
            self.path.parent.mkdir(parents=True, exist_ok=True)
        except (FileExistsError, NotADirectoryError):
            raise ConfigError(f"the cache directory {self.path.parent} (--cache-dir / {ENV_VAR}) is a file or "
                              f"lies under one; point it at a directory") from None
        if self.path.is_dir():
            raise ConfigError(f"the cache database {self.path} is a directory; remove it or choose another "
                              f"--cache-dir")
        try:
            self._db = self._connect()
        except CacheCorruptError:
            if not repair:
                raise
            self.moved_aside = self.move_aside()
            log.warning("moved the corrupt cache aside: %s", ", ".join(map(str, self.moved_aside)))
            self._db = self._connect()

    def _connect(self) -> sqlite3.Connection:
        db = sqlite3.connect(str(self.path), timeout=60, isolation_level=None)
        try:
            _set_wal(db)
            db.execute("PRAGMA synchronous=NORMAL")
            # a bit flip in a page that this run never reads would otherwise go unnoticed until it is read
            problems = [r[0] for r in db.execute("PRAGMA quick_check")]
            if problems != ["ok"]:
                raise CacheCorruptError(self.path, "; ".join(map(str, problems[:3])))
            db.executescript(_SCHEMA)
            db.execute("INSERT OR IGNORE INTO info VALUES ('schema_version', ?)", (CACHE_SCHEMA_VERSION,))
        except sqlite3.DatabaseError as exc:
            db.close()
            if not is_corruption(exc):
                raise
            raise CacheCorruptError(self.path, str(exc)) from None
        except CacheCorruptError:
            db.close()
            raise
        return db

    def move_aside(self) -> list[Path]:
        """Rename the database and its ``-wal``/``-shm`` files to ``<name>.corrupt-<timestamp>[-wal|-shm]``.

        Why rename rather than delete: the damaged file may still hold predictions worth recovering by hand
        (``sqlite3 .recover``); the run goes on with a fresh cache either way.
        """
        stamp = time.strftime("%Y%m%dT%H%M%S")
        n = 0
        while any(Path(f"{self.path}.corrupt-{stamp}{suffix}").exists() for suffix in CORRUPT_SUFFIXES):
            n += 1
            stamp = f"{time.strftime('%Y%m%dT%H%M%S')}-{n}"
        moved = []
        for suffix in CORRUPT_SUFFIXES:
            src = Path(f"{self.path}{suffix}")
            if src.exists():
                dst = Path(f"{self.path}.corrupt-{stamp}{suffix}")
                os.replace(src, dst)
                moved.append(dst)
        return moved

    @classmethod
    def open(cls, cache_dir: str | Path | None = None, *, repair: bool = False) -> PredictionCache:
        return cls(Path(cache_dir or default_cache_dir()) / "cache.sqlite", repair=repair)

    def close(self) -> None:
        self._db.close()

    # ---- predictions ---------------------------------------------------------------------------
    @_guarded
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

    @_guarded
    def put_many(self, fp: str, values: Mapping[str, Any], table: str = "predictions") -> None:
        if not values:
            return
        rows = [(fp, k, json.dumps(v, ensure_ascii=False)) for k, v in values.items()]
        with self._transaction():
            self._db.executemany(f"INSERT OR REPLACE INTO {table} VALUES (?, ?, ?)", rows)

    @_guarded
    def count(self, fp: str | None = None) -> int:
        if fp is None:
            return self._db.execute("SELECT COUNT(*) FROM predictions").fetchone()[0]
        return self._db.execute("SELECT COUNT(*) FROM predictions WHERE fp=?", (fp,)).fetchone()[0]

    # ---- fitted states -------------------------------------------------------------------------
    @_guarded
    def get_state(self, key: str) -> tuple[dict[str, Any], dict[str, np.ndarray]] | None:
        row = self._db.execute("SELECT meta, arrays FROM states WHERE key=?", (key,)).fetchone()
        if row is None:
            return None
        meta = json.loads(row[0])
        with np.load(io.BytesIO(row[1]), allow_pickle=False) as z:
            arrays = {k: z[k] for k in z.files}
        return meta, arrays

    @_guarded
    def put_state(self, key: str, state: tuple[dict[str, Any], dict[str, np.ndarray]]) -> None:
        meta, arrays = state
        buf = io.BytesIO()
        np.savez(buf, **{k: np.asarray(v) for k, v in arrays.items()})  # type: ignore[arg-type]  # array names
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

    def __init__(self) -> None:
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
