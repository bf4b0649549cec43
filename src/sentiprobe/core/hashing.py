"""Stable hashing of JSON-able objects and files (sha256)."""
from __future__ import annotations

import functools
import hashlib
import json
from pathlib import Path
from typing import Any


def canonical_json(obj: Any) -> str:
    return json.dumps(obj, sort_keys=True, ensure_ascii=False, separators=(",", ":"), default=str)


def stable_hash(obj: Any, length: int = 16) -> str:
    """sha256 of the canonical JSON of ``obj``, hex-truncated to ``length`` characters."""
    return hashlib.sha256(canonical_json(obj).encode("utf-8")).hexdigest()[:length]


def file_sha256(path: str | Path, chunk: int = 1 << 20) -> str:
    h = hashlib.sha256()
    with open(path, "rb") as f:
        for block in iter(lambda: f.read(chunk), b""):
            h.update(block)
    return h.hexdigest()


@functools.lru_cache(maxsize=1)
def package_source_hash() -> str:
    """sha256 of sentiprobe's own Python sources (read once per process).

    Keys what is cached on sentiprobe's code alone (a suite's scores of given predictions), so any change to
    the code, released or not, invalidates them.
    """
    root = Path(__file__).resolve().parents[1]
    h = hashlib.sha256()
    for f in sorted(root.rglob("*.py")):
        h.update(f.relative_to(root).as_posix().encode("utf-8") + b"\0")
        h.update(f.read_bytes())
    return h.hexdigest()
