"""Credentials and their access through raw HTTP against a live emulator: every documented
operation, status and message, the hashed passwords, the grants' references, and the choices
made where the pages are silent (docs/resources/credential.md).

https://github.com/apinizer/management-api-docs/blob/main/02-api-reference/07-credentials/index.md
"""

from __future__ import annotations

import json
from typing import Any

import httpx
import pytest

from .conftest import Api, assert_error

CREDENTIALS = "/apiops/projects/Demo/credentials/"
SECRET = "S3cret-Partner-Password!"


def credential_path(username: str = "partner", suffix: str = "", project: str = "Demo") -> str:
    return f"/apiops/projects/{project}/credentials/{username}/{suffix}"


def partner(**changes: Any) -> dict[str, Any]:
    body: dict[str, Any] = {
        "email": "partner@example.com",
        "fullName": "Partner Inc.",
        "description": "The partner's app",
        "username": "partner",
        "password": SECRET,
        "roleNameList": ["API_USER"],
        "enabled": True,
        "ipList": ["192.168.1.100", "10.0.0.0/8"],
        "expireDate": "2030-12-31T23:59:59.000Z",
    }
    body.update(changes)
    return body


def access(*names: str, kind: str = "API_PROXY") -> dict[str, Any]:
    return {"credentialAccessList": [{"name": name, "type": kind} for name in names]}


def listed(api: Api, project: str = "Demo") -> list[dict[str, Any]]:
    response = api.request("GET", f"/apiops/projects/{project}/credentials/")
    assert response.status_code == 200, response.text
    body = response.json()
    assert body["success"] is True
    return list(body["resultList"])


def granted(api: Api, username: str = "partner") -> list[dict[str, Any]]:
    response = api.request("GET", credential_path(username, "access/"))
    assert response.status_code == 200, response.text
    return list(response.json()["resultList"])


def assert_deployed(response: httpx.Response, message: str = "Deployment completed successfully") -> None:
    assert response.status_code == 200, response.text
    body = response.json()
    assert body["success"] is True
    result = body["deploymentResult"]
    assert result["success"] is True and result["message"] == message
    # Every environment of the fixture, each one deployed.
    assert [r["environmentName"] for r in result["environmentResults"]] == ["test", "production"]
    assert all(r["success"] for r in result["environmentResults"])


def token_for(api: Api, username: str, password: str) -> httpx.Response:
    return api.client.post(
        "/apiops/auth/token",
        data={"grant_type": "client_credentials", "client_id": username, "client_secret": password},
    )


# -- create and list ------------------------------------------------------------------------------


def test_create_then_list_shows_every_field_and_a_null_password(api: Api) -> None:
    assert listed(api) == []
    assert_deployed(api.request("POST", CREDENTIALS, json=partner()))
    [item] = listed(api)
    assert item == {**partner(), "password": None}


def test_create_fills_the_documented_defaults(api: Api) -> None:
    body = {"email": "a@example.com", "fullName": "A", "username": "a", "password": "pw"}
    assert_deployed(api.request("POST", CREDENTIALS, json=body))
    [item] = listed(api)
    assert item == {
        **body,
        "password": None,
        "description": None,
        "roleNameList": [],
        "enabled": True,
        "ipList": [],
        "expireDate": None,
    }


@pytest.mark.parametrize(
    ("missing", "message"),
    [
        ("username", "Credential username can not be empty!"),
        ("password", "Credential password can not be empty!"),
        ("fullName", "Credential full name can not be empty!"),
        ("email", "Credential email can not be empty!"),
    ],
)
def test_create_names_the_empty_required_field(api: Api, missing: str, message: str) -> None:
    for value in (None, "", "  "):
        body = partner(**{missing: value})
        assert_error(api.request("POST", CREDENTIALS, json=body), 400, "bad_request", message)
    assert listed(api) == []


def test_a_taken_username_is_refused_in_any_project(api: Api) -> None:
    assert_deployed(api.request("POST", CREDENTIALS, json=partner()))
    answer = api.request("POST", CREDENTIALS, json=partner(fullName="Someone else"))
    assert_error(answer, 400, "bad_request", "There is already a credential has this name!")
    assert listed(api)[0]["fullName"] == "Partner Inc."


