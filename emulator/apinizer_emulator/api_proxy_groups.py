"""API proxy groups (members, deployment) and an RLCL's credentials and condition: state and rules.

Functions take a store connection inside the caller's transaction (writes run on the app's
writer thread, each one transaction) and raise the typed errors below, whose messages are the
product documentation's where it shows one:
https://github.com/apinizer/management-api-docs/blob/main/02-api-reference/09-api-proxy-groups/index.md
and https://github.com/apinizer/management-api-docs/blob/main/02-api-reference/12-rlcl/index.md

Choices where the documentation is silent (docs/resources/api-proxy-group.md lists them):

* A member refers to its proxy by id: **deleting a proxy removes it from every group** (as
  deleting a group removes its members, the proxies staying). A new proxy of the same name is
  no member until it is added again.
* Deploying a group deploys each member proxy to the environment (its ``deploymentList`` shows
  it, with the configuration deployed) and records the group as deployed there; undeploying
  undeploys each member and forgets the group's deployment. A member added after the deploy is
  not deployed until the group (or the proxy) is deployed again. Undeploying a group that is not
  deployed answers success (its pages document no such error).
* Deleting a group leaves its proxies' deployments as they are.
* Group writes (update, members) make no deployed proxy's ``redeployRequired`` true: no page
  says that they need a deployment.
* Listing a group's environments answers the environments it is deployed to (``deployed:
  true``): the page's notes say so twice; its example also shows a ``deployed: false`` line.
* An RLCL's credentials are usernames that must exist in the project's ``credentials`` table
  (``project``, ``username``), built beside this family; while no such table exists, no
  credential does, and every name is refused as not found.
"""

from __future__ import annotations

import json
import sqlite3
from typing import Any

from .deployments import PUBLISHED, record_deployment
from .errors import BadRequestError, NotFoundError, RlclNotFoundError
from .models import new_id

SCHEMA = """
CREATE TABLE IF NOT EXISTS api_proxy_groups (
    seq INTEGER PRIMARY KEY AUTOINCREMENT,
    id TEXT NOT NULL UNIQUE,
    project TEXT NOT NULL REFERENCES projects(name) ON DELETE CASCADE,
    name TEXT NOT NULL,
    body TEXT NOT NULL,
    UNIQUE (project, name)
);
CREATE TABLE IF NOT EXISTS api_proxy_group_members (
    seq INTEGER PRIMARY KEY AUTOINCREMENT,
    group_id TEXT NOT NULL REFERENCES api_proxy_groups(id) ON DELETE CASCADE,
    proxy_id TEXT NOT NULL REFERENCES proxies(id) ON DELETE CASCADE,
    UNIQUE (group_id, proxy_id)
);
CREATE TABLE IF NOT EXISTS api_proxy_group_deployments (
    group_id TEXT NOT NULL REFERENCES api_proxy_groups(id) ON DELETE CASCADE,
    environment TEXT NOT NULL REFERENCES environments(name) ON DELETE CASCADE,
    PRIMARY KEY (group_id, environment)
);
CREATE TABLE IF NOT EXISTS rlcl_credentials (
    seq INTEGER PRIMARY KEY AUTOINCREMENT,
    rlcl_id TEXT NOT NULL REFERENCES rlcls(id) ON DELETE CASCADE,
    username TEXT NOT NULL,
    UNIQUE (rlcl_id, username)
);
CREATE TABLE IF NOT EXISTS rlcl_conditions (
    rlcl_id TEXT PRIMARY KEY REFERENCES rlcls(id) ON DELETE CASCADE,
    body TEXT NOT NULL
);
"""
#: The family's tables, children first (the order a wipe deletes them in).
DATA_TABLES = (
    "rlcl_conditions",
    "rlcl_credentials",
    "api_proxy_group_deployments",
    "api_proxy_group_members",
    "api_proxy_groups",
)
#: Where credentials live once they exist (built beside this family).
CREDENTIALS_TABLE = "credentials"
#: The default condition that delete restores: an AND of no rules (the RLCL always applies).
DEFAULT_CONDITION: dict[str, Any] = {"conditionCriteria": "AND", "conditionRuleList": []}


