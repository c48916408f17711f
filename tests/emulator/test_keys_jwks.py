"""JWKs over raw HTTP, as the product's pages document them: create from its six sources, generate,
the five parse-from operations, update, delete; with real keys, certificates and keystores
(tests/_key_material.py) and a JWK Set served on 127.0.0.1.

https://github.com/apinizer/management-api-docs/blob/main/02-api-reference/08-keys-secrets/crud/create-jwk.md
https://github.com/apinizer/management-api-docs/blob/main/02-api-reference/08-keys-secrets/crud/generate-jwk.md
"""

from __future__ import annotations

import json
from collections.abc import Iterator
from datetime import UTC, datetime
from typing import Any

import pytest

import _key_material as km
from _spec_server import Served, SpecServer, spec_server
from apinizer_emulator import key_material

from .conftest import Api, assert_error

JWKS = "/apiops/projects/Demo/jwks/"
NOW = datetime.now(UTC)


@pytest.fixture(scope="module")
def rsa() -> km.Issued:
    return km.issue("rsa.example.com", key=km.rsa_key())


@pytest.fixture(scope="module")
def key_set() -> dict[str, Any]:
    one = key_material.generate_jwk("EC", {"curveType": "P256"}, "one", NOW)
    two = key_material.generate_jwk("RSA", {"keySize": 2048}, "two", NOW)
    return {"keys": [key_material.public_jwk(one), key_material.public_jwk(two)]}


@pytest.fixture(scope="module")
def served(key_set: dict[str, Any]) -> Iterator[SpecServer]:
    with spec_server() as server:
        server.files["/jwks.json"] = Served(json.dumps(key_set).encode(), content_type="application/json")
        server.files["/slow.json"] = Served(json.dumps(key_set).encode(), delay=2.0)
        yield server


def _jwks(api: Api) -> list[dict[str, Any]]:
    response = api.request("GET", JWKS)
    assert response.status_code == 200, response.text
    found: list[dict[str, Any]] = response.json()["resultList"]
    return found


def _get(api: Api, name: str) -> dict[str, Any]:
    response = api.request("GET", JWKS + f"{name}/")
    assert response.status_code == 200, response.text
    [jwk] = response.json()["resultList"]
    return dict(jwk)


def _ok(response: Any) -> dict[str, Any]:
    assert response.status_code == 200, response.text
    body: dict[str, Any] = response.json()
    results = body["deploymentResult"]["environmentResults"]
    # "JWK is automatically deployed to all environments".
    assert [r["environmentName"] for r in results] == ["test", "production"]
    return body


def test_copy_paste_with_a_kid_from_a_set_then_get_list_update_delete(
    api: Api, key_set: dict[str, Any]
) -> None:
    body = {
        "name": "my-jwk",
        "description": "JWK from JSON string",
        "sourceType": "COPY_PASTE",
        "jwkStr": json.dumps(key_set),
        "kid": "two",
    }
    _ok(api.request("POST", JWKS, body))
    jwk = _get(api, "my-jwk")
    assert {k: jwk[k] for k in ("name", "sourceType", "sourceId", "sourceUrl", "type", "kid")} == {
        "name": "my-jwk",
        "sourceType": "COPY_PASTE",
        "sourceId": None,
        "sourceUrl": None,
        "type": "RSA",
        "kid": "two",
    }
    assert jwk["rsa"] == {"n": key_set["keys"][1]["n"], "e": "AQAB"}
    # The list has no key material.
    [listed] = _jwks(api)
    assert "rsa" not in listed and listed["kid"] == "two"

    _ok(api.request("PUT", JWKS + "my-jwk/", {"name": "renamed", "description": "Updated JWK description"}))
    assert [j["name"] for j in _jwks(api)] == ["renamed"]
    assert _get(api, "renamed")["description"] == "Updated JWK description"
    assert_error(
        api.request("PUT", JWKS + "my-jwk/", {"name": "x"}),
        400,
        "bad_request",
        "JWK (name: my-jwk) is not found! Try create operation.",
    )
    deleted = api.request("DELETE", JWKS + "renamed/")
    assert deleted.json()["deploymentResult"]["message"] == "Undeployment completed successfully"
    assert _jwks(api) == []
    assert_error(
        api.request("GET", JWKS + "renamed/"), 400, "bad_request", "JWK (name: renamed) is not found!"
    )
    assert_error(
        api.request("DELETE", JWKS + "renamed/"), 400, "bad_request", "JWK (name: renamed) is not found!"
    )


