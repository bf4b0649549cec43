"""The answer key of a blind audit sheet: written by ``sentiprobe arts audit-sample`` (the generator) and by the review
page's export (``sentiprobe arts review --export-audit``), read by ``sentiprobe arts audit-score``. One definition
here, below both writers, so a sheet from either is scored the same way and only with its own key."""
from __future__ import annotations

import hashlib
import json
from pathlib import Path

KEY_SCHEMA_VERSION = 2
"""2: the key holds the sample's id and each item's term and sentence, so a sheet is scored only with its own key."""


def key_path(sample: str | Path) -> Path:
    """Where the answer key of the sheet ``sample`` lives (``<sheet>.key.json``)."""
    return Path(str(sample) + ".key.json")


def sample_fingerprint(rows: list[tuple[str, str, str]]) -> str:
    """The id of a sample: a hash of its (sample_id, term, sentence) rows, whatever their order."""
    h = hashlib.sha256()
    for row in sorted(rows):
        h.update(json.dumps(row, ensure_ascii=False).encode("utf-8") + b"\n")
    return h.hexdigest()[:16]
