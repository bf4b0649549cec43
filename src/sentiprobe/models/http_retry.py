"""Retrying JSON POSTs for HTTP model backends (used by the OpenAI-compatible adapter).

What is retried, with exponential backoff and full jitter (``base * 2**attempt``, capped, times a
random factor in ``[0.5, 1]``):

- HTTP 408, 409, 425, 429 and every 5xx status; a ``Retry-After`` header (seconds or an HTTP date)
  replaces the computed delay, capped at ``max_retry_after`` (30 s: a server asking for 100,000 s is
  retried after 30 s, within the deadline, and the cap is named in the error);
- timeouts, connection errors and truncated bodies (the peer closed the connection before the
  announced ``Content-Length`` arrived);
- a 2xx response whose body is not JSON (HTML from a proxy), is JSON nested too deeply to read, or
  lacks the fields the caller needs.

Any other 4xx (bad request, bad key, unknown model) fails at once. After ``max_retries`` retries an
:class:`LLMError` is raised. Secrets never reach a message: every text this module puts into an
exception or a log record goes through :func:`redact` (the adapter also passes every reply through it,
so an echoed key, also lower-cased or spelled with spaces, reaches no cache entry, prediction or report).

Failing fast (a :class:`RequestGuard` shared by every request of one adapter):

- circuit breaker: after ``max_failures`` consecutive failures that say the server is not answering
  usably (a connection that cannot be made, a timeout, an unusable 2xx reply) across all requests,
  :class:`LLMCircuitOpenError` is raised and every later request fails at once;
- deadlines: an explicit overall budget (``deadline_s``, from the first request), else a default one
  per planned group of requests that scales with their number (:func:`default_deadline`); no attempt
  starts and no backoff sleeps past it, and each request's timeout is cut to what is left
  (:class:`LLMDeadlineError`);
- cancellation: backoff sleeps wait on a ``threading.Event``; when it is set (Ctrl-C in the main thread,
  or another request failed for good) the request stops with :class:`LLMCancelled` instead of
  sleeping out its retries.

:class:`LLMFatalError` (the base of those and of :class:`LLMConnectionError`) marks failures that
retrying other prompts cannot fix; callers that fall back to per-prompt retries must re-raise it.

The loop, the breaker's counting, the deadline checks and the cancellable waits are the project's one retry helper,
:func:`sentiprobe.core.retry.retry_call` (tenacity underneath); this module says what is retried and how each
stop reads.
"""
from __future__ import annotations

import email.utils
import json
import logging
import random
import re
import threading
import time
from collections.abc import Callable, Sequence
from dataclasses import dataclass
from typing import Any, Literal

from ..core.errors import SentiprobeError
from ..core.retry import (Cancelled, CircuitBreaker, CircuitOpen, DeadlinePassed, RetriesExhausted, Transient,
                          retry_call)
from .redaction import redact

log = logging.getLogger("sentiprobe.models.llm")

RETRY_STATUS = frozenset({408, 409, 425, 429})


class LLMError(SentiprobeError):
    """A request to an LLM backend failed for good (after retries, or at once for a client error).

    Attributes:
        status: the last HTTP status code (``None`` for transport errors).
        attempts: how many requests were made.
        reason: a short, secret-free description of the last failure.
    """

    def __init__(self, message: str, *, status: int | None = None, attempts: int = 0, reason: str = "") -> None:
        self.status = status
        self.attempts = attempts
        self.reason = reason
        super().__init__(message)


class LLMFatalError(LLMError):
    """A failure that retrying this or any other prompt now cannot fix (dead server, deadline, interrupt).

    Callers that retry a failed batch prompt by prompt must re-raise it instead: against a dead server
    such a fallback multiplies the retry budget by the batch size.
    """


class LLMConnectionError(LLMFatalError):
    """The retries of one request were spent and the last attempt could not even connect."""


class LLMCircuitOpenError(LLMConnectionError):
    """The circuit breaker tripped: too many consecutive connection failures to the same server.

    Attributes:
        base_url: the server that could not be reached.
        failures: how many consecutive connection failures tripped it.
    """

    def __init__(self, message: str, *, base_url: str, failures: int, reason: str = "") -> None:
        self.base_url = base_url
        self.failures = failures
        super().__init__(message, attempts=failures, reason=reason)


class LLMDeadlineError(LLMFatalError):
    """The adapter's overall deadline (model argument ``deadline_s``) passed."""


