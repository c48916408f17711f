"""A reverse proxy in front of the emulator whose answers a test may replace.

The emulator's own faults answer with the gateway's error JSON and error statuses. What sits in
front of a real gateway can also answer otherwise: a 200 that is not the documented body, a list
served from a lagging replica, an HTML error page. This is a real HTTP server on loopback that
forwards every request to the emulator, except those a rule takes: then the rule's answer is
sent, before the request reaches the emulator or (``after``) once it has been carried out.
"""

from __future__ import annotations

import threading
from collections.abc import Callable
from dataclasses import dataclass
from http.server import BaseHTTPRequestHandler, ThreadingHTTPServer

import httpx

import _emulator_http as emulator_http


@dataclass
class Answer:
    """The next ``count`` requests of ``method`` whose path contains ``path`` get this answer."""

    method: str
    path: str
    status: int
    body: bytes | Callable[[bytes], bytes]
    content_type: str = "application/json"
    count: int = 1
    after: bool = False


class FrontProxy:
    """``url`` forwards to ``upstream``; :meth:`answer` replaces the answers of matching requests."""

    def __init__(self, upstream: str) -> None:
        self.upstream = upstream.rstrip("/")
        self._rules: list[Answer] = []
        self._lock = threading.Lock()
        self._client = emulator_http.client(timeout=30)
        proxy = self

        class Handler(BaseHTTPRequestHandler):
            protocol_version = "HTTP/1.1"

            def log_message(self, format: str, *args: object) -> None:
                return

            def _handle(self) -> None:
                length = int(self.headers.get("content-length") or 0)
                body = self.rfile.read(length) if length else b""
                rule = proxy._take(self.command, self.path)
                upstream: httpx.Response | None = None
                if rule is None or rule.after:
                    headers = {key: value for key, value in self.headers.items()
                               if key.lower() not in ("host", "content-length")}
                    upstream = proxy._client.request(self.command, proxy.upstream + self.path,
                                                     content=body, headers=headers)
                if rule is None:
                    assert upstream is not None
                    status, content = upstream.status_code, upstream.content
                    content_type = upstream.headers.get("content-type", "application/json")
                else:
                    status, content_type = rule.status, rule.content_type
                    content = rule.body(upstream.content if upstream is not None else b"") \
                        if callable(rule.body) else rule.body
                self.send_response(status)
                self.send_header("content-type", content_type)
                self.send_header("content-length", str(len(content)))
                self.end_headers()
                self.wfile.write(content)

            # http.server's names for the method handlers.
            do_GET = do_POST = do_PUT = do_PATCH = do_DELETE = _handle  # noqa: N815

        self._server = ThreadingHTTPServer(("127.0.0.1", 0), Handler)
        self._thread = threading.Thread(target=self._server.serve_forever, daemon=True)
        self._thread.start()

    @property
    def url(self) -> str:
        host, port = self._server.server_address[:2]
        return f"http://{host!s}:{port}"

    def answer(self, rule: Answer) -> None:
        with self._lock:
            self._rules.append(rule)

    def clear(self) -> None:
        with self._lock:
            self._rules.clear()

    def _take(self, method: str, path: str) -> Answer | None:
        with self._lock:
            for rule in self._rules:
                if rule.count > 0 and rule.method == method and rule.path in path:
                    rule.count -= 1
                    return rule
        return None

    def stop(self) -> None:
        self._server.shutdown()
        self._server.server_close()
        self._client.close()
