"""Specs into endpoints: fetching a spec URL, and the models' parser's answer as the API's error.

The parsing itself (OpenAPI 3.x and Swagger 2.0 in JSON or YAML, WSDL 1.1 or a ZIP of one; only
references inside the document resolved) is :func:`apinizer_pulumi.models.parse_spec`, the one parser
the provider's preview also reads a spec file with, so that both give the same endpoints and the same
messages. What is the emulator's own is here: its refusal is a :class:`SpecError`, a 400.

A spec URL is fetched over http(s) only, with one deadline for the whole transfer and a size cap,
never from link-local or metadata addresses nor the ``/_emulator/`` namespace, and the user's headers
are sent to the origin they were given for only (:func:`fetch_spec`, :class:`FetchRules`).
Every failure is a :class:`SpecError` whose message says what failed; nothing is stored before
a spec has been read whole.
"""

from __future__ import annotations

import asyncio
import posixpath
import re
import socket
from collections.abc import Iterable, Mapping
from dataclasses import dataclass
from ipaddress import IPv4Address, IPv6Address, ip_address, ip_network
from urllib.parse import urlsplit

import anyio
import httpcore
import httpx

import apinizer_pulumi.models as models

from .errors import BadRequestError

#: Largest spec accepted, fetched or uploaded (a ZIP: its compressed size; its files together
#: may hold at most ``MAX_ZIP_CONTENT_BYTES`` of the models' parser).
MAX_SPEC_BYTES = 16 * 1024 * 1024
#: Seconds for the whole of a spec URL's fetch: connections, redirects and every byte.
FETCH_TIMEOUT = 10.0
MAX_REDIRECTS = 5

#: RFC 9110's token, the characters a header name may hold; a value may not hold line breaks or NUL.
_HEADER_NAME = re.compile(r"[!#$%&'*+.^_`|~0-9A-Za-z-]+")
_HEADER_VALUE_FORBIDDEN = re.compile(r"[\r\n\x00]")

#: One endpoint a spec declares (the models' type: name, method, description and backend call).
SpecEndpoint = models.SpecOperation


class SpecError(BadRequestError):
    """The spec could not be fetched or read, or it is not a valid spec of the declared kind."""


# -- fetching ------------------------------------------------------------------------------------


@dataclass(frozen=True)
class FetchRules:
    """Where a spec URL may lead, checked on every connection, so after every redirect too.

    Never to a link-local or cloud metadata address, nor into the ``/_emulator/`` namespace (on any
    host: the emulator cannot know every name it answers to). Loopback and private addresses are
    allowed, since a developer serves a spec from their machine while working, unless
    ``public_only`` (``serve --public-spec-urls-only``, for an emulator shared on a network).
    """

    public_only: bool = False

    def refusal(self, host: str, address: IPv4Address | IPv6Address) -> str | None:
        """Why ``address`` (one that ``host`` resolves to) is not fetched, or None."""
        if isinstance(address, IPv6Address):
            address = _carried_ipv4(address) or address
        if address.is_link_local or address in METADATA_ADDRESSES:
            kind = "a link-local or cloud metadata address, which the emulator never fetches"
        elif self.public_only and not address.is_global:
            kind = (
                "a private or loopback address, which this emulator does not fetch "
                "(serve --public-spec-urls-only)"
            )
        else:
            return None
        try:
            ip_address(host.strip("[]"))
        except ValueError:
            return f"{host} resolves to {address}, {kind}"
        return f"{address} is {kind}"


def _carried_ipv4(address: IPv6Address) -> IPv4Address | None:
    """The IPv4 address an IPv6 one reaches through a mapping, a NAT64 gateway or 6to4, if any."""
    if address in _NAT64:
        return IPv4Address(int(address) & 0xFFFFFFFF)
    return address.ipv4_mapped or address.sixtofour


_NAT64 = ip_network("64:ff9b::/96")
#: Cloud metadata services outside the link-local ranges (AWS's IPv6 one, Alibaba's).
METADATA_ADDRESSES = frozenset({ip_address("fd00:ec2::254"), ip_address("100.100.100.200")})
_EMULATOR_NAMESPACE = "/_emulator"


class _RefusedError(Exception):
    """A connection the :class:`FetchRules` forbid, refused before it is attempted."""


