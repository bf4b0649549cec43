"""The pure-Python tf-idf block sentiprobe used before scikit-learn's ``TfidfVectorizer`` (kept as a test oracle).

``tests/test_tfidf_sklearn.py`` checks that :class:`sentiprobe.models.text_features.TfidfBlock` (now built
on scikit-learn) gives the same vocabulary, idf and matrix values as this code did.
"""
from __future__ import annotations

import math
from collections import Counter
from collections.abc import Sequence
from typing import Any

import numpy as np

from sentiprobe.models.text_features import char_ngrams, word_ngrams


# ---- a tf-idf block whose fitted state is a JSON list + an array ---------------------------------
class ReferenceTfidfBlock:
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

    def fit(self, docs: Sequence[Any]) -> ReferenceTfidfBlock:
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
    def from_state(cls, meta: dict[str, Any], idf: np.ndarray) -> ReferenceTfidfBlock:
        blk = cls(meta["kind"], tuple(meta["ngram"]), meta["min_df"], meta["max_features"],
                  meta["sublinear_tf"], meta["weight"])
        blk.vocab = list(meta["vocab"])
        blk.index = {t: i for i, t in enumerate(blk.vocab)}
        blk.idf = np.asarray(idf, dtype=np.float64)
        if blk.idf.shape != (len(blk.vocab),):
            raise ValueError(f"idf has shape {blk.idf.shape} for a vocabulary of {len(blk.vocab)}")
        return blk
