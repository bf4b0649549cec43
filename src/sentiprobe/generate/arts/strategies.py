"""RevTgt and RevNon (docs/protocols/arts.md#revtgt, #revnon) over prepared sentences, and the variant record.

A :class:`Prepared` sentence holds the Treebank tokens, the one spaCy parse of them and each aspect's
token spans. The strategies only edit token lists (see :mod:`.edits`), so every sentence is parsed once.
Each :class:`Variant` carries its provenance: the strategy, the edits (span, old and new text, operation
and source) and the label of every aspect of the new sentence.
"""
from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass, field
from typing import Any

from ...suites.arts.formats import FLIP
from .edits import Edit, EditContext, conjunction, exaggerate, reverse
from .inputs import Aspect, Sentence
from .resources import Parse
from .text import (
    capitalise_like,
    detokenize,
    offsets_corrected,
    offsets_faithful,
    token_offsets,
    token_span,
    token_span_aligned,
    tokenize,
)

SUFFIX = {"revtgt": "_adv1", "revnon": "_adv2", "adddiff": "_adv3", "revnon_adddiff": "_revnon_adddiff"}
"""Key suffix per strategy (docs/protocols/arts.md#enriched-sets, #adddiff-variations); AddDiff(k) uses
``_adddiff_k<k>``."""


def suffix(kind: str) -> str:
    return SUFFIX.get(kind, f"_{kind}")


@dataclass(frozen=True)
class PreparedAspect:
    """An aspect with token spans: ``span`` of the term, ``opinions`` (token spans) and their strings."""

    aspect: Aspect
    span: tuple[int, int]
    opinions: tuple[tuple[int, int], ...]
    opinion_strings: tuple[str, ...]

    def opinion_tokens(self) -> set[int]:
        """The indices of every token of the aspect's opinion spans."""
        return {i for f, t in self.opinions for i in range(f, t)}


@dataclass(frozen=True)
class Prepared:
    """A sentence ready for editing: its text, tokens, parse and prepared aspects."""

    sentence: Sentence
    tokens: tuple[str, ...]
    parse: Parse
    aspects: tuple[PreparedAspect, ...]


def prepare_aspects(sentence: Sentence, tokens: Sequence[str] | None = None) -> tuple[PreparedAspect, ...]:
    """Token spans of every aspect and opinion.

    Without ``tokens`` (faithful mode), the docs/protocols/arts.md#generation-machinery rule: tokenise the stripped
    prefix and the span. With the sentence's ``tokens`` (corrected mode), the tokens overlapping each character span,
    found through the tokens' own offsets: one tokenisation per sentence instead of one per span, and no prefix effects.
    """
    offs = token_offsets(sentence.text, tokens) if tokens is not None else None

    def span(f: int, t: int) -> tuple[int, int]:
        got = token_span_aligned(offs, f, t) if offs is not None else None
        return got if got is not None else token_span(sentence.text, f, t, plain_quotes=tokens is None)

    out = []
    for a in sentence.aspects:
        ops = tuple(span(f, t) for f, t in a.opinions)
        if tokens is not None:
            strs = tuple(" ".join(tokens[f:t]) for f, t in ops)
        else:
            strs = tuple(" ".join(_tok(sentence.text[f:t].strip())) for f, t in a.opinions)  # faithful
        out.append(PreparedAspect(a, span(a.start, a.end), ops, strs))
    return tuple(out)


def _tok(text: str) -> list[str]:
    return tokenize(text, plain_quotes=True)


@dataclass
class Variant:
    """One generated example, with provenance."""

    key: str
    source_id: str
    kind: str
    sentence: str
    term: str
    polarity: str
    start: int
    end: int
    edits: list[Any] = field(default_factory=list)  # Edit (token spans) or CharEdit (corrected mode)
    appended: list[dict[str, Any]] = field(default_factory=list)
    labels: dict[str, str] = field(default_factory=dict)
    notes: list[str] = field(default_factory=list)
    choices: list[dict[str, Any]] = field(default_factory=list)

    def record(self, provenance: bool = True) -> dict[str, Any]:
        rec: dict[str, Any] = {"sentence": self.sentence, "term": self.term, "polarity": self.polarity,
                               "id": self.source_id, "from": self.start, "to": self.end}
        if provenance:
            prov: dict[str, Any] = {"strategy": self.kind, "edits": [e.to_dict() for e in self.edits]}
            if self.choices:
                prov["choice"] = self.choices
            if self.appended:
                prov["appended"] = self.appended
            prov["labels"] = self.labels
            if self.notes:
                prov["notes"] = self.notes
            rec["provenance"] = prov
        return rec


def finish(prep: Prepared, pa: PreparedAspect, tokens: list[str], faithful: bool) -> tuple[str, int, int, list[str]]:
    """Detokenise, capitalise, and recompute the term's offsets (docs/protocols/arts.md#generation-machinery); notes on
    an offset problem."""
    text = capitalise_like(prep.sentence.text, detokenize(tokens))
    term = pa.aspect.term
    notes = []
    if faithful:
        a, b = offsets_faithful(text, term)
    else:
        span = offsets_corrected(prep.sentence.text, (pa.aspect.start, pa.aspect.end), text, term)
        a, b = span if span is not None else offsets_faithful(text, term)
    if text[a:b] != term:
        notes.append(f"offsets {a}:{b} give {text[a:b]!r}, not the term {term!r}")
    return text, a, b, notes


