"""Coordinated pairs and lists a reversal would leave half reversed (corrected mode).

A blind audit found reversals that are valid opposites of their words and still read incoherent or wrong:

* :func:`mixed_pair` (a check on the final text): an opinion adjective coordinated by *and* or
  a comma with an adjective of the same polarity on the same noun that is no opinion of a reversed aspect (*such
  a dynamic and extensive beer list* never becomes *such a dynamic and small beer list*): a mixed pair reads
  incoherent. A pair whose adjectives are both reversed (*helpful and charming*, annotated together; *neither
  fast nor easy to use*) is left alone;
* :func:`half_list` (a check on the final text): one item of a list of three or more items of the same polarity,
  joined by commas, dashes or *and*, reversed with no contrast anywhere in the list (*beautiful ambience,
  excellent food and inattentive service*; *- terrible operating system -- ... -- excellent durability*): the
  reversed item reads as part of the praise. Where a repair already put a contrast in (*the food was bad, but
  the wine was good*) the list is no longer plain and passes.

The opposites that fit a person (*charming* staff -> *rude*) are :func:`.opposites.person_opposites`.
"""
from __future__ import annotations

from collections.abc import Sequence

from .charedit import CharEdit, touches
from .clash import polar_sign
from .polarity import LABEL_SIGN, Polarity
from .resources import Parse
from .sense import coordinated_adjectives
from .site import Sent
from .strategies import PreparedAspect
from .syntax import span_head

_NOT_PAIRING = frozenset({"but", "yet", "though", "although", "if", "or", "nor", "not", "n't", "neither", "either",
                          "while", "also", "still"})


def mixed_pair(lexicon: Polarity, p: Parse, offsets: Sequence[tuple[int, int]], edits: Sequence[CharEdit],
               turned: Sequence[PreparedAspect]) -> str | None:
    """Why the final text leaves an adjective coordinated with a reversed opinion with the old polarity (module
    docstring), or None. A pair the edits reverse as a whole (*neither fast nor easy to use*, an edit on the
    coordinator or on the other adjective) passes; ``turned``: the aspects whose label the edits flip."""
    edited = set().union(*(o.opinion_tokens() for o in turned)) if turned else set()
    for f in turned:
        old = LABEL_SIGN[f.aspect.polarity]
        if not old:
            continue
        for a, b in f.opinions:
            h = span_head(p, a, b)
            if p.upos[h] != "ADJ":
                continue
            for j in coordinated_adjectives(p, h):
                if j == h or j in edited or j in range(a, b):
                    continue
                lo, hi = min(h, j), max(h, j)
                between = range(lo + 1, hi)
                if any(p.tokens[k].lower() in _NOT_PAIRING or p.upos[k] in ("NOUN", "PROPN", "PRON", "VERB", "AUX")
                       for k in between) or not any(p.tokens[k].lower() in ("and", ",", "&") for k in between):
                    continue  # a noun or a verb between: another clause's predicate (*superb, our tapas delightful*)
                if any(touches(offsets[k], e) for k in (*between, j) for e in edits):
                    continue
                if polar_sign(lexicon, p, j) == old:
                    return (f"{f.aspect.term!r}'s opinion {p.tokens[h]!r} is coordinated with {p.tokens[j]!r}, "
                            "which keeps the old polarity: the pair would read mixed")
    return None


_STOPS = frozenset({".", "!", "?", ";", ":", "...", ".."})
_CONTRAST = frozenset({"but", "yet", "though", "although", "however", "while", "whereas", "except", "still",
                       "despite", "unfortunately"})
_SEPARATORS = frozenset({",", "and", "&", "-", "--"})
_ITEM_MAX = 9
"""The most tokens (its separator included) of a list item: longer stretches are clauses of their own."""
_ADDING = frozenset({"also", "plus", "even", "too", "then", "so", "still"})


def _half_lists(lexicon: Polarity, p: Parse, offsets: Sequence[tuple[int, int]], edits: Sequence[CharEdit],
                aspects: Sequence[PreparedAspect], turned: Sequence[PreparedAspect]
                ) -> list[tuple[PreparedAspect, list[list[int]], int, int]]:
    """Every list of three or more items of one polarity one of whose items the edits reverse, the others kept
    (module docstring), as (the reversed aspect, the items' tokens, the reversed item's index, how many items
    keep the old polarity)."""
    toks = [w.lower() for w in p.tokens]
    owner: dict[int, PreparedAspect] = {}
    for o in aspects:
        for i in o.opinion_tokens():
            owner.setdefault(i, o)
    terms = {i for o in aspects for i in range(*o.span)}
    touched = {i for i in range(len(toks)) if any(touches(offsets[i], e) for e in edits)}

    def sign(item: list[int], after: bool) -> int:
        found = set()
        for i in item:
            o = owner.get(i)
            if o is not None:
                s = LABEL_SIGN[o.aspect.polarity]
                found.add(-s if after and o in turned else s)
            elif i not in terms and i not in touched:
                found.add(polar_sign(lexicon, p, i))
        found.discard(0)
        return found.pop() if len(found) == 1 else 0

    out: list[tuple[PreparedAspect, list[list[int]], int, int]] = []
    for f in turned:
        mine = f.opinion_tokens()
        old = LABEL_SIGN[f.aspect.polarity]
        if not mine or not old:
            continue
        at = min(mine)
        lo = next((i + 1 for i in range(at - 1, -1, -1) if toks[i] in _STOPS | _CONTRAST), 0)
        hi = next((i for i in range(at + 1, len(toks)) if toks[i] in _STOPS | _CONTRAST), len(toks))
        items: list[list[int]] = [[]]
        depth = 0
        for i in range(lo, hi):
            depth += (toks[i] == "(") - (toks[i] == ")")
            if depth > 0 or toks[i] in ("(", ")"):
                continue
            if toks[i] in _SEPARATORS and not (toks[i] == "and" and i > lo and p.upos[i - 1] == "ADJ"):
                items.append([])  # *great and attentive service* is one item
            items[-1].append(i)  # an item opens with its separator
        items = [x for x in items if any(toks[i] not in _SEPARATORS for i in x)]
        if any(len(x) > _ITEM_MAX or _subordinate(p, x) for x in items):
            continue  # clauses with reasons and conditions (*, since the portions are huge*), not a list of items
        before = [sign(x, False) for x in items]
        after = [sign(x, True) for x in items]
        changed = [k for k in range(len(items)) if before[k] == old and after[k] == -old]
        kept = sum(before[k] == old and after[k] == old for k in range(len(items)))
        if sum(s == old for s in before) >= 3 and len(changed) == 1 and kept >= 2 and set(items[changed[0]]) & mine \
                and all(items != x[1] for x in out):  # aspects sharing one opinion reverse one item
            out.append((f, items, changed[0], kept))
    return out


