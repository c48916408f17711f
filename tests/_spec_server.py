"""Helpers of the API proxy tests: a small HTTP server on 127.0.0.1 that serves spec documents to the
emulator's spec-URL fetches, and ZIPs made in memory."""

from __future__ import annotations

import io
import threading
import time
import zipfile
from collections.abc import Iterator
from contextlib import contextmanager, suppress
from dataclasses import dataclass, field
from http.server import BaseHTTPRequestHandler, ThreadingHTTPServer


@dataclass
class Served:
    body: bytes
    status: int = 200
    delay: float = 0.0
    content_type: str = "application/octet-stream"
    #: Seconds between bytes: the body is sent one byte at a time, each read comes quickly.
    drip: float = 0.0
    headers: dict[str, str] = field(default_factory=dict)


@dataclass
class SpecServer:
    base_url: str
    files: dict[str, Served] = field(default_factory=dict)
    #: The headers of each request received, in order.
    seen: list[dict[str, str]] = field(default_factory=list)
    #: The path of each request received, in order.
    paths: list[str] = field(default_factory=list)

    def url(self, path: str) -> str:
        return f"{self.base_url}{path}"


@contextmanager
def spec_server() -> Iterator[SpecServer]:
    state = SpecServer("")

    class Handler(BaseHTTPRequestHandler):
        def do_GET(self) -> None:
            state.seen.append(dict(self.headers.items()))
            state.paths.append(self.path)
            served = state.files.get(self.path)
            if served is None:
                self.send_error(404)
                return
            if served.delay:
                time.sleep(served.delay)
            self.send_response(served.status)
            self.send_header("Content-Type", served.content_type)
            self.send_header("Content-Length", str(len(served.body)))
            for name, value in served.headers.items():
                self.send_header(name, value)
            self.end_headers()
            with suppress(BrokenPipeError, ConnectionResetError):
                if not served.drip:
                    self.wfile.write(served.body)
                    return
                for i in range(len(served.body)):
                    self.wfile.write(served.body[i : i + 1])
                    self.wfile.flush()
                    time.sleep(served.drip)

        def log_message(self, format: str, *args: object) -> None:
            pass

    server = ThreadingHTTPServer(("127.0.0.1", 0), Handler)
    server.daemon_threads = True
    state.base_url = f"http://127.0.0.1:{server.server_address[1]}"
    thread = threading.Thread(target=server.serve_forever, daemon=True)
    thread.start()
    try:
        yield state
    finally:
        server.shutdown()
        server.server_close()
        thread.join(timeout=5)


def zip_of(files: dict[str, bytes]) -> bytes:
    """A ZIP of ``files`` (name -> content), made in memory."""
    buffer = io.BytesIO()
    with zipfile.ZipFile(buffer, "w", zipfile.ZIP_DEFLATED) as archive:
        for name, content in files.items():
            archive.writestr(name, content)
    return buffer.getvalue()
