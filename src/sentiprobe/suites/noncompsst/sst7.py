"""SST-7: binning (docs/protocols/noncompsst.md#sst7-binning), removal of sentences containing stimuli
(docs/protocols/noncompsst.md#removal-rule), train/dev/test items (docs/protocols/noncompsst.md#sst7-train).

- ``sst7_label(v) = min(floor(7 v), 6)``, computed exactly (``Fraction``) on the float v;
- :class:`StimulusMatcher`: whole-token-sequence, case-insensitive match of any Study-2 subphrase
  (``-LRB-``/``-RRB-`` read as brackets, ``\\/`` as ``/``);
- dev/test items: the shipped ``noncompsst/sst7/{validation,test}.tsv`` as they are;
- train items, in this order of preference (``train_source="auto"``):
  1. a user file (the suite option ``train_file``), ``text<TAB>label`` as the shipped files;
  2. the upstream ``<data-dir>/noncompsst/sst7/train.tsv`` if someone placed it there;
  3. phrase level, rebuilt when SST's ``dictionary.txt`` is supplied (the suite option ``sst_dictionary``, or
     placed at ``sst/stanfordSentimentTreebank/dictionary.txt``); ``sentiment_labels.txt`` is the shipped
     one unless the option ``sst_labels`` names another;
  4. sentence level from the raw SST files (always available; a documented deviation).

The file and the source are suite options (:mod:`.options`); this module never reads env variables.
"""
from __future__ import annotations

import logging
import math
from collections.abc import Iterable, Sequence
from dataclasses import dataclass
from fractions import Fraction
from pathlib import Path

from ...core.errors import ConfigError, DataError
from ...core.types import Item
from ...data import require_file
from .load import read_tsv
from .sst import (
    SST_FILES,
    load_sst_sentences,
    node_spans,
    read_dictionary,
    read_sentiment_labels,
    read_sostr_stree,
    read_split,
    sst_file,
)

log = logging.getLogger("sentiprobe")

LABELS7 = tuple(str(i) for i in range(7))
TRAIN_SOURCES = ("auto", "file", "phrases", "sentences")
SHIPPED = {"dev": "noncompsst/sst7/validation.tsv", "test": "noncompsst/sst7/test.tsv",
           "train": "noncompsst/sst7/train.tsv"}


def sst7_label(v: float) -> int:
    """7-way label of an SST value v in [0, 1]: ``min(floor(7 v), 6)`` (exact in v's float value)."""
    if not 0.0 <= v <= 1.0:
        raise ValueError(f"SST value {v} outside [0, 1]")
    return min(math.floor(7 * Fraction(v)), 6)


def sst7_label_from_raw(scores: Sequence[int]) -> int:
    """7-way label from raw 1..25 slider scores: ``min(floor(7 (m - 1) / 24), 6)``, m the exact mean."""
    m = Fraction(sum(scores), len(scores))
    return min(math.floor(7 * (m - 1) / 24), 6)


# ---- removal of sentences that contain stimuli (docs/protocols/noncompsst.md#removal-rule) ---------------------------
def match_tokens(text: str) -> tuple[str, ...]:
    """Tokens for matching: whitespace split, lower-cased, -LRB-/-RRB- as brackets, ``\\/`` as ``/``."""
    out = []
    for t in text.split():
        t = t.replace("\\/", "/").lower()
        out.append({"-lrb-": "(", "-rrb-": ")"}.get(t, t))
    return tuple(out)


class StimulusMatcher:
    """Finds whether a text contains any of a set of subphrases as a whole-token sequence."""

    def __init__(self, subphrases: Iterable[str]) -> None:
        self.by_first: dict[str, set[tuple[str, ...]]] = {}
        for s in subphrases:
            toks = match_tokens(s)
            if toks:
                self.by_first.setdefault(toks[0], set()).add(toks)
        self.lengths = {t: sorted({len(x) for x in v}) for t, v in self.by_first.items()}

    def find(self, text: str) -> str | None:
        """The first subphrase (as matched tokens joined by spaces) found in ``text``, else None."""
        toks = match_tokens(text)
        for i, t in enumerate(toks):
            cands = self.by_first.get(t)
            if not cands:
                continue
            for n in self.lengths[t]:
                seq = toks[i:i + n]
                if len(seq) == n and seq in cands:
                    return " ".join(seq)
        return None


def matcher_for(phrases) -> StimulusMatcher:
    """Matcher for every Study-2 subphrase: A, B (both spellings) and the six controls."""
    return StimulusMatcher(s for p in phrases for s in p.subphrases())


