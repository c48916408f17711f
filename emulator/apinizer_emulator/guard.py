"""Who may talk to the emulator: the defences against DNS rebinding and cross-site requests.

A web page the developer visits can make the browser send requests to ``127.0.0.1``: a form or
``fetch`` from another site (CSRF), or, after its own name is re-pointed at ``127.0.0.1``, requests
that the browser believes are same-origin (DNS rebinding). Both matter here because the emulator's
inspection namespace has no authentication and the default fixture's tokens are public.

* **Host.** A request with more than one ``Host`` header is a 400 (RFC 9112, section 3.2): judging
  one of them would let a page pair its own name with a loopback one. Every request must name the
  emulator by a loopback name or address (``localhost``, ``127.0.0.0/8``, ``[::1]``, any port), by
  the address of the socket the connection came in on, or by a name given to ``--host`` or
  ``--allow-host``. A rebinding page sends its own name: refused.
* **Origin.** A browser's ``Origin`` must be the emulator's own (same scheme, host and port);
  ``Origin: null`` (sandboxed frames, ``file:`` pages, some redirects) is refused; a request
  without ``Origin`` (curl, httpx, the provider) passes. ``Sec-Fetch-Site: cross-site`` or
  ``same-site`` is refused too: browsers send it even on the requests that carry no ``Origin``.
* **JSON writes.** A write under ``/_emulator/`` must say ``Content-Type: application/json``, which no
  form or "simple" cross-site request can send without a CORS preflight (which the emulator never
  grants). A ``DELETE`` without a body may leave the header out: no browser sends a cross-site
  ``DELETE`` without a preflight either.

Refusals are the API's error JSON: 400 ``bad_request`` for a repeated Host, 403 ``forbidden`` for
host and origin, 415 ``unsupported_media_type`` for the content type.
"""

from __future__ import annotations

import ipaddress
from collections.abc import Iterable
from urllib.parse import urlsplit

from starlette.types import Scope

from .errors import BadRequestError, EmulatorError, ForbiddenError, UnsupportedMediaTypeError

JSON_MEDIA_TYPE = "application/json"
_WRITE_METHODS = frozenset({"POST", "PUT", "PATCH", "DELETE"})
_DEFAULT_PORTS = {"http": 80, "https": 443}
#: ``Sec-Fetch-Site`` values of a request that another site's page started.
_FOREIGN_FETCH_SITES = frozenset({b"cross-site", b"same-site"})
#: Host header values already judged (per local address); the bound stops growth.
_MAX_CACHED_HOSTS = 1024


class HostNotAllowedError(ForbiddenError):
    def __init__(self) -> None:
        super().__init__(
            "The Host header names neither a loopback name or address nor the address the emulator "
            "listens on (a guard against DNS rebinding)"
        )


class RepeatedHostError(BadRequestError):
    def __init__(self) -> None:
        super().__init__("A request must carry exactly one Host header")


class CrossOriginError(ForbiddenError):
    def __init__(self) -> None:
        super().__init__("Requests from another origin are refused (a guard against cross-site requests)")


class JsonRequiredError(UnsupportedMediaTypeError):
    def __init__(self) -> None:
        super().__init__(f"Writes under /_emulator/ must be sent as Content-Type: {JSON_MEDIA_TYPE}")


def split_host(value: str) -> tuple[str, int | None] | None:
    """``(host, port)`` of a Host header or an origin's authority; None when it is malformed.

    The host is lower-cased, without the brackets of an IPv6 literal and without a trailing dot.
    """
    value = value.strip().lower()
    if value.startswith("["):
        end = value.find("]")
        if end < 0:
            return None
        host, rest = value[1:end], value[end + 1 :]
        if rest and not rest.startswith(":"):
            return None
        port_text = rest[1:] if rest else None
    else:
        host, colon, port_text_or_empty = value.partition(":")
        port_text = port_text_or_empty if colon else None
        if ":" in port_text_or_empty:
            return None
    if port_text is not None and not (port_text.isascii() and port_text.isdigit() and len(port_text) <= 5):
        return None
    host = host.removesuffix(".")
    if not host:
        return None
    return host, int(port_text) if port_text else None


