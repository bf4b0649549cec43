"""The SENTiVENT suites (see docs/protocols/sentivent.md): implicit economic sentiment in company news.

Registered suites:

- ``sentivent-polar`` (task A): polarity of gold polar expressions, positive / neutral / negative; the
  model sees the ``polex+targets`` window (polar span and its targets made contiguous);
- ``sentivent-clause`` (task B): clause polarity, positive / neutral / negative / none; the model sees
  ``clause_text`` (labels re-derived from ``polarity_all`` and verified).

Stage modules: ``data`` (items with lexicon features in ``Item.features``, statistics), ``predictions``
(published prediction layouts), ``score`` (classification report; pure), ``report`` (HTML section).
Protocol helpers: ``load`` (validated readers, split rule), ``lexicon`` (lexicon features,
docs/protocols/sentivent.md#lexicon-features), ``analysis`` (error lists and search winners). Options:
:class:`~.options.SentiventOptions`.
"""
from __future__ import annotations

from ..base import SUITES
from ..spec import SuiteSpec
from . import data, predictions, prompts, report, score
from .load import CLAUSE_LABELS, POLAR_LABELS
from .options import SentiventOptions


def _spec(name: str, labels: tuple[str, ...], description: str, prompting: object) -> SuiteSpec:
    return SuiteSpec(name=name, family="sentivent", version="1", description=description, labels=labels,
                     task="classify", input_kind="text", load_items=data.load_items, data_files=data.data_files,
                     read_predictions=predictions.read_predictions, score=score.score,
                     render_section=report.render_section, options=SentiventOptions, statistics=data.statistics,
                     headline=("macro_f1", "accuracy"),
                     score_context=data.score_context,
                     prompting=prompting)


SENTIVENT_POLAR = SUITES.register(_spec(
    "sentivent-polar", POLAR_LABELS,
    "SENTiVENT implicit economic sentiment, task A: polarity of gold polar expressions", prompts.POLAR_TASK))
SENTIVENT_CLAUSE = SUITES.register(_spec(
    "sentivent-clause", CLAUSE_LABELS,
    "SENTiVENT implicit economic sentiment, task B: clause polarity (incl. none)", prompts.CLAUSE_TASK))

__all__ = ["SENTIVENT_CLAUSE", "SENTIVENT_POLAR", "SentiventOptions"]
