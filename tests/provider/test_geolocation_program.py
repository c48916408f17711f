"""Geolocation as a program registers it (Pulumi's mocks stand in for the engine): the file's hash,
not its bytes; the base64 source as a secret; a wrong file refused in the program, naming it."""

from __future__ import annotations

import base64
import hashlib
from pathlib import Path
from typing import Any

import pulumi
import pytest
from pulumi.runtime import rpc

import apinizer_pulumi as apinizer
from _mmdb import write_mmdb
from apinizer_pulumi.resources._args import InputValueError

from .test_resources import _registered, mocks  # noqa: F401  # the mocks fixture, autouse here too


@pytest.fixture
def mmdb_file(tmp_path: Path) -> Path:
    path = tmp_path / "GeoLite2-Country.mmdb"
    write_mmdb(path)
    return path


@pulumi.runtime.test
def test_the_program_sends_the_files_hash_not_its_bytes_and_the_base64_as_a_secret(mmdb_file: Path) -> Any:
    content = mmdb_file.read_bytes()
    from_file = apinizer.Geolocation("geo", mmdb_file=mmdb_file)
    from_bytes = apinizer.Geolocation("geo-bytes", mmdb_base64=base64.b64encode(content).decode(),
                                      enabled=False)

    def verify(_: Any) -> None:
        inputs = _registered("geo").inputs
        assert inputs["mmdb_file"] == str(mmdb_file.absolute())
        assert inputs["mmdb_sha256"] == hashlib.sha256(content).hexdigest()
        assert "mmdb_base64" not in inputs
        given = _registered("geo-bytes").inputs["mmdb_base64"]
        assert rpc.is_rpc_secret(given) and rpc.unwrap_rpc_secret(given) == base64.b64encode(content).decode()

    return pulumi.Output.all(from_file.urn, from_bytes.urn).apply(verify)


@pulumi.runtime.test
def test_a_file_that_is_no_mmdb_fails_in_the_program_naming_it(tmp_path: Path) -> None:
    wrong = tmp_path / "countries.csv"
    wrong.write_text("TR,81.214.0.0/16\n")
    not_mmdb = r"mmdb_file '.*countries.csv' is not a MaxMind DB \(.mmdb\) file"
    with pytest.raises(InputValueError, match=not_mmdb):
        apinizer.Geolocation("geo", mmdb_file=wrong)
    with pytest.raises(InputValueError, match=r"mmdb_file '.*missing.mmdb' cannot be read: No such file"):
        apinizer.Geolocation("geo", mmdb_file=tmp_path / "missing.mmdb")