# -- errors -----------------------------------------------------------------------------------------


class GroupProjectError(NotFoundError):
    """The list page's unknown project (404)."""

    def __init__(self, project: str) -> None:
        super().__init__(f"Project({project}) was not found or user does not have privilege to access it!")


class GroupNotFoundError(BadRequestError):
    def __init__(self, name: str) -> None:
        super().__init__(
            f"API Proxy Group ({name}) is not found or user does not have privilege to access it!"
        )


class GroupExistsError(BadRequestError):
    def __init__(self, name: str) -> None:
        # The create page's message, its spelling included.
        super().__init__(
            f"ApiProxyGroup: ({name}) is already created! If you want to udate it use update endpoint!"
        )


class GroupMemberProxyError(BadRequestError):
    def __init__(self, name: str) -> None:
        super().__init__(f"ApiProxy ({name}) is not found or user does not have privilege to access it!")


class GroupEnvironmentError(BadRequestError):
    def __init__(self, name: str) -> None:
        super().__init__(f"Environment ({name}) is not found or user does not have privilege to access it!")


class RlclCredentialNotFoundError(BadRequestError):
    def __init__(self, name: str) -> None:
        super().__init__(f"Credential with name ({name}) is not found in project!")


# -- groups -------------------------------------------------------------------------------------------


def require_project(db: sqlite3.Connection, project: str) -> None:
    if db.execute("SELECT 1 FROM projects WHERE name = ?", (project,)).fetchone() is None:
        raise GroupProjectError(project)


def _group(db: sqlite3.Connection, project: str, name: str) -> sqlite3.Row:
    require_project(db, project)
    row: sqlite3.Row | None = db.execute(
        "SELECT * FROM api_proxy_groups WHERE project = ? AND name = ?", (project, name)
    ).fetchone()
    if row is None:
        raise GroupNotFoundError(name)
    return row


def list_groups(db: sqlite3.Connection, project: str) -> list[dict[str, Any]]:
    """Id, name and description of each group, in the order they were made (the page's shape)."""
    require_project(db, project)
    rows = db.execute("SELECT * FROM api_proxy_groups WHERE project = ? ORDER BY seq", (project,))
    return [{"id": r["id"], "name": r["name"], "description": json.loads(r["body"]).get("description")}
            for r in rows]


def create_group(db: sqlite3.Connection, project: str, body: dict[str, Any]) -> None:
    require_project(db, project)
    name = body["name"]
    taken = "SELECT 1 FROM api_proxy_groups WHERE project = ? AND name = ?"
    if db.execute(taken, (project, name)).fetchone():
        raise GroupExistsError(name)
    db.execute("INSERT INTO api_proxy_groups (id, project, name, body) VALUES (?, ?, ?, ?)",
               (new_id(), project, name, json.dumps(body)))


def update_group(db: sqlite3.Connection, project: str, body: dict[str, Any]) -> None:
    row = _group(db, project, body["name"])
    db.execute("UPDATE api_proxy_groups SET body = ? WHERE id = ?", (json.dumps(body), row["id"]))


def delete_group(db: sqlite3.Connection, project: str, name: str) -> None:
    """The group with its members and deployment records; the proxies and their deployments stay."""
    db.execute("DELETE FROM api_proxy_groups WHERE id = ?", (_group(db, project, name)["id"],))


def _member_target(db: sqlite3.Connection, project: str, group: str, proxy: str) -> tuple[str, str]:
    group_id = str(_group(db, project, group)["id"])
    row = db.execute("SELECT id FROM proxies WHERE project = ? AND name = ?", (project, proxy)).fetchone()
    if row is None:
        raise GroupMemberProxyError(proxy)
    return group_id, str(row["id"])


