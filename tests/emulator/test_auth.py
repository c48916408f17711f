"""Spec 4.1, 4.2, 5 and 7: tokens, the Bearer header, expiry, revocation, roles and the report."""

from __future__ import annotations

import textwrap

import httpx
import pytest

import _emulator_http as emulator_http
from apinizer_emulator.testing import EmulatorServer

from .conftest import ANALYST_TOKEN, GUEST_TOKEN, Api, assert_error, endpoints_path, new_endpoint, rlcl_path

TOKEN = "/apiops/auth/token"
REPORT = "/apiops/reports/organization-api-data-model-access"


def form(user: str, password: str, grant: str = "client_credentials") -> dict[str, str]:
    return {"grant_type": grant, "client_id": user, "client_secret": password}


# -- 4.1 token request ---------------------------------------------------------------------------


@pytest.mark.parametrize("user", ["admin", "developer", "analyst", "guest"])
def test_token_request_issues_a_bearer_token_for_an_hour(http: httpx.Client, user):
    response = http.post(TOKEN, data=form(user, user), headers={"Accept": "application/json"})
    assert response.status_code == 200
    body = response.json()
    assert set(body) == {"access_token", "token_type", "expires_in"}
    assert body["token_type"] == "Bearer"
    assert body["expires_in"] == 3600
    assert response.headers["cache-control"] == "no-store"
    # the token works and carries the user's identity
    health = http.get(endpoints_path(), headers={"Authorization": f"Bearer {body['access_token']}"})
    assert health.status_code == (200 if user in ("admin", "developer") else 403)


def test_issued_tokens_differ_and_are_not_stored_in_clear(http: httpx.Client):
    first = http.post(TOKEN, data=form("admin", "admin")).json()["access_token"]
    second = http.post(TOKEN, data=form("admin", "admin")).json()["access_token"]
    assert first != second
    state = http.get("/_emulator/state").text
    assert first not in state and "dev-admin-token" not in state
    assert "password" not in state.lower()


@pytest.mark.parametrize(("user", "password"), [("admin", "wrong"), ("nobody", "nobody"), ("admin", "ADMIN")])
def test_token_request_with_bad_credentials_is_401(http: httpx.Client, user, password):
    assert_error(http.post(TOKEN, data=form(user, password)), 401, "unauthorized_client", "Bad credentials")


def test_token_request_as_json_is_refused(http: httpx.Client):
    response = http.post(TOKEN, json=form("admin", "admin"))
    assert_error(
        response,
        400,
        "invalid_request",
        "The token request must be form-encoded (application/x-www-form-urlencoded)",
    )


@pytest.mark.parametrize("missing", ["grant_type", "client_id", "client_secret"])
def test_token_request_without_a_parameter_is_400(http: httpx.Client, missing):
    data = form("admin", "admin")
    del data[missing]
    assert_error(http.post(TOKEN, data=data), 400, "invalid_request", f"{missing} is required")


def test_token_request_with_another_grant_is_400(http: httpx.Client):
    assert_error(
        http.post(TOKEN, data=form("admin", "admin", grant="password")), 400, "unsupported_grant_type"
    )


def test_token_request_with_a_charset_in_the_content_type_is_accepted(http: httpx.Client):
    response = http.post(
        TOKEN,
        content="grant_type=client_credentials&client_id=admin&client_secret=admin",
        headers={"Content-Type": "application/x-www-form-urlencoded; charset=UTF-8"},
    )
    assert response.status_code == 200


# -- the Bearer header ---------------------------------------------------------------------------


@pytest.mark.parametrize(
    "header",
    [
        None,
        "",
        "dev-admin-token",
        "bearer dev-admin-token",
        "BEARER dev-admin-token",
        "Bearer  dev-admin-token",
        "Token dev-admin-token",
        "Bearer",
        "Basic YWRtaW46YWRtaW4=",
        "Bearer\tdev-admin-token",
        "Bearer not-a-token",
        "Bearer dev-admin-token-x",
    ],
)
def test_anything_but_exactly_bearer_and_a_valid_token_is_401(http: httpx.Client, header):
    headers = {} if header is None else {"Authorization": header}
    for method, path in (("GET", endpoints_path()), ("GET", REPORT), ("POST", rlcl_path())):
        response = http.request(method, path, headers=headers)
        assert_error(response, 401, "unauthorized_client", "Invalid token")
        assert response.headers["www-authenticate"] == "Bearer"


def test_authentication_comes_before_body_checks(http: httpx.Client):
    assert_error(
        http.post(endpoints_path(), content=b"{not json"), 401, "unauthorized_client", "Invalid token"
    )


# -- expiry and revocation ---------------------------------------------------------------------


