"""Lexical opposites of an opinion word for a reversal (corrected mode): WordNet antonyms and review-lexicon
opposites of the span's head (:func:`antonym_candidates`), the opposite of a manner adverb on a participle
(:func:`participle_adverb`), *least* before a favourite (:func:`least_favorite`) and the opposite of a verb of
liking the tagger misread (:func:`misread_verb`); each candidate carries its validity problems
(:mod:`.candidates` has the rest: negations, intensifiers, conjunctions)."""
from __future__ import annotations

import re
from collections.abc import Sequence

from .charedit import CharEdit
from .morph import base_form, inflect
from .polarity import LABEL_SIGN, REVIEW_OPPOSITES
from .resources import Parse, wordnet_pos
from .sense import GENERIC, SCALAR, degree_opposite, described, fixed_phrase
from .site import Candidate, Reversal, Sent, article_fix, sign_label
from .syntax import children

_RANKED_AFTER_NEGATION = frozenset({"try"})
"""Verbs whose review opposite ranks after a negation of the verb (*Definitely don't try the X* before *Definitely
avoid the X*, rules ranking); it stands alone where the verb has no negation site (*Be sure to avoid the X*)."""
_NEG_PREFIX = re.compile(r"(?i)^(un|in|im|il|ir|dis|non)")


