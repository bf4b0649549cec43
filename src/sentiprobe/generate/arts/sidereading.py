"""The polarity of an unannotated side of *and* / *but*, read through the review verbs that carry it.

:func:`.repair.contrast_made` turns *and* into *but* where a reversal leaves the edited clause and an unannotated
clause beside it with opposite polarities; it reads that clause by the polar words left in it. A review verb
that compares or judges carries the clause's opinion by itself, and the words of its object describe what it
is judged against, not the reviewer's opinion: *it definitely beats my old mac* praises the machine although
*old* is a complaint word of the laptop lexicon, so the clause read word by word is mixed and the misfitting
*and* of *... beats my old mac and the service was not great* stayed. VADER and the in-domain lexicon also lack
most of these verbs (*beats*, *outperforms*).

:data:`OPINION_VERBS` lists them (lemmas, with the polarity the subject gets); :func:`side_signs` reads a side:
each listed verb counts with its sign (reversed under a negation, *doesn't crash*), the words of its object and
prepositional phrases are left out, and every other word counts by the lexicon as before.

The parser sometimes ends a sentence at *and* and opens a second one with it (*I really like the size and I'm a
fan of the ACERS*: *and* hangs on the second root, no *conj* joins the clauses); :func:`split_pair` gives the two
roots as the predicates *and* joins, so the second clause is read like a coordinated one (*I really dislike the
size but I'm a fan of the ACERS*).
"""
from __future__ import annotations

from collections.abc import Callable, Iterable

from .clash import negated
from .morph import lemma
from .resources import Parse
from .syntax import children, subtree

OPINION_VERBS: dict[str, int] = {
    # the subject wins a comparison or earns praise
    "beat": 1, "outperform": 1, "outshine": 1, "outclass": 1, "surpass": 1, "impress": 1, "rock": 1,
    "love": 1, "adore": 1, "enjoy": 1, "recommend": 1,
    # the subject fails the reviewer
    "crash": -1, "freeze": -1, "overheat": -1, "lag": -1, "glitch": -1, "malfunction": -1, "hate": -1,
    "disappoint": -1, "regret": -1, "suck": -1,
}
"""Review verbs whose clause is an opinion whatever their object (*beats my old mac*, *freezes on startup*)."""

_OBJECTS = frozenset({"dobj", "prep", "pobj", "dative", "attr", "oprd"})


def side_signs(p: Parse, toks: Iterable[int], word_sign: Callable[[int], int]) -> set[int]:
    """The polarities read in the side ``toks`` (nonzero ones only): a listed verb's own (negation-aware), with
    its object's and prepositional phrases' words left out; ``word_sign(i)`` for every other word."""
    side = set(toks)
    skip: set[int] = set()
    signs: set[int] = set()
    for i in sorted(side):
        if p.upos[i] != "VERB" or lemma(p.tokens[i], "VERB") not in OPINION_VERBS:
            continue
        sign = OPINION_VERBS[lemma(p.tokens[i], "VERB")]
        signs.add(-sign if negated(p, i) else sign)
        skip.add(i)
        for j in children(p, i):
            if p.deps[j] in _OBJECTS:
                skip |= subtree(p, j)
    signs |= {word_sign(i) for i in side - skip}
    signs.discard(0)
    return signs


_PREDICATE = ("VERB", "AUX", "ADJ")


def split_pair(p: Parse, j: int) -> list[tuple[int, int]]:
    """``[(first root, second root)]`` where *and* (token ``j``) hangs on a root right after it and another root
    governs the words before it (the parser split one sentence in two at the *and*); ``[]`` elsewhere."""
    h = p.heads[j]
    if p.deps[j] != "cc" or h <= j or p.heads[h] != h or p.upos[h] not in _PREDICATE:
        return []
    if any(p.deps[i] == "nsubj" and p.heads[i] == h and i < j for i in range(len(p.tokens))):
        return []
    roots = [x for x in range(j) if p.heads[x] == x]
    if len(roots) != 1 or p.upos[roots[0]] not in _PREDICATE or p.tokens[j - 1] in (".", "!", "?", ";"):
        return []
    return [(roots[0], h)]
