"""Data layer: manifest of upstream files, data-dir resolution, fetch and verify.

Public API (stable; suites use only these two functions):
    resolve_data_dir(data_dir=None) -> Path
    require_file(data_dir, manifest_path) -> Path
"""
from __future__ import annotations

import os
from pathlib import Path

from ..core.errors import MissingDataError

ENV_VAR = "SENTIPROBE_DATA_DIR"


def resolve_data_dir(data_dir: str | Path | None = None) -> Path:
    """``--data-dir``, then ``$SENTIPROBE_DATA_DIR``, then the user cache dir."""
    if data_dir:
        return Path(data_dir).expanduser()
    env = os.environ.get(ENV_VAR)
    if env:
        return Path(env).expanduser()
    import platformdirs

    return Path(platformdirs.user_cache_dir("sentiprobe")) / "data"


def require_file(data_dir: str | Path, manifest_path: str) -> Path:
    """Path of ``manifest_path`` (``family/rel/path``) under ``data_dir``; raises when absent."""
    p = Path(data_dir) / manifest_path
    if not p.exists():
        family = manifest_path.split("/", 1)[0]
        raise MissingDataError(p, f"run `sentiprobe data fetch {family}` or point --data-dir / {ENV_VAR} at a "
                                  "directory that has it")
    return p
