"""``client.jwks``, ``client.certificates``, ``client.crypto_keys`` and ``client.keystores`` against the
live emulator: every one of the 28 operations through the real client and its models, and the
gateway's refusals as the client's exceptions."""

from __future__ import annotations

import io
import json
import zipfile
from collections.abc import Iterator
from datetime import UTC, datetime
from typing import Any

import pytest

import _key_material as km
from apinizer_emulator import key_material
from apinizer_pulumi.client import ApinizerClient, BadRequestError
from apinizer_pulumi.models import Certificate, CryptoKey, Jwk, Keystore

from .conftest import Api

USE = {"environment_name": "production", "use_type": "SIGNATURE", "algorithm": "RS256"}


@pytest.fixture
def client(emulator_url: str, admin_token: str) -> Iterator[ApinizerClient]:
    with ApinizerClient(emulator_url, token=admin_token) as c:
        yield c


@pytest.fixture(scope="module")
def rsa() -> km.Issued:
    return km.issue("client.example.com", key=km.rsa_key())


def test_certificates_keys_and_keystores_through_the_client(client: ApinizerClient, rsa: km.Issued) -> None:
    certificate = {
        "certificate_name": "cert",
        "alias": "cert-alias",
        "certificate_description": "d",
        "environment_list": ["production", "test"],
        "pem_encoded_file": rsa.pem,
    }
    assert client.certificates.create("Demo", certificate).ok
    [listed] = client.certificates.list("Demo")
    got = client.certificates.get("Demo", "cert")
    assert listed.name == got.name == "cert"
    assert [e.environment_name for e in got.certificate_environment_list] == ["test", "production"]
    assert got.certificate_environment_list[0].base64_encoded_content == km.b64(rsa.der)
    assert client.certificates.update(
        "Demo",
        {**certificate, "environment_list": ["production"]},
        update_referenced_jwks=True,
        update_scope="SAME_PROJECT",
    ).ok
    with zipfile.ZipFile(io.BytesIO(client.certificates.export("Demo", "cert"))) as archive:
        assert archive.namelist() == ["cert-production.cer"]
    assert [c.name for c in client.certificates.truststore("admin", "production")] == ["cert"]

    key = {
        "name": "key",
        "key_type": "RSA",
        "crypto_key_info_environment_list": [
            {
                "environment_name": "production",
                "public_key": rsa.public_b64(),
                "private_key": rsa.private_b64(),
            }
        ],
    }
    assert client.crypto_keys.create("Demo", key).ok
    assert (
        client.crypto_keys.get("Demo", "key").crypto_key_info_environment_list[0].private_key
        == rsa.private_b64()
    )
    assert client.crypto_keys.update("Demo", {**key, "description": "new"}).ok
    assert [k.description for k in client.crypto_keys.list("Demo")] == ["new"]

    keystore = {
        "name": "store",
        "key_store_environment_list": [
            {
                "environment_name": "production",
                "type": "PKCS12",
                "file": km.b64(km.pkcs12_file(rsa, "a", "pw")),
                "password": "pw",
            }
        ],
    }
    assert client.keystores.create("Demo", keystore).ok
    [info] = client.keystores.get("Demo", "store").key_store_environment_list
    assert (info.type, info.password) == ("PKCS12", None)
    assert client.keystores.update("Demo", {**keystore, "name": "renamed"}, current_name="store").ok
    assert [k.name for k in client.keystores.list("Demo")] == ["renamed"]
    with pytest.raises(BadRequestError) as wrong:
        client.keystores.create(
            "Demo",
            {
                **keystore,
                "key_store_environment_list": [
                    {**keystore["key_store_environment_list"][0], "password": "nope"}
                ],
            },
        )
    assert "password is wrong" in str(wrong.value) and "nope" not in str(wrong.value)

    for objects, name in (
        (client.certificates, "cert"),
        (client.crypto_keys, "key"),
        (client.keystores, "renamed"),
    ):
        assert objects.delete("Demo", name).ok
        assert objects.find("Demo", name) is None


