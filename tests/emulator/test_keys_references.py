"""Policies that name JWKs, crypto keys and certificates by id, and keystores and certificates by name:
a missing one is refused, one the project holds is taken; deleting a key, certificate or keystore that
a policy names is refused, deleting a JWK is allowed ("may break policies that depend on it").

https://github.com/apinizer/management-api-docs/blob/main/02-api-reference/05-policies/policies/policy-encryption.md
https://github.com/apinizer/management-api-docs/blob/main/02-api-reference/08-keys-secrets/crud/delete-jwk.md
"""

from __future__ import annotations

from typing import Any

import pytest

import _key_material as km

from .conftest import Api, assert_error

POLICIES = "/apiops/projects/Demo/apiProxies/PetStore/policies/"
PLACEMENT = {"targetScope": "ALL", "targetPipeline": "REQUEST", "deploy": False}


@pytest.fixture(scope="module")
def rsa() -> km.Issued:
    return km.issue("refs.example.com", key=km.rsa_key())


def encryption(key_id: str | None = None, certificate_id: str | None = None) -> dict[str, Any]:
    """The encryption page's example, naming a key (``KEY``) or a certificate (``CERTIFICATE``)."""
    return {
        "operationMetadata": PLACEMENT,
        "policy": {
            "type": "policy-encryption",
            "description": "Encrypt sensitive data",
            "policyEncryptionDefList": [
                {
                    "description": "Encrypt request body",
                    "sourceVar": {"name": "requestBody", "type": "BODY", "messageContentType": "ALL_BODY"},
                    "targetVar": {"name": "encryptedBody", "type": "BODY", "messageContentType": "ALL_BODY"},
                    "cipherAlgorithm": "RSA_ECB_PKCS1Padding",
                    "cryptoKeyInfoId": key_id,
                    "certificateId": certificate_id,
                    "enumKeyCertificateType": "KEY" if key_id else "CERTIFICATE",
                    "outputEncodingType": "BASE64",
                }
            ],
        },
    }


def jose_validation(jwk_id: str) -> dict[str, Any]:
    return {
        "operationMetadata": PLACEMENT,
        "policy": {
            "type": "policy-jose-validation",
            "validateSign": True,
            "validateByIssuer": False,
            "jwkIdForValidationAndSign": jwk_id,
        },
    }


def _id(api: Api, path: str) -> str:
    response = api.request("GET", path)
    assert response.status_code == 200, response.text
    object_id: str = response.json()["resultList"][0]["id"]
    return object_id


def _key(api: Api, rsa: km.Issued) -> str:
    body = {
        "name": "my-key",
        "keyType": "RSA",
        "cryptoKeyInfoEnvironmentList": [{"environmentName": "production", "publicKey": rsa.public_b64()}],
    }
    assert api.request("POST", "/apiops/projects/Demo/keys/", body).status_code == 200
    return _id(api, "/apiops/projects/Demo/keys/my-key/")


def _policy_names(api: Api) -> list[str]:
    lists = api.request("GET", POLICIES).json()["resultList"][0]
    return [p["name"] for p in lists["requestPolicyList"]]


def test_a_policy_naming_a_missing_key_certificate_keystore_or_jwk_is_refused(api: Api) -> None:
    before = _policy_names(api)
    cases = [
        (encryption(key_id="encryption-key-id"), "cryptoKeyInfoId: Key (id: encryption-key-id) is not found"),
        (
            encryption(certificate_id="rsa-cert-id"),
            "certificateId: Certificate (id: rsa-cert-id) is not found",
        ),
        (jose_validation("my-jwk-id"), "jwkIdForValidationAndSign: JWK (id: my-jwk-id) is not found"),
        # By name: the SAML and WS-Security keystores, the API call's certificate.
        (saml_validation("saml-keystore"), "keyStoreName: Keystore (name: saml-keystore) is not found"),
        (api_call("client-cert"), "certificateName: Certificate (name: client-cert) is not found"),
    ]
    for body, message in cases:
        response = api.request("POST", POLICIES + "refers/", body)
        assert_error(response, 400, "bad_request", f"{message} in the project!")
    assert _policy_names(api) == before


