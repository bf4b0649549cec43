"""Reading a data file's source (an http(s) URL or a local mirror) with retries and a per-host circuit breaker.

Connection errors, timeouts, HTTP 429/5xx and truncated bodies are :class:`_Retryable`: retried
with exponential backoff (``backoff * 2**attempt``) by :func:`with_retries`, which is the project's one retry helper
(:func:`sentiprobe.core.retry.retry_call`) with the fetch's deadline and :class:`Breaker`. HTTP 404/410 (or a file
absent from a mirror directory) is :class:`_NotFound`; other HTTP errors and checksum mismatches are not retried.
A stalled transfer is not retried either: it opens its host's circuit at once (:meth:`Breaker.stalled`).
"""
from __future__ import annotations

import hashlib
import http.client
import os
import socket
import threading
import time
import urllib.error
import urllib.request
from collections.abc import Callable, Iterator
from contextlib import contextmanager
from pathlib import Path
from typing import Any, BinaryIO
from urllib.parse import quote, urlsplit

from ..core.errors import ChecksumError, DownloadDeadlineError, DownloadError, DownloadStalledError
from ..core.limits import FETCH_STALL_RATE, FETCH_STALL_WINDOW
from ..core.retry import CircuitBreaker, CircuitOpen, DeadlinePassed, RetriesExhausted, Transient, Trip, retry_call
from .manifest import ManifestFile

BREAKER_THRESHOLD = 3  # failed attempts in a row that open a source host's circuit for the rest of a fetch
STALL_WINDOW = FETCH_STALL_WINDOW  # seconds over which a transfer must deliver STALL_RATE bytes/s on average
STALL_RATE = FETCH_STALL_RATE
CHUNK = 1 << 16


class StallWatch:
    """The stall rule of one transfer: less than ``rate`` bytes/s over ``window`` seconds is a
    :class:`~sentiprobe.core.errors.DownloadStalledError` (``rate`` 0: never). Why a rate and not only the socket
    timeout: a source that sends one byte every few seconds never lets a read time out."""

    def __init__(self, rate: float = STALL_RATE, window: float = STALL_WINDOW) -> None:
        self.rate, self.window = rate, window
        self.start, self.done = time.monotonic(), 0

    def check(self, n: int, src: str, what: str) -> None:
        """``n`` bytes received in all so far: raise when the current window is over and fell short."""
        now = time.monotonic()
        if now - self.start < self.window:
            return
        got, took = n - self.done, now - self.start
        if got < self.rate * took:
            raise DownloadStalledError(f"{what}: transfer from {src} stalled: {got} bytes in the last {took:.0f} s, "
                                       f"under {self.rate:.0f} bytes/s (--stall-rate / --stall-window); use a "
                                       "faster mirror")
        self.start, self.done = now, n


class _Retryable(Transient):
    """A transient failure worth another attempt (counted by the breaker)."""

    def __init__(self, reason: str) -> None:
        super().__init__(reason, kind="failure")


class _NotFound(Exception):
    """The source does not have the file (HTTP 404/410, or absent from a mirror directory)."""


def _user_agent() -> str:
    from importlib.metadata import PackageNotFoundError, version

    try:
        v = version("sentiprobe")
    except PackageNotFoundError:  # pragma: no cover - not installed
        v = "dev"
    return f"sentiprobe/{v} (data fetch)"


def source_location(entry: ManifestFile, mirror: str | Path | None) -> str | None:
    """Where ``entry`` is downloaded from: the mirror (addressed by manifest path) or its pinned URL."""
    if mirror is None:
        return entry.url
    m = str(mirror)
    if m.startswith(("http://", "https://")):
        return m.rstrip("/") + "/" + quote(entry.path, safe="/")
    if m.startswith("file://"):
        m = urllib.request.url2pathname(m[len("file://"):])
    return str(Path(m) / entry.path)


