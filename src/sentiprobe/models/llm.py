"""``openai-compatible``: any OpenAI-compatible HTTP endpoint (OpenAI, vLLM, llama.cpp server, Ollama).

- Endpoints: ``chat`` (``POST {base_url}/chat/completions``) or ``completions``
  (``POST {base_url}/completions``). A prompt is a string (sent as one user message for chat) or a
  list of chat messages ``[{"role": ..., "content": ...}]`` (chat only).
- Base URL, model and API key: model args ``base_url`` / ``model``, else the process defaults set by
  :func:`configure` (the CLI fills them from ``SENTIPROBE_LLM_BASE_URL`` / ``OPENAI_BASE_URL``,
  ``SENTIPROBE_LLM_MODEL`` and ``SENTIPROBE_LLM_API_KEY`` / ``OPENAI_API_KEY``: only ``cli/`` reads the
  environment). A model arg ``api_key`` is refused, because model args are written into ``results.json``
  and shell history. The key is sent as ``Authorization: Bearer ...`` and appears in no config,
  fingerprint, log, cache entry or exception (every message is scrubbed).
- Structured decoding (``structured``, default ``auto``): when a suite passes its reply schema
  (``generate(prompts, schema=WIRE, structured=MODE)``, see :mod:`.structured`), the request carries the
  mode's fields. ``structured_mode([WIRE])`` resolves ``auto`` by probing the endpoint once per schema
  (a 400/422 answer steps down :data:`~.structured.AUTO_LADDER` and says so once); callers run it through
  the prediction cache, so the resolved mode is part of every cache key and a cached re-run sends nothing.
- Requests run on ``max_concurrency`` daemon worker threads over a pool of keep-alive connections
  (:mod:`.http_transport`); each is retried (see ``http_retry``). ``generate`` returns only when every
  prompt of the batch succeeded, else raises :class:`LLMError`, so the cached predictor commits only
  complete batches.
- Replies are secret-free: every reply text goes through :func:`~.redaction.redact` (the configured
  key in any letter case or spelled with separators, and any ``Authorization`` / ``api-key`` header
  value) before it leaves the adapter, so a server that echoes the request's headers cannot put the key
  into the cache, predictions, results or report.
- Interrupts: the main thread waits on a queue, which Ctrl-C interrupts; the workers are daemon threads
  that are told to stop (a cancellation event ends their backoff sleeps) and are not joined, so
  ``KeyboardInterrupt`` propagates at once even while requests hang (a ``ThreadPoolExecutor`` would join
  its workers, i.e. wait for every in-flight request to time out and spend its retries).
- Failing fast: ``max_failures`` consecutive connection failures, timeouts or unusable replies trip a
  circuit breaker (:class:`~.http_retry.LLMCircuitOpenError`), ``connect_timeout`` bounds each
  connection attempt, and a deadline bounds every group of requests (``deadline_s``, else a default
  that scales with the number of requests, announced through :meth:`OpenAICompatibleModel.plan_requests`).
- ``score_labels`` (opt-in with ``score_labels=true``): log-probability of each option as the
  continuation of the prompt, via the completions endpoint with ``echo=true, logprobs=1`` (the
  lm-evaluation-harness "loglikelihood" request). Needs a server that echoes prompt log-probs: vLLM and
  llama.cpp's Python server started with ``--logits_all true`` do; OpenAI's chat models do not.
- ``template_hash``: set it (before the first request) to the hash of the prompt template so the template
  enters the fingerprint and the cache key.

Beside this module: the process defaults in :mod:`.llm_settings`, reply parsing in :mod:`.llm_replies`, the
worker threads in :mod:`.thread_map`, retries in :mod:`.http_retry`, connections in :mod:`.http_transport`.
"""
from __future__ import annotations

import logging
import random
import threading
from collections.abc import Mapping, Sequence
from dataclasses import dataclass
from typing import Any, Literal

