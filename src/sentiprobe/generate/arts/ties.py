"""Ties of a reversal to the sentence's asides, examples, verdict and back-references (checks 25-28, corrected mode).

Split from :mod:`.context`, whose frames they complete; like them, RevTgt refuses the source and RevNon drops that
non-target's reversal. Each check compares the side of a tie that holds the reversed opinion with the other side,
which keeps a polar word of its old polarity:

* :func:`aside_clash` (25): a parenthesis right after an aspect elaborates it (*excellent food (the catfish is
  delicious)*);
* :func:`example_clash` (26): an example of a noun (*Their desserts -- especially the creme brulee -- are good*,
  *dishes like the paella*, *such as*) keeps the noun's polarity, and the noun the example's;
* :func:`verdict_clash` (27): a verdict on the whole sentence (*Highly recommended*, *what else can I ask for*,
  *worth the trip*, a trailing *..., excellent*) that every opinion of the sentence agrees with;
* :func:`pronoun_clash` (28): a clause after a semicolon refers back with a pronoun (*Appetizers are excellent
  here; you can make a great meal out of them*).
"""
from __future__ import annotations

import re
from collections.abc import Sequence

from .clash import polar_sign
from .polarity import LABEL_SIGN, Polarity
from .resources import Parse
from .strategies import PreparedAspect
from .syntax import SENTENCE_STOP, SUBJECT, subtree

_RESULT_CUT = frozenset({"conj", "cc", "parataxis", "advcl", "punct"})
"""Dependencies that leave a noun's clause (a coordinated or adverbial clause, punctuation)."""


_SELECTING = frozenset({"certain", "particular", "specific", "such", "same", "whole", "own", "sure"})
"""Adjectives that pick a referent out (*certain printer software*), with no evaluation however the lexicon
scores them."""
_ASIDE_END = frozenset({",", ";", ".", "!", "?", ":", "(", ")", "-", "--", "but", "and"})


def _clash_across(lexicon: Polarity, p: Parse, f: PreparedAspect, sides: tuple[set[int], set[int]],
                  skip: set[int]) -> str | None:
    """The first word on the side of ``sides`` without ``f``'s opinion that keeps ``f``'s old polarity, where the
    opinion lies wholly on the other side and ``f``'s term is not on that side (else None)."""
    old = LABEL_SIGN[f.aspect.polarity]
    mine = f.opinion_tokens()
    term = set(range(*f.span))
    if not old or not mine:
        return None
    for side, other in (sides, sides[::-1]):
        if mine & side and not mine & other and not other & term:
            word = next((p.tokens[i] for i in sorted(other) if i not in skip and p.tokens[i].lower() not in
                         _SELECTING and polar_sign(lexicon, p, i) == old), None)
            if word is not None:
                return word
    return None


def aside_clash(lexicon: Polarity, p: Parse, f: PreparedAspect, anchors: set[int], skip: set[int]) -> str | None:
    """Check 25: why reversing ``f`` would clash with a parenthesis that elaborates the aspect before it, or the
    aspect with its parenthesis (*excellent food (the catfish is delicious)* never becomes *poor food (the catfish
    is delicious)*): the parenthesis opens right after an aspect's term or opinion (``anchors``)."""
    low = [t.lower() for t in p.tokens]
    for k, tok in enumerate(low):
        if tok != "(" or k == 0 or k - 1 not in anchors:
            continue
        m = next((j for j in range(k + 1, len(low)) if low[j] == ")"), len(low))
        lo = next((j + 1 for j in range(k - 1, -1, -1) if low[j] in _ASIDE_END), 0)
        word = _clash_across(lexicon, p, f, (set(range(lo, k)), set(range(k + 1, m))), skip)
        if word is not None:
            return (f"{f.aspect.term!r}'s opinion and the parenthesis that elaborates it keep one polarity "
                    f"({word!r}): the reversal would clash")
    return None


EXAMPLE_WORDS = frozenset({"especially", "particularly", "notably", "specifically", "like"})
"""Words that introduce an example of the noun before them (*desserts -- especially the creme brulee --*,
*dishes like the paella*, *such as*)."""


def _examples(p: Parse) -> list[tuple[str, set[int], set[int]]]:
    """Every (example word, the example's tokens, its host's side): an apposed noun with *especially* (or a
    *like* / *such as* phrase) on a noun; the host's side is the host's noun phrase and, where the host is a
    subject, its clause (*Their desserts -- especially the creme brulee -- are good enough*)."""
    out = []
    for w, tok in enumerate(p.tokens):
        low = tok.lower()
        ex = -1
        if low in EXAMPLE_WORDS and low != "like" and p.deps[w] == "advmod" and p.deps[p.heads[w]] == "appos":
            ex = p.heads[w]
        elif (low == "like" or (low == "as" and w > 0 and p.tokens[w - 1].lower() == "such")) and \
                p.deps[w] == "prep" and p.upos[p.heads[w]] in ("NOUN", "PROPN"):
            ex = w
        if ex < 0 or p.heads[ex] == ex:
            continue
        host = p.heads[ex]
        phrase = subtree(p, ex) | ({w - 1} if low == "as" else set())
        side = subtree(p, host, _RESULT_CUT)
        if p.deps[host] in SUBJECT and p.heads[host] != host:
            side |= subtree(p, p.heads[host], _RESULT_CUT)
        out.append((low if low != "as" else "such as", phrase, side - phrase))
    return out


