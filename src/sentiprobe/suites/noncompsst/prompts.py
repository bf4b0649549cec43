"""How generative models are asked the SST-7 rating tasks (``sst7``, ``noncompsst``): the 7-point label scale.

Versioned template (bump the version when a text changes); the reply schema is an enum of ``"0"`` .. ``"6"``.
"""
from __future__ import annotations

from ...core.types import Item
from ..prompting import PromptTemplate, label_task
from .sst7 import LABELS7


def _fields(item: Item) -> dict[str, str]:
    return {"text": item.text}


TEMPLATE = PromptTemplate(
    "sst7-rating", "2",
    "Rate the sentiment of the movie-review phrase on a scale from 0 to 6: 0 very negative, 1 negative, "
    "2 somewhat negative, 3 neutral, 4 somewhat positive, 5 positive, 6 very positive.",
    "Answer with a single digit from 0 to 6.",
    "Phrase: {text}", cue="Rating:")

TASK = label_task(TEMPLATE, LABELS7, _fields, name="sentiment_rating", field="rating")
