"""Data layer: manifest of upstream files, data-dir resolution, fetch and verify.

Public API (suites use only the first two functions):
    resolve_data_dir(data_dir=None) -> Path
    require_file(data_dir, manifest_path) -> Path
    load_manifest() -> Manifest                                           (manifest.py)
    fetch(family=None, data_dir=None, mirror=None, force=False, progress=None, ...) -> FetchReport (download.py)
    verify(family=None, data_dir=None) -> VerifyReport                    (integrity.py)
    resolve_families(names, suite_families=None) -> list[str] | None
"""
from __future__ import annotations

import os
from pathlib import Path
from typing import Any

from ..core.errors import ChecksumError, MissingDataError

ENV_VAR = "SENTIPROBE_DATA_DIR"

_LAZY = {
    "load_manifest": "manifest", "Manifest": "manifest", "ManifestFile": "manifest",
    "fetch": "download", "FetchReport": "download", "FetchOutcome": "download", "download_file": "download",
    "verify": "integrity", "VerifyReport": "integrity", "FileCheck": "integrity", "git_blob_of": "integrity",
    "resolve_families": "names",
}
__all__ = ["ENV_VAR", "resolve_data_dir", "require_file", *_LAZY]


def __getattr__(name: str) -> Any:  # lazy: importing sentiprobe.data stays cheap for suites
    if name in _LAZY:
        import importlib

        return getattr(importlib.import_module(f".{_LAZY[name]}", __name__), name)
    raise AttributeError(f"module {__name__!r} has no attribute {name!r}")


def resolve_data_dir(data_dir: str | Path | None = None) -> Path:
    """``--data-dir``, then ``$SENTIPROBE_DATA_DIR``, then the user cache dir."""
    if data_dir:
        return Path(data_dir).expanduser()
    env = os.environ.get(ENV_VAR)
    if env:
        return Path(env).expanduser()
    import platformdirs

    return Path(platformdirs.user_cache_dir("sentiprobe")) / "data"


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


def require_file(data_dir: str | Path, manifest_path: str) -> Path:
    """Path of ``manifest_path`` (``family/rel/path``) under ``data_dir``.

    Raises MissingDataError (with fetch advice, or for unpublished files what to do instead) when the file
    is absent, and ChecksumError when its size differs from the manifest's (a truncated or replaced file;
    the full sha256 check is ``sentiprobe data verify``). Paths outside the manifest are only checked for
    presence.
    """
    from .manifest import load_manifest

    p = Path(data_dir) / manifest_path
    entry = load_manifest().get(manifest_path)
    family = manifest_path.split("/", 1)[0]
    if not p.is_file():
        raise MissingDataError(p, _hint(entry, family))
    if entry is not None and entry.size is not None:
        size = p.stat().st_size
        if size != entry.size:
            from ..core.hashing import file_sha256

            raise ChecksumError(p, entry.sha256 or "", file_sha256(p),
                                f"size {size} bytes, expected {entry.size}; run `sentiprobe data verify "
                                f"{family}` and `sentiprobe data fetch {family} --force`")
    return p
