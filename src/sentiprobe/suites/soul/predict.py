"""How a model answers SOUL items: generation, label log-probability scoring, or classification.

This is the SOUL suites' ``predict(suite, predictor, items)`` stage (:func:`predict`); the settings come
from the suite's options (:class:`~.options.SoulOptions`), never from env variables (only ``cli/`` reads those).

Modes (suite option ``mode``, default ``auto``):

- ``generate``: the protocol's zero-shot prompt (``prompts``) per item through ``predictor.generate``
  (cached), one reply per item, parsed by ``parse`` (RC strict + lenient; JG label + justification);
- ``score``: RC only. The RC prompt's continuations ``true`` / ``false`` / ``not-given`` are scored
  with ``predictor.call("score_labels", ...)``; the label is the argmax of the log-probabilities (ties:
  label order), ``scores`` are the softmax over the three options and the log-probs are kept in ``meta``;
- ``classify``: ``predictor.classify(items, labels, input_kind)`` (trainable baselines, fine-tuned
  classifiers; the suite's input kind is ``text-pair``: review, statement).
  Such models produce no justification, so JG text metrics are not computable;
- ``auto``: the adapter's ``answer_mode`` attribute when it has one, else ``generate`` when the model can
  generate, else ``classify``, else ``score``.

Fine-tuned text-to-text models (an adapter with ``text_to_text = True``, e.g. ``hf-seq2seq``) are always
asked with the ``seq2seq-source`` string they were trained on (docs/protocols/soul.md#text-to-text), whatever
``prompt_style`` says, with greedy decoding up to the adapter's ``max_new_tokens`` (docs/protocols/soul.md#text-to-text:
512). Their RC label is the docs/protocols/soul.md#label-extraction extraction (not the strict exact match of the
zero-shot path), their JG justification the docs/protocols/soul.md#justification-extraction one; the raw decoded text is
kept in ``Prediction.raw``. A model trained for RC only (``task="rc"``) is refused on JG: its outputs hold no
justification.

Generation settings: ``temperature`` 0 and ``max_tokens`` 256 (docs/protocols/soul.md#llm-decoding) are passed to every
``generate`` call; the suite options ``temperature`` / ``max_tokens`` change them (and they override the
adapter's own defaults, recorded in every prediction's ``meta``).

Cache keys: every option that changes a reply is part of the cached request. ``prompt_style`` changes the
prompt text (the payload), ``max_tokens`` and ``temperature`` are the ``generate`` keyword arguments (in
the key), and ``mode`` picks the cached method (``generate`` / ``score_labels`` / ``classify``), each with
its own cache namespace. Label scoring and classification take no generation settings.

Failures: a reply that does not parse gives ``Prediction(label=None, parse_ok=False, raw=reply)``.
A request that still fails after the adapter's retries (:class:`LLMError`) is retried once on its own
and then recorded as ``label=None`` with ``meta["generation_error"]`` (docs/protocols/soul.md#failures: the run finishes
and the count is reported); such items are not cached, so a re-run asks again. If every request fails, the
error is raised.
"""
from __future__ import annotations

import logging
import math
from collections.abc import Sequence
from dataclasses import dataclass, replace
from typing import TYPE_CHECKING, Any

from ...core.errors import CapabilityError, ConfigError, SentiprobeError
from ...core.types import Item, Prediction
from ..prompting import (TRUNCATED, ReplySchema, ask, generate_tolerant, prediction_meta, reply_json, reply_parts,
                         truncated_field)
from ..spec import Predicted
from .load import LABELS
from .parse import ParsedAnswer, extract_justification, extract_label, parse_answer
from .prompts import SEQ2SEQ_SOURCE, TASKS, PromptTemplate, prompt_text, soul_task, template_for

if TYPE_CHECKING:
    from ..base import Suite

log = logging.getLogger("sentiprobe")
MODES = ("auto", "generate", "score", "classify")


