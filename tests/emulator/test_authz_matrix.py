"""Who may call what: every ``/apiops`` route under every fixture user and every kind of bad token.

Expected answers, spec first:

* token request (4.1) and health check: no bearer token needed (5.1 exempts a test endpoint; the
  token request is how one gets a token), so any ``Authorization`` header is irrelevant;
* report (4.2): system administrator or analyzer; anyone else 401 ``Unauthorized API Access!``;
* endpoint operations (4.3-4.11): ``ROLE_MANAGE_PROXIES`` (5.6; ``ROLE_ADMIN`` has every role).
  The status for a missing role is "not shown" (7): 403 ``forbidden``, after the product's public
  documentation (error-handling: "403 Forbidden - user lacks required role");
* RLCL operations (4.12, 4.11b, 4.13, and the record's create, update and delete of the product's
  documentation): ``ROLE_MANAGE_PROXIES`` ("required for all RLCL operations" in that documentation);
* an API proxy's policy operations (list, add, update, delete): ``ROLE_MANAGE_PROXIES`` (the policies
  index page; the rows here send ``deploy: false``, which needs no deploy role: test_policies.py covers it);
* the secure hello test endpoint: any valid token, no role; it answers ``Hello {name}`` as text;
* no, expired, revoked or malformed token (5.2, 5.4): 401 ``unauthorized_client``, ``Invalid token``,
  whatever the route needs, and even for the administrator's own token.

A refused request changes nothing on the gateway.
"""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass
from typing import Any

import httpx
import pytest

from apinizer_emulator import (
    api_proxy_group_routes,
    api_proxy_routes,
    connection_routes,
    geolocation_routes,
    project_routes,
    report_routes,
)
from apinizer_emulator.app import API_ROUTES
from apinizer_emulator.testing import EmulatorServer

from .conftest import assert_error, endpoints_path, new_endpoint, rlcl_path
from .test_keys_authz import KEY_ROUTES
from .test_rlcl import entry

TOKEN_PATH = "/apiops/auth/token"
HEALTH_PATH = "/apiops/test/healthcheck"
HELLO_TEMPLATE = "/apiops/test/hello/{name}"
HELLO_PATH = "/apiops/test/hello/authz"
REPORT_PATH = "/apiops/reports/organization-api-data-model-access"

USERS = ("admin", "developer", "analyst", "guest")
BAD_TOKENS = (
    "no token",
    "expired token",
    "revoked token",
    "malformed: no Bearer prefix",
    "malformed: lower-case bearer",
    "malformed: two spaces",
    "malformed: Basic scheme",
    "malformed: Bearer without a value",
    "malformed: unknown value",
)
PRINCIPALS = USERS + BAD_TOKENS

#: What each user may do (spec 5.5, 5.6 and the fixture's roles).
MANAGES_PROXIES = {"admin", "developer"}
READS_REPORT = {"admin", "analyst"}

_RATE_LIMIT = entry()
_PETS = {"name": "/pets", "httpMethod": "GET"}
_SETTINGS_TARGET = {"identifierName": "/pets", "identifierHttpMethod": "GET"}


@dataclass(frozen=True)
class Route:
    """One route, a request that is valid for it, and who may make it."""

    method: str
    template: str
    path: str
    body: dict[str, Any] | None
    #: "open" (no token needed), "token" (any valid token), "report" (admin or analyzer) or "proxies"
    #: (ROLE_MANAGE_PROXIES), or "variables" (ROLE_API_SECURITY: of the fixture's users, the admin only).
    guard: str
    #: Keys of a successful JSON answer; None for ``{success: true}``.
    answer: frozenset[str] | None = None
    #: Sets the gateway up for the request (as the administrator), before it is sent.
    prepare: Callable[[httpx.Client], None] | None = None
    #: Requests (method, path, body) made as the administrator first, so the route has its object.
    setup: tuple[tuple[str, str, dict[str, Any] | None], ...] = ()


