"""Download missing data files from their pinned URLs (or a mirror), verify, write atomically.

Every download goes to a temporary ``.<name>.<random>.part`` file in the destination folder, is checked
against the manifest (size and sha256; git blob id for unpublished files, whose sha256 is unknown) and only
then moved into place with ``os.replace``. Whatever happens (HTTP error, truncated body, checksum mismatch,
Ctrl-C), no partial file is left at the destination and the temporary file is removed.

Connection errors, timeouts, HTTP 429/5xx and truncated bodies are retried ``retries`` times with
exponential backoff (:func:`sentiprobe.core.retry.retry_call`); checksum mismatches and other HTTP errors are not.

``timeout`` bounds each connection and read; ``deadline`` bounds a whole file, attempts and backoff
included, so a mirror that trickles one byte every few seconds (never tripping the read timeout) still
fails, with DownloadDeadlineError (checked between reads, so it is overshot by at most one ``timeout``).
Three more limits hold by default, so a dead or trickling source never costs minutes per file:

- a transfer that delivers less than ``stall_rate`` bytes/s (default ``STALL_RATE``, 1 KiB/s) over ``stall_window``
  seconds (default ``STALL_WINDOW``, 30 s) is a :class:`~sentiprobe.core.errors.DownloadStalledError`, a typed
  timeout, and its host gets no more requests in this fetch (a trickling mirror is dropped after 30 s, not after
  the file's whole deadline, nor after 30 s per file and retry);
- a circuit breaker per source host: after ``BREAKER_THRESHOLD`` failed attempts in a row (timeouts, refused
  connections, HTTP 429/5xx) or one stall no further attempt goes to that host in this fetch, so the remaining
  files fail at once instead of each paying its own retries (a mirror that never answers: ~93 s in all at the
  defaults instead of 127 s per file);
- ``total_deadline`` bounds the whole fetch (default :func:`total_deadline_for`: 600 s plus 1 s per 64 KiB to
  download); files not finished by then fail with DownloadDeadlineError.
During :func:`fetch`, SIGTERM is turned into ``SystemExit(143)`` so the ``finally`` blocks remove the ``.part``
file; ``.part`` files of a killed process are removed by the next fetch (:mod:`.partfiles`). The transport, the
retries and the breaker are in :mod:`.transport`, the report in :mod:`.fetch_report`.
"""
from __future__ import annotations

import hashlib
import http.client
import os
import sys
import time
from collections.abc import Callable, Iterable
from dataclasses import dataclass
from pathlib import Path
from typing import Any

from ..core.errors import (ChecksumError, ConfigError, DownloadDeadlineError, DownloadError, DownloadStalledError,
                           SentiprobeError)
from ..core.io import atomic_write_bytes
from ..core.limits import MAX_FETCH_RETRIES, MAX_FETCH_STALL_RATE
from .fetch_report import SCHEMA_VERSION, FetchOutcome, FetchReport
from .integrity import git_blob_of
from .manifest import Manifest, ManifestFile, load_manifest
from .partfiles import STALE_PART_AGE, UNLOCKED_GRACE, remove_stale_parts, sigterm_raises, temp_for
from .transport import (BREAKER_THRESHOLD, CHUNK, STALL_RATE, STALL_WINDOW, Breaker, StallWatch, _NotFound, _Retryable,
                        fetch_bytes, open_source, source_location, with_retries)

DEFAULT_TIMEOUT = 30.0
DEFAULT_RETRIES = 3
DEFAULT_BACKOFF = 1.0
DEFAULT_DEADLINE = 600.0  # seconds per file, plus 1 s per MIN_RATE bytes (see deadline_for)
MIN_RATE = 64 * 1024  # bytes/s a download is granted beyond DEFAULT_DEADLINE when no deadline is given
MAX_RETRIES = MAX_FETCH_RETRIES
MAX_STALL_RATE = MAX_FETCH_STALL_RATE  # bytes/s: a bigger stall rate is a typo (every transfer would stall)

ProgressFn = Callable[[str, int, "int | None"], None]


def deadline_for(entry: ManifestFile, deadline: float | None) -> float:
    """Seconds a whole file may take: ``deadline`` when given, else DEFAULT_DEADLINE plus size / MIN_RATE."""
    if deadline is not None:
        return deadline
    return DEFAULT_DEADLINE + (entry.size or 0) / MIN_RATE


