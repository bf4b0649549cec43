"""The suite contract: a frozen :class:`SuiteSpec` per suite, typed options, and the stage signatures.

Every suite package has the same stage modules, each exporting functions of the same names:

=================  ========================================================================================
module             functions (``suite`` is the bound :class:`~sentiprobe.suites.base.Suite`)
=================  ========================================================================================
``data.py``        ``load_items(suite, split) -> list[Item]``; ``data_files(suite) -> list[str]``;
                   ``statistics(suite) -> dict`` (optional); ``score_context(suite, trained) -> ScoreContext``
                   (optional): what scoring needs beyond the items (release tables, training provenance,
                   user-file hashes), computed here, frozen
``predictions.py`` ``read_predictions(suite, path, column) -> list[Prediction]`` (every accepted format)
``score.py``       ``score(items, predictions, options, context, config) -> SuiteScore`` (pure: reads no file,
                   environment, memo or model, and never sees the ``Suite``); its ``units`` are the per-unit
                   scores every headline metric is derived from (:func:`derive`)
``report.py``      ``render_section(name, entry) -> str`` (pure: a results entry -> escaped HTML)
=================  ========================================================================================

Model-based metrics (SOUL's BERTScore) are not computed by ``score``: a suite declares a *metric stage*
(``SuiteSpec.measure``) that the runner calls, and caches like a model, before scoring; its per-item values reach
``score`` in ``ScoreContext.measures``.

A package's ``__init__.py`` declares one :class:`SuiteSpec` per suite and registers it in ``SUITES``.
Protocol-specific stages (``ratings.py``, ``grid.py``, ``probes.py`` ...) sit beside them.

Suite options are a frozen dataclass per suite whose fields are declared with :func:`option` (default,
help, choices, the environment variable the CLI reads as a default): the machinery of
:mod:`sentiprobe.core.options`, which model arguments use too (re-exported here). They are parsed from strings
by :func:`parse_options` (did-you-mean on unknown keys), recorded in ``results.json`` and enter the cache key
of fitted models. Nothing under ``suites/`` reads the environment: only ``cli/`` does.
"""
from __future__ import annotations

import dataclasses
from collections.abc import Callable, Iterable, Mapping, Sequence
from dataclasses import dataclass, field
from pathlib import Path
from typing import TYPE_CHECKING, Any, Protocol

from ..core.errors import ConfigError
from ..core.options import (NoOptions, describe_options, env_defaults, option, option_fields, options_dict,
                            parse_options)
from ..core.runspec import DEFAULT_CONFIDENCE
from ..core.types import Item, Metric, Prediction
from ..stats.level import alpha_of, confidence_of
from ..stats.units import UnitScores, unit_metrics
from .checks import check_predictions

if TYPE_CHECKING:
    from .base import Suite

__all__ = ["DEFAULT_CONFIDENCE", "INPUT_KINDS", "MISSING_POLICIES", "TASKS", "Measure", "MeasureCache", "NoOptions",
           "Predicted", "ScoreConfig", "ScoreContext", "SuiteScore", "SuiteSpec", "alpha_of", "confidence_of", "derive",
           "describe_options", "env_defaults", "option", "option_fields", "options_dict", "parse_options"]

TASKS = ("classify", "generate", "embed", "extract")
"""What a suite asks of a model: the adapter capability it needs (``SuiteSpec.accepts`` widens it).
``extract``: span extraction (triplet suites); the adapter returns structured spans, not a label."""
INPUT_KINDS = ("text", "text+aspect", "text-pair", "tokens")
"""What the model sees of an item (passed to ``ModelAdapter.classify`` / ``fit``)."""
MISSING_POLICIES = ("error", "wrong", "variants-wrong")


@dataclass(frozen=True)
class ScoreConfig:
    """What every score stage is told besides its items, predictions, options and context.

    A score stage returns per-unit scores; it never sees a resample count, a seed or a confidence level: the
    engine (:func:`derive`) takes those from the runner.

    Attributes:
        missing: ``error`` (a missing prediction is an error), ``wrong`` (counted as wrong, reported) or
            ``variants-wrong`` (ARTS: a missing variant is wrong, a missing source an error).
        path: the predictions file being scored, when there is one (named in errors).
    """

    missing: str = "error"
    path: str | None = None

    def __post_init__(self) -> None:
        if self.missing not in MISSING_POLICIES:
            raise ConfigError(f"missing must be one of {list(MISSING_POLICIES)}, not {self.missing!r}")


