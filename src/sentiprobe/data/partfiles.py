"""Temporary ``.part`` files of downloads: created beside their destination, locked, cleaned up after a crash.

Every download writes a ``.<name>.<random>.part`` file in the destination folder and moves it into place only when
it verifies. A downloading process holds an exclusive ``flock`` on its ``.part`` file, so the next fetch can tell the
``.part`` files of a SIGKILLed process (no lock) from those of a concurrent fetch (locked) and removes only the
former (:func:`remove_stale_parts`). During a fetch, SIGTERM is turned into ``SystemExit(143)``
(:func:`sigterm_raises`) so the ``finally`` blocks run and remove the ``.part`` file (the default SIGTERM action
kills the process without running them); SIGINT already raises KeyboardInterrupt.
"""
from __future__ import annotations

import os
import re
import secrets
import signal
import threading
import time
from collections.abc import Iterable, Iterator
from contextlib import contextmanager
from pathlib import Path
from typing import Any

STALE_PART_AGE = 900.0  # an unlockable .part (no flock, or core.io's) untouched this long is an orphan
UNLOCKED_GRACE = 30.0  # an unlocked .part of ours younger than this may be a download between open and flock
_OUR_PART_RE = re.compile(r"^\..+\.[0-9a-f]{12}\.part$")  # temp_for's names
_PART_RE = re.compile(r"^\..+\.[A-Za-z0-9_]{6,}\.part$")  # ours and core.io.atomic_write_bytes'

try:
    import fcntl
except ImportError:  # pragma: no cover - Windows: only the age rule applies
    fcntl = None  # type: ignore[assignment]


def temp_for(dest: Path) -> tuple[int, Path]:
    """A new ``.<name>.<random>.part`` file beside ``dest`` (mode from the umask, like a normal file)."""
    dest.parent.mkdir(parents=True, exist_ok=True)
    while True:
        tmp = dest.parent / f".{dest.name}.{secrets.token_hex(6)}.part"
        try:
            fd = os.open(tmp, os.O_CREAT | os.O_EXCL | os.O_WRONLY | getattr(os, "O_BINARY", 0), 0o666)
        except FileExistsError:  # pragma: no cover - 48 random bits
            continue
        if fcntl is not None:
            fcntl.flock(fd, fcntl.LOCK_EX | fcntl.LOCK_NB)  # released by the kernel if this process dies
        return fd, tmp


@contextmanager
def sigterm_raises() -> Iterator[None]:
    """While fetching, SIGTERM raises SystemExit(143) so ``finally`` blocks remove the ``.part`` file.

    Why: the default SIGTERM action ends the process at once, skipping every cleanup. Only the main
    thread may install handlers; elsewhere (a fetch in a worker thread) nothing changes.
    """
    if threading.current_thread() is not threading.main_thread():
        yield
        return

    def handler(signum: int, frame: Any) -> None:
        raise SystemExit(128 + signum)

    previous = signal.signal(signal.SIGTERM, handler)
    try:
        yield
    finally:
        signal.signal(signal.SIGTERM, previous)


def remove_stale_parts(root: Path, families: Iterable[str], age: float = STALE_PART_AGE) -> list[Path]:
    """Remove orphaned temporary ``.*.part`` files under the families' folders; returns what was removed.

    Why: a process killed with SIGKILL (or a power loss) cannot clean up. A ``.part`` of ours is an orphan
    when no process holds its ``flock`` (and it is older than UNLOCKED_GRACE, the moment between creating
    and locking it); other ``.part`` files (``core.io``'s atomic writes, or where ``flock`` is unavailable)
    when nothing wrote to them for ``age`` seconds. A concurrent fetch's file is never touched.
    """
    removed = []
    now = time.time()
    for fam in families:
        d = root / fam
        if not d.is_dir():
            continue
        for p in d.rglob("*.part"):
            if not _PART_RE.match(p.name) or p.is_symlink():
                continue
            try:
                idle = now - p.stat().st_mtime
                if fcntl is not None and _OUR_PART_RE.match(p.name):
                    if idle > min(age, UNLOCKED_GRACE) and _unlink_if_unlocked(p):
                        removed.append(p)
                elif p.is_file() and idle > age:
                    p.unlink()
                    removed.append(p)
            except FileNotFoundError:  # removed meanwhile by its owner
                continue
    return removed


def _unlink_if_unlocked(p: Path) -> bool:
    """Remove ``p`` if no process holds an flock on it (its downloader is gone)."""
    try:
        fd = os.open(p, os.O_RDONLY)
    except (FileNotFoundError, IsADirectoryError, PermissionError):
        return False
    try:
        try:
            fcntl.flock(fd, fcntl.LOCK_EX | fcntl.LOCK_NB)
        except BlockingIOError:
            return False  # a live download owns it
        p.unlink()
        return True
    finally:
        os.close(fd)


__all__ = ["STALE_PART_AGE", "UNLOCKED_GRACE", "remove_stale_parts", "sigterm_raises", "temp_for"]
