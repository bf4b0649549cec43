"""The SOUL suites (see docs/protocols/soul.md and docs/soul.md).

- ``soul-rc``: review comprehension (true / false / not-given);
- ``soul-jg``: justification generation (label + justification).

Both suites share every stage function (they differ by the SOUL task, :func:`.prompts.soul_task`) and one
options type, :class:`.options.SoulOptions`. Stages: :mod:`.data` (items, training data, statistics),
:mod:`.predictions`, :mod:`.score`, :mod:`.report`, and the protocol-specific :mod:`.predict` (generation,
label scoring or classification of LLMs and baselines).
"""
from __future__ import annotations

from ..base import SUITES
from ..spec import SuiteSpec
from . import data, predictions, report, score, textmetrics
from .load import LABELS
from .options import SoulOptions
from .predict import predict
from .prompts import TASKS

__all__ = ["SOUL_JG", "SOUL_RC", "SoulOptions"]


def _spec(name: str, task: str, accepts: frozenset[str], description: str, headline: tuple[str, ...],
          prompt: str) -> SuiteSpec:
    return SuiteSpec(
        name=name, family="soul", version="1", description=description, labels=LABELS, task=task,
        input_kind="text-pair", load_items=data.load_items, data_files=data.data_files,
        read_predictions=predictions.read_predictions, score=score.score, render_section=report.render_section,
        options=SoulOptions, accepts=accepts, statistics=data.statistics, predict=predict,
        training=data.training, groups_name="review", headline=headline,
        score_context=data.score_context, measure=textmetrics.measure if task == "generate" else None,
        prompting=TASKS[prompt])


SOUL_RC = SUITES.register(_spec(
    "soul-rc", "classify", frozenset({"classify", "generate", "score_labels"}),
    "SOUL review comprehension (true / false / not-given), accuracy and per-class F1", ("accuracy",), "rc"))
SOUL_JG = SUITES.register(_spec(
    "soul-jg", "generate", frozenset({"generate", "classify"}),
    "SOUL justification generation: label accuracy + BLEU / ROUGE / BERTScore of justifications",
    ("accuracy", "rougeL"), "jg"))