@dataclass(frozen=True)
class Measure:
    """Per-item values of one model-based metric, computed by a suite's metric stage (not by ``score``).

    Attributes:
        values: item id -> value, for the items the metric could be computed on.
        info: JSON-able settings the values were computed with (model, layer, versions), for the details.
        unavailable: why the metric could not be computed at all (an optional extra is not installed);
            ``None`` when computed. A wrong setting is a typed error of the metric stage, never this.
    """

    values: Mapping[str, float] = field(default_factory=dict)
    info: Mapping[str, Any] = field(default_factory=dict)
    unavailable: str | None = None


@dataclass(frozen=True)
class ScoreContext:
    """Everything a score stage knows besides the items, the predictions and the options.

    Built by the data stage (``data.score_context(suite, trained)``) and completed by the metric stage
    (``measures``), outside ``score``: a score stage that only reads its arguments is a pure function, so its
    result can be cached on what computed them. Suites that need more (a release's tables, a fitted baseline)
    subclass it with further frozen fields.

    Attributes:
        suite: suite name (named in errors).
        labels: the label set predictions must come from.
        provenance: JSON-able facts the score stage reports as they are (training source, user-file records).
        measures: metric name -> :class:`Measure` from the suite's metric stage (empty without one).
    """

    suite: str
    labels: tuple[str, ...]
    provenance: Mapping[str, Any] = field(default_factory=dict)
    measures: Mapping[str, Measure] = field(default_factory=dict)

    def check(self, items: Sequence[Item], predictions: Sequence[Prediction], config: ScoreConfig, *,
              missing: str | None = None) -> dict[str, Prediction]:
        """Predictions by item id, validated against the items (:func:`~.checks.check_predictions`)."""
        return check_predictions(self.suite, self.labels, items, predictions,
                                 missing=config.missing if missing is None else missing, path=config.path)


class MeasureCache(Protocol):
    """What a metric stage caches its per-request values in (the runner's prediction cache is one)."""

    def get_many(self, fp: str, keys: Iterable[str], table: str = ...) -> dict[str, Any]: ...

    def put_many(self, fp: str, values: Mapping[str, Any], table: str = ...) -> None: ...


@dataclass(frozen=True)
class SuiteScore:
    """What a suite's ``score`` stage returns.

    Attributes:
        metrics: metric name -> Metric (value, CI, n). The metrics of ``units`` are not the score stage's to
            compute: :func:`derive` adds them from the per-unit scores (the score stage returns the others).
        details: JSON-able extras for the report (per-strategy tables, missing ids, examples).
        tables: optional extra tables a user may write to disk (file name -> text, e.g. NonCompSST's
            rating TSVs); the score stage never writes them itself (``sentiprobe score --tables-out``).
        units: the per-unit scores (:class:`~sentiprobe.stats.units.UnitScores`): every value, interval, paired
            test and rank of their metrics is derived from them, wherever it is shown; stored in results.json.
    """

    metrics: dict[str, Metric]
    details: dict[str, Any] = field(default_factory=dict)
    tables: dict[str, str] = field(default_factory=dict)
    units: UnitScores | None = None

    def to_dict(self) -> dict[str, Any]:
        d = {"metrics": {k: m.to_dict() for k, m in self.metrics.items()}, "details": self.details}
        if self.units is not None:
            d["units"] = self.units.to_dict()
        return d


