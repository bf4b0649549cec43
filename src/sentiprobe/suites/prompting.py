"""How a suite asks a generative model: versioned prompt templates, reply schemas, few-shot examples, parsing.

A suite that a generative model can run declares one :class:`GenerativeTask` (``SuiteSpec.prompting``): its
:class:`PromptTemplate` (visible, versioned, hashed; ``sentiprobe list prompts`` prints it), its
:class:`ReplySchema` (what a reply must look like, as a JSON schema the adapter turns into structured
decoding, see :mod:`sentiprobe.models.structured`), how an item fills the template, and the gold answer of
a training item (few-shot examples). Classification suites need nothing else: :func:`predict_labels` is
their predict stage for models that generate instead of classify. SOUL and the triplet suites keep their
own predict stages and use the same pieces.

A prompt is::

    instruction
    answer format            (the schema's JSON instruction when decoding is structured, else the free-text one)
    k examples               (item + cue + gold answer; ``shots=k`` adapter argument, 0 by default)
    the item + cue

Few-shot examples come from the suite's training data (``suite.training()[0]``: the train split, or what
stands in for it, recorded) and never from the test split: an example is refused when its id, group or
text occurs among the test items (:func:`draw_shots`). They are drawn deterministically (a hash of the suite
and item id orders the candidates, labels take turns), so every run and every test item gets the same ones.

The record is the request: the template a prediction names (``meta["prompt_template"]``, version, hash, the
``structured`` mode) and ``details.generation.template`` describe the text that was sent, never another one. A
template sent with the JSON answer instruction of its reply schema is a template of its own
(:meth:`PromptTemplate.sent`: ``NAME+json``, its hash covers the JSON instruction); a protocol's published prompt
adapted by sentiprobe says what it was adapted from (``adapted_from``).

Parse accounting: every prediction records whether its reply parsed (``parse_ok``) and the raw reply; a
request that failed for good leaves ``meta["generation_error"]`` (the item is unanswered, scored as wrong and
reported apart, never as a parse failure). A reply cut off at the token limit (the adapter returns
``{"text": ..., "finish_reason": "length"}``, see :func:`reply_parts`) and, under structured decoding, a reply
that is not valid JSON are parse failures whatever a lenient reading could recover; the raw reply is kept.
:func:`generation_record` summarises that for results, report and terminal.
"""
from __future__ import annotations

import json
import logging
import re
from collections.abc import Callable, Mapping, Sequence
from dataclasses import dataclass, field
from typing import TYPE_CHECKING, Any

from ..core.errors import ConfigError
from ..core.hashing import stable_hash
from ..core.types import Item, Prediction
from ..models.http_retry import LLMError, LLMFatalError
from ..stats.bootstrap import mean_metric
from ..stats.level import alpha_of
from .spec import Predicted

if TYPE_CHECKING:
    from .base import Suite

log = logging.getLogger("sentiprobe")

JSON_INSTRUCTION = "Answer with a JSON object only, in this form: {form}"


def describe_schema(node: Any) -> str:
    """A JSON-like description of a schema for the prompt: enums as ``one of "a", "b"``, strings by their
    ``description``. No example values: small models copy an example's values into their replies."""
    if not isinstance(node, Mapping):
        return "a value"
    if "enum" in node:
        return "one of " + ", ".join(json.dumps(v, ensure_ascii=False) for v in node["enum"])
    kind = node.get("type")
    if kind == "object":
        props = node.get("properties") or {}
        return "{" + ", ".join(f"{json.dumps(k)}: {describe_schema(v)}" for k, v in props.items()) + "}"
    if kind == "array":
        return f"a list of {describe_schema(node.get('items'))}"
    return str(node.get("description") or ("text" if kind == "string" else kind or "a value"))


