"""Lexicon model adapters.

Lexicon features come with the items: a suite that supports them (``sentivent-polar``,
``sentivent-clause``) fills the typed field ``Item.features``, a dict feature name -> float with the same
keys for every item (docs/protocols/sentivent.md#lexicon-features). These adapters use them:

- ``tfidf-lr-lex``: the ``tfidf-lr`` baseline with the lexicon features appended to its sparse feature
  matrix, standardised with the training mean / sd and scaled by ``lex_weight / sqrt(#columns)`` so the
  block's squared norm is comparable to one L2-normalised tf-idf block (unscaled, the dense block slows the
  logistic regression down about fivefold for no accuracy gain);
- ``minilm-lr-lex``: ``minilm-lr`` (frozen MiniLM + logistic regression) with the lexicon features appended
  to the sentence vector (standardised with it; the lexicon columns then times ``lex_weight``);
- ``lexicon-score``: no training; the sign of one lexicon score (default the economic polarity combination
  ``econcombo_polarity-seqnormsum``) gives positive / negative, |score| <= threshold gives ``zero_label``;
- ``vader``: no training; the general-domain VADER compound score of the text (``vaderSentiment`` package,
  extra ``lexicon``; thresholds +-0.05 as recommended by its authors). Clearly general-domain: social-media
  valences, not economic sentiment.

``lexicon_features`` (the paper's feature group hyper-parameter) selects columns by substring:
``pol`` (market_sentiment, polarity), ``posnegneupol`` (positive, negative, neutral, posemo, negemo,
market_sentiment, polarity) or ``all``. The classes wrapping ``tfidf-lr`` and ``minilm-lr`` are built
lazily from :mod:`sentiprobe.models.baselines` and :mod:`sentiprobe.models.encoder_models`.
"""
from __future__ import annotations

import functools
import importlib.metadata as md
from collections.abc import Sequence
from dataclasses import dataclass
from typing import Any

import numpy as np

from ..core.errors import ConfigError, MissingExtraError
from ..core.options import option
from ..core.types import Item, Prediction
from .base import MODELS, ModelAdapter, State
from .baselines import TfidfLRModel, TfidfLROptions
from .encoder_models import MiniLMLRModel, MiniLMLROptions
from .utils import labelled

FEATURE_GROUPS: dict[str, tuple[str, ...] | None] = {
    "pol": ("market_sentiment", "polarity"),
    "posnegneupol": ("positive", "negative", "neutral", "posemo", "negemo", "market_sentiment", "polarity"),
    "all": None,
}
NO_FEATURES = ("needs lexicon features in Item.features; use a suite that provides them "
               "(sentivent-polar, sentivent-clause with lexicon features on)")


def feature_group_columns(names: Sequence[str], group: str) -> list[str]:
    """The columns of ``names`` in a feature group (substring match; ``all`` keeps every column)."""
    if group not in FEATURE_GROUPS:
        raise ConfigError(f"lexicon_features must be one of {', '.join(FEATURE_GROUPS)}; got {group!r}")
    keys = FEATURE_GROUPS[group]
    return list(names) if keys is None else [c for c in names if any(k in c for k in keys)]


def lexicon_matrix(items: Sequence[Item], columns: Sequence[str], model: str) -> np.ndarray:
    """``items x columns`` matrix of ``Item.features``; a missing dict or column is a ConfigError."""
    out = np.empty((len(items), len(columns)))
    for i, it in enumerate(items):
        f = it.features
        if not isinstance(f, dict):
            raise ConfigError(f"{model}: item {it.item_id!r} has no lexicon features; {model} {NO_FEATURES}")
        try:
            out[i] = [f[c] for c in columns]
        except KeyError as exc:
            raise ConfigError(f"{model}: item {it.item_id!r} lacks lexicon feature {exc.args[0]!r} "
                              "(was the model fitted with another lexicon setting?)") from None
    return out


