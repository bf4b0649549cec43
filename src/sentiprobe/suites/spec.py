"""The suite contract: a frozen :class:`SuiteSpec` per suite, typed options, and the stage signatures.

Every suite package has the same stage modules, each exporting functions of the same names:

=================  ========================================================================================
module             functions (``suite`` is the bound :class:`~sentiprobe.suites.base.Suite`)
=================  ========================================================================================
``data.py``        ``load_items(suite, split) -> list[Item]``; ``data_files(suite) -> list[str]``;
                   ``statistics(suite) -> dict`` (optional)
``predictions.py`` ``read_predictions(suite, path, column) -> list[Prediction]`` (every accepted format)
``score.py``       ``score(suite, items, predictions, config) -> SuiteScore`` (pure: no file writes, no model)
``report.py``      ``render_section(name, entry) -> str`` (pure: a results entry -> escaped HTML)
=================  ========================================================================================

A package's ``__init__.py`` declares one :class:`SuiteSpec` per suite and registers it in ``SUITES``.
Protocol-specific stages (``ratings.py``, ``grid.py``, ``probes.py`` ...) sit beside them.

Suite options are a frozen dataclass per suite whose fields are declared with :func:`option` (default,
help, choices, the environment variable the CLI reads as a default). They are parsed from strings by
:func:`parse_options` (did-you-mean on unknown keys), recorded in ``results.json`` and enter the cache key
of fitted models. Nothing under ``suites/`` reads the environment: only ``cli/`` does.
"""
from __future__ import annotations

import dataclasses
import types
import typing
from collections.abc import Callable, Mapping, Sequence
from dataclasses import dataclass, field
from pathlib import Path
from typing import TYPE_CHECKING, Any

from ..core.errors import ConfigError, unknown_keys
from ..core.types import Item, Metric, Prediction

if TYPE_CHECKING:
    from .base import Suite

TASKS = ("classify", "generate", "embed", "extract")
"""What a suite asks of a model: the adapter capability it needs (``SuiteSpec.accepts`` widens it).
``extract``: span extraction (triplet suites); the adapter returns structured spans, not a label."""
INPUT_KINDS = ("text", "text+aspect", "text-pair", "tokens")
"""What the model sees of an item (passed to ``ModelAdapter.classify`` / ``fit``)."""
MISSING_POLICIES = ("error", "wrong", "variants-wrong")


@dataclass(frozen=True)
class ScoreConfig:
    """Scoring settings shared by every suite (recorded in results).

    Attributes:
        n_boot: bootstrap resamples for confidence intervals (0: no interval).
        seed: seed of the resampling.
        missing: ``error`` (a missing prediction is an error), ``wrong`` (counted as wrong, reported) or
            ``variants-wrong`` (ARTS: a missing variant is wrong, a missing source an error).
        alpha: 1 - confidence level of the intervals.
        path: the predictions file being scored, when there is one (named in errors).
    """

    n_boot: int = 1000
    seed: int = 0
    missing: str = "error"
    alpha: float = 0.05
    path: str | None = None

    def __post_init__(self) -> None:
        if self.missing not in MISSING_POLICIES:
            raise ConfigError(f"missing must be one of {list(MISSING_POLICIES)}, not {self.missing!r}")
        if not isinstance(self.n_boot, int) or self.n_boot < 0:
            raise ConfigError(f"n_boot must be a non-negative integer, not {self.n_boot!r}")
        if not (isinstance(self.alpha, float | int) and 0.0 < float(self.alpha) < 1.0):
            raise ConfigError(f"alpha must be in (0, 1), not {self.alpha!r}")


@dataclass(frozen=True)
class SuiteScore:
    """What a suite's ``score`` stage returns.

    Attributes:
        metrics: metric name -> Metric (value, CI, n).
        details: JSON-able extras for the report (per-strategy tables, missing ids, examples).
        tables: optional extra tables a user may write to disk (file name -> text, e.g. NonCompSST's
            rating TSVs); the score stage never writes them itself (``sentiprobe score --tables-out``).
    """

    metrics: dict[str, Metric]
    details: dict[str, Any] = field(default_factory=dict)
    tables: dict[str, str] = field(default_factory=dict)

    def to_dict(self) -> dict[str, Any]:
        return {"metrics": {k: m.to_dict() for k, m in self.metrics.items()}, "details": self.details}


@dataclass(frozen=True)
class NoOptions:
    """A suite without options."""