@dataclass(frozen=True)
class ReplySchema:
    """What a reply must look like.

    Attributes:
        name: schema name (sent to servers that want one; letters, digits, underscores).
        schema: the JSON schema of a reply (the root is an object).
        example: a valid reply value (documentation and tests; the prompt describes the schema instead, see
            :func:`describe_schema`).
        choices: the labels, when a reply is one label (``choice`` decoding sends them as they are).
        field: the property that holds the label (classification suites), else None.
    """

    name: str
    schema: Mapping[str, Any]
    example: Mapping[str, Any]
    choices: tuple[str, ...] | None = None
    field: str | None = None

    def wire(self) -> dict[str, Any]:
        """The JSON-able form adapters take (``generate(..., schema=...)``)."""
        return {"name": self.name, "schema": json.loads(json.dumps(self.schema)),
                "choices": None if self.choices is None else list(self.choices)}

    def instruction(self) -> str:
        return JSON_INSTRUCTION.format(form=describe_schema(self.schema))


def label_reply(name: str, labels: Sequence[str], field: str = "label") -> ReplySchema:
    """The reply schema of a classification suite: ``{field: one of labels}``."""
    return ReplySchema(name=name, schema={"type": "object", "properties": {field: {"type": "string",
                                                                                 "enum": list(labels)}},
                                          "required": [field], "additionalProperties": False},
                       example={field: labels[0]}, choices=tuple(labels), field=field)


@dataclass(frozen=True)
class PromptTemplate:
    """A versioned prompt template (bump ``version`` whenever a text changes; the hash covers every text).

    Attributes:
        name: template name (``sentivent-polar``).
        version: version string.
        instruction: the task, stated once at the top.
        answer_format: the free-text answer instruction (used when decoding is not structured).
        item: one item's text, with ``str.format`` fields filled by the task's ``fields``.
        cue: what follows the item (the answer follows it in examples).
    """

    name: str
    version: str
    instruction: str
    answer_format: str
    item: str
    cue: str = "Answer:"

    @property
    def hash(self) -> str:
        return stable_hash({"name": self.name, "version": self.version, "instruction": self.instruction,
                            "answer_format": self.answer_format, "item": self.item, "cue": self.cue}, 16)

    def describe(self) -> dict[str, Any]:
        """JSON-able record (results, report, ``sentiprobe list prompts``)."""
        return {"name": self.name, "version": self.version, "hash": self.hash, "instruction": self.instruction,
                "answer_format": self.answer_format, "item": self.item, "cue": self.cue}

    def sent(self, reply: ReplySchema | None, adapted_from: str | None = None) -> dict[str, Any]:
        """The record of the template as it is sent: itself in free text; with a reply schema (structured
        decoding) the template whose answer format is the schema's JSON instruction, named ``NAME+json`` with a
        hash of its own. ``adapted_from`` names the published prompt this one adapts (a protocol's)."""
        out = self.describe()
        if reply is not None:
            out.update(name=f"{self.name}+json", answer_format=reply.instruction(),
                       hash=stable_hash({"template": self.hash, "answer_format": reply.instruction()}, 16))
        out["kind"] = "adapted" if adapted_from else "sentiprobe"
        if adapted_from:
            out["adapted_from"] = adapted_from
        return out

    def render(self, fields: Mapping[str, str], *, reply: ReplySchema | None,
               shots: Sequence[tuple[Mapping[str, str], str]] = ()) -> str:
        """The prompt for one item; ``reply`` set means structured decoding (JSON answer instruction)."""
        parts = [self.instruction, reply.instruction() if reply is not None else self.answer_format]
        parts += [f"{self.item.format(**f)}\n{self.cue} {answer}" for f, answer in shots]
        parts.append(f"{self.item.format(**fields)}\n{self.cue}")
        return "\n\n".join(p for p in parts if p)


def _no_text(item: Item) -> str | None:
    return item.label