class LLMCancelled(LLMFatalError):
    """The request was cancelled (Ctrl-C, or another request of the batch failed for good)."""


class LLMStructuredRefused(LLMFatalError):
    """The server refused the request's structured-decoding field (``response_format``, ``grammar``,
    ``guided_choice``): an HTTP error whose body names it, or the same error on the first
    :data:`SAME_ERROR_REQUESTS` structured requests with none answered while the same request without the field
    is answered. Not retried: every other request carries the same field. ``structured=auto`` steps down to the
    next mode on it; an explicit mode ends the run."""


STRUCTURED_FIELDS = ("response_format", "grammar", "guided_choice")
"""Request fields of structured decoding (see :mod:`.structured`)."""
_NAMES_STRUCTURED = re.compile(r"(?i)response[_ ]?format|json[_ ]?schema|json_object|grammar|guided[_ ]?choice")
SAME_ERROR_REQUESTS = 3
"""Structured requests that fail with the same HTTP error, none answered, before the mode counts as refused."""
Verdict = Literal["yes", "no", "confirm"]
"""Whether an HTTP error of a structured request says the server refuses the field (see
:meth:`RequestGuard.structured_refused`)."""
SAME_ERROR_STATUS = frozenset({400, 422, 500})
"""The statuses with which servers refuse a field they do not take (llama-cpp-python's server: HTTP 500); a 503
(overloaded) or a rate limit never counts as a refusal."""


class MalformedResponse(Exception):
    """A 2xx response whose body cannot be used (raised by the ``parse`` callback; retried)."""


