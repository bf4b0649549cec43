"""Readers and validators of the six LexComp file formats (docs/protocols/lexcomp.md#conventions, #tasks).

Every reader returns plain records (dicts with the fields the probe and the baselines need) and raises
:class:`~sentiprobe.core.errors.DataError` naming the file, the line and the field for anything the protocol definition
rules out: spans outside the sentence, unknown labels, ``target_word`` that is not the token at
``target_index``, BIO sequences with an ``I`` after ``O``. Nothing is silently dropped: a record is
either valid or the load fails, so a number computed on the data is computed on all of it.

Sentences are pre-tokenized and split on single spaces (docs/protocols/lexcomp.md#conventions); no re-tokenization (see
:func:`tokens_of` for the whitespace-only tokens the released indices do not count).
"""
from __future__ import annotations

import re
from collections.abc import Iterator
from pathlib import Path
from typing import Any

from ...core.io import iter_jsonl as core_iter_jsonl
from ...core.errors import DataError

BINARY_LABELS = {"vpc": ("false", "true"), "lvc": ("false", "true"), "nc-literality": ("LITERAL", "NON-LITERAL"),
                 "nc-relations": ("False", "True"), "an-attributes": ("False", "True")}
"""Label sets as in the files (docs/lexcomp.md), alphabetically sorted so label order = the tie order."""

PHRASE_TYPES = ("ADJ", "ADV", "AUX", "CCONJ", "COMP", "DET", "DISC", "IAV", "LVC", "N", "P", "PP", "PRON",
                "V", "VID", "VPC")
TAGS = ("O", "I") + tuple(f"B-{t}" for t in PHRASE_TYPES)

BNC_ID = re.compile(r"^[A-K]/[A-Z0-9]{2}/[A-Z0-9]{3}\.xml/\d+$")


def iter_jsonl(path: Path) -> Iterator[tuple[int, dict[str, Any]]]:
    """(1-based line number, object) for every non-blank line (the shared reader of :mod:`sentiprobe.core.io`)."""
    return core_iter_jsonl(path, "LexComp data file")


def _field(obj: dict[str, Any], name: str, kind: type | tuple[type, ...], path: Path, n: int) -> Any:
    if name not in obj:
        raise DataError("missing field", path=path, record=f"line {n}", field=name)
    v = obj[name]
    if not isinstance(v, kind) or (isinstance(v, bool) and kind is int):
        raise DataError(f"expected {getattr(kind, '__name__', kind)}, got {type(v).__name__}", path=path,
                        record=f"line {n}", field=name)
    return v


def _label(obj: dict[str, Any], task: str, path: Path, n: int) -> str:
    lab = _field(obj, "label", str, path, n)
    if lab not in BINARY_LABELS[task]:
        raise DataError(f"unknown label {lab!r} (expected one of {list(BINARY_LABELS[task])})", path=path,
                        record=f"line {n}", field="label")
    return lab


def tokens_of(sentence: str) -> tuple[list[str], int]:
    """(tokens, number of whitespace-only tokens dropped).

    Sentences are split on single spaces (docs/protocols/lexcomp.md#conventions), but the released indices count tokens
    of a split on any whitespace: a few Wikipedia sentences hold a lone non-breaking space (``5 \xa0 km``) that the
    original ``str.split()`` dropped. Dropping whitespace-only tokens keeps every released index valid;
    the drops are counted (``statistics`` -> ``whitespace_tokens_dropped``).
    """
    raw = sentence.split(" ")
    toks = [t for t in raw if t.strip()]
    return toks, len(raw) - len(toks)


def _tokens(sentence: str, path: Path, n: int, name: str = "sentence") -> list[str]:
    toks, _ = tokens_of(sentence)
    if not toks:
        raise DataError("empty sentence", path=path, record=f"line {n}", field=name)
    return toks


def _dropped(sentence: str) -> int:
    return tokens_of(sentence)[1]


def _index(obj: dict[str, Any], name: str, size: int, path: Path, n: int) -> int:
    i = _field(obj, name, int, path, n)
    if not 0 <= i < size:
        raise DataError(f"index {i} outside the sentence (0..{size - 1})", path=path, record=f"line {n}", field=name)
    return i


def read_bnc_ids(path: Path, task: str) -> list[dict[str, Any]]:
    """VPC/LVC id files: ``{bnc_id, span_text, label}`` (no text). Constituents from ``span_text``."""
    out = []
    for n, obj in iter_jsonl(path):
        bid = _field(obj, "bnc_id", str, path, n)
        if not BNC_ID.match(bid):
            raise DataError(f"malformed BNC id {bid!r} (expected like B/BN/BNN.xml/291)", path=path,
                            record=f"line {n}", field="bnc_id")
        span = _field(obj, "span_text", str, path, n).split()
        if len(span) < 2:
            raise DataError("span_text needs at least 2 tokens", path=path, record=f"line {n}", field="span_text")
        out.append({"line": n, "bnc_id": bid, "span_text": " ".join(span), "label": _label(obj, task, path, n),
                     "first": span[0].lower(), "last": span[-1].lower(), "key": span[0].lower()})
    return out