from ..core.errors import ConfigError
from ..core.options import convert, option
from .base import MODELS, ModelAdapter
from .http_retry import (
    LLMCancelled,
    LLMCircuitOpenError,
    LLMConnectionError,
    LLMDeadlineError,
    LLMError,
    LLMFatalError,
    LLMStructuredRefused,
    MalformedResponse,
    RequestGuard,
    RetryPolicy,
    post_json,
)
from .llm_replies import as_text_prompt, mode_of, parse_chat, parse_completion, option_logprob
from .llm_settings import (ENV_API_KEY, ENV_BASE_URL, ENV_MODEL, check_base_url, configure, default_setting,
                           resolve_api_key)
from .redaction import redact
from .structured import (
    AUTO_LADDER,
    UNSUPPORTED_STATUS,
    apply_mode,
    as_mode,
    check_wire,
    effective_mode,
    split_prompt,
)
from .thread_map import map_in_threads
from .utils import as_messages

__all__ = [
    "LLMCancelled",
    "LLMCircuitOpenError",
    "LLMConnectionError",
    "LLMDeadlineError",
    "LLMError",
    "LLMFatalError",
    "LLMStructuredRefused",
    "OpenAICompatibleModel",
    "ENV_API_KEY",
    "ENV_BASE_URL",
    "ENV_MODEL",
    "configure",
    "option_logprob",
    "resolve_api_key",
]

log = logging.getLogger("sentiprobe.models.llm")

_GEN_KW = ("max_tokens", "temperature", "top_p", "stop", "system", "seed", "schema", "structured")
_PROBE_PROMPT = "Reply with a JSON object."


def _as_stop(value: Any) -> list[str] | None:
    if value is None:
        return None
    if isinstance(value, str):
        return [value] if value else None
    if isinstance(value, Sequence) and all(isinstance(s, str) for s in value):
        return list(value) or None
    raise ConfigError(f"stop must be a string or a list of strings, got {value!r}")


def _json_list(value: Any) -> Any:
    """A CLI string that looks like a JSON list (``["a", "b"]``) decoded; anything else unchanged."""
    if isinstance(value, str) and value.strip().startswith("["):
        import json

        try:
            return json.loads(value)
        except ValueError:
            raise ConfigError(f"cannot read {value!r} as a JSON list of strings") from None
    return value


def _duration(seconds: float) -> str:
    """``95 s``, ``12 min 5 s``, ``2 h 3 min``."""
    s = round(seconds)
    if s < 120:
        return f"{s} s"
    if s < 7200:
        return f"{s // 60} min {s % 60} s"
    return f"{s // 3600} h {(s % 3600) // 60} min"


