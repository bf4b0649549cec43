"""Wording that reads wrong only in its surroundings: candidate fixes and refusals found in laptop reviews.

A reversal can be a valid opposite of its opinion and still not read as English a reviewer writes, because of
a word around it. Two kinds of rule live here, each from a recurring failure of a blind reading:

* candidate rules (:func:`surroundings`, applied to a site's candidates before they compete):

  - *unpleasant* and *nasty* (the opposites of *nice*, *lovely*, *pleasant*) describe an experience, a taste or
    a person (*an unpleasant dinner*, *the staff was unpleasant*), never a made thing: *Unpleasant screen*,
    *Very nasty unibody construction* read wrong where *Bad screen* reads right. It is dropped where the noun
    it describes is an artifact, a substance or an act (WordNet's first noun sense) or unknown (a product
    name) and another valid swap remains; *poor* joins the candidates if they lack it.
  - after an analytic *more* / *most*, a one-syllable opposite takes its synthetic form instead (*a more
    powerful performance* -> *a weaker performance*, never *a more weak performance*).
  - a negated comparative under a degree word (*much better*, *far happier*) is a hedge, *only a little
    better*, not the opposite: *Performance is not much much better on the Pro* keeps arguing for the Pro.
  - a prefixed antonym of an extreme adjective (*perfect* -> *imperfect*) only denies the extreme, as *not
    perfect* does: a plain opposite (*poor*) is taken where one is valid.
  - an opinion in the *that* clause of a polar *so ADJ* (*so quick and responsive that it makes surfing
    pleasurable*) is the result of that degree: its reversal argues with its cause, so the site is refused.
  - an opinion after *once (you get) used to ...* tells what the learning led to (*once used to the OS it is
    pretty easy to get around*): *once used to the OS it is pretty hard* reads as nonsense, so it is refused.
  - a liking verb whose object keeps a praising adjective (*I am loving the fast performance*) is not reversed
    by itself: *I am not loving the fast performance* argues with itself.
  - a past wish (*I did not want Windows 8*) loses no opinion with its negation: *I wanted Windows 8* is a
    backstory, so that negation is not removed.

* text rules (:func:`flow_clash`, on the final text of a variant): a reversal to a complaint inside a frame
  that can only hold praise.

  - *plus* adds an advantage (*Exactly as posted plus a great value*): a complaint after it reads as a
    contradiction (*plus a poor value*, *+plus a narrow screen*). Where the complaint's phrase ends the sentence
    after a lone *plus*, :func:`plus_contrast` makes it a *but* instead (*Exactly as posted but a poor value*).
  - *thanks for* / *thank you for* thanks for what pleased (*Thanks for the fast shipment and great price*):
    *thanks for ... terrible price* reads as sarcasm at best.
  - *can't complain* / *no complaints* sums a review up as praise: a complaint edited into the same sentence
    without a *but* argues with it (*Runs bad and does the job, can't complain about that!*).
"""
from __future__ import annotations

import re
from collections.abc import Sequence

from .charedit import NEGATION_OPS, CharEdit
from .morph import inflect, lemma
from .sense import EXTREME_ADJECTIVES, described
from .site import Candidate, Reversal, Sent
from .syntax import children, subtree

EXPERIENCE_ONLY = frozenset({"unpleasant", "nasty"})
"""Opposites that describe an experience or a person, never a made thing (module docstring)."""

THING_OPPOSITE = "poor"
"""The generic complaint about a made thing (*Poor screen*, *Very poor unibody construction*), offered where
:data:`EXPERIENCE_ONLY` words are dropped and the candidates hold none."""

_THING_SENSES = frozenset({"noun.artifact", "noun.act", "noun.substance"})
"""WordNet first noun senses of made things, their stuff and their making (*screen*, *packing*, *construction*)."""

_DEGREE = frozenset({"much", "far", "way", "lot", "even", "significantly", "considerably", "vastly", "substantially"})
"""Degree words of a comparative whose negation is a hedge (*not much better*, *not far happier*)."""

_WISH = frozenset({"want", "wish"})
"""Verbs of wishing: *I did not want Windows 8* tells what the reviewer wished back then; *I wanted Windows 8*
(*... crashed but I wanted Windows 8*) is no praise of it."""

_LIKING = frozenset({"love", "like", "enjoy", "adore"})
"""Verbs of liking: reversing one whose object keeps a praising adjective (*I am not loving the fast
performance*, *I dislike ... all the nice graphics stuff*) leaves the sentence arguing with itself."""

_VOWEL_GROUPS = re.compile(r"[aeiouy]+")


def _swap_word(c: Candidate) -> str:
    return c.edits[-1].text.lower() if c.edits else ""


