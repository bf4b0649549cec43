"""Unchanged words that keep the reversed opinion's old polarity (checks 29-33, corrected mode).

A blind audit found reversals that unchanged words on the same noun phrase contradict, outside the ties of
:mod:`.clash` and the frames of :mod:`.context`; like them, RevTgt refuses the source and RevNon drops that
non-target's reversal:

* :func:`descriptor_clash` (29): a verbless descriptor set off by a comma right after the target's phrase (*A
  beautiful atmosphere, perfect for drinks* never becomes *An ugly atmosphere, perfect for drinks*);
* :func:`superlative_frame` (30): a superlative opinion on a frame noun (*part*, *thing*, *feature*) whose
  copula's other side is itself polar (*The nicest part is the low heat output and ultra quiet operation*):
  the frame only names what the other side says (*The best part is the screen* has nothing polar there and
  stays reversible);
* :func:`relative_clash` (31): a relative clause on the opinion's noun or the target's noun that keeps a polar
  word (*there is something so great about being outdoors that makes going there worthwhile*; *a lovely spot
  that makes every visit worthwhile*);
* :func:`example_clause_clash` (32): an example clause (*eg*, *e.g.*, *for example*) and the clause it
  illustrates keep one polarity (*the build is great... eg the keyboard is one of the best*);
* :func:`even_comparative` (33): *even* before a comparative without *than* presupposes the praise before it
  (*Great restaurant, and even greater food* never becomes *... and even worse food*);

On the laptop and restaurant test and training files each check refuses a handful of variants, every one of
which read as incoherent.
"""
from __future__ import annotations

from collections.abc import Sequence

from .clash import polar_word
from .polarity import LABEL_SIGN, Polarity
from .resources import Parse
from .strategies import PreparedAspect
from .syntax import BE, SENTENCE_STOP, SUBJECT, children, span_head, subtree

_DESCRIBING = frozenset({"amod", "appos", "acl", "advcl", "advmod"})
"""Dependencies of a descriptor set off after a noun (*atmosphere, perfect for drinks*), headed by an adjective or
a participle; a noun in apposition after a comma is mostly the next item of a list (*Great food, friendly staff*)
and never counts."""
_SELECTING = frozenset({"certain", "particular", "specific", "such", "same", "whole", "own", "sure"})


def _first_polar(lexicon: Polarity, p: Parse, toks: set[int], sign: int, skip: set[int]) -> str | None:
    """:func:`.clash.polar_word`, a selecting word (*certain*, *whole*) never counting."""
    return polar_word(lexicon, p, toks, sign, skip | {i for i in toks if p.tokens[i].lower() in _SELECTING})


def descriptor_clash(lexicon: Polarity, p: Parse, f: PreparedAspect, aspects: Sequence[PreparedAspect],
                     skip: set[int]) -> str | None:
    """Check 29: why reversing ``f`` would clash with a descriptor set off by a comma right after its term's phrase
    (an adjective or a participle and its phrase, ending at a punctuation mark, with no polar aspect's term in it:
    that is the next item of a list) that keeps a polar word of the old polarity (``skip``: edited and term
    tokens, which never count)."""
    old = LABEL_SIGN[f.aspect.polarity]
    mine = f.opinion_tokens()
    if not old or not mine:
        return None
    noun = span_head(p, *f.span)
    polar_terms = {i for o in aspects if o is not f and LABEL_SIGN[o.aspect.polarity] for i in range(*o.span)}
    np_end = max(subtree(p, noun))
    gov = p.heads[noun]
    # on the noun, or an adjective on its governor right after its phrase (*has a good microphone, good enough for
    # beginners*: the parser hangs it on *has*)
    found = [j for j in children(p, noun) if p.upos[j] in ("ADJ", "VERB")] + [
        j for j in children(p, gov) if gov != noun and p.upos[j] == "ADJ" and j > np_end + 1]
    for j in found:
        if j <= noun or p.deps[j] not in _DESCRIBING:
            continue
        phrase = subtree(p, j)
        first = min(phrase)
        between = set(range(f.span[1], first - 1))
        if first == 0 or p.tokens[first - 1] != "," or first - 1 < f.span[1] or first - 2 > np_end or any(
                p.tokens[i] == "," for i in between):
            continue  # right after the term's phrase: only the comma between them
        end = max(phrase) + 1
        if end < len(p.tokens) and p.upos[end] != "PUNCT":
            continue  # the phrase runs on into a noun: a list item the parser split (*, very friendly and service*)
        if phrase & mine or phrase & polar_terms or any(p.deps[k] in SUBJECT for k in children(p, j)):
            continue  # the opinion itself, a polar aspect's phrase (*Great food, great waitstaff*), or a clause
        word = _first_polar(lexicon, p, phrase, old, skip)
        if word is not None:
            return (f"the descriptor after {f.aspect.term!r} (*, {p.tokens[j]} ...*) keeps {word!r}, the old "
                    "polarity: the reversal would clash")
    return None


