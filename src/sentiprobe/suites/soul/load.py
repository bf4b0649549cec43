"""Loading and validating the SOUL CSV files (docs/protocols/soul.md#data).

One CSV row is one (review, statement) pair. Each row becomes an :class:`Item`:

- ``item_id`` = ``"<rid>:<n>"`` where ``n`` is the 1-based position of the row among the rows of
  review ``rid`` in the file (``yelp-16710:2``). The data has no statement id; the position is stable
  for the pinned files (and tells the two rows of the one duplicated test pair ``imdb-15611`` apart);
- ``group_id`` = ``rid`` (bootstrap resamples whole reviews);
- ``text`` = ``review_text`` and ``text_pair`` = ``statement``, both verbatim (IMDb ``<br />`` tags and
  the trailing newline + zero-width space of one test statement are kept);
- ``label`` in ``true`` / ``false`` / ``not-given``;
- ``meta``: ``rid``, ``source`` (``yelp`` / ``imdb``), ``position``, ``row`` (1-based data row in the
  file) and ``justification`` (the JG reference).

Label spellings: the label is lower-cased and stripped and ``not given`` / ``not_given`` / ``notgiven``
map to ``not-given``. A respelled label is never silent: the original is kept in ``meta["label_raw"]``
and counted by :func:`split_stats`. Anything else raises :class:`DataError` naming file, row and field.

The official splits are checked against the counts of the paper's Table 1 (docs/protocols/soul.md#files); a mismatch
raises. A user-supplied training file is checked by its git blob id (``git hash-object``) and counts.
"""
from __future__ import annotations

import csv
import hashlib
from collections import Counter
from collections.abc import Sequence
from dataclasses import dataclass
from pathlib import Path
from typing import Any

from ...core.errors import ChecksumError, DataError
from ...core.hashing import file_sha256
from ...core.types import Item

LABELS = ("true", "false", "not-given")
COLUMNS = ("rid", "review_text", "statement", "justification", "label")
SPELLINGS = {"true": "true", "false": "false", "not-given": "not-given", "not given": "not-given",
             "not_given": "not-given", "notgiven": "not-given"}


@dataclass(frozen=True)
class SplitCounts:
    """Expected size of an official split (paper Table 1)."""

    reviews: int
    true: int
    false: int
    not_given: int

    @property
    def statements(self) -> int:
        return self.true + self.false + self.not_given


EXPECTED: dict[str, SplitCounts] = {
    "train": SplitCounts(2182, 3675, 3000, 2159),
    "dev": SplitCounts(365, 617, 503, 361),
    "test": SplitCounts(1091, 1956, 1664, 1093),
}
#: ``git hash-object`` of the unpublished official ``train.csv`` (PROVENANCE.md).
TRAIN_BLOB_ID = "6d107a408acc1b175f1ebe9152e8a8ed459b75e5"
TRAIN_STAND_IN = "dev (stand-in: official train split unpublished)"


def git_blob_id(path: str | Path) -> str:
    """The git blob id of a file (sha1 of ``"blob <size>\\0" + content``), as ``git hash-object``."""
    data = Path(path).read_bytes()
    return hashlib.sha1(b"blob %d\x00" % len(data) + data).hexdigest()


def normalise_label(raw: str) -> str | None:
    """The canonical label of a data-file label spelling, or None when it is not a label."""
    return SPELLINGS.get(raw.strip().lower())


def read_rows(path: str | Path) -> list[dict[str, str]]:
    """The rows of a SOUL CSV (real CSV reader: fields hold commas, quotes and one newline)."""
    path = Path(path)
    try:
        with open(path, encoding="utf-8", newline="") as f:
            reader = csv.DictReader(f)
            header = reader.fieldnames or []
            missing = [c for c in COLUMNS if c not in header]
            if missing:
                raise DataError(f"missing columns {missing} (header has {header})", path=path, record="header")
            rows = list(reader)
    except UnicodeDecodeError as exc:
        raise DataError(f"not UTF-8 ({exc.reason} at byte {exc.start})", path=path) from None
    except csv.Error as exc:
        raise DataError(f"malformed CSV: {exc}", path=path) from None
    return rows


