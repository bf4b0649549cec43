"""The suite registry and the bound :class:`Suite`: a :class:`~.spec.SuiteSpec` with a data dir and options.

The spec (frozen, declared once per suite) says *what* a suite is; a ``Suite`` is one use of it: where the
data lives, which options are in force, and the items already loaded. Its methods call the spec's stage
functions; it holds no protocol logic of its own.
"""
from __future__ import annotations

import copy
import dataclasses
from collections.abc import Callable, Mapping, Sequence
from functools import partial
from pathlib import Path
from typing import Any, TypeVar

from ..core.hashing import stable_hash
from ..core.registry import NameRegistry
from ..core.types import Item, Prediction
from .checks import check_predictions
from .spec import (DEFAULT_CONFIDENCE, Measure, MeasureCache, NoOptions, ScoreConfig, ScoreContext, SuiteScore,
                   SuiteSpec, alpha_of, derive, options_dict, parse_options)
from .spec import Predicted

__all__ = ["SUITES", "ScoreContext", "Suite", "SuiteRegistry", "SuiteScore", "SuiteSpec", "check_predictions",
           "get_suite"]


T = TypeVar("T")

_TRAINING = "__training__"  # cache keys of what every use of a bound suite shares
_CONTEXT = "__score_context__"
_TRAIN_FINGERPRINT = "__train_fingerprint__"
_ITEMS_HASH = "__items_hash__"


