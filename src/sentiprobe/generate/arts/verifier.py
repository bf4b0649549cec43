"""A whole-variant verifier: reads the original and the edited sentence and answers whether the variant is fluent,
what the target's sentiment now is and whether the strategy's condition holds.

Why: the validity rules read only the edited words and the fluency ranking a whole sentence's likelihood; neither
can see a reversed opinion that its unchanged context contradicts, a negated hedge or a wrong-sense antonym. A
reader of the whole sentence can. Three verifiers share one protocol (:class:`Verifier`):

- ``endpoint`` (:class:`EndpointVerifier`): any OpenAI-compatible server through the structured LLM layer
  (:class:`~sentiprobe.models.llm.OpenAICompatibleModel`: a JSON-schema reply, retries, timeouts, the API key
  from the environment only). One request per variant with a short fixed instruction that names the strategy's
  condition in words; the reply is a JSON object ``{fluent, target_sentiment, condition_holds, notes}``.
- ``local`` (:class:`LocalVerifier`): the packaged SmolLM2-135M-Instruct. Constrained JSON decoding costs some
  forty forward passes per verdict on a CPU, so the local verifier asks closed questions instead and reads each
  option's log-likelihood (:mod:`sentiprobe.models.closed_questions`: one forward pass of the sentence, then one
  batched pass of all its questions over the shared prefix): *is the sentence fluent* (yes/no), *the sentiment
  toward the target* (positive/negative/neutral) and, for the strategy's condition, the sentiment toward each
  aspect whose label the strategy sets (RevNon's reversed aspects, AddDiff's appended ones); the condition holds
  when every one reads as expected (for RevTgt, when the target reads as its new label). Each answer comes with
  its margin (log-probability of the chosen option minus the next best), after subtracting the answer the model
  gives to the same question about an empty sentence (contextual calibration: a 135M model prefers some options
  whatever it reads). A 135M model is a weak reader: see docs/arts-generate.md#verifier for its measured
  accuracy and the policy that follows from it.
- ``none`` (the default): no verifier; the output is what it was without one. The local verifier is not the
  default because its answers were measured at chance level and it costs about a quarter CPU second per variant.

Verdicts are cached in ``verifier.sqlite`` under the generation cache dir, keyed by the verifier's identity
(model and settings), the prompt's hash and the texts, so a warm re-run asks nothing.
"""
from __future__ import annotations

import hashlib
import json
import re
import sqlite3
import threading
from collections.abc import Mapping, Sequence
from dataclasses import asdict, dataclass, field
from pathlib import Path
from typing import Any, Protocol

from ...core.errors import CacheCorruptError, ConfigError

SENTIMENTS = ("positive", "negative", "neutral")
VERIFIERS = ("none", "local", "endpoint")
_ADD = ("adddiff", "adddiff_k", "revnon_adddiff")


def condition_text(strategy: str, term: str, expected: str, others: Sequence[tuple[str, str]]) -> str:
    """The strategy's condition in words (the endpoint's prompt names it)."""
    listed = "; ".join(f'"{t}" {lab}' for t, lab in others) or "none listed"
    if strategy == "revtgt":
        return (f'RevTgt: the sentiment toward "{term}" was reversed and now reads {expected}, and the rest of the '
                "sentence does not contradict the new sentiment")
    if strategy == "revnon":
        return (f'RevNon: the sentiment toward "{term}" is unchanged ({expected}); the other aspects now read: '
                f"{listed}")
    if strategy == "revnon_adddiff":
        return (f'RevNon + AddDiff: the sentiment toward "{term}" is unchanged ({expected}); the other aspects, '
                f"including the appended ones, read: {listed}; appended clauses fit the sentence")
    return (f'AddDiff: the sentiment toward "{term}" is unchanged ({expected}); the appended clauses are about '
            f"other aspects and read: {listed}; they fit the sentence")


@dataclass(frozen=True)
class Query:
    """What a verifier reads about one variant."""

    key: str
    strategy: str
    original: str
    variant: str
    term: str
    expected: str
    others: tuple[tuple[str, str], ...] = ()
    """(term, expected label) of the aspects whose label the strategy sets (RevNon's reversed ones, AddDiff's
    appended ones)."""

    def texts(self) -> str:
        return json.dumps([self.strategy, self.original, self.variant, self.term, self.expected,
                           [list(o) for o in self.others]], ensure_ascii=False)


