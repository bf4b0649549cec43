"""A reversal that leaves a coordinated adjective pair or a list of praise half reversed (checks 34-35, corrected
mode).

A blind audit read these as incoherent: the other half of the pair or the rest of the list keeps the old polarity
and nothing marks the turn. Like the checks of :mod:`.context`, RevTgt refuses the source and RevNon drops that
non-target's reversal:

* :func:`pair_clash` (34): the opinion adjective is coordinated with another adjective on the same head that keeps
  the old polarity (*a dynamic and extensive beer list* never becomes *a dynamic and small beer list*); a pair
  whose both halves are reversed (*helpful and charming* -> *unhelpful and unpleasant*) is left alone;
* :func:`list_clash` (35): the opinion describes one item of a list of three or more (*beautiful ambience,
  excellent food and attentive service*; a dash list *- excellent OS -- ... -- excellent durability --*) whose
  other items keep the old polarity and are not reversed with it, and the list is set off by dashes or a contrast
  or concession already stands in the sentence (*Although small, it has ...*): the reversed item then reads as
  one more item of praise. A plain list of mixed items still reads (*Tiny portions, great service and good
  prices*) and its last item takes the *but* of :func:`.repair.conjunction_edit` (*fast processor, great
  speakers but a dim screen*).

On the laptop and restaurant test files the two checks refuse 17 variants, all but one of which a reader marks
incoherent; a pair after a copula that the candidates negate as a whole (*is neither fast nor easy*) is left to
them.
"""
from __future__ import annotations

from collections.abc import Sequence
from itertools import pairwise

from .clash import polar_word
from .polarity import LABEL_SIGN, Polarity
from .resources import Parse
from .strategies import PreparedAspect
from .syntax import BE, COMPLEMENT, children, span_head

_CONTRAST = frozenset({"but", "although", "though", "while", "however", "yet", "despite", "except", "whereas"})
_DASHES = frozenset({"-", "--", "---", "\u2013", "\u2014"})
_ITEM_CUT = frozenset({"conj", "cc", "punct", "appos"})


def _coordinated(p: Parse, h: int) -> set[int]:
    """The words coordinated with ``h`` (its group of ``conj`` links, ``h`` left out)."""
    top = h
    while p.deps[top] == "conj" and p.heads[top] != top:
        top = p.heads[top]
    group, todo = {top}, [top]
    while todo:
        j = todo.pop()
        for k in range(len(p.tokens)):
            if p.heads[k] == j and k != j and p.deps[k] == "conj" and k not in group:
                group.add(k)
                todo.append(k)
    return group - {h}


def pair_clash(lexicon: Polarity, p: Parse, f: PreparedAspect, skip: set[int]) -> str | None:
    """Check 34: why reversing ``f`` would leave a coordinated adjective pair mixed, or None (``skip``: edited and
    term tokens, which never count)."""
    old = LABEL_SIGN[f.aspect.polarity]
    if not old:
        return None
    for a, b in f.opinions:
        h = span_head(p, a, b)
        if p.upos[h] != "ADJ":
            continue
        pair = {j for j in _coordinated(p, h) if p.upos[j] == "ADJ" and _adjacent(p, h, j)}
        if _whole_negation(lexicon, p, h, old):
            continue
        word = polar_word(lexicon, p, pair, old, skip)
        if word is not None:
            return (f"{f.aspect.term!r}'s opinion {p.tokens[h]!r} is coordinated with {word!r}, which keeps the old "
                    "polarity: a half-reversed pair reads incoherent")
    return None


def _adjacent(p: Parse, h: int, j: int) -> bool:
    """Whether adjectives ``h`` and ``j`` form one pair on one head: only a coordinator, a comma or a degree word
    between them (*dynamic and extensive*, *great and very attentive*), never a second subject (*The wine list was
    superb, our tapas delightful*)."""
    return all(p.deps[k] in ("cc", "punct", "advmod") for k in range(min(h, j) + 1, max(h, j)))


def _whole_negation(lexicon: Polarity, p: Parse, h: int, old: int) -> bool:
    """Whether ``h`` is half of a bare pair right after a copula (*is fast and easy*), which the candidates negate
    as a whole (*is neither fast nor easy*): the form of :func:`.candidates._neither_nor`."""
    a = p.heads[h] if p.deps[h] == "conj" and p.upos[p.heads[h]] == "ADJ" else h
    pred = p.heads[a]
    if p.deps[a] not in COMPLEMENT or pred != a - 1 or p.upos[pred] != "AUX" or p.tokens[pred].lower() not in BE:
        return False
    conj = [j for j in children(p, a) if p.deps[j] == "conj"]
    if len(conj) != 1 or conj[0] != a + 2 or p.tokens[a + 1].lower() != "and" or p.upos[conj[0]] != "ADJ":
        return False
    b = conj[0]
    return all(p.deps[j] in ("cc", "conj", "punct") for j in children(p, a)) and not children(p, b) \
        and -old not in (lexicon.word(p.tokens[a]), lexicon.word(p.tokens[b]))


