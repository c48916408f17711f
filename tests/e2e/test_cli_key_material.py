"""A keystore and a crypto key under the real ``pulumi`` CLI: the engine keeps a secret nested in an
environment's entry (a password, a private key) secret in ``pulumi stack export`` and in
``preview --diff``, the file's bytes are nowhere in the state, a new file shows as its sha256 and
updates in place, and destroy deletes both. What the engine alone shows: the provider's own steps are
tests/provider/test_keystore.py's and test_crypto_key.py's.
"""

from __future__ import annotations

import base64
import hashlib
import json
from pathlib import Path
from typing import Any

import pytest
from cryptography.hazmat.primitives import serialization

from _key_material import ec_key, issue, pkcs12_file
from apinizer_pulumi.client import ApinizerClient

from .conftest import Project, program_source, summary

KEYSTORE_PASSWORD = "Keystore-e2e-Pa55"
SECRET_SIG = {"4dabf18193072939515e22adb298388d": "1b47061264138c4ac30d75fd1eb44270"}

PROGRAM = """
import pulumi

import apinizer_pulumi as apinizer

config = pulumi.Config()
keystore = apinizer.Keystore(
    "signing",
    project_name="Demo",
    name="signing-e2e",
    environments=[apinizer.KeystoreEnvironmentArgs(
        environment_name="test", type="PKCS12", file="signing.p12",
        password=config.require_secret("keystorePassword"))],
)
key = apinizer.CryptoKey(
    "payload",
    project_name="Demo",
    name="payload-e2e",
    key_type="EC",
    environments=[apinizer.CryptoKeyEnvironmentArgs(
        environment_name="test", private_key=config.require_secret("privateKey"))],
)
pulumi.export("keystore_id", keystore.keystore_id)
pulumi.export("crypto_key_id", key.crypto_key_id)
"""


def pem(key: Any) -> str:
    return str(key.private_bytes(serialization.Encoding.PEM, serialization.PrivateFormat.PKCS8,
                                 serialization.NoEncryption()).decode())


def recorded(exported: str, kind: str) -> dict[str, Any]:
    """``kind``'s resource in a ``pulumi stack export``."""
    resources = json.loads(exported)["deployment"]["resources"]
    (found,) = [r for r in resources if r["type"] == f"pulumi-python:dynamic/apinizer:{kind}"]
    return dict(found)


@pytest.mark.usefixtures("emulator")
def test_key_material_secrets_stay_secret_and_a_new_file_updates_in_place(
    make_project: Any, emulator_url: str, admin_token: str, tmp_path: Path
) -> None:
    private = pem(ec_key())
    first = pkcs12_file(issue("api.example.com"), "api", KEYSTORE_PASSWORD)
    source = program_source(tmp_path / "source", "key-material", PROGRAM)
    project: Project = make_project(source, name="key-material")
    (project.directory / "signing.p12").write_bytes(first)
    project.configure({"apinizer:url": emulator_url}, secrets={
        "apinizer:token": admin_token, "keystorePassword": KEYSTORE_PASSWORD, "privateKey": private})

    up = project.up()
    assert summary(up.stdout) == {"created": 3}, up.stdout
    exported = project.export()
    for clear in (KEYSTORE_PASSWORD, private, base64.b64encode(first).decode()):
        assert clear not in exported and clear not in up.output
    keystore, key = recorded(exported, "Keystore"), recorded(exported, "CryptoKey")
    for where in ("inputs", "outputs"):
        # The engine keeps a list whose item holds a secret secret whole (it recurses into objects
        # only): the digests stand beside it, in clear, for diffs.
        assert SECRET_SIG.items() <= keystore[where]["environments"].items()
        assert SECRET_SIG.items() <= key[where]["environments"].items()
        assert keystore[where]["sha256"] == {"test": hashlib.sha256(first).hexdigest()}
        assert key[where]["sha256"] == {"test": {"private_key": hashlib.sha256(private.encode()).hexdigest()}}

    # A new file: its sha256 in the diff, an update in place.
    rotated = pkcs12_file(issue("api.example.com"), "api", KEYSTORE_PASSWORD)
    (project.directory / "signing.p12").write_bytes(rotated)
    preview = project.preview("--diff")
    assert summary(preview.stdout) == {"to update": 1, "unchanged": 2}, preview.stdout
    assert hashlib.sha256(rotated).hexdigest() in preview.stdout
    assert KEYSTORE_PASSWORD not in preview.output and private not in preview.output
    changed = project.up()
    assert summary(changed.stdout) == {"updated": 1, "unchanged": 2}, changed.stdout
    with ApinizerClient(emulator_url, token=admin_token) as client:
        live = client.keystores.get("Demo", "signing-e2e")
    assert live.key_store_environment_list[0].file == base64.b64encode(rotated).decode()
    assert summary(project.up("--expect-no-changes").stdout) == {"unchanged": 3}

    destroyed = project.destroy("--skip-preview")
    assert summary(destroyed.stdout) == {"deleted": 3}, destroyed.stdout
    with ApinizerClient(emulator_url, token=admin_token) as client:
        assert client.keystores.list("Demo") == [] and client.crypto_keys.list("Demo") == []
