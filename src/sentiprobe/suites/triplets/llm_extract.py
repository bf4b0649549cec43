"""The triplet suites' predict stage: a trained tagger's ``extract`` or an LLM's ``generate`` + lenient parse.

Why both here: a suite asks every model the same question (the sentence's triplets) and scores the answers with
the same rules. Taggers (``extract`` capability, e.g. ``gts-glove``) return word-index triplets directly; LLMs get
a versioned few-shot prompt asking for JSON with the spans copied as text, and the reply goes through the lenient
parser of :mod:`.parse` (unreadable or unalignable entries are counted failures, scored as misses).

The prompt is versioned (:data:`PROMPT_VERSION`, hash in every prediction's ``meta``): changing its text changes
the cache key and the results' record. Its two examples are invented sentences, not taken from any split.
"""
from __future__ import annotations

import hashlib
import json
import logging
from collections.abc import Sequence
from typing import Any

from ...core.errors import CapabilityError
from ...core.types import Item, Prediction
from .parse import reply_triplets

log = logging.getLogger("sentiprobe")

PROMPT_VERSION = "triplets-fewshot-v1"
MAX_TOKENS = 256
TEMPERATURE = 0.0

EXAMPLES = (
    ("The battery life is great but the screen is too dim .",
     [{"target": "battery life", "polar": "great", "polarity": "positive"},
      {"target": "screen", "polar": "too dim", "polarity": "negative"}]),
    ("Acme shares tumbled after the company cut its outlook .",
     [{"target": "Acme shares", "polar": "tumbled", "polarity": "negative"},
      {"target": "outlook", "polar": "cut", "polarity": "negative"}]),
)

PROMPT = (
    "Extract all sentiment triplets from the sentence. A triplet is (target, polar expression, polarity): the "
    "target is the entity or aspect the sentiment is about, the polar expression is the words that express the "
    "sentiment, and the polarity is positive, neutral or negative. Copy target and polar expression exactly as "
    "they appear in the sentence. Answer with a JSON list only; answer [] when there is no triplet.\n\n"
    + "".join(f"Sentence: {s}\nTriplets: {json.dumps(t)}\n\n" for s, t in EXAMPLES)
    + "Sentence: {sentence}\nTriplets:"
)

PROMPT_HASH = hashlib.sha256(PROMPT.encode()).hexdigest()[:16]


def prompt_for(item: Item) -> str:
    return PROMPT.replace("{sentence}", " ".join(item.tokens or item.text.split()))


def _caps(predictor: Any) -> set[str]:
    model = getattr(predictor, "model", predictor)
    return set(getattr(model, "capabilities", ()))


def predict(suite: Any, predictor: Any, items: Sequence[Item]) -> list[Prediction]:
    """Predictions (triplets in ``meta``) from a tagger's ``extract`` or an LLM's ``generate``."""
    caps = _caps(predictor)
    if "extract" in caps:
        return extract_predictions(predictor, items)
    if "generate" in caps:
        return generate_predictions(predictor, items)
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


def generate_predictions(predictor: Any, items: Sequence[Item]) -> list[Prediction]:
    """Prompt, generate (cached) and parse one reply per sentence."""
    from ...models.http_retry import LLMError

    model = getattr(predictor, "model", predictor)
    if hasattr(model, "template_hash"):
        model.template_hash = PROMPT_HASH
    prompts = [prompt_for(it) for it in items]
    kw = {"max_tokens": MAX_TOKENS, "temperature": TEMPERATURE}
    try:
        replies: list[Any] = list(predictor.generate(prompts, **kw))
    except LLMError as exc:
        log.warning("triplet extraction: a batch failed (%s); retrying one by one", exc)
        replies = []
        for p in prompts:
            try:
                replies.append(predictor.generate([p], **kw)[0])
            except LLMError as one:
                replies.append(one)
    preds = []
    for it, reply in zip(items, replies):
        meta: dict[str, Any] = {"mode": "generate", "prompt_version": PROMPT_VERSION, "prompt_hash": PROMPT_HASH,
                                **kw}
        if not isinstance(reply, str):
            meta.update(triplets=[], failures=[{"record": it.item_id, "reason": f"generation failed: {reply}"}],
                        entries=1, generation_error=str(reply)[:300])
            preds.append(Prediction(it.item_id, None, parse_ok=False, meta=meta))
            continue
        trip, fails, n = reply_triplets(reply, list(it.tokens or it.text.split()), it.item_id)
        fails = [{**f, "reply": reply[:500]} for f in fails]  # the report shows what could not be read
        meta.update(triplets=[list(t) for t in dict.fromkeys(trip)], failures=fails, entries=n)
        preds.append(Prediction(it.item_id, None, raw=reply, parse_ok=not fails, meta=meta))
    return preds