class RequestGuard:
    """Circuit breaker and deadlines shared by every request (and thread) of one adapter.

    Breaker: ``max_failures`` consecutive failures of the kinds that say "this server is not answering
    usably" trip it for good: a connection that cannot be made, a reply that does not arrive within the
    timeout, and a 2xx reply that cannot be used (HTML, JSON without ``choices``, a truncated or garbled
    body). Only a usable reply resets the count; HTTP 429/5xx and other statuses neither count nor reset
    (they are retried with backoff, bounded by the retries and the deadline). HTTP 5xx answers have a count of
    their own (:meth:`server_error`): ``max_failures`` of them in a row, over all requests, end every request
    (a server failing every request ends a run after ``max_failures`` attempts, about a second at the
    defaults, with its URL, the status and the first line of its reply), while 5xx answers mixed with other
    faults and usable replies are retried as before. A run does not outlive a
    server restart worth waiting for: re-run to retry, finished batches are cached.

    Deadlines: an explicit ``deadline_s`` bounds every request of the adapter, counted from the first one.
    Without it, :meth:`plan` gives each planned group of requests (a suite's batch of prompts) a default
    deadline of ``DEFAULT_DEADLINE_BASE + timeout x waves`` (a wave: ``concurrency`` requests in flight
    together), so a hung or garbage-answering endpoint ends a run in bounded time while a slow but healthy
    one (each reply within ``timeout``) always fits.
    """

    def __init__(self, base_url: str, *, max_failures: int = 5, deadline_s: float | None = None,
                 timeout: float = 60.0, connect_timeout: float = 5.0,
                 clock: Callable[[], float] = time.monotonic) -> None:
        self.base_url = base_url
        self.max_failures = max_failures
        self.deadline_s = deadline_s
        self.timeout = timeout
        self.connect_timeout = min(connect_timeout, timeout)
        self.clock = clock
        self.breaker = CircuitBreaker(max_failures)  # one key: this adapter's server
        self._t0: float | None = None
        self._planned: tuple[float, float] | None = None  # (absolute deadline, its budget in seconds)
        self._lock = threading.Lock()
        self._server_errors = 0  # consecutive HTTP 5xx answers, over all requests
        self._server_trip: str | None = None  # the last 5xx when they reached max_failures: every request fails
        self._structured_ok = False  # a structured request was answered: its mode is accepted
        self._structured_errors: dict[str, int] = {}  # "HTTP status: first line" -> structured attempts it ended
        self._structured_verdict: dict[str, Verdict] = {}  # that error, confirmed: "yes" refused, "no" not the field

    # ---- a server failing every request ---------------------------------------------------------------
    def server_error(self, reason: str) -> None:
        """Count an HTTP 5xx answer; the one that makes ``max_failures`` in a row raises the breaker's error."""
        with self._lock:
            self._server_errors += 1
            if self._server_errors >= self.max_failures and self._server_trip is None:
                self._server_trip = reason
        self.check_server()

    def server_answered(self) -> None:
        """A usable reply: the 5xx answers were not every request's."""
        with self._lock:
            if self._server_trip is None:
                self._server_errors = 0

    def check_server(self) -> None:
        """Raise :class:`LLMCircuitOpenError` once ``max_failures`` consecutive requests got an HTTP 5xx."""
        with self._lock:
            trip, n = self._server_trip, self._server_errors
        if trip is not None:
            raise LLMCircuitOpenError(
                f"the LLM server at {self.base_url} is failing every request: {n} consecutive server errors "
                f"(last: {trip}); its log says why (the line quoted is the first of its reply) (the circuit "
                f"breaker trips after max_failures={self.max_failures})", base_url=self.base_url, failures=n,
                reason=trip)

    # ---- structured decoding refused? ----------------------------------------------------------------
    def structured_answered(self) -> None:
        """A request carrying a structured-decoding field got a usable reply."""
        with self._lock:
            self._structured_ok = True

    def structured_refused(self, status: int, first_line: str) -> Verdict:
        """Count an HTTP error of a structured request and say whether the mode is refused: ``"yes"`` when the
        body names a structured-decoding field or this error was confirmed as the field's; ``"confirm"`` for the
        attempt with which the same error ended the first :data:`SAME_ERROR_REQUESTS` structured attempts, none
        answered (the caller asks without the field and reports with :meth:`structured_confirmed`); else
        ``"no"``. The same error alone is not enough: a server that fails some prompts ("model overloaded")
        fails them with or without the field, and which requests end first depends on the thread schedule."""
        if _NAMES_STRUCTURED.search(first_line):
            return "yes"
        with self._lock:
            if self._structured_ok or status not in SAME_ERROR_STATUS:
                return "no"
            sig = f"HTTP {status}: {first_line}"
            if sig in self._structured_verdict:
                return self._structured_verdict[sig]
            self._structured_errors[sig] = self._structured_errors.get(sig, 0) + 1
            return "confirm" if self._structured_errors[sig] == SAME_ERROR_REQUESTS else "no"

    def structured_confirmed(self, status: int, first_line: str, refused: bool) -> None:
        """Record what asking without the field said about this error (``refused``: that request was answered)."""
        with self._lock:
            self._structured_verdict[f"HTTP {status}: {first_line}"] = "yes" if refused else "no"

    # ---- deadlines ---------------------------------------------------------------------------------
    def start(self) -> None:
        """Start the explicit deadline's clock (idempotent; called before every attempt)."""
        with self._lock:
            if self._t0 is None:
                self._t0 = self.clock()

    def plan(self, n_requests: int, concurrency: int) -> float | None:
        """Set the default deadline for ``n_requests`` about to be made (None: ``deadline_s`` is explicit)."""
        if self.deadline_s is not None or n_requests <= 0:
            return None
        budget = default_deadline(n_requests, concurrency, self.timeout)
        with self._lock:
            self._planned = (self.clock() + budget, budget)
        return budget

    def remaining(self) -> float | None:
        """Seconds left before the deadline in force (None: none)."""
        if self.deadline_s is not None:
            with self._lock:
                t0 = self._t0 if self._t0 is not None else self.clock()
            return self.deadline_s - (self.clock() - t0)
        if self._planned is not None:
            return self._planned[0] - self.clock()
        return None

    def deadline_error(self, what: str, url: str, reason: str) -> LLMDeadlineError:
        last = f"; last error: {reason}" if reason else ""
        if self.deadline_s is not None:
            which = f"the deadline of {self.deadline_s:g}s for this run (model argument deadline_s)"
        else:
            budget = self._planned[1] if self._planned else 0.0
            which = (f"the default deadline of {budget:.0f}s for these requests ({DEFAULT_DEADLINE_BASE:g}s + "
                     f"timeout {self.timeout:g}s per wave of requests; set the model argument deadline_s to change it)")
        return LLMDeadlineError(f"{what} to {url} stopped: {which} passed{last}", reason=reason)

    def check(self, what: str, url: str, reason: str = "") -> None:
        """Raise if the breaker is open or the deadline passed (:func:`post_json` does this before every attempt)."""
        if self.breaker.trip(self.base_url) is not None:
            raise self.open_error()
        rem = self.remaining()
        if rem is not None and rem <= 0:
            raise self.deadline_error(what, url, reason)

    def request_timeout(self) -> float:
        """The timeout for the next attempt: the adapter's, cut to the time left before the deadline."""
        rem = self.remaining()
        if rem is None or rem >= self.timeout:
            return self.timeout
        return max(rem, 0.001)

    # ---- breaker -------------------------------------------------------------------------------------
    @property
    def failures(self) -> int:
        """Consecutive failures counted now."""
        return self.breaker.failures(self.base_url)

    @property
    def kinds(self) -> dict[str, int]:
        """The consecutive failures per kind."""
        return self.breaker.kinds(self.base_url)

    def succeeded(self) -> None:
        """A usable reply arrived: the server is alive and answering."""
        self.breaker.succeeded(self.base_url)

    def connected(self) -> None:
        """Kept for callers of the previous API: a usable reply (see :meth:`succeeded`)."""
        self.succeeded()

    def failed(self, reason: str, kind: str) -> None:
        """Count a failure (``connect``, ``timeout`` or ``unusable``); raise :class:`LLMCircuitOpenError` on the
        one that trips the breaker."""
        if self.breaker.failed(self.base_url, reason, kind) is not None:
            raise self.open_error()

    def connect_failed(self, reason: str) -> None:
        """Count a connection failure (see :meth:`failed`)."""
        self.failed(reason, "connect")

    @property
    def max_connect_failures(self) -> int:  # the previous name of the threshold
        return self.max_failures

    def open_error(self) -> LLMCircuitOpenError:
        """The error of the open breaker; a fresh one per raise (threads must not share one exception's
        traceback)."""
        trip = self.breaker.trip(self.base_url)
        assert trip is not None
        failures, reason, kinds = trip.failures, trip.reason, trip.kinds
        words = {"connect": ("connection failure", "connection failures"), "timeout": ("timeout", "timeouts"),
                 "unusable": ("unusable reply", "unusable replies")}
        parts = ", ".join(f"{n} {words.get(k, (k, k))[n != 1]}" for k, n in sorted(kinds.items()))
        if set(kinds) == {"connect"}:
            state, hint = "unreachable", "is it running, and is base_url right?"
        else:
            state, hint = "not answering usably", ("is base_url the OpenAI-compatible API (ending in /v1), and is "
                                                   "the server healthy?")
        return LLMCircuitOpenError(
            f"the LLM server at {self.base_url} is {state}: {failures} consecutive failures ({parts}; last: "
            f"{reason}); {hint} (the circuit breaker trips after max_failures={self.max_failures})",
            base_url=self.base_url, failures=failures, reason=reason)


