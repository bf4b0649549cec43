"""Token edits shared by the strategies (docs/protocols/arts.md#reverse-opinion, #revtgt conjunction rule,
docs/protocols/arts.md#revnon exaggeration).

An edit replaces a token span of the working list by one merged token and remembers *why*: the
operation (``antonym``, ``negation_removed``, ``negation_added``, ``copula_negated``, ``degree_adverb``,
``and_to_but``, ``but_to_and``) and its source (the WordNet lemma an antonym came from, the cue removed,
the adverb drawn). That record is the variant's provenance.

Faithful vs corrected (docs/protocols/arts.md#faithful-vs-corrected): with ``faithful`` the original's behaviour is kept
where the release shows it (a mid-span negation shrinks the span end; edits are applied left to right without re-basing
later indices; the ``and``-in-term test is a substring test; the distance to a preceding ``and`` is measured
from the target end; the ``but``->``and`` rule never fires). Corrected mode fixes each of these.
"""
from __future__ import annotations

import random
from collections.abc import Callable, Sequence
from dataclasses import asdict, dataclass

from .resources import Antonym, Parse, wordnet_pos
from .text import COPULAS, DEGREE_ADVERBS, DELETE, detokenize, negation_cues

_BASE_TAGS = frozenset({"JJ", "NN", "NNP", "VB", "VBP", "RB"})
"""PTB tags of uninflected forms: an antonym (a WordNet base form) keeps the tag only in these slots."""


@dataclass(frozen=True)
class Edit:
    """One edit: token span ``[start, end)`` of the working list -> ``text`` (one merged token)."""

    start: int
    end: int
    text: str
    op: str
    source: str
    before: str

    def to_dict(self) -> dict:
        return asdict(self)


@dataclass
class EditContext:
    """What the edit functions need: antonyms, tags, the in-domain vocabulary, the mode and the RNG.

    ``tags_for(tokens)`` returns a :class:`Parse` of a working token list (the source parse re-used by
    index in the default ``lexical`` mode; a real re-parse in ``retag`` mode).
    """

    antonyms: Callable[[str], tuple[Antonym, ...]]
    tags_for: Callable[[Sequence[str]], Parse]
    vocab: frozenset[str]
    rng: random.Random
    faithful: bool = False
    pos_check: str = "lexical"
    choice: str = "first"


def _adapt_case(orig: str, cand: str, at_start: bool) -> str:
    if orig.isupper() and len(orig) > 1:
        cand = cand.upper()
    elif orig[:1].isupper():
        cand = cand[:1].upper() + cand[1:]
    if at_start:
        cand = cand[:1].upper() + cand[1:]
    return cand


def _pos_ok(ctx: EditContext, tokens: list[str], i: int, parse: Parse, cand: str, ant: Antonym) -> bool:
    """Does the candidate keep the PTB tag at ``i``? (re-tagged, or judged from the tag and WordNet POS)."""
    tag = parse.tags[i] if i < len(parse.tags) else ""
    if ctx.pos_check == "retag":
        new = ctx.tags_for([*tokens[:i], cand, *tokens[i + 1:]])
        return i < len(new.tags) and new.tags[i] == tag
    return tag in _BASE_TAGS and wordnet_pos(tag) in ant.poses


def antonym_candidates(ctx: EditContext, tokens: list[str], i: int) -> list[tuple[str, Antonym]]:
    """Antonyms of ``tokens[i]`` that pass the POS check, in-vocabulary ones first
    (docs/protocols/arts.md#reverse-opinion step 2)."""
    word = tokens[i]
    ants = ctx.antonyms(word)
    if not ants:
        return []
    parse = ctx.tags_for(tokens)
    want = wordnet_pos(parse.tags[i]) if i < len(parse.tags) else None
    if not ctx.faithful or ctx.choice == "first":
        ants = tuple(sorted(ants, key=lambda a: a.rank(want)))  # senses of the word's own POS first
    in_vocab = [a for a in ants if a.text.lower() in ctx.vocab]
    for pool in (in_vocab, list(ants)):
        keep = []
        for a in pool:
            cand = _adapt_case(word, a.text, i == 0)
            if _pos_ok(ctx, tokens, i, parse, cand, a):
                keep.append((cand, a))
        if keep:
            return keep
    return []


def _find_cue(tokens: list[str], f: int, t: int) -> tuple[int, int] | None:
    """First negation cue (cue order of docs/protocols/arts.md#generation-machinery) inside ``[f, t)``: its token span,
    or None."""
    low = [w.lower() for w in tokens]
    for cue in negation_cues():
        n = len(cue)
        for j in range(f, t - n + 1):
            if tuple(low[j:j + n]) == cue:
                return j, n
    return None