@pytest.mark.parametrize(
    ("field", "value", "named"),
    [
        ("ipList", ["10.0.0.1/8"], "ipList[0]"),
        ("ipList", ["not-an-ip"], "ipList[0]"),
        ("expireDate", "31/12/2030", "expireDate"),
        ("email", "no-at-sign", "email"),
        ("enabled", "yes", "enabled"),
        ("roleNameList", "API_USER", "roleNameList"),
    ],
)
def test_bad_fields_are_400s_that_name_them(api: Api, field: str, value: Any, named: str) -> None:
    answer = api.request("POST", CREDENTIALS, json=partner(**{field: value}))
    assert answer.status_code == 400, answer.text
    assert answer.json()["error"] == "bad_request" and named in answer.json()["error_description"]
    assert listed(api) == []


def test_unknown_project_is_the_documented_404(api: Api) -> None:
    message = "Project(Nowhere) was not found or user does not have privilege to access it!"
    assert_error(api.request("GET", "/apiops/projects/Nowhere/credentials/"), 404, "not_found", message)
    answer = api.request("POST", "/apiops/projects/Nowhere/credentials/", json=partner())
    assert_error(answer, 404, "not_found", message)
    answer = api.request("GET", credential_path(suffix="access/", project="Nowhere"))
    assert_error(answer, 404, "not_found", message)


# -- update, change password, delete ---------------------------------------------------------------


def test_update_replaces_every_field_but_the_username(api: Api) -> None:
    api.request("POST", CREDENTIALS, json=partner())
    changed = partner(
        email="new@example.com",
        fullName="Partner GmbH",
        description=None,
        roleNameList=[],
        enabled=False,
        ipList=[],
        expireDate=None,
        password="another",
    )
    assert_deployed(api.request("PUT", CREDENTIALS, json=changed))
    assert listed(api) == [{**changed, "password": None}]


def test_update_of_an_unknown_credential_is_the_documented_400(api: Api) -> None:
    answer = api.request("PUT", CREDENTIALS, json=partner(username="ghost"))
    assert_error(answer, 400, "bad_request", "Credential (username: ghost) was not found!")


def test_passwords_are_stored_hashed_and_never_shown(api: Api, http: httpx.Client) -> None:
    api.request("POST", CREDENTIALS, json=partner())
    api.request("PATCH", credential_path(), json={"password": SECRET + "-rotated"})
    state = http.get("/_emulator/state").text
    assert SECRET not in state and "pbkdf2" not in state
    assert SECRET not in api.request("GET", CREDENTIALS).text
    [item] = http.get("/_emulator/state").json()["credentials"]
    assert item["username"] == "partner" and item["project"] == "Demo" and "password" not in item


def test_the_database_holds_a_salted_hash_not_the_password(api: Api, emulator: Any) -> None:
    api.request("POST", CREDENTIALS, json=partner())
    api.request("POST", CREDENTIALS, json=partner(username="twin"))
    with emulator.backend.store.read() as db:
        hashes = [row["password_hash"] for row in db.execute("SELECT password_hash FROM credentials")]
        dump = "\n".join(db.iterdump())
    assert SECRET not in dump
    assert len(hashes) == 2 and hashes[0] != hashes[1] and all(h.startswith("pbkdf2_sha256$") for h in hashes)


def test_change_password_sets_only_the_password(api: Api, emulator: Any) -> None:
    api.request("POST", CREDENTIALS, json=partner())
    before = listed(api)
    with emulator.backend.store.read() as db:
        old = db.execute("SELECT password_hash FROM credentials").fetchone()[0]
    # Other fields are ignored, as documented.
    answer = api.request("PATCH", credential_path(), json={"password": "rotated", "fullName": "Ignored"})
    assert_deployed(answer)
    assert listed(api) == before
    with emulator.backend.store.read() as db:
        new = db.execute("SELECT password_hash FROM credentials").fetchone()[0]
    assert new != old and "rotated" not in new


