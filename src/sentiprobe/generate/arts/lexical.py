"""Reversals a post-editor writes where the opinion word's own opposite reads oddly in place (corrected mode):

- a softened or boosted complaint turns into the plain opposite, its degree words dropped (:func:`plain_opposite`:
  *The service was a bit slow* -> *The service was fast*, *dreadfully slow* -> *fast*), where the opposite under
  the softener reads oddly (*a bit fast*) and under the booster too (*dreadfully fast*, *way reasonable*);
- a wish for more of a quality is a complaint, and *could not be more* is its praise (:func:`wish_reversal`: *The
  staff should be a bit more friendly* -> *The staff couldn't be more friendly*);
- an idiom of praise becomes a plain verdict (:func:`idiom_reversal`: *Dessert was to die for* -> *Dessert was
  nothing special*).

The lexicon's reading of the two phrase forms is :func:`.polarity.phrase_reading` (VADER reads *to die for* and
*couldn't be more friendly* negative, *should be more friendly* positive).
"""
from __future__ import annotations

from .charedit import CharEdit, upper_first
from .morph import base_form
from .polarity import DIE_FOR, WISH
from .resources import Parse
from .sense import BOOSTERS
from .site import Candidate, Sent, article_fix
from .syntax import children

_SOFT = frozenset({"bit", "little", "tad"})
"""Nouns of a softener that need their article (*a bit*, *a little*, *a tad*)."""
_SOFT_ADVERBS = frozenset({"slightly", "somewhat", "kinda", "sorta"})
_DROP_BLOCKERS = frozenset({"so", "too", "how", "such", "as", "that"})
"""Words before the degree phrase that need it: *so incredibly rude that ...* (a result clause), *as slow as*."""


def _degree_start(p: Parse, head: int) -> int | None:
    """The first token of the softener or booster run right before ``head`` (*a little bit*, *slightly*,
    *dreadfully*, *way*), or ``None`` where none stands there or the run is part of a larger frame."""
    a = head
    while a > 0 and (p.tokens[a - 1].lower() in _SOFT | _SOFT_ADVERBS | BOOSTERS):
        a -= 1
    if a == head:
        return None
    run = [w.lower() for w in p.tokens[a:head]]
    if run[0] in _SOFT:  # *a bit*, *a little*: the article belongs to the softener
        if a == 0 or p.tokens[a - 1].lower() != "a":
            return None
        a -= 1
    if a > 0 and p.tokens[a - 1].lower() in _DROP_BLOCKERS:
        return None
    return a


_COPE = frozenset({"overlook", "overcome", "forgive", "excuse", "ignore", "fix", "tolerate", "bear", "mind", "accept",
                   "solve", "remedy", "handle", "live", "survive", "endure", "expect", "understand"})
"""Verbs whose *it*/*this* is a complaint just made (*I'm willing to overlook it*, *this can easily be
overcome*)."""
_ANAPHORS = frozenset({"it", "this", "that"})


def _complaint_goes_on(p: Parse, head: int) -> bool:
    """Whether the sentence goes on about the complaint at ``head``: a coordinated predicate of its subject
    (*were incredibly rude and did everything they could to rush us out*) or a later *it*/*this* of a verb of
    coping (*a little slow, but I'm willing to overlook it*). Its plain opposite would leave them behind."""
    gov = p.heads[head] if p.deps[head] in ("acomp", "attr") else head
    if any(p.deps[j] == "conj" and p.upos[j] == "VERB" and j > head for j in (*children(p, gov), *children(p, head))):
        return True
    return any(p.tokens[j].lower() in _ANAPHORS and p.deps[j] in ("dobj", "nsubj", "nsubjpass", "pobj")
               and base_form(p.tokens[p.heads[j]], p.tags[p.heads[j]]) in _COPE for j in range(head + 1, len(p.tokens)))


_HEADERS = frozenset({"cons", "con", "pros", "pro", "negatives", "positives", "downsides"})
"""Headers of a list of complaints or merits (*CONS: Price is a bit ridiculous*): a reversal under one contradicts
its header."""


def plain_opposite(s: Sent, head: int, ants: list[Candidate]) -> list[Candidate]:
    """For each otherwise valid review-lexicon opposite of a negative ``head`` under a softener or booster (module
    docstring), the opposite in place of the degree words and the head (*a bit slow* -> *fast*); the article
    before the run agrees with it (*a somewhat bland dish* -> *a flavorful dish*). Only a reviewer's word takes the
    plain form (a review-lexicon opposite, or one the training file uses with the aspect: *way high prices* ->
    *reasonable prices*); WordNet's antonyms read oddly there (*a little big* -> *little*, *a little plain* ->
    *fancy*).
    None under a list header (*CONS: ...*) or where the sentence goes on about the complaint
    (:func:`_complaint_goes_on`)."""
    p = s.parse
    a = _degree_start(p, head)
    if a is None or (len(p.tokens) > 1 and p.tokens[0].lower() in _HEADERS and p.tokens[1] in (":", "-")) \
            or _complaint_goes_on(p, head):
        return []
    out = []
    lo, hi = s.offsets[a][0], s.offsets[head][1]
    for c in ants:
        e = c.edits[-1] if c.edits else None
        if not c.valid or c.op != "antonym" or e is None or (e.start, e.end) != s.offsets[head] or " " in e.text \
                or not ("review-lexicon" in c.detail or "training file" in c.detail):
            continue
        word = e.text.lower()
        first = s.word(a)
        new = word.upper() if len(first) > 1 and first.isupper() else upper_first(word) if first[:1].isupper() \
            else word
        detail = f"{word!r} for the degree phrase {s.text[lo:hi]!r}: its degree words do not fit the opposite"
        edits = [CharEdit(lo, hi, new, s.text[lo:hi], "antonym", detail)]
        if a > 0 and p.tokens[a - 1].lower() in ("a", "an"):
            want = "an" if word[:1] in "aeiou" else "a"
            if p.tokens[a - 1].lower() != want:
                edits.insert(0, s.replace(a - 1, want, "article", f"article agrees with {word!r}"))
        out.append(Candidate(tuple(edits), "antonym", detail, c.priority))
    return out


