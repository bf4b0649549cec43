"""Token-level text machinery of ARTS generation (docs/protocols/arts.md#generation-machinery).

Every strategy edits a Treebank token list and turns it back into text, so the tokeniser, the
detokeniser and the character->token span rule decide how close the output is to the released set.
The original used NLTK's ``word_tokenize``, which splits sentences with the downloadable Punkt model
first; offline we split with a small regex (sentence-final ``. ! ?`` followed by a space and a
capital, digit or quote, except after common abbreviations) and tokenise each piece with NLTK's
pure-regex :class:`NLTKWordTokenizer` (no data files needed).

The lexicons of docs/protocols/arts.md#generation-machinery (negation cues, degree adverbs, copulas) live here as data.
"""
from __future__ import annotations

import re
from collections.abc import Iterable, Sequence
from functools import lru_cache

NEGATION_CUES: tuple[str, ...] = (
    "doesn't", "don't", "didn't", "no", "did not", "do not", "does not", "not yet", "not", "none", "no one",
    "nobody", "nothing", "neither", "nowhere", "never", "hardly", "scarcely", "barely")
"""Negation cues of docs/protocols/arts.md#generation-machinery (matched longest first, case-insensitively, after
tokenisation)."""

DEGREE_ADVERBS: tuple[str, ...] = (
    "absolutely", "awfully", "badly", "barely", "completely", "decidedly", "deeply", "enormously", "entirely",
    "extremely", "fairly", "fully", "greatly", "highly", "incredibly", "indeed", "very", "really")
"""The 18 degree adverbs RevNon inserts before a differing non-target's opinion (docs/protocols/arts.md#revnon)."""

COPULAS: tuple[str, ...] = ("is", "was", "are", "were", "am", "being")
"""Copulas that carry an inserted negation when the opinion word is not ADJ/NOUN/VERB
(docs/protocols/arts.md#reverse-opinion step 3)."""

DELETE = "DELETE"
"""Placeholder token for a removed negation cue; the detokeniser drops it (docs/protocols/arts.md#generation-machinery
step 6)."""

_DONT = re.compile(r"(?i)^(do|does|did)(nt)$")
_ABBREV = frozenset({"mr", "mrs", "ms", "dr", "vs", "etc", "e.g", "i.e", "st", "jr", "sr", "inc", "no", "approx"})
_SENT_END = re.compile(r"(?<=[.!?])([\"')\]]*)\s+(?=[A-Z0-9\"'(])")


@lru_cache(maxsize=1)
def _word_tokenizer():
    from nltk.tokenize.destructive import NLTKWordTokenizer  # optional extra [generate], heavy: imported only when used

    return NLTKWordTokenizer()


def split_sentences(text: str) -> list[str]:
    """Approximate Punkt sentence splitting (see the module docstring)."""
    out: list[str] = []
    start = 0
    for m in _SENT_END.finditer(text):
        head = text[start:m.start()]
        last = head.rsplit(None, 1)[-1].rstrip(".!?").lower() if head.strip() else ""
        if (len(last) == 1 and last.isalpha()) or last in _ABBREV:
            continue
        out.append(text[start:m.end(1) if m.group(1) else m.start()])
        start = m.end()
    out.append(text[start:])
    return [s for s in out if s]


@lru_cache(maxsize=65536)
def _tokenize(text: str) -> tuple[str, ...]:
    tok = _word_tokenizer()
    return tuple(t for s in split_sentences(text) for t in tok.tokenize(s))


def tokenize(text: str, plain_quotes: bool = False) -> list[str]:
    """Treebank tokens of ``text`` (cached: the span rule tokenises many prefixes of one sentence).

    ``plain_quotes`` turns the PTB quote tokens back into ``"`` and splits ``dont``/``didnt``/``doesnt``,
    as the NLTK version behind the release did: its variants show ``" tools "``, ``21 " LED`` and
    ``do nt`` (faithful mode uses it; the character->token span rule counts the same tokens either way
    except for these rare apostrophe-less contractions).
    """
    toks = _tokenize(text)
    if plain_quotes:
        out = []
        for t in toks:
            m = _DONT.match(t)
            if m:  # "dont" -> "do nt": the release's variants show "do nt", "did nt"
                out += [m.group(1), m.group(2)]
            else:
                out.append('"' if t in ("``", "''") else t)
        return out
    return list(toks)


def token_span(sentence: str, start: int, end: int, plain_quotes: bool = False) -> tuple[int, int]:
    """Character span -> token span by the docs/protocols/arts.md#generation-machinery rule (count tokens of the
    stripped prefix and span)."""
    a = len(tokenize(sentence[:start].strip(), plain_quotes))
    return a, a + len(tokenize(sentence[start:end].strip(), plain_quotes))


def token_offsets(text: str, tokens: Sequence[str]) -> list[tuple[int, int] | None]:
    """Character span of each Treebank token in ``text`` (quote tokens map back to ``"``); None if not found."""
    out: list[tuple[int, int] | None] = []
    pos = 0
    for t in tokens:
        cands = ('"', "``", "''") if t in ("``", "''", '"') else (t,)
        best = None
        for c in cands:
            k = text.find(c, pos)
            if k >= 0 and (best is None or k < best[0]):
                best = (k, k + len(c))
        out.append(best)
        if best is not None:
            pos = best[1]
    return out