@dataclass(frozen=True)
class GenerativeTask:
    """A suite's declaration of how generative models are asked (``SuiteSpec.prompting``).

    Attributes:
        template: the prompt template.
        reply: the reply schema.
        fields: item -> the template's fields.
        gold: item -> the JSON reply value of a training item (few-shot examples in structured mode), or None
            when the item cannot serve as an example.
        gold_text: item -> the free-text answer of a training item (examples when decoding is off);
            default: its label.
        max_tokens: reply budget.
        labels: the label set (classification: replies are parsed against it).
        item_schema: item -> the reply schema narrowed to that item (e.g. triplet spans that must be copied
            from the sentence become an enum of its spans), sent with the item's prompt when decoding is
            structured; None: the one schema for every item.
    """

    template: PromptTemplate
    reply: ReplySchema
    fields: Callable[[Item], dict[str, str]]
    gold: Callable[[Item], Any]
    gold_text: Callable[[Item], str | None] = _no_text
    max_tokens: int = 32
    labels: tuple[str, ...] = ()
    item_schema: Callable[[Item], dict[str, Any]] | None = None

    def describe(self) -> dict[str, Any]:
        return {"template": self.template.describe(), "reply_schema": self.reply.wire(),
                "json_instruction": self.reply.instruction(), "max_tokens": self.max_tokens}


def label_task(template: PromptTemplate, labels: Sequence[str], fields: Callable[[Item], dict[str, str]], *,
               name: str, field: str = "label", max_tokens: int = 16) -> GenerativeTask:
    """The task of a classification suite: a label out of ``labels`` in ``{field: label}``."""
    reply = label_reply(name, labels, field)
    return GenerativeTask(template=template, reply=reply, fields=fields,
                          gold=lambda it: {field: it.label} if it.label in labels else None,
                          max_tokens=max_tokens, labels=tuple(labels))


# ---- parsing ------------------------------------------------------------------------------------------

_FENCE = re.compile(r"```(?:json)?\s*(.*?)```", re.S)


def reply_json(reply: str) -> Any:
    """The JSON value in a reply (the whole reply, a fenced block, or the outermost ``{...}`` / ``[...]``).

    Raises ValueError when there is none; a value nested too deeply to read is one unreadable reply
    (ValueError), never an internal error.
    """
    candidates = [reply.strip()] + [m.group(1).strip() for m in _FENCE.finditer(reply)]
    for c in candidates:
        for text in (c, *_outermost(c)):
            try:
                return json.loads(text)
            except json.JSONDecodeError:
                continue
            except RecursionError:
                raise ValueError("JSON nested too deeply to read") from None
    raise ValueError("no JSON value in the reply")


def truncated_field(reply: str, name: str, *, complete: bool = True) -> str | None:
    """A string field of a JSON object that was cut off (``max_tokens`` reached inside a structured reply):
    ``{"label": "true", "justification": "The review sa`` gives ``true`` for ``label`` and, with
    ``complete=False``, ``The review sa`` for ``justification``. None when the field is not there (or, with
    ``complete``, its closing quote is missing)."""
    m = re.search(r'"' + re.escape(name) + r'"\s*:\s*"((?:[^"\\]|\\.)*)("?)', reply)
    if m is None or (complete and not m.group(2)):
        return None
    raw = m.group(1)
    if raw.endswith("\\") and not raw.endswith("\\\\"):
        raw = raw[:-1]
    try:
        return str(json.loads(f'"{raw}"'))
    except ValueError:
        return raw


def _outermost(text: str) -> list[str]:
    out = []
    for a_, b_ in (("{", "}"), ("[", "]")):
        a, b = text.find(a_), text.rfind(b_)
        if 0 <= a < b:
            out.append(text[a:b + 1])
    return out


def _label_pattern(labels: Sequence[str]) -> re.Pattern[str]:
    alts = sorted((re.escape(x.lower()) for x in labels), key=len, reverse=True)
    return re.compile(r"(?<![\w-])(" + "|".join(alts) + r")(?![\w-])")


