"""The triplet suites' predict stage: a trained tagger's ``extract`` or an LLM's ``generate`` + lenient parse.

Why both here: a suite asks every model the same question (the sentence's triplets) and scores the answers with
the same rules. Taggers (``extract`` capability, e.g. ``gts-glove``) return word-index triplets directly; LLMs get
a versioned prompt asking for the triplets with the spans copied as text (:data:`TASK`: template and reply
schema ``{"triplets": [{"target", "opinion", "polarity"}]}``; structured decoding and ``shots`` come from the
adapter, see :mod:`..prompting`), and the reply goes through the lenient parser of :mod:`.parse`, which maps the
span texts back to word indices (unreadable or unalignable entries are counted failures, scored as misses).

Without ``shots`` the prompt shows two invented example sentences (taken from no split); with ``shots=k`` it
shows k training sentences with their gold triplets instead (never a test sentence).
"""
from __future__ import annotations

import json
import logging
from collections.abc import Mapping, Sequence
from types import SimpleNamespace
from typing import Any

from ...core.errors import CapabilityError
from ...core.types import Item, Prediction
from ...protocols.triplets.grid import POLARITIES
from ..prompting import (TRUNCATED, GenerativeTask, PromptTemplate, ReplySchema, ask, prediction_meta, reply_json,
                         reply_parts)
from .parse import _norm_word as norm_word
from .parse import reply_triplets, text_spans
from ..spec import Predicted

log = logging.getLogger("sentiprobe")

MAX_TOKENS = 256
TEMPERATURE = 0.0

EXAMPLES = (
    ("The battery life is great but the screen is too dim .",
     [{"target": "battery life", "opinion": "great", "polarity": "positive"},
      {"target": "screen", "opinion": "too dim", "polarity": "negative"}]),
    ("Acme shares tumbled after the company cut its outlook .",
     [{"target": "Acme shares", "opinion": "tumbled", "polarity": "negative"},
      {"target": "outlook", "opinion": "cut", "polarity": "negative"}]),
)

TEMPLATE = PromptTemplate(
    "triplets", "3",
    "Extract all sentiment triplets from the sentence. A triplet is (target, opinion, polarity): the target is "
    "the entity or aspect the sentiment is about, the opinion is the words that express the sentiment, and the "
    "polarity is positive, neutral or negative. Copy target and opinion exactly as they appear in the sentence.",
    "Answer with a JSON list of objects with the keys target, opinion and polarity only; answer [] when there "
    "is no triplet.",
    "Sentence: {sentence}", cue="Triplets:")

REPLY = ReplySchema(
    name="sentiment_triplets",
    schema={"type": "object", "properties": {"triplets": {"type": "array", "items": {
        "type": "object", "properties": {"target": {"type": "string", "description": "words copied from the sentence"},
                                         "opinion": {"type": "string", "description": "words copied from the sentence"},
                                         "polarity": {"type": "string", "enum": list(POLARITIES)}},
        "required": ["target", "opinion", "polarity"], "additionalProperties": False}}},
            "required": ["triplets"], "additionalProperties": False},
    example={"triplets": [{"target": "battery life", "opinion": "great", "polarity": "positive"}]})


def _tokens(item: Item) -> list[str]:
    return list(item.tokens or item.text.split())


def _fields(item: Item) -> dict[str, str]:
    return {"sentence": " ".join(_tokens(item))}


def gold_triplets(item: Item) -> list[dict[str, str]] | None:
    """An item's gold triplets with the spans as text (few-shot examples); None without gold."""
    gold = (item.meta or {}).get("gold")
    if not isinstance(gold, list):
        return None
    toks = _tokens(item)
    return [{"target": " ".join(toks[t[0]:t[1] + 1]), "opinion": " ".join(toks[t[2]:t[3] + 1]), "polarity": t[4]}
            for t in gold]


def _gold(item: Item) -> dict[str, Any] | None:
    trip = gold_triplets(item)
    return None if trip is None else {"triplets": trip}


MAX_PAIRS = 6000
"""Above this many (target, opinion) span pairs a sentence's schema lists target and opinion spans apart."""
MAX_SPANS = 500
"""Above this many distinct word spans (sentences of about 31 words or more) target and opinion are any string."""


