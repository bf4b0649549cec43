"""Repairs of a reversal's discourse clash: a second small edit, as the ARTS post-editors made, instead of a refusal.

Three clashes of :mod:`.clash` have a clean one-word repair in a narrow, recognisable form; every other form
stays refused. The repaired variant runs through every validity check again (the caller re-checks the final
text), and each repair is an edit of its own in the provenance:

* :func:`additive_repair`, op ``additive_removed`` (RevTgt and RevNon): an additive *also* / *too* (found by
  :func:`find_additive`) that ties an opinion to an earlier one (*I love the drinks, and the food is also VERY
  good*) is deleted where the two now differ, and the *and* that joins their clauses becomes *but* (*I don't love
  the drinks, but the food is VERY good*). Only the forms *is also* (after an auxiliary), *, too* and *as well*
  (clause-final), *; also,* and *equally* before its adjective (*the wraps are equally tasty*) are deleted:
  elsewhere *also* works as a conjunction (*Easy to install also small to carry*) and its removal breaks the
  sentence.
* :func:`contrast_repair`, op ``but_to_and``: a *but* whose two sides now read alike becomes *and* where each side
  is one aspect's clause and the aspects had opposite labels (*Great food but the service was dreadful* ->
  *Poor food and the service was dreadful*); a *but* that contrasts an unannotated statement (*too tiny ..., but
  it is cozy*), a concession inside one aspect (*decent, but not great*) or a fixed frame (*not just ..., but
  also*) is left refused.
* :func:`contrast_added`, op ``but_added``: a general aspect and a kind of it that now differ, in two clauses
  joined by a lone comma, are contrasted (*The food is good, but the teriyaki I don't recommend*).
* :func:`contrast_made`, ops ``and_to_but`` and ``but_inserted`` (RevTgt and RevNon): two aspects that agreed in
  the source and differ after the edit, joined by *and* or by a lone comma between two clauses, are contrasted
  as the ARTS post-editors did (*it works well, it is not easy to carry* -> *it works well, but it is not easy
  to carry*; *great service, and pretty poor prices* -> *great service, but pretty poor prices*). Only where
  each side's aspects agree among themselves and no other contrast stands in the sentence: a second *but*
  (*the food is cheap but very good ... but has a poor atmosphere*) reads as stitched, so that form stays as is.

:func:`conjunction_edit` is the plain case, tried on every RevTgt and RevNon edit before the repairs above: the
coordinator between two predicates turns (*and* <-> *but*) where the edit made their sides differ or agree.
"""
from __future__ import annotations

import re
from collections.abc import Sequence
from dataclasses import dataclass

from .charedit import CharEdit, touches
from .clash import contrast_sides, polar_sign
from .polarity import COMPANY, LABEL_SIGN, Polarity
from .resources import Parse
from .sidereading import side_signs, split_pair
from .site import Sent
from .strategies import Prepared, PreparedAspect
from .syntax import EMBEDDED, children, span_head, subtree

PARALLEL_WH = frozenset({"how", "what"})
"""Wh-words that open the second of two coordinated exclamations or questions under one verb (*I can't believe
how quiet the drive is and how quick it boots*): *but how* reads wrong whatever their polarity."""


