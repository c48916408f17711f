"""Certificates and the environment truststore over raw HTTP, as the product's pages document them,
with real certificates (tests/_key_material.py).

https://github.com/apinizer/management-api-docs/blob/main/02-api-reference/08-keys-secrets/crud/create-certificate.md
"""

from __future__ import annotations

import io
import zipfile
from typing import Any

import httpx
import pytest

import _key_material as km

from .conftest import Api, assert_error

CERTIFICATES = "/apiops/projects/{project}/certificates/"
CERTIFICATE = CERTIFICATES + "{name}/"


@pytest.fixture(scope="module")
def authority() -> km.Issued:
    return km.ca()


@pytest.fixture(scope="module")
def server(authority: km.Issued) -> km.Issued:
    return km.issue("api.example.com", issuer=authority, key=km.rsa_key())


def form(
    name: str | None = "my-certificate",
    alias: str | None = "my-cert-alias",
    environments: str | None = "production,test",
    description: str | None = "SSL certificate for API",
) -> dict[str, str]:
    fields = {"certificateName": name, "alias": alias, "certificateDescription": description,
              "environmentList": environments}
    return {key: value for key, value in fields.items() if value is not None}


def send(
    api: Api, method: str, path: str, data: dict[str, str], content: bytes | None, **params: str
) -> httpx.Response:
    # Without a file, still multipart, with another part.
    files = {"pemEncodedFile": ("certificate.pem", content, "application/x-pem-file")}
    if content is None:
        files = {"unused": ("x", b"x", "text/plain")}
    return api.client.request(method, path, data=data, files=files, headers=api.headers(), params=params)


def create(api: Api, issued: km.Issued, **fields: str | None) -> httpx.Response:
    return send(api, "POST", CERTIFICATES.format(project="Demo"), form(**fields), issued.pem)


def deployed(*environments: str, verb: str = "Deploy") -> dict[str, Any]:
    return {
        "success": True,
        "deploymentResult": {
            "success": True,
            "message": f"{verb}ment completed successfully",
            "environmentResults": [
                {"environmentName": name, "success": True, "message": f"{verb}ed successfully"}
                for name in environments
            ],
        },
    }


def test_create_get_list_export_delete(api: Api, server: km.Issued) -> None:
    response = create(api, server)
    assert response.status_code == 200, response.text
    assert response.json() == deployed("test", "production")  # in the environments' order

    got = api.request("GET", CERTIFICATE.format(project="Demo", name="my-certificate")).json()
    assert got["success"] is True
    [certificate] = got["resultList"]
    assert certificate["name"] == "my-certificate" and certificate["description"] == "SSL certificate for API"
    [test, production] = certificate["certificateEnvironmentList"]
    assert (production["environmentName"], test["environmentName"]) == ("production", "test")
    assert production["alias"] == "my-cert-alias"
    assert production["subjectDn"] == "CN=api.example.com, O=Example Inc, C=US"
    assert production["sha1Thumbprint"] == server.certificate.fingerprint(km.hashes.SHA1()).hex().upper()
    assert production["base64EncodedContent"] == km.b64(server.der)
    assert production["startDate"].endswith(".000Z") and production["endDate"].endswith("Z")

    # The list leaves the content out ("excluded from list response for performance").
    listed = api.request("GET", CERTIFICATES.format(project="Demo")).json()["resultList"]
    assert [c["name"] for c in listed] == ["my-certificate"]
    assert listed[0]["certificateEnvironmentList"][1]["base64EncodedContent"] is None
    assert listed[0]["certificateEnvironmentList"][1]["sha1Thumbprint"] == production["sha1Thumbprint"]

    exported = api.request("GET", CERTIFICATE.format(project="Demo", name="my-certificate") + "export/")
    assert exported.status_code == 200
    assert exported.headers["content-type"] == "application/octet-stream"
    assert exported.headers["content-disposition"] == 'attachment; filename="my-certificate-certificates.zip"'
    with zipfile.ZipFile(io.BytesIO(exported.content)) as archive:
        assert archive.namelist() == ["my-certificate-test.cer", "my-certificate-production.cer"]
        assert archive.read("my-certificate-production.cer") == server.der

    deleted = api.request("DELETE", CERTIFICATE.format(project="Demo", name="my-certificate"))
    assert deleted.json() == deployed("test", "production", verb="Undeploy")
    assert api.request("GET", CERTIFICATES.format(project="Demo")).json()["resultList"] == []
    assert_error(
        api.request("GET", CERTIFICATE.format(project="Demo", name="my-certificate")),
        400, "bad_request", "Certificate (name: my-certificate) is not found!",
    )


def test_a_der_file_is_read_too(api: Api, server: km.Issued) -> None:
    response = send(api, "POST", CERTIFICATES.format(project="Demo"), form(), server.der)
    assert response.status_code == 200, response.text


