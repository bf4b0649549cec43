"""Stage ``predictions``: prediction files made elsewhere.

Classification suites: CSV/TSV/JSONL with ``item_id`` and ``label`` (as every suite). Phrase Type: the same,
with the tag sequence as a space-separated ``label`` string, or JSONL lines with a ``tags`` list. A run's own
``predictions/<suite>.jsonl`` (Prediction objects with ``meta``) is read whole, so rescoring it keeps the
probe's extra heads (control task, ablations, layers) and its configuration.
"""
from __future__ import annotations

from pathlib import Path

from ...core.errors import DataError
from ...core.types import Prediction
from ..predictions_io import read_label_file
from .load import iter_jsonl


def read_predictions(suite, path: Path, column: str | None) -> list[Prediction]:
    if path.suffix == ".jsonl" and path.is_file():
        rows = list(iter_jsonl(path))
        if rows and column is None and all(isinstance(r.get("meta"), dict) and "item_id" in r for _, r in rows):
            return [Prediction.from_dict(r) for _, r in rows]
        if rows and "tags" in rows[0][1]:
            out = []
            for n, obj in rows:
                iid, seq = obj.get("item_id"), obj.get("tags")
                if not isinstance(iid, str) or not isinstance(seq, list):
                    raise DataError("need item_id (str) and tags (list)", path=path, record=f"line {n}")
                out.append(Prediction(iid, " ".join(map(str, seq)), meta={"source": str(path)}))
            return out
    return read_label_file(path, column)
