"""Specs into endpoints: OpenAPI 3.x and Swagger 2.0 (JSON or YAML), WSDL 1.1, and fetching a spec URL.

Parsers, not hand-written grammars: JSON and YAML documents are loaded by ``json`` and PyYAML's
safe loader (libyaml's, where it is there) and validated by ``openapi-spec-validator`` (the OpenAPI
Initiative's JSON schemas for 2.0, 3.0 and 3.1), so an invalid spec is refused with the validator's
own reason. A spec is untrusted input: only references inside the document (``#/...``) are
resolved, and any other ``$ref`` (a file, a URL, a relative path) is refused before the validator
sees the document, which is also checked for YAML aliases that contain themselves or expand
without bound; whatever else the parsers or the validator trip on is a :class:`SpecError` too. WSDL is
XML read by ``defusedxml`` (the standard library's parser with entity expansion and external
entities refused, which an uploaded or fetched document must not be allowed to use); the WSDL 1.1
structure read from it is small (``portType/operation``, ``documentation`` and the ``soap:address``
of the service). zeep was the other candidate: it builds a whole SOAP client, needs lxml, and
fetches every imported document over the network while loading, which an emulator must not do for
what it needs here (the operations' names).

A spec URL is fetched over http(s) only, with one deadline for the whole transfer and a size cap,
never from link-local or metadata addresses nor the ``/_emulator/`` namespace, and the user's headers
are sent to the origin they were given for only (:func:`fetch_spec`, :class:`FetchRules`).
Every failure is a :class:`SpecError` whose message says what failed; nothing is stored before
a spec has been read whole.
"""

from __future__ import annotations

import asyncio
import gc
import hashlib
import io
import json
import lzma
import posixpath
import re
import socket
import threading
import zipfile
import zlib
from collections import OrderedDict
from collections.abc import Callable, Iterable, Iterator, Mapping
from contextlib import contextmanager
from dataclasses import dataclass
from ipaddress import IPv4Address, IPv6Address, ip_address, ip_network
from typing import Any
from urllib.parse import urlsplit
from xml.etree.ElementTree import Element

import anyio
import defusedxml.ElementTree as SafeXml
import httpcore
import httpx
import yaml
from defusedxml import DefusedXmlException
from jsonschema_path import SchemaPath
from openapi_spec_validator import (
    OpenAPIV2SpecValidator,
    OpenAPIV30SpecValidator,
    OpenAPIV31SpecValidator,
)
from openapi_spec_validator.validation.exceptions import OpenAPIValidationError
from openapi_spec_validator.validation.validators import SpecValidator
from referencing.exceptions import PointerToNowhere, Unresolvable

from .errors import BadRequestError

#: Largest spec accepted, fetched or uploaded (a ZIP: its compressed size; its files together
#: may hold at most :data:`MAX_ZIP_CONTENT_BYTES`).
MAX_SPEC_BYTES = 16 * 1024 * 1024
MAX_ZIP_CONTENT_BYTES = 64 * 1024 * 1024
MAX_ZIP_ENTRIES = 1000
#: Seconds for the whole of a spec URL's fetch: connections, redirects and every byte.
FETCH_TIMEOUT = 10.0
MAX_REDIRECTS = 5
#: References the validator keeps resolved (openapi-spec-validator's default is 128).
RESOLVED_CACHE_SIZE = 128

OPENAPI_METHODS = ("get", "put", "post", "delete", "options", "head", "patch", "trace")
WSDL_NS = "http://schemas.xmlsoap.org/wsdl/"
_SOAP_ADDRESS_NAMESPACES = (
    "http://schemas.xmlsoap.org/wsdl/soap/",
    "http://schemas.xmlsoap.org/wsdl/soap12/",
)
_XSD_NS = "http://www.w3.org/2001/XMLSchema"
#: RFC 9110's token, the characters a header name may hold; a value may not hold line breaks or NUL.
_HEADER_NAME = re.compile(r"[!#$%&'*+.^_`|~0-9A-Za-z-]+")
_HEADER_VALUE_FORBIDDEN = re.compile(r"[\r\n\x00]")


class SpecError(BadRequestError):
    """The spec could not be fetched or read, or it is not a valid spec of the declared kind."""


@dataclass(frozen=True)
class SpecEndpoint:
    """One endpoint a spec declares: its path (or SOAP operation), method and backend call."""

    name: str
    http_method: str
    description: str | None
    backend_resource_url: str
    backend_http_method: str


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