@dataclass(frozen=True)
class GenerationOptions:
    """How the suite asks a model (recorded in results details).

    Attributes:
        mode: ``auto``, ``generate``, ``score`` or ``classify`` (see the module docstring).
        prompt_style: ``chat`` (zero-shot prompts, docs/protocols/soul.md#rc-prompt, #jg-prompt) or ``seq2seq``
        (``Review:\\n...``, docs/protocols/soul.md#text-to-text). max_tokens: maximum new tokens per reply (spec: 256).
        temperature: sampling temperature (spec: 0).
    """

    mode: str = "auto"
    prompt_style: str = "chat"
    max_tokens: int = 256
    temperature: float = 0.0

    def __post_init__(self) -> None:
        if self.mode not in MODES:
            raise ConfigError(f"unknown SOUL mode {self.mode!r}; use one of {list(MODES)}")
        if self.max_tokens < 1:
            raise ConfigError(f"SOUL max_tokens must be >= 1, got {self.max_tokens}")
        if not (0.0 <= self.temperature <= 2.0) or not math.isfinite(self.temperature):
            raise ConfigError(f"SOUL temperature must be in [0, 2], got {self.temperature}")


def resolve_mode(model: Any, task: str, requested: str) -> str:
    """The mode a model is run in (raises CapabilityError / ConfigError when it cannot be)."""
    caps = set(getattr(model, "capabilities", ()))
    mode = requested
    if mode == "auto":
        hint = getattr(model, "answer_mode", None)
        if hint in ("generate", "score", "classify"):
            mode = hint
        elif "generate" in caps:
            mode = "generate"
        elif "classify" in caps:
            mode = "classify"
        elif "score_labels" in caps:
            mode = "score"
        else:
            raise CapabilityError(f"model {getattr(model, 'name', model)!r} can neither generate, classify nor "
                                  f"score labels; its capabilities: {sorted(caps)}")
    if mode == "score" and task != "rc":
        raise ConfigError("SOUL mode 'score' (label log-probabilities) applies to soul-rc only: "
                          "JG needs generated justifications")
    need = {"generate": "generate", "score": "score_labels", "classify": "classify"}[mode]
    if need not in caps:
        raise CapabilityError(f"SOUL mode {mode!r} needs a model that can {need}; "
                              f"{getattr(model, 'name', model)!r} has {sorted(caps)}")
    return mode


def _meta(tmpl: PromptTemplate, text: str, mode: str, opts: GenerationOptions) -> dict[str, Any]:
    return {"mode": mode, "prompt_template": tmpl.name, "prompt_version": tmpl.version, "prompt_hash": tmpl.hash,
            "prompt": text, "max_tokens": opts.max_tokens, "temperature": opts.temperature}


def _generate_tolerant(predictor: Any, prompts: list[str], kw: dict[str, Any]) -> tuple[list[Any], list[str | None]]:
    """Replies (None for requests that failed for good) and the error text per prompt (see
    :func:`..prompting.generate_tolerant`: fatal errors such as a dead server are re-raised)."""
    return generate_tolerant(predictor, prompts, kw, "SOUL generation")


def is_text_to_text(model: Any) -> bool:
    """Whether ``model`` is a fine-tuned text-to-text model (asked and parsed as in docs/protocols/soul.md#text-to-text,
    #label-extraction)."""
    return getattr(model, "text_to_text", False) is True


def parse_text_to_text(text: str, task: str) -> ParsedAnswer:
    """A seq2seq model's output: label by docs/protocols/soul.md#label-extraction for RC and JG, justification by
    docs/protocols/soul.md#justification-extraction for JG."""
    label = extract_label(text)
    return ParsedAnswer(label, label, extract_justification(text) if task == "jg" else None)


def generate_predictions(predictor: Any, items: Sequence[Item], task: str, opts: GenerationOptions,
                         suite: Suite | None = None) -> Predicted:
    """Prompt, generate (cached) and parse one reply per item.

    Chat models run by a suite go through :func:`..prompting.ask` (the adapter's structured decoding and
    ``shots``): the protocol's zero-shot template when decoding is free text without examples, else the composed
    template with the JSON reply schema of :data:`.prompts.TASKS`.
    """
    model = predictor.model
    t2t = is_text_to_text(model)
    if suite is not None and not t2t:
        return _asked_predictions(suite, predictor, items, task, opts)
    tmpl = SEQ2SEQ_SOURCE if t2t else template_for(task, opts.prompt_style)
    if hasattr(model, "template_hash"):
        model.template_hash = tmpl.hash
    kw: dict[str, Any] = {"max_tokens": opts.max_tokens, "temperature": opts.temperature}
    if t2t:
        if task == "jg" and getattr(model, "task", "jg") != "jg":
            raise ConfigError(f"model {getattr(model, 'name', model)!r} is trained for SOUL RC (task="
                              f"{getattr(model, 'task', None)!r}): its outputs hold no justification; "
                              "train it for JG with --model-arg task=jg")
        kw = {"max_tokens": int(getattr(model, "max_new_tokens", 512)), "temperature": 0.0}
    texts = [prompt_text(tmpl, it) for it in items]
    outs, errors = _generate_tolerant(predictor, texts, kw)
    preds = []
    for it, text, out, err in zip(items, texts, outs, errors):
        meta = {**_meta(tmpl, text, "generate", opts), **kw}
        if t2t:
            meta["label_rule"] = "extract (the answer extraction of docs/soul.md)"
        if err is not None or reply_parts(out)[0] is None:
            meta["generation_error"] = err or f"the model returned {type(out).__name__}, not text"
        preds.append(_prediction(it, task, out, meta, parse_text_to_text if t2t else parse_answer))
    return Predicted(tuple(preds))


