"""The local web page of ``sentiprobe arts review``: a standard-library HTTP server on 127.0.0.1 over the review
logic of :mod:`sentiprobe.suites.arts.review`.

Why a server and not a static page: every keystroke is saved at once (the sidecar state file, atomically), and an
edit is re-validated by the same Python code that writes the curated file. The page is rendered by the report's
jinja2 environment (autoescape) and sets every piece of dataset text with ``textContent``; a Content-Security-Policy
allows only the page's own script. Requests must name the server by its loopback address (no DNS rebinding) and
actions carry a per-run token that another site's page cannot read (no cross-site requests).
"""
from __future__ import annotations

import json
import secrets
import sys
import threading
import webbrowser
from collections.abc import Callable
from dataclasses import dataclass
from http.server import BaseHTTPRequestHandler, ThreadingHTTPServer
from pathlib import Path
from typing import Any

from ..core.errors import ConfigError, SentiprobeError
from ..render.env import render
from ..suites.arts import review as rv
from ..suites.arts.writein import with_refused

HOST = "127.0.0.1"
MAX_BODY = 1 << 20


class ReviewSession:
    """One review: the generated file, its state (saved after every action) and where the outputs go."""

    def __init__(self, generated: str | Path, *, out: str | Path | None = None,
                 export_audit: str | Path | None = None, reviewer: str = "", write_refused: bool = False) -> None:
        for flag, p in (("--out", out), ("--export-audit", export_audit)):
            if p is not None and Path(p).resolve() == Path(generated).resolve():
                raise ConfigError(f"{flag} {p} is the generated file itself")
            if p is not None and Path(p).is_dir():
                raise ConfigError(f"{flag} {p} is a directory; give a file name")
        self.gen = rv.load_generated(generated)
        if write_refused:  # the targets the generator refused, after its variants, for the reviewer to write
            self.gen = with_refused(self.gen)
        self.state_file = rv.state_path(generated)
        self.state = rv.load_state(self.gen, self.state_file)
        self.out, self.export, self.reviewer = out, export_audit, reviewer
        self.lock = threading.Lock()
        self.finished = threading.Event()
        self.token = secrets.token_urlsafe(24)
        self.seq = 0
        self.summary = ""

    def view(self) -> dict[str, Any]:
        with self.lock:
            return {"view": {**rv.view(self.gen, self.state), "seq": self.seq}}

    def act(self, payload: dict[str, Any]) -> dict[str, Any]:
        """Apply one action from the page; a refusal comes back as ``error`` with the unchanged view."""
        action = payload.get("action")
        if action == "finish":
            msg = self.finish()
            with self.lock:
                self.seq += 1
            return {"finished": msg, **self.view()}
        with self.lock:
            err = None
            try:
                rv.apply(self.gen, self.state, str(action), reviewer=self.reviewer, reason=payload.get("reason"),
                         label=payload.get("label"), text=payload.get("text"))
                rv.save_state(self.state, self.state_file)
            except ConfigError as exc:
                err = str(exc)
            self.seq += 1
        return {"error": err, **self.view()}

    def write_outputs(self) -> str:
        """Write the curated file and the audit export (when asked for); a line saying what was written."""
        with self.lock:
            wrote = sum(1 for k in self.gen.written if self.state.decisions.get(k, {}).get("decision") == "accept")
            parts = [f"{len(self.state.decisions)} of {len(self.gen.variants)} reviewed"
                     + (f" ({wrote} of {len(self.gen.written)} refused targets written)" if self.gen.written else "")
                     + f"; state in {self.state_file}"]
            if self.out is not None:
                n = rv.write_curated(self.gen, self.state, self.out)
                parts.append(f"{n} accepted variant(s) written to {self.out}")
            if self.export is not None:
                n = rv.export_audit(self.gen, self.state, self.export)
                parts.append(f"{n} judgement(s) exported to {self.export} (key: {self.export}.key.json)")
            return "; ".join(parts)

    def finish(self) -> str:
        msg = self.write_outputs()
        self.summary = msg
        self.finished.set()
        return msg


