"""Who may call the API proxy family's routes: every route under every default fixture user and a
bad token, and a user with ROLE_MANAGE_PROXIES and ROLE_DEPLOY_UNDEPLOY_PROXIES but no ROLE_ADMIN
(a fixture of this module's own). A refused request changes nothing.

Expected, from the product's pages: projects and a project's environments need a valid token;
the list of every environment is for administrators (others: 401 ``Invalid token or insufficient
permissions``); every proxy operation needs ROLE_MANAGE_PROXIES (named by the list page; the
emulator asks it of all, as of the endpoint operations); delete, deploy and undeploy, and a create
or update with ``deploy: true``, also need ROLE_DEPLOY_UNDEPLOY_PROXIES. A missing role is 403.
"""

from __future__ import annotations

import json
from collections.abc import Iterator
from dataclasses import dataclass
from pathlib import Path
from typing import Any

import httpx
import pytest

import _emulator_http as emulator_http
from apinizer_emulator import api_proxy_routes, project_routes, report_routes
from apinizer_emulator.fixtures import FixtureError
from apinizer_emulator.testing import EmulatorServer
from apinizer_pulumi.client import ApinizerClient, DeploymentFailedError, PermissionDeniedError

from .conftest import assert_error

PROXIES = "/apiops/projects/Demo/apiProxies/"
USERS = ("admin", "developer", "analyst", "guest")
PRINCIPALS = (*USERS, "bad token")
MANAGERS = {"admin", "developer"}
REVERSE = {
    "apiProxyName": "Authz",
    "apiProxyCreationType": "REVERSE_PROXY",
    "clientRoute": {"relativePathList": ["/authz"]},
}
SETTINGS_ONLY = {
    "apiProxyName": "PetStore",
    "apiProxyCreationType": "OPEN_API",
    "reParse": False,
    "apiProxyDescription": "authz",
}


@dataclass(frozen=True)
class Route:
    method: str
    template: str
    path: str
    #: "token", "report" (system administrator or analyzer), "admin", "proxies" or "deploys"
    guard: str
    json: dict[str, Any] | None = None
    metadata: dict[str, Any] | None = None
    #: Send Orders' export as ``apiProxyExportFile``.
    export: bool = False


_SETTINGS = {
    "keys/": {"publicKey": "pk-authz"},
    "cache/": {"name": "authz", "handlingAction": "STOP"},
    "circuit-breaker/": {"circuitBreakerEnabled": False},
    "connection/": {"retryCount": 1},
    "forwarded-ip-header/": {"forwardedIpHeaderParamActive": True},
    "json-error-template/": {"contentType": "application/json"},
    "xml-error-template/": {"contentType": "text/xml"},
    "mtls/": {"enabled": False},
    "ntlm/": {"enabled": False},
    "proxy-server/": {"proxyEnabled": False},
    "traffic-log/": {"enabledTraceLog": True},
}

