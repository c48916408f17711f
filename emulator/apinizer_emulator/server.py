"""Building and running the emulator with uvicorn (shared by the CLI and the test server)."""

from __future__ import annotations

import socket
import threading
import time
from collections.abc import Callable, Sequence
from pathlib import Path

import uvicorn
from starlette.types import ASGIApp

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


def uvicorn_config(app: ASGIApp, host: str, port: int, log_level: str = "warning") -> uvicorn.Config:
    return uvicorn.Config(
        app,
        host=host,
        port=port,
        log_level=log_level,
        access_log=False,
        lifespan="off",
        timeout_graceful_shutdown=2,
        server_header=False,
    )


def base_url(host: str, port: int) -> str:
    shown = f"[{host}]" if ":" in host else host
    return f"http://{shown}:{port}"
