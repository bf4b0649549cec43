"""``data fetch`` deadlines and interrupts, ``data stats`` error path (issue 15, items 5 and 8).

Servers run on 127.0.0.1 only; every wait is bounded (deadlines of a few seconds, subprocesses killed
after at most 60 s). No timing assertion is tighter than several times the configured deadline.
"""
from __future__ import annotations

import os
import signal
import subprocess
import sys
import threading
import time
import urllib.parse
from contextlib import contextmanager
from http.server import BaseHTTPRequestHandler, ThreadingHTTPServer
from pathlib import Path

import pytest
from test_data_fetch import SMALL, mini_manifest, no_temp_files

import sentiprobe
from sentiprobe.cli import main
from sentiprobe.core.errors import DownloadDeadlineError, DownloadError
from sentiprobe.data import fetch
from sentiprobe.data.download import remove_stale_parts

pytestmark = pytest.mark.timeout(120)
REPO = Path(__file__).resolve().parents[1]
FILE = SMALL[0]  # sentivent/lexicons/henry2008.tsv


@contextmanager
def trickle_server(root: Path, interval: float = 0.5, hits: list[str] | None = None):
    """Serves files with the right Content-Length but one byte every ``interval`` seconds (never idle
    long enough for the per-read timeout to fire); the requested paths go to ``hits``."""
    stop = threading.Event()

    class Handler(BaseHTTPRequestHandler):
        def log_message(self, *args):
            pass

        def do_GET(self):
            if hits is not None:
                hits.append(self.path)
            p = root / urllib.parse.unquote(self.path.lstrip("/"))
            if not p.is_file():  # as a real mirror answers for a file it does not have
                self.send_error(404)
                return
            body = p.read_bytes()
            self.send_response(200)
            self.send_header("Content-Length", str(len(body)))
            self.end_headers()
            for i in range(len(body)):
                if stop.wait(interval):
                    return
                try:
                    self.wfile.write(body[i:i + 1])
                    self.wfile.flush()
                except OSError:
                    return

    srv = ThreadingHTTPServer(("127.0.0.1", 0), Handler)
    srv.daemon_threads = True
    t = threading.Thread(target=srv.serve_forever, kwargs={"poll_interval": 0.02}, daemon=True)
    t.start()
    try:
        yield f"http://127.0.0.1:{srv.server_address[1]}/"
    finally:
        stop.set()
        srv.shutdown()
        srv.server_close()
        t.join(5)


@pytest.fixture
def mirror(tmp_path, data_dir) -> Path:
    root = tmp_path / "mirror"
    (root / FILE).parent.mkdir(parents=True)
    (root / FILE).write_bytes((data_dir / FILE).read_bytes())
    return root


# ---- deadline ---------------------------------------------------------------------------------
def test_trickling_mirror_hits_the_overall_deadline(tmp_path, mirror):
    dest = tmp_path / "data"
    t0 = time.monotonic()
    with trickle_server(mirror, interval=0.2) as url, pytest.raises(DownloadDeadlineError, match=FILE) as ei:
        fetch(data_dir=dest, mirror=url, manifest=mini_manifest([FILE]), timeout=5.0, retries=2,
              backoff=0.0, deadline=1.5)
    assert isinstance(ei.value, DownloadError) and "deadline" in str(ei.value)
    assert time.monotonic() - t0 < 30  # generous: the read timeout alone would never have fired
    assert not (dest / FILE).exists() and no_temp_files(dest)


def test_cli_deadline_flag_and_bad_values(tmp_path, mirror, capsys):
    with trickle_server(mirror, interval=0.2) as url:
        rc = main(["data", "fetch", "sentivent", "--data-dir", str(tmp_path / "d"), "--mirror", url,
                   "--deadline", "1", "--timeout", "5", "--retries", "0", "--json"])
    assert rc == 1
    out = capsys.readouterr().out
    assert "DownloadDeadlineError" in out
    assert no_temp_files(tmp_path / "d")
    for bad in ("0", "-3", "nan"):
        assert main(["data", "fetch", "soul", "--data-dir", str(tmp_path / "d"), "--deadline", bad]) == 2
        assert "argument --deadline: must be a number in (0, 604800]" in capsys.readouterr().err


# ---- signals ----------------------------------------------------------------------------------
CHILD = r"""
import sys
from sentiprobe.data import fetch
sys.path.insert(0, {tests!r})
from test_data_fetch import mini_manifest
print("start", flush=True)
fetch(data_dir={dest!r}, mirror={url!r}, manifest=mini_manifest([{file!r}]), timeout=30, retries=0,
      backoff=0.0, deadline=60, progress=lambda p, n, t: print("progress", n, flush=True))
"""