# ---- shipped files and user files -----------------------------------------------------------------
@dataclass(frozen=True)
class SST7Row:
    """One line of an SST-7 file (``text<TAB>label``): 1-based line, text, label 0..6."""

    line: int
    text: str
    label: int


def read_sst7_tsv(path: str | Path) -> list[SST7Row]:
    """Read ``sentence<TAB>label`` lines (no header, label 0..6, UTF-8, no quoting)."""
    out = []
    for n, (text, lab) in read_tsv(path, None, 2):
        if lab not in LABELS7:
            raise DataError(f"label {lab!r} is not an integer 0..6", path=path, record=f"line {n}", field="label")
        out.append(SST7Row(n, text, int(lab)))
    if not out:
        raise DataError("no rows", path=path)
    return out


def shipped_items(data_dir: str | Path, split: str) -> list[Item]:
    """Items of the shipped ``validation.tsv`` (split ``dev``) or ``test.tsv`` (split ``test``), as they are."""
    path = require_file(data_dir, SHIPPED[split])
    return [Item(f"sst7-{split}-{r.line}", f"sst7-{split}-{r.line}", split, r.text, str(r.label),
                 meta={"line": r.line, "source": SHIPPED[split]}) for r in read_sst7_tsv(path)]


def file_items(path: str | Path, source: str) -> list[Item]:
    """Training items from a ``text<TAB>label`` file (user-supplied or the upstream train.tsv), as they are."""
    path = Path(path).expanduser()
    if not path.is_file():
        raise ConfigError(f"SST-7 training file {path} does not exist (suite option train_file)")
    return [Item(f"sst7-train-{r.line}", f"sst7-train-{r.line}", "train", r.text, str(r.label),
                 meta={"line": r.line, "source": source}) for r in read_sst7_tsv(path)]


# ---- rebuilding from the raw SST files ------------------------------------------------------------
@dataclass(frozen=True)
class BuiltSplit:
    """An SST-7 split rebuilt from SST.

    Attributes:
        items: the kept items (labels "0".."6").
        removed: (item id, matched subphrase) of the sentences/phrases removed by the
        docs/protocols/noncompsst.md#removal-rule rule. unresolved: phrase-level only: node texts not found in
        ``dictionary.txt`` (not used, counted). source: ``sst-sentences`` or ``sst-phrases``.
    """

    items: tuple[Item, ...]
    removed: tuple[tuple[str, str], ...]
    unresolved: tuple[str, ...]
    source: str


def build_sst7_sentences(sst_root: str | Path, split: str = "train",
                         exclude: StimulusMatcher | Iterable[str] | None = None) -> BuiltSplit:
    """Sentence-level SST-7 items of an SST split (docs/protocols/noncompsst.md#sst7-train option 1), minus sentences
    matching ``exclude``.

    ``sst_root`` is the data dir (holding ``sst/``) or the ``sst`` folder itself; ``exclude`` a
    matcher or the subphrases to remove sentences for (None: keep all).
    """
    m = exclude if isinstance(exclude, StimulusMatcher) or exclude is None else StimulusMatcher(exclude)
    kept, removed = [], []
    for s in load_sst_sentences(sst_root, split):
        iid = f"sst7-{split}-s{s.sentence_index}"
        hit = m.find(s.text) if m is not None else None
        if hit is not None:
            removed.append((iid, hit))
            continue
        kept.append(Item(iid, iid, split, s.text, str(sst7_label(s.value)),
                         meta={"sentence_index": s.sentence_index, "value": s.value, "source": "sst-sentences"}))
    return BuiltSplit(tuple(kept), tuple(removed), (), "sst-sentences")


def _ptb_token(tok: str) -> str:
    tok = tok.replace("\\/", "/").replace("\\*", "*")
    return {"(": "-LRB-", ")": "-RRB-"}.get(tok, tok)


