"""The pooled client's transport (``client/_keepalive.py``) against real sockets on 127.0.0.1.

Each test serves raw HTTP/1.1 from a thread with a script of its own, so that what the wire does
(a connection closed while idle, an answer that never comes, a chunked or gzipped body) is
exactly what the transport meets. The errors it raises decide the retry rules: a request that
never left may be repeated, one that may have arrived only when it is idempotent.
"""

from __future__ import annotations

import gzip
import http.client
import json
import socket
import ssl
import threading
from collections.abc import Callable, Iterator
from contextlib import contextmanager
from pathlib import Path

import httpx
import pytest

from _key_material import issue
from apinizer_pulumi.client import APIConnectionError, ApinizerClient
from apinizer_pulumi.client._keepalive import KeepAliveTransport, environment_proxy_for
from apinizer_pulumi.client._retry import NEVER_SENT_ERRORS
from apinizer_pulumi.client._transport_pool import close_all, get_client

Handler = Callable[[socket.socket, int], None]


def read_request(conn: socket.socket) -> tuple[str, dict[str, str], bytes] | None:
    """One request from ``conn`` (request line, headers, body whole or chunked), None at its end."""
    data = b""
    while b"\r\n\r\n" not in data:
        chunk = conn.recv(65536)
        if not chunk:
            return None
        data += chunk
    head, body = data.split(b"\r\n\r\n", 1)
    lines = head.decode("latin-1").split("\r\n")
    pairs = (line.split(":", 1) for line in lines[1:])
    headers = {name.strip().lower(): value.strip() for name, value in pairs}
    if headers.get("transfer-encoding") == "chunked":
        while not body.endswith(b"0\r\n\r\n"):
            body += conn.recv(65536)
        return lines[0], headers, body
    length = int(headers.get("content-length", "0"))
    while len(body) < length:
        body += conn.recv(65536)
    return lines[0], headers, body


def answer(conn: socket.socket, body: bytes = b'{"success":true}', status: str = "200 OK",
           headers: tuple[str, ...] = ("Content-Type: application/json",)) -> None:
    extra = "".join(f"{line}\r\n" for line in headers)
    conn.sendall(f"HTTP/1.1 {status}\r\nContent-Length: {len(body)}\r\n{extra}\r\n".encode() + body)


@contextmanager
def server(handler: Handler) -> Iterator[tuple[str, list[str]]]:
    """A loopback server calling ``handler(connection, number)`` per connection; yields its URL
    and the request lines it read (handlers append to it)."""
    listener = socket.socket()
    listener.bind(("127.0.0.1", 0))
    listener.listen(16)
    listener.settimeout(0.2)
    stop = threading.Event()
    threads: list[threading.Thread] = []

    def accept() -> None:
        number = 0
        while not stop.is_set():
            try:
                conn, _ = listener.accept()
            except TimeoutError:
                continue
            number += 1
            worker = threading.Thread(target=serve_one, args=(conn, number), daemon=True)
            worker.start()
            threads.append(worker)

    def serve_one(conn: socket.socket, number: int) -> None:
        with conn:
            handler(conn, number)

    acceptor = threading.Thread(target=accept, daemon=True)
    acceptor.start()
    try:
        yield f"http://127.0.0.1:{listener.getsockname()[1]}", []
    finally:
        stop.set()
        acceptor.join()
        listener.close()
        for worker in threads:
            worker.join(timeout=5)


def keep_answering(seen: list[str]) -> Handler:
    def handler(conn: socket.socket, number: int) -> None:
        while (request := read_request(conn)) is not None:
            line, _, body = request
            seen.append(f"{number} {line} {body.decode()}")
            answer(conn)
    return handler


@pytest.fixture
def transport() -> Iterator[KeepAliveTransport]:
    kept = KeepAliveTransport(max_connections=4, keepalive_expiry=30.0)
    yield kept
    kept.close()


