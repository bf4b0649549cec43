"""Discourse clashes of a reversal with frames that presuppose its polarity (checks 17-28, corrected mode).

Checks 25-28 live in :mod:`.ties`, checks 29-33 in :mod:`.descriptors`; :func:`context_clashes` runs them all.

The checks of :mod:`.clash` (11-16) compare the reversed opinion with polar words tied to it. A blind audit found
reversals that unchanged words contradict without any polar word of their own: the words around the opinion
presuppose its old polarity. Each check below names such a frame; like :func:`.clash.clashes`, RevTgt refuses
the source and RevNon drops that non-target's reversal:

* :func:`endured` (17): the opinion describes the object of a verb of enduring (*put up with the waiters' bad
  manners* never becomes *... good manners*; *get past the poorly designed set-up*) or of a concession
  (*despite its lovely atmosphere, ... will not return*): the frame needs its object's polarity;
* :func:`result_clause` (18): the opinion carries a degree *so* with a result clause (*Sushi so fresh that it
  crunches in your mouth*, *so fresh you'd think they had their own vegetable garden*): the clause describes
  the degree's consequence, which the reversal leaves behind;
* :func:`cause_clash` (19): the opinion lies on one side of a verb of causing or weighing (*make*, *make for*,
  *turn into*, *justify*, *compensate for*, *outweigh*) whose other side keeps a polar word (*The new operating
  system makes this computer into a super iPad*, *Great food at reasonable prices makes for an evening that
  can't be beat*);
* :func:`not_just_frame` (20): *don't just look good; they deliver excellent performance*: like *not only*,
  the frame ties its clauses' polarity (a sentence-wide frame, as in :func:`.frames.tied_frame`);
* :func:`causal_tie` (21): the opinion lies on one side of *because*, *because of*, *due to*, a causal *since*,
  a causal *, as* (*I had to buy a mouse, as I hate the pad*) or a clause-initial *, so*, and nothing on the
  other side is reversed with it (*The smaller size was a bonus because of space restrictions*; *Tables are
  close, so you better be comfortable bumping elbows*); or it lies in an *as* clause without a comma whose main
  clause keeps a polar word of its old polarity (*I'm glad I did as the food was very good*).

* :func:`wished` (22): the opinion lies in the object or complement of a verb of wanting or an adjective of a
  requirement (*if you want fresh and tasty salads*, *It was important that it was powerful enough*), or praise
  on the object of an infinitive of purpose (*to pay the friendly staff a visit*): the reversal changes the
  wish, not the judgement;
* :func:`elaboration` (23): the opinion lies on one side of a clause-initial *in fact*, *indeed* or *actually*
  and nothing on the other side is reversed with it (*the fans are quiet, actually they aren't audible*);
* :func:`purpose_descriptor` (24): one opinion modifies the noun of a *for*-phrase of another (*Good for a quick
  sushi lunch*: *quick* says which lunch), or the opinion is an amount of praise (*full of superlatives*).
* :func:`.ties.aside_clash` (25): a parenthesis right after an aspect elaborates it (*excellent food (the catfish is
  delicious)*): the aspect and the parenthesis keep one polarity;
* :func:`.ties.example_clash` (26): an example of a noun (*Their desserts -- especially the creme brulee -- are good*,
  *dishes like the paella*, *such as*) keeps the noun's polarity, and the noun the example's;
* :func:`.ties.verdict_clash` (27): a verdict on the whole sentence (*Highly recommended*, *what else can I ask for*,
  *worth the trip*, a trailing *..., excellent*) that every opinion of the sentence agrees with: reversing the
  first opinion, which the verdict sums up, would contradict it, and any opinion where the verdict says nothing
  is missing (*what more can you ask for*); a mixed sentence is left alone;
* :func:`.ties.pronoun_clash` (28): a clause after a semicolon refers back with a pronoun (*Appetizers are excellent
  here; you can make a great meal out of them*): its evaluation and the one it refers to keep one polarity.

On the laptop and restaurant test and training files nine in ten of the variants these checks refuse read as
incoherent to a human reader (checks 17-20 all of them); the rest are causal links that still read (*This is my
first time writing a review because the food was terrible*).
"""
from __future__ import annotations

