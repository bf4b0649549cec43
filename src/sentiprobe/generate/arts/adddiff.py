"""AddDiff, AddDiff(k) and the phrase pools they draw from (docs/protocols/arts.md#aspectset, #adddiff,
#adddiff-variations).

Phrase sources (a switch, ``phrase_source``):

- ``template`` (default; what the released set contains): short clauses built from (term, opinion)
  pairs of the *input* file's own opinion annotations: ``<term> is <opinion>`` for adjectival opinions,
  ``<term> is a <noun>`` (singularised) for noun opinions, ``I [don't] <verb> <term>`` for verbs;
- ``mined``: the same clauses built from a training file's pairs (``--pool FILE``, e.g.
  ``train_sent_towe.json``), so no test annotation leaks into the appended text;
- ``aspectset``: the shipped AspectSet phrases (``--aspectset FILE``) with term and label recovered
  from the training file's pairs; phrases matching no pair or pairs of several labels are discarded.

Sampling: the pool of the opposite label (positive and negative pooled for a neutral target, as in the
release), ``k`` drawn from {1, 2, 3} unless fixed, entries drawn again when a drawn term is an aspect of
the sentence. In the corrected mode no clause is appended to more variants of one strategy than
:data:`CLAUSE_CAP` of the file's targets (:func:`clause_cap`): a clause that has served its share leaves the pool,
k is lowered when the remaining capacity is short, and a pool that still runs out gives counted refusals
instead of one clause repeated across the file. The corrected mode also redraws a clause whose term shares a
content word with an aspect or noun of the sentence (:func:`sentence_lemmas`), keeps one polarity per variant,
and refuses a source that cannot take an appended contrast (:func:`unfit_source`). Faithful mode keeps the
original's quirks: the final mark is always ``.``, the ``but``/
``although`` connector test is a raw substring test and the exclusion test is case-sensitive.
"""
from __future__ import annotations

import math
import random
import re
from collections import Counter
from collections.abc import Sequence
from dataclasses import dataclass
from pathlib import Path
from typing import Any

from ...suites.arts.load import load_aspectset
from .fit import OVERALL, VISIT, clash, content_lemmas, head_word, sentence_lemmas, unfit_source
from .polarity import LABEL_SIGN, Polarity
from .resources import Parse
from .site import sign_label
from .strategies import Prepared, Variant, aspect_terms, suffix, term_labels
from .text import detokenize, negation_cues, tokenize

PHRASE_SOURCES = ("auto", "template", "mined", "aspectset", "clauses")
MAX_DRAWS = 200
MAX_CLAUSES = 2
"""Most clauses one corrected variant appends: a third reads as a run-on pile of unrelated statements (*..., but sound
is good, the design is awesome and the battery life is very long*)."""
CLAUSE_CAP = 0.02
"""Largest share of a file's variants of one AddDiff strategy that one clause may serve (corrected mode)."""


def clause_cap(targets: int, share: float = CLAUSE_CAP) -> int:
    """Variants one clause may serve in a file with ``targets`` AddDiff targets: ``share`` of them, at least 1
    (below 1 / share targets the cap cannot hold: every clause then serves one variant)."""
    return max(1, math.floor(share * targets))


def over_cap(variants: Sequence[Variant], share: float = CLAUSE_CAP) -> dict[str, str]:
    """AddDiff variants to drop so that no clause serves more than ``share`` of the variants of its strategy that
    are kept, each with the clause that is over its cap.

    The draw caps a clause at ``share`` of the file's *targets* (the number of variants is known only after it),
    so where the pool runs short and targets are refused, a clause can end above ``share`` of the variants made.
    The last variants in file order that would take a clause past ``clause_cap(kept)`` are dropped, and the cap is
    recomputed on what is kept until it holds (dropping lowers the count and with it the cap)."""
    dropped: dict[str, str] = {}
    while True:
        new: dict[str, str] = {}
        kinds = sorted({v.kind for v in variants if v.appended})
        for kind in kinds:
            kept = [v for v in variants if v.kind == kind and v.appended and v.key not in dropped]
            cap = clause_cap(len(kept), share)
            seen: Counter = Counter()
            for v in kept:
                texts = sorted({a["text"] for a in v.appended})
                full = [t for t in texts if seen[t] >= cap]
                if full:
                    new[v.key] = full[0]
                else:
                    seen.update(texts)
        if not new:
            return dropped
        dropped.update(new)