@pytest.mark.parametrize(
    ("fields", "content", "message"),
    [
        ({"name": None}, b"pem", "certificateName value can not be empty!"),
        ({"alias": ""}, b"pem", "alias value can not be empty!"),
        ({}, b"", "pemEncodedFile value can not be empty!"),
        ({"environments": " , "}, b"pem", "environmentList value can not be empty!"),
        ({"description": None}, b"pem", "certificateDescription is required"),
        ({}, b"-----BEGIN CERTIFICATE-----\nAAAA\n-----END CERTIFICATE-----",
         "pemEncodedFile is not a valid X.509 certificate: its CERTIFICATE block cannot be read"),
        ({}, b"hello", "pemEncodedFile is not a valid X.509 certificate: it is neither a PEM nor a DER"
                       " X.509 certificate cannot be read"),
        ({"environments": "production,nowhere"}, b"pem",
         "Environment (nowhere) is not found or user does not have privilege to access it!"),
    ],
)
def test_bad_forms_get_the_pages_400_and_nothing_is_made(
    api: Api, server: km.Issued, fields: dict[str, str | None], content: bytes, message: str
) -> None:
    response = send(api, "POST", CERTIFICATES.format(project="Demo"), form(**fields),
                    server.pem if content == b"pem" else content)
    assert_error(response, 400, "bad_request", message)
    assert api.request("GET", CERTIFICATES.format(project="Demo")).json()["resultList"] == []


def test_an_expired_certificate_is_refused(api: Api, authority: km.Issued) -> None:
    old = km.expired(authority)
    response = create(api, old)
    assert_error(response, 400, "bad_request")
    assert response.json()["error_description"].startswith(
        "pemEncodedFile is an expired certificate (valid until "
    )
    assert api.request("GET", CERTIFICATES.format(project="Demo")).json()["resultList"] == []


def test_the_emulators_clock_decides_expiry(api: Api, authority: km.Issued) -> None:
    short = km.issue("short.example.com", issuer=authority, not_after=km.NOW + km.timedelta(days=2))
    assert create(api, short, name="short").status_code == 200
    api.client.post("/_emulator/clock", json={"advance": 3 * 86400}).raise_for_status()
    assert_error(create(api, short, name="short-again", alias="other"), 400, "bad_request")


def test_duplicates_of_name_and_alias_are_refused(api: Api, server: km.Issued, authority: km.Issued) -> None:
    assert create(api, server).status_code == 200
    exists = "Certificate (name: my-certificate) is already exist!"
    assert_error(create(api, server), 400, "bad_request", exists)
    assert_error(
        create(api, authority, name="other"), 400, "bad_request",
        "Alias (my-cert-alias) is already used for another certificate, try changing this value!",
    )
    # The same alias in another environment is another alias.
    response = create(api, authority, name="other", environments="production")
    assert_error(response, 400, "bad_request")
    api.request("DELETE", CERTIFICATE.format(project="Demo", name="my-certificate"))
    assert create(api, authority, name="other", environments="test").status_code == 200


def test_update_replaces_the_certificate_and_its_environments(
    api: Api, server: km.Issued, authority: km.Issued
) -> None:
    assert create(api, server).status_code == 200
    path = CERTIFICATE.format(project="Demo", name="my-certificate")
    response = send(api, "PUT", path, form(name=None, alias="renewed", environments="test",
                                           description="Updated"), authority.pem)
    assert response.json() == deployed("test")
    [certificate] = api.request("GET", path).json()["resultList"]
    assert certificate["description"] == "Updated"
    assert [
        (e["environmentName"], e["alias"], e["base64EncodedContent"])
        for e in certificate["certificateEnvironmentList"]
    ] == [("test", "renewed", km.b64(authority.der))]
    # The name is the path's.
    assert_error(send(api, "PUT", path, form(name="renamed"), authority.pem), 400, "bad_request")
    assert_error(
        send(api, "PUT", CERTIFICATE.format(project="Demo", name="nope"), form(name=None), authority.pem),
        400, "bad_request", "Certificate (name: nope) is not found!",
    )
    # A bad file changes nothing.
    assert_error(send(api, "PUT", path, form(name=None), b"junk"), 400, "bad_request")
    assert api.request("GET", path).json()["resultList"] == [certificate]


def test_the_truststore_is_the_admin_projects_view_of_an_environment(api: Api, server: km.Issued) -> None:
    assert create(api, server, environments="test").status_code == 200
    trust = api.request("GET", CERTIFICATES.format(project="admin") + "truststore/test/").json()
    [certificate] = trust["resultList"]
    assert [e["environmentName"] for e in certificate["certificateEnvironmentList"]] == ["test"]
    assert api.request("GET", CERTIFICATES.format(project="admin") + "truststore/production/").json() == {
        "success": True, "resultList": []
    }
    assert_error(
        api.request("GET", CERTIFICATES.format(project="admin") + "truststore/nowhere/"),
        400,
        "bad_request",
        "Environment (nowhere) is not found or user does not have privilege to access it!",
    )
    not_admin = api.request("GET", CERTIFICATES.format(project="Demo") + "truststore/test/")
    assert_error(not_admin, 400, "bad_request")


def test_roles_and_projects(api: Api, dev_api: Api, server: km.Issued) -> None:
    # ROLE_API_SECURITY for every operation: the developer has ROLE_MANAGE_PROXIES only.
    assert_error(dev_api.request("GET", CERTIFICATES.format(project="Demo")), 403, "forbidden")
    assert_error(create(dev_api, server), 403, "forbidden")
    assert_error(
        api.request("GET", CERTIFICATES.format(project="Nope")), 404, "not_found",
        "Project(Nope) was not found or user does not have privilege to access it!",
    )
    unknown = api.request("GET", CERTIFICATES.format(project="Demo"), token="nope")
    assert_error(unknown, 401, "unauthorized_client")


def test_the_state_shows_certificates(api: Api, server: km.Issued) -> None:
    assert create(api, server).status_code == 200
    [demo] = [p for p in api.state()["projects"] if p["name"] == "Demo"]
    assert [c["name"] for c in demo["certificates"]] == ["my-certificate"]
