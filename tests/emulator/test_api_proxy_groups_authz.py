"""Who may call the API proxy group routes and an RLCL's credential and condition routes: every
route under every default fixture user and bad tokens; then users of this module's own fixture
that hold one role each besides ROLE_MANAGE_PROXY_GROUPS. A refused request changes nothing.

Expected, from the pages: every group operation needs ROLE_MANAGE_PROXY_GROUPS (the default
fixture gives it only to the administrator, through ROLE_ADMIN); a member's add and remove also
ROLE_MANAGE_PROXIES; deploy and undeploy also ROLE_DEPLOY_UNDEPLOY_PROXIES. The RLCL operations
need ROLE_MANAGE_PROXIES. A missing role is 403 ``forbidden``; a bad token 401 ``Invalid token``.
"""

from __future__ import annotations

from collections.abc import Callable, Iterator
from dataclasses import dataclass
from typing import Any

import httpx
import pytest

from apinizer_emulator import api_proxy_group_routes as routes
from apinizer_emulator.testing import EmulatorServer
from apinizer_pulumi.client import ApinizerClient, PermissionDeniedError

from .conftest import Api, assert_error
from .test_api_proxy_groups import RULE, group, make_credential

GROUPS = "/apiops/projects/Demo/apiProxyGroups/"
RLCL = "/apiops/projects/Demo/rlcl/Standard/"
ADMIN = {"Authorization": "Bearer dev-admin-token"}
USERS = ("admin", "developer", "analyst", "guest")
BAD_TOKENS = {
    "no token": None,
    "unknown token": "Bearer not-a-token",
    "malformed: Basic scheme": "Basic YWRtaW46YWRtaW4=",
    "malformed: no Bearer prefix": "dev-admin-token",
}
PRINCIPALS = (*USERS, *BAD_TOKENS)
MANAGES_PROXIES = {"admin", "developer"}

Prepare = Callable[[httpx.Client, EmulatorServer], None]


def _group(http: httpx.Client, _: EmulatorServer) -> None:
    http.post(GROUPS, json=group(), headers=ADMIN).raise_for_status()


def _member(http: httpx.Client, server: EmulatorServer) -> None:
    _group(http, server)
    http.post(GROUPS + "Payments/apiProxies/PetStore/", headers=ADMIN).raise_for_status()


def _deployed(http: httpx.Client, server: EmulatorServer) -> None:
    _member(http, server)
    http.post(GROUPS + "Payments/environments/test/", headers=ADMIN).raise_for_status()


def _credentials(http: httpx.Client, server: EmulatorServer) -> None:
    make_credential(Api(http, "dev-admin-token"), server, "alice")
    http.post(RLCL + "credentials/", json={"credentialNameList": ["alice"]}, headers=ADMIN).raise_for_status()


@dataclass(frozen=True)
class Route:
    method: str
    template: str
    path: str
    #: "groups" (ROLE_MANAGE_PROXY_GROUPS), "members" (+ ROLE_MANAGE_PROXIES), "deploys"
    #: (+ ROLE_DEPLOY_UNDEPLOY_PROXIES) or "rlcl" (ROLE_MANAGE_PROXIES).
    guard: str
    json: dict[str, Any] | None = None
    prepare: Prepare | None = None


ROUTES = (
    Route("GET", routes.GROUPS, GROUPS, "groups", prepare=_group),
    Route("POST", routes.GROUPS, GROUPS, "groups", group()),
    Route("PUT", routes.GROUPS, GROUPS, "groups", group(description="changed"), _group),
    Route("DELETE", routes.GROUP, GROUPS + "Payments/", "groups", prepare=_member),
    Route("POST", routes.MEMBER, GROUPS + "Payments/apiProxies/PetStore/", "members", prepare=_group),
    Route("DELETE", routes.MEMBER, GROUPS + "Payments/apiProxies/PetStore/", "members", prepare=_member),
    Route("GET", routes.ENVIRONMENTS, GROUPS + "Payments/environments/", "groups", prepare=_deployed),
    Route("POST", routes.DEPLOYMENT, GROUPS + "Payments/environments/test/", "deploys", prepare=_member),
    Route("DELETE", routes.DEPLOYMENT, GROUPS + "Payments/environments/test/", "deploys", prepare=_deployed),
    Route("POST", routes.RLCL_CREDENTIALS, RLCL + "credentials/", "rlcl", {"credentialNameList": ["alice"]},
          lambda http, server: make_credential(Api(http, "dev-admin-token"), server, "alice")),
    Route("PUT", routes.RLCL_CREDENTIALS, RLCL + "credentials/", "rlcl", {"credentialNameList": ["alice"]},
          lambda http, server: make_credential(Api(http, "dev-admin-token"), server, "alice")),
    Route("DELETE", routes.RLCL_CREDENTIALS, RLCL + "credentials/", "rlcl", {"credentialNameList": ["alice"]},
          _credentials),
    Route("POST", routes.RLCL_CONDITION, RLCL + "condition/", "rlcl", {"conditionRuleList": [RULE]}),
    Route("PUT", routes.RLCL_CONDITION, RLCL + "condition/", "rlcl", {"conditionRuleList": [RULE]}),
    Route("DELETE", routes.RLCL_CONDITION, RLCL + "condition/", "rlcl"),
)


