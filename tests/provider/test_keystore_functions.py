"""``get_keystores`` and ``get_crypto_keys``, called from the program's process, against a live emulator:
each environment's material by its sha256, never the files, passwords or private keys."""

from __future__ import annotations

import base64
import hashlib

import pytest
from cryptography.hazmat.primitives import serialization

import _emulator_http as emulator_http
import apinizer_pulumi as apinizer
from _key_material import ec_key, issue, pkcs12_file
from apinizer_pulumi.client import ApinizerClient, NotFoundError

from .test_group_functions import fresh_clients  # noqa: F401  # the autouse fixture: no env, clients closed

PASSWORD = "Keystore-Pa55"


def test_keystores_and_keys_by_digest_with_no_material(emulator_url: str) -> None:
    admin = apinizer.ConnectionArgs(url=emulator_url, token="dev-admin-token")
    assert apinizer.get_keystores("Demo", connection=admin) == []
    keystore = pkcs12_file(issue("api.example.com"), "api", PASSWORD)
    key = ec_key()
    private = key.private_bytes(serialization.Encoding.PEM, serialization.PrivateFormat.PKCS8,
                                serialization.NoEncryption()).decode()
    with ApinizerClient(emulator_url, token="dev-admin-token") as client:
        client.keystores.create("Demo", {"name": "signing", "key_store_environment_list": [
            {"environment_name": "test", "type": "PKCS12", "file": base64.b64encode(keystore).decode(),
             "password": PASSWORD}]})
        client.crypto_keys.create("Demo", {"name": "payload", "description": "Payload key", "key_type": "EC",
                                           "crypto_key_info_environment_list": [
                                               {"environment_name": "production", "private_key": private}]})
    emulator_http.post(f"{emulator_url}/_emulator/stats/reset", json={}).raise_for_status()

    [found] = apinizer.get_keystores("Demo", connection=admin)
    [found_key] = apinizer.get_crypto_keys("Demo", connection=admin)

    assert (found.name, found.key_type, found.id) == ("signing", None, found.id) and found.id
    [environment] = found.environments
    assert (environment.environment_name, environment.type) == ("test", "PKCS12")
    assert environment.sha256 == hashlib.sha256(keystore).hexdigest()
    assert (found_key.name, found_key.description, found_key.key_type) == ("payload", "Payload key", "EC")
    [key_environment] = found_key.environments
    assert key_environment.private_key_sha256 == hashlib.sha256(private.encode()).hexdigest()
    assert key_environment.public_key_sha256 is None
    shown = repr(found) + repr(found_key)
    assert PASSWORD not in shown and "PRIVATE KEY" not in shown
    assert base64.b64encode(keystore).decode() not in shown
    requests = emulator_http.get(f"{emulator_url}/_emulator/stats").json()["requests"]
    assert requests == {"GET /apiops/projects/{projectName}/keystores/": 1,
                        "GET /apiops/projects/{projectName}/keys/": 1}


def test_an_unknown_project_raises_not_found(emulator_url: str) -> None:
    admin = apinizer.ConnectionArgs(url=emulator_url, token="dev-admin-token")
    with pytest.raises(NotFoundError):
        apinizer.get_keystores("Nowhere", connection=admin)
    with pytest.raises(NotFoundError):
        apinizer.get_crypto_keys("Nowhere", connection=admin)
