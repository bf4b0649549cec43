"""Sparse text features for the scikit-learn baselines, with state as JSON lists + numpy arrays.

The vectorisers are scikit-learn's (``TfidfVectorizer``, ``DictVectorizer`` + ``TfidfTransformer``);
their fitted vocabulary and idf vector are exported as a JSON list + a numpy array, so a state
round-trips through ``get_state``/``load_state`` without pickling. Weighting: smooth idf
``ln((1 + n) / (1 + df)) + 1``, sublinear tf ``1 + ln(tf)``, rows L2-normalised.

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


# ---- a tf-idf block over scikit-learn whose fitted state is a JSON list + an array ----------------
def word_tokens(text: str) -> list[str]:
    """The word tokenizer of the ``word`` block (lower-cased word/punctuation tokens)."""
    return [m.group().lower() for m in _TOKEN.finditer(text)]


class TfidfBlock:
    """One tf-idf feature block over raw strings (``word``/``char``) or feature dicts (``dict``).

    ``word`` and ``char`` are scikit-learn ``TfidfVectorizer`` (word: this module's tokenizer, 1-2-grams;
    char: ``analyzer="char_wb"``); ``dict`` is ``DictVectorizer`` + ``TfidfTransformer`` where a feature
    value above 1 is damped to ``1 + ln(v)`` when ``sublinear_tf`` (values in (0, 1], distance weights,
    are kept: scikit-learn's sublinear tf would make them negative). Rows are L2-normalised, then
    multiplied by ``weight``. The fitted state is the vocabulary (JSON) and the idf vector (array), so
    nothing is pickled; ``tests/test_tfidf_sklearn.py`` proves the values equal the earlier own code.
    """

    def __init__(self, kind: str, ngram: tuple[int, int] = (1, 2), min_df: int = 1,
                 max_features: int | None = None, sublinear_tf: bool = True, weight: float = 1.0) -> None:
        if kind not in ("word", "char", "dict"):
            raise ValueError(f"unknown block kind {kind!r}")
        if max_features is not None:
            raise ValueError("max_features is not supported (scikit-learn ranks by term frequency, not df)")
        self.kind, self.ngram, self.min_df = kind, tuple(ngram), min_df
        self.max_features, self.sublinear_tf, self.weight = max_features, sublinear_tf, weight
        self.vocab: list[str] = []
        self.idf: np.ndarray = np.zeros(0)
        self._vec: Any = None
        self._dict: Any = None

    # ---- scikit-learn objects -----------------------------------------------------------------
    def _vectorizer(self, vocab: list[str] | dict[str, int] | None = None):
        # heavy (seconds on a busy machine): only this path needs it, `import sentiprobe.api` stays light
        from sklearn.feature_extraction.text import TfidfVectorizer

        common = {"ngram_range": self.ngram, "min_df": self.min_df, "sublinear_tf": self.sublinear_tf,
                  "smooth_idf": True, "norm": "l2", "dtype": np.float64, "vocabulary": vocab}
        if self.kind == "word":
            return TfidfVectorizer(tokenizer=word_tokens, token_pattern=None, lowercase=False, **common)
        return TfidfVectorizer(analyzer="char_wb", lowercase=True, **common)

    def _dict_counts(self, docs: Sequence[Any]):
        X = self._dict.transform([dict(d) for d in docs]).tocsr()
        X.data = X.data.astype(np.float64)
        if self.sublinear_tf:
            big = X.data > 1.0
            X.data[big] = 1.0 + np.log(X.data[big])
        return X

    def _dict_tfidf(self, counts):
        # heavy (seconds on a busy machine): only this path needs it, `import sentiprobe.api` stays light
        from sklearn.feature_extraction.text import TfidfTransformer

        t = TfidfTransformer(norm="l2", use_idf=True, smooth_idf=True, sublinear_tf=False)
        t.idf_ = self.idf
        counts = counts.copy()
        counts.data[counts.data < 0] = 0.0  # as the own code: non-positive values carry no weight
        counts.eliminate_zeros()
        return t.transform(counts)

    # ---- fit / transform ----------------------------------------------------------------------
    def fit(self, docs: Sequence[Any]) -> TfidfBlock:
        if self.kind != "dict":
            self._vec = self._vectorizer().fit(list(docs))
            self.vocab = self._vec.get_feature_names_out().tolist()
            self.idf = np.asarray(self._vec.idf_, dtype=np.float64)
            return self
        # heavy (seconds on a busy machine): only this path needs it, `import sentiprobe.api` stays light
        from sklearn.feature_extraction import DictVectorizer

        self._dict = DictVectorizer(dtype=np.float64, sort=True).fit([dict(d) for d in docs])
        X = self._dict.transform([dict(d) for d in docs]).tocsc()
        df = np.diff(X.indptr)  # documents where a key occurs (explicit zeros included, as before)
        keep = np.flatnonzero(df >= self.min_df)
        names = self._dict.get_feature_names_out()
        self._dict.restrict(np.isin(np.arange(len(names)), keep))
        n = len(docs)
        self.vocab = [str(x) for x in self._dict.get_feature_names_out()]
        self.idf = np.log((1.0 + n) / (1.0 + df[keep].astype(np.float64))) + 1.0
        return self

    def transform(self, docs: Sequence[Any]):
        if self.kind == "dict":
            X = self._dict_tfidf(self._dict_counts(docs))
        else:
            X = self._vec.transform(list(docs))
        X = X.tocsr().astype(np.float64)
        if self.weight != 1.0:
            X = X * self.weight
        return X

    # ---- state --------------------------------------------------------------------------------
    def meta(self) -> dict[str, Any]:
        return {"kind": self.kind, "ngram": list(self.ngram), "min_df": self.min_df,
                "max_features": self.max_features, "sublinear_tf": self.sublinear_tf,
                "weight": self.weight, "vocab": list(self.vocab)}

    @classmethod
    def from_state(cls, meta: dict[str, Any], idf: np.ndarray) -> TfidfBlock:
        blk = cls(meta["kind"], tuple(meta["ngram"]), meta["min_df"], meta["max_features"],
                  meta["sublinear_tf"], meta["weight"])
        blk.vocab = [str(t) for t in meta["vocab"]]
        blk.idf = np.asarray(idf, dtype=np.float64)
        if blk.idf.shape != (len(blk.vocab),):
            raise ValueError(f"idf has shape {blk.idf.shape} for a vocabulary of {len(blk.vocab)}")
        if len(set(blk.vocab)) != len(blk.vocab):
            raise ValueError("the vocabulary has duplicate terms")
        if blk.kind == "dict":
            # heavy (seconds on a busy machine): only this path needs it, `import sentiprobe.api` stays light
            from sklearn.feature_extraction import DictVectorizer

            blk._dict = DictVectorizer(dtype=np.float64, sort=True)
            blk._dict.feature_names_ = list(blk.vocab)
            blk._dict.vocabulary_ = {t: i for i, t in enumerate(blk.vocab)}
        else:
            blk._vec = blk._vectorizer({t: i for i, t in enumerate(blk.vocab)})
            blk._vec.idf_ = blk.idf
        return blk