ROUTES = (
    *(
        Route(
            "PATCH",
            api_proxy_routes.SETTINGS + suffix,
            f"{PROXIES}PetStore/settings/{suffix}",
            "proxies",
            json=body,
        )
        for suffix, body in _SETTINGS.items()
    ),
    Route(
        "PATCH",
        api_proxy_routes.SETTINGS + "hide-spec-file/{hideSpecFile}/",
        PROXIES + "PetStore/settings/hide-spec-file/true/",
        "proxies",
    ),
    Route("GET", project_routes.PROJECTS, "/apiops/projects/", "token"),
    Route(
        "GET", report_routes.API_PROXIES_REPORT, "/apiops/reports/api-proxies?includeEndpoints=true", "report"
    ),
    Route("GET", project_routes.ENVIRONMENTS, "/apiops/environments/", "admin"),
    Route("GET", project_routes.PROJECT_ENVIRONMENTS, "/apiops/environments/Demo", "token"),
    Route("GET", api_proxy_routes.PROXIES, PROXIES, "proxies"),
    Route("POST", api_proxy_routes.PROXIES_URL, PROXIES + "url/", "proxies", json=REVERSE),
    Route("PUT", api_proxy_routes.PROXIES_URL, PROXIES + "url/", "proxies", json=SETTINGS_ONLY),
    Route("POST", api_proxy_routes.PROXIES_FILE, PROXIES + "file/", "proxies", metadata=REVERSE),
    Route("PUT", api_proxy_routes.PROXIES_FILE, PROXIES + "file/", "proxies", metadata=SETTINGS_ONLY),
    Route("GET", api_proxy_routes.PROXY, PROXIES + "PetStore/", "proxies"),
    Route("DELETE", api_proxy_routes.PROXY, PROXIES + "PetStore/", "deploys"),
    Route("POST", api_proxy_routes.DEPLOYMENT, PROXIES + "PetStore/environments/test/", "deploys"),
    Route("DELETE", api_proxy_routes.DEPLOYMENT, PROXIES + "PetStore/environments/test/", "deploys"),
    Route("GET", api_proxy_routes.EXPORT, PROXIES + "Orders/export/", "proxies"),
    Route(
        "PATCH",
        api_proxy_routes.SETTINGS + "addresses/",
        PROXIES + "PetStore/settings/addresses/",
        "proxies",
        json={"routingAddressList": [{"address": "https://b.example"}]},
    ),
    Route(
        "PATCH",
        api_proxy_routes.SETTINGS + "routing-status/",
        PROXIES + "PetStore/settings/routing-status/",
        "proxies",
        json={"routingEnabled": False},
    ),
    Route(
        "PATCH",
        api_proxy_routes.SETTINGS + "client-route/",
        PROXIES + "PetStore/settings/client-route/",
        "proxies",
        json={"relativePathList": ["/authz"]},
    ),
    Route(
        "PATCH",
        api_proxy_routes.SETTINGS + "metadata/",
        PROXIES + "PetStore/settings/metadata/",
        "proxies",
        json={"description": "authz"},
    ),
    Route(
        "PATCH",
        api_proxy_routes.SETTINGS + "cors/",
        PROXIES + "PetStore/settings/cors/",
        "proxies",
        json={"name": "cors", "corsActive": True},
    ),
    Route("POST", api_proxy_routes.IMPORT, PROXIES + "import/", "proxies", export=True),
    Route(
        "PUT",
        api_proxy_routes.OVERRIDE,
        PROXIES + "PetStore/import/",
        "proxies",
        metadata={"deploy": False},
        export=True,
    ),
)


def test_the_matrix_covers_every_route_of_the_family() -> None:
    # API proxies with their projects, environments and report (each family has its routes module).
    family = [*api_proxy_routes.ROUTES, *project_routes.ROUTES, *report_routes.API_PROXY_ROUTES]
    assert {(r.method, r.template) for r in ROUTES} == {(m, p) for m, p, *_ in family}


def _expected(route: Route, principal: str) -> tuple[int, str | None, str | None]:
    if principal not in USERS:
        return 401, "unauthorized_client", "Invalid token"
    if route.guard == "token":
        return 200, None, None
    if route.guard == "report":
        return (
            (200, None, None)
            if principal in ("admin", "analyst")
            else (401, "unauthorized_client", "Unauthorized API Access!")
        )
    if route.guard == "admin":
        return (
            (200, None, None)
            if principal == "admin"
            else (401, "unauthorized_client", "Invalid token or insufficient permissions")
        )
    allowed = {"admin"} if route.guard == "deploys" else MANAGERS
    return (200, None, None) if principal in allowed else (403, "forbidden", None)


def _snapshot(http: httpx.Client) -> Any:
    admin = {"Authorization": "Bearer dev-admin-token"}
    proxies = http.get(PROXIES, headers=admin).json()
    pet = http.get(PROXIES + "PetStore/", headers=admin).json()
    return proxies, pet


def _send(http: httpx.Client, route: Route, headers: dict[str, str]) -> httpx.Response:
    if route.metadata is not None or route.export:
        files: dict[str, Any] = {}
        if route.metadata is not None:
            files["metadata"] = (None, json.dumps(route.metadata), "application/json")
        if route.export:
            admin = {"Authorization": "Bearer dev-admin-token"}
            exported = http.get(PROXIES + "Orders/export/", headers=admin)
            exported.raise_for_status()
            files["apiProxyExportFile"] = ("apiProxyExportFile.zip", exported.content, "application/zip")
        return http.request(route.method, route.path, files=files, headers=headers)
    return http.request(route.method, route.path, json=route.json, headers=headers)


@pytest.mark.parametrize("principal", PRINCIPALS)
@pytest.mark.parametrize("route", ROUTES, ids=[f"{r.method} {r.path}" for r in ROUTES])
def test_route_answers_each_principal(route: Route, principal: str, http: httpx.Client) -> None:
    if route.method == "DELETE" and route.template == api_proxy_routes.DEPLOYMENT:
        http.post(route.path, headers={"Authorization": "Bearer dev-admin-token"}).raise_for_status()
    token = "not-a-token" if principal == "bad token" else f"dev-{principal}-token"
    headers = {"Authorization": f"Bearer {token}"}
    status, error, description = _expected(route, principal)
    before = _snapshot(http)
    response = _send(http, route, headers)
    if status != 200:
        assert_error(response, status, error or "", description)
        assert _snapshot(http) == before, "a refused request changed the gateway"
    else:
        assert response.status_code == 200, response.text