def variety(variants: Sequence[Variant]) -> dict[str, dict[str, Any]]:
    """Per AddDiff strategy: variants, distinct appended clauses and the largest share one clause serves."""
    by: dict[str, Counter] = {}
    n: Counter = Counter()
    for v in variants:
        if v.appended:
            n[v.kind] += 1
            by.setdefault(v.kind, Counter()).update({a["text"] for a in v.appended})
    out = {}
    for kind in sorted(by):
        text, top = by[kind].most_common(1)[0]
        out[kind] = {"variants": n[kind], "distinct_clauses": len(by[kind]), "largest_share": round(top / n[kind], 4),
                     "most_used": text, "most_used_variants": top}
    return out


@dataclass(frozen=True)
class PoolEntry:
    """One appendable clause: its text, term, label and where it came from."""

    text: str
    term: str
    label: str
    origin: str
    form: str

    def to_dict(self) -> dict[str, str]:
        return {"text": self.text, "term": self.term, "label": self.label, "origin": self.origin, "form": self.form}


def _singular(word: str, wn) -> str:
    if wn is None:
        return word[:-1] if word.endswith("s") and not word.endswith("ss") else word
    base = wn.morphy(word, "n")
    return base or word


def _verb_base(word: str, wn) -> str:
    base = wn.morphy(word, "v") if wn is not None else None
    return base or word


def clause(term: str, op_tokens: Sequence[str], op_tags: Sequence[str], term_tags: Sequence[str], *,
           faithful: bool, wn=None) -> tuple[str, str]:
    """The template clause for one (term, opinion) pair and its form (``adj``/``noun``/``verb``)."""
    toks = [t.lower() for t in op_tokens]
    tags = list(op_tags)
    negated = False
    low = tuple(toks)
    for cue in negation_cues():
        if low[:len(cue)] == cue and len(low) > len(cue):
            toks, tags, negated = toks[len(cue):], tags[len(cue):], True
            break
    head_tag = tags[-1] if tags else "JJ"
    plural = bool(term_tags) and term_tags[-1] in ("NNS", "NNPS") and not faithful
    cop = "are" if plural else "is"
    if head_tag.startswith("VB") and head_tag not in ("VBN",) and len(toks) == 1:
        verb = _verb_base(toks[0], wn)
        return (f"I don't {verb} {term}" if negated else f"I {verb} {term}"), "verb"
    neg = " not" if negated else ""
    if head_tag.startswith("NN") and len(toks) == 1:
        noun = _singular(toks[0], wn) if head_tag in ("NNS", "NNPS") else toks[0]
        art = "an" if (not faithful and noun[:1] in "aeiou") else "a"
        return f"{term} {cop}{neg} {art} {noun}", "noun"
    return f"{term} {cop}{neg} {detokenize(toks)}", "adj"


def template_pool(preps: Sequence[Prepared], origin: str, *, faithful: bool, wn=None) -> list[PoolEntry]:
    """Clauses from every (term, last opinion) pair of the prepared sentences, in file order."""
    out = []
    for p in preps:
        for pa in p.aspects:
            if not pa.opinions:
                continue
            f, t = pa.opinions[-1]
            tf, tt = pa.span
            text, form = clause(pa.aspect.term, p.tokens[f:t], p.parse.tags[f:t], p.parse.tags[tf:tt],
                                faithful=faithful, wn=wn)
            out.append(PoolEntry(text, pa.aspect.term, pa.aspect.polarity, f"{origin}#{pa.aspect.id}", form))
    return out


