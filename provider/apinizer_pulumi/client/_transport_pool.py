"""One keep-alive ``httpx.Client`` per process and base URL, shared by clients and threads.

``ApinizerClient`` instances pointing at the same gateway reuse one connection pool, so a
Pulumi run that builds a client per resource operation still talks over warm connections.
Credentials are not part of the pooled client: each request carries its own ``auth=``, and the
timeout travels with each request too, so the pool is keyed by base URL alone.

Pooled clients are never closed by ``ApinizerClient.close()``: another client, in another
thread, may be in the middle of a request on it. Idle connections are dropped by httpx after
its keep-alive expiry; :func:`close_all` (also run at interpreter exit) closes everything.
"""

from __future__ import annotations

import atexit
import functools
import logging
import threading
import time
from typing import TYPE_CHECKING, Any

import httpx
import httpx._client as _httpx_client

from . import _keepalive
from ._keepalive import KeepAliveTransport, environment_proxy_for, made_headers

if TYPE_CHECKING:
    from httpx._client import UseClientDefault

__all__ = ["PooledClient", "SetCookiesOnly", "build_request", "close_all", "get_client", "lean_cookies",
           "pool_size"]

_httpx_logger = logging.getLogger("httpx")

#: Connections kept per gateway: as many as the provider server runs calls at once
#: (``resources._server.WORKERS``), so that none of the engine's creates and deletes waits for a
#: connection (at 20, 44 of 64 deletes waited on the pool's semaphore, each release waking one:
#: 0.54 against 0.62 ms of the provider's CPU a delete, docs/performance.md). They are opened only
#: as calls need them. As many kept alive as open: with more threads than connections, httpcore's
#: sync pool (1.0.9) can close a "surplus" keep-alive connection it has already handed to a
#: waiting request, whose read then fails with EBADF (encode/httpcore#1110; seen destroying 2,000
#: endpoints at --parallel 64). One origin per pool and no surplus leave it nothing to close.
_MAX_CONNECTIONS = 64
_KEEPALIVE_EXPIRY = 30.0
_LIMITS = httpx.Limits(max_connections=_MAX_CONNECTIONS, max_keepalive_connections=_MAX_CONNECTIONS,
                       keepalive_expiry=_KEEPALIVE_EXPIRY)

_lock = threading.Lock()
_clients: dict[str, httpx.Client] = {}


def _key(base_url: str) -> str:
    return str(httpx.URL(base_url.rstrip("/")))


#: ``base_url`` as given -> its pooled client: every request looks its client up, and parsing the
#: URL and taking the lock each time cost more than the rest of building the request.
_by_given: dict[str, httpx.Client] = {}


#: What :meth:`PooledClient.send` takes of httpx beyond its public interface: the client's own steps
#: and state (``_LEAN_CLIENT_NAMES``, looked for on each new client) and two of its module's names.
#: A later httpx without one of them leaves every request on ``httpx.Client.send``, slower but the same.
_LEAN_CLIENT_NAMES = ("_transport", "_mounts", "_event_hooks", "_state", "_set_timeout",
                      "_build_request_auth", "_build_redirect_request", "_default_encoding", "max_redirects",
                      "cookies")
_BoundSyncStream: Any = getattr(_httpx_client, "BoundSyncStream", None)
_ClientState: Any = getattr(_httpx_client, "ClientState", None)


def get_client(base_url: str) -> httpx.Client:
    """The shared client for ``base_url``, created on first use; the same object in every thread."""
    client = _by_given.get(base_url)
    if client is not None and not client.is_closed:
        return client
    key = _key(base_url)
    with _lock:
        client = _clients.get(key)
        if client is None or client.is_closed:
            # The standard library's connections (._keepalive), unless the environment names a proxy:
            # httpx honours those only with its own transport.
            if environment_proxy_for(key):
                client = httpx.Client(base_url=key, limits=_LIMITS, follow_redirects=False)
            else:
                transport = KeepAliveTransport(max_connections=_MAX_CONNECTIONS,
                                               keepalive_expiry=_KEEPALIVE_EXPIRY)
                client = PooledClient(base_url=key, limits=_LIMITS, follow_redirects=False,
                                      transport=transport)
            client = lean_cookies(client)
            _clients[key] = client
        _by_given[base_url] = client
        return client


