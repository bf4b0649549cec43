"""A reversal that an unchanged verdict on the whole review contradicts: refusals.

A review sentence often carries, besides its aspect opinions, a verdict on the whole visit or purchase (*Had a
great experience at ...*, *Highly recommended*, *Don't ever bother*, *I couldn't be happier*, *it beats my old
mac*) or a recommendation aimed at one aspect (*Also get the onion rings*, *Sit back in one of those chairs*).
Such a verdict is evidence for the opinions beside it: turning an opinion of the same sentence to the opposite
polarity leaves the verdict arguing with it (*Had a great experience ... staff was rude*, *has a short battery
life and I couldn't be happier*, *Also get the Onion Rings -- worst we've ever had*). A blind reader calls these
contradictions; they were the largest class of the RevTgt / RevNon failures left in the audits.

:func:`verdict_clash` refuses such a variant, unless

* a contrast (*but*, *although*, *though*, *however*, *except*, *yet*, *still* ...) stands between the verdict and
  the edited opinion, in the same stretch of the sentence as the later of the two (a *but* three clauses back,
  beyond a semicolon, licenses nothing): *Highly recommended, although the bar is ugly* is a mixed review;
* the edit changes the verdict itself (an edit overlapping it: the verdict moves with the opinions).

An edit that itself writes a whole-review verdict (*the worst experience* -> *the best experience*) is refused
beside an unchanged opposite verdict even across a contrast: two opposite verdicts on one visit (*Don't ever
bother - ... but it was the people that made this the best experience*) read as nonsense, not as a mixed review.
"""
from __future__ import annotations

import re
from collections.abc import Sequence

from .charedit import CharEdit

_NEG_BEFORE = re.compile(r"\b(?:not|no|never|n't|hardly|barely)\s+(?:\w+\s+){0,2}$", re.I)
"""A negation right before a verdict undoes it (*not a great experience*, *wouldn't highly recommend*)."""

_GOOD = r"(?:great|wonderful|amazing|fantastic|excellent|awesome|lovely|pleasant|enjoyable|perfect|good)"
_BAD = r"(?:terrible|horrible|awful|bad|horrendous|miserable|unpleasant|disappointing|worst)"
_PLACE = (r"(?:restaurants?|places?|spots?|computers?|laptops?|machines?|purchases?|buys?|investments?|"
          r"meals?|dinners?|experiences?|notebooks?|products?)")
"""Nouns of the whole visit or purchase: *one of the best restaurants* judges all of it, *one of the best
keyboards* only an aspect (and is left to the aspect checks)."""

_POSITIVE = re.compile("|".join((
    rf"\b(?:had|have|was|is|a|an|such|what)\s+(?:(?:really|truly|very|an?|such)\s+)*{_GOOD}\s+(?:experience|time|"
    r"evening|night|meal|dinner|visit|place|restaurant|spot|product|purchase)\b",
    r"\bkeeps?\s+(?:me|us)\s+coming\s+back\b",
    r"\b(?:highly|definitely|strongly|totally|100%)\s+recommend(?:ed|s)?\b",
    r"\b(?:would|will|i|we|must|can)\s+(?:\w+\s+)?recommend(?:ed)?\s+(?:this|it|them|the\s+place|this\s+place|"
    r"the\s+restaurant|to)\b",
    r"\b(?:will|would|'ll)\s+(?:definitely\s+|surely\s+|certainly\s+|be\s+)?(?:go(?:ing)?\s+back|return(?:ing)?|"
    r"be\s+back|come\s+back|be\s+coming\s+back)\b",
    r"\b(?:could(?:n't| not)|can'?t|cannot)\s+be\s+(?:any\s+)?happier\b",
    r"\bbeats\s+(?:any|all|every|my\s+old|the\s+competition)\b",
    rf"\bone\s+of\s+the\s+(?:best|finest|greatest|nicest)\s+(?:\w+\s+)?{_PLACE}\b",
    r"\b(?:best|greatest)\s+(?:experience|purchase|decision|investment|meal)\b",
    r"\b(?:just|exactly)\s+what\s+(?:i|we)\s+(?:was\s+|were\s+|am\s+|are\s+)?(?:looking\s+for|wanted|needed)\b",
)), re.I)
"""Praise of the whole visit or purchase (module docstring); each alternative is a form a reviewer uses."""

