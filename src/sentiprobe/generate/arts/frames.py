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
from .polarity import Polarity
from .strategies import Prepared, PreparedAspect

NOT_ONLY_FRAME = "the frame 'not only ... but' ties the clauses' polarity: a reversal inside it would clash"
"""The reason :func:`tied_frame` gives for *not only ... but*, the one frame :func:`not_only_rewrite` may undo."""
ONLY_FRAME = "already carries the opinion"
"""The words of the reason :func:`tied_frame` gives for *my only complaint is X*, the frame
:func:`complaint_frame_swap` may reverse as a whole."""
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
        return (f"the frame {m.group(0)!r} {ONLY_FRAME}: a reversal inside it reads as nonsense "
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


# ---- a complaint frame that is itself the opinion ---------------------------------------------------------------

_COMPLAINT_NOUN = re.compile(
    r"(?i)(?:^|(?<=[,;:(-] ))(?P<det>(?:my|the|our) )?(?P<q>only|biggest|main|one) (?P<n>(?:complaint|gripe|problem|"
    r"issue|downside|drawback|negative|flaw|concern)s?)(?P<tail> so far| about (?:it|this \w+|the \w+))?"
    r" (?P<cop>is|are|was|were|would be|might be|has to be|must be|has been|have been|had been) ")
_COMPLAINT_VERB = re.compile(
    r"(?i)(?:^|(?<=[,;:(-] ))(?P<det>the )(?P<q>only) (?P<n>things?) (?P<i>i|we) (?P<v>dislike|hate|don't like|do not "
    r"like)(?P<tail> so far| about (?:it|this \w+|the \w+))? (?P<cop>is|are|was|were|would be|might be|has been) ")
_PRAISE_VERB = {"dislike": "like", "hate": "love", "don't like": "like", "do not like": "like"}
_FINITE = frozenset({"VBZ", "VBP", "VBD", "MD"})
_COMPLEMENT_DET = frozenset({"the", "my", "its", "this", "that", "these", "those", "our", "their"})
FRAME_SWAP_DETAIL = "the complaint frame that carries the opinion turned into praise (*my only complaint* -> *my " \
                    "favorite thing*)"


def _frame_praise(m: re.Match[str]) -> tuple[int, str]:
    """Where the praise replacing the complaint frame starts and what it reads: *my only complaint* -> *my
    favorite thing*, *the biggest problem* / *biggest complaint* -> *the best thing* / *best thing*, *the only
    thing I dislike* -> *the thing I like most*."""
    plural = m.group("n").lower().endswith("s")
    if m.groupdict().get("v"):
        verb = _PRAISE_VERB[m.group("v").lower()]
        return m.start("q"), f"{'things' if plural else 'thing'} {m.group('i')} {verb} most"
    det = (m.group("det") or "").strip().lower()
    return m.start("q"), ("favorite " if det in ("my", "our") else "best ") + ("things" if plural else "thing")


def complaint_frame_swap(sent: Sent, prep: Prepared, pa: PreparedAspect, lexicon: Polarity) -> list[CharEdit]:
    """*Biggest complaint is Windows 8.* -> *Best thing is Windows 8.*, *The only thing I dislike about this laptop
    are the rubber pads* -> *The thing I like most about ...*: where the complaint frame is the target's whole
    opinion and names it as a plain noun phrase, a post-editor reverses the frame, not what it names (a reversal
    inside it reads as nonsense, :func:`tied_frame`). Empty unless the form is exactly that: the frame opens the
    sentence or a clause, the copula is followed by the target (after determiners only), every opinion span of
    the target lies inside the frame, no other aspect sits from the frame on, and nothing polar follows the
    target (*..., it is mushy* would keep the complaint)."""
    t = sent.text
    if pa.aspect.polarity != "negative":
        return []
    m = _COMPLAINT_VERB.search(t) or _COMPLAINT_NOUN.search(t)
    if m is None or not pa.opinions:
        return []
    toks = [i for i, (a, _) in enumerate(sent.offsets) if a >= m.end()]
    if not toks or toks[0] > pa.span[0]:
        return []
    between = [sent.parse.tokens[i].lower() for i in range(toks[0], pa.span[0])]
    if any(w not in _COMPLEMENT_DET for w in between):
        return []
    lo, hi = m.start(), m.end()
    if any(not (lo <= sent.chars(*sp)[0] and sent.chars(*sp)[1] <= hi) for sp in pa.opinions):
        return []
    if any(o is not pa and sent.chars(*o.span)[1] > lo for o in prep.aspects):
        return []
    rest = t[sent.chars(*pa.span)[1]:]
    if any(lexicon.word(w.strip(".,;:!?\"'()")) for w in rest.split()) or lexicon.phrase(rest) != 0:
        return []
    after = range(pa.span[1], len(sent.parse.tokens))
    if any(sent.parse.tags[i] in _FINITE or sent.parse.tokens[i] in (",", ";", ":", "-", "(") for i in after):
        return []  # *..., it is often unresponsive*, *... which is flimsy*: the complaint goes on
    start, praise = _frame_praise(m)
    end = m.end("v") if m.groupdict().get("v") else m.end("n")
    old = t[start:end]
    if old[:1].isupper():
        praise = praise[:1].upper() + praise[1:]
    return [CharEdit(start, end, praise, old, "frame_reversed", FRAME_SWAP_DETAIL)]