class PooledClient(httpx.Client):
    """The pooled client over :class:`KeepAliveTransport`, whose ``send`` takes httpx's steps minus
    those it never needs.

    ``httpx.Client.send`` runs a request through a general pipeline: the auth flow, a redirect
    loop with event hooks, the transport chosen among the mounted ones, then cookies, the
    response's stream bound to its timing and a log line. This client mounts nothing, has no
    hooks and follows no redirect, so its ``send`` calls the transport directly and keeps the
    rest as httpx does it: the same auth flow generator (the 401 re-authentication and the token
    fetch are unchanged), ``TransportError.request`` naming the request that failed, history,
    ``next_request`` on a redirect, cookies, ``elapsed``, the ``httpx`` logger's line, the body read
    and decoded (a body without a content coding is taken as the transport read it,
    :func:`_read_whole`): 24 µs of CPU less a request, of 193 (``benchmarks/request_path_cpu.py``,
    docs/performance.md). Any other use (a streamed answer, redirects, hooks or mounts added
    later) goes through ``httpx.Client.send`` itself.
    """

    def __init__(self, *args: Any, **kwargs: Any) -> None:
        super().__init__(*args, **kwargs)
        self._lean = (_BoundSyncStream is not None and _ClientState is not None
                      and all(hasattr(self, name) for name in _LEAN_CLIENT_NAMES))

    def send(self, request: httpx.Request, *, stream: bool = False,
             auth: httpx._types.AuthTypes | UseClientDefault | None = httpx.USE_CLIENT_DEFAULT,
             follow_redirects: bool | UseClientDefault = httpx.USE_CLIENT_DEFAULT) -> httpx.Response:
        transport = self._transport
        if (not self._lean or stream or follow_redirects is not httpx.USE_CLIENT_DEFAULT
                or self.follow_redirects or self._mounts
                or self._event_hooks["request"] or self._event_hooks["response"]
                or self._state is _ClientState.CLOSED or type(transport) is not KeepAliveTransport):
            return super().send(request, stream=stream, auth=auth, follow_redirects=follow_redirects)
        self._state = _ClientState.OPENED
        self._set_timeout(request)
        flow = self._build_request_auth(request, auth).sync_auth_flow(request)
        history: list[httpx.Response] = []
        try:
            request = next(flow)
            while True:
                response = self._send_single(transport, request, history)
                try:
                    try:
                        following = flow.send(response)
                    except StopIteration:
                        break
                    response.history = list(history)
                    response.read()
                    request = following
                    history.append(response)
                except BaseException:
                    response.close()
                    raise
        finally:
            flow.close()
        try:
            response.read()
        except BaseException:
            response.close()
            raise
        return response

    def _send_single(self, transport: KeepAliveTransport, request: httpx.Request,
                     history: list[httpx.Response]) -> httpx.Response:
        """``_send_handling_redirects`` and ``_send_single_request`` of httpx, without redirects or hooks."""
        if len(history) > self.max_redirects:
            raise httpx.TooManyRedirects("Exceeded maximum allowed redirects.", request=request)
        start = time.perf_counter()
        try:
            response, whole = transport.send_whole(request)
        except httpx.RequestError as error:
            error.request = request  # as httpx's request_context: the retries tell a token fetch by it
            raise
        response.request = request
        response.stream = _BoundSyncStream(response.stream, response=response, start=start)
        if whole is not None:
            _read_whole(response, whole)
        self.cookies.extract_cookies(response)
        response.default_encoding = self._default_encoding
        if _httpx_logger.isEnabledFor(logging.INFO):
            _httpx_logger.info('HTTP Request: %s %s "%s %d %s"', request.method, request.url,
                               response.http_version, response.status_code, response.reason_phrase)
        try:
            response.history = list(history)
            if response.has_redirect_location:
                response.next_request = self._build_redirect_request(request, response)
        except BaseException:
            response.close()
            raise
        return response


def _read_whole(response: httpx.Response, body: bytes) -> None:
    """``response.read()`` for a ``body`` the transport read whole and that has no content coding:
    what httpx's read leaves (the content, the stream consumed and closed, ``elapsed`` set), without
    its decoder, chunkers and contexts (``benchmarks/request_steps_cpu.py``: with the response's
    making, 6.5 µs of CPU where ``read()`` takes 16.9)."""
    response._content = body
    response.is_stream_consumed = True
    response._num_bytes_downloaded = len(body)
    response.close()


