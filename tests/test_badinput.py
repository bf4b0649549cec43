"""The bad-input corpus (``tests/badinput/``) through the CLI: the expected exit status, an error message that
names the file, record or argument, never a traceback, an internal error or a silent result, and bounded time and
memory: each case runs in a forked child under RLIMIT_AS and a time limit (``tests/badinput/runner.py``)."""
from __future__ import annotations

import functools
import json
import os
import socket
import subprocess
import sys
import threading
from contextlib import contextmanager
from http.server import BaseHTTPRequestHandler, ThreadingHTTPServer
from pathlib import Path

import pytest

HERE = Path(__file__).resolve().parent / "badinput"
sys.path.insert(0, str(HERE))
import corpus

CASES = corpus.all_cases()


@functools.cache
def _item(suite: str, options: tuple[tuple[str, str], ...], data_dir: Path):
    return corpus.first_item(suite, data_dir, dict(options))


def _command(args: tuple[str, ...], leaves: list[tuple[str, ...]]) -> tuple[str, ...] | None:
    return next((leaf for leaf in leaves if tuple(args[:len(leaf)]) == leaf), None)


def test_every_suite_model_and_command_has_cases():
    """Generated from the registries: a new suite, model or command without cases fails here."""
    tagged = {t for c in CASES for t in c.tags}
    suites, models = corpus.suites(), corpus.models()
    assert len(suites) >= 19 and len(models) >= 25  # the registries, not a filtered-out remainder
    assert not set(suites) - tagged, f"suites without bad-input cases: {set(suites) - tagged}"
    assert not set(models) - tagged, f"models without bad-input cases: {set(models) - tagged}"
    leaves = corpus.leaf_commands()
    covered = {_command(c.args, leaves) for c in CASES}
    missing = [" ".join(leaf) for leaf in leaves if leaf not in covered]
    assert not missing, f"commands without bad-input cases (add a module under tests/badinput/cases/): {missing}"
    per_suite = {s: sum(s in c.tags for c in CASES) for s in suites}
    assert min(per_suite.values()) >= 20, per_suite  # each suite gets a whole battery, not a token case


class Runner:
    """The fork server of ``tests/badinput/runner.py`` (restarted if a case takes it down)."""

    def __init__(self, data_dir: Path) -> None:
        self.data_dir = data_dir
        self.proc: subprocess.Popen | None = None

    def _start(self) -> subprocess.Popen:
        proc = subprocess.Popen([sys.executable, str(HERE / "runner.py"), str(self.data_dir)], stdin=subprocess.PIPE,
                                stdout=subprocess.PIPE, text=True, bufsize=1)
        assert proc.stdout is not None
        assert json.loads(proc.stdout.readline() or "{}").get("ready"), "the bad-input runner did not start"
        return proc

    def run(self, req: dict) -> dict:
        if self.proc is None or self.proc.poll() is not None:
            self.proc = self._start()
        assert self.proc.stdin is not None and self.proc.stdout is not None
        self.proc.stdin.write(json.dumps(req) + "\n")
        answer = self.proc.stdout.readline()
        if not answer:
            self.proc = None
            raise AssertionError("the bad-input runner died")
        return json.loads(answer)

    def close(self) -> None:
        if self.proc is not None and self.proc.poll() is None:
            assert self.proc.stdin is not None
            self.proc.stdin.close()
            self.proc.wait(30)


@pytest.fixture(scope="session")
def runner(data_dir):
    r = Runner(data_dir)
    yield r
    r.close()


@contextmanager
def trickle_server():
    """Answers every GET with 200 and a Content-Length of 1 MB, then one byte every 0.5 s (never idle long enough
    for a read timeout to fire)."""
    stop = threading.Event()

    class Handler(BaseHTTPRequestHandler):
        def log_message(self, *args):
            pass

        def do_GET(self):
            self.send_response(200)
            self.send_header("Content-Length", str(1 << 20))
            self.end_headers()
            while not stop.wait(0.5):
                try:
                    self.wfile.write(b"x")
                    self.wfile.flush()
                except OSError:
                    return

    srv = ThreadingHTTPServer(("127.0.0.1", 0), Handler)
    srv.daemon_threads = True
    t = threading.Thread(target=srv.serve_forever, kwargs={"poll_interval": 0.05}, daemon=True)
    t.start()
    try:
        yield f"http://127.0.0.1:{srv.server_address[1]}/"
    finally:
        stop.set()
        srv.shutdown()
        srv.server_close()
        t.join(5)


