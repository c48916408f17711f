"""``client.credentials`` and the credential models against ``httpx.MockTransport``: paths, bodies,
documented defaults, answers, what is retried, and the password kept out of reprs and errors.

https://github.com/apinizer/management-api-docs/blob/main/02-api-reference/07-credentials/index.md
"""

from __future__ import annotations

from typing import Any

import httpx
import pytest
from pydantic import ValidationError

from apinizer_pulumi.client import (
    APIConnectionError,
    ApinizerClient,
    BadRequestError,
    DeploymentFailedError,
    InvalidArgumentError,
    NotFoundError,
)
from apinizer_pulumi.models import (
    AccessType,
    Credential,
    CredentialAccess,
    CredentialPasswordChange,
    CredentialSpec,
)

from ._fake_gateway import FakeGateway, body, error

CREDENTIALS = "/apiops/projects/Demo/credentials/"
PARTNER = "/apiops/projects/Demo/credentials/partner/"
ACCESS = "/apiops/projects/Demo/credentials/partner/access/"
SECRET = "Very-Secret-Pa55"
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


def spec(**changes: Any) -> CredentialSpec:
    fields: dict[str, Any] = {
        "email": "p@example.com",
        "full_name": "Partner",
        "username": "partner",
        "password": SECRET,
    }
    fields.update(changes)
    return CredentialSpec(**fields)


# -- models ---------------------------------------------------------------------------------------


def test_the_documented_defaults_and_the_full_body() -> None:
    assert spec().to_api() == {
        "email": "p@example.com",
        "fullName": "Partner",
        "username": "partner",
        "password": SECRET,
        "roleNameList": [],
        "enabled": True,
        "ipList": [],
        "expireDate": None,
    }


def test_the_password_is_in_no_repr() -> None:
    assert SECRET not in repr(spec()) and SECRET not in str(spec())
    assert SECRET not in repr(CredentialPasswordChange(password=SECRET))
    assert SECRET not in repr(Credential(username="x", password=SECRET))


@pytest.mark.parametrize(
    ("changes", "field"),
    [
        ({"email": "nobody"}, "email"),
        ({"email": " "}, "email"),
        ({"full_name": ""}, "full_name"),
        ({"password": ""}, "password"),
        ({"username": ""}, "username"),
        ({"ip_list": ["10.0.0.1/8"]}, "ip_list"),
        ({"ip_list": ["300.1.1.1"]}, "ip_list"),
        ({"expire_date": "2030-12-31"}, "expire_date"),
        ({"expire_date": "next year"}, "expire_date"),
        ({"role_name_list": [""]}, "role_name_list"),
    ],
)
def test_bad_fields_name_themselves_and_never_show_the_password(changes: dict[str, Any], field: str) -> None:
    with pytest.raises(ValidationError) as info:
        spec(**changes)
    assert [error["loc"][0] for error in info.value.errors()] == [field]
    assert SECRET not in str(info.value)


def test_ips_cidrs_and_dates_that_are_right() -> None:
    made = spec(
        ip_list=["192.168.1.100", "10.0.0.0/8", "2001:db8::/32", "::1"],
        expire_date="2024-12-31T23:59:59.000Z",
    )
    assert made.to_api()["ipList"] == ["192.168.1.100", "10.0.0.0/8", "2001:db8::/32", "::1"]
    assert made.to_api()["expireDate"] == "2024-12-31T23:59:59.000Z"


def test_access_takes_the_documented_types_only() -> None:
    assert CredentialAccess(name="MyAPIGroup", type="API_PROXY_GROUP").type is AccessType.API_PROXY_GROUP
    with pytest.raises(ValidationError):
        CredentialAccess(name="x", type="USER")  # type: ignore[arg-type]


# -- client: credentials --------------------------------------------------------------------------


def test_list_reads_the_documented_answer(gateway: FakeGateway, client: ApinizerClient) -> None:
    gateway.script(
        "GET",
        CREDENTIALS,
        httpx.Response(
            200,
            json={
                "success": True,
                "resultList": [
                    {
                        "email": "user@example.com",
                        "fullName": "John Doe",
                        "description": "API user credential",
                        "username": "api-user",
                        "password": None,
                        "roleNameList": ["API_USER", "DEVELOPER"],
                        "enabled": True,
                        "ipList": ["192.168.1.100", "10.0.0.0/8"],
                        "expireDate": "2024-12-31T23:59:59.000Z",
                    },
                    {
                        "email": "admin@example.com",
                        "fullName": "Admin User",
                        "description": "Administrator credential",
                        "username": "admin",
                        "password": None,
                        "roleNameList": ["ADMIN"],
                        "enabled": True,
                        "ipList": [],
                        "expireDate": None,
                    },
                ],
            },
        ),
    )
    first, second = client.credentials.list("Demo")
    assert (first.username, first.full_name, first.role_name_list) == (
        "api-user",
        "John Doe",
        ["API_USER", "DEVELOPER"],
    )
    assert first.password is None and second.expire_date is None


