"""The pooled client's slots: more threads than connections wait outside httpcore's pool.

httpcore's sync pool walks every queued request against every connection on each request; the
provider server runs up to 64 calls on 20 connections (``client/_transport_pool.py``). A real HTTP
server on 127.0.0.1 counts the requests it serves at once.
"""

from __future__ import annotations

import threading
import time
from collections.abc import Iterator
from http.server import BaseHTTPRequestHandler, ThreadingHTTPServer

import httpx
import pytest

from apinizer_pulumi.client import close_pooled_clients
from apinizer_pulumi.client._transport_pool import get_client


class _Counting(BaseHTTPRequestHandler):
    """Answers after a short pause, counting the requests in progress at once."""

    lock = threading.Lock()
    now = 0
    most = 0

    def do_GET(self) -> None:
        cls = type(self)
        with cls.lock:
            cls.now += 1
            cls.most = max(cls.most, cls.now)
        time.sleep(0.5 if self.path == "/slow" else 0.01)
        with cls.lock:
            cls.now -= 1
        self.send_response(200)
        self.send_header("Content-Length", "2")
        self.end_headers()
        self.wfile.write(b"ok")

    def log_message(self, *_args: object) -> None:
        return None


@pytest.fixture
def server_url() -> Iterator[str]:
    close_pooled_clients()
    server = ThreadingHTTPServer(("127.0.0.1", 0), _Counting)
    threading.Thread(target=server.serve_forever, daemon=True).start()
    try:
        yield f"http://127.0.0.1:{server.server_address[1]}"
    finally:
        server.shutdown()
        server.server_close()
        close_pooled_clients()


def test_more_threads_than_connections_wait_outside_httpcores_pool(server_url: str) -> None:
    http = get_client(server_url)
    pool = http._transport._transport._pool  # type: ignore[attr-defined]
    queued: list[int] = []
    answers: list[int] = []

    def send() -> None:
        for _ in range(5):
            queued.append(sum(1 for request in pool._requests if request.is_queued()))
            answers.append(http.get("/").status_code)

    threads = [threading.Thread(target=send) for _ in range(64)]
    for t in threads:
        t.start()
    for t in threads:
        t.join()
    assert answers == [200] * 320
    assert max(queued) == 0
    assert 1 < _Counting.most <= 20


def test_failed_and_unread_requests_give_their_slot_back(server_url: str) -> None:
    http = get_client(server_url)
    for _ in range(25):  # more failures than slots
        with pytest.raises(httpx.ReadTimeout):
            http.get("/slow", timeout=0.02)
    for _ in range(25):
        with http.stream("GET", "/") as response:
            assert response.status_code == 200  # its body never read
    for _ in range(25):
        assert http.get("/", timeout=5).status_code == 200