def rev_tgt(ctx: EditContext, prep: Prepared, pa: PreparedAspect) -> tuple[Variant | None, str | None]:
    """RevTgt (docs/protocols/arts.md#revtgt): reverse the target's opinions, flip its label, adjust the conjunction."""
    a = pa.aspect
    if not pa.opinions:
        return None, "no opinion span"
    others = [o for o in prep.aspects if o is not pa]
    other_labels = {o.aspect.polarity for o in others}
    other_ops = {s for o in others for s in o.opinion_strings}
    tokens, edits = reverse(ctx, prep.tokens, pa.opinions)
    if a.polarity == "neutral" and ctx.faithful:
        # the original reverses twice and keeps one result at random (the RNG is consumed either way)
        tokens2, edits2 = reverse(ctx, prep.tokens, pa.opinions)
        if ctx.rng.random() >= 0.5:
            tokens, edits = tokens2, edits2
    new_label = FLIP[a.polarity]
    if other_labels and not (set(pa.opinion_strings) & other_ops):
        if new_label not in other_labels:
            e = conjunction(ctx, tokens, a.term, pa.span, "and", "but")
        elif not ctx.faithful:
            e = conjunction(ctx, tokens, a.term, pa.span, "but", "and")
        else:
            e = None  # the original's but->and branch can never fire (docs/protocols/arts.md#revtgt)
        if e is not None:
            edits = [*edits, e]
    if tokens == list(prep.tokens):
        return None, "no edit changed the sentence"
    text, s, t, notes = finish(prep, pa, tokens, ctx.faithful)
    labels = {o.aspect.id: o.aspect.polarity for o in others}
    labels[a.id] = new_label
    return Variant(a.id + SUFFIX["revtgt"], a.id, "revtgt", text, a.term, new_label, s, t, edits,
                   labels=labels, notes=notes), None


def revnon_eligible(prep: Prepared, pa: PreparedAspect) -> bool:
    """docs/protocols/arts.md#revnon eligibility: another aspect shares no opinion span with the target and is not
    neutral-neutral."""
    mine = set(pa.opinions)
    for o in prep.aspects:
        if o is pa or not o.opinions or set(o.opinions) & mine:
            continue
        if not (o.aspect.polarity == "neutral" and pa.aspect.polarity == "neutral"):
            return True
    return False


def rev_non(ctx: EditContext, prep: Prepared, pa: PreparedAspect) -> tuple[Variant | None, str | None]:
    """RevNon (docs/protocols/arts.md#revnon): reverse same-label non-targets, exaggerate differing ones; the label is
    kept."""
    if len(prep.aspects) < 2:
        return None, "only one aspect in the sentence"
    if not pa.opinions:
        return None, "no opinion span"
    a = pa.aspect
    work = list(prep.tokens)
    changed: list[tuple[int, int]] = []
    edits: list[Edit] = []
    labels = {a.id: a.polarity}
    for o in prep.aspects:
        if o is pa:
            continue
        new_label = o.aspect.polarity
        if set(o.opinions) & set(pa.opinions):
            labels[o.aspect.id] = new_label
            continue
        ops = [sp for sp in o.opinions if sp not in changed]
        if not ops:
            labels[o.aspect.id] = new_label
            continue
        if o.aspect.polarity == a.polarity:
            if a.polarity == "neutral":
                labels[o.aspect.id] = new_label
                continue
            new, es = reverse(ctx, work, ops)
            e = conjunction(ctx, new, a.term, pa.span, "and", "but")
            if e is not None:
                es = [*es, e]
            new_label = FLIP[o.aspect.polarity] if any(x.op != "and_to_but" for x in es) else new_label
        else:
            new, es = exaggerate(ctx, work, ops)
        labels[o.aspect.id] = new_label
        if new != work:
            changed += [(e.start, e.end) for e in es if e.op not in ("and_to_but",)]
            edits += es
            work = new
    if work == list(prep.tokens):
        return None, "no edit changed the sentence"
    text, s, t, notes = finish(prep, pa, work, ctx.faithful)
    return Variant(a.id + SUFFIX["revnon"], a.id, "revnon", text, a.term, a.polarity, s, t, edits,
                   labels=labels, notes=notes), None


def source_record(sentence: Sentence, a: Aspect) -> dict[str, Any]:
    """The original example's record (enriched-set field order, docs/protocols/arts.md#enriched-sets)."""
    return {"sentence": sentence.text, "term": a.term, "polarity": a.polarity, "id": a.id, "from": a.start,
            "to": a.end}


def term_labels(prep: Prepared) -> dict[str, str]:
    return {o.aspect.id: o.aspect.polarity for o in prep.aspects}


def aspect_terms(prep: Prepared) -> Sequence[str]:
    return [o.aspect.term for o in prep.aspects]