@pytest.mark.parametrize("sig", [signal.SIGTERM, signal.SIGINT], ids=["SIGTERM", "SIGINT"])
def test_signal_during_fetch_leaves_no_part_file(tmp_path, mirror, sig):
    dest = tmp_path / "data"
    with trickle_server(mirror, interval=0.05) as url:
        code = CHILD.format(tests=str(REPO / "tests"), dest=str(dest), url=url, file=FILE)
        env = {**os.environ, "PYTHONPATH": str(Path(sentiprobe.__file__).parents[1])}  # the code under test
        proc = subprocess.Popen([sys.executable, "-c", code], stdout=subprocess.PIPE, stderr=subprocess.PIPE,
                                env=env, text=True)
        try:
            for line in proc.stdout:  # wait until bytes are being written to the .part file
                if line.startswith("progress"):
                    break
            assert list(dest.rglob("*.part")), "the download should be under way"
            proc.send_signal(sig)
            rc = proc.wait(timeout=30)
        finally:
            if proc.poll() is None:
                proc.kill()
                proc.wait()
    assert rc != 0
    assert rc in (128 + sig, -sig, 1), rc  # SystemExit(143), or KeyboardInterrupt's exit status
    assert not (dest / FILE).exists()
    assert no_temp_files(dest), sorted(p.name for p in dest.rglob("*"))


def test_later_fetch_removes_the_part_file_of_a_killed_fetch(tmp_path, mirror):
    """SIGKILL cannot be handled: the next fetch removes the orphan, but not a live fetch's file."""
    dest = tmp_path / "data"
    with trickle_server(mirror, interval=0.05) as url:
        code = CHILD.format(tests=str(REPO / "tests"), dest=str(dest), url=url, file=FILE)
        env = {**os.environ, "PYTHONPATH": str(Path(sentiprobe.__file__).parents[1])}
        procs = [subprocess.Popen([sys.executable, "-c", code], stdout=subprocess.PIPE,
                                  stderr=subprocess.DEVNULL, env=env, text=True) for _ in range(2)]
        try:
            for proc in procs:
                for line in proc.stdout:
                    if line.startswith("progress"):
                        break
            parts = sorted(dest.rglob("*.part"))
            assert len(parts) == 2
            procs[0].kill()
            procs[0].wait(timeout=30)
            orphan_age = time.time() - 3600  # older than the grace period between create and lock
            for p in parts:
                os.utime(p, (orphan_age, orphan_age))
            removed = remove_stale_parts(dest, ["sentivent"])
            assert len(removed) == 1 and not removed[0].exists()
            live = [p for p in parts if p not in removed]
            assert live[0].exists()  # the running fetch's file is untouched
        finally:
            for proc in procs:
                if proc.poll() is None:
                    proc.kill()
                    proc.wait()
    # a foreign .part (core.io's naming) goes by age only; a later fetch cleans what is left
    folder = (dest / FILE).parent
    other = folder / ".results.json.abc123xy.part"
    other.write_bytes(b"partial")
    notes = folder / "notes.part"  # not a temporary file name: never touched
    notes.write_bytes(b"mine")
    old = time.time() - 7200
    for p in (other, notes, *folder.glob(".*.part")):
        os.utime(p, (old, old))
    r = fetch(data_dir=dest, mirror=mirror, manifest=mini_manifest([FILE]), timeout=2.0, retries=0)
    assert r.ok
    assert sorted(p.name for p in folder.glob("*.part")) == ["notes.part"]


# ---- data stats -------------------------------------------------------------------------------
def test_data_stats_on_an_empty_dir_is_a_clean_error(tmp_path, capsys):
    empty = tmp_path / "empty"
    empty.mkdir()
    rc = main(["data", "stats", "sentivent-polar", "--data-dir", str(empty)])
    err = capsys.readouterr().err
    assert rc == 1
    assert "missing data file" in err and str(empty / "sentivent") in err
    assert "sentiprobe data fetch sentivent" in err and "TypeError" not in err


def test_data_stats_exits_nonzero_when_parts_fail(tmp_path, capsys):
    empty = tmp_path / "empty"
    empty.mkdir()
    rc = main(["data", "stats", "arts-laptop", "--data-dir", str(empty)])
    cap = capsys.readouterr()
    assert rc == 1
    assert "error: missing data file" in cap.out  # the per-split errors are still shown
    assert "could not be read: arts-laptop.train" in cap.err and "sentiprobe data verify arts-laptop" in cap.err
    rc = main(["data", "stats", "arts-laptop", "--data-dir", str(empty), "--json"])
    assert rc == 1


