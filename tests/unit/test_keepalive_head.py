"""The pooled transport's heads against ``http.client``'s own: the answer's (``_keepalive._Response``)
and the request's (``_keepalive._request_head``).

Each answer is hand-written bytes on one end of a socket pair, read once by ``http.client``'s
``HTTPResponse`` and once by ``_Response``: status, reason, version, headers, framing, whether the
connection closes, the body, or the error and its text must be the same. The one intended
difference, informational answers other than ``100 Continue``, is tested on its own. Each request
head is written, or refused, once as ``http.client``'s ``putrequest``/``putheader``/``endheaders``
write it and once by ``_request_head``: the bytes, or the error and its text, must be the same.
"""

from __future__ import annotations

import http.client
import socket

import pytest

from apinizer_pulumi.client._keepalive import _request_head, _Response

LONG = "x" * 70000
OK = b"HTTP/1.1 200 OK\r\n"


def read_with(response_class: type[http.client.HTTPResponse], wire: bytes,
              method: str = "GET") -> tuple[object, ...]:
    """What ``response_class`` makes of ``wire`` (the server then hangs up): its reading, or its error."""
    ours, theirs = socket.socketpair()
    with ours, theirs:
        theirs.sendall(wire)
        theirs.shutdown(socket.SHUT_WR)
        response = response_class(ours, method=method)
        try:
            response.begin()
            framing = (response.chunked, response.length, response.will_close)
            head = (response.status, response.reason, response.version, response.getheaders())
            return head, framing, response.read()
        except (http.client.HTTPException, ValueError) as error:
            return type(error), str(error)
        finally:
            response.close()