def antonym_candidates(s: Sent, head: int, r: Reversal) -> list[Candidate]:
    """WordNet antonyms of the head in its own part of speech, checked for a polarity flip (module docstring).

    A lexicon-polar antonym of the opposite sign is valid. An antonym the lexicon does not know is valid only
    when the replaced word is polar with the target's sign and the antonym is a direct antonym in one of its
    first two senses, or its negative-prefix form (*friendly* -> *unfriendly*): *right price* never becomes
    *left price* (*right* is not polar), *great food* never *small food* (an indirect antonym through *large*,
    and not polar).
    """
    p = s.parse
    word, tag = p.tokens[head], p.tags[head]
    want = wordnet_pos(tag)
    reader = getattr(r.antonyms, "wn", None)
    misparsed = _misparsed_adjective(p, head, reader)
    manner = _manner_adverb(p, head)
    framed = manner and _framed_act(p, head)
    if (want is None and not manner) or (p.upos[head] not in ("ADJ", "ADV", "VERB", "NOUN") and not misparsed
                                         and not manner):
        return []
    want = want or "r"
    base = word.lower() if misparsed or manner else base_form(word, tag)
    sign = LABEL_SIGN[r.label]
    fits = p.upos[head] != "VERB" or tag not in ("VBD", "VBZ") or reader is None or not reader.synsets(base, "a")
    # an adjective's opposite never inflected as its verb: *slowed* -> *fasted*
    rbase = word.lower() if tag == "JJ" else base  # a plain-degree adjective is its own base: lemminflect's
    # rules for unknown words would give *charmy* for *charming*, *impress* for *impressed*, *good* for a
    # mis-tagged *best*
    as_is = _participle_entry(word, tag, rbase)
    if as_is:
        rbase = word.lower()
    found = [(o, "review-lexicon opposite of " + repr(rbase), 0, True) for o in _review_opposites(p, head, rbase)
             if fits and (p.upos[head] in ("ADJ", "VERB") or misparsed or manner)
             and not (as_is and o.startswith("not "))]  # *Highly recommended* never *Highly not recommended*
    if tag != "UH":  # *Well designed* as an interjection: only its review opposite (*Poorly designed*)
        found += [x for x in _wordnet_antonyms(r.antonyms, base, want) if x[0] not in {f[0] for f in found}]
    out = []
    base_pol = r.lexicon.word(base)
    first_sense = any(x[2] == 0 for x in found)
    for rank, (name, via, sense, direct) in enumerate(found):
        text = name.replace("_", " ")
        if "_" not in name and tag not in ("JJ", "NN", "VB", "VBP", "RB", "NNP", "UH") and not (
                as_is and "review-lexicon" in via):
            text = inflect(name, tag)
        problems = []
        if tag in ("JJR", "JJS") and text.endswith(("er", "est")) and len(name) > 6:
            problems.append(f"{text!r} is a synthetic comparison of a long adjective (*the terriblest food*)")
        if "review-lexicon" in via and base.endswith("ed") and head + 1 < len(p.tokens) \
                and p.tokens[head + 1].lower() == "by" and not text.endswith("ed"):  # *impressed by* takes one
            problems.append(f"{text!r} does not take the agent of the participle {word!r} (*unmatched by any "
                            "other brand* -> *lacking by*)")
        pol = r.lexicon.word(name)
        if sign:  # an indirect antonym (a cluster head's) must be polar itself: *great* ~ *large* <-> *small*
            primary = direct and sense <= 1 and pol != sign and base_pol == sign
            # the gold label is the evidence a word the lexicon does not know is polar: its first-sense prefix
            # negation reverses it (*reliable* -> *unreliable*, *limited* -> *unlimited*)
            # (the prefix is added, never removed: *unconsciously* -> *consciously* is no opinion)
            labelled = base_pol == 0 and direct and sense == 0 and p.upos[head] in ("ADJ", "ADV") \
                and _NEG_PREFIX.match(name) is not None and _NEG_PREFIX.match(base) is None
            # a review-lexicon pair means the review reading: the label vouches for a word the lexicon lacks
            review = "review-lexicon" in via and base_pol == 0 and pol != sign
            if not (pol == -sign or primary or review or (pol == 0 and (base_pol == sign or labelled)
                                                and _morph_negation(base, name))):
                why = ("not a primary-sense antonym of a polar word" if pol == 0
                       else f"{sign_label(pol)} under the lexicon")
                problems.append(f"antonym {text!r} does not flip the polarity ({why})")
        elif pol != 0 or base_pol != 0 or "review-lexicon" in via:  # a review-lexicon pair is polar by design
            problems.append(f"antonym {text!r} of a neutral target's opinion is polar under the lexicon")
        manner = p.upos[head] == "ADV" and direct and sense == 0 and base.endswith("ly") and name.endswith("ly")
        # a first-sense antonym of a manner adverb is a plain word (*quickly* -> *slowly*, *properly* ->
        # *improperly*) even where the training file never used it
        if pol == 0 and name.lower() not in r.vocab and "review-lexicon" not in via and not manner:
            problems.append(f"antonym {text!r} is neither in the in-domain vocabulary nor polar (*for unfree*)")
        elif sense > 0 and first_sense and name.lower() not in r.vocab:
            problems.append(f"antonym {text!r} belongs to another sense of {base!r} than its first and is not in the "
                            "in-domain vocabulary (*brilliant colors* -> *unintelligent colors*)")
        elif not direct and name.lower() not in GENERIC | SCALAR and (
                (sense > 0 and first_sense) or any("review-lexicon" in x[1] for x in found)):
            problems.append(f"indirect antonym {text!r} comes through the cluster of another reading of {base!r} "
                            "than the one offered first (*lousy speakers* -> *clean speakers*, *personable staff* "
                            "-> *unattractive staff*)")
        problems += fixed_phrase(p, head, text)
        if framed and "review-lexicon" in via:
            problems.append(f"the manner {word!r} is of an act an adjective judges (*lucky to get a table quickly*): "
                            "its opposite argues with the adjective")
        prio = 1 + rank + (0 if name.lower() in r.vocab or "review-lexicon" in via else 5) + (
            3 if base in _RANKED_AFTER_NEGATION else 0)
        edits = [s.replace(head, text, "antonym", via)]
        art = article_fix(s, head, text)
        if art is not None:
            edits.insert(0, art)
        out.append(Candidate(tuple(edits), "antonym", via, prio, tuple(problems)))
    return degree_opposite(s, head, out)


