"""The API proxies family: proxies themselves, their details and deployments; state and rules.

Functions take a store connection inside the caller's transaction (writes run on the app's writer
thread, each one transaction, so a create with its endpoints and deployments is all or nothing) and
raise the typed errors below. Messages are the product documentation's where it shows one:
https://github.com/apinizer/management-api-docs/blob/main/02-api-reference/04-api-proxies/crud/index.md

State beyond the ``proxies`` table: ``proxy_details`` (the proxy's description, creation type,
client route, routing and the other documented fields, as JSON) and ``deployments`` (per proxy and
environment: deployed or not, and the fingerprint of the configuration that was deployed; see
:mod:`deployments`, shared with the other families that deploy). An export carries the proxy's
policies, so this family reads and writes them through :mod:`policies`.
"""

from __future__ import annotations

import json
import sqlite3
from collections.abc import Callable
from typing import TYPE_CHECKING, Any, Literal

from pydantic import BaseModel, ConfigDict, Field

from apinizer_pulumi.models import (
    ApiProxyRequest,
    ApiProxySpecType,
    CacheSettings,
    HttpMethod,
    ImportMetadata,
    MaintenanceModeSetting,
    PolicySummary,
    WsaSettings,
)

from . import policies
from .deployments import (
    DeploymentTargetError,
    deploy_all,
    details_of,
    environment_row,
    fingerprint,
    project_exists,
    proxy_row,
    record_deployment,
    require_project,
)
from .errors import BadRequestError, NotFoundError
from .fixtures import Fixture, FixtureError
from .models import Proxy, new_id, stable_id
from .policies import ExportedPolicy

if TYPE_CHECKING:
    # The spec parsers are imported by the routes, when a spec is read, not by the store.
    from .specs import SpecEndpoint

SCHEMA = """
CREATE TABLE IF NOT EXISTS proxies (
    seq INTEGER PRIMARY KEY AUTOINCREMENT,
    id TEXT NOT NULL UNIQUE,
    project TEXT NOT NULL REFERENCES projects(name) ON DELETE CASCADE,
    name TEXT NOT NULL,
    type TEXT NOT NULL CHECK (type IN ('REST', 'SOAP')),
    sharing_type TEXT NOT NULL,
    access_list TEXT NOT NULL,
    UNIQUE (project, name)
);
CREATE TABLE IF NOT EXISTS proxy_details (
    proxy_id TEXT PRIMARY KEY REFERENCES proxies(id) ON DELETE CASCADE,
    body TEXT NOT NULL
);
CREATE TABLE IF NOT EXISTS deployments (
    proxy_id TEXT NOT NULL REFERENCES proxies(id) ON DELETE CASCADE,
    environment TEXT NOT NULL REFERENCES environments(name) ON DELETE CASCADE,
    deployed INTEGER NOT NULL,
    fingerprint TEXT,
    PRIMARY KEY (proxy_id, environment)
);
"""
#: The family's tables, children first (the order a wipe deletes them in).
DATA_TABLES = ("deployments", "proxy_details", "proxies")

#: The get page's sharingType values for the report's (the pages use two sets; see docs-disagreements).
SHARING_ON_GET = {"EXTERNAL": "PUBLIC", "BOTH": "PUBLIC", "INTERNAL": "ORGANIZATION", "NONE": "PROJECT"}


# -- errors -----------------------------------------------------------------------------------------


class ApiProxyExistsError(BadRequestError):
    def __init__(self, name: str) -> None:
        super().__init__(f"ApiProxy (name: {name}) is already exist!")


class ApiProxyGetNotFoundError(NotFoundError):
    def __init__(self, name: str) -> None:
        super().__init__(f"ApiProxy (name: {name}) was not found!")


class ApiProxyDeleteNotFoundError(BadRequestError):
    def __init__(self, name: str) -> None:
        super().__init__(f"Api Proxy ({name}) is not found!")


class ReparseNotFoundError(BadRequestError):
    def __init__(self, name: str) -> None:
        super().__init__(
            f"ApiProxy (name: {name}) can not be reparsed because it is not exist. First create it!"
        )