def _spans(n: int) -> list[tuple[int, int]]:
    return [(i, j) for i in range(n) for j in range(i, n)]


def item_schema(item: Item) -> dict[str, Any]:
    """The reply schema for one sentence: target and opinion are word spans of the sentence, of any length (the
    gold data has spans of up to 41 words), so every gold triplet can be expressed.

    How tightly depends on the sentence's size, to keep the schema small enough for a server to compile:

    - up to ``MAX_PAIRS`` span pairs (sentences of up to about 11 words): one ``anyOf`` alternative per target
      text lists the opinions allowed with it, i.e. those that map back to word spans by the suite's alignment
      rule (:func:`.parse.align_text`: the target's first occurrence, the opinion's occurrence nearest to it)
      without overlapping the target, so a structured reply is always usable;
    - up to ``MAX_SPANS`` distinct spans: target and opinion are each an enum of the sentence's spans (an
      overlapping pair is a counted failure);
    - longer sentences: any string, described as words copied from the sentence (a text that is not in it is a
      counted failure).
    """
    toks = _tokens(item)
    n = len(toks)
    words = [norm_word(w) for w in toks]  # the alignment's normalisation
    texts: dict[str, str] = {}  # normalised -> the text offered (its first spelling)
    for i, j in _spans(n):
        texts.setdefault("".join(words[i:j + 1]), " ".join(toks[i:j + 1]))
        if len(texts) > MAX_SPANS:
            break
    polarity = {"type": "string", "enum": list(POLARITIES)}
    if len(texts) > MAX_SPANS:
        copied = {"type": "string", "description": "words copied from the sentence"}
        return _triplets_schema({"type": "object", "properties": {"target": copied, "opinion": copied,
                                                                   "polarity": polarity},
                                 "required": ["target", "opinion", "polarity"], "additionalProperties": False})
    occurrences = {norm: text_spans(norm, words) for norm in texts if norm}
    occurrences = {texts[norm]: occ for norm, occ in occurrences.items() if occ}
    if len(occurrences) ** 2 > MAX_PAIRS:
        spans = {"type": "string", "enum": list(occurrences)}
        return _triplets_schema({"type": "object", "properties": {"target": spans, "opinion": spans,
                                                                   "polarity": polarity},
                                 "required": ["target", "opinion", "polarity"], "additionalProperties": False})
    alternatives = []
    for t_text, t_occ in occurrences.items():
        t = t_occ[0]
        allowed = []
        for o_text, o_occ in occurrences.items():
            o = min(o_occ, key=lambda s: (abs(s[0] - t[0]), s[0]))
            if not (t[0] <= o[1] and o[0] <= t[1]):
                allowed.append(o_text)
        if allowed:
            alternatives.append({"type": "object", "properties": {
                "target": {"type": "string", "enum": [t_text]}, "opinion": {"type": "string", "enum": allowed},
                "polarity": polarity}, "required": ["target", "opinion", "polarity"], "additionalProperties": False})
    if not alternatives:  # a one-word sentence: no triplet is possible
        return {"type": "object", "properties": {"triplets": {"type": "array", "maxItems": 0}},
                "required": ["triplets"], "additionalProperties": False}
    return _triplets_schema({"anyOf": alternatives})


def _triplets_schema(entry: dict[str, Any]) -> dict[str, Any]:
    return {"type": "object", "properties": {"triplets": {"type": "array", "items": entry}},
            "required": ["triplets"], "additionalProperties": False}


TASK = GenerativeTask(template=TEMPLATE, reply=REPLY, fields=_fields, gold=_gold,
                      gold_text=lambda it: json.dumps(gold_triplets(it) or [], ensure_ascii=False),
                      max_tokens=MAX_TOKENS, item_schema=item_schema)
PROMPT_VERSION = TEMPLATE.version
PROMPT_HASH = TEMPLATE.hash


def _invented(structured: bool) -> list[tuple[Mapping[str, str], str]]:
    return [({"sentence": s}, json.dumps({"triplets": t} if structured else t)) for s, t in EXAMPLES]