def test_change_password_errors(api: Api) -> None:
    api.request("POST", CREDENTIALS, json=partner())
    for body in ({}, {"password": ""}, {"password": None}):
        answer = api.request("PATCH", credential_path(), json=body)
        assert_error(answer, 400, "bad_request", "Credential password can not be empty!")
    answer = api.request("PATCH", credential_path("ghost"), json={"password": "x"})
    assert_error(answer, 400, "bad_request", "Credential (username: ghost) was not found!")


def test_delete_undeploys_and_removes_every_access(api: Api, http: httpx.Client) -> None:
    api.request("POST", CREDENTIALS, json=partner())
    api.request("PUT", credential_path(suffix="access/"), json=access("PetStore", "Orders"))
    assert_deployed(api.request("DELETE", credential_path()), "Undeployment completed successfully")
    assert listed(api) == []
    assert http.get("/_emulator/state").json()["credentials"] == []
    answer = api.request("DELETE", credential_path())
    assert_error(answer, 400, "bad_request", "Credential (username: partner) was not found!")
    # A new credential of the same name starts with no access.
    api.request("POST", CREDENTIALS, json=partner())
    assert granted(api) == []


# -- access ----------------------------------------------------------------------------------------


def test_grant_list_and_revoke_access(api: Api) -> None:
    api.request("POST", CREDENTIALS, json=partner())
    assert granted(api) == []
    answer = api.request("PUT", credential_path(suffix="access/"), json=access("PetStore", "Orders"))
    assert_deployed(answer)
    assert granted(api) == access("PetStore", "Orders")["credentialAccessList"]
    answer = api.request("DELETE", credential_path(suffix="access/"), json=access("PetStore"))
    assert_deployed(answer, "Undeployment completed successfully")
    assert granted(api) == [{"name": "Orders", "type": "API_PROXY"}]
    # Revoking an access the credential does not have "fails silently".
    assert_deployed(
        api.request("DELETE", credential_path(suffix="access/"), json=access("PetStore")),
        "Undeployment completed successfully",
    )
    assert granted(api) == [{"name": "Orders", "type": "API_PROXY"}]


def test_a_grant_that_exists_already_is_refused_whole(api: Api) -> None:
    api.request("POST", CREDENTIALS, json=partner())
    api.request("PUT", credential_path(suffix="access/"), json=access("PetStore"))
    answer = api.request("PUT", credential_path(suffix="access/"), json=access("Orders", "PetStore"))
    assert_error(
        answer,
        400,
        "bad_request",
        "Credential (username:partner) has already access to API Proxy (name:PetStore)!",
    )
    assert granted(api) == [{"name": "PetStore", "type": "API_PROXY"}]  # Orders was not granted either


@pytest.mark.parametrize(
    ("item", "message"),
    [
        ({"type": "API_PROXY"}, "Credential access object name can not be empty!"),
        ({"name": "", "type": "API_PROXY"}, "Credential access object name can not be empty!"),
        ({"name": "PetStore"}, "Credential access object type can not be empty!"),
        (
            {"name": "Nowhere", "type": "API_PROXY"},
            "API Proxy (name:Nowhere) is not found or user does not have privilege to access it!",
        ),
        (
            {"name": "Partners", "type": "API_PROXY_GROUP"},
            "API Proxy Group (name:Partners) is not found or user does not have privilege to access it!",
        ),
    ],
)
@pytest.mark.parametrize("method", ["PUT", "DELETE"])
def test_access_errors(api: Api, method: str, item: dict[str, Any], message: str) -> None:
    api.request("POST", CREDENTIALS, json=partner())
    answer = api.request(method, credential_path(suffix="access/"), json={"credentialAccessList": [item]})
    assert_error(answer, 400, "bad_request", message)
    assert granted(api) == []


def test_access_of_an_unknown_credential(api: Api) -> None:
    message = "Credential (username: ghost) was not found!"
    assert_error(api.request("GET", credential_path("ghost", "access/")), 400, "bad_request", message)
    answer = api.request("PUT", credential_path("ghost", "access/"), json=access("PetStore"))
    assert_error(answer, 400, "bad_request", message)


