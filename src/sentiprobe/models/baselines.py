"""Baseline models: majority and trainable scikit-learn text baselines.

- ``majority``: the most frequent training label (ties broken by the suite's label order);
- ``tfidf-lr``: tf-idf word and character n-grams of the text, plus (for ``text+aspect`` suites)
  distance-weighted features of the aspect's local context and the aspect term, plus (for
  ``text-pair`` suites) features of the second text and its word overlap with the first, then a
  logistic regression (lbfgs: deterministic, so ``seed_invariant``). Fitted state is JSON lists and
  numpy arrays (see ``text_features``; the vectorisers are scikit-learn's).
"""
from __future__ import annotations

from collections import Counter
from collections.abc import Callable, Sequence
from dataclasses import dataclass
from typing import Any, Literal

import numpy as np

from ..core.errors import ConfigError
from ..core.options import NoOptions, option
from ..core.types import Item, Prediction
from .base import LABEL_PRIOR, MODELS, ModelAdapter, State
from .text_features import (TfidfBlock, aspect_features, context_features, overlap_numbers,
                            relation_features)
from .utils import LinearHead, NotFittedError, labelled, predictions_from_proba


class MajorityModel(ModelAdapter):
    """Predicts the most frequent training label; scores are the training label frequencies."""

    name = "majority"
    learns = True
    capabilities = frozenset({"classify", LABEL_PRIOR})
    #: the fit counts labels: no seed involved (the runner fits once per multi-seed suite)
    seed_invariant = True

    def __init__(self) -> None:
        self.label: str | None = None
        self.counts: dict[str, int] = {}

    def fit(self, train: Sequence[Item], dev: Sequence[Item], labels: Sequence[str], *, input_kind: str,
            seed: int = 0) -> None:
        _, ys = labelled(train, labels)
        if not ys:
            raise ConfigError("majority: the training split has no labelled items")
        c = Counter(ys)
        self.counts = {lab: c.get(lab, 0) for lab in labels}
        top = max(c.values())
        self.label = next(lab for lab in labels if c.get(lab, 0) == top)
        self.fitted_input_kind = input_kind

    def get_state(self) -> State | None:
        if self.label is None:
            return None
        return {"label": self.label, "counts": self.counts, "input_kind": self.fitted_input_kind}, {}

    def load_state(self, state: State) -> None:
        meta, _ = state
        for key in ("label", "input_kind"):
            if key not in meta:
                raise ConfigError(f"majority: fitted state lacks {key!r}")
        self.label = str(meta["label"])
        self.counts = {str(k): int(v) for k, v in meta.get("counts", {}).items()}
        self.fitted_input_kind = str(meta["input_kind"])

    def classify(self, items: Sequence[Item], labels: Sequence[str], input_kind: str) -> list[Prediction]:
        if self.label is None:
            raise NotFittedError("majority: call fit() or load_state() before classify()")
        self.check_input_kind(input_kind)
        if self.label not in labels:
            raise ConfigError(f"majority: the fitted label {self.label!r} is not in {list(labels)}")
        total = sum(self.counts.get(lab, 0) for lab in labels)
        scores = {lab: (self.counts.get(lab, 0) / total if total else float(lab == self.label)) for lab in labels}
        return [Prediction(item_id=it.item_id, label=self.label, scores=dict(scores)) for it in items]


# ---- tf-idf + logistic regression -------------------------------------------------------------
C_GRID = (0.25, 1.0, 4.0, 16.0)