def prompt_for(item: Item, structured: bool = False) -> str:
    """The zero-shot prompt of one sentence (with the two invented examples)."""
    return TEMPLATE.render(_fields(item), reply=REPLY if structured else None, shots=_invented(structured))


def _invalid_json(reply: str) -> str | None:
    """Why a structured reply is not the JSON it must be (None: it is valid JSON)."""
    try:
        reply_json(reply)
    except ValueError as exc:
        return f"not valid JSON under structured decoding ({exc})"
    return None


def _caps(predictor: Any) -> set[str]:
    model = getattr(predictor, "model", predictor)
    return set(getattr(model, "capabilities", ()))


def predict(suite: Any, predictor: Any, items: Sequence[Item]) -> Predicted:
    """Predictions (triplets in ``meta``) from a tagger's ``extract`` or an LLM's ``generate``."""
    caps = _caps(predictor)
    if "extract" in caps:
        return Predicted(tuple(extract_predictions(predictor, items)))
    if "generate" in caps:
        return generate_predictions(predictor, items, suite)
    raise CapabilityError(f"suite {suite.name!r} needs a model that can extract triplets or generate text; "
                          f"this one has {sorted(caps)}")


def extract_predictions(predictor: Any, items: Sequence[Item]) -> list[Prediction]:
    """A tagger's decoded grids: ``{"triplets", "targets", "polars"}`` per sentence (cached by the predictor)."""
    payloads = [list(it.tokens or it.text.split()) for it in items]
    call = getattr(predictor, "call", None)
    outs = call("extract", payloads) if call is not None else predictor.extract(payloads)
    preds = []
    for it, out in zip(items, outs):
        n = len(out.get("triplets", []))
        preds.append(Prediction(it.item_id, None, meta={"triplets": out.get("triplets", []),
                                                         "targets": out.get("targets"),
                                                         "polars": out.get("polars"), "failures": [],
                                                         "entries": n, "mode": "extract",
                                                         **({"truncated": True} if out.get("truncated") else {})}))
    return preds


def generate_predictions(predictor: Any, items: Sequence[Item], suite: Any = None) -> Predicted:
    """Prompt, generate (cached) and parse one reply per sentence (see :func:`..prompting.ask`), with the record
    of how the model was asked."""

    def render(it: Item, reply: ReplySchema | None, shots: list) -> str:
        return TEMPLATE.render(_fields(it), reply=reply, shots=shots or _invented(reply is not None))

    if suite is None:  # called without a bound suite (tests, scripts): zero-shot, no few-shot source
        suite = SimpleNamespace(name="triplets", training=lambda: ([], []), items=lambda split: [])
    asked = ask(suite, predictor, items, TASK, prompt_for=render, max_tokens=MAX_TOKENS, temperature=TEMPERATURE)
    preds = []
    structured = asked.record["structured"] != "off"
    for k, it in enumerate(items):
        meta = prediction_meta(asked, k)
        reply, cut = reply_parts(asked.replies[k])
        if "generation_error" in meta or reply is None:  # unanswered: no triplet (misses), not a parse failure
            meta.update(triplets=[], failures=[], entries=0)
            preds.append(Prediction(it.item_id, None, parse_ok=False, meta=meta))
            continue
        why = TRUNCATED if cut else _invalid_json(reply) if structured else None
        try:
            trip, fails, n = reply_triplets(reply, _tokens(it), it.item_id)
        except RecursionError:  # JSON nested too deeply to read: one unreadable reply, not a broken suite
            trip, fails, n = [], [{"record": it.item_id, "reason": "JSON nested too deeply to read"}], 1
        if why is not None:  # cut off, or not the JSON structured decoding asked for: a failure, whatever was read
            trip, fails, n = [], [{"record": it.item_id, "reason": why}], max(n, 1)
            meta.setdefault("parse_error", why)
        fails = [{**f, "reply": reply[:500]} for f in fails]  # the report shows what could not be read
        meta.update(triplets=[list(t) for t in dict.fromkeys(trip)], failures=fails, entries=n)
        preds.append(Prediction(it.item_id, None, raw=reply, parse_ok=not fails, meta=meta))
    return Predicted(tuple(preds), asked.record)