class Suite:
    """A suite spec bound to a data directory and options.

    Attributes:
        spec: the frozen :class:`SuiteSpec`.
        data_dir: the resolved data directory.
        options: the parsed options (an instance of ``spec.options``).

    What the stages load or compute once (loaded files, hashes, the training items) is kept in a private cache,
    read and filled only through :meth:`cached`: a cache of pure builds, never a channel between stages (what a
    stage tells the runner is its return value, e.g. the predict stage's :class:`~.spec.Predicted`).
    """

    def __init__(self, spec: SuiteSpec, data_dir: str | Path | None = None,
                 options: Mapping[str, Any] | Any | None = None) -> None:
        from ..data import resolve_data_dir

        self.spec = spec
        self.data_dir = resolve_data_dir(data_dir)
        self.options = parse_options(spec.options, options, suite=spec.name)
        self._cache: dict[str, Any] = {}
        self._items: dict[str, list[Item]] = {}

    def shared(self) -> Suite:
        """Another use of this bound suite (the next model of a run): it shares what was loaded and computed
        (items, training items, their fingerprint, score contexts, the cache), so nothing is read or hashed twice.
        What a use reports about training data depends on that use alone (``trained`` of :meth:`score_context`),
        so its results read as if it had been bound alone."""
        return copy.copy(self)

    def cached(self, key: str, build: Callable[[], T]) -> T:
        """``build()``, computed once per bound suite (and the uses :meth:`shared` from it) under ``key``."""
        if key not in self._cache:
            self._cache[key] = build()
        value: T = self._cache[key]
        return value

    # ---- what the spec declares ----------------------------------------------------------------
    @property
    def name(self) -> str:
        return self.spec.name

    @property
    def family(self) -> str:
        return self.spec.family

    @property
    def labels(self) -> tuple[str, ...]:
        return self.spec.labels

    @property
    def task(self) -> str:
        return self.spec.task

    @property
    def input_kind(self) -> str:
        return self.spec.input_kind

    @property
    def n_seeds(self) -> int:
        return self.spec.seeds

    def __repr__(self) -> str:
        return f"Suite({self.name!r}, data_dir={str(self.data_dir)!r}, options={self.options!r})"

    # ---- data ------------------------------------------------------------------------------------
    def path(self, rel: str) -> Path:
        """Path of a manifest file (``family/rel`` or ``rel`` inside the family) under the data dir.

        Raises MissingDataError with fetch advice when it is absent, ChecksumError when it does not match
        the manifest.
        """
        from ..data import require_file

        full = rel if rel.startswith(self.family + "/") else f"{self.family}/{rel}"
        return require_file(self.data_dir, full)

    def data_files(self) -> list[str]:
        """Manifest paths (``family/relative/path``) the test split needs."""
        return list(self.spec.data_files(self))

    def available(self) -> bool:
        """True when every data file of the test split is present in the data dir."""
        return all((self.data_dir / f).exists() for f in self.data_files())

    def items(self, split: str = "test") -> list[Item]:
        """Items of ``split`` (loaded once per instance and the instances :meth:`shared` from it)."""
        if split not in self._items:
            self._items[split] = list(self.spec.load_items(self, split))
        return self._items[split]

    def training(self) -> tuple[list[Item], list[Item]]:
        """(train items, dev items) a learning model is fitted on (built once, see :meth:`shared`)."""
        fit = self.spec.training
        built = self.cached(_TRAINING, lambda: tuple(fit(self)) if fit is not None
                            else (self.items("train"), self.items("dev")))
        return built[0], built[1]

    def train_items(self) -> list[Item]:
        return self.training()[0]

    def dev_items(self) -> list[Item]:
        return self.training()[1]

    def train_fingerprint(self) -> str:
        """Hash of the training and dev items and the options (keys fitted-model states in the cache)."""
        train, dev = self.training()
        return self.cached(_TRAIN_FINGERPRINT,
                           lambda: stable_hash([[i.to_dict() for i in train], [i.to_dict() for i in dev]], 32))

    def items_hash(self, items: Sequence[Item] | None = None) -> str:
        """Hash of the (test) items: two runs with the same hash asked the same questions."""
        its = self.items("test") if items is None else items
        if its is not self._items.get("test"):  # a subset (--limit): hashed each time
            return stable_hash([i.to_dict() for i in its], 32)
        return self.cached(_ITEMS_HASH, lambda: stable_hash([i.to_dict() for i in its], 32))

    def describe(self) -> dict[str, Any]:
        """Name, version, effective options and the sha256 of user-supplied files (recorded in ``results.json``)."""
        from ..data import hash_user_file
        from .spec import option_fields

        out: dict[str, Any] = {"name": self.name, "version": self.spec.version, "family": self.family,
                               "options": options_dict(self.options)}
        files = {}
        for f in option_fields(type(self.options)):
            value = getattr(self.options, f.name)
            if f.metadata.get("user_file") and value is not None and Path(value).is_file():
                sha = self.cached(f"user_file_hash:{f.name}", partial(hash_user_file, value))
                files[f.name] = {"path": str(value), "sha256": sha}
        if files:
            out["user_files"] = files
        return out

    def stats(self) -> dict[str, Any]:
        """Dataset statistics for ``sentiprobe data stats`` (JSON-able)."""
        if self.spec.statistics is not None:
            return self.spec.statistics(self)
        return default_statistics(self)

    # ---- models -------------------------------------------------------------------------------------
    def supports(self, model: Any) -> bool:
        """Whether a model adapter has a capability the suite can use."""
        return bool(self.spec.accepts & set(getattr(model, "capabilities", ())))

    def refusal(self, model: Any) -> str | None:
        """Why ``model`` may not run on this use of the suite although it :meth:`supports` it (None: it may)."""
        return self.spec.refuse(self, model) if self.spec.refuse is not None else None

    def predict_stage(self, predictor: Any, items: Sequence[Item]) -> Predicted:
        """Ask a (cached) predictor for predictions on items (the spec's predict stage, else classify), with the
        record of how a generative model was asked."""
        if self.spec.predict is not None:
            return self.spec.predict(self, predictor, items)
        caps = set(getattr(getattr(predictor, "model", predictor), "capabilities", ()))
        if self.spec.prompting is not None and self.task not in caps and "generate" in caps:
            from .prompting import predict_labels

            return predict_labels(self, predictor, items, self.spec.prompting)
        return Predicted(tuple(predictor.classify(items, self.labels, self.input_kind)))

    def predict(self, predictor: Any, items: Sequence[Item]) -> list[Prediction]:
        """The predictions alone of :meth:`predict_stage`."""
        return list(self.predict_stage(predictor, items).predictions)

    # ---- predictions and scores ------------------------------------------------------------------
    def read_predictions(self, path: str | Path, column: str | None = None) -> list[Prediction]:
        """Read predictions made elsewhere (every format the suite accepts)."""
        return self.spec.read_predictions(self, Path(path), column)

    def check_predictions(self, items: Sequence[Item], predictions: Sequence[Prediction], *,
                          missing: str = "error", path: str | Path | None = None) -> dict[str, Prediction]:
        return check_predictions(self.name, self.labels, items, predictions, missing=missing, path=path)

    def score_context(self, *, trained: bool = False) -> ScoreContext:
        """The frozen :class:`ScoreContext` of this bound suite (the data stage's ``score_context``; built once).

        ``trained``: a model was fitted on the suite's training data, so the context records where that data
        came from (this may read the training data); scoring predictions made elsewhere never needs it.
        """
        key = f"{_CONTEXT}:{'trained' if trained else 'scored'}"
        build = self.spec.score_context
        return self.cached(key, lambda: ScoreContext(self.name, tuple(self.labels)) if build is None
                           else build(self, bool(trained)))

    def measure(self, items: Sequence[Item], predictions: Sequence[Prediction],
                cache: MeasureCache | None = None) -> dict[str, Measure]:
        """The metric stage: model-based metrics' per-item values (``{}`` for a suite without one)."""
        if self.spec.measure is None:
            return {}
        return dict(self.spec.measure(self.options, items, predictions, cache))

    def full_context(self, items: Sequence[Item], predictions: Sequence[Prediction], *, trained: bool = False,
                     cache: MeasureCache | None = None) -> ScoreContext:
        """:meth:`score_context` completed by the metric stage's measures of ``predictions``."""
        context = self.score_context(trained=trained)
        measures = self.measure(items, predictions, cache)
        return dataclasses.replace(context, measures=measures) if measures else context

    def score(self, items: Sequence[Item], predictions: Sequence[Prediction], *, n_boot: int = 1000,
              seed: int = 0, missing: str = "error", confidence: float = DEFAULT_CONFIDENCE,
              path: str | Path | None = None, trained: bool = False, cache: MeasureCache | None = None,
              context: ScoreContext | None = None) -> SuiteScore:
        """Score predictions on items: the data stage's context, the metric stage, then the pure score stage.

        ``context``: a context built already (by :meth:`full_context`); the stages above are then skipped.
        """
        alpha_of(confidence)  # ConfigError before any work
        cfg = ScoreConfig(missing=missing, path=None if path is None else str(path))
        if context is None:
            context = self.full_context(items, predictions, trained=trained, cache=cache)
        return derive(self.spec.score(items, predictions, self.options, context, cfg), n_boot=n_boot, seed=seed,
                      confidence=confidence)

    def report_section(self, entry: dict[str, Any]) -> str:
        """HTML fragment of this suite's results entry (escaped)."""
        return self.spec.render_section(self.name, entry)


