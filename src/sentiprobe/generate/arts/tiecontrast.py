"""RevTgt: a contrast where the word that keeps the old polarity is another aspect's opinion (corrected mode).

Two RevTgt refusals of :mod:`.clash` guard a tie between the target's opinion and a word that keeps the old
polarity: a *with* phrase (:func:`.clash.tie_clash`) and a statement with its elaboration after a colon or dash
(:func:`.clash.elaboration_split`). Where that word is the opinion of another annotated aspect, whose label
stays, the reversal cannot touch it; the sentence is then mixed, and the ARTS rules mark a mixed sentence with a
contrast (their *and* -> *but*, see docs/protocols/arts.md), which these two places lack (the released variants
of these sources read *It looks and feels not solid, with a flawless finish* and *Desserts are almost credible:
my personal favorite is ...*). Two forms only, where the contrast reads as plain English:

* :func:`with_contrast`, op ``but_inserted``: *but* before a *with* that follows a comma, where one side of the
  tie holds the target's opinion and no noun but the target's terms (*with the rolls usually terrible and the
  sushi/sashimi not quite on the same level* would turn the comparison too), and the other side's words of the
  old polarity are all opinions of other annotated aspects with the target's old label (a bare *X with Y* is a
  noun phrase: *charming interior but with ...* reads stitched, so it stays refused);
* :func:`elaboration_contrast`, op ``elaboration_contrasted``: the colon or dash becomes *, but* where both sides
  are clauses with a noun subject and a finite verb (not *authentic Italian cuisine made absolutely fresh*; not
  *these are ...*: a pronoun subject restates the first side, and the contrast would contradict it), the
  target's opinions lie on one side and the other side holds only opinions of other aspects with the target's
  old label.

Neither applies in a sentence that holds a contrast already (a second *but* reads stitched), and the caller
re-checks the final text.
"""
from __future__ import annotations

from collections.abc import Sequence

from .charedit import CharEdit, touches
from .clash import ELABORATION, elaboration_mark, polar_sign, tie_clash, ties_of
from .polarity import LABEL_SIGN, Polarity
from .resources import Parse
from .site import Sent
from .strategies import PreparedAspect
from .syntax import children

_CONTRAST = frozenset({"but", "yet", "though", "although", "however", "while", "whereas", "except", "still",
                       "despite", "unfortunately", "nevertheless", "nonetheless", "instead"})
_SUBJECT = frozenset({"nsubj", "nsubjpass"})
_SENTENCE_END = frozenset({".", ";", "!", "?", "..."})
_FINITE = frozenset({"VBZ", "VBP", "VBD", "MD"})


def _copular(p: Parse, head: int) -> bool:
    """``head`` is an auxiliary or a verb with one (*is*, *has been ...*): a tag alone reads a bare participle
    as a past tense (*authentic Italian cuisine made absolutely fresh*)."""
    return p.upos[head] == "AUX" or any(p.deps[c] in ("aux", "auxpass") for c in children(p, head))


def _contrasted(words: Sequence[str]) -> bool:
    return any(w.lower() in _CONTRAST for w in words)


def _old_sign(flipped: Sequence[PreparedAspect]) -> int:
    olds = {LABEL_SIGN[o.aspect.polarity] for o in flipped}
    return olds.pop() if len(olds) == 1 else 0


def with_contrast(lexicon: Polarity, sent: Sent, flipped: Sequence[PreparedAspect],
                  rest: Sequence[PreparedAspect]) -> CharEdit | None:
    """*but* before the *, with* whose tie alone refuses the reversal of ``flipped`` (module docstring), or
    None."""
    p = sent.parse
    old = _old_sign(flipped)
    mine = set().union(*(f.opinion_tokens() for f in flipped)) if flipped else set()
    if not old or not mine or _contrasted(p.tokens):
        return None
    kept = {i for o in rest if LABEL_SIGN[o.aspect.polarity] == old for i in o.opinion_tokens()}
    foreign = {i for o in rest if LABEL_SIGN[o.aspect.polarity] != old for i in o.opinion_tokens()}
    beside = {i for o in rest for i in range(*o.span)}
    terms = {i for o in flipped for i in range(*o.span)}
    for w, phrase, host in ties_of(p):
        if p.tokens[w].lower() != "with" or w == 0 or p.tokens[w - 1] != ",":
            continue
        for side, other in ((host, phrase), (phrase, host)):
            nouns = {i for i in side if p.upos[i] in ("NOUN", "PROPN")} - terms
            if not mine <= side or mine & other or foreign & side or beside & side or nouns:
                continue  # the target's side holds no other aspect (*with the rolls usually terrible and the
                # sushi/sashimi not quite on the same level*: the comparison would turn too)
            polar = {i for i in other if i not in mine and polar_sign(lexicon, p, i) == old}
            if not polar or not polar <= kept:
                continue  # an unannotated word of the old polarity (*a hidden delight complete with ...*)
            if tie_clash(lexicon, p, flipped, rest, frozenset({w})) is not None:
                continue  # another tie still refuses it
            return sent.insert_before(w, "but", "but_inserted",
                                      "the ', with' phrase holds another aspect's opinion of the old polarity: "
                                      "contrasted")
    return None


def elaboration_contrast(lexicon: Polarity, sent: Sent, aspects: Sequence[PreparedAspect],
                         turned: Sequence[PreparedAspect], edits: Sequence[CharEdit]) -> CharEdit | None:
    """The colon or dash of a split elaboration made *, but* (module docstring), or None."""
    p, offsets = sent.parse, sent.offsets
    old = _old_sign(turned)
    mine = set().union(*(o.opinion_tokens() for o in turned)) if turned else set()
    if not old or not mine or _contrasted(p.tokens) or any(_contrasted(e.text.split()) for e in edits):
        return None
    k = elaboration_mark(lexicon, sent.text, p.tokens, offsets, edits)
    if k is None or p.tokens[k] not in ELABORATION or not p.tokens[k - 1][-1:].isalnum():
        return None
    lo = next((j + 1 for j in range(k - 1, -1, -1) if p.tokens[j] in _SENTENCE_END), 0)
    hi = next((j for j in range(k + 1, len(p.tokens)) if p.tokens[j] in _SENTENCE_END), len(p.tokens))
    left, right = set(range(lo, k)), set(range(k + 1, hi))
    if mine <= left:
        other = right
    elif mine <= right:
        other = left
    else:
        return None
    for half in (left, right):
        if not any(p.deps[i] in _SUBJECT and p.upos[i] in ("NOUN", "PROPN") and p.heads[i] in half
                   and p.tags[p.heads[i]] in _FINITE and _copular(p, p.heads[i]) for i in half):
            return None  # a clause with a noun subject and a finite verb on each side (not *these are real, full
            # sized patties*, nor *authentic Italian cuisine made absolutely fresh*)
    rest = [o for o in aspects if o not in turned and o.opinions]
    theirs = [o for o in rest if o.opinion_tokens() & other]
    if not theirs or any(LABEL_SIGN[o.aspect.polarity] != old or not o.opinion_tokens() <= other for o in theirs):
        return None
    if any(o.opinion_tokens() & (left | right) - other for o in rest):
        return None  # another aspect's opinion beside the target's: the sides are not one aspect each
    if any(touches(offsets[k - 1], e) and e.end > offsets[k - 1][1] for e in edits):
        return None
    a, b = offsets[k - 1][1], offsets[k][1]
    return CharEdit(a, b, ", but", sent.text[a:b], "elaboration_contrasted",
                    "the statement and its elaboration are two aspects' clauses that now differ: contrasted")
