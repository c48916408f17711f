"""Keystores: state and rules.

Functions take a store connection inside the caller's transaction and raise the typed errors
below, whose messages are the product documentation's where it shows one:
https://github.com/apinizer/management-api-docs/blob/main/02-api-reference/08-keys-secrets/crud/create-keystore.md

A keystore holds, per environment of its ``keyStoreEnvironmentList``, a JKS or PKCS#12 file
(base64, as the pages write it) opened with the item's ``password`` by :mod:`key_material` before
anything is stored: a file that cannot be opened is a 400 and nothing is written. The pages show
no password field; the emulator reads ``password`` (``""`` when absent) and never stores it. What a
JWK is later made from (each alias's private key and certificate) is kept from that reading, in
the ``material`` column: answered by no operation and shown by no ``/_emulator/state``. The file
itself is answered as the pages show it (it is protected by its password).
Choices where the pages are silent (docs/emulator.md lists them): an empty environment list and an
unknown environment are 400s; deleting a keystore that a JWK was made from leaves the JWK (a copy
of the key) detached from it.
"""

from __future__ import annotations

import base64
import binascii
import json
import sqlite3
from collections.abc import Mapping
from typing import TYPE_CHECKING, Any

from . import key_material, key_references
from .deployments import deployment
from .errors import BadRequestError
from .key_families import (
    ObjectExistsError,
    environment_items,
    environment_names,
    object_row,
    read_name,
    require_environments,
    require_project,
)
from .models import new_id, stable_id

if TYPE_CHECKING:
    from cryptography.hazmat.primitives.asymmetric.types import PrivateKeyTypes, PublicKeyTypes

SCHEMA = """
CREATE TABLE IF NOT EXISTS keystores (
    seq INTEGER PRIMARY KEY AUTOINCREMENT,
    id TEXT NOT NULL UNIQUE,
    project TEXT NOT NULL REFERENCES projects(name) ON DELETE CASCADE,
    name TEXT NOT NULL,
    description TEXT,
    environments TEXT NOT NULL,
    material TEXT NOT NULL,
    UNIQUE (project, name)
);
"""
#: The family's tables, children first (the order the emulator's reset deletes them in).
DATA_TABLES = ("keystores",)
LIST_FIELD = "keyStoreEnvironmentList"


KIND = "Keystore"


#: What :func:`read_spec` gives: name, description, the items as answered, and per environment
#: each alias's private key and certificate (base64 DER, ``None`` where absent).
KeystoreSpec = tuple[str, str | None, list[dict[str, Any]], dict[str, dict[str, dict[str, str | None]]]]


def read_spec(body: Mapping[str, Any]) -> KeystoreSpec:
    """A create or update body, every file opened with its password (CPU-heavy: run it off the
    event loop); nothing of the store is needed, so it runs before the write."""
    name, description = read_name(body, BadRequestError("Keystore name can not be empty!"))
    answered: list[dict[str, Any]] = []
    material: dict[str, dict[str, dict[str, str | None]]] = {}
    for where, environment, item in environment_items(body, LIST_FIELD):
        kind = item.get("type")
        if kind not in key_material.KEYSTORE_TYPES:
            raise BadRequestError(
                f"{where}.type ({kind}) is not one of {', '.join(key_material.KEYSTORE_TYPES)}!"
            )
        encoded = item.get("file")
        if not isinstance(encoded, str) or not encoded.strip():
            raise BadRequestError(f"{where}.file value can not be empty!")
        try:
            content = base64.b64decode("".join(encoded.split()), validate=True)
        except (binascii.Error, ValueError):
            raise BadRequestError(f"{where}.file is not base64-encoded") from None
        password = item.get("password") or ""
        if not isinstance(password, str):
            raise BadRequestError(f"{where}.password must be a string!")
        entries = key_material.read_keystore(content, kind, password, f"{where}.file")
        material[environment] = {
            alias: {
                "privateKey": _b64(entry.private_key),
                "certificate": _b64(entry.certificate),
            }
            for alias, entry in entries.items()
        }
        answered.append({"environmentName": environment, "type": kind, "file": encoded})
    return name, description, answered, material


def _b64(value: bytes | None) -> str | None:
    return None if value is None else base64.b64encode(value).decode()


def _row(db: sqlite3.Connection, project: str, name: str) -> sqlite3.Row:
    return object_row(db, "keystores", KIND, project, name)


