"""The choice among a site's valid candidates (corrected mode): the language model's whole-sentence fluency
change (:func:`fluency_change`, :mod:`sentiprobe.models.fluency_lm`) or the rule order, and the floors below which
a site is refused as disfluent. :func:`.corrected.realise` calls :meth:`Chooser.choose` per site after
:meth:`Chooser.prefetch` scored every plan's sentences in one call."""
from __future__ import annotations

from collections.abc import Sequence
from typing import TYPE_CHECKING, Any

from ...models.fluency_lm import SCORE_DECIMALS
from .candidates import Candidate, Sent
from .charedit import CharEdit, apply

if TYPE_CHECKING:
    from .corrected import Plan, Site

MAX_SCORED = 2
"""Valid candidates per site that the language model scores (the best by rule priority); the others are
recorded as not ranked."""
MAX_FALLBACK = 3
"""Further valid candidates (next in rule order) that the language model scores when none of the first
:data:`MAX_SCORED` reaches its floor: rule order ranks *terrible* and *poor* before *bad*, but in a list of praise
(*Great food, great drinks*) the plain word is often the only fluent one (*Bad food, great drinks* -3.7 where
*Terrible food* is -14.4). Scored only for a site that would otherwise be refused, so no kept choice changes.
A WordNet antonym through another word's cluster never gets this turn (*great* ~ *large* -> *small*: *Great food,
small waitstaff* -9.1 beats *bad waitstaff* -13.6 because it no longer reads as a verdict, not because it is a
fluent reversal)."""
MIN_DELTA = -8.0
"""Lowest accepted fluency change (:func:`fluency_change`, nats on the whole sentence) of an edit that inserts or
removes words (negation, adverb). Set on the restaurant test file: below it the chosen edits are mostly broken
(*rather over very cooked* -9.3, *is also not more laid-back* -9.1, *Not only did not they have* -10.8), above it
mostly grammatical negations (*the service was not tops* -7.9, *The food really is very good* -7.5)."""
MIN_DELTA_SWAP = -10.0
"""The same for a one-word swap (antonym): it changes content, so the language model's drop also measures how
plausible the sentence still is as a whole; below it mostly context clashes and broken forms (*expensiver prices*
-10.1, *the food was excellent to be kind* -18.1, *I'm very plain about the food* -15.9), above it plain contrasts
with some clashes left (*We've always gotten awful service but we love the food* -10.0)."""