PROXY = "/apiops/projects/{projectName}/apiProxies/{apiProxyName}/endpoints/"
RLCL = "/apiops/projects/{projectName}/rlcl/{rlclName}/endpoints/"
RLCLS = "/apiops/projects/{projectName}/rlcl/"
RLCL_RECORD = "/apiops/projects/{projectName}/rlcl/{rlclName}/"
_ENDPOINT_KEYS = frozenset(
    {"id", "endpoint", "description", "active", "httpMethod", "backendResourceUrl", "backendHttpMethod"}
)
_POLICY_LISTS = frozenset({"requestPolicyList", "responsePolicyList", "errorPolicyList"})
IP_GROUPS = "/apiops/projects/{projectName}/ipGroups/"
IP_GROUP = IP_GROUPS + "{ipGroupName}/"
_IP_GROUP = "/apiops/projects/Demo/ipGroups/Authz/"
_IPS = {"ipList": ["10.0.0.0/8"]}
_MAKE_GROUP: tuple[tuple[str, str, dict[str, Any] | None], ...] = (
    ("POST", "/apiops/projects/Demo/ipGroups/", {"name": "Authz"}), ("POST", _IP_GROUP + "ips/", _IPS))
VARIABLES = "/apiops/projects/{projectName}/environmentVariables/"
VARIABLE = VARIABLES + "{name}/"
_VARIABLE = "/apiops/projects/Demo/environmentVariables/AUTHZ/"
_VARIABLE_BODY = {"name": "AUTHZ", "global": True, "globalValue": "v"}
_MAKE_VARIABLE: tuple[tuple[str, str, dict[str, Any] | None], ...] = (("POST", _VARIABLE, _VARIABLE_BODY),)
_LISTED = frozenset({"success", "resultList", "resultCount"})
_DEPLOYED = frozenset({"success", "deploymentResult"})
POLICIES = "/apiops/projects/{projectName}/apiProxies/{apiProxyName}/policies/"
POLICY = POLICIES + "{policyName}/"
_ALL_REQUEST = {"targetScope": "ALL", "targetPipeline": "REQUEST"}
_PETS_SCOPE = {"targetScope": "ENDPOINT", "targetEndpoint": "/pets", "targetEndpointHTTPMethod": "GET"}

