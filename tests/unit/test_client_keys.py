"""``client.jwks``, ``client.keystores``, ``client.crypto_keys`` and ``client.certificates`` against
``httpx.MockTransport``: the exact method, path, query and body (or multipart form) of each of the
28 operations, every documented request body replayed as sent, the answers parsed, the documented
errors raised, what is retried, and the secrets kept out of errors.

https://github.com/apinizer/management-api-docs/blob/main/02-api-reference/08-keys-secrets/crud/index.md
"""

from __future__ import annotations

import io
import zipfile
from typing import Any

import httpx
import pytest

from _documented_bodies import KEYS_EXAMPLES
from apinizer_pulumi.client import (
    ApinizerClient,
    APIResponseValidationError,
    APIStatusError,
    BadRequestError,
    DeploymentFailedError,
    InvalidArgumentError,
    NotFoundError,
    key_object_not_found,
)
from apinizer_pulumi.client._constants import UPLOAD_TIMEOUT
from apinizer_pulumi.models import (
    CertificateSpec,
    CryptoKeyType,
    JwkSourceType,
    JwkType,
    KeystoreType,
)

from ._fake_gateway import FakeGateway, body, error, multipart_parts

PAGES = "02-api-reference/08-keys-secrets/crud/"
PROJECT = "MyProject"
BASE = f"/apiops/projects/{PROJECT}"
JWKS = f"{BASE}/jwks/"
KEYSTORES = f"{BASE}/keystores/"
KEYS = f"{BASE}/keys/"
CERTIFICATES = f"{BASE}/certificates/"
PEM = b"-----BEGIN CERTIFICATE-----\nMIIBszCCAVmgAwIBAgIUQ==\n-----END CERTIFICATE-----\n"
SECRET = "s3cr3t-Value-0f-The-Key"


def doc(key: str) -> Any:
    return KEYS_EXAMPLES[PAGES + key]["body"]


def answer(key: str) -> httpx.Response:
    return httpx.Response(200, json=doc(key))


def documented_error(key: str, status: int = 400) -> httpx.Response:
    return httpx.Response(status, json=doc(key))


def examples(page: str) -> list[str]:
    """The keys of a page's request examples (its JSON blocks and cURL bodies that are requests)."""
    return sorted(
        key.removeprefix(PAGES)
        for key, example in KEYS_EXAMPLES.items()
        if key.startswith(PAGES + page + ".md#")
        and example["model"] not in ("ApiErrorBody",)
        and not example["model"].endswith(("Response", "List"))
        and "refused" not in example
        and not example.get("form")
    )


# -- JWKs -------------------------------------------------------------------------------------------


def test_jwks_list(gateway: FakeGateway, client: ApinizerClient) -> None:
    gateway.script("GET", JWKS, answer("list-jwks.md#0"))
    jwks = client.jwks.list(PROJECT)
    assert (gateway.last.method, gateway.last.url.path, gateway.last.content) == ("GET", JWKS, b"")
    assert [(j.name, j.source_type, j.type, j.kid) for j in jwks] == [
        ("my-jwk", JwkSourceType.URL, JwkType.RSA, "key-id-1"),
        ("generated-jwk", JwkSourceType.GENERATE, JwkType.EC, "key-id-2"),
    ]


def test_jwk_get_and_find(gateway: FakeGateway, client: ApinizerClient) -> None:
    gateway.script("GET", JWKS + "my-jwk/", answer("get-jwk.md#0"), documented_error("get-jwk.md#1"))
    jwk = client.jwks.get(PROJECT, "my-jwk")
    assert (gateway.last.method, gateway.last.url.path) == ("GET", JWKS + "my-jwk/")
    assert jwk.rsa is not None and (jwk.rsa.n, jwk.rsa.d) == ("modulus-value", "private-exponent")
    assert client.jwks.find(PROJECT, "my-jwk") is None  # 400 "JWK (name: my-jwk) is not found!"
    gateway.script("GET", JWKS + "my-jwk/", documented_error("get-jwk.md#1"))
    with pytest.raises(BadRequestError, match=r"JWK \(name: my-jwk\) is not found!$") as caught:
        client.jwks.get(PROJECT, "my-jwk")
    assert key_object_not_found(caught.value) and key_object_not_found(caught.value, "JWK")
    assert not key_object_not_found(caught.value, "Certificate")