class NotDeployedError(BadRequestError):
    """Undeploy from an environment the proxy is not deployed to (a documented cause; our wording)."""

    def __init__(self, name: str, environment: str) -> None:
        super().__init__(f"ApiProxy with name ({name}) is not deployed to Environment({environment})!")


class CreationTypeChangeError(BadRequestError):
    def __init__(self, name: str, old: str, new: str) -> None:
        super().__init__(
            f"ApiProxy (name: {name}) was created as {old}; its type can not be changed to {new}!"
        )


class SoapToRestChangeError(BadRequestError):
    def __init__(self, name: str) -> None:
        super().__init__(
            f"ApiProxy (name: {name}) was not created with soapToRest; it can not be enabled on update!"
        )


class ClientRouteError(BadRequestError):
    def __init__(self) -> None:
        super().__init__(
            "clientRoute.relativePathList must contain at least one path, and the first can not be empty!"
        )


# -- fixture ------------------------------------------------------------------------------------------


def load_fixture(db: sqlite3.Connection, fixture: Fixture) -> None:
    """The fixture's proxies with their details (their deployments: :func:`load_deployments`)."""
    for project in fixture.projects:
        for px in project.api_proxies:
            proxy_id = stable_id(project.name, px.name)
            db.execute(
                "INSERT INTO proxies (id, project, name, type, sharing_type, access_list)"
                " VALUES (?, ?, ?, ?, ?, ?)",
                (proxy_id, project.name, px.name, px.type, px.sharing_type.value, json.dumps(px.access_list)),
            )
            details = {
                "description": px.description,
                "creationType": "WSDL" if px.type == "SOAP" else "OPEN_API",
                "clientRoute": {"relativePathList": [px.relative_path or f"/{px.name}"]},
                "routing": {},
                "soapToRest": False,
            }
            db.execute(
                "INSERT INTO proxy_details (proxy_id, body) VALUES (?, ?)", (proxy_id, json.dumps(details))
            )


def load_deployments(db: sqlite3.Connection, fixture: Fixture) -> None:
    """The fixture's deployments, once its proxies have their endpoints (a deployment's fingerprint
    covers them) and before their policies are loaded (as the fixture always recorded them)."""
    for project in fixture.projects:
        for px in project.api_proxies:
            proxy_id = stable_id(project.name, px.name)
            for name in px.deployed_to:
                if environment_row(db, name) is None:
                    raise FixtureError(f"proxy {px.name!r} is deployed to unknown environment {name!r}")
                record_deployment(db, proxy_id, name, deployed=True)


# -- reads --------------------------------------------------------------------------------------------


def list_proxies(db: sqlite3.Connection, project: str) -> list[dict[str, Any]]:
    require_project(db, project)
    rows = db.execute(
        "SELECT p.*, d.body FROM proxies p LEFT JOIN proxy_details d ON d.proxy_id = p.id"
        " WHERE p.project = ? ORDER BY p.name",
        (project,),
    ).fetchall()
    result = []
    for row in rows:
        details = details_of(row)
        paths = details.get("clientRoute", {}).get("relativePathList") or [None]
        result.append(
            {
                "name": row["name"],
                "description": details.get("description"),
                "type": row["type"],
                "relativePath": paths[0],
                "soapToRest": bool(details.get("soapToRest", False)),
            }
        )
    return result


def get_proxy(db: sqlite3.Connection, project: str, name: str) -> dict[str, Any]:
    """The get page's shape: hosts as ``virtualHostList``, sharingType in the get page's values."""
    require_project(db, project)
    row = proxy_row(db, project, name)
    if row is None:
        raise ApiProxyGetNotFoundError(name)
    details = details_of(row)
    route = details.get("clientRoute", {})
    routing = details.get("routing", {})
    current = fingerprint(db, row["id"])
    deployments = db.execute(
        "SELECT d.environment, d.deployed, d.fingerprint FROM deployments d"
        " JOIN environments e ON e.name = d.environment WHERE d.proxy_id = ? ORDER BY e.seq",
        (row["id"],),
    ).fetchall()
    return {
        "name": row["name"],
        "description": details.get("description"),
        "apiType": row["type"],
        "categoryList": details.get("categoryList", []),
        "sharingType": SHARING_ON_GET.get(row["sharing_type"], row["sharing_type"]),
        "clientRoute": {
            "relativePathList": route.get("relativePathList", []),
            "virtualHostList": route.get("virtualHostList") or route.get("hostList") or [],
        },
        "routing": {
            "routingEnabled": routing.get("routingEnabled", True),
            "routingAddressList": [
                {
                    "address": a["address"],
                    "weight": a.get("weight", 100),
                    "healthCheckEnabled": a.get("healthCheckEnabled", False),
                }
                for a in routing.get("routingAddressList", [])
            ],
        },
        "deploymentList": [
            {
                "environmentName": d["environment"],
                "deployed": bool(d["deployed"]),
                "redeployRequired": bool(d["deployed"]) and d["fingerprint"] != current,
            }
            for d in deployments
        ],
    }