class Chooser:
    """Ranks a site's valid candidates: by the language model's fluency change (``lm``) or by rule order."""

    def __init__(self, rank: str = "lm", lm: Any = None, min_delta: float = MIN_DELTA) -> None:
        self.rank = rank
        self.lm = lm
        self.min_delta = min_delta
        self.scores: dict[str, tuple[float, int]] = {}

    @staticmethod
    def texts(sent: Sent, site: Site, c: Candidate) -> tuple[str, str]:
        """(source window, variant window) of candidate ``c``."""
        lo, hi = site.window
        local = [CharEdit(e.start - lo, e.end - lo, e.text, e.before, e.op, e.detail) for e in c.edits]
        return sent.text[lo:hi], apply(sent.text[lo:hi], local)

    @staticmethod
    def ranked(site: Site) -> list[Candidate]:
        """The valid candidates that compete: the best of each kind (a word swap, a negation edit) by rule
        priority, then the next best, :data:`MAX_SCORED` in all."""
        valid = sorted((c for c in site.candidates if c.valid), key=lambda c: c.priority)
        firsts = list({_family(c): c for c in reversed(valid)}.values())[::-1]
        rest = [c for c in valid if c not in firsts]
        return sorted(firsts, key=lambda c: c.priority)[:MAX_SCORED] + rest[:max(0, MAX_SCORED - len(firsts))]

    @staticmethod
    def sentence(sent: Sent, c: Candidate) -> str:
        """The whole sentence with candidate ``c``'s edits (and only them): what the language model judges."""
        return apply(sent.text, list(c.edits))

    def prefetch(self, plans: Sequence[Plan]) -> None:
        """Score every source sentence and the whole edited sentence of every competing candidate in one call."""
        if self.rank != "lm" or self.lm is None:
            return
        groups: dict[str, set[str]] = {}
        for p in plans:
            if p.sent is None:
                continue
            for site in p.sites:
                for c in self.ranked(site):
                    groups.setdefault(p.sent.text, set()).add(self.sentence(p.sent, c))
        todo = {src: sorted(vs) for src, vs in groups.items()
                if src not in self.scores or any(v not in self.scores for v in vs)}
        if todo:
            self.scores.update(self.lm.sentences(todo))

    def delta(self, sent: Sent, c: Candidate) -> float | None:
        """The whole-sentence fluency change of candidate ``c`` in nats (see :func:`fluency_change`)."""
        var = self.sentence(sent, c)
        if var not in self.scores or sent.text not in self.scores:
            return None
        return fluency_change(self.scores[sent.text], self.scores[var])

    def _score(self, sent: Sent, cands: Sequence[Candidate]) -> None:
        """Score the candidates' sentences not yet scored (a site re-chosen, a fallback)."""
        if self.rank != "lm" or self.lm is None or sent.text not in self.scores:
            return
        todo = sorted({v for v in (self.sentence(sent, c) for c in cands) if v not in self.scores})
        if todo:
            self.scores.update(self.lm.sentences({sent.text: todo}))

    def _key(self, sent: Sent, c: Candidate) -> tuple[float, int]:
        if self.rank == "lm" and self.lm is not None:
            delta = self.delta(sent, c)
            return (delta if delta is not None else float("-inf"), -c.priority)
        return (0.0, -c.priority)

    def floor(self, c: Candidate) -> float:
        """The lowest fluency change accepted for candidate ``c`` (:data:`MIN_DELTA`, :data:`MIN_DELTA_SWAP`)."""
        return self.min_delta if _family(c) != "swap" else min(self.min_delta, MIN_DELTA_SWAP)

    def choose(self, sent: Sent, site: Site) -> tuple[Candidate | None, dict[str, Any]]:
        lm = self.rank == "lm" and self.lm is not None
        competing = self.ranked(site)
        self._score(sent, competing)  # a site re-chosen with a candidate ruled out: new competitors
        keys = {id(c): self._key(sent, c) for c in competing}
        fluent = [c for c in competing if not lm or keys[id(c)][0] >= self.floor(c)]
        extra: list[Candidate] = []
        if lm and competing and not fluent:
            # none of the first reaches its floor: the next valid ones in rule order get their turn
            extra = [c for c in sorted(site.candidates, key=lambda c: c.priority)
                     if c.valid and c not in competing and "indirect antonym" not in c.detail][:MAX_FALLBACK]
            self._score(sent, extra)
            keys.update({id(c): self._key(sent, c) for c in extra})
            fluent = [c for c in extra if keys[id(c)][0] >= self.floor(c)]
        scored = competing + extra
        rows = []
        for c in site.candidates:
            _, var = self.texts(sent, site, c)
            row: dict[str, Any] = {"text": var, "op": c.op, "detail": c.detail, "valid": c.valid}
            if c.problems:
                row["problems"] = list(c.problems)
            elif c in extra:
                row["note"] = "scored after the first ones fell below the fluency floor"
            elif c not in competing:
                row["note"] = f"not ranked (only the {MAX_SCORED} first in rule order compete)"
            if c in scored and lm:
                row["fluency"] = self.delta(sent, c)
            rows.append(row)
        record: dict[str, Any] = {"site": site.name, "candidates": rows}
        if not competing:
            probs = sorted({p for c in site.candidates for p in c.problems})
            record["reason"] = "every candidate fails a validity check: " + "; ".join(probs[:4])
            return None, record
        if not fluent:
            best = max(competing, key=lambda c: keys[id(c)])
            record["reason"] = (f"no fluent candidate: the best changes the sentence's fluency by "
                                f"{keys[id(best)][0]:.2f} nats (< {self.floor(best)})")
            return None, record
        chosen = max(fluent, key=lambda c: keys[id(c)])
        if lm:
            record["reason"] = (f"highest language-model fluency ({keys[id(chosen)][0]:+.2f} nats on the whole "
                                f"sentence vs the source) among {len(scored)} valid candidate(s)")
        else:
            record["reason"] = f"first valid candidate in rule order among {len(competing)}"
        record["chosen"] = self.texts(sent, site, chosen)[1]
        return chosen, record


def fluency_change(source: tuple[float, int], variant: tuple[float, int]) -> float:
    """The variant's log-likelihood minus the source's, at the variant's length, in nats (rounded to 1e-4).

    Both are whole sentences: ``(total log-probability, tokens)``. The change is ``n' * (mean' - mean)``: the
    difference of the normalised (per-token) likelihoods, scaled back to the variant's token count, so that it
    equals ``total' - total`` when the edit keeps the length and charges an inserted token only what it costs beyond
    the sentence's average token. Unlike the difference of the means it is not diluted by the sentence's length (a
    bad edit costs as much in a 40-token review as in a 10-token one), so one floor fits every sentence; unlike the
    difference of the totals it does not charge a negation for the mere extra word."""
    (s0, n0), (s1, n1) = source, variant
    if not n0 or not n1:
        return 0.0
    return round(n1 * (s1 / n1 - s0 / n0), SCORE_DECIMALS)


def _family(c: Candidate) -> str:
    return "swap" if c.op == "antonym" else "edit"