def add_member(db: sqlite3.Connection, project: str, group: str, proxy: str) -> None:
    """Idempotent: a member already there stays (documented)."""
    group_id, proxy_id = _member_target(db, project, group, proxy)
    db.execute("INSERT OR IGNORE INTO api_proxy_group_members (group_id, proxy_id) VALUES (?, ?)",
               (group_id, proxy_id))


def remove_member(db: sqlite3.Connection, project: str, group: str, proxy: str) -> None:
    """Idempotent: a proxy that is no member is no error (documented); the proxy must exist."""
    group_id, proxy_id = _member_target(db, project, group, proxy)
    db.execute("DELETE FROM api_proxy_group_members WHERE group_id = ? AND proxy_id = ?",
               (group_id, proxy_id))


def _members(db: sqlite3.Connection, group_id: str) -> list[sqlite3.Row]:
    return db.execute(
        "SELECT p.id, p.name FROM api_proxy_group_members m JOIN proxies p ON p.id = m.proxy_id"
        " WHERE m.group_id = ? ORDER BY m.seq",
        (group_id,),
    ).fetchall()


def _deployment_target(db: sqlite3.Connection, project: str, group: str, environment: str) -> sqlite3.Row:
    row = _group(db, project, group)
    if db.execute("SELECT 1 FROM environments WHERE name = ?", (environment,)).fetchone() is None:
        raise GroupEnvironmentError(environment)
    return row


def deploy_group(db: sqlite3.Connection, project: str, group: str, environment: str) -> dict[str, Any]:
    """Every member deployed to the environment; the group recorded as deployed there when it went."""
    row = _deployment_target(db, project, group, environment)
    env = db.execute("SELECT status FROM environments WHERE name = ?", (environment,)).fetchone()
    if env["status"] != PUBLISHED:
        result = {"environmentName": environment, "success": False,
                  "message": f"Environment ({environment}) is not published (status {env['status']})!"}
        return {"success": False, "deploymentResult": {
            "success": False, "message": "Deployment failed", "environmentResults": [result]}}
    for member in _members(db, row["id"]):
        record_deployment(db, member["id"], environment, deployed=True)
    db.execute("INSERT OR IGNORE INTO api_proxy_group_deployments (group_id, environment) VALUES (?, ?)",
               (row["id"], environment))
    result = {"environmentName": environment, "success": True, "message": "Deployed successfully"}
    return {"success": True, "deploymentResult": {
        "success": True, "message": "Deployment completed successfully", "environmentResults": [result]}}


def undeploy_group(db: sqlite3.Connection, project: str, group: str, environment: str) -> dict[str, Any]:
    """Every member undeployed from the environment, and the group's deployment there forgotten."""
    row = _deployment_target(db, project, group, environment)
    for member in _members(db, row["id"]):
        db.execute("UPDATE deployments SET deployed = 0, fingerprint = NULL"
                   " WHERE proxy_id = ? AND environment = ?", (member["id"], environment))
    db.execute("DELETE FROM api_proxy_group_deployments WHERE group_id = ? AND environment = ?",
               (row["id"], environment))
    result = {"environmentName": environment, "success": True, "message": "Undeployed successfully"}
    return {"success": True, "deploymentResult": {
        "success": True, "message": "Undeployment completed successfully", "environmentResults": [result]}}


def group_environments(db: sqlite3.Connection, project: str, group: str) -> list[dict[str, Any]]:
    row = _group(db, project, group)
    rows = db.execute(
        "SELECT d.environment FROM api_proxy_group_deployments d"
        " JOIN environments e ON e.name = d.environment WHERE d.group_id = ? ORDER BY e.seq",
        (row["id"],),
    )
    return [{"environmentName": r["environment"], "deployed": True} for r in rows]


def group_state(db: sqlite3.Connection, project: str, group: str) -> dict[str, Any]:
    """What the API cannot show (``/_emulator`` only): the group's body, members and environments."""
    row = _group(db, project, group)
    return {
        "id": row["id"],
        "name": row["name"],
        "body": json.loads(row["body"]),
        "members": [member["name"] for member in _members(db, row["id"])],
        "environments": [item["environmentName"] for item in group_environments(db, project, group)],
    }


