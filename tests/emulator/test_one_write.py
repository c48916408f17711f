"""An answer's head and body leave the emulator in one write (``server.OneWriteTransport``).

Counted where they leave: the writes that reach asyncio's socket transport, each one ``send``
system call. uvicorn's own protocol writes an answer's head and its body apart: two calls (which
Linux may still merge into one TCP segment, so the client's counters cannot tell).
"""

from __future__ import annotations

import asyncio
import json
import socket
from asyncio import selector_events
from typing import Any
from urllib.parse import urlsplit

import pytest

from apinizer_emulator.server import OneWriteTransport

from .conftest import endpoints_path


def _exchange(conn: socket.socket, request: bytes) -> tuple[int, bytes]:
    """Send a request, read its whole answer (by its Content-Length); the status and the body."""
    conn.sendall(request)
    received = b""
    while b"\r\n\r\n" not in received:
        chunk = conn.recv(65536)
        assert chunk, "the emulator closed the connection"
        received += chunk
    head, _, body = received.partition(b"\r\n\r\n")
    lines = head.decode("latin-1").split("\r\n")
    length = next(int(line.split(":", 1)[1]) for line in lines if line.lower().startswith("content-length:"))
    while len(body) < length:
        chunk = conn.recv(65536)
        assert chunk, "the emulator closed the connection"
        body += chunk
    return int(lines[0].split()[1]), body


def _request(method: str, path: str, token: str, body: dict[str, Any] | None = None) -> bytes:
    payload = json.dumps(body).encode() if body is not None else b""
    head = f"{method} {path} HTTP/1.1\r\nHost: 127.0.0.1\r\nAuthorization: Bearer {token}\r\n"
    if body is not None:
        head += f"Content-Type: application/json\r\nContent-Length: {len(payload)}\r\n"
    return (head + "\r\n").encode() + payload


def test_each_answer_leaves_in_one_write(
    emulator_url: str, admin_token: str, monkeypatch: pytest.MonkeyPatch
) -> None:
    sends: list[int] = []
    socket_write = selector_events._SelectorSocketTransport.write

    def counted(transport: Any, data: Any) -> None:
        sends.append(len(data))
        socket_write(transport, data)

    monkeypatch.setattr(selector_events._SelectorSocketTransport, "write", counted)
    address = urlsplit(emulator_url)
    identity = {"name": "/one-write", "httpMethod": "GET"}
    create = {**identity, "backendResourceUrl": "/b", "backendHttpMethod": "GET"}
    exchanges = [
        (_request("POST", endpoints_path(), admin_token, create), 200),
        (_request("GET", endpoints_path(), admin_token), 200),
        (_request("POST", endpoints_path("delete"), admin_token, identity), 200),
        (_request("POST", endpoints_path("delete"), admin_token, identity), 400),
        (_request("GET", endpoints_path(), "not-a-token"), 401),
    ]
    with socket.create_connection((address.hostname, address.port)) as conn:
        for request, status in exchanges:
            sends.clear()
            status_seen, body = _exchange(conn, request)
            assert status_seen == status
            assert len(sends) == 1 and sends[0] > len(body), request.split(b"\r\n", 1)[0]


class _Recording(asyncio.Transport):
    """The real transport's side of a OneWriteTransport: what reached it, in order."""

    def __init__(self) -> None:
        super().__init__()
        self.events: list[Any] = []
        self.closing = False

    def write(self, data: bytes | bytearray | memoryview) -> None:
        self.events.append(bytes(data))

    def is_closing(self) -> bool:
        return self.closing

    def close(self) -> None:
        self.events.append("close")
        self.closing = True

    def abort(self) -> None:
        self.events.append("abort")
        self.closing = True

    def get_write_buffer_size(self) -> int:
        return 0


def test_writes_of_one_turn_leave_together_and_close_sends_them_first() -> None:
    async def scenario() -> list[Any]:
        real = _Recording()
        held = OneWriteTransport(real)
        held.write(b"head|")
        held.write(b"")
        held.write(b"body")
        assert real.events == [] and held.get_write_buffer_size() == 9
        await asyncio.sleep(0)
        held.write(b"next")
        held.close()
        await asyncio.sleep(0)  # the flush that the first write scheduled finds nothing left
        return real.events

    assert asyncio.run(scenario()) == [b"head|body", b"next", "close"]


def test_abort_drops_what_is_held_as_the_transport_drops_its_buffer() -> None:
    async def scenario() -> list[Any]:
        real = _Recording()
        held = OneWriteTransport(real)
        held.write(b"never sent")
        held.abort()
        await asyncio.sleep(0)
        return real.events

    assert asyncio.run(scenario()) == ["abort"]
