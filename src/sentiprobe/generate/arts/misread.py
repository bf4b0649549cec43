"""Reversals of negative degree phrases (corrected mode): *too* + adjective and *less than* + adjective carry
the complaint in the degree word, not in the adjective. VADER scores the adjective and misses the degree (*way
too sweet*, *less than accommodating* read positive), and a swap of the adjective keeps the complaint (*just too
slow* -> *just too fast*, *too sour* -> *too sweet*). Each phrase has one clean opposite:

- *too* + adjective, with its degree words (*way*, *far*, *much*, *a bit*, *a little*, *just*): *just* +
  adjective + *enough* where the adjective is positive on its own (*the sauce was way too sweet* -> *just sweet
  enough*), else *not too* + adjective (*is just too slow* -> *is not too slow*); an antonym swap right after
  *too* is invalid (:func:`.sense.fixed_phrase`: an excess stays one);
- *less than* + adjective: *more than* (*less than accommodating* -> *more than accommodating*).

Each candidate still goes through the common checks and the polarity flip check of its caller.
"""
from __future__ import annotations

from .charedit import CharEdit
from .polarity import HEDGE_WORDS, Polarity
from .resources import Parse
from .site import Candidate, Sent
from .syntax import children

_TOO_DEGREE = frozenset({"way", "far", "much", "bit", "little", "just"})
"""Degree words before *too* that its reversal drops (*way too sweet* -> *just sweet enough*)."""
_QUANTITY = frozenset({"much", "many", "few", "little"})
"""Quantity words after *too* (*had far too much salad*): *not too much* after a lexical verb is no English."""
_BE = frozenset({"is", "are", "was", "were", "be", "been", "being", "'s", "'re", "am", "'m", "seems", "seemed",
                 "felt", "feels", "tasted", "tastes", "looks", "looked", "sounds", "sounded", "got", "gets"})
"""Copulas and linking verbs after which *not too* + adjective reads as a predicate (*is not too slow*); after
another word it would not (*its not too hard to time*)."""


def too_adjective(s: Sent, f: int, t: int) -> int | None:
    """The index of *too* before an adjective of the span ``f``..``t`` (the adjective in the span)."""
    p = s.parse
    for k in range(max(f - 1, 0), t - 1):
        if p.tokens[k].lower() == "too" and k + 1 >= f and p.upos[k + 1] == "ADJ" and p.tags[k + 1] == "JJ" and (
                k + 2 >= len(p.tokens) or p.tokens[k + 2].lower() != "enough") \
                and p.tokens[k + 1].lower() not in _QUANTITY:
            return k
    return None


def degree_reversals(s: Sent, f: int, t: int, sign: int, lexicon: Polarity) -> list[Candidate]:
    """Candidates reversing a negative degree phrase in the opinion span ``f``..``t`` (module docstring); none
    for another label or form."""
    if sign >= 0:
        return []
    p = s.parse
    toks = [w.lower() for w in p.tokens]
    out = []
    k = too_adjective(s, f, t)
    if k is not None:
        a = k
        if a > 0 and toks[a - 1] in _TOO_DEGREE:
            a -= 1
            if toks[a] in ("bit", "little"):
                a = a - 1 if a > 0 and toks[a - 1] == "a" else a + 1  # *a bit too*; a bare *little too*: *too* only
        lo, hi = s.offsets[a][0], s.offsets[k + 1][1]
        adj = p.tokens[k + 1]
        if lexicon.word(adj) > 0:
            new = f"{s._case(a, 'just')} {adj} {s._case(k + 1, 'enough')}"
        elif a > 0 and toks[a - 1] in _BE:
            new = f"{s._case(a, 'not')} {s._case(k, 'too')} {adj}"
        else:
            new = ""
        if new:
            e = CharEdit(lo, hi, new, s.text[lo:hi], "antonym", f"{s.text[lo:hi]!r} -> {new!r}")
            out.append(Candidate((e,), "antonym", e.detail, 1))
    for k in range(max(f - 1, 0), t):
        if toks[k] == "less" and k + 2 < len(toks) and toks[k + 1] == "than" and f <= k + 2 < t and p.upos[k + 2] in (
                "ADJ", "VERB"):
            e = s.replace(k, "more", "antonym", "'less than' -> 'more than'")
            out.append(Candidate((e,), "antonym", e.detail, 1))
    return out


def middle_in_pair(p: Parse, head: int) -> str | None:
    """Why the opposite of a middle-of-the-scale opinion coordinated with another adjective does not reverse it
    (*the interior is small and average* -> *neither small nor good*, *small and good*): the pair then reads
    mixed; None for another word or a bare one."""
    if p.tokens[head].lower() not in HEDGE_WORDS:
        return None
    if any(p.deps[j] == "conj" and p.upos[j] == "ADJ" for j in children(p, head)) or (
            p.deps[head] == "conj" and p.upos[p.heads[head]] == "ADJ"):
        return f"{p.tokens[head]!r} is coordinated with another adjective: its opposite leaves the pair mixed"
    return None
