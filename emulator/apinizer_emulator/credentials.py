"""Credentials and their access: state and rules.

Functions take a store connection inside the caller's transaction and raise the typed errors
below, whose messages are the product documentation's:
https://github.com/apinizer/management-api-docs/blob/main/02-api-reference/07-credentials/crud/create-credential.md

Choices where the documentation is silent (docs/resources/credential.md lists them):

* A password is stored only as a salted PBKDF2 hash (hashed by the routes, on the emulator's
  password-hashing threads, before the write); no answer and no ``/_emulator/state`` shows it.
* Usernames are unique across all projects ("unique across all credentials").
* A grant of ``API_PROXY`` refers to the proxy by its id: deleting the proxy deletes the grants
  to it (and a new proxy of the same name starts with none). A grant of ``API_PROXY_GROUP``
  needs the group to exist in the ``api_proxy_groups`` table (``project``, ``name``); while no
  such table exists, no group does, and such a grant is refused as not found. Deleting a group
  deletes the grants to it as well (a trigger on that table, made with the first group grant).
* Every write is "deployed to all environments" as it happens (the documentation says so of each),
  so none of them makes a deployed proxy's ``redeployRequired`` true.
* Revoking an access that the credential does not have is ignored ("fails silently").
"""

from __future__ import annotations

import json
import sqlite3
from typing import Any

from apinizer_pulumi.models import AccessType, CredentialAccess

from .deployments import deployed
from .errors import BadRequestError, NotFoundError

SCHEMA = """
CREATE TABLE IF NOT EXISTS credentials (
    seq INTEGER PRIMARY KEY AUTOINCREMENT,
    project TEXT NOT NULL REFERENCES projects(name) ON DELETE CASCADE,
    username TEXT NOT NULL UNIQUE,
    password_hash TEXT NOT NULL,
    body TEXT NOT NULL
);
CREATE TABLE IF NOT EXISTS credential_access (
    seq INTEGER PRIMARY KEY AUTOINCREMENT,
    credential_seq INTEGER NOT NULL REFERENCES credentials(seq) ON DELETE CASCADE,
    type TEXT NOT NULL,
    name TEXT NOT NULL,
    proxy_id TEXT REFERENCES proxies(id) ON DELETE CASCADE,
    UNIQUE (credential_seq, type, name)
);
"""
#: The family's tables, children first (the order a wipe deletes them in).
DATA_TABLES = ("credential_access", "credentials")
#: Where the proxy groups live once they exist (built beside this family).
GROUPS_TABLE = "api_proxy_groups"

#: The fields of a credential besides its username and password, as the list answers them.
FIELDS = ("email", "fullName", "description", "roleNameList", "enabled", "ipList", "expireDate")


# -- errors -----------------------------------------------------------------------------------------


class CredentialProjectError(NotFoundError):
    def __init__(self, project: str) -> None:
        super().__init__(f"Project({project}) was not found or user does not have privilege to access it!")


class CredentialNotFoundError(BadRequestError):
    def __init__(self, username: str) -> None:
        super().__init__(f"Credential (username: {username}) was not found!")


class CredentialExistsError(BadRequestError):
    def __init__(self) -> None:
        super().__init__("There is already a credential has this name!")


class CredentialFieldEmptyError(BadRequestError):
    """``Credential <what> can not be empty!`` (username, password, full name, email)."""

    def __init__(self, what: str) -> None:
        super().__init__(f"Credential {what} can not be empty!")


class AccessFieldEmptyError(BadRequestError):
    def __init__(self, what: str) -> None:
        super().__init__(f"Credential access object {what} can not be empty!")


class AccessTargetNotFoundError(BadRequestError):
    def __init__(self, access: CredentialAccess) -> None:
        super().__init__(
            f"{_label(access.type)} (name:{access.name}) is not found or user does not have "
            "privilege to access it!"
        )


class AccessExistsError(BadRequestError):
    def __init__(self, username: str, access: CredentialAccess) -> None:
        super().__init__(
            f"Credential (username:{username}) has already access to "
            f"{_label(access.type)} (name:{access.name})!"
        )


def _label(kind: AccessType) -> str:
    return "API Proxy" if kind is AccessType.API_PROXY else "API Proxy Group"


# -- credentials -----------------------------------------------------------------------------------


