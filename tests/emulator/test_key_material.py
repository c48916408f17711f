"""The emulator's reading of key material, on real material made by ``cryptography`` and ``pyjks``:
certificates (PEM, DER, expired), keys, PKCS#12 and JKS keystores with their passwords, JWKs and
JWK Sets with ``kid`` selection, generated JWKs, and JWKs made from keys. No store, no HTTP: the
routes' tests (test_keys_*.py) show the same rules through the API."""

from __future__ import annotations

import json
import subprocess
import sys
from datetime import UTC, datetime

import pytest
from cryptography.hazmat.primitives import serialization

import _key_material as km
from apinizer_emulator import key_material
from apinizer_emulator.key_material import KeyMaterialError

NOW = datetime.now(UTC)


@pytest.fixture(scope="module")
def authority() -> km.Issued:
    return km.ca()


@pytest.fixture(scope="module")
def server(authority: km.Issued) -> km.Issued:
    return km.issue("api.example.com", issuer=authority, key=km.rsa_key())


def test_a_certificate_is_read_from_pem_or_der_with_what_the_pages_answer(server: km.Issued) -> None:
    from_pem = key_material.parse_certificate(b"leading text\n" + server.pem, "pemEncodedFile")
    from_der = key_material.parse_certificate(server.der, "pemEncodedFile")
    assert from_pem == from_der
    assert from_pem.der == server.der
    assert from_pem.subject_dn == "CN=api.example.com, O=Example Inc, C=US"
    assert len(from_pem.sha1_thumbprint) == 40 and from_pem.sha1_thumbprint.isupper()
    assert from_pem.iso(from_pem.end).endswith("Z") and not from_pem.expired(NOW)


def test_an_expired_certificate_is_known_as_such(authority: km.Issued) -> None:
    old = key_material.parse_certificate(km.expired(authority).pem, "pemEncodedFile")
    assert old.expired(NOW)


@pytest.mark.parametrize(
    ("content", "message"),
    [
        (b"", "pemEncodedFile value can not be empty!"),
        (b"not a certificate", "pemEncodedFile is not a valid X.509 certificate: it is neither a PEM"),
        (
            b"-----BEGIN CERTIFICATE-----\nAAAA\n-----END CERTIFICATE-----",
            "pemEncodedFile is not a valid X.509 certificate: its CERTIFICATE block cannot be read",
        ),
    ],
)
def test_what_is_no_certificate_is_refused_by_name(content: bytes, message: str) -> None:
    with pytest.raises(KeyMaterialError) as caught:
        key_material.parse_certificate(content, "pemEncodedFile")
    assert caught.value.status == 400
    assert caught.value.description.startswith(message)


def test_keys_are_read_as_pem_or_base64_der_and_their_type_told(server: km.Issued) -> None:
    private = key_material.parse_private_key(server.private_b64(), "privateKey")
    assert key_material.key_type_of(private) == "RSA"
    assert key_material.public_der(private) == key_material.public_der(
        key_material.parse_public_key(server.public_b64(), "publicKey")
    )
    from_pem = key_material.parse_private_key(server.private_pem(), "privateKey")
    assert key_material.key_type_of(from_pem) == "RSA"
    assert key_material.key_type_of(key_material.parse_public_key(km.issue("x").public_b64(), "k")) == "EC"


def test_a_bad_or_encrypted_key_is_refused_without_quoting_it(server: km.Issued) -> None:
    encrypted = server.key.private_bytes(
        serialization.Encoding.PEM,
        serialization.PrivateFormat.PKCS8,
        serialization.BestAvailableEncryption(b"pw"),
    ).decode()
    with pytest.raises(KeyMaterialError, match=r"^privateKey is encrypted"):
        key_material.parse_private_key(encrypted, "privateKey")
    with pytest.raises(KeyMaterialError, match=r"^publicKey is neither PEM nor base64"):
        key_material.parse_public_key("%%%secret-looking%%%", "publicKey")
    with pytest.raises(KeyMaterialError) as caught:
        key_material.parse_private_key(server.public_b64(), "privateKey")
    assert caught.value.description == "privateKey is not a valid private key"