def conjunction_edit(s: Sent, mine: set[int], my_sign: int, others: list[tuple[set[int], int]]) -> CharEdit | None:
    """``and`` -> ``but`` where it joins two clauses of opposite polarity after the edit, ``but`` -> ``and`` where
    they now agree; ``mine`` are the target side's opinion tokens, ``others`` each other aspect's opinion tokens
    and polarity sign. Only a coordinator between two predicates (verbs, auxiliaries, adjectives) counts, and
    each side must hold the opinion of exactly one polarity."""
    p = s.parse
    if not my_sign:
        return None

    for c, w in enumerate(p.tokens):
        low = w.lower()
        if low not in ("and", "but") or p.deps[c] != "cc":
            continue
        if low == "and" and c + 1 < len(p.tokens) and p.tokens[c + 1].lower() in PARALLEL_WH:
            continue  # *how noisy the drive is and how quick it boots*: two exclamations, never *but how*
        x = p.heads[c]
        ys = [j for j in children(p, x) if p.deps[j] == "conj" and j > c]
        if not ys or p.upos[x] not in ("VERB", "AUX", "ADJ") or p.upos[ys[0]] not in ("VERB", "AUX", "ADJ"):
            continue
        y = ys[0]
        side_b = subtree(p, y)
        side_a = subtree(p, x) - side_b
        for a_side, b_side in ((side_a, side_b), (side_b, side_a)):
            if not mine or not mine <= a_side:
                continue
            signs = {sg for toks, sg in others if toks and toks <= b_side}
            if len(signs) != 1 or 0 in signs:
                continue
            if any(toks and toks <= a_side and sg == -my_sign for toks, sg in others):
                continue  # the edited side is mixed itself (*sushi was good, but the cooked food didn't amaze us*)
            if low == "and" and _nearer_and(p, c, mine):
                continue  # a clause between: the *and* next to the edited one contrasts (:func:`_nearer_and`)
            other = signs.pop()
            if low == "and" and other == -my_sign:
                return s.replace(c, "but", "and_to_but", "'and' joins clauses of opposite polarity after the edit")
            if low == "but" and other == my_sign:
                return s.replace(c, "and", "but_to_and", "'but' joins clauses of the same polarity after the edit")
    return None



@dataclass(frozen=True)
class Additive:
    """An additive adverb (token ``index``) on ``owner``'s opinion, after the opinions of ``earlier`` (nearest
    first)."""

    index: int
    owner: PreparedAspect
    earlier: tuple[PreparedAspect, ...]
    why: str



def find_additive(sent: Sent, prep: Prepared) -> Additive | None:
    """The first additive *also*/*too*/*equally* (or *even* before a comparative) on an opinion after another
    aspect's opinion, with the aspects of the earlier opinions, nearest first. *I love the drinks, and the food is
    also VERY good*, *the wine was good, too*, *the food is great, the shakes are even better*: the additive says
    both opinions share a polarity; reversing either one (*I don't love the drinks, but the food is also VERY
    good*) leaves it asserting the opposite. The common forms are repaired instead
    (:func:`.repair.additive_repair`); the others block the reversal."""
    p = sent.parse
    spans = [(o, sp) for o in prep.aspects for sp in o.opinions]
    for o, (f, t) in spans:
        head = span_head(p, f, t)
        hosts = [head] + ([p.heads[head]] if p.deps[head] in ("acomp", "attr", "xcomp", "dobj") else [])
        for h in hosts:
            for j, w in enumerate(p.tokens):
                # not degree *too sweet*; *equally* compares with the earlier opinion (*are equally tasty*)
                # and a scalar *even* before a comparative (*the food is great, the shakes are even better*)
                additive = w.lower() in ("also", "equally") or (w.lower() == "too" and j > head) or (
                    w.lower() == "even" and p.tags[h] in ("JJR", "RBR"))
                if not (additive and p.heads[j] == h and j != h and p.deps[j] == "advmod"):
                    continue
                earlier = sorted(((sp2[1], n) for n, (o2, sp2) in enumerate(spans)
                                  if o2 is not o and sp2[1] <= min(f, j)), reverse=True)
                if earlier:
                    why = (f"the additive {w!r} ties {sent.span_text((f, t))!r} to an earlier opinion: a reversal "
                           "of either would clash")
                    return Additive(j, o, tuple(dict.fromkeys(spans[n][0] for _, n in earlier)), why)
        fin = _as_well(p, t, [sp for _, sp in spans])
        earlier = sorted(((sp2[1], n) for n, (o2, sp2) in enumerate(spans) if o2 is not o and sp2[1] <= f),
                         reverse=True)
        # *as well* also adds a mere mention (*good chicken and bad tuna as well*): a tie only between agreeing
        # opinions
        if fin is not None and earlier and spans[earlier[0][1]][0].aspect.polarity == o.aspect.polarity != "neutral":
            why = (f"the additive 'as well' ties {sent.span_text((f, t))!r} to an earlier opinion: a reversal of "
                   "either would clash")
            return Additive(fin, o, tuple(dict.fromkeys(spans[n][0] for _, n in earlier)), why)
    return None