def parse_label(reply: str | None, task: GenerativeTask, structured: bool) -> str | None:
    """The label of a classification reply, or None.

    Structured replies: the JSON object's label field (or a bare label: ``choice`` decoding); a reply that is
    not valid JSON does not parse, whatever label it starts with (cut off, or the server ignored the schema). Free text:
    the JSON field when the reply holds such an object, else the first label spelled as a whole word (case
    ignored); a reply naming no label does not parse.
    """
    if reply is None:
        return None
    text = reply.strip()
    by_lower = {x.lower(): x for x in task.labels}
    if text.lower().strip('"\'. ') in by_lower:
        return by_lower[text.lower().strip('"\'. ')]
    try:
        value = reply_json(text)
    except ValueError:
        value = None
    if isinstance(value, dict) and task.reply.field is not None:
        v = value.get(task.reply.field)
        if isinstance(v, str | int) and not isinstance(v, bool) and str(v).lower() in by_lower:
            return by_lower[str(v).lower()]
        return None
    if structured or value is not None:  # under structured decoding a reply that is not valid JSON fails
        return None
    m = _label_pattern(task.labels).search(text.lower())
    return by_lower[m.group(1)] if m else None


# ---- few-shot examples --------------------------------------------------------------------------------

def _norm(text: str | None) -> str:
    return " ".join((text or "").lower().split())


def draw_shots(suite: Suite, task: GenerativeTask, k: int) -> tuple[list[Item], dict[str, Any]]:
    """``k`` training items to show as examples, and the record of where they came from.

    Candidates are the suite's training items (``suite.training()[0]``, else its dev items) that have a gold
    answer and share no id, group or text with any test item (the full test split, whatever ``--limit``
    says). Order: a hash of (suite, item id); labels take turns so the examples cover the label set.
    """
    if k <= 0:
        return [], {"k": 0}
    train, dev = suite.training()
    source, pool = ("train", train) if train else ("dev", dev)
    if not pool:
        raise ConfigError(f"suite {suite.name!r} has no training or dev items to draw {k} few-shot examples from")
    test = suite.items("test")
    ids = {it.item_id for it in test}
    groups = {it.group_id for it in test}
    texts = {_norm(it.text) for it in test} | {_norm(it.text_pair) for it in test if it.text_pair}
    ok = [it for it in pool if it.item_id not in ids and it.group_id not in groups and _norm(it.text) not in texts
          and not (it.text_pair and _norm(it.text_pair) in texts) and task.gold(it) is not None]
    if len(ok) < k:
        raise ConfigError(f"suite {suite.name!r}: only {len(ok)} {source} items can serve as few-shot examples "
                          f"(no test overlap, a gold answer), {k} asked")
    ok.sort(key=lambda it: stable_hash([suite.name, it.item_id], 16))
    by_label: dict[str, list[Item]] = {}
    for it in ok:
        by_label.setdefault(str(it.label), []).append(it)
    chosen: list[Item] = []
    queues = list(by_label.values())
    while len(chosen) < k:
        for q in queues:
            if q and len(chosen) < k:
                chosen.append(q.pop(0))
    return chosen, {"k": k, "source": source, "item_ids": [it.item_id for it in chosen]}


# ---- asking -------------------------------------------------------------------------------------------

@dataclass
class Asked:
    """What :func:`ask` returns: a reply (None: unanswered) and an error text per prompt, and the record."""

    replies: list[Any]
    errors: list[str | None]
    prompts: list[str]
    record: dict[str, Any] = field(default_factory=dict)


def decoding_mode(predictor: Any, reply: ReplySchema, keep_free_text: str | None = None) -> tuple[str, str]:
    """(requested, resolved) structured-decoding mode of the predictor's model for ``reply``.

    Models without structured decoding (no ``structured_mode`` method) and ``structured=off`` give ``off``.
    ``auto`` is resolved through the prediction cache, so a re-run asks the server nothing; with
    ``keep_free_text`` (why: a protocol's published prompt with a free-text answer format) ``auto`` resolves to
    ``off`` without asking the server (an explicit mode is still used).
    """
    model = getattr(predictor, "model", predictor)  # a cached predictor, or a bare adapter
    requested = str(getattr(model, "structured", "off"))
    if requested == "off" or not callable(getattr(model, "structured_mode", None)):
        return requested if requested else "off", "off"
    if requested == "auto" and keep_free_text:
        return requested, "off"
    call = getattr(predictor, "call", None)
    wire = reply.wire()
    resolved = call("structured_mode", [wire])[0] if call is not None else model.structured_mode([wire])[0]
    return requested, str(resolved)