def test_find_still_raises_for_an_unknown_project(gateway: FakeGateway, client: ApinizerClient) -> None:
    gateway.script("GET", CERTIFICATES + "c/", documented_error("list-certificates.md#2", 404))
    with pytest.raises(NotFoundError, match=r"Project\(MyProject\) was not found"):
        client.certificates.find(PROJECT, "c")


def test_a_get_that_lists_nothing_is_not_a_success(gateway: FakeGateway, client: ApinizerClient) -> None:
    gateway.script("GET", KEYS + "k/", httpx.Response(200, json={"success": True, "resultList": []}))
    with pytest.raises(APIResponseValidationError, match="the answer lists no Key"):
        client.crypto_keys.get(PROJECT, "k")


@pytest.mark.parametrize("key", examples("create-jwk"))
def test_jwk_create_sends_each_documented_body(
    key: str, gateway: FakeGateway, client: ApinizerClient
) -> None:
    gateway.script("POST", JWKS, answer("create-jwk.md#6"))
    result = client.jwks.create(PROJECT, doc(key))
    assert (gateway.last.method, gateway.last.url.path) == ("POST", JWKS)
    assert body(gateway.last) == doc(key)
    assert result.deployment_result is not None
    assert [r.environment_name for r in result.deployment_result.per_environment()] == [
        "production",
        "staging",
    ]


OPERATIONS = [
    ("generate-jwk", "generate", "generate"),
    ("parse-jwk-from-url", "parse-from-url", "parse_from_url"),
    ("parse-jwk-from-clipboard", "parse-from-clipboard", "parse_from_clipboard"),
    ("parse-jwk-from-certificate", "parse-from-certificate", "parse_from_certificate"),
    ("parse-jwk-from-key", "parse-from-key", "parse_from_key"),
    ("parse-jwk-from-keystore", "parse-from-keystore", "parse_from_keystore"),
]


@pytest.mark.parametrize(
    ("key", "operation", "method"),
    [(key, operation, method) for page, operation, method in OPERATIONS for key in examples(page)],
)
def test_generate_and_parse_from_send_each_documented_body(
    key: str, operation: str, method: str, gateway: FakeGateway, client: ApinizerClient
) -> None:
    gateway.script("POST", JWKS + operation, answer("generate-jwk.md#4"))
    result = getattr(client.jwks, method)(PROJECT, doc(key))
    assert (gateway.last.method, gateway.last.url.path) == ("POST", JWKS + operation)
    assert body(gateway.last) == doc(key)
    assert result.deployment_result.ok


@pytest.mark.parametrize(
    ("key", "message"),
    [
        ("create-jwk.md#7", "JWK name can not be empty!"),
        (
            "create-jwk.md#8",
            "JWK (name: my-jwk) is already exist! Try update operation if want to change its value.",
        ),
        ("create-jwk.md#9", "Source type is required!"),
        ("create-jwk.md#10", "URL is required for URL source type!"),
        ("create-jwk.md#11", "Certificate (name: my-certificate) is not found!"),
    ],
)
def test_jwk_create_documented_errors_are_raised_and_not_repeated(
    key: str, message: str, gateway: FakeGateway, client: ApinizerClient
) -> None:
    gateway.script("POST", JWKS, documented_error(key))
    with pytest.raises(BadRequestError) as caught:
        client.jwks.create(PROJECT, doc("create-jwk.md#3"))
    assert (caught.value.status_code, caught.value.error, caught.value.error_description) == (
        400,
        "bad_request",
        message,
    )
    assert len(gateway.api_requests) == 1


def test_generate_documented_errors(gateway: FakeGateway, client: ApinizerClient) -> None:
    for key in ("generate-jwk.md#5", "generate-jwk.md#6", "generate-jwk.md#7"):
        gateway.script("POST", JWKS + "generate", documented_error(key))
        with pytest.raises(BadRequestError) as caught:
            client.jwks.generate(PROJECT, doc("generate-jwk.md#0"))
        assert caught.value.error_description == doc(key)["error_description"]