ANSWERS = {
    "plain": OK + b"Content-Length: 2\r\nContent-Type: application/json\r\n\r\n{}",
    "uvicorn's": (OK + b"date: Fri, 27 Nov 2026 17:00:00 GMT\r\nserver: uvicorn\r\n"
                  b"content-length: 16\r\ncontent-type: application/json\r\n\r\n{\"success\":true}"),
    "chunked": OK + b"Transfer-Encoding: chunked\r\n\r\n2\r\n{}\r\n0\r\n\r\n",
    "chunked, a length beside": (OK + b"Content-Length: 99\r\nTransfer-Encoding: Chunked\r\n\r\n"
                                 b"2\r\n{}\r\n0\r\n\r\n"),
    "close-delimited": OK + b"Content-Type: text/plain\r\n\r\nuntil the end",
    "connection close": OK + b"Connection: close\r\nContent-Length: 2\r\n\r\n{}",
    "connection Close, other tokens": OK + b"Connection: upgrade, Close\r\nContent-Length: 0\r\n\r\n",
    "HTTP/1.0": b"HTTP/1.0 200 OK\r\nContent-Length: 2\r\n\r\n{}",
    "HTTP/1.0 keep-alive": b"HTTP/1.0 200 OK\r\nConnection: Keep-Alive\r\nContent-Length: 2\r\n\r\n{}",
    "HTTP/1.0 Keep-Alive header": b"HTTP/1.0 200 OK\r\nKeep-Alive: timeout=5\r\nContent-Length: 2\r\n\r\n{}",
    "HTTP/1.0 proxy-connection": b"HTTP/1.0 200 OK\r\nProxy-Connection: keep-alive\r\n\r\n",
    "HTTP/0.9": b"HTTP/0.9 200 OK\r\nContent-Length: 0\r\n\r\n",
    "HTTP/1.2": b"HTTP/1.2 200 OK\r\nContent-Length: 0\r\n\r\n",
    "100 Continue first": (b"HTTP/1.1 100 Continue\r\nX-A: 1\r\n\r\n"
                           b"HTTP/1.1 201 Created\r\nContent-Length: 2\r\n\r\n{}"),
    "no reason": b"HTTP/1.1 204\r\n\r\n",
    "reason with blanks": b"HTTP/1.1 404   Not  Found  \r\nContent-Length: 0\r\n\r\n",
    "204 without length": b"HTTP/1.1 204 No Content\r\n\r\n",
    "304 with a length": b"HTTP/1.1 304 Not Modified\r\nContent-Length: 10\r\n\r\n",
    "negative length": OK + b"Content-Length: -5\r\n\r\nbody",
    "length not a number": OK + b"Content-Length: five\r\n\r\nbody",
    "two lengths": OK + b"Content-Length: 2\r\nContent-Length: 4\r\n\r\n{}{}",
    "repeated headers": (OK + b"Set-Cookie: a=1\r\nSet-Cookie: b=2\r\nContent-Length: 0\r\n\r\n"),
    "blanks around a value": OK + b"X-A: \t  spaced \t \r\nX-B:\r\nContent-Length: 0\r\n\r\n",
    "latin-1 value": OK + b"X-Name: caf\xe9\r\nContent-Length: 0\r\n\r\n",
    "folded header": OK + b"X-A: one\r\n  two\r\nContent-Length: 2\r\n\r\n{}",
    "line without a colon": OK + b"X-A: 1\r\nnot a header\r\nContent-Length: 2\r\n\r\n{}",
    "blank before the colon": OK + b"Content-Length : 2\r\n\r\n{}",
    "bare LF line ends": b"HTTP/1.1 200 OK\nContent-Length: 2\nX-A: 1\n\n{}",
    "bare CR in a value": OK + b"X-A: 1\rX-B: 2\r\nContent-Length: 0\r\n\r\n",
    "empty name": OK + b": nameless\r\nContent-Length: 0\r\n\r\n",
    "From line": OK + b"From nobody\r\nContent-Length: 0\r\n\r\n",
    "end of stream in the head": OK + b"Content-Length: 2\r\n",
    "100 headers": (OK + b"".join(b"X-%d: %d\r\n" % (n, n) for n in range(99))
                    + b"Content-Length: 0\r\n\r\n"),
    # errors
    "101 headers": (OK + b"".join(b"X-%d: %d\r\n" % (n, n) for n in range(101)) + b"\r\n"),
    "header line too long": OK + b"X-A: " + LONG.encode() + b"\r\n\r\n",
    "status line too long": b"HTTP/1.1 200 " + LONG.encode() + b"\r\n\r\n",
    "nothing": b"",
    "not HTTP": b"ICY 200 OK\r\n\r\n",
    "status not a number": b"HTTP/1.1 abc OK\r\n\r\n",
    "status below 100": b"HTTP/1.1 099 Odd\r\n\r\n",
    "status above 999": b"HTTP/1.1 1000 Odd\r\n\r\n",
    "HTTP/2.0": b"HTTP/2.0 200 OK\r\n\r\n",
    "a short chunked body": OK + b"Transfer-Encoding: chunked\r\n\r\n5\r\nab",
    "a bad chunk size": OK + b"Transfer-Encoding: chunked\r\n\r\nzz\r\nab\r\n0\r\n\r\n",
    "a short body": OK + b"Content-Length: 10\r\n\r\nabc",
}


@pytest.mark.parametrize("wire", ANSWERS.values(), ids=ANSWERS.keys())
def test_an_answer_reads_as_http_client_reads_it(wire: bytes) -> None:
    assert read_with(_Response, wire) == read_with(http.client.HTTPResponse, wire)


@pytest.mark.parametrize("wire", [ANSWERS["plain"], ANSWERS["chunked"], ANSWERS["close-delimited"]])
def test_an_answer_to_head_has_no_body_as_http_client_reads_it(wire: bytes) -> None:
    assert read_with(_Response, wire, "HEAD") == read_with(http.client.HTTPResponse, wire, "HEAD")


def test_raw_headers_are_the_headers_as_bytes() -> None:
    for wire in ANSWERS.values():
        ours, theirs = socket.socketpair()
        with ours, theirs:
            theirs.sendall(wire)
            theirs.shutdown(socket.SHUT_WR)
            response = _Response(ours, method="GET")
            try:
                response.begin()
            except (http.client.HTTPException, ValueError):
                continue
            headers = response.getheaders()
            expected = [(name.encode("latin-1"), value.encode("latin-1")) for name, value in headers]
            assert response.raw_headers == expected, wire
            response.close()