@pytest.mark.parametrize(
    ("body", "message"),
    [
        ({"sourceType": "COPY_PASTE", "jwkStr": "{}"}, "JWK name can not be empty!"),
        ({"name": "j"}, "Source type is required!"),
        ({"name": "j", "sourceType": "URL"}, "URL is required for URL source type!"),
        ({"name": "j", "sourceType": "COPY_PASTE"}, "jwkStr is required for COPY_PASTE source type!"),
        (
            {
                "name": "j",
                "sourceType": "CERTIFICATE",
                "certificateName": "my-certificate",
                "environmentName": "production",
                "useType": "SIGNATURE",
                "algorithm": "RS256",
            },
            "Certificate (name: my-certificate) is not found!",
        ),
        (
            {
                "name": "j",
                "sourceType": "KEYSTORE",
                "keyStoreName": "k",
                "environmentName": "production",
                "useType": "SIGNATURE",
                "algorithm": "RS256",
            },
            "aliasName is required for KEYSTORE source type!",
        ),
        (
            {"name": "j", "sourceType": "GENERATE"},
            "GENERATE source type is made by the generate operation (jwks/generate)!",
        ),
        (
            {"name": "j", "sourceType": "COPY_PASTE", "jwkStr": '{"kty": "RSA", "n": "AQAB"}'},
            "jwkStr is not a valid RSA JWK",
        ),
    ],
)
def test_bad_creates_get_the_pages_400_and_make_nothing(api: Api, body: dict[str, Any], message: str) -> None:
    assert_error(api.request("POST", JWKS, body), 400, "bad_request", message)
    assert _jwks(api) == []


def test_a_kid_missing_from_a_set_is_a_400(api: Api, key_set: dict[str, Any]) -> None:
    path = JWKS + "parse-from-clipboard"
    missing = api.request("POST", path, {"name": "j", "jwkStr": json.dumps(key_set), "kid": "three"})
    assert_error(missing, 400, "bad_request", "JWK with kid (three) is not found in the JWK Set of jwkStr!")
    unnamed = api.request("POST", path, {"name": "j", "jwkStr": json.dumps(key_set)})
    assert_error(unnamed, 400, "bad_request", "kid is required: the JWK Set of jwkStr holds 2 keys")
    assert _jwks(api) == []


def test_a_duplicate_name_is_refused(api: Api, key_set: dict[str, Any]) -> None:
    body = {"name": "my-jwk", "jwkStr": json.dumps(key_set["keys"][0])}
    _ok(api.request("POST", JWKS + "parse-from-clipboard", body))
    _ok(api.request("POST", JWKS + "parse-from-clipboard", {**body, "name": "other"}))
    assert_error(
        api.request("POST", JWKS + "parse-from-clipboard", body),
        400,
        "bad_request",
        "JWK (name: my-jwk) is already exist! Try update operation if want to change its value.",
    )
    assert_error(
        api.request("PUT", JWKS + "other/", {"name": "my-jwk"}),
        400,
        "bad_request",
        "JWK (name: my-jwk) is already exist!",
    )


def test_from_a_url_by_kid(api: Api, served: SpecServer, key_set: dict[str, Any]) -> None:
    url = served.url("/jwks.json")
    _ok(api.request("POST", JWKS, {"name": "from-url", "sourceType": "URL", "url": url, "kid": "one"}))
    jwk = _get(api, "from-url")
    assert (jwk["sourceUrl"], jwk["type"], jwk["kid"]) == (url, "EC", "one")
    assert jwk["ec"] == {k: key_set["keys"][0][k] for k in ("crv", "x", "y")}
    _ok(api.request("POST", JWKS + "parse-from-url", {"name": "parsed", "url": url, "kid": "two"}))
    assert _get(api, "parsed")["type"] == "RSA"


