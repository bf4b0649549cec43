"""The one retry helper: tenacity's retry loop with a deadline, a circuit breaker and cancellation on top.

Used by the data download (:mod:`sentiprobe.data.transport`) and the HTTP model backends
(:mod:`sentiprobe.models.http_retry`). What each layer does:

- the loop is :class:`tenacity.Retrying`: at most ``retries`` retries after the first attempt, a retry only on
  :class:`Transient` (any other exception, a checksum mismatch or an HTTP 400, leaves at once and unchanged), the
  caller's ``wait(attempt, failure)`` between attempts (backoff, jitter, ``Retry-After``);
- a deadline (``remaining()``: seconds left, or None): no attempt starts after it and no wait sleeps past it;
- a :class:`CircuitBreaker` shared by every call to one server: the failures that say "this server is not
  answering usably" (a :class:`Transient` with a ``kind``) count per key, a success resets the count, and at
  ``threshold`` consecutive failures the key's circuit opens for good: the current and every later call stop at
  once instead of paying their own timeouts and retries;
- cancellation: with ``cancel`` (a :class:`threading.Event`) the waits end as soon as it is set (Ctrl-C in the main
  thread, or another request of the batch failed for good); without it they are ``time.sleep`` (KeyboardInterrupt
  interrupts them).

When the loop stops for one of these reasons it raises a :class:`RetryStopped` (:class:`RetriesExhausted`,
:class:`DeadlinePassed`, :class:`CircuitOpen`, :class:`Cancelled`) carrying the attempts made and the last failure;
callers turn it into their own typed error (:class:`~sentiprobe.core.errors.DownloadError`, ``LLMError``) with their
own wording, so the messages users see stay specific to what was being done.

Why tenacity and not a hand-written loop: one well-kept loop for both callers; what tenacity has no notion of
(a breaker shared across calls and threads, a deadline that cuts waits, an interruptible wait that says it was
interrupted) sits in its ``before`` / ``after`` / ``before_sleep`` / ``sleep`` hooks here.
"""
from __future__ import annotations

import threading
import time
from collections.abc import Callable, Mapping
from dataclasses import dataclass, field
from typing import Any, TypeVar

import tenacity

T = TypeVar("T")


class Transient(Exception):
    """A failed attempt worth another one.

    Attributes:
        reason: a short description of the failure (already free of secrets: it reaches messages and logs).
        kind: what the circuit breaker counts it as (``connect``, ``timeout``, ``unusable``...); ``None``: not
            counted (an HTTP 429 or 503 says the server is alive, only busy).
        retry_after: seconds the server asked to wait (``Retry-After``), if it did.
    """

    def __init__(self, reason: str, *, kind: str | None = None, retry_after: float | None = None) -> None:
        super().__init__(reason)
        self.reason = reason
        self.kind = kind
        self.retry_after = retry_after

    def __str__(self) -> str:
        return self.reason


class RetryStopped(Exception):
    """The retry loop stopped without a result (the subclass says why).

    Attributes:
        attempts: attempts made.
        last: the last :class:`Transient` failure (None when none happened).
    """

    def __init__(self, attempts: int, last: Transient | None) -> None:
        super().__init__(f"stopped after {attempts} attempt(s): {last}")
        self.attempts = attempts
        self.last = last

    @property
    def reason(self) -> str:
        """The last failure's reason ("" when none)."""
        return self.last.reason if self.last is not None else ""


class RetriesExhausted(RetryStopped):
    """Every allowed attempt failed."""


class DeadlinePassed(RetryStopped):
    """The deadline passed before an attempt (``wait`` is None) or the next wait would end after it.

    Attributes:
        wait: the wait that would have overrun the deadline (None: the deadline had already passed).
    """

    def __init__(self, attempts: int, last: Transient | None, wait: float | None = None) -> None:
        super().__init__(attempts, last)
        self.wait = wait


class Cancelled(RetryStopped):
    """``cancel`` was set, before an attempt or during a wait (``during_wait``)."""

    def __init__(self, attempts: int, last: Transient | None, during_wait: bool = False) -> None:
        super().__init__(attempts, last)
        self.during_wait = during_wait


class CircuitOpen(RetryStopped):
    """The key's circuit is open (``attempted``: this call's own failure tripped it, or it failed before).

    Attributes:
        trip: the breaker's record of the failures that opened it.
    """

    def __init__(self, attempts: int, last: Transient | None, trip: Trip, attempted: bool) -> None:
        super().__init__(attempts, last)
        self.trip = trip
        self.attempted = attempted


@dataclass(frozen=True)
class Trip:
    """Why a circuit opened: the key, the consecutive failures, the last one's reason, the count per kind."""

    key: str
    failures: int
    reason: str
    kinds: Mapping[str, int] = field(default_factory=dict)


