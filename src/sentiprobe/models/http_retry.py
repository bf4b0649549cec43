"""Retrying JSON POSTs for HTTP model backends (used by the OpenAI-compatible adapter).

What is retried, with exponential backoff and full jitter (``base * 2**attempt``, capped, times a
random factor in ``[0.5, 1]``):

- HTTP 408, 409, 425, 429 and every 5xx status; a ``Retry-After`` header (seconds or an HTTP date)
  replaces the computed delay, capped at ``max_retry_after``;
- timeouts, connection errors and truncated bodies (``httpx.TransportError``: the peer closed the
  connection before the announced ``Content-Length`` arrived);
- a 2xx response whose body is not JSON, or JSON without the fields the caller needs.

Any other 4xx (bad request, bad key, unknown model) fails at once. After ``max_retries`` retries an
:class:`LLMError` is raised. Secrets never reach a message: every text this module puts into an
exception or a log record goes through :func:`redact` (the adapter also passes every reply through it,
so an echoed key reaches no cache entry, prediction or report).

Failing fast (a :class:`RequestGuard` shared by every request of one adapter):

- circuit breaker: after ``max_connect_failures`` consecutive connection failures (refused, reset
  before connecting, connect timeout) across all requests, :class:`LLMCircuitOpenError` is raised and
  every later request fails at once: a dead server costs seconds, not the full retry budget per prompt;
- deadline: an optional overall budget in seconds, counted from the first request; no attempt starts
  and no backoff sleeps past it, and each request's timeout is cut to what is left
  (:class:`LLMDeadlineError`);
- cancellation: backoff sleeps wait on a ``threading.Event``; when it is set (Ctrl-C in the main thread,
  or another request failed for good) the request stops with :class:`LLMCancelled` instead of
  sleeping out its retries.

:class:`LLMFatalError` (the base of those and of :class:`LLMConnectionError`) marks failures that
retrying other prompts cannot fix; callers that fall back to per-prompt retries must re-raise it.
"""
from __future__ import annotations

import email.utils
import logging
import random
import re
import threading
import time
from collections.abc import Callable, Sequence
from dataclasses import dataclass
from typing import Any

from ..core.errors import SentiprobeError

log = logging.getLogger("sentiprobe.models.llm")

RETRY_STATUS = frozenset({408, 409, 425, 429})
REDACTED = "***"


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


class MalformedResponse(Exception):
    """A 2xx response whose body cannot be used (raised by the ``parse`` callback; retried)."""


# "Authorization: Bearer x", "api-key=x", '"x-api-key": "x"': keep the header name (and scheme), hide the value
_HEADER_VALUE = re.compile(
    r"(?i)\b((?:proxy-)?authorization|(?:x-)?api[-_]key)(\"?\s*[:=]\s*\"?)((?:bearer|basic|token)\s+)?"
    r"[^\s\"',;}\]]+")
# a bearer token anywhere else (a server that echoes only the header's value); a token has a digit, so
# prose such as "bearer instruments" in a model's reply is left alone
_BEARER = re.compile(r"(?i)\b(bearer\s+)(?=[A-Za-z._~+/-]*\d)[A-Za-z0-9._~+/-]{8,}=*")


def redact(text: str, secrets: Sequence[str]) -> str:
    """``text`` with each non-empty secret and every ``Authorization`` / ``api-key`` header value as ``***``.

    The header patterns catch keys the adapter was not told about (a proxy that adds its own header and
    echoes it); the exact secrets catch the configured key in any other form of text.
    """
    for s in secrets:
        if s:
            text = text.replace(s, REDACTED)
    text = _HEADER_VALUE.sub(lambda m: f"{m.group(1)}{m.group(2)}{m.group(3) or ''}{REDACTED}", text)
    return _BEARER.sub(lambda m: f"{m.group(1)}{REDACTED}", text)