def advance(http: httpx.Client, seconds: float) -> None:
    http.post("/_emulator/clock", json={"advance": seconds}).raise_for_status()


def test_access_tokens_expire_after_3600_seconds(http: httpx.Client):
    token = http.post(TOKEN, data=form("admin", "admin")).json()["access_token"]
    auth = {"Authorization": f"Bearer {token}"}
    advance(http, 3599)
    assert http.get(endpoints_path(), headers=auth).status_code == 200
    advance(http, 1)
    assert_error(http.get(endpoints_path(), headers=auth), 401, "unauthorized_client", "Invalid token")
    # never-expiring personal tokens are unaffected
    assert http.get(endpoints_path(), headers={"Authorization": "Bearer dev-admin-token"}).status_code == 200


def test_reset_puts_the_clock_back(http: httpx.Client):
    now = http.get("/_emulator/clock").json()["now"]
    advance(http, 10_000)
    http.post("/_emulator/reset", json={}).raise_for_status()
    assert http.get("/_emulator/clock").json()["now"] < now + 100


def test_clock_refuses_going_back(http: httpx.Client):
    assert_error(http.post("/_emulator/clock", json={"advance": -1}), 400, "bad_request")


FIXTURE = textwrap.dedent("""\
    users:
      - {username: ops, password: s3cret, roles: [ROLE_MANAGE_PROXIES]}
      - {username: boss, password: boss, roles: [ROLE_ADMIN]}
    tokens:
      - {value: old-token, user: ops, name: old, expires: 2020-01-01}
      - {value: dated-token, user: ops, name: dated, expires: 2031-06-30}
      - {value: revoked-token, user: ops, name: gone, revoked: true}
      - {value: boss-token, user: boss, name: boss}
    projects:
      - name: P
        api_proxies:
          - {name: Shared, type: REST, sharing_type: NONE}
          - name: Open
            type: SOAP
            sharing_type: EXTERNAL
            access_list: [{who: everyone}]
    data_model_list:
      - {dataModelName: Customer, accessList: []}
""")


class FakeClock:
    def __init__(self, now: float) -> None:
        self.now = now

    def __call__(self) -> float:
        return self.now


@pytest.fixture
def custom(tmp_path):
    fixture = tmp_path / "fixture.yaml"
    fixture.write_text(FIXTURE)
    clock = FakeClock(1_900_000_000.0)  # 2030-03-17
    with (
        EmulatorServer(db=tmp_path / "db.sqlite", fixtures=fixture, clock=clock) as server,
        emulator_http.client(base_url=server.base_url) as client,
    ):
        yield client, clock


def test_personal_tokens_expire_at_the_end_of_their_date(custom):
    client, clock = custom
    path = endpoints_path(project="P", proxy="Shared")
    assert_error(
        client.get(path, headers={"Authorization": "Bearer old-token"}),
        401,
        "unauthorized_client",
        "Invalid token",
    )
    assert client.get(path, headers={"Authorization": "Bearer dated-token"}).status_code == 200
    clock.now = 1_940_630_399.0  # 2031-06-30T23:59:59Z: the last second of the date
    assert client.get(path, headers={"Authorization": "Bearer dated-token"}).status_code == 200
    clock.now += 1
    assert_error(
        client.get(path, headers={"Authorization": "Bearer dated-token"}),
        401,
        "unauthorized_client",
        "Invalid token",
    )


def test_injected_clock_drives_access_token_expiry(custom):
    client, clock = custom
    token = client.post(TOKEN, data=form("ops", "s3cret")).json()["access_token"]
    path = endpoints_path(project="P", proxy="Shared")
    assert client.get(path, headers={"Authorization": f"Bearer {token}"}).status_code == 200
    clock.now += 3600
    assert_error(
        client.get(path, headers={"Authorization": f"Bearer {token}"}),
        401,
        "unauthorized_client",
        "Invalid token",
    )


def test_revoked_tokens_are_refused(custom):
    client, _ = custom
    assert_error(
        client.get(
            endpoints_path(project="P", proxy="Shared"), headers={"Authorization": "Bearer revoked-token"}
        ),
        401,
        "unauthorized_client",
        "Invalid token",
    )


def test_role_admin_without_a_system_role_gets_no_report(custom):
    client, _ = custom
    response = client.get(REPORT, headers={"Authorization": "Bearer boss-token"})
    # ROLE_ADMIN alone does not make a system administrator
    assert_error(response, 401, "unauthorized_client", "Unauthorized API Access!")