def test_a_create_is_refused_before_sending(gateway: FakeGateway, client: ApinizerClient) -> None:
    with pytest.raises(InvalidArgumentError) as caught:
        client.jwks.create(PROJECT, {"name": "j", "sourceType": "KEYSTORE", "keyStoreName": "ks"})
    assert caught.value.problems == (
        ("jwk.alias_name", "is required when source_type is KEYSTORE"),
        ("jwk.environment_name", "is required when source_type is KEYSTORE"),
        ("jwk.use_type", "is required when source_type is KEYSTORE"),
        ("jwk.algorithm", "is required when source_type is KEYSTORE"),
    )
    with pytest.raises(
        InvalidArgumentError, match=r"jwk\.rsa\.key_size: must be 2048, 3072 or 4096 \(bits\)"
    ):
        client.jwks.generate(PROJECT, {"name": "g", "type": "RSA", "rsa": {"keySize": 1024}})
    assert gateway.api_requests == []


def test_a_pasted_secret_stays_out_of_the_refusal(gateway: FakeGateway, client: ApinizerClient) -> None:
    broken = '{"kty": "oct", "k": "' + SECRET + '"'
    with pytest.raises(InvalidArgumentError) as caught:
        client.jwks.parse_from_clipboard(PROJECT, {"name": "j", "jwkStr": broken})
    assert caught.value.problems[0][0] == "jwk.jwk_str" and SECRET not in str(caught.value)
    assert SECRET not in repr(caught.value) and gateway.api_requests == []


def test_jwk_update(gateway: FakeGateway, client: ApinizerClient) -> None:
    gateway.script("PUT", JWKS + "my-jwk/", answer("update-jwk.md#1"))
    result = client.jwks.update(PROJECT, "my-jwk", doc("update-jwk.md#curl-0"))
    assert (gateway.last.method, gateway.last.url.path) == ("PUT", JWKS + "my-jwk/")
    assert body(gateway.last) == {"name": "updated-jwk", "description": "Updated JWK description"}
    assert result.ok
    client.jwks.update(PROJECT, "my-jwk", {"description": "only this"})
    assert body(gateway.last) == {"description": "only this"}
    for key in ("update-jwk.md#2", "update-jwk.md#3"):
        gateway.script("PUT", JWKS + "my-jwk/", documented_error(key))
        with pytest.raises(BadRequestError) as caught:
            client.jwks.update(PROJECT, "my-jwk", {"name": "updated-jwk"})
        assert caught.value.error_description == doc(key)["error_description"]


def test_an_update_that_renames_is_not_repeated(gateway: FakeGateway, client: ApinizerClient) -> None:
    busy = error(503, "unavailable", "busy")
    gateway.script("PUT", JWKS + "my-jwk/", busy, busy)
    client.jwks.update(PROJECT, "my-jwk", {"description": "d"})  # the same name: repeated
    assert len(gateway.api_requests) == 3
    gateway.script("PUT", JWKS + "my-jwk/", busy)
    with pytest.raises(APIStatusError):
        client.jwks.update(PROJECT, "my-jwk", {"name": "other"})
    assert len(gateway.api_requests) == 4


def test_jwk_delete(gateway: FakeGateway, client: ApinizerClient) -> None:
    gateway.script("DELETE", JWKS + "my-jwk/", answer("delete-jwk.md#0"), documented_error("delete-jwk.md#1"))
    result = client.jwks.delete(PROJECT, "my-jwk")
    assert (gateway.last.method, gateway.last.url.path, gateway.last.content) == (
        "DELETE",
        JWKS + "my-jwk/",
        b"",
    )
    assert result.deployment_result is not None and result.deployment_result.message == (
        "Undeployment completed successfully"
    )
    with pytest.raises(BadRequestError, match=r"JWK \(name: my-jwk\) is not found!"):
        client.jwks.delete(PROJECT, "my-jwk")


def test_a_failed_environment_is_an_error(gateway: FakeGateway, client: ApinizerClient) -> None:
    failed = {
        "success": True,
        "deploymentResult": {
            "success": False,
            "environmentResults": [
                {"environmentName": "production", "success": False, "message": "pod down"}
            ],
        },
    }
    gateway.script("POST", JWKS + "generate", httpx.Response(200, json=failed))
    with pytest.raises(DeploymentFailedError, match="production: pod down"):
        client.jwks.generate(PROJECT, doc("generate-jwk.md#curl-0"))


def test_names_are_one_path_segment(gateway: FakeGateway, client: ApinizerClient) -> None:
    client.jwks.delete("My Project", "a/b?c")
    assert gateway.last.url.raw_path == b"/apiops/projects/My%20Project/jwks/a%2Fb%3Fc/"
    with pytest.raises(InvalidArgumentError, match="name: must be a non-empty string"):
        client.keystores.get(PROJECT, "")