def test_a_policy_naming_what_the_project_holds_is_taken_and_the_key_then_kept(
    api: Api, rsa: km.Issued
) -> None:
    key_id = _key(api, rsa)
    assert api.request("POST", POLICIES + "encrypt/", encryption(key_id=key_id)).status_code == 200
    assert "encrypt" in _policy_names(api)
    assert_error(
        api.request("DELETE", "/apiops/projects/Demo/keys/my-key/"),
        400,
        "bad_request",
        "Key (name: my-key) is used by policy (encrypt) of API Proxy (PetStore):"
        " remove it from the policy before deleting it!",
    )
    # Once the policy no longer names it, it goes.
    delete = {"operationMetadata": {"targetScope": "ALL", "targetPipeline": "REQUEST", "deploy": False}}
    assert api.request("DELETE", POLICIES + "encrypt/", delete).status_code == 200
    assert api.request("DELETE", "/apiops/projects/Demo/keys/my-key/").status_code == 200


def test_a_certificate_a_policy_names_is_kept_and_a_jwk_may_go(api: Api, rsa: km.Issued) -> None:
    created = api.client.post(
        "/apiops/projects/Demo/certificates/",
        data={
            "certificateName": "cert",
            "alias": "a",
            "certificateDescription": "",
            "environmentList": "test",
        },
        files={"pemEncodedFile": ("c.pem", rsa.pem)},
        headers=api.headers(),
    )
    assert created.status_code == 200, created.text
    certificate_id = _id(api, "/apiops/projects/Demo/certificates/cert/")
    assert (
        api.request("POST", POLICIES + "encrypt/", encryption(certificate_id=certificate_id)).status_code
        == 200
    )
    assert_error(api.request("DELETE", "/apiops/projects/Demo/certificates/cert/"), 400, "bad_request")

    generated = {"name": "signer", "type": "OCT", "oct": {"keySize": 256}}
    assert api.request("POST", "/apiops/projects/Demo/jwks/generate", generated).status_code == 200
    jwk_id = _id(api, "/apiops/projects/Demo/jwks/signer/")
    assert api.request("POST", POLICIES + "jose/", jose_validation(jwk_id)).status_code == 200
    assert api.request("DELETE", "/apiops/projects/Demo/jwks/signer/").status_code == 200


def _redeploy_required(api: Api) -> dict[str, bool]:
    body = api.request("GET", "/apiops/projects/Demo/apiProxies/PetStore/").json()
    return {d["environmentName"]: d["redeployRequired"] for d in body["deploymentList"] if d["deployed"]}


def test_a_changed_key_deploys_itself_and_a_policy_naming_another_needs_the_proxys_redeploy(
    api: Api, rsa: km.Issued
) -> None:
    """A key, certificate or JWK deploys itself on every write (its pages: "automatically deployed
    after update"), so a deployed proxy whose policy names it needs no redeploy when it changes in
    place; a policy that names another one is a change of the proxy's, which does."""
    key_id = _key(api, rsa)
    assert api.request("POST", POLICIES + "encrypt/", encryption(key_id=key_id)).status_code == 200
    assert (
        api.request("POST", "/apiops/projects/Demo/apiProxies/PetStore/environments/test/").status_code == 200
    )
    assert _redeploy_required(api) == {"test": False}

    rotated = km.issue("rotated.example.com", key=km.rsa_key())
    body = {
        "name": "my-key",
        "keyType": "RSA",
        "cryptoKeyInfoEnvironmentList": [
            {"environmentName": "production", "publicKey": rotated.public_b64()},
            {"environmentName": "test", "publicKey": rotated.public_b64()},
        ],
    }
    updated = api.request("PUT", "/apiops/projects/Demo/keys/my-key/", body)
    results = updated.json()["deploymentResult"]["environmentResults"]
    assert [r["environmentName"] for r in results] == ["production", "test"]
    assert _redeploy_required(api) == {"test": False}

    other = {**body, "name": "other-key"}
    assert api.request("POST", "/apiops/projects/Demo/keys/", other).status_code == 200
    other_id = _id(api, "/apiops/projects/Demo/keys/other-key/")
    assert api.request("PUT", POLICIES + "encrypt/", encryption(key_id=other_id)).status_code == 200
    assert _redeploy_required(api) == {"test": True}


