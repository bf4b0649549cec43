"""Adapters over a frozen encoder (:mod:`sentiprobe.models.encoders`).

- ``minilm-lr``: features from the frozen packaged all-MiniLM-L6-v2, then a seeded logistic
  regression on standardised features. For ``text+aspect`` items the aspect is marked in the
  sentence (``Nice [screen], keyboard ...``) and the sentence is mean-pooled over the
  second-to-last layer (5 of 6).
  These defaults (and ``C=0.01``) were chosen by 5-fold cross-validation on the ARTS laptop train
  split: marking beat (sentence, aspect) pair encoding (0.759 vs 0.750), layer 5 beat the last
  layer (0.759 vs 0.728) and appending the mean vector of the aspect's tokens
  (``aspect_pool=true``) did not help (0.743). For ``text-pair`` items the two texts are encoded
  separately and combined as ``[u, v, |u - v|, u * v]``.
- ``minilm``: the frozen encoder alone (``embed`` per-layer word vectors for probes).

State: ``coef``/``intercept`` (+ standardisation ``mu``/``sd``) arrays and the encoder identity
(package version + sha256 of the weights), which enters the fingerprint through ``config()``.

Encodings are shared: the runner's ``set_workdir`` gives the encoder an on-disk
:class:`~sentiprobe.models.embed_store.EmbeddingStore` (``<workdir>/embeddings``), so a text is encoded
once per encoder configuration for every suite, seed and model (``minilm-lr`` with different heads) that
uses it; a SOUL review asked about in many statements is encoded once. The fit is deterministic (lbfgs
ignores the seed), so ``seed_invariant`` lets the runner fit once per multi-seed suite.
"""
from __future__ import annotations

import importlib.util
from collections.abc import Sequence
from dataclasses import dataclass
from pathlib import Path
from typing import Any, Literal

import numpy as np

from ..core.errors import ConfigError
from ..core.options import option
from ..core.types import Item, Prediction
from .base import MODELS, ModelAdapter, State
from .embed_store import open_store
from .encoders import TextEncoder, get_encoder
from .onnx_backend import BACKENDS, quantization
from .text_features import aspect_span
from .utils import LinearHead, NotFittedError, labelled, predictions_from_proba

ASPECT_INPUTS = ("mark", "pair", "mark+pair")
#: the default encoder backend of minilm-lr on the CPU: ONNX Runtime with per-channel dynamic int8 weights,
#: twice as fast as fp32; parity: pooled vectors at cosine >= 0.98 to torch (tests/test_onnx_backend.py) and
#: every main-job metric inside the 95% CI of the fp32 run (docs/performance.md, "The main job"); backend=onnx is fp32
DEFAULT_BACKEND = "onnx-int8"


def marked(item: Item, left: str = "[", right: str = "]") -> tuple[str, tuple[int, int] | None]:
    """The sentence with the aspect marked, and the aspect's span inside the marked sentence."""
    span = aspect_span(item)
    t = item.text
    if item.aspect is None:
        return t, None
    if span is None:
        s = f"{t} {left}"
        return f"{s}{item.aspect}{right}", (len(s), len(s) + len(item.aspect))
    a, b = span
    return f"{t[:a]}{left}{t[a:b]}{right}{t[b:]}", (a + len(left), b + len(left))


def _encoder_kwargs(layer: int, pooling: str, normalize: bool, max_length: int, batch_size: int, device: str,
                    threads: int | None, backend: str = "torch") -> dict[str, Any]:
    return {"layer": layer, "pooling": pooling, "normalize": normalize, "max_length": max_length,
            "batch_size": batch_size, "device": str(device), "threads": threads, "backend": backend}


def _default_backend(backend: Any, device: Any) -> Any:
    """``auto`` (the default): ONNX Runtime on the CPU when installed (extra ``onnx``), else torch."""
    if backend in (None, "", "auto"):
        have = all(importlib.util.find_spec(m) is not None for m in ("onnxruntime", "onnxscript"))
        return DEFAULT_BACKEND if have and str(device).strip().lower() == "cpu" else "torch"
    return backend


def _share_encodings(encoder: TextEncoder, workdir: Path) -> None:
    """Point the encoder at the on-disk embedding store (and ONNX export directory) under ``workdir``."""
    encoder.set_store(open_store(Path(workdir) / "embeddings"), Path(workdir) / "onnx")