async def fetch_spec(
    url: str, headers: Mapping[str, str], rules: FetchRules = FetchRules()
) -> tuple[bytes, str]:
    """The bytes at ``url`` and the file name its path ends with: http(s) only, where ``rules``
    allow, capped in size, with one deadline for the whole transfer, redirects included."""
    try:
        parts = urlsplit(url)
        target = httpx.URL(url)
        port = parts.port
    except (ValueError, httpx.InvalidURL) as exc:
        raise SpecError(f"specUrl is not a valid URL ({url}): {exc}") from None
    if parts.scheme not in ("http", "https") or not parts.hostname:
        raise SpecError(f"specUrl must be an http:// or https:// URL, got ({url})")
    if port is not None and not 0 < port < 65536:
        raise SpecError(f"specUrl is not a valid URL ({url}): its port is not between 1 and 65535")
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
        async with asyncio.timeout(FETCH_TIMEOUT):
            return await _fetch(url, target, dict(headers), rules)
    except (TimeoutError, httpx.TimeoutException):
        reason = f"it was not read whole within {FETCH_TIMEOUT:g} seconds"
    except _RefusedError as exc:
        reason = str(exc)
    except httpx.HTTPError as exc:
        reason = str(exc) or type(exc).__name__
        for value in headers.values():
            if value:
                reason = reason.replace(value, "***")
    raise SpecError(f"Specification could not be read from URL ({url}): {reason}")


async def _fetch(
    url: str, target: httpx.URL, headers: dict[str, str], rules: FetchRules
) -> tuple[bytes, str]:
    """Follows redirects itself: to check each target, and to send the user's headers (credentials,
    often) only to the origin they were given for."""
    async with httpx.AsyncClient(
        transport=_CheckedTransport(rules), timeout=httpx.Timeout(FETCH_TIMEOUT), trust_env=False
    ) as client:
        for redirects in range(MAX_REDIRECTS + 1):
            # httpx's path is decoded and without dot segments, as the emulator would route it.
            if ("/" + target.path.lstrip("/")).startswith(_EMULATOR_NAMESPACE):
                where = f"it redirects to ({target}), in" if redirects else "it is in"
                raise _RefusedError(
                    f"{where} the emulator's own /_emulator/ namespace, which it never fetches"
                )
            async with client.stream("GET", target, headers=headers) as response:
                if response.next_request is None:
                    return await _body(url, response), posixpath.basename(target.path)
                following = response.next_request.url
            if _origin(following) != _origin(target):
                headers = {}
            target = following
    raise _RefusedError(f"it redirects more than {MAX_REDIRECTS} times")


def _origin(url: httpx.URL) -> tuple[str, str, int | None]:
    return url.scheme, url.host, url.port


async def _body(url: str, response: httpx.Response) -> bytes:
    if response.status_code != 200:
        raise SpecError(
            f"Specification could not be read from URL ({url}): it answered HTTP {response.status_code}"
        )
    declared = response.headers.get("content-length")
    if declared is not None and declared.isdigit() and int(declared) > MAX_SPEC_BYTES:
        raise SpecError(_too_large(url))
    chunks: list[bytes] = []
    size = 0
    async for chunk in response.aiter_bytes():
        size += len(chunk)
        if size > MAX_SPEC_BYTES:
            raise SpecError(_too_large(url))
        chunks.append(chunk)
    return b"".join(chunks)


def _too_large(url: str) -> str:
    return f"Specification could not be read from URL ({url}): it is larger than {MAX_SPEC_BYTES} bytes"


# -- parsing --------------------------------------------------------------------------------------


#: How many parsed documents' endpoints are kept, by kind and content digest.
PARSED_CACHE_SIZE = 32
_parsed: OrderedDict[tuple[str, bytes], tuple[SpecEndpoint, ...]] = OrderedDict()
_parsed_lock = threading.Lock()


def parse_spec(kind: str, content: bytes, filename: str = "") -> list[SpecEndpoint]:
    """The endpoints of a spec of ``kind`` (OPEN_API, SWAGGER or WSDL); a ZIP is read for its WSDL.

    A document parsed lately is not parsed again: what it gives depends on its bytes alone (no
    reference leaves it), and re-parsing an unchanged spec is the common case, a whole validation
    of a big spec each time (``docs/performance.md``). Only successes are kept: a refused spec is
    refused again with the parsers' own message.
    """
    key = (kind, hashlib.sha256(content).digest())
    with _parsed_lock:
        known = _parsed.get(key)
        if known is not None:
            _parsed.move_to_end(key)
            return list(known)
    endpoints = _parse(kind, content, filename)
    with _parsed_lock:
        _parsed[key] = tuple(endpoints)
        while len(_parsed) > PARSED_CACHE_SIZE:
            _parsed.popitem(last=False)
    return endpoints