def default_statistics(suite: Suite) -> dict[str, Any]:
    """Items, groups and label counts per split; a split whose data is missing is reported, not fatal."""
    from ..core.errors import MissingDataError

    out: dict[str, Any] = {"suite": suite.name}
    for split in ("train", "dev", "test"):
        try:
            its = suite.items(split)
        except MissingDataError as exc:
            out[split] = {"error": str(exc)}
            continue
        counts: dict[str, int] = {}
        for it in its:
            counts[str(it.label)] = counts.get(str(it.label), 0) + 1
        out[split] = {"items": len(its), "groups": len({i.group_id for i in its}), "labels": counts}
    return out


class SuiteRegistry(NameRegistry[SuiteSpec]):
    """Name -> :class:`SuiteSpec` (the generic :class:`~sentiprobe.core.registry.NameRegistry`).

    Third-party packages add suites through the entry-point group ``sentiprobe.suites``: each entry point
    names a callable that receives this registry and calls :meth:`register` with its specs.
    """

    def __init__(self, entry_point_group: str | None = "sentiprobe.suites") -> None:
        super().__init__("suite", entry_point_group)

    def register(self, spec: SuiteSpec) -> SuiteSpec:
        if not isinstance(spec, SuiteSpec):
            raise TypeError(f"SUITES.register takes a SuiteSpec, not {type(spec).__name__}")
        return self.add(spec.name, spec)


SUITES = SuiteRegistry()


def get_suite(name: str, data_dir: str | Path | None = None, options: Mapping[str, Any] | Any | None = None,
              **option_values: Any) -> Suite:
    """Bind the registered suite ``name`` to a data dir and options (keyword options merge into ``options``)."""
    spec = SUITES.get(name)
    if option_values:
        if options is not None and dataclasses.is_dataclass(options):
            options = options_dict(options)
        options = {**dict(options or {}), **option_values}
    return Suite(spec, data_dir, options)


def no_options() -> NoOptions:
    return NoOptions()