def test_an_imported_policy_naming_a_missing_key_is_refused_and_nothing_is_imported(
    api: Api, rsa: km.Issued
) -> None:
    from apinizer_pulumi.client import ApinizerClient, BadRequestError

    key_id = _key(api, rsa)
    assert api.request("POST", POLICIES + "encrypt/", encryption(key_id=key_id)).status_code == 200
    with ApinizerClient(str(api.client.base_url), token=api.token) as client:
        exported = client.api_proxies.export("Demo", "PetStore")
        # The same gateway holds the key: the export imports back.
        client.api_proxies.delete("Demo", "PetStore")
        assert client.api_proxies.import_proxy("Demo", exported).ok
        client.api_proxies.delete("Demo", "PetStore")
        assert api.request("DELETE", "/apiops/projects/Demo/keys/my-key/").status_code == 200
        with pytest.raises(BadRequestError, match=rf"cryptoKeyInfoId: Key \(id: {key_id}\) is not found"):
            client.api_proxies.import_proxy("Demo", exported)
        assert "PetStore" not in [p.name for p in client.api_proxies.list("Demo")]


# --- references by name: the API call's certificate, the SAML and WS-Security keystores ---------

KEYSTORES = "/apiops/projects/Demo/keystores/"


def saml_validation(keystore_name: str) -> dict[str, Any]:
    """The SAML validation page's example: its ``keyStoreName`` "is automatically resolved to KeyStore ID"."""
    return {
        "operationMetadata": PLACEMENT,
        "policy": {"type": "policy-saml-validation", "keyStoreName": keystore_name,
                   "allowUnknownSigner": False, "clearSaml": False},
    }


def api_call(certificate_name: str) -> dict[str, Any]:
    """The API call page's example with mTLS: "Certificate name is resolved to certificate ID
    automatically"."""
    return {
        "operationMetadata": PLACEMENT,
        "policy": {"type": "policy-api-call", "callType": "SYNCHRONOUS", "httpMethod": "POST",
                   "url": "https://api.example.com/validate", "certificateEnabled": True,
                   "certificateName": certificate_name},
    }


def _keystore(api: Api, rsa: km.Issued, name: str = "saml-keystore") -> None:
    body = {"name": name, "keyStoreEnvironmentList": [
        {"environmentName": "production", "type": "PKCS12", "password": "s3cret",
         "file": km.b64(km.pkcs12_file(rsa, "signer", "s3cret"))}]}
    response = api.request("POST", KEYSTORES, body)
    assert response.status_code == 200, response.text


def _certificate(api: Api, rsa: km.Issued, name: str = "client-cert") -> None:
    created = api.client.post(
        "/apiops/projects/Demo/certificates/",
        data={"certificateName": name, "alias": "a", "certificateDescription": "", "environmentList": "test"},
        files={"pemEncodedFile": ("c.pem", rsa.pem)},
        headers=api.headers(),
    )
    assert created.status_code == 200, created.text


def hold_what_it_names_by_name(api: Api, policy: Any) -> None:
    """Make the keystores and certificates that a (documented) policy names by name, so that it is taken."""
    from apinizer_emulator import key_references

    issued = km.issue("named.example.com", key=km.rsa_key())
    named = {(key_references.NAMED_REFERENCES[field][1], name)
             for field, name in key_references.named_in(policy) if field in key_references.NAMED_REFERENCES}
    for table, name in sorted(named):
        (_keystore if table == "keystores" else _certificate)(api, issued, name)