def read_bnc_extracted(path: Path, task: str) -> list[dict[str, Any]]:
    """Extracted VPC/LVC examples ``{bnc_id, sentence, start, end, span_text, label}``
    (docs/protocols/lexcomp.md#vpc)."""
    out = []
    for n, obj in iter_jsonl(path):
        toks = _tokens(_field(obj, "sentence", str, path, n), path, n)
        s, e = _index(obj, "start", len(toks), path, n), _index(obj, "end", len(toks), path, n)
        if e < s:
            raise DataError(f"end {e} before start {s}", path=path, record=f"line {n}", field="end")
        span = _field(obj, "span_text", str, path, n).split()
        if not span:
            raise DataError("empty span_text", path=path, record=f"line {n}", field="span_text")
        out.append({"line": n, "ws_dropped": _dropped(obj["sentence"]), "bnc_id": obj.get("bnc_id"), "tokens": toks,
                    "span": (s, e), "span_text": " ".join(span), "label": _label(obj, task, path, n),
                    "first": span[0].lower(), "last": span[-1].lower(), "key": span[0].lower()})
    return out


def read_nc_literality(path: Path) -> list[dict[str, Any]]:
    """NC Literality: the target token and the compound's two tokens (docs/protocols/lexcomp.md#nc-literality)."""
    out = []
    for n, obj in iter_jsonl(path):
        toks = _tokens(_field(obj, "sentence", str, path, n), path, n)
        t = _index(obj, "target_index", len(toks), path, n)
        word = _field(obj, "target_word", str, path, n)
        if toks[t] != word:
            raise DataError(f"target_word {word!r} is not the token at target_index ({toks[t]!r})", path=path,
                            record=f"line {n}", field="target_word")
        parts = _field(obj, "nc", str, path, n).split("_")
        if len(parts) != 2 or not all(parts):
            raise DataError("nc must be 'w1_w2'", path=path, record=f"line {n}", field="nc")
        w1, w2 = parts[0].lower(), parts[1].lower()
        if word.lower() == w1 and t + 1 < len(toks):
            span = (t, t + 1)
        elif word.lower() == w2 and t >= 1:
            span = (t - 1, t)
        else:
            raise DataError(f"target_word {word!r} is neither constituent of {obj['nc']!r} (or the compound "
                            "runs past the sentence)", path=path, record=f"line {n}", field="target_word")
        out.append({"line": n, "ws_dropped": _dropped(obj["sentence"]), "tokens": toks, "target": t,
                    "target_word": word, "span": span, "nc": obj["nc"], "label": _label(obj, "nc-literality", path, n),
                    "first": w1, "last": w2, "key": w2})
    return out


def read_span_paraphrase(path: Path, task: str) -> list[dict[str, Any]]:
    """NC Relations and AN Attributes: a two-token span plus a paraphrase (docs/protocols/lexcomp.md#nc-relations,
    #an-attributes)."""
    out = []
    for n, obj in iter_jsonl(path):
        toks = _tokens(_field(obj, "sentence", str, path, n), path, n)
        s, e = _index(obj, "start", len(toks), path, n), _index(obj, "end", len(toks), path, n)
        if e != s + 1:
            raise DataError(f"end must be start+1 (start {s}, end {e})", path=path, record=f"line {n}", field="end")
        para = _tokens(_field(obj, "paraphrase", str, path, n), path, n, "paraphrase")
        if task == "nc-relations":
            words = _field(obj, "span", str, path, n).lower().split()
            if len(words) != 2:
                raise DataError("span must be 'w1 w2'", path=path, record=f"line {n}", field="span")
            w1, w2 = words
            key = w2
        else:  # AN: the pair is the sentence tokens; the split key is the noun (docs/protocols/lexcomp.md#decisions)
            w1, w2 = toks[s].lower(), toks[e].lower()
            key = w2
        out.append({"line": n, "ws_dropped": _dropped(obj["sentence"]), "tokens": toks, "span": (s, e),
                    "paraphrase": para,
                    "label": _label(obj, task, path, n), "first": w1, "last": w2, "key": key})
    return out


def validate_tags(tags: list[str], path: Path, n: int) -> None:
    """The tag alphabet, and no ``I`` at the start or after ``O`` (docs/protocols/lexcomp.md#phrase-type)."""
    prev = None
    for j, tag in enumerate(tags):
        if tag not in TAGS:
            raise DataError(f"unknown tag {tag!r} at token {j} (known: O, I, B-<type> for {list(PHRASE_TYPES)})",
                            path=path, record=f"line {n}", field="sentence_tags")
        if tag == "I" and (prev is None or prev == "O"):
            raise DataError(f"tag I at token {j} " + ("starts the sentence" if prev is None else "follows O"),
                            path=path, record=f"line {n}", field="sentence_tags")
        prev = tag


def read_mwe(path: Path) -> list[dict[str, Any]]:
    """Phrase Type: ``sentence_words`` and ``sentence_tags`` of equal length, validated tags."""
    out = []
    for n, obj in iter_jsonl(path):
        words = _field(obj, "sentence_words", list, path, n)
        tags = _field(obj, "sentence_tags", list, path, n)
        if not words or not all(isinstance(w, str) and w for w in words):
            raise DataError("sentence_words must be non-empty strings", path=path, record=f"line {n}",
                            field="sentence_words")
        if len(tags) != len(words) or not all(isinstance(t, str) for t in tags):
            raise DataError(f"{len(tags)} tags for {len(words)} words", path=path, record=f"line {n}",
                            field="sentence_tags")
        validate_tags(tags, path, n)
        out.append({"line": n, "tokens": list(words), "tags": list(tags)})
    return out
