"""``KeepAliveTransport``: httpx's transport interface over the standard library's ``http.client``.

A Pulumi run sends one request per create or delete, from up to ``--parallel`` provider threads
at once, and every request's CPU is spent in the same process, under one interpreter lock, as
the engine's other calls. httpx's default transport (httpcore and h11) costs about 0.5 ms of
CPU a request on loopback, ``http.client`` about 0.15 ms (docs/performance.md, "The engine's
floor"); httpcore's pool also serializes 64 threads on one lock. So the pooled client sends
through this transport: httpx stays the client (requests, auth flows, responses, errors and
``httpx.MockTransport`` in tests are unchanged), only the wire is ``http.client``'s: its
connections, and its checks, limits and errors for what is written and read.

What it keeps of httpcore's behaviour, because the retry rules depend on it
(:mod:`._retry`): a failure before any byte of the request left is an ``httpx.ConnectError``
(or ``ConnectTimeout``/``PoolTimeout``), safe to repeat for any method; a failure after it may
have arrived is a ``ReadError``, ``WriteError``, ``RemoteProtocolError`` or timeout, repeated only
for idempotent requests. A kept-alive connection the server has closed meanwhile is found before
it is used (its socket reads as ready: end of stream) and replaced, so that an idle expiry on the
server never turns a create into an ambiguous failure. HTTP/1.1 only, as httpx's default.

A request's head is written here (:func:`_request_head`, with ``http.client``'s checks) and
leaves with its body in one write. An answer's head is read by :class:`_Response`,
``http.client``'s response with its own header reading: ``http.client`` hands every head to
``email.parser``, the largest single cost of a request here. The limits, the errors and the
body's framing stay ``http.client``'s. docs/performance.md, "The request floor: the client's wire
and pipeline", has what each step saves.

Not used where it would change what httpx does (the client then keeps httpx's own transport):
when a proxy is configured in the environment (``HTTP_PROXY`` and the like, which httpx honours
only with its own transport), or when a request's body has no known length (a streamed upload).
"""

from __future__ import annotations

import email.parser
import http.client
import re
import select
import socket
import ssl
import threading
import time
import urllib.request

import httpx

__all__ = ["KeepAliveTransport", "environment_proxy_for"]

_Origin = tuple[str, str, int]


#: ``http.client``'s limits on an answer's head: the length of a line, the number of header lines.
_MAX_LINE = 65536
_MAX_HEADERS = 100
#: A header line ``email.parser`` reads as ``(name, value)`` and nothing more: a name of the
#: characters it accepts, the value's leading blanks dropped, ending CRLF with no other CR. Any
#: other line (folded, without a colon, a bare CR or LF) is left to ``email.parser`` itself.
_PLAIN_HEADER = re.compile(rb"([\x21-\x39\x3b-\x7e]+):[ \t]*([^\r\n]*)\r\n")
_END_OF_HEAD = (b"\r\n", b"\n", b"")
#: ``http.client``'s checks of a header line it sends (``putheader``).
_legal_header_name = re.compile(rb"[^:\s][^:\r\n]*").fullmatch
_illegal_header_value = re.compile(rb"\n(?![ \t])|\r(?![ \t\n])").search
_SWITCHING_PROTOCOLS = 101


#: Whether ``httpx.Headers`` keeps its items as httpx 0.28 does: a list of (name, lowered name, value)
#: byte triples, which ``Headers(headers)`` copies as it is. A later httpx that keeps them otherwise
#: is given raw pairs, which it normalizes itself.
HEADER_TRIPLES = isinstance(getattr(httpx.Headers(), "_list", None), list)


def made_headers(items: list[tuple[bytes, bytes, bytes]]) -> httpx.Headers:
    """``httpx.Headers`` of items already normalized, (name, lowered name, value): what httpx makes of
    their raw pairs, without normalizing each name and value once more for every request
    (``_transport_pool.build_request``: 3 µs of the 9 it took, docs/performance.md). An answer's
    headers are still normalized by httpx: taking them so saved 1 µs, inside the noise."""
    headers = httpx.Headers()
    headers._list = items
    return headers