import re
from collections.abc import Sequence

from .clash import polar_sign
from .descriptors import (descriptor_clash, even_comparative, example_clause_clash, relative_clash,
                          superlative_frame)
from .ties import aside_clash, example_clash, pronoun_clash, verdict_clash
from .morph import lemma
from .polarity import LABEL_SIGN, Polarity
from .resources import Parse
from .strategies import PreparedAspect
from .syntax import SUBJECT, children, span_head, subtree

ENDURE = (("put", "up", "with"), ("bear", "with"), ("cope", "with"), ("deal", "with"), ("live", "with"),
          ("complain", "about"), ("get", "past"), ("look", "past"), ("get", "over"), ("suffer", "through"),
          ("suffer", "thru"), ("tolerate",), ("endure",), ("excuse",), ("forgive",), ("overlook",))
"""Verbs (lemma, then the particle or preposition each needs) that presuppose a negative object: one puts up with
bad manners and complains about slow service, never good ones. In order (the first frame that matches names
the reason); the one list of these frames."""
CONCESSIONS = frozenset({"despite", "notwithstanding", "spite"})
"""Prepositions of a concession (*despite its lovely atmosphere, ... will not return*; *in spite of*): the
phrase is said against the clause, so reversing it leaves nothing to concede."""
_PATH = frozenset({"dobj", "pobj", "prep", "pcomp", "xcomp", "conj", "appos", "poss", "compound", "dative"})
"""Dependencies through which an object noun phrase reaches its governing verb or preposition."""

CAUSES = frozenset({"make", "makes", "made", "making", "render", "renders", "rendered", "turn", "turns", "turned",
                    "justify", "justifies", "justified", "compensate", "compensates", "compensated", "outweigh",
                    "outweighs", "outweighed", "offset", "offsets"})
"""Verbs of causing or weighing: their subject's evaluation and their object's stand in a fixed relation (*The
new system makes this computer into a super iPad*; *the food makes up for it*), which a reversal of one side
breaks."""
_NEEDS_RESULT = frozenset({"make", "makes", "made", "making", "render", "renders", "rendered", "turn", "turns",
                           "turned"})
"""Verbs that cause only with a result (*makes it a super iPad*, *makes for*, *turns into*); with an object
alone they produce (*made great food suggestions*)."""
_RESULT_DEPS = frozenset({"ccomp", "xcomp", "oprd", "acomp", "attr"})
_RESULT_PREPS = frozenset({"for", "into", "up"})
_RESULT_CUT = frozenset({"conj", "cc", "parataxis", "advcl", "punct"})

_CLAUSE_SUBJECTS = frozenset({"i", "you", "we", "they", "it", "one", "he", "she", "that", "people", "everyone"})
_DEGREE = frozenset({"so", "soo", "sooo"})


def _opinion_heads(p: Parse, pa: PreparedAspect) -> list[int]:
    return sorted({span_head(p, a, b) for a, b in pa.opinions})



def _governors(p: Parse, head: int) -> list[tuple[int, list[int]]]:
    """The verbs and prepositions whose object (directly or through a verb's complement) is the noun phrase that
    opinion word ``head`` modifies, nearest first, each with the tokens on the way: *put up with the waiters' bad
    manners* -> ``put``; *get past learning how to use the poorly designed set-up* -> ``use``, ``get``."""
    if p.deps[head] not in ("amod", "compound"):
        return []
    out: list[tuple[int, list[int]]] = []
    i = head
    path: list[int] = []
    for _ in range(10):
        h = p.heads[i]
        if h == i or p.deps[i] not in _PATH | {"amod", "compound"}:
            break
        path.append(h)
        if p.upos[h] == "VERB" or p.tokens[h].lower() in CONCESSIONS:
            out.append((h, list(path)))
        i = h
    return out


