"""Serves `local/jwks.json` as a partner's identity provider publishes its keys: a JWKS URL on this machine.

    python jwks_server.py start    # in the background, on 127.0.0.1 and a free port; prints the URL
    python jwks_server.py stop     # stops the one `start` started
    python jwks_server.py serve    # in the foreground, until Ctrl-C

`start` writes the URL and the server's process id to `local/jwks-server.json`, where the program finds
the URL (unless the stack sets `jwksUrl`); `stop` removes that file. The server listens on the loopback
address only and answers one path, `/.well-known/jwks.json`.
"""

from __future__ import annotations

import json
import os
import signal
import subprocess
import sys
import threading
import time
from http import HTTPStatus
from http.server import BaseHTTPRequestHandler, ThreadingHTTPServer
from pathlib import Path
from types import TracebackType

HERE = Path(__file__).resolve().parent
LOCAL = HERE / "local"
JWKS_FILE = LOCAL / "jwks.json"
STATE_FILE = LOCAL / "jwks-server.json"
#: The port of the last run, tried first: the same URL each time, so the JWK made from it stays as it is.
PORT_FILE = LOCAL / "jwks-server.port"
LOG_FILE = LOCAL / "jwks-server.log"
JWKS_PATH = "/.well-known/jwks.json"
START_TIMEOUT = 20.0


class JwksServer:
    """An HTTP server of one key set file, in a thread: ``with JwksServer(path) as server: server.url``."""

    def __init__(self, jwks_file: Path = JWKS_FILE, port: int = 0) -> None:
        jwks = jwks_file.read_bytes()

        class Handler(BaseHTTPRequestHandler):
            def do_GET(self) -> None:
                if self.path != JWKS_PATH:
                    self.send_error(HTTPStatus.NOT_FOUND)
                    return
                self.send_response(HTTPStatus.OK)
                self.send_header("Content-Type", "application/jwk-set+json")
                self.send_header("Content-Length", str(len(jwks)))
                self.end_headers()
                self.wfile.write(jwks)

            def log_message(self, format: str, *args: object) -> None:
                sys.stderr.write(f"jwks_server: {format % args}\n")

        try:
            self._server = ThreadingHTTPServer(("127.0.0.1", port), Handler)
        except OSError:  # that port is taken now: any free one
            self._server = ThreadingHTTPServer(("127.0.0.1", 0), Handler)
        self._thread = threading.Thread(
            target=self._server.serve_forever, kwargs={"poll_interval": 0.05}, name="jwks-server", daemon=True
        )

    @property
    def port(self) -> int:
        return int(self._server.server_address[1])

    @property
    def url(self) -> str:
        return f"http://127.0.0.1:{self.port}{JWKS_PATH}"

    def __enter__(self) -> JwksServer:
        self._thread.start()
        return self

    def __exit__(
        self, kind: type[BaseException] | None, error: BaseException | None, trace: TracebackType | None
    ) -> None:
        self._server.shutdown()
        self._server.server_close()
        self._thread.join()


def serve() -> None:
    """Serve until SIGTERM or Ctrl-C, with the URL and process id in :data:`STATE_FILE` meanwhile."""
    stopped = threading.Event()
    signal.signal(signal.SIGTERM, lambda *_: stopped.set())
    try:
        last_port = int(PORT_FILE.read_text())
    except (OSError, ValueError):
        last_port = 0
    try:
        with JwksServer(port=last_port) as server:
            PORT_FILE.write_text(str(server.port))
            STATE_FILE.write_text(json.dumps({"url": server.url, "pid": os.getpid()}))
            print(server.url, flush=True)
            stopped.wait()
    except KeyboardInterrupt:
        pass
    finally:
        STATE_FILE.unlink(missing_ok=True)


def running() -> dict[str, object] | None:
    """What `start` recorded, if that server still runs (a process id may since belong to another
    program: where /proc tells, the process must still be this script)."""
    try:
        state: dict[str, object] = json.loads(STATE_FILE.read_text())
        pid = int(str(state["pid"]))
        os.kill(pid, 0)
        command_line = Path(f"/proc/{pid}/cmdline")
        if command_line.parent.is_dir() and Path(__file__).name.encode() not in command_line.read_bytes():
            return None
    except (OSError, ValueError, KeyError):
        return None
    return state


def start() -> None:
    if not JWKS_FILE.is_file():
        sys.exit(f"{JWKS_FILE.relative_to(HERE)} is missing: run `python prepare.py` first")
    if (state := running()) is not None:
        print(state["url"])
        return
    STATE_FILE.unlink(missing_ok=True)
    with LOG_FILE.open("ab") as log:
        # A session of its own: the shell that started it may end; its output goes to the log, not to
        # the shell's terminal or pipe.
        process = subprocess.Popen(
            [sys.executable, str(Path(__file__).resolve()), "serve"],
            stdin=subprocess.DEVNULL, stdout=log, stderr=log, start_new_session=True,
        )
    deadline = time.monotonic() + START_TIMEOUT
    while (state := running()) is None:
        if process.poll() is not None or time.monotonic() > deadline:
            process.kill()
            sys.exit(f"the JWKS server did not start: see {LOG_FILE.relative_to(HERE)}")
        time.sleep(0.05)
    print(state["url"])


def stop() -> None:
    state = running()
    if state is None:
        print("the JWKS server is not running")
        STATE_FILE.unlink(missing_ok=True)
        return
    pid = int(str(state["pid"]))
    os.kill(pid, signal.SIGTERM)
    deadline = time.monotonic() + START_TIMEOUT
    while time.monotonic() < deadline:
        try:
            os.kill(pid, 0)
        except ProcessLookupError:
            break
        time.sleep(0.05)
    print(f"stopped the JWKS server ({state['url']})")


if __name__ == "__main__":
    commands = {"start": start, "stop": stop, "serve": serve}
    if len(sys.argv) != 2 or sys.argv[1] not in commands:
        sys.exit(f"usage: python {Path(__file__).name} {'|'.join(commands)}")
    commands[sys.argv[1]]()