def test_an_unknown_access_type_is_refused(api: Api) -> None:
    api.request("POST", CREDENTIALS, json=partner())
    answer = api.request("PUT", credential_path(suffix="access/"), json=access("PetStore", kind="USER"))
    assert answer.status_code == 400 and "type" in answer.json()["error_description"]


def test_deleting_a_proxy_deletes_the_grants_to_it(api: Api) -> None:
    api.request("POST", CREDENTIALS, json=partner())
    api.request("PUT", credential_path(suffix="access/"), json=access("PetStore", "Orders"))
    assert api.request("DELETE", "/apiops/projects/Demo/apiProxies/Orders/").status_code == 200
    assert granted(api) == [{"name": "PetStore", "type": "API_PROXY"}]


def test_credential_writes_need_no_redeploy_of_a_deployed_proxy(api: Api) -> None:
    # Each credential write is deployed to every environment as it happens (documented).
    deploy = api.request("POST", "/apiops/projects/Demo/apiProxies/PetStore/environments/test/")
    assert deploy.status_code == 200
    api.request("POST", CREDENTIALS, json=partner())
    api.request("PUT", credential_path(suffix="access/"), json=access("PetStore"))
    api.request("PATCH", credential_path(), json={"password": "rotated"})
    proxy = api.request("GET", "/apiops/projects/Demo/apiProxies/PetStore/").json()
    [line] = [d for d in proxy["deploymentList"] if d["environmentName"] == "test"]
    assert line["deployed"] is True and line["redeployRequired"] is False


def test_a_credential_is_not_a_management_account(api: Api) -> None:
    # Credentials call the APIs through the gateway; they cannot log in to the management API.
    api.request("POST", CREDENTIALS, json=partner())
    answer = token_for(api, "partner", SECRET)
    assert answer.status_code == 401


def test_bodies_that_are_no_json_object(api: Api) -> None:
    answer = api.request("PUT", credential_path(suffix="access/"), json={"credentialAccessList": "PetStore"})
    assert answer.status_code == 400
    headers = api.headers() | {"Content-Type": "application/json"}
    raw = api.client.post(CREDENTIALS, content=b"[1]", headers=headers)
    assert_error(raw, 400, "bad_request", "Request body must be a JSON object")


def test_the_openapi_document_lists_the_credential_operations(http: httpx.Client) -> None:
    paths = json.loads(http.get("/apiops/openapi.json").text)["paths"]
    assert set(paths["/apiops/projects/{projectName}/credentials/"]) == {"get", "post", "put"}
    assert set(paths["/apiops/projects/{projectName}/credentials/{username}/"]) == {"patch", "delete"}
    access_path = "/apiops/projects/{projectName}/credentials/{username}/access/"
    assert set(paths[access_path]) == {"get", "put", "delete"}


def test_grants_to_a_proxy_group_follow_the_group(api: Api, emulator: Any) -> None:
    # The proxy groups live in the api_proxy_groups table (project, name), made by their own module.
    # Where the emulator has none yet, this test makes a minimal one for its length; where it has
    # one, the groups are made and deleted through their documented operations.
    store = emulator.backend.store
    with store.write() as db:
        made = db.execute("SELECT 1 FROM sqlite_master WHERE name = 'api_proxy_groups'").fetchone() is None
        if made:
            db.execute("CREATE TABLE api_proxy_groups (project TEXT NOT NULL, name TEXT NOT NULL)")

    def create_group() -> None:
        if made:
            with store.write() as db:
                db.execute("INSERT INTO api_proxy_groups (project, name) VALUES ('Demo', 'Partners')")
            return
        body = {"name": "Partners", "clientRoute": {"relativePathList": ["/partners"]}}
        answer = api.request("POST", "/apiops/projects/Demo/apiProxyGroups/", json=body)
        assert answer.status_code == 200, answer.text

    def delete_group() -> None:
        if made:
            with store.write() as db:
                db.execute("DELETE FROM api_proxy_groups WHERE name = 'Partners'")
            return
        answer = api.request("DELETE", "/apiops/projects/Demo/apiProxyGroups/Partners/")
        assert answer.status_code == 200, answer.text

    try:
        create_group()
        api.request("POST", CREDENTIALS, json=partner())
        group = access("Partners", kind="API_PROXY_GROUP")
        assert_deployed(api.request("PUT", credential_path(suffix="access/"), json=group))
        assert granted(api) == [{"name": "Partners", "type": "API_PROXY_GROUP"}]
        delete_group()
        assert granted(api) == []  # the group is gone: so is the grant
        create_group()
        # A new group of that name starts with no grant, and can be granted again.
        assert granted(api) == []
        assert_deployed(api.request("PUT", credential_path(suffix="access/"), json=group))
        assert granted(api) == [{"name": "Partners", "type": "API_PROXY_GROUP"}]
    finally:
        if made:
            with store.write() as db:
                db.execute("DROP TABLE api_proxy_groups")


