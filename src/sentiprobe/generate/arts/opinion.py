"""Opinion-span finder for data without opinion annotations (plain SemEval XML, most users' data).

RevTgt and RevNon edit opinion words, so data without TOWE spans needs them found. The finder uses the
one spaCy parse of the sentence (dependencies over the Treebank tokens) and a sentiment lexicon
(VADER's word list, offline in ``vaderSentiment``, plus any opinion words of a training file):

1. adjectival modifiers of the aspect head (``amod``: *great screen*), and their conjuncts;
2. when the aspect is a subject, the predicate's complement (``acomp``/``attr``/``oprd``: *the screen
   is bright and gorgeous*) or the verb itself when it is a sentiment word (*the battery died*);
3. when the aspect is an object, the governing verb if it is a sentiment word (*I love the keyboard*);
4. a conjunct aspect (*screen and keyboard are great*) uses its first conjunct's relations;
5. otherwise the nearest sentiment word within four tokens.

A negation (``neg`` child directly before) is included in the span, as TOWE does (*not fix*). Each
found span is a character span of the sentence (TOWE's convention), so everything downstream is the
same as with gold spans. Measured against the gold TOWE spans by :func:`evaluate_finder`.
"""
from __future__ import annotations

from collections.abc import Iterable
from dataclasses import replace
from functools import lru_cache

from .inputs import Sentence
from .resources import Parse
from .text import token_offsets

_COMPLEMENT = ("acomp", "attr", "oprd", "xcomp")
_SUBJ = ("nsubj", "nsubjpass")
_OBJ = ("dobj", "pobj", "obj")
_POLAR_POS = ("ADJ", "VERB", "ADV", "NOUN")


@lru_cache(maxsize=1)
def _vader_words() -> frozenset[str]:
    try:
        # optional extra [lexicon], heavy: imported only when used
        from vaderSentiment.vaderSentiment import SentimentIntensityAnalyzer
    except ModuleNotFoundError:
        return frozenset()
    return frozenset(w for w, v in SentimentIntensityAnalyzer().lexicon.items() if abs(v) >= 0.5)


def sentiment_words(extra: Iterable[str] = ()) -> frozenset[str]:
    """VADER words with |valence| >= 0.5 plus ``extra`` (lower-cased)."""
    return _vader_words() | {w.lower() for w in extra}


def _children(parse: Parse, i: int) -> list[int]:
    return [j for j, h in enumerate(parse.heads) if h == i and j != i]


def find_opinions(parse: Parse, span: tuple[int, int], lexicon: frozenset[str]) -> list[int]:
    """Token indices of the opinion words of the aspect at token ``span`` (see the module docstring)."""
    tf, tt = span
    if tf >= tt or tt > len(parse.tokens):
        return []
    inside = range(tf, tt)
    head = next((i for i in inside if not tf <= parse.heads[i] < tt), tt - 1)
    low = [t.lower() for t in parse.tokens]

    def polar(i: int) -> bool:
        return low[i] in lexicon

    def with_conj(ids: list[int]) -> list[int]:
        """Coordinated opinions (*fast, light, and simple*): conjunct children and the conjunction head."""
        out = list(ids)
        for i in ids:
            h = parse.heads[i]
            if parse.deps[i] == "conj" and parse.upos[h] == parse.upos[i] and h not in inside:
                out.append(h)
                i = h
            out += [j for j in _children(parse, i) if parse.deps[j] == "conj" and parse.upos[j] in ("ADJ", "VERB")
                    and j not in inside]
        return out

    anchor = head
    if parse.deps[head] == "conj" and parse.upos[parse.heads[head]] in ("NOUN", "PROPN"):
        anchor = parse.heads[head]
    found = [j for j in _children(parse, head) if j not in inside and (
        parse.deps[j] == "amod" or (parse.deps[j] in ("compound", "nmod") and polar(j) and parse.upos[j] == "ADJ"))]
    dep = parse.deps[anchor]
    gov = parse.heads[anchor]
    if dep in _SUBJ:
        comps = [j for j in _children(parse, gov) if parse.deps[j] in _COMPLEMENT and parse.upos[j] in
                 ("ADJ", "NOUN", "VERB", "ADV")]
        comps = [j for j in comps if parse.upos[j] == "ADJ" or polar(j)]
        found += comps
        if not comps and polar(gov) and parse.upos[gov] in ("VERB", "ADJ"):
            found.append(gov)
    elif dep in _OBJ:
        verb = parse.heads[gov] if dep == "pobj" else gov
        if polar(verb) and parse.upos[verb] in ("VERB", "ADJ"):
            found.append(verb)
        elif dep == "pobj" and parse.deps[verb] in ("acomp", "amod") and polar(verb):
            found.append(verb)  # *pleased with the WiFi*
    found = with_conj(sorted(set(found)))
    if not found:
        near = sorted((abs(i - head), i) for i in range(max(0, tf - 4), min(len(low), tt + 4))
                      if i not in inside and polar(i) and parse.upos[i] in _POLAR_POS)
        found = [near[0][1]] if near else []
    return sorted(set(found))