def test_url_fetches_follow_the_spec_urls_rules(api: Api, served: SpecServer, emulator_url: str) -> None:
    path = JWKS + "parse-from-url"
    cases = [
        ({"url": "file:///etc/passwd"}, "url must be an http:// or https:// URL, got (file:///etc/passwd)"),
        (
            {"url": "http://169.254.169.254/latest/meta-data"},
            "JWK could not be read from URL (http://169.254.169.254/latest/meta-data): 169.254.169.254 is a"
            " link-local or cloud metadata address, which the emulator never fetches",
        ),
        (
            {"url": f"{emulator_url}/_emulator/state"},
            f"JWK could not be read from URL ({emulator_url}/_emulator/state): it is in the emulator's own"
            " /_emulator/ namespace, which it never fetches",
        ),
        (
            {"url": served.url("/jwks.json"), "kid": "one", "urlOptionSizeLimit": 100},
            f"JWK could not be read from URL ({served.url('/jwks.json')}): it is larger than 100 bytes",
        ),
        (
            {"url": served.url("/slow.json"), "urlOptionConnectTimeout": 200, "urlOptionReadTimeout": 300},
            f"JWK could not be read from URL ({served.url('/slow.json')}):"
            " it was not read whole within 0.5 seconds",
        ),
        (
            {"url": served.url("/missing.json")},
            f"JWK could not be read from URL ({served.url('/missing.json')}): it answered HTTP 404",
        ),
        (
            {"url": served.url("/jwks.json"), "urlOptionSizeLimit": 0},
            "urlOptionSizeLimit must be a positive integer!",
        ),
    ]
    for extra, message in cases:
        assert_error(api.request("POST", path, {"name": "j", **extra}), 400, "bad_request", message)
    assert _jwks(api) == []


@pytest.mark.parametrize(
    ("kind", "params", "members"),
    [
        ("RSA", {"keySize": 2048}, {"n", "e", "d", "p", "q", "dp", "dq", "qi"}),
        ("EC", {"curveType": "P256"}, {"crv", "x", "y", "d"}),
        ("OCT", {"keySize": 256}, {"k"}),
        ("OKP", {"curveType": "ED25519"}, {"crv", "x", "d"}),
    ],
)
def test_generate_each_type_and_keep_private_parts_out_of_the_state(
    api: Api, kind: str, params: dict[str, Any], members: set[str]
) -> None:
    body = {
        "name": f"generated-{kind.lower()}",
        "description": "Auto-generated",
        "type": kind,
        "kid": f"{kind.lower()}-key-1",
        kind.lower(): params,
    }
    _ok(api.request("POST", JWKS + "generate", body))
    jwk = _get(api, body["name"])
    assert (jwk["sourceType"], jwk["type"], jwk["kid"]) == ("GENERATE", kind, f"{kind.lower()}-key-1")
    assert set(jwk[kind.lower()]) == members  # the get page answers the private parts
    state = json.dumps(api.state())
    for member in members & key_material.PRIVATE_MEMBERS:
        assert jwk[kind.lower()][member] not in state
    [shown] = next(p for p in api.state()["projects"] if p["name"] == "Demo")["jwks"]
    assert set(shown[kind.lower()]) == members - key_material.PRIVATE_MEMBERS


def test_an_x25519_key_without_a_use_is_for_key_exchange_as_the_pages_example_7(api: Api) -> None:
    # The generate page's Example 7 ("X25519 JWK for key exchange") gives the curve alone, while its
    # keyUseType defaults to SIGNATURE, which X25519 cannot do: the example wins (docs-disagreements.md).
    body = {"name": "generated-x25519-jwk", "type": "OKP", "kid": "okp-x25519-key-1",
            "okp": {"curveType": "X25519"}}
    _ok(api.request("POST", JWKS + "generate", body))
    assert _get(api, "generated-x25519-jwk")["okp"]["crv"] == "X25519"
    # A use given is still the use: X25519 cannot sign.
    signing = {**body, "name": "x25519-signing", "okp": {"curveType": "X25519", "keyUseType": "SIGNATURE"}}
    assert_error(api.request("POST", JWKS + "generate", signing), 400, "bad_request",
                 "okp.curveType (X25519) is not for SIGNATURE: ED25519 signs, X25519 encrypts")


