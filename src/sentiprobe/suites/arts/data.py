"""ARTS data stage (docs/protocols/arts.md#data, #dataset-statistics, #data-irregularities): items per split, data
files, dataset statistics.

Test items are the original SemEval/MAMS test examples plus their RevTgt, RevNon and AddDiff variants;
train/dev items come from the flat split files. The three suites differ only in their domain folder
(:data:`DOMAINS`) and in where MAMS's test set lives (it exists only as the published results CSV).

Each released suite's spec holds stage functions with its domain bound in (:func:`released_stages`): the
suites vary through their specs, never by testing their own names; ``arts-custom`` has its own stages
(:func:`custom_items`, :mod:`.custom`).

The tolerated irregularities of the released data (docs/protocols/arts.md#data-irregularities) met while loading a split
are loaded with it (one cached load per bound suite and split, :func:`loaded`; see :func:`data_warnings`); the
items themselves carry them in ``meta["data_warnings"]`` so that scoring reports them without the suite.
"""
from __future__ import annotations

from collections import Counter
from collections.abc import Callable
from dataclasses import dataclass
from typing import TYPE_CHECKING, Any

from ...core.errors import DataError, MissingDataError
from ...core.types import Item
from ..spec import ScoreContext
from . import custom, load
from .datastats import original_test_stats
from .formats import LABELS, DataWarning, summarise
from .items import enriched_items, flat_items, results_items

if TYPE_CHECKING:
    from ..base import Suite

DOMAINS = {"arts-laptop": "laptop", "arts-rest": "rest", "arts-mams": "mams"}
"""Released suite name -> folder name under ``src_data/`` (and prefix of the test files); read once, when the
specs are declared."""


@dataclass(frozen=True)
class Stages:
    """The data-stage functions of one released ARTS suite (its domain bound in)."""

    load_items: Callable[[Suite, str], list[Item]]
    data_files: Callable[[Suite], list[str]]
    statistics: Callable[[Suite], dict[str, Any]]


def released_stages(domain: str) -> Stages:
    """The data stages of the released suite of ``domain`` (``laptop``, ``rest``, ``mams``)."""

    def load_items_of(suite: Suite, split: str) -> list[Item]:
        return load_items(suite, split, domain=domain)

    def data_files_of(suite: Suite) -> list[str]:
        return data_files(suite, domain=domain)

    def statistics_of(suite: Suite) -> dict[str, Any]:
        return statistics(suite, domain=domain)

    return Stages(load_items_of, data_files_of, statistics_of)


def custom_items(suite: Suite, split: str) -> list[Item]:
    """The ``load_items`` stage of ``arts-custom`` (:func:`.custom.load_items`)."""
    return custom.load_items(suite, split)


def data_files(suite: Suite, *, domain: str) -> list[str]:
    """Manifest paths the test split needs (MAMS: the results CSV and the flat originals)."""
    if domain == "mams":
        return ["arts/output/mams_results.csv", "arts/src_data/mams/test.json"]
    return [f"arts/arts_testset/{domain}_test_enriched.json"]


def score_context(suite: Suite, trained: bool) -> ScoreContext:
    """What scoring reports beyond the items (nothing for a released set; see :func:`.custom.score_context`)."""
    return ScoreContext(suite.name, tuple(suite.labels), {})


Loaded = tuple[list[Item], list[DataWarning]]


def loaded(suite: Suite, split: str, domain: str) -> Loaded:
    """Items of ``split`` and the irregularities met while loading them (once per bound suite and split)."""

    def build() -> Loaded:
        warns: list[DataWarning] = []
        if split in ("train", "dev"):
            recs = load.load_flat(suite.path(f"src_data/{domain}/{split}.json"), warnings_out=warns)
            items = flat_items(recs, split, warns)
        elif split == "test":
            items = _load_mams_test(suite, warns) if domain == "mams" else _load_enriched_test(suite, domain, warns)
        else:
            return [], []
        summarise(warns, f"{suite.name} {split}")
        return items, warns

    return suite.cached(cache_key(split), build)


def load_items(suite: Suite, split: str, *, domain: str) -> list[Item]:
    """Items of ``split``; ``[]`` for a split ARTS does not have."""
    return loaded(suite, split, domain)[0]


def _load_enriched_test(suite: Suite, domain: str, warns: list[DataWarning]) -> list[Item]:
    recs = load.load_enriched(suite.path(f"arts_testset/{domain}_test_enriched.json"), warnings_out=warns)
    return enriched_items(recs, warns)


def _load_mams_test(suite: Suite, warns: list[DataWarning]) -> list[Item]:
    """MAMS test items rebuilt from the published results CSV (the only copy of its enriched set)."""
    table_warns: list[DataWarning] = []
    table = load.load_results_csv(suite.path("output/mams_results.csv"), warnings_out=table_warns)
    originals = load.load_flat(suite.path("src_data/mams/test.json"), warnings_out=table_warns)
    warns.extend(table_warns)
    return results_items(table, originals, warnings_out=warns, extra_warnings=table_warns)


def data_warnings(suite: Suite, split: str = "test") -> list[DataWarning]:
    """Tolerated irregularities (docs/protocols/arts.md#data-irregularities) met while loading ``split`` (loads it if
    needed)."""
    suite.items(split)  # every ARTS suite's load_items caches its load (items, warnings) under cache_key(split)
    return list(suite.cached(cache_key(split), lambda: ([], []))[1])


def cache_key(split: str) -> str:
    """Where an ARTS suite (released or custom) keeps the load of ``split`` in its bound suite's cache."""
    return f"arts:{split}"


def statistics(suite: Suite, *, domain: str) -> dict[str, Any]:
    """Item counts per split and kind, label counts, docs/protocols/arts.md#dataset-statistics statistics and data
    warnings.

    A split or per-sentence file that is missing or unreadable is reported in place of its numbers
    (``{"error": ...}``), not fatal: ``data stats`` should show what is there.
    """
    out: dict[str, Any] = {"suite": suite.name}
    warnings: list[dict[str, str]] = []
    for split in ("train", "dev", "test"):
        try:
            its = suite.items(split)
        except (MissingDataError, DataError) as exc:
            out[split] = {"error": str(exc)}
            continue
        kinds = Counter(it.kind for it in its)
        by_kind: dict[str, Counter] = {}
        for it in its:
            by_kind.setdefault(it.kind, Counter())[str(it.label)] += 1
        out[split] = {"items": len(its), "groups": len({i.group_id for i in its}),
                      "labels": _ordered(Counter(str(i.label) for i in its)), "kinds": dict(kinds),
                      "labels_by_kind": {k: _ordered(c) for k, c in by_kind.items()}}
        warnings += [w.to_dict() for w in loaded(suite, split, domain)[1]]
    sent_warns: list[DataWarning] = []
    try:
        sents = load.load_sent(suite.path(f"src_data/{domain}/test_sent.json"), towe=False,
                               warnings_out=sent_warns)
        out["dataset_statistics"] = {"original_test": original_test_stats(sents)}
    except (MissingDataError, DataError) as exc:
        out["dataset_statistics"] = {"error": str(exc)}
    out["data_warnings"] = warnings + [w.to_dict() for w in sent_warns]
    return out


def _ordered(c: Counter) -> dict[str, int]:
    return {lab: c[lab] for lab in (*LABELS, *sorted(set(c) - set(LABELS))) if c.get(lab)}