FRAME_NOUNS = frozenset({"part", "parts", "thing", "things", "feature", "features", "aspect", "aspects", "bit",
                         "point", "points"})
"""Nouns of a frame that names what its copula's other side says (*The best part is ...*)."""


def superlative_frame(lexicon: Polarity, p: Parse, f: PreparedAspect, aspects: Sequence[PreparedAspect],
                      skip: set[int]) -> str | None:
    """Check 30: why reversing ``f`` would clash with the content of its superlative frame: the opinion is a
    superlative on a frame noun (:data:`FRAME_NOUNS`) on one side of a copula, and the other side keeps a polar
    word of the old polarity or an opinion annotated with it (*The nicest part is the low heat output and ultra
    quiet operation*). ``skip``: the edited and term tokens; an aspect flipped only because it shares the
    superlative (*quiet operation*) keeps its other opinions, which count."""
    old = LABEL_SIGN[f.aspect.polarity]
    if not old:
        return None
    mine = f.opinion_tokens()
    sharing = set().union(*(o.opinion_tokens() for o in aspects if o is not f and set(o.opinions) & set(f.opinions)),
                          set())
    skip = (skip - sharing) | mine | {i for o in aspects for i in range(*o.span)}
    annotated = {i for o in aspects if LABEL_SIGN[o.aspect.polarity] == old for i in o.opinion_tokens()} - skip
    for h in sorted({span_head(p, a, b) for a, b in f.opinions}):
        noun = p.heads[h]
        if p.deps[h] != "amod" or p.tags[h] not in ("JJS", "RBS") or p.tokens[noun].lower() not in FRAME_NOUNS:
            continue
        cop = p.heads[noun]
        if cop == noun or p.deps[noun] not in SUBJECT | {"attr"} or p.upos[cop] not in ("AUX", "VERB") \
                or p.tokens[cop].lower() not in BE:
            continue
        side = subtree(p, noun)
        other = set().union(*(subtree(p, k) for k in children(p, cop) if k not in side and p.deps[k] in (
            "attr", "acomp", "ccomp", "xcomp", "nsubj", "csubj")), set())
        word = next((p.tokens[i] for i in sorted(other & annotated)), None) or _first_polar(lexicon, p, other, old,
                                                                                             skip)
        if word is not None:
            return (f"{f.aspect.term!r}'s opinion {p.tokens[h]!r} frames ({p.tokens[noun]!r}) what the other side "
                    f"of {p.tokens[cop]!r} says, which keeps {word!r}: the reversal would clash")
    return None


_SOME = frozenset({"something", "nothing", "anything", "everything"})
"""Indefinite pronouns whose relative clause often comes after a phrase that the parser takes for its antecedent
(*something so great about being outdoors, ..., enjoying a drink that makes going there worthwhile*)."""
_STOP = frozenset({".", ";", "!", "?", ":", "but", "yet", "(", ")", "-", "--"})


def relative_clash(lexicon: Polarity, p: Parse, f: PreparedAspect, skip: set[int]) -> str | None:
    """Check 31: why reversing ``f`` would clash with a relative clause on its opinion's noun or its term's noun
    that keeps a polar word of the old polarity (*something so great about being outdoors that makes going there
    worthwhile*); after an indefinite pronoun (*something*), the first relative clause before the next boundary."""
    old = LABEL_SIGN[f.aspect.polarity]
    mine = f.opinion_tokens()
    if not old or not mine:
        return None
    nouns = {span_head(p, *f.span)} | {p.heads[h] for h in (span_head(p, a, b) for a, b in f.opinions)
                                      if p.deps[h] == "amod"}
    rels = [j for n in nouns for j in children(p, n) if p.deps[j] == "relcl" and j > n and _finite(p, j)]
    for n in nouns:
        if p.tokens[n].lower() in _SOME:
            hi = next((j for j in range(n + 1, len(p.tokens)) if p.tokens[j].lower() in _STOP), len(p.tokens))
            rels += [j for j in range(n + 1, hi) if p.deps[j] == "relcl" and _finite(p, j)][:1]
    for r in rels:
        clause = subtree(p, r)
        if clause & mine:
            continue
        word = _first_polar(lexicon, p, clause, old, skip)
        if word is not None:
            return (f"a relative clause on {f.aspect.term!r}'s phrase ({p.tokens[r]!r} ...) keeps {word!r}, the old "
                    "polarity: the reversal would clash")
    return None