def _same_address(host: str, address: str | None) -> bool:
    if address is None:
        return False
    address = address.lower().removeprefix("::ffff:")
    if host == address:
        return True
    try:
        return ipaddress.ip_address(host.removeprefix("::ffff:")) == ipaddress.ip_address(address)
    except ValueError:
        return False


def _is_wildcard(host: str) -> bool:
    try:
        return ipaddress.ip_address(host).is_unspecified
    except ValueError:
        return False


def is_loopback_host(host: str) -> bool:
    if host == "localhost":
        return True
    try:
        return ipaddress.ip_address(host.removeprefix("::ffff:")).is_loopback
    except ValueError:
        return False


class RequestGuard:
    """Checks each request's Host, Origin and (for inspection writes) Content-Type.

    :param host_names: names or addresses a Host header may name besides the loopback ones and
        the connection's own local address: the ``--host`` the server binds and any
        ``--allow-host``. A wildcard address (``0.0.0.0``, ``::``) names no host and is left out.
    """

    def __init__(self, host_names: Iterable[str] = ()) -> None:
        self._host_names = frozenset(
            parsed[0] for parsed in map(split_host, host_names) if parsed and not _is_wildcard(parsed[0])
        )
        self._judged: dict[tuple[bytes, str | None], bool] = {}

    def host_allowed(self, host_header: bytes, local_address: str | None) -> bool:
        key = (host_header, local_address)
        verdict = self._judged.get(key)
        if verdict is None:
            parsed = split_host(host_header.decode("latin-1"))
            verdict = parsed is not None and (
                is_loopback_host(parsed[0])
                or _same_address(parsed[0], local_address)
                or parsed[0] in self._host_names
            )
            if len(self._judged) >= _MAX_CACHED_HOSTS:
                self._judged.clear()
            self._judged[key] = verdict
        return verdict

    def refusal(self, scope: Scope) -> EmulatorError | None:
        """The error a request is refused with, or None when it may go on."""
        host = origin = fetch_site = content_type = None
        # scope["headers"] is the raw list: the servers pass a repeated header on as it came.
        for name, value in scope["headers"]:
            if name == b"host":
                if host is not None:
                    return RepeatedHostError()
                host = value
            elif name == b"origin":
                origin = value
            elif name == b"sec-fetch-site":
                fetch_site = value
            elif name == b"content-type":
                content_type = value
        server = scope.get("server")
        local_address = str(server[0]) if server else None
        # A request without Host (HTTP/1.0) did not come from a browser: browsers always send it.
        if host is not None and not self.host_allowed(host, local_address):
            return HostNotAllowedError()
        if fetch_site is not None and fetch_site.lower() in _FOREIGN_FETCH_SITES:
            return CrossOriginError()
        if origin is not None and not _same_origin(origin, host, scope.get("scheme", "http")):
            return CrossOriginError()
        if scope["path"].startswith("/_emulator") and scope["method"] in _WRITE_METHODS:
            if content_type is None:
                if scope["method"] != "DELETE" or _has_body(scope):
                    return JsonRequiredError()
            elif content_type.split(b";", 1)[0].strip().lower() != JSON_MEDIA_TYPE.encode():
                return JsonRequiredError()
        return None


def _same_origin(origin: bytes, host: bytes | None, scheme: str) -> bool:
    if host is None:
        return False
    text = origin.decode("latin-1").strip()
    if text.lower() == "null":
        return False
    parts = urlsplit(text)
    if parts.scheme.lower() != scheme or parts.path or parts.query or parts.fragment:
        return False
    origin_host = split_host(parts.netloc)
    request_host = split_host(host.decode("latin-1"))
    if origin_host is None or request_host is None or "@" in parts.netloc:
        return False
    default = _DEFAULT_PORTS.get(scheme)
    return (origin_host[0], origin_host[1] or default) == (request_host[0], request_host[1] or default)


def _has_body(scope: Scope) -> bool:
    for name, value in scope["headers"]:
        if name == b"transfer-encoding" or (name == b"content-length" and value.strip() not in (b"", b"0")):
            return True
    return False
