"""A damaged prediction cache (issue 15, item 9; item 14 ``--cache-dir`` pointing at a file).

Random bytes, a truncated file and bit flips used to surface as raw ``sqlite3.DatabaseError`` tracebacks;
now opening or reading says which file is corrupt and offers ``--repair-cache``, which moves it aside.
"""
from __future__ import annotations

import random
import sqlite3
from pathlib import Path

import pytest
import toy

from sentiprobe.cli import main
from sentiprobe.core.errors import CacheCorruptError, ConfigError
from sentiprobe.run.cache import PredictionCache

toy.register()
pytestmark = pytest.mark.timeout(120)


def _filled(cache_dir: Path, n: int = 2000) -> Path:
    c = PredictionCache.open(cache_dir)
    c.put_many("fp", {f"k{i}": {"label": "positive" * 4, "i": i} for i in range(n)})
    c.close()
    return cache_dir / "cache.sqlite"


def _random(b: bytes) -> bytes:
    return random.Random(0).randbytes(len(b))


def _truncated(b: bytes) -> bytes:
    return b[: len(b) // 3]


def _bitflips(b: bytes) -> bytes:
    out = bytearray(b)
    for i in range(8192, len(out), 131):  # leave the header page; damage the b-tree pages
        out[i] ^= 0x5A
    return bytes(out)


DAMAGE = {"random-bytes": _random, "truncated": _truncated, "bit-flipped": _bitflips}


@pytest.mark.parametrize("kind", list(DAMAGE))
def test_corrupt_cache_is_a_typed_error_naming_the_file(tmp_path, kind):
    db = _filled(tmp_path / "c")
    db.write_bytes(DAMAGE[kind](db.read_bytes()))
    with pytest.raises(CacheCorruptError) as ei:
        c = PredictionCache.open(tmp_path / "c")
        c.get_many("fp", [f"k{i}" for i in range(2000)])  # pre-fix: the sqlite3 error surfaced here at latest
    assert str(db) in str(ei.value) and "--repair-cache" in str(ei.value)
    assert db.exists()  # nothing is moved without being asked


@pytest.mark.parametrize("kind", list(DAMAGE))
def test_repair_moves_the_corrupt_file_and_its_wal_aside(tmp_path, kind):
    db = _filled(tmp_path / "c")
    damaged = DAMAGE[kind](db.read_bytes())
    db.write_bytes(damaged)
    Path(f"{db}-wal").write_bytes(b"stale wal")
    c = PredictionCache.open(tmp_path / "c", repair=True)
    try:
        assert c.count() == 0
        c.put_many("fp", {"a": 1})
        assert c.get_many("fp", ["a"]) == {"a": 1}
    finally:
        c.close()
    names = sorted(p.name for p in c.moved_aside)
    assert names[0].startswith("cache.sqlite.corrupt-") and not names[0].endswith(("-wal", "-shm"))
    assert (tmp_path / "c" / names[0]).read_bytes() == damaged
    # the stale WAL went with it (moved, or dropped by sqlite while closing the failed connection): it must
    # not be replayed into the fresh database
    assert b"stale wal" not in Path(f"{db}-wal").read_bytes() if Path(f"{db}-wal").exists() else True


def test_good_cache_is_left_alone_with_repair(tmp_path):
    _filled(tmp_path / "c", 10)
    c = PredictionCache.open(tmp_path / "c", repair=True)
    assert c.count() == 10 and c.moved_aside == []
    c.close()


def test_corruption_met_while_reading_is_typed(tmp_path, monkeypatch):
    """Damage that appears after a clean open (another process, a disk fault) is reported the same way."""
    c = PredictionCache.open(tmp_path / "c")

    class Broken:
        def execute(self, *a, **k):
            raise sqlite3.DatabaseError("database disk image is malformed")

    real = c._db
    c._db = Broken()
    try:
        exc = sqlite3.DatabaseError("database disk image is malformed")
        exc.sqlite_errorname = "SQLITE_CORRUPT"
        monkeypatch.setattr(Broken, "execute", lambda self, *a, **k: (_ for _ in ()).throw(exc))
        with pytest.raises(CacheCorruptError, match="cache.sqlite"):
            c.get_many("fp", ["a"])
        locked = sqlite3.OperationalError("database is locked")
        locked.sqlite_errorname = "SQLITE_BUSY"
        monkeypatch.setattr(Broken, "execute", lambda self, *a, **k: (_ for _ in ()).throw(locked))
        with pytest.raises(sqlite3.OperationalError):  # not corruption: never moved aside, never renamed
            c.get_many("fp", ["a"])
    finally:
        c._db = real
        c.close()


def test_cache_dir_pointing_at_a_file_is_a_config_error(tmp_path):
    f = tmp_path / "not-a-dir"
    f.write_text("x")
    with pytest.raises(ConfigError, match="not-a-dir"):
        PredictionCache.open(f)
    (tmp_path / "d" / "cache.sqlite").mkdir(parents=True)
    with pytest.raises(ConfigError, match="is a directory"):
        PredictionCache.open(tmp_path / "d")


def test_cli_run_corrupt_cache_and_repair(tmp_path, capsys):
    cache = tmp_path / "cache"
    db = _filled(cache, 10)
    db.write_bytes(_random(db.read_bytes()))
    args = ["run", "--suite", "toy", "--model", "majority", "--out", str(tmp_path / "r"), "--n-boot", "10",
            "--no-progress", "--cache-dir", str(cache)]
    assert main(args) == 1
    err = capsys.readouterr().err
    assert str(db) in err and "--repair-cache" in err and "Traceback" not in err
    assert main(args + ["--repair-cache"]) == 0
    capsys.readouterr()
    assert [p.name for p in cache.glob("cache.sqlite.corrupt-*")]
    assert main(args) == 0  # the fresh cache is healthy

    f = tmp_path / "file"
    f.write_text("x")
    assert main(args[:-1] + [str(f)]) == 1
    assert "is a file" in capsys.readouterr().err


def test_move_aside_takes_the_wal_and_shm_along(tmp_path):
    c = PredictionCache.open(tmp_path)
    c.close()
    db = tmp_path / "cache.sqlite"
    for suffix in ("-wal", "-shm"):
        Path(f"{db}{suffix}").write_bytes(suffix.encode())
    first = c.move_aside()
    assert len(first) == 3
    assert not db.exists() and not Path(f"{db}-wal").exists() and not Path(f"{db}-shm").exists()
    stamp = first[0].name[len("cache.sqlite.corrupt-"):]
    assert {p.name for p in first} == {f"cache.sqlite.corrupt-{stamp}{s}" for s in ("", "-wal", "-shm")}
    db.write_bytes(b"again")
    second = c.move_aside()  # same second: a distinct name, nothing overwritten
    assert len(second) == 1 and second[0] not in first and second[0].read_bytes() == b"again"