def _prediction(item: Item, task: str, out: Any, meta: dict[str, Any], parse: Any) -> Prediction:
    """One item's prediction: unanswered (``meta["generation_error"]``: wrong, reported apart), or
    ``parse(out, task)``; a reply cut off at the token limit is a parse failure (its lenient label and text are
    kept for the lenient metrics, the raw reply as it came)."""
    text, cut = reply_parts(out)
    if "generation_error" in meta or text is None:
        meta.setdefault("generation_error", f"the model returned {type(out).__name__}, not text")
        return Prediction(item.item_id, None, raw=None, parse_ok=False, meta=meta, text="" if task == "jg" else None)
    parsed = parse(text, task)
    meta["label_lenient"] = parsed.label_lenient
    label = parsed.label
    if cut:
        meta.update(finish_reason="length", parse_error=TRUNCATED)
        label = None
    return Prediction(item.item_id, label, text=parsed.justification, raw=text, parse_ok=label is not None, meta=meta)


AUTO_KEEPS_PROTOCOL = ("structured=auto keeps the SOUL protocol's zero-shot prompt and its free-text answer; "
                      "ask for a mode (structured=json_schema, json_object, grammar or choice) to send the prompt "
                      "adapted for structured decoding instead")
"""Why ``auto`` sends the published prompt as free text (recorded as ``structured_note``)."""


def _asked_predictions(suite: Suite, predictor: Any, items: Sequence[Item], task: str,
                       opts: GenerationOptions) -> Predicted:
    """Chat generation through the suite's generative task (structured decoding and few-shot prompts).

    The protocol's zero-shot prompt (``rc-chat`` / ``jg-chat``, word for word) is sent whenever decoding is free
    text without examples, which is what ``structured=auto`` (the default) and ``off`` give; an explicit mode, or
    ``shots``, sends the adapted prompt (``soul-rc`` / ``soul-jg``, with the JSON answer instruction of the reply
    schema when structured: ``soul-rc+json``), named as adapted from the protocol's in every record.
    """
    gen = TASKS[task]
    spec_tmpl = template_for(task, opts.prompt_style)
    published = f"{spec_tmpl.name} v{spec_tmpl.version} (the SOUL protocol's zero-shot prompt)"

    def published_prompt(reply: Any, shots: int) -> bool:
        return opts.prompt_style == "seq2seq" or (reply is None and not shots)

    def prompt_for(it: Item, reply: Any, shots: list) -> str:
        if published_prompt(reply, len(shots)):
            return prompt_text(spec_tmpl, it)  # the published zero-shot setting, word for word
        return gen.template.render(gen.fields(it), reply=reply, shots=shots)

    def sent(reply: ReplySchema | None, shots: int) -> dict[str, Any]:
        if published_prompt(reply, shots):
            return {**spec_tmpl.describe(), "kind": "protocol"}
        return gen.template.sent(reply, adapted_from=published)

    k = int(getattr(predictor.model, "shots", 0) or 0)
    keep = AUTO_KEEPS_PROTOCOL if opts.prompt_style == "seq2seq" or not k else None
    asked = ask(suite, predictor, items, gen, prompt_for=prompt_for, max_tokens=opts.max_tokens,
                temperature=opts.temperature, sent_template=sent, keep_free_text=keep)
    structured = asked.record["structured"] != "off"
    preds = [_prediction(it, task, asked.replies[j], prediction_meta(asked, j),
                         _parse_structured if structured else parse_answer) for j, it in enumerate(items)]
    return Predicted(tuple(preds), asked.record)