def test_a_pkcs12_keystore_is_opened_with_its_password(server: km.Issued) -> None:
    entries = key_material.read_keystore(km.pkcs12_file(server, "api", "s3cret"), "PKCS12", "s3cret", "file")
    assert set(entries) == {"api"}
    assert entries["api"].certificate == server.der
    assert entries["api"].private_key is not None
    with pytest.raises(KeyMaterialError) as caught:
        key_material.read_keystore(km.pkcs12_file(server, "api", "s3cret"), "PKCS12", "wrong", "file")
    assert caught.value.description == (
        "file cannot be opened: it is not a PKCS12 keystore or the password is wrong"
    )
    assert "s3cret" not in caught.value.description and "wrong" not in caught.value.description.split(":")[0]


def test_a_jks_keystore_is_opened_with_its_password(authority: km.Issued, server: km.Issued) -> None:
    data = km.jks_file(server, "api", "changeit", trusted={"ca": authority})
    entries = key_material.read_keystore(data, "JKS", "changeit", "file")
    assert set(entries) == {"api", "ca"}
    assert entries["api"].certificate == server.der and entries["api"].private_key is not None
    assert entries["ca"] == key_material.KeystoreEntry(private_key=None, certificate=authority.der)
    with pytest.raises(KeyMaterialError, match="it is not a JKS keystore or the password is wrong"):
        key_material.read_keystore(data, "JKS", "not-it", "file")
    with pytest.raises(KeyMaterialError, match="file is not a valid JKS keystore"):
        key_material.read_keystore(b"\xfe\xed\xfe\xed garbage", "JKS", "changeit", "file")
    # A PKCS#12 file declared JKS, and the other way round.
    with pytest.raises(KeyMaterialError):
        key_material.read_keystore(km.pkcs12_file(server, "api", "p"), "JKS", "p", "file")
    with pytest.raises(KeyMaterialError):
        key_material.read_keystore(data, "PKCS12", "changeit", "file")
    with pytest.raises(KeyMaterialError, match=r"keystore type \(BKS\) is not one of JKS, PKCS12"):
        key_material.read_keystore(data, "BKS", "changeit", "file")


def _generated(kind: str, **params: object) -> dict[str, object]:
    return key_material.generate_jwk(kind, params, None, NOW)


def test_a_jwk_set_gives_the_key_its_kid_names() -> None:
    one, two = _generated("EC", curveType="P256"), _generated("OKP", curveType="ED25519")
    one["kid"], two["kid"] = "one", "two"
    text = json.dumps({"keys": [one, two]})
    assert key_material.parse_jwk(text, "two", "jwkStr") == two
    with pytest.raises(KeyMaterialError) as missing:
        key_material.parse_jwk(text, "three", "jwkStr")
    assert missing.value.description == "JWK with kid (three) is not found in the JWK Set of jwkStr!"
    with pytest.raises(KeyMaterialError, match="kid is required: the JWK Set of jwkStr holds 2 keys"):
        key_material.parse_jwk(text, None, "jwkStr")
    assert key_material.parse_jwk(json.dumps({"keys": [one]}), None, "jwkStr") == one
    assert key_material.parse_jwk(json.dumps(one), None, "jwkStr") == one


@pytest.mark.parametrize(
    ("text", "message"),
    [
        ("", "jwkStr value can not be empty!"),
        ("{", "jwkStr is not valid JSON"),
        ("[1]", "jwkStr must be a JWK or a JWK Set (a JSON object)"),
        ('{"keys": []}', "jwkStr is a JWK Set whose keys is not a non-empty array of JWKs"),
        ('{"kty": "DSA"}', "jwkStr: kty (DSA) is not one of RSA, EC, oct, OKP"),
        ('{"kty": "RSA", "n": "AQAB"}', "jwkStr is not a valid RSA JWK"),
        ('{"kty": "EC", "crv": "P-256", "x": "AAAA", "y": "AAAA"}', "jwkStr is not a valid EC JWK"),
    ],
)
def test_a_bad_jwk_is_refused_by_name(text: str, message: str) -> None:
    with pytest.raises(KeyMaterialError) as caught:
        key_material.parse_jwk(text, None, "jwkStr")
    assert caught.value.description == message