def test_find_picks_from_the_list(gateway: FakeGateway, client: ApinizerClient) -> None:
    answer = {"success": True, "resultList": [{"username": "partner", "email": "p@e", "fullName": "P"}]}
    gateway.script("GET", CREDENTIALS, httpx.Response(200, json=answer), httpx.Response(200, json=answer))
    found = client.credentials.find("Demo", "partner")
    assert found is not None and found.email == "p@e"
    assert client.credentials.find("Demo", "ghost") is None


def test_create_posts_every_field(gateway: FakeGateway, client: ApinizerClient) -> None:
    gateway.script("POST", CREDENTIALS, httpx.Response(200, json=DEPLOYED))
    answer = client.credentials.create("Demo", spec(role_name_list=["API_USER"]))
    request = gateway.last
    assert (request.method, request.url.path) == ("POST", CREDENTIALS)
    assert body(request)["roleNameList"] == ["API_USER"] and body(request)["password"] == SECRET
    assert (
        answer.deployment_result is not None
        and answer.deployment_result.message == "Deployment completed successfully"
    )


def test_create_takes_a_mapping_in_either_spelling(gateway: FakeGateway, client: ApinizerClient) -> None:
    client.credentials.create("Demo", {"email": "a@b", "fullName": "A", "username": "a", "password": "x"})
    client.credentials.create("Demo", {"email": "a@b", "full_name": "A", "username": "b", "password": "x"})
    assert [body(r)["fullName"] for r in gateway.api_requests] == ["A", "A"]


def test_a_bad_argument_is_refused_before_sending(gateway: FakeGateway, client: ApinizerClient) -> None:
    with pytest.raises(InvalidArgumentError) as info:
        client.credentials.create(
            "Demo", {"email": "nobody", "fullName": "A", "username": "a", "password": SECRET}
        )
    assert "credential.email" in str(info.value) and SECRET not in str(info.value)
    with pytest.raises(InvalidArgumentError):
        client.credentials.change_password("Demo", "partner", "  ")
    with pytest.raises(InvalidArgumentError):
        client.credentials.grant_access("Demo", "partner", [])
    with pytest.raises(InvalidArgumentError):
        client.credentials.delete("Demo", "")
    assert gateway.api_requests == []


def test_create_with_a_taken_username_raises(gateway: FakeGateway, client: ApinizerClient) -> None:
    message = "There is already a credential has this name!"
    gateway.script("POST", CREDENTIALS, error(400, "bad_request", message))
    with pytest.raises(BadRequestError) as info:
        client.credentials.create("Demo", spec())
    assert info.value.error_description == message and SECRET not in str(info.value)


def test_create_and_delete_are_not_repeated_after_a_lost_answer(
    gateway: FakeGateway, client: ApinizerClient
) -> None:
    gateway.script("POST", CREDENTIALS, httpx.RemoteProtocolError("server disconnected"))
    gateway.script("DELETE", PARTNER, httpx.RemoteProtocolError("server disconnected"))
    with pytest.raises(APIConnectionError):
        client.credentials.create("Demo", spec())
    with pytest.raises(APIConnectionError):
        client.credentials.delete("Demo", "partner")
    assert len(gateway.api_requests) == 2


def test_update_and_change_password_are_repeated_after_a_lost_answer(
    gateway: FakeGateway, client: ApinizerClient
) -> None:
    gateway.script("PUT", CREDENTIALS, httpx.RemoteProtocolError("server disconnected"))
    gateway.script("PATCH", PARTNER, httpx.RemoteProtocolError("server disconnected"))
    client.credentials.update("Demo", spec(enabled=False))
    client.credentials.change_password("Demo", "partner", "rotated")
    assert [(r.method, r.url.path) for r in gateway.api_requests] == [
        ("PUT", CREDENTIALS),
        ("PUT", CREDENTIALS),
        ("PATCH", PARTNER),
        ("PATCH", PARTNER),
    ]
    assert body(gateway.last) == {"password": "rotated"}