class MiniLMLRModel(ModelAdapter):
    """Frozen MiniLM features + logistic regression (see the module docstring)."""

    name = "minilm-lr"
    learns = True
    #: frozen features + lbfgs logistic regression: the fit does not depend on the seed
    seed_invariant = True
    capabilities = frozenset({"classify", "embed"})

    def __init__(self, aspect_input: str = "mark", aspect_pool: bool = False, C: float = 0.01,
                 class_weight: str | None = None, standardize: bool = True, layer: int = -2, pooling: str = "mean",
                 normalize: bool = False, max_length: int = 256, batch_size: int = 64, threads: int | None = None,
                 device: str = "cpu", encoder_path: str | None = None, max_iter: int = 3000,
                 backend: str = "auto") -> None:
        """Arguments as :class:`MiniLMLROptions` declares them (``MODELS.create`` parses and checks them)."""
        self.aspect_input = aspect_input
        self.aspect_pool = aspect_pool
        self.C = C
        self.class_weight = class_weight
        self.standardize = standardize
        self.max_iter = max_iter
        kw = _encoder_kwargs(layer, pooling, normalize, max_length, batch_size, device, threads,
                             _default_backend(backend, device))
        self.batch_size = kw["batch_size"]
        self.backend = kw["backend"]
        self.encoder_path = None if encoder_path in (None, "", "none") else str(encoder_path)
        self.encoder: TextEncoder = get_encoder(self.encoder_path, **kw)
        self.head = LinearHead(self.C, self.class_weight, self.max_iter)
        self.mu: np.ndarray | None = None
        self.sd: np.ndarray | None = None

    def config(self) -> dict[str, Any]:
        return {"encoder": self.encoder.identity(), "encoder_options": self.encoder.options(),
                "aspect_input": self.aspect_input, "aspect_pool": self.aspect_pool, "C": self.C,
                "class_weight": self.class_weight, "standardize": self.standardize, "max_iter": self.max_iter,
                "backend": self.backend,
                **({"quantization": quantization(self.backend)} if quantization(self.backend) else {})}

    def set_workdir(self, path: Path) -> None:
        _share_encodings(self.encoder, path)

    # ---- features --------------------------------------------------------------------------------
    def _raw_features(self, items: Sequence[Item], kind: str) -> np.ndarray:
        enc = self.encoder
        if kind == "text-pair":
            n = len(items)
            both = enc.encode([it.text for it in items] + [it.text_pair or "" for it in items])
            u, v = both[:n], both[n:]
            return np.hstack([u, v, np.abs(u - v), u * v])
        if kind != "text+aspect":
            return enc.encode([it.text for it in items])
        texts, pairs, spans = [], [], []
        for it in items:
            if self.aspect_input == "pair":
                texts.append(it.text)
                spans.append(aspect_span(it))
            else:
                t, s = marked(it)
                texts.append(t)
                spans.append(s)
            pairs.append(it.aspect or "" if self.aspect_input != "mark" else None)
        use_pairs = pairs if self.aspect_input != "mark" else None
        return enc.encode(texts, use_pairs, spans if self.aspect_pool else None)

    def _train_features(self, items: Sequence[Item], kind: str) -> np.ndarray:
        """Training features (subclasses extend them; the encodings come from the shared store)."""
        return self._raw_features(items, kind)

    def _scale(self, X: np.ndarray) -> np.ndarray:
        if self.mu is None or self.sd is None:
            return X.astype(np.float64)
        return (X.astype(np.float64) - self.mu) / self.sd

    # ---- fit / state / classify ------------------------------------------------------------------
    def fit(self, train: Sequence[Item], dev: Sequence[Item], labels: Sequence[str], *, input_kind: str,
            seed: int = 0) -> None:
        tr, ys = labelled(train, labels)
        if not tr:
            raise ConfigError("minilm-lr: the training split has no labelled items")
        self.fitted_input_kind = input_kind
        X = self._train_features(tr, input_kind).astype(np.float64)
        if self.standardize:
            self.mu = X.mean(0)
            self.sd = X.std(0) + 1e-6
        else:
            self.mu = self.sd = None
        self.head = LinearHead(self.C, self.class_weight, self.max_iter).fit(self._scale(X), ys, seed)

    def get_state(self) -> State | None:
        if not self.head.fitted:
            return None
        meta = {"input_kind": self.fitted_input_kind, "head": self.head.meta(), "encoder": self.encoder.identity(),
                "encoder_options": self.encoder.options(), "aspect_input": self.aspect_input,
                "aspect_pool": self.aspect_pool}
        arrays = self.head.arrays()
        if self.mu is not None and self.sd is not None:
            arrays.update(mu=self.mu, sd=self.sd)
        return meta, arrays

    def load_state(self, state: State) -> None:
        meta, arrays = state
        try:
            enc_id, enc_opt = meta["encoder"], meta["encoder_options"]
            kind, hm = meta["input_kind"], meta["head"]
        except KeyError as exc:
            raise ConfigError(f"minilm-lr: fitted state lacks {exc.args[0]!r}") from None
        if enc_id != self.encoder.identity():
            raise ConfigError(f"minilm-lr: the state was fitted with encoder {enc_id}, but this adapter's encoder "
                              f"is {self.encoder.identity()}; re-fit the model")
        if enc_opt != self.encoder.options():
            raise ConfigError(f"minilm-lr: the state was fitted with encoder options {enc_opt}, "
                              f"not {self.encoder.options()}")
        self.aspect_input = meta.get("aspect_input", self.aspect_input)
        self.aspect_pool = bool(meta.get("aspect_pool", self.aspect_pool))
        self.fitted_input_kind = str(kind)
        self.C, self.class_weight = float(hm.get("C", self.C)), hm.get("class_weight")
        self.head = LinearHead(self.C, self.class_weight, self.max_iter).load(hm, arrays)
        self.mu = np.asarray(arrays["mu"], dtype=np.float64) if "mu" in arrays else None
        self.sd = np.asarray(arrays["sd"], dtype=np.float64) if "sd" in arrays else None
        self.standardize = self.mu is not None

    def classify(self, items: Sequence[Item], labels: Sequence[str], input_kind: str) -> list[Prediction]:
        if not self.head.fitted or self.fitted_input_kind is None:
            raise NotFittedError("minilm-lr: call fit() or load_state() before classify()")
        self.check_input_kind(input_kind)
        if not items:
            return []
        X = self._raw_features(items, input_kind)
        return predictions_from_proba(items, self.head.predict_proba(self._scale(X)), self.head.classes,
                                      labels, self.name)

    def close(self) -> None:
        self.encoder.store.flush()

    def embed(self, sentences: Sequence[Sequence[str]]) -> list[np.ndarray]:
        """Per-layer word vectors ``(n_layers + 1, n_words, hidden)`` of the frozen encoder."""
        return self.encoder.embed_words(sentences)