class RequestGuard:
    """Circuit breaker and overall deadline shared by every request (and thread) of one adapter.

    ``max_connect_failures`` consecutive connection failures trip the breaker for good (a run does not
    outlive a server restart worth waiting for; re-run to retry, finished batches are cached). Any HTTP
    response, even an error status, proves the server is there and resets the count. ``deadline_s``
    (None: none) counts from the first request.
    """

    def __init__(self, base_url: str, *, max_connect_failures: int = 5, deadline_s: float | None = None,
                 timeout: float = 60.0, connect_timeout: float = 5.0,
                 clock: Callable[[], float] = time.monotonic) -> None:
        self.base_url = base_url
        self.max_connect_failures = max_connect_failures
        self.deadline_s = deadline_s
        self.timeout = timeout
        self.connect_timeout = min(connect_timeout, timeout)
        self.clock = clock
        self.failures = 0
        self._tripped: tuple[int, str] | None = None
        self._t0: float | None = None
        self._lock = threading.Lock()

    def start(self) -> None:
        """Start the deadline clock (idempotent; called before every attempt)."""
        with self._lock:
            if self._t0 is None:
                self._t0 = self.clock()

    def remaining(self) -> float | None:
        """Seconds left before the deadline (None: no deadline)."""
        if self.deadline_s is None:
            return None
        with self._lock:
            t0 = self._t0 if self._t0 is not None else self.clock()
        return self.deadline_s - (self.clock() - t0)

    def deadline_error(self, what: str, url: str, reason: str) -> LLMDeadlineError:
        last = f"; last error: {reason}" if reason else ""
        return LLMDeadlineError(f"{what} to {url} stopped: the deadline of {self.deadline_s:g}s for this run "
                                f"(model argument deadline_s) passed{last}", reason=reason)

    def check(self, what: str, url: str, reason: str = "") -> None:
        """Raise if the breaker is open or the deadline passed (called before every attempt)."""
        if self._tripped is not None:
            raise self._open_error()
        rem = self.remaining()
        if rem is not None and rem <= 0:
            raise self.deadline_error(what, url, reason)

    def request_timeout(self) -> Any:
        """The timeout for the next attempt: the client's, cut to the time left before the deadline."""
        rem = self.remaining()
        if rem is None or rem >= self.timeout:
            return None
        import httpx

        rem = max(rem, 0.001)
        return httpx.Timeout(rem, connect=min(self.connect_timeout, rem))

    def connected(self) -> None:
        """A response arrived: the server is alive."""
        with self._lock:
            self.failures = 0

    def connect_failed(self, reason: str) -> None:
        """Count a connection failure; raise :class:`LLMCircuitOpenError` when it trips the breaker."""
        with self._lock:
            self.failures += 1
            if self._tripped is None and self.failures >= self.max_connect_failures:
                self._tripped = (self.failures, reason)
            tripped = self._tripped is not None
        if tripped:
            raise self._open_error()

    def _open_error(self) -> LLMCircuitOpenError:
        """A fresh error per raise (threads must not share one exception's traceback)."""
        assert self._tripped is not None
        failures, reason = self._tripped
        return LLMCircuitOpenError(
            f"the LLM server at {self.base_url} is unreachable: {failures} consecutive connection failures "
            f"(last: {reason}); is it running, and is base_url right? (the circuit breaker trips after "
            f"max_connect_failures={self.max_connect_failures})",
            base_url=self.base_url, failures=failures, reason=reason)


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
    max_retry_after: float = 120.0
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