def create_key_certificate_and_keystore(client: ApinizerClient, rsa: km.Issued) -> None:
    """The sources of JWKs made from a project's objects: key ``key``, certificate ``cert`` and keystore
    ``store`` (alias ``a``), each in ``production``."""
    client.crypto_keys.create(
        "Demo",
        {
            "name": "key",
            "key_type": "RSA",
            "crypto_key_info_environment_list": [
                {"environment_name": "production", "public_key": rsa.public_b64()}
            ],
        },
    )
    client.certificates.create(
        "Demo",
        {
            "certificate_name": "cert",
            "alias": "a",
            "certificate_description": "",
            "environment_list": ["production"],
            "pem_encoded_file": rsa.pem,
        },
    )
    client.keystores.create(
        "Demo",
        {
            "name": "store",
            "key_store_environment_list": [
                {
                    "environment_name": "production",
                    "type": "JKS",
                    "file": km.b64(km.jks_file(rsa, "a", "pw")),
                    "password": "pw",
                }
            ],
        },
    )


def test_jwks_through_the_client(client: ApinizerClient, rsa: km.Issued) -> None:
    create_key_certificate_and_keystore(client, rsa)
    pasted = key_material.public_jwk(
        key_material.generate_jwk("EC", {"curveType": "P256"}, "k1", datetime.now(UTC))
    )

    assert client.jwks.create(
        "Demo",
        {
            "name": "pasted",
            "source_type": "COPY_PASTE",
            "jwk_str": json.dumps({"keys": [pasted]}),
            "kid": "k1",
        },
    ).ok
    assert client.jwks.generate(
        "Demo", {"name": "generated", "type": "OKP", "okp": {"curve_type": "ED25519"}}
    ).ok
    assert client.jwks.parse_from_clipboard("Demo", {"name": "clip", "jwk_str": json.dumps(pasted)}).ok
    assert client.jwks.parse_from_certificate(
        "Demo", {"name": "from-cert", "certificate_name": "cert", **USE}
    ).ok
    assert client.jwks.parse_from_key("Demo", {"name": "from-key", "key_name": "key", **USE}).ok
    assert client.jwks.parse_from_keystore(
        "Demo", {"name": "from-store", "key_store_name": "store", "alias_name": "a", **USE}
    ).ok
    with pytest.raises(BadRequestError, match=r"link-local"):
        client.jwks.parse_from_url("Demo", {"name": "from-url", "url": "http://169.254.169.254/jwks.json"})

    listed = {j.name: j for j in client.jwks.list("Demo")}
    assert set(listed) == {"pasted", "generated", "clip", "from-cert", "from-key", "from-store"}
    assert listed["from-store"].source_type == "KEYSTORE" and listed["from-store"].source_id
    generated = client.jwks.get("Demo", "generated")
    assert generated.type == "OKP" and generated.okp is not None
    assert client.jwks.update("Demo", "generated", {"name": "renamed", "description": "d"}).ok
    assert client.jwks.delete("Demo", "renamed").ok
    assert client.jwks.find("Demo", "renamed") is None


def test_answers_carry_the_id_the_emulator_holds(client: ApinizerClient, rsa: km.Issued, api: Api) -> None:
    # Policies name keys by id (certificateId, cryptoKeyInfoId, jwkIdForValidationAndSign): the
    # client's answers must keep the one the gateway gave.
    create_key_certificate_and_keystore(client, rsa)
    client.jwks.generate("Demo", {"name": "jwk", "type": "OKP", "okp": {"curve_type": "ED25519"}})
    [demo] = [p for p in api.state()["projects"] if p["name"] == "Demo"]

    objects: list[tuple[str, Any, str]] = [
        ("certificates", client.certificates, "cert"),
        ("cryptoKeys", client.crypto_keys, "key"),
        ("keystores", client.keystores, "store"),
        ("jwks", client.jwks, "jwk"),
    ]
    for state_key, family, name in objects:
        [held] = [o["id"] for o in demo[state_key] if o["name"] == name]
        got: Certificate | CryptoKey | Keystore | Jwk = family.get("Demo", name)
        [listed] = [o for o in family.list("Demo") if o.name == name]
        assert held and got.id == listed.id == held, state_key
