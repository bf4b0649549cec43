"""How generative models are asked the ARTS suites (``SuiteSpec.prompting``): aspect-level sentiment.

Versioned template (bump the version when a text changes); the reply schema is an enum of the labels.
"""
from __future__ import annotations

from ...core.types import Item
from ..prompting import PromptTemplate, label_task
from .formats import LABELS


def _fields(item: Item) -> dict[str, str]:
    return {"text": item.text, "aspect": item.aspect or ""}


TEMPLATE = PromptTemplate(
    "arts-aspect", "2",
    "Classify the sentiment that the review sentence expresses towards the given aspect (not towards "
    "anything else in the sentence) as positive, negative or neutral.",
    "Answer with one word: positive, negative or neutral.",
    "Sentence: {text}\nAspect: {aspect}")

TASK = label_task(TEMPLATE, LABELS, _fields, name="aspect_sentiment")