def _handler(session: ReviewSession, port_of: Callable[[], int]) -> type[BaseHTTPRequestHandler]:
    class Handler(BaseHTTPRequestHandler):
        server_version = "sentiprobe-review"

        def log_message(self, format: str, *args: Any) -> None:
            pass  # no request log on the terminal

        def _host_ok(self) -> bool:
            port = port_of()
            names = (HOST, "localhost")
            ok = {f"{n}:{port}" for n in names} | (set(names) if port == 80 else set())  # :80 is left out
            return self.headers.get("Host", "") in ok

        def _send(self, code: int, body: bytes, ctype: str, extra: dict[str, str] | None = None) -> None:
            self.send_response(code)
            self.send_header("Content-Type", ctype)
            self.send_header("Content-Length", str(len(body)))
            self.send_header("Cache-Control", "no-store")
            self.send_header("X-Content-Type-Options", "nosniff")
            self.send_header("Referrer-Policy", "no-referrer")
            for k, v in (extra or {}).items():
                self.send_header(k, v)
            self.end_headers()
            self.wfile.write(body)

        def _json(self, code: int, doc: dict[str, Any]) -> None:
            self._send(code, json.dumps(doc, ensure_ascii=False).encode("utf-8"), "application/json; charset=utf-8")

        def _guard(self, need_token: bool) -> bool:
            if not self._host_ok():
                self._json(403, {"error": "use the address the review command printed"})
                return False
            if need_token and not secrets.compare_digest(self.headers.get("X-Review-Token", ""), session.token):
                self._json(403, {"error": "missing or wrong review token: reload the page"})
                return False
            return True

        def do_GET(self) -> None:
            path = self.path.split("?", 1)[0]
            if path == "/":
                if not self._guard(False):
                    return
                nonce = secrets.token_urlsafe(16)
                html = render("arts_review.html.j2", token=session.token, nonce=nonce, total=len(session.gen.variants),
                              file_name=Path(session.gen.path).name, reasons=rv.REASONS)
                csp = (f"default-src 'none'; script-src 'nonce-{nonce}'; style-src 'nonce-{nonce}'; "
                       "connect-src 'self'; img-src 'none'; base-uri 'none'; form-action 'none'")
                self._send(200, html.encode("utf-8"), "text/html; charset=utf-8",
                           {"Content-Security-Policy": csp, "X-Frame-Options": "DENY"})
            elif path == "/api/view":
                if self._guard(True):
                    self._json(200, session.view())
            else:
                self._json(404, {"error": "not found"})

        def do_POST(self) -> None:
            if self.path != "/api/action":
                self._json(404, {"error": "not found"})
                return
            if not self._guard(True):
                return
            try:
                n = int(self.headers.get("Content-Length", "0"))
            except ValueError:
                n = -1
            if not 0 < n <= MAX_BODY:
                self._json(400, {"error": "a JSON action of at most 1 MiB is expected"})
                return
            try:
                payload = json.loads(self.rfile.read(n).decode("utf-8"))
            except (UnicodeDecodeError, json.JSONDecodeError):
                payload = None
            if not isinstance(payload, dict):
                self._json(400, {"error": "the action must be a JSON object"})
                return
            try:
                self._json(200, session.act(payload))
            except SentiprobeError as exc:  # writing an output failed: say so on the page, keep serving
                self._json(200, {"error": str(exc), **session.view()})

    return Handler


@dataclass
class ReviewServer:
    """A started server (``url``) serving ``session`` in a background thread."""

    session: ReviewSession
    httpd: ThreadingHTTPServer
    thread: threading.Thread

    @property
    def url(self) -> str:
        return f"http://{HOST}:{self.httpd.server_address[1]}/"

    def stop(self) -> None:
        self.httpd.shutdown()
        self.httpd.server_close()
        self.thread.join(timeout=5)


def start(session: ReviewSession, port: int = 0) -> ReviewServer:
    """Serve ``session`` on 127.0.0.1 (``port`` 0: a free one) in a daemon thread."""
    if isinstance(port, bool) or not isinstance(port, int) or not 0 <= port <= 65535:
        raise ConfigError(f"--port must be 0-65535, not {port!r}")
    box: dict[str, int] = {}
    try:
        httpd = ThreadingHTTPServer((HOST, port), _handler(session, lambda: box["port"]))
    except OSError as exc:
        raise ConfigError(f"cannot listen on {HOST}:{port}: {exc.strerror or exc}") from None
    httpd.daemon_threads = True
    box["port"] = int(httpd.server_address[1])
    t = threading.Thread(target=httpd.serve_forever, name="arts-review", daemon=True)
    t.start()
    return ReviewServer(session, httpd, t)


def serve(session: ReviewSession, *, port: int = 0, open_browser: bool = True, display: bool = False,
          log: Callable[[str], None] = lambda m: print(m, file=sys.stderr)) -> dict[str, Any]:
    """Serve until the page's *finish* action (``status`` ``finished``) or Ctrl-C (``interrupted``: the state is
    already saved, and the outputs are written as they stand). ``display``: a graphical browser can open (the
    command line tells from the environment; without one, :mod:`webbrowser` would start a text browser in this
    terminal), so ``open_browser`` opens the page."""
    srv = start(session, port)
    n_gen = len(session.gen.variants) - len(session.gen.written)
    log(f"reviewing {session.gen.path}: {n_gen} variants"
        + (f" and {len(session.gen.written)} refused targets to write" if session.gen.written else "") + ", "
        f"{len(session.state.decisions)} reviewed; open {srv.url}  (Ctrl-C stops; the state is saved after every key)")
    print(srv.url, flush=True)
    if open_browser and display:
        threading.Thread(target=webbrowser.open, args=(srv.url,), daemon=True).start()
    elif open_browser:
        log("no graphical display: open the URL in a browser (--no-browser skips this message)")
    status = "finished"
    try:
        while not session.finished.wait(0.5):
            pass
    except KeyboardInterrupt:
        status = "interrupted"
    finally:
        srv.stop()
    log(session.write_outputs() if status == "interrupted" else session.summary)
    return {"status": status, "url": srv.url, "reviewed": len(session.state.decisions),
            "total": len(session.gen.variants), "state": str(session.state_file)}