def test_requests_share_one_kept_alive_connection(transport: KeepAliveTransport) -> None:
    seen: list[str] = []
    with server(keep_answering(seen)) as (url, _), httpx.Client(base_url=url, transport=transport) as http:
        for index in range(3):
            response = http.post("/things/", json={"index": index}, headers={"X-Trace": "t"})
            assert response.status_code == 200
            assert response.json() == {"success": True}
            assert response.headers["content-type"] == "application/json"
            assert response.http_version == "HTTP/1.1"
        assert transport.idle_connections() == 1
    assert seen == [f'1 POST /things/ HTTP/1.1 {{"index":{index}}}' for index in range(3)]


def test_headers_and_body_arrive_as_sent(transport: KeepAliveTransport) -> None:
    received: list[tuple[str, dict[str, str], bytes]] = []

    def handler(conn: socket.socket, number: int) -> None:
        request = read_request(conn)
        assert request is not None
        received.append(request)
        answer(conn)

    with server(handler) as (url, _), httpx.Client(base_url=url, transport=transport) as http:
        http.patch("/a/b%20c/?q=1", content=b'{"x":1}', headers={"Authorization": "Bearer t0k"})
    line, headers, body = received[0]
    assert line == "PATCH /a/b%20c/?q=1 HTTP/1.1"
    assert headers["host"] == url.removeprefix("http://")
    assert headers["authorization"] == "Bearer t0k"
    assert headers["content-length"] == "7"
    assert body == b'{"x":1}'


class CountedWrites:
    """A connection's socket, counting the writes of each request; everything else is the socket's."""

    def __init__(self, sock: socket.socket, writes: list[bytes]) -> None:
        self._sock = sock
        self._writes = writes

    def sendall(self, data: bytes) -> None:
        self._writes.append(bytes(data))
        self._sock.sendall(data)

    def __getattr__(self, name: str) -> object:
        return getattr(self._sock, name)


class CountingTransport(KeepAliveTransport):
    def __init__(self, writes: list[bytes], ssl_context: ssl.SSLContext | None = None) -> None:
        super().__init__(max_connections=4, keepalive_expiry=30.0, ssl_context=ssl_context)
        self.writes = writes

    def _connect(self, origin: tuple[str, str, int], timeout: float | None) -> http.client.HTTPConnection:
        connection = super()._connect(origin, timeout)
        connection.sock = CountedWrites(connection.sock, self.writes)  # type: ignore[assignment]
        return connection


def test_a_request_and_its_body_leave_in_one_write() -> None:
    """Head and body in one write: the gateway reads (and its event loop wakes) once per request."""
    writes: list[bytes] = []
    seen: list[str] = []
    counting = CountingTransport(writes)
    with server(keep_answering(seen)) as (url, _), httpx.Client(base_url=url, transport=counting) as http:
        http.request("DELETE", "/endpoints/delete/", content=b'{"name":"/pets","httpMethod":"GET"}')
        http.get("/endpoints/")
    counting.close()
    assert seen == ['1 DELETE /endpoints/delete/ HTTP/1.1 {"name":"/pets","httpMethod":"GET"}',
                    "1 GET /endpoints/ HTTP/1.1 "]
    assert len(writes) == 2
    assert writes[0].startswith(b"DELETE /endpoints/delete/ HTTP/1.1\r\n")
    assert writes[0].endswith(b'\r\n\r\n{"name":"/pets","httpMethod":"GET"}')
    assert writes[1].startswith(b"GET /endpoints/ HTTP/1.1\r\n") and writes[1].endswith(b"\r\n\r\n")


def test_over_tls_too_a_request_and_its_body_leave_in_one_write(tmp_path: Path) -> None:
    issued = issue("127.0.0.1")
    (tmp_path / "cert.pem").write_bytes(issued.pem)
    (tmp_path / "key.pem").write_text(issued.private_pem())
    serving = ssl.SSLContext(ssl.PROTOCOL_TLS_SERVER)
    serving.load_cert_chain(tmp_path / "cert.pem", tmp_path / "key.pem")
    seen: list[str] = []

    def handler(conn: socket.socket, number: int) -> None:
        with serving.wrap_socket(conn, server_side=True) as tls:
            keep_answering(seen)(tls, number)

    trusting = ssl.create_default_context()
    trusting.check_hostname, trusting.verify_mode = False, ssl.CERT_NONE  # the test's own certificate
    writes: list[bytes] = []
    counting = CountingTransport(writes, trusting)
    with server(handler) as (url, _), httpx.Client(base_url=url.replace("http:", "https:"),
                                                   transport=counting) as http:
        http.post("/things/", content=b'{"index":1}')
    counting.close()
    assert seen == ['1 POST /things/ HTTP/1.1 {"index":1}']
    assert len(writes) == 1 and writes[0].endswith(b'\r\n\r\n{"index":1}')


