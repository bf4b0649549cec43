"""Loading and validating the SENTiVENT coarse-task files (docs/protocols/sentivent.md#polar-file, #clause-file,
#splits-file, #split-rule, #task-b).

Every row is checked; a bad row raises :class:`DataError` naming the file, the row (1-based data row
and its id) and the field. Split membership is checked against ``splits.json`` (by document id).
Span columns are parsed with :func:`ast.literal_eval` (never ``eval``).
"""
from __future__ import annotations

import ast
import csv
import json
import re
from collections.abc import Iterator
from pathlib import Path
from typing import Any

from ...core.errors import DataError
from ...core.types import Item

POLAR_FILE = "coarse/sentivent_implicit.csv"
CLAUSE_FILE = "coarse/sentivent_implicit_clauses.csv"
SPLITS_FILE = "splits.json"
SPLITS = ("train", "dev", "test")
POLAR_LABELS = ("positive", "neutral", "negative")
CLAUSE_LABELS = ("positive", "neutral", "negative", "none")

POLAR_COLUMNS = ("id", "polarity", "polarity_orig", "sentence", "polex", "polex+targets", "polex_span",
                 "polex+targets_span", "target_spans", "split")
CLAUSE_COLUMNS = ("id", "polarity", "polarity_all", "clause_text", "orig_sentence_text", "split")
_POLAR_ID = re.compile(r"(\S+) (\d{2}) (\d{2})")
_CLAUSE_ID = re.compile(r"([^_\s]+)_([A-Za-z]+)_s(\d+)_c(\d+)")
_DOC_SEP = re.compile(r"[ _:]")


def doc_id(item_id: str) -> str:
    """The document id of a row id: the prefix before the first space, underscore or colon."""
    return _DOC_SEP.split(item_id, 1)[0]


def clause_label(polarities: list[str]) -> str:
    """Task-B labelling rule (docs/protocols/sentivent.md#task-b): none if empty; else positive/negative majority of the
    non-neutral votes; a tie (including only neutral votes) is neutral."""
    if not polarities:
        return "none"
    pos = sum(p == "positive" for p in polarities)
    neg = sum(p == "negative" for p in polarities)
    return "positive" if pos > neg else "negative" if neg > pos else "neutral"


def read_splits(path: Path) -> dict[str, str]:
    """``{document id: split}`` from ``splits.json``; a document in two splits is an error."""
    try:
        doc = json.loads(Path(path).read_text(encoding="utf-8"))
    except json.JSONDecodeError as exc:
        raise DataError(f"invalid JSON: {exc.msg}", path=path, record=f"line {exc.lineno}") from None
    if not isinstance(doc, dict) or set(doc) != set(SPLITS):
        raise DataError(f"expected an object with keys {list(SPLITS)}", path=path)
    out: dict[str, str] = {}
    for split in SPLITS:
        if not isinstance(doc[split], list):
            raise DataError("expected a list of document ids", path=path, field=split)
        for d in doc[split]:
            if not isinstance(d, str) or not d:
                raise DataError(f"invalid document id {d!r}", path=path, field=split)
            if d in out:
                raise DataError(f"document {d!r} is in both {out[d]!r} and {split!r}", path=path, field=split)
            out[d] = split
    return out


def iter_tsv(path: Path, required: tuple[str, ...]) -> Iterator[tuple[int, dict[str, str]]]:
    """Rows of a tab-separated file with a header (standard CSV quoting): ``(row number, row)``."""
    with open(path, encoding="utf-8", newline="") as f:
        reader = csv.DictReader(f, delimiter="\t")
        header = reader.fieldnames or []
        missing = [c for c in required if c not in header]
        if missing:
            raise DataError(f"missing columns {missing} (header: {header})", path=path, record="header")
        for n, row in enumerate(reader, start=1):
            if None in row:
                raise DataError("more fields than header columns", path=path, record=f"row {n}")
            for c in required:
                if row[c] is None:
                    raise DataError("fewer fields than header columns", path=path, record=f"row {n}", field=c)
            yield n, row


_PAIR = re.compile(r"\((\d+), (\d+)\)")
_PAIRS = re.compile(r"\[(?:\(\d+, \d+\)(?:, \(\d+, \d+\))*)?\]")


def _literal(value: str, path: Path, record: str, fieldname: str) -> Any:
    """A Python literal (fast paths for ``(a, b)`` and ``[(a, b), ...]``, else :func:`ast.literal_eval`)."""
    v = value.strip()
    m = _PAIR.fullmatch(v)
    if m:
        return int(m.group(1)), int(m.group(2))
    if _PAIRS.fullmatch(v):
        return [(int(a), int(b)) for a, b in _PAIR.findall(v)]
    try:
        return ast.literal_eval(value.strip())
    except (ValueError, SyntaxError, MemoryError, RecursionError):
        raise DataError(f"cannot parse {value!r} as a Python literal", path=path, record=record,
                        field=fieldname) from None


def _span(value: Any, n_tokens: int, path: Path, record: str, fieldname: str) -> tuple[int, int]:
    if (not isinstance(value, (tuple, list)) or len(value) != 2
            or not all(isinstance(v, int) and not isinstance(v, bool) for v in value)):
        raise DataError(f"expected a (start, end) pair of integers, got {value!r}", path=path, record=record,
                        field=fieldname)
    a, b = int(value[0]), int(value[1])
    if not 0 <= a <= b < n_tokens:
        raise DataError(f"span {value!r} is outside the sentence of {n_tokens} tokens", path=path, record=record,
                        field=fieldname)
    return a, b