def test_informational_answers_before_the_final_one_are_skipped() -> None:
    wire = (b"HTTP/1.1 103 Early Hints\r\nLink: </a.css>; rel=preload\r\n\r\n"
            b"HTTP/1.1 102 Processing\r\n\r\n"
            b"HTTP/1.1 200 OK\r\nContent-Length: 2\r\n\r\n{}")
    head, framing, body = read_with(_Response, wire)
    assert head == (200, "OK", 11, [("Content-Length", "2")])
    assert framing == (False, 2, False)
    assert body == b"{}"


def test_switching_protocols_is_final_and_closes_the_connection() -> None:
    head, framing, body = read_with(_Response, b"HTTP/1.1 101 Switching Protocols\r\nUpgrade: x\r\n\r\nraw")
    assert head == (101, "Switching Protocols", 11, [("Upgrade", "x")])
    assert framing == (False, 0, True)
    assert body == b""


# -- the request's head, as http.client writes it ------------------------------------------------

class Written:
    """A socket that keeps what is sent on it."""

    def __init__(self) -> None:
        self.data = b""

    def sendall(self, data: bytes) -> None:
        self.data += bytes(data)


def written_by_http_client(method: str, target: str, headers: list[tuple[bytes, bytes]],
                           body: bytes) -> object:
    """What ``http.client``'s putrequest/putheader/endheaders send, as the transport used them before."""
    connection = http.client.HTTPConnection("gateway.test")
    sink = Written()
    connection.sock = sink  # type: ignore[assignment]
    try:
        connection.putrequest(method, target, skip_host=True, skip_accept_encoding=True)
        for name, value in headers:
            connection.putheader(name.decode("latin-1"), value.decode("latin-1"))
        connection.endheaders(body or None)
    except (ValueError, http.client.HTTPException) as error:
        return type(error), str(error)
    return sink.data


def written_by_us(method: str, target: str, headers: list[tuple[bytes, bytes]], body: bytes) -> object:
    try:
        head = _request_head(http.client.HTTPConnection("gateway.test"), method, target, headers)
    except (ValueError, http.client.HTTPException) as error:
        return type(error), str(error)
    return b"\r\n".join([*head, b"", body])


HOST = (b"Host", b"127.0.0.1:8080")
REQUESTS = {
    "a delete": ("DELETE", "/apiops/projects/Demo/apiProxies/PetStore/endpoints/",
                 [HOST, (b"Accept", b"application/json"), (b"Content-Type", b"application/json"),
                  (b"Content-Length", b"35"), (b"Authorization", b"Bearer abc.def")],
                 b'{"name":"/pets","httpMethod":"GET"}'),
    "a get without a body": ("GET", "/apiops/projects/Demo/?q=1&r=%20", [HOST, (b"Accept", b"*/*")], b""),
    "repeated and latin-1 headers": ("POST", "/x", [HOST, (b"X-A", b"1"), (b"X-A", b"caf\xe9"),
                                                    (b"Content-Length", b"2")], b"{}"),
    "a folded value": ("GET", "/", [HOST, (b"X-A", b"one\r\n two")], b""),
    "no header": ("GET", "/", [], b""),
    "a control character in the method": ("GE\nT", "/", [HOST], b""),
    "a blank in the target": ("GET", "/a b", [HOST], b""),
    "a control character in the target": ("GET", "/a\x7f", [HOST], b""),
    "a colon in a header name": ("GET", "/", [(b"X:A", b"1")], b""),
    "a blank in a header name": ("GET", "/", [(b"X A", b"1")], b""),
    "an empty header name": ("GET", "/", [(b"", b"1")], b""),
    "a non-ASCII header name": ("GET", "/", [(b"X-\xe9", b"1")], b""),
    "a line break in a header value": ("GET", "/", [(b"X-A", b"1\r\nX-Injected: 2")], b""),
    "a bare CR in a header value": ("GET", "/", [(b"X-A", b"1\r2")], b""),
    "a bare LF in a header value": ("GET", "/", [(b"X-A", b"1\n2")], b""),
}


@pytest.mark.parametrize(("method", "target", "headers", "body"), REQUESTS.values(), ids=REQUESTS.keys())
def test_a_request_head_is_written_and_refused_as_http_client_writes_and_refuses_it(
        method: str, target: str, headers: list[tuple[bytes, bytes]], body: bytes) -> None:
    ours = written_by_us(method, target, headers, body)
    assert ours == written_by_http_client(method, target, headers, body)
