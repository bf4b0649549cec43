"""The model adapter protocol (DESIGN.md "Model adapters").

An adapter implements the capabilities it can. What a call depends on is passed to it, never set
on the adapter from outside:

- ``classify(items, labels, input_kind) -> list[Prediction]`` for text, text pairs and text + aspect
  (``input_kind`` is the suite's: ``text``, ``text+aspect`` or ``text-pair``, see :func:`format_input`);
- ``fit(train, dev, labels, *, input_kind, seed=0)`` for models that learn (``learns = True``). The
  fitted state records the input kind it was fitted with; classifying with another one raises
  :class:`InputKindError`;
- ``request(item, labels, input_kind) -> dict``: the part of an item the output depends on (the
  input kind included), which keys the prediction cache;
- ``generate(prompts) -> list[str]`` for LLMs;
- ``embed(sentences) -> per-layer token vectors`` for frozen-representation probes;
- ``set_workdir(path)``: the runner calls it on every adapter before ``fit`` with a directory for
  large artefacts (fine-tuned checkpoints) kept beside the cache; the default ignores it.

Every adapter has a ``fingerprint`` (name, config, weights/state hash, prompt-template hash and the
code identity, see :meth:`ModelAdapter.code_identity`) that keys the prediction cache. A learning
adapter's fingerprint includes the hash of its fitted state, so predictions of two differently
trained models never collide; the code identity makes a new sentiprobe release, a new version of
a numerics library or an edited user adapter miss the cache instead of returning stale predictions.

Fitted state is exported with ``get_state()`` as ``(json_meta, {name: numpy array})`` and
restored with ``load_state``; the runner stores it in the cache so a resumed run does not refit.
Nothing is pickled.
"""
from __future__ import annotations

import functools
import hashlib
import inspect
import sys
from abc import ABC
from collections.abc import Sequence
from importlib import metadata  # a module attribute: metadata.version is looked up when called
from pathlib import Path
from typing import Any, ClassVar
from urllib.parse import urlsplit, urlunsplit

import numpy as np

from ..core.errors import CapabilityError, ConfigError
from ..core.hashing import canonical_json, stable_hash
from ..core.registry import Registry
from ..core.types import Item, Prediction

State = tuple[dict[str, Any], dict[str, np.ndarray]]

#: capability of a model that predicts from the training labels (and the constituents a suite's items carry) only,
#: never from an item's text: the majority baselines. A suite whose items have no real input (LexComp VPC/LVC
#: without the BNC sentences) admits only these (``SuiteSpec.refuse``).
LABEL_PRIOR = "label-prior"

#: distributions whose versions change a model's numbers; those installed enter every fingerprint
NUMERICS_PACKAGES = ("numpy", "scikit-learn", "torch", "transformers")
#: top-level modules whose classes in an adapter's MRO are not user code (covered by versions)
_NOT_USER_CODE = frozenset({"sentiprobe", "builtins", "abc", "typing"})


class InputKindError(ConfigError):
    """A fitted model was asked to classify items of another input kind than it was fitted on."""


def numerics_versions() -> dict[str, str]:
    """Versions of the installed :data:`NUMERICS_PACKAGES` (absent ones are left out)."""
    return dict(_numerics_versions())


@functools.lru_cache(maxsize=1)
def _numerics_versions() -> dict[str, str]:  # read once per process: package metadata lookups are slow
    out = {}
    for dist in NUMERICS_PACKAGES:
        try:
            out[dist] = metadata.version(dist)
        except metadata.PackageNotFoundError:  # not installed: it cannot change any number
            continue
    return out


def _module_source_hash(module_name: str) -> str | None:
    """sha256 of a module's source, or ``None`` when its source cannot be read (``exec``, REPL, .pyc only)."""
    module = sys.modules.get(module_name)
    if module is None:
        return None
    try:
        src = inspect.getsource(module)
    except (OSError, TypeError):  # OSError: no source file; TypeError: a built-in module
        return None
    return hashlib.sha256(src.encode("utf-8")).hexdigest()


