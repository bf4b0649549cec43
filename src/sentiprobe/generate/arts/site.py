"""The sites the candidate builders edit: a parsed sentence with its edit operations (:class:`Sent`), one
candidate edit with its validity problems (:class:`Candidate`) and what a reversal needs to know
(:class:`Reversal`); shared by :mod:`.candidates` and :mod:`.opposites`."""
from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass, field
from typing import TYPE_CHECKING

from .charedit import CharEdit, lower_first, upper_first
from .polarity import Polarity
from .resources import Parse

if TYPE_CHECKING:
    from .sense import AspectView


@dataclass(frozen=True)
class Candidate:
    """One way to edit a site: its character edits, operation, rule priority and validity problems."""

    edits: tuple[CharEdit, ...]
    op: str
    detail: str
    priority: int
    problems: tuple[str, ...] = ()

    @property
    def valid(self) -> bool:
        return not self.problems

    def with_problems(self, *more: str) -> Candidate:
        return Candidate(self.edits, self.op, self.detail, self.priority, (*self.problems, *more))


@dataclass
class Sent:
    """A parsed sentence as the candidate builders need it: text, tokens' character offsets, the parse, and
    the character ranges the edits must stay clear of (the target term for every strategy)."""

    text: str
    parse: Parse
    offsets: Sequence[tuple[int, int]]
    protected: list[tuple[int, int]] = field(default_factory=list)

    def chars(self, i: int, j: int | None = None) -> tuple[int, int]:
        """Character range of tokens ``[i, j)`` (``j`` defaults to ``i + 1``)."""
        j = i + 1 if j is None else j
        return self.offsets[i][0], self.offsets[j - 1][1]

    def word(self, i: int) -> str:
        a, b = self.offsets[i]
        return self.text[a:b]

    def span_text(self, span: tuple[int, int]) -> str:
        """The text of the token span ``[i, j)``."""
        a, b = self.chars(*span)
        return self.text[a:b]

    def replace(self, i: int, new: str, op: str, detail: str) -> CharEdit:
        a, b = self.offsets[i]
        return CharEdit(a, b, self._case(i, new), self.text[a:b], op, detail)

    def insert_before(self, i: int, words: str, op: str, detail: str) -> CharEdit:
        """``words`` before token ``i`` (sentence-initial: capitalised, and the old first word lowered)."""
        a, b = self.offsets[i]
        if a == self._first_char():
            old = self.text[a:b]
            return CharEdit(a, b, upper_first(words) + " " + lower_first(old), old, op, detail)
        return CharEdit(a, a, words + " ", "", op, detail)

    def insert_after(self, i: int, words: str, op: str, detail: str) -> CharEdit:
        b = self.offsets[i][1]
        return CharEdit(b, b, " " + words, "", op, detail)

    def delete(self, i: int, op: str, detail: str) -> CharEdit:
        """Delete token ``i`` and one adjoining run of spaces (a glued clitic such as ``n't`` alone)."""
        a, b = self.offsets[i]
        t = self.text
        if a > 0 and not t[a - 1].isspace() and i > 0 and self.offsets[i - 1][1] == a:  # *wasn't*: glued
            return CharEdit(a, b, "", t[a:b], op, detail)
        if a > 0 and t[a - 1] == " ":
            a2 = a - 1
            while a2 > 0 and t[a2 - 1] == " ":
                a2 -= 1
            return CharEdit(a2, b, "", t[a2:b], op, detail)
        if b < len(t) and t[b] == " ":
            b2 = b
            while b2 < len(t) and t[b2] == " ":
                b2 += 1
            if a == self._first_char() and i + 1 < len(self.offsets):  # "Never again" -> "Again"
                na, nb = self.offsets[i + 1]
                return CharEdit(a, nb, upper_first(t[na:nb]), t[a:nb], op, detail)
            return CharEdit(a, b2, "", t[a:b2], op, detail)
        return CharEdit(a, b, "", t[a:b], op, detail)

    def _first_char(self) -> int:
        return self.offsets[0][0] if self.offsets else 0

    def _case(self, i: int, new: str) -> str:
        old = self.word(i)
        if len(old) > 1 and old.isupper():
            return new.upper()
        if old[:1].isupper():
            return upper_first(new)
        return new

    def touches_protected(self, e: CharEdit) -> bool:
        for a, b in self.protected:
            if e.start == e.end:
                if a < e.start < b:
                    return True
            elif e.start < b and a < e.end:
                return True
        return False


@dataclass
class Reversal:
    """What a reversal needs to know beyond the sentence: the label to flip, other aspects' opinion tokens."""

    label: str
    lexicon: Polarity
    antonyms: object  # WordNetAntonyms (all antonyms, not only the first of each lemma)
    vocab: frozenset[str]
    others: dict[str, set[int]] = field(default_factory=dict)  # other aspect id -> its own opinion tokens
    guard: set[int] = field(default_factory=set)  # tokens the negation scope must not reach (RevNon: the target)
    fit: AspectView | None = None  # the aspect head's opinions in the training file (:mod:`.sense`)
    own: frozenset[int] = frozenset()  # the reversed aspect's own opinion tokens (all of its sites are reversed)


def sign_label(sign: int) -> str:
    return "positive" if sign > 0 else "negative" if sign < 0 else "neutral"


def article_fix(s: Sent, head: int, word: str) -> CharEdit | None:
    """``a`` / ``an`` before a new word agrees with it (*a generous* -> *an extremely generous*, *a beautiful* ->
    *an ugly*)."""
    if head == 0:
        return None
    prev = s.parse.tokens[head - 1]
    if prev.lower() not in ("a", "an"):
        return None
    want = "an" if word[:1].lower() in "aeiou" else "a"
    if prev.lower() == want:
        return None
    return s.replace(head - 1, want, "article", f"article agrees with {word!r}")