def _endured_by(p: Parse, verb: int, path: list[int]) -> tuple[str, int] | None:
    """The frame (its words) and the sign it needs, when ``verb`` is one of :data:`ENDURE` or
    :data:`CONCESSIONS`."""
    w = p.tokens[verb].lower()
    if w in CONCESSIONS:
        return w, 0
    parts = {p.tokens[j].lower() for j in children(p, verb) if p.deps[j] in ("prt", "prep")} | {
        p.tokens[j].lower() for j in path}
    base = lemma(w, "VERB")
    for frame in ENDURE:
        if frame[0] == base and all(x in parts for x in frame[1:]):
            return " ".join((w, *frame[1:])), -1
    return None


def endured(lexicon: Polarity, p: Parse, f: PreparedAspect) -> str | None:
    """Check 17: why reversing ``f`` would leave a verb of enduring or a concession with the wrong object."""
    new = -LABEL_SIGN[f.aspect.polarity]
    if not new:
        return None
    for head in _opinion_heads(p, f):
        found = next((x for x in (_endured_by(p, *g) for g in _governors(p, head)) if x is not None), None)
        if found is None:
            continue
        frame, sign = found
        if sign == 0:
            return (f"{f.aspect.term!r}'s opinion is conceded by {frame!r}: reversed, it leaves nothing to concede "
                    "against the clause")
        if new != sign:
            return (f"{f.aspect.term!r}'s opinion describes what one {frame!r}: the frame presupposes a "
                    f"{'negative' if sign < 0 else 'positive'} object, the reversal would clash")
    return None


def result_clause(p: Parse, f: PreparedAspect) -> str | None:
    """Check 18: why reversing ``f`` would strand a result clause of its degree (*so fresh that it crunches*)."""
    mine = f.opinion_tokens()
    for head in _opinion_heads(p, f):
        if not any(p.tokens[j].lower() in _DEGREE and p.deps[j] == "advmod" for j in children(p, head)):
            continue
        k = max(max(mine) + 1, head + 1)
        if k < len(p.tokens) and p.tokens[k] == ",":
            k += 1
        if k >= len(p.tokens):
            continue
        w = p.tokens[k].lower()
        if w == "that" or (w in _CLAUSE_SUBJECTS and p.deps[k] in SUBJECT):
            return (f"{f.aspect.term!r}'s opinion {p.tokens[head]!r} has a result clause ({p.tokens[k]!r} ...) "
                    "that describes its degree: the reversal would clash")
    return None


def cause_clash(lexicon: Polarity, p: Parse, f: PreparedAspect, skip: set[int]) -> str | None:
    """Check 19: why reversing ``f`` on one side of a verb of causing or weighing would clash with a polar word
    of the old polarity on the other side (``skip``: edited and term tokens, which never count)."""
    old = LABEL_SIGN[f.aspect.polarity]
    mine = f.opinion_tokens()
    if not old or not mine:
        return None
    for v, tok in enumerate(p.tokens):
        if tok.lower() not in CAUSES or p.upos[v] not in ("VERB", "AUX") or v in mine:
            continue
        if tok.lower() in _NEEDS_RESULT and not any(
                p.deps[j] in _RESULT_DEPS or (p.deps[j] in ("prep", "prt") and p.tokens[j].lower() in _RESULT_PREPS)
                for j in children(p, v)):
            continue  # *made great food suggestions*: making as producing, no result
        subj = set().union(*(subtree(p, j) for j in children(p, v) if p.deps[j] in SUBJECT), set())
        if not subj:
            continue
        rest = subtree(p, v, _RESULT_CUT) - subj - {v}
        for side, other in ((subj, rest), (rest, subj)):
            if mine <= side:
                word = next((p.tokens[i] for i in sorted(other)
                             if i not in skip and polar_sign(lexicon, p, i) == old), None)
                if word is not None:
                    return (f"{f.aspect.term!r}'s opinion is on one side of {tok!r}, whose other side keeps "
                            f"{word!r}: the reversal would clash")
    return None


