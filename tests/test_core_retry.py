"""The one retry helper (sentiprobe.core.retry): tenacity's loop with a deadline, a circuit breaker and cancellation.

The behaviour its two callers rely on (data download, LLM requests) is tested end to end against real local servers
in test_data_fetch_hardening.py and test_llm_hardening.py; here each mechanism alone, with fake sleeps and clocks.
"""
from __future__ import annotations

import threading

import pytest

from sentiprobe.core import env, paths
from sentiprobe.core.retry import (Cancelled, CircuitBreaker, CircuitOpen, DeadlinePassed, RetriesExhausted, Transient,
                                   retry_call)


def flaky(fail: int, kind: str | None = "connect", retry_after: float | None = None):
    """An attempt that fails ``fail`` times, then returns the attempt number."""
    seen: list[int] = []

    def attempt(k: int) -> int:
        seen.append(k)
        if len(seen) <= fail:
            raise Transient(f"failure {len(seen)}", kind=kind, retry_after=retry_after)
        return k

    return attempt, seen


def test_retries_with_the_callers_waits_then_succeeds():
    attempt, seen = flaky(2)
    slept: list[float] = []
    logged: list[tuple[int, str, float]] = []
    out = retry_call(attempt, retries=3, wait=lambda k, f: 0.5 * 2 ** k, sleep=slept.append,
                     on_retry=lambda k, f, w: logged.append((k, f.reason, w)))
    assert out == 2 and seen == [0, 1, 2]
    assert slept == [0.5, 1.0]
    assert logged == [(0, "failure 1", 0.5), (1, "failure 2", 1.0)]


def test_retries_spent_names_the_attempts_and_the_last_failure():
    attempt, seen = flaky(10)
    slept: list[float] = []
    with pytest.raises(RetriesExhausted) as ei:
        retry_call(attempt, retries=2, wait=lambda k, f: 0.0, sleep=slept.append)
    assert ei.value.attempts == 3 and ei.value.reason == "failure 3" and len(seen) == 3 and len(slept) == 2


def test_other_exceptions_leave_at_once_and_unchanged():
    calls = []

    def attempt(k: int) -> None:
        calls.append(k)
        raise KeyError("not transient")

    with pytest.raises(KeyError, match="not transient"):
        retry_call(attempt, retries=5, wait=lambda k, f: 0.0, sleep=lambda s: None)
    assert calls == [0]

    def interrupted(k: int) -> None:
        raise KeyboardInterrupt

    with pytest.raises(KeyboardInterrupt):
        retry_call(interrupted, retries=5, wait=lambda k, f: 0.0, sleep=lambda s: None)


def test_a_wait_that_would_pass_the_deadline_stops_before_sleeping():
    attempt, seen = flaky(10)
    slept: list[float] = []
    with pytest.raises(DeadlinePassed) as ei:
        retry_call(attempt, retries=10, wait=lambda k, f: 2.0, remaining=lambda: 1.5, sleep=slept.append)
    assert slept == [] and seen == [0] and ei.value.wait == 2.0 and ei.value.reason == "failure 1"
    with pytest.raises(DeadlinePassed) as ei:  # already passed: no attempt at all
        retry_call(attempt, retries=10, wait=lambda k, f: 0.0, remaining=lambda: 0.0)
    assert ei.value.attempts == 0 and ei.value.wait is None


def test_breaker_counts_kinds_per_key_and_stays_open():
    b = CircuitBreaker(3)
    attempt, seen = flaky(10, kind="timeout")
    with pytest.raises(CircuitOpen) as ei:
        retry_call(attempt, retries=10, wait=lambda k, f: 0.0, sleep=lambda s: None, breaker=b, key="h1")
    assert len(seen) == 3 and ei.value.attempted and ei.value.trip.failures == 3
    assert ei.value.trip.kinds == {"timeout": 3} and ei.value.trip.reason == "failure 3"
    attempt2, seen2 = flaky(0)
    with pytest.raises(CircuitOpen) as ei:  # open for good: not even attempted
        retry_call(attempt2, retries=3, wait=lambda k, f: 0.0, breaker=b, key="h1")
    assert seen2 == [] and not ei.value.attempted
    assert retry_call(attempt2, retries=0, wait=lambda k, f: 0.0, breaker=b, key="h2") == 0  # another key
    b.succeeded("h1")
    assert b.trip("h1") is not None