_AS_WELL_GAP = frozenset({",", ";", ":", "-", "--", "(", ")", "but", "and", "or", "yet", "so", "because", "which",
                          "that", "who", "while", "although", "though"})


def _as_well(p: Parse, end: int, spans: Sequence[tuple[int, int]]) -> int | None:
    """The token of a clause-final *as well* that follows the opinion ending at ``end`` in its clause (no other
    opinion nor a clause boundary between them: *and good tuna as well.*), or None."""
    for j in range(end, len(p.tokens) - 1):
        w = p.tokens[j].lower()
        if w == "as" and p.tokens[j + 1].lower() == "well" and (
                j + 2 == len(p.tokens) or p.tokens[j + 2] in (".", "!", "...", "!!")):
            return j if not any(end <= f < j for f, _ in spans) else None
        if w in _AS_WELL_GAP or p.upos[j] == "PUNCT":
            return None
    return None


def additive_deletion(sent: Sent, j: int) -> CharEdit | None:
    """The deletion of additive ``j`` (with its comma, or *as well* whole) in the repairable forms, or None."""
    p, t = sent.parse, sent.text
    low = p.tokens[j].lower()
    a, b = sent.offsets[j]
    prev = p.tokens[j - 1] if j > 0 else ""
    nxt = p.tokens[j + 1] if j + 1 < len(p.tokens) else ""
    detail = f"the additive {p.tokens[j]!r} no longer fits: its opinion and the earlier one differ after the edit"
    if low == "also" and j > 0 and (p.upos[j - 1] == "AUX" or (p.lemmas and p.lemmas[j - 1] in ("be", "have"))) \
            and t[a - 1:a] == " ":  # *the food is also VERY good*
        return CharEdit(a - 1, b, "", t[a - 1:b], "additive_removed", detail)
    if low == "too" and prev == "," and nxt in (".", "!", "")\
            and sent.offsets[j - 1][1] < a:  # *the wine was good, too.*
        start = sent.offsets[j - 1][0]
        return CharEdit(start, b, "", t[start:b], "additive_removed", detail)
    if low == "also" and prev in (";", ",") and nxt == "," and j + 2 < len(p.tokens):  # *; also, the bar looks nice*
        end = sent.offsets[j + 2][0]
        return CharEdit(a, end, "", t[a:end], "additive_removed", detail)
    if low == "as" and nxt.lower() == "well" and j > 0 and t[a - 1:a] == " ":  # *and good tuna as well.*
        b = sent.offsets[j + 1][1]
        return CharEdit(a - 1, b, "", t[a - 1:b], "additive_removed", detail)
    if low == "equally" and j + 1 < len(p.tokens) and p.heads[j] == j + 1 and p.upos[j + 1] in ("ADJ", "ADV"):
        end = sent.offsets[j + 1][0]  # *the wraps are equally tasty*
        return CharEdit(a, end, "", t[a:end], "additive_removed", detail)
    return None


def additive_repair(sent: Sent, found: Additive, turned: Sequence[PreparedAspect]) -> list[CharEdit] | None:
    """The edits that repair ``found`` after the aspects ``turned`` flip (none when the additive still fits), or
    None when it cannot be repaired (the form is not one of :func:`additive_deletion`'s)."""
    def sign(o: PreparedAspect) -> int:
        s = LABEL_SIGN[o.aspect.polarity]
        return -s if o in turned else s

    mine = sign(found.owner)
    # the opinions the additive ties: earlier ones of the owner's label in the source (a neutral one ties nothing)
    tied = [o for o in found.earlier if LABEL_SIGN[o.aspect.polarity] == LABEL_SIGN[found.owner.aspect.polarity] != 0]
    if not tied:
        return None
    if all(sign(o) == mine for o in tied):
        return []
    cut = additive_deletion(sent, found.index)
    if cut is None:
        return None
    out = [cut]
    nearest = tied[0]
    if sign(nearest) != mine and sign(nearest) and mine:
        p = sent.parse
        stop = max(t for _, t in nearest.opinions)
        for k in range(found.index - 1, stop - 1, -1):
            w = p.tokens[k].lower()
            if w in (";", ":", ".", "!", "?", "but", "yet"):
                break
            # a coordinator of clauses, never of nouns (*the drinks and food are also good*)
            if w == "and" and p.deps[k] == "cc" and p.upos[p.heads[k]] in ("VERB", "AUX", "ADJ"):
                out.append(sent.replace(k, "but", "and_to_but",
                                        "'and' joins clauses of opposite polarity once the additive is removed"))
                break
    return out


