"""Crypto keys (``CryptoKeyInfo``): state and rules.

Functions take a store connection inside the caller's transaction and raise the typed errors
below, whose messages are the product documentation's where it shows one:
https://github.com/apinizer/management-api-docs/blob/main/02-api-reference/08-keys-secrets/crud/create-key.md

A key holds, per environment of its ``cryptoKeyInfoEnvironmentList``, a public key, a private key or
both, written as PEM or base64 DER and read by :mod:`key_material` before anything is stored. The
get and list pages answer the material ("key material is included in the response"), so it is
stored as written; ``/_emulator/state`` never shows a private key. Choices where the pages are
silent (docs/emulator.md lists them): ``keyType`` is RSA or EC (the values the pages show) and
must be the type of every key given; a public and a private key given together must be one
pair; an empty environment list, an item with neither key and an unknown environment are 400s;
deleting a key that a JWK was made from leaves the JWK (a copy of the key) detached from it.
"""

from __future__ import annotations

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
CREATE TABLE IF NOT EXISTS crypto_keys (
    seq INTEGER PRIMARY KEY AUTOINCREMENT,
    id TEXT NOT NULL UNIQUE,
    project TEXT NOT NULL REFERENCES projects(name) ON DELETE CASCADE,
    name TEXT NOT NULL,
    description TEXT,
    key_type TEXT NOT NULL,
    environments TEXT NOT NULL,
    UNIQUE (project, name)
);
"""
#: The family's tables, children first (the order the emulator's reset deletes them in).
DATA_TABLES = ("crypto_keys",)
LIST_FIELD = "cryptoKeyInfoEnvironmentList"
#: The key types the pages show ("e.g., RSA, EC").
KEY_TYPES = ("RSA", "EC")


KIND = "Key"


#: What :func:`read_spec` gives: name, description, keyType and the environment items as answered.
KeySpec = tuple[str, str | None, str, list[dict[str, Any]]]


def read_spec(body: Mapping[str, Any]) -> KeySpec:
    """(name, description, keyType, environment items) of a create or update body, every key read
    and checked (type, pair); nothing of the store is needed, so it runs before the write."""
    name, description = read_name(body, BadRequestError("Key name can not be empty!"))
    key_type = body.get("keyType")
    if key_type not in KEY_TYPES:
        raise BadRequestError(f"keyType ({key_type}) is not one of {', '.join(KEY_TYPES)}!")
    stored: list[dict[str, Any]] = []
    for where, environment, item in environment_items(body, LIST_FIELD):
        public, private = item.get("publicKey"), item.get("privateKey")
        if not public and not private:
            raise BadRequestError(f"{where} must have a publicKey, a privateKey or both!")
        public_key = _read(public, f"{where}.publicKey", key_type, key_material.parse_public_key)
        private_key = _read(private, f"{where}.privateKey", key_type, key_material.parse_private_key)
        if (
            public_key is not None
            and private_key is not None
            and key_material.public_der(public_key) != key_material.public_der(private_key)
        ):
            raise BadRequestError(f"{where}: publicKey and privateKey are not one key pair!")
        stored.append(
            {"environmentName": environment, "publicKey": public or None, "privateKey": private or None}
        )
    return name, description, key_type, stored


def _read(value: Any, field: str, key_type: str, parse: Any) -> Any:
    if not value:
        return None
    if not isinstance(value, str):
        raise BadRequestError(f"{field} must be a string!")
    key = parse(value, field)
    found = key_material.key_type_of(key)
    if found != key_type:
        raise BadRequestError(f"{field} is an {found} key, not of keyType ({key_type})!")
    return key


def _row(db: sqlite3.Connection, project: str, name: str) -> sqlite3.Row:
    return object_row(db, "crypto_keys", KIND, project, name)


def create(db: sqlite3.Connection, project: str, spec: KeySpec) -> dict[str, Any]:
    name, description, key_type, items = spec
    require_project(db, project)
    if db.execute("SELECT 1 FROM crypto_keys WHERE project = ? AND name = ?", (project, name)).fetchone():
        raise ObjectExistsError(KIND, name)
    require_environments(db, environment_names(items))
    db.execute(
        "INSERT INTO crypto_keys (id, project, name, description, key_type, environments)"
        " VALUES (?, ?, ?, ?, ?, ?)",
        (new_id(), project, name, description, key_type, json.dumps(items)),
    )
    return deployment(db, environment_names(items))


def update(db: sqlite3.Connection, project: str, current: str, spec: KeySpec) -> tuple[str, dict[str, Any]]:
    """(the key's id, the deployment answer); the caller remakes the JWKs made from it."""
    name, description, key_type, items = spec
    row = _row(db, project, current)
    if name != current and db.execute(
        "SELECT 1 FROM crypto_keys WHERE project = ? AND name = ?", (project, name)
    ).fetchone():
        raise ObjectExistsError(KIND, name, on_create=False)
    require_environments(db, environment_names(items))
    db.execute(
        "UPDATE crypto_keys SET name = ?, description = ?, key_type = ?, environments = ? WHERE id = ?",
        (name, description, key_type, json.dumps(items), row["id"]),
    )
    return row["id"], deployment(db, environment_names(items))


def delete(db: sqlite3.Connection, project: str, name: str) -> tuple[str, dict[str, Any]]:
    row = _row(db, project, name)
    key_references.refuse_if_named(db, project, KIND, name, row["id"])
    db.execute("DELETE FROM crypto_keys WHERE id = ?", (row["id"],))
    return row["id"], deployment(db, environment_names(json.loads(row["environments"])), undeploy=True)


def _answer(row: sqlite3.Row, *, private: bool = True) -> dict[str, Any]:
    items = json.loads(row["environments"])
    if not private:
        for item in items:
            item["privateKey"] = None
    return {
        "id": row["id"],
        "name": row["name"],
        "description": row["description"],
        "projectId": stable_id(row["project"]),
        "keyType": row["key_type"],
        LIST_FIELD: items,
    }


def list_all(db: sqlite3.Connection, project: str) -> list[dict[str, Any]]:
    require_project(db, project)
    rows = db.execute("SELECT * FROM crypto_keys WHERE project = ? ORDER BY name", (project,))
    return [_answer(r) for r in rows]


def get_one(db: sqlite3.Connection, project: str, name: str) -> dict[str, Any]:
    return _answer(_row(db, project, name))


def key_for_jwk(
    db: sqlite3.Connection, project: str, name: str, environment: str, private: bool
) -> tuple[str, PublicKeyTypes | PrivateKeyTypes]:
    """(id, key) of the key's ``environment`` item: its private key when ``private`` (a
    PRIVATE_KEY JWK), else its public key (or the private key's public half)."""
    row = _row(db, project, name)
    for item in json.loads(row["environments"]):
        if item["environmentName"] != environment:
            continue
        if private:
            if not item.get("privateKey"):
                raise BadRequestError(
                    f"Key (name: {name}) has no private key in environment ({environment})!"
                )
            return row["id"], key_material.parse_private_key(item["privateKey"], "privateKey", stored=True)
        if item.get("publicKey"):
            return row["id"], key_material.parse_public_key(item["publicKey"], "publicKey")
        stored = key_material.parse_private_key(item["privateKey"], "privateKey", stored=True)
        return row["id"], stored.public_key()
    raise BadRequestError(f"Key (name: {name}) has no key material for environment ({environment})!")


def state(db: sqlite3.Connection, project: str) -> list[dict[str, Any]]:
    """The project's keys for ``/_emulator/state``: private keys masked as ``null``."""
    require_project(db, project)
    return [
        _answer(r, private=False)
        for r in db.execute("SELECT * FROM crypto_keys WHERE project = ? ORDER BY name", (project,))
    ]