class LexiconColumnsMixin:
    """Shared state of the ``*-lex`` adapters: the chosen feature columns (decided at fit time)."""

    name: str
    request_uses_state = True  # the request lists the feature columns chosen at fit time

    def _init_lexicon(self, lexicon_features: str, lex_weight: float) -> None:
        self.lexicon_features = lexicon_features
        self.lex_weight = lex_weight
        self.lex_columns: list[str] | None = None

    def _lex_config(self) -> dict[str, Any]:
        return {"lexicon_features": self.lexicon_features, "lex_weight": self.lex_weight}

    def _choose_columns(self, train: Sequence[Item]) -> None:
        first = next((it for it in train if isinstance(it.features, dict)), None)
        if first is None:
            raise ConfigError(f"{self.name}: the training items have no lexicon features; {self.name} {NO_FEATURES}")
        cols = feature_group_columns(list(first.features or {}), self.lexicon_features)
        if not cols:
            raise ConfigError(f"{self.name}: no lexicon feature matches group {self.lexicon_features!r}")
        self.lex_columns = cols

    def _lex(self, items: Sequence[Item]) -> np.ndarray:
        if self.lex_columns is None:
            raise ConfigError(f"{self.name}: not fitted (no lexicon columns)")
        return lexicon_matrix(items, self.lex_columns, self.name)

    def _lex_request(self, d: dict[str, Any], item: Item) -> dict[str, Any]:
        f = item.features
        d["features"] = None if not isinstance(f, dict) else [f.get(c) for c in (self.lex_columns or sorted(f))]
        return d

    def _lex_meta(self) -> dict[str, Any]:
        return {"columns": list(self.lex_columns or []), "group": self.lexicon_features, "weight": self.lex_weight}

    def _restore_lex(self, meta: dict[str, Any]) -> None:
        lex = meta.get("lexicon")
        if not isinstance(lex, dict) or not lex.get("columns"):
            raise ConfigError(f"{self.name}: fitted state lacks the lexicon columns")
        self.lex_columns = [str(c) for c in lex["columns"]]
        self.lexicon_features = str(lex.get("group", self.lexicon_features))
        self.lex_weight = float(lex.get("weight", self.lex_weight))


class TfidfLexMixin(LexiconColumnsMixin):
    """Appends standardised lexicon features to ``tfidf-lr``'s sparse matrix."""

    def __init__(self, lexicon_features: str = "all", lex_weight: float = 1.0, **kwargs: Any) -> None:
        super().__init__(**kwargs)  # type: ignore[call-arg]
        self._init_lexicon(lexicon_features, lex_weight)
        self.lex_mu: np.ndarray | None = None
        self.lex_sd: np.ndarray | None = None

    def config(self) -> dict[str, Any]:
        return {**super().config(), **self._lex_config()}  # type: ignore[misc]

    def request(self, item: Item, labels: Sequence[str], input_kind: str) -> dict[str, Any]:
        return self._lex_request(super().request(item, labels, input_kind), item)  # type: ignore[misc]

    def _features(self, items: Sequence[Item]):
        # heavy (seconds on a busy machine): only this path needs it, `import sentiprobe.api` stays light
        from scipy import sparse

        base = super()._features(items)  # type: ignore[misc]
        scale = self.lex_weight / np.sqrt(len(self.lex_columns or [1]))
        L = (self._lex(items) - self.lex_mu) / self.lex_sd * scale
        return sparse.hstack([base, sparse.csr_matrix(L)], format="csr")

    def fit(self, train: Sequence[Item], dev: Sequence[Item], labels: Sequence[str], *, input_kind: str,
            seed: int = 0) -> None:
        tr, _ = labelled(train, labels)
        self._choose_columns(tr)
        L = self._lex(tr)
        self.lex_mu, self.lex_sd = L.mean(axis=0), L.std(axis=0) + 1e-6
        super().fit(train, dev, labels, input_kind=input_kind, seed=seed)  # type: ignore[misc]

    def get_state(self) -> State | None:
        st = super().get_state()  # type: ignore[misc]
        if st is None:
            return None
        meta, arrays = st
        return {**meta, "lexicon": self._lex_meta()}, {**arrays, "lex_mu": self.lex_mu, "lex_sd": self.lex_sd}

    def load_state(self, state: State) -> None:
        super().load_state(state)  # type: ignore[misc]
        meta, arrays = state
        self._restore_lex(meta)
        try:
            self.lex_mu = np.asarray(arrays["lex_mu"], dtype=np.float64)
            self.lex_sd = np.asarray(arrays["lex_sd"], dtype=np.float64)
        except KeyError as exc:
            raise ConfigError(f"{self.name}: fitted state lacks {exc.args[0]!r}") from None


