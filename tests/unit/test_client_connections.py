"""``client.connections`` and ``client.geolocation`` against ``httpx.MockTransport``: exact method,
path and body of each operation, the documented answers parsed, errors, what is retried, and
secrets kept out of errors.

https://github.com/apinizer/management-api-docs/blob/main/02-api-reference/06-connections/index.md
https://github.com/apinizer/management-api-docs/blob/main/02-api-reference/13-geolocation/index.md
"""

from __future__ import annotations

from pathlib import Path
from typing import Any

import httpx
import pytest

import _documented_connections as documented
from apinizer_pulumi.client import (
    APIConnectionError,
    ApinizerClient,
    APIResponseValidationError,
    AuthenticationError,
    BadRequestError,
    DeploymentFailedError,
    InvalidArgumentError,
    NotFoundError,
    connection_not_found,
)
from apinizer_pulumi.models import ConnectionEntry, EmailConnection, LdapConnection

from ._fake_gateway import FakeGateway, body, error

CONNECTIONS = "/apiops/projects/MyProject/connections/"
EMAIL = CONNECTIONS + "my-email-connection/"
MMDB = "/apiops/settings/geolocation/mmdb"
SECRET = "app-password"
PAGES = documented.load()
CREATE_PAGE = PAGES[documented.CRUD_PAGES_DIR + "create-connection.md"]
GET_PAGE = PAGES[documented.CRUD_PAGES_DIR + "get-connection.md"]
LIST_PAGE = PAGES[documented.CRUD_PAGES_DIR + "list-connections.md"]
GEO_UPLOAD_PAGE = PAGES["02-api-reference/13-geolocation/upload-mmdb-file.md"]
DEPLOYED: dict[str, Any] = GEO_UPLOAD_PAGE[0]["body"]


def answer(payload: dict[str, Any]) -> httpx.Response:
    return httpx.Response(200, json=payload)


# -- connections ----------------------------------------------------------------------------------


def test_create_posts_the_documented_body_to_the_named_path(
    gateway: FakeGateway, client: ApinizerClient
) -> None:
    documented_body = CREATE_PAGE[0]["body"]  # "Full JSON Body Example (Email Connection)"
    gateway.script("POST", EMAIL, answer(CREATE_PAGE[1]["body"]))
    result = client.connections.create("MyProject", documented_body)
    assert (gateway.last.method, gateway.last.url.path) == ("POST", EMAIL)
    assert body(gateway.last) == documented_body
    assert result.ok and result.deployment_result is not None and result.deployment_result.success


def test_create_takes_the_typed_model(gateway: FakeGateway, client: ApinizerClient) -> None:
    model = EmailConnection(name="mail", host="smtp.example.com", auth=True, username="u", password=SECRET)
    client.connections.create("MyProject", model)
    assert gateway.last.url.path == CONNECTIONS + "mail/"
    assert body(gateway.last)["password"] == SECRET


def test_each_type_pages_write_bodies_go_out_as_documented(
    gateway: FakeGateway, client: ApinizerClient
) -> None:
    sent = 0
    for page, _index, connection in documented.connection_bodies():
        if not page.startswith(documented.TYPE_PAGES_DIR) or any(v is None for v in connection.values()):
            continue
        if connection["type"] == "READ_WRITE" or "pduUdpForMessage" in connection:
            continue  # the documented oddities, written under the table's names (test_connection_models)
        client.connections.update("MyProject", connection)
        assert body(gateway.last) == {**body(gateway.last), **connection}
        sent += 1
    assert sent >= 14


@pytest.mark.parametrize(
    ("connection", "problem"),
    [
        ({"type": "email", "name": "m", "host": "h", "auth": True, "username": "u"}, "connection.password"),
        ({"type": "email", "name": "m", "host": "h", "smtpTimeout": 5}, "connection.smtpTimeout"),
        ({"type": "ops-genie", "name": "o"}, "connection"),
    ],
)
def test_a_bad_connection_is_refused_before_anything_is_sent(
    connection: dict[str, Any], problem: str, gateway: FakeGateway, client: ApinizerClient
) -> None:
    with pytest.raises(InvalidArgumentError) as caught:
        client.connections.create("MyProject", connection)
    assert problem in str(caught.value)
    assert gateway.api_requests == []


def test_a_refused_write_names_no_secret(gateway: FakeGateway, client: ApinizerClient) -> None:
    with pytest.raises(InvalidArgumentError) as caught:
        client.connections.create(
            "MyProject",
            {"type": "email", "name": 5, "host": "h", "auth": True, "username": "u", "password": SECRET},
        )
    assert SECRET not in str(caught.value) and SECRET not in repr(caught.value)


def test_update_puts_to_the_old_name_when_renaming(gateway: FakeGateway, client: ApinizerClient) -> None:
    renamed = {"type": "email", "name": "new-connection-name", "host": "smtp.gmail.com", "port": 587}
    client.connections.update("MyProject", renamed, name="old-connection-name")
    assert (gateway.last.method, gateway.last.url.path) == ("PUT", CONNECTIONS + "old-connection-name/")
    assert body(gateway.last)["name"] == "new-connection-name"