_TEMPORAL_SINCE = frozenset({"bought", "got", "purchased", "received", "had", "owned", "started", "began", "moved",
                             "opened", "switched", "used", "been", "'ve", "have", "has", "ago", "then"})
"""Words that make *since* temporal (*has not decreased since I bought it*), not causal."""
_CAUSAL_CUT = frozenset({"conj", "cc", "parataxis"})
_STRETCH_END = frozenset({".", ";", "!", "?", ":", "(", ")", "-", "--", "but"})


def _causal_pairs(p: Parse) -> list[tuple[str, set[int], set[int]]]:
    """Every causal link of the sentence as (its words, the reason's tokens, the other side's tokens): *because*
    or causal *since* and its clause, *because of* / *due to* and its phrase, each against the clause they attach
    to (without coordinated clauses); a clause-initial *, so* against the stretch before its comma."""
    out: list[tuple[str, set[int], set[int]]] = []
    n = len(p.tokens)
    for k, tok in enumerate(p.tokens):
        w = tok.lower()
        nxt = p.tokens[k + 1].lower() if k + 1 < n else ""
        causal_as = w == "as" and k > 0 and p.tokens[k - 1] == "," and k + 1 < n and p.upos[k + 1] not in (
            "AUX", "VERB") and any(p.deps[j] in SUBJECT for j in children(p, p.heads[k]))
        # *I had to buy a mouse, as I hate the pad*: a clause after a comma with its own subject gives a reason
        # (*works as advertised*, *as good as* and the inverted *, as is the pasta* do not)
        if (w in ("because", "since") or causal_as) and p.deps[k] == "mark":
            c = p.heads[k]
            reason = subtree(p, c)
            if w == "since" and any(p.tokens[j].lower() in _TEMPORAL_SINCE for j in reason | set(children(
                    p, p.heads[c]))):
                continue
            gov = p.heads[c]
            if gov != c:
                out.append((w, reason, subtree(p, gov, _CAUSAL_CUT) - reason))
        elif (w == "because" and nxt == "of") or (w == "due" and nxt == "to"):
            reason = subtree(p, k) | {k + 1}
            gov = p.heads[k]
            if gov != k:
                out.append((f"{w} {nxt}", reason, subtree(p, gov, _CAUSAL_CUT) - reason))
        elif w == "so" and k > 0 and p.tokens[k - 1] in (",", ";") and k + 1 < n and p.upos[k + 1] in (
                "PRON", "PROPN", "NOUN", "DET"):
            lo = next((j + 1 for j in range(k - 2, -1, -1) if p.tokens[j].lower() in _STRETCH_END), 0)
            hi = next((j for j in range(k + 1, n) if p.tokens[j].lower() in _STRETCH_END), n)
            out.append((w, set(range(lo, k - 1)), set(range(k + 1, hi))))
    return out


def _feeling_as(lexicon: Polarity, p: Parse, f: PreparedAspect, skip: set[int]) -> str | None:
    """A causal *as* with no comma (*I'm glad I did as the food was very good*) is told from a temporal one (*smiled
    as we walked in*) by a feeling: the clause it hangs on, up to its sentence's main clause, keeps a polar word of
    ``f``'s old polarity, which the reason's reversal would contradict. The word, or None."""
    old = LABEL_SIGN[f.aspect.polarity]
    mine = f.opinion_tokens()
    if not old or not mine:
        return None
    n = len(p.tokens)
    for k, tok in enumerate(p.tokens):
        if tok.lower() != "as" or p.deps[k] != "mark" or k == 0 or p.tokens[k - 1] in (",", ";") or k + 1 >= n \
                or p.upos[k + 1] in ("AUX", "VERB") or not any(p.deps[j] in SUBJECT for j in children(p, p.heads[k])):
            continue
        reason = subtree(p, p.heads[k])
        if not mine <= reason:
            continue
        top = p.heads[k]
        while p.heads[top] != top and p.deps[top] in ("advcl", "ccomp", "xcomp", "acomp"):
            top = p.heads[top]
        word = next((p.tokens[i] for i in sorted(subtree(p, top, _CAUSAL_CUT) - reason)
                     if i not in skip and polar_sign(lexicon, p, i) == old), None)
        if word is not None:
            return word
    return None