def test_breaker_ignores_uncounted_failures_and_a_success_resets_it():
    b = CircuitBreaker(2)
    attempt, _ = flaky(5, kind=None)  # a 503: the server is alive
    with pytest.raises(RetriesExhausted):
        retry_call(attempt, retries=4, wait=lambda k, f: 0.0, sleep=lambda s: None, breaker=b, key="h")
    assert b.failures("h") == 0
    attempt, _ = flaky(1)
    assert retry_call(attempt, retries=1, wait=lambda k, f: 0.0, sleep=lambda s: None, breaker=b, key="h") == 1
    assert b.failures("h") == 0 and b.trip("h") is None


def test_cancel_ends_the_wait_at_once():
    cancel = threading.Event()
    attempt, seen = flaky(10)
    threading.Timer(0.05, cancel.set).start()
    with pytest.raises(Cancelled) as ei:
        retry_call(attempt, retries=5, wait=lambda k, f: 60.0, cancel=cancel)
    assert ei.value.during_wait and ei.value.attempts == 1 and seen == [0]
    with pytest.raises(Cancelled) as ei:  # set before: nothing is attempted
        retry_call(attempt, retries=5, wait=lambda k, f: 0.0, cancel=cancel)
    assert not ei.value.during_wait and ei.value.attempts == 0 and seen == [0]


def test_wait_sees_the_servers_retry_after():
    attempt, _ = flaky(1, retry_after=7.0)
    slept: list[float] = []
    retry_call(attempt, retries=1, wait=lambda k, f: min(f.retry_after or 0.0, 3.0), sleep=slept.append)
    assert slept == [3.0]


def test_one_cache_directory_resolver(tmp_path):
    previous = env.install({})
    try:
        assert paths.cache_dir() == paths.user_cache_dir()
        assert paths.data_dir() == paths.user_cache_dir() / "data"
        env.install({"SENTIPROBE_CACHE_DIR": str(tmp_path / "c"), "SENTIPROBE_DATA_DIR": str(tmp_path / "d")})
        from sentiprobe.data import default_stamp_dir, resolve_data_dir
        from sentiprobe.run.cache import default_cache_dir

        assert default_cache_dir() == default_stamp_dir() == paths.cache_dir() == tmp_path / "c"
        assert resolve_data_dir() == paths.data_dir() == tmp_path / "d"
        assert resolve_data_dir(tmp_path / "x") == tmp_path / "x"
    finally:
        env.install(previous)


def test_cache_wal_switch_waits_while_the_database_is_locked():
    import sqlite3

    from sentiprobe.run.cache import _set_wal

    class Db:
        def __init__(self, locked: int, message: str = "database is locked") -> None:
            self.calls, self.locked, self.message = 0, locked, message

        def execute(self, sql: str) -> None:
            self.calls += 1
            if self.calls <= self.locked:
                raise sqlite3.OperationalError(self.message)

    db = Db(2)
    _set_wal(db)  # type: ignore[arg-type]
    assert db.calls == 3
    with pytest.raises(sqlite3.OperationalError, match="database is locked"):  # SQLite's own error after the wait
        _set_wal(Db(10**6), wait=0.1)  # type: ignore[arg-type]
    other = Db(1, "disk I/O error")
    with pytest.raises(sqlite3.OperationalError, match="disk I/O error"):  # not retried
        _set_wal(other)  # type: ignore[arg-type]
    assert other.calls == 1