def derive(scored: SuiteScore, *, n_boot: int, seed: int, confidence: float) -> SuiteScore:
    """The score stage's result with the metrics of its per-unit scores computed by the engine
    (:func:`~sentiprobe.stats.units.unit_metrics`: value, percentile interval over units at level ``confidence``
    from ``n_boot`` resamples drawn with ``seed``, ``n`` = units). Those come first, in the order of the per-unit
    scores; the stage's other metrics follow. Pure, like the score stage."""
    if isinstance(n_boot, bool) or not isinstance(n_boot, int) or n_boot < 0:
        raise ConfigError(f"n_boot must be a non-negative integer, not {n_boot!r}")
    alpha = alpha_of(confidence)  # ConfigError before any work
    if scored.units is None:
        return scored
    derived = unit_metrics(scored.units, n_boot=n_boot, seed=seed, alpha=alpha)
    rest = {k: m for k, m in scored.metrics.items() if k not in derived}
    return dataclasses.replace(scored, metrics={**derived, **rest})


@dataclass(frozen=True)
class Predicted:
    """What the predict stage returns: the predictions and, for a generative model, the record of how it was asked
    (prompt template and version, reply schema, decoding mode, shots: ``results.json``'s ``details.generation``).

    Why a return value: the record used to travel to the runner through a dict shared by every use of the bound
    suite, where a stage of one model could leave it for another's results.

    Attributes:
        predictions: one Prediction per item asked.
        asked: how the model was asked (None: a plain classifier, nothing generated).
    """

    predictions: tuple[Prediction, ...]
    asked: Mapping[str, Any] | None = None

    def __post_init__(self) -> None:
        object.__setattr__(self, "predictions", tuple(self.predictions))
        if self.asked is not None:
            object.__setattr__(self, "asked", dict(self.asked))  # a copy: the stage's record cannot change it


LoadItems = Callable[["Suite", str], list[Item]]
DataFiles = Callable[["Suite"], list[str]]
ReadPredictions = Callable[["Suite", Path, "str | None"], list[Prediction]]
# the context argument is the suite's own ScoreContext subclass (typed Any here: Callable is contravariant)
Score = Callable[[Sequence[Item], Sequence[Prediction], Any, Any, ScoreConfig], SuiteScore]
ScoreContextFn = Callable[["Suite", bool], ScoreContext]
MetricStage = Callable[[Any, Sequence[Item], Sequence[Prediction], "MeasureCache | None"], Mapping[str, Measure]]
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
        score: ``score.score(items, predictions, options, context, config)`` (pure, see the module docstring).
        render_section: ``report.render_section(name, entry)`` (pure).
        options: the frozen options dataclass (:class:`NoOptions` when there are none).
        seeds: training seeds a learning model is run with (NonCompSST uses 3).
        accepts: model capabilities the suite can use (default: ``{task}``).
        statistics: ``data.statistics(suite)`` for ``sentiprobe data stats`` (default: counts per split).
        predict: protocol-specific prediction stage ``predict(suite, predictor, items) -> Predicted``
            (default: classify).
        training: ``(train_items, dev_items)`` a learning model is fitted on (default: the train and dev splits).
        groups_name: what ``Item.group_id`` is (``source example``, ``review``...): the suite's resampling unit.
        score_context: ``data.score_context(suite, trained)``: the frozen :class:`ScoreContext` of this bound
            suite (``trained``: a model was fitted on the suite's training data, so scoring reports where that data
            came from); default: the suite's name and labels.
        measure: the metric stage ``measure(options, items, predictions, cache)`` -> ``{metric: Measure}`` of
            model-based metrics (None: the suite has none); run before ``score``, cached per request in ``cache``.
        headline: the metrics a summary shows first (the run's results table, ``--json``); empty: the first
            metric the score stage returns. Names that a run did not produce are skipped.
        prompting: how generative models are asked (:class:`~.prompting.GenerativeTask`: prompt template,
            reply schema, few-shot examples). A classification suite with one accepts models that only
            generate (their replies parsed into labels); ``sentiprobe list prompts`` shows it.
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
    predict: Callable[[Suite, Any, Sequence[Item]], Predicted] | None = None
    training: Callable[[Suite], tuple[list[Item], list[Item]]] | None = None
    groups_name: str = "item"
    headline: tuple[str, ...] = ()
    score_context: ScoreContextFn | None = None
    measure: MetricStage | None = None
    prompting: Any = None
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
        if self.prompting is not None and "generate" not in self.accepts:
            object.__setattr__(self, "accepts", self.accepts | {"generate"})
