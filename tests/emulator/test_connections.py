"""Connections over raw HTTP and through the client, as the product's pages document them: every
type page's examples, the statuses and messages, secrets (in full on get, null on list, never in
``/_emulator/state`` nor in an error), and nothing half made.

https://github.com/apinizer/management-api-docs/blob/main/02-api-reference/06-connections/index.md
"""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any

import pytest

import _documented_connections as documented
from apinizer_pulumi.client import ApinizerClient, BadRequestError, NotFoundError
from apinizer_pulumi.models import CONNECTION_TYPES, LdapConnection

from .conftest import GUEST_TOKEN, Api, assert_error

CONNECTIONS = "/apiops/projects/Demo/connections/"
PAGES = documented.load()
SECRET = "Sup3r-S3cret-Value"


def path(name: str, project: str = "Demo") -> str:
    return f"/apiops/projects/{project}/connections/{name}/"


def _first_write(page: str) -> dict[str, Any]:
    """The first create body of a type page (its first example without a list)."""
    return next(e["body"] for e in PAGES[page] if isinstance(e.get("body"), dict) and "name" in e["body"])


TYPE_PAGES = sorted(page for page in PAGES if Path(page).stem.startswith("connection-"))
WRITES = {page: _first_write(page) for page in TYPE_PAGES}


def _with_secrets(body: dict[str, Any]) -> dict[str, Any]:
    """``body`` with SECRET in each of its type's secret fields that it fills."""
    filled = json.loads(json.dumps(body))
    kind = documented_type(filled)
    for secret in CONNECTION_TYPES[kind].secret_api_paths():
        head, _, tail = secret.partition(".")
        if tail:
            for item in filled.get(head) or []:
                item[tail] = SECRET
        elif filled.get(head) is not None:
            filled[head] = SECRET
    return filled


def documented_type(body: dict[str, Any]) -> str:
    return "elasticsearch" if body["type"] == "READ_WRITE" else str(body["type"])


@pytest.mark.parametrize("page", TYPE_PAGES, ids=[Path(p).stem for p in TYPE_PAGES])
def test_each_type_pages_create_body_is_stored_and_read_back(api: Api, page: str) -> None:
    body = _with_secrets(WRITES[page])
    kind = documented_type(body)
    created = api.request("POST", path(body["name"]), body)
    assert created.status_code == 200, created.text
    assert created.json() == {"success": True, "deploymentResult": {"success": True}}

    got = api.request("GET", path(body["name"])).json()
    assert (got["success"], got["resultCount"]) == (True, 1)
    connection = got["resultList"][0]
    assert connection["type"] == kind
    for key, value in body.items():  # secrets in full; documented values as sent
        if key != "type" and value is not None:
            assert connection[documented.READ_ALIASES.get(key, key)] == value, key

    listed = api.request("GET", CONNECTIONS, params={"type": kind}).json()
    assert [item["name"] for item in listed["resultList"]] == [body["name"]]
    assert listed["resultCount"] == 1
    secrets = CONNECTION_TYPES[kind].secret_api_paths()
    assert SECRET not in json.dumps(listed)
    assert SECRET not in json.dumps(api.state())
    for secret in secrets:
        head, _, tail = secret.partition(".")
        item = listed["resultList"][0]
        values = [entry.get(tail) for entry in item.get(head) or []] if tail else [item.get(head, None)]
        assert all(value is None for value in values), secret


def test_not_deployed_to_the_workers_answers_success_alone(api: Api) -> None:
    body = {**WRITES[documented.TYPE_PAGES_DIR + "connection-logback.md"], "deployToWorker": False}
    assert api.request("POST", path(body["name"]), body).json() == {"success": True}


def test_defaults_are_filled_as_the_type_page_says(api: Api) -> None:
    api.request("POST", path("hook"), {"type": "webhook", "name": "hook", "fullUrl": "https://example.com/h"})
    stored = api.request("GET", path("hook")).json()["resultList"][0]
    assert stored == {
        "type": "webhook",
        "name": "hook",
        "deployToWorker": True,
        "enabled": True,
        "httpMethod": "GET",
        "fullUrl": "https://example.com/h",
        "headerList": [],
        "timeout": 2,
        "connectionPoolMaxConnectionPerHost": 24,
        "connectionPoolMaxConnectionTotal": 48,
    }


def test_a_taken_name_is_400_in_any_case(api: Api) -> None:
    body = _with_secrets(PAGES[documented.CRUD_PAGES_DIR + "create-connection.md"][0]["body"])
    assert api.request("POST", path("my-email-connection"), body).status_code == 200
    again = {**body, "name": "MY-EMAIL-CONNECTION"}
    assert_error(
        api.request("POST", path("MY-EMAIL-CONNECTION"), again),
        400,
        "bad_request",
        "Connection (name: MY-EMAIL-CONNECTION) already exists!",
    )