class Breaker:
    """Consecutive failed attempts per source host; at ``threshold`` the host's circuit opens for this fetch.

    Why: without it every file of a dead mirror pays its own timeouts and retries (381 s for three files).
    A success closes the count again (a flaky but working host keeps working). The counting is
    :class:`sentiprobe.core.retry.CircuitBreaker`, keyed by host.
    """

    def __init__(self, threshold: int = BREAKER_THRESHOLD) -> None:
        self.threshold = threshold
        self.circuit = CircuitBreaker(threshold)

    @staticmethod
    def host(src: str) -> str:
        if src.startswith(("http://", "https://")):
            return urlsplit(src).netloc
        return "the local mirror"

    @staticmethod
    def error(trip: Trip, what: str, attempted: bool) -> DownloadError:
        """The DownloadError of an open circuit."""
        if trip.kinds.get("stall"):
            return DownloadError(f"{what}: {'giving up' if attempted else 'not attempted'}: {trip.key} stalled a "
                                 f"transfer ({trip.reason}); no more requests go to it in this fetch")
        return DownloadError(f"{what}: {'giving up' if attempted else 'not attempted'}: {trip.key} failed "
                             f"{trip.failures} attempts in a row (last: {trip.reason}); no more requests go "
                             "to it in this fetch")

    def check(self, src: str, what: str, attempted: bool = False) -> None:
        """DownloadError when ``src``'s host has failed ``threshold`` times in a row."""
        trip = self.circuit.trip(self.host(src))
        if trip is not None:
            raise self.error(trip, what, attempted)

    def stalled(self, src: str, why: str) -> None:
        """``src``'s host stalled a transfer: its circuit opens now (a stall already took a whole window; another
        attempt or file from the same host would take as long)."""
        for _ in range(max(1, self.threshold - self.circuit.failures(self.host(src)))):
            self.circuit.failed(self.host(src), why, "stall")

    def failed(self, src: str, why: str) -> None:
        self.circuit.failed(self.host(src), why, "failure")

    def succeeded(self, src: str) -> None:
        self.circuit.succeeded(self.host(src))


def _watched_opener(socks: list[socket.socket]) -> urllib.request.OpenerDirector:
    """urllib's opener, with every connection's socket put in ``socks`` once connected (so that a timer can cut a
    connection whose response headers trickle in)."""

    class Conn(http.client.HTTPConnection):
        def connect(self) -> None:
            super().connect()
            socks.append(self.sock)

    class SConn(http.client.HTTPSConnection):
        def connect(self) -> None:
            super().connect()
            socks.append(self.sock)

    class Plain(urllib.request.HTTPHandler):
        def http_open(self, req: urllib.request.Request) -> http.client.HTTPResponse:
            return self.do_open(Conn, req)

    class Secure(urllib.request.HTTPSHandler):
        def https_open(self, req: urllib.request.Request) -> http.client.HTTPResponse:
            return self.do_open(SConn, req, context=getattr(self, "_context", None))

    return urllib.request.build_opener(Plain, Secure)


def _urlopen(req: urllib.request.Request, timeout: float, header_limit: float | None) -> Any:
    """``urlopen(req, timeout)``, but a response whose status line and headers have not all arrived after
    ``header_limit`` seconds is a :class:`~sentiprobe.core.errors.DownloadStalledError`: headers trickled a byte at
    a time never let the per-read ``timeout`` fire."""
    if header_limit is None:
        return urllib.request.urlopen(req, timeout=timeout)
    socks: list[socket.socket] = []
    cut = threading.Event()

    def stop() -> None:
        cut.set()
        for sk in list(socks):
            try:
                sk.shutdown(socket.SHUT_RDWR)  # the blocked read returns at once
            except OSError:
                pass

    timer = threading.Timer(header_limit, stop)
    timer.daemon = True
    timer.start()
    try:
        resp = _watched_opener(socks).open(req, timeout=timeout)
    except (urllib.error.URLError, OSError, http.client.HTTPException):
        if cut.is_set():
            raise DownloadStalledError(f"{req.full_url}: the response headers did not arrive within "
                                       f"{header_limit:g} s (--stall-window); use a faster mirror") from None
        raise
    finally:
        timer.cancel()
    if cut.is_set():  # cut just as the headers were complete: the body cannot be read any more
        resp.close()
        raise DownloadStalledError(f"{req.full_url}: the response headers did not arrive within {header_limit:g} s "
                                   "(--stall-window); use a faster mirror")
    return resp