def participle_adverb(s: Sent, f: int, t: int, head: int, r: Reversal) -> list[Candidate]:
    """*the poorly designed Set-Up* -> *the well designed Set-Up*, *well seasoned latin food* -> *poorly seasoned*:
    an opinion span of a manner adverb and the participle it modifies is reversed at the adverb (its
    review-lexicon opposite), where the participle itself has no opposite. The participle may be attributive,
    fronted (*Generously garnished, ...*) or a predicate; the adverb's opposite must not read with the label."""
    p = s.parse
    low_head = p.tokens[head].lower()
    if p.tags[head] != "VBN" and not (p.upos[head] == "ADJ" and low_head.endswith("ed")):
        return []
    sign = LABEL_SIGN[r.label]
    out = []
    for a in children(p, head):
        low = p.tokens[a].lower()
        if not (f <= a < head and p.deps[a] == "advmod" and p.tags[a] == "RB"
                and (low.endswith("ly") or low == "well")):
            continue
        for rank, o in enumerate(REVIEW_OPPOSITES.get(low, ())):
            e = s.replace(a, o, "antonym", f"review-lexicon opposite of the manner adverb {low!r}")
            c = Candidate((e,), "antonym", e.detail, 1 + rank)
            if r.lexicon.word(o) == sign:
                c = c.with_problems(f"the opposite {o!r} of {low!r} reads {r.label} under the lexicon")
            out.append(c)
    return out


_FAVORITE = frozenset({"favorite", "favourite", "favorites", "favourites", "fav", "favs"})


def least_favorite(s: Sent, head: int, sign: int) -> list[Candidate]:
    """*my personal favorite is their tart* -> *my personal least favorite is ...*, *Favourites include: ...* ->
    *Least favourites include: ...*: a favourite as a noun has no antonym and its copula or verb is a frame
    whose negation would deny the listing (*My favs here are not the tacos*), not the preference."""
    p = s.parse
    low = p.tokens[head].lower()
    if sign <= 0 or low not in _FAVORITE or p.upos[head] not in ("NOUN", "ADJ", "PROPN") or (
            head > 0 and p.tokens[head - 1].lower() in ("least", "most", "all-time-least")):
        return []
    e = s.insert_before(head, "least", "antonym", f"'least' before the noun {p.tokens[head]!r}")
    return [Candidate((e,), "antonym", e.detail, 1)]


def misread_verb(s: Sent, head: int, r: Reversal) -> list[Candidate]:
    """*i especially like their sandwich* (*like* as a preposition after a lower-case *i*), *I really do like my
    MBP* (an interjection): a verb of liking the tagger misread, right after a subject pronoun or a form of *do*
    (adverbs between), takes its review opposite as is (*dislike*, *hate*)."""
    p = s.parse
    low = p.tokens[head].lower()
    if low not in ("like", "love") or p.upos[head] not in ("ADP", "INTJ", "SCONJ"):
        return []
    k = head - 1
    while k >= 0 and p.upos[k] == "ADV":
        k -= 1
    if k < 0 or p.tokens[k].lower() not in ("i", "we", "do", "does", "did"):
        return []
    sign = LABEL_SIGN[r.label]
    out = []
    for rank, o in enumerate(REVIEW_OPPOSITES.get(low, ())):
        e = s.replace(head, o, "antonym", f"review-lexicon opposite of the misread verb {low!r}")
        c = Candidate((e,), "antonym", e.detail, 1 + rank)
        out.append(c.with_problems(f"{o!r} reads {r.label} under the lexicon") if r.lexicon.word(o) == sign else c)
    return out


def speed_up(s: Sent, head: int) -> list[Candidate]:
    """*Boot-up slowed significantly* -> *Boot-up sped up significantly*, *slows it down* -> *speeds it up*: the
    verb *slow* has no WordNet antonym and its adjective's review opposite would read *fasted*; the verb becomes
    *speed up*, its particle *down* turned to *up* (any other particle: no candidate)."""
    p = s.parse
    tag = p.tags[head]
    if p.upos[head] != "VERB" or not tag.startswith("VB") or base_form(p.tokens[head], tag) != "slow":
        return []
    detail = "'speed up' for the verb 'slow'"
    prt = [j for j in children(p, head) if p.deps[j] == "prt"]
    if prt and p.tokens[prt[0]].lower() != "down":
        return []
    if prt:
        edits = [s.replace(head, inflect("speed", tag), "antonym", detail), s.replace(prt[0], "up", "antonym", detail)]
    else:
        edits = [s.replace(head, inflect("speed", tag) + " up", "antonym", detail)]
    return [Candidate(tuple(edits), "antonym", detail, 1)]