def post_json(client: Any, url: str, payload: dict[str, Any], *, policy: RetryPolicy,
              parse: Callable[[Any], Any], secrets: Sequence[str] = (), sleep: Callable[[float], None] = time.sleep,
              rng: random.Random | None = None, what: str = "request", guard: RequestGuard | None = None,
              cancel: threading.Event | None = None) -> Any:
    """POST ``payload`` as JSON to ``url`` with ``client`` (an ``httpx.Client``) and return ``parse(json)``.

    ``parse`` raises :class:`MalformedResponse` (or KeyError/TypeError/IndexError/ValueError) for
    bodies it cannot use; those are retried like server errors. Raises :class:`LLMError` when the
    retries are spent or on a non-retryable status (:class:`LLMConnectionError` when the last attempt
    could not connect). ``secrets`` are scrubbed from every message. ``guard`` adds the circuit breaker
    and deadline; ``cancel``, when set, ends the backoff sleeps at once (:class:`LLMCancelled`).
    """
    import httpx

    rng = rng or random.Random(policy.seed)
    status: int | None = None
    reason = ""
    attempt = 0
    connect_failed = False
    for attempt in range(policy.max_retries + 1):
        if cancel is not None and cancel.is_set():
            raise LLMCancelled(f"{what} to {url} cancelled", attempts=attempt, reason=reason)
        kw: dict[str, Any] = {}
        if guard is not None:
            guard.start()
            guard.check(what, url, reason)
            t = guard.request_timeout()
            if t is not None:
                kw["timeout"] = t
        retry_after: float | None = None
        connect_failed = False
        try:
            resp = client.post(url, json=payload, **kw)
            if guard is not None:
                guard.connected()
            status = resp.status_code
            if status in RETRY_STATUS or status >= 500:
                retry_after = parse_retry_after(resp.headers.get("retry-after"))
                reason = f"HTTP {status}: {_snippet(resp)}"
            elif status >= 400:
                raise LLMError(redact(f"{what} to {url} failed with HTTP {status} (not retried): "
                                      f"{_snippet(resp)}", secrets),
                               status=status, attempts=attempt + 1, reason=redact(f"HTTP {status}", secrets))
            else:
                try:
                    data = resp.json()
                except ValueError:
                    raise MalformedResponse(f"body is not JSON: {_snippet(resp)}") from None
                try:
                    return parse(data)
                except MalformedResponse:
                    raise
                except (KeyError, TypeError, IndexError, ValueError, AttributeError) as exc:
                    raise MalformedResponse(f"unexpected JSON ({type(exc).__name__}: {exc}): "
                                            f"{_snippet(resp)}") from None
        except MalformedResponse as exc:
            reason = f"HTTP {status}, unusable body: {exc}"
        except (httpx.ConnectError, httpx.ConnectTimeout) as exc:  # nothing listening, unreachable host
            status = None
            connect_failed = True
            reason = f"transport error, could not connect ({type(exc).__name__}: {exc})"
        except httpx.TimeoutException as exc:
            status = None
            reason = f"timeout ({type(exc).__name__})"
        except httpx.TransportError as exc:  # connection reset, truncated body, protocol errors
            status = None
            reason = f"transport error ({type(exc).__name__}: {exc})"
        except httpx.DecodingError as exc:
            reason = f"undecodable body ({exc})"
        reason = redact(reason, secrets)
        if connect_failed and guard is not None:
            guard.connect_failed(reason)
        if attempt >= policy.max_retries:
            break
        wait = policy.delay(attempt, rng, retry_after)
        if guard is not None:
            rem = guard.remaining()
            if rem is not None and wait >= rem:  # the next attempt would start after the deadline
                raise guard.deadline_error(what, url, reason)
        log.warning("%s to %s failed (attempt %d/%d): %s; retrying in %.2fs", what, url, attempt + 1,
                    policy.max_retries + 1, reason, wait)
        if cancel is not None:
            if cancel.wait(wait):
                raise LLMCancelled(f"{what} to {url} cancelled while waiting to retry", attempts=attempt + 1,
                                   reason=reason)
        else:
            sleep(wait)
    cls = LLMConnectionError if connect_failed else LLMError
    raise cls(redact(f"{what} to {url} failed after {attempt + 1} attempt(s); last error: {reason}", secrets),
              status=status, attempts=attempt + 1, reason=reason)


def _snippet(resp: Any, limit: int = 300) -> str:
    """The start of a response body for messages (never the request, so never its headers)."""
    try:
        text = resp.text
    except (RuntimeError, UnicodeDecodeError, LookupError):  # a streamed body not read (httpx.StreamError), bad charset
        return "<unreadable body>"
    text = " ".join(text.split())
    return text[:limit] + ("..." if len(text) > limit else "")
