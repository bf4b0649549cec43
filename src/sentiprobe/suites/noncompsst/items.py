"""Items of the two suites, the stimulus text a model sees (docs/protocols/noncompsst.md#model-input), and cached
loading.

Stimulus items: one per line of ``stimuli_flat.txt`` (``item_id = L<line>``, 0-based, 4 digits;
``group_id = P<phrase>``), ``kind`` = ``natural`` / ``control-left`` / ``control-right``, label =
the rounded human mean sentiment for the natural phrase, None for controls (no public rating).

Model input (docs/protocols/noncompsst.md#model-input): the reference tokenises each stimulus with stanza and
lower-cases it. stanza is not a dependency; :func:`ptb_tokenize` splits what stanza splits in these stimuli (clitics
``'s 're n't ...``, a final possessive ``'``, ``: ; , ! ? ( ) "``). Both steps are suite options
(``lowercase`` / ``tokenize``, default on; :mod:`.options`).
"""
from __future__ import annotations

import functools
import re
from pathlib import Path

from ...core.types import Item
from ...data import require_file
from .load import LINES_PER_PHRASE, ROLES, NonCompSST, load_noncompsst
from .metrics import round_half_up
from .sst7 import BuiltSplit, load_train, resolve_train_source, shipped_items, train_file_option

_PUNCT = re.compile(r'([:;,!?()"])')
_NT = re.compile(r"(\w)(n't)\b", re.IGNORECASE)
_CLITIC = re.compile(r"(\w)('(?:s|re|ve|ll|d|m))\b", re.IGNORECASE)
_POSS = re.compile(r"(\w)'(?=\s|$)")


def ptb_tokenize(text: str) -> str:
    """PTB-style tokenisation of a stimulus, tokens joined by single spaces (``son's`` -> ``son 's``)."""
    s = _PUNCT.sub(r" \1 ", text)
    s = _NT.sub(r"\1 \2", s)
    s = _CLITIC.sub(r"\1 \2", s)
    s = _POSS.sub(r"\1 '", s)
    return " ".join(s.split())


def stimulus_text(stimulus: str, *, lowercase: bool = True, tokenize: bool = True) -> str:
    """The text a model is given for a stimulus (docs/protocols/noncompsst.md#model-input)."""
    s = ptb_tokenize(stimulus) if tokenize else stimulus
    return s.lower() if lowercase else s


def stimulus_items(data: NonCompSST, *, lowercase: bool = True, tokenize: bool = True) -> list[Item]:
    """One item per line of ``stimuli_flat.txt`` (see the module docstring)."""
    out = []
    for i, s in enumerate(data.lines):
        k, j = divmod(i, LINES_PER_PHRASE)
        p = data.phrases[k]
        role = ROLES[j]
        kind = "natural" if j == 0 else ("control-left" if j <= 3 else "control-right")
        label = str(round_half_up(data.human[p.text].sentiment)) if j == 0 else None
        out.append(Item(f"L{i:04d}", f"P{k:03d}", "test", stimulus_text(s, lowercase=lowercase, tokenize=tokenize),
                        label, kind=kind,
                        meta={"line": i, "phrase": k, "role": role, "stimulus": s, "phrase_text": p.text,
                              "ungrammatical": data.flags[s]}))
    return out


@functools.lru_cache(maxsize=4)
def _load_cached(root: str, mtime: float) -> NonCompSST:
    return load_noncompsst(root)


def cached_noncompsst(data_dir: str | Path) -> NonCompSST:
    """:func:`load_noncompsst`, cached per data dir (and the flat file's modification time)."""
    flat = require_file(data_dir, "noncompsst/noncompsst/stimuli_flat.txt")
    return _load_cached(str(Path(data_dir)), flat.stat().st_mtime)


@functools.lru_cache(maxsize=4)
def _train_cached(root: str, train_file: str | None, source: str, stamp: tuple[float, ...],
                  dictionary: str | None = None, labels: str | None = None) -> BuiltSplit:
    data = cached_noncompsst(root)
    return load_train(root, data.phrases, train_file=train_file, source=source, dictionary=dictionary,
                      labels=labels)


def _mtime(p: Path | None) -> float:
    return p.stat().st_mtime if p is not None and p.exists() else 0.0


def cached_train(data_dir: str | Path, train_file: str | Path | None = None, source: str | None = None,
                 dictionary: str | Path | None = None, labels: str | Path | None = None) -> BuiltSplit:
    """SST-7 training split (see :func:`sst7.load_train`), cached per data dir and options.

    ``dictionary`` / ``labels``: user-supplied SST ``dictionary.txt`` / ``sentiment_labels.txt`` for the
    phrase-level train (suite options ``sst_dictionary`` / ``sst_labels``).
    """
    src = resolve_train_source(data_dir, train_file, source, dictionary)
    f = train_file_option(train_file)
    d, lab = train_file_option(dictionary), train_file_option(labels)
    stamp = (_mtime(f), _mtime(d), _mtime(lab))
    return _train_cached(str(Path(data_dir)), str(f) if f else None, src, stamp, str(d) if d else None,
                         str(lab) if lab else None)


def sst7_split_items(data_dir: str | Path, split: str, train_file=None, source=None, dictionary=None,
                     labels=None) -> list[Item]:
    """SST-7 items of a split: train from :func:`cached_train`, dev/test the shipped files."""
    if split == "train":
        return list(cached_train(data_dir, train_file, source, dictionary, labels).items)
    if split in ("dev", "test"):
        return shipped_items(data_dir, split)
    return []