def not_worth(s: Sent, head: int) -> list[Candidate]:
    """*is wonderful, well worth it* -> *is terrible, not worth it*: *well* before *worth* is a degree word, so
    neither *worth* nor *well* has an antonym (:func:`.sense.fixed_phrase`); the degree word itself becomes the
    negation."""
    p = s.parse
    if p.tokens[head].lower() != "worth" or head < 1 or p.tokens[head - 1].lower() != "well":
        return []
    e = s.replace(head - 1, "not", "antonym", "'not worth' for the degree phrase 'well worth'")
    return [Candidate((e,), "antonym", e.detail, 1)]


_IDIOM_NOUNS = frozenset({"charm", "dream"})
_IDIOM_VERBS = frozenset({"work", "run", "go"})
_IDIOM_OPPOSITES = ("poorly", "horribly")


def like_a_charm(s: Sent, head: int, sign: int) -> list[Candidate]:
    """*Windows 7 works like a charm* -> *Windows 7 works poorly*: the praise is the idiom *like a charm* (*like a
    dream*) on a verb of functioning, whose noun has no opposite and whose verb's negation (*doesn't work like a
    charm*) only denies perfection; the idiom becomes a manner adverb (*poorly*, *horribly*: the language model
    picks; the idiom's tokens are so likely that the plain *poorly* often falls below the fluency floor)."""
    p = s.parse
    if sign <= 0 or p.tokens[head].lower() not in _IDIOM_NOUNS or head < 3 or \
            [w.lower() for w in p.tokens[head - 2:head]] != ["like", "a"] or \
            base_form(p.tokens[head - 3], p.tags[head - 3]) not in _IDIOM_VERBS:
        return []
    return _replacements(s, s.offsets[head - 2][0], s.offsets[head][1], _IDIOM_OPPOSITES, "the idiom")


def _replacements(s: Sent, a: int, b: int, words: Sequence[str], what: str) -> list[Candidate]:
    """One antonym candidate per word of ``words`` for the characters ``[a, b)`` (``what`` they are, for the
    provenance), ranked in their order after the first rule's candidate."""
    out = []
    for rank, w in enumerate(words):
        e = CharEdit(a, b, w, s.text[a:b], "antonym", f"{w!r} for {what} {s.text[a:b]!r}")
        out.append(Candidate((e,), "antonym", e.detail, 1 + rank))
    return out


_LINKING = frozenset({"be", "seem", "look", "sound", "taste", "smell", "feel", "find", "appear", "become", "stay"})
"""Verbs whose complement is an adjective (*tasted fine* -> *tasted bad*), where other verbs take a manner adverb
(*works fine* -> *works poorly*, never *works bad*)."""


PEOPLE = frozenset({"waiter", "waiters", "waitress", "waitresses", "server", "servers", "staff", "waitstaff",
                    "bartender", "bartenders", "host", "hostess", "hosts", "owner", "owners", "manager", "managers",
                    "chef", "chefs", "people", "employees", "workers", "crew", "guy", "guys", "lady", "ladies",
                    "man", "woman", "service", "maitre", "busboy", "busboys", "sommelier", "team"})
"""Nouns of the people who serve (and *service*, which reviews judge as their manner)."""
PERSON_OPPOSITES = {"charming": ("rude", "unfriendly"), "adorable": ("rude", "unfriendly")}
"""Opposites of praise whose review-lexicon opposite describes a look or a thing (*unappealing*, *unattractive*):
of a person a reviewer writes *rude* (*unhelpful and rude*)."""