def test_delete_sends_no_body(gateway: FakeGateway, client: ApinizerClient) -> None:
    client.connections.delete("MyProject", "my-email-connection")
    assert (gateway.last.method, gateway.last.url.path, gateway.last.content) == ("DELETE", EMAIL, b"")


def test_list_asks_for_one_type_and_reads_masked_secrets(
    gateway: FakeGateway, client: ApinizerClient
) -> None:
    gateway.script("GET", CONNECTIONS, answer(LIST_PAGE[0]["body"]))
    found = client.connections.list("MyProject", "email")
    assert gateway.last.url.params["type"] == "email"
    email, kafka = found
    assert isinstance(email, EmailConnection) and email.password is None
    assert isinstance(kafka, ConnectionEntry)


def test_list_refuses_a_type_that_is_not_documented(gateway: FakeGateway, client: ApinizerClient) -> None:
    with pytest.raises(InvalidArgumentError, match="the known types are activeMq"):
        client.connections.list("MyProject", "ops-genie")
    assert gateway.api_requests == []


def test_get_reads_the_secret_in_full(gateway: FakeGateway, client: ApinizerClient) -> None:
    gateway.script("GET", EMAIL, answer(GET_PAGE[0]["body"]))
    connection = client.connections.get("MyProject", "my-email-connection")
    assert isinstance(connection, EmailConnection)
    assert connection.password == "actual-password"
    assert "actual-password" not in repr(connection)


def test_get_of_a_missing_connection_is_not_found(gateway: FakeGateway, client: ApinizerClient) -> None:
    missing = GET_PAGE[-1]["body"]  # 404 "Connection (name: my-email-connection) was not found!"
    gateway.script("GET", EMAIL, httpx.Response(404, json=missing))
    with pytest.raises(NotFoundError) as caught:
        client.connections.get("MyProject", "my-email-connection")
    assert connection_not_found(caught.value)


def test_find_is_none_for_a_missing_connection_and_raises_the_rest(
    gateway: FakeGateway, client: ApinizerClient
) -> None:
    gateway.script("GET", EMAIL, httpx.Response(404, json=GET_PAGE[-1]["body"]))
    assert client.connections.find("MyProject", "my-email-connection") is None
    gateway.script(
        "GET",
        EMAIL,
        httpx.Response(
            404, json={"error": "not_found", "error_description": "Project 'MyProject' not found"}
        ),
    )
    with pytest.raises(NotFoundError, match="Project 'MyProject' not found"):
        client.connections.find("MyProject", "my-email-connection")
    gateway.script("GET", EMAIL, answer(GET_PAGE[0]["body"]))
    assert isinstance(client.connections.find("MyProject", "my-email-connection"), EmailConnection)


def test_a_bad_get_answer_quotes_no_password(gateway: FakeGateway, client: ApinizerClient) -> None:
    broken = {"success": True, "resultList": {"type": "ldap", "password": "Sup3r-S3cret"}}
    gateway.script("GET", EMAIL, answer(broken))
    with pytest.raises(APIResponseValidationError) as caught:
        client.connections.get("MyProject", "my-email-connection")
    assert "Sup3r-S3cret" not in str(caught.value) and "Sup3r-S3cret" not in repr(caught.value)


def test_a_taken_name_is_the_documented_400(gateway: FakeGateway, client: ApinizerClient) -> None:
    taken = CREATE_PAGE[2]["body"]
    gateway.script("POST", EMAIL, httpx.Response(400, json=taken))
    with pytest.raises(BadRequestError, match=r"Connection \(name: my-email-connection\) already exists!"):
        client.connections.create("MyProject", CREATE_PAGE[0]["body"])


def test_a_failed_deployment_raises(gateway: FakeGateway, client: ApinizerClient) -> None:
    failed = {
        "success": True,
        "deploymentResult": {
            "success": False,
            "environmentResults": [
                {"environmentName": "production", "success": False, "message": "worker down"}
            ],
        },
    }
    gateway.script("DELETE", EMAIL, answer(failed))
    with pytest.raises(DeploymentFailedError, match="worker down"):
        client.connections.delete("MyProject", "my-email-connection")


def test_update_is_retried_but_create_is_not_once_sent(gateway: FakeGateway, client: ApinizerClient) -> None:
    ldap = LdapConnection(
        name="dir", server_address="ldap://h:389", username="cn=a", password="p", base_dn="dc=x"
    )
    gateway.script("PUT", CONNECTIONS + "dir/", httpx.Response(503), answer({"success": True}))
    client.connections.update("MyProject", ldap)
    assert [r.method for r in gateway.api_requests] == ["PUT", "PUT"]
    gateway.script("POST", CONNECTIONS + "dir/", httpx.ReadTimeout("lost"))
    with pytest.raises(APIConnectionError):
        client.connections.create("MyProject", ldap)
    assert [r.method for r in gateway.api_requests] == ["PUT", "PUT", "POST"]


# -- geolocation ----------------------------------------------------------------------------------


