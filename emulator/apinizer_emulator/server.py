"""Building and running the emulator with uvicorn (shared by the CLI and the test server)."""

from __future__ import annotations

import asyncio
import socket
import threading
import time
from collections.abc import Callable, Sequence
from pathlib import Path
from typing import Any

import uvicorn
from starlette.types import ASGIApp
from uvicorn.protocols.http.httptools_impl import HttpToolsProtocol

from .app import create_app
from .families import FAMILIES, Backend
from .fixtures import load_fixture
from .specs import FetchRules
from .store import Store


def build(
    db: str | Path,
    fixtures: str | Path | None,
    clock: Callable[[], float] | None = None,
    host_names: Sequence[str] = (),
    public_spec_urls_only: bool = False,
) -> tuple[Backend, ASGIApp]:
    """A backend on the given database (loaded from the fixture when new) and its ASGI app,
    which answers requests naming one of ``host_names`` (the address it binds, the names it is
    told to answer to) besides loopback names and the connection's own address, and fetches
    spec URLs from public addresses only when ``public_spec_urls_only``."""
    backend = Backend(Store(db, families=FAMILIES), load_fixture(fixtures), clock or time.time)
    rules = FetchRules(public_only=public_spec_urls_only)
    return backend, create_app(backend, host_names=host_names, spec_fetch_rules=rules)


class ReadyServer(uvicorn.Server):
    """A uvicorn server that signals once it listens, with the port it really bound."""

    def __init__(self, config: uvicorn.Config, on_shutdown: Callable[[], None] | None = None) -> None:
        super().__init__(config)
        self.ready = threading.Event()
        self.port: int | None = None
        self._on_shutdown = on_shutdown

    async def shutdown(self, sockets: list[socket.socket] | None = None) -> None:
        await super().shutdown(sockets)
        # Here, not after run(): on SIGTERM uvicorn re-raises the signal as run() ends, so code after
        # it never runs in the CLI.
        if self._on_shutdown is not None:
            self._on_shutdown()

    async def startup(self, sockets: list[socket.socket] | None = None) -> None:
        await super().startup(sockets)
        for server in self.servers:
            for sock in server.sockets:
                self.port = int(sock.getsockname()[1])
                break
        if self.started:
            self.ready.set()


class OneWriteTransport:
    """A connection's transport whose writes of one turn of the event loop leave in one ``send``.

    uvicorn writes an answer's head and its body separately: two system calls, two TCP segments
    on loopback, and two reads for the client, where one does. What the server writes while a
    turn of the loop runs is held and sent together at the next turn (``call_soon``), before the
    loop waits for the network again. Closing sends what is held first; aborting drops it, as
    the transport's own abort drops what it holds. Everything else is the transport's.
    """

    def __init__(self, transport: asyncio.Transport) -> None:
        self._transport = transport
        self._held: list[bytes] = []

    def write(self, data: bytes | bytearray | memoryview) -> None:
        if not data:
            return
        if not self._held:
            asyncio.get_running_loop().call_soon(self.flush)
        self._held.append(bytes(data))

    def flush(self) -> None:
        if not self._held:
            return
        data = self._held[0] if len(self._held) == 1 else b"".join(self._held)
        self._held.clear()
        if not self._transport.is_closing():
            self._transport.write(data)

    def get_write_buffer_size(self) -> int:
        return self._transport.get_write_buffer_size() + sum(map(len, self._held))

    def close(self) -> None:
        self.flush()
        self._transport.close()

    def abort(self) -> None:
        self._held.clear()
        self._transport.abort()

    def __getattr__(self, name: str) -> Any:
        return getattr(self._transport, name)


class OneWriteHttpProtocol(HttpToolsProtocol):
    """uvicorn's HTTP/1.1 protocol (httptools), writing through a :class:`OneWriteTransport`.

    Only ``self.transport`` changes, after uvicorn's own set-up (its flow control keeps the
    real transport, whose pause and resume it needs)."""

    def connection_made(self, transport: asyncio.Transport) -> None:  # type: ignore[override]
        super().connection_made(transport)
        self.transport = OneWriteTransport(transport)  # type: ignore[assignment]


def uvicorn_config(
    app: ASGIApp, host: str, port: int, log_level: str = "warning", *, one_write: bool = False
) -> uvicorn.Config:
    """uvicorn's settings for the emulator (``one_write``: :class:`OneWriteHttpProtocol`) and for
    the benchmarks' bare apps, which keep uvicorn's own protocol."""
    return uvicorn.Config(
        app,
        host=host,
        port=port,
        log_level=log_level,
        access_log=False,
        lifespan="off",
        timeout_graceful_shutdown=2,
        server_header=False,
        http=OneWriteHttpProtocol if one_write else "auto",
    )


def base_url(host: str, port: int) -> str:
    shown = f"[{host}]" if ":" in host else host
    return f"http://{shown}:{port}"
