"""Crypto keys and keystores over raw HTTP, as the product's pages document them, with real keys and
real PKCS#12 and JKS files (tests/_key_material.py).

https://github.com/apinizer/management-api-docs/blob/main/02-api-reference/08-keys-secrets/crud/create-key.md
https://github.com/apinizer/management-api-docs/blob/main/02-api-reference/08-keys-secrets/crud/create-keystore.md
"""

from __future__ import annotations

import json
from typing import Any

import pytest

import _key_material as km

from .conftest import Api, assert_error

KEYS = "/apiops/projects/Demo/keys/"
KEYSTORES = "/apiops/projects/Demo/keystores/"


@pytest.fixture(scope="module")
def rsa() -> km.Issued:
    return km.issue("rsa.example.com", key=km.rsa_key())


@pytest.fixture(scope="module")
def ec() -> km.Issued:
    return km.issue("ec.example.com")


def key_body(issued: km.Issued, name: str = "my-key", key_type: str = "RSA", **item: Any) -> dict[str, Any]:
    return {
        "name": name,
        "description": "Key for API encryption",
        "keyType": key_type,
        "cryptoKeyInfoEnvironmentList": [
            {
                "environmentName": "production",
                "publicKey": issued.public_b64(),
                "privateKey": issued.private_b64(),
                **item,
            }
        ],
    }


def keystore_body(content: bytes, kind: str, password: str, name: str = "my-keystore") -> dict[str, Any]:
    return {
        "name": name,
        "description": "Keystore for API security",
        "keyStoreEnvironmentList": [
            {"environmentName": "production", "type": kind, "file": km.b64(content), "password": password}
        ],
    }


DEPLOYED = {
    "success": True,
    "deploymentResult": {
        "success": True,
        "message": "Deployment completed successfully",
        "environmentResults": [
            {"environmentName": "production", "success": True, "message": "Deployed successfully"}
        ],
    },
}


def _listed(api: Api, path: str) -> list[dict[str, Any]]:
    response = api.request("GET", path)
    assert response.status_code == 200, response.text
    found: list[dict[str, Any]] = response.json()["resultList"]
    return found


def _demo_state(api: Api) -> dict[str, Any]:
    [demo] = [p for p in api.state()["projects"] if p["name"] == "Demo"]
    return demo


# -- crypto keys ------------------------------------------------------------------------------------


def test_a_key_is_created_read_renamed_and_deleted(api: Api, rsa: km.Issued) -> None:
    response = api.request("POST", KEYS, key_body(rsa))
    assert response.status_code == 200, response.text
    assert response.json() == DEPLOYED
    [key] = _listed(api, KEYS + "my-key/")
    assert key["name"] == "my-key" and key["keyType"] == "RSA"
    # The get and list pages answer the key material as written.
    assert key["cryptoKeyInfoEnvironmentList"] == key_body(rsa)["cryptoKeyInfoEnvironmentList"]
    assert _listed(api, KEYS) == [key]

    renamed = key_body(rsa, name="renamed")
    assert api.request("PUT", KEYS + "my-key/", renamed).json() == DEPLOYED
    assert [k["name"] for k in _listed(api, KEYS)] == ["renamed"]
    deleted = api.request("DELETE", KEYS + "renamed/").json()
    assert deleted["deploymentResult"]["message"] == "Undeployment completed successfully"
    assert _listed(api, KEYS) == []
    assert_error(
        api.request("GET", KEYS + "renamed/"), 400, "bad_request", "Key (name: renamed) is not found!"
    )
    assert_error(
        api.request("DELETE", KEYS + "renamed/"), 400, "bad_request", "Key (name: renamed) is not found!"
    )


def test_a_key_with_pem_or_only_one_half_is_read(api: Api, ec: km.Issued) -> None:
    body = key_body(ec, key_type="EC", privateKey=ec.private_pem(), publicKey=None)
    assert api.request("POST", KEYS, body).status_code == 200
    public_only = key_body(ec, name="public-only", key_type="EC", privateKey=None)
    assert api.request("POST", KEYS, public_only).status_code == 200


