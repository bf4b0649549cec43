"""The noncompsst suites (see docs/protocols/noncompsst.md).

- ``noncompsst``: non-compositionality of sentiment (Dankers and Lucas 2023): a model trained on
  SST-7 rates the 1,813 Study-2 stimuli; its phrase ratings are correlated with the humans'.
- ``sst7``: the SST-7 training task itself (7-class sentence sentiment).

Stage modules (the suite contract, :mod:`..spec`): :mod:`.data` (items, training, statistics),
:mod:`.predictions` (seeded prediction files and the seeded check), :mod:`.score` (pure scoring),
:mod:`.report` (HTML); options in :mod:`.options`. Protocol helpers: :mod:`.load` (NonCompSST files),
:mod:`.sst` (SST raw files), :mod:`.sst7` (binning, removal rule, splits), :mod:`.items` (stimulus
items), :mod:`.ratings` (the five rating variants), :mod:`.metrics` (correlations and F1).
"""
from __future__ import annotations

from ..base import SUITES
from ..spec import SuiteSpec
from . import data, predictions, prompts, report, score
from .load import load_noncompsst
from .metrics import evaluate
from .options import NonCompSSTOptions, SST7Options
from .ratings import VARIANTS, format_ratings, format_scores, pool_predictions, ratings, write_ratings
from .sst7 import LABELS7, build_sst7_phrases, build_sst7_sentences, sst7_label

__all__ = ["NONCOMPSST", "SST7", "NonCompSSTOptions", "SST7Options", "VARIANTS", "build_sst7_phrases",
           "build_sst7_sentences", "evaluate", "format_ratings", "format_scores", "load_noncompsst",
           "pool_predictions", "ratings", "sst7_label", "write_ratings"]

SST7 = SuiteSpec(
    name="sst7", family="noncompsst", version="1",
    description="SST-7: 7-class sentence sentiment (NonCompSST's training task), 3 seeds",
    labels=LABELS7, task="classify", input_kind="text",
    load_items=data.sst7_items, data_files=data.sst7_data_files, read_predictions=predictions.read_sst7_predictions,
    score=score.score_sst7, render_section=report.render_sst7_section, options=SST7Options, seeds=3,
    statistics=data.statistics, training=data.training, groups_name="sentence",
    headline=("macro_f1", "accuracy"), score_context=data.sst7_score_context,
    prompting=prompts.TASK)

NONCOMPSST = SuiteSpec(
    name="noncompsst", family="noncompsst", version="1",
    description="NonCompSST: model vs human non-compositionality ratings of 259 SST phrases (trained on SST-7)",
    labels=LABELS7, task="classify", input_kind="text",
    load_items=data.load_items, data_files=data.data_files, read_predictions=predictions.read_predictions,
    score=score.score, render_section=report.render_section, options=NonCompSSTOptions, seeds=3,
    statistics=data.statistics, training=data.training, groups_name="phrase",
    headline=("pearson_maxabs", "macro_f1_all"), score_context=data.score_context,
    prompting=prompts.TASK)

SUITES.register(NONCOMPSST)
SUITES.register(SST7)
