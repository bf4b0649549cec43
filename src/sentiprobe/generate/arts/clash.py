"""Discourse clashes of a reversal: unchanged context of the sentence that contradicts it (corrected mode).

A reversal edits only the opinion span (and the predicate that governs it); the rest of the sentence keeps its
old sentiment. Blind audits of generated variants found the failures below recurring; each check names the
clash, and the caller refuses the variant (RevTgt) or drops the reversal (RevNon):

* :func:`tie_clash` / :func:`clashes`, ties on the dependency parse: a *with*/*including* phrase and its host
  (*this great little place with unimpressive chicken tacos*), an adjective on the object of an evaluating verb
  (*I like ..., all the bad graphics stuff*) and the evaluating verb reversed against such an adjective (*I dislike
  iTunes, ..., all the nice graphics stuff*), coordinated predicates of one subject (*is unconcerned and
  unfriendly and always seems glad to see us*);
* :func:`contrast_lost`: a *but* whose sides read alike after the edit (*Great food but the service was good*;
  a side with a negated verb and no polar word reads negative: *..., but I couldn't justify it for the price*);
  :func:`concession_lost` alike for a *while* / *although* / *though* clause (*While it was noisy, the drinks
  were terrible*);
* :func:`elaboration_split`: a statement and its elaboration after a colon or dash that now disagree (*All are
  GREAT - poori, naan, paratha all OLD*);
* :func:`summary_frame`: a frame that sums up or adds up the opinions (*This bar has it all - ...*);
* :func:`repetition_changed`: a repetition made or broken (*rude, rude*; *love, hate the food*);
* :func:`general_clash`: a general aspect and a kind of it that disagree without a contrast (*The food is great,
  I don't love their dumplings*), or two or more kinds that elaborate it, even with one (*The food is terrible,
  but I love their dumplings, noodles and chicken*).

Polar words are the generator's lexicon's (:class:`~.polarity.Polarity`), read against a negation attached to
them or to their head.
"""
from __future__ import annotations

import re
from collections.abc import Callable, Iterable, Sequence

from .charedit import NEGATION_OPS, CharEdit, apply, touches
from .clausewords import stance_free_reading
from .polarity import LABEL_SIGN, Polarity
from .resources import Parse
from .strategies import PreparedAspect
from .syntax import (COMPLEMENT, EMBEDDED, NEG_WORDS, SUBJECT, children, conjunct_root, has_subject, predicate,
                     scope, span_head, subtree)

TIE_WORDS = frozenset({"with", "including", "featuring"})
"""Prepositions (or ``with`` as the marker of an absolute clause) whose phrase elaborates its host."""
PRICE_WORDS = frozenset({"price", "prices", "priced", "pricing", "cost", "costs", "value"})
"""Words of a trade-off: quality *with* a price may go either way (*poorer quality with cheaper prices*)."""
_CUT = EMBEDDED | {"conj", "cc"}
_CONTENT = frozenset({"ADJ", "ADV", "NOUN", "VERB", "PROPN"})
"""Parts of speech that carry sentiment as context (a modal such as *must* does not)."""



def negated(p: Parse, i: int) -> bool:
    """Whether word ``i`` or the head it complements carries a negation (*is not fast*, *no good*)."""
    def neg(k: int) -> bool:
        return any(p.deps[j] == "neg" or (p.tokens[j].lower() in NEG_WORDS and p.deps[j] in ("det", "advmod"))
                   for j in children(p, k))
    return neg(i) or (p.deps[i] in ("acomp", "attr", "advmod", "oprd", "amod", "xcomp") and neg(p.heads[i]))


def polar_sign(lexicon: Polarity, p: Parse, i: int) -> int:
    """The polarity of content word ``i`` in its context (+1 / -1 / 0): the lexicon's, reversed by a negation
    attached to it or to its head (*is not a waste*)."""
    if p.upos[i] not in _CONTENT or (p.upos[i] == "ADV" and p.upos[p.heads[i]] not in ("VERB", "AUX", "ADJ", "ADV")):
        return 0  # an adverb of a preposition (*right out of the box*) carries no sentiment
    s = lexicon.word(p.tokens[i])
    return -s if s and negated(p, i) and not _cannot_be_more(p, i) else s