def person_opposites(p: Parse, head: int, rbase: str) -> tuple[str, ...] | None:
    """The opposites of ``rbase`` at ``head`` where it describes a person and its review opposite does not fit one
    (:data:`PERSON_OPPOSITES`), else None."""
    if rbase not in PERSON_OPPOSITES:
        return None
    noun = described(p, head)
    if noun is None or p.tokens[noun].lower() not in PEOPLE:
        return None
    return PERSON_OPPOSITES[rbase]


def _review_opposites(p: Parse, head: int, rbase: str) -> tuple[str, ...]:
    """The review opposites of ``rbase``; a *fine* on a verb of doing (*works fine*, *runs fine*) is its manner, whose
    opposite is *poorly*; a *fine* before a noun is a kind (*fine dining*, *fine cuisine*), with no review opposite."""
    if rbase == "fine" and p.deps[head] in ("amod", "compound"):
        return ()
    if rbase == "fine" and p.deps[head] in ("advmod", "acomp", "oprd") and p.upos[p.heads[head]] in ("VERB", "AUX") \
            and base_form(p.tokens[p.heads[head]], p.tags[p.heads[head]]) not in _LINKING:
        return ("poorly",)
    return person_opposites(p, head, rbase) or REVIEW_OPPOSITES.get(rbase, ())


_FIXED_PRAISE = {("on", "point"): ("off the mark", "sloppy"), ("on", "target"): ("off target", "off the mark"),
                 ("top", "notch"): ("subpar", "second-rate"), ("top-notch",): ("subpar", "second-rate")}
"""Fixed phrases of praise and their opposites (*the service was on point* -> *off the mark*, *top notch* ->
*subpar*): their negation (*not on point*, *not top notch as well*) reads as a partial denial."""
_FIXED_LEAD = frozenset({"right", "spot", "dead"})
"""Words that stress the phrase and go with it (*right on target* -> *off target*)."""


def fixed_praise(s: Sent, f: int, t: int, sign: int) -> list[Candidate]:
    """The opposites of a fixed phrase of praise (:data:`_FIXED_PRAISE`) in or around the opinion span."""
    p = s.parse
    if sign <= 0:
        return []
    low = [w.lower() for w in p.tokens]
    for i in range(max(0, f - 1), t):
        for phrase, opposites in _FIXED_PRAISE.items():
            j = i + len(phrase)
            if tuple(low[i:j]) != phrase or j < f + 1:
                continue
            a = i - 1 if i > 0 and low[i - 1] in _FIXED_LEAD else i
            return _replacements(s, s.offsets[a][0], s.offsets[j - 1][1], opposites, "the fixed phrase")
    return []


_HIGH_LOW = frozenset({"high", "higher", "highest", "low", "lower", "lowest"})
SCALE_NOUNS = frozenset({"price", "prices", "cost", "costs", "quality", "speed", "speeds", "resolution", "performance",
                         "standard", "standards", "expectations", "rating", "ratings", "volume", "temperature",
                         "heat", "pressure", "level", "levels", "end", "score", "scores", "marks", "value", "rate",
                         "rates", "ceilings", "ceiling", "demand", "praise", "regard", "opinion", "hopes", "caliber",
                         "calibre", "grade", "point", "points", "noise", "fps", "res", "pitch", "range", "spec",
                         "specs", "setting", "settings", "brightness", "contrast", "capacity", "battery"})
"""Nouns with a scale, which *high* and *low* measure (*high prices*, *low resolution*); on another noun *highest*
is praise with no scale of its own (*the highest service*), whose antonym reads oddly (*the lowest service*)."""
_PLAIN = {"JJ": ("poor", "bad"), "JJR": ("worse",), "JJS": ("worst",)}


