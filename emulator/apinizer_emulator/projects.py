"""The projects and environments family: state and rules.

Projects hold everything else (every family's rows go with their project); environments are where
proxies, groups and variables are deployed. The emulator creates neither through the API: the
fixture declares them. Every environment is reachable from every project (the emulator has no
associations). Functions take a store connection inside the caller's transaction.
"""

from __future__ import annotations

import sqlite3
from typing import Any

from .deployments import project_exists
from .errors import BadRequestError, UnauthorizedError
from .fixtures import Fixture

SCHEMA = """
CREATE TABLE IF NOT EXISTS projects (
    seq INTEGER PRIMARY KEY AUTOINCREMENT,
    name TEXT NOT NULL UNIQUE
);
CREATE TABLE IF NOT EXISTS environments (
    seq INTEGER PRIMARY KEY AUTOINCREMENT,
    name TEXT NOT NULL UNIQUE,
    description TEXT,
    type TEXT,
    status TEXT NOT NULL,
    access_url TEXT
);
CREATE TABLE IF NOT EXISTS project_details (
    project TEXT PRIMARY KEY REFERENCES projects(name) ON DELETE CASCADE,
    description TEXT
);
"""
#: The family's tables, children first (the order a wipe deletes them in).
DATA_TABLES = ("project_details", "environments", "projects")


class EnvironmentProjectError(BadRequestError):
    """The environments-by-project page's unknown project (a 400 there)."""

    def __init__(self, project: str) -> None:
        super().__init__(f"Project not found for name: ({project}) or user has not privilege to access it!")


class AdminOnlyError(UnauthorizedError):
    """The list of every environment, asked by someone who is not an administrator."""

    def __init__(self) -> None:
        super().__init__("Invalid token or insufficient permissions")


def load_fixture(db: sqlite3.Connection, fixture: Fixture) -> None:
    """The fixture's projects with their descriptions, and its environments."""
    for project in fixture.projects:
        db.execute("INSERT INTO projects (name) VALUES (?)", (project.name,))
    for env in fixture.environments:
        db.execute(
            "INSERT INTO environments (name, description, type, status, access_url) VALUES (?, ?, ?, ?, ?)",
            (
                env.name,
                env.description,
                env.type.value if env.type else None,
                env.status.value,
                env.access_url,
            ),
        )
    for project in fixture.projects:
        db.execute(
            "INSERT INTO project_details (project, description) VALUES (?, ?)",
            (project.name, project.description),
        )


def list_projects(db: sqlite3.Connection) -> list[dict[str, Any]]:
    rows = db.execute(
        "SELECT p.name, d.description FROM projects p"
        " LEFT JOIN project_details d ON d.project = p.name ORDER BY p.seq"
    )
    return [{"name": r["name"], "description": r["description"]} for r in rows]


def list_environments(db: sqlite3.Connection) -> list[dict[str, Any]]:
    return [_environment_json(r) for r in db.execute("SELECT * FROM environments ORDER BY seq")]


def environments_for_project(db: sqlite3.Connection, project: str) -> list[dict[str, Any]]:
    """Every environment is reachable from every project in the emulator (it has no associations)."""
    if not project_exists(db, project):
        raise EnvironmentProjectError(project)
    return list_environments(db)


def _environment_json(row: sqlite3.Row) -> dict[str, Any]:
    return {
        "name": row["name"],
        "description": row["description"],
        "type": row["type"],
        "status": row["status"],
        "accessUrl": row["access_url"],
    }
