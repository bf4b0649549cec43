"""Triplet extraction suites (docs/protocols/triplets.md#data, #measures): <polar span, target span, polarity> with the
grid tagging scheme (GTS).

Registered suites (task ``extract``: the model returns triplets, not a label):

- ``sentivent-triplet``: the paper's dataset (``sentivent-event-devproto``: direct + event-induced triplets);
  its train split is missing, so models train on the protocol's reconstruction, always labelled
  "reconstructed train", or on ``train_file``;
- ``sentivent-triplet-direct``: the complete, directly annotated ``sentivent-devproto``;
- ``absa-triplet-explicit``: the explicit review benchmark ``joinedsemeval`` (lap14/res14/res15/res16).

Stage modules: ``data`` (items, statistics with round-trip counts), ``predictions`` (JSONL / loose JSON),
``score`` (pure), ``report``. Protocol modules: ``grid`` (builder and decoder, docs/protocols/triplets.md#grid, #model,
#decoding), ``load`` (GTS JSON readers, reconstruction), ``parse`` (lenient parser), ``llm_extract`` (predict stage and
prompt). The trainable tagger is :mod:`sentiprobe.models.gts`.
"""
from __future__ import annotations

from ..base import SUITES
from ..spec import SuiteSpec
from . import data, llm_extract, predictions, report, score
from ...protocols.triplets.grid import POLARITIES
from .options import TripletOptions


def _spec(name: str, description: str) -> SuiteSpec:
    return SuiteSpec(name=name, family="sentivent", version="1", description=description, labels=POLARITIES,
                     task="extract", input_kind="tokens", load_items=data.load_items, data_files=data.data_files,
                     read_predictions=predictions.read_predictions, score=score.score,
                     render_section=report.render_section, options=TripletOptions,
                     accepts=frozenset({"extract", "generate"}), statistics=data.statistics,
                     predict=llm_extract.predict, training=data.training, groups_name="sentence",
                     headline=("triplet_f1",),
                     score_context=data.score_context,
                     prompting=llm_extract.TASK)


SENTIVENT_TRIPLET = SUITES.register(_spec(
    "sentivent-triplet", "SENTiVENT triplet extraction (GTS), paper dataset; train = reconstructed train"))
SENTIVENT_TRIPLET_DIRECT = SUITES.register(_spec(
    "sentivent-triplet-direct", "SENTiVENT triplet extraction (GTS), complete directly-annotated dataset"))
ABSA_TRIPLET_EXPLICIT = SUITES.register(_spec(
    "absa-triplet-explicit", "Explicit ABSA triplet extraction (GTS) on SemEval 14-16 reviews (joinedsemeval)"))

__all__ = ["ABSA_TRIPLET_EXPLICIT", "SENTIVENT_TRIPLET", "SENTIVENT_TRIPLET_DIRECT", "TripletOptions"]