def proxy_exists(db: sqlite3.Connection, project: str, name: str) -> bool:
    return proxy_row(db, project, name) is not None


# -- writes -------------------------------------------------------------------------------------------


def save_proxy(
    db: sqlite3.Connection,
    project: str,
    request: ApiProxyRequest,
    endpoints: list[SpecEndpoint] | None,
    method: str,
) -> dict[str, Any]:
    """Create or re-parse a proxy (``method`` POST or PUT), then deploy it where asked; the answer.

    ``endpoints`` is None when the spec was not read (a reverse proxy, or a PUT without reParse).
    POST creates, or re-parses an existing proxy when ``reParse`` is true; PUT only updates.
    """
    require_project(db, project)
    name = request.api_proxy_name
    row = proxy_row(db, project, name)
    if row is None and method == "PUT":
        raise ReparseNotFoundError(name)
    if row is not None and method == "POST" and not request.re_parse:
        raise ApiProxyExistsError(name)
    targets = list(dict.fromkeys(request.deploy_target_environment_name_list)) if request.deploy else []
    for environment in targets:
        if environment_row(db, environment) is None:
            raise DeploymentTargetError(name, environment)
    if row is None:
        proxy_id = _create(db, project, request, endpoints or [])
    else:
        proxy_id = row["id"]
        _update(db, row, request, endpoints)
    answer: dict[str, Any] = {"success": True}
    if request.deploy:
        answer["deploymentResult"] = deploy_all(db, proxy_id, name, targets, "Deployment successful")
        answer["success"] = answer["deploymentResult"]["success"]
    return answer


def _create(
    db: sqlite3.Connection, project: str, request: ApiProxyRequest, endpoints: list[SpecEndpoint]
) -> str:
    route = request.client_route
    paths = route.relative_path_list if route is not None else None
    if not paths or not paths[0].strip():
        raise ClientRouteError()
    kind = request.api_proxy_creation_type
    api_type = "SOAP" if kind is ApiProxySpecType.WSDL and not request.soap_to_rest else "REST"
    proxy_id = new_id()
    db.execute(
        "INSERT INTO proxies (id, project, name, type, sharing_type, access_list)"
        " VALUES (?, ?, ?, ?, 'NONE', '[]')",
        (proxy_id, project, request.api_proxy_name, api_type),
    )
    details = {
        "description": request.api_proxy_description,
        "creationType": kind.value,
        "categoryList": [],
        **_settings_of(request),
    }
    db.execute("INSERT INTO proxy_details (proxy_id, body) VALUES (?, ?)", (proxy_id, json.dumps(details)))
    _insert_endpoints(db, proxy_id, endpoints)
    return proxy_id


