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
exception or a log record goes through :func:`redact`.
"""
from __future__ import annotations

import email.utils
import logging
import random
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


class MalformedResponse(Exception):
    """A 2xx response whose body cannot be used (raised by the ``parse`` callback; retried)."""


def redact(text: str, secrets: Sequence[str]) -> str:
    """``text`` with every occurrence of each non-empty secret replaced by ``***``."""
    for s in secrets:
        if s:
            text = text.replace(s, REDACTED)
    return text


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
              rng: random.Random | None = None, what: str = "request") -> Any:
    """POST ``payload`` as JSON to ``url`` with ``client`` (an ``httpx.Client``) and return ``parse(json)``.

    ``parse`` raises :class:`MalformedResponse` (or KeyError/TypeError/IndexError/ValueError) for
    bodies it cannot use; those are retried like server errors. Raises :class:`LLMError` when the
    retries are spent or on a non-retryable status. ``secrets`` are scrubbed from every message.
    """
    import httpx

    rng = rng or random.Random(policy.seed)
    status: int | None = None
    reason = ""
    attempt = 0
    for attempt in range(policy.max_retries + 1):
        retry_after: float | None = None
        try:
            resp = client.post(url, json=payload)
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
        except httpx.TimeoutException as exc:
            status = None
            reason = f"timeout ({type(exc).__name__})"
        except httpx.TransportError as exc:  # connection refused/reset, truncated body, protocol errors
            status = None
            reason = f"transport error ({type(exc).__name__}: {exc})"
        except httpx.DecodingError as exc:
            reason = f"undecodable body ({exc})"
        reason = redact(reason, secrets)
        if attempt >= policy.max_retries:
            break
        wait = policy.delay(attempt, rng, retry_after)
        log.warning("%s to %s failed (attempt %d/%d): %s; retrying in %.2fs", what, url, attempt + 1,
                    policy.max_retries + 1, reason, wait)
        sleep(wait)
    raise LLMError(redact(f"{what} to {url} failed after {attempt + 1} attempt(s); last error: {reason}", secrets),
                   status=status, attempts=attempt + 1, reason=reason)


def _snippet(resp: Any, limit: int = 300) -> str:
    """The start of a response body for messages (never the request, so never its headers)."""
    try:
        text = resp.text
    except Exception:  # noqa: BLE001 - undecodable/streamed bodies
        return "<unreadable body>"
    text = " ".join(text.split())
    return text[:limit] + ("..." if len(text) > limit else "")