@pytest.mark.parametrize(
    ("body", "message"),
    [
        ({"name": "g"}, "JWK type can not be empty!"),
        ({"type": "RSA", "rsa": {"keySize": 2048}}, "JWK name can not be empty!"),
        ({"name": "g", "type": "RSA"}, "rsa is required when type is RSA!"),
        (
            {"name": "g", "type": "RSA", "rsa": {"keySize": 1024}},
            "rsa.keySize (1024) is not one of 2048, 3072, 4096",
        ),
        (
            {"name": "g", "type": "EC", "ec": {"curveType": "P256", "algorithm": "HS256"}},
            "ec.algorithm (HS256) does not fit a key of type EC for SIGNATURE:"
            " use one of ES256, ES384, ES512, ES256K",
        ),
    ],
)
def test_bad_generates_are_refused(api: Api, body: dict[str, Any], message: str) -> None:
    assert_error(api.request("POST", JWKS + "generate", body), 400, "bad_request", message)
    assert _jwks(api) == []


def _certificate(api: Api, issued: km.Issued, environments: str = "production") -> None:
    response = api.client.post(
        "/apiops/projects/Demo/certificates/",
        data={
            "certificateName": "my-certificate",
            "alias": "a",
            "certificateDescription": "",
            "environmentList": environments,
        },
        files={"pemEncodedFile": ("c.pem", issued.pem)},
        headers=api.headers(),
    )
    assert response.status_code == 200, response.text


def _key(api: Api, issued: km.Issued) -> None:
    body = {
        "name": "my-key",
        "keyType": "RSA",
        "cryptoKeyInfoEnvironmentList": [
            {
                "environmentName": "production",
                "publicKey": issued.public_b64(),
                "privateKey": issued.private_b64(),
            }
        ],
    }
    assert api.request("POST", "/apiops/projects/Demo/keys/", body).status_code == 200


def _keystore(api: Api, issued: km.Issued) -> None:
    body = {
        "name": "my-keystore",
        "keyStoreEnvironmentList": [
            {
                "environmentName": "production",
                "type": "JKS",
                "file": km.b64(km.jks_file(issued, "my-alias", "pw")),
                "password": "pw",
            }
        ],
    }
    assert api.request("POST", "/apiops/projects/Demo/keystores/", body).status_code == 200


USE = {"environmentName": "production", "useType": "SIGNATURE", "algorithm": "RS256"}


def test_from_a_certificate_a_key_and_a_keystore_alias(api: Api, rsa: km.Issued) -> None:
    _certificate(api, rsa)
    _key(api, rsa)
    _keystore(api, rsa)
    _ok(
        api.request(
            "POST", JWKS + "parse-from-certificate", {"name": "c", "certificateName": "my-certificate", **USE}
        )
    )
    _ok(api.request("POST", JWKS, {"name": "pub", "sourceType": "PUBLIC_KEY", "keyName": "my-key", **USE}))
    _ok(
        api.request(
            "POST",
            JWKS + "parse-from-key",
            {"name": "priv", "sourceType": "PRIVATE_KEY", "keyName": "my-key", **USE},
        )
    )
    _ok(
        api.request(
            "POST",
            JWKS + "parse-from-keystore",
            {"name": "ks", "keyStoreName": "my-keystore", "aliasName": "my-alias", **USE},
        )
    )
    made = {j["name"]: j for j in _jwks(api)}
    assert {name: j["sourceType"] for name, j in made.items()} == {
        "c": "CERTIFICATE",
        "pub": "PUBLIC_KEY",
        "priv": "PRIVATE_KEY",
        "ks": "KEYSTORE",
    }
    assert all(j["sourceId"] for j in made.values())
    modulus = {name: _get(api, name)["rsa"] for name in made}
    assert len({m["n"] for m in modulus.values()}) == 1  # one key pair behind all four
    assert "d" not in modulus["c"] and "d" not in modulus["pub"]
    assert "d" in modulus["priv"] and "d" in modulus["ks"]
    assert modulus["ks"]["d"] not in json.dumps(api.state())


