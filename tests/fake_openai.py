"""A fault-injecting fake OpenAI-compatible server for tests (127.0.0.1, random free port).

Usage::

    with FakeOpenAI(faults=["429", "500", "ok"]) as srv:
        adapter = OpenAICompatibleModel(base_url=srv.base_url, model="fake")

Faults are consumed one per POST, in arrival order; when the list is empty every request is answered
normally. Fault names:

- ``ok``: a normal answer;
- ``429``: HTTP 429 with ``Retry-After: <retry_after>`` (seconds);
- ``500`` / ``503``: a server error with a JSON error body;
- ``slow``: sleep ``slow_s`` (longer than the client's timeout), then answer;
- ``truncate``: announce a ``Content-Length`` larger than the body, send part of it, close;
- ``nonjson``: HTTP 200 with an HTML body;
- ``badjson``: HTTP 200 with JSON lacking ``choices``;
- ``echo_auth``: HTTP 400 whose body echoes the request's Authorization header (a leak trap);
- ``400``: a plain client error (never retried);
- ``deep``: HTTP 200 whose body is JSON nested 100,000 deep;
- ``hang``: read the request, then never answer (until the server stops).

Structured decoding: ``structured`` is the set of modes the server accepts (``json_schema``, ``json_object``,
``grammar``, ``choice``; default all). A request carrying another mode's field is refused with
``refuse_status`` (400, or 422 as FastAPI servers answer, 500 as llama-cpp-python's does), as real servers refuse
unknown fields, with a body naming the mode (``refuse_body``: another body, e.g. one that does not name it); an
accepted one is answered with a reply that fits its schema (:func:`structured_reply`).
``modes`` records the mode of every POST. ``reply_fn(prompt_text) -> str`` replaces the normal free-text answers
(a leak or a junk reply), ``raw_reply(prompt_text) -> str`` every chat answer, structured or not;
``finish_reason="length"`` makes every chat answer say it was cut off at the token limit.

Normal answers are deterministic functions of the prompt (:func:`answer_for`); with ``echo_auth=True``
every normal answer also quotes the request's ``Authorization`` header and its bare token (a server that
leaks the key into a 200 reply, which must reach no file). The server records every
request (path, JSON body, whether an Authorization header came and its value), the number of POSTs and
the maximum number of requests in flight at once. It shuts itself down after ``lifetime`` seconds.
"""
from __future__ import annotations

import json
import re
import threading
import time
from collections import deque
from http.server import BaseHTTPRequestHandler, ThreadingHTTPServer
from typing import Any

TRUE_MARK = "<<T>>"
FALSE_MARK = "<<F>>"


def answer_for(text: str) -> str:
    """The fake model's reply: ``true``/``false`` for marked prompts, else an echo of the prompt's end."""
    if TRUE_MARK in text:
        return "true"
    if FALSE_MARK in text:
        return "false"
    return "echo:" + text[-24:]


def _tokens(text: str) -> list[str]:
    """Whitespace-attached word tokens covering ``text`` exactly (``"a b"`` -> ``["a", " b"]``)."""
    return re.findall(r"\s*\S+|\s+$", text) or [text]