def option(default: Any, help: str, *, choices: Sequence[Any] | None = None, env: str | None = None,
           user_file: bool = False) -> Any:
    """Declare a suite option field.

    Args:
        default: the default value.
        help: one line for ``sentiprobe list`` and the docs.
        choices: allowed values (checked by :func:`parse_options`).
        env: environment variable the CLI reads as the default (never read under ``suites/``).
        user_file: the value is a path to a user-supplied file (hashed and recorded by the run).
    """
    meta = {"help": help, "choices": tuple(choices) if choices is not None else None, "env": env,
            "user_file": user_file}
    return field(default=default, metadata=meta)


def option_fields(options_type: type) -> list[dataclasses.Field]:
    return list(dataclasses.fields(options_type))


def describe_options(options_type: type) -> dict[str, dict[str, Any]]:
    """``{name: {"default", "help", "choices", "env", "type"}}`` for listing and docs."""
    hints = typing.get_type_hints(options_type)
    out = {}
    for f in option_fields(options_type):
        out[f.name] = {"default": _jsonable(f.default), "help": f.metadata.get("help", ""),
                       "choices": list(f.metadata["choices"]) if f.metadata.get("choices") else None,
                       "env": f.metadata.get("env"), "type": _type_name(hints.get(f.name))}
    return out


def env_defaults(options_type: type) -> dict[str, str]:
    """``{option name: environment variable}`` for the options that have one (read by ``cli/`` only)."""
    return {f.name: f.metadata["env"] for f in option_fields(options_type) if f.metadata.get("env")}


def parse_options(options_type: type, raw: Mapping[str, Any] | Any | None, *, suite: str) -> Any:
    """An options instance from a mapping of (string or typed) values, validated.

    Unknown keys raise ConfigError with a did-you-mean; values are converted to the field's type
    (``bool`` accepts 1/0/true/false/yes/no/on/off; ``int``/``float`` parse; ``X | None`` accepts
    ``""``/``none`` as None) and checked against ``choices``. An instance of ``options_type`` is returned as is.
    """
    if isinstance(raw, options_type):
        return raw
    raw = dict(raw or {})
    known = [f.name for f in option_fields(options_type)]
    unknown = [k for k in raw if k not in known]
    if unknown:
        raise ConfigError(f"suite {suite!r}: unknown option(s) {unknown_keys(unknown, known)}; "
                          f"known: {', '.join(known) or 'none'}")
    types_ = typing.get_type_hints(options_type)
    values: dict[str, Any] = {}
    for f in option_fields(options_type):
        if f.name not in raw:
            continue
        v = _convert(raw[f.name], types_.get(f.name), f"suite {suite!r} option {f.name!r}")
        choices = f.metadata.get("choices")
        if choices and v is not None and v not in choices:
            raise ConfigError(f"suite {suite!r} option {f.name!r}: {v!r} is not one of {list(choices)}")
        values[f.name] = v
    return options_type(**values)


def options_dict(options: Any) -> dict[str, Any]:
    """JSON-able ``{name: value}`` of an options instance (paths as strings)."""
    return {f.name: _jsonable(getattr(options, f.name)) for f in option_fields(type(options))}


def _jsonable(v: Any) -> Any:
    if isinstance(v, Path):
        return str(v)
    if isinstance(v, tuple):
        return [_jsonable(x) for x in v]
    return v


def _type_name(tp: Any) -> str:
    return getattr(tp, "__name__", None) or str(tp).replace("typing.", "")


_TRUE = ("1", "true", "yes", "on")
_FALSE = ("0", "false", "no", "off")


def _convert(value: Any, tp: Any, what: str) -> Any:
    """Convert ``value`` to the annotated type ``tp`` (str/int/float/bool/Path, optionally ``| None``)."""
    args = typing.get_args(tp)
    if typing.get_origin(tp) in (typing.Union, types.UnionType) and type(None) in args:
        if value is None or (isinstance(value, str) and value.strip().lower() in ("", "none", "null")):
            return None
        inner = [a for a in args if a is not type(None)]
        tp = inner[0] if len(inner) == 1 else str
    if tp is bool:
        if isinstance(value, bool):
            return value
        s = str(value).strip().lower()
        if s in _TRUE:
            return True
        if s in _FALSE:
            return False
        raise ConfigError(f"{what}: expected true/false (or 1/0), got {value!r}")
    if tp is int:
        if isinstance(value, bool):
            raise ConfigError(f"{what}: expected an integer, got {value!r}")
        try:
            return int(str(value).strip()) if not isinstance(value, int) else value
        except ValueError:
            raise ConfigError(f"{what}: expected an integer, got {value!r}") from None
    if tp is float:
        try:
            out = float(value)
        except (TypeError, ValueError):
            raise ConfigError(f"{what}: expected a number, got {value!r}") from None
        if out != out or out in (float("inf"), float("-inf")):
            raise ConfigError(f"{what}: expected a finite number, got {value!r}")
        return out
    if tp is Path:
        return Path(str(value)).expanduser()
    return value if isinstance(value, str) else str(value)


