"""The emulator's spec reading (``apinizer_emulator.specs``) on documents of every supported kind."""

from __future__ import annotations

import json
from pathlib import Path

import pytest
import yaml

import apinizer_pulumi.models._spec as spec_parser
from _spec_server import zip_of
from apinizer_emulator.specs import SpecError, parse_spec

SPECS = Path(__file__).parent / "specs"
CALCULATOR = (SPECS / "calculator.wsdl").read_bytes()


def _openapi(version: str, operations: int) -> dict[str, object]:
    paths = {
        f"/items{i}": {
            "get": {"responses": {"200": {"description": "ok"}}},
            "post": {"responses": {"201": {"description": "ok"}}},
        }
        for i in range(operations // 2)
    }
    return {"openapi": version, "info": {"title": "t", "version": "1"}, "paths": paths}


@pytest.mark.parametrize("version", ["3.0.3", "3.1.0"])
def test_openapi_3_in_json_and_yaml(version: str) -> None:
    document = _openapi(version, 200)
    for content in (json.dumps(document).encode(), yaml.safe_dump(document).encode()):
        endpoints = parse_spec("OPEN_API", content)
        assert len(endpoints) == 200
        assert (endpoints[0].name, endpoints[0].http_method) == ("/items0", "GET")


def test_swagger_2_in_yaml() -> None:
    document = json.loads((SPECS / "orders-swagger.json").read_bytes())
    endpoints = parse_spec("SWAGGER", yaml.safe_dump(document).encode(), "orders.yaml")
    assert [(e.http_method, e.name) for e in endpoints] == [
        ("GET", "/orders"),
        ("POST", "/orders"),
        ("PATCH", "/orders/{id}"),
    ]


def test_path_level_keys_are_not_operations() -> None:
    document = _openapi("3.0.3", 0)
    document["paths"] = {
        "/a": {"summary": "x", "parameters": [], "get": {"responses": {"200": {"description": "ok"}}}}
    }
    assert [(e.http_method, e.name) for e in parse_spec("OPEN_API", json.dumps(document).encode())] == [
        ("GET", "/a")
    ]


def test_wsdl_soap12_address_and_operations_named_once() -> None:
    wsdl = CALCULATOR.replace(
        b"http://schemas.xmlsoap.org/wsdl/soap/", b"http://schemas.xmlsoap.org/wsdl/soap12/"
    )
    wsdl = wsdl.replace(
        b"</wsdl:portType>",
        b'</wsdl:portType><wsdl:portType name="Again"><wsdl:operation name="Add"/></wsdl:portType>',
    )
    endpoints = parse_spec("WSDL", wsdl, "calc.wsdl")
    assert [(e.name, e.backend_resource_url) for e in endpoints] == [
        ("Add", "/calculator.asmx"),
        ("Multiply", "/calculator.asmx"),
    ]


@pytest.mark.parametrize(
    ("content", "message"),
    [
        (b"", "the document is empty"),
        (b"\xff\xfe\x00", "not UTF-8 text"),
        (b"{not json", "neither JSON nor YAML"),
        (b'{"openapi": "2.5", "paths": {}}', 'declares neither "openapi: 3.x"'),
    ],
)
def test_bad_openapi_documents(content: bytes, message: str) -> None:
    with pytest.raises(SpecError, match=message.replace("(", r"\(")):
        parse_spec("OPEN_API", content)


def test_a_wsdl_without_operations_or_of_another_kind() -> None:
    with pytest.raises(SpecError, match="declares no operation"):
        parse_spec("WSDL", b'<definitions xmlns="http://schemas.xmlsoap.org/wsdl/"/>')
    with pytest.raises(SpecError, match=r"is not a WSDL 1.1 document \(its root is"):
        parse_spec("WSDL", b'<description xmlns="http://www.w3.org/ns/wsdl"/>', "v2.wsdl")


def test_the_zip_entry_is_the_wsdl_that_declares_a_service() -> None:
    imported = (
        b'<definitions xmlns="http://schemas.xmlsoap.org/wsdl/"><portType name="P">'
        b'<operation name="Only"/></portType></definitions>'
    )
    content = zip_of({"a/aaa.wsdl": imported, "b/main.wsdl": CALCULATOR, "b/xsd/types.xsd": b"<x/>"})
    assert [e.name for e in parse_spec("WSDL", content)] == ["Add", "Multiply"]


def test_zip_limits(monkeypatch: pytest.MonkeyPatch) -> None:
    content = zip_of({"main.wsdl": CALCULATOR, "xsd/types.xsd": b"<x/>" * 1000})
    monkeypatch.setattr(spec_parser, "MAX_ZIP_CONTENT_BYTES", 1000)
    with pytest.raises(SpecError, match="the ZIP's files hold more than 1000 bytes"):
        parse_spec("WSDL", content)
    monkeypatch.setattr(spec_parser, "MAX_ZIP_ENTRIES", 1)
    with pytest.raises(SpecError, match="the ZIP holds more than 1 files"):
        parse_spec("WSDL", content)
    with pytest.raises(SpecError, match="the ZIP cannot be read"):
        parse_spec("WSDL", b"PK\x03\x04 not really a zip")


def test_a_document_parsed_again_gives_the_same_endpoints_and_a_refused_one_is_refused_again() -> None:
    document = _openapi("3.0.3", 4)
    content = json.dumps(document).encode()
    first = parse_spec("OPEN_API", content)
    again = parse_spec("OPEN_API", content)
    assert again == first and again is not first
    again.clear()  # the caller's list is its own
    assert parse_spec("OPEN_API", content) == first
    # The same bytes declared as another kind are checked for that kind.
    with pytest.raises(SpecError, match="apiProxyCreationType is SWAGGER but the file is an OpenAPI 3"):
        parse_spec("SWAGGER", content)
    del document["info"]
    broken = json.dumps(document).encode()
    for _ in range(2):
        with pytest.raises(SpecError, match='"info" is a required property'):
            parse_spec("OPEN_API", broken)


def test_the_garbage_collector_is_back_as_it_was_after_a_yaml_load() -> None:
    import gc

    valid = yaml.safe_dump(_openapi("3.0.3", 2)).encode()
    assert gc.isenabled()
    parse_spec("OPEN_API", valid + b"\n# once\n")
    with pytest.raises(SpecError, match="neither JSON nor YAML"):
        parse_spec("OPEN_API", b"a: [unclosed\n")
    assert gc.isenabled()
    gc.disable()
    try:
        parse_spec("OPEN_API", valid + b"\n# twice\n")
        assert not gc.isenabled()
    finally:
        gc.enable()


def test_yaml_keys_and_dates_are_read_as_text_as_the_product_reads_them() -> None:
    # Unquoted response codes (and a date-looking default) are everywhere in hand-written YAML specs;
    # the product's YAML reader takes keys and timestamps as text, and JSON has no other kind of key.
    content = (
        b"openapi: 3.0.3\ninfo: {title: t, version: '1'}\npaths:\n  /a:\n    get:\n"
        b"      parameters: [{name: since, in: query, schema: {type: string, default: 2001-01-01}}]\n"
        b"      responses:\n        200: {description: ok}\n        default: {description: error}\n"
        b"    post:\n      responses: {201: {description: made}}\n"
    )
    endpoints = parse_spec("OPEN_API", content)
    assert [(e.http_method, e.name) for e in endpoints] == [("GET", "/a"), ("POST", "/a")]
    merged = (
        b"openapi: 3.0.3\ninfo: {title: t, version: '1'}\nx-common: &ok {200: {description: ok}}\n"
        b"paths:\n  /b:\n    get:\n      responses:\n        <<: *ok\n        404: {description: gone}\n"
    )
    assert [e.name for e in parse_spec("OPEN_API", merged)] == ["/b"]
