"""How generative models are asked the SENTiVENT classification tasks (``SuiteSpec.prompting``).

Versioned templates (bump the version when a text changes); the reply schema is an enum of the suite's labels.
"""
from __future__ import annotations

from ...core.types import Item
from ..prompting import PromptTemplate, label_task
from .load import CLAUSE_LABELS, POLAR_LABELS


def _fields(item: Item) -> dict[str, str]:
    return {"text": item.text}


POLAR_TEMPLATE = PromptTemplate(
    "sentivent-polar", "2",
    "The text below comes from business news about a company. It contains an expression that conveys "
    "sentiment (possibly implicit: good or bad news for the company or its investors). Classify that "
    "sentiment as positive, neutral or negative.",
    "Answer with one word: positive, neutral or negative.",
    "Text: {text}")

CLAUSE_TEMPLATE = PromptTemplate(
    "sentivent-clause", "2",
    "The clause below comes from business news about a company. Classify the economic sentiment it conveys "
    "(possibly implicit: good or bad news for the company or its investors) as positive, neutral or negative, "
    "or none when it conveys no sentiment.",
    "Answer with one word: positive, neutral, negative or none.",
    "Clause: {text}")

POLAR_TASK = label_task(POLAR_TEMPLATE, POLAR_LABELS, _fields, name="sentivent_polarity")
CLAUSE_TASK = label_task(CLAUSE_TEMPLATE, CLAUSE_LABELS, _fields, name="sentivent_clause_polarity")
