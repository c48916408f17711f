"""``KeepAliveTransport``: httpx's transport interface over the standard library's ``http.client``.

A Pulumi run sends one request per create or delete, from up to ``--parallel`` provider threads
at once, and every request's CPU is spent in the same process, under one interpreter lock, as
the engine's other calls. httpx's default transport (httpcore and h11) costs about 0.5 ms of
CPU a request on loopback, ``http.client`` about 0.15 ms (docs/performance.md, "The engine's
floor"); httpcore's pool also serializes 64 threads on one lock. So the pooled client sends
through this transport: httpx stays the client (requests, auth flows, responses, errors and
``httpx.MockTransport`` in tests are unchanged), only the wire is ``http.client``'s.

What it keeps of httpcore's behaviour, because the retry rules depend on it
(:mod:`._retry`): a failure before any byte of the request left is an ``httpx.ConnectError``
(or ``ConnectTimeout``/``PoolTimeout``), safe to repeat for any method; a failure after it may
have arrived is a ``ReadError``, ``WriteError``, ``RemoteProtocolError`` or timeout, repeated only
for idempotent requests. A kept-alive connection the server has closed meanwhile is found before
it is used (its socket reads as ready: end of stream) and replaced, so that an idle expiry on the
server never turns a create into an ambiguous failure. HTTP/1.1 only, as httpx's default.

Not used where it would change what httpx does (the client then keeps httpx's own transport):
when a proxy is configured in the environment (``HTTP_PROXY`` and the like, which httpx honours
only with its own transport), or when a request's body has no known length (a streamed upload).
"""

from __future__ import annotations

import http.client
import select
import socket
import ssl
import threading
import time
import urllib.request

import httpx

__all__ = ["KeepAliveTransport", "environment_proxy_for"]

_Origin = tuple[str, str, int]


class _OneWrite(http.client.HTTPConnection):
    """``http.client``'s connection, writing a request's head and its body in one ``send``.

    ``http.client`` sends the head, then the body: two writes, two segments, which the gateway reads,
    and its event loop wakes for, twice (a delete's body is its ``{name, httpMethod}``). Here a
    bytes body joins the head's last line, as ``http.client`` itself joins the head's lines. Any
    other body, or a later ``http.client`` without the head's buffer, is sent as before.
    """

    def _send_output(self, message_body: object = None, encode_chunked: bool = False) -> None:
        head: object = getattr(self, "_buffer", None)
        whole = type(message_body) is bytes and message_body and not encode_chunked
        if not whole or not isinstance(head, list):
            super()._send_output(message_body, encode_chunked=encode_chunked)  # type: ignore[misc]
            return
        head.extend((b"", message_body))
        message = b"\r\n".join(head)
        del head[:]
        self.send(message)


class _OneWriteTls(_OneWrite, http.client.HTTPSConnection):
    """The same over TLS."""


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
            connection = _OneWriteTls(host, port, timeout=timeout, context=self._context())
        else:
            connection = _OneWrite(host, port, timeout=timeout)
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
        if _streamed(request):
            return self._httpx_transport().handle_request(request)
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
                response, will_close = self._exchange(connection, request, write, read)
            except BaseException:
                connection.close()
                raise
            if will_close:
                connection.close()
            else:
                self._give_back(origin, connection)
        finally:
            self._slots.release()
        return response

    @staticmethod
    def _exchange(connection: http.client.HTTPConnection, request: httpx.Request,
                  write: float | None, read: float | None) -> tuple[httpx.Response, bool]:
        """Send ``request`` on ``connection``; its answer, and whether the server closes the connection."""
        body = request.read()
        sock = connection.sock
        assert sock is not None
        target = request.url.raw_path.decode("ascii")
        try:
            sock.settimeout(write)
            connection.putrequest(request.method, target, skip_host=True, skip_accept_encoding=True)
            for name, value in request.headers.raw:
                connection.putheader(name.decode("latin-1"), value.decode("latin-1"))
            # Head and body in one write (_OneWrite).
            connection.endheaders(body or None)
        except TimeoutError as error:
            raise httpx.WriteTimeout(str(error) or "timed out while sending") from error
        except OSError as error:
            raise httpx.WriteError(str(error)) from error
        try:
            sock.settimeout(read)
            answer = connection.getresponse()
            content = answer.read()
        except TimeoutError as error:
            raise httpx.ReadTimeout(str(error) or "timed out while reading") from error
        except http.client.RemoteDisconnected as error:
            raise httpx.RemoteProtocolError("Server disconnected without sending a response.") from error
        except (http.client.HTTPException, ValueError) as error:
            raise httpx.RemoteProtocolError(f"{type(error).__name__}: {error}") from error
        except OSError as error:
            raise httpx.ReadError(str(error)) from error
        headers = [(name.encode("latin-1"), value.encode("latin-1")) for name, value in answer.getheaders()
                   if name.lower() != "transfer-encoding"]  # the body is whole: its chunks were joined
        response = httpx.Response(
            answer.status,
            headers=headers,
            stream=httpx.ByteStream(content),
            request=request,
            extensions={"http_version": b"HTTP/1.1",
                        "reason_phrase": answer.reason.encode("ascii", "replace")},
        )
        return response, bool(answer.will_close)

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