class MiniLMEmbedder(ModelAdapter):
    """The frozen packaged MiniLM (or a local encoder) for representation probes: ``embed`` only."""

    name = "minilm"
    capabilities = frozenset({"embed"})

    def __init__(self, max_length: int = 512, batch_size: int = 64, threads: int | None = None, device: str = "cpu",
                 encoder_path: str | None = None) -> None:
        kw = _encoder_kwargs(-1, "mean", False, max_length, batch_size, device, threads)
        self.batch_size = kw["batch_size"]
        self.encoder = get_encoder(None if encoder_path in (None, "", "none") else str(encoder_path), **kw)

    def set_workdir(self, path: Path) -> None:
        _share_encodings(self.encoder, path)

    def config(self) -> dict[str, Any]:
        return {"encoder": self.encoder.identity(), "max_length": self.encoder.max_length}

    def embed(self, sentences: Sequence[Sequence[str]]) -> list[np.ndarray]:
        """Per-layer word vectors ``(n_layers + 1, n_words, hidden)``; layer 0 is the embedding layer."""
        return self.encoder.embed_words(sentences)


@dataclass(frozen=True)
class EncoderOptions:
    """The frozen encoder's arguments that ``minilm`` takes (``minilm-lr`` adds the others)."""

    max_length: int = option(512, "truncation length in tokens (truncated words are NaN)", lo=8, hi=8192)
    batch_size: int = option(64, "sentences per forward pass (sorted by length)", lo=1)
    threads: int | None = option(None, "torch.set_num_threads (process-wide); unset: torch's", lo=1)
    device: str = option("cpu", "cpu, cuda, cuda:N or auto")
    encoder_path: str | None = option(None, "local directory of another encoder; unset: the packaged "
                                            "all-MiniLM-L6-v2")


@dataclass(frozen=True)
class MiniLMLROptions(EncoderOptions):
    """``--model-arg`` of ``minilm-lr`` (and, with the lexicon arguments, ``minilm-lr-lex``)."""

    max_length: int = option(256, "truncation length in tokens", lo=8, hi=8192)
    layer: int = option(-2, "hidden layer to pool (0 = embeddings, -1 = last, -2 = the one before)", lo=-13, hi=48)
    pooling: str = option("mean", "how token vectors become one vector", choices=("mean", "cls"))
    normalize: bool = option(False, "L2-normalise pooled vectors")
    backend: str = option("auto", "the encoder's forward pass: auto = onnx-int8 on the CPU (extra onnx), torch on "
                                  "an accelerator; onnx is ONNX Runtime fp32 (parity with torch ~1e-5), onnx-int8 "
                                  "per-channel dynamic int8 weights (2x faster, cosine >= 0.98 to fp32)",
                          choices=("auto", *BACKENDS))
    aspect_input: str = option("mark", "aspect marked in the sentence ('Nice [screen], ...'), encoded as a "
                                       "(sentence, aspect) pair, or both", choices=ASPECT_INPUTS)
    aspect_pool: bool = option(False, "append the mean vector of the aspect's tokens")
    C: float = option(0.01, "inverse L2 strength of the logistic regression (on standardised features)", lo=0.0,
                      lo_open=True)
    class_weight: Literal["balanced"] | None = option(None, "logistic-regression class weights (balanced or none)")
    standardize: bool = option(True, "standardise features with training mean/std")
    max_iter: int = option(3000, "logistic-regression iterations", lo=10)


MODELS.register(
    "minilm-lr", MiniLMLRModel, tags=("default", "encoder"), cost=190, options=MiniLMLROptions,
    description="frozen all-MiniLM-L6-v2 (packaged, offline) features + logistic regression")
MODELS.register(
    "minilm", MiniLMEmbedder, tags=("encoder",), options=EncoderOptions,
    description="frozen all-MiniLM-L6-v2 per-layer word vectors for representation probes (embed only)")
