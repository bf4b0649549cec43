"""*but* -> *and* between a reversed aspect's clause and an unannotated statement (corrected mode).

:func:`.repair.contrast_repair` turns a *but* into *and* only where each side is an aspect's clause. A reviewer
also contrasts an opinion with a plain statement: *It's not cheap but the performance is impressive*, *The food
was good, but I just couldn't justify it for the price*. Once the opinion is reversed both sides read alike and
the post-editor's variant joins them with *and* (*It's not cheap and the performance is unimpressive*).

Only where one side holds the reversed aspects alone (every opinion on it is reversed and no other word there
keeps the old polarity: *too tiny ..., but it is cozy and the food is great* stays refused) and the other side
is a statement with a verb of its own, neither a fragment (*decent, but not great*, *but nothing amazing*) nor
the *not ... but* frame (*Not because I was pregnant, but the food is delicious*), nor a hypothetical (*I
wouldn't have complained if ...*).
"""
from __future__ import annotations

from collections.abc import Sequence

from .candidates import Sent
from .charedit import CharEdit, touches
from .clash import contrast_sides, polar_sign
from .polarity import LABEL_SIGN, Polarity
from .strategies import PreparedAspect

_NOT_AFTER = frozenset({"also", "not", "nothing", "no", "still", "even", "only", "then", "rather", "instead", "at"})
_NOT_FIRST = frozenset({"not", "no", "never", "nothing"})
_HYPOTHETICAL = frozenset({"if", "unless", "would", "wo", "wish", "hope"})


def statement_contrast_repair(sent: Sent, k: int, aspects: Sequence[PreparedAspect],
                              turned: Sequence[PreparedAspect], lexicon: Polarity, edits: Sequence[CharEdit]
                              ) -> CharEdit | None:
    """``but`` (token ``k``) -> ``and`` where one side is the clause of the reversed aspects ``turned`` and the
    other an unannotated statement (see the module), or None."""
    p = sent.parse
    if p.tokens[k].lower() != "but" or p.deps[k] != "cc":
        return None
    sides = contrast_sides(p.tokens, k)
    if sides is None or k + 1 >= len(p.tokens) or p.tokens[k + 1].lower() in _NOT_AFTER:
        return None
    lo, hi = sides
    halves = (set(range(lo, k)), set(range(k + 1, hi)))
    mine = [n for n, side in enumerate(halves)
            if any(o.opinion_tokens() & side or set(range(*o.span)) & side for o in aspects)]
    if len(mine) != 1:
        return None  # both sides annotated (:func:`.repair.contrast_repair`) or neither
    own, other = halves[mine[0]], halves[1 - mine[0]]
    signs = set()
    for o in aspects:
        toks = o.opinion_tokens()
        if not (toks & own or set(range(*o.span)) & own):
            continue
        if o not in turned or not toks or not toks <= own or not set(range(*o.span)) <= own:
            return None  # an unreversed aspect, or one aspect across both sides (*decent, but not great*)
        signs.add(LABEL_SIGN[o.aspect.polarity])
    if len(signs) != 1 or 0 in signs:
        return None
    old = signs.pop()
    edited = set().union(*(o.opinion_tokens() for o in turned))
    hosts = {h for i in edited for h in (i, p.heads[i])}
    for i in own - edited:
        if any(touches(sent.offsets[i], e) for e in edits):
            continue
        if p.upos[i] == "ADV" and p.heads[i] in hosts:
            continue  # a degree or stance adverb on the reversed opinion (*was definitely bad*)
        if polar_sign(lexicon, p, i) == old:
            return None  # a word of the old polarity stays beside the reversal (*it is cozy and the food is ...*)
    first = min(other)
    if p.tokens[first].lower() in _NOT_FIRST or not any(p.upos[i] in ("VERB", "AUX") for i in other):
        return None
    if p.upos[k + 1] == "PUNCT" or any(p.tokens[i].lower() in _HYPOTHETICAL for i in other):
        return None  # *but, almost all ...*; a wish (*I wouldn't have complained if ...*) sets no polarity
    return sent.replace(k, "and", "but_to_and", "'but' joins a statement and a clause of the same polarity after "
                                                  "the edit")
