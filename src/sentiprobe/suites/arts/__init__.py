"""The ARTS suites (aspect robustness; spec `docs/protocols/arts.md`).

Registers ``arts-laptop``, ``arts-rest``, ``arts-mams`` and ``arts-custom`` (a user's enriched file,
``custom``) into ``SUITES``. Test generation lives in the ``generate`` subpackage. Stage modules: ``data``
(items per split, docs/protocols/arts.md#dataset-statistics statistics, data warnings; each released suite's domain
bound into its stages), ``custom`` (the stages of ``arts-custom``),
``predictions`` (results CSVs and ``item_id,label`` files), ``score`` (accuracy, ARS, subset accuracies; pure),
``report`` (HTML). Protocol helpers: ``formats`` (records, id rules), ``load`` (file loaders), ``items`` (records ->
Items), ``datastats`` (docs/protocols/arts.md#dataset-statistics).

Test items are the original test examples plus their RevTgt, RevNon and AddDiff variants; the resampling
unit of ARS is the source example (``Item.group_id``). ARTS has no suite options; the policy for missing
predictions (``error`` / ``wrong`` / ``variants-wrong``) comes from ``ScoreConfig.missing``.
"""
from __future__ import annotations

from ..base import SUITES
from ..spec import NoOptions, SuiteSpec
from . import custom, data, predictions, prompts, report, score
from .formats import LABELS

_DESCRIPTIONS = {
    "arts-laptop": "ARTS aspect robustness, SemEval-2014 laptop (accuracy, ARS, per-strategy accuracies)",
    "arts-rest": "ARTS aspect robustness, SemEval-2014 restaurant (accuracy, ARS, per-strategy accuracies)",
    "arts-mams": "ARTS aspect robustness, MAMS (accuracy, ARS, per-strategy accuracies)",
}


def _spec(name: str) -> SuiteSpec:
    stages = data.released_stages(data.DOMAINS[name])  # the one thing the released suites differ in: their domain
    return SuiteSpec(name=name, family="arts", version="1", description=_DESCRIPTIONS[name], labels=LABELS,
                     task="classify", input_kind="text+aspect", load_items=stages.load_items,
                     data_files=stages.data_files, read_predictions=predictions.read_predictions,
                     score=score.score, render_section=report.render_section, options=NoOptions,
                     statistics=stages.statistics, groups_name="source example",
                     headline=("ars", "accuracy_original"),
                     score_context=data.score_context,
                     prompting=prompts.TASK)


ARTS_LAPTOP = SUITES.register(_spec("arts-laptop"))
"""SemEval-2014 laptop test set + RevTgt/RevNon/AddDiff variants (1877 items)."""
ARTS_REST = SUITES.register(_spec("arts-rest"))
"""SemEval-2014 restaurant test set + variants (3530 items)."""
ARTS_MAMS = SUITES.register(_spec("arts-mams"))
"""MAMS test set + variants, rebuilt from the published results CSV (3863 items)."""

ARTS_CUSTOM = SUITES.register(SuiteSpec(
    name="arts-custom", family="arts", version="1",
    description="ARTS aspect robustness on your own enriched file (e.g. from `sentiprobe arts generate`): "
                "accuracy, ARS, per-strategy accuracies", labels=LABELS, task="classify", input_kind="text+aspect",
    load_items=data.custom_items, data_files=custom.data_files, read_predictions=predictions.read_predictions,
    score=score.score, render_section=report.render_section, options=custom.CustomOptions,
    statistics=custom.statistics, groups_name="source example", headline=("ars", "accuracy_original"),
    score_context=custom.score_context,
    prompting=prompts.TASK))
"""A generated or user-supplied enriched set (``--suite-arg path=FILE``), scored like the released ones."""

__all__ = ["ARTS_CUSTOM", "ARTS_LAPTOP", "ARTS_MAMS", "ARTS_REST"]
