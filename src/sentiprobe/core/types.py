"""Core types: frozen dataclasses for everything written to disk.

Every serialised document carries ``schema_version``. ``to_dict``/``from_dict`` are the
only (de)serialisers; JSON is the only on-disk format (never pickle).
"""
from __future__ import annotations

import math
from dataclasses import asdict, dataclass, field, fields
from typing import Any

SCHEMA_VERSION = 1


@dataclass(frozen=True)
class Item:
    """One thing a model is asked.

    Attributes:
        item_id: stable id, derived from the source id and, for generated variants, the recipe
            (e.g. ARTS ``1094:1_1_adv1``). Never normalised or stripped.
        group_id: the unit a grouped metric aggregates over (ARTS source example, SOUL review,
            NonCompSST phrase). Equals ``item_id`` when items are independent.
        split: ``train``, ``dev`` or ``test``.
        text: the main input text (sentence, review, phrase).
        label: gold label (a member of the suite's label set) or ``None`` when unlabelled.
        text_pair: optional second text (SOUL statement, NLI hypothesis).
        aspect: optional aspect/target term the label is about.
        span: optional ``(from, to)`` character span of ``aspect`` in ``text`` (0-based, end-exclusive).
        kind: what kind of item: ``original`` or a generation recipe (``revtgt``, ...).
        meta: free-form JSON-serialisable extras (source ids, reference justification, ...).
        features: optional numeric side features the suite computes for every item with the same keys
            (SENTiVENT lexicon features); models that use them read this field, never ``meta``.
        tokens: optional tokenisation of ``text`` (span-based suites: LexComp, triplets).
    """

    item_id: str
    group_id: str
    split: str
    text: str
    label: str | None = None
    text_pair: str | None = None
    aspect: str | None = None
    span: tuple[int, int] | None = None
    kind: str = "original"
    meta: dict[str, Any] = field(default_factory=dict)
    features: dict[str, float] | None = None
    tokens: tuple[str, ...] | None = None

    def to_dict(self) -> dict[str, Any]:
        # hand-written (not dataclasses.asdict): items are hashed by the thousand for cache keys
        d: dict[str, Any] = {"item_id": self.item_id, "group_id": self.group_id, "split": self.split, "text": self.text,
             "label": self.label, "text_pair": self.text_pair, "aspect": self.aspect,
             "span": list(self.span) if self.span is not None else None, "kind": self.kind,
             "meta": self.meta}
        if self.features is not None:
            d["features"] = self.features
        if self.tokens is not None:
            d["tokens"] = list(self.tokens)
        return d

    @classmethod
    def from_dict(cls, d: dict[str, Any]) -> Item:
        names = {f.name for f in fields(cls)}
        kw = {k: v for k, v in d.items() if k in names}
        if kw.get("span") is not None:
            kw["span"] = tuple(kw["span"])
        if kw.get("tokens") is not None:
            kw["tokens"] = tuple(kw["tokens"])
        return cls(**kw)


@dataclass(frozen=True)
class Prediction:
    """A model's answer for one item.

    Attributes:
        item_id: the item this answers.
        label: predicted label, or ``None`` when the model output could not be parsed.
        scores: optional per-label probabilities / scores.
        text: optional generated text (e.g. a justification).
        raw: raw model output, kept for audit.
        parse_ok: ``False`` when ``raw`` could not be turned into a label (scored as wrong).
        meta: extras (latency, source column, ...).
        seed: the training seed of the model that made it (multi-seed suites score every seed); ``None``
            for single-seed suites.
    """

    item_id: str
    label: str | None
    scores: dict[str, float] | None = None
    text: str | None = None
    raw: str | None = None
    parse_ok: bool = True
    meta: dict[str, Any] = field(default_factory=dict)
    seed: int | None = None

    def to_dict(self) -> dict[str, Any]:
        # hand-written (not dataclasses.asdict, a deep copy): predictions files hold 10^5 of them
        d: dict[str, Any] = {"item_id": self.item_id, "label": self.label,
                             "scores": None if self.scores is None else dict(self.scores), "text": self.text,
                             "raw": self.raw, "parse_ok": self.parse_ok, "meta": dict(self.meta)}
        if self.seed is not None:
            d["seed"] = self.seed
        return d

    @classmethod
    def from_dict(cls, d: dict[str, Any]) -> Prediction:
        names = {f.name for f in fields(cls)}
        return cls(**{k: v for k, v in d.items() if k in names})