def off_scale(s: Sent, head: int, sign: int) -> list[Candidate] | None:
    """For *high*/*low* praise on a noun without a scale (:data:`SCALE_NOUNS`), the plain opposites of its degree
    (*the highest service* -> *the worst service*); ``None`` where the word is no such praise."""
    p = s.parse
    if sign <= 0 or p.tokens[head].lower() not in _HIGH_LOW or p.tags[head] not in _PLAIN:
        return None
    noun = p.heads[head] if p.deps[head] == "amod" else next(
        (j for j in children(p, p.heads[head]) if p.deps[j] in ("nsubj", "nsubjpass")), None)
    if noun is None or p.tokens[noun].lower() in SCALE_NOUNS or p.upos[noun] not in ("NOUN", "PROPN"):
        return None
    out = []
    for rank, w in enumerate(_PLAIN[p.tags[head]]):
        e = s.replace(head, w, "antonym", f"{w!r} for {p.tokens[head]!r} on {p.tokens[noun]!r}, a noun with no scale")
        out.append(Candidate((e,), "antonym", e.detail, 1 + rank))
    return out


_GARNISH = frozenset({"touch", "touches", "hint", "hints", "note", "notes", "dash", "splash", "accent", "accents"})
"""Nouns of a small added quality (*a nice touch*, *a nice hint of cocoa*): the adjective's antonym reads oddly on
them (*a bad touch*, *bad hint of cocoa*, *Hard touch* for a soft-touch finish); praise of the addition becomes
*unwelcome*, a texture (*soft touch*) keeps no opposite."""
_TEXTURE = frozenset({"soft", "smooth", "silky", "velvety"})


def garnish(s: Sent, head: int, sign: int) -> list[Candidate] | None:
    """For praise on a noun of a small added quality (:data:`_GARNISH`), *unwelcome* (*a nice touch* -> *an
    unwelcome touch*; none for a texture); ``None`` where the opinion is no such praise."""
    p = s.parse
    if sign <= 0 or p.upos[head] != "ADJ" or p.deps[head] != "amod" or p.tokens[p.heads[head]].lower() not in _GARNISH:
        return None
    if p.tokens[head].lower() in _TEXTURE:
        return []
    e = s.replace(head, "unwelcome", "antonym", f"'unwelcome' for praise of the addition {p.tokens[p.heads[head]]!r}")
    fix = article_fix(s, head, "unwelcome")
    return [Candidate((fix, e) if fix else (e,), "antonym", e.detail, 1)]


_AVOIDANCE = {("stay", "away", "from"), ("keep", "away", "from"), ("steer", "clear", "of"), ("stay", "clear", "of")}
"""Idioms of avoidance: their reversal is the positive counterpart *try* (*stay away from the salmon* -> *try the
salmon*), where a negation reads as a double denial (*don't stay away from the salmon*)."""


def avoidance(s: Sent, head: int, sign: int) -> list[Candidate]:
    """*stay away from the X* -> *try the X*: the advice to avoid a dish (negative) becomes the advice to try it, the
    verb inflected as it was (*stayed away from* -> *tried*)."""
    p = s.parse
    if sign >= 0 or head + 2 >= len(p.tokens) or p.upos[head] != "VERB":
        return []
    words = (base_form(p.tokens[head], p.tags[head]), p.tokens[head + 1].lower(), p.tokens[head + 2].lower())
    if words not in _AVOIDANCE:
        return []
    w = inflect("try", p.tags[head])
    if p.tokens[head][:1].isupper():
        w = w[:1].upper() + w[1:]
    return _replacements(s, s.offsets[head][0], s.offsets[head + 2][1], (w,), "the idiom of avoidance")


_ANALYTIC = {"more": "less", "less": "more"}


def analytic_comparison(s: Sent, head: int) -> list[Candidate]:
    """*feels a lot more solid than* -> *a lot less solid than*, *just much less expensive* -> *just much more
    expensive*: an adjective or adverb compared with *more*/*less* turns at the degree word, where its antonym
    would keep the comparison's frame (*more bad*, *less cheap*); it ranks first, so that the language model
    always scores it."""
    p = s.parse
    if head < 1 or p.tags[head] not in ("JJ", "RB") or p.upos[head] not in ("ADJ", "ADV"):
        return []
    low = p.tokens[head - 1].lower()
    if low not in _ANALYTIC or p.upos[head - 1] != "ADV":
        return []
    e = s.replace(head - 1, _ANALYTIC[low], "antonym", f"{_ANALYTIC[low]!r} for {low!r} before {p.tokens[head]!r}")
    return [Candidate((e,), "antonym", e.detail, 0)]