_FRAME = re.compile("|".join((
    r"\b(?:anytime|every\s?time|whenever)\b[^.!?;]{0,60}\b(?:will|'ll)\s+(?:always\s+)?(?:go|come|stop)\s+(?:to|by)\b",
    r"\bthe\s+(?:one|only)\s+(?:positive|good|nice|redeeming)\s+thing\b",
    r"\bstop\s+(?:by|in)\s+(?:\w+\s+){0,2}for\b",
    r"\bworth(?:while|\s+it|\s+the\s+trip)?\s+(?:to\s+)?[^.!?;]{0,40}?\bjust\s+for\b",
)), re.I)
"""Praise that frames what follows as its reason (*I will go to X for ...*, *The one positive thing I can say is
that ...*, *definitely stop by for ...*): a complaint inside the frame contradicts it even beside a *but* that an
edit writes or that joins two parts of the frame (*... for fresh sushi but small portions*); only a contrast of
the source between the frame and the complaint ends the frame."""

_NEGATIVE = re.compile("|".join((
    r"\bdo(?:n't| not)\s+(?:ever\s+|even\s+)?bother\b",
    rf"\b(?:had|have|was|is|a|an|such|what|the)\s+(?:(?:really|truly|very|an?|such)\s+)*{_BAD}\s+"
    r"(?:experience|time|evening|night|meal|dinner|visit)\b",
    r"\b(?:would|will|could)(?:n't| not)\s+(?:\w+\s+)?recommend\b",
    r"\b(?:never|not)\s+(?:be\s+)?(?:go(?:ing)?|com(?:e|ing))\s+back\b",
    r"\b(?:will|would)(?:n't| not| never)\s+(?:be\s+)?(?:return(?:ing)?|back)\b",
    r"\bstay\s+away\b|\bavoid\s+(?:this|it|the\s+place)\b",
    r"\bthe\s+(?:one|only)\s+(?:negative|bad)\s+thing\b",
    r"\b(?:worst)\s+(?:experience|purchase|decision|investment|meal|restaurant|place|computer|laptop)\b",
    r"\bwaste\s+of\s+(?:money|time)\b",
)), re.I)
"""Complaint about the whole visit or purchase (module docstring)."""

_IMPERATIVE = re.compile(
    r"(?:^|[.!?;]\s*|\.\.\.\s*)(?:(?:also|definitely|just|so|and)\s+)*(?:get|try|order|grab|sample|sit\s+back\s+in|"
    r"check\s+out|don'?t\s+miss|go\s+for)\b", re.I)
"""A recommendation in the imperative at the start of a sentence: its object is recommended, so a complaint
about that object in the same sentence argues with it (*Also get the onion rings -- worst we've ever had*)."""

_RECOMMENDING = re.compile(r"(?:get|try|order|grab|sample)$", re.I)
"""The imperatives of :data:`_IMPERATIVE` that name the recommended act alone, so that *skip* says the opposite
(*sit back in*, *check out*, *go for* and *don't miss* have no one-word opposite that reads well)."""


def recommendation_repair(source: str, offsets: Sequence[tuple[int, int]], edits: Sequence[CharEdit],
                          turned: Sequence[tuple[int, int, int]]) -> tuple[int, str] | None:
    """The recommendation whose object the edits turn from praise to complaint, reversed with it: its verb
    becomes *skip* (*Also get the Onion Rings -- best we've ever had* -> *Also skip the Onion Rings -- worst
    we've ever had*), as (token index of the verb, the new word), or None. Only where the object (up to the
    stretch's end) holds aspects the edits turn negative and no other aspect, and the recommending verb is one
    word (:data:`_RECOMMENDING`): a recommendation about the reversed aspect alone moves with it.
    ``turned``: (start, end, old sign) of every aspect of the sentence, the sign 0 for the ones kept."""
    for m in _IMPERATIVE.finditer(source):
        v = m.end()
        verb = _RECOMMENDING.search(source, m.start(), v)
        if verb is None or any(e.start < v and m.start() < e.end for e in edits):
            continue
        end = _BOUNDARY.search(source, v)
        obj_end = min(v + 40, end.start() if end else len(source))
        inside = [sign for a, _, sign in turned if v <= a < obj_end]
        if not inside or any(sign != 1 for sign in inside):
            continue
        k = next((i for i, (a, _) in enumerate(offsets) if a == verb.start()), None)
        if k is None or offsets[k][1] != verb.end():
            continue
        word = "Skip" if source[verb.start()].isupper() else "skip"
        return k, word
    return None