def public_url(url: str) -> str:
    """``url`` without user, password, query string or fragment (what a report may show of an endpoint)."""
    try:
        parts = urlsplit(url)
    except ValueError:
        return "<unparseable URL>"
    if not parts.scheme or not parts.netloc:
        return url
    host = parts.hostname or ""
    netloc = f"[{host}]" if ":" in host else host
    if parts.port is not None:
        netloc += f":{parts.port}"
    return urlunsplit((parts.scheme, netloc, parts.path, "", ""))


def public_config(config: Any) -> Any:
    """A configuration with every http(s) URL in it passed through :func:`public_url`."""
    if isinstance(config, dict):
        return {k: public_config(v) for k, v in config.items()}
    if isinstance(config, list | tuple):
        return [public_config(v) for v in config]
    if isinstance(config, str) and config.lower().startswith(("http://", "https://")):
        return public_url(config)
    return config


def format_input(item: Item, input_kind: str) -> tuple[str, str | None]:
    """The (text, text_pair) a pair/sequence model sees for an item.

    ``text+aspect``: sentence paired with the aspect term (BERT-pair style);
    ``text-pair``: text with ``text_pair``; ``text``: the text alone.
    """
    if input_kind == "text+aspect" and item.aspect is not None:
        return item.text, item.aspect
    if input_kind == "text-pair" and item.text_pair is not None:
        return item.text, item.text_pair
    return item.text, None


def mark_aspect(item: Item, left: str = "[", right: str = "]") -> str:
    """The sentence with the aspect span marked (``Nice [screen], keyboard ...``).

    Uses the character span when it is valid, else the first occurrence of the term, else appends
    the term (``sentence [SEP] term``-style) so the aspect is never lost.
    """
    t = item.text
    if item.aspect is None:
        return t
    if item.span is not None:
        a, b = item.span
        if 0 <= a < b <= len(t) and t[a:b].lower() == item.aspect.lower():
            return f"{t[:a]}{left}{t[a:b]}{right}{t[b:]}"
    k = t.find(item.aspect)
    if k >= 0:
        return f"{t[:k]}{left}{item.aspect}{right}{t[k + len(item.aspect):]}"
    return f"{t} {left}{item.aspect}{right}"