@pytest.mark.parametrize(
    ("kind", "params", "members", "alg"),
    [
        ("RSA", {"keySize": 2048}, {"n", "e", "d", "p", "q"}, "RS256"),
        ("EC", {"curveType": "P384"}, {"crv", "x", "y", "d"}, "ES384"),
        ("EC", {"curveType": "SECP256K1"}, {"crv", "x", "y", "d"}, "ES256K"),
        ("OCT", {"keySize": 192, "keyUseType": "ENCRYPTION", "algorithm": "A192KW"}, {"k"}, "A192KW"),
        ("OKP", {"curveType": "ED25519"}, {"crv", "x", "d"}, "EdDSA"),
        (
            "OKP",
            {"curveType": "X25519", "keyUseType": "ENCRYPTION", "algorithm": "ECDH_ES_A128KW"},
            {"crv", "x", "d"},
            "ECDH-ES+A128KW",
        ),
        ("RSA", {"keySize": 2048, "algorithm": "RSA512"}, {"n", "e", "d"}, "RS512"),
    ],
)
def test_generated_jwks_follow_the_generate_page(
    kind: str, params: dict[str, object], members: set[str], alg: str
) -> None:
    jwk = key_material.generate_jwk(kind, params, None, NOW)
    assert members <= set(jwk)
    assert jwk["alg"] == alg
    assert jwk["exp"] - jwk["nbf"] == 365 * 86400  # one year from notBeforeTime by default
    assert jwk["kid"] == str(int(NOW.timestamp() * 1000))  # keyIdType TIMESTAMP by default
    # What was generated reads back as a JWK.
    assert key_material.parse_jwk(json.dumps(jwk), None, "jwk") == jwk


def test_generated_kids_follow_key_id_type() -> None:
    by_sha256 = _generated("OKP", curveType="ED25519", keyIdType="SHA256")
    by_sha1 = _generated("OKP", curveType="ED25519", keyIdType="SHA1")
    assert len(str(by_sha256["kid"])) == 43 and len(str(by_sha1["kid"])) == 27
    assert "kid" not in _generated("OCT", keySize=256, keyIdType="NONE")
    assert _generated("OCT", keySize=256, keyIdType="ISO_DATE")["kid"] == NOW.strftime("%Y-%m-%dT%H:%M:%SZ")
    assert key_material.generate_jwk("OCT", {"keySize": 256}, "mine", NOW)["kid"] == "mine"


@pytest.mark.parametrize(
    ("kind", "params", "message"),
    [
        ("RSA", {"keySize": 1024}, "rsa.keySize (1024) is not one of 2048, 3072, 4096"),
        ("EC", {"curveType": "P192"}, "ec.curveType (P192) is not one of P256, P384, P521, SECP256K1"),
        ("OCT", {"keySize": 512}, "oct.keySize (512) is not one of 128, 192, 256"),
        ("OKP", {"curveType": "ED448"}, "okp.curveType (ED448) is not one of ED25519, X25519"),
        (
            "OKP",
            {"curveType": "X25519", "keyUseType": "SIGNATURE"},
            "okp.curveType (X25519) is not for SIGNATURE",
        ),
        (
            "EC",
            {"curveType": "P256", "algorithm": "RS256"},
            "ec.algorithm (RS256) does not fit a key of type EC",
        ),
        ("RSA", {"keySize": 2048, "keyUseType": "SIGN"}, "rsa.keyUseType (SIGN) is not one of SIGNATURE"),
        ("DSA", {}, "type (DSA) is not one of RSA, EC, OCT, OKP"),
        (
            "OCT",
            {"keySize": 256, "notBeforeTime": "yesterday"},
            "oct.notBeforeTime (yesterday) is not an ISO",
        ),
        (
            "OCT",
            {
                "keySize": 256,
                "notBeforeTime": "2025-01-01T00:00:00Z",
                "expirationTime": "2024-01-01T00:00:00Z",
            },
            "oct.expirationTime must be after notBeforeTime",
        ),
        ("OCT", {"keySize": 256, "keyIdType": "UUID"}, "oct.keyIdType (UUID) is not one of TIMESTAMP"),
    ],
)
def test_bad_generate_parameters_are_refused_by_name(
    kind: str, params: dict[str, object], message: str
) -> None:
    with pytest.raises(KeyMaterialError) as caught:
        key_material.generate_jwk(kind, params, None, NOW)
    assert caught.value.description.startswith(message)