def aspectset_pool(phrases: Sequence[str], pairs: Sequence[tuple[str, str, str]], origin: str) -> list[PoolEntry]:
    """AspectSet phrases with (term, label) recovered from training pairs (term, opinion, label),
    docs/protocols/arts.md#aspectset."""
    by_term: dict[str, set[tuple[str, str]]] = {}
    for term, op, lab in pairs:
        by_term.setdefault(" ".join(tokenize(term.lower())), set()).add((" ".join(tokenize(op.lower())), lab))
    out = []
    for n, phrase in enumerate(dict.fromkeys(p.strip() for p in phrases if p.strip())):
        padded = f" {phrase} "
        labels: set[str] = set()
        found = None
        for term, ops in by_term.items():
            if f" {term} " not in padded:
                continue
            for op, lab in ops:
                if f" {op} " in padded:
                    labels.add(lab)
                    found = found or term
        if found is None or len(labels) != 1:
            continue
        out.append(PoolEntry(detokenize(phrase.split()), found, labels.pop(), f"{origin}:{n + 1}", "phrase"))
    return out


def pools_by_label(entries: Sequence[PoolEntry]) -> dict[str, list[PoolEntry]]:
    """Pool per target label: the opposite label; positive and negative together for neutral."""
    pos = [e for e in entries if e.label == "positive"]
    neg = [e for e in entries if e.label == "negative"]
    return {"positive": neg, "negative": pos, "neutral": pos + neg}


def _join(parts: Sequence[str]) -> str:
    if len(parts) == 1:
        return parts[0]
    return ", ".join(parts[:-1]) + " and " + parts[-1]


_CONTRAST = re.compile(r"\b(but|although)\b", re.IGNORECASE)

_CONJ = frozenset({"and", "but", "or", "so", "yet", "nor"})




def append_clauses(source: str, parts: Sequence[str], faithful: bool, opposed: bool = True) -> str:
    """Join the clauses to the source sentence (docs/protocols/arts.md#adddiff connector and final-mark rules);
    ``opposed=False`` (corrected mode, :func:`contrasts`): the clauses agree with the sentence's last
    evaluation or follow a neutral one, and *and* joins them. In the corrected mode a contrast after a sentence that
    already holds *but* is said with *; still,* (*Great food but the service was dreadful; still, the fish is good*;
    *that said* where the sentence has a *still*): a bare ``;`` read as one more item of the sentence (*the bar looks
    nice; the seats are uncomfortable*)."""
    body = source.rstrip()
    final = "."
    if not faithful and body[-1:] in ("!", "?"):
        final = body[-1]
    body = body.rstrip(".?!").rstrip()
    if not faithful:  # a dangling dash (*... any other brand-*) before the joint: *brand-, but*
        body = body.rstrip("-–— ").rstrip() or body
    appended = _join(parts)
    if faithful:
        contrast = "but" in body or "although" in body
    else:
        contrast = bool(_CONTRAST.search(body))
    if not faithful and appended.split(" ", 1)[0].lower() in _CONJ:
        return f"{body}. {appended[:1].upper()}{appended[1:]}{final}"
    if not faithful and not opposed:
        return f"{body}, and {appended}{final}"
    if not faithful and contrast:  # a second *but* would double the first; a bare ``;`` leaves the contrast unsaid
        turn = "that said" if re.search(r"\bstill\b", body, re.IGNORECASE) else "still"
        return f"{body}; {turn}, {appended}{final}"
    return f"{body}{'; ' if contrast else ', but '}{appended}{final}"


def _marks(prep: Prepared, labels: dict[str, str]) -> list[tuple[int, int, str]]:
    """Per aspect: where its term or opinion ends last, its polarity sign under ``labels`` and its id."""
    return [(max([o.aspect.end] + [b for _, b in o.aspect.opinions]), LABEL_SIGN.get(labels.get(o.aspect.id, ""), 0),
             o.aspect.id) for o in prep.aspects]


