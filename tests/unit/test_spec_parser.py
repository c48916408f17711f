"""``apinizer_pulumi.models.parse_spec``: the one spec parser, the emulator's and the preview's.

The provider reads a spec with it at preview (a broken spec fails there, before any request) and to
tell which endpoints a re-parse makes; the emulator answers an upload or a spec URL with it. So a spec
gets the same endpoints and, refused, the same message, from both: pinned here for every kind of spec
and of refusal, and, for the emulator, that its 400 carries the parser's message unchanged. The rules
that keep a spec from reaching out (``$ref``, YAML aliases) are tested through the emulator's HTTP in
``tests/emulator/test_spec_trust.py`` and through the provider's check in
``tests/provider/test_api_proxy_spec.py``.
"""

from __future__ import annotations

import dataclasses
import io
import zipfile
from pathlib import Path

import pytest

from apinizer_emulator import specs as emulator_specs
from apinizer_emulator.errors import BadRequestError
from apinizer_pulumi.models import SpecError, SpecOperation, parse_spec

SPECS = Path(__file__).parent.parent / "emulator" / "specs"
CALCULATOR = (SPECS / "calculator.wsdl").read_bytes()


def _zip(files: dict[str, bytes]) -> bytes:
    buffer = io.BytesIO()
    with zipfile.ZipFile(buffer, "w") as archive:
        for name, data in files.items():
            archive.writestr(name, data)
    return buffer.getvalue()


PETSTORE = [
    ("/pets", "GET", "List all pets", "/pets", "GET"),
    ("/pets", "POST", "createPet", "/pets", "POST"),
    ("/pets/{id}", "GET", "One pet", "/pets/{id}", "GET"),
    ("/pets/{id}", "DELETE", None, "/pets/{id}", "DELETE"),
]
ORDERS = [
    ("/orders", "GET", "List orders", "/orders", "GET"),
    ("/orders", "POST", "Place an order", "/orders", "POST"),
    ("/orders/{id}", "PATCH", None, "/orders/{id}", "PATCH"),
]
SOAP = [
    ("Add", "POST", "Adds two integers", "/calculator.asmx", "POST"),
    ("Multiply", "POST", None, "/calculator.asmx", "POST"),
]
GOOD = [
    ("OPEN_API", (SPECS / "petstore-openapi.yaml").read_bytes(), "petstore-openapi.yaml", PETSTORE),
    ("SWAGGER", (SPECS / "orders-swagger.json").read_bytes(), "orders-swagger.json", ORDERS),
    ("WSDL", CALCULATOR, "calculator.wsdl", SOAP),
    ("WSDL", _zip({"b/main.wsdl": CALCULATOR, "b/xsd/types.xsd": b"<x/>"}), "calc.zip", SOAP),
]
MISSING_XSD = CALCULATOR.replace(b"</wsdl:types>", b'<xs:import xmlns:xs="http://www.w3.org/2001/XMLSchema" '
                                 b'schemaLocation="missing.xsd"/></wsdl:types>')
