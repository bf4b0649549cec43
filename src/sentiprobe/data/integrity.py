"""Re-check the data directory against the manifest: presence, size and sha256 of every file.

Two entry points:

- :func:`verify` (``sentiprobe data verify``) re-hashes every file on every call (no hash cache that could
  go stale).
- :func:`verify_on_read` is what :func:`sentiprobe.data.require_file` calls before a suite reads a file, so
  tampered data of the right size is refused instead of silently scored (issue 15). The first read in a
  process hashes the file; later reads in the same process hit an in-memory memo, and later processes hit
  a small JSON *verified-stamp* store in the cache directory, keyed by the resolved path and the file's
  (size, mtime_ns, ctime_ns, inode). Any write, replacement or ``touch`` changes the key, so a stale stamp
  cannot vouch for modified bytes; only files that verified are stamped.
"""
from __future__ import annotations

import atexit
import hashlib
import json
import os
import threading
import time
from collections.abc import Iterable
from dataclasses import dataclass
from pathlib import Path
from typing import Any

from ..core.errors import ChecksumError, DataError, MissingDataError, TamperedDataError
from ..core.hashing import file_sha256
from . import resolve_data_dir
from .manifest import Manifest, ManifestFile, load_manifest

SCHEMA_VERSION = 1
PROBLEMS = ("missing", "size-mismatch", "checksum-mismatch", "unpublished-mismatch")
IGNORED_NAMES = ("PROVENANCE.md",)


@dataclass(frozen=True)
class FileCheck:
    """The state of one manifest file in the data directory.

    Attributes:
        path: manifest path.
        status: ``ok``; ``missing``; ``size-mismatch`` (e.g. truncated); ``checksum-mismatch``;
            ``unpublished`` (optional file, absent: not an error); ``unpublished-ok`` (supplied, matches the
            expected git blob, or no hash is known); ``unpublished-mismatch`` (supplied, wrong git blob).
        optional: the file is an unpublished, optional one.
        expected_sha256 / actual_sha256, expected_size / actual_size, expected_git_blob / actual_git_blob:
            what the manifest says and what is on disk (``None`` when unknown or absent).
        message: one line for people.
    """

    path: str
    status: str
    optional: bool
    expected_sha256: str | None = None
    actual_sha256: str | None = None
    expected_size: int | None = None
    actual_size: int | None = None
    expected_git_blob: str | None = None
    actual_git_blob: str | None = None
    message: str = ""

    @property
    def problem(self) -> bool:
        return self.status in PROBLEMS

    def to_dict(self) -> dict[str, Any]:
        return {**self.__dict__, "problem": self.problem}


@dataclass(frozen=True)
class VerifyReport:
    """Result of :func:`verify`. ``ok`` is True when no file has a problem (unpublished files never are)."""

    data_dir: str
    families: tuple[str, ...]
    files: tuple[FileCheck, ...]
    unexpected: tuple[str, ...] = ()
    schema_version: int = SCHEMA_VERSION

    @property
    def problems(self) -> list[FileCheck]:
        return [f for f in self.files if f.problem]

    @property
    def ok(self) -> bool:
        return not self.problems

    def counts(self) -> dict[str, int]:
        out: dict[str, int] = {}
        for f in self.files:
            out[f.status] = out.get(f.status, 0) + 1
        return out

    def raise_for_problems(self) -> None:
        """Raise MissingDataError or ChecksumError for the first problem (no-op when ``ok``)."""
        for f in self.problems:
            p = Path(self.data_dir) / f.path
            if f.status == "missing":
                raise MissingDataError(p, f"run `sentiprobe data fetch {f.path.split('/', 1)[0]}`")
            if f.status == "unpublished-mismatch":
                raise ChecksumError(p, f"git blob {f.expected_git_blob}", f"git blob {f.actual_git_blob}")
            raise ChecksumError(p, f.expected_sha256 or "", f.actual_sha256 or "", f.message)

    def to_dict(self) -> dict[str, Any]:
        return {"schema_version": self.schema_version, "kind": "sentiprobe-verify-report",
                "data_dir": self.data_dir, "families": list(self.families), "ok": self.ok,
                "counts": self.counts(), "problems": len(self.problems),
                "files": [f.to_dict() for f in self.files], "unexpected": list(self.unexpected)}


def git_blob_of(path: str | Path) -> str:
    """``git hash-object`` of a file: sha1 of ``b"blob <size>\\0" + content``."""
    path = Path(path)
    h = hashlib.sha1(b"blob %d\0" % path.stat().st_size)
    with open(path, "rb") as f:
        for block in iter(lambda: f.read(1 << 20), b""):
            h.update(block)
    return h.hexdigest()


