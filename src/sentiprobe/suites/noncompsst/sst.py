"""Readers for the Stanford Sentiment Treebank raw files in ``<data-dir>/sst/`` (docs/protocols/noncompsst.md#sst).

Each reader validates the structure and raises :class:`DataError` naming the file, the 1-based
line and the field. Readers of large files return compact structures (lists indexed by id).

Files (manifest paths):
- ``stanfordSentimentTreebank/datasetSplit.txt``: ``sentence_index,splitset_label`` (1 train, 2 test, 3 dev);
- ``stanfordSentimentTreebank/sentiment_labels.txt``: ``phrase ids|sentiment values`` (v in [0, 1]);
- ``stanfordSentimentTreebankRaw/rawscores_exp12.txt``: ``id,s1,s2,s3[,...]`` raw slider scores 1..25;
- ``stanfordSentimentTreebank/SOStr.txt`` / ``STree.txt``: tokens / parent pointers, one sentence a line;
- ``stanfordSentimentTreebank/dictionary.txt`` (not shipped): ``phrase|id``;
- ``trainDevTestTrees_PTB/trees/{train,dev,test}.txt``: PTB trees with 0-4 node labels;
- ``derived/slee288_project4/SSTB_{train,dev,test}.csv``: sentence_index -> phrase id and v.
"""
from __future__ import annotations

import csv
import re
from dataclasses import dataclass
from pathlib import Path

from ...core.errors import DataError
from ...data import require_file
from .load import read_text, split_lines

SST_FILES = {
    "split": "sst/stanfordSentimentTreebank/datasetSplit.txt",
    "labels": "sst/stanfordSentimentTreebank/sentiment_labels.txt",
    "raw": "sst/stanfordSentimentTreebankRaw/rawscores_exp12.txt",
    "sostr": "sst/stanfordSentimentTreebank/SOStr.txt",
    "stree": "sst/stanfordSentimentTreebank/STree.txt",
    "dictionary": "sst/stanfordSentimentTreebank/dictionary.txt",
    "trees": "sst/trainDevTestTrees_PTB/trees/{split}.txt",
    "csv": "sst/derived/slee288_project4/SSTB_{split}.csv",
}
#: datasetSplit.txt codes
SPLIT_CODES = {"train": 1, "test": 2, "dev": 3}


@dataclass(frozen=True)
class SSTSentence:
    """One SST sentence of a split, text rebuilt from the PTB tree leaves.

    Attributes:
        sentence_index: the index in ``datasetSentences.txt`` / ``datasetSplit.txt``.
        split: ``train``, ``dev`` or ``test``.
        text: leaves joined by single spaces, ``\\/`` -> ``/``, ``\\*`` -> ``*`` (SST tokenisation).
        phrase_id: the sentence's phrase id (``dictionary.txt`` id, from the SSTB csv).
        value: sentiment value v in [0, 1].
        root_label5: the 0-4 label of the tree's root.
    """

    sentence_index: int
    split: str
    text: str
    phrase_id: int
    value: float
    root_label5: int


def read_split(path: str | Path) -> dict[int, int]:
    """``datasetSplit.txt``: sentence_index -> split code (1 train, 2 test, 3 dev), in file order."""
    path = Path(path)
    lines = split_lines(read_text(path))
    if not lines or lines[0] != "sentence_index,splitset_label":
        raise DataError("expected header 'sentence_index,splitset_label'", path=path, record="line 1")
    out: dict[int, int] = {}
    for n, line in enumerate(lines[1:], 2):
        parts = line.split(",")
        if len(parts) != 2 or not parts[0].isdigit() or parts[1] not in ("1", "2", "3"):
            raise DataError(f"expected '<index>,<1|2|3>', got {line!r}", path=path, record=f"line {n}")
        idx = int(parts[0])
        if idx in out:
            raise DataError("duplicate sentence index", path=path, record=f"line {n}", field="sentence_index")
        out[idx] = int(parts[1])
    return out