def test_a_connection_the_server_closed_while_idle_is_replaced_before_a_create_is_sent(
        transport: KeepAliveTransport) -> None:
    seen: list[str] = []

    def one_answer_then_close(conn: socket.socket, number: int) -> None:
        request = read_request(conn)
        if request is not None:
            seen.append(f"{number} {request[0]}")
            answer(conn)  # kept alive as far as the client knows; then closed while idle

    with server(one_answer_then_close) as (url, _), httpx.Client(base_url=url, transport=transport) as http:
        for _ in range(3):
            # A POST after an idle close: it must go on a fresh connection, not fail on the old one.
            assert http.post("/create/", json={}).status_code == 200
            threading.Event().wait(0.05)
    assert seen == ["1 POST /create/ HTTP/1.1", "2 POST /create/ HTTP/1.1", "3 POST /create/ HTTP/1.1"]


def test_connection_close_is_honoured(transport: KeepAliveTransport) -> None:
    def handler(conn: socket.socket, number: int) -> None:
        if read_request(conn) is not None:
            answer(conn, headers=("Connection: close",))

    with server(handler) as (url, _), httpx.Client(base_url=url, transport=transport) as http:
        assert http.get("/").status_code == 200
        assert transport.idle_connections() == 0
        assert http.get("/").status_code == 200


def test_a_refused_connection_is_a_request_never_sent(transport: KeepAliveTransport) -> None:
    probe = socket.socket()
    probe.bind(("127.0.0.1", 0))
    port = probe.getsockname()[1]
    probe.close()  # nothing listens there now
    with httpx.Client(transport=transport) as http, pytest.raises(httpx.ConnectError) as caught:
        http.post(f"http://127.0.0.1:{port}/create/", json={})
    assert isinstance(caught.value, NEVER_SENT_ERRORS)
    assert caught.value.request.url.port == port


def test_an_answer_that_never_comes_is_a_request_that_may_have_arrived(transport: KeepAliveTransport) -> None:
    def read_then_hang_up(conn: socket.socket, number: int) -> None:
        read_request(conn)

    with (server(read_then_hang_up) as (url, _), httpx.Client(base_url=url, transport=transport) as http,
          pytest.raises(httpx.RemoteProtocolError, match="Server disconnected") as caught):
        http.post("/create/", json={})
    assert not isinstance(caught.value, NEVER_SENT_ERRORS)


def test_a_slow_answer_is_a_read_timeout(transport: KeepAliveTransport) -> None:
    release = threading.Event()

    def slow(conn: socket.socket, number: int) -> None:
        read_request(conn)
        release.wait(5)

    with server(slow) as (url, _), httpx.Client(base_url=url, transport=transport, timeout=0.3) as http:
        with pytest.raises(httpx.ReadTimeout):
            http.get("/slow/")
        release.set()


def test_a_chunked_and_gzipped_answer_is_read_whole(transport: KeepAliveTransport) -> None:
    payload = gzip.compress(json.dumps({"items": list(range(1000))}).encode())

    def chunked(conn: socket.socket, number: int) -> None:
        if read_request(conn) is None:
            return
        head = (b"HTTP/1.1 200 OK\r\nTransfer-Encoding: chunked\r\nContent-Encoding: gzip\r\n"
                b"Content-Type: application/json\r\n\r\n")
        pieces = [payload[start:start + 100] for start in range(0, len(payload), 100)]
        chunks = b"".join(b"%x\r\n%s\r\n" % (len(piece), piece) for piece in pieces)
        conn.sendall(head + chunks + b"0\r\n\r\n")

    with server(chunked) as (url, _), httpx.Client(base_url=url, transport=transport) as http:
        response = http.get("/list/")
    assert response.json() == {"items": list(range(1000))}


