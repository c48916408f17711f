"""Hostile uploads to the families that read what a user gives: certificates, crypto keys,
keystores, JWKs, connections and the geolocation MMDB file.

Everything a user uploads is untrusted: a bad input is a 400 that names what failed, never a 500,
and nothing is made. Each case is one request to the session's emulator on the loopback: crafted
inputs (bombs, caps, names), then real files mutated by Hypothesis (cut short, bytes flipped, runs
repeated, random bytes), :data:`MUTATIONS` a kind of file, derandomized and without an example
database, so the module stays within seconds.
"""

from __future__ import annotations

import hashlib
import json
import socket
import struct
from collections.abc import Iterator
from pathlib import Path
from typing import Any
from urllib.parse import quote

import httpx
import pytest
from cryptography.hazmat.primitives import serialization
from cryptography.hazmat.primitives.serialization import pkcs12
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

import _key_material as km
from _mmdb import write_mmdb
from apinizer_emulator import key_material, mmdb, rules, web

ADMIN_TOKEN = "dev-admin-token"
DEMO = "/apiops/projects/Demo"
KEYS, KEYSTORES, JWKS = f"{DEMO}/keys/", f"{DEMO}/keystores/", f"{DEMO}/jwks/"
CERTIFICATES, CONNECTIONS = f"{DEMO}/certificates/", f"{DEMO}/connections/"
MMDB = "/apiops/settings/geolocation/mmdb"
#: The most iterations a 4-byte DER INTEGER holds: hours of key derivation if read as given.
HUGE = 2**31 - 1


@pytest.fixture
def http(emulator_url: str) -> Iterator[httpx.Client]:
    # A bomb that is not refused up front holds the request far beyond this.
    with httpx.Client(base_url=emulator_url, timeout=20,
                      headers={"Authorization": f"Bearer {ADMIN_TOKEN}"}) as client:
        yield client


@pytest.fixture(scope="module")
def issued() -> km.Issued:
    return km.issue("hostile.example.com")


def refused(response: httpx.Response, *words: str) -> str:
    assert response.status_code == 400, response.text
    body = response.json()
    assert set(body) == {"error", "error_description"}, body
    message: str = body["error_description"]
    for word in words:
        assert word in message, message
    return message


def nothing_stored(http: httpx.Client) -> None:
    [demo] = [p for p in http.get("/_emulator/state").json()["projects"] if p["name"] == "Demo"]
    for family in ("jwks", "certificates", "cryptoKeys", "keystores", "connections"):
        assert demo[family] == [], family


# -- DER, to craft what no well-behaved library writes ---------------------------------------------


def _tlv(data: bytes, at: int) -> tuple[int, int, int]:
    """(tag, content start, end) of the DER element at ``at``."""
    length, start = data[at + 1], at + 2
    if length & 0x80:
        size = length & 0x7F
        length, start = int.from_bytes(data[start:start + size], "big"), start + size
    return data[at], start, start + length


def _children(data: bytes) -> list[bytes]:
    _, start, end = _tlv(data, 0)
    found, at = [], start
    while at < end:
        _, _, stop = _tlv(data, at)
        found.append(data[at:stop])
        at = stop
    return found