@pytest.mark.parametrize(
    ("change", "message"),
    [
        ({"name": ""}, "Key name can not be empty!"),
        ({"keyType": "OKP"}, "keyType (OKP) is not one of RSA, EC!"),
        ({"cryptoKeyInfoEnvironmentList": []}, "cryptoKeyInfoEnvironmentList value can not be empty!"),
        ({"keyType": "EC"}, "cryptoKeyInfoEnvironmentList[0].publicKey is an RSA key, not of keyType (EC)!"),
    ],
)
def test_bad_keys_are_refused_by_name(api: Api, rsa: km.Issued, change: dict[str, Any], message: str) -> None:
    assert_error(api.request("POST", KEYS, {**key_body(rsa), **change}), 400, "bad_request", message)
    assert _listed(api, KEYS) == []


def test_bad_key_material_is_refused_without_quoting_it(api: Api, rsa: km.Issued, ec: km.Issued) -> None:
    cases = [
        (
            {"privateKey": "bm90IGEga2V5"},
            "cryptoKeyInfoEnvironmentList[0].privateKey is not a valid private key",
        ),
        (
            {"publicKey": None, "privateKey": None},
            "cryptoKeyInfoEnvironmentList[0] must have a publicKey, a privateKey or both!",
        ),
        (
            {"publicKey": km.issue("other", key=km.rsa_key()).public_b64()},
            "cryptoKeyInfoEnvironmentList[0]: publicKey and privateKey are not one key pair!",
        ),
        (
            {"environmentName": "nowhere"},
            "Environment (nowhere) is not found or user does not have privilege to access it!",
        ),
    ]
    for item, message in cases:
        response = api.request("POST", KEYS, key_body(rsa, **item))
        assert_error(response, 400, "bad_request", message)
        assert rsa.private_b64() not in response.text
    assert _listed(api, KEYS) == []


def test_duplicate_keys_are_refused(api: Api, rsa: km.Issued) -> None:
    assert api.request("POST", KEYS, key_body(rsa)).status_code == 200
    assert api.request("POST", KEYS, key_body(rsa, name="other")).status_code == 200
    assert_error(
        api.request("POST", KEYS, key_body(rsa)),
        400,
        "bad_request",
        "Key (name: my-key) is already exist! Try update operation if want to change its value.",
    )
    assert_error(
        api.request("PUT", KEYS + "other/", key_body(rsa, name="my-key")),
        400,
        "bad_request",
        "Key (name: my-key) is already exist!",
    )


def test_the_state_never_shows_a_private_key(api: Api, rsa: km.Issued) -> None:
    assert api.request("POST", KEYS, key_body(rsa)).status_code == 200
    [key] = _demo_state(api)["cryptoKeys"]
    assert key["cryptoKeyInfoEnvironmentList"][0]["privateKey"] is None
    assert key["cryptoKeyInfoEnvironmentList"][0]["publicKey"] == rsa.public_b64()
    assert rsa.private_b64() not in json.dumps(api.state())


# -- keystores --------------------------------------------------------------------------------------


@pytest.mark.parametrize("kind", ["PKCS12", "JKS"])
def test_a_keystore_is_opened_with_its_password_and_answered_without_it(
    api: Api, rsa: km.Issued, kind: str
) -> None:
    content = km.pkcs12_file(rsa, "api", "s3cret") if kind == "PKCS12" else km.jks_file(rsa, "api", "s3cret")
    response = api.request("POST", KEYSTORES, keystore_body(content, kind, "s3cret"))
    assert response.status_code == 200, response.text
    assert response.json() == DEPLOYED
    [keystore] = _listed(api, KEYSTORES + "my-keystore/")
    assert keystore["keyStoreEnvironmentList"] == [
        {"environmentName": "production", "type": kind, "file": km.b64(content)}
    ]
    assert _listed(api, KEYSTORES) == [keystore]
    state = _demo_state(api)["keystores"]
    assert state == [
        {
            "id": keystore["id"],
            "name": "my-keystore",
            "description": "Keystore for API security",
            "keyStoreEnvironmentList": [{"environmentName": "production", "type": kind, "aliases": ["api"]}],
        }
    ]
    assert "s3cret" not in json.dumps(api.state()) and km.b64(content) not in json.dumps(api.state())


