"""Environment variables: state and rules.

Functions take a store connection inside the caller's transaction and raise the typed errors
below, whose messages are the product documentation's where it shows one:
https://github.com/apinizer/management-api-docs/blob/main/02-api-reference/10-environment-variables/index.md

A variable is stored whole, and answered with every value that is not visible masked as ``null``,
as the pages say; ``/_emulator/state`` masks them too. The values that are not visible are
stored only as salted hashes (:mod:`secrets_at_rest`): nothing answers or compares them. Create,
update and delete "deploy" to every environment at once and answer one result per environment.
Choices where the pages are silent (docs/emulator.md lists them): an unknown environment in
``environmentValueList`` and a missing value for the variable's kind are 400s in the emulator's
own words; nothing refers to a variable in what the emulator stores, so a delete touches nothing
else; the ``admin`` project of the pages (every project's variables) is not emulated.
"""

from __future__ import annotations

import json
import sqlite3
from typing import Any

from apinizer_pulumi.models import EnvironmentVariableSpec

from . import secrets_at_rest
from .deployments import all_environments, deployment
from .errors import BadRequestError, NotFoundError
from .models import new_id, stable_id

SCHEMA = """
CREATE TABLE IF NOT EXISTS environment_variables (
    seq INTEGER PRIMARY KEY AUTOINCREMENT,
    id TEXT NOT NULL UNIQUE,
    project TEXT NOT NULL REFERENCES projects(name) ON DELETE CASCADE,
    name TEXT NOT NULL,
    body TEXT NOT NULL,
    UNIQUE (project, name)
);
"""
#: The family's tables, children first.
DATA_TABLES = ("environment_variables",)


class VariableProjectError(NotFoundError):
    """The list page's unknown project (its wording, without a space after "Project")."""

    def __init__(self, project: str) -> None:
        super().__init__(f"Project({project}) was not found or user does not have privilege to access it!")


class VariableNameEmptyError(BadRequestError):
    def __init__(self) -> None:
        super().__init__("Environment variable name can not be empty!")


class VariableNameMismatchError(BadRequestError):
    def __init__(self, path_name: str, body_name: str) -> None:
        super().__init__(
            f"Environment variable name in path ({path_name}) does not match name in body ({body_name})!"
        )


class VariableExistsError(BadRequestError):
    def __init__(self, name: str) -> None:
        super().__init__(f"Environment variable (name: {name}) already exists!")


class VariableNotFoundError(BadRequestError):
    def __init__(self, name: str) -> None:
        super().__init__(f"Environment variable (name: {name}) was not found!")


class UnknownEnvironmentError(BadRequestError):
    """ "Environment names must exist": the pages show no message, this wording is the emulator's."""

    def __init__(self, name: str) -> None:
        super().__init__(f"Environment (name: {name}) was not found!")


def _require_project(db: sqlite3.Connection, project: str) -> None:
    if db.execute("SELECT 1 FROM projects WHERE name = ?", (project,)).fetchone() is None:
        raise VariableProjectError(project)


def _row(db: sqlite3.Connection, project: str, name: str) -> sqlite3.Row:
    _require_project(db, project)
    row: sqlite3.Row | None = db.execute(
        "SELECT * FROM environment_variables WHERE project = ? AND name = ?", (project, name)
    ).fetchone()
    if row is None:
        raise VariableNotFoundError(name)
    return row


def _check_environments(db: sqlite3.Connection, spec: EnvironmentVariableSpec) -> None:
    for value in spec.environment_value_list or []:
        if (
            db.execute("SELECT 1 FROM environments WHERE name = ?", (value.environment_name,)).fetchone()
            is None
        ):
            raise UnknownEnvironmentError(value.environment_name)


def stored(spec: EnvironmentVariableSpec) -> str:
    """The row's body: the variable as written, the values that are not visible hashed
    (:mod:`secrets_at_rest`; CPU-heavy, run on the password-hashing threads)."""
    body = spec.to_api()
    if spec.global_:
        body["environmentValueList"] = None
    else:
        body["globalValue"] = None
    return json.dumps(secrets_at_rest.hash_variable(body))


def create(db: sqlite3.Connection, project: str, spec: EnvironmentVariableSpec, body: str) -> dict[str, Any]:
    """``body`` is :func:`stored` of ``spec``."""
    _require_project(db, project)
    if db.execute(
        "SELECT 1 FROM environment_variables WHERE project = ? AND name = ?", (project, spec.name)
    ).fetchone():
        raise VariableExistsError(spec.name)
    _check_environments(db, spec)
    db.execute(
        "INSERT INTO environment_variables (id, project, name, body) VALUES (?, ?, ?, ?)",
        (new_id(), project, spec.name, body),
    )
    return deployment(db, all_environments(db))


def update(
    db: sqlite3.Connection, project: str, current: str, spec: EnvironmentVariableSpec, body: str
) -> dict[str, Any]:
    """``body`` is :func:`stored` of ``spec``."""
    row = _row(db, project, current)
    if (
        spec.name != current
        and db.execute(
            "SELECT 1 FROM environment_variables WHERE project = ? AND name = ?", (project, spec.name)
        ).fetchone()
    ):
        raise VariableExistsError(spec.name)
    _check_environments(db, spec)
    db.execute(
        "UPDATE environment_variables SET name = ?, body = ? WHERE seq = ?",
        (spec.name, body, row["seq"]),
    )
    return deployment(db, all_environments(db))


def delete(db: sqlite3.Connection, project: str, name: str) -> dict[str, Any]:
    row = _row(db, project, name)
    db.execute("DELETE FROM environment_variables WHERE seq = ?", (row["seq"],))
    return deployment(db, all_environments(db), undeploy=True)


def _answer(row: sqlite3.Row) -> dict[str, Any]:
    """A variable as get and list show it: every value that is not visible masked."""
    body: dict[str, Any] = json.loads(row["body"])
    if body.get("globalVisible") is False and body.get("globalValue") is not None:
        body["globalValue"] = None
    for item in body.get("environmentValueList") or []:
        if not item.get("visible", False):
            item["value"] = None
    return {
        "projectId": stable_id(row["project"]),
        "name": row["name"],
        "description": body.get("description"),
        "global": body.get("global", False),
        "globalValue": body.get("globalValue"),
        "globalVisible": body.get("globalVisible", True),
        "projectName": row["project"],
        "environmentValueList": body.get("environmentValueList"),
    }


_SELECT = "SELECT * FROM environment_variables WHERE project = ?"


def list_variables(db: sqlite3.Connection, project: str) -> list[dict[str, Any]]:
    _require_project(db, project)
    return [_answer(r) for r in db.execute(_SELECT + " ORDER BY name", (project,))]


def get_variable(db: sqlite3.Connection, project: str, name: str) -> dict[str, Any]:
    return _answer(_row(db, project, name))


def state(db: sqlite3.Connection, project: str) -> list[dict[str, Any]]:
    """The project's variables for ``/_emulator/state``, secret values masked as the API masks them."""
    return list_variables(db, project)
