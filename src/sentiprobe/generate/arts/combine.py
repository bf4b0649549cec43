"""Choices across the sites of one variant (corrected mode): each site's candidate is chosen on its own
(:class:`.choice.Chooser`), then the choices of one aspect's sites are made to agree. Two opinions of one aspect do
not take the same opposite (:func:`distinct_opposites`), and a negation of their shared predicate reverses them all
(:func:`one_negation_per_predicate`)."""
from __future__ import annotations

from dataclasses import replace
from typing import TYPE_CHECKING, Any

from .charedit import NEGATION_OPS
from .choice import Chooser
from .site import Candidate, Sent

if TYPE_CHECKING:
    from .corrected import Site


def _swap_word(c: Candidate | None) -> str | None:
    return " ".join(e.text.lower() for e in c.edits) if c is not None and c.op == "antonym" else None


def _without(site: Site, word: str) -> Site:
    return replace(site, candidates=[
        x.with_problems("repeats the opposite chosen for another opinion of the aspect") if _swap_word(x) == word
        else x for x in site.candidates])




def distinct_opposites(chooser: Chooser, sent: Sent, rows: list[tuple[Site, Candidate | None, dict[str, Any]]]
                       ) -> None:
    """Two opinions of one aspect that took one opposite (*friendly, courteous* -> *rude, rude*) reads as one
    opinion repeated (:func:`.clash.repetition_changed` refuses it): the later site takes its next-best distinct
    fluent opposite, else the earlier one does (*unfriendly, rude*). Without one the repetition stays, and so
    does its refusal. ``rows`` (site, choice, record) are updated in place."""
    for n, (site, c, _) in enumerate(rows):
        word = _swap_word(c)
        m = next((k for k in range(n) if rows[k][0].aspect_id == site.aspect_id and _swap_word(rows[k][1]) == word),
                 None) if word is not None else None
        if m is None or word is None or (sent.span_text(rows[m][0].span).lower()
                                         == sent.span_text(site.span).lower()):
            continue  # an emphatic repetition (*easy easy easy*) is reversed as a whole
        for k in (n, m):
            c2, rec2 = chooser.choose(sent, _without(rows[k][0], word))
            if c2 is not None:
                rows[k] = (rows[k][0], c2, rec2)
                break


def one_negation_per_predicate(sent: Sent, rows: list[tuple[Site, Candidate | None, dict[str, Any]]]
                               ) -> list[tuple[Site, Candidate | None, dict[str, Any]]]:
    """Opinions of one aspect under one predicate are reversed together: when a site's choice negates the
    predicate (*is not warm, comfortable and sexy*) or removes its negation, every site of the same aspect that
    offers the same edit takes it too, so no antonym ends up inside the negation's scope (*is not warm ... and
    unsexy*) and one negation is not removed in two ways."""
    out = list(rows)
    for site, c, _ in rows:
        if c is None or c.op not in NEGATION_OPS:
            continue
        for k, (s2, c2, rec2) in enumerate(out):
            if s2 is site or s2.aspect_id != site.aspect_id or c2 == c:
                continue
            # the same negation on the same predicate reverses this site too, even where the lexicon's narrow
            # negation window misses it (*not extremely friendly and pleasant*)
            same = next((x for x in s2.candidates if x.edits == c.edits and all(
                "still reads" in p or "under the lexicon" in p for p in x.problems)), None)
            if same is not None:
                out[k] = (s2, Candidate(same.edits, same.op, same.detail, same.priority),
                          {**rec2, "chosen": Chooser.texts(sent, s2, same)[1],
                           "reason": f"the same predicate negation as {site.name}"})
    return out