def test_a_streamed_upload_goes_through_httpx_own_transport(transport: KeepAliveTransport) -> None:
    seen: list[str] = []

    def parts() -> Iterator[bytes]:
        yield b'{"a":'
        yield b"1}"

    with server(keep_answering(seen)) as (url, _), httpx.Client(base_url=url, transport=transport) as http:
        assert http.post("/upload/", content=parts()).status_code == 200
    assert transport.idle_connections() == 0  # httpx's own pool sent it, chunked
    assert len(seen) == 1 and seen[0].startswith("1 POST /upload/ HTTP/1.1 5\r\n{\"a\":")


def test_requests_beyond_the_connections_wait_for_the_pool_then_time_out() -> None:
    release = threading.Event()

    def slow(conn: socket.socket, number: int) -> None:
        while read_request(conn) is not None:
            release.wait(5)
            answer(conn)

    limited = KeepAliveTransport(max_connections=1)
    with server(slow) as (url, _), httpx.Client(base_url=url, transport=limited) as http:
        first = threading.Thread(target=http.get, args=("/one/",))
        first.start()
        threading.Event().wait(0.2)
        with pytest.raises(httpx.PoolTimeout):
            http.get("/two/", timeout=httpx.Timeout(5.0, pool=0.2))
        release.set()
        first.join()
    limited.close()


def test_the_pooled_client_uses_it_unless_the_environment_names_a_proxy(
        monkeypatch: pytest.MonkeyPatch) -> None:
    close_all()
    for name in ("HTTP_PROXY", "http_proxy", "ALL_PROXY", "all_proxy", "NO_PROXY", "no_proxy"):
        monkeypatch.delenv(name, raising=False)
    assert isinstance(get_client("http://gateway.test")._transport, KeepAliveTransport)
    assert environment_proxy_for("http://gateway.test") is False
    monkeypatch.setenv("HTTP_PROXY", "http://proxy.test:3128")
    assert environment_proxy_for("http://gateway.test") is True
    assert not isinstance(get_client("http://other-gateway.test")._transport, KeepAliveTransport)
    monkeypatch.setenv("NO_PROXY", "other-gateway.test")
    assert environment_proxy_for("http://other-gateway.test") is False
    close_all()


def test_the_client_reports_a_refused_connection_with_its_url() -> None:
    probe = socket.socket()
    probe.bind(("127.0.0.1", 0))
    port = probe.getsockname()[1]
    probe.close()
    client = ApinizerClient(f"http://127.0.0.1:{port}", token="t" * 24, max_retries=1)
    client._sleep = lambda seconds: None
    with pytest.raises(APIConnectionError) as caught:
        client.endpoints.list("P", "A")
    message = str(caught.value)
    assert f"127.0.0.1:{port}" in message and "ConnectError" in message
    assert "t" * 24 not in message


def test_the_emulator_s_answers_come_through_it_on_one_connection(
        emulator_url: str, admin_token: str) -> None:
    kept = KeepAliveTransport()
    client = ApinizerClient(emulator_url, token=admin_token, transport=kept)
    try:
        before = len(client.endpoints.list("Demo", "PetStore"))
        spec = {"name": "/kept-alive", "http_method": "GET", "backend_resource_url": "/k",
                "backend_http_method": "GET"}
        client.endpoints.create("Demo", "PetStore", spec)
        names = [item.endpoint for item in client.endpoints.list("Demo", "PetStore")]
        assert len(names) == before + 1 and "/kept-alive" in names
        client.endpoints.delete("Demo", "PetStore", "/kept-alive", "GET")
        assert kept.idle_connections() == 1
    finally:
        client.close()
        kept.close()


def answering_raw(wire: bytes) -> Handler:
    """A server that answers every request with ``wire``, as written."""
    def handler(conn: socket.socket, number: int) -> None:
        while read_request(conn) is not None:
            conn.sendall(wire)
    return handler


