"""Answer parsing for SOUL (docs/protocols/soul.md#label-extraction, #justification-extraction, #answer-parsing,
#rc-metrics).

Two label rules:

- :func:`exact_label` (RC ``strict``, the reference code's behaviour, docs/protocols/soul.md#answer-parsing,
#rc-metrics): the reply,
  lower-cased and stripped, must *be* one of ``true`` / ``false`` / ``not-given``. ``false.``,
  ``Not given`` or ``The statement is false`` do not parse.
- :func:`extract_label` (docs/protocols/soul.md#label-extraction, shared by every generative path): lower-case and
strip, replace
  ``not given`` by ``not-given``, then take the first match of ``true|false|not-given`` anywhere, with
  no word boundaries. Its known quirks are reproduced on purpose: ``untrue`` -> ``true``,
  ``not true`` -> ``true``, ``falsely`` -> ``false``, ``true, false or not-given`` -> ``true``.

Modes: for RC the primary (``strict``) label is :func:`exact_label` and the ``lenient`` label is
:func:`extract_label`. For JG the protocol's rule *is* :func:`extract_label`, so JG's primary and lenient
labels coincide (``accuracy_lenient`` equals ``accuracy`` there, by construction).

Justification candidates (:func:`extract_justification`, one rule for every model,
docs/protocols/soul.md#justification-extraction, #answer-parsing):

1. text after the first case-insensitive ``Justification:`` marker (seq2seq ``Label: x Justification: y``);
2. else, a reply starting with ``1.`` (LLM numbered answers): the text after the first ``2.`` marker
   that follows it; without a ``2.`` marker, the lines after the first one; if the reply is a single
   line, that line without its ``1.`` marker (sentiprobe decision: never score an empty candidate for
   a reply that holds reasoning);
3. else the whole reply with a leading ``Label: <word>`` removed.

The result is stripped; ``None`` (no output) gives the empty string.
"""
from __future__ import annotations

import re
from dataclasses import dataclass

from .load import LABELS

_ALTERNATION = re.compile("true|false|not-given")
_JUST = re.compile("justification:", re.IGNORECASE)
_ONE = re.compile(r"^\s*1\.")
_TWO = re.compile(r"(?:^|\s)2\.\s*")
_LABEL_PREFIX = re.compile(r"^\s*label:\s*\S+", re.IGNORECASE)

MODES = ("strict", "lenient")


def exact_label(text: str | None) -> str | None:
    """docs/protocols/soul.md#answer-parsing, #rc-metrics: the lower-cased, stripped reply if it is a label, else
    None."""
    if text is None:
        return None
    t = str(text).lower().strip()
    return t if t in LABELS else None


def extract_label(text: str | None) -> str | None:
    """docs/protocols/soul.md#label-extraction: first match of ``true|false|not-given`` (after ``not given`` ->
    ``not-given``), else None."""
    if text is None:
        return None
    t = str(text).lower().strip().replace("not given", "not-given")
    m = _ALTERNATION.search(t)
    return m.group(0) if m else None


def extract_justification(text: str | None) -> str:
    """The justification candidate of a generated reply (see the module docstring)."""
    if text is None:
        return ""
    t = str(text)
    m = _JUST.search(t)
    if m:
        return t[m.end():].strip()
    s = t.strip()
    m = _ONE.match(s)
    if m:
        two = _TWO.search(s, m.end())
        if two:
            return s[two.end():].strip()
        lines = s.split("\n")
        if len(lines) > 1:
            return "\n".join(lines[1:]).strip()
        return s[m.end():].strip()
    m = _LABEL_PREFIX.match(s)
    if m:
        return s[m.end():].strip()
    return s


@dataclass(frozen=True)
class ParsedAnswer:
    """A parsed reply.

    Attributes:
        label: primary label (None when unparseable: scored wrong, counted as a parse failure).
        label_lenient: label under the lenient rule (None when even that fails).
        justification: justification candidate (JG only; None for RC).
    """

    label: str | None
    label_lenient: str | None
    justification: str | None


def parse_answer(text: str | None, task: str) -> ParsedAnswer:
    """Parse a reply for ``task`` ``rc`` (strict: exact; lenient: 4.3) or ``jg`` (both 4.3 + candidate)."""
    lenient = extract_label(text)
    if task == "rc":
        return ParsedAnswer(exact_label(text), lenient, None)
    return ParsedAnswer(lenient, lenient, extract_justification(text))


def normalise_junk(text: str | None, limit: int = 60) -> str:
    """How an unparseable reply is shown in the per-class junk table (lower-cased, stripped, truncated)."""
    if text is None:
        return "(no output)"
    t = str(text).lower().strip()
    return t if len(t) <= limit else t[:limit] + "\u2026"