def total_deadline_for(entries: Iterable[ManifestFile]) -> float:
    """Seconds a whole fetch may take by default: DEFAULT_DEADLINE plus the bytes to download / MIN_RATE."""
    return DEFAULT_DEADLINE + sum(e.size or 0 for e in entries) / MIN_RATE


def _check_limits(timeout: float, retries: int, deadline: float | None, total_deadline: float | None,
                  stall_rate: float = STALL_RATE, stall_window: float = STALL_WINDOW) -> None:
    """The numbers of :func:`fetch`, checked as the CLI checks them (ConfigError)."""
    for name, v in (("timeout", timeout), ("deadline", deadline), ("total_deadline", total_deadline),
                    ("stall_window", stall_window)):
        if v is not None and (isinstance(v, bool) or not isinstance(v, int | float) or not 0 < v < float("inf")):
            raise ConfigError(f"--{name.replace('_', '-')} must be a positive number of seconds, got {v!r}")
    if isinstance(stall_rate, bool) or not isinstance(stall_rate, int | float) \
            or not 0 <= stall_rate <= MAX_STALL_RATE:
        raise ConfigError(f"--stall-rate must be a number of bytes per second from 0 (no stall check) to "
                          f"{MAX_STALL_RATE:g}, got {stall_rate!r}")
    if isinstance(retries, bool) or not isinstance(retries, int) or not 0 <= retries <= MAX_RETRIES:
        raise ConfigError(f"--retries must be an integer from 0 to {MAX_RETRIES}, got {retries!r}")


def _download_once(entry: ManifestFile, src: str, dest: Path, timeout: float,
                   progress: ProgressFn | None, end: float | None = None, stall_rate: float = STALL_RATE,
                   stall_window: float = STALL_WINDOW) -> None:
    fd, tmp = temp_for(dest)
    try:
        h, n = hashlib.sha256(), 0
        limit = entry.size
        with os.fdopen(fd, "wb") as out:
            header_limit = max(timeout, stall_window) if stall_rate > 0 else None
            with open_source(src, timeout, header_limit) as (stream, length):
                total = limit if limit is not None else length
                # read1: return what has arrived; read(CHUNK) would wait for a full chunk, so a trickling
                # server would never give the deadline check below a chance to run
                read = getattr(stream, "read1", stream.read)
                watch = StallWatch(stall_rate, stall_window)
                while True:
                    now = time.monotonic()
                    if end is not None and now > end:
                        raise DownloadDeadlineError(
                            f"{entry.path}: not finished within its deadline ({n} bytes received from "
                            f"{src}); use a faster mirror or raise --deadline / --total-deadline")
                    watch.check(n, src, entry.path)
                    try:
                        chunk = read(CHUNK)
                    except (OSError, http.client.HTTPException) as exc:  # reset, timeout, IncompleteRead
                        raise _Retryable(f"connection to {src} failed after {n} bytes: {exc!r}") from None
                    if not chunk:
                        break
                    out.write(chunk)
                    h.update(chunk)
                    n += len(chunk)
                    if progress:
                        progress(entry.path, n, total)
                    if limit is not None and n > limit:
                        raise ChecksumError(entry.path, entry.sha256 or "", h.hexdigest(),
                                            f"body longer than the expected {limit} bytes; "
                                            f"stopped after {n} bytes from {src}")
            out.flush()
            os.fsync(out.fileno())
        if length is not None and n < length:
            raise _Retryable(f"truncated body from {src}: received {n} of {length} bytes (Content-Length)")
        actual = h.hexdigest()
        if limit is not None and n != limit:
            if n < limit and length is None:
                raise _Retryable(f"truncated body from {src}: received {n} of {limit} bytes")
            raise ChecksumError(entry.path, entry.sha256 or "", actual,
                                f"size {n} bytes, expected {limit}; from {src}")
        if entry.sha256 is not None and actual != entry.sha256:
            raise ChecksumError(entry.path, entry.sha256, actual, f"from {src}")
        if entry.sha256 is None and entry.git_blob:
            blob = git_blob_of(tmp)
            if blob != entry.git_blob:
                raise ChecksumError(entry.path, f"git blob {entry.git_blob}", f"git blob {blob}", f"from {src}")
        os.replace(tmp, dest)
    finally:
        try:
            tmp.unlink()
        except FileNotFoundError:
            pass