def test_update_of_an_unknown_credential(gateway: FakeGateway, client: ApinizerClient) -> None:
    gateway.script(
        "PUT", CREDENTIALS, error(400, "bad_request", "Credential (username: partner) was not found!")
    )
    with pytest.raises(BadRequestError):
        client.credentials.update("Demo", spec())


def test_a_failed_environment_in_the_answer_raises(gateway: FakeGateway, client: ApinizerClient) -> None:
    failed = {
        "success": True,
        "deploymentResult": {
            "success": False,
            "message": "Deployment failed",
            "environmentResults": [
                {"environmentName": "production", "success": False, "message": "Gateway unreachable"}
            ],
        },
    }
    gateway.script("DELETE", PARTNER, httpx.Response(200, json=failed))
    with pytest.raises(DeploymentFailedError) as info:
        client.credentials.delete("Demo", "partner")
    assert "production: Gateway unreachable" in str(info.value)


def test_an_unknown_project_is_not_found(gateway: FakeGateway, client: ApinizerClient) -> None:
    gateway.script(
        "GET",
        CREDENTIALS,
        error(404, "not_found", "Project(Demo) was not found or user does not have privilege to access it!"),
    )
    with pytest.raises(NotFoundError):
        client.credentials.list("Demo")


def test_names_are_percent_encoded(gateway: FakeGateway, client: ApinizerClient) -> None:
    client.credentials.delete("Demo", "a/b c")
    assert gateway.last.url.raw_path == b"/apiops/projects/Demo/credentials/a%2Fb%20c/"


# -- client: access -------------------------------------------------------------------------------


def test_access_lists_grants_and_revokes(gateway: FakeGateway, client: ApinizerClient) -> None:
    gateway.script(
        "GET",
        ACCESS,
        httpx.Response(
            200,
            json={
                "success": True,
                "resultList": [
                    {"name": "MyAPI", "type": "API_PROXY"},
                    {"name": "MyAPIGroup", "type": "API_PROXY_GROUP"},
                ],
            },
        ),
    )
    items = client.credentials.access("Demo", "partner")
    assert [(i.name, i.type) for i in items] == [
        ("MyAPI", AccessType.API_PROXY),
        ("MyAPIGroup", AccessType.API_PROXY_GROUP),
    ]
    client.credentials.grant_access(
        "Demo",
        "partner",
        [CredentialAccess(name="MyAPI", type="API_PROXY"), {"name": "MyAPIGroup", "type": "API_PROXY_GROUP"}],
    )
    assert (gateway.last.method, body(gateway.last)) == (
        "PUT",
        {
            "credentialAccessList": [
                {"name": "MyAPI", "type": "API_PROXY"},
                {"name": "MyAPIGroup", "type": "API_PROXY_GROUP"},
            ]
        },
    )
    client.credentials.revoke_access("Demo", "partner", [{"name": "MyAPI", "type": "API_PROXY"}])
    assert (gateway.last.method, gateway.last.url.path, body(gateway.last)) == (
        "DELETE",
        ACCESS,
        {"credentialAccessList": [{"name": "MyAPI", "type": "API_PROXY"}]},
    )


def test_grant_is_not_repeated_and_revoke_is(gateway: FakeGateway, client: ApinizerClient) -> None:
    gateway.script("PUT", ACCESS, httpx.RemoteProtocolError("server disconnected"))
    gateway.script("DELETE", ACCESS, httpx.RemoteProtocolError("server disconnected"))
    with pytest.raises(APIConnectionError):
        client.credentials.grant_access("Demo", "partner", [{"name": "MyAPI", "type": "API_PROXY"}])
    client.credentials.revoke_access("Demo", "partner", [{"name": "MyAPI", "type": "API_PROXY"}])
    assert [r.method for r in gateway.api_requests] == ["PUT", "DELETE", "DELETE"]


def test_a_bad_access_item_names_its_index(gateway: FakeGateway, client: ApinizerClient) -> None:
    with pytest.raises(InvalidArgumentError) as info:
        client.credentials.grant_access(
            "Demo", "partner", [{"name": "A", "type": "API_PROXY"}, {"name": "B", "type": "USER"}]
        )
    assert "access[1].type" in str(info.value)
    assert gateway.api_requests == []