def token_span_aligned(offsets: Sequence[tuple[int, int] | None], start: int, end: int) -> tuple[int, int] | None:
    """Character span -> token span through the tokens' own offsets (one tokenisation per sentence).

    The corrected mode's rule: the tokens overlapping ``[start, end)``. ``None`` when a token could not be
    aligned (the caller falls back to :func:`token_span`).
    """
    if any(o is None for o in offsets):
        return None
    a = next((i for i, o in enumerate(offsets) if o[1] > start), len(offsets))  # type: ignore[index]
    b = next((i for i, o in enumerate(offsets) if o[0] >= end), len(offsets))  # type: ignore[index]
    return (a, b) if b > a else None


_QUOTES = (("`` ", '"'), (" ''", '"'), (". . .", "..."))
_BRACKETS = ((" ( ", " ("), (" ) ", ") "), (" - ", "-"), (" / ", "/"))


def detokenize(tokens: Iterable[str]) -> str:
    """Join tokens back into text by the seven steps of docs/protocols/arts.md#generation-machinery (lossy by design: it
    matches the release)."""
    tokens = list(tokens)
    if len(tokens) == 1 and " " not in tokens[0] and "DELETE" not in tokens[0]:
        return tokens[0]  # fast path: a single plain token is unchanged by every step
    text = " ".join(tokens)
    for a, b in _QUOTES:
        text = text.replace(a, b)
    for a, b in _BRACKETS:
        text = text.replace(a, b)
    text = re.sub(r" ([.,:;?!%]+)([ '\"`])", r"\1\2", text)
    text = re.sub(r" ([.,:;?!%]+)$", r"\1", text)
    text = text.replace(" '", "'").replace(" n't", "n't").replace("can not", "cannot")
    text = text.replace(" ` ", " '")
    text = text.replace(DELETE, "")
    return re.sub(r"\s{2,}", " ", text).strip()


def capitalise_like(source: str, text: str) -> str:
    """Upper-case the first character of ``text`` when ``source`` starts with an upper-case letter."""
    if source[:1].isupper() and text:
        return text[0].upper() + text[1:]
    return text


@lru_cache(maxsize=64)
def _cue_tokens() -> tuple[tuple[str, ...], ...]:
    cues = sorted(NEGATION_CUES, key=len, reverse=True)
    return tuple(tuple(t.lower() for t in tokenize(c)) for c in cues)


def negation_cues() -> tuple[tuple[str, ...], ...]:
    """The cues as lower-cased token tuples, longest (by characters) first, as
    docs/protocols/arts.md#generation-machinery prescribes."""
    return _cue_tokens()


def vocabulary(sentences: Iterable[str]) -> frozenset[str]:
    """The in-domain vocabulary of docs/protocols/arts.md#generation-machinery: lower-cased alphanumeric word forms of
    the given sentences."""
    words: set[str] = set()
    for s in sentences:
        s = s.lower().replace("&quot;", " ").replace('"', " ")
        words.update(w for w in re.sub(r"[^a-z0-9]+", " ", s).split() if w)
    return frozenset(words)


def offsets_faithful(new_sentence: str, term: str) -> tuple[int, int]:
    """The original's offset recomputation (docs/protocols/arts.md#generation-machinery): first occurrence of the
    space-free term.

    Kept for the faithful mode: it counts characters of the *tokenised* text, so quotes and a term that
    also occurs earlier give the wrong span, exactly as in the release.
    """
    a = "".join(tokenize(new_sentence, plain_quotes=True))
    b = "".join(tokenize(term, plain_quotes=True))
    c = a.find(b) if b else -1
    c = max(c, 0)
    start = 0
    seen = 0
    for i, ch in enumerate(new_sentence[:-1]):
        if ch != " ":
            seen += 1
        if seen == c and c != 0:
            start = i + 1 if new_sentence[i + 1] != " " else i + 2
            break
    return start, start + len(term)


def offsets_corrected(source: str, source_span: tuple[int, int] | None, new_sentence: str,
                      term: str) -> tuple[int, int] | None:
    """The term's span in the new sentence, keeping its occurrence index among equal strings.

    The k-th occurrence of the term in the source (k counted before the source offset) maps to the k-th
    occurrence in the new text; when the edits changed the number of occurrences, the occurrence nearest
    to the source offset is taken. ``None`` when the term is absent (the audit reports it).
    """
    occ = [m.start() for m in re.finditer(re.escape(term), new_sentence)] if term else []
    if not occ:
        return None
    if source_span is None:
        return occ[0], occ[0] + len(term)
    before = [m.start() for m in re.finditer(re.escape(term), source) if m.start() < source_span[0]]
    src_occ = [m.start() for m in re.finditer(re.escape(term), source)]
    if len(src_occ) == len(occ):
        s = occ[len(before)]
    else:
        s = min(occ, key=lambda o: (abs(o - source_span[0]), o))
    return s, s + len(term)
