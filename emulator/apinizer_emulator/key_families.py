"""What the keys and secrets families share: their project check, names, errors and environments.

The pages of certificates, crypto keys, keystores and JWKs all answer a write with a deployment
result, one item per environment the object reaches (:func:`deployments.deployment`):
https://github.com/apinizer/management-api-docs/blob/main/02-api-reference/08-keys-secrets/crud/create-jwk.md
"""

from __future__ import annotations

import sqlite3
from collections.abc import Iterable, Iterator, Mapping
from typing import Any

from .errors import BadRequestError, NotFoundError
from .rules import check_path_name


class ObjectNotFoundError(BadRequestError):
    """The get pages' "JWK (name: my-jwk) is not found!", and the same for each kind."""

    def __init__(self, kind: str, name: str, hint: str = "") -> None:
        super().__init__(f"{kind} (name: {name}) is not found!{hint}")


class ObjectExistsError(BadRequestError):
    """The create pages' "... is already exist! Try update operation ..."; a rename onto another
    object's name (the update pages) has no hint."""

    def __init__(self, kind: str, name: str, *, on_create: bool = True) -> None:
        hint = " Try update operation if want to change its value." if on_create else ""
        super().__init__(f"{kind} (name: {name}) is already exist!{hint}")


class KeysProjectError(NotFoundError):
    """The list pages' unknown project (their wording, without a space after "Project")."""

    def __init__(self, project: str) -> None:
        super().__init__(f"Project({project}) was not found or user does not have privilege to access it!")


class KeysEnvironmentError(BadRequestError):
    """An environment that the body names and that does not exist (the truststore page's wording)."""

    def __init__(self, name: str) -> None:
        super().__init__(f"Environment ({name}) is not found or user does not have privilege to access it!")


class UpdateScopeError(BadRequestError):
    def __init__(self, value: str | None) -> None:
        shown = "missing" if value is None else f"({value})"
        super().__init__(
            f"updateScope is {shown}: it must be SAME_PROJECT or ALL_PROJECTS"
            " when updateReferencedJwks is true!"
        )


def read_name(body: Mapping[str, Any], empty: BadRequestError) -> tuple[str, str | None]:
    """(name, description) of a create or update body; ``empty`` is the kind's error for no name."""
    name = body.get("name")
    if not isinstance(name, str) or not name.strip():
        raise empty
    check_path_name("name", name)
    description = body.get("description")
    if description is not None and not isinstance(description, str):
        raise BadRequestError("description must be a string!")
    return name, description


def environment_items(body: Mapping[str, Any], field: str) -> Iterator[tuple[str, str, dict[str, Any]]]:
    """(where, environment name, item) of each item of the body's per-environment list ``field``:
    a non-empty list of objects, each naming a distinct environment."""
    items = body.get(field)
    if not isinstance(items, list) or not items:
        raise BadRequestError(f"{field} value can not be empty!")
    seen: set[str] = set()
    for index, item in enumerate(items):
        where = f"{field}[{index}]"
        if not isinstance(item, dict):
            raise BadRequestError(f"{where} must be an object!")
        environment = item.get("environmentName")
        if not isinstance(environment, str) or not environment.strip():
            raise BadRequestError(f"{where}.environmentName value can not be empty!")
        if environment in seen:
            raise BadRequestError(f"{where}.environmentName ({environment}) is given twice!")
        seen.add(environment)
        yield where, environment, item


def require_project(db: sqlite3.Connection, project: str) -> None:
    if db.execute("SELECT 1 FROM projects WHERE name = ?", (project,)).fetchone() is None:
        raise KeysProjectError(project)


def object_row(
    db: sqlite3.Connection, table: str, kind: str, project: str, name: str, hint: str = ""
) -> sqlite3.Row:
    """The object of a keys family's ``table`` named ``name`` in ``project``, or the pages' 400
    "<kind> (name: <name>) is not found!" (``hint`` after it). ``table`` is the family's own constant."""
    require_project(db, project)
    row: sqlite3.Row | None = db.execute(
        f"SELECT * FROM {table} WHERE project = ? AND name = ?", (project, name)
    ).fetchone()
    if row is None:
        raise ObjectNotFoundError(kind, name, hint)
    return row


def environment_names(items: Iterable[Mapping[str, Any]]) -> list[str]:
    """The environments of an object's per-environment items, in their order."""
    return [item["environmentName"] for item in items]


def require_environments(db: sqlite3.Connection, names: Iterable[str]) -> None:
    for name in names:
        if db.execute("SELECT 1 FROM environments WHERE name = ?", (name,)).fetchone() is None:
            raise KeysEnvironmentError(name)


def referenced_jwks_update(update_referenced: str | None, scope: str | None) -> bool:
    """The update pages' ``updateReferencedJwks`` and ``updateScope`` query parameters: whether the
    JWKs made from the object are made again from its new material. Both scopes reach the same JWKs
    here: a JWK is made from an object of its own project."""
    if update_referenced is None or update_referenced.lower() == "false":
        return False
    if update_referenced.lower() != "true":
        raise BadRequestError(f"updateReferencedJwks ({update_referenced}) must be true or false!")
    if scope not in ("SAME_PROJECT", "ALL_PROJECTS"):
        raise UpdateScopeError(scope)
    return True
