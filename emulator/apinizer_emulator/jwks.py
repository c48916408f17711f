"""JWKs (JSON Web Keys): state and rules.

Functions take a store connection inside the caller's transaction and raise the typed errors
below, whose messages are the product documentation's where it shows one:
https://github.com/apinizer/management-api-docs/blob/main/02-api-reference/08-keys-secrets/crud/create-jwk.md

A JWK is stored whole (its private members too: the get page answers them, "key material is
decrypted and returned in the response") with how it was made. It is made from a URL or a JSON
text (a JWK, or the key of a JWK Set named by ``kid``), generated, or made from a certificate, a
crypto key or a keystore alias of the project, which are read through their families' public
functions (:func:`certificates.certificate_der`, :func:`crypto_keys.key_for_jwk`,
:func:`keystores.key_for_jwk`) and :mod:`key_material`. Every write deploys to every environment.
``/_emulator/state`` shows the public members only, and a source URL without its password.

Choices where the pages are silent (docs/emulator.md lists them): an update (name, description)
detaches the JWK from its source (``sourceId`` and ``sourceUrl`` become null; ``sourceType`` stays);
``parse-from-key`` makes a ``PUBLIC_KEY`` JWK unless the body says ``sourceType: PRIVATE_KEY``; a
JWK made from a certificate carries ``x5c`` and ``x5t#S256``; an object's update with
``updateReferencedJwks=true`` makes the JWKs made from it again, and a 400 (nothing changed) if
one of them can no longer be made; deleting the object leaves its JWKs, detached.
"""

from __future__ import annotations

import base64
import hashlib
import json
import sqlite3
from collections.abc import Mapping
from typing import Any

from . import certificates, crypto_keys, key_material, keystores, specs
from .deployments import all_environments, deployment
from .errors import BadRequestError
from .key_families import (
    ObjectExistsError,
    object_row,
    require_project,
)
from .models import new_id, stable_id
from .rules import check_path_name

SCHEMA = """
CREATE TABLE IF NOT EXISTS jwks (
    seq INTEGER PRIMARY KEY AUTOINCREMENT,
    id TEXT NOT NULL UNIQUE,
    project TEXT NOT NULL REFERENCES projects(name) ON DELETE CASCADE,
    name TEXT NOT NULL,
    description TEXT,
    source_type TEXT NOT NULL,
    source_id TEXT,
    source_url TEXT,
    source TEXT NOT NULL,
    jwk TEXT NOT NULL,
    UNIQUE (project, name)
);
CREATE INDEX IF NOT EXISTS jwks_source ON jwks(source_id);
"""
#: The family's tables, children first (the order the emulator's reset deletes them in).
DATA_TABLES = ("jwks",)

SOURCE_TYPES = ("URL", "COPY_PASTE", "CERTIFICATE", "PUBLIC_KEY", "PRIVATE_KEY", "KEYSTORE")
#: What each source type made from an object of the project needs in the body.
SOURCE_FIELDS: Mapping[str, tuple[str, ...]] = {
    "CERTIFICATE": ("certificateName", "environmentName", "useType", "algorithm"),
    "PUBLIC_KEY": ("keyName", "environmentName", "useType", "algorithm"),
    "PRIVATE_KEY": ("keyName", "environmentName", "useType", "algorithm"),
    "KEYSTORE": ("keyStoreName", "environmentName", "aliasName", "useType", "algorithm"),
}
#: The members of a key, in the answer's ``rsa``/``ec``/``oct``/``okp`` object.
_KEY_MEMBERS = ("n", "e", "d", "p", "q", "dp", "dq", "qi", "crv", "x", "y", "k")


class JwkNameEmptyError(BadRequestError):
    def __init__(self) -> None:
        super().__init__("JWK name can not be empty!")


KIND = "JWK"


class SourceFieldError(BadRequestError):
    """The create page shows "URL is required for URL source type!"; the other fields likewise."""

    def __init__(self, field: str, source_type: str) -> None:
        shown = "URL" if field == "url" else field
        super().__init__(f"{shown} is required for {source_type} source type!")