@dataclass(frozen=True)
class Verdict:
    """A verifier's answer about one variant (written to the variant's ``provenance.verifier``)."""

    fluent: bool | None
    target_sentiment: str | None
    condition_holds: bool | None
    notes: str
    verifier: str
    prompt: str
    margins: dict[str, float] = field(default_factory=dict)
    """Local verifier: log-probability margin (nats) of each answer over the next option, after calibration."""
    error: str | None = None
    """Why there is no usable verdict (an unreadable reply); the other fields are then None."""

    def to_dict(self) -> dict[str, Any]:
        d = asdict(self)
        if not self.margins:
            d.pop("margins")
        if self.error is None:
            d.pop("error")
        return d

    @classmethod
    def from_dict(cls, d: Mapping[str, Any]) -> Verdict:
        return cls(**{k: d[k] for k in cls.__dataclass_fields__ if k in d})

    def problems(self, q: Query, min_margin: float = 0.0) -> list[str]:
        """Why the verdict rejects the variant (empty: accepted). With margins, an answer counts only when its
        margin is at least ``min_margin`` nats (a weak reader's unsure answers reject nothing)."""
        if self.error is not None:
            return [f"verifier: no usable verdict ({self.error})"]

        def sure(name: str) -> bool:
            return not self.margins or self.margins.get(name, 0.0) >= min_margin

        out = []
        if self.fluent is False and sure("fluent"):
            out.append("verifier: not fluent")
        if self.target_sentiment is not None and self.target_sentiment != q.expected and sure("target_sentiment"):
            out.append(f"verifier: target reads {self.target_sentiment}, expected {q.expected}")
        if self.condition_holds is False and sure("condition_holds") and not (
                q.strategy == "revtgt" and out and out[-1].startswith("verifier: target reads")):
            out.append(f"verifier: {q.strategy} condition fails")
        return out


class Verifier(Protocol):
    """Anything that turns queries into verdicts (one per query, in order). ``policy``: ``refuse`` (a variant
    whose verdict rejects it is left out) or ``record`` (verdicts are only recorded); ``min_margin``: with
    margins, the nats an answer needs to count (see :meth:`Verdict.problems`)."""

    identity: str
    prompt_hash: str
    policy: str
    min_margin: float

    def verify(self, queries: Sequence[Query]) -> list[Verdict]: ...

    def describe(self) -> dict[str, Any]: ...


# ---- endpoint: any OpenAI-compatible server, structured JSON reply -------------------------------------------

ENDPOINT_INSTRUCTION = (
    "You check a review sentence that a program edited to test sentiment classifiers.\n"
    "Original: {original}\nEdited: {variant}\nTarget aspect: \"{term}\"\nCondition: {condition}\n"
    "Reply with a JSON object: \"fluent\" (true when the edited sentence is grammatical, natural English that makes "
    "sense as a whole), \"target_sentiment\" (the sentiment a reader gets toward the target in the edited sentence: "
    "positive, negative or neutral), \"condition_holds\" (true when the condition holds in the edited sentence) and "
    "\"notes\" (one short sentence saying what is wrong, or an empty string).")
VERDICT_SCHEMA = {"name": "arts_verdict", "schema": {
    "type": "object", "additionalProperties": False,
    "required": ["fluent", "target_sentiment", "condition_holds", "notes"],
    "properties": {"fluent": {"type": "boolean"}, "target_sentiment": {"enum": list(SENTIMENTS)},
                   "condition_holds": {"type": "boolean"}, "notes": {"type": "string"}}}}


def _hash(*parts: Any) -> str:
    return hashlib.sha256(json.dumps(parts, sort_keys=True).encode()).hexdigest()[:16]


def parse_verdict(reply: Any) -> dict[str, Any]:
    """The verdict fields of a reply (a JSON object, possibly inside a code fence); ValueError says what is wrong."""
    if isinstance(reply, Mapping):
        if reply.get("finish_reason") == "length":
            raise ValueError("the reply was cut off at the token limit")
        reply = reply.get("text")
    if not isinstance(reply, str):
        raise ValueError(f"a reply of type {type(reply).__name__}")
    text = reply.strip()
    m = re.search(r"\{.*\}", text, re.S)
    try:
        obj = json.loads(m.group(0) if m else text)
    except ValueError:
        raise ValueError(f"not JSON: {text[:80]!r}") from None
    if not isinstance(obj, dict):
        raise ValueError("not a JSON object")
    sentiment = str(obj.get("target_sentiment", "")).strip().lower()
    if not isinstance(obj.get("fluent"), bool) or not isinstance(obj.get("condition_holds"), bool):
        raise ValueError("'fluent' and 'condition_holds' must be true or false")
    if sentiment not in SENTIMENTS:
        raise ValueError(f"'target_sentiment' must be one of {list(SENTIMENTS)}, got {obj.get('target_sentiment')!r}")
    notes = obj.get("notes", "")
    return {"fluent": obj["fluent"], "target_sentiment": sentiment, "condition_holds": obj["condition_holds"],
            "notes": notes if isinstance(notes, str) else json.dumps(notes)}