class SetCookiesOnly(httpx.Cookies):
    """A client's cookies that look at a response only when it sets one.

    httpx hands every response to ``http.cookiejar`` (a urllib request and response made for it,
    then the jar's policy), whether or not it sets a cookie: a sixth of the provider's CPU per
    delete (docs/performance.md). The management API sets none; a cookie that something in front
    of it sets (a load balancer's sticky session) is still kept and sent back as before.
    """

    def extract_cookies(self, response: httpx.Response) -> None:
        # The raw list: ``in response.headers`` would first work out the headers' text encoding.
        if any(name.lower() == b"set-cookie" for name, _ in response.headers.raw):
            super().extract_cookies(response)


def lean_cookies(client: httpx.Client) -> httpx.Client:
    """``client``, its cookies made :class:`SetCookiesOnly` (where httpx keeps them as this one does)."""
    jar = getattr(client, "_cookies", None)
    if type(jar) is httpx.Cookies:
        client._cookies = SetCookiesOnly(jar)
    return client


@functools.lru_cache(maxsize=64)
def _defaults(client: httpx.Client, headers: tuple[tuple[str, str], ...]) -> tuple[
        tuple[tuple[bytes, bytes, bytes], ...], frozenset[bytes]]:
    """The client's default headers merged with ``headers``, as (name, lowered name, value), and the
    lowered names."""
    merged = httpx.Headers(client.headers)
    merged.update(dict(headers))
    items = tuple((name, name.lower(), value) for name, value in merged.raw)
    return items, frozenset(lowered for _, lowered, _ in items)


@functools.lru_cache(maxsize=64)
def _timeout(seconds: float) -> dict[str, Any]:
    return httpx.Timeout(seconds).as_dict()


_BODY_EXPECTED = ("POST", "PUT", "PATCH")


def build_request(client: httpx.Client, method: str, url: httpx.URL, *, content: bytes | None,
                  headers: tuple[tuple[str, str], ...], timeout: float) -> httpx.Request:
    """``client.build_request(method, url, content=..., headers=..., timeout=...)`` for an absolute URL.

    The same request, headers in the same order, with the client's default headers merged with
    ``headers`` once per client rather than for every request (a tenth of the provider's CPU per
    delete), and the headers httpx adds for a body (``Host``, ``Content-Length``) added here, where
    ``httpx.Request`` would look each up in its headers one by one. A client that holds cookies or
    query parameters gets them merged by httpx itself.
    """
    if client.cookies or client.params:
        return client.build_request(method, url, content=content, headers=dict(headers), timeout=timeout)
    merged, names = _defaults(client, headers)
    method = method.upper()
    # What httpx.Request's _prepare adds: the host and an empty body's length first, a body's length last.
    first: list[tuple[bytes, bytes, bytes]] = []
    last: list[tuple[bytes, bytes, bytes]] = []
    if b"host" not in names and url.host:
        first.append((b"Host", b"host", url.netloc))
    if content and b"content-length" not in names:
        last.append((b"Content-Length", b"content-length", str(len(content)).encode("ascii")))
    elif (not content and method in _BODY_EXPECTED
          and b"content-length" not in names and b"transfer-encoding" not in names):
        first.append((b"Content-Length", b"content-length", b"0"))
    items = [*first, *merged, *last]
    made: httpx.Headers | list[tuple[bytes, bytes]] = (
        made_headers(items) if _keepalive.HEADER_TRIPLES else [(name, value) for name, _, value in items])
    request = httpx.Request(method, url, headers=made,
                            stream=httpx.ByteStream(content or b""),
                            extensions={"timeout": _timeout(timeout)})
    request.read()
    return request


def pool_size() -> int:
    """How many shared clients exist (for tests and diagnostics)."""
    with _lock:
        return len(_clients)


def close_all() -> None:
    """Close every shared client; the next ``get_client`` makes a new one."""
    with _lock:
        clients = list(_clients.values())
        _clients.clear()
        _by_given.clear()
    for client in clients:
        client.close()


atexit.register(close_all)