def opinion_spans(text: str, parse: Parse, span: tuple[int, int], lexicon: frozenset[str]) -> list[tuple[int, int]]:
    """Character spans of the found opinions (a directly preceding negation is included)."""
    offs = token_offsets(text, parse.tokens)
    out = []
    for i in find_opinions(parse, span, lexicon):
        start = i
        negs = [j for j in _children(parse, i) if parse.deps[j] == "neg" and j < i]
        if not negs and parse.deps[i] in _COMPLEMENT:  # *was not very good*: the neg hangs on the copula
            negs = [j for j in _children(parse, parse.heads[i]) if parse.deps[j] == "neg" and i - 3 <= j < i]
        if negs and negs[-1] >= i - 3:
            start = negs[-1]
        a, b = offs[start], offs[i]
        if a is not None and b is not None:
            out.append((a[0], b[1]))
    return out


def fill_opinions(prep, lexicon: frozenset[str] | None = None) -> Sentence:
    """A copy of the prepared sentence's :class:`Sentence` with found opinion spans on every aspect."""
    lex = lexicon if lexicon is not None else sentiment_words()
    aspects = []
    for pa in prep.aspects:
        spans = tuple(opinion_spans(prep.sentence.text, prep.parse, pa.span, lex))
        aspects.append(replace(pa.aspect, opinions=spans, opinion_source="finder"))
    return replace(prep.sentence, aspects=tuple(aspects))


def evaluate_finder(preps, lexicon: frozenset[str] | None = None) -> dict[str, float | int]:
    """Span precision / recall / F1 of the finder against the gold spans of ``preps`` (exact match)
    and token-overlap P/R/F1 (a found span counts when it overlaps a gold span)."""
    lex = lexicon if lexicon is not None else sentiment_words()
    tp = fp = fn = ov_p = ov_r = n_pred = n_gold = 0
    for p in preps:
        for pa in p.aspects:
            gold = set(pa.aspect.opinions)
            pred = set(opinion_spans(p.sentence.text, p.parse, pa.span, lex))
            tp += len(gold & pred)
            fp += len(pred - gold)
            fn += len(gold - pred)
            n_pred += len(pred)
            n_gold += len(gold)
            ov_p += sum(any(a < d and c < b for c, d in gold) for a, b in pred)
            ov_r += sum(any(a < d and c < b for c, d in pred) for a, b in gold)
    prec = tp / (tp + fp) if tp + fp else 0.0
    rec = tp / (tp + fn) if tp + fn else 0.0
    op = ov_p / n_pred if n_pred else 0.0
    orr = ov_r / n_gold if n_gold else 0.0
    return {"precision": prec, "recall": rec, "f1": 2 * prec * rec / (prec + rec) if prec + rec else 0.0,
            "overlap_precision": op, "overlap_recall": orr,
            "overlap_f1": 2 * op * orr / (op + orr) if op + orr else 0.0, "gold_spans": n_gold, "found_spans": n_pred}