def test_the_path_and_body_names_must_match_but_not_in_case(api: Api) -> None:
    body = {"type": "linux-script", "name": "Runner", "hostName": "h", "username": "u", "password": SECRET}
    response = api.request("POST", path("other"), body)
    assert_error(
        response, 400, "bad_request", "Connection name in path (other) does not match name in body (Runner)!"
    )
    assert api.request("POST", path("runner"), body).status_code == 200
    assert api.request("GET", path("RUNNER")).json()["resultList"][0]["name"] == "Runner"


def test_missing_connections_and_projects(api: Api) -> None:
    missing = "Connection (name: nope) was not found!"
    assert_error(api.request("GET", path("nope")), 404, "not_found", missing)
    logback = {"type": "logback", "name": "nope"}
    assert_error(api.request("PUT", path("nope"), logback), 400, "bad_request", missing)
    assert_error(api.request("DELETE", path("nope")), 400, "bad_request", missing)
    assert_error(
        api.request("GET", path("x", project="MyProject")), 404, "not_found", "Project 'MyProject' not found"
    )
    assert_error(
        api.request("GET", "/apiops/projects/MyProject/connections/", params={"type": "email"}),
        404,
        "not_found",
        "Project 'MyProject' not found",
    )


def test_update_rewrites_renames_and_keeps_the_type(api: Api) -> None:
    original = {
        "type": "ftp",
        "name": "files",
        "host": "ftp.example.com",
        "username": "u",
        "password": SECRET,
        "protocol": "SFTP",
        "port": 22,
    }
    api.request("POST", path("files"), original)
    changed = {**original, "port": 2222, "description": "moved"}
    assert api.request("PUT", path("files"), changed).json() == {
        "success": True,
        "deploymentResult": {"success": True},
    }
    assert api.request("GET", path("files")).json()["resultList"][0]["port"] == 2222

    api.request("POST", path("taken"), {**original, "name": "taken"})
    conflict = api.request("PUT", path("files"), {**changed, "name": "TAKEN"})
    assert_error(conflict, 400, "bad_request", "Connection (name: TAKEN) already exists!")

    retyped = api.request("PUT", path("files"), {"type": "logback", "name": "files"})
    assert_error(
        retyped,
        400,
        "bad_request",
        "Connection (name: files) is of type ftp; its type can not be changed to logback!",
    )
    assert api.request("GET", path("files")).json()["resultList"][0]["port"] == 2222  # nothing half made

    renamed = api.request("PUT", path("files"), {**changed, "name": "archive"})
    assert renamed.status_code == 200
    assert api.request("GET", path("files")).status_code == 404
    assert api.request("GET", path("archive")).json()["resultList"][0]["description"] == "moved"


def test_delete_removes_and_answers_the_deployment(api: Api) -> None:
    api.request("POST", path("logs"), {"type": "logback", "name": "logs"})
    assert api.request("DELETE", path("logs")).json() == {
        "success": True,
        "deploymentResult": {"success": True},
    }
    assert api.request("GET", path("logs")).status_code == 404
    assert api.state()["projects"][0]["connections"] == []


@pytest.mark.parametrize(
    ("body", "named"),
    [
        ({"type": "email", "name": "m", "auth": True}, "host is required"),
        ({"type": "email", "name": "m", "host": "h", "auth": True, "username": "u"}, "password is required"),
        ({"type": "email", "name": "m", "host": "h", "port": "587"}, "port"),
        (
            {
                "type": "database",
                "name": "d",
                "dbType": "NOSQL",
                "jdbcUrl": "jdbc:x",
                "useCredentials": False,
            },
            "dbType",
        ),
        (
            {
                "type": "snmp",
                "name": "s",
                "connectionString": "h:162",
                "securityOrCommunityName": "c",
                "pduOidForMessage": "1",
            },
            "connectionString",
        ),
        (
            {"type": "ops-genie", "name": "o"},
            "Connection type 'ops-genie' is not valid; valid values: activeMq",
        ),
        ({"name": "o"}, "Connection type missing"),
        ({"type": "email", "name": " "}, "Connection name can not be empty!"),
    ],
)
def test_a_bad_body_is_400_naming_the_field_and_stores_nothing(
    api: Api, body: dict[str, Any], named: str
) -> None:
    response = api.request("POST", path(body["name"].strip() or "x"), body)
    assert_error(response, 400, "bad_request")
    assert named in response.json()["error_description"]
    assert api.state()["projects"][0]["connections"] == []