def test_informational_answers_are_skipped_as_httpx_own_transport_skips_them(
        transport: KeepAliveTransport) -> None:
    wire = (b"HTTP/1.1 103 Early Hints\r\nLink: </a.css>; rel=preload\r\n\r\n"
            b"HTTP/1.1 200 OK\r\nContent-Length: 16\r\nContent-Type: application/json\r\n\r\n"
            b'{"success":true}')
    answers: dict[str, list[tuple[int, bytes]]] = {}
    with server(answering_raw(wire)) as (url, _):
        for name, used in (("ours", transport), ("httpx", httpx.HTTPTransport())):
            with httpx.Client(base_url=url, transport=used) as http:
                answers[name] = [(r.status_code, r.content) for r in (http.get("/a/"), http.get("/b/"))]
                if used is transport:
                    assert transport.idle_connections() == 1  # nothing left unread on it
    assert answers["ours"] == answers["httpx"] == [(200, b'{"success":true}')] * 2


@pytest.mark.parametrize(("wire", "message"), [
    (b"HTTP/1.1 200 " + b"x" * 70000 + b"\r\n\r\n",
     "LineTooLong: got more than 65536 bytes when reading status line"),
    (b"HTTP/1.1 200 OK\r\nX-A: " + b"x" * 70000 + b"\r\n\r\n",
     "LineTooLong: got more than 65536 bytes when reading header line"),
    (b"HTTP/1.1 200 OK\r\n" + b"X-A: 1\r\n" * 101 + b"\r\n", "HTTPException: got more than 100 headers"),
    (b"ICY 200 OK\r\n\r\n", "BadStatusLine: ICY 200 OK\r\n"),
    (b"HTTP/2.0 200 OK\r\n\r\n", "UnknownProtocol: HTTP/2.0"),
    (b"HTTP/1.1 200 OK\r\nTransfer-Encoding: chunked\r\n\r\nzz\r\n",
     "IncompleteRead: IncompleteRead(0 bytes read)"),
], ids=["status line too long", "header line too long", "too many headers", "bad status line",
        "unknown protocol", "bad chunk"])
def test_a_broken_answer_is_a_protocol_error_that_names_it(
        transport: KeepAliveTransport, wire: bytes, message: str) -> None:
    with (server(answering_raw(wire)) as (url, _), httpx.Client(base_url=url, transport=transport) as http,
          pytest.raises(httpx.RemoteProtocolError) as caught):
        http.delete("/endpoint/")
    assert str(caught.value) == message
    assert transport.idle_connections() == 0


def test_an_http_1_0_answer_keeps_the_connection_only_when_it_says_keep_alive(
        transport: KeepAliveTransport) -> None:
    closing = b"HTTP/1.0 200 OK\r\nContent-Length: 2\r\n\r\n{}"
    kept = b"HTTP/1.0 200 OK\r\nConnection: keep-alive\r\nContent-Length: 2\r\n\r\n{}"
    for wire, idle in ((closing, 0), (kept, 1)):
        with server(answering_raw(wire)) as (url, _), httpx.Client(base_url=url, transport=transport) as http:
            assert http.get("/").content == b"{}"
            assert transport.idle_connections() == idle
        transport.close()
        transport = KeepAliveTransport(max_connections=4)


def test_a_close_delimited_answer_is_read_to_the_end_and_its_connection_closed(
        transport: KeepAliveTransport) -> None:
    def until_hang_up(conn: socket.socket, number: int) -> None:
        if read_request(conn) is not None:
            conn.sendall(b"HTTP/1.1 200 OK\r\nContent-Type: text/plain\r\n\r\nall of it")

    with server(until_hang_up) as (url, _), httpx.Client(base_url=url, transport=transport) as http:
        assert http.get("/").text == "all of it"
        assert transport.idle_connections() == 0


# -- the pooled client's own send (PooledClient.send) against httpx.Client.send ------------------

