"""The noncompsst suites (see ../shared/specs/noncompsst.md).

- ``noncompsst``: non-compositionality of sentiment (Dankers and Lucas 2023): a model trained on
  SST-7 rates the 1,813 Study-2 stimuli; its phrase ratings are correlated with the humans'.
- ``sst7``: the SST-7 training task itself (7-class sentence sentiment).

Stages: :mod:`.load` (NonCompSST files), :mod:`.sst` (SST raw files), :mod:`.sst7` (binning,
removal rule, splits), :mod:`.ratings` (the five rating variants), :mod:`.score` (metrics),
:mod:`.predictions` (seeded prediction files), :mod:`.report` (HTML), :mod:`.suite` (suites).
"""
from __future__ import annotations

from ..legacy import register_legacy
from .load import load_noncompsst
from .ratings import VARIANTS, pool_predictions, ratings, write_ratings
from .score import evaluate
from .sst7 import build_sst7_phrases, build_sst7_sentences, sst7_label
from .suite import NonCompSSTSuite, SST7Suite

__all__ = ["NonCompSSTSuite", "SST7Suite", "VARIANTS", "build_sst7_phrases", "build_sst7_sentences", "evaluate",
           "load_noncompsst", "pool_predictions", "ratings", "sst7_label", "write_ratings"]

register_legacy(NonCompSSTSuite)
register_legacy(SST7Suite)
