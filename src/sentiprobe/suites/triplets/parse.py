"""The lenient triplet parser shared by prediction files and LLM replies.

Why one parser: a tagger's JSONL (word-index spans) and an LLM's loose JSON (spans as text) must be scored by
the same rules, so LLMs and trained taggers sit on the same leaderboard. Every entry that cannot be read or
aligned becomes a *failure* with the record named and a reason; failures are counted (``parse_failure_rate``)
and scored as misses, never dropped and never fatal.

Accepted triplet shapes (spans inclusive, 0-based word indices):

- ``[al, ar, pl, pr, "positive"]``;
- ``[target, polar, "positive"]`` with each span ``[l, r]``, a single index, or text;
- ``{"target": ..., "polar"|"opinion": ..., "polarity"|"sentiment": ...}`` (also ``aspect``, ``*_span``).

Polarity: ``positive``/``neutral``/``negative`` or ``pos``/``neu``/``neg`` (any case).
"""
from __future__ import annotations

import json
import math
import re
from collections.abc import Sequence
from typing import Any

from ...core.errors import short_repr
from ...core.io import JSONNestingError, loads_json
from ...protocols.triplets.grid import POLARITIES, Span, Triplet

_POLARITY = {"pos": "positive", "neu": "neutral", "neg": "negative", "positive": "positive",
             "neutral": "neutral", "negative": "negative"}
TARGET_KEYS = ("target", "target_span", "aspect", "aspect_term", "aspect_span", "target_tags")
POLAR_KEYS = ("polar", "polar_span", "opinion", "opinion_span", "opinion_term", "polar_expression")
POLARITY_KEYS = ("polarity", "sentiment", "label")
ID_KEYS = ("id", "sentence_id", "item_id", "sid")
LIST_KEYS = ("triplets", "triples", "predictions", "prediction")


class EntryError(ValueError):
    """One entry could not be read or aligned (its message is the recorded reason)."""


def norm_polarity(v: Any) -> str:
    p = _POLARITY.get(str(v).strip().lower()) if isinstance(v, str) else None
    if p is None:
        raise EntryError(f"unknown polarity {short_repr(v)} (use one of {list(POLARITIES)})")
    return p


def _norm_word(w: str) -> str:
    return re.sub(r"\s+", "", w).lower()


def text_spans(want: str, words: Sequence[str]) -> list[Span]:
    """Every word span whose normalised words (:func:`_norm_word`) spell the normalised text ``want``."""
    found: list[Span] = []
    for i in range(len(words)):
        acc = ""
        for j in range(i, len(words)):
            acc += words[j]
            if acc == want:
                found.append((i, j))
                break
            if not want.startswith(acc):
                break
    return found


def align_text(text: str, tokens: Sequence[str], near: int | None = None) -> Span:
    """The token span whose words spell ``text`` (case and spacing ignored); the occurrence nearest ``near``.

    Raises EntryError when the text occurs nowhere in the sentence.
    """
    want = _norm_word(text)
    if not want:
        raise EntryError("empty span text")
    found = text_spans(want, [_norm_word(t) for t in tokens])
    if not found:
        raise EntryError(f"span text {text!r} is not in the sentence")
    if near is None:
        return found[0]
    return min(found, key=lambda s: (abs(s[0] - near), s[0]))


def _index(v: Any) -> int:
    """A word index: an integer, or a float with an integer value (``3.0``); ``NaN``, ``Infinity`` and
    fractions are refused (the range check against the sentence follows in :func:`read_span`)."""
    if isinstance(v, bool) or not isinstance(v, int | float) or \
            (isinstance(v, float) and not (math.isfinite(v) and v.is_integer())):
        raise EntryError(f"span index {v!r} is not an integer")
    return int(v)


def read_span(v: Any, tokens: Sequence[str], near: int | None = None) -> Span:
    """A span given as ``[l, r]``, ``l`` or text; checked against the sentence length."""
    n = len(tokens)
    if isinstance(v, str):
        return align_text(v, tokens, near)
    if isinstance(v, int | float) and not isinstance(v, bool):
        lo = r = _index(v)
    elif isinstance(v, list | tuple) and len(v) == 2 and not any(isinstance(x, str) for x in v):
        lo, r = _index(v[0]), _index(v[1])
    elif isinstance(v, list | tuple) and v and all(isinstance(x, int) and not isinstance(x, bool) for x in v):
        lo, r = min(v), max(v)
        if r - lo + 1 != len(v) or len(set(v)) != len(v):  # never materialise range(lo, r): r may be 10^300
            raise EntryError(f"span word list {short_repr(v)} is not contiguous")
    else:
        raise EntryError(f"span {short_repr(v)} is not [start, end], an index or text")
    if lo > r:
        raise EntryError(f"span [{lo}, {r}] ends before it starts")
    if lo < 0 or r >= n:
        raise EntryError(f"span [{lo}, {r}] is out of range for a sentence of {n} words")
    return (lo, r)