def _participle_entry(word: str, tag: str, base: str) -> bool:
    """*than overpriced Cosi sandwiches* (*overpriced* read as a past tense), *to be impressed by*: a past
    participle whose own form, not its verb's base (*overprice*, *impress*), has a review opposite takes that
    opposite as is (*reasonably priced*, *unimpressed*), never inflected as a verb. A present participle is left
    out: its review opposites are an adjective's (*a refreshing drink* -> *a stale drink*)."""
    low = word.lower()
    return tag in ("VBN", "VBD") and base not in REVIEW_OPPOSITES and low in REVIEW_OPPOSITES and low.endswith("ed")


_COMPARED_TO_NORM = {"below": "above", "above": "below"}
_NORMS = frozenset({"average", "par"})


def above_below(s: Sent, f: int, t: int, sign: int) -> list[Candidate]:
    """*the food was well below average* -> *well above average*, *below par* -> *above par*: an opinion measured
    against the norm turns at its preposition. The middle word is a hedge whose negation has no clear polarity
    (*not below average*) and WordNet's antonyms of *average* (*abnormal*) are off-sense, so this is its only
    reversal. The preposition must read with the gold label (*below* negative, *above* positive): a label that
    argues with it (*Slightly above average wines start at $ 70+*, negative for the price) is not reversed by it."""
    p = s.parse
    out = []
    for k in range(max(f - 1, 0), min(t, len(p.tokens) - 1)):
        low = p.tokens[k].lower()
        if sign == (1 if low == "above" else -1) and low in _COMPARED_TO_NORM and p.tokens[k + 1].lower() in _NORMS \
                and k + 1 < t:
            e = s.replace(k, _COMPARED_TO_NORM[low], "antonym", f"{_COMPARED_TO_NORM[low]!r} for {low!r} before "
                          f"{p.tokens[k + 1]!r}")
            out.append(Candidate((e,), "antonym", e.detail, 1))
    return out


def _manner_adverb(p: Parse, head: int) -> bool:
    """A plain manner adverb (*works well*, *runs smoothly*; tag RB, never *as well*) takes its review-lexicon
    opposite as is."""
    low = p.tokens[head].lower()
    if low == "well" and p.tags[head] == "UH" and head + 1 < len(p.tokens) and p.tags[head + 1] == "VBN":
        return True  # *Well designed* read as an interjection
    gov = p.heads[head]
    if p.deps[head] == "conj" and p.upos[gov] == "ADV" and p.tags[gov] == "RB":
        gov = p.heads[gov]  # *Shipped very quickly and safely*: the second adverb shares the first one's verb
    return p.upos[head] == "ADV" and p.tags[head] == "RB" and (low.endswith("ly") or low == "well") and not (
        head > 0 and p.tokens[head - 1].lower() == "as") and p.upos[gov] == "VERB"
    # of a verb only: *Perfectly al dente pasta* never becomes *Poorly al dente*


def _framed_act(p: Parse, head: int) -> bool:
    """Whether the manner adverb at ``head`` is of a verb in the infinitive of a predicate adjective (*we were lucky
    to get a table quickly*, *glad to see it run smoothly*): the adjective judges the act as done that way."""
    gov = p.heads[head]
    if p.deps[head] == "conj":
        gov = p.heads[gov]
    return p.deps[gov] == "xcomp" and p.upos[p.heads[gov]] == "ADJ"