class OpenAICompatibleModel(ModelAdapter):
    """Chat or completion requests to an OpenAI-compatible endpoint (see the module docstring)."""

    name = "openai-compatible"
    capabilities = frozenset({"generate"})

    def __init__(self, base_url: str | None = None, model: str | None = None, endpoint: str = "chat",
                 max_tokens: int = 256, temperature: float = 0.0, top_p: float | None = None, seed: int | None = None,
                 system: str | None = None, stop: Any = None, max_concurrency: int = 4, max_retries: int = 5,
                 timeout: float = 60.0, backoff: float = 0.5, max_backoff: float = 30.0, max_retry_after: float = 30.0,
                 batch_size: int | str | None = None, score_labels: bool = False, score_separator: str = " ",
                 token_param: str = "max_tokens", connect_timeout: float = 5.0, max_failures: int = 5,
                 max_connect_failures: int | None = None, deadline_s: float | None = None, structured: str = "auto",
                 shots: int = 0, api_key: str | None = None) -> None:
        """Arguments as :class:`OpenAICompatibleOptions` declares them (``MODELS.create`` parses and checks them)."""
        if api_key is not None:
            raise ConfigError("the API key is read only from the environment (SENTIPROBE_LLM_API_KEY or "
                              "OPENAI_API_KEY): model args are recorded in results.json, run logs and shell "
                              "history, so 'api_key' is refused as a model argument")
        url = base_url if base_url not in (None, "") else default_setting("base_url", ENV_BASE_URL)
        if not url:
            raise ConfigError("no base URL: pass --model-arg base_url=http://host:port/v1 or set "
                              "SENTIPROBE_LLM_BASE_URL")
        self.base_url = check_base_url(str(url))
        mdl = model if model not in (None, "") else default_setting("model", ENV_MODEL)
        if not mdl:
            raise ConfigError("no model name: pass --model-arg model=NAME or set SENTIPROBE_LLM_MODEL")
        self.model = str(mdl)
        self.endpoint = endpoint
        self.max_tokens = max_tokens
        self.temperature = temperature
        self.top_p = top_p
        self.seed = seed
        self.system = None if system in (None, "") else str(system)
        self.stop = _as_stop(_json_list(stop))
        self.max_concurrency = max_concurrency
        self.timeout = timeout
        self.connect_timeout = min(self.timeout, connect_timeout)
        # the former name is checked under the current one
        self.max_failures = (max_failures if max_connect_failures is None else
                             convert(max_connect_failures, int, "openai-compatible argument 'max_failures'", lo=1,
                                     hi=10_000))
        self.deadline_s = deadline_s
        self.policy = RetryPolicy(max_retries=max_retries, backoff=backoff, max_backoff=max_backoff,
                                  max_retry_after=max_retry_after)
        # a cached batch ends in a barrier (every request of it must finish before it is committed), so a batch
        # no larger than max_concurrency caps the requests in flight; the default keeps >= 4 waves per batch
        self.batch_size = (max(32, 4 * self.max_concurrency) if batch_size in (None, "", "auto")
                           else int(batch_size))
        self.scores = score_labels
        self.score_separator = score_separator
        self.token_param = token_param
        #: structured decoding requested for replies with a schema (see :mod:`.structured`)
        self.structured = as_mode(structured)
        #: examples per prompt the suites draw from their train split (0: zero-shot); read by the suites
        self.shots = shots
        if self.scores:
            self.capabilities = frozenset({"generate", "score_labels"})  # type: ignore[misc]  # per instance
        #: hash of the prompt template; callers set it before the first request (enters the fingerprint)
        self.template_hash: str | None = None
        self._key = resolve_api_key()
        self._transport: Any = None
        self._lock = threading.Lock()
        self._rng = random.Random()
        self._guard = RequestGuard(self.base_url, max_failures=self.max_failures, deadline_s=self.deadline_s,
                                   timeout=self.timeout, connect_timeout=self.connect_timeout)
        self._resolved: dict[str, str] = {}  # schema name -> mode the endpoint accepted (auto)
        self._notes: list[str] = []
        self._said: set[str] = set()
        self.requests_made = 0

    def __repr__(self) -> str:  # never shows the key
        return f"OpenAICompatibleModel(base_url={self.base_url!r}, model={self.model!r}, endpoint={self.endpoint!r})"

    def config(self) -> dict[str, Any]:
        """Identity and decoding parameters (no credentials; concurrency/retry settings do not change outputs)."""
        cfg: dict[str, Any] = {"base_url": self.base_url, "model": self.model, "endpoint": self.endpoint,
                               "max_tokens": self.max_tokens, "temperature": self.temperature, "top_p": self.top_p,
                               "seed": self.seed, "system": self.system, "stop": self.stop,
                               "token_param": self.token_param, "template_hash": self.template_hash,
                               "structured": self.structured, "shots": self.shots}
        if self.scores:
            cfg["score_separator"] = self.score_separator
        return cfg

    # ---- transport -----------------------------------------------------------------------------
    def _http(self) -> Any:
        with self._lock:
            if self._transport is None:
                from .http_transport import Transport, headers_for

                self._transport = Transport(self.base_url, headers_for(self._key), timeout=self.timeout,
                                            connect_timeout=self.connect_timeout,
                                            max_connections=self.max_concurrency)
            return self._transport

    def _secrets(self) -> list[str]:
        return [self._key] if self._key else []

    def _post(self, path: str, payload: dict[str, Any], parse: Any, what: str,
              cancel: threading.Event | None = None, policy: RetryPolicy | None = None) -> Any:
        """One request with retries; a text reply is redacted before anything else sees it."""
        transport = self._http()
        with self._lock:
            self.requests_made += 1
        out = post_json(transport, path, payload, policy=policy or self.policy, parse=parse, secrets=self._secrets(),
                        rng=self._rng, what=what, guard=self._guard, cancel=cancel)
        if isinstance(out, str):
            return redact(out, self._secrets())
        if isinstance(out, dict) and isinstance(out.get("text"), str):  # a reply cut off at the token limit
            return {**out, "text": redact(out["text"], self._secrets())}
        return out

    # ---- what the runner and suites are told ---------------------------------------------------
    def _say(self, key: str, text: str) -> None:
        """Queue a note for the terminal once per adapter (the runner prints them) and log it."""
        with self._lock:
            if key in self._said:
                return
            self._said.add(key)
            self._notes.append(text)
        log.warning("%s", text)

    def pop_notes(self) -> list[str]:
        """Notes for the terminal since the last call (a fallback of structured decoding, the deadline)."""
        with self._lock:
            out, self._notes = self._notes, []
        return out

    def plan_requests(self, method: str, payloads: Sequence[Any] | int) -> None:
        """``method`` is about to be called on ``payloads`` (or that many): set (and announce) the default deadline
        for the HTTP requests they take (one per prompt or probe; one per option for ``score_labels``)."""
        if isinstance(payloads, int):
            n_requests = payloads
        elif method == "score_labels":
            n_requests = sum(len(p.get("options") or ()) if isinstance(p, Mapping) else 1 for p in payloads)
        else:  # a prompt, or a probe (refusals of the ladder's rungs come back at once)
            n_requests = len(payloads)
        budget = self._guard.plan(n_requests, self.max_concurrency)
        if budget is not None and n_requests > 0:
            with self._lock:
                note = (f"{self.name} at {self.base_url}: {n_requests} request(s), deadline {_duration(budget)} "
                        f"(30 s + timeout {self.timeout:g} s per wave of {self.max_concurrency}; set --model-arg "
                        "deadline_s=SECONDS to change it)")
                self._notes.append(note)
            log.info("%s", note)

    def _map(self, fn: Any, jobs: Sequence[Any]) -> list[Any]:
        """``fn(job, cancel)`` over ``jobs`` on at most ``max_concurrency`` threads, in order
        (:func:`~.thread_map.map_in_threads`: the first failure or Ctrl-C stops the rest at once)."""
        return map_in_threads(fn, jobs, self.max_concurrency)

    # ---- capabilities --------------------------------------------------------------------------
    def _decoding(self, kwargs: Mapping[str, Any]) -> dict[str, Any]:
        unknown = sorted(set(kwargs) - set(_GEN_KW))
        if unknown:
            raise ConfigError(f"openai-compatible.generate: unknown argument(s) {unknown}; known: {list(_GEN_KW)}")
        what = "openai-compatible.generate argument"
        d: dict[str, Any] = {
            "max_tokens": convert(kwargs.get("max_tokens", self.max_tokens), int, f"{what} 'max_tokens'", lo=1),
            "temperature": convert(kwargs.get("temperature", self.temperature), float, f"{what} 'temperature'",
                                   lo=0.0, hi=2.0)}
        top_p = kwargs.get("top_p", self.top_p)
        if top_p is not None:
            d["top_p"] = convert(top_p, float, f"{what} 'top_p'", lo=0.0, hi=1.0)
        seed = kwargs.get("seed", self.seed)
        if seed is not None:
            d["seed"] = convert(seed, int, f"{what} 'seed'")
        stop = _as_stop(kwargs.get("stop", self.stop))
        if stop:
            d["stop"] = stop
        return d

    def request_payload(self, prompt: Any, **kwargs: Any) -> dict[str, Any]:
        """The JSON body sent for one prompt (also used by tests and ``--dry-run`` style tooling).

        ``schema`` (a reply schema's wire form) and ``structured`` (a resolved mode, default: the adapter's,
        ``auto`` resolved by :meth:`structured_mode`) add the structured-decoding fields.
        """
        system = kwargs.get("system", self.system)
        prompt, wire = split_prompt(prompt, kwargs.get("schema"))
        body: dict[str, Any] = {"model": self.model, **self._decoding(kwargs), "n": 1}
        if self.token_param != "max_tokens":
            body[self.token_param] = body.pop("max_tokens")
        if self.endpoint == "chat":
            body["messages"] = as_messages(prompt, system)
        else:
            body["prompt"] = as_text_prompt(prompt, system)
        if wire is not None:
            mode = as_mode(kwargs.get("structured") or self.structured)
            if mode == "auto":
                mode = self.structured_mode([wire])[0]
            apply_mode(body, mode, wire)
        return body

    def generate(self, prompts: Sequence[Any], **kwargs: Any) -> list[Any]:
        """One reply per prompt: its text, or ``{"text": ..., "finish_reason": "length"}`` for a reply cut off at the
        token limit (a parse failure for the suites). Keyword args: max_tokens, temperature, top_p, stop, system,
        seed, and ``schema`` / ``structured`` for structured decoding (see :mod:`.structured`).

        Raises :class:`LLMError` when a request fails after its retries (no partial result is returned).
        """
        bodies = [self.request_payload(p, **kwargs) for p in prompts]
        path, parse = ("chat/completions", parse_chat) if self.endpoint == "chat" else ("completions",
                                                                                          parse_completion)
        mode = next((m for m in map(mode_of, bodies) if m != "off"), "off")
        what = f"{self.endpoint} request" + (f" (structured={mode})" if mode != "off" else "")
        try:
            return self._map(lambda b, cancel: self._post(path, b, parse, what, cancel), bodies)
        except LLMError as exc:
            if mode != "off" and (isinstance(exc, LLMStructuredRefused) or exc.status in UNSUPPORTED_STATUS):
                hint = ("use --model-arg structured=auto (probes what the server accepts) or structured=off"
                        if self.structured != "auto" else "use --model-arg structured=off (or another mode)")
                raise LLMStructuredRefused(f"{exc} -- the server refused structured decoding mode {mode!r}; {hint}",
                                           status=exc.status, attempts=exc.attempts, reason=exc.reason) from None
            raise

    # ---- structured decoding -------------------------------------------------------------------
    def structured_mode(self, wires: Sequence[Mapping[str, Any]]) -> list[str]:
        """The mode each reply schema is sent with: ``structured`` itself, or for ``auto`` the first rung of
        :data:`~.structured.AUTO_LADDER` this endpoint accepts (one probe request per rung tried and schema name,
        remembered for the adapter's life: per-item variants of a schema share its name, so they share the
        probe). Run it through the prediction cache so a re-run probes nothing."""
        out = []
        for w in wires:
            wire = check_wire(w)
            if self.structured != "auto":
                out.append(effective_mode(self.structured, wire))
                continue
            key = wire["name"]
            if key not in self._resolved:
                self._resolved[key] = self._probe(wire)
            out.append(self._resolved[key])
        return out

    def _probe(self, wire: dict[str, Any]) -> str:
        """Ask the endpoint once per rung, best first, until one is accepted.

        A rung is refused by an HTTP 400/422, by an error whose body names the field
        (:class:`~.http_retry.LLMStructuredRefused`), or by a 5xx while the same request without the field succeeds
        (llama-cpp-python's server answers its validation errors with HTTP 500); then the next rung is tried. The
        probe is retried like any request (rate limits, a busy server).
        """
        path, parse = ("chat/completions", parse_chat) if self.endpoint == "chat" else ("completions",
                                                                                          parse_completion)
        for rung in AUTO_LADDER:
            if rung == "off":
                self._say(f"off:{wire['name']}", f"{self.name} at {self.base_url} accepts none of the structured "
                          f"decoding modes {list(AUTO_LADDER[:-1])}: replies for {wire['name']!r} are free text, "
                          "parsed leniently (expect parse failures)")
                return "off"
            body = self.request_payload(_PROBE_PROMPT, max_tokens=1, schema=wire, structured=rung)
            try:
                self._post(path, body, parse, f"{self.endpoint} probe (structured={rung})")
            except LLMFatalError as exc:
                if not isinstance(exc, LLMStructuredRefused):
                    raise
                if exc.status is not None and exc.status >= 500:  # a broken server, or the field? ask without it
                    self._post(path, self.request_payload(_PROBE_PROMPT, max_tokens=1), parse,
                               f"{self.endpoint} probe (structured=off)")
                self._say_fallback(rung, exc)
                continue
            except LLMError as exc:
                if exc.status is None or not (exc.status in UNSUPPORTED_STATUS or exc.status >= 500):
                    raise
                if exc.status >= 500:  # a broken server, or one that fails on the field? ask without it
                    self._post(path, self.request_payload(_PROBE_PROMPT, max_tokens=1), parse,
                               f"{self.endpoint} probe (structured=off)")
                self._say_fallback(rung, exc)
                continue
            return rung
        return "off"  # pragma: no cover - the ladder ends with off

    def _say_fallback(self, rung: str, exc: LLMError) -> None:
        nxt = AUTO_LADDER[AUTO_LADDER.index(rung) + 1]
        if isinstance(exc, LLMStructuredRefused):
            detail = exc.reason[:160]
        else:
            said = str(exc).split("(not retried): ", 1)[-1].split("last error: ", 1)[-1][:160]
            detail = said if said.startswith("HTTP") else f"{exc.reason}: {said}"
        self._say(f"{rung}:{self.base_url}", f"{self.name} at {self.base_url} refused structured decoding "
                  f"mode {rung!r} ({detail}); falling back to {nxt!r}")

    def score_labels(self, payloads: Sequence[Mapping[str, Any]]) -> list[dict[str, float]]:
        """Total log-probability of each option after the prompt: ``[{option: logprob}]``.

        A payload is ``{"prompt": str, "options": [str, ...]}``; the scored text is
        ``prompt + score_separator + option``. Each option costs one completions request with
        ``echo=true, logprobs=1, max_tokens=1``; the option's log-prob is the sum over the echoed tokens
        that end after the prompt (a token straddling the boundary counts wholly). Chat messages cannot be
        scored: the server's chat template is not exposed through the completions endpoint.
        """
        if not self.scores:
            raise ConfigError("score_labels is off for this adapter: pass --model-arg score_labels=true "
                              "(needs a completions endpoint that echoes prompt log-probs)")
        jobs: list[tuple[str, int]] = []
        shapes: list[list[str]] = []
        for p in payloads:
            prompt, options = p.get("prompt"), p.get("options")
            if not isinstance(prompt, str):
                raise ConfigError("score_labels payload 'prompt' must be a string (chat messages cannot be scored)")
            if not options or not all(isinstance(o, str) and o for o in options):
                raise ConfigError("score_labels payload 'options' must be a non-empty list of non-empty strings")
            ctx = prompt + self.score_separator
            jobs.extend((ctx + o, len(ctx)) for o in options)
            shapes.append(list(options))
        values = self._map(self._score_one, jobs)
        out, k = [], 0
        for opts in shapes:
            out.append({o: values[k + i] for i, o in enumerate(opts)})
            k += len(opts)
        return out

    def _score_one(self, job: tuple[str, int], cancel: threading.Event | None = None) -> float:
        text, start = job
        body = {"model": self.model, "prompt": text, "max_tokens": 1, "temperature": 0.0, "echo": True,
                "logprobs": 1, "n": 1}

        def parse(data: Any) -> float:
            choice = data["choices"][0]
            lp = choice.get("logprobs")
            if not lp:
                raise MalformedResponse("no logprobs in the response: the server does not echo prompt "
                                        "log-probs (llama.cpp: start it with --logits_all true)")
            return option_logprob(lp["tokens"], lp["token_logprobs"], lp.get("text_offset"), text, start,
                                  choice.get("text"))

        return self._post("completions", body, parse, "score request", cancel)

    def close(self) -> None:
        with self._lock:
            if self._transport is not None:
                self._transport.close()
                self._transport = None