def _update(
    db: sqlite3.Connection, row: sqlite3.Row, request: ApiProxyRequest, endpoints: list[SpecEndpoint] | None
) -> None:
    """Documented update rules: same creation type; soapToRest only if it was set at creation; an
    empty description, a missing clientRoute or routingInfo keep what is stored. Re-parsing adds
    the spec's new endpoints and removes those it no longer has; the ones it keeps stay as they are
    (their policies and settings too)."""
    details = details_of(row)
    name = request.api_proxy_name
    old_kind, new_kind = details.get("creationType"), request.api_proxy_creation_type.value
    if old_kind != new_kind:
        raise CreationTypeChangeError(name, str(old_kind), new_kind)
    if request.soap_to_rest and not details.get("soapToRest", False):
        raise SoapToRestChangeError(name)
    settings = _settings_of(request)
    if request.client_route is None:
        settings.pop("clientRoute")
    else:
        paths = request.client_route.relative_path_list
        if not paths or not paths[0].strip():
            raise ClientRouteError()
    if request.routing_info is None:
        settings.pop("routing")
    if request.maintenance_mode_setting is None:
        settings.pop("maintenanceModeSetting")
    details.update(settings)
    if request.api_proxy_description:
        details["description"] = request.api_proxy_description
    db.execute("UPDATE proxy_details SET body = ? WHERE proxy_id = ?", (json.dumps(details), row["id"]))
    if endpoints is None:
        return
    wanted = {(e.name, e.http_method): e for e in endpoints}
    existing = {
        (r["name"], r["http_method"]): r["id"]
        for r in db.execute("SELECT id, name, http_method FROM endpoints WHERE proxy_id = ?", (row["id"],))
    }
    db.executemany(
        "DELETE FROM endpoints WHERE id = ?", [(i,) for key, i in existing.items() if key not in wanted]
    )
    _insert_endpoints(db, row["id"], [e for key, e in wanted.items() if key not in existing])


def _settings_of(request: ApiProxyRequest) -> dict[str, Any]:
    """The request's settings as stored (the API's names; the client route as sent)."""
    return {
        "clientRoute": request.client_route.to_api() if request.client_route else {},
        "routing": request.routing_info.to_api() if request.routing_info else {},
        "soapToRest": request.soap_to_rest,
        "enableWSA": request.enable_wsa,
        "enableWSRM": request.enable_wsrm,
        "backendApiVersion": request.backend_api_version,
        "maintenanceModeSetting": (
            request.maintenance_mode_setting.to_api() if request.maintenance_mode_setting else None
        ),
        "specUrl": request.spec_url,
    }


def _insert_endpoints(db: sqlite3.Connection, proxy_id: str, endpoints: list[SpecEndpoint]) -> None:
    seen: set[tuple[str, str]] = set()
    rows = []
    for e in endpoints:
        if (e.name, e.http_method) in seen:
            continue
        seen.add((e.name, e.http_method))
        rows.append(
            (
                new_id(),
                proxy_id,
                e.name,
                e.http_method,
                e.description,
                e.backend_resource_url,
                e.backend_http_method,
            )
        )
    db.executemany(
        "INSERT INTO endpoints (id, proxy_id, name, http_method, description, active, backend_resource_url,"
        " backend_http_method) VALUES (?, ?, ?, ?, ?, 1, ?, ?)",
        rows,
    )


def delete_proxy(db: sqlite3.Connection, project: str, name: str) -> dict[str, Any]:
    """Undeploys from every environment, then removes the proxy with its endpoints and policies."""
    require_project(db, project)
    row = proxy_row(db, project, name)
    if row is None:
        raise ApiProxyDeleteNotFoundError(name)
    deployed = [
        r["environment"]
        for r in db.execute(
            "SELECT d.environment FROM deployments d JOIN environments e ON e.name = d.environment"
            " WHERE d.proxy_id = ? AND d.deployed ORDER BY e.seq",
            (row["id"],),
        )
    ]
    results = [
        {"environmentName": env, "success": True, "message": "Undeployment successful"} for env in deployed
    ]
    db.execute("DELETE FROM proxies WHERE id = ?", (row["id"],))
    return {"success": True, "deploymentResult": {"success": True, "deploymentResults": results}}


def deploy(db: sqlite3.Connection, project: str, name: str, environment: str) -> dict[str, Any]:
    require_project(db, project)
    row = proxy_row(db, project, name)
    if row is None or environment_row(db, environment) is None:
        raise DeploymentTargetError(name, environment)
    result = deploy_all(db, row["id"], name, [environment], "Deployment successful")
    return {"success": result["success"], "deploymentResult": result}