def _cannot_be_more(p: Parse, i: int) -> bool:
    """Whether comparative ``i`` is denied with a *could* / *can* (*I couldn't be happier*, *could not have been
    better*): the denial of a higher degree is the highest praise, not its reversal."""
    if p.tags[i] not in ("JJR", "RBR"):
        return False
    before = [w.lower() for w in p.tokens[max(0, i - 5):i]]
    return any(w in ("could", "can", "ca", "cannot", "couldnt", "cant") for w in before)


def polar_word(lexicon: Polarity, p: Parse, toks: Iterable[int], sign: int, skip: set[int]) -> str | None:
    """The first word of ``toks`` (not in ``skip``) that reads with polarity ``sign`` in its context, or None."""
    return next((p.tokens[i] for i in sorted(toks) if i not in skip and polar_sign(lexicon, p, i) == sign), None)


def ties_of(p: Parse) -> list[tuple[int, set[int], set[int]]]:
    """Every (tie word, its phrase, its host's side): the host's subtree without coordinated or embedded
    clauses (coordinated adjectives on it stay) and without the phrase."""
    out = []
    for w, tok in enumerate(p.tokens):
        if tok.lower() not in TIE_WORDS or p.heads[w] == w:
            continue
        if p.deps[w] == "prep":
            phrase, host = subtree(p, w), p.heads[w]
        elif p.deps[w] == "mark" and tok.lower() == "with" and p.heads[p.heads[w]] != p.heads[w]:
            phrase, host = subtree(p, p.heads[w]), p.heads[p.heads[w]]  # *, with the rolls usually excellent*
        else:
            continue
        side = subtree(p, host, _CUT)
        # coordinated modifiers of the host stay with it (*Intimate but charming interior with ...*)
        side |= {i for k in list(side) if p.deps[k] == "amod" for j in children(p, k) if p.deps[j] in ("conj", "cc")
                 for i in subtree(p, j)}
        out.append((w, phrase, side - phrase))
    return out


def tie_clash(lexicon: Polarity, p: Parse, flipped: Sequence[PreparedAspect], others: Sequence[PreparedAspect],
              skip: frozenset[int] = frozenset()) -> str | None:
    """Why reversing the opinions of ``flipped`` (the aspects whose label the edit flips) would clash with
    unchanged words tied to them, or None (the first of :func:`clashes`); the tie words at ``skip`` are
    contrasted by a repair (:mod:`.tiecontrast`) and do not count."""
    found = clashes(lexicon, p, flipped, others, skip)
    return next(iter(found.values()), None)


def clashes(lexicon: Polarity, p: Parse, flipped: Sequence[PreparedAspect], others: Sequence[PreparedAspect],
            skip: frozenset[int] = frozenset()) -> dict[str, str]:
    """``{aspect id: why}`` for every aspect of ``flipped`` whose reversal unchanged tied words contradict.
    ``others`` are the sentence's other aspects: their opinions count as tied context in a with/including phrase,
    never in a coordinated predicate (the and -> but rule handles two aspects' clauses); the opinions of
    ``flipped`` are edited, so they never count."""
    edited = set().union(*(f.opinion_tokens() for f in flipped)) if flipped else set()
    annotated = set().union(*(o.opinion_tokens() for o in others)) if others else set()
    terms = {i for o in (*flipped, *others) for i in range(*o.span)}
    ties = [t for t in ties_of(p) if t[0] not in terms | skip]  # *chicken with avocado* is a name, not a tie
    out: dict[str, str] = {}
    for f in flipped:
        why = _clash(lexicon, p, f, ties, edited | terms, annotated)
        if why is not None:
            out[f.aspect.id] = why
    return out