def test_data_stats_on_real_data_exits_zero(data_dir, capsys):
    assert main(["data", "stats", "soul-rc", "--data-dir", str(data_dir)]) == 0
    assert "could not be read" not in capsys.readouterr().err


# ---- a dead or trickling mirror: the circuit breaker across files, the stall check, the overall deadline (#22) --
@contextmanager
def silent_server():
    """Accepts connections and never answers; yields (url, list of accepted connections)."""
    import socket

    srv = socket.socket()
    srv.bind(("127.0.0.1", 0))
    srv.listen(32)
    srv.settimeout(0.05)
    conns: list = []
    stop = threading.Event()

    def serve():
        while not stop.is_set():
            try:
                conns.append(srv.accept()[0])
            except OSError:
                continue

    t = threading.Thread(target=serve, daemon=True)
    t.start()
    try:
        yield f"http://127.0.0.1:{srv.getsockname()[1]}/", conns
    finally:
        stop.set()
        t.join(5)
        for c in conns:
            c.close()
        srv.close()


def test_silent_mirror_opens_the_circuit_for_every_remaining_file(tmp_path):
    """381 s for 3 files at the defaults before: every file paid 4 attempts of 30 s. Now the host's circuit opens
    after BREAKER_THRESHOLD failed attempts and the other files are not attempted (counted on the server)."""
    from sentiprobe.data.download import BREAKER_THRESHOLD

    with silent_server() as (url, conns):
        report = fetch(data_dir=tmp_path / "d", mirror=url, manifest=mini_manifest(SMALL), timeout=0.5, retries=3,
                       backoff=0.0, keep_going=True)
        time.sleep(0.2)
        assert len(conns) == BREAKER_THRESHOLD  # not 4 attempts x 4 files
    assert len(report.failed) == len(SMALL)
    later = [f.message for f in report.failed[1:]]
    assert all("not attempted" in m and "attempts in a row" in m for m in later), later
    assert no_temp_files(tmp_path / "d")


def test_trickling_mirror_is_dropped_as_stalled(tmp_path, mirror):
    """A mirror trickling a byte every 0.2 s never trips the read timeout; the stall check (under ``stall_rate``
    bytes/s over ``stall_window`` s) fails the transfer with a typed timeout, without retries (another attempt
    would stall as long), and the host gets no more requests."""
    from sentiprobe.core.errors import DownloadStalledError

    with trickle_server(mirror, interval=0.2) as url:
        report = fetch(data_dir=tmp_path / "d", mirror=url, manifest=mini_manifest([FILE]), timeout=5.0, retries=10,
                       backoff=0.0, keep_going=True, stall_window=0.6)
        with pytest.raises(DownloadStalledError, match="stalled"):
            fetch(data_dir=tmp_path / "e", mirror=url, manifest=mini_manifest([FILE]), timeout=5.0, retries=0,
                  stall_window=0.6)
    (f,) = report.failed
    assert f.error == "DownloadStalledError" and "stalled" in f.message and "--stall-rate" in f.message, f
    assert no_temp_files(tmp_path / "d")


def test_a_stall_closes_the_host_for_the_other_files(tmp_path, mirror, data_dir):
    """One stalled transfer, not one per file and retry: the other files from that host are not attempted
    (counted on the server: one request)."""
    for f in SMALL[1:]:
        (mirror / f).parent.mkdir(parents=True, exist_ok=True)
        (mirror / f).write_bytes((data_dir / f).read_bytes())
    hits: list[str] = []
    with trickle_server(mirror, interval=0.2, hits=hits) as url:
        report = fetch(data_dir=tmp_path / "d", mirror=url, manifest=mini_manifest(SMALL), timeout=5.0, retries=3,
                       backoff=0.0, keep_going=True, stall_window=0.6)
    assert len(hits) == 1, hits
    first, *later = report.failed
    assert first.error == "DownloadStalledError" and len(later) == len(SMALL) - 1
    assert all("not attempted" in f.message and "stalled a transfer" in f.message for f in later), later