def read_source_type(body: Mapping[str, Any]) -> str:
    source_type = body.get("sourceType")
    if not source_type:
        raise BadRequestError("Source type is required!")
    if source_type == "GENERATE":
        raise BadRequestError("GENERATE source type is made by the generate operation (jwks/generate)!")
    if source_type not in SOURCE_TYPES:
        raise BadRequestError(f"sourceType ({source_type}) is not one of {', '.join(SOURCE_TYPES)}!")
    return str(source_type)


def required(body: Mapping[str, Any], field: str, source_type: str) -> str:
    value = body.get(field)
    if not isinstance(value, str) or not value.strip():
        raise SourceFieldError(field, source_type)
    return value


def source_of(body: Mapping[str, Any], source_type: str) -> dict[str, str]:
    """The body's fields that make a JWK of a project object of ``source_type``, all required."""
    return {field: required(body, field, source_type) for field in SOURCE_FIELDS[source_type]}


def _made(
    db: sqlite3.Connection, project: str, source_type: str, source: Mapping[str, str]
) -> tuple[str, dict[str, Any]]:
    """(source id, JWK) made from the project's object that ``source`` names."""
    environment, use_type, algorithm = source["environmentName"], source["useType"], source["algorithm"]
    if source_type == "CERTIFICATE":
        source_id, der = certificates.certificate_der(db, project, source["certificateName"], environment)
        jwk = key_material.jwk_from_key(key_material.certificate_public_key(der), use_type, algorithm)
        jwk["x5c"] = [base64.b64encode(der).decode()]
        jwk["x5t#S256"] = base64.urlsafe_b64encode(hashlib.sha256(der).digest()).rstrip(b"=").decode()
        return source_id, jwk
    if source_type in ("PUBLIC_KEY", "PRIVATE_KEY"):
        source_id, key = crypto_keys.key_for_jwk(
            db, project, source["keyName"], environment, source_type == "PRIVATE_KEY"
        )
        return source_id, key_material.jwk_from_key(key, use_type, algorithm)
    source_id, key = keystores.key_for_jwk(
        db, project, source["keyStoreName"], environment, source["aliasName"]
    )
    return source_id, key_material.jwk_from_key(key, use_type, algorithm)


def _insert(
    db: sqlite3.Connection, project: str, name: str, description: str | None, source_type: str,
    source_id: str | None, source_url: str | None, source: Mapping[str, Any], jwk: Mapping[str, Any],
) -> dict[str, Any]:
    require_project(db, project)
    if db.execute("SELECT 1 FROM jwks WHERE project = ? AND name = ?", (project, name)).fetchone():
        raise ObjectExistsError(KIND, name)
    db.execute(
        "INSERT INTO jwks (id, project, name, description, source_type, source_id, source_url, source, jwk)"
        " VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?)",
        (new_id(), project, name, description, source_type, source_id, source_url, json.dumps(source),
         json.dumps(jwk)),
    )
    return deployment(db, all_environments(db))


def create_parsed(
    db: sqlite3.Connection, project: str, name: str, description: str | None, source_type: str,
    source_url: str | None, jwk: Mapping[str, Any],
) -> dict[str, Any]:
    """A JWK already made (URL, COPY_PASTE, GENERATE): stored and deployed."""
    return _insert(db, project, name, description, source_type, None, source_url, {}, jwk)


def create_from_object(
    db: sqlite3.Connection, project: str, name: str, description: str | None, source_type: str,
    source: Mapping[str, str],
) -> dict[str, Any]:
    """A JWK made from a certificate, key or keystore alias of the project, in the same transaction
    as its store (the object cannot change in between)."""
    require_project(db, project)
    if db.execute("SELECT 1 FROM jwks WHERE project = ? AND name = ?", (project, name)).fetchone():
        raise ObjectExistsError(KIND, name)
    source_id, jwk = _made(db, project, source_type, source)
    return _insert(db, project, name, description, source_type, source_id, None, source, jwk)


def _row(db: sqlite3.Connection, project: str, name: str, *, on_update: bool = False) -> sqlite3.Row:
    return object_row(db, "jwks", KIND, project, name, " Try create operation." if on_update else "")