def last_sign(prep: Prepared, labels: dict[str, str]) -> int:
    """The polarity sign (under ``labels``) of the sentence's last evaluated aspect: of its polar aspects, the one
    whose term or opinion ends last (a neutral aspect evaluates nothing); 0 when none is polar."""
    polar = [m for m in _marks(prep, labels) if m[1]]
    return max(polar)[1] if polar else 0


_TURN = re.compile(r"\b(?:but|though|although|however|yet|except|unfortunately|sadly|only)\b|[;.!?](?:\s|$)",
                   re.IGNORECASE)
"""Words and marks with which a sentence turns from one evaluation to another (*Great food but the service was
dreadful*, *... ; the only downside ...*)."""
_EMBED = re.compile(r"\b(?:which|that|who|whom|whose|than|compared|if|because|since|so|unless)\b", re.IGNORECASE)
"""Words that open a structure inside a statement: a relative clause, a comparison, a condition, a consequence."""


def _embedded(prep: Prepared, labels: dict[str, str], target: str, sentence: str) -> bool:
    """Whether the last evaluation, after ``target``, sits inside the target's own statement: a relative clause (*the
    warranty, which covers spills that are not covered by AppleCare*), a comparison (*a better deal than overpriced
    sandwiches*), a condition or a consequence (*so good that waiting is a nightmare*), with no turn (:data:`_TURN`)
    between them. The sentence then reads with the target's polarity, and a clause against the target needs *but*,
    not the additive *and*; two coordinated statements (*the screen is bright and the battery is weak*) stay two."""
    marks = _marks(prep, labels)
    own = [m for m in marks if m[2] == target]
    polar = [m for m in marks if m[1]]
    if not own or not polar or sentence != prep.sentence.text:  # (a RevNon output: the offsets do not hold)
        return False
    between = sentence[own[0][0]:max(polar)[0]]
    return bool(_EMBED.search(between)) and not _TURN.search(between)


_TURN_WORD = re.compile(r"\b(?:but|although|though|however|yet|otherwise)\b", re.IGNORECASE)


def _turned(prep: Prepared, labels: dict[str, str], sentence: str, lexicon: Polarity) -> int:
    """The ``lexicon``'s sign of what the sentence says after a *but* (or *though* ...) that follows its last polar
    aspect, or 0: there the sentence turns to an evaluation no aspect carries (*Food was decent, but not great*; *it's
    not in a convenient location but is more like a hidden treasure*), and that is what it says last; where the
    lexicon reads nothing there, the turn itself says the opposite of the last aspect."""
    end, last, aid = max(((m[0], m[1], m[2]) for m in _marks(prep, labels) if m[1]), default=(0, 0, ""))
    # (a turn between two opinions of the last aspect counts too: *Food was decent, but not great*, both annotated)
    ops = sorted(next((o.aspect.opinions for o in prep.aspects if o.aspect.id == aid), []))
    first = ops[0][1] if len(ops) > 1 else end
    turns = [m for m in _TURN_WORD.finditer(sentence) if m.start() >= first]
    # a tail the lexicon cannot read turns from the last aspect all the same (*The food was good, but when all was
    # said and done, I couldn't justify it for the price*)
    tail = sentence[turns[-1].end():] if turns else ""
    return ((-1 if _WANTING.search(tail) else lexicon.phrase(tail)) or -last) if turns else 0