def build_sst7_phrases(sst_root: str | Path, exclude: StimulusMatcher | Iterable[str] | None = None, *,
                       dictionary: str | Path | None = None, labels: str | Path | None = None) -> BuiltSplit:
    """Phrase-level SST-7 train (docs/protocols/noncompsst.md#sst7-train option 2): every node of every kept training
    tree, deduplicated.

    Needs ``dictionary.txt`` (not shipped): ``dictionary`` (a user file) or the one under ``sst_root``;
    ``labels`` replaces ``sentiment_labels.txt`` likewise. Trees of training sentences that match ``exclude`` are
    dropped whole; each distinct node text is kept once (first occurrence); node texts absent from
    the dictionary are counted in ``unresolved`` and not used. Text uses the PTB spelling
    (``-LRB-``, ``/``) like the shipped SST-7 files.
    """
    m = exclude if isinstance(exclude, StimulusMatcher) or exclude is None else StimulusMatcher(exclude)
    dictionary_map = read_dictionary(_user_file(dictionary, "sst_dictionary")
                                     or sst_file(sst_root, SST_FILES["dictionary"]))
    values = read_sentiment_labels(_user_file(labels, "sst_labels") or sst_file(sst_root, SST_FILES["labels"]))
    split = read_split(sst_file(sst_root, SST_FILES["split"]))
    trees = read_sostr_stree(sst_file(sst_root, SST_FILES["sostr"]), sst_file(sst_root, SST_FILES["stree"]))
    if len(trees) != len(split):
        raise DataError(f"{len(trees)} trees but datasetSplit.txt has {len(split)} sentences",
                        path=sst_file(sst_root, SST_FILES["sostr"]))
    kept, removed, unresolved, seen = [], [], [], set()
    for si, code in split.items():
        if code != 1:
            continue
        tokens, parents = trees[si - 1]
        spans = node_spans(len(tokens), parents)
        sent_text = " ".join(_ptb_token(t) for t in tokens)
        hit = m.find(sent_text) if m is not None else None
        if hit is not None:
            removed.append((f"sst7-train-s{si}", hit))
            continue
        for lo, hi in sorted(set(spans), key=lambda s: (s[1] - s[0], s[0]), reverse=True):
            raw = " ".join(tokens[lo:hi])
            text = " ".join(_ptb_token(t) for t in tokens[lo:hi])
            if text in seen:
                continue
            seen.add(text)
            pid = dictionary_map.get(raw)
            if pid is None:
                pid = dictionary_map.get(raw.replace("\\/", "/"), dictionary_map.get(text))
            if pid is None or pid >= len(values):
                unresolved.append(text)
                continue
            iid = f"sst7-train-p{pid}"
            kept.append(Item(iid, iid, "train", text, str(sst7_label(values[pid])),
                             meta={"phrase_id": pid, "sentence_index": si, "source": "sst-phrases"}))
    if unresolved:
        log.warning("SST-7 phrase-level train: %d node texts not in dictionary.txt (not used)", len(unresolved))
    return BuiltSplit(tuple(kept), tuple(removed), tuple(unresolved), "sst-phrases")


def _user_file(path: str | Path | None, option_name: str) -> Path | None:
    """A user-supplied SST file (suite option ``option_name``) as an existing Path, or None when not given."""
    if not path:
        return None
    p = Path(path).expanduser()
    if not p.is_file():
        raise DataError(f"the file given as suite option {option_name} does not exist", path=p)
    return p


def train_file_option(train_file: str | Path | None = None) -> Path | None:
    """The user-supplied training file as a Path (``~`` expanded), or None."""
    return Path(train_file).expanduser() if train_file else None


def resolve_train_source(data_dir: str | Path, train_file: str | Path | None, source: str | None,
                         dictionary: str | Path | None = None) -> str:
    """Which training source ``auto`` (or an explicit choice) resolves to; validates the choice.

    A user ``dictionary`` (suite option ``sst_dictionary``) makes ``auto`` phrase level unless a training
    file is in force.
    """
    source = (source or "auto").strip().lower()
    if source not in TRAIN_SOURCES:
        raise ConfigError(f"SST-7 train source {source!r} is not one of {list(TRAIN_SOURCES)} "
                          "(suite option train_source)")
    data_dir = Path(data_dir)
    if source == "auto":
        if train_file_option(train_file) is not None or (data_dir / SHIPPED["train"]).exists():
            return "file"
        if dictionary or (data_dir / SST_FILES["dictionary"]).exists():
            return "phrases"
        return "sentences"
    return source


def load_train(data_dir: str | Path, phrases, *, train_file: str | Path | None = None,
               source: str | None = None, dictionary: str | Path | None = None,
               labels: str | Path | None = None) -> BuiltSplit:
    """SST-7 training items for the resolved source (see the module docstring)."""
    src = resolve_train_source(data_dir, train_file, source, dictionary)
    if src == "file":
        f = train_file_option(train_file)
        if f is None:
            f = require_file(data_dir, SHIPPED["train"])
            return BuiltSplit(tuple(file_items(f, SHIPPED["train"])), (), (), "upstream-train.tsv")
        return BuiltSplit(tuple(file_items(f, "user-file")), (), (), "user-file")
    matcher = matcher_for(phrases)
    if src == "phrases":
        return build_sst7_phrases(data_dir, matcher, dictionary=dictionary, labels=labels)
    return build_sst7_sentences(data_dir, "train", matcher)