# -- keystores and keys -------------------------------------------------------------------------------


def test_keystores(gateway: FakeGateway, client: ApinizerClient) -> None:
    gateway.script("GET", KEYSTORES, answer("list-keystores.md#0"))
    gateway.script("GET", KEYSTORES + "my-keystore/", answer("list-keystores.md#0"))
    listed = client.keystores.list(PROJECT)
    assert [(e.environment_name, e.type) for e in listed[0].key_store_environment_list] == [
        ("production", KeystoreType.JKS)
    ]
    assert client.keystores.get(PROJECT, "my-keystore").name == "my-keystore"
    assert gateway.last.url.path == KEYSTORES + "my-keystore/"

    gateway.script(
        "POST", KEYSTORES, answer("create-keystore.md#0"), documented_error("create-keystore.md#1")
    )
    client.keystores.create(PROJECT, doc("create-keystore.md#curl-0"))
    assert (gateway.last.method, gateway.last.url.path) == ("POST", KEYSTORES)
    assert body(gateway.last) == doc("create-keystore.md#curl-0")
    with pytest.raises(BadRequestError, match=r"Keystore \(name: my-keystore\) is already exist!"):
        client.keystores.create(PROJECT, doc("create-keystore.md#curl-0"))

    gateway.script("DELETE", KEYSTORES + "my-keystore/", answer("delete-keystore.md#0"))
    assert client.keystores.delete(PROJECT, "my-keystore").ok
    assert (gateway.last.method, gateway.last.url.path) == ("DELETE", KEYSTORES + "my-keystore/")


def test_crypto_keys(gateway: FakeGateway, client: ApinizerClient) -> None:
    gateway.script("GET", KEYS, answer("list-keys.md#0"))
    key = client.crypto_keys.list(PROJECT)[0]
    assert (key.name, key.key_type) == ("my-key", CryptoKeyType.RSA)
    gateway.script("POST", KEYS, answer("create-key.md#0"), documented_error("create-key.md#1"))
    client.crypto_keys.create(PROJECT, doc("create-key.md#curl-0"))
    assert (gateway.last.method, gateway.last.url.path) == ("POST", KEYS)
    assert body(gateway.last) == doc("create-key.md#curl-0")
    with pytest.raises(BadRequestError, match=r"Key \(name: my-key\) is already exist!"):
        client.crypto_keys.create(PROJECT, doc("create-key.md#curl-0"))
    gateway.script("DELETE", KEYS + "my-key/", answer("delete-key.md#0"))
    assert client.crypto_keys.delete(PROJECT, "my-key").ok


@pytest.mark.parametrize(
    ("resource", "collection", "key"),
    [("keystores", KEYSTORES, "update-keystore.md#curl-0"), ("crypto_keys", KEYS, "update-key.md#curl-0")],
)
def test_updates_with_referenced_jwks(
    resource: str, collection: str, key: str, gateway: FakeGateway, client: ApinizerClient
) -> None:
    objects = getattr(client, resource)
    documented = KEYS_EXAMPLES[PAGES + key]
    old = "my-key" if resource == "crypto_keys" else "my-keystore"
    # The page's cURL example: the JWKs made from it follow, in the same project; the body renames.
    objects.update(
        PROJECT, doc(key), current_name=old, update_referenced_jwks=True, update_scope="SAME_PROJECT"
    )
    assert (gateway.last.method, gateway.last.url.path) == ("PUT", collection + old + "/")
    assert dict(gateway.last.url.params) == documented["query"]
    assert body(gateway.last) == doc(key)
    # Without the flag, no query; without current_name, the body's name is the path's.
    objects.update(PROJECT, doc(key))
    assert gateway.last.url.path == collection + doc(key)["name"] + "/" and gateway.last.url.query == b""
    with pytest.raises(InvalidArgumentError) as caught:
        objects.update(PROJECT, doc(key), update_referenced_jwks=True)
    assert caught.value.problems == (("update_scope", "is required when update_referenced_jwks is true"),)
    with pytest.raises(InvalidArgumentError, match="update_scope"):
        objects.update(PROJECT, doc(key), update_referenced_jwks=True, update_scope="EVERYWHERE")
    assert len(gateway.api_requests) == 2