def contrast_repair(sent: Sent, k: int, aspects: Sequence[PreparedAspect], turned: Sequence[PreparedAspect]
                    ) -> CharEdit | None:
    """``but`` (token ``k``) -> ``and`` where its two sides are each the clause of one aspect of opposite labels
    in the source and of the same label after the aspects ``turned`` flip, or None."""
    p = sent.parse
    if p.deps[k] != "cc" or p.tokens[k].lower() != "but":
        return None
    sides = contrast_sides(p.tokens, k)
    if sides is None:
        return None
    (lo, hi) = sides
    left, right = set(range(lo, k)), set(range(k + 1, hi))
    if p.tokens[k + 1].lower() in ("also", "not", "nothing", "still", "even", "only", "then", "rather", "instead"):
        return None
    found: list[list[PreparedAspect]] = [[], []]
    for o in aspects:
        toks = o.opinion_tokens()
        if not toks:
            continue
        if toks & left and toks & right:
            return None  # one aspect's opinions on both sides: a concession (*decent, but not great*)
        for n, side in enumerate((left, right)):
            if toks <= side and set(range(*o.span)) <= side:
                found[n].append(o)
            elif toks & side:
                return None
    if not found[0] or not found[1]:
        return None  # a side without an annotated aspect (*way too tiny ..., but it is cozy*)

    def signs(group: list[PreparedAspect], after: bool) -> set[int]:
        return {(-1 if after and o in turned else 1) * LABEL_SIGN[o.aspect.polarity] for o in group}

    before = [signs(g, False) for g in found]
    after = [signs(g, True) for g in found]
    if any(len(s) != 1 or 0 in s for s in (*before, *after)):
        return None
    if before[0] == before[1] or after[0] != after[1]:
        return None
    return sent.replace(k, "and", "but_to_and", "'but' joins clauses of the same polarity after the edit")


_NOT_BETWEEN = frozenset({"and", "but", "or", "so", "yet", "nor", "while", "because", "though", "although", "which",
                          "who", "that", ";", ":", "-", "--", ".", "!", "?", "(", ")"})


def _degree_so(tokens: Sequence[str], k: int) -> bool:
    """Whether token ``k`` is the degree *so* of *so many* / *so much*, not the connective *so*."""
    return tokens[k].lower() == "so" and k + 1 < len(tokens) and tokens[k + 1].lower() in ("many", "much", "few",
                                                                                          "little")


def contrast_added(sent: Sent, one: PreparedAspect, two: PreparedAspect, op: str = "but_added",
                   detail: str = "a general aspect and a kind of it now differ: the clauses are contrasted",
                   fragment: bool = False) -> CharEdit | None:
    """*but* inserted after the comma that alone joins the clauses of ``one`` and ``two`` (each a clause with its
    own verb: *The food is good, the teriyaki I recommend* -> *..., but the teriyaki I don't recommend*), or
    None where they are not two such clauses. With ``fragment`` the second may be a verbless phrase after a
    clause (*working with it is so much harder, so many cool features* -> *..., but so many cool features*)."""
    p = sent.parse

    def toks(o: PreparedAspect) -> set[int]:
        return set(range(*o.span)) | o.opinion_tokens()

    x, y = sorted((toks(one), toks(two)), key=min)
    if max(x) >= min(y):
        return None
    between = range(max(x) + 1, min(y))
    commas = [k for k in between if p.tokens[k] == ","]
    if len(commas) != 1 or any(p.tokens[k].lower() in _NOT_BETWEEN and not _degree_so(p.tokens, k) for k in between):
        return None
    c = commas[0]
    def joint(j: int) -> bool:
        return p.tokens[j] in _NOT_BETWEEN and not _degree_so(p.tokens, j)

    lo = next((j + 1 for j in range(c - 1, -1, -1) if joint(j) or p.tokens[j] == ","), 0)
    hi = next((j for j in range(c + 1, len(p.tokens)) if joint(j)), len(p.tokens))
    verbs = ("VERB", "AUX")
    if not any(p.upos[j] in verbs for j in range(lo, c)) or not (fragment or any(
            p.upos[j] in verbs for j in range(c + 1, hi))):
        return None  # a list of noun phrases (*great food, friendly service*) is no pair of clauses
    return sent.insert_before(c + 1, "but", op, detail)