BAD = [
    ("OPEN_API", b"   ", "", "the document is empty"),
    ("OPEN_API", b"\xff\xfe\x00", "", "the document is not UTF-8 text"),
    ("OPEN_API", b"{not json", "", "the document is neither JSON nor YAML (Expecting property name enclosed "
                                   "in double quotes: line 1 column 2 (char 1))"),
    ("OPEN_API", b"- a\n- list\n", "", "the document is not a JSON or YAML object"),
    ("OPEN_API", b'{"openapi": "2.5", "paths": {}}', "",
     'the document declares neither "openapi: 3.x" nor "swagger: \'2.0\'"'),
    ("SWAGGER", (SPECS / "petstore-openapi.yaml").read_bytes(), "",
     "apiProxyCreationType is SWAGGER but the file is an OpenAPI 3 document"),
    ("OPEN_API", b'{"openapi": "3.0.3", "info": {"title": "t"}, "paths": {}}', "",
     '(OPEN_API): at info: "version" is a required property'),
    ("OPEN_API", b'{"openapi": "3.0.3", "info": {"title": "t", "version": "1"}, "paths": '
                 b'{"/a": {"get": {"responses": {"200": {"$ref": "other.yaml#/r"}}}}}}', "",
     "the reference (other.yaml#/r) is outside the document; only references inside the document (#/...) "
     "are resolved"),
    ("OPEN_API", b'{"openapi": "3.0.3", "info": {"title": "t", "version": "1"}, "paths": '
                 b'{"/a": {"get": {"responses": {"200": {"$ref": "#/nowhere"}}}}}}', "",
     "(OPEN_API): the reference (#/nowhere) cannot be resolved"),
    ("OPEN_API", b"openapi: 3.0.3\nx-loop: &a [*a]\n", "",
     "the document contains itself (a YAML alias inside its anchor)"),
    ("OPEN_API", b"[" * 100_000 + b"]" * 100_000, "", "the document is nested too deeply to be read"),
    ("WSDL", b"<definitions", "broken.wsdl", "broken.wsdl is not well-formed XML (unclosed token: line 1, "
                                             "column 0)"),
    ("WSDL", b'<definitions xmlns="http://schemas.xmlsoap.org/wsdl/"/>', "empty.wsdl",
     "the WSDL declares no operation (wsdl:portType/wsdl:operation)"),
    ("WSDL", b'<!DOCTYPE x [<!ENTITY a "b">]><x>&a;</x>', "entity.wsdl",
     "entity.wsdl uses a forbidden XML construct (EntitiesForbidden)"),
    ("WSDL", _zip({"main.wsdl": MISSING_XSD}), "calc.zip",
     "main.wsdl imports (xsd/types.xsd), which the ZIP does not hold"),
    ("WSDL", b"PK\x03\x04 not really a zip", "calc.zip", "the ZIP cannot be read (File is not a zip file)"),
]


@pytest.mark.parametrize(("kind", "content", "filename", "expected"), GOOD, ids=[g[2] for g in GOOD])
def test_the_endpoints_of_every_kind_of_spec(
        kind: str, content: bytes, filename: str, expected: list[tuple[str | None, ...]]) -> None:
    operations = parse_spec(kind, content, filename)
    assert [dataclasses.astuple(operation) for operation in operations] == expected
    assert all(isinstance(operation, SpecOperation) for operation in operations)


@pytest.mark.parametrize(("kind", "content", "filename", "reason"), BAD, ids=range(len(BAD)))
def test_a_refused_spec_is_a_value_error_that_says_why(kind: str, content: bytes, filename: str,
                                                        reason: str) -> None:
    with pytest.raises(SpecError) as refused:
        parse_spec(kind, content, filename)
    assert isinstance(refused.value, ValueError)
    separator = " " if reason.startswith("(") else ": "
    assert str(refused.value) == f"Invalid specification{separator}{reason}"


@pytest.mark.parametrize(("kind", "content", "filename", "reason"), BAD[:3] + BAD[-3:], ids=range(6))
def test_the_emulator_answers_the_parsers_message_as_a_400(kind: str, content: bytes, filename: str,
                                                           reason: str) -> None:
    with pytest.raises(SpecError) as ours:
        parse_spec(kind, content, filename)
    with pytest.raises(emulator_specs.SpecError) as answered:
        emulator_specs.parse_spec(kind, content, filename)
    assert isinstance(answered.value, BadRequestError) and answered.value.status == 400
    assert str(answered.value) == str(ours.value)
    assert answered.value.__cause__ is None and answered.value.__suppress_context__


def test_the_emulator_gives_the_parsers_endpoints() -> None:
    kind, content, filename, expected = GOOD[0]
    endpoints = emulator_specs.parse_spec(kind, content, filename)
    assert [dataclasses.astuple(endpoint) for endpoint in endpoints] == expected