@contextmanager
def open_source(src: str, timeout: float, header_limit: float | None = None) -> Iterator[tuple[BinaryIO, int | None]]:
    """Open ``src`` (http(s) URL or local path) as a byte stream; yields (stream, expected length).

    ``header_limit``: seconds the response headers may take in all (None: no limit beyond ``timeout`` per read)."""
    if not src.startswith(("http://", "https://")):
        try:
            f = open(src, "rb")  # noqa: SIM115 - returned to the caller, which closes it
        except FileNotFoundError:
            raise _NotFound(f"{src} does not exist") from None
        with f:
            yield f, os.fstat(f.fileno()).st_size
        return
    req = urllib.request.Request(src, headers={"User-Agent": _user_agent(), "Accept-Encoding": "identity"})
    try:
        resp = _urlopen(req, timeout, header_limit)
    except urllib.error.HTTPError as exc:
        exc.close()
        if exc.code in (404, 410):
            raise _NotFound(f"HTTP {exc.code} for {src}") from None
        if exc.code == 429 or exc.code >= 500:
            raise _Retryable(f"HTTP {exc.code} for {src}") from None
        raise DownloadError(f"HTTP {exc.code} {exc.reason} for {src}") from None
    except (urllib.error.URLError, OSError, http.client.HTTPException) as exc:
        raise _Retryable(f"cannot connect to {src}: {getattr(exc, 'reason', exc)}") from None
    with resp:
        cl = resp.headers.get("Content-Length")
        yield resp, int(cl) if cl and cl.isdigit() else None


def with_retries(what: str, fn: Callable[[], Any], retries: int, backoff: float,
                 end: float | None = None, breaker: Breaker | None = None, src: str = "") -> Any:
    """``fn()`` retried on :class:`_Retryable` (``retries`` times, ``backoff * 2**attempt`` apart), never past
    ``end`` (a ``time.monotonic()``), counted by ``breaker`` under ``src``'s host.

    Raises:
        DownloadDeadlineError: the next attempt would start after ``end``.
        DownloadError: the retries are spent, or the host's circuit is open.
    """
    try:
        return retry_call(lambda _k: fn(), retries=retries, wait=lambda k, _f: backoff * (2 ** k),
                          remaining=(lambda: end - time.monotonic()) if end is not None else None,
                          breaker=breaker.circuit if breaker is not None else None, key=Breaker.host(src))
    except CircuitOpen as stop:
        raise Breaker.error(stop.trip, what, stop.attempted) from None
    except DeadlinePassed as stop:
        raise DownloadDeadlineError(f"{what}: deadline reached after {stop.attempts} attempt(s): "
                                    f"{stop.reason}") from None
    except RetriesExhausted as stop:
        raise DownloadError(f"{what}: giving up after {stop.attempts} attempt(s): {stop.reason}") from None


def fetch_bytes(url: str, git_blob: str | None, timeout: float, retries: int, backoff: float,
                breaker: Breaker | None = None, stall: tuple[float, float] = (STALL_RATE, STALL_WINDOW),
                end: float | None = None) -> bytes:
    """Small auxiliary download into memory (a recipe's source), checked against its git blob id.

    ``stall``: (rate, window) of :class:`StallWatch`; ``end``: a ``time.monotonic()`` the download must end by (the
    fetch's overall deadline). A stall is not retried and opens the host's circuit, as for data files."""

    def once() -> bytes:
        try:
            with open_source(url, timeout, max(timeout, stall[1]) if stall[0] > 0 else None) as (stream, length):
                read = getattr(stream, "read1", stream.read)  # what has arrived: a trickle reaches the checks
                watch, parts, n = StallWatch(*stall), [], 0
                while True:
                    if end is not None and time.monotonic() > end:
                        raise DownloadDeadlineError(f"{url}: not finished within the fetch's deadline ({n} bytes "
                                                    "received); raise --total-deadline")
                    watch.check(n, url, url)
                    try:
                        chunk = read(CHUNK)
                    except (OSError, http.client.HTTPException) as exc:
                        raise _Retryable(f"connection to {url} failed: {exc}") from None
                    if not chunk:
                        break
                    parts.append(chunk)
                    n += len(chunk)
                data = b"".join(parts)
        except _NotFound as exc:
            raise DownloadError(str(exc)) from None
        except DownloadStalledError as exc:
            if breaker is not None:
                breaker.stalled(url, str(exc))
            raise
        if length is not None and len(data) < length:
            raise _Retryable(f"truncated body from {url}: received {len(data)} of {length} bytes")
        return data

    data = with_retries(url, once, retries, backoff, end, breaker=breaker, src=url)
    if git_blob:
        blob = hashlib.sha1(b"blob %d\0" % len(data) + data).hexdigest()
        if blob != git_blob:
            raise ChecksumError(url, f"git blob {git_blob}", f"git blob {blob}")
    return data


__all__ = ["BREAKER_THRESHOLD", "STALL_RATE", "STALL_WINDOW", "Breaker", "StallWatch", "fetch_bytes", "open_source",
           "source_location", "with_retries"]