def undeploy(db: sqlite3.Connection, project: str, name: str, environment: str) -> dict[str, Any]:
    require_project(db, project)
    row = proxy_row(db, project, name)
    if row is None or environment_row(db, environment) is None:
        raise DeploymentTargetError(name, environment)
    state = db.execute(
        "SELECT deployed FROM deployments WHERE proxy_id = ? AND environment = ?", (row["id"], environment)
    ).fetchone()
    if state is None or not state["deployed"]:
        raise NotDeployedError(name, environment)
    # Documented: after an undeploy, redeployRequired is false.
    db.execute(
        "UPDATE deployments SET deployed = 0, fingerprint = NULL WHERE proxy_id = ? AND environment = ?",
        (row["id"], environment),
    )
    result = {"environmentName": environment, "success": True, "message": "Undeployment successful"}
    return {"success": True, "deploymentResult": {"success": True, "deploymentResults": [result]}}


# -- export and import ------------------------------------------------------------------------------------
# https://github.com/apinizer/management-api-docs/blob/main/02-api-reference/04-api-proxies/import-export/export-api-proxy.md
# The ZIP holds one ``<name>.json``: the proxy's type, sharing, details, endpoints (with their settings and
# policies) and deployment list, without ids, so that an export imported back exports the same bytes.

EXPORT_FORMAT = 1


class ImportProjectError(NotFoundError):
    """The import and export pages' unknown project (worded apart from the CRUD pages')."""

    def __init__(self, project: str) -> None:
        super().__init__(f"Project({project}) was not found or user does not have privilege to access it!")


class ExportNotFoundError(BadRequestError):
    def __init__(self, name: str) -> None:
        super().__init__(f"ApiProxy (name: {name}) was not found!")


class ExportedEndpoint(BaseModel):
    model_config = ConfigDict(extra="forbid")

    name: str = Field(min_length=1)
    httpMethod: HttpMethod  # noqa: N815 (the export's own JSON names)
    description: str | None = None
    active: bool = True
    backendResourceUrl: str | None = None  # noqa: N815
    backendHttpMethod: HttpMethod | None = None  # noqa: N815
    cacheSettings: CacheSettings | None = None  # noqa: N815
    wsaSettings: WsaSettings | None = None  # noqa: N815
    requestPolicyList: list[PolicySummary] = Field(default_factory=list)  # noqa: N815
    responsePolicyList: list[PolicySummary] = Field(default_factory=list)  # noqa: N815
    errorPolicyList: list[PolicySummary] = Field(default_factory=list)  # noqa: N815


class ExportedProxy(BaseModel):
    """What an export ZIP's JSON file must hold to be imported."""

    model_config = ConfigDict(extra="forbid")

    formatVersion: Literal[1]  # noqa: N815
    name: str = Field(min_length=1)
    type: Literal["REST", "SOAP"]
    sharingType: str  # noqa: N815
    accessList: list[dict[str, Any]] = Field(default_factory=list)  # noqa: N815
    details: dict[str, Any]
    endpoints: list[ExportedEndpoint] = Field(default_factory=list)
    deploymentList: list[dict[str, Any]] = Field(default_factory=list)  # noqa: N815
    #: Every policy, whole, in list order; an export without it (made before policies were stored
    #: whole) brings the endpoints' policy summaries instead.
    policies: list[ExportedPolicy] | None = None


def export_proxy(db: sqlite3.Connection, project: str, name: str) -> dict[str, Any]:
    if not project_exists(db, project):
        raise ImportProjectError(project)
    row = proxy_row(db, project, name)
    if row is None:
        raise ExportNotFoundError(name)
    endpoints = []
    for e in db.execute("SELECT * FROM endpoints WHERE proxy_id = ? ORDER BY seq", (row["id"],)).fetchall():
        item: dict[str, Any] = {
            "name": e["name"],
            "httpMethod": e["http_method"],
            "description": e["description"],
            "active": bool(e["active"]),
            "backendResourceUrl": e["backend_resource_url"],
            "backendHttpMethod": e["backend_http_method"],
            "cacheSettings": json.loads(e["cache_settings"]) if e["cache_settings"] else None,
            "wsaSettings": json.loads(e["wsa_settings"]) if e["wsa_settings"] else None,
        }
        for pipeline in ("request", "response", "error"):
            item[f"{pipeline}PolicyList"] = [
                {
                    "type": p["type"],
                    "name": p["name"],
                    "description": p["description"],
                    "active": bool(p["active"]),
                }
                for p in db.execute(
                    "SELECT * FROM policies WHERE endpoint_id = ? AND pipeline = ? ORDER BY position, seq",
                    (e["id"], pipeline),
                )
            ]
        endpoints.append(item)
    deployments = [
        {"environmentName": d["environment"], "deployed": bool(d["deployed"])}
        for d in db.execute(
            "SELECT d.environment, d.deployed FROM deployments d"
            " JOIN environments e ON e.name = d.environment WHERE d.proxy_id = ? ORDER BY e.seq",
            (row["id"],),
        )
    ]
    return {
        "formatVersion": EXPORT_FORMAT,
        "name": row["name"],
        "type": row["type"],
        "sharingType": row["sharing_type"],
        "accessList": json.loads(row["access_list"]),
        "details": details_of(row),
        "endpoints": endpoints,
        "deploymentList": deployments,
        "policies": policies.export_policies(db, row["id"]),
    }