def read_sentiment_labels(path: str | Path) -> list[float]:
    """``sentiment_labels.txt``: list indexed by phrase id of v in [0, 1] (ids must be 0..N-1 in order)."""
    path = Path(path)
    lines = split_lines(read_text(path))
    if not lines or lines[0] != "phrase ids|sentiment values":
        raise DataError("expected header 'phrase ids|sentiment values'", path=path, record="line 1")
    out: list[float] = []
    for n, line in enumerate(lines[1:], 2):
        i, sep, v = line.partition("|")
        if not sep or i != str(len(out)):
            raise DataError(f"expected '{len(out)}|<value>', got {line!r}", path=path, record=f"line {n}",
                            field="phrase ids")
        try:
            x = float(v)
        except ValueError:
            raise DataError(f"not a number: {v!r}", path=path, record=f"line {n}", field="sentiment values") from None
        if not 0.0 <= x <= 1.0:
            raise DataError(f"value {x} outside [0, 1]", path=path, record=f"line {n}", field="sentiment values")
        out.append(x)
    return out


def read_raw_scores(path: str | Path) -> dict[int, tuple[int, ...]]:
    """``rawscores_exp12.txt``: id -> raw slider scores (1..25), 3, 4 or 6 per id."""
    path = Path(path)
    out: dict[int, tuple[int, ...]] = {}
    for n, line in enumerate(split_lines(read_text(path)), 1):
        parts = line.split(",")
        try:
            nums = [int(x) for x in parts]
        except ValueError:
            raise DataError(f"non-integer field in {line!r}", path=path, record=f"line {n}") from None
        if len(nums) < 2 or any(not 1 <= s <= 25 for s in nums[1:]):
            raise DataError("expected id followed by raw scores in 1..25", path=path, record=f"line {n}")
        if nums[0] in out:
            raise DataError("duplicate id", path=path, record=f"line {n}", field="id")
        out[nums[0]] = tuple(nums[1:])
    return out


def value_from_raw(scores: tuple[int, ...]) -> float:
    """SST value v = (mean raw score - 1) / 24 (docs/protocols/noncompsst.md#sst-scores)."""
    return (sum(scores) / len(scores) - 1) / 24


_LEAF = re.compile(r"\((\d) ([^()]+)\)")
_ROOT = re.compile(r"^\((\d) ")


def tree_leaves(line: str) -> tuple[int, list[str]]:
    """(root label, leaf tokens) of a PTB sentiment tree line; a leaf may contain a space (``8 1\\/2``)."""
    m = _ROOT.match(line)
    if not m or line.count("(") != line.count(")"):
        raise ValueError("not a bracketed tree")
    leaves = [t for _, t in _LEAF.findall(line)]
    if not leaves:
        raise ValueError("tree without leaves")
    return int(m.group(1)), leaves


def unescape_token(tok: str) -> str:
    """PTB escapes used in the trees: ``\\/`` -> ``/``, ``\\*`` -> ``*``."""
    return tok.replace("\\/", "/").replace("\\*", "*")


def read_trees(path: str | Path) -> list[tuple[int, str]]:
    """``trees/<split>.txt``: (root 0-4 label, sentence text) per line (docs/protocols/noncompsst.md#sst7-train text
    rule)."""
    path = Path(path)
    out = []
    for n, line in enumerate(split_lines(read_text(path)), 1):
        try:
            root, leaves = tree_leaves(line)
        except ValueError as exc:
            raise DataError(str(exc), path=path, record=f"line {n}") from None
        out.append((root, " ".join(unescape_token(t) for t in leaves)))
    return out


def read_sstb_csv(path: str | Path) -> dict[int, tuple[int, float]]:
    """``SSTB_<split>.csv`` (a real CSV with quoting): sentence_index -> (phrase id, v)."""
    path = Path(path)
    with open(path, encoding="utf-8", newline="") as f:
        reader = csv.reader(f)
        try:
            header = next(reader)
        except StopIteration:
            raise DataError("empty file", path=path) from None
        need = ("sentence_index", "id", "values")
        if any(c not in header for c in need):
            raise DataError(f"header {header} lacks one of {list(need)}", path=path, record="line 1")
        ci = {c: header.index(c) for c in need}
        out: dict[int, tuple[int, float]] = {}
        for row in reader:
            rec = f"line {reader.line_num}"
            if len(row) != len(header):
                raise DataError(f"{len(row)} fields, header has {len(header)}", path=path, record=rec)
            try:
                si, pid, v = int(row[ci["sentence_index"]]), int(row[ci["id"]]), float(row[ci["values"]])
            except ValueError:
                raise DataError("non-numeric sentence_index, id or values", path=path, record=rec) from None
            if not 0.0 <= v <= 1.0:
                raise DataError(f"value {v} outside [0, 1]", path=path, record=rec, field="values")
            if si in out:
                raise DataError("duplicate sentence_index", path=path, record=rec, field="sentence_index")
            out[si] = (pid, v)
    return out