class EncoderLexMixin(LexiconColumnsMixin):
    """Appends lexicon features to ``minilm-lr``'s sentence vectors (standardised with them, then the lexicon
    columns are multiplied by ``lex_weight``)."""

    def __init__(self, lexicon_features: str = "all", lex_weight: float = 1.0, **kwargs: Any) -> None:
        super().__init__(**kwargs)  # type: ignore[call-arg]
        self._init_lexicon(lexicon_features, lex_weight)
        self._base_only = False

    def config(self) -> dict[str, Any]:
        return {**super().config(), **self._lex_config()}  # type: ignore[misc]

    def request(self, item: Item, labels: Sequence[str], input_kind: str) -> dict[str, Any]:
        return self._lex_request(super().request(item, labels, input_kind), item)  # type: ignore[misc]

    def _raw_features(self, items: Sequence[Item], kind: str) -> np.ndarray:
        X = super()._raw_features(items, kind)  # type: ignore[misc]
        if self._base_only:
            return X
        return np.hstack([X, self._lex(items)])

    def _train_features(self, items: Sequence[Item], kind: str) -> np.ndarray:
        # the base memo is keyed on the texts only: memoise encoder features, append the lexicon after
        self._base_only = True
        try:
            X = super()._train_features(items, kind)  # type: ignore[misc]
        finally:
            self._base_only = False
        return np.hstack([X, self._lex(items)])

    def _scale(self, X: np.ndarray) -> np.ndarray:
        Z = super()._scale(X)  # type: ignore[misc]
        k = len(self.lex_columns or [])
        if k and self.lex_weight != 1.0:
            Z = Z.copy()
            Z[:, -k:] *= self.lex_weight
        return Z

    def fit(self, train: Sequence[Item], dev: Sequence[Item], labels: Sequence[str], *, input_kind: str,
            seed: int = 0) -> None:
        tr, _ = labelled(train, labels)
        self._choose_columns(tr)
        super().fit(train, dev, labels, input_kind=input_kind, seed=seed)  # type: ignore[misc]

    def get_state(self) -> State | None:
        st = super().get_state()  # type: ignore[misc]
        if st is None:
            return None
        meta, arrays = st
        return {**meta, "lexicon": self._lex_meta()}, arrays

    def load_state(self, state: State) -> None:
        super().load_state(state)  # type: ignore[misc]
        self._restore_lex(state[0])


@functools.cache
def tfidf_lr_lex_class() -> type:
    """``tfidf-lr-lex``: built on first use from ``sentiprobe.models.baselines.TfidfLRModel``."""
    return type("TfidfLRLexModel", (TfidfLexMixin, TfidfLRModel),
                {"name": "tfidf-lr-lex", "__doc__": "tfidf-lr + lexicon features (see sentiprobe.models.lexicon)",
                 "__module__": __name__})


@functools.cache
def minilm_lr_lex_class() -> type:
    """``minilm-lr-lex``: built on first use from ``sentiprobe.models.encoder_models.MiniLMLRModel``."""
    return type("MiniLMLRLexModel", (EncoderLexMixin, MiniLMLRModel),
                {"name": "minilm-lr-lex", "__doc__": "minilm-lr + lexicon features (see sentiprobe.models.lexicon)",
                 "__module__": __name__})


class LexiconScoreModel(ModelAdapter):
    """Sign of one lexicon score (no training): > threshold positive, < -threshold negative, else ``zero_label``."""

    name = "lexicon-score"

    def __init__(self, feature: str = "econcombo_polarity-seqnormsum", threshold: float = 0.0,
                 zero_label: str = "neutral") -> None:
        self.feature = feature
        self.threshold = threshold
        self.zero_label = zero_label

    def config(self) -> dict[str, Any]:
        return {"feature": self.feature, "threshold": self.threshold, "zero_label": self.zero_label}

    def request(self, item: Item, labels: Sequence[str], input_kind: str) -> dict[str, Any]:
        f = item.features
        score = f.get(self.feature) if isinstance(f, dict) else None
        return {**super().request(item, labels, input_kind), "score": score}

    def classify(self, items: Sequence[Item], labels: Sequence[str], input_kind: str) -> list[Prediction]:
        for lab in ("positive", "negative", self.zero_label):
            if lab not in labels:
                raise ConfigError(f"{self.name}: label {lab!r} is not in the suite's labels {list(labels)}")
        v = lexicon_matrix(items, [self.feature], self.name)[:, 0]
        out = []
        for it, x in zip(items, v):
            lab = "positive" if x > self.threshold else "negative" if x < -self.threshold else self.zero_label
            out.append(Prediction(it.item_id, lab, raw=f"{self.feature}={x:.6g}"))
        return out