# -- RLCL credentials and condition -------------------------------------------------------------------


def _rlcl(db: sqlite3.Connection, project: str, name: str) -> str:
    row = db.execute("SELECT id FROM rlcls WHERE project = ? AND name = ?", (project, name)).fetchone()
    if row is None:
        raise RlclNotFoundError(name)
    return str(row["id"])


def _credential_exists(db: sqlite3.Connection, project: str, username: str) -> bool:
    table = db.execute("SELECT 1 FROM sqlite_master WHERE type = 'table' AND name = ?", (CREDENTIALS_TABLE,))
    if table.fetchone() is None:
        return False
    query = f"SELECT 1 FROM {CREDENTIALS_TABLE} WHERE project = ? AND username = ?"
    return db.execute(query, (project, username)).fetchone() is not None


def _checked_names(db: sqlite3.Connection, project: str, names: list[str]) -> list[str]:
    for name in names:
        if not _credential_exists(db, project, name):
            raise RlclCredentialNotFoundError(name)
    return list(dict.fromkeys(names))


def add_rlcl_credentials(db: sqlite3.Connection, project: str, rlcl: str, names: list[str]) -> None:
    """Added to those there; duplicates ignored (documented)."""
    rlcl_id = _rlcl(db, project, rlcl)
    for name in _checked_names(db, project, names):
        db.execute("INSERT OR IGNORE INTO rlcl_credentials (rlcl_id, username) VALUES (?, ?)",
                   (rlcl_id, name))


def replace_rlcl_credentials(db: sqlite3.Connection, project: str, rlcl: str, names: list[str]) -> None:
    rlcl_id = _rlcl(db, project, rlcl)
    checked = _checked_names(db, project, names)
    db.execute("DELETE FROM rlcl_credentials WHERE rlcl_id = ?", (rlcl_id,))
    db.executemany("INSERT INTO rlcl_credentials (rlcl_id, username) VALUES (?, ?)",
                   [(rlcl_id, name) for name in checked])


def delete_rlcl_credentials(db: sqlite3.Connection, project: str, rlcl: str, names: list[str]) -> None:
    """Only these go; names not in the RLCL are ignored (documented), existing or not."""
    rlcl_id = _rlcl(db, project, rlcl)
    db.executemany("DELETE FROM rlcl_credentials WHERE rlcl_id = ? AND username = ?",
                   [(rlcl_id, name) for name in names])


def set_rlcl_condition(db: sqlite3.Connection, project: str, rlcl: str, rules: list[dict[str, Any]]) -> None:
    """Add and update alike replace the condition (an empty rule list is the default, AND)."""
    rlcl_id = _rlcl(db, project, rlcl)
    condition = {"conditionCriteria": "AND", "conditionRuleList": rules}
    db.execute("INSERT INTO rlcl_conditions (rlcl_id, body) VALUES (?, ?)"
               " ON CONFLICT (rlcl_id) DO UPDATE SET body = excluded.body", (rlcl_id, json.dumps(condition)))


def delete_rlcl_condition(db: sqlite3.Connection, project: str, rlcl: str) -> None:
    db.execute("DELETE FROM rlcl_conditions WHERE rlcl_id = ?", (_rlcl(db, project, rlcl),))


def rlcl_lists(db: sqlite3.Connection, project: str, rlcl: str) -> dict[str, Any]:
    """What the API cannot read back (``/_emulator`` only): the RLCL's credentials and condition."""
    rlcl_id = _rlcl(db, project, rlcl)
    names = [r["username"] for r in db.execute(
        "SELECT username FROM rlcl_credentials WHERE rlcl_id = ? ORDER BY seq", (rlcl_id,))]
    row = db.execute("SELECT body FROM rlcl_conditions WHERE rlcl_id = ?", (rlcl_id,)).fetchone()
    return {"credentials": names, "condition": json.loads(row["body"]) if row else DEFAULT_CONDITION}