def require_project(db: sqlite3.Connection, project: str) -> None:
    if db.execute("SELECT 1 FROM projects WHERE name = ?", (project,)).fetchone() is None:
        raise CredentialProjectError(project)


def list_credentials(db: sqlite3.Connection, project: str) -> list[dict[str, Any]]:
    require_project(db, project)
    rows = db.execute("SELECT username, body FROM credentials WHERE project = ? ORDER BY seq", (project,))
    return [_credential_json(row) for row in rows]


def create(db: sqlite3.Connection, project: str, body: dict[str, Any], password_hash: str) -> dict[str, Any]:
    require_project(db, project)
    username = body["username"]
    if db.execute("SELECT 1 FROM credentials WHERE username = ?", (username,)).fetchone() is not None:
        raise CredentialExistsError()
    db.execute(
        "INSERT INTO credentials (project, username, password_hash, body) VALUES (?, ?, ?, ?)",
        (project, username, password_hash, json.dumps(_fields(body))),
    )
    return deployed(db, "Deployment completed successfully", "Deployed successfully")


def update(db: sqlite3.Connection, project: str, body: dict[str, Any], password_hash: str) -> dict[str, Any]:
    row = _credential(db, project, body["username"])
    db.execute(
        "UPDATE credentials SET password_hash = ?, body = ? WHERE seq = ?",
        (password_hash, json.dumps(_fields(body)), row["seq"]),
    )
    return deployed(db, "Deployment completed successfully", "Deployed successfully")


def check_exists(db: sqlite3.Connection, project: str, username: str) -> None:
    """The errors of a change of password, before the new one is hashed."""
    _credential(db, project, username)


def change_password(
    db: sqlite3.Connection, project: str, username: str, password_hash: str
) -> dict[str, Any]:
    row = _credential(db, project, username)
    db.execute("UPDATE credentials SET password_hash = ? WHERE seq = ?", (password_hash, row["seq"]))
    return deployed(db, "Deployment completed successfully", "Deployed successfully")


def delete(db: sqlite3.Connection, project: str, username: str) -> dict[str, Any]:
    """The credential and, by the documentation, every access it had."""
    row = _credential(db, project, username)
    db.execute("DELETE FROM credentials WHERE seq = ?", (row["seq"],))
    return deployed(db, "Undeployment completed successfully", "Undeployed successfully")


# -- access ----------------------------------------------------------------------------------------


def list_access(db: sqlite3.Connection, project: str, username: str) -> list[dict[str, Any]]:
    row = _credential(db, project, username)
    return _access_of(db, row["seq"], project)


def grant(
    db: sqlite3.Connection, project: str, username: str, items: list[CredentialAccess]
) -> dict[str, Any]:
    """All or nothing: every target must exist and none may be granted already."""
    row = _credential(db, project, username)
    targets = [(item, _target(db, project, item)) for item in items]
    _forget_lost_groups(db, row["seq"], project)
    seen: set[tuple[str, str]] = set()
    for item, _ in targets:
        key = (item.type.value, item.name)
        taken = db.execute(
            "SELECT 1 FROM credential_access WHERE credential_seq = ? AND type = ? AND name = ?",
            (row["seq"], *key),
        ).fetchone()
        if taken is not None or key in seen:
            raise AccessExistsError(username, item)
        seen.add(key)
    if any(item.type is AccessType.API_PROXY_GROUP for item in items):
        _follow_groups(db)
    for item, proxy_id in targets:
        db.execute(
            "INSERT INTO credential_access (credential_seq, type, name, proxy_id) VALUES (?, ?, ?, ?)",
            (row["seq"], item.type.value, item.name, proxy_id),
        )
    return deployed(db, "Deployment completed successfully", "Deployed successfully")


def revoke(
    db: sqlite3.Connection, project: str, username: str, items: list[CredentialAccess]
) -> dict[str, Any]:
    """Every target must exist; an access the credential does not have is ignored."""
    row = _credential(db, project, username)
    for item in items:
        _target(db, project, item)
    for item in items:
        db.execute(
            "DELETE FROM credential_access WHERE credential_seq = ? AND type = ? AND name = ?",
            (row["seq"], item.type.value, item.name),
        )
    return deployed(db, "Undeployment completed successfully", "Undeployed successfully")


# -- inspection ------------------------------------------------------------------------------------