def _clash(lexicon: Polarity, p: Parse, f: PreparedAspect, ties: list[tuple[int, set[int], set[int]]],
           edited: set[int], annotated: set[int]) -> str | None:
    old = LABEL_SIGN[f.aspect.polarity]
    mine = f.opinion_tokens()
    if not old or not mine:
        return None
    term = set(range(*f.span))
    for w, phrase, host in ties:
        if term & phrase and mine & host:
            continue  # the phrase is the opinion's argument (*impressed with the food and value*)
        if any(p.tokens[i].lower() in PRICE_WORDS for i in phrase | host):
            continue  # a price is weighed against what it buys (*good food with a pretty unreasonable price*)
        for side, other in ((host, phrase), (phrase, host)):
            if mine & side and not mine & other:
                word = polar_word(lexicon, p, other, old, edited)
                if word is not None:
                    return (f"the {p.tokens[w]!r} phrase ties {f.aspect.term!r}'s opinion to {word!r}, which keeps "
                            "the old polarity: the reversal would clash")
    for head in sorted({span_head(p, a, b) for a, b in f.opinions}):
        gov = _evaluator(p, head)
        if gov is not None and gov not in edited and polar_sign(lexicon, p, gov) == old:
            return (f"{f.aspect.term!r}'s opinion describes the object of {p.tokens[gov]!r}, which keeps the old "
                    "polarity: the reversal would clash")
        if p.upos[head] == "VERB":  # the reverse direction: *I dislike iTunes, ..., all the nice graphics stuff*
            word = next((p.tokens[i] for i in range(len(p.tokens)) if p.deps[i] == "amod" and i not in edited
                         and p.heads[i] not in term and p.deps[p.heads[i]] in ("conj", "appos", "dobj")
                         and _evaluator(p, i) == head
                         and polar_sign(lexicon, p, i) == old), None)  # a list item (not *with fresh garlic*)
            if word is not None:
                return (f"{f.aspect.term!r}'s opinion {p.tokens[head]!r} evaluates a list whose item keeps {word!r}, "
                        "the old polarity: the reversal would clash")
        for q in coordinated_predicates(p, head, term):
            word = polar_word(lexicon, p, scope(p, q) - subjects(p, q), old, edited | annotated)
            if word is not None:
                return (f"a coordinated predicate of the same subject ({p.tokens[q]!r} ... {word!r}) keeps the "
                        f"old polarity of {f.aspect.term!r}: the reversal would clash")
    return None


def _evaluator(p: Parse, head: int) -> int | None:
    """The verb or adjective whose object (or prepositional object) is the noun phrase that opinion word
    ``head`` modifies, through coordinated and apposed nouns: *I like iTunes, ..., all the nice graphics
    stuff* -> ``like``."""
    if p.deps[head] != "amod":
        return None
    i = p.heads[head]
    for _ in range(8):
        h, dep = p.heads[i], p.deps[i]
        if h == i:
            return None
        if dep in ("dobj", "pobj", "prep") and (p.upos[h] == "VERB" or (
                p.upos[h] == "ADJ" and p.deps[h] in COMPLEMENT | {"xcomp"})):
            return h  # a predicative adjective (*got sick of*), never a fragment's (*Delicious food at a ...*)
        if dep not in ("conj", "appos", "pobj", "prep"):
            return None
        i = h
    return None


def subjects(p: Parse, q: int) -> set[int]:
    """The tokens of predicate ``q``'s subjects."""
    return set().union(*(subtree(p, j) for j in children(p, q) if p.deps[j] in SUBJECT))


def coordinated_predicates(p: Parse, head: int, term: set[int]) -> list[int]:
    """The verbs coordinated with the predicate of opinion word ``head`` that share its subject (no subject of
    their own): *is solicitous and friendly and always seems glad to see us* -> ``seems``. Only where the opinion
    describes that subject: it is the predicate's complement (*is solicitous*, *were happy with our food*) or the
    target is the subject or the predicate itself (*runs very quiet*); an opinion on an object (*is super fast
    and has inferior graphics*) is a claim of its own."""
    pred = predicate(p, head)
    if pred is None:
        return []
    root = conjunct_root(p, pred)
    group = [root]
    todo = [root]
    while todo:
        k = todo.pop()
        for j in children(p, k):
            if p.deps[j] == "conj" and p.upos[j] in ("VERB", "AUX") and not has_subject(p, j):
                group.append(j)
                todo.append(j)
    if len(group) < 2 or p.upos[root] not in ("VERB", "AUX"):
        return []
    if any(p.deps[j] == "cc" and p.tokens[j].lower() in CONTRASTS for k in group for j in children(p, k)):
        return []  # *is priced very unreasonable but works very well*: the contrast is the sentence's point
    subj = subjects(p, root)
    if not (p.deps[head] in COMPLEMENT or term & (subj | set(group))):
        return []
    return [q for q in group if q != pred and head not in scope(p, q)]