def causal_tie(lexicon: Polarity, p: Parse, f: PreparedAspect, edited: set[int]) -> str | None:
    """Check 21: why reversing ``f`` would break a causal link, or None: its opinion lies on one side of a
    *because*, *since*, *due to* or *, so* and nothing on the other side is reversed with it (*The smaller size
    was a bonus because of space restrictions* never becomes *was not a bonus because of space restrictions*;
    *Tables are close, so you better be comfortable bumping elbows*). Where the target itself is the reason
    (*I love it because of the screen*), the link is reversed with it. An *as* without a comma ties only a
    feeling (:func:`_feeling_as`)."""
    mine = f.opinion_tokens()
    term = set(range(*f.span))
    for words, reason, rest in _causal_pairs(p):
        for side, other in ((reason, rest), (rest, reason)):
            if mine & side and not mine & other and not other & (edited | term) and any(
                    p.upos[i] in ("NOUN", "VERB", "ADJ", "PROPN", "NUM") for i in other):
                return (f"{f.aspect.term!r}'s opinion is tied by {words!r} to a reason or consequence that keeps "
                        "its sense: the reversal would clash")
    word = _feeling_as(lexicon, p, f, edited | term)
    if word is not None:
        return (f"{f.aspect.term!r}'s opinion is the reason ('as') for {word!r}, which keeps the old polarity: the "
                "reversal would clash")
    return None


WISHES = frozenset({"want", "need", "wish", "hope", "require", "desire", "crave", "look"})
"""Verbs of wanting or requiring: what they take as object or complement is wished for, not judged (*if you want
fresh and tasty salads*, *hoping the cable will stay nice*, *looking to taste some great Indian food*); *look*
only with *for* or a *to*-complement."""
REQUIREMENTS = frozenset({"important", "essential", "necessary", "crucial", "vital"})
"""Adjectives of a requirement (*It was important that it was powerful enough*)."""
_WISH_PATH = frozenset({"amod", "acomp", "attr", "dobj", "pobj", "prep", "xcomp", "ccomp", "compound", "advmod",
                        "conj", "appos", "nsubj", "nsubjpass", "oprd", "npadvmod"})
"""Dependencies through which an opinion reaches the verb or adjective of a wish; a coordinated clause
(``conj`` of a verb), an adverbial or relative clause is said, not wished, and stops the climb."""


def _purpose_of(p: Parse, head: int) -> int | None:
    """The verb of an infinitive of purpose whose object is the noun that opinion word ``head`` modifies (*stop in
    ... to pay the friendly staff a visit* -> ``pay``), or None: like a wish, a purpose says what one wants. Only
    praise counts (the caller's test): a complaint in a purpose is ironic (*let in 5 at a time, to buy expensive
    slices*), and its reversal reads as plain praise."""
    if p.deps[head] != "amod":
        return None
    noun = p.heads[head]
    v = p.heads[noun]
    if p.deps[noun] not in ("dobj", "dative") or v == noun or v > head or p.upos[v] != "VERB" \
            or p.deps[v] != "advcl" or not any(p.tokens[j].lower() == "to" and p.deps[j] == "aux"
                                               for j in children(p, v)):
        return None
    return v