def download_file(entry: ManifestFile, dest: str | Path, src: str, *, timeout: float = DEFAULT_TIMEOUT,
                  retries: int = DEFAULT_RETRIES, backoff: float = DEFAULT_BACKOFF,
                  progress: ProgressFn | None = None, deadline: float | None = None,
                  not_after: float | None = None, breaker: Breaker | None = None, stall_rate: float = STALL_RATE,
                  stall_window: float = STALL_WINDOW) -> None:
    """Download ``src`` to ``dest`` atomically, verified against ``entry`` (raises typed errors).

    ``deadline``: seconds the whole file may take, every attempt included (default :func:`deadline_for`);
    ``not_after``: a ``time.monotonic()`` the download must also end by (the fetch's overall deadline);
    ``breaker``: the fetch's circuit breaker (see the module docstring); ``stall_rate`` / ``stall_window``: a
    transfer slower than ``stall_rate`` bytes/s over ``stall_window`` seconds stalls (``stall_rate`` 0: never).

    Raises:
        DownloadDeadlineError: the deadline passed (a DownloadError; not retried).
        DownloadStalledError: the transfer stalled (a DownloadError; not retried, and its host's circuit opens).
        ChecksumError: wrong size or hash (names the file, expected and actual hash).
        DownloadError: HTTP error, connection failure or truncated body after all retries, or the
            source does not have the file.
    """
    dest = Path(dest)
    end = time.monotonic() + deadline_for(entry, deadline)
    if not_after is not None:
        end = min(end, not_after)

    def once() -> None:
        try:
            _download_once(entry, src, dest, timeout, progress, end, stall_rate, stall_window)
        except DownloadStalledError as exc:
            # a host that stalled for a whole window would stall the next attempt and file as well: no retry
            # (another attempt costs another window), and the fetch's other files from it fail at once
            if breaker is not None:
                breaker.stalled(src, str(exc))
            raise
        except _NotFound as exc:
            raise DownloadError(f"{entry.path}: not found at the source ({exc})") from None
        except OSError as exc:  # cannot create/write the destination, unreadable mirror file
            raise DownloadError(f"{entry.path}: {exc}") from None

    with_retries(entry.path, once, retries, backoff, end, breaker, src)


def file_matches(entry: ManifestFile, path: Path) -> bool:
    """True when ``path`` has the entry's size and sha256 (git blob for unpublished files)."""
    from ..core.hashing import file_sha256

    if not path.is_file():
        return False
    if entry.size is not None and path.stat().st_size != entry.size:
        return False
    if entry.sha256 is not None:
        return file_sha256(path) == entry.sha256
    if entry.git_blob:
        return git_blob_of(path) == entry.git_blob
    return True  # unpublished, no known hash: presence is all that can be checked


def _tqdm_progress() -> tuple[ProgressFn, Callable[[], None]]:
    from tqdm import tqdm

    bars: dict[str, Any] = {}

    def fn(path: str, done: int, total: int | None) -> None:
        bar = bars.get(path)
        if bar is None:
            for old in bars.values():
                old.close()
            bars.clear()
            bar = bars[path] = tqdm(total=total, unit="B", unit_scale=True, desc=path, leave=False,
                                    file=sys.stderr)
        bar.update(done - bar.n)

    def close() -> None:
        for b in bars.values():
            b.close()

    return fn, close