def state(db: sqlite3.Connection) -> list[dict[str, Any]]:
    """Every credential with its project and access, for ``/_emulator/state``: never a password or hash."""
    out = []
    for row in db.execute("SELECT seq, project, username, body FROM credentials ORDER BY seq").fetchall():
        item = _credential_json(row)
        del item["password"]
        out.append(
            {"project": row["project"], **item, "accessList": _access_of(db, row["seq"], row["project"])}
        )
    return out


# -- helpers ---------------------------------------------------------------------------------------


def _fields(body: dict[str, Any]) -> dict[str, Any]:
    return {
        "email": body["email"],
        "fullName": body["fullName"],
        "description": body.get("description"),
        "roleNameList": list(body.get("roleNameList") or []),
        "enabled": body.get("enabled", True),
        "ipList": list(body.get("ipList") or []),
        "expireDate": body.get("expireDate"),
    }


def _credential_json(row: sqlite3.Row) -> dict[str, Any]:
    fields = json.loads(row["body"])
    return {
        "email": fields["email"],
        "fullName": fields["fullName"],
        "description": fields["description"],
        "username": row["username"],
        "password": None,
        "roleNameList": fields["roleNameList"],
        "enabled": fields["enabled"],
        "ipList": fields["ipList"],
        "expireDate": fields["expireDate"],
    }


def _credential(db: sqlite3.Connection, project: str, username: str) -> sqlite3.Row:
    require_project(db, project)
    row = db.execute(
        "SELECT seq FROM credentials WHERE project = ? AND username = ?", (project, username)
    ).fetchone()
    if row is None:
        raise CredentialNotFoundError(username)
    return row  # type: ignore[no-any-return]


def _groups_exist(db: sqlite3.Connection) -> bool:
    found = db.execute("SELECT 1 FROM sqlite_master WHERE type = 'table' AND name = ?", (GROUPS_TABLE,))
    return found.fetchone() is not None


def _group_exists(db: sqlite3.Connection, project: str, name: str) -> bool:
    if not _groups_exist(db):
        return False
    query = f"SELECT 1 FROM {GROUPS_TABLE} WHERE project = ? AND name = ?"
    return db.execute(query, (project, name)).fetchone() is not None


def _target(db: sqlite3.Connection, project: str, item: CredentialAccess) -> str | None:
    """The proxy id an access names (None for a group), or the documented "not found"."""
    if item.type is AccessType.API_PROXY:
        proxy = db.execute(
            "SELECT id FROM proxies WHERE project = ? AND name = ?", (project, item.name)
        ).fetchone()
        if proxy is None:
            raise AccessTargetNotFoundError(item)
        return str(proxy["id"])
    if not _group_exists(db, project, item.name):
        raise AccessTargetNotFoundError(item)
    return None


def _follow_groups(db: sqlite3.Connection) -> None:
    """Make deleting a group delete the grants to it, as deleting a proxy does (a trigger on the
    groups' table, made once that table exists: the groups are stored by their own module)."""
    db.execute(
        f"CREATE TRIGGER IF NOT EXISTS {GROUPS_TABLE}_credential_access AFTER DELETE ON {GROUPS_TABLE} BEGIN"
        " DELETE FROM credential_access WHERE type = 'API_PROXY_GROUP' AND name = OLD.name"
        " AND credential_seq IN (SELECT seq FROM credentials WHERE project = OLD.project); END"
    )


def _access_of(db: sqlite3.Connection, credential_seq: int, project: str) -> list[dict[str, Any]]:
    rows = db.execute(
        "SELECT type, name FROM credential_access WHERE credential_seq = ? ORDER BY seq", (credential_seq,)
    ).fetchall()
    return [
        {"name": row["name"], "type": row["type"]}
        for row in rows
        if row["type"] == AccessType.API_PROXY.value or _group_exists(db, project, row["name"])
    ]


def _forget_lost_groups(db: sqlite3.Connection, credential_seq: int, project: str) -> None:
    """Drop the grants to groups deleted since, so that a group of the same name can be granted anew."""
    rows = db.execute(
        "SELECT seq, name FROM credential_access WHERE credential_seq = ? AND type = ?",
        (credential_seq, AccessType.API_PROXY_GROUP.value),
    ).fetchall()
    for row in rows:
        if not _group_exists(db, project, row["name"]):
            db.execute("DELETE FROM credential_access WHERE seq = ?", (row["seq"],))