_EXCHANGE = PRICE_WORDS | {"money", "quality", "dollars", "bucks", "$"}


def purpose_opinion(p: Parse, span: tuple[int, int]) -> str | None:
    """Why the opinion ``span`` has no reversal where it describes a purpose, or None: an adjective on the object of
    a *for* that completes a noun or an adjective (*size and weight for optimal mobility*, *great for a quick
    lunch*) names what one wants; its opposite (*for bad mobility*, *for a slow lunch*) wants nothing. A *for* on a
    verb or on a price is an exchange or a reason (*paid $20 for a terrible meal*, *much money for such a terrible
    meal*) and stays reversible."""
    head = span_head(p, *span)
    if p.deps[head] != "amod":
        return None
    noun = p.heads[head]
    prep = p.heads[noun]
    if p.deps[noun] != "pobj" or p.tokens[prep].lower() != "for" or p.upos[p.heads[prep]] not in ("NOUN", "PROPN",
                                                                                                 "ADJ"):
        return None
    if {p.tokens[noun].lower(), p.tokens[p.heads[prep]].lower()} & _EXCHANGE:
        return None  # a price paid for something (*too much money for such a terrible meal*)
    return (f"the opinion {p.tokens[head]!r} describes a purpose (*{p.tokens[prep]} ... {p.tokens[noun]}*): "
            "its opposite names nothing one would want")


CONTRASTS = frozenset({"but", "yet"})
_BOUNDARY = frozenset({".", ";", "!", "?", ":", "-", "--", "(", ")", "...", "but", "yet"})


def contrast_lost(lexicon: Polarity, text: str, tokens: Sequence[str], offsets: Sequence[tuple[int, int]],
                  edits: Sequence[CharEdit]) -> str | None:
    """Why a *but* the edits leave in place no longer contrasts anything, or None: the stretches before and
    after it (up to the nearest sentence-internal boundary) read with opposite polarities under the lexicon in
    the source and with the same one after the edits (*It gets crowded at lunchtime but there are lots of seats*
    -> *... but there are not lots of seats*; *Great food but the service was dreadful* -> *Poor food but ...*)."""
    k = lost_contrast(lexicon, text, tokens, offsets, edits)
    if k is None:
        return None
    sign = _side_sign(lexicon, text, tokens, offsets, edits, k)
    return (f"the contrast {tokens[k]!r} no longer fits: both sides read "
            f"{'positive' if sign > 0 else 'negative'} after the edit")


def contrast_sides(tokens: Sequence[str], k: int) -> tuple[int, int] | None:
    """The tokens ``[lo, hi)`` around contrast word ``k``, up to the nearest sentence-internal boundaries."""
    lo = next((j + 1 for j in range(k - 1, -1, -1) if tokens[j].lower() in _BOUNDARY), 0)
    hi = next((j for j in range(k + 1, len(tokens)) if tokens[j].lower() in _BOUNDARY), len(tokens))
    return None if lo >= k or hi <= k + 1 else (lo, hi)


def _side_sign(lexicon: Polarity, text: str, tokens: Sequence[str], offsets: Sequence[tuple[int, int]],
               edits: Sequence[CharEdit], k: int) -> int:
    """The common polarity of contrast ``k``'s sides after the edits, when it lost its contrast (else 0)."""
    sides_tok = contrast_sides(tokens, k)
    if sides_tok is None:
        return 0
    lo, hi = sides_tok
    sides = [(offsets[lo][0], offsets[k - 1][1]), (offsets[k + 1][0], offsets[hi - 1][1])]
    before = [_reading(lexicon, text[a:b]) for a, b in sides]
    after = [_reading(lexicon, _edited(text, a, b, edits)) for a, b in sides]
    for i, (a, b) in enumerate(sides):
        if after[i] == before[i] != 0 and any(a <= e.start and e.end <= b and e.op in NEGATION_OPS for e in edits):
            after[i] = -before[i]  # VADER misses a negation after a booster (*definitely not good* reads positive)
        elif after[i] == before[i] != 0 and certainty_only(lexicon, text[a:b]) and any(
                a <= e.start and e.end <= b and e.op == "antonym" for e in edits):
            after[i] = -before[i]  # *definitely on point* -> *definitely off the mark*: the side read by its adverb
    return after[0] if before[0] * before[1] == -1 and after[0] == after[1] != 0 else 0