# -- the documented bodies, as the pages show them --------------------------------------------------

#: https://github.com/apinizer/management-api-docs/blob/main/02-api-reference/07-credentials/crud/create-credential.md
DOCUMENTED_CREATES: list[dict[str, Any]] = [
    {
        "email": "user@example.com",
        "fullName": "John Doe",
        "description": "API user credential",
        "username": "api-user",
        "password": "SecurePassword123!",
        "roleNameList": ["API_USER"],
        "enabled": True,
        "ipList": [],
        "expireDate": None,
    },
    {
        "email": "restricted@example.com",
        "fullName": "Restricted User",
        "description": "Credential with IP restrictions",
        "username": "restricted-user",
        "password": "SecurePassword123!",
        "roleNameList": ["API_USER", "DEVELOPER"],
        "enabled": True,
        "ipList": ["192.168.1.100", "10.0.0.0/8", "172.16.0.0/12"],
        "expireDate": None,
    },
    {
        "email": "temporary@example.com",
        "fullName": "Temporary User",
        "description": "Temporary credential with expiration",
        "username": "temp-user",
        "password": "SecurePassword123!",
        "roleNameList": ["API_USER"],
        "enabled": True,
        "ipList": [],
        "expireDate": "2024-12-31T23:59:59.000Z",
    },
    {
        "email": "disabled@example.com",
        "fullName": "Disabled User",
        "description": "Disabled credential",
        "username": "disabled-user",
        "password": "SecurePassword123!",
        "roleNameList": ["API_USER"],
        "enabled": False,
        "ipList": [],
        "expireDate": None,
    },
]
#: The update page's body, and the grant page's "multiple resources" body (its group left out: the
#: fixture has no proxy group), with the fixture's proxies for the documentation's MyAPI and PaymentAPI.
DOCUMENTED_UPDATE: dict[str, Any] = {
    "email": "updated@example.com",
    "fullName": "Updated User",
    "description": "Updated credential description",
    "username": "api-user",
    "password": "NewSecurePassword123!",
    "roleNameList": ["API_USER", "DEVELOPER"],
    "enabled": True,
    "ipList": ["192.168.1.100"],
    "expireDate": "2025-12-31T23:59:59.000Z",
}


@pytest.mark.parametrize("body", DOCUMENTED_CREATES, ids=[b["username"] for b in DOCUMENTED_CREATES])
def test_each_documented_create_body_is_accepted_and_listed_as_sent(api: Api, body: dict[str, Any]) -> None:
    assert_deployed(api.request("POST", CREDENTIALS, json=body))
    assert listed(api) == [{**body, "password": None}]


def test_the_documented_update_change_password_and_grant_bodies(api: Api) -> None:
    api.request("POST", CREDENTIALS, json=DOCUMENTED_CREATES[0])
    assert_deployed(api.request("PUT", CREDENTIALS, json=DOCUMENTED_UPDATE))
    assert listed(api) == [{**DOCUMENTED_UPDATE, "password": None}]
    patch = api.request("PATCH", credential_path("api-user"), json={"password": "NewSecurePassword123!"})
    assert_deployed(patch)
    grant = {
        "credentialAccessList": [
            {"name": "PetStore", "type": "API_PROXY"},
            {"name": "Orders", "type": "API_PROXY"},
        ]
    }
    assert_deployed(api.request("PUT", credential_path("api-user", "access/"), json=grant))
    assert granted(api, "api-user") == grant["credentialAccessList"]