def fetch(family: str | Iterable[str] | None = None, data_dir: str | Path | None = None,
          mirror: str | Path | None = None, force: bool = False,
          progress: bool | ProgressFn | None = None, *, include_unpublished: bool = False,
          keep_going: bool = False, timeout: float = DEFAULT_TIMEOUT, retries: int = DEFAULT_RETRIES,
          backoff: float = DEFAULT_BACKOFF, deadline: float | None = None, total_deadline: float | None = None,
          manifest: Manifest | None = None, stall_rate: float = STALL_RATE, stall_window: float = STALL_WINDOW,
          log: Callable[[str], None] | None = None) -> FetchReport:
    """Download what is missing (or wrong) in the data directory and verify it.

    Args:
        family: a family name, several, or ``None`` for all (suite names: see :func:`resolve_families`).
        data_dir: target directory (``resolve_data_dir`` rules when ``None``).
        mirror: URL prefix (``https://host/sentiprobe-data``) or local directory laid out like the data
            directory; files are addressed by manifest path. When given, the pinned URLs are not used
            (derived files missing from the mirror are rebuilt locally when their recipe allows).
        force: download again even when a verified copy is present.
        progress: ``True`` for tqdm bars on stderr, or a callable ``(path, bytes_done, bytes_total)``.
        include_unpublished: also try unpublished (optional) files that have an upstream URL or are on the
            mirror; verified by git blob id.
        keep_going: record failures in the report instead of raising the first one.
        timeout: socket timeout per connection/read, seconds. retries/backoff: see the module docstring.
        deadline: seconds one file may take in all (default: 600 s plus 1 s per 64 KiB of the file).
        total_deadline: seconds the whole fetch may take (default :func:`total_deadline_for` the files to get).
        stall_rate, stall_window: a transfer delivering less than ``stall_rate`` bytes/s (default 1024; 0: no
            check) over ``stall_window`` seconds (default 30) fails as stalled, and its host gets no more requests.
        log: called once before the first download with the limits that hold (the console states them).

    Raises (unless ``keep_going``): ChecksumError, DownloadError, DataError (recipe input malformed).
    """
    from . import resolve_data_dir

    _check_limits(timeout, retries, deadline, total_deadline, stall_rate, stall_window)
    m = manifest or load_manifest()
    root = resolve_data_dir(data_dir)
    entries = m.select(family)
    # rebuild derived files after everything they may read
    entries.sort(key=lambda e: e.derive is not None)
    remove_stale_parts(root, sorted({e.family for e in entries}))
    close = None
    if progress is True:
        progress, close = _tqdm_progress()
    elif progress is False:
        progress = None
    outcomes: list[FetchOutcome] = []
    todo = [e for e in entries if force or not _same_size(e, root / e.path)]  # what will be downloaded, roughly
    limit = total_deadline if total_deadline is not None else total_deadline_for(todo)
    net = _Net(timeout, retries, backoff, deadline, time.monotonic() + limit, limit, Breaker(), stall_rate,
               stall_window)
    if log is not None and todo:
        log(limits_line(len(todo), net))
    try:
        with sigterm_raises():
            for e in entries:
                outcomes.append(_fetch_one(m, e, root, mirror, force, progress, include_unpublished, keep_going,
                                           net))
    finally:
        if close:
            close()
    return FetchReport(str(root), str(mirror) if mirror is not None else None, tuple(outcomes))


def _present(e: ManifestFile, dest: Path, action: str, source: str | None, message: str = "") -> FetchOutcome:
    from ..core.hashing import file_sha256

    return FetchOutcome(e.path, action, source, dest.stat().st_size, file_sha256(dest), message)


def _same_size(e: ManifestFile, path: Path) -> bool:
    try:
        return e.size is None or path.stat().st_size == e.size
    except OSError:
        return False


@dataclass(frozen=True)
class _Net:
    """The network settings and shared state of one fetch (limits, overall end, circuit breaker)."""

    timeout: float
    retries: int
    backoff: float
    deadline: float | None
    end: float  # time.monotonic() by which the whole fetch must end
    total: float  # the overall deadline in seconds (for messages)
    breaker: Breaker
    stall_rate: float = STALL_RATE
    stall_window: float = STALL_WINDOW


def limits_line(n_files: int, net: _Net) -> str:
    """What bounds a fetch, for the console before it starts: the overall deadline (in seconds, with its option),
    the per-file deadline, the read timeout and the stall rule."""
    per_file = f"{net.deadline:g} s" if net.deadline is not None else \
        f"{DEFAULT_DEADLINE:.0f} s plus 1 s per {MIN_RATE // 1024} KiB"
    stall = (f"a transfer under {net.stall_rate:g} bytes/s over {net.stall_window:g} s stalls (--stall-rate, "
             "--stall-window)") if net.stall_rate > 0 else "no stall check (--stall-rate 0)"
    return (f"fetching up to {n_files} file(s); giving up after {net.total:.0f} s in all (--total-deadline), "
            f"{per_file} per file (--deadline), {net.timeout:g} s per connection or read (--timeout), "
            f"{net.retries} retries (--retries); {stall}")