ROUTES = (
    Route("POST", TOKEN_PATH, TOKEN_PATH, None, "open",
          frozenset({"access_token", "token_type", "expires_in"})),
    Route("GET", HEALTH_PATH, HEALTH_PATH, None, "open"),
    Route("GET", HELLO_TEMPLATE, HELLO_PATH, None, "token"),
    Route("GET", REPORT_PATH, REPORT_PATH, None, "report", frozenset({"success", "result"})),
    Route("GET", PROXY, endpoints_path(), None, "proxies",
          frozenset({"success", "resultList", "resultCount"})),
    Route("POST", PROXY, endpoints_path(), new_endpoint("/authz"), "proxies"),
    Route("PATCH", PROXY, endpoints_path(), {**_PETS, "description": "changed"}, "proxies"),
    Route("POST", PROXY + "details/", endpoints_path("details"), _PETS, "proxies", _ENDPOINT_KEYS),
    Route("POST", PROXY + "policies/", endpoints_path("policies"), _PETS, "proxies",
          _ENDPOINT_KEYS | _POLICY_LISTS),
    Route("POST", PROXY + "delete/", endpoints_path("delete"), _PETS, "proxies"),
    Route("PATCH", PROXY + "status/", endpoints_path("status"), {**_SETTINGS_TARGET, "active": False},
          "proxies"),
    Route("PATCH", PROXY + "cache/", endpoints_path("cache"),
          {**_SETTINGS_TARGET, "cacheSettings": {"name": "authz", "handlingAction": "STOP"}}, "proxies"),
    Route("PATCH", PROXY + "wsa/", endpoints_path("wsa", proxy="Calculator"),
          {"identifierName": "Add", "identifierHttpMethod": "POST", "wsaSettings": {"wsaEnabled": False}},
          "proxies"),
    Route("POST", RLCL, rlcl_path(), {"endpointRateLimitList": [_RATE_LIMIT]}, "proxies"),
    Route("PUT", RLCL, rlcl_path(), {"endpointRateLimitList": [_RATE_LIMIT]}, "proxies"),
    Route("DELETE", RLCL, rlcl_path(), {"endpointRateLimitList": [_RATE_LIMIT]}, "proxies"),
    Route("POST", RLCLS, "/apiops/projects/Demo/rlcl/", {"name": "Authz"}, "proxies"),
    Route("PUT", RLCL_RECORD, "/apiops/projects/Demo/rlcl/Premium/", {"name": "Premium", "enabled": False},
          "proxies"),
    Route("DELETE", RLCL_RECORD, "/apiops/projects/Demo/rlcl/Premium/", None, "proxies"),
    # IP groups: ROLE_MANAGE_PROXIES; environment variables: ROLE_API_SECURITY (and, for the writes,
    # which deploy, ROLE_DEPLOY_UNDEPLOY_PROXIES), which of the fixture's users only the admin has.
    Route("POST", IP_GROUPS, "/apiops/projects/Demo/ipGroups/", {"name": "Authz"}, "proxies"),
    Route("PUT", IP_GROUP, _IP_GROUP, {"name": "Authz", "description": "x"}, "proxies", setup=_MAKE_GROUP),
    Route("DELETE", IP_GROUP, _IP_GROUP, None, "proxies", setup=_MAKE_GROUP),
    Route("POST", IP_GROUP + "ips/", _IP_GROUP + "ips/", _IPS, "proxies", setup=_MAKE_GROUP),
    Route("PUT", IP_GROUP + "ips/", _IP_GROUP + "ips/", _IPS, "proxies", setup=_MAKE_GROUP),
    Route("DELETE", IP_GROUP + "ips/", _IP_GROUP + "ips/", _IPS, "proxies", setup=_MAKE_GROUP),
    Route("GET", VARIABLES, "/apiops/projects/Demo/environmentVariables/", None, "variables", _LISTED),
    Route("GET", VARIABLE, _VARIABLE, None, "variables", _LISTED, setup=_MAKE_VARIABLE),
    Route("POST", VARIABLE, _VARIABLE, _VARIABLE_BODY, "variables", _DEPLOYED),
    Route("PUT", VARIABLE, _VARIABLE, _VARIABLE_BODY, "variables", _DEPLOYED, setup=_MAKE_VARIABLE),
    Route("DELETE", VARIABLE, _VARIABLE, None, "variables", _DEPLOYED, setup=_MAKE_VARIABLE),
)


# -- credentials and their access: reads need ROLE_MANAGE_PROXIES; every write is deployed at once, so
# -- it needs ROLE_DEPLOY_UNDEPLOY_PROXIES too ("deploys": of the fixture's users, only the administrator).
CREDENTIALS = "/apiops/projects/{projectName}/credentials/"
CREDENTIAL = CREDENTIALS + "{username}/"
_CREDENTIAL = {"email": "authz@example.com", "fullName": "Authz", "username": "authz", "password": "authz-pw"}
_ACCESS = {"credentialAccessList": [{"name": "PetStore", "type": "API_PROXY"}]}
_DEPLOYED = frozenset({"success", "deploymentResult"})
_ADMIN = {"Authorization": "Bearer dev-admin-token"}


def _credential(http: httpx.Client) -> None:
    http.post("/apiops/projects/Demo/credentials/", json=_CREDENTIAL, headers=_ADMIN).raise_for_status()