def import_proxy(db: sqlite3.Connection, project: str, exported: ExportedProxy) -> dict[str, Any]:
    """A new proxy from an export; a taken name (and a taken first relative path) gets a ``_<n>`` suffix.
    The import is not deployed."""
    if not project_exists(db, project):
        raise ImportProjectError(project)
    taken = {r["name"] for r in db.execute("SELECT name FROM proxies WHERE project = ?", (project,))}
    name = _free(exported.name, taken)
    details = dict(exported.details)
    route = dict(details.get("clientRoute") or {})
    paths = list(route.get("relativePathList") or [])
    if paths:
        used: set[str] = set()
        for r in db.execute(
            "SELECT d.body FROM proxies p JOIN proxy_details d ON d.proxy_id = p.id WHERE p.project = ?",
            (project,),
        ):
            used.update((json.loads(r["body"]).get("clientRoute") or {}).get("relativePathList") or [])
        paths[0] = _free(paths[0], used)
        details["clientRoute"] = {**route, "relativePathList": paths}
    proxy_id = _insert_exported_proxy(db, project, name, exported, details)
    _insert_exported_endpoints(db, proxy_id, exported)
    return {"status": "SUCCESS"}


def override_proxy(
    db: sqlite3.Connection, project: str, name: str, exported: ExportedProxy, metadata: ImportMetadata
) -> dict[str, Any]:
    """The proxy ``name`` becomes the export's content (created when missing; its deployments kept,
    so a deployed proxy then needs a redeploy), then the metadata's routing, maintenance mode and
    deployment are applied."""
    if not project_exists(db, project):
        raise ImportProjectError(project)
    targets = (
        list(dict.fromkeys(metadata.deploy_target_environment_name_list or [])) if metadata.deploy else []
    )
    for environment in targets:
        if environment_row(db, environment) is None:
            raise DeploymentTargetError(name, environment)
    details = dict(exported.details)
    if metadata.routing is not None:
        routing = dict(details.get("routing") or {})
        if metadata.routing.algorithm is not None:
            routing["loadBalanceAlgorithm"] = metadata.routing.algorithm.value
        if metadata.routing.address_list is not None:
            routing["routingAddressList"] = [
                {"address": a.address, "weight": a.weight if a.weight is not None else 1}
                | ({"soapType": a.soap_type.value} if a.soap_type else {})
                for a in metadata.routing.address_list
            ]
        details["routing"] = routing
    if metadata.maintenance_mode is not None:
        setting = details.get("maintenanceModeSetting") or MaintenanceModeSetting().to_api()
        details["maintenanceModeSetting"] = {**setting, "enabled": metadata.maintenance_mode}
    row = proxy_row(db, project, name)
    if row is None:
        proxy_id = _insert_exported_proxy(db, project, name, exported, details)
    else:
        proxy_id = row["id"]
        db.execute(
            "UPDATE proxies SET type = ?, sharing_type = ?, access_list = ? WHERE id = ?",
            (exported.type, exported.sharingType, json.dumps(exported.accessList), proxy_id),
        )
        db.execute(
            "INSERT INTO proxy_details (proxy_id, body) VALUES (?, ?)"
            " ON CONFLICT (proxy_id) DO UPDATE SET body = excluded.body",
            (proxy_id, json.dumps(details)),
        )
        db.execute("DELETE FROM endpoints WHERE proxy_id = ?", (proxy_id,))
        db.execute("DELETE FROM policies WHERE proxy_id = ?", (proxy_id,))
    _insert_exported_endpoints(db, proxy_id, exported)
    answer: dict[str, Any] = {"status": "SUCCESS"}
    if metadata.deploy:
        # The shape this page documents: ``message`` and ``environmentResults``.
        result = deploy_all(db, proxy_id, name, targets, "Deployed successfully")
        answer["deploymentResult"] = {
            "success": result["success"],
            "message": "Deployment completed successfully" if result["success"] else "Deployment failed",
            "environmentResults": result["deploymentResults"],
        }
        if not result["success"]:
            answer["status"] = "FAILURE"
    return answer