def wished(p: Parse, f: PreparedAspect) -> str | None:
    """Check 22: why reversing ``f`` would change a wish or a requirement instead of a judgement: its opinion lies
    in the object or complement of a verb of wanting (:data:`WISHES`) or of an adjective of a requirement
    (:data:`REQUIREMENTS`). *If you want fresh and tasty salads, go here* never becomes *if you want stale and
    bland salads*; *It was important that it was powerful enough* never *... that it was not powerful enough*."""
    for head in _opinion_heads(p, f):
        purpose = _purpose_of(p, head) if LABEL_SIGN[f.aspect.polarity] > 0 else None
        if purpose is not None:
            return (f"{f.aspect.term!r}'s opinion describes the object of a purpose ('to {p.tokens[purpose]}'): the "
                    "reversal would change what one comes for, not the judgement")
        i, came = head, ""
        for _ in range(12):
            h = p.heads[i]
            if h == i or p.deps[i] not in _WISH_PATH or (p.deps[i] == "conj" and p.upos[h] in ("VERB", "AUX")):
                break
            came = p.deps[i]
            low = p.tokens[h].lower()
            base = lemma(low, "VERB")
            if h > head:
                i = h
                continue  # the wish comes first (*if you want fresh salads*): *has lots of options: I hope to go
                # back* says the opinion, then a wish
            if p.upos[h] == "VERB" and base in WISHES and (base != "look" or came == "xcomp" or any(
                    p.tokens[j].lower() == "for" for j in children(p, h) if p.deps[j] == "prep")):
                return (f"{f.aspect.term!r}'s opinion is what one {p.tokens[h]!r}: the reversal would change the "
                        "wish, not the judgement")
            req = [j for j in children(p, h) if p.deps[j] == "acomp" and p.tokens[j].lower() in REQUIREMENTS] \
                if came == "ccomp" else []  # *It was important that ...*: the clause hangs on the copula
            if req or (p.upos[h] == "ADJ" and low in REQUIREMENTS and came in ("ccomp", "xcomp")):
                low = p.tokens[req[0]].lower() if req else low
                return (f"{f.aspect.term!r}'s opinion is what is {low!r}: the reversal would change the requirement, "
                        "not the judgement")
            i = h
    return None


ELABORATIONS = (("in", "fact"), ("indeed",), ("actually",), ("in", "reality"))
"""Clause-initial markers (after a comma or semicolon) of an elaboration that strengthens the clause before it
(*The battery was dead, in fact it had grown a lump*)."""


def elaboration(p: Parse, f: PreparedAspect, edited: set[int]) -> str | None:
    """Check 23: why reversing ``f`` would leave an elaboration arguing with it: the opinion lies on one side of
    a clause-initial *in fact*, *indeed* or *actually* and nothing on the other side is reversed with it (*the
    fans are quiet, actually they aren't audible* never becomes *the fans are loud, actually they aren't
    audible*)."""
    mine = f.opinion_tokens()
    term = set(range(*f.span))
    low = [t.lower() for t in p.tokens]
    n = len(low)
    for k in range(1, n):
        mark = next((m for m in ELABORATIONS if tuple(low[k:k + len(m)]) == m), None)
        if mark is None or low[k - 1] not in (",", ";", ":", "-", "--"):
            continue
        lo = next((j + 1 for j in range(k - 2, -1, -1) if low[j] in _STRETCH_END), 0)
        hi = next((j for j in range(k + len(mark), n) if low[j] in _STRETCH_END), n)
        before, after = set(range(lo, k - 1)), set(range(k + len(mark), hi))
        for side, other in ((before, after), (after, before)):
            if mine & side and not mine & other and not other & (edited | term) and any(
                    p.upos[i] in ("NOUN", "VERB", "ADJ", "PROPN", "NUM") for i in other):
                return (f"{f.aspect.term!r}'s opinion is elaborated by {' '.join(mark)!r}, whose other side keeps "
                        "its sense: the reversal would clash")
    return None


