"""Specs into endpoints: OpenAPI 3.x and Swagger 2.0 (JSON or YAML), WSDL 1.1, and fetching a spec URL.

Parsers, not hand-written grammars: JSON and YAML documents are loaded by ``json`` and PyYAML's
safe loader and validated by ``openapi-spec-validator`` (the OpenAPI Initiative's JSON schemas
for 2.0, 3.0 and 3.1), so an invalid spec is refused with the validator's own reason. WSDL is
XML read by ``defusedxml`` (the standard library's parser with entity expansion and external
entities refused, which an uploaded or fetched document must not be allowed to use); the WSDL 1.1
structure read from it is small (``portType/operation``, ``documentation`` and the ``soap:address``
of the service). zeep was the other candidate: it builds a whole SOAP client, needs lxml, and
fetches every imported document over the network while loading, which an emulator must not do for
what it needs here (the operations' names).

A spec URL is fetched over http(s) only, with a timeout and a size cap (:func:`fetch_spec`).
Every failure is a :class:`SpecError` whose message says what failed; nothing is stored before
a spec has been read whole.
"""

from __future__ import annotations

import io
import json
import posixpath
import re
import zipfile
from collections.abc import Mapping
from dataclasses import dataclass
from typing import Any
from urllib.parse import urlsplit
from xml.etree.ElementTree import Element

import defusedxml.ElementTree as SafeXml
import httpx
import yaml
from defusedxml import DefusedXmlException
from openapi_spec_validator import (
    OpenAPIV2SpecValidator,
    OpenAPIV30SpecValidator,
    OpenAPIV31SpecValidator,
    validate,
)
from openapi_spec_validator.validation.exceptions import OpenAPIValidationError
from openapi_spec_validator.validation.validators import SpecValidator

from .errors import BadRequestError

#: Largest spec accepted, fetched or uploaded (a ZIP: its compressed size; its files together
#: may hold at most :data:`MAX_ZIP_CONTENT_BYTES`).
MAX_SPEC_BYTES = 16 * 1024 * 1024
MAX_ZIP_CONTENT_BYTES = 64 * 1024 * 1024
MAX_ZIP_ENTRIES = 1000
#: Seconds for each phase (connect, read) of a spec URL's fetch.
FETCH_TIMEOUT = 10.0
MAX_REDIRECTS = 5

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


async def fetch_spec(url: str, headers: Mapping[str, str]) -> tuple[bytes, str]:
    """The bytes at ``url`` and the file name its path ends with; http(s) only, capped and timed."""
    parts = urlsplit(url)
    if parts.scheme not in ("http", "https") or not parts.hostname:
        raise SpecError(f"specUrl must be an http:// or https:// URL, got ({url})")
    for name, value in headers.items():
        # The values are credentials: a message names the header, never its value.
        if not _HEADER_NAME.fullmatch(name):
            raise SpecError(f"specAuthorizationValueList: ({name[:100]}) is not a valid header name")
        if _HEADER_VALUE_FORBIDDEN.search(value):
            raise SpecError(f"specAuthorizationValueList: the value of header ({name}) can not be sent")
    timeout = httpx.Timeout(FETCH_TIMEOUT)
    try:
        async with (
            httpx.AsyncClient(timeout=timeout, follow_redirects=True, max_redirects=MAX_REDIRECTS) as client,
            client.stream("GET", url, headers=dict(headers)) as response,
        ):
            if response.status_code != 200:
                status = response.status_code
                raise SpecError(
                    f"Specification could not be read from URL ({url}): it answered HTTP {status}"
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
            final_path = response.url.path
    except httpx.TimeoutException:
        raise SpecError(
            f"Specification could not be read from URL ({url}): no answer within {FETCH_TIMEOUT:g} seconds"
        ) from None
    except httpx.HTTPError as exc:
        reason = str(exc) or type(exc).__name__
        for value in headers.values():
            if value:
                reason = reason.replace(value, "***")
        raise SpecError(f"Specification could not be read from URL ({url}): {reason}") from None
    return b"".join(chunks), posixpath.basename(final_path)


def _too_large(url: str) -> str:
    return f"Specification could not be read from URL ({url}): it is larger than {MAX_SPEC_BYTES} bytes"


# -- parsing --------------------------------------------------------------------------------------


def parse_spec(kind: str, content: bytes, filename: str = "") -> list[SpecEndpoint]:
    """The endpoints of a spec of ``kind`` (OPEN_API, SWAGGER or WSDL); a ZIP is read for its WSDL."""
    if not content.strip():
        raise SpecError("Invalid specification: the document is empty")
    if kind == "WSDL":
        return _wsdl_endpoints(_wsdl_document(content, filename))
    return _openapi_endpoints(kind, _load_document(content))


def _load_document(content: bytes) -> dict[str, Any]:
    try:
        text = content.decode("utf-8-sig")
    except UnicodeDecodeError:
        raise SpecError("Invalid specification: the document is not UTF-8 text") from None
    try:
        document = json.loads(text) if text.lstrip()[:1] in ("{", "[") else yaml.safe_load(text)
    except (ValueError, yaml.YAMLError) as exc:
        first = str(exc).splitlines()[0] if str(exc) else type(exc).__name__
        raise SpecError(f"Invalid specification: the document is neither JSON nor YAML ({first})") from None
    if not isinstance(document, dict):
        raise SpecError("Invalid specification: the document is not a JSON or YAML object")
    return document


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
    try:
        validate(document, cls=validator)
    except OpenAPIValidationError as exc:
        where = "/".join(str(p) for p in exc.path) or "the document"
        raise SpecError(
            f"Invalid specification ({kind}): at {where}: {exc.message.splitlines()[0]}"
        ) from None
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
        except (zipfile.BadZipFile, OSError, RuntimeError) as exc:
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
