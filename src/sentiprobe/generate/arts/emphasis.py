"""Negations a reader would not write, and what a post-editor writes instead (corrected mode):

- an emphatic opinion (*severely slow*, *purely amazing*, *silky smooth*) negated reads as a hedge (*not severely
  slow* is still slow, *not purely amazing* is still good): it takes its plain opposite, the emphasis dropped
  (*severely slow* -> *fast*), or no reversal (:func:`emphatic`);
- a negated complaint adjective is a litotes (*the range is not poor* reads hedged, not praise) where a reviewer's
  opposite exists (*the range is good*) (:func:`litotes`);
- a negated *have* keeps the praise of its object (*doesn't have a terrible variety of tasty pizzas*), and a
  negated predicate keeps its examples (*are not classic recipes, such as ...*) (:func:`kept_praise`);
- *neither X nor Y* before a *but* leaves the *but* contrasting nothing (*The food is neither fresh nor good but
  how it got its stars is beyond me*): the *but* becomes *and*, as the clause after it went against the praise
  that is now a complaint (:func:`neither_but`).
"""
from __future__ import annotations

from .charedit import CharEdit, upper_first
from .morph import base_form
from .polarity import Polarity
from .sense import BOOSTERS, booster_fits, extreme_word
from .site import Candidate, Sent
from .syntax import children, has_subject

EMPHATIC = frozenset({"severely", "purely", "extremely", "incredibly", "insanely", "ridiculously", "exceptionally",
                      "unbelievably", "amazingly", "wonderfully", "uncomfortably", "awesomely", "absolutely", "utterly",
                      "terribly", "awfully", "horribly", "hugely", "immensely", "wildly", "dreadfully", "outrageously",
                      "supremely", "phenomenally", "remarkably", "stunningly", "fantastically"})
"""Adverbs that push an opinion to the end of its scale and whose negation reads as a hedge (*not extremely
friendly*), unlike a partial denial (*not fully satisfied*, *not completely dry*, *not very good*)."""
EMPHATIC_IDIOMS = frozenset({"silky", "crystal", "lightning", "blazing", "razor", "rock", "dirt", "piping", "stone",
                             "bone", "screaming"})
"""First words of emphatic compounds (*silky smooth*, *crystal clear*, *lightning fast*, *dirt cheap*)."""
PRAISE_ONLY = frozenset({"purely", "wonderfully", "amazingly", "awesomely", "phenomenally", "fantastically",
                         "stunningly", "remarkably", "supremely", "exceptionally", "silky", "crystal", "lightning",
                         "blazing", "razor", "rock"})
COMPLAINT_ONLY = frozenset({"severely", "uncomfortably", "horribly", "terribly", "awfully", "dreadfully",
                            "outrageously", "ridiculously", "dirt", "bone", "stone", "screaming"})
"""Emphatic words that fit only one side (*purely amazing*, never *purely awful*; *severely slow*, never *severely
fast*); the others fit both (*extremely friendly*, *extremely rude*)."""
_NEGATING = frozenset({"negation_added", "copula_negated", "do_support"})


def _emphasis(s: Sent, head: int) -> int | None:
    """The emphatic word right before the opinion word ``head`` (its modifier), or None."""
    p = s.parse
    j = head - 1
    if j < 0 or p.heads[j] != head:
        return None
    low = p.tokens[j].lower()
    if (low in EMPHATIC and p.deps[j] == "advmod") or low in EMPHATIC_IDIOMS:
        return j
    return None


def _negating(c: Candidate) -> bool:
    return c.op in _NEGATING or any(e.op in _NEGATING for e in c.edits)


def emphatic(s: Sent, head: int, sign: int, out: list[Candidate], fit) -> tuple[list[Candidate], list[Candidate]]:
    """``out`` with the negations of an emphatic opinion (module docstring) and the swaps its emphasis does not fit
    (*severely fast*, *purely terrible*) marked, and the plain opposites to add (*severely slow* -> *fast*): a
    reviewer's word (a review-lexicon opposite, or one the training file uses with the aspect), as in
    :func:`.lexical.plain_opposite`. A boosted complaint (:data:`.sense.BOOSTERS`) is left to
    :func:`.sense.boosted_negative`."""
    at = _emphasis(s, head)
    p = s.parse
    if at is None or not sign or (sign < 0 and p.tokens[at].lower() in BOOSTERS):
        return out, []
    word = p.tokens[at]
    why = (f"an emphatic opinion ({word!r} ... {p.tokens[head]!r}) negated reads as a hedge (*not severely slow*, "
           "*not purely amazing*): its plain opposite reverses it")
    misfit = f"the emphasis {word!r} does not fit the opposite (*severely fast*, *purely terrible*)"
    goes_on = _goes_on(p, head)
    marked = []
    for c in out:
        if goes_on and (_negating(c) or c.op == "antonym"):
            c = c.with_problems(f"the clause goes on about the emphatic {p.tokens[head]!r} (*extremely friendly and "
                                "even replaced my drink*): its reversal would contradict it")
        elif _negating(c):
            c = c.with_problems(why)
        elif c.op == "antonym" and c.edits and word.lower() in (PRAISE_ONLY if sign > 0 else COMPLAINT_ONLY) \
                and not extreme_word(c) and not booster_fits(word, c.edits[-1].text, fit) and _swap_at(s, c, head):
            c = c.with_problems(misfit)
        marked.append(c)
    if goes_on or (at > 0 and p.tokens[at - 1].lower() in ("so", "too", "how", "as")):
        return marked, []
    return marked, _plain(s, at, head, out)


