"""Versioned SOUL prompt templates (docs/protocols/soul.md#text-to-text, #jg-target, #rc-prompt, #jg-prompt).

Every template has a ``version`` and a ``hash`` (of its name, version and text). Both are stored in
every Prediction's ``meta`` and in the suite's results ``details``, together with the full prompt
text of each request, because LLM scores are sensitive to wording. Changing a template's text
changes its hash; bump its version too.

Templates:

- ``rc-chat``: zero-shot RC prompt (docs/protocols/soul.md#rc-prompt): lead-in line, review, question, statement, an
  instruction to answer in lower case with no other text.
- ``jg-chat``: zero-shot JG prompt (docs/protocols/soul.md#jg-prompt): lead-in, review, instruction to answer two
numbered
  questions (label, reason) and to skip neither, the statement at the very end.
- ``seq2seq-source``: ``"Review:\\n{review}\\n\\nStatement:\\n{statement}"`` (docs/protocols/soul.md#text-to-text), sent
as a plain
  string to text-to-text models fine-tuned on SOUL (``prompt_style="seq2seq"``).
- ``jg-target``: ``"Label:\\n{label}\\nJustification:\\n{justification}"`` (docs/protocols/soul.md#jg-target), the
training target
  of seq2seq JG models.

The wording of the chat templates is sentiprobe's own (the protocol definition fixes their structure, the option
spellings ``true`` / ``false`` / ``not-given`` and RC's lower-case instruction).
"""
from __future__ import annotations

from dataclasses import dataclass
from typing import Any

from ...core.errors import ConfigError
from ...core.hashing import stable_hash
from ...core.types import SCHEMA_VERSION, Item
from ..prompting import GenerativeTask, ReplySchema, label_reply
from ..prompting import PromptTemplate as GenTemplate
from .load import LABELS


@dataclass(frozen=True)
class PromptTemplate:
    """A named, versioned prompt template with ``{review}`` / ``{statement}`` (etc.) fields.

    Attributes:
        name: template name (``rc-chat``).
        version: version string, bumped whenever ``text`` changes.
        text: the template (``str.format`` fields).
        chat: True for zero-shot chat prompts, False for seq2seq strings. Both are sent as a plain
            string, which chat adapters turn into one user message with no system message
            (docs/protocols/soul.md#llm-decoding).
    """

    name: str
    version: str
    text: str
    chat: bool = True
    schema_version: int = SCHEMA_VERSION

    @property
    def hash(self) -> str:
        return stable_hash({"name": self.name, "version": self.version, "text": self.text, "chat": self.chat}, 16)

    def render(self, **fields: str) -> str:
        return self.text.format(**fields)

    def describe(self) -> dict[str, Any]:
        """JSON-able record of the template (for results details)."""
        return {"name": self.name, "version": self.version, "hash": self.hash, "chat": self.chat, "text": self.text}


RC_CHAT = PromptTemplate("rc-chat", "1", (
    "Here is a review:\n\n"
    "{review}\n\n"
    "According to the review, is the statement below true, false or not-given?\n\n"
    "{statement}\n\n"
    "Reply with your answer (true, false or not-given) in lower case and no other text."))

JG_CHAT = PromptTemplate("jg-chat", "1", (
    "Here is a review:\n\n"
    "{review}\n\n"
    "Answer the following two questions about the statement at the end, and do not skip either of them.\n"
    "1. According to the review, is the statement true, false or not-given?\n"
    "2. What is the reason for your answer?\n\n"
    "Statement: {statement}"))

SEQ2SEQ_SOURCE = PromptTemplate("seq2seq-source", "1", "Review:\n{review}\n\nStatement:\n{statement}", chat=False)
JG_TARGET = PromptTemplate("jg-target", "1", "Label:\n{label}\nJustification:\n{justification}", chat=False)

