"""Connections of every type: state and rules.

Functions take a store connection inside the caller's transaction and raise the typed errors
below, whose messages are the product documentation's where it shows one:
https://github.com/apinizer/management-api-docs/blob/main/02-api-reference/06-connections/index.md

A connection is stored whole as its type's model writes it (defaults filled, unknown fields left
out, as the emulator's readers do for policies), secrets as written: get answers them in full, as
its page says; list answers them ``null``; ``/_emulator/state`` masks them as the list does. Names
are unique within a project without regard to case ("Connection names are case-insensitive").

Choices where the pages are silent (docs/emulator.md lists them): a body whose name differs from
the path's (other than in case) on create, a change of type on update, and a missing or unknown
``type`` on list are 400s in the emulator's own words; an unknown project is the pages' 404
``Project '<name>' not found``. No documented policy field names a connection (the policy pages
name none), so a delete has nothing to check and touches nothing else.
"""

from __future__ import annotations

import json
import sqlite3
from typing import Any

from apinizer_pulumi.models import CONNECTION_TYPES, ConnectionBase
from apinizer_pulumi.models._connection_registry import masked_connection

from .errors import BadRequestError, NotFoundError
from .rules import extra_fields

SCHEMA = """
CREATE TABLE IF NOT EXISTS connections (
    seq INTEGER PRIMARY KEY AUTOINCREMENT,
    project TEXT NOT NULL REFERENCES projects(name) ON DELETE CASCADE,
    name TEXT NOT NULL COLLATE NOCASE,
    type TEXT NOT NULL,
    body TEXT NOT NULL,
    UNIQUE (project, name)
);
"""
#: The family's tables, children first.
DATA_TABLES = ("connections",)


class ConnectionProjectError(NotFoundError):
    def __init__(self, project: str) -> None:
        super().__init__(f"Project '{project}' not found")


class ConnectionNameEmptyError(BadRequestError):
    def __init__(self) -> None:
        super().__init__("Connection name can not be empty!")


class ConnectionExistsError(BadRequestError):
    def __init__(self, name: str) -> None:
        super().__init__(f"Connection (name: {name}) already exists!")


class ConnectionNotFoundError(BadRequestError):
    """Update and delete: 400."""

    def __init__(self, name: str) -> None:
        super().__init__(f"Connection (name: {name}) was not found!")


class ConnectionGetNotFoundError(NotFoundError):
    """Get: 404, with the same words."""

    def __init__(self, name: str) -> None:
        super().__init__(f"Connection (name: {name}) was not found!")


class ConnectionNameMismatchError(BadRequestError):
    """ "Connection name in path does not match name in body" is a documented cause; its words are
    the emulator's."""

    def __init__(self, path_name: str, body_name: str) -> None:
        super().__init__(f"Connection name in path ({path_name}) does not match name in body ({body_name})!")


class ConnectionTypeChangeError(BadRequestError):
    """ "Invalid connection type (cannot change connection type)": the emulator's words."""

    def __init__(self, name: str, stored: str, given: str) -> None:
        super().__init__(
            f"Connection (name: {name}) is of type {stored}; its type can not be changed to {given}!"
        )


class ConnectionTypeError(BadRequestError):
    """A missing or unknown ``type`` (body or list query): the emulator's words, naming the valid ones."""

    def __init__(self, given: Any) -> None:
        shown = "missing" if given is None else f"'{given}' is not valid"
        super().__init__(f"Connection type {shown}; valid values: {', '.join(CONNECTION_TYPES)}")


def _require_project(db: sqlite3.Connection, project: str) -> None:
    if db.execute("SELECT 1 FROM projects WHERE name = ?", (project,)).fetchone() is None:
        raise ConnectionProjectError(project)


def _find(db: sqlite3.Connection, project: str, name: str) -> sqlite3.Row | None:
    row: sqlite3.Row | None = db.execute(
        "SELECT * FROM connections WHERE project = ? AND name = ?", (project, name)
    ).fetchone()
    return row


def stored(model: ConnectionBase) -> dict[str, Any]:
    """The row's body: the model's JSON (defaults filled), without the fields no model declares."""
    return model.model_dump(mode="json", by_alias=True, exclude_none=True, exclude=extra_fields(model))


def deployment(deploys: bool) -> dict[str, Any]:
    """The CRUD pages' answer: ``deploymentResult`` when the connection goes to the workers."""
    return {"success": True, "deploymentResult": {"success": True}} if deploys else {"success": True}


def create(db: sqlite3.Connection, project: str, body: dict[str, Any]) -> dict[str, Any]:
    _require_project(db, project)
    if _find(db, project, body["name"]) is not None:
        raise ConnectionExistsError(body["name"])
    db.execute(
        "INSERT INTO connections (project, name, type, body) VALUES (?, ?, ?, ?)",
        (project, body["name"], body["type"], json.dumps(body)),
    )
    return deployment(body.get("deployToWorker", True))


def update(db: sqlite3.Connection, project: str, current: str, body: dict[str, Any]) -> dict[str, Any]:
    """The connection ``current``, rewritten whole; a body with another name renames it."""
    _require_project(db, project)
    row = _find(db, project, current)
    if row is None:
        raise ConnectionNotFoundError(current)
    if body["type"] != row["type"]:
        raise ConnectionTypeChangeError(row["name"], row["type"], body["type"])
    other = _find(db, project, body["name"])
    if other is not None and other["seq"] != row["seq"]:
        raise ConnectionExistsError(body["name"])
    db.execute(
        "UPDATE connections SET name = ?, body = ? WHERE seq = ?",
        (body["name"], json.dumps(body), row["seq"]),
    )
    return deployment(body.get("deployToWorker", True))


def delete(db: sqlite3.Connection, project: str, name: str) -> dict[str, Any]:
    _require_project(db, project)
    row = _find(db, project, name)
    if row is None:
        raise ConnectionNotFoundError(name)
    db.execute("DELETE FROM connections WHERE seq = ?", (row["seq"],))
    return deployment(True)


def _masked(body: dict[str, Any]) -> dict[str, Any]:
    """``body`` with every secret field ``null``, as the list answers it."""
    return masked_connection(body)


def list_connections(db: sqlite3.Connection, project: str, connection_type: str) -> list[dict[str, Any]]:
    """The project's connections of one type, secrets ``null``."""
    _require_project(db, project)
    rows = db.execute(
        "SELECT body FROM connections WHERE project = ? AND type = ? ORDER BY name",
        (project, connection_type),
    )
    return [_masked(json.loads(row["body"])) for row in rows]


def get_connection(db: sqlite3.Connection, project: str, name: str) -> dict[str, Any]:
    """The connection, secrets in full."""
    _require_project(db, project)
    row = _find(db, project, name)
    if row is None:
        raise ConnectionGetNotFoundError(name)
    body: dict[str, Any] = json.loads(row["body"])
    return body


def state(db: sqlite3.Connection, project: str) -> list[dict[str, Any]]:
    """The project's connections for ``/_emulator/state``: secrets masked as the list masks them."""
    rows = db.execute("SELECT body FROM connections WHERE project = ? ORDER BY type, name", (project,))
    return [_masked(json.loads(row["body"])) for row in rows]