def check_file(entry: ManifestFile, path: Path) -> FileCheck:
    """Compare one file on disk with its manifest entry."""
    base: dict[str, Any] = dict(path=entry.path, optional=entry.optional, expected_sha256=entry.sha256,
                expected_size=entry.size, expected_git_blob=entry.git_blob)
    if not path.is_file():
        if entry.optional:
            return FileCheck(status="unpublished", message=" ".join(
                f"unpublished (optional). {entry.reason or ''} Instead: {entry.substitute or '-'} "
                f"To supply it: {entry.how_to_supply or '-'}".split()), **base)
        return FileCheck(status="missing", message=f"missing: expected {entry.size} bytes, sha256 {entry.sha256}",
                         **base)
    size = path.stat().st_size
    if entry.optional:
        if not entry.git_blob and not entry.sha256:
            return FileCheck(status="unpublished-ok", actual_size=size, actual_sha256=file_sha256(path),
                             message="supplied by the user (no expected hash is known)", **base)
        blob = git_blob_of(path)
        sha = file_sha256(path)
        good = (entry.git_blob is None or blob == entry.git_blob) and (entry.sha256 is None or sha == entry.sha256)
        return FileCheck(status="unpublished-ok" if good else "unpublished-mismatch", actual_size=size,
                         actual_sha256=sha, actual_git_blob=blob,
                         message=("supplied; matches the expected upstream git blob" if good else
                                  f"supplied, but its git blob {blob} is not the expected upstream "
                                  f"{entry.git_blob}"), **base)
    sha = file_sha256(path)
    if size != entry.size:
        kind = "truncated" if entry.size is not None and size < entry.size else "wrong size"
        return FileCheck(status="size-mismatch", actual_size=size, actual_sha256=sha,
                         message=f"{kind}: {size} bytes, expected {entry.size}; sha256 {sha}, "
                                 f"expected {entry.sha256}", **base)
    if sha != entry.sha256:
        return FileCheck(status="checksum-mismatch", actual_size=size, actual_sha256=sha,
                         message=f"sha256 {sha}, expected {entry.sha256}", **base)
    return FileCheck(status="ok", actual_size=size, actual_sha256=sha, **base)


def verify(family: str | Iterable[str] | None = None, data_dir: str | Path | None = None, *,
           manifest: Manifest | None = None) -> VerifyReport:
    """Check presence, size and sha256 of every manifest file of ``family`` (all when ``None``).

    Unpublished (optional) files are reported as ``unpublished`` when absent, never as problems; when a user
    supplied one, it is checked against the expected git blob id. Files in the family folders that the
    manifest does not know (stray ``.part`` files, extra files) are listed in ``unexpected``.
    """
    m = manifest or load_manifest()
    root = resolve_data_dir(data_dir)
    entries = m.select(family)
    fams = tuple(sorted({e.family for e in entries}))
    checks = tuple(check_file(e, root / e.path) for e in entries)
    known = {e.path for e in m.files}
    unexpected = []
    for fam in fams:
        d = root / fam
        if d.is_dir():
            unexpected += sorted(p.relative_to(root).as_posix() for p in d.rglob("*")
                                 if p.is_file() and p.name not in IGNORED_NAMES
                                 and p.relative_to(root).as_posix() not in known)
    return VerifyReport(str(root), fams, checks, tuple(unexpected))


# ---------------------------------------------------------------------------------------------
# verify on read
# ---------------------------------------------------------------------------------------------
STAMP_FILE = "verified-data.json"
STAMP_SCHEMA = 1
STAMP_LIMIT = 4096  # entries kept in the stamp file (oldest dropped): it must stay small to load fast
FLUSH_INTERVAL = 1.0  # seconds between stamp-file writes within a process (see StampStore.add)

_memo: dict[tuple, str] = {}  # stamp key -> digest verified in this process
_memo_lock = threading.Lock()


def hash_user_file(path: str | Path) -> str:
    """sha256 of a user-supplied file (a suite argument such as a train file), to record in results.

    The file is hashed through symlinks (the bytes actually read). Raises MissingDataError when it is
    absent and DataError when it is not a regular file (a directory, a device).
    """
    p = Path(path)
    if not p.exists():
        raise MissingDataError(p)
    if not p.is_file():
        raise DataError("not a regular file", path=p)
    return file_sha256(p.resolve())


def _stamp_key(resolved: Path, st: os.stat_result, kind: str, expected: str) -> tuple:
    return (str(resolved), st.st_size, st.st_mtime_ns, st.st_ctime_ns, st.st_ino, kind, expected)