def update(db: sqlite3.Connection, project: str, current: str, body: Mapping[str, Any]) -> dict[str, Any]:
    """The update page: name and description, both optional; the JWK is detached from its source."""
    row = _row(db, project, current, on_update=True)
    name = body.get("name") if body.get("name") is not None else current
    if not isinstance(name, str) or not name.strip():
        raise JwkNameEmptyError()
    check_path_name("name", name)
    description = body["description"] if "description" in body else row["description"]
    if description is not None and not isinstance(description, str):
        raise BadRequestError("description must be a string!")
    if name != current and db.execute(
        "SELECT 1 FROM jwks WHERE project = ? AND name = ?", (project, name)
    ).fetchone():
        raise ObjectExistsError(KIND, name, on_create=False)
    db.execute(
        "UPDATE jwks SET name = ?, description = ?, source_id = NULL, source_url = NULL, source = '{}'"
        " WHERE id = ?",
        (name, description, row["id"]),
    )
    return deployment(db, all_environments(db))


def delete(db: sqlite3.Connection, project: str, name: str) -> dict[str, Any]:
    row = _row(db, project, name)
    db.execute("DELETE FROM jwks WHERE id = ?", (row["id"],))
    return deployment(db, all_environments(db), undeploy=True)


def remake_from(db: sqlite3.Connection, project: str, source_id: str) -> list[str]:
    """The update pages' ``updateReferencedJwks``: every JWK made from the object ``source_id`` is
    made again from its new material (a 400 if one cannot be, and the caller's write is undone).
    Returns the names of the JWKs made again."""
    remade = []
    for row in db.execute(
        "SELECT * FROM jwks WHERE project = ? AND source_id = ? ORDER BY seq", (project, source_id)
    ).fetchall():
        source = json.loads(row["source"])
        try:
            _, jwk = _made(db, project, row["source_type"], source)
        except BadRequestError as exc:
            raise BadRequestError(
                f"JWK (name: {row['name']}) cannot be made again: {exc.description}"
            ) from None
        if "kid" in json.loads(row["jwk"]):  # the JWK keeps its name for its key: the kid
            jwk["kid"] = json.loads(row["jwk"])["kid"]
        db.execute("UPDATE jwks SET jwk = ? WHERE id = ?", (json.dumps(jwk), row["id"]))
        remade.append(row["name"])
    return remade


def detach_from(db: sqlite3.Connection, source_id: str) -> None:
    """The object ``source_id`` is deleted: its JWKs keep their keys, without a source."""
    db.execute("UPDATE jwks SET source_id = NULL, source = '{}' WHERE source_id = ?", (source_id,))


def _answer(row: sqlite3.Row, *, material: bool, private: bool = True) -> dict[str, Any]:
    jwk: dict[str, Any] = json.loads(row["jwk"])
    kind = key_material.jwk_type(jwk)
    answer: dict[str, Any] = {
        "id": row["id"],
        "name": row["name"],
        "description": row["description"],
        "projectId": stable_id(row["project"]),
        "sourceType": row["source_type"],
        "sourceId": row["source_id"],
        "sourceUrl": row["source_url"],
        "type": kind,
        "kid": jwk.get("kid"),
    }
    if not private and row["source_url"]:
        answer["sourceUrl"] = specs.without_password(row["source_url"])
    if material:
        shown = jwk if private else key_material.public_jwk(jwk)
        answer[kind.lower()] = {name: shown[name] for name in _KEY_MEMBERS if name in shown}
    return answer


def list_jwks(db: sqlite3.Connection, project: str) -> list[dict[str, Any]]:
    """The list page: "key material ... is excluded from list response"."""
    require_project(db, project)
    return [
        _answer(r, material=False)
        for r in db.execute("SELECT * FROM jwks WHERE project = ? ORDER BY name", (project,))
    ]


def get_jwk(db: sqlite3.Connection, project: str, name: str) -> dict[str, Any]:
    return _answer(_row(db, project, name), material=True)


def state(db: sqlite3.Connection, project: str) -> list[dict[str, Any]]:
    """The project's JWKs for ``/_emulator/state``: public members only."""
    require_project(db, project)
    return [
        _answer(r, material=True, private=False)
        for r in db.execute("SELECT * FROM jwks WHERE project = ? ORDER BY name", (project,))
    ]