def _insert_exported_proxy(
    db: sqlite3.Connection, project: str, name: str, exported: ExportedProxy, details: dict[str, Any]
) -> str:
    proxy_id = new_id()
    db.execute(
        "INSERT INTO proxies (id, project, name, type, sharing_type, access_list) VALUES (?, ?, ?, ?, ?, ?)",
        (proxy_id, project, name, exported.type, exported.sharingType, json.dumps(exported.accessList)),
    )
    db.execute("INSERT INTO proxy_details (proxy_id, body) VALUES (?, ?)", (proxy_id, json.dumps(details)))
    return proxy_id


def _insert_exported_endpoints(db: sqlite3.Connection, proxy_id: str, exported: ExportedProxy) -> None:
    seen: set[tuple[str, str]] = set()
    for e in exported.endpoints:
        if (e.name, e.httpMethod.value) in seen:
            continue
        seen.add((e.name, e.httpMethod.value))
        endpoint_id = new_id()
        db.execute(
            "INSERT INTO endpoints (id, proxy_id, name, http_method, description, active,"
            " backend_resource_url, backend_http_method, cache_settings, wsa_settings)"
            " VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?)",
            (
                endpoint_id,
                proxy_id,
                e.name,
                e.httpMethod.value,
                e.description,
                int(e.active),
                e.backendResourceUrl,
                e.backendHttpMethod.value if e.backendHttpMethod else None,
                json.dumps(e.cacheSettings.to_api()) if e.cacheSettings else None,
                json.dumps(e.wsaSettings.to_api()) if e.wsaSettings else None,
            ),
        )
        if exported.policies is not None:
            continue
        for pipeline, policy_list in (
            ("request", e.requestPolicyList),
            ("response", e.responsePolicyList),
            ("error", e.errorPolicyList),
        ):
            for p in policy_list:
                policies.insert_summary(
                    db, proxy_id, endpoint_id, pipeline, p.type, p.name, p.description, p.active
                )
    if exported.policies is not None:
        policies.import_policies(db, proxy_id, exported.policies)


def _free(value: str, taken: set[str]) -> str:
    if value not in taken:
        return value
    n = 1
    while f"{value}_{n}" in taken:
        n += 1
    return f"{value}_{n}"


# -- settings -----------------------------------------------------------------------------------------------
# https://github.com/apinizer/management-api-docs/blob/main/02-api-reference/04-api-proxies/settings/index.md
# Each changes the proxy's stored configuration, so a deployed proxy then needs a redeploy.


class ClientRouteSettingsError(BadRequestError):
    def __init__(self, detail: str | None = None) -> None:
        text = "Client route must have at least one valid route configuration"
        super().__init__(f"{text}: {detail}" if detail else text)


def _settings_target(db: sqlite3.Connection, project: str, name: str) -> tuple[sqlite3.Row, dict[str, Any]]:
    require_project(db, project)
    row = proxy_row(db, project, name)
    if row is None:
        raise ApiProxyGetNotFoundError(name)
    return row, details_of(row)


def _store_details(db: sqlite3.Connection, proxy_id: str, details: dict[str, Any]) -> None:
    db.execute(
        "INSERT INTO proxy_details (proxy_id, body) VALUES (?, ?)"
        " ON CONFLICT (proxy_id) DO UPDATE SET body = excluded.body",
        (proxy_id, json.dumps(details)),
    )