def _thing(s: Sent, noun: int | None, r: Reversal) -> bool:
    """Whether the noun (token ``noun``) names a made thing or an act, or is unknown to WordNet (a product)."""
    if noun is None:
        return False
    p = s.parse
    wn = getattr(r.antonyms, "wn", None)
    if wn is None:
        return False
    word = p.tokens[noun].lower()
    senses = wn.synsets(word, "n") or wn.synsets(inflect(word, "NN"), "n")
    if not senses:
        return p.upos[noun] == "PROPN" or word.isalpha()
    return senses[0].lexname() in _THING_SENSES


def _respelled(s: Sent, c: Candidate, word: str) -> Candidate:
    """``c`` with its last edit's word replaced by ``word`` (same case; an article before it agrees)."""
    last = c.edits[-1]
    old = last.text
    new = word.upper() if len(old) > 1 and old.isupper() else word.capitalize() if old[:1].isupper() else word
    edits = [e for e in c.edits[:-1] if e.op != "article"]
    art = next((e for e in c.edits[:-1] if e.op == "article"), None)
    if art is not None:  # *an unpleasant* -> *a poor*
        lowart = "an" if new[:1].lower() in "aeiou" else "a"
        edits.append(CharEdit(art.start, art.end, lowart.capitalize() if art.before[:1].isupper() else lowart,
                              art.before, art.op, art.detail))
    detail = f"{c.detail}; {word!r} for a made thing"
    return Candidate((*edits, CharEdit(last.start, last.end, new, last.before, "antonym", detail)), "antonym",
                     detail, c.priority, c.problems)


def _one_syllable(word: str) -> bool:
    w = word.lower()
    groups = _VOWEL_GROUPS.findall(w[:-1] if w.endswith("e") and not w.endswith("le") else w)
    return w.isalpha() and len(groups) == 1


def _synthetic(s: Sent, head: int, c: Candidate) -> Candidate:
    """``more weak`` -> ``weaker`` (``most weak`` -> ``weakest``) for a one-syllable swap after *more* / *most*."""
    p = s.parse
    if head == 0 or not c.valid or c.op != "antonym" or not c.edits:
        return c
    more = p.tokens[head - 1].lower()
    last = c.edits[-1]
    if more not in ("more", "most") or (last.start, last.end) != s.offsets[head] or not _one_syllable(last.text):
        return c
    form = inflect(last.text.lower(), "JJR" if more == "more" else "JJS")
    if form == last.text.lower() or " " in form or not form.isalpha():
        return c.with_problems(f"{last.text!r} after {more!r} takes no analytic comparison (*a more weak* ...)")
    a = s.offsets[head - 1][0]
    merged = CharEdit(a, last.end, s._case(head - 1, form), s.text[a:last.end], "antonym",
                      f"{last.detail}; '{more} {last.text}' takes its synthetic form")
    return Candidate((*c.edits[:-1], merged), c.op, merged.detail, c.priority, c.problems)


def _degree_comparative(s: Sent, head: int) -> str | None:
    p = s.parse
    if p.tags[head] not in ("JJR", "RBR"):
        return None
    before = [p.tokens[j].lower() for j in range(max(0, head - 3), head)]
    hit = next((w for w in reversed(before) if w in _DEGREE), None)
    return None if hit is None else f"{hit} {p.tokens[head]}"


def _praised_object(s: Sent, head: int, r: Reversal, own: frozenset[int] = frozenset()) -> str | None:
    """The praising adjective inside the object of a liking verb at ``head`` (*loving the fast performance*), if
    one is there: reversed with the verb or not, it leaves the sentence arguing with itself. ``own`` are passed over:
    the reversed aspect's opinions that modify the object (:func:`_liked_by`), reversed with the verb."""
    p = s.parse
    if lemma(p.tokens[head], "VERB") not in _LIKING or p.upos[head] != "VERB":
        return None
    for j in children(p, head):
        if p.deps[j] != "dobj":
            continue
        for k in sorted(subtree(p, j) - own):
            if p.upos[k] == "ADJ" and p.tags[k] != "VBN" and not p.tokens[k].lower().endswith("ed") \
                    and r.lexicon.word(p.tokens[k]) > 0:  # a participle describes (*the lighted screen*)
                return p.tokens[k]
    return None