class _CheckedNetwork(httpcore.AsyncNetworkBackend):
    """httpcore's network backend, resolving the host itself and connecting only to addresses the
    rules allow, by address: what was checked is what is connected to (no second resolution that
    a DNS answer could change in between). TLS still verifies the URL's host name."""

    def __init__(self, rules: FetchRules) -> None:
        self._rules = rules
        self._inner = httpcore.AnyIOBackend()

    async def connect_tcp(
        self,
        host: str,
        port: int,
        timeout: float | None = None,
        local_address: str | None = None,
        socket_options: Iterable[httpcore.SOCKET_OPTION] | None = None,
    ) -> httpcore.AsyncNetworkStream:
        try:
            found = await anyio.getaddrinfo(host, port, type=socket.SOCK_STREAM)
        except (OSError, UnicodeError, ValueError, OverflowError) as exc:
            raise httpcore.ConnectError(f"{host} cannot be resolved ({exc})") from None
        # A link-local IPv6 address comes back with its zone ("fe80::1%eth0").
        addresses = list(dict.fromkeys(ip_address(str(info[4][0]).partition("%")[0]) for info in found))
        for address in addresses:
            refusal = self._rules.refusal(host, address)
            if refusal is not None:
                raise _RefusedError(refusal)
        failure: Exception = httpcore.ConnectError(f"{host} has no address")
        for address in addresses:
            try:
                return await self._inner.connect_tcp(
                    str(address), port, timeout, local_address, socket_options
                )
            except httpcore.ConnectError as exc:
                failure = exc
        raise failure

    async def connect_unix_socket(
        self,
        path: str,
        timeout: float | None = None,
        socket_options: Iterable[httpcore.SOCKET_OPTION] | None = None,
    ) -> httpcore.AsyncNetworkStream:
        raise _RefusedError("a spec URL is fetched over TCP only")

    async def sleep(self, seconds: float) -> None:
        await self._inner.sleep(seconds)


class _CheckedTransport(httpx.AsyncHTTPTransport):
    """httpx's transport, connecting through :class:`_CheckedNetwork`.

    httpx takes no network backend, so the connection pool it builds is replaced by one like it
    (its defaults) that has ours. Quarantined here; ``tests/emulator/test_spec_trust.py`` fails
    (a metadata address gets a connection attempt) if httpx stops sending requests through it.
    """

    def __init__(self, rules: FetchRules) -> None:
        super().__init__(trust_env=False)
        self._pool = httpcore.AsyncConnectionPool(
            ssl_context=httpx.create_ssl_context(trust_env=False), network_backend=_CheckedNetwork(rules)
        )


@dataclass(frozen=True)
class FetchLimits:
    """What a fetch is of, for its messages, and its bounds: one deadline for the whole transfer
    (connections, redirects and every byte) and a size cap."""

    field: str
    subject: str
    timeout: float
    max_bytes: int

    def failure(self, url: str, reason: str) -> SpecError:
        return SpecError(f"{self.subject} could not be read from URL ({url}): {reason}")


async def fetch_spec(
    url: str, headers: Mapping[str, str], rules: FetchRules = FetchRules()
) -> tuple[bytes, str]:
    """The bytes at ``url`` and the file name its path ends with: http(s) only, where ``rules``
    allow, capped in size, with one deadline for the whole transfer, redirects included."""
    # The bounds are read at each call (tests lower them).
    limits = FetchLimits("specUrl", "Specification", FETCH_TIMEOUT, MAX_SPEC_BYTES)
    return await fetch_url(url, headers, rules, limits)