def set_routing_addresses(
    db: sqlite3.Connection, project: str, name: str, addresses: list[dict[str, Any]]
) -> None:
    """The addresses, whole; a SOAP proxy's address without ``soapType`` is SOAP11 (the page's default)."""
    row, details = _settings_target(db, project, name)
    if row["type"] == "SOAP":
        addresses = [{"soapType": "SOAP11", **a} for a in addresses]
    details["routing"] = {**(details.get("routing") or {}), "routingAddressList": addresses}
    _store_details(db, row["id"], details)


def set_routing_status(db: sqlite3.Connection, project: str, name: str, status: dict[str, Any]) -> None:
    row, details = _settings_target(db, project, name)
    details["routing"] = {**(details.get("routing") or {}), **status}
    _store_details(db, row["id"], details)


def set_client_route(db: sqlite3.Connection, project: str, name: str, route: dict[str, Any]) -> None:
    """The page's rules: one of the four lists not empty; every relative path 2 characters or more."""
    if not any(route.get(key) for key in ("relativePathList", "methodList", "hostList", "headerList")):
        raise ClientRouteSettingsError()
    short = [p for p in route.get("relativePathList") or [] if len(p) < 2]
    if short:
        raise ClientRouteSettingsError(f"relative paths must be at least 2 characters long ({short[0]!r})")
    row, details = _settings_target(db, project, name)
    details["clientRoute"] = route
    _store_details(db, row["id"], details)


def update_metadata(db: sqlite3.Connection, project: str, name: str, changes: dict[str, Any]) -> None:
    """Rename (unique in the project), describe, categorize, share; only the fields given change."""
    if not changes:
        raise BadRequestError(
            "At least one of name, description, categoryList and sharingType must be provided!"
        )
    row, details = _settings_target(db, project, name)
    new_name = changes.get("name")
    if new_name is not None and new_name != name:
        if proxy_row(db, project, new_name) is not None:
            raise ApiProxyExistsError(new_name)
        db.execute("UPDATE proxies SET name = ? WHERE id = ?", (new_name, row["id"]))
    if "sharingType" in changes:
        db.execute("UPDATE proxies SET sharing_type = ? WHERE id = ?", (changes["sharingType"], row["id"]))
    if "description" in changes:
        details["description"] = changes["description"]
    if "categoryList" in changes:
        details["categoryList"] = changes["categoryList"]
    _store_details(db, row["id"], details)


def set_cors(db: sqlite3.Connection, project: str, name: str, cors: dict[str, Any]) -> None:
    row, details = _settings_target(db, project, name)
    details["cors"] = cors
    _store_details(db, row["id"], details)


def store_setting(
    db: sqlite3.Connection,
    project: str,
    name: str,
    key: str,
    values: Any,
    merge: bool,
    check: Callable[[sqlite3.Connection, Any], None] | None,
) -> None:
    """One settings page's values under ``details[key]``: merged into what is stored (the pages that
    change "only the fields given") or replacing it; ``check`` sees the result before it is stored."""
    row, details = _settings_target(db, project, name)
    stored = details.get(key)
    result = (
        {**stored, **values} if merge and isinstance(stored, dict) and isinstance(values, dict) else values
    )
    if check is not None:
        check(db, result)
    details[key] = result
    _store_details(db, row["id"], details)


def check_traffic_log(db: sqlite3.Connection, settings: dict[str, Any]) -> None:
    for item in settings.get("apiProxyTrafficLogSettingsList") or []:
        environment = item.get("environmentName")
        if not environment or not str(environment).strip():
            raise BadRequestError("environmentName value can not be empty in traffic log settings!")
        if environment_row(db, environment) is None:
            raise BadRequestError(f"Environment ({environment}) in traffic log settings is not found!")


# -- inspection -------------------------------------------------------------------------------------------


def state(db: sqlite3.Connection, project: str) -> list[dict[str, Any]]:
    """The project's proxies for ``/_emulator/state`` (their endpoints and policies are their families')."""
    return [
        {
            "id": proxy.id,
            "name": proxy.name,
            "type": proxy.type,
            "sharingType": proxy.sharing_type,
            "accessList": proxy.access_list,
        }
        for proxy in map(
            Proxy.from_row,
            db.execute("SELECT * FROM proxies WHERE project = ? ORDER BY seq", (project,)).fetchall(),
        )
    ]