def items_from_rows(rows: Sequence[dict[str, str]], split: str, path: str | Path) -> list[Item]:
    """Validate rows and turn them into Items (see the module docstring)."""
    out: list[Item] = []
    position: Counter[str] = Counter()
    review_of: dict[str, str] = {}
    for i, r in enumerate(rows, 1):
        rid = (r.get("rid") or "").strip()
        if not rid:
            raise DataError("empty review id", path=path, record=f"row {i}", field="rid")
        for col in ("review_text", "statement", "label"):
            if r.get(col) is None or not r[col].strip():
                raise DataError("empty value", path=path, record=f"row {i} ({rid})", field=col)
        if r.get("justification") is None:
            raise DataError("missing value", path=path, record=f"row {i} ({rid})", field="justification")
        label = normalise_label(r["label"])
        if label is None:
            raise DataError(f"label {r['label']!r} is not one of {list(LABELS)}", path=path,
                            record=f"row {i} ({rid})", field="label")
        if rid in review_of and review_of[rid] != r["review_text"]:
            raise DataError("review text differs between rows of the same review", path=path,
                            record=f"row {i} ({rid})", field="review_text")
        review_of[rid] = r["review_text"]
        position[rid] += 1
        meta: dict[str, Any] = {"rid": rid, "source": rid.split("-", 1)[0], "position": position[rid], "row": i,
                                "justification": r["justification"]}
        if label != r["label"]:
            meta["label_raw"] = r["label"]
        out.append(Item(item_id=f"{rid}:{position[rid]}", group_id=rid, split=split, text=r["review_text"],
                        label=label, text_pair=r["statement"], meta=meta))
    return out


def check_counts(items: Sequence[Item], split: str, path: str | Path) -> None:
    """Raise DataError unless ``items`` match the paper's counts for an official split."""
    exp = EXPECTED[split]
    got = split_stats(items)
    want = {"reviews": exp.reviews, "statements": exp.statements,
            "labels": {"true": exp.true, "false": exp.false, "not-given": exp.not_given}}
    have = {"reviews": got["reviews"], "statements": got["statements"], "labels": got["labels"]}
    if have != want:
        raise DataError(f"split {split!r} does not match the paper's Table 1: expected {want}, got {have}",
                        path=path)


def load_split(path: str | Path, split: str, *, expected: bool = True) -> list[Item]:
    """Load one SOUL CSV as Items; ``expected`` checks the official counts of ``split``."""
    items = items_from_rows(read_rows(path), split, path)
    if expected:
        check_counts(items, split, path)
    return items


def load_train_file(path: str | Path, *, verify: bool = True) -> tuple[list[Item], dict[str, Any]]:
    """Load a user-supplied official ``train.csv`` and describe where it came from.

    With ``verify`` (default) the git blob id must equal the official one (PROVENANCE.md) and the
    counts the paper's; otherwise :class:`ChecksumError` / :class:`DataError`. ``verify=False`` loads
    any SOUL-format file and records it as unverified.
    """
    path = Path(path).expanduser()
    if not path.is_file():
        raise DataError("training file not found", path=path)
    blob = git_blob_id(path)
    if verify and blob != TRAIN_BLOB_ID:
        raise ChecksumError(path, TRAIN_BLOB_ID, blob,
                            "git blob id of the official SOUL train.csv; set the suite option train_verify=0 "
                            "(--suite-arg train_verify=0, env SENTIPROBE_SOUL_TRAIN_VERIFY=0) to use another "
                            "training file, recorded as unverified")
    items = load_split(path, "train", expected=verify)
    info = {"train_source": f"file {path} ({'verified official train split' if verify else 'unverified'})",
            "train_file": str(path), "train_git_blob_id": blob, "train_sha256": file_sha256(path),
            "train_verified": bool(verify),
            "train_counts": split_stats(items)}
    return items, info


def split_stats(items: Sequence[Item]) -> dict[str, Any]:
    """Reviews, statements, label counts, sources and quirks of a list of SOUL items."""
    labels = Counter(it.label for it in items)
    per_review = Counter(it.group_id for it in items)
    sources = Counter(it.meta.get("source") for it in {it.group_id: it for it in items}.values())
    pairs = Counter((it.group_id, it.text_pair) for it in items)
    return {
        "reviews": len(per_review),
        "statements": len(items),
        "labels": {lab: labels.get(lab, 0) for lab in LABELS},
        "reviews_per_source": dict(sorted(sources.items())),
        "statements_per_review": {"min": min(per_review.values(), default=0),
                                  "max": max(per_review.values(), default=0)},
        "single_statement_reviews": sorted(r for r, c in per_review.items() if c == 1),
        "duplicate_statement_pairs": sorted(f"{r}: {s!r}" for (r, s), c in pairs.items() if c > 1),
        "respelled_labels": sum(1 for it in items if "label_raw" in it.meta),
    }