def _parse(kind: str, content: bytes, filename: str) -> list[SpecEndpoint]:
    if not content.strip():
        raise SpecError("Invalid specification: the document is empty")
    try:
        if kind == "WSDL":
            return _wsdl_endpoints(_wsdl_document(content, filename))
        return _openapi_endpoints(kind, _load_document(content))
    except RecursionError:
        # The parsers and the validator recurse once per level of nesting.
        raise SpecError(f"Invalid specification: {TOO_DEEP}") from None


TOO_DEEP = "the document is nested too deeply to be read"
#: Objects and lists a YAML document may expand to through its aliases (its unique ones are
#: bounded by :data:`MAX_SPEC_BYTES`): the validator walks every expansion.
MAX_EXPANDED_NODES = 2_000_000
_YAML_STR = "tag:yaml.org,2002:str"
_YAML_MERGE = "tag:yaml.org,2002:merge"


class _SpecLoader(getattr(yaml, "CSafeLoader", yaml.SafeLoader)):  # type: ignore[misc]
    """PyYAML's safe loader, libyaml's where it is there (several times the pure-Python one's
    speed on big specs), reading mapping keys and timestamps as text, as the product's YAML reader
    does: an unquoted response code (``200:``) is the key ``"200"``, and ``2001-01-01`` the string
    it looks like, which is also what the JSON of the same document holds."""

    def construct_mapping(self, node: yaml.MappingNode, deep: bool = False) -> dict[Any, Any]:
        self.flatten_mapping(node)  # first, so that keys merged in with "<<" are text too
        for key_node, _ in node.value:
            if isinstance(key_node, yaml.ScalarNode) and key_node.tag not in (_YAML_STR, _YAML_MERGE):
                key_node.tag = _YAML_STR
        mapping: dict[Any, Any] = super().construct_mapping(node, deep)
        return mapping


_SpecLoader.add_constructor("tag:yaml.org,2002:timestamp", _SpecLoader.construct_yaml_str)


def _load_document(content: bytes) -> dict[str, Any]:
    try:
        text = content.decode("utf-8-sig")
    except UnicodeDecodeError:
        raise SpecError("Invalid specification: the document is not UTF-8 text") from None
    try:
        if text.lstrip()[:1] in ("{", "["):
            document = json.loads(text)
        else:
            with _collector_paused():
                document = yaml.load(text, _SpecLoader)
    except (ValueError, yaml.YAMLError) as exc:
        first = str(exc).splitlines()[0] if str(exc) else type(exc).__name__
        raise SpecError(f"Invalid specification: the document is neither JSON nor YAML ({first})") from None
    if not isinstance(document, dict):
        raise SpecError("Invalid specification: the document is not a JSON or YAML object")
    _check_structure(document)
    return document


class _CollectorPause:
    """The cyclic garbage collector off while YAML documents are built.

    PyYAML's loader allocates a million tracked objects for a spec of a few MB, and the collections
    they trigger, over everything else the process holds, took more than half of the load
    (``docs/performance.md``); a document being built holds no garbage cycles. Loads on several
    threads share one pause; the collector comes back after the last, if it was on before.
    """

    def __init__(self) -> None:
        self._lock = threading.Lock()
        self._loads = 0
        self._was_on = True

    @contextmanager
    def __call__(self) -> Iterator[None]:
        with self._lock:
            if self._loads == 0:
                self._was_on = gc.isenabled()
                gc.disable()
            self._loads += 1
        try:
            yield
        finally:
            with self._lock:
                self._loads -= 1
                if self._loads == 0 and self._was_on:
                    gc.enable()


_collector_paused = _CollectorPause()


def _outside(ref: str) -> SpecError:
    return SpecError(
        f"Invalid specification: the reference ({ref}) is outside the document; "
        "only references inside the document (#/...) are resolved"
    )


