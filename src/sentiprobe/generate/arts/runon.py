"""A reversal inside a run-on of praise: *but* where nothing joins two stretches that now differ (corrected mode).

Reviews run clauses and phrases together with no connective (*The MBP is beautiful has many wonderful
capabilities*; *good food good wine that's it*). A reversal of one of them leaves the run reading as a tally
of one side with a stray opposite in it (*The MBP is beautiful has many terrible capabilities*, *good food poor
wine*): the *and* -> *but* repairs of :mod:`.repair` find no coordinator to turn and the list rules of
:mod:`.pairs` no separator. :func:`runon_contrast` inserts the *but* a reviewer would write at the seam (op
``but_inserted``: *The MBP is beautiful but has many terrible capabilities*, *good food but poor wine*), in two
forms only, where the seam is clean:

* two aspects' phrases side by side, the second's opinion right after the first's last word (*good food | good
  wine*), that agreed in the source and differ after the edit;
* a clause the parser hangs before its head as a complement with no *that* and no punctuation (*The MBP is
  beautiful* | *has many ...*), whose side keeps the old polarity while the other is reversed (each side read
  through its annotated aspects' labels after the edit, else through the polar words the edits leave in it:
  *many* is praise in the laptop lexicon, but in *has many terrible capabilities* the annotated opinion decides).

A sentence with any contrast, or a seam with a word or mark in it, is left to the other rules.
"""
from __future__ import annotations

from collections.abc import Sequence

from .charedit import CharEdit, touches
from .clash import polar_sign
from .polarity import COMPANY, LABEL_SIGN, Polarity
from .sidereading import side_signs
from .site import Sent
from .strategies import PreparedAspect
from .syntax import children, predicate, span_head, subtree

_CONTRAST = frozenset({"but", "yet", "though", "although", "however", "while", "whereas", "except", "still",
                       "despite", "unfortunately", "nevertheless", "nonetheless"})
_DETAIL = "a reversal inside a run-on of one side: the seam is contrasted"


def runon_contrast(sent: Sent, aspects: Sequence[PreparedAspect], turned: Sequence[PreparedAspect],
                   edits: Sequence[CharEdit], lexicon: Polarity) -> CharEdit | None:
    """The *but* at the seam of a run-on whose two stretches now differ (module docstring), or None."""
    p = sent.parse
    if any(w.lower() in _CONTRAST for w in p.tokens) or any(
            w in _CONTRAST for e in edits for w in e.text.lower().split()):
        return None
    return _phrases(sent, aspects, turned) or _clauses(sent, aspects, turned, edits, lexicon)


def _sign(o: PreparedAspect, turned: Sequence[PreparedAspect], after: bool) -> int:
    s = LABEL_SIGN[o.aspect.polarity]
    return -s if after and o in turned else s


def _phrases(sent: Sent, aspects: Sequence[PreparedAspect], turned: Sequence[PreparedAspect]) -> CharEdit | None:
    """*good food good wine* -> *good food but poor wine*: two aspects' phrases (opinion, then term) that touch."""
    p = sent.parse
    polar = [o for o in aspects if o.opinions and LABEL_SIGN[o.aspect.polarity]]
    for one in polar:
        for two in polar:
            if one is two or (one in turned) == (two in turned) or set(one.opinions) & set(two.opinions):
                continue
            if _sign(one, turned, False) != _sign(two, turned, False):
                continue
            first = one.opinion_tokens() | set(range(*one.span))
            second = two.opinion_tokens() | set(range(*two.span))
            seam = max(first) + 1
            if seam != min(second) or seam not in two.opinion_tokens() or max(one.opinion_tokens()) > min(
                    range(*one.span)) or p.upos[seam] != "ADJ" or not p.tokens[seam - 1][-1:].isalnum():
                continue  # each an opinion before its term, the second right after the first's term
            return sent.insert_before(seam, "but", "but_inserted", _DETAIL)
    return None


def _clauses(sent: Sent, aspects: Sequence[PreparedAspect], turned: Sequence[PreparedAspect],
             edits: Sequence[CharEdit], lexicon: Polarity) -> CharEdit | None:
    """*The MBP is beautiful has many terrible capabilities* -> *... beautiful but has ...*: a complement clause
    hung before its head with no *that* or mark between."""
    p = sent.parse
    kept = {i for i in range(len(p.tokens)) if not any(touches(sent.offsets[i], e) for e in edits)}
    owned = {i: o for o in aspects for i in o.opinion_tokens() | set(range(*o.span))}
    mine = set().union(*(o.opinion_tokens() for o in turned)) if turned else set()
    olds = {LABEL_SIGN[o.aspect.polarity] for o in turned}
    if len(olds) != 1 or 0 in olds or not mine:
        return None
    old = olds.pop()

    def reading(side: set[int]) -> int:  # as :func:`.repair.contrast_made` reads a side: by its aspects if any
        signs = {_sign(o, turned, True) for o in aspects if o.opinions and o.opinion_tokens() <= side}
        if not signs:
            free = [i for i in side if i in kept and i not in owned and p.tokens[i].lower() not in COMPANY]
            signs = side_signs(p, free, lambda i: polar_sign(lexicon, p, i))
        signs.discard(0)
        return signs.pop() if len(signs) == 1 else 0

    heads = {predicate(p, span_head(p, a, b)) for o in turned for a, b in o.opinions}
    for h in heads:
        if h is None:
            continue
        for top in {h, p.heads[h]}:
            for c in children(p, top):
                if p.deps[c] not in ("ccomp", "parataxis") or c > top:
                    continue
                inner = subtree(p, c)
                seam = max(inner) + 1
                if seam >= len(p.tokens) or seam > top or not p.tokens[seam - 1][-1:].isalnum() or any(
                        p.deps[k] == "mark" for k in children(p, c)) or p.upos[seam] not in ("VERB", "AUX"):
                    continue
                if not any(p.deps[k] in ("nsubj", "nsubjpass") for k in children(p, c)):
                    continue  # the first clause must be one (*The MBP is beautiful*)
                outer = subtree(p, top) - inner
                if mine <= inner:
                    edited, other = inner, outer
                elif mine <= outer:
                    edited, other = outer, inner
                else:
                    continue
                if reading(other) == old and reading(edited) == -old:
                    return sent.insert_before(seam, "but", "but_inserted", _DETAIL)
    return None
