"""Frames that tie the polarity of a sentence's parts (RevTgt and RevNon of the corrected mode).

*Not only is the service great, but ...*, *everything is scrumptious, from ... to ...*, *and so was ...*, *my only
complaint is ...*, *has it all*, *not just ...*: a reversal inside one of them leaves the frame asserting the
opposite, so :func:`tied_frame` names the frame and the source is refused (RevNon reverses nothing inside it).
One of them has a clean rewrite: :func:`not_only_rewrite` turns a sentence-initial *Not only is the X ADJ, but
...* into the statement *The X is ADJ, but ...*, a recorded edit (op ``frame_rewritten``) that the validity
checks read again with the reversal.
"""
from __future__ import annotations

import re

from .candidates import Sent
from .charedit import CharEdit, upper_first
from .clash import summary_frame
from .context import not_just_frame
from .strategies import Prepared, PreparedAspect

NOT_ONLY_FRAME = "the frame 'not only ... but' ties the clauses' polarity: a reversal inside it would clash"
"""The reason :func:`tied_frame` gives for *not only ... but*, the one frame :func:`not_only_rewrite` may undo."""
_ONLY_FRAME = re.compile(r"\b(only|biggest|main|one) (thing|things|complaint|complaints|problem|problems|issue|issues|"
                         r"gripe|gripes|downside|drawback|negative|con|cons|flaw|fault|regret|concern)\b"
                         r"(?=[^.;!?]*\b(is|was|are|were|i|that|would)\b)")
"""*The only thing I dislike is X*, *my only complaint is X*: the frame names the opinion; negating or swapping
inside it (*is not the touchpad*, *the only thing I like*) makes nonsense."""


def tied_frame(sent: Sent) -> str | None:
    """Frames that tie their parts' polarity (*Not only is the service great, but ... easy*; *everything is
    scrumptious, from the service to the atmosphere*): reversing one part leaves the frame asserting the opposite."""
    low = sent.text.lower()
    if "not only" in low:
        return NOT_ONLY_FRAME
    m = re.search(r"\beverything (is|was|were)\b.*\bfrom\b.*\bto\b", low)
    if m:
        return "the frame 'everything is ... from ... to' ties its parts' polarity: a reversal inside it would clash"
    m = re.search(r"\b(and|but) so (is|was|are|were|does|did|do|has|had)\b", low)
    if m:
        return f"the frame {m.group(0)!r} repeats the clause's polarity: a reversal before it would clash"
    m = _ONLY_FRAME.search(low)
    if m:
        return (f"the frame {m.group(0)!r} already carries the opinion: a reversal inside it reads as nonsense "
                "(*the only thing I don't dislike is not the touchpad*)")
    return summary_frame(sent.text) or not_just_frame(sent.text)


_NOT_ONLY = re.compile(r"not only (is|was|are|were) (the|their|our|this|its|his|her|my) ", re.IGNORECASE)
_NOT_ONLY_DETAIL = "the reversed opinion no longer fits the 'not only ... but' frame: its clause becomes a statement"


def not_only_rewrite(sent: Sent, prep: Prepared, pa: PreparedAspect) -> list[CharEdit]:
    """The edits that turn *Not only is the service great, but ...* into a plain statement, *The service is
    great, but ...* (and *but also* into *but*), so that the reversal (*The service is terrible, but forming
    conversation is so easy*) reads as a contrast; empty where the form is not exactly that: the frame opens the
    sentence, the target is the subject between the inverted copula and its opinion, and no other aspect's
    opinion sits in the first clause."""
    p, t = sent.parse, sent.text
    toks = [w.lower() for w in p.tokens]
    if not _NOT_ONLY.match(t) or toks[:2] != ["not", "only"]:
        return []
    but = next((j for j in range(4, len(toks) - 2) if toks[j] == "," and toks[j + 1] == "but"), None)
    if but is None or not pa.opinions:
        return []
    f, e = min(a for a, _ in pa.opinions), max(b for _, b in pa.opinions)
    if not (pa.span[0] > 3 and pa.span[1] <= f and e <= but):
        return []
    if any(p.upos[j] in ("VERB", "AUX", "PUNCT", "CCONJ") for j in range(4, f)):
        return []
    if any(o is not pa and o.opinion_tokens() & set(range(but)) for o in prep.aspects):
        return []
    det = p.tokens[3]
    out = [CharEdit(sent.offsets[0][0], sent.offsets[3][1], upper_first(det), t[sent.offsets[0][0]:sent.offsets[3][1]],
                    "frame_rewritten", _NOT_ONLY_DETAIL),
           CharEdit(sent.offsets[f - 1][1], sent.offsets[f - 1][1], " " + toks[2], "", "frame_rewritten",
                    _NOT_ONLY_DETAIL)]
    if toks[but + 2] == "also":
        out.append(CharEdit(sent.offsets[but + 1][1], sent.offsets[but + 2][1], "",
                            t[sent.offsets[but + 1][1]:sent.offsets[but + 2][1]], "frame_rewritten", _NOT_ONLY_DETAIL))
    return out