@pytest.mark.realdata
@pytest.mark.parametrize("case", CASES, ids=[c.id for c in CASES])
def test_bad_input(case, tmp_path, data_dir, runner):
    srv = None
    fake = None
    url = ""
    trickle = trickle_server() if case.server == "trickle" else None
    if trickle is not None:
        url = trickle.__enter__()
    elif case.server:  # accepts connections (the kernel completes them) and never answers
        srv = socket.socket()
        srv.bind(("127.0.0.1", 0))
        srv.listen(64)
        url = f"http://127.0.0.1:{srv.getsockname()[1]}/"
    if case.llm:  # a fake OpenAI-compatible server with the case's behaviour
        from fake_openai import FakeOpenAI
        from llm_servers import SERVERS

        fake = FakeOpenAI(**SERVERS[case.llm](), lifetime=case.timeout + 30).start()
        url = fake.base_url
    try:
        root = tmp_path / "case"
        args, _, expect = corpus.materialise(case, root, data_dir,
                                             lambda s, o: _item(s, tuple(sorted(o.items())), data_dir), url)
        (tmp_path / "tmp").mkdir()
        res = runner.run({"args": args, "cwd": str(tmp_path), "timeout": case.timeout, "memory_mb": case.memory_mb,
                          "stdout": str(tmp_path / "stdout"), "stderr": str(tmp_path / "stderr"),
                          "env": {"SENTIPROBE_CACHE_DIR": str(tmp_path / "cache"), "TMPDIR": str(tmp_path / "tmp"),
                                  "SENTIPROBE_DATA_DIR": os.environ.get("SENTIPROBE_DATA_DIR", str(data_dir)),
                                  **dict(case.env)}})
    finally:
        if srv is not None:
            srv.close()
        if trickle is not None:
            trickle.__exit__(None, None, None)
        if fake is not None:
            fake.stop()
    out = (tmp_path / "stdout").read_text(encoding="utf-8", errors="replace")
    err = (tmp_path / "stderr").read_text(encoding="utf-8", errors="replace")
    where = f"{res}; stderr: {err[-2000:]}"
    assert not res["timed_out"], f"still running after {case.timeout} s: {where}"
    assert res["signal"] is None, f"killed by signal {res['signal']}: {where}"
    assert "Traceback" not in err + out, where
    assert "internal error" not in err, where
    assert "MemoryError" not in err, f"over its {case.memory_mb} MB budget: {where}"
    assert res["exit"] == case.exit, f"exit {res['exit']}, expected {case.exit}: {where}"
    text = out + err  # errors go to stderr; `data fetch` reports failed files in its report on stdout
    for want in expect:
        assert want in text, f"{want!r} not in: {text[-2000:]}"
    for secret in (s.lower() for s in case.forbid):  # in no output and no file the case wrote (cache included)
        assert secret not in text.lower(), "a forbidden text is in the output"
        for p in tmp_path.rglob("*"):
            if p.is_file():
                assert secret.encode() not in p.read_bytes().lower(), f"a forbidden text is in {p}"


@pytest.mark.realdata
def test_runner_caps_memory_and_time(tmp_path, runner):
    """The corpus runner's limits work: a case over its address-space budget fails with MemoryError (the case
    fails, not the machine), one over its time is killed."""
    table = tmp_path / "r.csv"
    table.write_text("unit,a,b,c\n" + "".join(f"{i},c{3 * i},c{3 * i + 1},c{3 * i + 2}\n" for i in range(20_000)))
    base = {"cwd": str(tmp_path), "env": {"SENTIPROBE_CACHE_DIR": str(tmp_path / "cache")},
            "stdout": str(tmp_path / "out"), "stderr": str(tmp_path / "err")}
    res = runner.run({**base, "args": ["agree", str(table)], "timeout": 120, "memory_mb": 5})
    err = (tmp_path / "err").read_text()
    # over budget: an allocation fails (MemoryError), or, when the command first imports a compiled module
    # (scipy's BLAS, unless an earlier case in this server imported it), mapping the library does
    assert res["exit"] == 3 and ("MemoryError" in err or ("ImportError" in err and ".so" in err)), err
    res = runner.run({**base, "args": ["agree", str(table), "--ci", "bootstrap", "--n-boot", "100000"],
                      "timeout": 0.5, "memory_mb": 1500})
    assert res["timed_out"] and res["signal"] == 9