class FakeOpenAI:
    """The server (a ``ThreadingHTTPServer`` in a daemon thread); use as a context manager."""

    def __init__(self, faults: list[str] | None = None, *, delay: float = 0.0, slow_s: float = 1.0,
                 retry_after: str = "0", lifetime: float = 60.0, logprobs: bool = True,
                 echo_auth: bool = False, structured: set[str] | None = None, refuse_status: int = 400,
                 refuse_body: bytes | None = None,
                 reply_fn: Any = None, fail_if: Any = None, raw_reply: Any = None,
                 finish_reason: str = "stop", error_body: bytes = b'{"error": {"message": "internal error"}}'
                 ) -> None:
        self.error_body = error_body  # the body of the 500/503 faults
        self.fail_if = fail_if  # prompt text -> True: answer HTTP 500 (an item the server never answers)
        self.raw_reply = raw_reply  # prompt text -> the reply of every answered request, structured or not
        self.finish_reason = finish_reason  # "length": every reply says it hit the token limit
        self.structured = {"json_schema", "json_object", "grammar", "choice"} if structured is None else structured
        self.refuse_status = refuse_status
        self.refuse_body = refuse_body  # None: a JSON error naming the refused mode
        self.reply_fn = reply_fn
        self.modes: list[str] = []
        self._stopped = threading.Event()
        self.faults: deque[str] = deque(faults or [])
        self.delay = delay
        self.slow_s = slow_s
        self.retry_after = retry_after
        self.lifetime = lifetime
        self.logprobs = logprobs
        self.echo_auth = echo_auth
        self.requests: list[dict[str, Any]] = []
        self.posts = 0
        self.in_flight = 0
        self.max_in_flight = 0
        self.lock = threading.Lock()
        self.httpd: ThreadingHTTPServer | None = None
        self._thread: threading.Thread | None = None
        self._timer: threading.Timer | None = None

    # ---- lifecycle -------------------------------------------------------------------------------
    @property
    def base_url(self) -> str:
        assert self.httpd is not None
        return f"http://127.0.0.1:{self.httpd.server_address[1]}/v1"

    def start(self) -> FakeOpenAI:
        fake = self

        class Handler(_Handler):
            server_ref = fake

        self.httpd = _Server(("127.0.0.1", 0), Handler)
        self.httpd.daemon_threads = True
        self._thread = threading.Thread(target=self.httpd.serve_forever, kwargs={"poll_interval": 0.05},
                                        daemon=True, name="fake-openai")
        self._thread.start()
        self._timer = threading.Timer(self.lifetime, self.stop)
        self._timer.daemon = True
        self._timer.start()
        return self

    def stop(self) -> None:
        self._stopped.set()
        if self._timer is not None:
            self._timer.cancel()
        if self.httpd is not None:
            self.httpd.shutdown()
            self.httpd.server_close()
            self.httpd = None

    def __enter__(self) -> FakeOpenAI:
        return self.start()

    def __exit__(self, *exc: Any) -> None:
        self.stop()

    def next_fault(self) -> str:
        with self.lock:
            return self.faults.popleft() if self.faults else "ok"

    # ---- answers -------------------------------------------------------------------------------
    def answer(self, path: str, body: dict[str, Any], auth: str | None = None) -> dict[str, Any]:
        model = body.get("model", "fake")
        mode = mode_of(body)
        if path.endswith("/chat/completions"):
            text = "\n".join(m.get("content", "") for m in body["messages"])
            reply = structured_reply(body, text) if mode != "off" else (
                self.reply_fn(text) if self.reply_fn is not None else answer_for(text))
            if self.raw_reply is not None:
                reply = self.raw_reply(text)
            if self.echo_auth:
                token = (auth or "").split()[-1] if auth else ""
                reply += f"\n(debug: you sent Authorization: {auth}; token={token})"
            return {"id": "chatcmpl-fake", "object": "chat.completion", "model": model,
                    "choices": [{"index": 0, "finish_reason": self.finish_reason,
                                 "message": {"role": "assistant", "content": reply}}]}
        prompt = body["prompt"]
        choice: dict[str, Any] = {"index": 0, "finish_reason": "stop", "logprobs": None}
        if body.get("echo") and body.get("logprobs") is not None and self.logprobs:
            choice.update(self._echo_logprobs(prompt))
        elif mode != "off":
            choice["text"] = structured_reply(body, prompt)
        else:
            choice["text"] = self.reply_fn(prompt) if self.reply_fn is not None else answer_for(prompt)
        return {"id": "cmpl-fake", "object": "text_completion", "model": model, "choices": [choice]}

    @staticmethod
    def _echo_logprobs(prompt: str) -> dict[str, Any]:
        """Echo the prompt plus one token; a word scores -0.5 when it appears in the prompt's answer."""
        toks = _tokens(prompt) + [" ."]
        ans = answer_for(prompt)
        offsets, values, pos = [], [], 0
        for i, t in enumerate(toks):
            offsets.append(pos)
            pos += len(t)
            values.append(None if i == 0 else (-0.5 if t.strip() and t.strip() in ans else -3.0))
        return {"text": prompt + " .", "logprobs": {"tokens": toks, "text_offset": offsets,
                                                    "token_logprobs": values, "top_logprobs": None}}


def _prompt_text(body: dict[str, Any]) -> str:
    if isinstance(body.get("messages"), list):
        return "\n".join(str(m.get("content", "")) for m in body["messages"] if isinstance(m, dict))
    return str(body.get("prompt", ""))


def mode_of(body: Any) -> str:
    """The structured-decoding mode a request body carries (``off``: none)."""
    if not isinstance(body, dict):
        return "off"
    rf = body.get("response_format")
    if isinstance(rf, dict) and rf.get("type") in ("json_schema", "json_object"):
        return str(rf["type"])
    if "grammar" in body:
        return "grammar"
    if "guided_choice" in body:
        return "choice"
    return "off"


def _value(schema: Any, text: str) -> Any:
    """A value that fits ``schema``: an enum answers as :func:`answer_for` would when it can, else its first."""
    if not isinstance(schema, dict):
        return None
    if "enum" in schema:
        ans = answer_for(text)
        return ans if ans in schema["enum"] else schema["enum"][0]
    kind = schema.get("type")
    if kind == "object":
        return {k: _value(v, text) for k, v in (schema.get("properties") or {}).items()}
    if kind == "array":
        return []
    if kind == "string":
        return "because the review says so"
    return 0