def purpose_descriptor(p: Parse, f: PreparedAspect) -> str | None:
    """Check 24: why reversing ``f`` would reverse the use an evaluation is for: one of its opinions modifies the
    noun of a *for*-phrase that depends on another of its opinions (*Good for a quick sushi lunch*): *quick*
    says which lunch, so the reversal reads *Bad for a slow sushi lunch* (and a verb opinion's object alike:
    *opt for an outstanding club* never becomes *don't opt for an outstanding club*). A figurative amount of
    praise (*full of superlatives*) is refused alike: its negation (*not full of superlatives*) denies the
    amount, not the praise."""
    heads = _opinion_heads(p, f)
    for h in heads:
        if p.deps[h] == "amod":
            noun = p.heads[h]
            prep = p.heads[noun]
            if p.deps[noun] == "pobj" and p.tokens[prep].lower() == "for" and p.heads[prep] in heads:
                return (f"{f.aspect.term!r}'s opinion {p.tokens[h]!r} describes what its other opinion "
                        f"{p.tokens[p.heads[prep]]!r} is for: the reversal would change which one is meant")
        if p.upos[h] == "NOUN" and p.deps[h] == "pobj" and p.tokens[p.heads[h]].lower() == "of" \
                and p.upos[p.heads[p.heads[h]]] == "ADJ":
            return (f"{f.aspect.term!r}'s opinion {p.tokens[h]!r} is an amount ({p.tokens[p.heads[p.heads[h]]]!r} "
                    "of ...): a reversal would deny the amount, not the praise")
    return None


def context_clashes(lexicon: Polarity, p: Parse, flipped: Sequence[PreparedAspect],
                    others: Sequence[PreparedAspect]) -> dict[str, str]:
    """``{aspect id: why}`` for every aspect of ``flipped`` whose reversal a presupposing frame contradicts
    (checks 17-19, 21-28 and those of :mod:`.descriptors`), in the form of :func:`.clash.clashes`."""
    edited = set().union(*(f.opinion_tokens() for f in flipped)) if flipped else set()
    aspects = (*flipped, *others)
    terms = {i for o in aspects for i in range(*o.span)}
    anchors = terms | set().union(*(o.opinion_tokens() for o in aspects))
    out: dict[str, str] = {}
    for f in flipped:
        why = (endured(lexicon, p, f) or result_clause(p, f) or cause_clash(lexicon, p, f, edited | terms)
               or causal_tie(lexicon, p, f, edited) or wished(p, f) or elaboration(p, f, edited)
               or purpose_descriptor(p, f)
               or aside_clash(lexicon, p, f, anchors, edited | terms) or example_clash(lexicon, p, f, edited | terms)
               or verdict_clash(lexicon, p, f, aspects) or pronoun_clash(lexicon, p, f, edited | terms)
               or descriptor_clash(lexicon, p, f, aspects, edited | terms)
               or superlative_frame(lexicon, p, f, aspects, edited | terms)
               or relative_clash(lexicon, p, f, edited | terms)
               or example_clause_clash(lexicon, p, f, edited | terms)
               or even_comparative(lexicon, p, f, edited | terms))
        if why is not None:
            out[f.aspect.id] = why
    return out


def context_clash(lexicon: Polarity, p: Parse, flipped: Sequence[PreparedAspect],
                  others: Sequence[PreparedAspect]) -> str | None:
    """The first reason of :func:`context_clashes`, or None."""
    return next(iter(context_clashes(lexicon, p, flipped, others).values()), None)


_NOT_JUST = re.compile(r"(?:\bnot|n't) (?:just|merely|simply) (?!(?:the|a|an|for|because|in|on|at|to)\b)\w")
"""*They don't just look good; they deliver ...*, *not just odd, ...*: a predicate, not a noun phrase (*REAL
service, not just the rush you get*, where it means *rather than*)."""


def not_just_frame(text: str) -> str | None:
    """Check 20: why a reversal in ``text`` would break its *not just X; Y* frame, or None."""
    m = _NOT_JUST.search(text.lower())
    if m is None:
        return None
    return (f"the frame {m.group(0)[:-1].strip()!r} ... ties its clauses' polarity (like 'not only'): a reversal "
            "inside it would clash")