_CONTRAST = re.compile(r"\b(?:but|although|though|however|except|yet|whereas|still|despite|nevertheless|"
                       r"otherwise|even\s+so|while)\b", re.I)
"""Words that join a verdict and a contrary opinion into a mixed review."""

_SENTENCE_END = re.compile(r"[.!?]")
_BOUNDARY = re.compile(r"[.!?;:]|--|\s-\s")
"""Where a stretch of the sentence ends: a contrast beyond it does not reach the opinion."""


def _verdicts(text: str) -> list[tuple[int, int, int]]:
    """(start, end, sign) of the whole-review verdicts of ``text`` that no negation undoes."""
    out = []
    for rx, sign in ((_POSITIVE, 1), (_NEGATIVE, -1)):
        for m in rx.finditer(text):
            if sign > 0 and _NEG_BEFORE.search(text[max(0, m.start() - 25):m.start()]):
                continue
            out.append((m.start(), m.end(), sign))
    return out


def _licensed(source: str, edits: Sequence[CharEdit], a: int, b: int) -> bool:
    """Whether a contrast between ``a`` and ``b`` (``a < b``) reaches ``b`` without a stretch boundary: a
    contrast of the source an edit does not remove, or one an edit writes (a *but* repair)."""
    spots = [m.start() for m in _CONTRAST.finditer(source, a, b)
             if not any(e.start <= m.start() < e.end for e in edits)]
    spots += [e.start for e in edits if a <= e.start < b and _CONTRAST.search(e.text)]
    return any(not _BOUNDARY.search(source, s, b) for s in spots)


def _mixed(source: str, edits: Sequence[CharEdit], e: CharEdit) -> bool:
    """Whether the edited opinion ``e`` is one side of a contrast of its own stretch, which makes that stretch a
    mixed statement on its own (*the drinks were good, but the staff ...*; *tasty but small*): a contrast of the
    source anywhere in the stretch, or one an edit writes before ``e``. A *but* an edit writes after ``e`` only
    contrasts what follows (*the service was slow, we got seated but the server was friendly* still says the
    one positive thing is slow service)."""
    lo = max((m.end() for m in _BOUNDARY.finditer(source, 0, e.start)), default=0)
    nxt = _BOUNDARY.search(source, e.end)
    hi = nxt.start() if nxt else len(source)
    if any(not any(x.start <= m.start() < x.end for x in edits) for m in _CONTRAST.finditer(source, lo, hi)):
        return True
    return any(lo <= x.start < e.start and _CONTRAST.search(x.text) for x in edits)


def _writes_verdict(source: str, e: CharEdit) -> int:
    """The sign of a whole-review verdict that the edit ``e`` writes (*worst experience* -> *best experience*),
    0 where it writes none."""
    left, right = source[max(0, e.start - 40):e.start], source[e.end:e.end + 40]
    window = left + e.text + right
    lo, hi = len(left), len(left) + len(e.text)
    for s, t, sign in _verdicts(window):
        if s < hi and lo < t:
            return sign
    return 0