METRIC_UNITS = ("fraction", "correlation", "coefficient", "score", "count")
_UNIT_BY_PREFIX = (
    (("pearson", "spearman", "kendall"), "correlation"),
    (("kappa", "fleiss", "cohen", "krippendorff", "gwet", "alpha_", "q_"), "coefficient"),
    (("bleu", "rouge", "bertscore", "judge", "mean_"), "score"),
    (("n_", "count_"), "count"),
)


def metric_unit(name: str) -> str:
    """The unit of a metric from its name (one table for every suite; a metric may also set ``unit``)."""
    low = name.lower()
    for prefixes, unit in _UNIT_BY_PREFIX:
        if low.startswith(prefixes):
            return unit
    return "fraction"


def ci_label(confidence: float | None) -> str:
    """The header of an interval at ``confidence`` (``0.95`` -> ``95% CI``, ``0.995`` -> ``99.5% CI``); results
    written before the level was recorded were all at 95%."""
    level = 0.95 if confidence is None else float(confidence)
    return f"{round(level * 100, 6):g}% CI"


@dataclass(frozen=True)
class Metric:
    """A metric value with its confidence interval and sample size. A bare float is not a result.

    Attributes:
        name: metric name (``accuracy_original``, ``ars``, ...).
        value: point estimate (fractions in [0, 1] for rates), or ``None`` when not computable.
        ci_low, ci_high: bounds of the confidence interval (``None`` when not computable).
        n: number of units the value is computed over (items, or groups for grouped metrics).
        higher_is_better: direction for reports and comparisons.
        ci_method: how the interval was obtained (``bootstrap-percentile``, ``wilson``, ...).
        note: free text (e.g. why a value is not computable, counts).
        unit: what the value is, so display never guesses: ``fraction`` (a rate in [0, 1], shown as %),
            ``correlation`` (r), ``coefficient`` (kappa, alpha), ``score`` (BLEU, ROUGE, judge ratings) or ``count``.
            Default: :func:`metric_unit` of the name.
        unit_name: what ``n`` counts (``source example``, ``review``, ``item``...), where the engine says so.
        n_items: the items behind those ``n`` units (None: not recorded).
    """

    name: str
    value: float | None
    ci_low: float | None
    ci_high: float | None
    n: int
    higher_is_better: bool = True
    ci_method: str = "bootstrap-percentile"
    note: str | None = None
    unit: str | None = None
    unit_name: str | None = None
    n_items: int | None = None

    def __post_init__(self) -> None:
        if self.unit is None:
            object.__setattr__(self, "unit", metric_unit(self.name))
        elif self.unit not in METRIC_UNITS:
            raise ValueError(f"metric {self.name}: unit {self.unit!r} is not one of {METRIC_UNITS}")

    def to_dict(self) -> dict[str, Any]:
        d = asdict(self)
        for k in ("value", "ci_low", "ci_high"):
            v = d[k]
            if v is not None and isinstance(v, float) and not math.isfinite(v):
                d[k] = None
        return d

    @classmethod
    def from_dict(cls, d: dict[str, Any]) -> Metric:
        names = {f.name for f in fields(cls)}
        return cls(**{k: v for k, v in d.items() if k in names})

    @classmethod
    def not_computable(cls, name: str, why: str, n: int = 0, higher_is_better: bool = True) -> Metric:
        return cls(name, None, None, None, n, higher_is_better, ci_method="none", note=why)
