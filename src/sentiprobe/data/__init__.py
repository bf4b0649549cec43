"""Data layer: manifest of upstream files, data-dir resolution, fetch and verify.

Public API (suites use only the first two functions):
    resolve_data_dir(data_dir=None) -> Path
    require_file(data_dir, manifest_path, *, stamp_dir=...) -> Path   (verifies the sha256 on first read)
    default_stamp_dir() -> Path                                       (where verified-stamps are kept)
    hash_user_file(path) -> str                                       (integrity.py; sha256 of a user file)
    load_manifest() -> Manifest                                           (manifest.py)
    fetch(family=None, data_dir=None, mirror=None, force=False, progress=None, ...) -> FetchReport (download.py)
    verify(family=None, data_dir=None) -> VerifyReport                    (integrity.py)
    resolve_families(names, suite_families=None) -> list[str] | None
"""
from __future__ import annotations

from pathlib import Path
from typing import Any

from ..core import paths
from ..core.errors import MissingDataError, UnsafePathError
from ..core.paths import CACHE_ENV_VAR  # the same variable sentiprobe.run.cache reads

ENV_VAR = paths.DATA_ENV_VAR
_DEFAULT = object()

_LAZY = {
    "load_manifest": "manifest", "Manifest": "manifest", "ManifestFile": "manifest",
    "fetch": "download", "FetchReport": "download", "FetchOutcome": "download", "download_file": "download",
    "verify": "integrity", "VerifyReport": "integrity", "FileCheck": "integrity", "git_blob_of": "integrity",
    "hash_user_file": "integrity", "verify_on_read": "integrity", "StampStore": "integrity",
    "resolve_families": "names",
}
__all__ = ["ENV_VAR", "CACHE_ENV_VAR", "resolve_data_dir", "require_file", "default_stamp_dir", *_LAZY]


def __getattr__(name: str) -> Any:  # lazy: importing sentiprobe.data stays cheap for suites
    if name in _LAZY:
        import importlib

        return getattr(importlib.import_module(f".{_LAZY[name]}", __name__), name)
    raise AttributeError(f"module {__name__!r} has no attribute {name!r}")


def resolve_data_dir(data_dir: str | Path | None = None) -> Path:
    """``--data-dir``, then ``$SENTIPROBE_DATA_DIR`` (as the command line installed it, :mod:`sentiprobe.core.env`),
    then the user cache dir."""
    if data_dir:
        return Path(data_dir).expanduser().absolute()  # messages name the directory that was meant
    return paths.data_dir()


def _hint(entry: Any, family: str) -> str:
    where = f"point --data-dir / {ENV_VAR} at a directory that has it"
    if entry is None:
        return f"run `sentiprobe data fetch {family}` or {where}"
    if entry.optional:
        return " ".join(f"it is unpublished upstream or absent from every available copy ({entry.reason}) "
                        f"sentiprobe uses instead: {entry.substitute} To supply it: {entry.how_to_supply}"
                        .split())
    how = "downloads it from its pinned upstream URL" if entry.url else "rebuilds it"
    return f"run `sentiprobe data fetch {family}` ({how}) or {where}"


def default_stamp_dir() -> Path:
    """Directory of the verified-stamp store: the cache directory (``$SENTIPROBE_CACHE_DIR``, else the user
    cache dir), the same place as the prediction cache, so deleting the cache also drops the stamps."""
    return paths.cache_dir()


def require_file(data_dir: str | Path, manifest_path: str, *, stamp_dir: Any = _DEFAULT) -> Path:
    """Path of ``manifest_path`` (``family/rel/path``) under ``data_dir``, verified before a suite reads it.

    Why verify here: this is the one door through which suites read data, and a file of the right size but
    modified content (flipped labels) would otherwise be scored silently. The sha256 is checked the first
    time a file is read in a process; a verified-stamp in ``stamp_dir`` (default :func:`default_stamp_dir`; ``None``
    keeps no stamps) spares later processes the hash while the file's path, size, mtime, ctime and inode
    are unchanged. A symlink is followed and the file it resolves to is hashed.

    Raises:
        UnsafePathError: ``manifest_path`` is absolute or has ``..``; or, for a path the manifest does not
            know (whose content cannot be verified), it resolves outside ``data_dir``.
        MissingDataError: the file is absent (with fetch advice, or for unpublished files what to do).
        TamperedDataError (a ChecksumError): size or sha256 differ from the manifest; says how to repair.
    """
    from .integrity import verify_on_read
    from .manifest import check_relative_path, load_manifest

    check_relative_path(manifest_path, record=manifest_path)
    root = Path(data_dir)
    p = root / manifest_path
    entry = load_manifest().get(manifest_path)
    family = manifest_path.split("/", 1)[0]
    if not p.is_file():
        raise MissingDataError(p, _hint(entry, family))
    if entry is None:
        # nothing to verify the content against: at least it must be a file of the data directory
        try:
            p.resolve().relative_to(root.resolve())
        except ValueError:
            raise UnsafePathError(f"{manifest_path!r} resolves to {p.resolve()}, outside the data directory "
                                  f"{root.resolve()}", path=p, record=manifest_path, field="path") from None
        return p
    verify_on_read(entry, p, default_stamp_dir() if stamp_dir is _DEFAULT else stamp_dir)
    return p