def _finite(p: Parse, r: int) -> bool:
    """A relative clause with a verb of its own tense, not an infinitive (*a cozy place to go with friends* names a
    use, no second opinion)."""
    return not any(p.tokens[j].lower() == "to" and p.deps[j] == "aux" for j in children(p, r))


EXAMPLE_MARKERS = (("eg",), ("e.g.",), ("e.g",), ("for", "example"), ("for", "instance"), ("i.e.",), ("ie",))
"""Clause-initial markers of an example or a restatement of the clause before them (*the build is great... eg the
keyboard is one of the best*): like check 26's *especially*, the example keeps its clause's polarity."""
_CLAUSE_END = frozenset({".", ";", "!", "?", ":", "(", ")", "-", "--", "...", "but", "yet", ","})


def example_clause_clash(lexicon: Polarity, p: Parse, f: PreparedAspect, skip: set[int]) -> str | None:
    """Check 32: why reversing ``f`` would clash with an example clause (*eg*, *e.g.*, *for example*, after a
    boundary) or the clause it gives an example of: one side holds the opinion, the other keeps a polar word of
    its old polarity (*the build is great... eg the keyboard is one of the best* never becomes *the build is not
    great... eg the keyboard is one of the best*)."""
    old = LABEL_SIGN[f.aspect.polarity]
    mine = f.opinion_tokens()
    term = set(range(*f.span))
    if not old or not mine:
        return None
    low = [t.lower() for t in p.tokens]
    for k in range(1, len(low)):
        mark = next((m for m in EXAMPLE_MARKERS if tuple(low[k:k + len(m)]) == m), None)
        if mark is None or low[k - 1] not in _CLAUSE_END:
            continue
        lo = next((j + 1 for j in range(k - 2, -1, -1) if low[j] in _CLAUSE_END), 0)
        hi = next((j for j in range(k + len(mark), len(low)) if low[j] in _CLAUSE_END - {","}), len(low))
        before, after = set(range(lo, k - 1)), set(range(k + len(mark), hi))
        for side, other in ((before, after), (after, before)):
            if mine & side and not mine & other and not other & term:
                word = _first_polar(lexicon, p, other, old, skip)
                if word is not None:
                    return (f"the example ({' '.join(mark)!r}) and the clause it illustrates keep one polarity "
                            f"({word!r}) for {f.aspect.term!r}: the reversal would clash")
    return None


_EVEN = frozenset({"even", "still"})


def even_comparative(lexicon: Polarity, p: Parse, f: PreparedAspect, skip: set[int]) -> str | None:
    """Check 33: why reversing ``f`` would strand the *even* of its comparative opinion: *even greater food*
    presupposes something great before it (*Great restaurant, and even greater food*), which the reversal leaves
    behind (*Great restaurant, and even worse food*). Only without *than* (which names the compared thing) and
    where the words before the opinion keep a polar word of its old polarity."""
    old = LABEL_SIGN[f.aspect.polarity]
    mine = f.opinion_tokens()
    if not old or not mine:
        return None
    for h in sorted(mine):
        if p.tags[h] not in ("JJR", "RBR") or h == 0 or p.tokens[h - 1].lower() not in _EVEN:
            continue
        hi = next((j for j in range(h + 1, len(p.tokens)) if p.tokens[j].lower() in _STOP), len(p.tokens))
        if any(p.tokens[j].lower() == "than" for j in range(h + 1, hi)):
            continue
        lo = next((j + 1 for j in range(h - 1, -1, -1) if p.tokens[j].lower() in SENTENCE_STOP), 0)
        word = _first_polar(lexicon, p, set(range(lo, h - 1)), old, skip | mine)
        if word is not None:
            return (f"{f.aspect.term!r}'s opinion {p.tokens[h - 1] + ' ' + p.tokens[h]!r} presupposes {word!r} "
                    "before it: the reversal would leave it behind")
    return None