def _goes_on(p, head: int) -> bool:
    """Whether a later predicate of the same subject goes on about the opinion at ``head`` (*are extremely friendly
    and even replaced my drink*); a clause with a subject of its own (*and I dream about ...*) does not."""
    gov = p.heads[head] if p.deps[head] in ("acomp", "attr") else head
    return any(p.deps[j] == "conj" and p.upos[j] == "VERB" and j > head and not has_subject(p, j)
               for j in (*children(p, gov), *children(p, head)))


def _swap_at(s: Sent, c: Candidate, head: int) -> bool:
    e = c.edits[-1]
    return (e.start, e.end) == s.offsets[head]


def _plain(s: Sent, at: int, head: int, ants: list[Candidate]) -> list[Candidate]:
    found = []
    lo, hi = s.offsets[at][0], s.offsets[head][1]
    for c in ants:
        if not c.valid or c.op != "antonym" or not c.edits or not _swap_at(s, c, head) or " " in c.edits[-1].text \
                or not ("review-lexicon" in c.detail or "training file" in c.detail):
            continue
        word = c.edits[-1].text.lower()
        first = s.word(at)
        new = upper_first(word) if first[:1].isupper() else word
        detail = f"{word!r} for the emphatic phrase {s.text[lo:hi]!r}: its negation reads as a hedge"
        found.append(Candidate((CharEdit(lo, hi, new, s.text[lo:hi], "antonym", detail),), "antonym", detail,
                               c.priority))
    return found


def litotes(s: Sent, head: int, sign: int, out: list[Candidate]) -> list[Candidate]:
    """``out`` with the negations of a complaint adjective marked where a reviewer's opposite of it is valid
    (*the range is not poor* -> *the range is good*)."""
    p = s.parse
    if sign >= 0 or p.upos[head] != "ADJ" or p.deps[head] != "acomp" or p.tokens[head].lower() in _TWO_SIDED:
        return out
    if (head + 1 < len(p.tokens) and p.tokens[head + 1].lower() not in _CLAUSE_END) \
            or (len(p.tokens) > 1 and p.tokens[1] in (":", "-")):
        return out  # *was bland oily*, *rude to the point of ...*, *Drawbacks: service is slow*: a garbled or
        # framed complaint, whose opposite reads no better than its negation
    if not any(c.valid and c.op == "antonym" and c.edits and _swap_at(s, c, head)
               and ("review-lexicon" in c.detail or "training file" in c.detail) for c in out):
        return out
    why = (f"a negated complaint {p.tokens[head]!r} is a litotes (*not poor*) that reads hedged: its opposite "
           "reverses it")
    return [c.with_problems(why) if c.op == "copula_negated" and not _pair(c) else c for c in out]


_TWO_SIDED = frozenset({"cheap", "light", "heavy", "small", "big", "large", "little", "long", "short"})
"""Complaint adjectives whose opposite is a complaint or another sense in many aspects (*feels cheap* ->
*feels expensive*), where the negation stays the plain reversal."""


_CLAUSE_END = frozenset({",", ".", "!", "?", ";", "...", "..", "-", "--", ")", "and", "but", "so"})


def _pair(c: Candidate) -> bool:
    return any(e.text.strip().lower() in ("neither", "nor") for e in c.edits)


def kept_praise(s: Sent, head: int, pred: int | None, sign: int, out: list[Candidate], lexicon: Polarity) \
        -> list[Candidate]:
    """``out`` with the negations marked that leave praise standing on their object (*doesn't have a terrible
    variety of tasty pizzas*: a negated *have* whose object holds other words of the label's polarity) or that
    precede the predicate's examples (*are not classic recipes, such as the stew*)."""
    p = s.parse
    if not sign or pred is None:
        return out
    why = None
    if base_form(p.tokens[pred], p.tags[pred]) == "have" and p.upos[pred] in ("VERB", "AUX"):
        obj = [j for j in children(p, pred) if p.deps[j] == "dobj"]
        words = [p.tokens[k] for j in obj for k in _subtree(p, j) if k != head and p.upos[k] == "ADJ"
                 and p.tokens[k].lower() not in _AMOUNTS and lexicon.word(p.tokens[k]) == sign]
        if words:
            why = f"a negated 'have' leaves the praise {words[0]!r} of its object standing"
    if why is None and any(p.tokens[j].lower() == "such" and p.tokens[j + 1].lower() == "as"
                           for j in range(head + 1, len(p.tokens) - 1)):
        why = "a negated predicate before its examples (*such as ...*) reads as a denial of the examples"
    if why is None:
        return out
    return [c.with_problems(why) if _negating(c) else c for c in out]


_AMOUNTS = frozenset({"enough", "many", "much", "plenty", "more", "several", "ample", "lots"})


def _subtree(p, i: int) -> list[int]:
    found, todo = [], [i]
    while todo:
        j = todo.pop()
        found.append(j)
        todo.extend(children(p, j))
    return found


def neither_but(s: Sent, out: list[Candidate]) -> list[Candidate]:
    """Each *neither X nor Y* candidate followed by *but* (or *, but*) turns the *but* into *and*."""
    p = s.parse
    fixed = []
    for c in out:
        nor = next((e for e in c.edits if e.text.strip().lower() == "nor"), None)
        if nor is None or not any(e.text.strip().lower() == "neither" for e in c.edits):
            fixed.append(c)
            continue
        at = next((i for i, o in enumerate(s.offsets) if o[0] == nor.start), None)
        k = None if at is None else at + 2
        if k is not None and k < len(p.tokens) and p.tokens[k] == ",":
            k += 1
        if k is None or k >= len(p.tokens) or p.tokens[k].lower() != "but":
            fixed.append(c)
            continue
        e = s.replace(k, "and", c.op, "'but' -> 'and': the pair is now a complaint, as the clause after it")
        fixed.append(Candidate((*c.edits, e), c.op, c.detail, c.priority, c.problems))
    return fixed
