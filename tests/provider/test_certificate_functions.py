"""The certificate functions, called from the program's process against a live emulator:
get_certificates, get_certificate, get_truststore_certificates and export_certificate.

https://github.com/apinizer/management-api-docs/blob/main/02-api-reference/08-keys-secrets/crud/export-certificate.md
https://github.com/apinizer/management-api-docs/blob/main/02-api-reference/08-keys-secrets/crud/get-truststore-certificates.md
"""

from __future__ import annotations

import base64

import pytest

import _key_material as km
import apinizer_pulumi as apinizer
from apinizer_pulumi.client import ApinizerClient, BadRequestError

from .test_functions import fresh_clients  # noqa: F401  # autouse: no connection from the environment


@pytest.fixture(scope="module")
def authority() -> km.Issued:
    return km.ca()


@pytest.fixture
def connection(emulator_url: str) -> apinizer.ConnectionArgs:
    return apinizer.ConnectionArgs(url=emulator_url, token="dev-admin-token")


def make(client: ApinizerClient, issued: km.Issued, name: str = "ca",
         environments: str = "test,production") -> None:
    client.certificates.create("Demo", {
        "certificate_name": name, "alias": f"{name}-alias", "certificate_description": "the CA",
        "environment_list": environments, "pem_encoded_file": issued.pem})


def test_get_certificates_and_get_certificate(
    client: ApinizerClient, connection: apinizer.ConnectionArgs, authority: km.Issued
) -> None:
    assert apinizer.get_certificates("Demo", connection=connection) == []
    make(client, authority)

    [listed] = apinizer.get_certificates("Demo", connection=connection)
    assert listed.name == "ca" and listed.id
    assert [(item.environment_name, item.alias) for item in listed.certificate_environment_list] == [
        ("test", "ca-alias"), ("production", "ca-alias")]
    assert all(item.base64_encoded_content is None for item in listed.certificate_environment_list)

    one = apinizer.get_certificate("Demo", "ca", connection=connection)
    assert one.id == listed.id
    assert base64.b64decode(one.certificate_environment_list[0].base64_encoded_content or "") == authority.der
    with pytest.raises(BadRequestError, match=r"Certificate \(name: nothing\) is not found"):
        apinizer.get_certificate("Demo", "nothing", connection=connection)


def test_get_truststore_certificates_lists_an_environments_certificates(
    client: ApinizerClient, connection: apinizer.ConnectionArgs, authority: km.Issued
) -> None:
    make(client, authority, environments="production")
    [trusted] = apinizer.get_truststore_certificates("admin", "production", connection=connection)
    assert trusted.name == "ca"
    assert [item.environment_name for item in trusted.certificate_environment_list] == ["production"]
    assert apinizer.get_truststore_certificates("admin", "test", connection=connection) == []
    with pytest.raises(BadRequestError, match=r"Environment \(nowhere\) is not found"):
        apinizer.get_truststore_certificates("admin", "nowhere", connection=connection)


def test_export_certificate_returns_the_pem(
    client: ApinizerClient, connection: apinizer.ConnectionArgs, authority: km.Issued
) -> None:
    make(client, authority)
    pem = apinizer.export_certificate("Demo", "ca", connection=connection)
    assert pem == authority.pem.decode()
    assert apinizer.export_certificate("Demo", "ca", "production", connection=connection) == pem
    held = r"holds no ca-staging.cer \(it holds: ca-test.cer, ca-production.cer\)"
    with pytest.raises(ValueError, match=held):
        apinizer.export_certificate("Demo", "ca", "staging", connection=connection)
    with pytest.raises(BadRequestError, match=r"is not found"):
        apinizer.export_certificate("Demo", "nothing", connection=connection)