def create(db: sqlite3.Connection, project: str, spec: KeystoreSpec) -> dict[str, Any]:
    name, description, items, material = spec
    require_project(db, project)
    if db.execute("SELECT 1 FROM keystores WHERE project = ? AND name = ?", (project, name)).fetchone():
        raise ObjectExistsError(KIND, name)
    require_environments(db, environment_names(items))
    db.execute(
        "INSERT INTO keystores (id, project, name, description, environments, material)"
        " VALUES (?, ?, ?, ?, ?, ?)",
        (new_id(), project, name, description, json.dumps(items), json.dumps(material)),
    )
    return deployment(db, environment_names(items))


def update(
    db: sqlite3.Connection, project: str, current: str, spec: KeystoreSpec
) -> tuple[str, dict[str, Any]]:
    """(the keystore's id, the deployment answer); the caller remakes the JWKs made from it."""
    name, description, items, material = spec
    row = _row(db, project, current)
    if name != row["name"]:
        # Policies name keystores by name: a rename would leave them naming nothing.
        key_references.refuse_if_named(db, project, KIND, row["name"], row["id"], by_name_only=True)
    if name != current and db.execute(
        "SELECT 1 FROM keystores WHERE project = ? AND name = ?", (project, name)
    ).fetchone():
        raise ObjectExistsError(KIND, name, on_create=False)
    require_environments(db, environment_names(items))
    db.execute(
        "UPDATE keystores SET name = ?, description = ?, environments = ?, material = ? WHERE id = ?",
        (name, description, json.dumps(items), json.dumps(material), row["id"]),
    )
    return row["id"], deployment(db, environment_names(items))


def delete(db: sqlite3.Connection, project: str, name: str) -> tuple[str, dict[str, Any]]:
    row = _row(db, project, name)
    key_references.refuse_if_named(db, project, KIND, row["name"], row["id"])
    db.execute("DELETE FROM keystores WHERE id = ?", (row["id"],))
    return row["id"], deployment(db, environment_names(json.loads(row["environments"])), undeploy=True)


def _answer(row: sqlite3.Row) -> dict[str, Any]:
    return {
        "id": row["id"],
        "name": row["name"],
        "description": row["description"],
        "projectId": stable_id(row["project"]),
        LIST_FIELD: json.loads(row["environments"]),
    }


def list_all(db: sqlite3.Connection, project: str) -> list[dict[str, Any]]:
    require_project(db, project)
    rows = db.execute("SELECT * FROM keystores WHERE project = ? ORDER BY name", (project,))
    return [_answer(r) for r in rows]


def get_one(db: sqlite3.Connection, project: str, name: str) -> dict[str, Any]:
    return _answer(_row(db, project, name))


def key_for_jwk(
    db: sqlite3.Connection, project: str, name: str, environment: str, alias: str
) -> tuple[str, PublicKeyTypes | PrivateKeyTypes]:
    """(id, key) of ``alias`` in the keystore's ``environment`` file: its private key, or the
    public key of its certificate when the alias holds no private key (a trusted certificate)."""
    row = _row(db, project, name)
    material = json.loads(row["material"])
    if environment not in material:
        raise BadRequestError(f"Keystore (name: {name}) has no file for environment ({environment})!")
    entry = material[environment].get(alias)
    if entry is None:
        raise BadRequestError(
            f"Alias ({alias}) is not found in keystore (name: {name}) for environment ({environment})!"
        )
    if entry["privateKey"] is not None:
        return row["id"], key_material.load_private_der(base64.b64decode(entry["privateKey"]))
    return row["id"], key_material.certificate_public_key(base64.b64decode(entry["certificate"]))


def state(db: sqlite3.Connection, project: str) -> list[dict[str, Any]]:
    """The project's keystores for ``/_emulator/state``: the aliases each file holds, never a key,
    a password or the file."""
    require_project(db, project)
    found = []
    for row in db.execute("SELECT * FROM keystores WHERE project = ? ORDER BY name", (project,)):
        material = json.loads(row["material"])
        found.append({
            "id": row["id"],
            "name": row["name"],
            "description": row["description"],
            LIST_FIELD: [
                {"environmentName": item["environmentName"], "type": item["type"],
                 "aliases": sorted(material.get(item["environmentName"], {}))}
                for item in json.loads(row["environments"])
            ],
        })
    return found
