"""Sparse text features for the scikit-learn baselines, with state as JSON lists + numpy arrays.

The vectoriser is written here (not scikit-learn's ``TfidfVectorizer``) so that a fitted
vocabulary and idf vector round-trip exactly through ``get_state``/``load_state`` on any
scikit-learn version, and nothing is pickled. Weighting follows scikit-learn's defaults:
smooth idf ``ln((1 + n) / (1 + df)) + 1``, optional sublinear tf ``1 + ln(tf)``, rows L2-normalised.

Feature families (see :func:`item_features`):

- ``word``: word 1-2-grams of the text; ``char``: character 2-5-grams inside word boundaries;
- ``ctx``: the aspect's local context: words within ``window`` tokens left/right of the aspect span,
  weighted by ``1/distance`` and damped after a clause boundary (``,`` ``;`` ``but`` ...), plus
  direction-marked near words and context bigrams;
- ``asp``: the aspect term's words and the whole term;
- ``pair``/``rel``: for text pairs, words of the second text and their relation to the first
  (shared words, words only in the second text).
"""
from __future__ import annotations

import math
import re
from collections import Counter
from collections.abc import Iterable, Sequence
from typing import Any

import numpy as np

from ..core.types import Item

_TOKEN = re.compile(r"\w+(?:'\w+)*|[^\w\s]")
BOUNDARIES = frozenset({",", ";", ":", ".", "!", "?", "but", "however", "although", "though", "while",
                        "whereas", "except", "yet"})


def tokens_with_offsets(text: str) -> list[tuple[str, int, int]]:
    """Lower-cased word/punctuation tokens with their character offsets."""
    return [(m.group().lower(), m.start(), m.end()) for m in _TOKEN.finditer(text)]


def word_ngrams(text: str, ngram: tuple[int, int] = (1, 2)) -> list[str]:
    toks = [t for t, _, _ in tokens_with_offsets(text)]
    out: list[str] = []
    for n in range(ngram[0], ngram[1] + 1):
        out.extend(" ".join(toks[i:i + n]) for i in range(len(toks) - n + 1))
    return out


def char_ngrams(text: str, ngram: tuple[int, int] = (2, 5)) -> list[str]:
    """Character n-grams inside padded words (scikit-learn's ``char_wb``)."""
    out: list[str] = []
    for w in text.lower().split():
        w = f" {w} "
        for n in range(ngram[0], ngram[1] + 1):
            if n > len(w):
                break
            out.extend(w[i:i + n] for i in range(len(w) - n + 1))
    return out


def aspect_span(item: Item) -> tuple[int, int] | None:
    """The aspect's character span: the item's span when it matches the term, else its first occurrence."""
    if item.aspect is None:
        return None
    t = item.text
    if item.span is not None:
        a, b = item.span
        if 0 <= a < b <= len(t) and t[a:b].lower() == item.aspect.lower():
            return a, b
    k = t.lower().find(item.aspect.lower())
    if k >= 0:
        return k, k + len(item.aspect)
    if item.span is not None and 0 <= item.span[0] < item.span[1] <= len(t):
        return item.span  # offsets that do not match the term (ARTS edge cases): trust them
    return None


def context_features(item: Item, window: int = 6, boundary_decay: float = 0.4) -> dict[str, float]:
    """Distance-weighted words around the aspect span (see the module docstring)."""
    span = aspect_span(item)
    if span is None:
        return {}
    a, b = span
    toks = tokens_with_offsets(item.text)
    inside = [i for i, (_, s, e) in enumerate(toks) if s < b and e > a]
    if not inside:
        return {}
    first, last = inside[0], inside[-1]
    feats: dict[str, float] = {}

    def walk(indices: Iterable[int], side: str) -> None:
        damp, prev = 1.0, None
        for d, i in enumerate(indices, start=1):
            if d > window:
                break
            tok = toks[i][0]
            w = damp / d
            feats[f"c:{tok}"] = feats.get(f"c:{tok}", 0.0) + w
            if d <= 2:
                feats[f"{side}{d}:{tok}"] = 1.0
            if prev is not None:
                bg = f"cb:{tok} {prev}" if side == "L" else f"cb:{prev} {tok}"
                feats[bg] = feats.get(bg, 0.0) + w
            prev = tok
            if tok in BOUNDARIES:
                damp *= boundary_decay

    walk(range(first - 1, -1, -1), "L")
    walk(range(last + 1, len(toks)), "R")
    return feats


def aspect_features(item: Item) -> dict[str, float]:
    if item.aspect is None:
        return {}
    feats = {f"a:{t}": 1.0 for t, _, _ in tokens_with_offsets(item.aspect)}
    feats["A:" + " ".join(t for t, _, _ in tokens_with_offsets(item.aspect))] = 1.0
    return feats