@pytest.mark.parametrize(
    ("path", "body", "message"),
    [
        (
            "parse-from-certificate",
            {"certificateName": "my-certificate", **USE, "environmentName": "test"},
            "Certificate (name: my-certificate) is not deployed to environment (test)!",
        ),
        (
            "parse-from-certificate",
            {"certificateName": "my-certificate", **USE, "algorithm": "ES256"},
            "algorithm (ES256) does not fit a key of type RSA for SIGNATURE: use one of RS256, RS384, RS512,"
            " PS256, PS384, PS512",
        ),
        ("parse-from-key", {"keyName": "nope", **USE}, "Key (name: nope) is not found!"),
        (
            "parse-from-keystore",
            {"keyStoreName": "my-keystore", "aliasName": "other", **USE},
            "Alias (other) is not found in keystore (name: my-keystore) for environment (production)!",
        ),
        (
            "parse-from-certificate",
            {"certificateName": "my-certificate", **USE, "useType": "SIGN"},
            "useType (SIGN) is not one of SIGNATURE, ENCRYPTION",
        ),
    ],
)
def test_bad_references_are_refused(
    api: Api, rsa: km.Issued, path: str, body: dict[str, Any], message: str
) -> None:
    _certificate(api, rsa)
    _keystore(api, rsa)
    assert_error(api.request("POST", JWKS + path, {"name": "j", **body}), 400, "bad_request", message)
    assert _jwks(api) == []


def test_update_referenced_jwks_makes_them_again_and_delete_detaches_them(api: Api, rsa: km.Issued) -> None:
    _certificate(api, rsa)
    _ok(
        api.request(
            "POST", JWKS + "parse-from-certificate", {"name": "c", "certificateName": "my-certificate", **USE}
        )
    )
    before = _get(api, "c")
    renewed = km.issue("renewed.example.com", key=km.rsa_key())
    path = "/apiops/projects/Demo/certificates/my-certificate/"
    form = {"alias": "a", "certificateDescription": "", "environmentList": "production"}
    # Without updateReferencedJwks the JWK keeps its key.
    api.client.put(path, data=form, files={"pemEncodedFile": ("c.pem", renewed.pem)}, headers=api.headers())
    assert _get(api, "c")["rsa"] == before["rsa"]
    # With it, the JWK is made again from the new certificate, keeping its kid.
    response = api.client.put(
        path,
        data=form,
        files={"pemEncodedFile": ("c.pem", renewed.pem)},
        headers=api.headers(),
        params={"updateReferencedJwks": "true", "updateScope": "SAME_PROJECT"},
    )
    assert response.status_code == 200, response.text
    after = _get(api, "c")
    assert after["rsa"] != before["rsa"] and after["kid"] == before["kid"]
    # A change the JWK cannot follow (no longer in its environment) is refused whole.
    moved = api.client.put(
        path,
        data={**form, "environmentList": "test"},
        files={"pemEncodedFile": ("c.pem", rsa.pem)},
        headers=api.headers(),
        params={"updateReferencedJwks": "true", "updateScope": "ALL_PROJECTS"},
    )
    assert_error(
        moved,
        400,
        "bad_request",
        "JWK (name: c) cannot be made again: Certificate (name: my-certificate)"
        " is not deployed to environment (production)!",
    )
    [certificate] = api.request("GET", path).json()["resultList"]
    assert certificate["certificateEnvironmentList"][0]["environmentName"] == "production"
    # Deleting the certificate leaves the JWK, detached.
    assert api.request("DELETE", path).status_code == 200
    assert (_get(api, "c")["sourceId"], _get(api, "c")["rsa"]) == (None, after["rsa"])