def test_a_read_that_does_not_parse_quotes_no_key_material(
    gateway: FakeGateway, client: ApinizerClient
) -> None:
    broken = {"success": True, "resultList": [{"keyStoreEnvironmentList": [{"file": SECRET}]}]}
    gateway.script("GET", KEYSTORES, httpx.Response(200, json=broken))
    with pytest.raises(APIResponseValidationError) as caught:
        client.keystores.list(PROJECT)
    assert SECRET not in str(caught.value) and SECRET not in repr(caught.value)
    gateway.script("GET", JWKS + "j/", httpx.Response(200, json={"resultList": [{"rsa": {"d": SECRET}}]}))
    with pytest.raises(APIResponseValidationError) as caught:
        client.jwks.get(PROJECT, "j")
    assert SECRET not in str(caught.value)


# -- certificates ---------------------------------------------------------------------------------------


def test_certificates_list_get_and_truststore(gateway: FakeGateway, client: ApinizerClient) -> None:
    gateway.script("GET", CERTIFICATES, answer("list-certificates.md#0"))
    gateway.script("GET", CERTIFICATES + "my-certificate/", answer("get-certificate.md#0"))
    truststore = "/apiops/projects/admin/certificates/truststore/production/"
    gateway.script("GET", truststore, answer("get-truststore-certificates.md#0"))
    listed = client.certificates.list(PROJECT)
    assert [e.environment_name for e in listed[0].certificate_environment_list] == ["production", "staging"]
    got = client.certificates.get(PROJECT, "my-certificate")
    assert got.certificate_environment_list[0].sha1_thumbprint == "A1B2C3D4E5F6G7H8I9J0K1L2M3N4O5P6Q7R8S9T0"
    trusted = client.certificates.truststore("admin", "production")
    assert (gateway.last.method, gateway.last.url.path) == ("GET", truststore)
    assert trusted[0].certificate_environment_list[0].subject_dn == "CN=ca.example.com, O=Example CA, C=US"


def test_truststore_documented_errors(gateway: FakeGateway, client: ApinizerClient) -> None:
    truststore = "/apiops/projects/admin/certificates/truststore/production/"
    gateway.script("GET", truststore, documented_error("get-truststore-certificates.md#2"))
    with pytest.raises(BadRequestError, match=r"Environment \(production\) is not found"):
        client.certificates.truststore("admin", "production")


FORMS = sorted(key.removeprefix(PAGES) for key, e in KEYS_EXAMPLES.items() if e.get("form"))


@pytest.mark.parametrize("key", FORMS)
def test_certificate_forms_send_each_documented_example(
    key: str, gateway: FakeGateway, client: ApinizerClient
) -> None:
    example = KEYS_EXAMPLES[PAGES + key]
    fields = {k: v for k, v in example["body"].items() if k != "pemEncodedFile"}
    spec = {"certificateName": example.get("path_name"), **fields, "pemEncodedFile": PEM}
    query = example.get("query", {})
    if key.startswith("create"):
        client.certificates.create(PROJECT, spec)
        method, path = "POST", CERTIFICATES
    else:
        client.certificates.update(
            PROJECT,
            spec,
            update_referenced_jwks=bool(query),
            update_scope=query.get("updateScope"),
        )
        method, path = "PUT", CERTIFICATES + "my-certificate/"
    request = gateway.last
    assert (request.method, request.url.path, dict(request.url.params)) == (method, path, query)
    assert request.headers["content-type"].startswith("multipart/form-data; boundary=")
    parts = multipart_parts(request)
    assert {name: value.decode() for name, (_, _, value) in parts.items() if name != "pemEncodedFile"} == {
        "certificateName": "my-certificate",
        **fields,
    }
    assert parts["pemEncodedFile"] == ("my-certificate.pem", "application/x-pem-file", PEM)
    assert all(parts[name][0] is None for name in parts if name != "pemEncodedFile")


def test_a_certificate_upload_waits_as_an_upload_does(gateway: FakeGateway, client: ApinizerClient) -> None:
    spec = CertificateSpec(
        certificate_name="c",
        alias="a",
        certificate_description="",
        environment_list=["p"],
        pem_encoded_file=PEM,
    )
    gateway.script("POST", CERTIFICATES, answer("create-certificate.md#0"))
    result = client.certificates.create(PROJECT, spec)
    assert result.deployment_result is not None
    assert [r.environment_name for r in result.deployment_result.per_environment()] == [
        "production",
        "staging",
    ]
    timeout: dict[str, float] = gateway.last.extensions["timeout"]
    assert timeout["read"] == pytest.approx(UPLOAD_TIMEOUT, abs=0.1)


