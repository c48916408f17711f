"""A spec's operations: OpenAPI 3.x and Swagger 2.0 (JSON or YAML), and WSDL 1.1 (or a ZIP of one).

The one parser of specs: the emulator answers an upload or a spec URL with it, and the provider reads a
``spec_file`` with it at preview, offline, and to tell which endpoints a re-parse makes. It lives in the
models layer because both may import that layer and neither may import the other.

Parsers, not hand-written grammars: JSON and YAML documents are loaded by ``json`` and PyYAML's safe
loader (libyaml's, where it is there) and validated by ``openapi-spec-validator`` (the OpenAPI
Initiative's JSON schemas for 2.0, 3.0 and 3.1), so an invalid spec is refused with the validator's own
reason. A spec is untrusted input: only references inside the document (``#/...``) are resolved, and any
other ``$ref`` (a file, a URL, a relative path) is refused before the validator sees the document, which
is also checked for YAML aliases that contain themselves or expand without bound; whatever else the
parsers or the validator trip on is a :class:`SpecError` too. WSDL is XML read by ``defusedxml`` (the
standard library's parser with entity expansion and external entities refused); the WSDL 1.1 structure
read from it is small (``portType/operation``, ``documentation`` and the ``soap:address`` of the
service). zeep was the other candidate: it builds a whole SOAP client, needs lxml, and fetches every
imported document over the network while loading, which neither a preview nor an emulator may do for
what they need here (the operations' names).

PyYAML, the validator and defusedxml are imported by the first parse that needs them, never by
``import apinizer_pulumi.models``. Every failure is a :class:`SpecError` (a ``ValueError``) whose message
says what failed.
"""

from __future__ import annotations

import functools
import gc
import hashlib
import io
import json
import lzma
import posixpath
import threading
import zipfile
import zlib
from collections import OrderedDict
from collections.abc import Callable, Iterable, Iterator, Mapping
from contextlib import contextmanager
from dataclasses import dataclass
from typing import TYPE_CHECKING, Any
from urllib.parse import urlsplit

if TYPE_CHECKING:
    from xml.etree.ElementTree import Element

    from openapi_spec_validator.validation.validators import SpecValidator
    from referencing.exceptions import Unresolvable

__all__ = ["MAX_ZIP_CONTENT_BYTES", "MAX_ZIP_ENTRIES", "SpecError", "SpecOperation", "parse_spec"]

#: A ZIP's files together may hold at most this many bytes, in at most this many files.
MAX_ZIP_CONTENT_BYTES = 64 * 1024 * 1024
MAX_ZIP_ENTRIES = 1000
#: References the validator keeps resolved (openapi-spec-validator's default is 128).
RESOLVED_CACHE_SIZE = 128
#: How many parsed documents' operations are kept, by kind and content digest.
PARSED_CACHE_SIZE = 32
#: Objects and lists a YAML document may expand to through its aliases (its unique ones are bounded
#: by its size): the validator walks every expansion.
MAX_EXPANDED_NODES = 2_000_000
TOO_DEEP = "the document is nested too deeply to be read"

OPENAPI_METHODS = ("get", "put", "post", "delete", "options", "head", "patch", "trace")
WSDL_NS = "http://schemas.xmlsoap.org/wsdl/"
_SOAP_ADDRESS_NAMESPACES = (
    "http://schemas.xmlsoap.org/wsdl/soap/",
    "http://schemas.xmlsoap.org/wsdl/soap12/",
)
_XSD_NS = "http://www.w3.org/2001/XMLSchema"
_YAML_STR = "tag:yaml.org,2002:str"
_YAML_MERGE = "tag:yaml.org,2002:merge"


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


_parsed: OrderedDict[tuple[str, bytes], tuple[SpecOperation, ...]] = OrderedDict()
_parsed_lock = threading.Lock()


def parse_spec(kind: str, content: bytes, filename: str = "") -> list[SpecOperation]:
    """The endpoints of a spec of ``kind`` (OPEN_API, SWAGGER or WSDL); a ZIP is read for its WSDL.

    A document parsed lately is not parsed again: what it gives depends on its bytes alone (no
    reference leaves it), and re-parsing an unchanged spec is the common case, a whole validation
    of a big spec each time (``docs/performance.md``). Only successes are kept: a refused spec is
    refused again with the parsers' own message.

    :raises SpecError: the spec is empty, unreadable, or not a valid spec of ``kind``.
    """
    key = (kind, hashlib.sha256(content).digest())
    with _parsed_lock:
        known = _parsed.get(key)
        if known is not None:
            _parsed.move_to_end(key)
            return list(known)
    operations = _parse(kind, content, filename)
    with _parsed_lock:
        _parsed[key] = tuple(operations)
        while len(_parsed) > PARSED_CACHE_SIZE:
            _parsed.popitem(last=False)
    return operations


def _parse(kind: str, content: bytes, filename: str) -> list[SpecOperation]:
    if not content.strip():
        raise SpecError("Invalid specification: the document is empty")
    try:
        if kind == "WSDL":
            return _wsdl_operations(_wsdl_document(content, filename))
        return _openapi_operations(kind, _load_document(content))
    except RecursionError:
        # The parsers and the validator recurse once per level of nesting.
        raise SpecError(f"Invalid specification: {TOO_DEEP}") from None


# -- JSON and YAML -------------------------------------------------------------------------------


@functools.cache
def _spec_loader() -> type[Any]:
    """PyYAML's safe loader, libyaml's where it is there (several times the pure-Python one's speed
    on big specs), reading mapping keys and timestamps as text, as the product's YAML reader does:
    an unquoted response code (``200:``) is the key ``"200"``, and ``2001-01-01`` the string it looks
    like, which is also what the JSON of the same document holds. Built on first use, so that
    importing the models does not import PyYAML."""
    import yaml

    class SpecLoader(getattr(yaml, "CSafeLoader", yaml.SafeLoader)):  # type: ignore[misc]
        def construct_mapping(self, node: yaml.MappingNode, deep: bool = False) -> dict[Any, Any]:
            self.flatten_mapping(node)  # first, so that keys merged in with "<<" are text too
            for key_node, _ in node.value:
                if isinstance(key_node, yaml.ScalarNode) and key_node.tag not in (_YAML_STR, _YAML_MERGE):
                    key_node.tag = _YAML_STR
            mapping: dict[Any, Any] = super().construct_mapping(node, deep)
            return mapping

    SpecLoader.add_constructor("tag:yaml.org,2002:timestamp", SpecLoader.construct_yaml_str)
    return SpecLoader


def _load_document(content: bytes) -> dict[str, Any]:
    import yaml

    try:
        text = content.decode("utf-8-sig")
    except UnicodeDecodeError:
        raise SpecError("Invalid specification: the document is not UTF-8 text") from None
    try:
        if text.lstrip()[:1] in ("{", "["):
            document = json.loads(text)
        else:
            loader = _spec_loader()
            with _collector_paused():
                document = yaml.load(text, loader)
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
    from jsonschema_path import SchemaPath
    from openapi_spec_validator.validation.exceptions import OpenAPIValidationError
    from referencing.exceptions import Unresolvable

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
    from referencing.exceptions import PointerToNowhere

    ref = getattr(exc, "ref", "")
    if isinstance(exc, PointerToNowhere):
        return f"#{ref}"
    return str(ref)


def _openapi_operations(kind: str, document: dict[str, Any]) -> list[SpecOperation]:
    from openapi_spec_validator import (
        OpenAPIV2SpecValidator,
        OpenAPIV30SpecValidator,
        OpenAPIV31SpecValidator,
    )

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