class ModelAdapter(ABC):
    """Base class for model adapters. Subclasses override what they support."""

    name: ClassVar[str] = "model"
    learns: ClassVar[bool] = False
    #: True when :meth:`request` reads the fitted state (feature columns chosen at fit time): the runner then
    #: restores the state before computing cache keys instead of only when a prediction is missing
    request_uses_state: ClassVar[bool] = False
    capabilities: ClassVar[frozenset[str]] = frozenset({"classify"})
    batch_size: int = 64
    #: user adapters may set it (and change it with their code): it enters the fingerprint
    version: ClassVar[str | None] = None
    #: the input kind a learning adapter was fitted with (``None``: not fitted, or it does not learn)
    fitted_input_kind: str | None = None

    def config(self) -> dict[str, Any]:
        """Hyper-parameters and weight identifiers (JSON-able); enters the fingerprint."""
        return {}

    def identity(self) -> dict[str, Any]:
        """What this adapter is, for results.json and every report: the registered adapter, its class, its
        capabilities and its effective configuration (:meth:`config`: every value it will use, defaults and
        values read from the environment included; URLs without credentials or query strings)."""
        cls = type(self)
        return {"adapter": self.name, "class": f"{cls.__module__}.{cls.__qualname__}",
                "capabilities": sorted(self.capabilities), "learns": self.learns,
                "config": public_config(self.config())}

    def state_hash(self) -> str | None:
        """Hash of the fitted state (None for models that do not learn or are not yet fitted)."""
        st = self.get_state() if self.learns else None
        if st is None:
            return None
        meta, arrays = st
        h = hashlib.sha256(canonical_json(meta).encode())
        for k in sorted(arrays):
            a = np.ascontiguousarray(arrays[k])
            h.update(f"{k}|{a.dtype}|{a.shape}|".encode())
            h.update(a.tobytes())
        return h.hexdigest()[:32]

    def code_identity(self) -> dict[str, Any]:
        """The code that computes this adapter's outputs, for cache keys.

        sentiprobe's version, the versions of the installed numerics libraries and, for adapter
        classes (or mixins) defined outside the ``sentiprobe`` package, the sha256 of each such
        module's source plus the class's ``version`` attribute when set. A user class whose module
        source cannot be read and that sets no ``version`` is a ConfigError: its cached predictions
        could not be told apart from those of an earlier version of its code.
        """
        from .. import __version__  # read at call time (tests patch it)

        cls = type(self)
        sources: dict[str, str] = {}
        missing: list[str] = []
        for klass in cls.__mro__:
            mod = klass.__module__
            if mod.split(".")[0] in _NOT_USER_CODE or mod in sources or mod in missing:
                continue
            digest = _module_source_hash(mod)
            if digest is None:
                missing.append(mod)
            else:
                sources[mod] = digest
        if missing and not cls.version:
            raise ConfigError(f"model {self.name!r}: the source of module(s) {missing} is not readable, so the "
                              f"prediction cache cannot tell versions of {cls.__qualname__} apart; set a class "
                              f"attribute version = '...' and change it whenever the adapter's code changes")
        out: dict[str, Any] = {"sentiprobe": __version__, "packages": numerics_versions()}
        if sources:
            out["sources"] = sources
        if cls.version:
            out["version"] = str(cls.version)
        return out

    @property
    def fingerprint(self) -> str:
        return stable_hash({"adapter": self.name, "config": self.config(), "code": self.code_identity(),
                            "state": self.state_hash()}, 32)

    def request(self, item: Item, labels: Sequence[str], input_kind: str) -> dict[str, Any]:
        """The part of an item the model's output depends on, with the input kind (keys the cache)."""
        return {"text": item.text, "pair": item.text_pair, "aspect": item.aspect,
                "span": list(item.span) if item.span else None, "labels": list(labels),
                "input_kind": input_kind}

    def check_input_kind(self, input_kind: str) -> None:
        """Raise :class:`InputKindError` if the adapter was fitted on another input kind."""
        if self.fitted_input_kind is not None and input_kind != self.fitted_input_kind:
            raise InputKindError(f"model {self.name!r} was fitted on {self.fitted_input_kind!r} inputs and cannot "
                                 f"classify {input_kind!r} inputs; fit it on a suite of that input kind")

    def label_mapping(self, labels: Sequence[str]) -> dict[str, Any] | None:
        """How the model's own labels map to the suite's ``labels``, checked before any inference (the runner
        calls it first and records the answer); None when the model answers in the suite's labels itself.
        Raises ConfigError when its labels cannot be mapped (a checkpoint whose classes are ``LABEL_0``...)."""
        return None

    def set_workdir(self, path: Path) -> None:
        """A directory for large artefacts (fine-tuned checkpoints); the runner calls it before ``fit``.

        The default ignores it: only adapters that write files override it.
        """

    # ---- capabilities ------------------------------------------------------------------------
    def fit(self, train: Sequence[Item], dev: Sequence[Item], labels: Sequence[str], *, input_kind: str,
            seed: int = 0) -> None:
        """Fit on ``train`` (``dev`` for model selection); record ``input_kind`` in the fitted state."""
        if self.learns:
            raise NotImplementedError

    def get_state(self) -> State | None:
        return None

    def load_state(self, state: State) -> None:
        raise CapabilityError(f"model {self.name!r} cannot load a fitted state")

    def classify(self, items: Sequence[Item], labels: Sequence[str], input_kind: str) -> list[Prediction]:
        raise CapabilityError(f"model {self.name!r} cannot classify")

    def generate(self, prompts: Sequence[str], **kwargs: Any) -> list[str]:
        raise CapabilityError(f"model {self.name!r} cannot generate text")

    def embed(self, sentences: Sequence[Sequence[str]]) -> list[np.ndarray]:
        raise CapabilityError(f"model {self.name!r} cannot embed")

    def close(self) -> None:
        """Release resources (servers, GPU memory)."""


MODELS: Registry[ModelAdapter] = Registry("model", "sentiprobe.models")