CERTAINTY = re.compile(r"\b(?:definitely|certainly|surely|truly|clearly)\b", re.IGNORECASE)
"""Adverbs of certainty, which VADER reads as praise (*definitely* +1.7): they say how sure a statement is, not
which way it goes."""


WANTS_BETTER = re.compile(r"\b(?:needs?|needed|could|should|has|have) (?:to )?(?:be )?(?:improved|better|fixed)\b"
                          r"|\bneeds? (?:some )?(?:improvement|work)\b", re.IGNORECASE)
"""A wish for improvement (*needs to be improved*, *could be better*, *needs work*): a complaint, though its words
read as praise."""


def certainty_only(lexicon: Polarity, side: str) -> bool:
    """Whether ``side`` reads polar only through an adverb of certainty (*The food was definitely on point*): its
    own opinion is unknown to the lexicon, so a reversal of that opinion reverses the side."""
    return CERTAINTY.search(side) is not None and lexicon.phrase(CERTAINTY.sub(" ", side)) == 0


_NEGATED_VERB = re.compile(r"(?:\b(?:not|never|cannot)|n't)\s+(?:\w+\s+){0,2}?\w+", re.IGNORECASE)


def _reading(lexicon: Polarity, side: str) -> int:
    """The polarity of one side of a contrast: the lexicon's, or for a side with no polar word but a negated verb
    negative (*but I just couldn't justify it for the price* is said against praise); a wish for improvement
    (:data:`WANTS_BETTER`) is negative."""
    if WANTS_BETTER.search(side) and not re.search(r"\b(?:not|never|no)\b|n't", side, re.IGNORECASE):
        return -1  # *some things need to be improved*: VADER reads *improved* as praise
    s = lexicon.phrase(side)
    return -1 if s == 0 and _NEGATED_VERB.search(side) else s


def lost_contrast(lexicon: Polarity, text: str, tokens: Sequence[str], offsets: Sequence[tuple[int, int]],
                  edits: Sequence[CharEdit]) -> int | None:
    """The first contrast word the edits leave in place whose sides no longer contrast (see
    :func:`contrast_lost`), or None."""
    for k, tok in enumerate(tokens):
        if tok.lower() not in CONTRASTS or any(touches(offsets[k], e) for e in edits):
            continue
        if _side_sign(lexicon, text, tokens, offsets, edits, k):
            return k
    return None


def _edited(text: str, a: int, b: int, edits: Sequence[CharEdit]) -> str:
    inside = [CharEdit(e.start - a, e.end - a, e.text, e.before, e.op, e.detail) for e in edits
              if a <= e.start and e.end <= b]
    return apply(text[a:b], inside)


ELABORATION = frozenset({":", "-", "--", "\u2014"})
_SENTENCE_END = frozenset({".", ";", "!", "?", "..."})


def elaboration_split(lexicon: Polarity, text: str, tokens: Sequence[str], offsets: Sequence[tuple[int, int]],
                      edits: Sequence[CharEdit]) -> str | None:
    """Why the edits split a statement from its elaboration, or None: the stretches before and after the only
    colon or dash of a sentence agree under the lexicon in the source and disagree after the edits (*All are
    GREAT - poori, naan, paratha all FRESH* -> *... all OLD*; *Desserts are almost incredible: my personal
    favorite is ...*)."""
    k = elaboration_mark(lexicon, text, tokens, offsets, edits)
    if k is None:
        return None
    return (f"the {tokens[k]!r} joins a statement and its elaboration: after the edit one side reads positive, "
            "the other negative")