def _parts(request: httpx.Request) -> dict[str, tuple[str | None, bytes]]:
    """The multipart form's parts: name -> (file name, content)."""
    boundary = request.headers["content-type"].split("boundary=")[1].encode()
    parts: dict[str, tuple[str | None, bytes]] = {}
    for chunk in request.content.split(b"--" + boundary)[1:-1]:
        head, _, content = chunk.strip(b"\r\n").partition(b"\r\n\r\n")
        disposition = head.split(b"\r\n")[0].decode()
        name = disposition.split('name="')[1].split('"')[0]
        file_name = disposition.split('filename="')[1].split('"')[0] if "filename=" in disposition else None
        parts[name] = (file_name, content)
    return parts


def test_upload_sends_the_file_and_its_name_as_multipart(
    gateway: FakeGateway, client: ApinizerClient, tmp_path: Path
) -> None:
    mmdb = tmp_path / "GeoLite2-City.mmdb"
    mmdb.write_bytes(b"\x00mmdb-bytes\xff")
    gateway.script("PUT", MMDB, answer(DEPLOYED))
    result = client.geolocation.upload_mmdb(mmdb, file_name="GeoLite2-City.mmdb")
    assert (gateway.last.method, gateway.last.url.path) == ("PUT", MMDB)
    assert gateway.last.headers["content-type"].startswith("multipart/form-data")
    assert _parts(gateway.last) == {
        "file": ("GeoLite2-City.mmdb", b"\x00mmdb-bytes\xff"),
        "fileName": (None, b"GeoLite2-City.mmdb"),
    }
    assert result.deployment_result is not None and result.deployment_result.per_environment()[0].success


def test_upload_of_bytes_without_a_name_sends_the_file_alone(
    gateway: FakeGateway, client: ApinizerClient
) -> None:
    client.geolocation.upload_mmdb(b"bytes")
    assert _parts(gateway.last) == {"file": ("geolocation.mmdb", b"bytes")}


def test_upload_waits_as_long_as_a_spec_upload_of_its_size(
    gateway: FakeGateway, client: ApinizerClient
) -> None:
    from apinizer_pulumi.client._constants import upload_timeout

    content = b"x" * (3 * 1024 * 1024)
    client.geolocation.upload_mmdb(content)
    timeout = gateway.last.extensions["timeout"]
    assert timeout["read"] == timeout["write"] == upload_timeout(len(content), client.timeout)
    assert timeout["read"] > client.timeout


@pytest.mark.parametrize(
    ("file", "problem"), [(b"", "file: must not be empty"), ("/nonexistent/x.mmdb", "cannot read")]
)
def test_a_bad_upload_is_refused_before_anything_is_sent(
    file: Any, problem: str, gateway: FakeGateway, client: ApinizerClient
) -> None:
    with pytest.raises(InvalidArgumentError, match=problem):
        client.geolocation.upload_mmdb(file)
    assert gateway.api_requests == []


def test_the_gateways_400_for_a_bad_file_is_raised(gateway: FakeGateway, client: ApinizerClient) -> None:
    gateway.script("PUT", MMDB, error(400, "bad_request", "File can not be empty!"))
    with pytest.raises(BadRequestError, match="File can not be empty!"):
        client.geolocation.upload_mmdb(b"x")


@pytest.mark.parametrize("operation", ["enable", "disable"])
def test_enable_and_disable_are_bodyless_puts(
    operation: str, gateway: FakeGateway, client: ApinizerClient
) -> None:
    path = f"/apiops/settings/geolocation/{operation}"
    page = PAGES[f"02-api-reference/13-geolocation/{operation}-geolocation.md"]
    gateway.script("PUT", path, httpx.Response(503), answer(page[0]["body"]))
    result = getattr(client.geolocation, operation)()
    assert [(r.method, r.url.path, r.content) for r in gateway.api_requests] == [("PUT", path, b"")] * 2
    assert result.deployment_result is not None and result.deployment_result.ok


def test_a_user_without_admin_rights_gets_the_documented_401(
    gateway: FakeGateway, client: ApinizerClient
) -> None:
    page = PAGES["02-api-reference/13-geolocation/enable-geolocation.md"]
    gateway.script("PUT", "/apiops/settings/geolocation/enable", httpx.Response(401, json=page[1]["body"]))
    with pytest.raises(AuthenticationError, match="User does not have privilege to access admin settings!"):
        client.geolocation.enable()


def test_an_unknown_field_inside_a_map_value_is_refused_before_anything_is_sent(
    gateway: FakeGateway, client: ApinizerClient
) -> None:
    # A Kafka property's value is {value, valueType}: "type" (a guess) would be kept and sent unseen.
    properties = {key: {"value": "x", "valueType": "STRING"} for key in (
        "bootstrap.servers", "key.serializer", "value.serializer")}
    properties["bootstrap.servers"] = {"value": "kafka:9092", "type": "STRING"}
    kafka = {"type": "kafka", "name": "audit", "topicName": "audit", "propertiesMap": properties}
    with pytest.raises(InvalidArgumentError) as caught:
        client.connections.create("MyProject", kafka)
    assert "properties_map[bootstrap.servers].type" in str(caught.value)
    assert gateway.api_requests == []