def _check_structure(document: dict[str, Any]) -> None:
    """Refuse, before the validator sees it, a document that could make it read a file or a URL
    (a ``$ref`` that is not a pointer into the document), loop (a YAML alias inside its own
    anchor) or expand without bound (aliases of aliases)."""
    expanded: dict[int, int] = {}
    open_nodes: set[int] = set()

    def size(node: dict[str, Any] | list[Any]) -> int:
        key = id(node)
        known = expanded.get(key)
        if known is not None:
            return known
        if key in open_nodes:
            raise SpecError(
                "Invalid specification: the document contains itself (a YAML alias inside its anchor)"
            )
        open_nodes.add(key)
        if isinstance(node, dict):
            ref = node.get("$ref")
            if isinstance(ref, str) and not ref.startswith("#"):
                raise _outside(ref)
            values: Iterable[Any] = node.values()
        else:
            values = node
        total = 1 + sum(size(value) for value in values if isinstance(value, dict | list))
        if total > MAX_EXPANDED_NODES:
            raise SpecError(
                f"Invalid specification: the document expands to more than {MAX_EXPANDED_NODES} "
                "objects and lists (a YAML alias counts each time it is used)"
            )
        open_nodes.discard(key)
        expanded[key] = total
        return total

    size(document)


class _NoRetrieval(Mapping[str, Callable[[str], Any]]):
    """The validator's resolver handlers: none, for every scheme.

    jsonschema-path fetches a scheme it has no handler for itself (urllib or requests), so an empty
    mapping would not do: this one claims every scheme and refuses. :func:`_check_structure` refuses
    such references first, with a clearer message; this is the second lock.
    """

    def __contains__(self, scheme: object) -> bool:
        return True

    def __getitem__(self, scheme: str) -> Callable[[str], Any]:
        return _refuse_retrieval

    def __iter__(self) -> Iterator[str]:
        return iter(())

    def __len__(self) -> int:
        return 0


def _refuse_retrieval(uri: str) -> Any:
    raise _outside(uri)


def _validate(kind: str, document: dict[str, Any], validator: type[SpecValidator]) -> None:
    schema = SchemaPath.from_dict(
        document, handlers=_NoRetrieval(), resolved_cache_maxsize=RESOLVED_CACHE_SIZE
    )
    try:
        validator(schema).validate()
    except OpenAPIValidationError as exc:
        where = "/".join(str(p) for p in exc.path) or "the document"
        raise SpecError(
            f"Invalid specification ({kind}): at {where}: {exc.message.splitlines()[0]}"
        ) from None
    except Unresolvable as exc:
        unresolved = exc.__context__ if isinstance(exc.__context__, SpecError) else None
        if unresolved is not None:
            raise unresolved from None
        raise SpecError(
            f"Invalid specification ({kind}): the reference ({_ref_of(exc)}) cannot be resolved"
        ) from None
    except SpecError:
        raise
    except RecursionError:
        raise SpecError(f"Invalid specification ({kind}): {TOO_DEEP}") from None
    except Exception as exc:
        # The validator walks what the schema check let through; where it trips on a shape it did
        # not expect, the document is still what is wrong, and the answer says so (never a 500).
        reason = (str(exc).splitlines() or [""])[0][:200]
        raise SpecError(
            f"Invalid specification ({kind}): the validator cannot read it ({type(exc).__name__}: {reason})"
        ) from None


def _ref_of(exc: Unresolvable) -> str:
    ref = getattr(exc, "ref", "")
    if isinstance(exc, PointerToNowhere):
        return f"#{ref}"
    return str(ref)


def _openapi_endpoints(kind: str, document: dict[str, Any]) -> list[SpecEndpoint]:
    openapi, swagger = document.get("openapi"), document.get("swagger")
    validator: type[SpecValidator]
    if isinstance(openapi, str) and openapi.startswith("3."):
        found = "OPEN_API"
        validator = OpenAPIV31SpecValidator if openapi.startswith("3.1") else OpenAPIV30SpecValidator
    elif swagger == "2.0":
        found, validator = "SWAGGER", OpenAPIV2SpecValidator
    else:
        raise SpecError(
            'Invalid specification: the document declares neither "openapi: 3.x" nor "swagger: \'2.0\'"'
        )
    if found != kind:
        described = "an OpenAPI 3 document" if found == "OPEN_API" else "a Swagger 2.0 document"
        raise SpecError(f"Invalid specification: apiProxyCreationType is {kind} but the file is {described}")
    _validate(kind, document, validator)
    endpoints: list[SpecEndpoint] = []
    for path, item in (document.get("paths") or {}).items():
        if not isinstance(item, dict):
            continue
        for method in OPENAPI_METHODS:
            operation = item.get(method)
            if not isinstance(operation, dict):
                continue
            text = operation.get("summary") or operation.get("description") or operation.get("operationId")
            upper = method.upper()
            endpoints.append(SpecEndpoint(path, upper, str(text) if text else None, path, upper))
    return endpoints


# -- WSDL ----------------------------------------------------------------------------------------