def reply_parts(value: Any) -> tuple[str | None, bool]:
    """(text, cut off) of one generated reply: a string, or ``{"text": ..., "finish_reason": "length"}`` (what
    the OpenAI-compatible adapter returns for a reply that hit the token limit); (None, False) for anything
    else (an unanswered item)."""
    if isinstance(value, str):
        return value, False
    if isinstance(value, Mapping) and isinstance(value.get("text"), str):
        return value["text"], value.get("finish_reason") == "length"
    return None, False


TRUNCATED = "the reply was cut off at the token limit (finish_reason: length)"
"""Why a cut-off reply is a parse failure (``meta["parse_error"]``)."""


def generate_tolerant(predictor: Any, prompts: list[Any], kw: dict[str, Any], what: str
                      ) -> tuple[list[Any], list[str | None]]:
    """Replies (None for requests that failed for good) and the error text per prompt.

    A failed batch is retried prompt by prompt, except for :class:`~sentiprobe.models.http_retry.LLMFatalError`
    (dead or hung server, tripped circuit breaker, deadline, interrupt): no single prompt can succeed then, and
    per-prompt retries would multiply the retry budget by the batch size. If every prompt fails, the last
    error is raised.
    """
    try:
        return list(predictor.generate(prompts, **kw)), [None] * len(prompts)
    except LLMFatalError:
        raise
    except LLMError as exc:
        log.warning("%s: a batch failed (%s); retrying its prompts one by one", what, exc)
    outs: list[Any] = []
    errors: list[str | None] = []
    last: Exception | None = None
    for p in prompts:
        try:
            outs.append(predictor.generate([p], **kw)[0])
            errors.append(None)
        except LLMFatalError:
            raise
        except LLMError as exc:
            last = exc
            outs.append(None)
            errors.append(str(exc)[:300])
    if last is not None and all(e is not None for e in errors):
        raise last
    return outs, errors


TemplateRecord = Callable[[ReplySchema | None, int], dict[str, Any]]
"""``(reply schema or None, number of examples) -> the record of the template sent`` (see :func:`ask`)."""


def ask(suite: Suite, predictor: Any, items: Sequence[Item], task: GenerativeTask, *,
        prompt_for: Callable[[Item, ReplySchema | None, list[tuple[dict[str, str], str]]], str] | None = None,
        max_tokens: int | None = None, temperature: float = 0.0, sent_template: TemplateRecord | None = None,
        keep_free_text: str | None = None) -> Asked:
    """Prompt (with the suite's template, the model's ``shots`` and decoding mode), generate through the cache.

    ``prompt_for(item, reply or None, shots)`` overrides the template rendering (SOUL keeps the spec's
    zero-shot wording when decoding is off); ``sent_template(reply or None, k)`` then says which template that
    rendering is (default: :meth:`PromptTemplate.sent` of the task's). ``keep_free_text``: see
    :func:`decoding_mode`. The template record is what every prediction, ``details.generation`` and the model's
    ``template_hash`` (its fingerprint and config) name.
    """
    model = getattr(predictor, "model", predictor)
    requested, mode = decoding_mode(predictor, task.reply, keep_free_text)
    structured = mode != "off"
    k = int(getattr(model, "shots", 0) or 0)
    examples, shot_record = draw_shots(suite, task, k)
    shots = [(task.fields(it), json.dumps(task.gold(it), ensure_ascii=False) if structured
              else str(task.gold_text(it))) for it in examples]
    reply = task.reply if structured else None
    template = (sent_template or (lambda r, _k: task.template.sent(r)))(reply, k)
    if hasattr(model, "template_hash"):  # the template sent enters the fingerprint and the config
        model.template_hash = template["hash"]
    render = prompt_for or (lambda it, r, s: task.template.render(task.fields(it), reply=r, shots=s))
    prompts = [render(it, reply, shots) for it in items]
    kw: dict[str, Any] = {"max_tokens": max_tokens or task.max_tokens, "temperature": temperature}
    payloads: list[Any] = list(prompts)
    if structured and task.item_schema is not None:  # each prompt carries its own narrowed schema
        wire = task.reply.wire()
        payloads = [{"prompt": p, "schema": {**wire, "schema": task.item_schema(it)}} for p, it in zip(prompts, items)]
        kw["structured"] = mode
    elif structured:
        kw.update(schema=task.reply.wire(), structured=mode)
    replies, errors = generate_tolerant(predictor, payloads, kw, f"{suite.name} generation")
    record = {"template": template, "reply_schema": task.reply.wire() if structured else None,
              "structured_requested": requested, "structured": mode, "shots": shot_record,
              "max_tokens": kw["max_tokens"], "temperature": temperature}
    if requested == "auto" and keep_free_text:
        record["structured_note"] = keep_free_text
    return Asked(replies, errors, prompts, record)