def test_a_keystore_or_certificate_named_by_a_policy_is_kept_until_the_policy_lets_go(
    api: Api, rsa: km.Issued
) -> None:
    """The keystore delete page is silent on policies that use it: refused, naming the policy, as a key
    or certificate named by id is."""
    _keystore(api, rsa)
    _certificate(api, rsa)
    assert api.request("POST", POLICIES + "saml/", saml_validation("saml-keystore")).status_code == 200
    assert api.request("POST", POLICIES + "call/", api_call("client-cert")).status_code == 200

    assert_error(
        api.request("DELETE", KEYSTORES + "saml-keystore/"), 400, "bad_request",
        "Keystore (name: saml-keystore) is used by policy (saml) of API Proxy (PetStore):"
        " remove it from the policy before deleting it!",
    )
    assert_error(
        api.request("DELETE", "/apiops/projects/Demo/certificates/client-cert/"), 400, "bad_request",
        "Certificate (name: client-cert) is used by policy (call) of API Proxy (PetStore):"
        " remove it from the policy before deleting it!",
    )
    delete = {"operationMetadata": {"targetScope": "ALL", "targetPipeline": "REQUEST", "deploy": False}}
    for policy in ("saml", "call"):
        assert api.request("DELETE", POLICIES + f"{policy}/", delete).status_code == 200
    assert api.request("DELETE", KEYSTORES + "saml-keystore/").status_code == 200
    assert api.request("DELETE", "/apiops/projects/Demo/certificates/client-cert/").status_code == 200


def test_a_keystore_named_by_a_deployed_policy_changes_in_place_without_a_redeploy(
    api: Api, rsa: km.Issued
) -> None:
    """By name as by id: the keystore deploys itself on its update; a policy naming another keystore is a
    change of the proxy, which its deployment must catch up with."""
    _keystore(api, rsa)
    _keystore(api, rsa, "other-keystore")
    assert api.request("POST", POLICIES + "saml/", saml_validation("saml-keystore")).status_code == 200
    deployed = api.request("POST", "/apiops/projects/Demo/apiProxies/PetStore/environments/test/")
    assert deployed.status_code == 200
    assert _redeploy_required(api) == {"test": False}

    renewed = km.issue("renewed.example.com", key=km.rsa_key())
    body = {"name": "saml-keystore", "keyStoreEnvironmentList": [
        {"environmentName": "production", "type": "PKCS12", "password": "s3cret",
         "file": km.b64(km.pkcs12_file(renewed, "signer", "s3cret"))}]}
    assert api.request("PUT", KEYSTORES + "saml-keystore/", body).status_code == 200
    assert _redeploy_required(api) == {"test": False}

    assert api.request("PUT", POLICIES + "saml/", saml_validation("other-keystore")).status_code == 200
    assert _redeploy_required(api) == {"test": True}


def test_a_keystore_a_policy_names_by_name_keeps_its_name(api: Api, rsa: km.Issued) -> None:
    """A rename would leave the policy naming nothing (the pages are silent): refused, naming the policy."""
    _keystore(api, rsa)
    assert api.request("POST", POLICIES + "saml/", saml_validation("saml-keystore")).status_code == 200
    body = {"name": "renamed-keystore", "keyStoreEnvironmentList": [
        {"environmentName": "production", "type": "PKCS12", "password": "s3cret",
         "file": km.b64(km.pkcs12_file(rsa, "signer", "s3cret"))}]}
    assert_error(
        api.request("PUT", KEYSTORES + "saml-keystore/", body), 400, "bad_request",
        "Keystore (name: saml-keystore) is used by policy (saml) of API Proxy (PetStore):"
        " remove it from the policy before renaming it!",
    )
    assert api.request("GET", KEYSTORES + "saml-keystore/").status_code == 200
