"""Further opinions on the target that a tie check names: reversed with it, not refused (corrected mode).

Three checks refuse a RevTgt whose unchanged context keeps the old polarity: a coordinated predicate of the same
subject and a *with* phrase tied to the opinion (:func:`.clash.clashes`), and an adjective coordinated with the
reversed one (:func:`.pairs.mixed_pair`).
Where the word that keeps the old polarity is itself an opinion on the target that the annotation left out, the
right RevTgt reverses it too, as a reviewer who thought the opposite would have written it:

* the target's own second predicate: the target is the subject of both (*The waitstaff is solicitous and friendly
  and always seems glad to see us* -> *... and always seems sad to see us*); the word is the complement of the
  coordinated verb (*seems glad*, *is not a waste of money*), the only polar word of that predicate, and no other
  aspect's term or opinion is in it;
* an adjective coordinated with the opinion on the target (*such a dynamic and extensive beer list*, *my soup
  always arrives nice and hot*): both modify the target's noun or are predicates of the target as subject;
* the adjective on the object of a *with* phrase on the target or its predicate (*the food is delicious and
  homemade with the perfect balance of herbs and tomatoes*), the phrase's only polar word.

The word becomes an extra opinion span of the target (:func:`widened`): its reversal goes through the same
candidates, validity checks and fluency choice as the annotated spans (the pipeline already reverses every
opinion span of a target), is recorded as an edit of the provenance, and every check runs again on the widened
target. A word about something else is never found here and its refusal stands: a predicate of another subject
(the reviewer's *happy with our food and ... thrilled when we saw the bill*), a word inside an object or a clause
(*ignore their high-tipping regulars*), another aspect's word, an adjective of another noun (*amazing and easy to
use*, where *amazing* is the computer's).
The other refusals of a tied word keep the old polarity too: an elaboration after a colon or dash, an example, a
clause about the target. On the test files every word they name is another aspect's (*the overall build is
great... eg the keyboard is one of the best*: reversing *best* would flip the keyboard), the product's (*It is
robust, with a friendly use*), the reviewer's (*Meat-phobes are in luck with ...*), a fact (*which are a freebie*)
or a degree of the opinion itself (*a little too heavy*): none is answered here.
"""
from __future__ import annotations

from collections.abc import Sequence
from dataclasses import replace

from .clash import PRICE_WORDS, coordinated_predicates, polar_sign, subjects
from .coordination import COORDINATED
from .polarity import LABEL_SIGN, Polarity
from .resources import Parse
from .sense import coordinated_adjectives
from .strategies import Prepared, PreparedAspect
from .syntax import COMPLEMENT, conjunct_root, predicate, scope, span_head, subtree

SAME_TARGET_REASONS = (COORDINATED, "the pair would read mixed", "phrase ties")
"""The refusals a further opinion on the target may answer (the starts or ends of their reasons)."""
_PREDICATE_DEPS = frozenset({"acomp", "attr", "oprd"})
"""The complement of a coordinated verb that is an opinion of its subject (*seems glad*, *is not a waste*)."""
_PAIR_JOINS = frozenset({"and", ",", "&"})
_PAIR_CONTENT = frozenset({"NOUN", "PROPN", "PRON", "VERB", "AUX"})


def answers(reason: str) -> bool:
    """Whether a RevTgt refusal is one a further opinion on the target may answer."""
    return reason.startswith(SAME_TARGET_REASONS[0]) or any(r in reason for r in SAME_TARGET_REASONS[1:])


def further_opinions(lexicon: Polarity, p: Parse, pa: PreparedAspect, aspects: Sequence[PreparedAspect]
                     ) -> list[tuple[int, int]]:
    """The one-token spans of the words that are opinions on ``pa``'s target beside its annotated ones and keep
    its old polarity (module docstring), in sentence order; ``aspects`` are all the sentence's aspects."""
    old = LABEL_SIGN[pa.aspect.polarity]
    if not old or not pa.opinions:
        return []
    term = set(range(*pa.span))
    taken = {i for o in aspects for i in (*range(*o.span), *o.opinion_tokens())}
    found: set[int] = set()
    for a, b in pa.opinions:
        head = span_head(p, a, b)
        found |= _paired(lexicon, p, head, term, old, taken)
        found |= _second_predicate(lexicon, p, head, term, old, taken)
        found |= _with_quality(lexicon, p, head, term, old, taken)
    return [(i, i + 1) for i in sorted(found)]