@pytest.mark.parametrize(("index", "missing"), [(6, "dbType is required"), (7, "propertiesMap is required")])
def test_the_crud_pages_database_and_kafka_examples_are_refused(api: Api, index: int, missing: str) -> None:
    # They carry fields no type page lists (host, driverClassName, bootstrapServers); docs-disagreements.md.
    body = PAGES[documented.CRUD_PAGES_DIR + "create-connection.md"][index]["body"]
    response = api.request("POST", path(body["name"]), body)
    assert_error(response, 400, "bad_request")
    assert missing in response.json()["error_description"]


def test_an_error_quotes_no_secret(api: Api) -> None:
    body = {
        "type": "ldap",
        "name": "dir",
        "serverAddress": SECRET,
        "username": "cn=a",
        "password": SECRET,
        "baseDn": "dc=x",
    }
    response = api.request("POST", path("dir"), body)
    assert response.status_code == 400
    assert SECRET not in response.text


def test_list_needs_a_valid_type_and_answers_only_that_type(api: Api) -> None:
    api.request("POST", path("logs"), {"type": "logback", "name": "logs"})
    api.request("POST", path("hook"), {"type": "webhook", "name": "hook", "fullUrl": "https://x.example"})
    assert_error(
        api.request("GET", CONNECTIONS),
        400,
        "bad_request",
        "Connection type missing; valid values: " + ", ".join(CONNECTION_TYPES),
    )
    assert_error(api.request("GET", CONNECTIONS, params={"type": "ops-genie"}), 400, "bad_request")
    listed = api.request("GET", CONNECTIONS, params={"type": "logback"}).json()
    assert [item["name"] for item in listed["resultList"]] == ["logs"]
    empty = api.request("GET", CONNECTIONS, params={"type": "kafka"}).json()
    assert empty == {"success": True, "resultList": [], "resultCount": 0}


def test_every_operation_needs_role_api_security(api: Api, dev_api: Api) -> None:
    logback = {"type": "logback", "name": "logs"}
    for method, target, body in [
        ("GET", CONNECTIONS + "?type=logback", None),
        ("GET", path("logs"), None),
        ("POST", path("logs"), logback),
        ("PUT", path("logs"), logback),
        ("DELETE", path("logs"), None),
    ]:
        assert_error(dev_api.request(method, target, body), 403, "forbidden")
        assert_error(api.request(method, target, body, token=GUEST_TOKEN), 403, "forbidden")
        assert_error(api.client.request(method, target), 401, "unauthorized_client")


def test_through_the_client(emulator_url: str, admin_token: str) -> None:
    with ApinizerClient(emulator_url, token=admin_token) as client:
        ldap = LdapConnection(
            name="directory",
            server_address="ldap://ldap.example.com:389",
            username="cn=admin,dc=example,dc=com",
            password=SECRET,
            base_dn="dc=example,dc=com",
        )
        assert client.connections.create("Demo", ldap).ok
        got = client.connections.get("Demo", "directory")
        assert got == ldap
        (listed,) = client.connections.list("Demo", "ldap")
        assert isinstance(listed, LdapConnection) and listed.password is None
        client.connections.update("Demo", ldap.model_copy(update={"base_dn": "dc=other"}))
        assert client.connections.get("Demo", "directory").base_dn == "dc=other"  # type: ignore[attr-defined]
        with pytest.raises(BadRequestError, match="already exists"):
            client.connections.create("Demo", ldap)
        client.connections.delete("Demo", "directory")
        with pytest.raises(NotFoundError):
            client.connections.get("Demo", "directory")


def _crud_pages_own(body: dict[str, Any]) -> bool:
    """The CRUD pages' database and Kafka examples, which their type pages refuse (see above)."""
    return (body["type"], "dbType" in body, "propertiesMap" in body) in {
        ("database", False, False),
        ("kafka", False, False),
    }


#: The write bodies of every connection page (type and CRUD pages), but for the refused ones.
DOCUMENTED_WRITES = [
    pytest.param(body, id=f"{Path(page).stem}-{index}")
    for page, index, body in documented.connection_bodies()
    if "resultList" not in PAGES[page][index]["body"] and not _crud_pages_own(body)
]


@pytest.mark.parametrize("body", DOCUMENTED_WRITES)
def test_every_documented_write_body_is_taken_and_answered_back(api: Api, body: dict[str, Any]) -> None:
    sent = _with_secrets(body)
    created = api.request("POST", path(sent["name"]), sent)
    assert created.status_code == 200, created.text
    stored = api.request("GET", path(sent["name"])).json()["resultList"][0]
    for key, value in sent.items():
        if key != "type" and value is not None:
            assert stored[documented.READ_ALIASES.get(key, key)] == value, key
    assert api.request("PUT", path(sent["name"]), sent).status_code == 200
    assert api.request("DELETE", path(sent["name"])).status_code == 200