class StampStore:
    """Verified stamps of data files, persisted as ``<dir>/verified-data.json``.

    Why: hashing every data file on every run would cost each run a full read of the data; the stamp lets
    a new process trust a file whose resolved path, size, mtime, ctime and inode are unchanged since it
    last verified. The store is a cache: unreadable or malformed stamp files are ignored (everything is
    simply re-hashed) and failures to write it are ignored (read-only cache dir), never an error.
    """

    def __init__(self, directory: str | Path) -> None:
        self.path = Path(directory) / STAMP_FILE
        self._entries: dict[str, list] | None = None
        self._seen: tuple[int, int] | None = None  # (mtime_ns, inode) of the stamp file we last read/wrote
        self._pending: dict[str, list] = {}
        self._last_flush = float("-inf")

    def _state(self) -> tuple[int, int] | None:
        try:
            st = self.path.stat()
        except OSError:
            return None
        return st.st_mtime_ns, st.st_ino

    def _load(self) -> dict[str, list]:
        if self._entries is None:
            self._seen = self._state()
            try:
                doc = json.loads(self.path.read_text(encoding="utf-8"))
            except (OSError, UnicodeDecodeError, ValueError):
                doc = None
            ok = isinstance(doc, dict) and doc.get("schema_version") == STAMP_SCHEMA \
                and isinstance(doc.get("files"), dict)
            self._entries = dict(doc["files"]) if ok else {}
        return self._entries

    def has(self, key: tuple) -> bool:
        """True when ``key`` (from :func:`_stamp_key`) was stamped as verified."""
        return self._load().get(key[0]) == list(key[1:])

    def add(self, key: tuple) -> None:
        """Stamp ``key`` as verified; saved at once, then at most every FLUSH_INTERVAL s, and at exit.

        Why batched: renaming the stamp file into place costs milliseconds on some filesystems, more than
        hashing a small data file; a stamp lost to a crash before the flush only costs a re-hash.
        """
        entries = self._load()
        entries.pop(key[0], None)
        entries[key[0]] = list(key[1:])
        self._pending[key[0]] = list(key[1:])
        if time.monotonic() - self._last_flush >= FLUSH_INTERVAL:
            self.flush()

    def flush(self) -> None:
        """Write pending stamps (merged with stamps other processes wrote meanwhile); best effort, no fsync."""
        if not self._pending:
            return
        if self._state() != self._seen:
            self._entries = None  # another process wrote stamps since we read the file: keep theirs too
        entries = self._load()
        entries.update(self._pending)
        while len(entries) > STAMP_LIMIT:
            entries.pop(next(iter(entries)))
        data = json.dumps({"schema_version": STAMP_SCHEMA, "files": entries}).encode("utf-8")
        tmp = self.path.with_name(f".{self.path.name}.{os.getpid()}.{threading.get_ident()}.tmp")
        self._pending = {}
        self._last_flush = time.monotonic()
        try:
            self.path.parent.mkdir(parents=True, exist_ok=True)
            tmp.write_bytes(data)
            os.replace(tmp, self.path)
            self._seen = self._state()
        except OSError:
            try:  # read-only or missing cache dir: the next process re-hashes, nothing worse
                tmp.unlink()
            except OSError:
                pass


_stores: dict[str, StampStore] = {}


def _store(directory: str | Path) -> StampStore:
    """One StampStore per directory and process, so the stamp file is parsed once, not once per file."""
    key = str(directory)
    with _memo_lock:
        if key not in _stores:
            _stores[key] = StampStore(directory)
        return _stores[key]


def _expected(entry: ManifestFile) -> tuple[str, str] | None:
    if entry.sha256:
        return "sha256", entry.sha256
    if entry.git_blob:
        return "git_blob", entry.git_blob
    return None


def verify_on_read(entry: ManifestFile, path: str | Path, stamp_dir: str | Path | None) -> None:
    """Refuse ``path`` unless its content matches ``entry`` (sha256, or git blob for unpublished files).

    ``path`` may be a symlink: the file it resolves to is what is hashed (and what the suite will read).
    Hashes at most once per process and file state; with ``stamp_dir`` (the cache directory), a stamp
    spares later processes the hash too. Raises TamperedDataError naming the file, the expected and
    actual hashes and the repair command. Entries without any known hash are accepted as they are.
    """
    exp = _expected(entry)
    if exp is None:
        return
    kind, expected = exp
    p = Path(path)
    resolved = p.resolve()
    st = resolved.stat()
    key = _stamp_key(resolved, st, kind, expected)
    if key in _memo:
        return
    store = _store(stamp_dir) if stamp_dir is not None else None
    if store is not None and store.has(key):
        with _memo_lock:
            _memo[key] = expected
        return
    if entry.size is not None and st.st_size != entry.size:
        raise TamperedDataError(p, expected, file_sha256(resolved), family=entry.family, resolved=resolved,
                                detail=f"size {st.st_size} bytes, expected {entry.size}")
    actual = file_sha256(resolved) if kind == "sha256" else git_blob_of(resolved)
    if actual != expected:
        repair = None
        if entry.optional:  # unpublished: fetch cannot restore it; the user supplied it by hand
            repair = (f"it must be the upstream file (`git hash-object` gives {entry.git_blob}); replace it, "
                      f"remove it, or pass your own file to the suite as a suite argument (e.g. --train-file) "
                      f"where it offers one")
        raise TamperedDataError(p, expected if kind == "sha256" else f"git blob {expected}",
                                actual if kind == "sha256" else f"git blob {actual}",
                                family=entry.family, resolved=resolved, repair=repair)
    with _memo_lock:
        _memo[key] = expected
    if store is not None:
        store.add(key)


def flush_stamps() -> None:
    """Write every pending verified-stamp now (also run at interpreter exit)."""
    with _memo_lock:
        stores = list(_stores.values())
    for st in stores:
        st.flush()


atexit.register(flush_stamps)


def clear_read_memo() -> None:
    """Forget what this process verified, after saving pending stamps (tests; a long-lived process that
    wants a full re-check)."""
    flush_stamps()
    with _memo_lock:
        _memo.clear()
        _stores.clear()