def _granted(http: httpx.Client) -> None:
    _credential(http)
    path = "/apiops/projects/Demo/credentials/authz/access/"
    http.put(path, json=_ACCESS, headers=_ADMIN).raise_for_status()


ROUTES += (
    Route("GET", CREDENTIALS, "/apiops/projects/Demo/credentials/", None, "proxies",
          frozenset({"success", "resultList"}), _credential),
    Route("POST", CREDENTIALS, "/apiops/projects/Demo/credentials/", _CREDENTIAL, "deploys", _DEPLOYED),
    Route("PUT", CREDENTIALS, "/apiops/projects/Demo/credentials/", {**_CREDENTIAL, "enabled": False},
          "deploys", _DEPLOYED, _credential),
    Route("PATCH", CREDENTIAL, "/apiops/projects/Demo/credentials/authz/", {"password": "new"}, "deploys",
          _DEPLOYED, _credential),
    Route("DELETE", CREDENTIAL, "/apiops/projects/Demo/credentials/authz/", None, "deploys", _DEPLOYED,
          _granted),
    Route("GET", CREDENTIAL + "access/", "/apiops/projects/Demo/credentials/authz/access/", None, "proxies",
          frozenset({"success", "resultList"}), _granted),
    Route("PUT", CREDENTIAL + "access/", "/apiops/projects/Demo/credentials/authz/access/", _ACCESS,
          "deploys", _DEPLOYED, _credential),
    Route("DELETE", CREDENTIAL + "access/", "/apiops/projects/Demo/credentials/authz/access/", _ACCESS,
          "deploys", _DEPLOYED, _granted),
    # An API proxy's policies (ROLE_MANAGE_PROXIES; deploy: false, else ROLE_DEPLOY_UNDEPLOY_PROXIES too).
    Route("GET", POLICIES, "/apiops/projects/Demo/apiProxies/PetStore/policies/", None, "proxies",
          frozenset({"status", "resultList", "resultCount"})),
    Route("POST", POLICY, "/apiops/projects/Demo/apiProxies/PetStore/policies/authz/",
          {"operationMetadata": {**_ALL_REQUEST, "deploy": False},
           "policy": {"type": "policy-white-ip", "ipList": ["10.0.0.0/8"]}},
          "proxies", frozenset({"status"})),
    Route("PUT", POLICY, "/apiops/projects/Demo/apiProxies/PetStore/policies/map-backend-errors/",
          {"operationMetadata": {**_PETS_SCOPE, "targetPipeline": "ERROR", "deploy": False},
           "policy": {"type": "policy-script", "scriptLanguage": "GROOVY", "scriptBody": "return 1",
                      "executionType": "SYNC"}}, "proxies", frozenset({"status"})),
    Route("DELETE", POLICY, "/apiops/projects/Demo/apiProxies/PetStore/policies/throttle-list/",
          {"operationMetadata": {**_PETS_SCOPE, "targetPipeline": "REQUEST", "deploy": False}}, "proxies",
          frozenset({"status"})),
)


def test_the_matrix_covers_every_apiops_route() -> None:
    # The API proxy family's routes have their matrix in test_api_proxies_authz.py.
    family = {
        (method, path)
        for method, path, *_ in (
            *api_proxy_routes.ROUTES,
            *project_routes.ROUTES,
            *report_routes.API_PROXY_ROUTES,
        )
    }
    # The API proxy groups' and RLCL credentials' routes: test_api_proxy_groups_authz.py.
    family |= {(method, path) for method, path, *_ in api_proxy_group_routes.ROUTES}
    # Connections and geolocation: test_connections.py and test_geolocation.py test who may call them.
    family |= {(method, path) for method, path, *_ in (*connection_routes.ROUTES, *geolocation_routes.ROUTES)}
    # The keys and secrets families' routes: test_keys_authz.py.
    family |= {(method, path) for method, path, *_ in KEY_ROUTES}
    assert {(r.method, r.template) for r in ROUTES} == {
        (method, path) for method, path, *_ in API_ROUTES
    } - family