def test_create_with_deploy_needs_the_deploy_role(dev_api: Any, http: httpx.Client) -> None:
    body = {**REVERSE, "deploy": True, "deployTargetEnvironmentNameList": ["test"]}
    before = _snapshot(http)
    response = dev_api.request("POST", PROXIES + "url/", body)
    assert_error(
        response,
        403,
        "forbidden",
        "Access is denied! The user of this token lacks ROLE_DEPLOY_UNDEPLOY_PROXIES.",
    )
    assert _snapshot(http) == before


# -- a deployer without ROLE_ADMIN, and an environment that is not published ----------------------------

FIXTURE = """
users:
  - {username: deployer, password: deployer, roles: [ROLE_MANAGE_PROXIES, ROLE_DEPLOY_UNDEPLOY_PROXIES]}
  - {username: developer, password: developer, roles: [ROLE_MANAGE_PROXIES]}
tokens:
  - {value: deployer-token, user: deployer, name: deployer}
  - {value: developer-token, user: developer, name: developer}
environments:
  - {name: test, type: TEST}
  - {name: staging, type: SANDBOX, status: UNPUBLISHED}
projects:
  - name: Demo
    api_proxies:
      - name: PetStore
        deployed_to: [test]
"""


@pytest.fixture(scope="module")
def deployers(tmp_path_factory: pytest.TempPathFactory) -> Iterator[EmulatorServer]:
    fixture = tmp_path_factory.mktemp("deployers") / "fixture.yaml"
    fixture.write_text(FIXTURE)
    with EmulatorServer(fixtures=fixture) as server:
        yield server


def test_both_roles_without_admin_may_deploy_undeploy_and_delete(deployers: EmulatorServer) -> None:
    with ApinizerClient(deployers.base_url, token="deployer-token") as client:
        proxy = client.api_proxies.get("Demo", "PetStore")
        assert [(d.environment_name, d.deployed) for d in proxy.deployment_list] == [("test", True)]
        client.api_proxies.undeploy("Demo", "PetStore", "test")
        client.api_proxies.deploy("Demo", "PetStore", "test")
        removed = client.api_proxies.delete("Demo", "PetStore")
        assert removed.deployment_result is not None
        assert [r.environment_name for r in removed.deployment_result.per_environment()] == ["test"]
        assert client.api_proxies.list("Demo") == []


def test_manage_alone_may_not_deploy(deployers: EmulatorServer) -> None:
    with ApinizerClient(deployers.base_url, token="developer-token") as client:
        client.api_proxies.create_from_url("Demo", {**REVERSE, "apiProxyName": "Mine"})
        with pytest.raises(PermissionDeniedError, match="ROLE_DEPLOY_UNDEPLOY_PROXIES"):
            client.api_proxies.deploy("Demo", "Mine", "test")
        assert client.api_proxies.get("Demo", "Mine").deployment_list == []


def test_a_deployment_to_an_unpublished_environment_fails_naming_it(deployers: EmulatorServer) -> None:
    with ApinizerClient(deployers.base_url, token="deployer-token") as client:
        client.api_proxies.create_from_url("Demo", {**REVERSE, "apiProxyName": "Staged"})
        with pytest.raises(DeploymentFailedError) as caught:
            client.api_proxies.deploy("Demo", "Staged", "staging")
        assert caught.value.failures == [
            ("staging", "Environment (staging) is not published (status UNPUBLISHED)!")
        ]
        assert str(caught.value).endswith(
            "deployment failed in staging: Environment (staging) is not published (status UNPUBLISHED)!"
        )
        assert client.api_proxies.get("Demo", "Staged").deployment("staging") is None
    raw = emulator_http.post(
        f"{deployers.base_url}{PROXIES}Staged/environments/staging/",
        headers={"Authorization": "Bearer deployer-token"},
    )
    assert raw.status_code == 200
    assert raw.json() == {
        "success": False,
        "deploymentResult": {
            "success": False,
            "deploymentResults": [
                {
                    "environmentName": "staging",
                    "success": False,
                    "message": "Environment (staging) is not published (status UNPUBLISHED)!",
                }
            ],
        },
    }


def test_a_fixture_proxy_deployed_to_an_unknown_environment_is_refused(tmp_path: Path) -> None:
    fixture = tmp_path / "bad.yaml"
    fixture.write_text(
        "projects:\n  - name: P\n    api_proxies:\n      - {name: A, deployed_to: [nowhere]}\n"
    )
    with pytest.raises(FixtureError, match="unknown environment 'nowhere'"):
        EmulatorServer(fixtures=fixture).start()