def test_the_matrix_covers_every_route_of_the_family() -> None:
    assert {(r.method, r.template) for r in ROUTES} == {(m, p) for m, p, *_ in routes.ROUTES}


def _expected(route: Route, principal: str) -> tuple[int, str | None, str | None]:
    if principal not in USERS:
        return 401, "unauthorized_client", "Invalid token"
    allowed = MANAGES_PROXIES if route.guard == "rlcl" else {"admin"}
    return (200, None, None) if principal in allowed else (403, "forbidden", None)


def _snapshot(http: httpx.Client) -> Any:
    state = http.get("/_emulator/state").json()
    state.pop("now")
    state.pop("tokens")
    found = http.get("/_emulator/projects/Demo/apiProxyGroups/Payments")
    lists = http.get("/_emulator/projects/Demo/rlcl/Standard/credentials").json()
    return state, found.status_code, found.json(), lists


@pytest.mark.parametrize("principal", PRINCIPALS)
@pytest.mark.parametrize("route", ROUTES, ids=[f"{r.method} {r.path}" for r in ROUTES])
def test_route_answers_each_principal(
    route: Route, principal: str, http: httpx.Client, emulator: EmulatorServer
) -> None:
    if route.prepare is not None:
        route.prepare(http, emulator)
    if principal in USERS:
        headers = {"Authorization": f"Bearer dev-{principal}-token"}
    else:
        header = BAD_TOKENS[principal]
        headers = {} if header is None else {"Authorization": header}
    status, error, description = _expected(route, principal)
    before = _snapshot(http)
    response = http.request(route.method, route.path, json=route.json, headers=headers)
    if status != 200:
        assert_error(response, status, error or "", description)
        assert _snapshot(http) == before, "a refused request changed the gateway"
    else:
        assert response.status_code == 200, response.text
        assert response.json()["success"] is True


# -- one role each besides ROLE_MANAGE_PROXY_GROUPS -------------------------------------------------------

FIXTURE = """
users:
  - {username: grouper, password: grouper, roles: [ROLE_MANAGE_PROXY_GROUPS]}
  - {username: member, password: member, roles: [ROLE_MANAGE_PROXY_GROUPS, ROLE_MANAGE_PROXIES]}
  - {username: deployer, password: deployer, roles: [ROLE_MANAGE_PROXY_GROUPS, ROLE_DEPLOY_UNDEPLOY_PROXIES]}
tokens:
  - {value: grouper-token, user: grouper, name: grouper}
  - {value: member-token, user: member, name: member}
  - {value: deployer-token, user: deployer, name: deployer}
environments:
  - {name: test, type: TEST}
projects:
  - name: Demo
    api_proxies:
      - name: PetStore
"""


@pytest.fixture(scope="module")
def roles(tmp_path_factory: pytest.TempPathFactory) -> Iterator[EmulatorServer]:
    fixture = tmp_path_factory.mktemp("group-roles") / "fixture.yaml"
    fixture.write_text(FIXTURE)
    with EmulatorServer(fixtures=fixture) as server:
        yield server


def test_each_role_opens_its_own_operations(roles: EmulatorServer) -> None:
    with (ApinizerClient(roles.base_url, token="grouper-token") as grouper,
          ApinizerClient(roles.base_url, token="member-token") as member,
          ApinizerClient(roles.base_url, token="deployer-token") as deployer):
        grouper.api_proxy_groups.create("Demo", group("Roles"))
        assert [g.name for g in grouper.api_proxy_groups.list("Demo")] == ["Roles"]
        with pytest.raises(PermissionDeniedError, match="ROLE_MANAGE_PROXIES"):
            grouper.api_proxy_groups.add_api_proxy("Demo", "Roles", "PetStore")
        with pytest.raises(PermissionDeniedError, match="ROLE_MANAGE_PROXIES"):
            deployer.api_proxy_groups.add_api_proxy("Demo", "Roles", "PetStore")
        member.api_proxy_groups.add_api_proxy("Demo", "Roles", "PetStore")
        with pytest.raises(PermissionDeniedError, match="ROLE_DEPLOY_UNDEPLOY_PROXIES"):
            member.api_proxy_groups.deploy("Demo", "Roles", "test")
        assert grouper.api_proxy_groups.environments("Demo", "Roles") == []
        deployer.api_proxy_groups.deploy("Demo", "Roles", "test")
        listed = grouper.api_proxy_groups.environments("Demo", "Roles")
        assert [e.environment_name for e in listed] == ["test"]
        assert member.api_proxies.get("Demo", "PetStore").deployment("test") is not None
        deployer.api_proxy_groups.undeploy("Demo", "Roles", "test")
        grouper.api_proxy_groups.delete("Demo", "Roles")
        assert grouper.api_proxy_groups.list("Demo") == []