def _check_split(row: dict[str, str], item_id: str, splits: dict[str, str], path: Path, record: str) -> str:
    split = row["split"].strip()
    if split not in SPLITS:
        raise DataError(f"unknown split {split!r}", path=path, record=record, field="split")
    doc = doc_id(item_id)
    if doc not in splits:
        raise DataError(f"document {doc!r} is not in splits.json", path=path, record=record, field="id")
    if splits[doc] != split:
        raise DataError(f"split {split!r} disagrees with splits.json, which puts document {doc!r} in "
                        f"{splits[doc]!r}", path=path, record=record, field="split")
    return split


def load_polar(path: Path, splits: dict[str, str]) -> list[Item]:
    """Task-A items (one per gold polar expression), all splits, in file order."""
    items, seen = [], set()
    for n, row in iter_tsv(path, POLAR_COLUMNS):
        iid = row["id"]
        rec = f"row {n} ({iid})"
        m = _POLAR_ID.fullmatch(iid)
        if not m:
            raise DataError(f"id {iid!r} is not '<doc> <sentence 2 digits> <expression 2 digits>'", path=path,
                            record=rec, field="id")
        if iid in seen:
            raise DataError("duplicate id", path=path, record=rec, field="id")
        seen.add(iid)
        label = row["polarity"].strip()
        if label not in POLAR_LABELS:
            raise DataError(f"polarity {label!r} is not one of {list(POLAR_LABELS)}", path=path, record=rec,
                            field="polarity")
        split = _check_split(row, iid, splits, path, rec)
        tokens = row["sentence"].split(" ")
        nt = len(tokens)
        ps = _span(_literal(row["polex_span"], path, rec, "polex_span"), nt, path, rec, "polex_span")
        ws = _span(_literal(row["polex+targets_span"], path, rec, "polex+targets_span"), nt, path, rec,
                   "polex+targets_span")
        raw_ts = _literal(row["target_spans"], path, rec, "target_spans")
        if not isinstance(raw_ts, list):
            raise DataError(f"expected a list of (start, end) pairs, got {raw_ts!r}", path=path, record=rec,
                            field="target_spans")
        ts = [_span(t, nt, path, rec, "target_spans") for t in raw_ts]
        if " ".join(tokens[ps[0]:ps[1] + 1]) != row["polex"]:
            raise DataError("polex is not the tokens of polex_span", path=path, record=rec, field="polex")
        text = row["polex+targets"]
        if " ".join(tokens[ws[0]:ws[1] + 1]) != text:
            raise DataError("polex+targets is not the tokens of polex+targets_span", path=path, record=rec,
                            field="polex+targets")
        items.append(Item(
            item_id=iid, group_id=iid, split=split, text=text, label=label,
            meta={"doc": m.group(1), "sentence_idx": int(m.group(2)), "expression_idx": int(m.group(3)),
                  "sentence": row["sentence"], "polex": row["polex"], "polex_span": list(ps),
                  "window_span": list(ws), "target_spans": [list(t) for t in ts],
                  "polarity_orig": row["polarity_orig"]}))
    if not items:
        raise DataError("no rows", path=path)
    return items


def load_clauses(path: Path, splits: dict[str, str]) -> list[Item]:
    """Task-B items (one per clause), all splits, in file order; labels re-derived and verified."""
    items, seen = [], set()
    for n, row in iter_tsv(path, CLAUSE_COLUMNS):
        iid = row["id"]
        rec = f"row {n} ({iid})"
        m = _CLAUSE_ID.fullmatch(iid)
        if not m:
            raise DataError(f"id {iid!r} is not '<doc>_<annotator>_s<sentence>_c<clause>'", path=path, record=rec,
                            field="id")
        if iid in seen:
            raise DataError("duplicate id", path=path, record=rec, field="id")
        seen.add(iid)
        label = row["polarity"].strip()
        if label not in CLAUSE_LABELS:
            raise DataError(f"polarity {label!r} is not one of {list(CLAUSE_LABELS)}", path=path, record=rec,
                            field="polarity")
        votes = _literal(row["polarity_all"], path, rec, "polarity_all")
        if not isinstance(votes, list) or not all(v in POLAR_LABELS for v in votes):
            raise DataError(f"expected a list of {list(POLAR_LABELS)} labels, got {votes!r}", path=path,
                            record=rec, field="polarity_all")
        derived = clause_label(votes)
        if derived != label:
            raise DataError(f"polarity {label!r} does not follow the labelling rule, which gives {derived!r} "
                            f"for polarity_all {votes}", path=path, record=rec, field="polarity")
        split = _check_split(row, iid, splits, path, rec)
        text = row["clause_text"]
        if not text.strip():
            raise DataError("empty clause text", path=path, record=rec, field="clause_text")
        items.append(Item(
            item_id=iid, group_id=iid, split=split, text=text, label=label,
            meta={"doc": m.group(1), "annotator": m.group(2), "sentence_idx": int(m.group(3)),
                  "clause_idx": int(m.group(4)), "polarity_all": list(votes),
                  "sentence": row["orig_sentence_text"]}))
    if not items:
        raise DataError("no rows", path=path)
    return items
