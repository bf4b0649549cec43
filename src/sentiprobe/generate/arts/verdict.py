"""A reversal that the sentence's own verdict on the whole review still contradicts (a text rule, refusals).

A review sentence often carries, beside its aspects' opinions, a verdict on the whole: the experience, the place,
the machine, the purchase (*Had a great experience at Trio*, *Highly recommended*, *I couldn't be happier*, *Don't
ever bother*), or an imperative that recommends the aspect (*Also get the Onion Rings*, *Sit back in one of those
comfortable chairs*). Reviewers make such a verdict agree with the opinions around it, or turn against it with a
contrast (*Great place, but the staff was rude*). A reversal that leaves the verdict as it was and turns an
opinion of the same sentence against it, with no contrast between the two, reads as a contradiction that no
reviewer writes (*Had a great experience at Trio... staff was rude*, *Also get the Onion Rings -- worst we've ever
had*, *Does everything I need, has a short battery life and I couldn't be happier*); blind readers rejected every
such variant. The lexicon check reads only the edited words and cannot see it, so :func:`verdict_clash` refuses
the variant on its final text. A verdict that an edit changes (*would not recommend*) is no longer the verdict
that was; one that the edit turns the same way as the rest is no clash.
"""
from __future__ import annotations

import re
from collections.abc import Sequence

from .charedit import CharEdit

_GOOD = r"(?:great|wonderful|amazing|fantastic|excellent|awesome|lovely|pleasant|fabulous|superb|terrific|perfect)"
_BAD = r"(?:terrible|horrible|awful|bad|worst|dreadful|miserable|disappointing|unpleasant|lousy)"
_WHOLE = (r"(?:experience|time|evening|night|visit|meal|dinner|lunch|brunch|restaurant|place|spot|computer|laptop|"
          r"machine|purchase|buy|product|investment)")

PRAISE_VERDICT = re.compile(
    rf"\b(?:had|have|having|was|is|a|an) (?:(?:very|really|truly|such|so) )?(?:a )?{_GOOD} {_WHOLE}\b|"
    r"\bhighly recommend(?:ed|s)?\b|\bcould(?:n'?t| not) (?:be|have been) happier\b|"
    r"\b(?:by far )?beats (?:any|every|all|my old)\b|\bone of the best (?:restaurants?|places?|laptops?|computers?|"
    r"meals?)\b|\b(?:the )?one positive thing\b|\banytime and everytime\b|\bkeeps? (?:me|us) coming back\b|"
    r"\b(?:will|'ll|would|can'?t wait to) (?:definitely |certainly |surely |always )?(?:go|come) back\b|"
    r"\bI will go to\b|\bI (?:love|adore) (?:this|my) (?:place|restaurant|computer|laptop|machine|mac)\b",
    re.IGNORECASE)
"""Verdicts of praise on the whole review (module docstring)."""

COMPLAINT_VERDICT = re.compile(
    r"\bdo(?:n'?t| not) (?:ever |even )?bother\b|"
    r"\b(?:never|won'?t|will not|wouldn'?t|would not) (?:ever )?(?:go back|come back|return|be back|recommend)\b|"
    rf"\b(?:had|have|having|was|is|a|an|the) (?:(?:very|really|truly|such|so) )?(?:a )?{_BAD} {_WHOLE}\b|"
    r"\bstay away\b|\bavoid (?:this|it|the place)\b|\bwaste of (?:money|time)\b",
    re.IGNORECASE)
"""Verdicts of complaint on the whole review (module docstring)."""

RECOMMENDING = re.compile(
    r"^\W*(?:(?:also|so|and|definitely|just|do|please|must|then)\s+)*(?:get|try|order|sit(?: back)?|check out|grab|"
    r"taste|sample|visit|enjoy|relax)\b", re.IGNORECASE)
"""An imperative that recommends what it names (*Also get the Onion Rings*, *Sit back in one of those comfortable
chairs*): a complaint about it in the same clause reads as a contradiction."""

_CONTRAST = re.compile(r"\b(?:but|yet|though|although|however|except|while|whereas|still|otherwise)\b|"
                       r"(?<!\.)\.(?!\.)\s|[!?]\s", re.IGNORECASE)
"""Contrasts (and sentence ends) between a verdict and an opinion that license their disagreement; an ellipsis or
a semicolon only lists the review's points (*Had a great experience at Trio... staff was pleasant; food was
tasty*)."""


def _moved(pos: int, edits: Sequence[CharEdit]) -> int:
    """Where source offset ``pos`` (not inside an edit) lies in the edited text."""
    return pos + sum(len(e.text) - (e.end - e.start) for e in edits if e.end <= pos and not (
        e.start == e.end == pos))


_TURN_BACK = re.compile(r"^[^.!?;]*?\b(?:but|yet|though|although|however)\b", re.IGNORECASE)


def _conceded(source: str, e: CharEdit) -> bool:
    """Whether the source turns, after the edited opinion and in its sentence, with a contrast of its own (*Don't
    ever bother - the drinks were good, but the people made this the worst experience*): the opinion then reads as
    a concession before the verdict's side comes back."""
    return _TURN_BACK.match(source[e.end:]) is not None


def verdict_clash(source: str, text: str, edits: Sequence[CharEdit], complaints: Sequence[CharEdit],
                  praises: Sequence[CharEdit]) -> str | None:
    """Why the variant ``text`` (``source`` under ``edits``) turns an opinion against an unchanged verdict of its
    sentence (module docstring), or None. ``complaints`` and ``praises`` are the edits that turn an opinion into a
    complaint and into praise."""
    for verdicts, turned, kind in ((PRAISE_VERDICT, complaints, "a complaint"), (COMPLAINT_VERDICT, praises,
                                                                                  "praise")):
        if not turned:
            continue
        for m in verdicts.finditer(source):
            if any((e.start < m.end() and m.start() < e.end) or m.start() <= e.start == e.end <= m.end()
                   for e in edits):
                continue  # the verdict itself is edited
            a, b = _moved(m.start(), edits), _moved(m.end(), edits)
            for e in turned:
                s = _moved(e.start, edits)
                t = s + len(e.text)
                between = text[b:s] if b <= s else text[t:a]
                if not _CONTRAST.search(between) and not (b <= s and _conceded(source, e)):
                    return (f"the sentence's verdict {m.group(0)!r} stays, and {kind} ({e.text.strip()!r}) beside it "
                            "with no contrast contradicts it")
    rec = RECOMMENDING.match(source)
    if rec is not None and complaints and not any(e.start < rec.end() for e in edits):
        for e in complaints:
            s = _moved(e.start, edits)
            if s >= rec.end() and not _CONTRAST.search(text[rec.end():s]):
                return (f"the imperative {rec.group(0).strip()!r} recommends what it names: a complaint "
                        f"({e.text.strip()!r}) in its clause contradicts it")
    return None