_STRETCH_END = frozenset({".", ";", "!", "?", ":", "-", "--", "...", "but", "yet", "although", "though", "however",
                          "whereas", "while", "because", "since", "if", "when", "unless", "except"})
"""Where a coordinated stretch ends: a sentence mark, a contrast or a subordinator opens a new one."""
_SENTENCE_MARK = frozenset({".", "!", "?", "..."})
_CONTRAST_WORDS = frozenset({"but", "yet", "although", "though", "however", "whereas", "while", "except",
                             "nevertheless", "nonetheless", "otherwise"})
_NOT_AFTER_AND = frozenset({"also", "so", "even", "yet", "still", "too", "then", "therefore", "thus", "not", "no",
                            "nothing", "only", "just", "overall", "besides", "plus"})
"""*and* + one of these is a fixed or additive connective (*and also*, *and so*, *and even*): no plain *but*."""
_OPENS_NO_CLAUSE = frozenset({"as", "because", "since", "if", "when", "where", "which", "who", "whom", "whose", "that",
                              "so", "to", "for", "with", "from", "of", "in", "on", "at", "by", "then", "and", "or"})
"""A joint followed by one of these is no coordination of two main clauses (*..., as they knew the service was
excellent*): a *but* there reads wrong."""


_PREDICATE = ("VERB", "AUX", "ADJ")


def _free_sign(lexicon: Polarity, sent: Sent, j: int, opinion: set[int], edits: Sequence[CharEdit]) -> int:
    """The polarity of the conjunct that *and* (token ``j``) joins to the predicate holding ``opinion`` (the edited
    aspect's opinion tokens): the one sign of the polar words the edits leave in it, or 0 where the *and* joins no
    two predicates (*so quick and responsive that it makes ...*), the opinion is not wholly in one of them, or
    the other has no polar word or both signs."""
    p = sent.parse
    pairs = [(p.heads[y], y) for y in range(j + 1, len(p.tokens)) if p.deps[y] == "conj" and p.heads[y] < j
             and p.heads[j] in (p.heads[y], y) and p.upos[y] in _PREDICATE and p.upos[p.heads[y]] in _PREDICATE]
    pairs = pairs or split_pair(p, j)
    if len(pairs) != 1:
        return 0
    x, y = pairs[0]
    # the opinion in either predicate's own clause, not in a clause under it (*so quick and responsive that it
    # makes surfing pleasurable*: the *that* clause is the result of both)
    second = subtree(p, y)
    first = subtree(p, x, EMBEDDED) - second
    other = second if opinion <= first else first if opinion <= subtree(p, y, EMBEDDED) else None
    if other is None:
        return 0
    kept = {i for i in other if p.tokens[i].lower() not in COMPANY and not any(touches(sent.offsets[i], e)
                                                                                for e in edits)}
    # a review verb carries its clause's opinion, its object none (*beats my old mac*, :mod:`.sidereading`)
    signs = side_signs(p, kept, lambda i: polar_sign(lexicon, p, i))
    return signs.pop() if len(signs) == 1 else 0


def _nearer_and(p: Parse, j: int, mine: set[int]) -> bool:
    """Whether another *and* between clauses (one hanging on a predicate) stands between *and* ``j`` and the
    nearest of the edited opinion's tokens ``mine``. In a chain of three clauses the contrast goes next to the
    edited one: *The staff greeted me warmly at the door and I was seated promptly, and the food was poor*
    takes its *but* before *the food*, never after *the door* (*..., but I was seated promptly* reads as if
    being seated promptly were the complaint)."""
    if not mine:
        return False
    near = min(mine) if min(mine) > j else max(mine)
    return any(p.tokens[i].lower() == "and" and p.deps[i] == "cc" and p.upos[p.heads[i]] in _PREDICATE
               for i in range(min(j, near) + 1, max(j, near)))