PROMPT_STYLES = ("chat", "seq2seq")
SUITE_TASKS = {"soul-rc": "rc", "soul-jg": "jg"}
"""The SOUL task of each suite: the two suites share every stage function and differ by this."""


def soul_task(suite_name: str) -> str:
    """``rc`` or ``jg`` for a SOUL suite name."""
    try:
        return SUITE_TASKS[suite_name]
    except KeyError:
        raise ConfigError(f"{suite_name!r} is not a SOUL suite ({', '.join(SUITE_TASKS)})") from None


def template_for(task: str, style: str = "chat") -> PromptTemplate:
    """The prompt template of a SOUL task (``rc`` / ``jg``) in a prompt style (``chat`` / ``seq2seq``)."""
    if style not in PROMPT_STYLES:
        raise ConfigError(f"unknown SOUL prompt style {style!r}; use one of {list(PROMPT_STYLES)}")
    if task not in ("rc", "jg"):
        raise ConfigError(f"unknown SOUL task {task!r}; use rc or jg")
    if style == "seq2seq":
        return SEQ2SEQ_SOURCE
    return RC_CHAT if task == "rc" else JG_CHAT


def prompt_text(template: PromptTemplate, item: Item) -> str:
    """The prompt text of one item (review and statement verbatim)."""
    return template.render(review=item.text, statement=item.text_pair or "")


def seq2seq_target(label: str, justification: str | None = None) -> str:
    """The training target of a seq2seq model: the label (RC) or the JG target (docs/protocols/soul.md#text-to-text,
    #jg-target)."""
    if justification is None:
        return label
    return JG_TARGET.render(label=label, justification=justification)


# ---- structured decoding and few-shot prompts (GenerativeTask, see ..prompting) ----------------------------
# The protocol's zero-shot templates above are used as they are when decoding is free text and no examples are
# asked for (the published setting); with a reply schema or ``shots=k`` the prompt is composed from these.

def _fields(item: Item) -> dict[str, str]:
    return {"review": item.text, "statement": item.text_pair or ""}


def _justification(item: Item) -> str | None:
    j = (item.meta or {}).get("justification")
    return j if isinstance(j, str) and j.strip() else None


def _jg_gold(item: Item) -> dict[str, str] | None:
    j = _justification(item)
    return {"label": item.label, "justification": j} if item.label in LABELS and j else None


RC_TEMPLATE = GenTemplate(
    "soul-rc", "3",
    "Read the review, then decide whether the statement is true, false or not-given according to the review.",
    "Reply with your answer (true, false or not-given) in lower case and no other text.",
    "Review: {review}\nStatement: {statement}")

JG_TEMPLATE = GenTemplate(
    "soul-jg", "3",
    "Read the review, then decide whether the statement is true, false or not-given according to the review, "
    "and give the reason for your answer.",
    "Answer the two questions, and do not skip either of them:\n1. Is the statement true, false or not-given?\n"
    "2. What is the reason for your answer?",
    "Review: {review}\nStatement: {statement}")

RC_TASK = GenerativeTask(
    template=RC_TEMPLATE, reply=label_reply("soul_rc_answer", LABELS, field="answer"), fields=_fields,
    gold=lambda it: {"answer": it.label} if it.label in LABELS else None, max_tokens=256, labels=LABELS)

JG_TASK = GenerativeTask(
    template=JG_TEMPLATE,
    reply=ReplySchema(
        name="soul_jg_answer",
        schema={"type": "object", "properties": {"label": {"type": "string", "enum": list(LABELS)},
                                                 "justification": {"type": "string", "description":
                                                                   "the reason for your answer, in your own words"}},
                "required": ["label", "justification"], "additionalProperties": False},
        example={"label": "true", "justification": "The review says ..."}, field="label"),
    fields=_fields, gold=_jg_gold,
    gold_text=lambda it: f"1. {it.label}\n2. {_justification(it)}", max_tokens=256, labels=LABELS)

TASKS = {"rc": RC_TASK, "jg": JG_TASK}