class CircuitBreaker:
    """Consecutive failures per key (a host, a server); at ``threshold`` the key's circuit opens for good.

    Thread-safe: one breaker is shared by every request (and worker thread) that talks to the same servers. A
    success resets its key's count; once open, a circuit stays open (a run does not outlive a server restart
    worth waiting for: the caller re-runs, finished work is kept).
    """

    def __init__(self, threshold: int) -> None:
        self.threshold = threshold
        self._counts: dict[str, dict[str, int]] = {}
        self._last: dict[str, str] = {}
        self._open: dict[str, Trip] = {}
        self._lock = threading.Lock()

    def failures(self, key: str) -> int:
        """Consecutive failures counted for ``key`` now."""
        with self._lock:
            return sum(self._counts.get(key, {}).values())

    def kinds(self, key: str) -> dict[str, int]:
        """The consecutive failures of ``key`` per kind."""
        with self._lock:
            return dict(self._counts.get(key, {}))

    def last(self, key: str) -> str:
        """The reason of ``key``'s last counted failure ("" when none)."""
        with self._lock:
            return self._last.get(key, "")

    def trip(self, key: str) -> Trip | None:
        """Why ``key``'s circuit is open, or None while it is closed."""
        with self._lock:
            return self._open.get(key)

    def failed(self, key: str, reason: str, kind: str) -> Trip | None:
        """Count a failure of ``key``; returns the open circuit's :class:`Trip` (this failure tripped it, or it
        was open already), else None."""
        with self._lock:
            counts = self._counts.setdefault(key, {})
            counts[kind] = counts.get(kind, 0) + 1
            self._last[key] = reason
            n = sum(counts.values())
            if key not in self._open and n >= self.threshold:
                self._open[key] = Trip(key, n, reason, dict(counts))
            return self._open.get(key)

    def succeeded(self, key: str) -> None:
        """A usable answer from ``key``: its count starts again (an open circuit stays open)."""
        with self._lock:
            self._counts.pop(key, None)
            self._last.pop(key, None)


def retry_call(attempt: Callable[[int], T], *, retries: int, wait: Callable[[int, Transient], float],
               remaining: Callable[[], float | None] | None = None, breaker: CircuitBreaker | None = None,
               key: str = "", cancel: threading.Event | None = None, sleep: Callable[[float], Any] = time.sleep,
               on_retry: Callable[[int, Transient, float], None] | None = None) -> T:
    """``attempt(k)`` (``k`` = 0, 1, ...) until it returns, retrying on :class:`Transient` (module docstring).

    Args:
        attempt: one try; raises :class:`Transient` for a failure worth retrying, anything else to stop at once.
        retries: retries after the first attempt (0: try once).
        wait: seconds to wait after the failed attempt ``k`` (may note a capped ``Retry-After`` in the failure's
            reason: the reason is reported as it stands after the wait was chosen).
        remaining: seconds left before the deadline, or None for none.
        breaker, key: the circuit breaker and the key this call counts under.
        cancel: ends the waits (and stops before the next attempt) when set.
        sleep: how to wait without ``cancel`` (tests pass a fake).
        on_retry: called as ``on_retry(k, failure, wait)`` before each wait (logging).

    Raises:
        RetriesExhausted, DeadlinePassed, CircuitOpen, Cancelled: see :class:`RetryStopped`.
    """
    state: dict[str, Any] = {"last": None}

    def last() -> Transient | None:
        return state["last"]

    def before(rs: tenacity.RetryCallState) -> None:
        done = rs.attempt_number - 1
        if cancel is not None and cancel.is_set():
            raise Cancelled(done, last())
        if breaker is not None:
            trip = breaker.trip(key)
            if trip is not None:
                raise CircuitOpen(done, last(), trip, attempted=done > 0)
        rem = remaining() if remaining is not None else None
        if rem is not None and rem <= 0:
            raise DeadlinePassed(done, last())

    def after(rs: tenacity.RetryCallState) -> None:  # a Transient failure: count it, maybe trip the breaker
        exc = rs.outcome.exception() if rs.outcome is not None else None
        assert isinstance(exc, Transient)
        state["last"] = exc
        if breaker is not None and exc.kind is not None:
            trip = breaker.failed(key, exc.reason, exc.kind)
            if trip is not None:
                raise CircuitOpen(rs.attempt_number, exc, trip, attempted=True)

    def pause(rs: tenacity.RetryCallState) -> float:
        w = wait(rs.attempt_number - 1, last())  # type: ignore[arg-type]
        state["wait"] = w
        return w

    def before_sleep(rs: tenacity.RetryCallState) -> None:
        w = state["wait"]
        rem = remaining() if remaining is not None else None
        if rem is not None and w >= rem:  # the next attempt would start after the deadline
            raise DeadlinePassed(rs.attempt_number, last(), w)
        if on_retry is not None:
            on_retry(rs.attempt_number - 1, last(), w)  # type: ignore[arg-type]
        state["attempts"] = rs.attempt_number

    def do_sleep(seconds: float) -> None:
        if cancel is None:
            sleep(seconds)
        elif cancel.wait(seconds):
            raise Cancelled(state["attempts"], last(), during_wait=True)

    def exhausted(rs: tenacity.RetryCallState) -> Any:
        raise RetriesExhausted(rs.attempt_number, last())

    retrying = tenacity.Retrying(
        stop=tenacity.stop_after_attempt(retries + 1), retry=tenacity.retry_if_exception_type(Transient),
        wait=pause, sleep=do_sleep, before=before, after=after, before_sleep=before_sleep,
        retry_error_callback=exhausted)
    for trial in retrying:
        with trial:
            out = attempt(trial.retry_state.attempt_number - 1)
        if not trial.retry_state.outcome.failed:  # type: ignore[union-attr]
            if breaker is not None:
                breaker.succeeded(key)
            return out
    raise AssertionError("unreachable: tenacity ends with a result or an exception")  # pragma: no cover