def elaboration_mark(lexicon: Polarity, text: str, tokens: Sequence[str], offsets: Sequence[tuple[int, int]],
                     edits: Sequence[CharEdit]) -> int | None:
    """The colon or dash of :func:`elaboration_split`, or None."""
    for k, tok in enumerate(tokens):
        if tok not in ELABORATION or any(touches(offsets[k], e) for e in edits):
            continue
        lo = next((j + 1 for j in range(k - 1, -1, -1) if tokens[j] in _SENTENCE_END), 0)
        hi = next((j for j in range(k + 1, len(tokens)) if tokens[j] in _SENTENCE_END), len(tokens))
        if lo >= k or hi <= k + 1 or sum(t in ELABORATION for t in tokens[lo:hi]) > 1:
            continue  # a list of items between dashes (*excellent OS -- optimal mobility -- ...*) is no elaboration
        sides = [(offsets[lo][0], offsets[k - 1][1]), (offsets[k + 1][0], offsets[hi - 1][1])]
        before = [stance_free_reading(lexicon, text[a:b]) for a, b in sides]
        after = [stance_free_reading(lexicon, _edited(text, a, b, edits)) for a, b in sides]
        if before[0] == before[1] != 0 and after[0] * after[1] == -1:
            return k
    return None


_SUMMARY = re.compile(r"\b(?:has|had|have) it all\b|"
                      r"\beverything (?:i|you|one|we) (?:could|would|can) (?:ask|want|wish|need)|"
                      r"\bnothing wrong\b|\bcombined? to\b|\bcombines to\b|\bin addition to\b")
"""Frames that sum up every opinion of the sentence, or add one to another: *This bar has it all - great drinks,
...*, *its literally everything I could ask for*, *NOTHING WRONG*, *great food, ... and friendly service combine
to ensure an enjoyable repast*, *In addition to great hot dogs, DOTP has wonderful breakfast sandwiches*."""


def summary_frame(text: str) -> str | None:
    """Why a reversal anywhere in ``text`` would contradict its summing-up frame, or None."""
    m = _SUMMARY.search(text.lower())
    if m is None:
        return None
    return f"the frame {m.group(0)!r} sums up or adds up the sentence's opinions: a reversal of one would clash"


_REPEAT = re.compile(r"\b(\w+)(?:,| and| or)? \1\b", re.IGNORECASE)


def repetition_changed(source: str, variant: str) -> str | None:
    """Why the edits make or break a word's immediate repetition, or None: two opinions reversed to one antonym
    (*friendly, courteous* -> *rude, rude*), or one half of an emphatic repetition reversed (*love, love the
    food* -> *love, hate the food*)."""
    before = [m.group(0) for m in _REPEAT.finditer(source)]
    after = [m.group(0) for m in _REPEAT.finditer(variant)]
    if len(after) > len(before):  # a repetition reversed as a whole (*better and better* -> *worse and worse*) is fine
        return f"the edits repeat a word ({next(a for a in after if a not in before)!r}): two opinions became one"
    if len(after) < len(before):
        return f"the edits reverse one half of the repetition {next(b for b in before if b not in after)!r}"
    return None


CONTRAST_WORDS = frozenset({"but", "yet", "although", "though", "however", "except", "while", "whereas",
                            "unfortunately", "only"})


def general_clash(p: Parse, flipped: Sequence[PreparedAspect], others: Sequence[PreparedAspect],
                  is_kind: Callable[[str, str], bool], variant: str) -> str | None:
    """Why a reversal would leave a general aspect and a specific one it covers disagreeing without a contrast,
    or None: *The food is great, I love their dumplings, ...* never becomes *... I don't love their dumplings*
    (a dumpling is a food, WordNet's hypernyms say; ``is_kind(specific, general)``). With a contrast word in
    the edited sentence ``variant`` (*The food was good but the dessert was bland*) the two may differ."""
    many = _kinds_split(p, flipped, others, is_kind)
    if many is not None:
        return many
    pair = covering_pair(p, flipped, others, is_kind, variant)
    if pair is None:
        return None
    f, g = pair
    return f"{g.aspect.term!r} covers {f.aspect.term!r} and keeps the old polarity: without a contrast the reversal " \
           "would clash"


