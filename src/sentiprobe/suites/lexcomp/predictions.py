"""Stage ``predictions``: prediction files made elsewhere.

Classification suites: CSV/TSV/JSONL with ``item_id`` and ``label`` (as every suite). Phrase Type: the same,
with the tag sequence as a space-separated ``label`` string, or JSONL lines with a ``tags`` list. A run's own
``predictions/<suite>.jsonl`` (Prediction objects with ``meta``) is read whole, so rescoring it keeps the
probe's extra heads (control task, ablations, layers) and its configuration.
"""
from __future__ import annotations

from collections.abc import Sequence
from pathlib import Path

from ...core.errors import DataError
from ...core.types import Item, Prediction
from ..base import check_predictions
from ..predictions_io import prediction_from_record, read_label_file
from .load import TAGS, iter_jsonl


def read_predictions(suite, path: Path, column: str | None) -> list[Prediction]:
    if path.suffix == ".jsonl" and path.is_file():
        rows = list(iter_jsonl(path))
        if rows and column is None and all(isinstance(r.get("meta"), dict) and "item_id" in r for _, r in rows):
            return [prediction_from_record(r, path, n) for n, r in rows]  # field types checked
        if rows and "tags" in rows[0][1]:
            out = []
            for n, obj in rows:
                iid, seq = obj.get("item_id"), obj.get("tags")
                if not isinstance(iid, str) or not isinstance(seq, list) or \
                        not all(isinstance(t, str) and t.strip() and not any(c.isspace() for c in t) for t in seq):
                    raise DataError("need item_id (a string) and tags (a list of tag strings)", path=path,
                                    record=f"line {n}")
                out.append(Prediction(iid, " ".join(seq), meta={"source": str(path)}))
            return out
    return read_label_file(path, column)


def tags_alphabet() -> frozenset[str]:
    return frozenset(TAGS)


def _tag_problem(item: Item, label: str) -> str | None:
    """What is wrong with a predicted tag sequence (space-separated tags, one per token), or None."""
    seq = label.split()
    n = len(item.tokens or ())
    if len(seq) != n:
        return f"{len(seq)} tags for {n} tokens"
    unknown = sorted(set(seq) - tags_alphabet())
    return f"unknown tag(s) {unknown[:3]}" if unknown else None


def check_tags(suite: str, items: Sequence[Item], predictions: Sequence[Prediction], *, missing: str = "error",
               path: str | None = None) -> dict[str, Prediction]:
    """Phrase Type predictions indexed by item id, checked as every suite's are (:func:`..base.check_predictions`:
    unknown ids, duplicates, blank labels as missing predictions, the ``missing`` policy), each label a tag
    sequence of the sentence's length over the tag set."""
    return check_predictions(suite, tuple(tags_alphabet()), items, predictions, missing=missing, path=path,
                             label_problem=_tag_problem)
