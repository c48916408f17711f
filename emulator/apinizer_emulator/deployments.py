"""What several families read and write of a project, an API proxy and its deployments.

API proxies, their policies and API proxy groups all deploy; IP groups and policies need a proxy's
project or row. They share these public functions rather than reach into each other's modules.
Functions take a store connection inside the caller's transaction.

A deployment records, per proxy and environment, the fingerprint of the configuration deployed: a
digest of the proxy's details, its endpoints with their settings, and its policies. A deployed
proxy whose configuration no longer has that fingerprint answers ``redeployRequired: true``,
however the change was made.
"""

from __future__ import annotations

import hashlib
import json
import sqlite3
from collections.abc import Iterable, Iterator
from typing import Any

from .errors import BadRequestError, NotFoundError

#: What the gateway is said to need for a deployment to go through.
PUBLISHED = "PUBLISHED"
#: A proxy's policies (``p``, joined to their endpoints as ``e``) list by list: the proxy's own,
#: then each endpoint's in the proxy's order; request, response, error; each in its order.
IN_LIST_ORDER = (
    " ORDER BY p.endpoint_id IS NOT NULL, e.seq,"
    " CASE p.pipeline WHEN 'request' THEN 0 WHEN 'response' THEN 1 ELSE 2 END, p.position"
)


class ProjectAccessError(NotFoundError):
    """The API proxy pages' unknown project."""

    def __init__(self, project: str) -> None:
        super().__init__(f"Project ({project}) is not found or user does not have privilege to access it!")


class DeploymentTargetError(BadRequestError):
    """An unknown proxy or environment in deploy and undeploy (the one message both pages show)."""

    def __init__(self, name: str, environment: str) -> None:
        super().__init__(
            f"ApiProxy with name ({name}) can not be deployed to Environment({environment})"
            " because it is not exist!"
        )


def project_exists(db: sqlite3.Connection, project: str) -> bool:
    return db.execute("SELECT 1 FROM projects WHERE name = ?", (project,)).fetchone() is not None


def require_project(db: sqlite3.Connection, project: str) -> None:
    if not project_exists(db, project):
        raise ProjectAccessError(project)


def proxy_row(db: sqlite3.Connection, project: str, name: str) -> sqlite3.Row | None:
    """The proxy's row with its details (``body``), or None."""
    row: sqlite3.Row | None = db.execute(
        "SELECT p.*, d.body FROM proxies p LEFT JOIN proxy_details d ON d.proxy_id = p.id"
        " WHERE p.project = ? AND p.name = ?",
        (project, name),
    ).fetchone()
    return row


def details_of(row: sqlite3.Row) -> dict[str, Any]:
    """A proxy's stored details; a proxy made before they were kept gets the fixture's defaults."""
    if row["body"] is not None:
        details: dict[str, Any] = json.loads(row["body"])
        return details
    return {
        "description": None,
        "creationType": "WSDL" if row["type"] == "SOAP" else "OPEN_API",
        "clientRoute": {"relativePathList": [f"/{row['name']}"]},
        "routing": {},
    }


def environment_row(db: sqlite3.Connection, name: str) -> sqlite3.Row | None:
    row: sqlite3.Row | None = db.execute("SELECT * FROM environments WHERE name = ?", (name,)).fetchone()
    return row


def deploy_all(
    db: sqlite3.Connection, proxy_id: str, name: str, environments: list[str], message: str
) -> dict[str, Any]:
    """Deploy to each environment; one that is not published fails alone, recorded nowhere."""
    results = []
    for target in environments:
        env = environment_row(db, target)
        assert env is not None
        if env["status"] != PUBLISHED:
            results.append(
                {
                    "environmentName": target,
                    "success": False,
                    "message": f"Environment ({target}) is not published (status {env['status']})!",
                }
            )
            continue
        record_deployment(db, proxy_id, target, deployed=True)
        results.append({"environmentName": target, "success": True, "message": message})
    return {"success": all(r["success"] for r in results), "deploymentResults": results}