@pytest.mark.parametrize("kind", ["PKCS12", "JKS"])
def test_a_wrong_password_is_a_400_that_quotes_nothing_and_makes_nothing(
    api: Api, rsa: km.Issued, kind: str
) -> None:
    content = km.pkcs12_file(rsa, "api", "s3cret") if kind == "PKCS12" else km.jks_file(rsa, "api", "s3cret")
    response = api.request("POST", KEYSTORES, keystore_body(content, kind, "guess"))
    assert_error(
        response,
        400,
        "bad_request",
        f"keyStoreEnvironmentList[0].file cannot be opened: it is not a {kind} keystore"
        " or the password is wrong",
    )
    assert "guess" not in response.text and "s3cret" not in response.text
    assert _listed(api, KEYSTORES) == []


@pytest.mark.parametrize(
    ("item", "message"),
    [
        ({"type": "BKS"}, "keyStoreEnvironmentList[0].type (BKS) is not one of JKS, PKCS12!"),
        ({"file": "%%%"}, "keyStoreEnvironmentList[0].file is not base64-encoded"),
        ({"file": ""}, "keyStoreEnvironmentList[0].file value can not be empty!"),
        ({"file": km.b64(b"not a keystore")}, "keyStoreEnvironmentList[0].file is not a valid JKS keystore"),
        (
            {"environmentName": "nowhere"},
            "Environment (nowhere) is not found or user does not have privilege to access it!",
        ),
    ],
)
def test_bad_keystores_are_refused_by_name(
    api: Api, rsa: km.Issued, item: dict[str, Any], message: str
) -> None:
    body = keystore_body(km.jks_file(rsa, "api", "pw"), "JKS", "pw")
    body["keyStoreEnvironmentList"][0].update(item)
    assert_error(api.request("POST", KEYSTORES, body), 400, "bad_request", message)
    assert _listed(api, KEYSTORES) == []


def test_keystore_update_and_delete(api: Api, rsa: km.Issued, ec: km.Issued) -> None:
    assert (
        api.request("POST", KEYSTORES, keystore_body(km.jks_file(rsa, "api", "pw"), "JKS", "pw")).status_code
        == 200
    )
    replaced = keystore_body(km.pkcs12_file(ec, "ec", "pw2"), "PKCS12", "pw2")
    assert api.request("PUT", KEYSTORES + "my-keystore/", replaced).json() == DEPLOYED
    assert _demo_state(api)["keystores"][0]["keyStoreEnvironmentList"][0]["aliases"] == ["ec"]
    # A bad file changes nothing.
    bad = keystore_body(km.pkcs12_file(ec, "ec", "pw2"), "PKCS12", "wrong")
    assert_error(api.request("PUT", KEYSTORES + "my-keystore/", bad), 400, "bad_request")
    assert _listed(api, KEYSTORES)[0]["keyStoreEnvironmentList"][0]["type"] == "PKCS12"
    assert_error(
        api.request("PUT", KEYSTORES + "nope/", replaced),
        400,
        "bad_request",
        "Keystore (name: nope) is not found!",
    )
    assert_error(
        api.request("POST", KEYSTORES, replaced),
        400,
        "bad_request",
        "Keystore (name: my-keystore) is already exist! Try update operation if want to change its value.",
    )
    assert api.request("DELETE", KEYSTORES + "my-keystore/").status_code == 200
    assert _listed(api, KEYSTORES) == []


def test_update_referenced_jwks_needs_a_scope(api: Api, rsa: km.Issued) -> None:
    assert api.request("POST", KEYS, key_body(rsa)).status_code == 200
    response = api.request("PUT", KEYS + "my-key/", key_body(rsa), params={"updateReferencedJwks": "true"})
    assert_error(
        response,
        400,
        "bad_request",
        "updateScope is missing: it must be SAME_PROJECT or ALL_PROJECTS when updateReferencedJwks is true!",
    )


def test_roles(dev_api: Api, rsa: km.Issued) -> None:
    assert_error(dev_api.request("GET", KEYS), 403, "forbidden")
    assert_error(dev_api.request("POST", KEYSTORES, {"name": "x"}), 403, "forbidden")