def _misparsed_adjective(p: Parse, head: int, reader) -> bool:
    """A review adjective the tagger read as another part of speech: capitalised (*BEST spicy tuna roll*, *Nice
    packing* as proper nouns, at the start), a flat adverb (*Runs real quick*), a noun in apposition (*the service
    prompt*), the second noun of a gapped clause (*the garden adorable*), a bare noun in a list of adjectives
    (*It's fast, light, and simple to use*).
    Its review-lexicon opposite replaces it as is (no inflection)."""
    low = p.tokens[head].lower()
    if low not in REVIEW_OPPOSITES or " " in low or reader is None or not reader.synsets(low, "a"):
        return False
    tag = p.tags[head]
    if tag == "NNP":  # at the start only: an emphatic capital inside the sentence often argues with its context
        return all(p.upos[j] in ("PUNCT", "DET", "ADJ") or p.tokens[j].lower() in ("so", "very", "really")
                   for j in range(head))  # *The BEST ...*, *! so nice.. stable.. Fast ..*
    if tag == "RB":  # a flat *long* is a duration (*the battery lasts so long*), never *lasts so short*
        return not low.endswith("ly") and low != "long"
    if tag == "NN" and head > 0 and p.heads[head - 1] == head and p.deps[head - 1] == "compound" \
            and p.upos[head - 1] == "NOUN":
        return True  # a gapped copula read as a compound noun: *the garden adorable* (*the service was ..., the
        # garden adorable, ...*)
    if tag == "NN" and p.deps[head] == "compound" and head > 0 and p.upos[head - 1] == "ADJ" \
            and p.heads[head - 1] == p.heads[head]:
        return True  # *warm inviting ambiance*: an adjective between another and their noun read as a compound
    return tag == "NN" and (p.deps[head] == "appos" or _listed_among_adjectives(p, head))


_LIST_SEPARATORS = frozenset({",", "and", "or"})


def _listed_among_adjectives(p: Parse, head: int) -> bool:
    """*It's fast, light, and simple to use*: a noun with no modifier of its own between an adjective and the
    next item of the list (or the clause's end) is one more predicate adjective the tagger read as a noun."""
    n = len(p.tokens)
    if head < 2 or p.tokens[head - 1] not in _LIST_SEPARATORS or p.upos[head - 2] != "ADJ":
        return False
    if any(p.heads[j] == head and j != head and p.deps[j] in ("det", "amod", "compound", "nummod", "poss", "prep")
           for j in range(n)):
        return False  # *fast, light weight*, *fast, the light*: a real noun phrase
    nxt = p.tokens[head + 1].lower() if head + 1 < n else "."
    return nxt in _LIST_SEPARATORS or nxt in (".", "!", ";")


def _wordnet_antonyms(wn_antonyms, base: str, pos: str) -> list[tuple[str, str, int, bool]]:
    """``(antonym, provenance, sense index, direct?)`` of ``base`` in WordNet's sense order: direct antonyms of
    every sense of ``pos``, then (adjectives) the antonym of a satellite sense's cluster head
    (*delicious* ~ *tasty* <-> *tasteless*)."""
    reader = getattr(wn_antonyms, "wn", None)
    if reader is None:
        return []
    poses = ("a", "s") if pos == "a" else (pos,)
    out: dict[str, tuple[str, str, int, bool]] = {}
    senses = [syn for syn in reader.synsets(base) if syn.pos() in poses][:3]  # later senses: rare readings
    for k, syn in enumerate(senses):
        for lemma in syn.lemmas():
            if lemma.name().lower() != base:
                continue
            for ant in lemma.antonyms():
                out.setdefault(ant.name(), (ant.name(), f"WordNet antonym of {syn.name()}:{lemma.name()}", k, True))
    if pos == "a":
        for k, syn in enumerate(senses[:2]):
            if syn.pos() != "s":
                continue
            for head in syn.similar_tos()[:1]:
                for lemma in head.lemmas()[:1]:
                    for ant in lemma.antonyms()[:1]:
                        out.setdefault(ant.name(), (ant.name(), f"WordNet indirect antonym via {head.name()}:"
                                                                f"{lemma.name()}", k, False))
    return list(out.values())


def _morph_negation(a: str, b: str) -> bool:
    """``unfriendly``/``friendly``, ``inattentive``/``attentive``: one word is the other with a negative prefix."""
    for x, y in ((a, b), (b, a)):
        m = _NEG_PREFIX.match(x)
        if m and x[m.end():] == y:
            return True
    return False