def test_report_content_from_fixture(tmp_path):
    fixture = tmp_path / "fixture.yaml"
    fixture.write_text(
        FIXTURE.replace(
            "{username: boss, password: boss, roles: [ROLE_ADMIN]}",
            "{username: boss, password: boss, roles: [], system_role: analyzer}",
        )
    )
    with EmulatorServer(fixtures=fixture) as server:
        body = emulator_http.get(f"{server.base_url}{REPORT}",
                                 headers={"Authorization": "Bearer boss-token"}).json()
    assert body == {
        "success": True,
        "result": {
            "apiProxyList": [
                {"apiProxyName": "Open", "sharingType": "EXTERNAL", "accessList": [{"who": "everyone"}]}
            ],
            "dataModelList": [{"dataModelName": "Customer", "accessList": []}],
        },
    }


# -- roles ------------------------------------------------------------------------------------


def test_report_for_each_default_user(api: Api):
    expected = {
        "apiProxyList": [
            {
                "apiProxyName": "PetStore",
                "sharingType": "EXTERNAL",
                "accessList": [{"credentialName": "mobile-app", "accessType": "ALLOWED"}],
            },
            {
                "apiProxyName": "Calculator",
                "sharingType": "BOTH",
                "accessList": [{"credentialName": "billing", "accessType": "ALLOWED"}],
            },
        ],
        "dataModelList": [],
    }
    for token in ("dev-admin-token", ANALYST_TOKEN):
        response = api.request("GET", REPORT, token=token)
        assert response.status_code == 200
        assert response.json() == {"success": True, "result": expected}
    for token in ("dev-developer-token", GUEST_TOKEN):
        assert_error(
            api.request("GET", REPORT, token=token), 401, "unauthorized_client", "Unauthorized API Access!"
        )


def test_report_with_no_external_proxy_has_empty_lists(tmp_path):
    fixture = tmp_path / "f.yaml"
    fixture.write_text(
        "users: [{username: a, password: a, system_role: admin}]\n"
        "tokens: [{value: t, user: a, name: t}]\n"
        "projects: [{name: P, api_proxies: [{name: X, sharing_type: INTERNAL}]}]\n"
    )
    with EmulatorServer(fixtures=fixture) as server:
        body = emulator_http.get(f"{server.base_url}{REPORT}", headers={"Authorization": "Bearer t"}).json()
    assert body == {"success": True, "result": {"apiProxyList": [], "dataModelList": []}}


MISSING_ROLE = "Access is denied! The user of this token lacks ROLE_MANAGE_PROXIES."


@pytest.mark.parametrize("token", [GUEST_TOKEN, ANALYST_TOKEN])
def test_users_without_manage_proxies_get_403_on_every_operation(api: Api, token):
    ident = {"name": "/pets", "httpMethod": "GET"}
    target = {"identifierName": "/pets", "identifierHttpMethod": "GET"}
    calls = [
        ("GET", endpoints_path(), None),
        ("POST", endpoints_path(), new_endpoint()),
        ("PATCH", endpoints_path(), {**ident, "description": "x"}),
        ("POST", endpoints_path("details"), ident),
        ("POST", endpoints_path("policies"), ident),
        ("POST", endpoints_path("delete"), ident),
        ("PATCH", endpoints_path("status"), {**target, "active": False}),
        (
            "PATCH",
            endpoints_path("cache"),
            {**target, "cacheSettings": {"name": "c", "handlingAction": "STOP"}},
        ),
        (
            "PATCH",
            endpoints_path("wsa", proxy="Calculator"),
            {"identifierName": "Add", "identifierHttpMethod": "POST", "wsaSettings": {}},
        ),
        ("POST", rlcl_path(), {"endpointRateLimitList": []}),
        ("PUT", rlcl_path(), {"endpointRateLimitList": []}),
        ("DELETE", rlcl_path(), {"endpointRateLimitList": []}),
    ]
    for method, path, body in calls:
        assert_error(api.request(method, path, body, token=token), 403, "forbidden", MISSING_ROLE)
    assert api.list().json()["resultCount"] == 3


def test_developer_with_manage_proxies_may_do_everything_but_the_report(dev_api: Api):
    assert dev_api.list().status_code == 200
    assert dev_api.create(new_endpoint()).json() == {"success": True}
    assert dev_api.request(
        "POST",
        rlcl_path(),
        {
            "endpointRateLimitList": [
                {
                    "apiProxyName": "PetStore",
                    "endpointName": "ALL",
                    "permittedMessageCount": 1,
                    "timeIntervalPeriodLength": 1,
                    "timeInterval": "ONE_SECOND",
                    "cacheConnectionTimeoutInSeconds": 1,
                    "cacheErrorHandlingType": "CONTINUE",
                    "timeIntervalWindowType": "SLIDING",
                }
            ]
        },
    ).json() == {"success": True}