def relation_features(item: Item) -> dict[str, float]:
    """Shared words and words only in the second text of a pair."""
    if item.text_pair is None:
        return {}
    t = {w for w, _, _ in tokens_with_offsets(item.text) if w.isalnum() or "'" in w}
    p = [w for w, _, _ in tokens_with_offsets(item.text_pair) if w.isalnum() or "'" in w]
    feats: dict[str, float] = {}
    for w in p:
        feats[("s:" if w in t else "o:") + w] = 1.0
    return feats


def overlap_numbers(item: Item) -> list[float]:
    """Dense pair features: share of pair words in the text, Jaccard, pair length (log)."""
    if item.text_pair is None:
        return [0.0, 0.0, 0.0]
    t = {w for w, _, _ in tokens_with_offsets(item.text)}
    p = {w for w, _, _ in tokens_with_offsets(item.text_pair)}
    if not p:
        return [0.0, 0.0, 0.0]
    inter = len(t & p)
    return [inter / len(p), inter / max(1, len(t | p)), math.log1p(len(p)) / 5.0]


# ---- a tf-idf block whose fitted state is a JSON list + an array ---------------------------------
class TfidfBlock:
    """One tf-idf feature block over either raw strings (``word``/``char``) or feature dicts (``dict``)."""

    def __init__(self, kind: str, ngram: tuple[int, int] = (1, 2), min_df: int = 1,
                 max_features: int | None = None, sublinear_tf: bool = True, weight: float = 1.0) -> None:
        if kind not in ("word", "char", "dict"):
            raise ValueError(f"unknown block kind {kind!r}")
        self.kind, self.ngram, self.min_df = kind, tuple(ngram), min_df
        self.max_features, self.sublinear_tf, self.weight = max_features, sublinear_tf, weight
        self.vocab: list[str] = []
        self.index: dict[str, int] = {}
        self.idf: np.ndarray = np.zeros(0)

    def analyse(self, doc: Any) -> dict[str, float]:
        if self.kind == "dict":
            return dict(doc)
        grams = word_ngrams(doc, self.ngram) if self.kind == "word" else char_ngrams(doc, self.ngram)
        return {k: float(v) for k, v in Counter(grams).items()}

    def fit(self, docs: Sequence[Any]) -> TfidfBlock:
        df: Counter[str] = Counter()
        for d in docs:
            df.update(self.analyse(d).keys())
        terms = [t for t, c in df.items() if c >= self.min_df]
        if self.max_features is not None and len(terms) > self.max_features:
            terms = sorted(terms, key=lambda t: (-df[t], t))[: self.max_features]
        self.vocab = sorted(terms)
        self.index = {t: i for i, t in enumerate(self.vocab)}
        n = len(docs)
        self.idf = np.array([math.log((1 + n) / (1 + df[t])) + 1.0 for t in self.vocab], dtype=np.float64)
        return self

    def transform(self, docs: Sequence[Any]):
        from scipy import sparse

        rows, cols, vals = [], [], []
        for r, d in enumerate(docs):
            feats = [(self.index[k], v) for k, v in self.analyse(d).items() if k in self.index and v > 0]
            if not feats:
                continue
            js = np.array([j for j, _ in feats])
            tf = np.array([v for _, v in feats], dtype=np.float64)
            if self.sublinear_tf:
                tf = np.where(tf > 1.0, 1.0 + np.log(np.maximum(tf, 1e-12)), tf)
            x = tf * self.idf[js]
            norm = float(np.sqrt((x * x).sum()))
            if norm > 0:
                x = x / norm * self.weight
            rows.extend([r] * len(js))
            cols.extend(js.tolist())
            vals.extend(x.tolist())
        return sparse.csr_matrix((vals, (rows, cols)), shape=(len(docs), len(self.vocab)), dtype=np.float64)

    def meta(self) -> dict[str, Any]:
        return {"kind": self.kind, "ngram": list(self.ngram), "min_df": self.min_df,
                "max_features": self.max_features, "sublinear_tf": self.sublinear_tf,
                "weight": self.weight, "vocab": list(self.vocab)}

    @classmethod
    def from_state(cls, meta: dict[str, Any], idf: np.ndarray) -> TfidfBlock:
        blk = cls(meta["kind"], tuple(meta["ngram"]), meta["min_df"], meta["max_features"],
                  meta["sublinear_tf"], meta["weight"])
        blk.vocab = list(meta["vocab"])
        blk.index = {t: i for i, t in enumerate(blk.vocab)}
        blk.idf = np.asarray(idf, dtype=np.float64)
        if blk.idf.shape != (len(blk.vocab),):
            raise ValueError(f"idf has shape {blk.idf.shape} for a vocabulary of {len(blk.vocab)}")
        return blk