async def fetch_url(
    url: str, headers: Mapping[str, str], rules: FetchRules, limits: FetchLimits
) -> tuple[bytes, str]:
    """:func:`fetch_spec`'s rules for any document (a JWK Set, say), within ``limits``: every
    failure is a :class:`SpecError` (a 400) whose message names ``limits.field`` or ``limits.subject``."""
    field = limits.field
    url, given = without_password(url), url
    try:
        parts = urlsplit(given)
        target = httpx.URL(given)
        port = parts.port
    except (ValueError, httpx.InvalidURL) as exc:
        raise SpecError(f"{field} is not a valid URL ({url}): {without_password(str(exc))}") from None
    if parts.scheme not in ("http", "https") or not parts.hostname:
        raise SpecError(f"{field} must be an http:// or https:// URL, got ({url})")
    if port is not None and not 0 < port < 65536:
        raise SpecError(f"{field} is not a valid URL ({url}): its port is not between 1 and 65535")
    for name, value in headers.items():
        # The values are credentials: a message names the header, never its value.
        if not _HEADER_NAME.fullmatch(name):
            raise SpecError(f"specAuthorizationValueList: ({name[:100]}) is not a valid header name")
        # httpx sends header values as ASCII; anything else would fail in the middle of the fetch.
        if _HEADER_VALUE_FORBIDDEN.search(value) or not value.isascii():
            raise SpecError(f"specAuthorizationValueList: the value of header ({name}) can not be sent")
    try:
        # One deadline for everything: a server that drips a byte at a time never trips a
        # per-read timeout.
        async with asyncio.timeout(limits.timeout):
            return await _fetch(url, target, dict(headers), rules, limits)
    except (TimeoutError, httpx.TimeoutException):
        reason = f"it was not read whole within {limits.timeout:g} seconds"
    except _RefusedError as exc:
        reason = str(exc)
    except httpx.HTTPError as exc:
        reason = without_password(str(exc)) or type(exc).__name__
        for value in headers.values():
            if value:
                reason = reason.replace(value, "***")
    raise limits.failure(url, reason)


async def _fetch(
    url: str, target: httpx.URL, headers: dict[str, str], rules: FetchRules, limits: FetchLimits
) -> tuple[bytes, str]:
    """Follows redirects itself: to check each target, and to send the user's headers (credentials,
    often) only to the origin they were given for."""
    async with httpx.AsyncClient(
        transport=_CheckedTransport(rules), timeout=httpx.Timeout(limits.timeout), trust_env=False
    ) as client:
        for redirects in range(MAX_REDIRECTS + 1):
            # httpx's path is decoded and without dot segments, as the emulator would route it.
            if ("/" + target.path.lstrip("/")).startswith(_EMULATOR_NAMESPACE):
                where = f"it redirects to ({without_password(str(target))}), in" if redirects else "it is in"
                raise _RefusedError(
                    f"{where} the emulator's own /_emulator/ namespace, which it never fetches"
                )
            async with client.stream("GET", target, headers=headers) as response:
                if response.next_request is None:
                    return await _body(url, response, limits), posixpath.basename(target.path)
                following = response.next_request.url
            if _origin(following) != _origin(target):
                headers = {}
            target = following
    raise _RefusedError(f"it redirects more than {MAX_REDIRECTS} times")


_USER_INFO_PASSWORD = re.compile(r"(//[^/?#@:]*:)[^/?#@]*@")


def without_password(text: str) -> str:
    """``text`` with the password of any URL in it (``//user:password@``) shown as ``***``."""
    return _USER_INFO_PASSWORD.sub(r"\1***@", text)


def _origin(url: httpx.URL) -> tuple[str, str, int | None]:
    return url.scheme, url.host, url.port


async def _body(url: str, response: httpx.Response, limits: FetchLimits) -> bytes:
    if response.status_code != 200:
        raise limits.failure(url, f"it answered HTTP {response.status_code}")
    too_large = limits.failure(url, f"it is larger than {limits.max_bytes} bytes")
    declared = response.headers.get("content-length")
    if declared is not None and declared.isdigit() and int(declared) > limits.max_bytes:
        raise too_large
    chunks: list[bytes] = []
    size = 0
    async for chunk in response.aiter_bytes():
        size += len(chunk)
        if size > limits.max_bytes:
            raise too_large
        chunks.append(chunk)
    return b"".join(chunks)


# -- parsing --------------------------------------------------------------------------------------


def parse_spec(kind: str, content: bytes, filename: str = "") -> list[SpecEndpoint]:
    """The endpoints of a spec of ``kind`` (OPEN_API, SWAGGER or WSDL), by the models' parser, the one
    the provider's preview uses; its refusal is a 400 with its message."""
    try:
        return models.parse_spec(kind, content, filename)
    except models.SpecError as exc:
        raise SpecError(str(exc)) from None