def reverse(ctx: EditContext, tokens: Sequence[str], opinions: Sequence[tuple[int, int]]
            ) -> tuple[list[str], list[Edit]]:
    """Reverse the given opinion spans (docs/protocols/arts.md#reverse-opinion); returns the new token list and the
    edits made."""
    work = list(tokens)
    edits: list[Edit] = []
    done: list[tuple[int, int]] = []
    for f, t in opinions:
        if f >= len(work):
            continue  # faithful mode: an earlier collapsed span pushed this one past the end
        t = min(t, len(work))
        before = detokenize(work[f:t])
        cue = _find_cue(work, f, t)
        if cue is not None:
            j, n = cue
            removed = " ".join(work[j:j + n])
            work[j:j + n] = [DELETE] * n
            if j > f:
                if ctx.faithful:
                    t -= n
            else:
                f = j + n
            if (f, t) not in done:
                edits.append(Edit(f, t, detokenize(work[f:t]), "negation_removed", f"cue {removed!r}", before))
                done.append((f, t))
            continue
        if t - f > 1:
            if (f, t) not in done:
                edits.append(Edit(f, t, detokenize(["not " + work[f], *work[f + 1:t]]), "negation_added",
                                  "'not' before a multi-word opinion", before))
                done.append((f, t))
            continue
        if t - f != 1 or (f, t) in done:
            continue
        cands = antonym_candidates(ctx, work, f)
        if cands:
            cand, ant = ctx.rng.choice(cands) if ctx.choice == "random" else cands[0]
            edits.append(Edit(f, t, detokenize([cand]), "antonym", f"WordNet antonym of {ant.via}", before))
            done.append((f, t))
            continue
        upos = ctx.tags_for(work).upos
        if f < len(upos) and upos[f] in ("ADJ", "NOUN", "VERB"):
            edits.append(Edit(f, t, detokenize(["not", work[f]]), "negation_added", f"'not' before {upos[f]}",
                              before))
        else:
            cop = _nearest_copula(work, f)
            if cop is None:
                edits.append(Edit(f, t, detokenize(["not", work[f]]), "negation_added", "'not', no copula", before))
            else:
                edits.append(Edit(cop, cop + 1, detokenize([work[cop], "not"]), "copula_negated",
                                  f"'not' after the copula {work[cop]!r}", work[cop]))
        done.append((f, t))
    return apply_edits(work, edits, ctx.faithful), edits


def _nearest_copula(tokens: list[str], f: int) -> int | None:
    best, dist = None, None
    for i, w in enumerate(tokens):
        if w in COPULAS and (dist is None or abs(i - f) < dist):
            best, dist = i, abs(i - f)
    return best


def apply_edits(tokens: list[str], edits: Sequence[Edit], faithful: bool) -> list[str]:
    """Replace each edit's span by its merged token.

    Faithful: left to right with the original indices (a collapsed multi-token span shifts later ones,
    as in the original). Corrected: right to left, so every edit lands where it was computed.
    """
    out = list(tokens)
    order = edits if faithful else sorted(edits, key=lambda e: e.start, reverse=True)
    for e in order:
        out[e.start:e.end] = [e.text]
    return out


def exaggerate(ctx: EditContext, tokens: Sequence[str], opinions: Sequence[tuple[int, int]]
               ) -> tuple[list[str], list[Edit]]:
    """Insert a random degree adverb before each opinion span, merged into one token (docs/protocols/arts.md#revnon step
    4)."""
    work = list(tokens)
    edits = []
    for f, t in opinions:
        adv = DEGREE_ADVERBS[ctx.rng.randint(0, len(DEGREE_ADVERBS) - 1)]
        edits.append(Edit(f, t, " ".join([adv, *work[f:t]]), "degree_adverb", f"degree adverb {adv!r}",
                          detokenize(work[f:t])))
        if ctx.faithful:
            work[f:t] = [edits[-1].text]
    if not ctx.faithful:
        work = apply_edits(work, edits, False)
    return work, edits


def conjunction(ctx: EditContext, tokens: list[str], term: str, term_span: tuple[int, int],
                old: str = "and", new: str = "but") -> Edit | None:
    """Turn the ``old`` conjunction nearest to the target into ``new`` (docs/protocols/arts.md#revtgt), in place; the
    edit or None.

    Allowed: after the target (index > target end, not among the last 3 tokens) or before it
    (index < target start and > 3). Faithful: the ``and``-in-term test is a substring test, the
    distance to a preceding conjunction is measured from the target end, and the token right after the
    target (index == target end, exclusive) is never chosen; corrected mode allows it.
    """
    if ctx.faithful:
        if old in term.lower():
            return None
    elif old in term.lower().split():
        return None
    tf, tt = term_span
    best, dist = -1, None
    for i, w in enumerate(tokens):
        if w.lower() != old:
            continue
        d = None
        if (tt < i if ctx.faithful else tt <= i) and i < len(tokens) - 3:
            d = i - tt
        if 3 < i < tf:
            d = (tt if ctx.faithful else tf) - i
        if d is not None and (dist is None or d < dist):
            best, dist = i, d
    if best < 0:
        return None
    before = tokens[best]
    tokens[best] = new
    return Edit(best, best + 1, new, f"{old}_to_{new}", f"conjunction nearest the target ({old} -> {new})", before)