def scripted_gateway(seen: list[str]) -> Handler:
    """Answers by path: a token (a new one each time), a cookie, a redirect, gzip, a 401 to the first
    token."""
    tokens = iter(["first-token-0123456789", "second-token-0123456789", "third-token-0123456789"])

    def handler(conn: socket.socket, number: int) -> None:
        while (request := read_request(conn)) is not None:
            line, headers, body = request
            path = line.split()[1]
            seen.append(f"{line} {headers.get('authorization', '-')} {headers.get('cookie', '-')} {body!r}")
            if path == "/apiops/auth/token":
                answer(conn, json.dumps({"access_token": next(tokens), "expires_in": 3600}).encode())
            elif path == "/cookie/":
                answer(conn, headers=("Content-Type: application/json", "Set-Cookie: sticky=1; Path=/"))
            elif path == "/redirect/":
                answer(conn, b"", status="302 Found", headers=("Location: /elsewhere/",))
            elif path == "/gzip/":
                answer(conn, gzip.compress(b'{"zipped":true}'),
                       headers=("Content-Type: application/json", "Content-Encoding: gzip"))
            elif path == "/fresh-token-only/" and headers.get("authorization", "").startswith("Bearer first"):
                answer(conn, b'{"error":"expired"}', status="401 Unauthorized")
            else:
                answer(conn)
    return handler


def run_script(client_class: type[httpx.Client], caplog: pytest.LogCaptureFixture) -> tuple[object, ...]:
    """The same requests through ``client_class`` over a KeepAliveTransport; what each side saw."""
    from apinizer_pulumi.client._auth import ClientCredentialsAuth

    seen: list[str] = []
    caplog.clear()
    with server(scripted_gateway(seen)) as (url, _), client_class(
            base_url=url, transport=KeepAliveTransport(), follow_redirects=False) as http:
        login = ClientCredentialsAuth(f"{url}/apiops/auth/token", "admin", "s3cret-password")
        answers = []
        for method, path, auth in (("GET", "/cookie/", None), ("POST", "/after-cookie/", login),
                                   ("GET", "/redirect/", login), ("GET", "/gzip/", login),
                                   ("DELETE", "/fresh-token-only/", login), ("GET", "/plain/", None)):
            request = http.build_request(method, path, json={"n": 1} if method != "GET" else None)
            response = http.send(request, auth=auth)
            answers.append((
                response.status_code, response.headers.multi_items(), response.content,
                response.is_closed,
                response.request is request or response.request.url == request.url,
                response.request.headers.get("authorization"),
                [(earlier.status_code, earlier.is_closed) for earlier in response.history],
                None if response.next_request is None
                else str(response.next_request.url).replace(url, "URL"),
                response.elapsed.total_seconds() >= 0, response.http_version, response.reason_phrase,
                response.is_stream_consumed, response.num_bytes_downloaded, response.text,
                b"".join(response.iter_bytes()), response.encoding,
            ))
        cookies = dict(http.cookies)
    logged = [record.getMessage().replace(url, "URL") for record in caplog.records if record.name == "httpx"]
    return answers, seen, cookies, logged


def test_the_pooled_client_s_send_answers_as_httpx_send(caplog: pytest.LogCaptureFixture) -> None:
    from apinizer_pulumi.client._transport_pool import PooledClient

    caplog.set_level("INFO", logger="httpx")
    ours = run_script(PooledClient, caplog)
    theirs = run_script(httpx.Client, caplog)
    assert ours == theirs
    answers, seen, cookies, logged = ours
    assert [answer[0] for answer in answers] == [200, 200, 302, 200, 200, 200]
    assert answers[2][7] == "URL/elsewhere/"  # a redirect not followed names where it leads
    assert answers[3][2] == b'{"zipped":true}'
    assert answers[4][6] == [(401, True), (200, True)]  # refused, a new token (its answer), sent again
    assert sum("/apiops/auth/token" in line for line in seen) == 2
    assert cookies == {"sticky": "1"}
    assert seen[2].startswith("POST /after-cookie/") and "sticky=1" in seen[2]
    assert len(logged) == len(seen) == 9 and logged[0] == 'HTTP Request: GET URL/cookie/ "HTTP/1.1 200 OK"'