def contrasts(prep: Prepared, labels: dict[str, str], label: str, sentence: str = "",
              lexicon: Polarity | None = None, target: str | None = None) -> bool:
    """Whether clauses of ``label`` appended to the sentence contrast what it says last (corrected mode): only an
    opposite last evaluation takes *but* (*The screen is great, but the keyboard is awful*); after one of the same
    polarity, or in a sentence that evaluates no aspect, a *but* contrasts nothing (*the battery is bad, but the
    keyboard is awful*; *No HDMI port, but the warranty company is horrible*), so *and* joins them. Where no
    aspect is polar, the ``lexicon``'s reading of the whole ``sentence`` stands in for the last evaluation (*I went
    there for brunch and I was so impressed, but the menu is very limited*); where the sentence turns after its last
    polar aspect, its reading of what follows the turn stands in (:func:`_turned`: *Food was decent, but not great, and
    the manager is incompetent*); after an exclusive evaluation (*the only positive thing I can say*) a clause of the
    other polarity says what it implies, and *and* joins it. With the ``target``'s id, a clause
    against the target after a last evaluation that agrees with the clause takes *but* all the same where that
    last evaluation sits inside the target's statement (:func:`_embedded`: *I chose the warranty, which covers
    spills that AppleCare does not, but Vista is a nightmare*)."""
    last = last_sign(prep, labels)
    if not last and lexicon is not None:
        last = lexicon.phrase(sentence)
    elif lexicon is not None and sentence == prep.sentence.text:
        last = _turned(prep, labels, sentence, lexicon) or last
    wish = [m for m in _WISH_TAIL.finditer(sentence)]
    if wish and (sentence != prep.sentence.text or wish[-1].start() >= max(
            (m[0] for m in _marks(prep, labels) if m[1]), default=0)):
        last = -1  # *So happy with this purchase, I just wish it came with Word, but the keys are wonderful*
    sign = LABEL_SIGN.get(label, 0)
    if sentence and exclusive(sentence)[0] == -sign != 0:
        return False  # *that's the only positive thing I can say, and the hostess is rude*: the rest is said
    if last == -sign != 0:
        return True
    return (target is not None and last == sign != 0 and LABEL_SIGN.get(labels.get(target, ""), 0) == -sign
            and _embedded(prep, labels, target, sentence))


ADDITIVE = re.compile(r"^\W*(?:even|also|still|too)\b|\b(?:also|too|either|as well)\W*$|\balso\b|"
                      r"\b(?:best|worst) of all\b|\bon top of (?:that|it|this)\b|"
                      r"(?<!not )(?<!n't )(?<!never )\beven\s+(?!(?:more|less|better|worse|though|if|when|so|than)\b"
                      r"|\w+er\b)\w|(?<!not )(?<!n't )(?<!never )\beven\s+(?:more|less|better|worse|\w+er)\b"
                      r"(?!.*\bthan\b)", re.IGNORECASE)
"""An additive or scalar focus (*even the wine was good*, *color is even cool*, *their coffee is quite good too*,
*there is also ...*, *the calamari was even better*, *best of all is the warm vibe*) presupposes an earlier
statement of the same polarity: after a contrasting *but* it reads as stitched. A scalar *even* before a comparative
with its *than* (*even smaller than before*) or after a negation (*isn't even worth it*) compares with what it names
or the expected, and stays."""

_ONLY = re.compile(r"\bonly\b((?:\W+\w+){0,4})", re.IGNORECASE)
_ONLY_SIGN = {**{w: -1 for w in ("complaint", "complaints", "problem", "problems", "downside", "drawback", "negative",
                                  "issue", "gripe", "flaw", "dislike", "disliked", "miss", "hate", "bad", "wrong",
                                  "disappointment", "regret", "con", "downfall", "downfalls", "shortcoming", "weakness",
                                  "annoyance")},
              **{w: 1 for w in ("positive", "good", "redeeming", "like", "liked", "love", "loved", "enjoyed",
                                "plus", "upside", "decent", "saving", "great")}}


def exclusive(sentence: str) -> tuple[int, str]:
    """The polarity of an exclusive evaluation in ``sentence`` (*the only positive thing I can say*, *my only
    complaint*) and its words, or ``(0, "")``: an appended clause of that polarity contradicts it."""
    for m in _ONLY.finditer(sentence):
        for w in re.findall(r"\w+", m.group(1).lower()):
            if w in _ONLY_SIGN:
                return _ONLY_SIGN[w], m.group(0).strip()
    return 0, ""


_WISH_TAIL = re.compile(r"\b(?:I|we)(?: \w+)? wish(?:ed)?\b(?! (?:I|we) (?:had|'d|could)\b)|\bif only\b|"
                        r"\b(?:I|we) would have (?:liked|preferred)\b|\bwould(?: have|'ve) been (?:nice|better)\b",
                        re.IGNORECASE)
