"""A lean HTTP/1.1 client for JSON POSTs: a pool of keep-alive ``http.client`` connections.

Why not httpx: at 64 requests in flight against a 100 ms server, httpx spent about 1.2 ms of client CPU
per request (its transport layers, header models and event hooks), so on a 2-core machine the client,
not the server, capped the throughput at 0.75 of the ideal. A request here is one ``http.client`` round
trip on a reused connection (a few hundred microseconds of CPU). It also reads no environment (proxy
variables, netrc): only ``cli/`` does.

- Connections are kept in a LIFO pool of at most ``max_connections`` (one per request in flight) and
  reused; a connection that failed in any way is closed, never returned.
- Connecting is bounded by ``connect_timeout`` (:class:`ConnectFailed` when it fails: refused,
  unreachable, name not resolved, timed out), reading the reply by the request's ``timeout``
  (:class:`ReadTimeout`). Other failures after connecting (reset, closed early, a body shorter than its
  ``Content-Length``, malformed status line) are :class:`TransportFailed`.
- Redirects are not followed (a redirect would resend the API key to another place).
"""
from __future__ import annotations

import http.client
import socket
import ssl
import threading
from dataclasses import dataclass
from typing import Any
from urllib.parse import urlsplit


class TransportFailed(Exception):
    """The request was sent (or being sent) and no complete reply came back (reset, truncated, garbled)."""


class ConnectFailed(TransportFailed):
    """No connection could be made (refused, unreachable, unresolvable host, connect timeout)."""


class ReadTimeout(TransportFailed):
    """Connected, but the reply did not arrive within the request's timeout."""


@dataclass(frozen=True)
class Reply:
    """A complete HTTP reply."""

    status: int
    headers: dict[str, str]
    body: bytes

    def header(self, name: str) -> str | None:
        return self.headers.get(name.lower())

    @property
    def text(self) -> str:
        return self.body.decode("utf-8", errors="replace")


class Transport:
    """Keep-alive connections to one ``http(s)://host:port``; thread-safe."""

    def __init__(self, base_url: str, headers: dict[str, str], *, timeout: float, connect_timeout: float,
                 max_connections: int) -> None:
        parts = urlsplit(base_url)
        self.https = parts.scheme == "https"
        self.host = parts.hostname or "127.0.0.1"
        self.port = parts.port or (443 if self.https else 80)
        self.prefix = parts.path.rstrip("/")
        self.headers = dict(headers)
        self.headers.setdefault("Host", parts.netloc.rsplit("@", 1)[-1])
        self.timeout = timeout
        self.connect_timeout = min(connect_timeout, timeout)
        self.max_connections = max_connections
        self._idle: list[http.client.HTTPConnection] = []
        self._lock = threading.Lock()
        self._ssl: ssl.SSLContext | None = ssl.create_default_context() if self.https else None
        self.closed = False

    def url(self, path: str) -> str:
        return f"{'https' if self.https else 'http'}://{self.host}:{self.port}{self.prefix}/{path}"

    def _connect(self, connect_timeout: float) -> http.client.HTTPConnection:
        conn: http.client.HTTPConnection
        if self.https:
            conn = http.client.HTTPSConnection(self.host, self.port, timeout=connect_timeout, context=self._ssl)
        else:
            conn = http.client.HTTPConnection(self.host, self.port, timeout=connect_timeout)
        try:
            conn.connect()
        except (TimeoutError, OSError, ssl.SSLError) as exc:  # refused, unreachable, DNS, TLS handshake
            conn.close()
            raise ConnectFailed(f"{type(exc).__name__}: {exc}") from None
        sock = conn.sock
        if sock is not None:
            sock.setsockopt(socket.IPPROTO_TCP, socket.TCP_NODELAY, 1)
        return conn

    def _acquire(self, connect_timeout: float) -> tuple[http.client.HTTPConnection, bool]:
        with self._lock:
            if self._idle:
                return self._idle.pop(), True
        return self._connect(connect_timeout), False

    def _release(self, conn: http.client.HTTPConnection) -> None:
        with self._lock:
            if not self.closed and len(self._idle) < self.max_connections:
                self._idle.append(conn)
                return
        conn.close()

    def post(self, path: str, body: bytes, *, timeout: float | None = None) -> Reply:
        """POST ``body`` (JSON bytes) to ``{base path}/{path}``; the complete reply, or a TransportFailed.

        A reused connection the server closed while idle is retried once on a fresh one (that is not a
        failure of the request).
        """
        read_timeout = self.timeout if timeout is None else timeout
        connect_timeout = min(self.connect_timeout, read_timeout)
        headers = {**self.headers, "Content-Length": str(len(body))}
        for _ in range(2):
            conn, reused = self._acquire(connect_timeout)
            try:
                if conn.sock is not None:
                    conn.sock.settimeout(read_timeout)
                conn.request("POST", f"{self.prefix}/{path}", body=body, headers=headers)
                resp = conn.getresponse()
                data = resp.read()
                reply = Reply(resp.status, {k.lower(): v for k, v in resp.getheaders()}, data)
            except (http.client.RemoteDisconnected, BrokenPipeError, ConnectionResetError) as exc:
                conn.close()
                if reused:  # a keep-alive connection the server had closed: try a fresh one
                    continue
                raise TransportFailed(f"{type(exc).__name__}: {exc}") from None
            except TimeoutError:
                conn.close()
                raise ReadTimeout(f"no reply within {read_timeout:g}s") from None
            except (http.client.HTTPException, OSError) as exc:  # IncompleteRead, bad status line, resets
                conn.close()
                raise TransportFailed(f"{type(exc).__name__}: {exc}") from None
            if resp.will_close:
                conn.close()
            else:
                self._release(conn)
            return reply
        raise TransportFailed("the server closed the connection twice without replying")

    def close(self) -> None:
        with self._lock:
            self.closed = True
            idle, self._idle = self._idle, []
        for c in idle:
            c.close()


def headers_for(api_key: str | None) -> dict[str, Any]:
    """Request headers (the key as ``Authorization: Bearer``)."""
    h = {"Content-Type": "application/json", "Accept": "application/json", "Connection": "keep-alive",
         "User-Agent": "sentiprobe"}
    if api_key:
        h["Authorization"] = f"Bearer {api_key}"
    return h