def _head_lines(fp: object) -> list[bytes]:
    """The header lines up to and with the blank line, as ``http.client._read_headers`` reads them."""
    readline = fp.readline  # type: ignore[attr-defined]
    lines: list[bytes] = []
    while True:
        line: bytes = readline(_MAX_LINE + 1)
        if len(line) > _MAX_LINE:
            raise http.client.LineTooLong("header line")
        lines.append(line)
        if len(lines) > _MAX_HEADERS:
            raise http.client.HTTPException(f"got more than {_MAX_HEADERS} headers")
        if line in _END_OF_HEAD:
            return lines


def _header_pairs(lines: list[bytes]) -> list[tuple[bytes, bytes]] | None:
    """The ``(name, value)`` of each line, or None when one is not a plain header line."""
    pairs: list[tuple[bytes, bytes]] = []
    match = _PLAIN_HEADER.fullmatch
    for line in lines[:-1]:
        plain = match(line)
        if plain is None:
            return None
        pairs.append((plain[1], plain[2]))
    return pairs


class _Response(http.client.HTTPResponse):
    """``http.client``'s response, its head read without ``email.parser`` where that changes nothing.

    ``begin`` is ``http.client``'s, line for line, but for two steps. The header lines are read
    with the same limits and errors; when every one is a plain ``Name: value`` line, the headers
    are made from them directly, otherwise ``email.parser`` parses them as ``http.client`` does,
    so either way ``headers`` holds what ``http.client`` would hold. And every informational
    (1xx) answer before the final one is skipped, as httpx's own transport skips them, where
    ``http.client`` skips only ``100 Continue`` (a ``101 Switching Protocols`` is final, and the
    connection, no longer HTTP's, is closed after it). ``raw_headers`` keeps the pairs as bytes.
    """

    raw_headers: list[tuple[bytes, bytes]]

    def begin(self) -> None:
        if self.headers is not None:
            return
        while True:
            version, status, reason = self._read_status()
            if not 100 <= status < 200 or status == _SWITCHING_PROTOCOLS:
                break
            _head_lines(self.fp)
        self.code = self.status = status
        self.reason = reason.strip()
        if version in ("HTTP/1.0", "HTTP/0.9"):
            self.version = 10
        elif version.startswith("HTTP/1."):
            self.version = 11
        else:
            raise http.client.UnknownProtocol(version)

        lines = _head_lines(self.fp)
        pairs = _header_pairs(lines)
        headers: http.client.HTTPMessage
        if pairs is None:
            parser = email.parser.Parser(_class=http.client.HTTPMessage)
            headers = parser.parsestr(b"".join(lines).decode("iso-8859-1"))
            pairs = [(name.encode("latin-1"), value.encode("latin-1")) for name, value in headers.items()]
        else:
            headers = http.client.HTTPMessage()
            for name, value in pairs:
                headers.set_raw(name.decode("latin-1"), value.decode("latin-1"))
        self.headers = self.msg = headers
        self.raw_headers = pairs

        encoding = headers.get("transfer-encoding")
        self.chunked = bool(encoding and encoding.lower() == "chunked")
        if self.chunked:
            self.chunk_left = None
        self.will_close = self._check_close() or status == _SWITCHING_PROTOCOLS
        self.length = None
        length = headers.get("content-length")
        if length and not self.chunked:
            try:
                self.length = int(length)
            except ValueError:
                self.length = None
            else:
                if self.length < 0:  # ignore nonsensical negative lengths
                    self.length = None
        if status in (204, 304) or 100 <= status < 200 or self._method == "HEAD":
            self.length = 0
        if not self.will_close and not self.chunked and self.length is None:
            self.will_close = True


def _request_head(connection: http.client.HTTPConnection, method: str, target: str,
                  headers: list[tuple[bytes, bytes]]) -> list[bytes]:
    """The lines ``putrequest``, ``putheader`` and ``endheaders`` would write, checked as they check
    them (``http.client``'s own checks: control characters in the method or the target, a header
    name or value that would break the head), with the same errors."""
    connection._validate_method(method)  # type: ignore[attr-defined]
    connection._validate_path(target)  # type: ignore[attr-defined]
    lines = [f"{method} {target} HTTP/1.1".encode("ascii")]
    for name, value in headers:
        if not name.isascii():
            name.decode("latin-1").encode("ascii")  # http.client's UnicodeEncodeError
        if not _legal_header_name(name):
            raise ValueError(f"Invalid header name {name!r}")
        if _illegal_header_value(value):
            raise ValueError(f"Invalid header value {value!r}")
        lines.append(name + b": " + value)
    return lines