def record_deployment(db: sqlite3.Connection, proxy_id: str, environment: str, *, deployed: bool) -> None:
    db.execute(
        "INSERT INTO deployments (proxy_id, environment, deployed, fingerprint) VALUES (?, ?, ?, ?)"
        " ON CONFLICT (proxy_id, environment) DO UPDATE SET deployed = excluded.deployed,"
        " fingerprint = excluded.fingerprint",
        (proxy_id, environment, int(deployed), fingerprint(db, proxy_id) if deployed else None),
    )


def fingerprint(db: sqlite3.Connection, proxy_id: str) -> str:
    """A digest of everything a deployment carries: the details, the endpoints with their
    settings, and their policies."""
    digest = hashlib.sha256()
    row = db.execute("SELECT body FROM proxy_details WHERE proxy_id = ?", (proxy_id,)).fetchone()
    digest.update((row["body"] if row else "").encode())
    for r in db.execute(
        "SELECT id, name, http_method, description, active, backend_resource_url, backend_http_method,"
        " cache_settings, wsa_settings FROM endpoints WHERE proxy_id = ? ORDER BY name, http_method",
        (proxy_id,),
    ):
        digest.update(json.dumps(list(r)).encode())
    for item in _policy_items(db, proxy_id):
        digest.update(item)
    return digest.hexdigest()


def _policy_items(db: sqlite3.Connection, proxy_id: str) -> Iterator[bytes]:
    """What a deployment carries of the proxy's policies, list by list, in order.

    A policy known by its summary alone hashes as it did before policies were stored whole, so
    a database file from then keeps its deployments' fingerprints.
    """
    for r in db.execute(
        "SELECT p.endpoint_id, p.pipeline, p.type, p.name, p.description, p.active, p.body"
        " FROM policies p LEFT JOIN endpoints e ON e.id = p.endpoint_id WHERE p.proxy_id = ?" + IN_LIST_ORDER,
        (proxy_id,),
    ):
        item = list(r)
        if r["endpoint_id"] is not None and r["body"] is None:
            item.pop()
        yield json.dumps(item).encode()


def deployed(db: sqlite3.Connection, message: str, each: str) -> dict[str, Any]:
    """The documented answer: the change reached every environment."""
    results = [
        {"environmentName": row["name"], "success": True, "message": each}
        for row in db.execute("SELECT name FROM environments ORDER BY seq")
    ]
    return {
        "success": True,
        "deploymentResult": {"success": True, "message": message, "environmentResults": results},
    }


def all_environments(db: sqlite3.Connection) -> list[str]:
    """Every environment's name, in their order."""
    return [row["name"] for row in db.execute("SELECT name FROM environments ORDER BY seq")]


def deployment(
    db: sqlite3.Connection, environments: Iterable[str], *, undeploy: bool = False
) -> dict[str, Any]:
    """The answer of the pages whose write deploys to environments (environment variables, the keys
    and secrets): deployed to (or undeployed from) each of ``environments``. As for a proxy, an
    environment that is not published fails alone (the object's write stands)."""
    verb = "Undeploy" if undeploy else "Deploy"
    results = []
    for name in environments:
        row = db.execute("SELECT status FROM environments WHERE name = ?", (name,)).fetchone()
        if row is None:  # gone since the object named it: nothing to deploy there
            continue
        if row["status"] == PUBLISHED:
            results.append({"environmentName": name, "success": True, "message": f"{verb}ed successfully"})
        else:
            results.append({
                "environmentName": name, "success": False,
                "message": f"Environment ({name}) is not published (status {row['status']})!",
            })
    succeeded = all(result["success"] for result in results)
    return {
        "success": True,
        "deploymentResult": {
            "success": succeeded,
            "message": f"{verb}ment completed successfully" if succeeded else f"{verb}ment failed",
            "environmentResults": results,
        },
    }