def prediction_meta(asked: Asked, k: int) -> dict[str, Any]:
    """The per-prediction record of how item ``k`` was asked (and whether its reply was cut off)."""
    r = asked.record
    meta: dict[str, Any] = {"mode": "generate", "prompt_template": r["template"]["name"],
                            "prompt_version": r["template"]["version"], "prompt_hash": r["template"]["hash"],
                            "structured": r["structured"], "shots": r["shots"]["k"], "prompt": asked.prompts[k],
                            "max_tokens": r["max_tokens"], "temperature": r["temperature"]}
    text, cut = reply_parts(asked.replies[k])
    if asked.errors[k] is not None or text is None:
        meta["generation_error"] = asked.errors[k] or f"the model returned {type(asked.replies[k]).__name__}"
    elif cut:
        meta.update(finish_reason="length", parse_error=TRUNCATED)
    return meta


def predict_labels(suite: Suite, predictor: Any, items: Sequence[Item], task: GenerativeTask) -> Predicted:
    """The predict stage of a classification suite for a model that generates: one parsed label per item (a
    reply cut off at the token limit is a parse failure, its raw text kept), and the record of how the model was
    asked."""
    asked = ask(suite, predictor, items, task)
    structured = asked.record["structured"] != "off"
    preds = []
    for k, it in enumerate(items):
        meta = prediction_meta(asked, k)
        reply, cut = reply_parts(asked.replies[k])
        label = parse_label(reply, task, structured) if reply is not None and not cut else None
        preds.append(Prediction(it.item_id, label, raw=reply, parse_ok=label is not None, meta=meta))
    return Predicted(tuple(preds), asked.record)


# ---- accounting ---------------------------------------------------------------------------------------

def generation_record(preds: Sequence[Prediction], asked: Mapping[str, Any] | None = None,
                      n_examples: int = 5) -> dict[str, Any] | None:
    """Parse accounting of generated predictions (None when no prediction was generated).

    ``{"n", "parsed", "parse_failures", "parse_failure_rate", "unanswered", "unanswered_errors",
    "first_replies", "first_failures", "warning", ...how it was asked}``; ``warning`` (or None) names the
    likely cause when more than half the answered replies did not parse.
    """
    gen = [p for p in preds if isinstance(p.meta, dict) and p.meta.get("mode") == "generate"]
    if not gen:
        return None
    unanswered = [p for p in gen if p.meta.get("generation_error")]
    answered = [p for p in gen if not p.meta.get("generation_error")]
    failed = [p for p in answered if not p.parse_ok]
    rate = len(failed) / len(answered) if answered else None
    out: dict[str, Any] = dict(asked or {})
    out.update(n=len(gen), parsed=len(answered) - len(failed), parse_failures=len(failed),
               parse_failure_rate=rate, unanswered=len(unanswered),
               truncated=sum(1 for p in answered if p.meta.get("finish_reason") == "length"),
               unanswered_errors=sorted({str(p.meta["generation_error"])[:200] for p in unanswered})[:3],
               first_replies=[_clip(p.raw) for p in answered[:n_examples]],
               first_failures=[{"item_id": p.item_id, "reply": _clip(p.raw)} for p in failed[:n_examples]],
               structured=(asked or {}).get("structured", gen[0].meta.get("structured", "off")))
    out["warning"] = _likely_cause(failed, answered, out) if rate is not None and rate > 0.5 else None
    return out