@pytest.mark.parametrize("block", [1, 2, 3, 4, 5, 6])
def test_certificate_create_documented_errors(
    block: int, gateway: FakeGateway, client: ApinizerClient
) -> None:
    key = f"create-certificate.md#{block}"
    gateway.script("POST", CERTIFICATES, documented_error(key))
    spec = {
        "certificateName": "my-certificate",
        "alias": "my-cert-alias",
        "certificateDescription": "d",
        "environmentList": "production",
        "pemEncodedFile": PEM,
    }
    with pytest.raises(BadRequestError) as caught:
        client.certificates.create(PROJECT, spec)
    assert caught.value.error_description == doc(key)["error_description"]
    assert len(gateway.api_requests) == 1


def test_a_certificate_without_pem_is_refused_before_sending(
    gateway: FakeGateway, client: ApinizerClient
) -> None:
    spec = {
        "certificateName": "c",
        "alias": "a",
        "certificateDescription": "d",
        "environmentList": [],
        "pemEncodedFile": b"\x30\x82",
    }
    with pytest.raises(InvalidArgumentError) as caught:
        client.certificates.create(PROJECT, spec)
    assert [where for where, _ in caught.value.problems] == [
        "certificate.environment_list",
        "certificate.pem_encoded_file",
    ]
    assert gateway.api_requests == []


def _zip(files: dict[str, bytes]) -> bytes:
    buffer = io.BytesIO()
    with zipfile.ZipFile(buffer, "w") as archive:
        for name, content in files.items():
            archive.writestr(name, content)
    return buffer.getvalue()


def test_certificate_export_returns_the_zip(gateway: FakeGateway, client: ApinizerClient) -> None:
    export = CERTIFICATES + "my-certificate/export/"
    archive = _zip({"my-certificate-production.cer": b"\x30\x82\x01\x0a"})
    headers = {
        "content-type": "application/octet-stream",
        "content-disposition": 'attachment; filename="my-certificate-certificates.zip"',
    }
    gateway.script(
        "GET",
        export,
        httpx.Response(200, content=archive, headers=headers),
        httpx.Response(200, json={"success": True}),
        documented_error("export-certificate.md#0"),
    )
    content = client.certificates.export(PROJECT, "my-certificate")
    assert (gateway.last.method, gateway.last.url.path) == ("GET", export)
    assert content == archive
    assert zipfile.ZipFile(io.BytesIO(content)).namelist() == ["my-certificate-production.cer"]
    with pytest.raises(APIResponseValidationError, match="the body is not a ZIP file"):
        client.certificates.export(PROJECT, "my-certificate")
    with pytest.raises(BadRequestError, match=r"Certificate \(name: my-certificate\) is not found!"):
        client.certificates.export(PROJECT, "my-certificate")


def test_certificate_delete(gateway: FakeGateway, client: ApinizerClient) -> None:
    path = CERTIFICATES + "my-certificate/"
    gateway.script(
        "DELETE", path, answer("delete-certificate.md#0"), documented_error("delete-certificate.md#1")
    )
    assert client.certificates.delete(PROJECT, "my-certificate").ok
    assert (gateway.last.method, gateway.last.url.path) == ("DELETE", path)
    with pytest.raises(BadRequestError, match=r"Certificate \(name: my-certificate\) is not found!"):
        client.certificates.delete(PROJECT, "my-certificate")


def test_every_operation_of_the_pages_has_a_method(client: ApinizerClient) -> None:
    operations = {
        "jwks": ["list", "get", "create", "update", "delete", "generate"]
        + [f"parse_from_{s}" for s in ("url", "clipboard", "certificate", "key", "keystore")],
        "keystores": ["list", "get", "create", "update", "delete"],
        "crypto_keys": ["list", "get", "create", "update", "delete"],
        "certificates": ["list", "get", "create", "update", "delete", "export", "truststore"],
    }
    assert sum(len(names) for names in operations.values()) == 28
    for resource, names in operations.items():
        assert all(callable(getattr(getattr(client, resource), name)) for name in names)