def _pick(d: dict, keys: Sequence[str], what: str) -> Any:
    for k in keys:
        if k in d:
            return d[k]
    raise EntryError(f"no {what} (expected one of {list(keys)})")


def read_triplet(obj: Any, tokens: Sequence[str]) -> Triplet:
    """One triplet entry in any accepted shape, aligned and validated."""
    if isinstance(obj, dict):
        t_raw, p_raw = _pick(obj, TARGET_KEYS, "target"), _pick(obj, POLAR_KEYS, "polar span")
        pol_raw = _pick(obj, POLARITY_KEYS, "polarity")
    elif isinstance(obj, list | tuple) and len(obj) == 5:
        t_raw, p_raw, pol_raw = [obj[0], obj[1]], [obj[2], obj[3]], obj[4]
    elif isinstance(obj, list | tuple) and len(obj) == 3:
        t_raw, p_raw, pol_raw = obj
    else:
        raise EntryError(f"triplet {short_repr(obj)} is not an object, [al, ar, pl, pr, polarity] or "
                         "[target, polar, polarity]")
    pol = norm_polarity(pol_raw)
    if isinstance(t_raw, str) and not isinstance(p_raw, str):
        p = read_span(p_raw, tokens)
        t = read_span(t_raw, tokens, near=p[0])
    else:
        t = read_span(t_raw, tokens)
        p = read_span(p_raw, tokens, near=t[0])
    if t[0] <= p[1] and p[0] <= t[1]:
        raise EntryError(f"target [{t[0]}, {t[1]}] and polar span [{p[0]}, {p[1]}] overlap")
    return (t[0], t[1], p[0], p[1], pol)


def read_triplet_list(value: Any, tokens: Sequence[str], record: str) -> tuple[list[Triplet], list[dict]]:
    """(triplets, failures) of a list of entries; each failure names ``record`` and the entry's position."""
    if value is None:
        return [], []
    if not isinstance(value, list):
        return [], [{"record": record, "reason": f"triplets must be a list, got {type(value).__name__}"}]
    out: list[Triplet] = []
    failures = []
    for k, obj in enumerate(value):
        try:
            out.append(read_triplet(obj, tokens))
        except EntryError as exc:
            failures.append({"record": f"{record} triplet {k}", "reason": str(exc)})
    return out, failures


def read_spans(value: Any, tokens: Sequence[str], record: str, what: str) -> tuple[list[Span] | None, list[dict]]:
    """Optional explicit span lists (``targets``/``polars``) of a record."""
    if value is None:
        return None, []
    if not isinstance(value, list):
        return None, [{"record": record, "reason": f"{what} must be a list"}]
    spans, failures = [], []
    for k, v in enumerate(value):
        try:
            spans.append(read_span(v, tokens))
        except EntryError as exc:
            failures.append({"record": f"{record} {what} {k}", "reason": str(exc)})
    return spans, failures


_FENCE = re.compile(r"```(?:json)?\s*(.*?)```", re.S)


def extract_json(reply: str) -> Any:
    """The JSON value in an LLM reply: a fenced block, else the outermost ``[...]`` / ``{...}``.

    Raises EntryError when no JSON value can be decoded.
    """
    candidates = [m.group(1) for m in _FENCE.finditer(reply)] + [reply]
    nested: JSONNestingError | None = None
    for c in candidates:
        c = c.strip()
        for text in [c] + [c[a:b + 1] for a, b in ((c.find(o), c.rfind(e)) for o, e in (("[", "]"), ("{", "}")))
                           if 0 <= a < b]:
            try:
                return loads_json(text)
            except JSONNestingError as exc:
                nested = exc
            except json.JSONDecodeError:
                continue
    if nested is not None:
        raise EntryError(f"the JSON value in the reply is {nested.msg}")
    raise EntryError("no JSON value in the reply")


def reply_triplets(reply: str, tokens: Sequence[str], record: str) -> tuple[list[Triplet], list[dict], int]:
    """(triplets, failures, entries) of one LLM reply; an unreadable reply is one failure."""
    try:
        value = extract_json(reply)
    except EntryError as exc:
        return [], [{"record": record, "reason": str(exc)}], 1
    if isinstance(value, dict):
        value = next((value[k] for k in LIST_KEYS if k in value), [value] if value else [])
    trip, fails = read_triplet_list(value, tokens, record)
    n = len(value) if isinstance(value, list) else 1
    return trip, fails, max(n, len(trip) + len(fails))