def _parse_structured(reply: str, task: str) -> ParsedAnswer:
    """A JSON reply (``{"answer"}`` for RC, ``{"label", "justification"}`` for JG); the label must be exact.

    A reply that is not valid JSON (cut off, or the server ignored the schema) does not parse: only the lenient
    label and the justification written so far are kept (for the lenient and text metrics).
    """
    try:
        value = reply_json(reply)
    except ValueError:
        value = None
    if not isinstance(value, dict):
        lenient = truncated_field(reply, "answer" if task == "rc" else "label")
        just = truncated_field(reply, "justification", complete=False) if task == "jg" else None
        return ParsedAnswer(None, lenient if lenient in LABELS else extract_label(reply),
                            (just or "").strip() if task == "jg" else None)
    raw = value.get("answer" if task == "rc" else "label")
    label = raw if isinstance(raw, str) and raw in LABELS else None
    if task == "rc":
        return ParsedAnswer(label, label or extract_label(raw if isinstance(raw, str) else None), None)
    just = value.get("justification")
    return ParsedAnswer(label, label, just.strip() if isinstance(just, str) else "")


def score_label_predictions(predictor: Any, items: Sequence[Item], opts: GenerationOptions) -> list[Prediction]:
    """RC by label log-probabilities: argmax over ``true`` / ``false`` / ``not-given`` after the RC prompt."""
    tmpl = template_for("rc", opts.prompt_style)
    model = predictor.model
    if hasattr(model, "template_hash"):
        model.template_hash = tmpl.hash
    texts = [prompt_text(tmpl, it) for it in items]
    results = predictor.call("score_labels", [{"prompt": t, "options": list(LABELS)} for t in texts])
    preds = []
    for it, text, lp in zip(items, texts, results):
        if not isinstance(lp, dict) or set(lp) != set(LABELS):
            raise SentiprobeError(f"score_labels returned {lp!r} for {it.item_id}; expected a log-prob per "
                                  f"option {list(LABELS)}")
        vals = [float(lp[lab]) for lab in LABELS]
        best = max(range(len(LABELS)), key=lambda k: (vals[k], -k))
        top = max(vals)
        z = sum(math.exp(v - top) for v in vals)
        scores = {lab: math.exp(v - top) / z for lab, v in zip(LABELS, vals)}
        meta = {**_meta(tmpl, text, "score", opts), "logprobs": dict(zip(LABELS, vals)), "label_lenient": LABELS[best]}
        meta.pop("max_tokens")
        meta.pop("temperature")
        preds.append(Prediction(it.item_id, LABELS[best], scores=scores, raw=None, parse_ok=True, meta=meta))
    return preds


def predict_asked(predictor: Any, items: Sequence[Item], task: str, opts: GenerationOptions,
                  input_kind: str = "text-pair", suite: Suite | None = None) -> Predicted:
    """Predictions for SOUL items in the mode resolved for ``predictor.model``, with the record of how a chat
    model was asked (``suite``: the bound suite, which chat generation needs for few-shot examples)."""
    mode = resolve_mode(predictor.model, task, opts.mode)
    if mode == "generate":
        return generate_predictions(predictor, items, task, opts, suite)
    if mode == "score":
        return Predicted(tuple(score_label_predictions(predictor, items, opts)))

    preds = predictor.classify(items, LABELS, input_kind)
    return Predicted(tuple(replace(p, meta={**p.meta, "mode": "classify"}) for p in preds))


def predict_items(predictor: Any, items: Sequence[Item], task: str, opts: GenerationOptions,
                  input_kind: str = "text-pair", suite: Suite | None = None) -> list[Prediction]:
    """The predictions alone of :func:`predict_asked`."""
    return list(predict_asked(predictor, items, task, opts, input_kind, suite).predictions)


def predict(suite: Suite, predictor: Any, items: Sequence[Item]) -> Predicted:
    """The SOUL ``predict`` stage: the suite's task (``rc`` / ``jg``) in the mode of its options."""
    return predict_asked(predictor, items, soul_task(suite.name), suite.options.generation(), suite.input_kind,
                         suite)