def _clause_sign(lexicon: Polarity, sent: Sent, side: range, kept: set[int]) -> int:
    """The one polarity of the words the edits leave in ``side`` (a clause with a verb and its subject, read
    through :func:`.sidereading.side_signs`), or 0: the other side of a *, and* the parse does not pair with the
    edited clause (*Though please note that sometimes it crashes, and the sound quality is superb*, where the
    tagger read *isnt superb* as a name)."""
    p = sent.parse
    toks = [i for i in side if i in kept and p.tokens[i].lower() not in COMPANY]
    if not any(p.deps[i] in ("nsubj", "nsubjpass") and p.heads[i] in toks for i in toks):
        return 0
    signs = side_signs(p, toks, lambda i: polar_sign(lexicon, p, i))
    return signs.pop() if len(signs) == 1 else 0


def contrast_made(sent: Sent, aspects: Sequence[PreparedAspect], turned: Sequence[PreparedAspect],
                  edits: Sequence[CharEdit], lexicon: Polarity | None = None, beside: bool = False
                  ) -> CharEdit | None:
    """The *and* -> *but* (op ``and_to_but``) or the *but* after a lone comma (op ``but_inserted``) that
    contrasts two aspects' stretches which agreed in the source and differ after the aspects ``turned`` flip,
    or None (see the module docstring). An *and* is preferred to a comma; one repair per variant. With a
    ``lexicon``, a side of an *and* without annotated aspects counts by the polar words the edits leave in it (*Well
    designed and fast* -> *Poorly designed but fast*; *It arrived so fast and customer service was not great*).
    With ``beside``, only the *and* joints of a sentence that holds another contrast, where the *but* would read
    stitched (:mod:`.beside` words them or refuses the variant)."""
    p = sent.parse
    toks = [w.lower() for w in p.tokens]

    def sign(o: PreparedAspect, after: bool) -> int:
        s = LABEL_SIGN[o.aspect.polarity]
        return -s if after and o in turned else s

    owned = [(o, o.opinion_tokens() | set(range(*o.span))) for o in aspects if o.opinions]
    mine = dict(owned)
    added_contrast = any(w in _CONTRAST_WORDS for e in edits for w in re.findall(r"[a-z]+", e.text.lower()))
    kept = {i for i in range(len(toks)) if not any(touches(sent.offsets[i], e) for e in edits)}
    found: list[tuple[int, CharEdit]] = []
    for j, w in enumerate(toks):
        if w not in ("and", ",") or j not in kept:
            continue
        lo = next((i + 1 for i in range(j - 1, -1, -1) if toks[i] in _STRETCH_END), 0)
        hi = next((i for i in range(j + 1, len(toks)) if toks[i] in _STRETCH_END), len(toks))
        start = next((i + 1 for i in range(j - 1, -1, -1) if toks[i] in _SENTENCE_MARK), 0)
        end = next((i for i in range(j + 1, len(toks)) if toks[i] in _SENTENCE_MARK), len(toks))
        other = any(toks[i] in _CONTRAST_WORDS for i in range(start, end)
                    if not (i == start and toks[i] == "however"))  # *However* points back to the sentence before
        if added_contrast or other != beside or (beside and w != "and"):
            continue  # a second *but* in one sentence reads as stitched clauses
        left = [o for o, t in owned if t & set(range(lo, j))]
        right = [o for o, t in owned if t & set(range(j + 1, hi))]
        if any(not t <= set(range(lo, j)) for o, t in owned if o in left) or any(
                not t <= set(range(j + 1, hi)) for o, t in owned if o in right):
            continue  # an aspect across the joint or beyond the stretch: a concession or a frame, not two sides
        free = 0
        if (not left) != (not right) and w == "and" and lexicon is not None and any(o in turned for o in left + right):
            free = _free_sign(lexicon, sent, j, set().union(*(o.opinion_tokens() for o in left + right)), edits)
        if not free and beside and (not left) != (not right) and toks[j - 1] == "," and lexicon is not None:
            free = _clause_sign(lexicon, sent, range(lo, j - 1) if right else range(j + 1, hi), kept)
        if not (left and right) and not free:
            continue
        if w == "and" and _nearer_and(p, j, set().union(*(o.opinion_tokens() for o in left + right if o in turned))):
            continue  # *greeted me warmly and I was seated promptly and the food was poor*: the nearer *and*
        sides = [{sign(o, True) for o in left} or {free}, {sign(o, True) for o in right} or {free}]
        if any(len(s) != 1 or 0 in s for s in sides) or sides[0] == sides[1]:
            continue
        if j + 1 >= len(toks) or (toks[j + 1] in _OPENS_NO_CLAUSE and not _degree_so(toks, j + 1)):
            continue
        if any(toks[i] in ("also", "too", "either", "even") or toks[i:i + 2] == ["as", "well"]
               for i in range(j + 1, hi) if i in kept):
            continue  # an additive (*but good tuna as well*, *an even better choice*) says the sides agree
        nearest = max(left, key=lambda o: max(mine[o])) if left else None
        first = min(right, key=lambda o: min(mine[o])) if right else None
        before = [sign(nearest, False) if nearest else free, sign(first, False) if first else free]
        if before[0] != before[1] or ({sign(o, False) for o in right} or {free}) != {before[1]}:
            continue  # they differed in the source already: its own joint stays
        if w == "and":
            h = p.heads[j]
            phrase = subtree(p, span_head(p, *nearest.span), EMBEDDED) if nearest else set()
            if h not in (mine[nearest] if nearest else set()) and not (lo <= h < hi and p.upos[h] in (
                    "VERB", "AUX", "ADJ")) and not (h in phrase and p.upos[h] in ("NOUN", "PROPN")):
                continue  # it joins two nouns inside one phrase (*grilled Gruyere and country ham sandwiches*)
            if beside and (p.upos[h] not in ("VERB", "AUX", "ADJ") or p.deps[h] == "amod"):
                continue  # beside a contrast only clauses: a list or a pair of adjectives is :mod:`.pairs`'s
            if p.upos[j] != "CCONJ" or toks[j + 1] in _NOT_AFTER_AND or toks[j + 1] in PARALLEL_WH or any(
                    toks[i] in ("both", "between") for i in range(lo, j)):
                continue
            found.append((0, sent.replace(j, "but", "and_to_but", "'and' joins two aspects that differ after the edit"
                                          if not free else "'and' joins an opinion that the edit reverses to one "
                                          "that it leaves")))
        elif nearest is not None and first is not None:
            # a verbless second side only where the comma alone splits the stretch in two (*built poorly, battery
            # life AMAZING*), never in a list (*the food was poor, the service prompt, and the price ...*)
            two = not any(toks[i] in (",", "and", "or") for i in (*range(lo, j), *range(j + 1, hi)))
            e = contrast_added(sent, nearest, first, "but_inserted",
                               "a lone comma joins the clauses of two aspects that differ after the edit", two)
            if e is not None and e.start == sent.offsets[j + 1][0]:
                found.append((1, e))
    return min(found, key=lambda x: x[0])[1] if found else None


def second_contrast(sent: Sent, conj: CharEdit) -> str | None:
    """A *but* (or a *yet* between clauses) already in the sentence of ``conj`` (an *and* made *but*), outside
    parentheses and not opening the sentence, or None."""
    toks = [w.lower() for w in sent.parse.tokens]
    k = next(i for i, o in enumerate(sent.offsets) if o[0] == conj.start)
    marks = (".", "!", "?", "...")
    lo = next((i + 1 for i in range(k - 1, -1, -1) if toks[i] in marks), 0)
    hi = next((i for i in range(k + 1, len(toks)) if toks[i] in marks), len(toks))
    depth = 0
    for i in range(lo, hi):
        depth += (toks[i] == "(") - (toks[i] == ")")
        clause_yet = toks[i] == "yet" and toks[i - 1] not in ("and", ",") and sent.parse.upos[
            sent.parse.heads[i]] in ("VERB", "AUX")  # not *simple yet well presented*, *exciting and yet relaxed*
        if i != k and i != lo and depth == 0 and (toks[i] == "but" or clause_yet):
            return sent.parse.tokens[i]
    return None