def test_a_recipe_source_that_trickles_stalls_too(mirror):
    """A derived file's source (read into memory) follows the same rule: it used to have no stall check and no
    deadline at all, so a trickling source kept the fetch forever."""
    from sentiprobe.core.errors import DownloadStalledError
    from sentiprobe.data.transport import Breaker, fetch_bytes

    breaker = Breaker()
    with trickle_server(mirror, interval=0.2) as url, pytest.raises(DownloadStalledError, match="stalled"):
        fetch_bytes(url + FILE, None, 5.0, 3, 0.0, breaker, (1024.0, 0.6))
    assert breaker.circuit.trip(Breaker.host(url)) is not None  # the host gets no more requests


@contextmanager
def header_trickle_server():
    """Answers every connection with its status line and headers one byte every 0.1 s, for ever."""
    import socket

    srv = socket.socket()
    srv.bind(("127.0.0.1", 0))
    srv.listen(8)
    srv.settimeout(0.05)
    stop = threading.Event()

    def talk(conn):
        with conn:
            for byte in (b"HTTP/1.0 200 OK\r\n" + b"X-Slow: " + b"x" * 10_000):
                if stop.wait(0.1):
                    return
                try:
                    conn.sendall(bytes([byte]))
                except OSError:
                    return

    def serve():
        while not stop.is_set():
            try:
                conn, _ = srv.accept()
            except OSError:
                continue
            threading.Thread(target=talk, args=(conn,), daemon=True).start()

    t = threading.Thread(target=serve, daemon=True)
    t.start()
    try:
        yield f"http://127.0.0.1:{srv.getsockname()[1]}/"
    finally:
        stop.set()
        t.join(5)
        srv.close()


def test_headers_that_trickle_stall_too(tmp_path):
    """A source that sends its response headers a byte at a time never reaches the body's stall check nor lets a
    read time out: the headers get the stall window too."""
    from sentiprobe.core.errors import DownloadStalledError

    with header_trickle_server() as url, pytest.raises(DownloadStalledError, match="headers did not arrive"):
        fetch(data_dir=tmp_path / "d", mirror=url, manifest=mini_manifest([FILE]), timeout=0.5, retries=2,
              stall_window=1.0)
    assert no_temp_files(tmp_path / "d")


def test_stall_rate_zero_turns_the_check_off(tmp_path, mirror):
    """``stall_rate=0``: the trickle runs until the file's deadline instead (a DownloadDeadlineError)."""
    with trickle_server(mirror, interval=0.2) as url, pytest.raises(DownloadDeadlineError):
        fetch(data_dir=tmp_path / "d", mirror=url, manifest=mini_manifest([FILE]), timeout=5.0, retries=0,
              stall_rate=0, stall_window=0.3, deadline=1.5)


def test_the_console_states_the_limits_before_fetching(tmp_path, mirror, capsys):
    with trickle_server(mirror, interval=0.2) as url:
        rc = main(["data", "fetch", "--data-dir", str(tmp_path / "d"), "--mirror", url, "--total-deadline", "40",
                   "--stall-window", "0.6", "--stall-rate", "512", "--retries", "0", "sentivent"])
    err = capsys.readouterr().err
    assert rc == 1
    assert "giving up after 40 s in all (--total-deadline)" in err, err
    assert "a transfer under 512 bytes/s over 0.6 s stalls" in err, err


def test_overall_deadline_bounds_the_whole_fetch(tmp_path, mirror, capsys):
    from sentiprobe.data.download import total_deadline_for

    entries = mini_manifest(SMALL).select(None)
    assert total_deadline_for(entries) == 600.0 + sum(e.size for e in entries) / (64 * 1024)
    with trickle_server(mirror, interval=0.2) as url:
        rc = main(["data", "fetch", "--data-dir", str(tmp_path / "d"), "--mirror", url, "--total-deadline", "1",
                   "--retries", "0", "--json", "sentivent"])
    assert rc == 1
    files = {f["path"]: f for f in __import__("json").loads(capsys.readouterr().out)["files"]}
    assert files[FILE]["error"] == "DownloadDeadlineError"
    assert any("overall deadline" in f["message"] for f in files.values() if f["action"] == "failed")
    assert no_temp_files(tmp_path / "d")


def test_fetch_api_checks_its_numbers(tmp_path):
    from sentiprobe.core.errors import ConfigError

    for kw in ({"retries": -2}, {"timeout": 0}, {"timeout": float("nan")}, {"total_deadline": -1}, {"retries": 10**9},
               {"stall_rate": -1}, {"stall_rate": float("nan")}, {"stall_window": 0}, {"stall_window": float("inf")}):
        with pytest.raises(ConfigError):
            fetch(data_dir=tmp_path / "d", manifest=mini_manifest([FILE]), **kw)