def _liked_by(s: Sent, head: int) -> int | None:
    """The liking verb whose object the opinion at ``head`` modifies before it, in its plain degree (*I am loving
    the fast performance*): a negation for *fast* falls on the verb (*not loving the fast performance*), which
    denies the liking and keeps *fast*. A comparison after the object is none (*I like those programs better than
    Office* -> *dislike those programs worse*)."""
    p = s.parse
    v = p.heads[p.heads[head]]
    if p.deps[head] != "amod" or p.tags[head] != "JJ" or head > p.heads[head] or p.deps[p.heads[head]] != "dobj" \
            or p.upos[v] != "VERB":
        return None
    return v if lemma(p.tokens[v], "VERB") in _LIKING else None


def _degree_cause(s: Sent, head: int, r: Reversal) -> str | None:
    """The polar *so ADJ* (or *such*) whose *that* clause holds the opinion at ``head`` (*so quick and responsive
    that it makes surfing so much more pleasurable*), if there is one."""
    p = s.parse
    a = head
    seen = set()
    while p.heads[a] != a and a not in seen:
        seen.add(a)
        mark = next((j for j in children(p, a) if p.deps[j] == "mark" and p.tokens[j].lower() == "that"), None)
        if mark is not None:
            for k in range(mark - 1, 0, -1):
                if p.tokens[k - 1].lower() in ("so", "such") and p.upos[k] == "ADJ" and k != head:
                    return f"{p.tokens[k - 1]} {p.tokens[k]}" if r.lexicon.word(p.tokens[k]) else None
                if p.tokens[k] in (".", ";", "!", "?"):
                    break
            return None
        a = p.heads[a]
    return None


def _after_getting_used(s: Sent, head: int) -> bool:
    """Whether the opinion at ``head`` follows *once (you get) used to ...* in its clause (a coordinator or a
    sentence mark ends the search: *..., and the overall build is great* is a clause of its own)."""
    p = s.parse
    low = [w.lower() for w in p.tokens]
    for i in range(head - 1, -1, -1):
        if low[i] in (".", "!", "?", ";", "and", "but", "or", "...") or p.tokens[i].startswith(".."):
            return False
        if low[i] == "once" and "used" in low[i + 1:i + 5] and "to" in low[i + 1:i + 6]:
            return True
    return False


def surroundings(s: Sent, head: int, cands: Sequence[Candidate], r: Reversal) -> list[Candidate]:
    """The candidate rules of the module docstring over one site's candidates (``head``: the opinion's head)."""
    p = s.parse
    out = [_synthetic(s, head, c) for c in cands]
    if any(_swap_word(c) in EXPERIENCE_ONLY for c in out if c.valid and c.op == "antonym"):
        noun = described(p, head)
        if noun is None and head + 1 < len(p.tokens) and p.upos[head + 1] in ("NOUN", "PROPN"):
            noun = head + 1  # *Nice packing.* tagged as two proper nouns
        others = [c for c in out if c.valid and c.op == "antonym" and _swap_word(c) not in EXPERIENCE_ONLY]
        if others and _thing(s, noun, r):
            assert noun is not None
            dropped = [c for c in out if c.valid and c.op == "antonym" and _swap_word(c) in EXPERIENCE_ONLY]
            out = [c.with_problems(f"{_swap_word(c)!r} describes an experience or a person, not "
                                   f"{p.tokens[noun]!r} (*unpleasant screen*)") if c in dropped else c for c in out]
            if not any(_swap_word(c) == THING_OPPOSITE for c in out):
                out.append(_respelled(s, dropped[0], THING_OPPOSITE))
    if p.tokens[head].lower() in _WISH and any(p.deps[j] == "aux" and p.tokens[j].lower() == "did"
                                               for j in range(len(p.tokens)) if p.heads[j] == head and j != head):
        out = [c.with_problems(f"*did not {p.tokens[head]}* tells a past wish: *I {p.tokens[head]}ed ...* is a "
                               "backstory, not the opposite opinion") if c.valid and c.op == "negation_removed"
               else c for c in out]
    low = p.tokens[head].lower()
    if low in EXTREME_ADJECTIVES:
        denied = {pre + low for pre in ("un", "im", "in", "non-", "non")}
        plain = [c for c in out if c.valid and c.op == "antonym" and _swap_word(c) not in denied]
        if plain:
            out = [c.with_problems(f"{_swap_word(c)!r} only denies the extreme {low!r} (a reservation, like *not "
                                   f"{low}*): a plain opposite is valid")
                   if c.valid and c.op == "antonym" and _swap_word(c) in denied else c for c in out]
    cause = _degree_cause(s, head, r)
    if cause is not None:
        out = [c.with_problems(f"the opinion is the result of the unchanged degree {cause!r} (*so quick that it "
                               "makes surfing pleasurable*): its reversal argues with its cause") if c.valid else c
               for c in out]
    if _after_getting_used(s, head):
        out = [c.with_problems("an opinion after *once used to ...* tells what the learning led to (*once used to "
                               "the OS it is easy*): its reversal reads as nonsense") if c.valid else c for c in out]
    praised = _praised_object(s, head, r)
    mods = frozenset(k for k in r.own if _liked_by(s, k) == head)
    if praised is not None and _praised_object(s, head, r, mods) is None:  # *I am loving the fast performance*
        # (opinions *loving*, *fast*) -> *hating the slow performance*; a negation leaves *fast* standing
        out = [c.with_problems(f"a negated {p.tokens[head]!r} leaves its object's praise {praised!r} standing; "
                               "the antonyms reverse both") if c.valid and c.op in NEGATION_OPS else c for c in out]
    elif praised is not None:
        out = [c.with_problems(f"the object of {p.tokens[head]!r} keeps its praise {praised!r}: *not loving the "
                               "fast performance* argues with itself") if c.valid and c.op != "negation_removed"
               else c for c in out]
    liking = _liked_by(s, head)
    if liking is not None:
        out = [c.with_problems(f"a negation falls on the liking verb {p.tokens[liking]!r}: *not loving the fast "
                               "performance* denies the liking and keeps the praise") if c.valid and c.op in
               NEGATION_OPS and c.op != "negation_removed" else c for c in out]
    hedge = _degree_comparative(s, head)
    if hedge is not None:
        out = [c.with_problems(f"a negated {hedge!r} is a hedge (only a little), not the opposite")
               if c.valid and c.op in NEGATION_OPS and c.op != "negation_removed" else c for c in out]
    return out