class EndpointVerifier:
    """A verifier behind an OpenAI-compatible server (the structured LLM layer; see the module docstring).
    A model the user chose: its rejections are acted on (``policy = "refuse"``)."""

    policy = "refuse"
    min_margin = 0.0

    def __init__(self, base_url: str | None = None, model: str | None = None, *, timeout: float = 60.0,
                 max_retries: int = 3, max_concurrency: int = 4) -> None:
        from ...models.llm import OpenAICompatibleModel

        self.llm = OpenAICompatibleModel(base_url=base_url, model=model, max_tokens=200, temperature=0.0,
                                         timeout=timeout, max_retries=max_retries, max_concurrency=max_concurrency,
                                         structured="auto")
        self.prompt_hash = _hash(ENDPOINT_INSTRUCTION, VERDICT_SCHEMA)
        self.llm.template_hash = self.prompt_hash
        self.identity = f"endpoint:{self.llm.model}@{self.llm.base_url}"

    def prompt(self, q: Query) -> str:
        return ENDPOINT_INSTRUCTION.format(original=q.original, variant=q.variant, term=q.term,
                                           condition=condition_text(q.strategy, q.term, q.expected, q.others))

    def verify(self, queries: Sequence[Query]) -> list[Verdict]:
        if not queries:
            return []
        replies = self.llm.generate([self.prompt(q) for q in queries], schema=VERDICT_SCHEMA)
        out = []
        for r in replies:
            try:
                out.append(Verdict(**parse_verdict(r), verifier=self.identity, prompt=self.prompt_hash))
            except ValueError as exc:
                out.append(Verdict(None, None, None, "", self.identity, self.prompt_hash,
                                   error=f"unreadable reply: {exc}"))
        return out

    def describe(self) -> dict[str, Any]:
        return {"verifier": self.identity, "prompt": self.prompt_hash, "structured": self.llm.structured}

    def close(self) -> None:
        self.llm.close()


# ---- local: closed questions to the packaged SmolLM2 ------------------------------------------------------

LOCAL_SHARED = (
    "Each review sentence is followed by answers: is it fluent English, and the sentiment toward an aspect.\n\n"
    "Sentence: The battery lasts all day.\nFluent: yes\nSentiment toward \"battery\": positive\n\n"
    "Sentence: The waiter is never rude to us.\nFluent: yes\nSentiment toward \"waiter\": positive\n\n"
    "Sentence: The screen the is dim very.\nFluent: no\nSentiment toward \"screen\": negative\n\n"
    "Sentence: I did not enjoy the pasta at all.\nFluent: yes\nSentiment toward \"pasta\": negative\n\n"
    "Sentence: We ordered the soup and a salad.\nFluent: yes\nSentiment toward \"soup\": neutral\n\n"
    "Sentence: The keyboard is not comfortable, but the price is fair.\nFluent: yes\n"
    "Sentiment toward \"keyboard\": negative\nSentiment toward \"price\": positive\n\n"
    "Sentence: The service were not a little slow friendly.\nFluent: no\nSentiment toward \"service\": "
    "negative\n\n")
LOCAL_SENTENCE = "Sentence: {sentence}\n"
LOCAL_FLUENT = "Fluent:"
LOCAL_ASPECT = 'Sentiment toward "{term}":'
LOCAL_YES_NO = (" yes", " no")
LOCAL_SENTIMENTS = tuple(f" {s}" for s in SENTIMENTS)
LOCAL_MAX_OTHERS = 4
"""At most this many aspects' readings decide the condition (each is one more question)."""


