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
:data:`STITCHED` instead.
"""
from __future__ import annotations

from .charedit import CharEdit
from .site import Sent

STITCHED = ("'and' joins two sides that now read opposite beside another contrast of the sentence, and what "
            "follows it has no subject of its own for a 'while': neither 'and' nor a second 'but' reads naturally")
"""The refusal where no *while* fits (module docstring)."""

_SUBJECTS = frozenset({"nsubj", "nsubjpass", "expl", "csubj"})
_OPENS_NP = frozenset({"DET", "PRON"})
"""Where the tagger finds no verb after the *and* (*and the sound quality isnt superb*, *isnt* read as a name),
a determiner or pronoun right after it still opens a clause with its own subject."""
_CLAUSE_END = frozenset({".", "!", "?", ";", ":", ",", "but", "while", "though", "although", "yet", "and", "or"})


def while_contrast(sent: Sent, conj: CharEdit) -> CharEdit | None:
    """The *, while* edit for ``conj`` (an *and* -> *but* edit of :mod:`.repair`) where the clause after the
    *and* opens with a subject of its own (module docstring), or None."""
    p = sent.parse
    k = next((i for i, o in enumerate(sent.offsets) if o == (conj.start, conj.end)), None)
    if k is None or k == 0 or p.tokens[k].lower() != "and":
        return None
    if k + 1 >= len(p.tokens):
        return None
    verb = next((i for i in range(k + 1, len(p.tokens)) if p.upos[i] in ("VERB", "AUX")
                 or p.tokens[i].lower() in _CLAUSE_END), len(p.tokens))
    if verb < len(p.tokens) and p.upos[verb] in ("VERB", "AUX"):
        if not any(p.deps[i] in _SUBJECTS and p.heads[i] in range(k + 1, verb + 2) for i in range(k + 1, verb)):
            return None  # no subject of its own: *and able to bring a smile*, *and left room for conversation*
    elif p.upos[k + 1] not in _OPENS_NP:
        return None
    detail = "'and' joins clauses that now read opposite sides beside another contrast: a comma and 'while'"
    if p.tokens[k - 1] == ",":
        return sent.replace(k, "while", "and_to_while", detail)
    a, b = sent.offsets[k - 1][1], sent.offsets[k][1]
    return CharEdit(a, b, ", while", sent.text[a:b], "and_to_while", detail)