"""A wish for what the thing lacks (*I just wish it came with Word*), the sentence's last word: it reads as a
complaint, so a clause of praise after it turns (*but*), where the lexicon reads the wish as praise or nothing. A
wish to have come sooner (*I wish I had found it earlier*) is praise and is not one."""
_WANTING = re.compile(r"\b(?:needs?|needed) (?:to be |some )?improv\w*|\bcould (?:be|use) (?:better|improv\w*)|"
                      r"\broom for improvement\b", re.IGNORECASE)
"""A wish for improvement (*some things need to be improved*): the lexicon reads *improved* as praise."""


def _tail_sign(sentence: str, lexicon: Polarity, prep: Prepared, labels: dict[str, str]) -> int:
    """The sign of what the sentence says after its last *but* (or *although*): the ``lexicon``'s reading, a wish
    for improvement (:data:`_WANTING`) read as a complaint, or else the label of the last polar aspect there (not
    after an opening *But*)."""
    last = list(_CONTRAST.finditer(sentence))[-1]
    at = last.end()
    tail = sentence[at:]
    sign = -1 if _WANTING.search(tail) else lexicon.phrase(tail)
    if sign or sentence != prep.sentence.text or not sentence[:last.start()].strip(" \"'(*-"):
        return sign  # (an opening *But* answers the sentence before: no aspect here says what it turns to)
    after = [m for m in _marks(prep, labels) if m[1] and m[0] > at]
    return max(after)[1] if after else 0


def _roomiest(pool: list[PoolEntry], uses: Counter, cap: int, draw_n: int) -> list[PoolEntry]:
    """A neutral target's pool narrowed to the polarity with the most capacity left: either polarity suits it, while
    each polar target has one, and the scarcer pool (the negative clauses of a file of mostly positive targets) is
    kept for the targets that can use nothing else."""
    left: Counter = Counter()
    for e in pool:
        left[e.label] += cap - uses[e.text]
    if not left:
        return pool
    best = max(sorted(left), key=lambda lab: left[lab])
    narrowed = [e for e in pool if e.label == best]
    return narrowed if len(narrowed) >= draw_n else pool


def _same_aspect(used: Sequence[PoolEntry]) -> bool:
    """Whether two of the appended clauses speak of one aspect under two names (*the display is awesome and the
    screen is nice*)."""
    seen: set[str] = set()
    for e in used:
        words = content_lemmas(e.term)
        if words & seen:
            return True
        seen |= words
    return False


def _announced(used: Sequence[PoolEntry], prep: Prepared, labels: dict[str, str], sentence: str) -> bool:
    """Whether an exclusive clause (*the only problem is ...*) follows a sentence that already says something of its
    polarity: an aspect so labelled, or a turn (*I like the design but there are some things to improve; still, the
    only problem is ...*): the sentence's own flaw is then not the only one."""
    for e in used:
        only = exclusive(e.text)[0]
        if only and (_CONTRAST.search(sentence) or any(LABEL_SIGN.get(labels.get(o.aspect.id, ""), 0) == only
                                                       for o in prep.aspects)):
            return True
    return False