def _kinds_split(p: Parse, flipped: Sequence[PreparedAspect], others: Sequence[PreparedAspect],
                 is_kind: Callable[[str, str], bool]) -> str | None:
    """Why a general aspect and two or more kinds of it that agreed in the source would disagree after the
    reversal, even with a contrast, or None: the kinds elaborate the general verdict (*The food is great, I love
    their dumplings, noodles and chicken* never becomes *The food is terrible, but I love their dumplings, ...*);
    a single kind may stand out (*The food is great, but I hate their dumplings*). An aspect that shares a reversed
    opinion (*I love their dumplings, noodles*) is reversed with it."""
    shared = set().union(*(set(o.opinions) for o in flipped)) if flipped else set()
    turned = [*flipped, *(o for o in others if set(o.opinions) & shared)]
    kept = [o for o in others if o not in turned]
    for g in (*turned, *kept):
        sign = LABEL_SIGN[g.aspect.polarity]
        if not sign or not g.opinions or " " in g.aspect.term.strip():
            continue
        side = turned if g in kept else kept
        general = _head_word(p, g)
        kinds = [o for o in side if LABEL_SIGN[o.aspect.polarity] == sign and is_kind(_head_word(p, o), general)]
        if len(kinds) >= 2:
            return (f"{g.aspect.term!r} covers {len(kinds)} kinds of it ({kinds[0].aspect.term!r}, "
                    f"{kinds[1].aspect.term!r}) that agreed with it: the reversal would split them")
    return None


def covering_pair(p: Parse, flipped: Sequence[PreparedAspect], others: Sequence[PreparedAspect],
                  is_kind: Callable[[str, str], bool], variant: str) -> tuple[PreparedAspect, PreparedAspect] | None:
    """The (specific, general) aspects of :func:`general_clash`, or None."""
    if any(w in CONTRAST_WORDS for w in re.findall(r"[a-z]+", variant.lower())):
        return None
    for f in flipped:
        old = LABEL_SIGN[f.aspect.polarity]
        spec = _head_word(p, f)
        for g in others:
            general = old and " " not in g.aspect.term.strip() and LABEL_SIGN[g.aspect.polarity] == old
            if general and g.opinions and is_kind(spec, _head_word(p, g)):  # a one-word category (*the food*)
                return f, g
    return None


def _head_word(p: Parse, pa: PreparedAspect) -> str:
    h = span_head(p, *pa.span)
    return (p.lemmas[h] if p.lemmas else p.tokens[h]).lower()


CONCESSIVE = frozenset({"while", "although", "though", "whereas"})
_CLAUSE_CUT = frozenset({"conj", "cc", "parataxis"})
"""Subordinators of a concession: like *but*, the clause is said against the one it hangs on."""


def concession_lost(lexicon: Polarity, text: str, p: Parse, offsets: Sequence[tuple[int, int]],
                    edits: Sequence[CharEdit]) -> str | None:
    """Why a concessive *while* / *although* / *though* clause the edits leave in place no longer concedes
    anything, or None: the clause and the stretch it is said against read with opposite polarities under the
    lexicon in the source and with the same one after the edits (*While it was large and a bit noisy, the drinks
    were great* -> *..., the drinks were terrible*)."""
    for k, tok in enumerate(p.tokens):
        if tok.lower() not in CONCESSIVE or p.deps[k] != "mark" or any(touches(offsets[k], e) for e in edits):
            continue
        clause = sorted(subtree(p, p.heads[k]) - {k})
        if not clause or clause[0] < k:
            continue
        end = clause[-1] + 1
        gov = p.heads[p.heads[k]]
        if gov == p.heads[k]:
            continue
        rest = [j for j in sorted(subtree(p, gov, _CLAUSE_CUT) - set(clause) - {k}) if p.upos[j] != "PUNCT"]
        if not rest:
            continue
        other = (rest[0], rest[-1] + 1)
        if rest[0] < k and rest[-1] >= end:  # *X, although Y, Z*: the clause it hangs on is the stretch before
            other = (rest[0], max(j for j in rest if j < k) + 1)
        sides = [(offsets[clause[0]][0], offsets[end - 1][1]), (offsets[other[0]][0], offsets[other[1] - 1][1])]
        before = [lexicon.phrase(text[a:b]) for a, b in sides]
        after = [lexicon.phrase(_edited(text, a, b, edits)) for a, b in sides]
        if before[0] * before[1] == -1 and after[0] == after[1] != 0:
            return (f"the concession {tok!r} no longer fits: both sides read "
                    f"{'positive' if after[0] > 0 else 'negative'} after the edit")
    return None
