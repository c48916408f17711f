"""A small fake gateway for ``httpx.MockTransport``: records requests, issues tokens, and answers
with scripted outcomes. It knows the spec's token path and bearer rule, nothing more; each
test scripts the answers it is about."""

from __future__ import annotations

import email.parser
import email.policy
import json
import threading
import time
from collections import deque
from collections.abc import Callable
from typing import Any
from urllib.parse import parse_qs

import httpx

from apinizer_pulumi.client import ApinizerClient

BASE_URL = "http://gateway.test"
TOKEN_PATH = "/apiops/auth/token"
USERNAME = "admin"
PASSWORD = "pa55-w0rd-secret"
STATIC_TOKEN = "static-personal-token-value"

Outcome = httpx.Response | Exception | Callable[[httpx.Request], httpx.Response]


def error(status: int, error: str, description: str, **headers: str) -> httpx.Response:
    return httpx.Response(status, json={"error": error, "error_description": description}, headers=headers)


class FakeGateway:
    """Callable as a MockTransport handler; thread-safe."""

    def __init__(self, *, expires_in: int = 3600, token_delay: float = 0.0) -> None:
        self.expires_in = expires_in
        self.token_delay = token_delay
        self.requests: list[httpx.Request] = []
        self.token_requests = 0
        self.valid_tokens: set[str] = {STATIC_TOKEN}
        self._scripts: dict[tuple[str, str], deque[Outcome]] = {}
        self._lock = threading.Lock()

    # -- scripting --------------------------------------------------------------------------
    def script(self, method: str, path: str, *outcomes: Outcome) -> None:
        """Answer the next requests to ``method path`` with ``outcomes``, in order."""
        with self._lock:
            self._scripts.setdefault((method, path), deque()).extend(outcomes)

    def revoke_all(self) -> None:
        with self._lock:
            self.valid_tokens.clear()

    # -- inspection -------------------------------------------------------------------------
    @property
    def api_requests(self) -> list[httpx.Request]:
        return [r for r in self.requests if r.url.path != TOKEN_PATH]

    @property
    def last(self) -> httpx.Request:
        return self.api_requests[-1]

    # -- serving ----------------------------------------------------------------------------
    def __call__(self, request: httpx.Request) -> httpx.Response:
        request.read()
        # A snapshot: auth flows re-send the same request object with new headers.
        seen = httpx.Request(
            request.method,
            request.url,
            headers=request.headers.copy(),
            content=request.content,
            extensions=dict(request.extensions),
        )
        with self._lock:
            self.requests.append(seen)
            queue = self._scripts.get((request.method, request.url.path))
            outcome = queue.popleft() if queue else None
        if outcome is not None:
            if isinstance(outcome, Exception):
                raise outcome
            if isinstance(outcome, httpx.Response):
                return outcome
            return outcome(request)
        if request.url.path == TOKEN_PATH:
            return self._token(request)
        if request.url.path == "/apiops/test/healthcheck":
            return httpx.Response(200, text="OK")
        auth = request.headers.get("authorization", "")
        if not auth.startswith("Bearer ") or auth[len("Bearer ") :] not in self.valid_tokens:
            return error(401, "unauthorized_client", "Invalid token")
        return httpx.Response(200, json={"success": True})

    def _token(self, request: httpx.Request) -> httpx.Response:
        form = parse_qs(request.content.decode())
        if form != {
            "grant_type": ["client_credentials"],
            "client_id": [USERNAME],
            "client_secret": [PASSWORD],
        }:
            return error(401, "unauthorized_client", "Bad credentials")
        if self.token_delay:
            time.sleep(self.token_delay)  # widens the window in which threads could race
        with self._lock:
            self.token_requests += 1
            token = f"fetched-token-{self.token_requests}"
            self.valid_tokens.add(token)
        return httpx.Response(
            200, json={"access_token": token, "token_type": "Bearer", "expires_in": self.expires_in}
        )


def multipart_parts(request: httpx.Request) -> dict[str, tuple[str | None, str, bytes]]:
    """The multipart body's parts: name -> (filename, content type, bytes)."""
    head = f"Content-Type: {request.headers['content-type']}\r\n\r\n".encode()
    message = email.parser.BytesParser(policy=email.policy.HTTP).parsebytes(head + request.content)
    parts = {}
    for part in message.iter_parts():
        name = part.get_param("name", header="content-disposition")
        parts[str(name)] = (part.get_filename(), part.get_content_type(), part.get_payload(decode=True))
    return parts


def body(request: httpx.Request) -> Any:
    return json.loads(request.content)


def make_client(gateway: FakeGateway, *, credentials: bool = False, **options: Any) -> ApinizerClient:
    """A client on the fake gateway whose waits are recorded in ``client.slept``, never slept."""
    if credentials:
        options.setdefault("username", USERNAME)
        options.setdefault("password", PASSWORD)
    elif "username" not in options and "password" not in options:
        options.setdefault("token", STATIC_TOKEN)
    client = ApinizerClient(BASE_URL, transport=httpx.MockTransport(gateway), **options)
    slept: list[float] = []
    client._sleep = slept.append
    client._random = lambda: 0.0
    client.slept = slept  # type: ignore[attr-defined]
    return client