def _fetch_one(m: Manifest, e: ManifestFile, root: Path, mirror: str | Path | None, force: bool,
               progress: ProgressFn | None, include_unpublished: bool, keep_going: bool, net: _Net) -> FetchOutcome:
    dest = root / e.path
    if not force and file_matches(e, dest):
        return _present(e, dest, "skipped", None, "present and verified")
    src = source_location(e, mirror)
    if e.optional and (not include_unpublished or src is None):
        why = "optional, not attempted; use --include-unpublished" if src else "optional, no upstream copy exists"
        msg = f"unpublished ({why}). {e.reason or ''} Instead: {e.substitute or '-'} To supply it: " \
              f"{e.how_to_supply or f'place it at <data-dir>/{e.path}'}"
        if dest.exists():
            msg = "present but does not match the expected git blob; " + msg
        return FetchOutcome(e.path, "unpublished", None, message=" ".join(msg.split()))
    try:
        if time.monotonic() > net.end:
            raise DownloadDeadlineError(f"{e.path}: not attempted: the fetch's overall deadline of {net.total:.0f} s "
                                        "passed (--total-deadline)")
        if src is not None:
            try:
                download_file(e, dest, src, timeout=net.timeout, retries=net.retries, backoff=net.backoff,
                              progress=progress, deadline=net.deadline, not_after=net.end, breaker=net.breaker,
                              stall_rate=net.stall_rate, stall_window=net.stall_window)
                return _present(e, dest, "fetched", src)
            except DownloadError:
                if e.derive is None or mirror is None:
                    raise
                # mirror lacks a derived file: rebuild it below
        if e.derive is not None:
            return _derive(m, e, root, dest, net)
        raise DownloadError(
            f"{e.path} cannot be downloaded: {e.origin or 'no upstream URL'}. Supply it by placing it at "
            f"{dest} or use --mirror with a copy of the data directory")
    except SentiprobeError as exc:
        if not keep_going:
            raise
        return FetchOutcome(e.path, "failed", src, message=str(exc), error=type(exc).__name__,
                            expected_sha256=getattr(exc, "expected", None),
                            actual_sha256=getattr(exc, "actual", None))


def _derive(m: Manifest, e: ManifestFile, root: Path, dest: Path, net: _Net) -> FetchOutcome:
    from .derive import derive_bytes

    recipe = e.derive
    assert recipe is not None
    for inp in recipe.inputs:
        ie = m.get(inp)
        if ie is None or not file_matches(ie, root / inp):
            raise DownloadError(f"{e.path}: cannot rebuild: input {inp} is missing or does not verify "
                                f"(fetch family {inp.split('/', 1)[0]!r} first)")
    data = derive_bytes(e, root, lambda url, blob: fetch_bytes(url, blob, net.timeout, net.retries, net.backoff,
                                                                net.breaker, (net.stall_rate, net.stall_window),
                                                                net.end))
    actual = hashlib.sha256(data).hexdigest()
    if e.sha256 is not None and (actual != e.sha256 or len(data) != e.size):
        raise ChecksumError(e.path, e.sha256, actual,
                            f"rebuilt by recipe {recipe.recipe}: {len(data)} bytes, expected {e.size}")
    try:
        atomic_write_bytes(dest, data)
    except OSError as exc:
        raise DownloadError(f"{e.path}: cannot write into {dest.parent}: {exc}") from None
    src = f"recipe:{recipe.recipe}(" + ", ".join(list(recipe.inputs) + ([recipe.source_url] if recipe.source_url
                                                                         else [])) + ")"
    return _present(e, dest, "derived", src)


__all__ = ["BREAKER_THRESHOLD", "SCHEMA_VERSION", "STALE_PART_AGE", "UNLOCKED_GRACE", "Breaker", "FetchOutcome",
           "FetchReport", "fetch", "download_file", "file_matches", "source_location", "deadline_for",
           "total_deadline_for", "remove_stale_parts", "limits_line"]