# ---- text rules -------------------------------------------------------------------------------------------

_PRAISE_FRAMES = (
    (re.compile(r"(?:^|[^a-z])\+?plus\s+((?:[a-z]+\s+){0,3})$", re.I), "'plus' adds an advantage"),
    (re.compile(r"\bthanks?\s+(?:you\s+)?for\b[^.!?;]*$", re.I), "'thanks for' thanks for what pleased"),
)
_CONTRAST = re.compile(r"\b(?:but|yet|though|although|however|while|whereas)\b", re.I)
_SUMMARY = re.compile(r"\b(?:can'?t|cannot|can not|couldn'?t) complain\b|\bno complaints?\b", re.I)


def flow_clash(text: str, edits: Sequence[CharEdit], negative: Sequence[CharEdit]) -> str | None:
    """Why the variant ``text`` (the source under ``edits``) reads wrong in its frame (module docstring), or None.
    ``negative`` are the edits that turn an opinion into a complaint."""
    shift = 0
    done: list[int] = []  # where the complaints made so far end, in ``text``
    for e in sorted(edits, key=lambda x: x.start):
        if e in negative:
            left = text[:e.start + shift]
            for rx, why in _PRAISE_FRAMES:
                m = rx.search(left)
                if m is not None and not (why.startswith("'plus'") and any(d <= m.start() for d in done)):
                    # a *plus* after a complaint adds a complaint (*terrible price plus slow shipping*)
                    return f"{why}: the complaint {e.text.strip()!r} inside it reads as a contradiction"
            done.append(e.start + shift + len(e.text))
        shift += len(e.text) - (e.end - e.start)
    if negative and _SUMMARY.search(text) and not _CONTRAST.search(text):
        kept = _SUMMARY.search(text)
        assert kept is not None
        return (f"the sentence sums itself up as praise ({kept.group(0)!r}): a complaint beside it without a "
                "contrast argues with it")
    return None


_LONE_PLUS = re.compile(r"[a-z0-9] (plus) ((?:[a-z]+ ){0,3})$", re.I)
_PHRASE_END = re.compile(r"^(?:\s*[a-z]+){0,2}\s*[.!]*\s*$", re.I)


def plus_contrast(source: str, edits: Sequence[CharEdit], negative: Sequence[CharEdit]) -> CharEdit | None:
    """*Exactly as posted plus a poor value* -> *... but a poor value*: the *but* edit (op ``but_added``) for a
    lone *plus* (no comma or sign before it) right before the last phrase of the sentence, whose opinion an edit
    turns into a complaint; None elsewhere (:func:`flow_clash` then refuses a complaint after *plus*)."""
    if _CONTRAST.search(source):
        return None  # a second contrast in one sentence reads as stitched clauses
    for e in negative:
        m = _LONE_PLUS.search(source[:e.start])
        if m is None or not _PHRASE_END.match(source[e.end:]):
            continue
        a, b = m.span(1)
        if any(x.start < b and a < x.end for x in edits):
            return None
        return CharEdit(a, b, "but", source[a:b], "but_added", "'plus' adds an advantage: the complaint after it "
                        "is contrasted")
    return None