def _der(tag: int, content: bytes) -> bytes:
    size = len(content)
    if size < 0x80:
        return bytes([tag, size]) + content
    length = size.to_bytes((size.bit_length() + 7) // 8, "big")
    return bytes([tag, 0x80 | len(length)]) + length + content


def _integer(value: int) -> bytes:
    return _der(0x02, value.to_bytes(value.bit_length() // 8 + 1, "big"))


def pkcs12_with_mac_iterations(p12: bytes, iterations: int) -> bytes:
    """``p12`` whose MAC (PFX ``macData``) claims ``iterations`` rounds of key derivation."""
    version, auth_safe, mac_data = _children(p12)
    digest_info, salt, _ = _children(mac_data)
    return _der(0x30, version + auth_safe + _der(0x30, digest_info + salt + _integer(iterations)))


def jceks_with_iterations(issued: km.Issued, password: str, iterations: int) -> bytes:
    """A JCEKS keystore whose private key is sealed with PBEWithMD5AndTripleDES of ``iterations``
    rounds: pyjks derives that key in pure Python when it opens the file."""
    # PBEWithMD5AndTripleDES, Sun's OID 1.3.6.1.4.1.42.2.19.1
    sun_jce = _der(0x06, bytes([0x2B, 0x06, 0x01, 0x04, 0x01, 0x2A, 0x02, 0x13, 0x01]))
    parameters = _der(0x30, _der(0x04, b"saltsalt") + _integer(iterations))
    sealed = _der(0x30, _der(0x30, sun_jce + parameters) + _der(0x04, b"\x00" * 32))
    alias = b"hostile"
    entry = struct.pack(">IH", 1, len(alias)) + alias + struct.pack(">QI", 0, len(sealed)) + sealed
    entry += struct.pack(">IH", 1, 5) + b"X.509" + struct.pack(">I", len(issued.der)) + issued.der
    data = bytes.fromhex("cececece") + struct.pack(">II", 2, 1) + entry
    return data + hashlib.sha1(password.encode("utf-16be") + b"Mighty Aphrodite" + data).digest()


def keystore_body(content: bytes, kind: str = "PKCS12", name: str = "hostile") -> dict[str, Any]:
    return {
        "name": name,
        "keyStoreEnvironmentList": [
            {"environmentName": "production", "type": kind, "file": km.b64(content), "password": "pw"}
        ],
    }


# -- keystore bombs ---------------------------------------------------------------------------------


def test_a_pkcs12_file_whose_mac_claims_billions_of_iterations_is_refused_before_it_is_opened(
    http: httpx.Client, issued: km.Issued
) -> None:
    """``cryptography`` (OpenSSL) derives the MAC key with as many rounds as the file says: 10
    million took 2 s, 2**31 - 1 would hold a CPU for minutes. The file's counts are read first."""
    bomb = pkcs12_with_mac_iterations(km.pkcs12_file(issued, "a", "pw"), HUGE)
    message = refused(http.post(KEYSTORES, json=keystore_body(bomb)), "keyStoreEnvironmentList[0].file",
                      f"{HUGE}", f"{key_material.MAX_KEY_DERIVATION_ITERATIONS}")
    assert "pw" not in message
    nothing_stored(http)


def test_a_pkcs12_file_with_many_but_not_absurd_iterations_still_opens(
    http: httpx.Client, issued: km.Issued
) -> None:
    encryption = serialization.PrivateFormat.PKCS12.encryption_builder().kdf_rounds(600_000).build(b"pw")
    usual = pkcs12.serialize_key_and_certificates(b"a", issued.key, issued.certificate, None, encryption)
    assert 600_000 in key_material.derivation_iterations(usual)
    response = http.post(KEYSTORES, json=keystore_body(usual))
    assert response.status_code == 200, response.text


def test_a_jceks_file_is_refused_before_its_keys_are_derived(http: httpx.Client, issued: km.Issued) -> None:
    """pyjks opens JCEKS too, deriving each sealed key with the file's iteration count in pure Python."""
    bomb = jceks_with_iterations(issued, "pw", HUGE)
    refused(http.post(KEYSTORES, json=keystore_body(bomb, "JKS")),
            "keyStoreEnvironmentList[0].file is a JCEKS keystore, not a JKS keystore")
    nothing_stored(http)


@pytest.mark.parametrize("kind", ["PKCS12", "JKS"])
@pytest.mark.parametrize("cut", ["truncated", "garbage", "empty DER"])
def test_a_truncated_or_garbage_keystore_is_a_400(
    http: httpx.Client, issued: km.Issued, kind: str, cut: str
) -> None:
    whole = km.pkcs12_file(issued, "a", "pw") if kind == "PKCS12" else km.jks_file(issued, "a", "pw")
    content = {"truncated": whole[: len(whole) // 2], "garbage": b"\x30\x82\xff\xff" + bytes(range(256)),
               "empty DER": b"\x30\x00"}[cut]
    refused(http.post(KEYSTORES, json=keystore_body(content, kind)), "keyStoreEnvironmentList[0].file")
    nothing_stored(http)


# -- certificates, keys and JWKs --------------------------------------------------------------------


def _certificate(http: httpx.Client, content: bytes, name: str = "hostile") -> httpx.Response:
    return http.post(CERTIFICATES, files={"pemEncodedFile": ("c.pem", content)},
                     data={"certificateName": name, "alias": "hostile", "certificateDescription": "",
                           "environmentList": "production"})


@pytest.mark.parametrize("cut", ["truncated PEM", "truncated DER", "garbage", "empty PEM block"])
def test_a_truncated_or_garbage_certificate_is_a_400(
    http: httpx.Client, issued: km.Issued, cut: str
) -> None:
    content = {
        "truncated PEM": issued.pem[: len(issued.pem) // 2] + b"\n-----END CERTIFICATE-----\n",
        "truncated DER": issued.der[: len(issued.der) // 2],
        "garbage": bytes(range(256)) * 4,
        "empty PEM block": b"-----BEGIN CERTIFICATE-----\n-----END CERTIFICATE-----\n",
    }[cut]
    refused(_certificate(http, content), "pemEncodedFile")
    nothing_stored(http)


def test_a_certificate_file_over_the_cap_is_refused_without_being_read(http: httpx.Client) -> None:
    """A certificate is a few KB, a chain of hundreds well under a MiB: the spec files' 16 MiB is no bound."""
    body = b"A" * key_material.MAX_CERTIFICATE_BYTES
    oversized = b"-----BEGIN CERTIFICATE-----\n" + body + b"\n-----END CERTIFICATE-----\n"
    cap = key_material.MAX_CERTIFICATE_BYTES
    refused(_certificate(http, oversized), f"pemEncodedFile is larger than {cap} bytes")
    nothing_stored(http)


def test_a_key_of_garbage_base64_is_a_400(http: httpx.Client, issued: km.Issued) -> None:
    body = {"name": "hostile", "keyType": "RSA", "cryptoKeyInfoEnvironmentList": [
        {"environmentName": "production", "publicKey": km.b64(bytes(range(256)))}]}
    refused(http.post(KEYS, json=body), "cryptoKeyInfoEnvironmentList[0]")
    nothing_stored(http)


def test_a_file_over_the_string_cap_is_a_400_naming_the_field(http: httpx.Client, issued: km.Issued) -> None:
    """A keystore, key or JWK travels as a JSON string: at most :data:`web.MAX_STRING_LENGTH` characters."""
    body = keystore_body(b"\x00" * web.MAX_STRING_LENGTH)
    refused(http.post(KEYSTORES, json=body), "keyStoreEnvironmentList[0].file",
            f"at most {web.MAX_STRING_LENGTH} characters")
    nothing_stored(http)


def test_a_jwk_set_of_a_thousand_keys_is_read_for_the_one_key_asked(http: httpx.Client) -> None:
    """Only the key ``kid`` picks is imported: a set near the body's string cap is read at once."""
    keys = [{"kty": "oct", "kid": f"k{i}", "k": "A" * 22} for i in range(1000)]
    text = json.dumps({"keys": keys}, separators=(",", ":"))
    assert len(text) < web.MAX_STRING_LENGTH
    body = {"name": "hostile", "sourceType": "COPY_PASTE", "jwkStr": text}
    refused(http.post(JWKS, json=body), "kid is required", "holds 1000 keys")
    response = http.post(JWKS, json={**body, "kid": "k999"})
    assert response.status_code == 200, response.text


def test_an_oct_jwk_shorter_than_112_bits_is_a_400_not_a_warning(http: httpx.Client) -> None:
    """joserfc only warns of it: a 500 where warnings are errors, a silent key elsewhere."""
    body = {"name": "hostile", "sourceType": "COPY_PASTE", "jwkStr": json.dumps({"kty": "oct", "k": "AAAA"})}
    refused(http.post(JWKS, json=body), "jwkStr: an oct key of 24 bits is too short: at least 112")
    nothing_stored(http)


def test_jwk_text_beyond_its_cap_is_refused_unparsed() -> None:
    with pytest.raises(key_material.KeyMaterialError, match="larger than"):
        key_material.parse_jwk("x" * (key_material.MAX_JWK_TEXT + 1), None, "jwkStr")


# -- connections: nesting ---------------------------------------------------------------------------


@pytest.mark.parametrize("depth", [web.MAX_DEPTH + 1, 100_000])
def test_a_deeply_nested_connection_body_is_a_400(http: httpx.Client, depth: int) -> None:
    nested = "[" * depth + "]" * depth
    raw = f'{{"name": "hostile", "type": "EMAIL", "extra": {nested}}}'.encode()
    response = http.post(f"{CONNECTIONS}hostile/", content=raw, headers={"Content-Type": "application/json"})
    refused(response)
    nothing_stored(http)


# -- names ------------------------------------------------------------------------------------------

#: Names no item page can address (a path's name is one segment; clients drop dot segments), and
#: names that read as another in a console.
UNADDRESSABLE = ["a/b", "../x", ".", ".."]
UNREADABLE = ["a\nb", "pets\u202e", "x" * (rules.MAX_NAME_LENGTH + 1)]


@pytest.mark.parametrize("name", UNADDRESSABLE + UNREADABLE)
def test_a_keystore_name_that_no_page_could_address_or_show_is_a_400(
    http: httpx.Client, issued: km.Issued, name: str
) -> None:
    refused(http.post(KEYSTORES, json=keystore_body(km.pkcs12_file(issued, "a", "pw"), name=name)), "name")
    nothing_stored(http)


@pytest.mark.parametrize("name", ["a/b", "..", "pets\u202e"])
def test_a_key_jwk_or_certificate_name_that_no_page_could_address_is_a_400(
    http: httpx.Client, issued: km.Issued, name: str
) -> None:
    key = {"name": name, "keyType": "EC", "cryptoKeyInfoEnvironmentList": [
        {"environmentName": "production", "publicKey": issued.public_b64()}]}
    refused(http.post(KEYS, json=key), "name")
    jwk = {"name": name, "sourceType": "COPY_PASTE", "jwkStr": json.dumps({"kty": "oct", "k": "A" * 22})}
    refused(http.post(JWKS, json=jwk), "name")
    refused(_certificate(http, issued.pem, name=name), "certificateName")
    nothing_stored(http)


def test_a_jwk_renamed_to_a_name_no_page_could_address_is_a_400_and_keeps_its_own(http: httpx.Client) -> None:
    jwk = {"name": "hostile", "sourceType": "COPY_PASTE", "jwkStr": json.dumps({"kty": "oct", "k": "A" * 22})}
    assert http.post(JWKS, json=jwk).status_code == 200
    refused(http.put(f"{JWKS}hostile/", json={"name": "a/b"}), "name (a/b) cannot be a path segment")
    assert http.get(f"{JWKS}hostile/").status_code == 200


@pytest.mark.parametrize("name", ["ünïcødé", "a?b#c", "a%2Fb", "名前"])
def test_a_unicode_or_reserved_character_name_round_trips(
    http: httpx.Client, issued: km.Issued, name: str
) -> None:
    created = http.post(KEYSTORES, json=keystore_body(km.pkcs12_file(issued, "a", "pw"), name=name))
    assert created.status_code == 200, created.text
    found = http.get(f"{KEYSTORES}{quote(name, safe='')}/")
    assert found.status_code == 200, found.text
    assert found.json()["resultList"][0]["name"] == name
    assert http.delete(f"{KEYSTORES}{quote(name, safe='')}/").status_code == 200


# -- the MMDB file ----------------------------------------------------------------------------------


MMDB_MARKER = b"\xab\xcd\xefMaxMind.com"


@pytest.mark.parametrize("content", [b"\x00" * 1024, MMDB_MARKER + b"\x00" * 16, MMDB_MARKER + b"\xe0"],
                         ids=["zeros", "empty metadata", "cut map"])
def test_a_garbage_or_truncated_mmdb_file_is_a_400_and_the_file_before_stays(
    http: httpx.Client, content: bytes
) -> None:
    before = http.get("/_emulator/state").json()["geolocation"]
    response = http.put(MMDB, files={"file": ("x.mmdb", content)}, data={"fileName": "x.mmdb"})
    refused(response, "File is not a valid MMDB")
    assert http.get("/_emulator/state").json()["geolocation"] == before


def test_an_mmdb_file_over_the_cap_is_refused_by_its_declared_length(emulator_url: str) -> None:
    """The declared length is enough: not a byte of the body is read (none is sent)."""
    url = httpx.URL(emulator_url)
    head = (
        f"PUT {MMDB} HTTP/1.1\r\nHost: {url.host}:{url.port}\r\nAuthorization: Bearer {ADMIN_TOKEN}\r\n"
        "Content-Type: multipart/form-data; boundary=x\r\n"
        f"Content-Length: {mmdb.MAX_MMDB_BYTES + (2 << 20)}\r\n"
        "Connection: close\r\n\r\n"
    )
    with socket.create_connection((url.host, url.port), timeout=10) as connection:
        connection.sendall(head.encode())
        answer = b""
        while b"\r\n\r\n" not in answer or not answer.rstrip().endswith(b"}"):
            chunk = connection.recv(65536)
            if not chunk:
                break
            answer += chunk
    status_line, _, rest = answer.partition(b"\r\n")
    assert b" 400 " in status_line, answer
    body = json.loads(rest.partition(b"\r\n\r\n")[2])
    assert f"larger than {mmdb.MAX_MMDB_BYTES} bytes" in body["error_description"]


# -- mutated files, property-based ------------------------------------------------------------------

#: Mutations per kind of file: derandomized (the same cases on every machine), no example database.
MUTATIONS = 25


def _mutated(original: bytes) -> st.SearchStrategy[bytes]:
    """``original`` cut short, with bytes flipped, with a run of bytes repeated, or random bytes."""
    size = len(original)
    cut = st.integers(1, size - 1).map(lambda at: original[:at])
    flipped = st.lists(st.tuples(st.integers(0, size - 1), st.integers(1, 255)), min_size=1, max_size=8).map(
        lambda flips: bytes(b ^ dict(flips).get(i, 0) for i, b in enumerate(original))
    )
    repeated = st.tuples(st.integers(0, size - 1), st.integers(1, 64), st.integers(2, 50)).map(
        lambda run: original[: run[0]] + original[run[0]:run[0] + run[1]] * run[2] + original[run[0]:]
    )
    return st.one_of(cut, flipped, repeated, st.binary(min_size=1, max_size=2048))


def _answers(http: httpx.Client, send: Any) -> Any:
    @settings(max_examples=MUTATIONS, derandomize=True, database=None, deadline=None,
              suppress_health_check=list(HealthCheck), print_blob=False)
    def check(content: bytes) -> None:
        response = send(content)
        assert response.status_code in (200, 400), response.text
        if response.status_code == 400:
            assert set(response.json()) == {"error", "error_description"}, response.text
        http.post("/_emulator/reset", json={}).raise_for_status()

    return check


@pytest.mark.parametrize("kind", ["PKCS12", "JKS"])
def test_a_mutated_keystore_is_read_or_refused_never_a_500(
    http: httpx.Client, issued: km.Issued, kind: str
) -> None:
    original = km.pkcs12_file(issued, "a", "pw") if kind == "PKCS12" else km.jks_file(issued, "a", "pw")
    check = _answers(http, lambda content: http.post(KEYSTORES, json=keystore_body(content, kind)))
    given(_mutated(original))(check)()


@pytest.mark.parametrize("form", ["PEM", "DER"])
def test_a_mutated_certificate_is_read_or_refused_never_a_500(
    http: httpx.Client, issued: km.Issued, form: str
) -> None:
    check = _answers(http, lambda content: _certificate(http, content))
    given(_mutated(issued.pem if form == "PEM" else issued.der))(check)()


def test_a_mutated_mmdb_file_is_read_or_refused_never_a_500(http: httpx.Client, tmp_path: Path) -> None:
    original = write_mmdb(tmp_path / "GeoLite2-Country.mmdb")
    check = _answers(http, lambda content: http.put(MMDB, files={"file": ("x.mmdb", content)},
                                                    data={"fileName": "x.mmdb"}))
    given(_mutated(original))(check)()
