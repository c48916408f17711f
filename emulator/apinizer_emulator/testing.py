"""Running the emulator from tests: in a thread (moto's ThreadedMotoServer) or as a subprocess."""

from __future__ import annotations

import os
import re
import selectors
import subprocess
import sys
import threading
import time
from collections.abc import Callable, Sequence
from pathlib import Path
from types import TracebackType
from typing import IO, Any

from .app import EmulatorApp
from .families import Backend
from .server import ReadyServer, base_url, build, uvicorn_config
from .store import MEMORY

READY_LINE = re.compile(r"serving (http://\S+)")


class EmulatorServer:
    """The emulator served by uvicorn in a background thread.

    ``port=0`` picks a free port; :attr:`base_url` tells the real one after :meth:`start`.
    ``clock`` replaces ``time.time`` for the token expiry logic.
    """

    def __init__(
        self,
        *,
        db: str | Path = MEMORY,
        fixtures: str | Path | None = None,
        host: str = "127.0.0.1",
        port: int = 0,
        clock: Callable[[], float] | None = None,
    ) -> None:
        self.db, self.fixtures, self.host, self.port = str(db), fixtures, host, port
        self.clock = clock
        self.backend: Backend | None = None
        self._app: EmulatorApp | None = None
        self._server: ReadyServer | None = None
        self._thread: threading.Thread | None = None

    @property
    def base_url(self) -> str:
        if self._server is None or self._server.port is None:
            raise RuntimeError("the emulator is not started")
        return base_url(self.host, self._server.port)

    def get_host_and_port(self) -> tuple[str, int]:
        if self._server is None or self._server.port is None:
            raise RuntimeError("the emulator is not started")
        return self.host, self._server.port

    def start(self, timeout: float = 30.0) -> EmulatorServer:
        """Start serving; returns once the emulator accepts connections."""
        if self._server is not None:
            raise RuntimeError("the emulator is already started")
        self.backend, app = build(self.db, self.fixtures, self.clock, [self.host])
        self._app = app if isinstance(app, EmulatorApp) else None
        server = ReadyServer(uvicorn_config(app, self.host, self.port))
        thread = threading.Thread(target=server.run, name="apinizer-emulator", daemon=True)
        self._server, self._thread = server, thread
        thread.start()
        deadline = time.monotonic() + timeout
        while not server.ready.wait(0.02):
            if not thread.is_alive() or time.monotonic() > deadline:
                self._close_store()
                self._server = self._thread = None
                raise RuntimeError(f"the emulator did not start on {self.host}:{self.port}")
        return self

    def reset(self) -> None:
        """What ``POST /_emulator/reset`` and then ``POST /_emulator/stats/reset`` do, in this process:
        the fixture's objects back, no faults, the clock's offset gone, the counters at zero.

        The tests' fixtures reset the emulator before each test; in the process it costs a fifth of
        the CPU of the two requests (docs/performance.md, "The test suite").
        """
        if self.backend is None or self._app is None:
            raise RuntimeError("the emulator is not started")
        self._app.faults.clear()
        self.backend.reset()
        self._app.stats.reset()

    def stop(self) -> None:
        if self._server is None or self._thread is None:
            return
        self._server.should_exit = True
        self._thread.join(timeout=10)
        self._close_store()
        self._server = self._thread = None

    def _close_store(self) -> None:
        if self.backend is not None:
            self.backend.store.close()
            self.backend = None
        self._app = None

    def __enter__(self) -> EmulatorServer:
        return self.start()

    def __exit__(
        self, exc_type: type[BaseException] | None, exc: BaseException | None, tb: TracebackType | None
    ) -> None:
        self.stop()


def start_subprocess(
    db: str | Path = MEMORY,
    port: int = 0,
    *,
    fixtures: str | Path | None = None,
    host: str = "127.0.0.1",
    extra_args: Sequence[str] = (),
    timeout: float = 30.0,
    stderr: int | IO[Any] | None = None,
) -> tuple[subprocess.Popen[str], str]:
    """``python -m apinizer_emulator serve`` in a child process; returns it and its base URL once ready.

    Stop it with ``proc.terminate()`` (graceful) or ``proc.kill()`` (a crash), then ``proc.wait()``.
    The child's stderr (its log) is inherited unless ``stderr`` says where it goes (a file, or
    ``subprocess.PIPE``); its stdout carries only the ready line.
    """
    cmd = [
        sys.executable,
        "-m",
        "apinizer_emulator",
        "serve",
        "--host",
        host,
        "--port",
        str(port),
        "--db",
        str(db),
        *extra_args,
    ]
    if fixtures is not None:
        cmd += ["--fixtures", str(fixtures)]
    env = {**os.environ, "PYTHONUNBUFFERED": "1"}
    proc = subprocess.Popen(cmd, stdout=subprocess.PIPE, stderr=stderr, text=True, env=env)
    assert proc.stdout is not None
    selector = selectors.DefaultSelector()
    selector.register(proc.stdout, selectors.EVENT_READ)
    deadline = time.monotonic() + timeout
    try:
        while time.monotonic() < deadline:
            if not selector.select(timeout=max(0.0, deadline - time.monotonic())):
                break
            line = proc.stdout.readline()
            if not line:
                break
            match = READY_LINE.search(line)
            if match:
                # The server writes nothing else to stdout; closing our end leaves no pipe to leak.
                proc.stdout.close()
                return proc, match.group(1)
    finally:
        selector.close()
    proc.kill()
    proc.wait()
    proc.stdout.close()
    raise RuntimeError(
        f"the emulator subprocess did not start (exit code {proc.returncode}): {' '.join(cmd)}"
    )
