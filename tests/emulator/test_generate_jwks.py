"""``apinizer-pulumi generate`` writes the project's JWKs, each with adopt=True: a generated key as its
``generate`` args, a URL's as ``url``, a public key as its JSON, and a key with a private part from the
stack's config as a secret; the generated program adopts them all and then previews with no change."""

from __future__ import annotations

import json
import subprocess
import sys
from collections.abc import Iterator
from datetime import UTC, datetime
from pathlib import Path

import pytest

from _spec_server import Served, SpecServer, spec_server
from apinizer_emulator import key_material
from apinizer_pulumi.client import ApinizerClient
from apinizer_pulumi.generate.cli import main
from examples.harness import run_program

from .test_generate_cli import env  # noqa: F401  # the fixture: connection from the environment

PASTED = key_material.generate_jwk("EC", {"curveType": "P384"}, "pasted-1", datetime(2026, 1, 1, tzinfo=UTC))
PUBLIC = key_material.public_jwk(key_material.generate_jwk("OKP", {"curveType": "ED25519"}, "pub-1",
                                                           datetime(2026, 1, 1, tzinfo=UTC)))


@pytest.fixture
def served() -> Iterator[SpecServer]:
    with spec_server() as server:
        server.files["/jwks.json"] = Served(json.dumps({"keys": [PUBLIC]}).encode())
        yield server


@pytest.fixture
def jwks(emulator_url: str, admin_token: str, served: SpecServer) -> None:
    with ApinizerClient(emulator_url, token=admin_token) as client:
        client.jwks.generate("Demo", {"name": "signing", "description": "JWT signing", "type": "RSA",
                                      "kid": "rsa-1", "rsa": {"keySize": 3072}})
        client.jwks.generate("Demo", {"name": "shared", "type": "OCT", "oct": {"keySize": 192}})
        client.jwks.generate("Demo", {"name": "edge", "type": "EC", "ec": {"curveType": "P521"}})
        client.jwks.create("Demo", {"name": "partner", "source_type": "URL", "url": served.url("/jwks.json"),
                                    "kid": "pub-1"})
        for name, jwk in (("pasted", PASTED), ("public", PUBLIC)):
            pasted = {"name": name, "source_type": "COPY_PASTE", "jwk_str": json.dumps(jwk)}
            client.jwks.create("Demo", pasted)


def _generate(out: Path) -> int:
    return main(["generate", "--project", "Demo", "--proxy", "Orders", "--out", str(out), "--no-policies"])


@pytest.mark.usefixtures("env", "jwks")
def test_generate_writes_each_jwk_and_takes_private_parts_from_config(
        tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    out = tmp_path / "__main__.py"
    assert _generate(out) == 0
    text = out.read_text()
    err = capsys.readouterr().err

    assert "JWKs of Demo: 6" in err
    (keys,) = [line for line in err.splitlines() if "JWK(s) with a private part" in line]
    assert keys.endswith("(keys: demo-pasted-jwk)")
    assert 'jwk_json=config.require_secret("demo-pasted-jwk"),' in text
    assert PASTED["d"] not in text
    assert 'rsa=apinizer.JwkRsaArgs(key_size=3072),' in text and 'kid="rsa-1",' in text
    assert 'oct=apinizer.JwkOctArgs(key_size=192),' in text
    assert 'ec=apinizer.JwkEcArgs(curve_type="P521"),' in text
    assert 'kid="pub-1",' in text and "/jwks.json" in text
    section = text[text.index("jwks: dict") :]
    assert section.count("apinizer.Jwk(") == 6 and section.count("adopt=True,") == 6
    assert max(len(line) for line in text.splitlines()) <= 100
    ruff = [sys.executable, "-m", "ruff", "check", "--isolated", "--line-length", "100", str(out)]
    lint = subprocess.run(ruff, capture_output=True, text=True, check=False)
    assert lint.returncode == 0, lint.stdout


@pytest.mark.usefixtures("env", "jwks")
def test_the_generated_program_adopts_the_jwks_without_a_change(
        tmp_path: Path, emulator_url: str, admin_token: str, monkeypatch: pytest.MonkeyPatch) -> None:
    out = tmp_path / "__main__.py"
    assert _generate(out) == 0
    (tmp_path / "Pulumi.yaml").write_text("name: generated\nruntime: python\n")
    config = {"apinizer:url": emulator_url, "apinizer:token": admin_token,
              "generated:demo-pasted-jwk": json.dumps(PASTED)}
    monkeypatch.setenv("PULUMI_CONFIG", json.dumps(config))
    with ApinizerClient(emulator_url, token=admin_token) as client:
        before = {item.name: item for item in client.jwks.list("Demo")}

    run = run_program(tmp_path, config)
    again = run_program(tmp_path, config, previous=run, preview=True)

    assert again.mocks.steps() == {"create": 0, "same": len(run.mocks.registrations), "update": 0}
    with ApinizerClient(emulator_url, token=admin_token) as client:
        after = {item.name: item for item in client.jwks.list("Demo")}
    assert after == before  # taken over as they were: not one key made again


@pytest.mark.usefixtures("env", "jwks")
def test_check_finds_a_jwk_described_or_made_in_the_console(
        tmp_path: Path, emulator_url: str, admin_token: str, capsys: pytest.CaptureFixture[str]) -> None:
    out = tmp_path / "__main__.py"
    assert _generate(out) == 0
    check = ["generate", "--project", "Demo", "--proxy", "Orders", "--no-policies", "--check",
             "--out", str(out)]
    assert main(check) == 0
    with ApinizerClient(emulator_url, token=admin_token) as client:
        client.jwks.update("Demo", "signing", {"name": "signing", "description": "changed in the console"})
        client.jwks.generate("Demo", {"name": "extra", "type": "OKP", "okp": {"curveType": "ED25519"}})
    capsys.readouterr()

    assert main(check) == 1

    drift = capsys.readouterr().out
    assert "Jwk Demo/signing" in drift and "changed in the console" in drift
    assert "Jwk Demo/extra" in drift