def _expected(route: Route, principal: str) -> tuple[int, str | None, str | None]:
    """(status, error, error_description) the spec and the documented choices give."""
    if route.guard == "open":
        return 200, None, None
    if principal not in USERS:
        return 401, "unauthorized_client", "Invalid token"
    if route.guard == "token":
        return 200, None, None
    if route.guard == "report":
        if principal in READS_REPORT:
            return 200, None, None
        return 401, "unauthorized_client", "Unauthorized API Access!"
    if route.guard in ("variables", "deploys"):
        return (200, None, None) if principal == "admin" else (403, "forbidden", None)
    if principal in MANAGES_PROXIES:
        return 200, None, None
    return 403, "forbidden", None


@pytest.fixture
def authorization(emulator: EmulatorServer, emulator_url: str) -> Callable[[str], str | None]:
    """The ``Authorization`` header value of each principal (None: no header at all)."""
    backend = emulator.backend
    assert backend is not None
    # The administrator's own tokens: expiry and revocation must beat the strongest role.
    expired, _ = backend.create_personal_token("admin", "authz-expired", backend.now() - 1)
    revoked, _ = backend.create_personal_token("admin", "authz-revoked", None)
    backend.revoke_token(username="admin", name="authz-revoked")
    headers: dict[str, str | None] = {f"{user}": f"Bearer dev-{user}-token" for user in USERS}
    headers.update({
        "no token": None,
        "expired token": f"Bearer {expired}",
        "revoked token": f"Bearer {revoked}",
        "malformed: no Bearer prefix": "dev-admin-token",
        "malformed: lower-case bearer": "bearer dev-admin-token",
        "malformed: two spaces": "Bearer  dev-admin-token",
        "malformed: Basic scheme": "Basic YWRtaW46YWRtaW4=",
        "malformed: Bearer without a value": "Bearer",
        "malformed: unknown value": "Bearer not-a-token-of-this-gateway",
    })
    return headers.__getitem__


def _gateway_state(http: httpx.Client) -> dict[str, Any]:
    state: dict[str, Any] = http.get("/_emulator/state").json()
    state.pop("now")
    state.pop("tokens")  # the token request adds one; tokens are not what a refusal could change
    return state


@pytest.mark.parametrize("principal", PRINCIPALS)
@pytest.mark.parametrize("route", ROUTES, ids=[f"{r.method} {r.path}" for r in ROUTES])
def test_route_answers_each_principal_as_documented(
    route: Route, principal: str, http: httpx.Client, authorization: Callable[[str], str | None]
) -> None:
    headers = {"Accept": "application/json"}
    header = authorization(principal)
    if header is not None:
        headers["Authorization"] = header
    kwargs: dict[str, Any] = {}
    if route.path == TOKEN_PATH:
        user = principal if principal in USERS else "admin"
        kwargs["data"] = {"grant_type": "client_credentials", "client_id": user, "client_secret": user}
    elif route.body is not None:
        kwargs["json"] = route.body
    for method, path, body in route.setup:
        made = http.request(method, path, json=body, headers={"Authorization": "Bearer dev-admin-token"})
        assert made.status_code == 200, made.text
    if route.prepare is not None:
        route.prepare(http)
    status, error, description = _expected(route, principal)
    before = _gateway_state(http) if status != 200 else None

    response = http.request(route.method, route.path, headers=headers, **kwargs)

    if status != 200:
        assert_error(response, status, error or "", description)
        assert _gateway_state(http) == before, "a refused request changed the gateway"
        return
    assert response.status_code == 200, response.text
    if route.path == HEALTH_PATH:
        assert response.text == "OK"
    elif route.path == HELLO_PATH:
        assert response.text == "Hello authz"
    elif route.answer is None:
        assert response.json() == {"success": True}
    else:
        assert set(response.json()) == route.answer