def test_roles(api: Api, dev_api: Api) -> None:
    assert_error(dev_api.request("GET", JWKS), 403, "forbidden")
    assert_error(dev_api.request("POST", JWKS + "generate", {"name": "g"}), 403, "forbidden")
    assert_error(api.request("GET", "/apiops/projects/Nope/jwks/"), 404, "not_found")


def test_a_url_with_credentials_is_never_quoted_with_them(api: Api, served: SpecServer) -> None:
    """A JWK URL may carry a user and password (``https://user:password@host/...``): every message
    names the URL without the password."""
    import socket

    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        closed = f"127.0.0.1:{s.getsockname()[1]}"
    cases = [
        f"http://reader:s3cret-pass@{closed}/jwks.json",
        "ftp://reader:s3cret-pass@example.com/jwks.json",
        served.url("/missing.json").replace("http://", "http://reader:s3cret-pass@"),
    ]
    for url in cases:
        response = api.request("POST", JWKS + "parse-from-url", {"name": "j", "url": url})
        assert_error(response, 400, "bad_request")
        assert "s3cret-pass" not in response.text, response.text
        assert "reader:***@" in response.text, response.text


def test_a_keystore_update_remakes_its_jwks_only_when_asked_and_only_whole(api: Api, rsa: km.Issued) -> None:
    _keystore(api, rsa)
    made = {"name": "ks", "keyStoreName": "my-keystore", "aliasName": "my-alias", **USE}
    _ok(api.request("POST", JWKS + "parse-from-keystore", made))
    before = _get(api, "ks")["rsa"]
    path = "/apiops/projects/Demo/keystores/my-keystore/"
    renewed = km.issue("renewed.example.com", key=km.rsa_key())

    def body(alias: str) -> dict[str, Any]:
        file = km.b64(km.jks_file(renewed, alias, "pw"))
        return {
            "name": "my-keystore",
            "keyStoreEnvironmentList": [
                {"environmentName": "production", "type": "JKS", "file": file, "password": "pw"}
            ],
        }

    remake = {"updateReferencedJwks": "true", "updateScope": "SAME_PROJECT"}
    gone = api.request("PUT", path, body("another-alias"), params=remake)
    assert_error(
        gone,
        400,
        "bad_request",
        "JWK (name: ks) cannot be made again: Alias (my-alias) is not found"
        " in keystore (name: my-keystore) for environment (production)!",
    )
    assert _get(api, "ks")["rsa"] == before
    assert api.request("PUT", path, body("my-alias"), params=remake).status_code == 200
    after = _get(api, "ks")["rsa"]
    assert after["n"] != before["n"] and after["d"] != before["d"]
    assert api.request("DELETE", path).status_code == 200
    detached = _get(api, "ks")
    assert (detached["sourceId"], detached["rsa"]) == (None, after)


def test_a_urls_credentials_never_follow_a_redirect_to_another_host(api: Api, served: SpecServer) -> None:
    port = served.base_url.rsplit(":", 1)[1]
    served.files["/moved.json"] = Served(
        b"", status=302, headers={"Location": f"http://localhost:{port}/jwks.json"}
    )
    url = served.url("/moved.json").replace("http://", "http://reader:s3cret-pass@")
    before = len(served.seen)
    _ok(api.request("POST", JWKS + "parse-from-url", {"name": "moved", "url": url, "kid": "one"}))
    first, second = served.seen[before:]
    assert first["Authorization"].startswith("Basic ")  # to the URL's own host
    assert "Authorization" not in second and "authorization" not in second  # not to another
    assert _get(api, "moved")["sourceUrl"] == url  # the API answers it as given
    # /_emulator/state never shows the password.
    [shown] = next(p for p in api.state()["projects"] if p["name"] == "Demo")["jwks"]
    assert shown["sourceUrl"] == url.replace("s3cret-pass", "***")
    assert "s3cret-pass" not in json.dumps(api.state())
