"""Words of a clause about the target that carry no opinion of their own (corrected mode).

:func:`.corrected._describing_clause` refuses a reversal where a relative or participial clause about the target
keeps a polar word (*a rude bartender who had us waiting 20 minutes*). Two forms count a word the lexicon rates
polar that says nothing about the target:

* a clause that only names who had the dish (*The fajita we tried was tasteless*, *the soup I ordered*): its verb
  (*tried*, rated positive from *must try*) reports the visit;
* a quantity on a noun (*when you don't have much time*, *many times*): an amount, not a judgement.
"""
from __future__ import annotations

import re

from .polarity import Polarity
from .resources import Parse
from .syntax import SUBJECT, children, has_subject

PRONOUNS = frozenset({"i", "we", "you", "they", "he", "she"})
QUANTITIES = frozenset({"much", "many"})


def plain_clause_word(p: Parse, i: int, clause: set[int]) -> bool:
    """Whether polar token ``i`` of ``clause`` (a clause about the target) carries no opinion: the verb of a clause
    made of a personal-pronoun subject and that verb alone, or a quantity word on a noun."""
    w = p.tokens[i].lower()
    if w in QUANTITIES:
        return p.deps[i] in ("amod", "det") and p.upos[p.heads[i]] in ("NOUN", "PROPN")
    if p.upos[i] != "VERB":
        return False
    subj = [j for j in children(p, i) if p.deps[j] in SUBJECT]
    if len(subj) != 1 or p.tokens[subj[0]].lower() not in PRONOUNS:
        return False
    rest = clause - {i, subj[0]}
    return all(p.upos[j] == "PUNCT" or p.tags[j] in ("WDT", "WP") or (p.deps[j] == "dobj" and p.tags[j] in (
        "WDT", "WP")) for j in rest)


def negated_pair(p: Parse, head: int, at: int) -> str | None:
    """Why a *not* after token ``at`` (a copula or auxiliary) before opinion ``head`` would read oddly, or None:
    ``head`` is one of two predicates joined by *and* / *or* (*was tasteless and burned*). *was not tasteless and
    burned* denies the pair, and neither word reads reversed; for the second (*burned*) the *not* falls on the
    first (*was not tasty and burned*)."""
    if head > at + 1 and p.deps[head] == "conj" and p.tokens[head - 1].lower() in ("and", "or") and any(
            p.deps[j] in ("acomp", "attr") and p.heads[j] == p.heads[head] for j in range(at + 1, head - 1)):
        return (f"a negation after {p.tokens[at]!r} falls on the first of the coordinated predicates, not on "
                f"{p.tokens[head]!r}")
    nxt = head + 2
    if nxt >= len(p.tokens) or p.tokens[head + 1].lower() not in ("and", "or") or p.upos[head] != "ADJ":
        return None
    if p.deps[nxt] != "conj" or p.heads[nxt] not in (head, p.heads[head]) or p.upos[nxt] not in ("ADJ", "VERB"):
        return None  # the parser may attach the second to the copula (*was tasteless and burned*)
    if has_subject(p, nxt):
        return None
    return (f"a negation before the pair {p.tokens[head]!r} {p.tokens[head + 1]!r} {p.tokens[nxt]!r} denies the "
            "pair: neither word reads reversed")


STANCE = re.compile(r"(?i)\b(?:definitely|certainly|surely|absolutely)\s+(?=\w)")
"""Stance adverbs that VADER rates positive on their own (*definitely* +1.7): *Definitely avoid the pasta* reads
positive to it, against the verb."""


def stance_free_reading(lexicon: Polarity, text: str) -> int:
    """The lexicon's polarity of ``text`` with its stance adverbs (:data:`STANCE`) left out, so that they boost the
    words they modify instead of counting as praise (*Definitely avoid the taglierini* reads negative); where the
    rest reads neutral the whole is read (*Definitely try the taglierini* stays positive)."""
    return lexicon.phrase(STANCE.sub("", text)) or lexicon.phrase(text)
