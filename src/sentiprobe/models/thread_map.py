"""Running blocking requests on a few daemon threads, in order, stopping at the first failure or at Ctrl-C.

Why not ``concurrent.futures.ThreadPoolExecutor``: it joins its workers on the way out, i.e. an interrupted run
would wait for every in-flight request to time out and spend its retries. Here the main thread waits on a queue
(Ctrl-C interrupts it), the workers are daemon threads that are told to stop through a cancellation event (which
also ends their backoff sleeps, see :func:`sentiprobe.core.retry.retry_call`) and are never joined.
"""
from __future__ import annotations

import queue
import threading
from collections.abc import Callable, Sequence
from typing import Any


def map_in_threads(fn: Callable[[Any, threading.Event | None], Any], jobs: Sequence[Any], max_workers: int,
                   name: str = "sentiprobe-llm") -> list[Any]:
    """``fn(job, cancel)`` over ``jobs`` on at most ``max_workers`` threads, results in order.

    The first failure (or a ``KeyboardInterrupt`` in the waiting main thread) sets ``cancel`` and
    propagates at once. The workers are daemon threads and are never joined: one blocked in a socket
    read finishes (or times out) on its own, its result discarded, and cannot hold up an interrupted
    interpreter's exit. With one job or ``max_workers=1`` the jobs run in the calling thread (``cancel`` None),
    where Ctrl-C interrupts the socket read or the backoff sleep directly.
    """
    if len(jobs) <= 1 or max_workers == 1:
        return [fn(j, None) for j in jobs]
    cancel = threading.Event()
    todo: queue.SimpleQueue[tuple[int, Any]] = queue.SimpleQueue()
    for i, j in enumerate(jobs):
        todo.put((i, j))
    done: queue.SimpleQueue[tuple[int, bool, Any]] = queue.SimpleQueue()

    def work() -> None:
        while not cancel.is_set():
            try:
                i, j = todo.get_nowait()
            except queue.Empty:
                return
            try:
                done.put((i, True, fn(j, cancel)))
            except BaseException as exc:
                done.put((i, False, exc))
                return

    for k in range(min(max_workers, len(jobs))):
        threading.Thread(target=work, daemon=True, name=f"{name}-{k}").start()
    results: list[Any] = [None] * len(jobs)
    try:
        for _ in range(len(jobs)):
            i, ok, value = done.get()  # interruptible: Ctrl-C raises KeyboardInterrupt here
            if not ok:
                raise value
            results[i] = value
    finally:
        cancel.set()  # on success the workers are already idle; otherwise they stop at their next check
    return results


__all__ = ["map_in_threads"]