@dataclass(frozen=True)
class OpenAICompatibleOptions:
    """``--model-arg`` of ``openai-compatible``."""

    base_url: str | None = option(None, "e.g. http://127.0.0.1:8000/v1; unset: $SENTIPROBE_LLM_BASE_URL or "
                                        "$OPENAI_BASE_URL")
    model: str | None = option(None, "the served model name; unset: $SENTIPROBE_LLM_MODEL")
    endpoint: str = option("chat", "chat or completions requests", choices=("chat", "completions"))
    structured: str = option("auto", "how a suite's reply schema constrains decoding: auto (probes what the server "
                                     "accepts, once per schema), json_schema, json_object, grammar, choice or off")
    shots: int = option(0, "few-shot examples per prompt, drawn by the suite from its train split", lo=0, hi=64)
    max_tokens: int = option(256, "maximum tokens per reply", lo=1)
    temperature: float = option(0.0, "sampling temperature", lo=0.0, hi=2.0)
    top_p: float | None = option(None, "nucleus sampling; unset: the server's", lo=0.0, hi=1.0)
    seed: int | None = option(None, "sampling seed, for servers that honour it")
    system: str | None = option(None, "system message (chat) or prefix (completions)")
    stop: Any = option(None, "stop sequences: a string or a JSON list of strings")
    max_concurrency: int = option(4, "requests in flight at once", lo=1, hi=256)
    max_retries: int = option(5, "retries on 429/5xx/timeouts/connection errors/bad bodies", lo=0, hi=100)
    timeout: float = option(60.0, "per-request timeout in seconds", lo=0.0, lo_open=True, hi=86400.0)
    connect_timeout: float = option(5.0, "seconds of one connection attempt (capped at timeout)", lo=0.0,
                                    lo_open=True)
    max_failures: int = option(5, "consecutive connection failures, timeouts or unusable replies (all requests "
                                   "together) that trip the circuit breaker and fail the run", lo=1, hi=10_000)
    max_connect_failures: int | None = option(None, "the former name of max_failures")
    deadline_s: float | None = option(None, "overall budget of the requests in seconds; unset: 30 + timeout x waves "
                                            "of max_concurrency requests (printed)", lo=0.0, lo_open=True, hi=1e7)
    backoff: float = option(0.5, "base of the exponential backoff in seconds (jittered)", lo=0.0, hi=3600.0)
    max_backoff: float = option(30.0, "cap of one backoff delay in seconds", lo=0.0, hi=3600.0)
    max_retry_after: float = option(30.0, "cap of a server's Retry-After in seconds", lo=0.0, hi=3600.0)
    batch_size: int | Literal["auto"] | None = option(
        None, "prompts per cached batch (a batch is committed when all of it succeeded; one smaller than "
              "max_concurrency leaves connections idle); unset: max(32, 4 x max_concurrency)", lo=1)
    score_labels: bool = option(False, "enable option log-prob scoring via completions echo+logprobs")
    score_separator: str = option(" ", "text between the prompt and a scored option")
    token_param: str = option("max_tokens", "the request's token limit field (max_completion_tokens: newer OpenAI "
                                            "reasoning models)", choices=("max_tokens", "max_completion_tokens"))
    api_key: str | None = option(None, "REFUSED: set SENTIPROBE_LLM_API_KEY (or OPENAI_API_KEY) in the environment")


MODELS.register(
    "openai-compatible", OpenAICompatibleModel, tags=("llm",), options=OpenAICompatibleOptions,
    description="chat/completion requests to an OpenAI-compatible endpoint (OpenAI, vLLM, llama.cpp, Ollama)")