LoadItems = Callable[["Suite", str], list[Item]]
DataFiles = Callable[["Suite"], list[str]]
ReadPredictions = Callable[["Suite", Path, "str | None"], list[Prediction]]
Score = Callable[["Suite", Sequence[Item], Sequence[Prediction], ScoreConfig], SuiteScore]
RenderSection = Callable[[str, dict[str, Any]], str]


@dataclass(frozen=True)
class SuiteSpec:
    """One protocol on one dataset, declared once in its package's ``__init__.py``.

    Attributes:
        name: registry name (``arts-laptop``).
        family: data family in the manifest (``arts``, ``noncompsst``, ``sst``, ``sentivent``, ``soul``...).
        version: the suite's version; bump it when items or metrics change (recorded in results).
        description: one line for ``sentiprobe list``.
        labels: the label set predictions must come from.
        task: what the suite asks of a model (one of :data:`TASKS`).
        input_kind: what the model sees (one of :data:`INPUT_KINDS`).
        load_items: ``data.load_items(suite, split)``: items of ``train``/``dev``/``test`` ([] when absent).
        data_files: ``data.data_files(suite)``: manifest paths the test split needs.
        read_predictions: ``predictions.read_predictions(suite, path, column)``.
        score: ``score.score(suite, items, predictions, config)`` (pure).
        render_section: ``report.render_section(name, entry)`` (pure).
        options: the frozen options dataclass (:class:`NoOptions` when there are none).
        seeds: training seeds a learning model is run with (NonCompSST uses 3).
        accepts: model capabilities the suite can use (default: ``{task}``).
        statistics: ``data.statistics(suite)`` for ``sentiprobe data stats`` (default: counts per split).
        predict: protocol-specific prediction stage ``predict(suite, predictor, items)`` (default: classify).
        training: ``(train_items, dev_items)`` a learning model is fitted on (default: the train and dev splits).
        groups_name: what ``Item.group_id`` is (``source example``, ``review``...): the suite's resampling unit.
        paired: ``score.unit_table(suite, items, predictions, config)``: one system's headline metrics as functions
            of a resample of the suite's units (:class:`~sentiprobe.stats.paired.UnitTable`), for paired
            comparisons of systems (``sentiprobe compare``, several models in ``run``, ``sentiprobe report``).
        headline: the metrics a summary shows first (the run's results table, ``--json``); empty: the first
            metric the score stage returns. Names that a run did not produce are skipped.
        refuse: ``refuse(suite, model) -> reason | None``: why a model that has an accepted capability still may
            not run on this use of the suite (LexComp VPC/LVC without sentences admit the majority baselines
            only); checked before any data is loaded, and a refusal is a CapabilityError with that reason.
    """

    name: str
    family: str
    version: str
    description: str
    labels: tuple[str, ...]
    task: str
    input_kind: str
    load_items: LoadItems
    data_files: DataFiles
    read_predictions: ReadPredictions
    score: Score
    render_section: RenderSection
    options: type = NoOptions
    seeds: int = 1
    accepts: frozenset[str] = frozenset()
    statistics: Callable[[Suite], dict[str, Any]] | None = None
    predict: Callable[[Suite, Any, Sequence[Item]], list[Prediction]] | None = None
    training: Callable[[Suite], tuple[list[Item], list[Item]]] | None = None
    groups_name: str = "item"
    paired: Callable[[Suite, Sequence[Item], Sequence[Prediction], ScoreConfig], Any] | None = None
    headline: tuple[str, ...] = ()
    refuse: Callable[[Suite, Any], str | None] | None = None

    def __post_init__(self) -> None:
        if self.task not in TASKS:
            raise ValueError(f"suite {self.name}: task {self.task!r} is not one of {TASKS}")
        if self.input_kind not in INPUT_KINDS:
            raise ValueError(f"suite {self.name}: input_kind {self.input_kind!r} is not one of {INPUT_KINDS}")
        if not dataclasses.is_dataclass(self.options):
            raise ValueError(f"suite {self.name}: options must be a frozen dataclass")
        if not self.accepts:
            object.__setattr__(self, "accepts", frozenset({self.task}))
