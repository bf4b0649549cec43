"""Edits on character offsets of the original string (the corrected mode keeps text outside an edit byte-identical).

The faithful mode rebuilds each variant from Treebank tokens (as the original did, with its spacing
changes: ``$12`` -> ``$ 12``). The corrected mode never detokenises: an edit is a replacement of a
character range of the *source* string, located through the tokens' offsets, so spacing, casing and
punctuation outside the edit are those of the input (also for SemEval XML and JSONL input).
"""
from __future__ import annotations

import itertools
from collections.abc import Sequence
from dataclasses import asdict, dataclass

NEGATION_OPS = frozenset({"copula_negated", "negation_added", "do_support", "negation_removed"})
"""Edit operations that reverse their clause by a negation, inserted or removed."""


@dataclass(frozen=True)
class CharEdit:
    """Replace ``source[start:end]`` by ``text``; ``op``/``source_note`` say what and why (the provenance).

    Attributes:
        start, end: character range of the source sentence (``start == end`` inserts).
        text: the replacement.
        before: ``source[start:end]``.
        op: ``antonym`` / ``negation_removed`` / ``negation_added`` / ``copula_negated`` / ``do_support`` /
            ``degree_adverb`` / ``and_to_but`` / ``but_to_and`` / ``article`` / ``additive_removed`` /
            ``but_added`` (the repairs of :mod:`.repair`), ``recommendation_reversed`` (:mod:`.verdict`).
        detail: where the edit comes from (``WordNet antonym of good.a.01:good``, ``'not' after the copula``).
    """

    start: int
    end: int
    text: str
    before: str
    op: str
    detail: str

    unit = "char"

    def to_dict(self) -> dict:
        return {"unit": "char", **asdict(self)}

    def overlaps(self, other: CharEdit) -> bool:
        if self.start == self.end or other.start == other.end:  # insertions collide only at the same point
            return self.start == other.start and self.end == other.end and self.text != other.text
        return self.start < other.end and other.start < self.end


def apply(text: str, edits: Sequence[CharEdit]) -> str:
    """``text`` with the (non-overlapping) edits applied; identical edits are applied once."""
    uniq = sorted(set(edits), key=lambda e: (e.start, e.end), reverse=True)
    for a, b in itertools.pairwise(uniq):
        if a.overlaps(b) or (b.end > a.start and b.start < a.start):
            raise ValueError(f"overlapping edits {b} and {a}")
    for e in uniq:
        text = text[:e.start] + e.text + text[e.end:]
    return text


def shift(pos: int, edits: Sequence[CharEdit], *, after_insertions: bool = False) -> int:
    """A source character position mapped into the edited text (positions inside an edit map to its start).

    An insertion exactly at ``pos`` is ambiguous: its text lands before the character at ``pos``. The position
    of that character (a span's start, ``after_insertions=True``) moves past it; a position that ends a span
    (its end, the default) stays before it, so the inserted text falls outside the span either way.
    """
    out = pos
    for e in set(edits):
        if e.start == e.end == pos:
            if after_insertions:
                out += len(e.text)
        elif e.end <= pos:
            out += len(e.text) - (e.end - e.start)
        elif e.start < pos < e.end:
            out += e.start - pos
    return out


def touches(span: tuple[int, int], e: CharEdit) -> bool:
    """Whether edit ``e`` changes text inside ``span`` (an insertion at either end of the span does not)."""
    a, b = span
    if e.start == e.end:
        return a < e.start < b
    return e.start < b and a < e.end


def map_span(start: int, end: int, edits: Sequence[CharEdit]) -> tuple[int, int] | None:
    """The source span ``[start, end)`` in the edited text, or ``None`` when an edit changes text inside it.

    Insertions at the span's start move it; insertions at its end stay outside it; edits before it shift it.
    """
    if any(touches((start, end), e) for e in edits):
        return None
    a = shift(start, edits, after_insertions=True)
    return a, a + (end - start)


def lower_first(text: str) -> str:
    """``Great food`` -> ``great food``: the first word lowered (but ``I``, ``I'm``, acronyms and mixed-case names
    stay as written)."""
    first = text.split(" ", 1)[0]
    if first == "I" or first.startswith("I'") or first[:2].isupper() or any(c.isupper() for c in first[1:]):
        return text
    return text[:1].lower() + text[1:]


def upper_first(word: str) -> str:
    return word[:1].upper() + word[1:]
