"""A spec's operations, read offline: OpenAPI 3.x and Swagger 2.0 (JSON or YAML), and WSDL 1.1 (or a ZIP).

The parsing is the emulator's (``apinizer_emulator.specs``): the same libraries, the same rules and
the same messages, here in the models layer so that the provider can read a spec at preview, and
tell which endpoints a re-parse makes, without the emulator. JSON and YAML are loaded by ``json``
and PyYAML's safe loader and validated by ``openapi-spec-validator``; WSDL is XML read by
``defusedxml`` (entity expansion and external entities refused), and only ``portType/operation``,
``documentation`` and the service's ``soap:address`` are read from it.

Every failure is a :class:`SpecError` (a ``ValueError``) whose message says what failed.
"""

from __future__ import annotations

import io
import json
import posixpath
import zipfile
from dataclasses import dataclass
from typing import TYPE_CHECKING, Any
from urllib.parse import urlsplit

if TYPE_CHECKING:
    from xml.etree.ElementTree import Element

__all__ = ["MAX_ZIP_CONTENT_BYTES", "MAX_ZIP_ENTRIES", "SpecError", "SpecOperation", "parse_spec"]

#: A ZIP's files together may hold at most this many bytes, in at most this many files.
MAX_ZIP_CONTENT_BYTES = 64 * 1024 * 1024
MAX_ZIP_ENTRIES = 1000

OPENAPI_METHODS = ("get", "put", "post", "delete", "options", "head", "patch", "trace")
WSDL_NS = "http://schemas.xmlsoap.org/wsdl/"
_SOAP_ADDRESS_NAMESPACES = (
    "http://schemas.xmlsoap.org/wsdl/soap/",
    "http://schemas.xmlsoap.org/wsdl/soap12/",
)
_XSD_NS = "http://www.w3.org/2001/XMLSchema"


class SpecError(ValueError):
    """The spec could not be read, or it is not a valid spec of the declared kind."""


@dataclass(frozen=True)
class SpecOperation:
    """One endpoint a spec declares: its path (or SOAP operation), method and backend call."""

    name: str
    http_method: str
    description: str | None
    backend_resource_url: str
    backend_http_method: str


def parse_spec(kind: str, content: bytes, filename: str = "") -> list[SpecOperation]:
    """The endpoints of a spec of ``kind`` (OPEN_API, SWAGGER or WSDL); a ZIP is read for its WSDL."""
    if not content.strip():
        raise SpecError("Invalid specification: the document is empty")
    if kind == "WSDL":
        return _wsdl_operations(_wsdl_document(content, filename))
    return _openapi_operations(kind, _load_document(content))


def _load_document(content: bytes) -> dict[str, Any]:
    import yaml

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


def _openapi_operations(kind: str, document: dict[str, Any]) -> list[SpecOperation]:
    from openapi_spec_validator import (
        OpenAPIV2SpecValidator,
        OpenAPIV30SpecValidator,
        OpenAPIV31SpecValidator,
        validate,
    )
    from openapi_spec_validator.validation.exceptions import OpenAPIValidationError
    from openapi_spec_validator.validation.validators import SpecValidator

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
        first = exc.message.splitlines()[0]
        raise SpecError(f"Invalid specification ({kind}): at {where}: {first}") from None
    operations: list[SpecOperation] = []
    for path, item in (document.get("paths") or {}).items():
        if not isinstance(item, dict):
            continue
        for method in OPENAPI_METHODS:
            operation = item.get(method)
            if not isinstance(operation, dict):
                continue
            text = operation.get("summary") or operation.get("description") or operation.get("operationId")
            upper = method.upper()
            operations.append(SpecOperation(path, upper, str(text) if text else None, path, upper))
    return operations


# -- WSDL ----------------------------------------------------------------------------------------


def _parse_xml(content: bytes, what: str) -> Element:
    import defusedxml.ElementTree as SafeXml
    from defusedxml import DefusedXmlException

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


def _wsdl_operations(root: Element) -> list[SpecOperation]:
    address = "/"
    for ns in _SOAP_ADDRESS_NAMESPACES:
        found = root.find(f"{{{WSDL_NS}}}service/{{{WSDL_NS}}}port/{{{ns}}}address")
        if found is not None and found.get("location"):
            address = urlsplit(str(found.get("location"))).path or "/"
            break
    operations: list[SpecOperation] = []
    seen: set[str] = set()
    for operation in root.iterfind(f"{{{WSDL_NS}}}portType/{{{WSDL_NS}}}operation"):
        name = operation.get("name")
        if not name or name in seen:
            continue
        seen.add(name)
        doc = operation.find(f"{{{WSDL_NS}}}documentation")
        text = " ".join((doc.text or "").split()) if doc is not None else ""
        operations.append(SpecOperation(name, "POST", text or None, address, "POST"))
    if not operations:
        raise SpecError(
            "Invalid specification: the WSDL declares no operation (wsdl:portType/wsdl:operation)"
        )
    return operations