class VaderModel(ModelAdapter):
    """VADER compound score of the text (general domain): >= pos_threshold positive, <= -neg negative."""

    name = "vader"

    def __init__(self, threshold: float = 0.05) -> None:
        self.threshold = threshold
        try:
            # optional extra [lexicon], heavy: imported only when used
            from vaderSentiment.vaderSentiment import SentimentIntensityAnalyzer
        except ImportError as exc:
            raise MissingExtraError("vaderSentiment", "lexicon", "the vader model") from exc
        self.analyzer = SentimentIntensityAnalyzer()

    def config(self) -> dict[str, Any]:
        return {"threshold": self.threshold, "vaderSentiment": md.version("vaderSentiment")}

    def classify(self, items: Sequence[Item], labels: Sequence[str], input_kind: str) -> list[Prediction]:
        if "positive" not in labels or "negative" not in labels:
            raise ConfigError(f"vader: needs 'positive' and 'negative' among the labels, got {list(labels)}")
        out = []
        for it in items:
            s = self.analyzer.polarity_scores(it.text)
            c = s["compound"]
            if "neutral" in labels:
                lab = "positive" if c >= self.threshold else "negative" if c <= -self.threshold else "neutral"
            else:
                lab = "positive" if c >= 0 else "negative"
            scores = {lab_: 0.0 for lab_ in labels}
            scores.update({"positive": s["pos"], "negative": s["neg"]})
            if "neutral" in labels:
                scores["neutral"] = s["neu"]
            out.append(Prediction(it.item_id, lab, scores=scores, raw=f"compound={c}"))
        return out


@dataclass(frozen=True)
class LexiconOptions:
    """The lexicon arguments of the ``*-lex`` adapters."""

    lexicon_features: str = option("all", "lexicon feature group (substring match on the names)",
                                   choices=tuple(FEATURE_GROUPS))
    lex_weight: float = option(1.0, "multiplier of the lexicon block (tfidf-lr-lex: of the standardised block "
                                    "divided by sqrt(#columns); minilm-lr-lex: of the raw values before "
                                    "standardisation)", lo=0.0)


@dataclass(frozen=True)
class TfidfLRLexOptions(TfidfLROptions, LexiconOptions):
    """``--model-arg`` of ``tfidf-lr-lex``: the lexicon's and ``tfidf-lr``'s."""


@dataclass(frozen=True)
class MiniLMLRLexOptions(MiniLMLROptions, LexiconOptions):
    """``--model-arg`` of ``minilm-lr-lex``: the lexicon's and ``minilm-lr``'s."""


@dataclass(frozen=True)
class LexiconScoreOptions:
    feature: str = option("econcombo_polarity-seqnormsum", "item feature used as the score")
    threshold: float = option(0.0, "|score| <= threshold gives zero_label", lo=0.0)
    zero_label: str = option("neutral", "label for scores within the threshold")


@dataclass(frozen=True)
class VaderOptions:
    threshold: float = option(0.05, "|compound| below it is neutral", lo=0.0, hi=1.0)


MODELS.register("tfidf-lr-lex", lambda **kw: tfidf_lr_lex_class()(**kw), tags=("lexicon", "baseline"),
                description="tfidf-lr + the suite's lexicon features (SENTiVENT suites)", options=TfidfLRLexOptions)
MODELS.register("minilm-lr-lex", lambda **kw: minilm_lr_lex_class()(**kw), tags=("lexicon", "encoder"),
                description="minilm-lr + the suite's lexicon features (SENTiVENT suites)", options=MiniLMLRLexOptions)
MODELS.register("lexicon-score", LexiconScoreModel, tags=("lexicon", "baseline"), options=LexiconScoreOptions,
                description="sign of a lexicon polarity score from item features (no training)")
MODELS.register("vader", VaderModel, tags=("lexicon", "baseline"), options=VaderOptions,
                description="VADER compound score, general-domain lexicon (extra: lexicon)")