def _parse_xml(content: bytes, what: str) -> Element:
    try:
        root: Element = SafeXml.fromstring(content)
    except DefusedXmlException as exc:
        raise SpecError(
            f"Invalid specification: {what} uses a forbidden XML construct ({type(exc).__name__})"
        ) from None
    except SafeXml.ParseError as exc:
        raise SpecError(f"Invalid specification: {what} is not well-formed XML ({exc})") from None
    return root


def _wsdl_document(content: bytes, filename: str) -> Element:
    if content[:4] != b"PK\x03\x04":
        return _check_wsdl_root(_parse_xml(content, filename or "the WSDL"), filename or "the WSDL")
    files = _zip_files(content)
    candidates = []
    for name, data in files.items():
        if name.lower().endswith(".wsdl"):
            root = _check_wsdl_root(_parse_xml(data, name), name)
            candidates.append((root.find(f"{{{WSDL_NS}}}service") is None, name.count("/"), name, root))
    if not candidates:
        raise SpecError("Invalid specification: the ZIP holds no .wsdl file")
    # The WSDL that declares a service, nearest the top, is the entry; the others are imported.
    _, _, entry, root = min(candidates)
    _check_imports(entry, root, files)
    return root


def _zip_files(content: bytes) -> dict[str, bytes]:
    try:
        archive = zipfile.ZipFile(io.BytesIO(content))
    except zipfile.BadZipFile as exc:
        raise SpecError(f"Invalid specification: the ZIP cannot be read ({exc})") from None
    with archive:
        infos = [i for i in archive.infolist() if not i.is_dir()]
        if len(infos) > MAX_ZIP_ENTRIES:
            raise SpecError(f"Invalid specification: the ZIP holds more than {MAX_ZIP_ENTRIES} files")
        if sum(i.file_size for i in infos) > MAX_ZIP_CONTENT_BYTES:
            raise SpecError(
                f"Invalid specification: the ZIP's files hold more than {MAX_ZIP_CONTENT_BYTES} bytes"
            )
        try:
            return {posixpath.normpath(i.filename): archive.read(i) for i in infos}
        # A corrupt member fails in its decompressor (zlib, bz2's OSError, lzma) or as a short read.
        except (zipfile.BadZipFile, OSError, RuntimeError, EOFError, zlib.error, lzma.LZMAError) as exc:
            raise SpecError(f"Invalid specification: the ZIP cannot be read ({exc})") from None


def _check_imports(entry: str, root: Element, files: dict[str, bytes]) -> None:
    """Every relative ``location``/``schemaLocation`` the entry WSDL names must be in the ZIP."""
    base = posixpath.dirname(entry)
    wanted = [e.get("location") for e in root.iter(f"{{{WSDL_NS}}}import")]
    wanted += [
        e.get("schemaLocation") for tag in ("import", "include") for e in root.iter(f"{{{_XSD_NS}}}{tag}")
    ]
    for location in wanted:
        if not location or urlsplit(location).scheme:
            continue
        if posixpath.normpath(posixpath.join(base, location)) not in files:
            raise SpecError(
                f"Invalid specification: {entry} imports ({location}), which the ZIP does not hold"
            )


def _check_wsdl_root(root: Element, what: str) -> Element:
    if root.tag != f"{{{WSDL_NS}}}definitions":
        raise SpecError(f"Invalid specification: {what} is not a WSDL 1.1 document (its root is {root.tag})")
    return root


def _wsdl_endpoints(root: Element) -> list[SpecEndpoint]:
    address = "/"
    for ns in _SOAP_ADDRESS_NAMESPACES:
        found = root.find(f"{{{WSDL_NS}}}service/{{{WSDL_NS}}}port/{{{ns}}}address")
        if found is not None and found.get("location"):
            address = urlsplit(str(found.get("location"))).path or "/"
            break
    endpoints: list[SpecEndpoint] = []
    seen: set[str] = set()
    for operation in root.iterfind(f"{{{WSDL_NS}}}portType/{{{WSDL_NS}}}operation"):
        name = operation.get("name")
        if not name or name in seen:
            continue
        seen.add(name)
        doc = operation.find(f"{{{WSDL_NS}}}documentation")
        text = " ".join((doc.text or "").split()) if doc is not None else ""
        endpoints.append(SpecEndpoint(name, "POST", text or None, address, "POST"))
    if not endpoints:
        raise SpecError(
            "Invalid specification: the WSDL declares no operation (wsdl:portType/wsdl:operation)"
        )
    return endpoints