class _Connection:
    __slots__ = ("connection", "idle_since")

    def __init__(self, connection: http.client.HTTPConnection) -> None:
        self.connection = connection
        self.idle_since = time.monotonic()


def environment_proxy_for(url: str) -> bool:
    """Whether the environment names a proxy that httpx would use for ``url``."""
    proxies = urllib.request.getproxies()
    parsed = httpx.URL(url)
    if not (proxies.get(parsed.scheme) or proxies.get("all")):
        return False
    return not urllib.request.proxy_bypass(parsed.host)


def _timeouts(request: httpx.Request) -> tuple[float | None, float | None, float | None, float | None]:
    given = request.extensions.get("timeout", {})
    return given.get("connect"), given.get("read"), given.get("write"), given.get("pool")


def _streamed(request: httpx.Request) -> bool:
    """A body of unknown length (httpx sends it chunked): httpx's own transport sends those."""
    # The raw list: ``in request.headers`` first works out the headers' text encoding, every request.
    return any(name.lower() == b"transfer-encoding" for name, _ in request.headers.raw)


class KeepAliveTransport(httpx.BaseTransport):
    """Kept-alive ``http.client`` connections, at most ``max_connections`` per transport."""

    #: What reads an answer (``http.client``'s ``HTTPResponse`` would do the same, at more CPU).
    response_class: type[http.client.HTTPResponse] = _Response

    def __init__(self, *, max_connections: int = 20, keepalive_expiry: float = 30.0,
                 ssl_context: ssl.SSLContext | None = None) -> None:
        self._max_connections = max_connections
        self._keepalive_expiry = keepalive_expiry
        self._ssl_context = ssl_context
        self._slots = threading.BoundedSemaphore(max_connections)
        self._lock = threading.Lock()
        self._idle: dict[_Origin, list[_Connection]] = {}
        self._closed = False
        self._fallback: httpx.HTTPTransport | None = None

    # -- the pool -------------------------------------------------------------------------

    def _context(self) -> ssl.SSLContext:
        if self._ssl_context is None:
            self._ssl_context = httpx.create_ssl_context()
        return self._ssl_context

    def _take(self, origin: _Origin) -> http.client.HTTPConnection | None:
        """A kept-alive connection to ``origin`` that is still open, or None."""
        now = time.monotonic()
        while True:
            with self._lock:
                idle = self._idle.get(origin)
                if not idle:
                    return None
                kept = idle.pop()
            sock = kept.connection.sock
            if (sock is not None and now - kept.idle_since < self._keepalive_expiry
                    and not _readable(sock)):
                return kept.connection
            kept.connection.close()  # expired, or closed by the server while idle

    def _give_back(self, origin: _Origin, connection: http.client.HTTPConnection) -> None:
        with self._lock:
            if not self._closed and connection.sock is not None:
                self._idle.setdefault(origin, []).append(_Connection(connection))
                return
        connection.close()

    def _connect(self, origin: _Origin, timeout: float | None) -> http.client.HTTPConnection:
        scheme, host, port = origin
        connection: http.client.HTTPConnection
        if scheme == "https":
            connection = http.client.HTTPSConnection(host, port, timeout=timeout, context=self._context())
        else:
            connection = http.client.HTTPConnection(host, port, timeout=timeout)
        try:
            connection.connect()
        except TimeoutError as error:
            connection.close()
            raise httpx.ConnectTimeout(str(error) or "timed out while connecting") from error
        except OSError as error:  # ssl.SSLError included
            connection.close()
            raise httpx.ConnectError(str(error)) from error
        return connection

    # -- one request ----------------------------------------------------------------------

    def handle_request(self, request: httpx.Request) -> httpx.Response:
        return self.send_whole(request)[0]

    def send_whole(self, request: httpx.Request) -> tuple[httpx.Response, bytes | None]:
        """:meth:`handle_request`'s answer, and its body when the answer is what reading it gives:
        read whole and without a content coding (None otherwise, and from httpx's own transport)."""
        if _streamed(request):
            return self._httpx_transport().handle_request(request), None
        if self._closed:
            raise httpx.ConnectError("the transport is closed")
        connect, read, write, pool = _timeouts(request)
        if not self._slots.acquire(timeout=-1 if pool is None else pool):
            raise httpx.PoolTimeout(f"no connection free within {pool} s")
        try:
            url = request.url
            origin = (url.scheme, url.host, url.port or (443 if url.scheme == "https" else 80))
            connection = self._take(origin) or self._connect(origin, connect)
            try:
                response, will_close, whole = self._exchange(connection, request, write, read)
            except BaseException:
                connection.close()
                raise
            if will_close:
                connection.close()
            else:
                self._give_back(origin, connection)
        finally:
            self._slots.release()
        return response, whole

    def _exchange(self, connection: http.client.HTTPConnection, request: httpx.Request, write: float | None,
                  read: float | None) -> tuple[httpx.Response, bool, bytes | None]:
        """Send ``request`` on ``connection``; its answer, whether the server closes the connection,
        and the body when it has no content coding.

        The head is written as ``http.client`` writes it, and with the body in one ``send``: two
        writes would be two segments, which the gateway reads, and its event loop wakes for,
        twice (a delete's body is its ``{name, httpMethod}``). The answer is read by
        :attr:`response_class`.
        """
        body = request.read()
        sock = connection.sock
        assert sock is not None
        method = request.method
        head = _request_head(connection, method, request.url.raw_path.decode("ascii"), request.headers.raw)
        head.extend((b"", body))
        try:
            sock.settimeout(write)
            sock.sendall(b"\r\n".join(head))
        except TimeoutError as error:
            raise httpx.WriteTimeout(str(error) or "timed out while sending") from error
        except OSError as error:
            raise httpx.WriteError(str(error)) from error
        try:
            sock.settimeout(read)
            answer = self.response_class(sock, method=method)
            try:
                answer.begin()
                content = answer.read()
            finally:
                answer.close()
        except TimeoutError as error:
            raise httpx.ReadTimeout(str(error) or "timed out while reading") from error
        except http.client.RemoteDisconnected as error:
            raise httpx.RemoteProtocolError("Server disconnected without sending a response.") from error
        except (http.client.HTTPException, ValueError) as error:
            raise httpx.RemoteProtocolError(f"{type(error).__name__}: {error}") from error
        except OSError as error:
            raise httpx.ReadError(str(error)) from error
        # The body is whole: its chunks were joined, so the answer no longer says how it came.
        headers = []
        plain = True
        for name, value in _raw_headers(answer):
            lowered = name.lower()
            if lowered != b"transfer-encoding":
                headers.append((name, value))
                plain = plain and lowered != b"content-encoding"
        response = httpx.Response(
            answer.status,
            headers=headers,
            stream=httpx.ByteStream(content),
            request=request,
            extensions={"http_version": b"HTTP/1.1",
                        "reason_phrase": answer.reason.encode("ascii", "replace")},
        )
        return response, bool(answer.will_close), content if plain else None

    def _httpx_transport(self) -> httpx.HTTPTransport:
        with self._lock:
            if self._fallback is None:
                self._fallback = httpx.HTTPTransport(
                    limits=httpx.Limits(max_connections=self._max_connections,
                                        max_keepalive_connections=self._max_connections,
                                        keepalive_expiry=self._keepalive_expiry))
            return self._fallback

    def idle_connections(self) -> int:
        """Connections kept alive now (for tests and diagnostics)."""
        with self._lock:
            return sum(len(idle) for idle in self._idle.values())

    def close(self) -> None:
        with self._lock:
            self._closed = True
            idle = [kept for kept_list in self._idle.values() for kept in kept_list]
            self._idle.clear()
            fallback, self._fallback = self._fallback, None
        for kept in idle:
            kept.connection.close()
        if fallback is not None:
            fallback.close()


def _raw_headers(answer: http.client.HTTPResponse) -> list[tuple[bytes, bytes]]:
    if isinstance(answer, _Response):
        return answer.raw_headers
    return [(name.encode("latin-1"), value.encode("latin-1")) for name, value in answer.getheaders()]


def _readable(sock: socket.socket) -> bool:
    """Whether an idle connection's socket has something to read: the server closed it (or broke
    the protocol by sending unasked); either way it must not carry a request."""
    try:
        if hasattr(select, "poll"):  # select.select fails for descriptors above 1023
            poller = select.poll()
            poller.register(sock, select.POLLIN)
            return bool(poller.poll(0))
        ready, _, _ = select.select([sock], [], [], 0)
    except (OSError, ValueError):
        return True
    return bool(ready)
