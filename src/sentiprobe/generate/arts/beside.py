"""A second contrast beside the one a sentence already holds: *, while* for an *and* a reversal made misfit.

Where a reversal leaves an *and* between two clauses that now read opposite sides, :func:`.repair.contrast_made`
and :func:`.repair.conjunction_edit` make it *but*; in a sentence that already holds a contrast (*but*,
*though*, *while* ...) a second *but* reads as stitched clauses, so the *and* stayed (*The music was fascinating,
but left room for conversation, and the bartender made bad drinks*; *Though please note that sometimes it
crashes, and the sound quality is superb*) or the variant was refused. A blind reading still found the kept ones
disfluent: an *and* adds a clause of the same side.

:func:`while_contrast` words that second contrast as a reviewer does, with a comma and *while* (op
``and_to_while``: *..., while the bartender made bad drinks*; *the service was very comforting, while the food
was worse than average, but ...*). *while* sets two clauses side by side only where the second has a subject of
its own; an *and* between two predicates of one subject (*is always unhappy and able to bring a smile*) has no
such wording (*, while able to ...* reads as a concession of the first), and the variant is refused with
:data:`STITCHED` instead. The other contrast must leave the *while* room too, else the variant is refused:

* a *while* or *whereas* already in the sentence (*While Apple's saving grace is ..., while their support is
  not great, ...*): two read stitched;
* the edit sits between an earlier *but* and the *and* (*It may be a bit packed on weekends, but the vibe is
  bad, while ...*): the edit changed what that *but* contrasts, and the sentence turns twice;
* the *and* inside a *though* clause (a comma after it closes the clause: *Though the food was good and the
  service slow, ...*);
* a later contrast clause that refers back (*it*, *them*, *this* ...) to what the *and* joins (*The screen is a
  little glary, while I didn't hate the clicking buttons, but I got used to them*): it comments on the old
  opinion and argues with the reversal.
"""
from __future__ import annotations

from collections.abc import Sequence

from .charedit import CharEdit, touches
from .site import Sent

STITCHED = ("'and' joins two sides that now read opposite beside another contrast of the sentence, and what "
            "follows it has no subject of its own for a 'while': neither 'and' nor a second 'but' reads naturally")
"""The refusal where no *while* fits (module docstring)."""

_SUBJECTS = frozenset({"nsubj", "nsubjpass", "expl", "csubj"})
_OPENS_NP = frozenset({"DET", "PRON"})
"""Where the tagger finds no verb after the *and* (*and the sound quality isnt superb*, *isnt* read as a name),
a determiner or pronoun right after it still opens a clause with its own subject."""
_SENTENCE_MARKS = frozenset({".", "!", "?", "...", ";"})
_OTHER = frozenset({"but", "yet", "though", "although", "while", "whereas"})
_BACK = frozenset({"it", "them", "they", "this", "that", "these", "those"})
"""Words by which a later contrast clause refers back (*but I got used to them*, *but I didn't suffer thru it*)."""
ONE_SIDE = "'and' joins two sides that now read opposite beside another contrast of the sentence"
_CLAUSE_END = frozenset({".", "!", "?", ";", ":", ",", "but", "while", "though", "although", "yet", "and", "or"})


def while_contrast(sent: Sent, conj: CharEdit, edits: Sequence[CharEdit]) -> CharEdit | str:
    """The *, while* edit for ``conj`` (an *and* -> *but* edit of :mod:`.repair`) where the clause after the
    *and* opens with a subject of its own and the other contrast leaves it room (module docstring), or the reason
    why none fits. ``edits``: the reversal's edits."""
    p = sent.parse
    toks = [w.lower() for w in p.tokens]
    k = next((i for i, o in enumerate(sent.offsets) if o == (conj.start, conj.end)), None)
    if k is None or k == 0 or k + 1 >= len(toks) or toks[k] != "and":
        return STITCHED
    verb = next((i for i in range(k + 1, len(toks)) if p.upos[i] in ("VERB", "AUX") or toks[i] in _CLAUSE_END),
                len(toks))
    if verb < len(toks) and p.upos[verb] in ("VERB", "AUX"):
        if not any(p.deps[i] in _SUBJECTS and p.heads[i] in range(k + 1, verb + 2) for i in range(k + 1, verb)):
            return STITCHED  # no subject of its own: *and able to bring a smile*, *and left room for conversation*
    elif p.upos[k + 1] not in _OPENS_NP:
        return STITCHED
    lo = next((i + 1 for i in range(k - 1, -1, -1) if toks[i] in _SENTENCE_MARKS), 0)
    hi = next((i for i in range(k + 1, len(toks)) if toks[i] in _SENTENCE_MARKS), len(toks))
    edited = {i for i in range(lo, hi) if any(touches(sent.offsets[i], e) for e in edits)}
    for q in range(lo, hi):
        if toks[q] not in _OTHER:
            continue
        if toks[q] in ("while", "whereas"):
            return f"{ONE_SIDE}: a second {p.tokens[q]!r} in one sentence reads stitched"
        if q < k and toks[q] in ("but", "yet") and edited & set(range(q + 1, k)):
            return (f"{ONE_SIDE}: the edit sits right after {p.tokens[q]!r}, whose contrast it changes, and a "
                    "second contrast after it reads stitched")
        if q < k and toks[q] in ("though", "although") and "," in toks[k + 1:hi]:
            return f"{ONE_SIDE}: the 'and' is inside the {p.tokens[q]!r} clause: a 'while' there reads stitched"
        if q > k and any(w in _BACK for w in toks[q + 1:hi]):
            return (f"{ONE_SIDE}: the {p.tokens[q]!r} clause after it refers back to the clauses it joins and "
                    "would argue with the reversal")
    detail = "'and' joins clauses that now read opposite sides beside another contrast: a comma and 'while'"
    if p.tokens[k - 1] == ",":
        return sent.replace(k, "while", "and_to_while", detail)
    a, b = sent.offsets[k - 1][1], sent.offsets[k][1]
    return CharEdit(a, b, ", while", sent.text[a:b], "and_to_while", detail)