def example_clash(lexicon: Polarity, p: Parse, f: PreparedAspect, skip: set[int]) -> str | None:
    """Check 26: why reversing ``f`` would clash with the noun its example stands for, or the noun with its
    example (*Their desserts -- especially the creme brulee -- are good* never becomes *... especially the dull
    creme brulee -- are good*)."""
    for words, phrase, host in _examples(p):
        word = _clash_across(lexicon, p, f, (host, phrase), skip)
        if word is not None:
            return (f"the example ({words!r}) and its noun keep one polarity ({word!r}) for {f.aspect.term!r}: the "
                    "reversal would clash")
    return None


_VERDICTS = re.compile(r"\b(?:(?:highly|strongly|definitely|totally|would|will|i|we|do|must) recommend\w*|"
                       r"recommended|what (?:else|more) (?:(?:can|could|would|do) (?:i|you|one|we)|"
                       r"(?:i|you|one|we) (?:can|could|would)) (?:ask|want|wish|expect)|"
                       r"(?:can't|cannot|can not|won't) go wrong|worth (?:it|the (?:trip|wait|money|price|visit|"
                       r"drive)))\b")
"""Verdicts on the whole sentence: *Highly recommended*, *what else can I ask for*, *what else would you expect
from ...* (also in the order of a statement, *what else you would expect*), *you can't go wrong*, *worth the
trip*."""
_NOTHING_MISSING = re.compile(r"^what (?:else|more)|go wrong$")
"""Verdicts that nothing is missing (*what more can you ask for*, *you can't go wrong*): every opinion of the
sentence is part of what they sum up, not only the first."""
_VERDICT_NEG = re.compile(r"\b(?:not|n't|never|wouldn't|don't|can't)\s+(?:\w+\s+)?$")


def verdict_sign(lexicon: Polarity, p: Parse, opinions: set[int]) -> tuple[str, int] | None:
    """The sentence's verdict (its words and sign), or None: a recommendation or a summary verdict (a negation
    right before it reverses it), or a trailing one-word verdict after a comma (*..., romantic, excellent*) that
    is no aspect's opinion (``opinions``)."""
    text = " ".join(p.tokens).lower()
    starts = [0]
    for t in p.tokens[:-1]:
        starts.append(starts[-1] + len(t) + 1)
    for m in _VERDICTS.finditer(text):
        toks = {i for i, a in enumerate(starts) if m.start() <= a < m.end()}
        if not toks & opinions:  # *I recommend the codfish*, *worth the wait*: an aspect's opinion, no verdict
            return m.group(0), -1 if _VERDICT_NEG.search(text[:m.start()]) else 1
    n = len(p.tokens)
    while n and p.upos[n - 1] == "PUNCT" and p.tokens[n - 1] not in (",", "-", "--"):
        n -= 1
    if n >= 3 and p.tokens[n - 2] in (",", "-", "--", "...") and n - 1 not in opinions and p.upos[n - 1] == "ADJ":
        s = lexicon.word(p.tokens[n - 1])
        if s:
            return p.tokens[n - 1], s
    return None


def verdict_clash(lexicon: Polarity, p: Parse, f: PreparedAspect, aspects: Sequence[PreparedAspect]) -> str | None:
    """Check 27: why reversing ``f`` would contradict the sentence's verdict, or None: every polar aspect of the
    sentence agrees with the verdict and ``f``'s opinion is the first of them, the one the verdict sums up
    (*bad price, free shipping, what else can I ask for*); a verdict that nothing is missing (*what more can you
    ask for*, *can't go wrong*) sums up every opinion (*Good food at the wrong price, what more can you ask for*).
    A mixed sentence already weighs its verdict and is left alone."""
    opinions = set().union(*(o.opinion_tokens() for o in aspects))
    found = verdict_sign(lexicon, p, opinions)
    if found is None:
        return None
    words, sign = found
    if LABEL_SIGN[f.aspect.polarity] != sign or any(LABEL_SIGN[o.aspect.polarity] == -sign for o in aspects):
        return None
    first = min((min(o.opinion_tokens()) for o in aspects if LABEL_SIGN[o.aspect.polarity] and o.opinions),
                default=-1)
    if not f.opinions or (min(f.opinion_tokens()) != first and not _NOTHING_MISSING.search(words)):
        return None  # a later opinion is a detail the verdict weighs (*excellent tapas at high prices, ...,
        # excellent*); the first one is what it sums up
    return (f"the sentence's verdict {words!r} agrees with every opinion: reversing {f.aspect.term!r}'s, the "
            "first, would contradict it")


_BACK = frozenset({"them", "it", "they", "those", "these"})


def pronoun_clash(lexicon: Polarity, p: Parse, f: PreparedAspect, skip: set[int]) -> str | None:
    """Check 28: why reversing ``f`` would clash with a clause after a semicolon that refers back to it with a
    pronoun, or the other way round (*Appetizers are excellent here; you can make a great meal out of them*)."""
    low = [t.lower() for t in p.tokens]
    for k, tok in enumerate(low):
        if tok != ";":
            continue
        lo = next((j + 1 for j in range(k - 1, -1, -1) if low[j] in SENTENCE_STOP), 0)
        hi = next((j for j in range(k + 1, len(low)) if low[j] in SENTENCE_STOP), len(low))
        depth, back = 0, False
        for j in range(k + 1, hi):  # a pronoun inside a parenthesis refers to the parenthesis's own noun
            depth += (low[j] == "(") - (low[j] == ")")
            back = back or (depth <= 0 and low[j] in _BACK and p.upos[j] == "PRON")
        if not back:
            continue
        word = _clash_across(lexicon, p, f, (set(range(lo, k)), set(range(k + 1, hi))), skip)
        if word is not None:
            return (f"{f.aspect.term!r}'s opinion and the clause after ';' that refers back to it keep one "
                    f"polarity ({word!r}): the reversal would clash")
    return None