def asked_summary(gen: Mapping[str, Any] | None) -> str | None:
    """One line saying how a generative model was asked (``details.generation``): the template sent, the decoding
    mode and the parse accounting, for the console and the comparison report (None: the model did not generate)."""
    if not isinstance(gen, Mapping):
        return None
    t = gen.get("template") or {}
    used, requested = gen.get("structured", "off"), gen.get("structured_requested")
    mode = f"structured {used}" + (f" (requested {requested})" if requested not in (None, used) else "")
    kind = {"protocol": ", the protocol's prompt", "adapted": ", adapted prompt"}.get(str(t.get("kind")), "")
    rate = gen.get("parse_failure_rate")
    parts = [f"prompt {t.get('name')} v{t.get('version')} #{t.get('hash')}{kind}", mode,
             f"parse failures {100 * rate:.1f}%" if isinstance(rate, int | float) else "parse failures n/a"]
    if gen.get("unanswered"):
        parts.append(f"{gen['unanswered']} unanswered")
    return "; ".join(parts)


def _clip(text: str | None, limit: int = 200) -> str | None:
    if text is None:
        return None
    return text if len(text) <= limit else text[:limit] + "\u2026"


def _likely_cause(failed: Sequence[Prediction], answered: Sequence[Prediction], rec: Mapping[str, Any]) -> str:
    """One sentence naming the most likely reason why most replies did not parse."""
    raws = [(p.raw or "").strip() for p in failed]
    share = f"{len(failed)} of {len(answered)} replies ({len(failed) / len(answered):.0%}) did not parse"
    empty = sum(1 for r in raws if not r)
    html = sum(1 for r in raws if r[:1] == "<" or "<html" in r[:200].lower())
    cut = sum(1 for p, r in zip(failed, raws) if p.meta.get("finish_reason") == "length"
              or (r[:1] in "{[" and not r.endswith(("}", "]"))))
    if empty > len(raws) / 2:
        why = ("most replies are empty: the wrong endpoint or chat template (an instruct model behind "
               "endpoint=completions answers nothing useful), or max_tokens too small")
    elif html > len(raws) / 2:
        why = "the replies look like HTML: base_url points at a web page or proxy, not the model's API"
    elif cut > len(raws) / 2:
        why = (f"the replies are cut off (finish_reason length, or JSON that never closes): max_tokens "
               f"({rec.get('max_tokens')}) is too small for them")
    elif rec.get("structured", "off") == "off" and rec.get("structured_note"):
        why = ("the protocol's free-text prompt was sent (structured=auto keeps it) and the model did not follow its "
               "answer format: an explicit --model-arg structured=json_schema (or json_object, grammar) sends the "
               "adapted prompt with a constrained reply instead")
    elif rec.get("structured", "off") == "off":
        why = ("decoding was not structured (structured=off, or the server accepts none of the modes): use "
               "--model-arg structured=auto with a server that constrains replies to the suite's schema")
    else:
        why = (f"even with structured decoding ({rec.get('structured')}) the replies do not match the schema: "
               "the server may ignore the constraint")
    return f"{share}; likely cause: {why}"


def parse_failure_metric(preds: Sequence[Prediction], *, n_boot: int, seed: int, confidence: float) -> Any:
    """``parse_failure_rate`` (lower is better): the share of answered generated replies that did not parse,
    with a bootstrap CI over items at level ``confidence`` (unanswered items are reported apart, see
    :func:`generation_record`)."""
    flags = [float(not p.parse_ok) for p in preds
             if isinstance(p.meta, dict) and p.meta.get("mode") == "generate" and not p.meta.get("generation_error")]
    return mean_metric("parse_failure_rate", flags, n_boot=n_boot, seed=seed, alpha=alpha_of(confidence),
                       higher_is_better=False,
                       note="share of the model's replies that did not parse")