def test_a_failed_token_fetch_is_told_apart_from_the_request_behind_it_on_the_pooled_path() -> None:
    from apinizer_pulumi.client._auth import ClientCredentialsAuth, is_token_request
    from apinizer_pulumi.client._transport_pool import PooledClient

    probe = socket.socket()
    probe.bind(("127.0.0.1", 0))
    port = probe.getsockname()[1]
    probe.close()  # the token URL refuses connections
    seen: list[str] = []
    for client_class in (PooledClient, httpx.Client):
        with server(keep_answering(seen)) as (url, _), client_class(
                base_url=url, transport=KeepAliveTransport()) as http:
            login = ClientCredentialsAuth(f"http://127.0.0.1:{port}/apiops/auth/token", "admin", "pw")
            request = http.build_request("POST", "/create/", json={})
            with pytest.raises(httpx.ConnectError) as caught:
                http.send(request, auth=login)
            assert is_token_request(caught.value.request) and caught.value.request is not request
            with pytest.raises(httpx.ConnectError) as caught:
                http.send(http.build_request("POST", f"http://127.0.0.1:{port}/create/", json={}))
            assert caught.value.request.url.port == port
    assert seen == []


def test_the_pooled_client_keeps_httpx_s_own_send_for_hooks_streams_and_redirects() -> None:
    from apinizer_pulumi.client._transport_pool import PooledClient

    seen: list[str] = []
    hooked: list[str] = []
    with server(scripted_gateway(seen)) as (url, _):
        with PooledClient(base_url=url, transport=KeepAliveTransport(),
                          event_hooks={"request": [lambda request: hooked.append(request.url.path)]}) as http:
            assert http.get("/plain/").status_code == 200
        assert hooked == ["/plain/"]
        with PooledClient(base_url=url, transport=KeepAliveTransport(), follow_redirects=True) as http:
            response = http.get("/redirect/")
            assert [r.status_code for r in response.history] == [302] and response.url.path == "/elsewhere/"
            with http.stream("GET", "/gzip/") as streamed:
                assert not streamed.is_stream_consumed
                assert streamed.read() == b'{"zipped":true}'
    with PooledClient(transport=KeepAliveTransport()) as http:
        pass
    with pytest.raises(RuntimeError, match="client has been closed"):
        http.send(httpx.Request("GET", "http://127.0.0.1:9/"))


@pytest.mark.parametrize("missing", ["BoundSyncStream", "_build_redirect_request"])
def test_a_later_httpx_without_what_the_lean_send_takes_leaves_requests_on_its_own_send(
        missing: str, monkeypatch: pytest.MonkeyPatch) -> None:
    from apinizer_pulumi.client import _transport_pool
    from apinizer_pulumi.client._transport_pool import PooledClient

    own_sends: list[str] = []
    httpx_send = httpx.Client.send

    def counted(self: httpx.Client, request: httpx.Request, **kwargs: object) -> httpx.Response:
        own_sends.append(request.url.path)
        return httpx_send(self, request, **kwargs)  # type: ignore[arg-type]

    monkeypatch.setattr(httpx.Client, "send", counted)
    seen: list[str] = []
    with server(scripted_gateway(seen)) as (url, _):
        with PooledClient(base_url=url, transport=KeepAliveTransport()) as http:
            assert http.get("/plain/").status_code == 200
        assert own_sends == []  # today's httpx: the lean send
        if missing == "BoundSyncStream":
            monkeypatch.setattr(_transport_pool, "_BoundSyncStream", None)
        else:
            monkeypatch.delattr(httpx._client.BaseClient, missing)
        with PooledClient(base_url=url, transport=KeepAliveTransport()) as http:
            response = http.get("/plain/")
        assert response.status_code == 200 and response.json() == {"success": True}
        assert own_sends == ["/plain/"]


def test_the_pooled_client_is_a_pooled_client_only_on_its_own_transport(
        monkeypatch: pytest.MonkeyPatch) -> None:
    from apinizer_pulumi.client._transport_pool import PooledClient

    close_all()
    for name in ("HTTP_PROXY", "http_proxy", "ALL_PROXY", "all_proxy", "NO_PROXY", "no_proxy"):
        monkeypatch.delenv(name, raising=False)
    assert type(get_client("http://gateway.test")) is PooledClient
    monkeypatch.setenv("HTTP_PROXY", "http://proxy.test:3128")
    assert type(get_client("http://other-gateway.test")) is httpx.Client
    private = ApinizerClient("http://gateway.test", token="t" * 24, transport=KeepAliveTransport())
    assert type(private._http) is httpx.Client
    private.close()
    close_all()
