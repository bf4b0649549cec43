"""Constituent majority baselines of LexComp (docs/protocols/lexcomp.md#majority-baselines): ``majority-first``,
``majority-last``, ``majority-target`` and ``majority-word`` (Phrase Type).

The generic ``majority`` model (``baselines.py``) is the protocol's Majority-All: the LexComp suites declare
their labels alphabetically, so its "ties broken by label order" is the protocol's "alphabetically smallest".
They are in the default run: on a suite without constituents ``fit`` raises CapabilityError, so a bare
``sentiprobe run`` skips (and records) it. These models read the constituents the LexComp items carry in
``Item.meta`` (``first``, ``last``, ``target_word``) and share their logic with the suite's baseline table
(``protocols/lexcomp/baselines.py``).
"""
from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass
from typing import Any

from ..core.errors import CapabilityError, ConfigError
from ..core.options import option
from ..core.types import Item, Prediction
from ..protocols.lexcomp import baselines
from ..protocols.lexcomp.baselines import KEYS, TIES
from .base import LABEL_PRIOR, MODELS, ModelAdapter, State
from .utils import NotFittedError


class ConstituentMajority(ModelAdapter):
    """The most frequent training label among items sharing a constituent (docs/protocols/lexcomp.md#majority-baselines
    Majority-1/-2)."""

    name = "majority-constituent"
    learns = True
    #: ``tokens``: LexComp token items only (they carry the constituents); ``label-prior``: labels, not text
    capabilities = frozenset({"tokens", LABEL_PRIOR})

    def __init__(self, key: Any = "first", ties: Any = "alphabetical") -> None:
        if key not in KEYS and key != "word":
            raise ConfigError(f"key must be one of {[*KEYS, 'word']}, not {key!r}")
        if ties not in TIES:
            raise ConfigError(f"ties must be one of {list(TIES)}, not {ties!r}")
        self.key, self.ties = str(key), str(ties)
        self.fitted: dict[str, Any] | None = None

    def config(self) -> dict[str, Any]:
        return {"key": self.key, "ties": self.ties}

    def request(self, item: Item, labels: Sequence[str], input_kind: str = "tokens") -> dict[str, Any]:
        m = item.meta
        return {"tokens": list(item.tokens or ()), "first": m.get("first"), "last": m.get("last"),
                "target_word": m.get("target_word"), "labels": list(labels)}

    def fit(self, train: Sequence[Item], dev: Sequence[Item], labels: Sequence[str], *, input_kind: str | None = None,
            seed: int = 0) -> None:
        if self.key == "word":
            if any(it.meta.get("probe") != "tag" for it in train):
                raise CapabilityError("majority-word tags sentences: it runs on lexcomp-phrase-type only")
            self.fitted = {"words": baselines.fit_words(train, self.ties)}
            return
        need = "target_word" if self.key == "target" else self.key
        missing = [it.item_id for it in train if need not in it.meta]
        if missing:  # a capability error: a bare run skips suites without constituents
            raise CapabilityError(f"majority-{self.key}: items lack the constituent (a LexComp classification "
                                  f"suite is needed); first: {missing[:3]}")
        self.fitted = baselines.fit(train, self.key, self.ties)

    def get_state(self) -> State | None:
        return None if self.fitted is None else (self.fitted, {})

    def load_state(self, state: State) -> None:
        self.fitted = dict(state[0])

    def classify(self, items: Sequence[Item], labels: Sequence[str], input_kind: str | None = None) -> list[Prediction]:
        if self.fitted is None:
            raise NotFittedError(f"majority-{self.key}: call fit() first")
        if self.key == "word":
            return [Prediction(it.item_id, " ".join(baselines.tag_words(self.fitted["words"], it))) for it in items]
        return [Prediction(it.item_id, baselines.predict(self.fitted, it)) for it in items]


def _factory(key: str):
    def make(ties: Any = "alphabetical") -> ConstituentMajority:
        return ConstituentMajority(key, ties)

    return make


@dataclass(frozen=True)
class TiesOptions:
    """``--model-arg`` of the constituent baselines."""

    ties: str = option("alphabetical", "tie rule (docs/lexcomp.md; first-seen = the original notebooks)",
                       choices=("alphabetical", "first-seen"))


MODELS.register("majority-first", _factory("first"), tags=("default", "baseline"), options=TiesOptions,
                description="LexComp Majority-1: most frequent training label of the first constituent")
MODELS.register("majority-last", _factory("last"), tags=("default", "baseline"), options=TiesOptions,
                description="LexComp Majority-2: most frequent training label of the last constituent")
MODELS.register("majority-target", _factory("target"), tags=("baseline",), options=TiesOptions,
                description="LexComp NC literality: most frequent training label of the target word")
MODELS.register("majority-word", _factory("word"), tags=("default", "baseline"), options=TiesOptions,
                description="LexComp phrase type: most frequent training tag of each lower-cased word")