def _subordinate(p: Parse, item: list[int]) -> bool:
    """Whether ``item`` (after its separator) opens with a subordinator or a relative word (*since*, *which*)."""
    first = next((i for i in item if p.tokens[i].lower() not in _SEPARATORS), None)
    return first is not None and (p.upos[first] == "SCONJ" or p.tags[first] in ("WDT", "WP", "WP$", "WRB", "IN"))


def list_contrast(sent: Sent, edits: Sequence[CharEdit], aspects: Sequence[PreparedAspect],
                  turned: Sequence[PreparedAspect], lexicon: Polarity) -> CharEdit | None:
    """The contrast a reviewer puts before the reversed last item of a plain list (op ``but_inserted``): its *and*
    becomes *but* (*beautiful ambience, excellent food and inattentive service* -> *... but inattentive
    service*), or a *but* follows its comma (*Great food, great drinks, but bad atmosphere*). A reversed first
    item is set off the same way, by a *but* after the comma that ends it (*Bad service, but great food, good
    value, and never have to wait in line!*): the rest of the list reads as the praise it was, so no edit may
    fall beyond the first item (*low quality, but has a killer GUI, ... lots of very bad applications*), and the
    item is a phrase, not a clause whose verb the next items gap (*The food was bad, the service prompt*). None
    where the sentence holds another contrast, the item is in the middle (*Good service, bad food, good value*: no one
    place for the contrast) or a dash or an *and* follows it."""
    p = sent.parse
    if any(w.lower() in _CONTRAST for w in p.tokens) or any(
            w in _CONTRAST for e in edits for w in e.text.lower().split()):
        return None
    found = _half_lists(lexicon, p, sent.offsets, edits, aspects, turned)
    if len(found) != 1:
        return None
    _, items, k, _ = found[0]
    if k == 0:
        first = items[1][0]
        lo, hi = sent.offsets[items[0][0]][0], sent.offsets[items[0][-1]][1]
        if p.tokens[first] != "," or any(not lo <= e.start <= e.end <= hi for e in edits) or (
                first + 1 < len(p.tokens) and p.tokens[first + 1].lower() in _ADDING):
            return None  # an edit beyond the first item (RevNon reversing a later one too) leaves no one contrast
        if any(p.upos[i] == "AUX" for i in items[0]):
            return None  # clauses with gapped verbs take no *but* (*The food was bad, but the service prompt, ...*)
        return sent.insert_after(first, "but", "but_inserted", "the reversed first item of a list is contrasted")
    if k != len(items) - 1:
        return None
    first = items[k][0]
    sep = p.tokens[first].lower()
    if any(touches(sent.offsets[first], e) for e in edits) or (
            first + 1 < len(p.tokens) and p.tokens[first + 1].lower() in _ADDING):
        return None  # *, also the cables ...*: never *but also*
    if sep == "and":
        return sent.replace(first, "but", "and_to_but", "the reversed last item of a list of praise is contrasted")
    if sep == ",":
        return sent.insert_after(first, "but", "but_inserted", "the reversed last item of a list is contrasted")
    return None


def half_list(lexicon: Polarity, p: Parse, offsets: Sequence[tuple[int, int]], edits: Sequence[CharEdit],
              aspects: Sequence[PreparedAspect], turned: Sequence[PreparedAspect]) -> str | None:
    """Why the final text reverses one item of a plain list of three or more items of one polarity (module
    docstring) that no contrast sets off, or None. Short lists (three items, two kept) and lists of commas alone
    read as a plain tally of pros and cons (*Great food, bad drinks, nice atmosphere*; *Interesting selection,
    good wines, service bad, fun decor*) and pass unless the reversed item is the last; a longer one that adds
    its last item with *and* reads as praise summed up (*Great product, great price, terrible delivery, and great
    service*);
    ``turned``: the aspects whose label the edits flip."""
    if any(w in _CONTRAST for e in edits for w in e.text.lower().split()):
        return None  # a repair contrasted the reversed item already
    for f, items, k, kept in _half_lists(lexicon, p, offsets, edits, aspects, turned):
        joined = any(p.tokens[x[0]].lower() == "and" for x in items)  # *..., and best of all GREAT beer!*
        if (kept >= 3 and joined) or k == len(items) - 1:
            return (f"{f.aspect.term!r} is one item of a list of {kept + 1} items of one polarity with no "
                    "contrast: its reversal would read as part of the list")
    return None
