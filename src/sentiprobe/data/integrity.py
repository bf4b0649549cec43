"""Re-check the data directory against the manifest: presence, size and sha256 of every file.

Hashing the whole reference data (about 68 MB, 121 files) takes about 0.1 s with a warm page cache, so
hashes are recomputed on every call (no hash cache that could go stale).
"""
from __future__ import annotations

import hashlib
from collections.abc import Iterable
from dataclasses import dataclass
from pathlib import Path
from typing import Any

from ..core.errors import ChecksumError, MissingDataError
from ..core.hashing import file_sha256
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
    base = dict(path=entry.path, optional=entry.optional, expected_sha256=entry.sha256,
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
    from . import resolve_data_dir

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