class TfidfLRModel(ModelAdapter):
    """Aspect-aware tf-idf n-grams + logistic regression (see the module docstring)."""

    name = "tfidf-lr"
    learns = True
    #: tf-idf + lbfgs logistic regression (deterministic; the seed is unused): fitted once per multi-seed suite
    seed_invariant = True

    def __init__(self, C: float | str = 4.0, class_weight: str | None = None, window: int = 6,
                 boundary_decay: float = 0.4, context_weight: float = 2.0, char: bool = True, char_min_df: int = 2,
                 max_iter: int = 2000) -> None:
        """Arguments as :class:`TfidfLROptions` declares them (``MODELS.create`` parses and checks them)."""
        self.auto_C = C == "auto"
        self.C = 1.0 if self.auto_C else float(C)
        self.class_weight = class_weight
        self.window = window
        self.boundary_decay = boundary_decay
        self.context_weight = context_weight
        self.char = char
        self.char_min_df = char_min_df
        self.max_iter = max_iter
        self.blocks: list[tuple[str, TfidfBlock]] = []
        self.head = LinearHead(self.C, self.class_weight, self.max_iter)

    def config(self) -> dict[str, Any]:
        return {"C": "auto" if self.auto_C else self.C, "class_weight": self.class_weight,
                "window": self.window, "boundary_decay": self.boundary_decay,
                "context_weight": self.context_weight, "char": self.char, "char_min_df": self.char_min_df,
                "max_iter": self.max_iter}

    # sources: how each block reads an item
    def _source(self, name: str) -> Callable[[Item], Any]:
        return {
            "text": lambda it: it.text,
            "pair": lambda it: it.text_pair or "",
            "ctx": lambda it: context_features(it, self.window, self.boundary_decay),
            "asp": aspect_features,
            "rel": relation_features,
        }[name]

    def _new_blocks(self, kind: str) -> list[tuple[str, TfidfBlock]]:
        blocks = [("text", TfidfBlock("word", (1, 2)))]
        if self.char:
            blocks.append(("text", TfidfBlock("char", (2, 5), min_df=self.char_min_df)))
        if kind == "text+aspect":
            blocks += [("ctx", TfidfBlock("dict", weight=self.context_weight)), ("asp", TfidfBlock("dict"))]
        elif kind == "text-pair":
            blocks.append(("pair", TfidfBlock("word", (1, 2))))
            if self.char:
                blocks.append(("pair", TfidfBlock("char", (2, 5), min_df=self.char_min_df)))
            blocks.append(("rel", TfidfBlock("dict")))
        return blocks

    def _features(self, items: Sequence[Item]):
        # heavy (seconds on a busy machine): only this path needs it, `import sentiprobe.api` stays light
        from scipy import sparse

        mats = [blk.transform([self._source(src)(it) for it in items]) for src, blk in self.blocks]
        if self.fitted_input_kind == "text-pair":
            mats.append(sparse.csr_matrix(np.array([overlap_numbers(it) for it in items]).reshape(len(items), 3)))
        return sparse.hstack(mats, format="csr")

    def fit(self, train: Sequence[Item], dev: Sequence[Item], labels: Sequence[str], *, input_kind: str,
            seed: int = 0) -> None:
        tr, ys = labelled(train, labels)
        if not tr:
            raise ConfigError("tfidf-lr: the training split has no labelled items")
        self.fitted_input_kind = input_kind
        self.blocks = self._new_blocks(input_kind)
        for src, blk in self.blocks:
            blk.fit([self._source(src)(it) for it in tr])
        X = self._features(tr)
        C = self.C
        dv, dys = labelled(dev, labels, "dev") if self.auto_C else ([], [])
        if self.auto_C and dv:
            Xd = self._features(dv)
            best: tuple[float, float] | None = None
            for c in C_GRID:
                h = LinearHead(c, self.class_weight, self.max_iter).fit(X, ys, seed)
                pred = np.array(h.classes)[h.predict_proba(Xd).argmax(1)]
                acc = float(np.mean(pred == np.array(dys)))
                if best is None or acc > best[0]:
                    best = (acc, c)
            assert best is not None  # the grid is never empty
            C = best[1]
        self.head = LinearHead(C, self.class_weight, self.max_iter).fit(X, ys, seed)

    def get_state(self) -> State | None:
        if not self.head.fitted:
            return None
        meta = {"input_kind": self.fitted_input_kind, "head": self.head.meta(),
                "window": self.window, "boundary_decay": self.boundary_decay,
                "blocks": [dict(blk.meta(), source=src) for src, blk in self.blocks]}
        arrays = {f"idf_{i}": blk.idf for i, (_, blk) in enumerate(self.blocks)}
        arrays.update(self.head.arrays())
        return meta, arrays

    def load_state(self, state: State) -> None:
        meta, arrays = state
        try:
            self.blocks = [(b["source"], TfidfBlock.from_state(b, arrays[f"idf_{i}"]))
                           for i, b in enumerate(meta["blocks"])]
            self.fitted_input_kind = str(meta["input_kind"])
            self.window = int(meta.get("window", self.window))
            self.boundary_decay = float(meta.get("boundary_decay", self.boundary_decay))
            hm = meta["head"]
        except (KeyError, ValueError) as exc:
            raise ConfigError(f"tfidf-lr: invalid fitted state ({exc})") from None
        self.head = LinearHead(hm.get("C", self.C), hm.get("class_weight"), self.max_iter).load(hm, arrays)

    def classify(self, items: Sequence[Item], labels: Sequence[str], input_kind: str) -> list[Prediction]:
        if not self.head.fitted:
            raise NotFittedError("tfidf-lr: call fit() or load_state() before classify()")
        self.check_input_kind(input_kind)
        if not items:
            return []
        proba = self.head.predict_proba(self._features(items))
        return predictions_from_proba(items, proba, self.head.classes, labels, self.name)


def _majority_factory() -> MajorityModel:
    return MajorityModel()


@dataclass(frozen=True)
class TfidfLROptions:
    """``--model-arg`` of ``tfidf-lr`` (and, with the lexicon arguments, ``tfidf-lr-lex``)."""

    C: float | Literal["auto"] = option(4.0, "inverse L2 strength; 'auto' picks from 0.25/1/4/16 by dev accuracy",
                                        lo=0.0, lo_open=True)
    class_weight: Literal["balanced"] | None = option(None, "logistic-regression class weights (balanced or none)")
    window: int = option(6, "tokens left/right of the aspect used as context features", lo=1, hi=100)
    boundary_decay: float = option(0.4, "context weight factor after a clause boundary (, ; but)", lo=0.0, hi=1.0)
    context_weight: float = option(2.0, "weight of the aspect-context block", lo=0.0)
    char: bool = option(True, "add character 2-5-gram features")
    char_min_df: int = option(2, "minimum document frequency of a character n-gram", lo=1)
    max_iter: int = option(2000, "logistic-regression iterations", lo=10)


MODELS.register("majority", _majority_factory, tags=("default", "baseline"), options=NoOptions,
                description="most frequent training label (ties broken by label order)")
MODELS.register(
    "tfidf-lr", TfidfLRModel, tags=("default", "baseline"), cost=100, options=TfidfLROptions,
    description="tf-idf word/char n-grams + aspect-context features + logistic regression (scikit-learn)")
