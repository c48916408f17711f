"""``apinizer-pulumi generate`` writes the project's keystores and crypto keys with adopt=True, every file,
password and private key from a secret stack config key; the generated program adopts them without a
change."""

from __future__ import annotations

import base64
import json
import subprocess
import sys
from pathlib import Path

import pytest

from _key_material import ec_key, issue, pkcs12_file
from apinizer_pulumi.client import ApinizerClient
from apinizer_pulumi.generate.cli import main
from examples.harness import run_program

from .test_generate_cli import env  # noqa: F401  # the fixture: connection from the environment

PASSWORD = "Keystore-Pa55"
GENERATE = ["generate", "--project", "Demo", "--proxy", "Orders", "--no-policies"]
MATERIAL: dict[str, str] = {}


@pytest.fixture
def key_material(emulator_url: str, admin_token: str) -> dict[str, str]:
    from cryptography.hazmat.primitives import serialization

    if not MATERIAL:
        key = ec_key()
        keystore = pkcs12_file(issue("api.example.com"), "api", PASSWORD)
        MATERIAL["keystore"] = base64.b64encode(keystore).decode()
        MATERIAL["private"] = key.private_bytes(serialization.Encoding.PEM, serialization.PrivateFormat.PKCS8,
                                                serialization.NoEncryption()).decode()
        MATERIAL["public"] = base64.b64encode(key.public_key().public_bytes(
            serialization.Encoding.DER, serialization.PublicFormat.SubjectPublicKeyInfo)).decode()
    with ApinizerClient(emulator_url, token=admin_token) as client:
        client.keystores.create("Demo", {"name": "signing", "description": "Signing keys",
                                         "key_store_environment_list": [
                                             {"environment_name": "test", "type": "PKCS12",
                                              "file": MATERIAL["keystore"], "password": PASSWORD}]})
        client.crypto_keys.create("Demo", {
            "name": "payload", "key_type": "EC", "crypto_key_info_environment_list": [
                {"environment_name": "production", "public_key": MATERIAL["public"],
                 "private_key": MATERIAL["private"]}]})
    return MATERIAL


@pytest.mark.usefixtures("env")
def test_generate_writes_keystores_and_keys_with_their_secrets_from_config(
    tmp_path: Path, capsys: pytest.CaptureFixture[str], key_material: dict[str, str]
) -> None:
    out = tmp_path / "__main__.py"
    assert main([*GENERATE, "--out", str(out)]) == 0
    text = out.read_text()
    assert key_material["keystore"][:40] not in text and "PRIVATE KEY" not in text and PASSWORD not in text
    assert 'content_base64=config.require_secret("keystore-demo-signing-test-file"),' in text
    assert 'password=config.require_secret("keystore-demo-signing-test-password"),' in text
    assert 'private_key=config.require_secret("key-demo-payload-production-private-key"),' in text
    assert key_material["public"][:40] in text  # a public key is written as it is
    err = capsys.readouterr().err
    (keys,) = [line for line in err.splitlines() if "keystore(s) and crypto key(s)" in line]
    assert keys.endswith("(keys: keystore-demo-signing-test-file, keystore-demo-signing-test-password, "
                         "key-demo-payload-production-private-key)")
    compile(text, str(out), "exec")
    lint = subprocess.run(
        [sys.executable, "-m", "ruff", "check", "--isolated", "--line-length", "100", str(out)],
        capture_output=True, text=True, check=False)
    assert lint.returncode == 0, lint.stdout


@pytest.mark.usefixtures("env")
def test_the_generated_program_adopts_them_without_a_change(
    tmp_path: Path, emulator_url: str, admin_token: str, monkeypatch: pytest.MonkeyPatch,
    key_material: dict[str, str]
) -> None:
    out = tmp_path / "__main__.py"
    assert main([*GENERATE, "--out", str(out)]) == 0
    (tmp_path / "Pulumi.yaml").write_text("name: generated\nruntime: python\n")
    config = {
        "apinizer:url": emulator_url,
        "apinizer:token": admin_token,
        "generated:keystore-demo-signing-test-file": key_material["keystore"],
        "generated:keystore-demo-signing-test-password": PASSWORD,
        "generated:key-demo-payload-production-private-key": key_material["private"],
    }
    monkeypatch.setenv("PULUMI_CONFIG", json.dumps(config))
    run = run_program(tmp_path, config)
    assert [item.name for item in run.mocks.of_type("apinizer:Keystore")] == ["keystore-demo-signing"]
    assert [item.name for item in run.mocks.of_type("apinizer:CryptoKey")] == ["key-demo-payload"]
    # The program marked the secrets (the SDK's mock monitor lifts a nested secret to its list).
    [keystore_step] = run.mocks.of_type("apinizer:Keystore")
    assert keystore_step.secrets == ["environments"]
    again = run_program(tmp_path, config, previous=run, preview=True)
    assert again.mocks.steps() == {"create": 0, "same": len(run.mocks.registrations), "update": 0}
    with ApinizerClient(emulator_url, token=admin_token) as client:
        [keystore] = client.keystores.list("Demo")
        [key] = client.crypto_keys.list("Demo")
    assert keystore.key_store_environment_list[0].file == key_material["keystore"]
    assert key.crypto_key_info_environment_list[0].private_key == key_material["private"]