def _on_target(p: Parse, adj: int, term: set[int]) -> bool:
    """Whether adjective ``adj`` (the first of a coordinated pair) modifies the target's noun or is a predicate
    of the target as subject (*my soup always arrives nice*)."""
    if p.deps[adj] == "amod":
        return p.heads[adj] in term
    if p.deps[adj] in COMPLEMENT | {"xcomp", "advcl"} and p.heads[adj] != adj:
        return bool(term & subjects(p, p.heads[adj]))
    return False


def _paired(lexicon: Polarity, p: Parse, head: int, term: set[int], old: int, taken: set[int]) -> set[int]:
    """Adjectives coordinated with opinion adjective ``head`` on the target, joined by *and* or a comma only
    (the pairs :func:`.pairs.mixed_pair` refuses), that keep the old polarity."""
    if p.upos[head] != "ADJ":
        return set()
    pair = coordinated_adjectives(p, head)
    if not _on_target(p, pair[0], term):
        return set()
    out = set()
    for j in pair:
        if j == head or j in taken:
            continue
        between = range(min(head, j) + 1, max(head, j))
        if any(p.upos[k] in _PAIR_CONTENT for k in between) or \
                not any(p.tokens[k].lower() in _PAIR_JOINS for k in between) or \
                any(p.tokens[k].lower() not in _PAIR_JOINS and p.upos[k] not in ("ADJ", "ADV", "PUNCT")
                    for k in between):
            continue  # *fast but noisy*, *superb, our tapas delightful*: not one pair
        if polar_sign(lexicon, p, j) == old:
            out.add(j)
    return out


def _second_predicate(lexicon: Polarity, p: Parse, head: int, term: set[int], old: int, taken: set[int]
                      ) -> set[int]:
    """The complements of the verbs coordinated with the predicate of ``head`` whose subject is the target
    (*The waitstaff is solicitous and ... always seems glad to see us*), each the only polar word of its
    predicate, with no aspect's words in it."""
    pred = predicate(p, head)
    if pred is None:
        return set()
    root = conjunct_root(p, pred)
    if not term & subjects(p, root):
        return set()  # a predicate of the target's clause, not of the target (*it works great and is ...*)
    out = set()
    for q in coordinated_predicates(p, head, term):
        words = scope(p, q) - subjects(p, q)
        if words & taken:
            continue
        polar = [i for i in sorted(words) if polar_sign(lexicon, p, i)]
        if len(polar) != 1:
            continue
        k = polar[0]
        if p.heads[k] == q and p.deps[k] in _PREDICATE_DEPS and polar_sign(lexicon, p, k) == old:
            out.add(k)
    return out


def _with_quality(lexicon: Polarity, p: Parse, head: int, term: set[int], old: int, taken: set[int]) -> set[int]:
    """The adjective on the object of a *with* phrase on the target or on a predicate of the target as subject,
    the phrase's only polar word, with no aspect's words and no price in it (*the food is delicious and homemade
    with the perfect balance of herbs and tomatoes*: the balance is the food's). A polar word deeper in the
    phrase describes something else (*with dabs of real mozzarella*), as does a polar object (*prompt service
    with a smile*)."""
    hosts = set(term)
    pred = predicate(p, head)
    if pred is not None:
        root = conjunct_root(p, pred)
        if term & subjects(p, root):
            hosts |= {pred, root, *coordinated_predicates(p, head, term), *coordinated_adjectives(p, head)}
    out = set()
    for w, tok in enumerate(p.tokens):
        if tok.lower() != "with" or p.deps[w] != "prep" or p.heads[w] not in hosts:
            continue
        phrase = subtree(p, w)
        if phrase & taken or any(p.tokens[i].lower() in PRICE_WORDS for i in phrase):
            continue
        polar = [i for i in sorted(phrase) if polar_sign(lexicon, p, i)]
        if len(polar) != 1:
            continue
        k = polar[0]
        obj = p.heads[k]
        if p.deps[k] == "amod" and p.upos[k] == "ADJ" and p.heads[obj] == w and p.deps[obj] == "pobj" and \
                polar_sign(lexicon, p, k) == old:
            out.add(k)
    return out


def widened(prep: Prepared, pa: PreparedAspect, extra: Sequence[tuple[int, int]]
            ) -> tuple[Prepared, PreparedAspect]:
    """``prep`` and ``pa`` with ``extra`` added to the target's opinion spans (the other aspects unchanged)."""
    wide = replace(pa, opinions=pa.opinions + tuple(extra),
                   opinion_strings=pa.opinion_strings + tuple(" ".join(prep.tokens[a:b]) for a, b in extra))
    return replace(prep, aspects=tuple(wide if o is pa else o for o in prep.aspects)), wide