def verdict_clash(source: str, edits: Sequence[CharEdit], complaints: Sequence[CharEdit],
                  praises: Sequence[CharEdit], turned: Sequence[tuple[int, int]],
                  aspects: Sequence[tuple[int, int]] = ()) -> str | None:
    """Why an unchanged whole-review verdict or imperative recommendation of ``source`` contradicts the edited
    opinions (module docstring), or None. ``complaints`` / ``praises`` are the edits that turn an opinion
    negative / positive; ``turned`` the source spans of the aspects whose opinion the edits reverse, ``aspects``
    those of every aspect of the sentence."""
    if not complaints and not praises:
        return None
    # an edit inside or touching the verdict (*not* inserted before *the best meal*) changes the verdict with the
    # opinions; an aspect inside it (*the best meal*, *have a good meal* of the aspect *meal*) makes it that
    # aspect's opinion, which the aspect checks weigh
    kept = [(s, t, sign) for s, t, sign in _verdicts(source) if not any(e.start <= t and s <= e.end for e in edits)
            and not any(s <= a < t for a, _ in [*turned, *aspects])]
    for m in _FRAME.finditer(source):
        if any(e.start < m.end() and m.start() < e.end for e in edits):
            continue
        stop = _SENTENCE_END.search(source, m.end())
        for e in complaints:
            if m.end() <= e.start < (stop.start() if stop else len(source)) and not _CONTRAST.search(
                    source, m.end(), e.start):
                return (f"the frame {source[m.start():m.end()]!r} gives its reasons for praise: the reversed opinion "
                        f"{e.text.strip()!r} inside it contradicts it")
    for s, t, sign in kept:
        against = complaints if sign > 0 else praises
        for e in against:
            if _writes_verdict(source, e) == -sign:
                return (f"the unchanged verdict {source[s:t]!r} and the edited verdict {e.text.strip()!r} judge the "
                        "whole review both ways")
            a, b = (t, e.start) if t <= e.start else (e.end, s)
            if not _licensed(source, edits, a, b) and not _mixed(source, edits, e):
                return (f"the unchanged verdict {source[s:t]!r} argues with the reversed opinion "
                        f"{e.text.strip()!r}: no contrast joins them")
    for m in _IMPERATIVE.finditer(source):
        v = m.end()
        end = _BOUNDARY.search(source, v)
        obj_end = min(v + 40, end.start() if end else len(source))
        if not any(v <= a < obj_end for a, _ in turned) or any(e.start < v and m.start() < e.end for e in edits):
            continue
        stop = _SENTENCE_END.search(source, obj_end)
        for e in complaints:
            if v <= e.start < (stop.start() if stop else len(source)) and not _licensed(source, edits, v, e.start):
                return (f"the recommendation {source[m.start():v].strip()!r} recommends what the edit "
                        f"{e.text.strip()!r} now finds fault with")
    return None


_STANCE = re.compile("|".join((
    r"(?:^|[.!?;]\s+)(?:really\s+|very\s+|quite\s+)?(?:disappointingly|sadly|unfortunately|regrettably|fortunately|"
    r"thankfully|luckily|happily|mercifully)\s*,",
    r"\b(?:pleasantly|happily|disappointingly|unpleasantly)\s+surprised\s+(?:to|that|by|at)\b",
    r"\b(?:glad|happy|pleased|thrilled|delighted|relieved|sad|sorry|disappointed|upset|saddened)\s+"
    r"(?:to\s+(?:see|find|hear|learn|say|report)|that)\b",
)), re.I)
"""The writer's feeling about what the rest of the clause reports (*Disappointingly, their wonderful Saketini has
been taken off the menu*, *I was pleasantly surprised to see so many vegan options*, *glad to see ...*): it is
about the whole statement, opinion included, so a reversal inside that statement leaves the feeling about the
opposite fact (*Disappointingly, their terrible Saketini has been taken off*, *pleasantly surprised to see so few
vegan options*)."""

_CLAUSE_END = re.compile(r"[.!?;:,]|--|\s-\s|\b(?:and|but|while|whereas)\b", re.I)
"""Where the statement a feeling adjective governs ends (*always seems glad to see us, and the food is ...*): a
sentence adverb with its comma (*Disappointingly, ...*) governs the whole stretch instead."""

_CONDITION = re.compile(r"\b(?:especially|particularly)\s+(?:if|when|with|considering|since|because|given|for)\b|"
                        r",\s*(?:considering|given)\s+(?:the|its|that|how)\b|\bso\s+if\s+you\b", re.I)