def read_sostr_stree(sostr: str | Path, stree: str | Path) -> list[tuple[list[str], list[int]]]:
    """``SOStr.txt`` + ``STree.txt``: per sentence (tokens, parent pointers); line i = sentence_index i+1.

    Parent pointers are 1-based node numbers, leaves are nodes 1..n, the root's parent is 0.
    """
    toks = split_lines(read_text(sostr))
    trees = split_lines(read_text(stree))
    if len(toks) != len(trees):
        raise DataError(f"{len(toks)} lines but STree.txt has {len(trees)}", path=sostr)
    out = []
    for n, (t, s) in enumerate(zip(toks, trees), 1):
        tokens = t.split("|")
        try:
            parents = [int(x) for x in s.split("|")]
        except ValueError:
            raise DataError("non-integer parent pointer", path=stree, record=f"line {n}") from None
        m = len(parents)
        if m != 2 * len(tokens) - 1 or parents.count(0) != 1 or parents[-1] != 0 \
                or any(not (len(tokens) < p <= m or p == 0) for p in parents):
            raise DataError(f"not a binary tree over {len(tokens)} tokens", path=stree, record=f"line {n}")
        out.append((tokens, parents))
    return out


def node_spans(n_tokens: int, parents: list[int]) -> list[tuple[int, int]]:
    """(first, last+1) token span of every node (0-based node index) of a parent-pointer tree."""
    m = len(parents)
    lo = [n_tokens] * m
    hi = [0] * m
    for i in range(n_tokens):
        lo[i], hi[i] = i, i + 1
        node = parents[i] - 1
        while node >= 0:
            lo[node] = min(lo[node], i)
            hi[node] = max(hi[node], i + 1)
            node = parents[node] - 1
    return list(zip(lo, hi))


def read_dictionary(path: str | Path) -> dict[str, int]:
    """``dictionary.txt`` (``phrase|id``; the phrase may itself contain ``|``: split on the last one)."""
    path = Path(path)
    out: dict[str, int] = {}
    for n, line in enumerate(split_lines(read_text(path)), 1):
        text, sep, pid = line.rpartition("|")
        if not sep or not pid.isdigit():
            raise DataError(f"expected '<phrase>|<id>', got {line!r}", path=path, record=f"line {n}")
        out[text] = int(pid)
    return out


def sst_file(root: str | Path, rel: str) -> Path:
    """Path of an SST manifest file (``sst/...``) under a data dir, or under the ``sst`` folder itself."""
    root = Path(root)
    inner = root / rel.split("/", 1)[1]
    if not (root / "sst").is_dir() and (root / "stanfordSentimentTreebank").is_dir() and inner.exists():
        return inner
    return require_file(root, rel)


def load_sst_sentences(root: str | Path, split: str) -> list[SSTSentence]:
    """Sentences of an SST split (``train``/``dev``/``test``) with v, in ``datasetSplit.txt`` order.

    Text from the PTB tree leaves (line j of ``trees/<split>.txt`` is the j-th sentence of the
    split in ``datasetSplit.txt`` order), v from the SSTB csv (docs/protocols/noncompsst.md#sst7-train).
    """
    if split not in SPLIT_CODES:
        raise ValueError(f"unknown SST split {split!r}")
    split_path = sst_file(root, SST_FILES["split"])
    trees_path = sst_file(root, SST_FILES["trees"].format(split=split))
    csv_path = sst_file(root, SST_FILES["csv"].format(split=split))
    code = SPLIT_CODES[split]
    indices = [i for i, c in read_split(split_path).items() if c == code]
    trees = read_trees(trees_path)
    if len(trees) != len(indices):
        raise DataError(f"{len(trees)} trees but datasetSplit.txt has {len(indices)} {split} sentences",
                        path=trees_path)
    values = read_sstb_csv(csv_path)
    out = []
    for si, (root_label, text) in zip(indices, trees):
        if si not in values:
            raise DataError(f"no row for sentence_index {si}", path=csv_path, record=si, field="sentence_index")
        pid, v = values[si]
        out.append(SSTSentence(si, split, text, pid, v, root_label))
    if len(values) != len(indices):
        extra = sorted(set(values) - set(indices))
        raise DataError(f"{len(extra)} rows are not {split} sentences", path=csv_path,
                        record=extra[0] if extra else None)
    return out
