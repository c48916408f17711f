"""``apinizer_pulumi.models.parse_spec``: the emulator's spec parsing, offline in the models layer.

The provider reads a spec with it at preview (a broken spec fails there, before any request) and to
tell which endpoints a re-parse makes. It must read every spec as the emulator does: the same
endpoints from every spec the emulator's tests use, the same message for every spec it refuses.
"""

from __future__ import annotations

import dataclasses
import io
import zipfile
from pathlib import Path

import pytest

from apinizer_emulator import specs as emulator_specs
from apinizer_pulumi.models import SpecError, SpecOperation, parse_spec

SPECS = Path(__file__).parent.parent / "emulator" / "specs"
CALCULATOR = (SPECS / "calculator.wsdl").read_bytes()


def _zip(files: dict[str, bytes]) -> bytes:
    buffer = io.BytesIO()
    with zipfile.ZipFile(buffer, "w") as archive:
        for name, data in files.items():
            archive.writestr(name, data)
    return buffer.getvalue()


GOOD = [
    ("OPEN_API", (SPECS / "petstore-openapi.yaml").read_bytes(), "petstore-openapi.yaml"),
    ("SWAGGER", (SPECS / "orders-swagger.json").read_bytes(), "orders-swagger.json"),
    ("WSDL", CALCULATOR, "calculator.wsdl"),
    ("WSDL", _zip({"b/main.wsdl": CALCULATOR, "b/xsd/types.xsd": b"<x/>"}), "calc.zip"),
]
BAD = [
    ("OPEN_API", b"   ", ""),
    ("OPEN_API", b"\xff\xfe\x00", ""),
    ("OPEN_API", b"{not json", ""),
    ("OPEN_API", b"- a\n- list\n", ""),
    ("OPEN_API", b'{"openapi": "2.5", "paths": {}}', ""),
    ("SWAGGER", (SPECS / "petstore-openapi.yaml").read_bytes(), ""),
    ("OPEN_API", b'{"openapi": "3.0.3", "info": {"title": "t"}, "paths": {}}', ""),
    ("WSDL", b"<definitions", "broken.wsdl"),
    ("WSDL", b'<definitions xmlns="http://schemas.xmlsoap.org/wsdl/"/>', "empty.wsdl"),
    ("WSDL", b'<!DOCTYPE x [<!ENTITY a "b">]><x>&a;</x>', "entity.wsdl"),
    ("WSDL", _zip({"main.wsdl": CALCULATOR.replace(b"</wsdl:types>", b'<xs:import xmlns:xs='
                   b'"http://www.w3.org/2001/XMLSchema" schemaLocation="missing.xsd"/></wsdl:types>')}),
     "calc.zip"),
    ("WSDL", b"PK\x03\x04 not really a zip", "calc.zip"),
]


@pytest.mark.parametrize(("kind", "content", "filename"), GOOD, ids=[g[2] for g in GOOD])
def test_the_endpoints_are_the_emulators(kind: str, content: bytes, filename: str) -> None:
    ours = parse_spec(kind, content, filename)
    theirs = emulator_specs.parse_spec(kind, content, filename)
    assert ours and [dataclasses.astuple(o) for o in ours] == [dataclasses.astuple(e) for e in theirs]
    assert all(isinstance(operation, SpecOperation) for operation in ours)


@pytest.mark.parametrize(("kind", "content", "filename"), BAD, ids=range(len(BAD)))
def test_a_refused_spec_has_the_emulators_message(kind: str, content: bytes, filename: str) -> None:
    with pytest.raises(emulator_specs.SpecError) as theirs:
        emulator_specs.parse_spec(kind, content, filename)
    with pytest.raises(SpecError) as ours:
        parse_spec(kind, content, filename)
    assert isinstance(ours.value, ValueError)
    assert str(ours.value) == str(theirs.value)