"""A condition that strengthens the opinion before it (*much better on the Pro, especially if you install an SSD*,
*hard to find things I don't like, especially considering the price*) or advice drawn from it (*the portions are
a bit small so if you are hungry, this is not the place for you*): reversed, the opinion keeps a condition or
advice that argues for the old one (*much worse on the Pro, especially if you install an SSD*)."""

_EMOTICON = re.compile(r"(?P<pos>[:;]\s?-?\s?[)D](?!\w)|\(\s?-?\s?[:;])|(?P<neg>:\s?-?\s?\((?!\w))")
"""A smiley or a frown: the writer's feeling about the whole sentence (*Poor for all my graphic design classes
: - )* reads as nonsense)."""


def stance_clash(source: str, edits: Sequence[CharEdit], complaints: Sequence[CharEdit],
                 praises: Sequence[CharEdit] = ()) -> str | None:
    """Why an unchanged stance (:data:`_STANCE`), emoticon (:data:`_EMOTICON`) or strengthening condition
    (:data:`_CONDITION`) of ``source`` argues with one of the opinion edits (``complaints`` turn an opinion
    negative, ``praises`` positive) in its stretch (no contrast or boundary between them), or None. An edit of the
    stance itself (*Unfortunately* -> *Fortunately*) moves it with the opinion; an emoticon argues only with an
    opinion turned against it, across the sentence but not across a contrast (one an edit writes included: *:)
    Great product, great price, but terrible service* is a mixed review)."""
    opinion_edits = [*complaints, *praises]
    for m in _STANCE.finditer(source):
        if any(e.start < m.end() and m.start() < e.end for e in edits):
            continue
        stop = (_BOUNDARY if m.group().rstrip().endswith(",") else _CLAUSE_END).search(source, m.end())
        end = stop.start() if stop else len(source)
        for e in opinion_edits:
            if m.end() <= e.start < end and not _CONTRAST.search(source, m.end(), e.start):
                return (f"the stance {source[m.start():m.end()].strip(' ,.!?;')!r} is about the statement the "
                        f"reversed opinion {e.text.strip()!r} belongs to: it would judge the opposite fact")
    for m in _EMOTICON.finditer(source):
        for e in (complaints if m.group("pos") else praises):
            a, b = (m.end(), e.start) if m.end() <= e.start else (e.end, m.start())
            if not _licensed(source, edits, a, b):
                return (f"the emoticon {m.group().strip()!r} is the writer's feeling about the sentence: the "
                        f"reversed opinion {e.text.strip()!r} argues with it")
    for m in _CONDITION.finditer(source):
        start = max((b.end() for b in _BOUNDARY.finditer(source, 0, m.start())), default=0)
        for e in opinion_edits:
            if start <= e.start and e.end <= m.start() and not _CONTRAST.search(source, e.end, m.start()):
                return (f"the condition {source[m.start():m.end()]!r} strengthens the opinion before it: the "
                        f"reversed opinion {e.text.strip()!r} would keep a condition that argues for the old one")
    return None


_HOW_PAIR = re.compile(r"\bhow\b(?P<first>[^.!?;]*?)\band\s+how\b(?P<second>[^.!?;]*)", re.I)
"""Two exclamative *how* clauses joined by *and* under one frame (*I can't believe how quiet the hard drive is and
how fast this thing boots up*): the frame's one feeling covers both."""


def how_pair_clash(source: str, opinion_edits: Sequence[CharEdit]) -> str | None:
    """Why reversing an opinion in one of two *and*-joined exclamative *how* clauses (:data:`_HOW_PAIR`) and not
    the other leaves one feeling over opposite facts (*I can't believe how noisy the hard drive is and how quick
    this thing boots up*), or None; no *but* fits there (*... but how quick ...*)."""
    for m in _HOW_PAIR.finditer(source):
        halves = [(m.start("first"), m.end("first")), (m.start("second"), m.end("second"))]
        hit = [any(a <= e.start < b for e in opinion_edits) for a, b in halves]
        if hit[0] != hit[1]:
            return ("the two 'how' clauses joined by 'and' share one exclamation: a reversal in one of them leaves "
                    "it over opposite facts")
    return None
