"""Opposites of review opinions that fall through the antonym path (corrected mode): WordNet has no antonym for
them and the tagger reads them off the adjective path, so :func:`.opposites.antonym_candidates` never reaches the
review lexicon. Each rule is the edit a post-editor writes; every candidate still goes through the validity checks
and the fluency ranking.

- a comparative the tagger read as an adverb or a noun (:func:`misread_comparative`: *So much faster and sleeker
  looking* -> *So much slower and clunkier looking*): the comparative of its adjective's review opposite;
- a noun of a quality (:func:`quality_noun`: *the intensity of rudeness from them* -> *of politeness*, *the
  smoothness of the operating system* -> *the choppiness*): WordNet pairs none of them;
- an interjection of taste (:func:`interjection`: *I recommend the gnocchi -- yum!* -> *-- yuck!*);
- *lacking* with its object (:func:`lacking_object`: *fresh, yet lacking flavor* -> *yet full of flavor*): the
  verb *lack* has no antonym and its participle no negation site;
- a phrasal complaint (:func:`phrasal_complaint`: *The sangria's - watered down* -> *strong*);
- *the perfect* noun of a purpose (:func:`purpose_perfect`: *the perfect size to carry to class* -> *the wrong
  size*): *perfect* means *right for*, whose opposite is *wrong*, never *poor*.
"""
from __future__ import annotations

from .charedit import CharEdit
from .morph import inflect, lemma
from .polarity import LABEL_SIGN, REVIEW_OPPOSITES
from .site import Candidate, Reversal, Sent
from .syntax import children

_SHORT = 6
"""The longest opposite that takes a synthetic comparative (*clunkier*; never *unreliabler*)."""


_DURATION = frozenset({"long"})
"""A flat *longer* is a duration (*the battery lasts longer*), never *lasts shorter*."""


def _comparative_opposites(low: str) -> list[str]:
    """The comparatives (*-er*) of the review opposites of the adjective whose comparative is ``low``."""
    base = lemma(low, "ADJ")
    if base == low or not low.endswith("er") or base in _DURATION:
        return []
    out = []
    for o in REVIEW_OPPOSITES.get(base, ()):
        form = inflect(o, "JJR")
        if " " not in o and len(o) <= _SHORT and form.endswith("er") and form != o:
            out.append(form)
    return out


def misread_comparative(s: Sent, head: int, r: Reversal) -> list[Candidate]:
    """*So much faster and sleeker looking* -> *So much slower and clunkier looking*: a comparative of a review
    adjective tagged an adverb (*faster*, RBR: WordNet's adverb *fast* has no antonym) or, right after a
    coordinated comparative, a noun (*sleeker*), takes the comparative of the adjective's review opposite. The
    opposite must be short enough for *-er* (*unreliabler* never) and must not read with the label."""
    p = s.parse
    low, tag = p.tokens[head].lower(), p.tags[head]
    if tag == "NN":
        if not (head >= 2 and p.tokens[head - 1].lower() in ("and", "or", ",") and p.tags[head - 2] in ("JJR", "RBR")):
            return []
    elif tag != "RBR":
        return []
    sign = LABEL_SIGN[r.label]
    out = []
    for rank, o in enumerate(_comparative_opposites(low)):
        e = s.replace(head, o, "antonym", f"comparative of the review opposite of {lemma(low, 'ADJ')!r}")
        c = Candidate((e,), "antonym", e.detail, 1 + rank)
        out.append(c.with_problems(f"{o!r} reads {r.label} under the lexicon") if sign and r.lexicon.word(o) == sign
                   else c)
    return out


QUALITY_NOUN_OPPOSITES: dict[str, tuple[str, ...]] = {
    "rudeness": ("politeness",), "politeness": ("rudeness",), "smoothness": ("choppiness",), "slowness": ("speed",),
}
"""Nouns of a quality and the noun of its review opposite (*rude* -> *polite*, *smooth* -> *choppy*, *slow* ->
*fast*): WordNet pairs none of them."""


def quality_noun(s: Sent, head: int, r: Reversal) -> list[Candidate]:
    """*the intensity of rudeness from them just went up* -> *of politeness*: a noun of a quality heading the
    opinion takes the noun of its opposite (:data:`QUALITY_NOUN_OPPOSITES`); the opposite must not read with the
    label. A *-ness* word is a noun whatever its tag (*the smoothness of the operating system*, tagged an
    adjective)."""
    p = s.parse
    low = p.tokens[head].lower()
    if low not in QUALITY_NOUN_OPPOSITES or (p.upos[head] != "NOUN" and not low.endswith("ness")):
        return []
    sign = LABEL_SIGN[r.label]
    out = []
    for rank, o in enumerate(QUALITY_NOUN_OPPOSITES[low]):
        e = s.replace(head, o, "antonym", f"opposite {o!r} of the quality noun {low!r}")
        c = Candidate((e,), "antonym", e.detail, 1 + rank)
        out.append(c.with_problems(f"{o!r} reads {r.label} under the lexicon") if sign and r.lexicon.word(o) == sign
                   else c)
    return out


_INTERJECTIONS = {"yum": "yuck", "yummy": "yuck", "mmm": "yuck", "yuck": "yum"}
"""Interjections of taste and their opposite (*-- yum!* -> *-- yuck!*)."""


def interjection(s: Sent, head: int, sign: int) -> list[Candidate]:
    """*I recommend the gnocchi -- yum!* -> *-- yuck!*: an interjection of taste (tagged UH) takes its opposite
    (:data:`_INTERJECTIONS`) when it reads with the label (*yum* praise, *yuck* a complaint)."""
    p = s.parse
    low = p.tokens[head].lower()
    if p.tags[head] != "UH" or low not in _INTERJECTIONS or sign != (-1 if low == "yuck" else 1):
        return []
    e = s.replace(head, _INTERJECTIONS[low], "antonym", f"opposite of the interjection {low!r}")
    return [Candidate((e,), "antonym", e.detail, 1)]