class LocalVerifier:
    """The packaged SmolLM2-135M-Instruct answering closed questions (see the module docstring).

    Its answers were measured at chance level on the released ARTS variants (docs/arts-generate.md#verifier):
    its verdicts are recorded, never acted on (``policy = "record"``)."""

    policy = "record"
    min_margin = 0.0

    def __init__(self, *, threads: int | None = None, convert_dir: Path | None = None) -> None:
        from ...models.closed_questions import ClosedQuestionLM

        self.lm = ClosedQuestionLM(threads=threads, convert_dir=convert_dir)
        self.prompt_hash = _hash(LOCAL_SHARED, LOCAL_SENTENCE, LOCAL_FLUENT, LOCAL_ASPECT, LOCAL_MAX_OTHERS,
                                 "calibrated")
        self.identity = f"local:{self.lm.model_id}"
        self._prior: dict[str, dict[str, float]] | None = None

    def _questions(self, q: Query) -> Any:
        from ...models.closed_questions import Item, Question

        qs = [Question(LOCAL_FLUENT, LOCAL_YES_NO), Question(LOCAL_ASPECT.format(term=q.term), LOCAL_SENTIMENTS)]
        qs += [Question(LOCAL_ASPECT.format(term=t), LOCAL_SENTIMENTS) for t, _ in q.others[:LOCAL_MAX_OTHERS]]
        return Item(LOCAL_SHARED, LOCAL_SENTENCE.format(sentence=q.variant), tuple(qs))

    def _priors(self) -> dict[str, dict[str, float]]:
        """The answers about an empty sentence (contextual calibration), once per process."""
        if self._prior is None:
            from ...models.closed_questions import Item, Question

            item = Item(LOCAL_SHARED, LOCAL_SENTENCE.format(sentence="N/A"),
                        (Question(LOCAL_FLUENT, LOCAL_YES_NO),
                         Question(LOCAL_ASPECT.format(term="N/A"), LOCAL_SENTIMENTS)))
            fl, se = self.lm.answer([item])[0]
            self._prior = {"fluent": fl, "sentiment": se}
        return self._prior

    def verify(self, queries: Sequence[Query]) -> list[Verdict]:
        if not queries:
            return []
        prior = self._priors()
        answers = self.lm.answer([self._questions(q) for q in queries])
        return [self._verdict(q, a, prior) for q, a in zip(queries, answers)]

    def _verdict(self, q: Query, ans: list[dict[str, float]], prior: dict[str, dict[str, float]]) -> Verdict:
        fl = _best(ans[0], prior["fluent"])
        tgt = _best(ans[1], prior["sentiment"])
        reads = [(t, lab, _best(a, prior["sentiment"])) for (t, lab), a in zip(q.others, ans[2:])]
        if q.strategy == "revtgt" or not reads:
            holds, margin = tgt[0] == q.expected, tgt[1]
        else:
            holds = all(r[0] == lab for _, lab, r in reads)
            margin = min((r[1] for _, lab, r in reads if (r[0] == lab) == holds), default=0.0)
        notes = [f"fluent: {fl[0]} ({fl[1]:.2f})", f'"{q.term}" reads {tgt[0]} ({tgt[1]:.2f}; expected {q.expected})']
        notes += [f'"{t}" reads {r[0]} ({r[1]:.2f}; expected {lab})' for t, lab, r in reads]
        return Verdict(fl[0] == "yes", tgt[0], holds, "; ".join(notes), self.identity, self.prompt_hash,
                       {"fluent": fl[1], "target_sentiment": tgt[1], "condition_holds": round(margin, 2)})

    def describe(self) -> dict[str, Any]:
        return {"verifier": self.identity, "prompt": self.prompt_hash, "threads": self.lm.threads}


def _best(scores: Mapping[str, float], prior: Mapping[str, float]) -> tuple[str, float]:
    """The calibrated answer and its margin over the next option (nats, rounded to 0.01: recorded in the output,
    which must not change with float noise)."""
    cal = sorted(((round(scores[o] - prior.get(o, 0.0), 4), o.strip()) for o in scores), reverse=True)
    return cal[0][1], round(cal[0][0] - cal[1][0], 2)


# ---- cache -------------------------------------------------------------------------------------------------