def structured_reply(body: dict[str, Any], text: str) -> str:
    """The reply of a structured request: a JSON value of its schema, or a bare choice."""
    mode = mode_of(body)
    if mode == "choice":
        ans = answer_for(text)
        return ans if ans in body["guided_choice"] else body["guided_choice"][0]
    if mode == "grammar":
        return json.dumps({"label": answer_for(text)})
    rf = body["response_format"]
    schema = rf.get("json_schema", {}).get("schema") if mode == "json_schema" else rf.get("schema")
    return json.dumps(_value(schema, text) if schema else {"answer": answer_for(text)})


class _Server(ThreadingHTTPServer):
    request_queue_size = 256  # many clients connecting at once (the concurrency benchmark) are not refused


class _Handler(BaseHTTPRequestHandler):
    protocol_version = "HTTP/1.1"
    # headers and body go out in two writes: without TCP_NODELAY the body waits for the client's delayed ACK
    # (~40 ms per request on Linux), which would make the server, not the client, the bottleneck
    disable_nagle_algorithm = True
    server_ref: FakeOpenAI

    def log_message(self, format: str, *args: Any) -> None:
        pass

    def _send(self, status: int, body: bytes, ctype: str = "application/json", headers: dict | None = None,
              length: int | None = None) -> None:
        self.send_response(status)
        self.send_header("Content-Type", ctype)
        self.send_header("Content-Length", str(len(body) if length is None else length))
        for k, v in (headers or {}).items():
            self.send_header(k, v)
        self.end_headers()
        self.wfile.write(body)
        self.wfile.flush()

    def do_GET(self) -> None:
        if self.path.rstrip("/").endswith("/models"):
            self._send(200, json.dumps({"object": "list", "data": [{"id": "fake", "object": "model"}]}).encode())
        else:
            self._send(404, b'{"error": "not found"}')

    def do_POST(self) -> None:
        fake = self.server_ref
        raw = self.rfile.read(int(self.headers.get("Content-Length", "0") or 0))
        auth = self.headers.get("Authorization")
        with fake.lock:
            fake.posts += 1
            fake.in_flight += 1
            fake.max_in_flight = max(fake.max_in_flight, fake.in_flight)
        try:
            try:
                body = json.loads(raw)
            except ValueError:
                body = None
            fault = fake.next_fault()
            mode = mode_of(body)
            with fake.lock:
                fake.requests.append({"path": self.path, "body": body, "auth": auth, "fault": fault, "mode": mode})
                fake.modes.append(mode)
            if fake.fail_if is not None and isinstance(body, dict) and fake.fail_if(_prompt_text(body)):
                self._send(500, fake.error_body)
                return
            if mode != "off" and mode not in fake.structured:
                self._send(fake.refuse_status, fake.refuse_body or json.dumps(
                    {"error": {"message": f"unsupported field for {mode}", "type": "invalid_request_error"}}).encode())
                return
            if fake.delay:
                time.sleep(fake.delay)
            self._serve(fake, fault, body, auth)
        except (BrokenPipeError, ConnectionResetError):
            self.close_connection = True
        finally:
            with fake.lock:
                fake.in_flight -= 1

    def _serve(self, fake: FakeOpenAI, fault: str, body: Any, auth: str | None) -> None:
        if fault == "429":
            self._send(429, b'{"error": {"message": "rate limited"}}', headers={"Retry-After": fake.retry_after})
        elif fault in ("500", "503"):
            self._send(int(fault), fake.error_body, ctype="text/plain" if fake.error_body[:1] != b"{" else
                       "application/json")
        elif fault == "400":
            self._send(400, b'{"error": {"message": "bad request"}}')
        elif fault == "echo_auth":
            self._send(400, json.dumps({"error": {"message": f"invalid key in header {auth}"}}).encode())
        elif fault == "nonjson":
            self._send(200, b"<html><body>502 Bad Gateway</body></html>", ctype="text/html")
        elif fault == "badjson":
            self._send(200, b'{"object": "nothing useful"}')
        elif fault == "deep":
            self._send(200, b"[" * 100_000 + b"]" * 100_000)
        elif fault == "hang":
            fake._stopped.wait(fake.lifetime)
            self.close_connection = True
        elif fault == "truncate":
            full = json.dumps(fake.answer(self.path, body)).encode()
            self.close_connection = True
            self._send(200, full[: len(full) // 2], length=len(full) + 100)
        else:
            if fault == "slow":
                time.sleep(fake.slow_s)
            if not isinstance(body, dict):
                self._send(400, b'{"error": {"message": "body is not JSON"}}')
                return
            self._send(200, json.dumps(fake.answer(self.path, body, auth)).encode())
