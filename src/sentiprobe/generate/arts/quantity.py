"""Compared quantities and degrees that reverse at the degree word (RevTgt of the corrected mode).

*It provides much more flexibility* -> *much less flexibility*, *a port count with more ports* -> *fewer ports*:
a positive opinion that is the quantity word *more* on the target's noun has no antonym (*littler*) and its
negation denies the act (*doesn't provide much more*), where a post-editor turns the degree word. The lexicon
reads a lowered degree (*less solid*, *less flexibility*) by its noun or adjective alone, as praise; for the
polarity check it is read as the negation it amounts to (:func:`lowered_reading`).
"""
from __future__ import annotations

import re

from .charedit import CharEdit
from .polarity import Polarity
from .site import Candidate, Sent
from .syntax import children

_PRESUPPOSING = frozenset({"even", "still", "no", "any", "far"})
"""Before *more*: *even more thrilled* presupposes the old degree (*even less thrilled* reads as a double
letdown), *no more* / *any more* are time words, *far more* keeps the frame of a comparison the sentence makes."""


def quantity_comparison(s: Sent, head: int, sign: int) -> list[Candidate]:
    """*much more flexibility* -> *much less flexibility*, *more ports* -> *fewer ports*: a positive opinion whose
    head is the quantity *more* on a noun (not *more than*, not after a word that presupposes the old degree)."""
    p = s.parse
    if sign <= 0 or p.tokens[head].lower() != "more" or p.tags[head] != "JJR" or p.deps[head] != "amod":
        return []
    noun = p.heads[head]
    if not head < noun <= head + 3 or p.upos[noun] != "NOUN" or (
            head + 1 < len(p.tokens) and p.tokens[head + 1].lower() == "than"):
        return []
    if head > 0 and p.tokens[head - 1].lower() in _PRESUPPOSING:
        return []
    top = noun
    while p.deps[top] == "conj" and p.heads[top] != top:  # *boasted a faster processor, more memory*
        top = p.heads[top]
    verb = p.heads[top]
    if p.tokens[verb].lower().startswith("boast"):  # *boasted less memory*: the verb presupposes praise
        return []
    new = "fewer" if p.tags[noun] == "NNS" else "less"
    detail = f"{new!r} for the quantity 'more' on {p.tokens[noun]!r}"
    much = head - 1 if head > 0 and p.tokens[head - 1].lower() == "much" else None
    if new == "fewer" and much is not None and not (much > 0 and p.tokens[much - 1].lower() in ("so", "too", "very")):
        a, b = s.offsets[much][0], s.offsets[head][1]  # *much more features* -> *far fewer features*
        new = "far fewer" if s.text[a].islower() else "Far fewer"
        e = CharEdit(a, b, new, s.text[a:b], "antonym", detail)
    else:
        e = s.replace(head, new, "antonym", detail)
    return [Candidate((e,), "antonym", e.detail, 0)]


_LOWERED = re.compile(r"(?i)\b(less|fewer)\b")


def lowered_reading(text: str, edit: CharEdit, s: Sent, lexicon: Polarity, sign: int) -> str | None:
    """The text the lexicon reads for an edit that lowered a degree of praise (*lot less solid* as *lot not
    solid*), or None where the edit put no *less*/*fewer* in for a *more*, the lowered word is not praise under
    the lexicon with the label's sign (*less expensive* stands as the lexicon reads it), the word before it
    presupposes the old degree (*even less thrilled*), or a lowered adjective is attributive (*prefer a place
    with a less relaxed vibe*) or takes a complement that is not the comparison's *than* (*less important to me*,
    *less interested in*): it then names a degree of something else than the target's quality."""
    if not sign or edit.text.lower() not in ("less", "fewer", "far fewer") or not edit.before.lower().endswith("more"):
        return None
    p = s.parse
    k = next((i for i, (a, _) in enumerate(s.offsets) if a == edit.start), None)
    if k is not None and p.tokens[k].lower() == "much":
        k += 1
    if k is None or k + 1 >= len(p.tokens) or p.tokens[k].lower() != "more":
        return None
    word = k + 1
    if (k > 0 and p.tokens[k - 1].lower() in _PRESUPPOSING) or lexicon.word(p.tokens[word]) != sign:
        return None
    if p.upos[word] in ("ADJ", "ADV") and (p.deps[word] == "amod" or any(
            p.deps[j] == "prep" and p.tokens[j].lower() != "than" for j in children(p, word))):
        return None
    return _LOWERED.sub("not", text)