def _item(p: Parse, n: int) -> set[int]:
    """List item ``n``'s own words: its subtree without the items coordinated with it."""
    out = {n}
    todo = [n]
    while todo:
        j = todo.pop()
        for k in range(len(p.tokens)):
            if p.heads[k] == j and k != j and k not in out and p.deps[k] not in _ITEM_CUT:
                out.add(k)
                todo.append(k)
    return out


def _items(p: Parse, f: PreparedAspect) -> tuple[list[set[int]], int, bool] | None:
    """The items of the list the opinion of ``f`` stands in, the index of its own and whether dashes set them off,
    or None: the nouns coordinated with the term's noun, or the segments between dashes."""
    mine = f.opinion_tokens()
    noun = span_head(p, *f.span)
    nouns = sorted(_coordinated(p, noun) | {noun})
    if len(nouns) >= 3 and all(p.upos[j] in ("NOUN", "PROPN") for j in nouns):
        items = [_item(p, j) for j in nouns]
        own = [i for i, it in enumerate(items) if mine & it]
        if len(own) == 1:
            return items, own[0], False
    run = _surface_items(p, mine)
    if run is not None:
        return run[0], run[1], False
    cuts = [i for i, t in enumerate(p.tokens) if t in _DASHES]
    if len(cuts) >= 2:
        bounds = [-1, *cuts, len(p.tokens)]
        items = [set(range(x + 1, y)) for x, y in pairwise(bounds) if y > x + 1]
        own = [i for i, it in enumerate(items) if mine & it]
        if len(items) >= 3 and len(own) == 1:
            return items, own[0], True
    return None


def _surface_items(p: Parse, mine: set[int]) -> tuple[list[set[int]], int] | None:
    """A list of noun phrases the parser broke (a parenthesis inside an item: *excellent food (the catfish is
    delicious) and attentive service*), read off the surface: the segments between commas and *and* outside
    parentheses, each an adjective before its noun (the first may follow a verb: *it has beautiful ambience*);
    the run around the opinion, or None where it has under three items."""
    segs: list[list[int]] = [[]]
    depth = 0
    for i, t in enumerate(p.tokens):
        depth += t == "("
        depth -= t == ")" and depth > 0
        if (depth == 0 and t.lower() in (",", "and")) or t in (".", "!", ";", ":"):
            segs.append([])
        elif t != ")" or depth:
            segs[-1].append(i)
    items: list[tuple[set[int], bool] | None] = []  # an item's words, and whether other words lead into it
    for seg in segs:
        start = next((j for j in seg if p.deps[j] == "amod" and p.upos[j] == "ADJ"
                      and p.upos[p.heads[j]] in ("NOUN", "PROPN")), None)
        items.append(None if start is None else (
            {j for j in seg if j >= start}, any(p.upos[j] not in ("DET", "ADV") for j in seg if j < start)))
    own = next((k for k, it in enumerate(items) if it and it[0] & mine), None)
    if own is None:
        return None
    lo = own
    while not items[lo][1] and lo > 0 and items[lo - 1] is not None:  # type: ignore[index]
        lo -= 1
    hi = own
    while hi + 1 < len(items) and (nxt := items[hi + 1]) is not None and not nxt[1]:
        hi += 1
    run = [it[0] for it in items[lo:hi + 1] if it]
    return (run, own - lo) if len(run) >= 3 else None


def list_clash(lexicon: Polarity, p: Parse, f: PreparedAspect, aspects: Sequence[PreparedAspect], edited: set[int],
               skip: set[int]) -> str | None:
    """Check 35: why reversing ``f`` alone inside a list of praise (or of complaints) would leave the list half
    reversed with nothing to mark the turn, or None (``edited``: every reversed opinion's tokens; ``skip``: those
    and the aspects' terms, which never count); an item keeps the old polarity with a polar word or with the
    unreversed opinion of an aspect labelled like ``f`` (*fast*, *attentive*: the lexicon may not score them)."""
    old = LABEL_SIGN[f.aspect.polarity]
    if not old or not f.opinion_tokens():
        return None
    found = _items(p, f)
    if found is None:
        return None
    items, own, dashed = found
    if any(it & edited for i, it in enumerate(items) if i != own):
        return None  # another item is reversed with it: not one item alone
    same = set().union(*(o.opinion_tokens() for o in aspects if o is not f and LABEL_SIGN[o.aspect.polarity] == old))
    kept = [w for i, it in enumerate(items) if i != own and (
        w := polar_word(lexicon, p, it, old, skip) or next((p.tokens[j] for j in sorted(it & same - edited)), None))]
    if len(kept) < 2:
        return None
    if not dashed and not any(t.lower() in _CONTRAST for t in p.tokens):
        return None  # a plain list of mixed items still reads (*Tiny portions, great service and good prices*)
    return (f"{f.aspect.term!r}'s opinion is one item of a list whose other items keep the old polarity "
            f"({', '.join(repr(w) for w in kept)}): the reversal would leave the list half reversed")