def lacking_object(s: Sent, head: int, sign: int) -> list[Candidate]:
    """*The guac is fresh, yet lacking flavor* -> *yet full of flavor*, *lacking in flavor* -> *rich in flavor*:
    the participle *lacking* of a complaint with its object (or *in* and its object) becomes *full of* (*rich*);
    a bare *lacking* (*the service was sorely lacking*) has no opposite that reads in its place."""
    p = s.parse
    if sign >= 0 or p.tokens[head].lower() != "lacking" or p.tags[head] != "VBG":
        return []
    kids = children(p, head)
    if any(p.deps[j] == "dobj" and j > head for j in kids):
        new = "full of"
    elif head + 1 < len(p.tokens) and p.tokens[head + 1].lower() == "in" and head + 1 in kids:
        new = "rich"
    else:
        return []
    e = s.replace(head, new, "antonym", f"{new!r} for 'lacking' before its object")
    return [Candidate((e,), "antonym", e.detail, 1)]


_PHRASAL_COMPLAINTS: dict[tuple[str, ...], tuple[str, ...]] = {("watered", "down"): ("strong",),
                                                                ("watered-down",): ("strong",)}
"""Complaints of a phrasal verb's participle and their opposite (*The sangria's watered down* -> *strong*): the
verb *water* has no opposite, and the particle would stay behind an antonym of the participle alone."""


def phrasal_complaint(s: Sent, head: int, sign: int) -> list[Candidate]:
    """*The sangria's - watered down.* -> *The sangria's - strong.*: a complaint phrase of
    :data:`_PHRASAL_COMPLAINTS` starting at ``head`` is replaced as a whole; *fell short on taste* -> *delivered on
    taste* or *excelled in taste* (*fall short on* in any tense: *short* has no antonym there, *fell* none at all;
    the language model picks)."""
    p = s.parse
    if sign >= 0:
        return []
    low = [w.lower() for w in p.tokens]
    found = [(phrase, opposites) for phrase, opposites in _PHRASAL_COMPLAINTS.items()
             if tuple(low[head:head + len(phrase)]) == phrase]
    opposites: tuple[str, ...]
    if found:
        start, end, opposites = head, head + len(found[0][0]), found[0][1]
    elif low[head] == "short" and head > 0 and head + 1 < len(low) and low[head + 1] == "on" \
            and lemma(low[head - 1], "VERB") == "fall" and p.tags[head - 1].startswith("VB"):
        start, end = head - 1, head + 2
        opposites = (inflect("deliver", p.tags[head - 1]) + " on", inflect("excel", p.tags[head - 1]) + " in")
    else:
        return []
    a, b = s.offsets[start][0], s.offsets[end - 1][1]
    out = []
    for rank, o in enumerate(opposites):
        e = CharEdit(a, b, o, s.text[a:b], "antonym", f"{o!r} for the complaint {s.text[a:b]!r}")
        out.append(Candidate((e,), "antonym", e.detail, 1 + rank))
    return out


def purpose_perfect(s: Sent, head: int, sign: int) -> list[Candidate]:
    """*It is lightweight and the perfect size to carry to class* -> *the wrong size to carry to class*, *the perfect
    laptop for students* -> *the wrong laptop for students*, *The configuration is perfect for my needs* -> *is
    unsuitable for my needs* (or *wrong for*): *perfect* that names what its noun is for (an infinitive or *for*
    after the noun, or *for* right after a predicative *perfect*) means *right for*, and its review opposite *poor*
    reads as broken there (*the poor size to carry* -19.0 nats, *the wrong size* -7.6). Attributive only after *the*
    (*a wrong place to relax* does not read); predicative only after *be*, its noun or its own subject in a gapped
    clause (*and the quiet atmosphere perfect for good conversation*), never as the result of a fact (*a 10 hour
    battery life ..., making it perfect for the classroom*: *unsuitable* no longer follows); only for praise."""
    p = s.parse
    if sign <= 0 or p.tokens[head].lower() != "perfect" or p.upos[head] != "ADJ":
        return []
    kids = children(p, head)
    if head + 1 < len(p.tokens) and p.tokens[head + 1].lower() == "for" and head + 1 in kids and (
            (p.deps[head] == "acomp" and lemma(p.tokens[p.heads[head]].lower(), "VERB") == "be")
            or (p.deps[head] == "amod" and p.heads[head] < head)
            or (p.deps[head] in ("conj", "ROOT") and any(p.deps[j] == "nsubj" for j in kids))):
        out = []
        for rank, o in enumerate(("unsuitable", "wrong")):
            e = s.replace(head, o, "antonym", f"{o!r} for 'perfect for' (right for a purpose)")
            out.append(Candidate((e,), "antonym", e.detail, rank))
        return out
    if p.deps[head] != "amod" or head == 0 or p.tokens[head - 1].lower() != "the":
        return []
    noun = p.heads[head]
    if noun <= head or p.upos[noun] != "NOUN":
        return []
    purpose = any(j > noun and ((p.deps[j] in ("relcl", "acl") and p.tags[j] == "VB" and any(
        p.tokens[k].lower() == "to" and p.deps[k] == "aux" for k in children(p, j))) or (
        p.deps[j] == "prep" and p.tokens[j].lower() == "for")) for j in children(p, noun))
    if not purpose:
        return []
    e = s.replace(head, "wrong", "antonym", "'wrong' for 'perfect' (right for a purpose)")
    return [Candidate((e,), "antonym", e.detail, 0)]  # the idiom ranks before the review opposite *poor*