def add_diff(rng: random.Random, prep: Prepared, aspect_id: str, sentence: str, start: int, end: int,
             pools: dict[str, list[PoolEntry]], *, k: int | None, faithful: bool, kind: str = "adddiff",
             base_labels: dict[str, str] | None = None, uses: Counter | None = None,
             cap: int | None = None, waiting: int = 1, lexicon: Polarity | None = None, wn: Any = None
             ) -> tuple[Variant | None, str | None]:
    """AddDiff on ``sentence`` (the source, or a RevNon output for ``revnon_adddiff``); label unchanged.

    With ``uses`` and ``cap`` (corrected mode), clauses already appended to ``cap`` variants are not drawn, and
    the clauses used are counted in ``uses``; a drawn ``k`` is lowered to what the pool's remaining capacity
    allows per target still ``waiting`` for this pool (this one included), so a tight pool serves every target
    with fewer clauses each instead of running out half-way through the file. In the corrected mode the joint
    follows :func:`contrasts` (``lexicon``: its fallback), a first clause with an additive (*even*, *too*) is
    redrawn where the joint is a contrast, a clause with an exclusive evaluation (*the only downfall is ...*) is
    appended only alone and as a contrast, clauses of an exclusive evaluation's polarity are not drawn, and a
    clause that would contradict the sentence's own evaluations (:func:`clash`; ``wn``: WordNet for food words) is
    redrawn.
    """
    pa = next(x for x in prep.aspects if x.aspect.id == aspect_id)
    full = pools.get(pa.aspect.polarity, [])
    pool = full if uses is None or cap is None else [e for e in full if uses[e.text] < cap]
    want = k if k is not None else None
    draw_n = max(3, want or 0) if faithful else (want or 1)
    if len(pool) < draw_n:
        if len(full) >= draw_n:
            return None, (f"every clause of the pool for a {pa.aspect.polarity} target already serves its cap of "
                          f"{cap} variants ({CLAUSE_CAP:.0%} of the file's targets)")
        return None, f"the phrase pool for a {pa.aspect.polarity} target has {len(pool)} entries (< {draw_n})"
    labels = dict(base_labels) if base_labels is not None else term_labels(prep)
    if not faithful:
        unfit = unfit_source(sentence)
        if unfit:
            return None, unfit
        only, words = exclusive(sentence)
        if only:  # the pool's clauses of the exclusive evaluation's polarity would contradict it
            pool = [e for e in pool if LABEL_SIGN.get(e.label, 0) != only]
            if len(pool) < draw_n:
                return None, (f"the sentence's exclusive evaluation ({words!r}) "
                              f"would be contradicted by an appended {sign_label(only)} clause")
        if lexicon is not None and _CONTRAST.search(sentence):
            tail = _tail_sign(sentence, lexicon, prep, labels)
            # after a *but*, a clause against what follows it takes *; still,*, one that agrees takes *and*; a tail
            # the lexicon cannot read leaves *still* nothing to turn from
            turned = [e for e in pool if tail == -LABEL_SIGN.get(e.label, 0)
                      or not contrasts(prep, labels, e.label, sentence, lexicon, aspect_id)]
            if len(turned) < draw_n:
                return None, ("the sentence turns with 'but' to what reads neither way (but that may be my fault): "
                              "an appended '; still,' clause has no evaluation to turn from")
            pool = turned
        clear = [e for e in pool if not clash(e, prep, labels, sentence, wn)]
        if len(clear) < draw_n:
            if len(pool) < len(full) and sum(not clash(e, prep, labels, sentence, wn) for e in full) >= draw_n:
                return None, (f"every clause of the pool that fits the sentence already serves its cap of {cap} "
                              f"variants ({CLAUSE_CAP:.0%} of the file's targets)")
            return None, ("every clause of the pool would contradict the sentence's own evaluations (the same price, "
                          "the whole of an evaluated part, a verdict on the whole visit, a total failure)")
        pool = clear
        if pa.aspect.polarity == "neutral" and uses is not None and cap is not None:
            pool = _roomiest(pool, uses, cap, draw_n)
    # after a verdict on the whole visit (*such a terrible meal*, *highly recommended*) one concession reads; a pile
    # of clauses against it contradicts it
    one = not faithful and want is None and (bool(OVERALL.search(sentence)) or any(
        head_word(o.aspect.term) in VISIT and LABEL_SIGN.get(labels.get(o.aspect.id, ""), 0) != 0
        for o in prep.aspects))
    terms = aspect_terms(prep)
    exact = set(terms)
    related = set() if faithful else sentence_lemmas(prep)
    folded = {t.lower() for t in terms}
    words = f" {' '.join(re.findall(r'[a-z0-9]+', sentence.lower()))} "
    for _ in range(MAX_DRAWS):
        n = want if want is not None else rng.randint(1, 3)
        if not faithful:
            n = min(n, len(pool), 1 if one else MAX_CLAUSES)
            if want is None and uses is not None and cap is not None:
                left = sum(cap - uses[e.text] for e in pool)
                n = max(1, min(n, left // max(1, waiting)))
            draw_n = n
        idx = rng.sample(range(len(pool)), draw_n)
        drawn = [pool[i] for i in idx]
        used = drawn[:n]
        if not faithful and ADDITIVE.search(used[0].text):
            # a clause without an additive goes first: *but the service is slow and even the wine was bad*
            used.sort(key=lambda e: bool(ADDITIVE.search(e.text)))
        check = drawn if faithful else used
        if faithful and any(e.term in exact for e in check):
            continue
        if not faithful and (any(e.term.lower() in folded for e in check)
                             or len({e.term.lower() for e in used}) < len(used)
                             or any(f" {' '.join(re.findall(r'[a-z0-9]+', e.term.lower()))} " in words
                                    for e in check)  # an appended term the sentence mentions would blur its label
                             or any(content_lemmas(e.term) & related for e in check)  # battery / battery life
                             or _same_aspect(used)  # *the display is awesome and the screen is nice*
                             or _announced(used, prep, labels, sentence)
                             or len({e.label for e in used}) > 1  # a neutral target: one polarity per variant
                             or (ADDITIVE.search(used[0].text)
                                 and contrasts(prep, labels, used[0].label, sentence, lexicon, aspect_id))
                             # *the only downfall is ...* names the one flaw: alone, against what the sentence says
                             or (any(exclusive(e.text)[0] for e in used)
                                 and (len(used) > 1
                                      or not contrasts(prep, labels, used[0].label, sentence, lexicon, aspect_id)))):
            continue
        break
    else:  # (or, rarely, drew only additive clauses after a contrast)
        return None, "every draw from the phrase pool named an aspect of the sentence"
    if uses is not None:
        uses.update(e.text for e in used)
    text = append_clauses(sentence, [e.text for e in used], faithful,
                          faithful or contrasts(prep, labels, used[0].label, sentence, lexicon, aspect_id))
    for e in used:
        labels[f"appended:{e.term}"] = e.label
    key = aspect_id + (suffix(kind) if kind != "adddiff_k" else f"_adddiff_k{n}")
    v = Variant(key, aspect_id, kind if kind != "adddiff_k" else f"adddiff_k{n}", text, pa.aspect.term,
                pa.aspect.polarity, start, end, appended=[e.to_dict() for e in used], labels=labels)
    if text[start:end] != pa.aspect.term:
        v.notes.append(f"offsets {start}:{end} give {text[start:end]!r}, not the term {pa.aspect.term!r}")
    return v, None


def parse_tags(parse: Parse, span: tuple[int, int]) -> tuple[str, ...]:
    return parse.tags[span[0]:span[1]]


def phrase_pool_for(cfg: Any, preps: Sequence[Prepared], pool_preps: Sequence[Prepared], wn=None) -> list[PoolEntry]:
    """AddDiff's pool as the configuration's ``phrases`` says (``template``: the input's own opinion templates,
    ``mined``: those of the pool file, ``aspectset``: the released aspect set paired with the pool's opinions)."""
    if cfg.phrases == "template":
        return template_pool(preps, "input", faithful=cfg.faithful, wn=wn)
    if cfg.phrases == "mined":
        return template_pool(pool_preps, Path(cfg.pool_file or "").name, faithful=cfg.faithful, wn=wn)
    pairs = [(pa.aspect.term, p.sentence.text[pa.aspect.opinions[-1][0]:pa.aspect.opinions[-1][1]],
              pa.aspect.polarity) for p in pool_preps for pa in p.aspects if pa.aspect.opinions]
    return aspectset_pool(load_aspectset(cfg.aspectset_file or ""), pairs, Path(cfg.aspectset_file or "").name)