DEFAULT_DEADLINE_BASE = 30.0
"""Seconds every planned group of requests gets on top of ``timeout`` per wave (see :func:`default_deadline`)."""


def default_deadline(n_requests: int, concurrency: int, timeout: float) -> float:
    """The default deadline of ``n_requests``: ``30 s + timeout x ceil(n_requests / concurrency)``.

    A healthy server answers each request within ``timeout``, so ``concurrency`` requests in flight finish a
    wave within it and the whole group within the budget, retries of a few failed requests included; a hung
    server (every reply times out) trips the breaker long before.
    """
    waves = -(-max(1, n_requests) // max(1, concurrency))
    return DEFAULT_DEADLINE_BASE + timeout * waves


@dataclass(frozen=True)
class RetryPolicy:
    """How often and how long to retry.

    Attributes:
        max_retries: retries after the first attempt (0 = try once).
        backoff: base delay in seconds; attempt ``k`` waits ``backoff * 2**k`` (capped), jittered.
        max_backoff: cap of the computed delay in seconds.
        max_retry_after: cap of a server's ``Retry-After`` in seconds.
        seed: seeds the jitter (``None``: system randomness). Jitter never changes results, only timing.
    """

    max_retries: int = 5
    backoff: float = 0.5
    max_backoff: float = 30.0
    max_retry_after: float = 30.0
    seed: int | None = None

    def delay(self, attempt: int, rng: random.Random, retry_after: float | None = None) -> float:
        if retry_after is not None:
            return max(0.0, min(retry_after, self.max_retry_after))
        raw = min(self.max_backoff, self.backoff * (2 ** attempt))
        return raw * (0.5 + 0.5 * rng.random())


def parse_retry_after(value: str | None, now: float | None = None) -> float | None:
    """Seconds to wait from a ``Retry-After`` header (delta-seconds or an HTTP date); None if unreadable."""
    if not value:
        return None
    v = value.strip()
    try:
        return max(0.0, float(v))
    except ValueError:
        pass
    try:
        dt = email.utils.parsedate_to_datetime(v)
    except (TypeError, ValueError, IndexError):
        return None
    if dt is None:
        return None
    return max(0.0, dt.timestamp() - (time.time() if now is None else now))


def _loads(body: bytes) -> Any:
    """JSON of a reply body; anything unreadable (not UTF-8, not JSON, nested too deeply) is unusable."""
    try:
        return json.loads(body)
    except (ValueError, UnicodeDecodeError):
        raise MalformedResponse("body is not JSON: " + _snippet_text(body)) from None
    except RecursionError:
        raise MalformedResponse("body is JSON nested too deeply to read") from None


def _answered_without_field(transport: Any, path: str, payload: dict[str, Any], timeout: float | None,
                            parse: Callable[[Any], Any]) -> bool:
    """Whether the server answers ``payload`` without its structured-decoding fields (one attempt, not retried):
    the test that a repeated error is the field's and not the prompt's or the server's."""
    from .http_transport import TransportFailed

    plain = {k: v for k, v in payload.items() if k not in STRUCTURED_FIELDS}
    try:
        resp = transport.post(path, json.dumps(plain, ensure_ascii=False).encode("utf-8"), timeout=timeout)
        if resp.status >= 300:
            return False
        parse(_loads(resp.body))
    except (TransportFailed, MalformedResponse, KeyError, TypeError, IndexError, ValueError, AttributeError):
        return False
    return True


def post_json(transport: Any, path: str, payload: dict[str, Any], *, policy: RetryPolicy,
              parse: Callable[[Any], Any], secrets: Sequence[str] = (), sleep: Callable[[float], None] = time.sleep,
              rng: random.Random | None = None, what: str = "request", guard: RequestGuard | None = None,
              cancel: threading.Event | None = None) -> Any:
    """POST ``payload`` as JSON to ``path`` with ``transport`` (a :class:`~.http_transport.Transport`) and return
    ``parse(json)``.

    ``parse`` raises :class:`MalformedResponse` (or KeyError/TypeError/IndexError/ValueError) for
    bodies it cannot use; those are retried like server errors and counted by the breaker. Raises
    :class:`LLMError` when the retries are spent or on a non-retryable status (:class:`LLMConnectionError`
    when the last attempt could not connect). ``secrets`` are scrubbed from every message. ``guard`` adds
    the circuit breaker and deadline; ``cancel``, when set, ends the backoff sleeps at once (:class:`LLMCancelled`).
    The loop is :func:`sentiprobe.core.retry.retry_call`.
    """
    from .http_transport import ConnectFailed, ReadTimeout, TransportFailed

    url = transport.url(path)
    body = json.dumps(payload, ensure_ascii=False).encode("utf-8")
    rng = rng or random.Random(policy.seed)
    structured = next((f for f in STRUCTURED_FIELDS if f in payload), None)

    def attempt(k: int) -> Any:
        if guard is not None:
            guard.check_server()  # the server failed every request: this one is not sent
        timeout = guard.request_timeout() if guard is not None else None
        status: int | None = None
        try:
            resp = transport.post(path, body, timeout=timeout)
            status = resp.status
            verdict: Verdict = "no"
            if status >= 400 and status not in RETRY_STATUS and structured is not None and guard is not None:
                verdict = guard.structured_refused(status, first_line(resp.body))
                if verdict == "confirm":
                    verdict = "yes" if _answered_without_field(transport, path, payload, timeout, parse) else "no"
                    guard.structured_confirmed(status, first_line(resp.body), verdict == "yes")
            if verdict == "yes":
                raise LLMStructuredRefused(
                    redact(f"{what} to {url} failed with HTTP {status}: {first_line(resp.body)} (the server refuses "
                           f"the request field {structured!r} of structured decoding; not retried)", secrets),
                    status=status, attempts=k + 1, reason=redact(f"HTTP {status}: {first_line(resp.body)}", secrets))
            if status in RETRY_STATUS or status >= 500:
                reason = redact(f"HTTP {status}: {first_line(resp.body)}", secrets)
                if status >= 500 and guard is not None:
                    guard.server_error(reason)  # the one making max_failures in a row ends every request
                raise _Failure(reason, status=status, retry_after=parse_retry_after(resp.header("retry-after")))
            if status >= 400:
                raise LLMError(redact(f"{what} to {url} failed with HTTP {status} (not retried): "
                                      f"{_snippet_text(resp.body)}", secrets),
                               status=status, attempts=k + 1, reason=redact(f"HTTP {status}", secrets))
            data = _loads(resp.body)
            try:
                out = parse(data)
                if guard is not None:
                    guard.server_answered()
                    if structured is not None:
                        guard.structured_answered()
                return out
            except MalformedResponse:
                raise
            except (KeyError, TypeError, IndexError, ValueError, AttributeError) as exc:
                raise MalformedResponse(f"unexpected JSON ({type(exc).__name__}: {exc}): "
                                        f"{_snippet_text(resp.body)}") from None
        except MalformedResponse as exc:
            raise _Failure(redact(f"HTTP {status}, unusable body: {exc}", secrets), kind="unusable",
                           status=status) from None
        except ConnectFailed as exc:  # nothing listening, unreachable host, connect timeout
            raise _Failure(redact(f"transport error, could not connect ({exc})", secrets), kind="connect") from None
        except ReadTimeout as exc:
            raise _Failure(redact(f"timeout ({exc})", secrets), kind="timeout") from None
        except TransportFailed as exc:  # connection reset, truncated body, protocol errors
            raise _Failure(redact(f"transport error ({exc})", secrets), kind="unusable") from None

    def wait(k: int, failure: Transient) -> float:
        delay = policy.delay(k, rng, failure.retry_after)
        if failure.retry_after is not None and failure.retry_after > policy.max_retry_after:
            failure.reason += (f" (Retry-After {failure.retry_after:g}s capped at "
                               f"max_retry_after={policy.max_retry_after:g}s)")
        return delay

    def on_retry(k: int, failure: Transient, delay: float) -> None:
        log.warning("%s to %s failed (attempt %d/%d): %s; retrying in %.2fs", what, url, k + 1,
                    policy.max_retries + 1, failure.reason, delay)

    if guard is not None:
        guard.start()  # the explicit deadline counts from the first request
    try:
        return retry_call(attempt, retries=policy.max_retries, wait=wait, on_retry=on_retry, cancel=cancel,
                          sleep=sleep, remaining=guard.remaining if guard is not None else None,
                          breaker=guard.breaker if guard is not None else None,
                          key=guard.base_url if guard is not None else "")
    except CircuitOpen:
        assert guard is not None
        raise guard.open_error() from None
    except DeadlinePassed as stop:
        assert guard is not None
        raise guard.deadline_error(what, url, stop.reason) from None
    except Cancelled as stop:
        where = " while waiting to retry" if stop.during_wait else ""
        raise LLMCancelled(f"{what} to {url} cancelled{where}", attempts=stop.attempts, reason=stop.reason) from None
    except RetriesExhausted as stop:
        last = stop.last
        cls = LLMConnectionError if isinstance(last, _Failure) and last.kind == "connect" else LLMError
        raise cls(redact(f"{what} to {url} failed after {stop.attempts} attempt(s); last error: {stop.reason}",
                         secrets), status=last.status if isinstance(last, _Failure) else None,
                  attempts=stop.attempts, reason=stop.reason) from None


class _Failure(Transient):
    """A failed attempt of :func:`post_json` (its reason already redacted), with the HTTP status if one came."""

    def __init__(self, reason: str, *, kind: str | None = None, status: int | None = None,
                 retry_after: float | None = None) -> None:
        super().__init__(reason, kind=kind, retry_after=retry_after)
        self.status = status


def first_line(body: bytes | str, limit: int = 200) -> str:
    """The first non-empty line of a response body (an error page's headline, a JSON error on one line)."""
    text = body.decode("utf-8", errors="replace") if isinstance(body, bytes | bytearray) else str(body)
    line = next((x.strip() for x in text[: 8 * limit].splitlines() if x.strip()), "(empty body)")
    return line[:limit] + ("..." if len(line) > limit else "")


def _snippet_text(body: bytes | str, limit: int = 300) -> str:
    """The start of a response body for messages (never the request, so never its headers)."""
    text = body.decode("utf-8", errors="replace") if isinstance(body, bytes | bytearray) else str(body)
    text = " ".join(text[: 4 * limit].split())
    return text[:limit] + ("..." if len(text) > limit else "")