def wish_reversal(s: Sent, f: int, t: int, sign: int) -> list[Candidate]:
    """*The staff should be a bit more friendly* -> *The staff couldn't be more friendly*, *could have been more
    attentive* -> *couldn't have been more attentive*: a negative wish for more of the quality in the span becomes
    the fixed phrase of highest praise (a negation, *shouldn't be more friendly*, would read as the wish that it be
    less so). None in a sentence with a contrast or concession (*is ok but could be better*, *While the decor was
    great, the food could have been better*): the wish is its weaker side, and its praise would leave the contrast
    without sides."""
    if sign >= 0 or any(w.lower() in _CONTRAST for w in s.parse.tokens):
        return []
    a, b = s.chars(f, t)
    for m in WISH.finditer(s.text):
        if m.end() < a or m.start() > b or not (a <= m.end() <= b or m.start() <= a < m.end()):
            continue
        have = " have" if m.group(2) else ""
        quality = m.group(5)
        new = f"couldn't{have} {m.group(3)} {quality}"
        if s.text[m.start()].isupper():
            new = upper_first(new)
        e = CharEdit(m.start(), m.end(), new, m.group(0), "antonym",
                     f"'couldn't be more' for the wish {m.group(0)!r}")
        return [Candidate((e,), "antonym", e.detail, 1)]
    return []


_CONTRAST = frozenset({"but", "while", "although", "though", "however", "yet", "whereas", "except"})
_IDIOM_OPPOSITES = ("nothing special", "a letdown")


def idiom_reversal(s: Sent, f: int, t: int, sign: int) -> list[Candidate]:
    """*Dessert was to die for* -> *Dessert was nothing special*: an idiom of praise whose words have no opposite
    (and whose negation, *not to die for*, reads as a reservation) becomes a plain negative verdict. None after an
    advice (*Save room for desserts - they're to die for*): the verdict is its reason and would contradict it."""
    if sign <= 0 or _advice_before(s.parse, f):
        return []
    a, b = s.chars(f, t)
    for m in DIE_FOR.finditer(s.text):
        if not m.group(1) or m.end() <= a or m.start() >= b:
            continue
        out = []
        for rank, w in enumerate(_IDIOM_OPPOSITES):
            e = CharEdit(m.start(), m.end(), w, m.group(0), "antonym", f"{w!r} for the idiom of praise {m.group(0)!r}")
            out.append(Candidate((e,), "antonym", e.detail, 1 + rank))
        return out
    return []


def _advice_before(p: Parse, f: int) -> bool:
    """Whether an imperative (a base-form verb heading its clause or the sentence, no subject) stands before token
    ``f`` (the tagger reads *Save room for ...* as a compound noun, but its tag stays VB)."""
    for j in range(f):
        if p.tags[j] == "VB" and (j == 0 or p.deps[j] in ("ROOT", "conj", "parataxis")) and not any(
                p.heads[k] == j and p.deps[k] in ("nsubj", "nsubjpass", "aux") for k in range(len(p.tokens))):
            return True
    return False


NOUN_OPPOSITES: dict[str, tuple[str, ...]] = {
    "draw": ("drawback",), "plus": ("drawback", "minus"), "highlight": ("low point",), "upside": ("downside",),
    "strength": ("weakness",),
}
"""Nouns of merit (*The main draw of this place is the price* -> *The main drawback ...*, *is a plus* -> *is a
drawback*): WordNet gives them no antonym in this sense, and their negation (*is not the main draw*) denies the
ranking rather than the merit. A noun of fault keeps no opposite: its sentence goes on to describe the fault
(*There is a downside -- the delivery guys have MAJOR attitude*, *an upside* would leave it behind)."""


def noun_opposite(s: Sent, head: int, sign: int) -> list[Candidate]:
    """The opposite of a noun of merit (:data:`NOUN_OPPOSITES`) heading a positive opinion, with its article."""
    p = s.parse
    low = p.tokens[head].lower()
    if sign <= 0 or p.upos[head] != "NOUN" or low not in NOUN_OPPOSITES:
        return []
    out = []
    for rank, w in enumerate(NOUN_OPPOSITES[low]):
        e = s.replace(head, w, "antonym", f"opposite {w!r} of the noun of merit {low!r}")
        fix = article_fix(s, head, w)
        out.append(Candidate((fix, e) if fix else (e,), "antonym", e.detail, 1 + rank))
    return out