def test_a_jwk_made_from_a_key_has_its_use_alg_and_private_part_only_from_a_private_key(
    server: km.Issued,
) -> None:
    private = key_material.jwk_from_key(server.key, "SIGNATURE", "PS256")
    public = key_material.jwk_from_key(server.key.public_key(), "SIGNATURE", "PS256", kid="k1")
    assert private["use"] == "sig" and private["alg"] == "PS256" and "d" in private
    assert "d" not in public and public["kid"] == "k1" and public["n"] == private["n"]
    assert key_material.public_jwk(private) == {
        k: v for k, v in private.items() if k not in {"d", "p", "q", "dp", "dq", "qi"}
    }
    unfit = r"algorithm \(ES256\) does not fit a key of type RSA for SIGNATURE"
    with pytest.raises(KeyMaterialError, match=unfit):
        key_material.jwk_from_key(server.key, "SIGNATURE", "ES256")
    with pytest.raises(KeyMaterialError, match=r"useType \(SIGN\) is not one of SIGNATURE, ENCRYPTION"):
        key_material.jwk_from_key(server.key, "SIGN", "RS256")
    assert key_material.jwk_from_key(server.key, "ENCRYPTION", "RSA-OAEP-256")["use"] == "enc"


def test_the_parsing_libraries_are_not_imported_with_the_emulator() -> None:
    """They are imported when a key is read, so the emulator's start-up does not pay for them."""
    code = (
        "import sys, apinizer_emulator.app, apinizer_emulator.key_material;"
        "print(sorted(m for m in ('joserfc', 'jks', 'cryptography.x509') if m in sys.modules))"
    )
    out = subprocess.run([sys.executable, "-c", code], check=True, capture_output=True, text=True).stdout
    assert out.strip() == "[]"


def test_an_ecdsa_algorithm_needs_its_own_curve_and_an_okp_key_its_own_use() -> None:
    """RFC 7518 pairs ES256 with P-256, ES384 with P-384, ES512 with P-521 and RFC 8812 ES256K with
    secp256k1; Ed25519 signs and X25519 agrees keys (RFC 8037)."""
    with pytest.raises(KeyMaterialError) as generated:
        key_material.generate_jwk("EC", {"curveType": "P256", "algorithm": "ES384"}, None, NOW)
    assert generated.value.description == "ec.algorithm (ES384) is not for curve P256: ES256 is"
    from cryptography.hazmat.primitives.asymmetric import ec, ed25519, x25519

    with pytest.raises(KeyMaterialError) as made:
        key_material.jwk_from_key(ec.generate_private_key(ec.SECP384R1()), "SIGNATURE", "ES256")
    assert made.value.description == "algorithm (ES256) is not for curve P-384: ES384 is"
    with pytest.raises(KeyMaterialError, match=r"an X25519 key agrees keys: its useType is ENCRYPTION"):
        key_material.jwk_from_key(x25519.X25519PrivateKey.generate(), "SIGNATURE", "EdDSA")
    with pytest.raises(KeyMaterialError, match=r"an Ed25519 key signs: its useType is SIGNATURE"):
        key_material.jwk_from_key(ed25519.Ed25519PrivateKey.generate(), "ENCRYPTION", "ECDH-ES")
    assert (
        key_material.jwk_from_key(ed25519.Ed25519PrivateKey.generate(), "SIGNATURE", "EdDSA")["crv"]
        == "Ed25519"
    )