class VerdictCache:
    """Verdicts in SQLite (``verifier.sqlite``), keyed by verifier identity, prompt hash and the query's texts."""

    def __init__(self, path: Path) -> None:
        self.path = Path(path)
        self._db: sqlite3.Connection | None = None
        self._lock = threading.Lock()

    def _conn(self) -> sqlite3.Connection:
        if self._db is None:
            from ...models.fluency_lm import unwritable

            self.path.parent.mkdir(parents=True, exist_ok=True)
            try:
                self._db = sqlite3.connect(str(self.path), timeout=30, check_same_thread=False)
                self._db.execute("CREATE TABLE IF NOT EXISTS verdicts (key TEXT PRIMARY KEY, verdict TEXT)")
            except sqlite3.OperationalError as exc:
                raise unwritable(self.path, exc) from None
            except sqlite3.DatabaseError as exc:
                raise CacheCorruptError(self.path, f"the verifier's cache is unreadable ({exc}); delete it") from None
        return self._db

    @staticmethod
    def key(v: Verifier, q: Query) -> str:
        return hashlib.sha256(f"{v.identity}\0{v.prompt_hash}\0{q.texts()}".encode()).hexdigest()

    def get(self, keys: Sequence[str]) -> dict[str, Verdict]:
        out: dict[str, Verdict] = {}
        with self._lock:
            db = self._conn()
            for i in range(0, len(keys), 500):
                chunk = list(keys[i:i + 500])
                q = f"SELECT key, verdict FROM verdicts WHERE key IN ({','.join('?' * len(chunk))})"
                for k, text in db.execute(q, chunk):
                    try:
                        out[k] = Verdict.from_dict(json.loads(text))
                    except (ValueError, TypeError):
                        continue  # a damaged entry is asked again
        return out

    def put(self, items: Mapping[str, Verdict]) -> None:
        with self._lock:
            db = self._conn()
            with db:
                db.executemany("INSERT OR REPLACE INTO verdicts VALUES (?, ?)",
                               [(k, json.dumps(v.to_dict(), sort_keys=True)) for k, v in items.items()])

    def close(self) -> None:
        if self._db is not None:
            self._db.close()
            self._db = None


def verify_cached(verifier: Verifier, queries: Sequence[Query], cache: VerdictCache | None,
                  batch: int = 64) -> tuple[list[Verdict], int]:
    """Verdicts of ``queries`` (in order), asking the verifier only for those not in ``cache`` (written after each
    batch, so an interrupted run keeps what it asked); returns them and how many came from the cache.
    Unusable verdicts (``error``) are not cached: a re-run asks again."""
    keys = [VerdictCache.key(verifier, q) for q in queries]
    have = cache.get(keys) if cache is not None else {}
    todo = [i for i, k in enumerate(keys) if k not in have]
    for s in range(0, len(todo), batch):
        part = todo[s:s + batch]
        got = verifier.verify([queries[i] for i in part])
        fresh = {keys[i]: v for i, v in zip(part, got)}
        have.update(fresh)
        if cache is not None:
            cache.put({k: v for k, v in fresh.items() if v.error is None})
    return [have[k] for k in keys], len(queries) - len(todo)


def make_verifier(kind: str, *, url: str | None = None, model: str | None = None,
                  convert_dir: Path | None = None) -> Verifier | None:
    """The verifier of ``--verifier`` (None for ``none``)."""
    if kind not in VERIFIERS:
        raise ConfigError(f"verifier must be one of {list(VERIFIERS)}, not {kind!r}")
    if kind == "none":
        return None
    if kind == "endpoint":
        return EndpointVerifier(url, model)
    return LocalVerifier(convert_dir=convert_dir)


def query_for(variant: Any, original: str, terms: Mapping[str, str], source_labels: Mapping[str, str]) -> Query:
    """The query of a generated variant: the aspects whose label the strategy sets are RevNon's reversed aspects
    (their label differs from the source's) and AddDiff's appended ones (``appended:<term>`` labels)."""
    others: list[tuple[str, str]] = []
    for aid, lab in sorted(variant.labels.items()):
        if aid.startswith("appended:"):
            if variant.kind in _ADD:
                others.append((aid.split(":", 1)[1], lab))
        elif aid != variant.source_id and aid in terms and source_labels.get(aid) not in (None, lab):
            others.append((terms[aid], lab))
    return Query(variant.key, variant.kind, original, variant.sentence, variant.term, variant.polarity,
                 tuple(others))


__all__ = ["ENDPOINT_INSTRUCTION", "SENTIMENTS", "VERDICT_SCHEMA", "VERIFIERS", "EndpointVerifier",
           "LocalVerifier", "Query", "Verdict", "VerdictCache", "Verifier", "condition_text", "make_verifier",
           "parse_verdict", "query_for", "verify_cached"]
