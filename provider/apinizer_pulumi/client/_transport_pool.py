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
import threading

import httpx

from ._keepalive import KeepAliveTransport, environment_proxy_for

__all__ = ["close_all", "get_client", "pool_size"]

#: Connections kept per gateway. Pulumi runs up to 10 resource operations in parallel by default.
#: As many kept alive as open: with more threads than connections, httpcore's sync pool (1.0.9) can
#: close a "surplus" keep-alive connection it has already handed to a waiting request, whose read
#: then fails with EBADF (encode/httpcore#1110; seen destroying 2,000 endpoints at --parallel 64).
#: One origin per pool and no surplus leave it nothing to close.
_MAX_CONNECTIONS = 20
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
            transport = None if environment_proxy_for(key) else KeepAliveTransport(
                max_connections=_MAX_CONNECTIONS, keepalive_expiry=_KEEPALIVE_EXPIRY)
            client = httpx.Client(base_url=key, limits=_LIMITS, follow_redirects=False, transport=transport)
            _clients[key] = client
        _by_given[base_url] = client
        return client


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
