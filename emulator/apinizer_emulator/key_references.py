"""Policies' references to the keys and secrets families: JWKs, crypto keys and certificates, named by
id in a policy's body (``jwkIdForValidationAndSign``, ``jwkIdForDecryptionAndEncryption``,
``cryptoKeyInfoId``, ``certificateId``, wherever they stand in it: the encryption and signing
policies hold them in each item of their lists).

* A policy that names one that the project does not hold is a 400 naming the field and the id. The
  policy pages show no message for it; the wording follows the pages' "<Kind> (name: ...) is not
  found!": https://github.com/apinizer/management-api-docs/blob/main/02-api-reference/05-policies/policies/policy-encryption.md
* Deleting a JWK that a policy names is allowed: the delete page says it "may break policies that
  depend on it": https://github.com/apinizer/management-api-docs/blob/main/02-api-reference/08-keys-secrets/crud/delete-jwk.md
  Deleting a crypto key or certificate that a policy names, where the pages are silent, is a 400
  naming the policy and its proxy.
"""

from __future__ import annotations

import json
import sqlite3
from collections.abc import Iterator, Mapping
from typing import Any

from .errors import BadRequestError

#: Per field of a policy body: the kind its id names, and that kind's table.
REFERENCES: Mapping[str, tuple[str, str]] = {
    "jwkIdForValidationAndSign": ("JWK", "jwks"),
    "jwkIdForDecryptionAndEncryption": ("JWK", "jwks"),
    "cryptoKeyInfoId": ("Key", "crypto_keys"),
    "certificateId": ("Certificate", "certificates"),
}


class MissingReferenceError(BadRequestError):
    def __init__(self, field: str, kind: str, object_id: str) -> None:
        super().__init__(f"{field}: {kind} (id: {object_id}) is not found in the project!")


class ReferencedObjectError(BadRequestError):
    def __init__(self, kind: str, name: str, policy: str, proxy: str) -> None:
        super().__init__(
            f"{kind} (name: {name}) is used by policy ({policy}) of API Proxy ({proxy}):"
            " remove it from the policy before deleting it!"
        )


def named_in(body: Any) -> Iterator[tuple[str, str]]:
    """(field, id) of each reference that ``body`` makes, at any depth."""
    if isinstance(body, Mapping):
        for field, value in body.items():
            if field in REFERENCES and isinstance(value, str) and value:
                yield field, value
            else:
                yield from named_in(value)
    elif isinstance(body, list):
        for item in body:
            yield from named_in(item)


def check_policy(db: sqlite3.Connection, project: str, body: Any) -> None:
    """Every id that the policy ``body`` names is one of the project's objects of its kind."""
    for field, object_id in named_in(body):
        kind, table = REFERENCES[field]
        found = db.execute(f"SELECT 1 FROM {table} WHERE project = ? AND id = ?", (project, object_id))
        if found.fetchone() is None:
            raise MissingReferenceError(field, kind, object_id)


def refuse_if_named(db: sqlite3.Connection, project: str, kind: str, name: str, object_id: str) -> None:
    """A 400 if a policy of the project names ``object_id`` (a crypto key or certificate being deleted)."""
    for row in db.execute(
        "SELECT p.name, x.name AS proxy, p.body FROM policies p JOIN proxies x ON x.id = p.proxy_id"
        " WHERE x.project = ? AND p.body IS NOT NULL AND p.body LIKE ? ORDER BY p.seq",
        (project, f"%{object_id}%"),
    ):
        if any(value == object_id for _, value in named_in(json.loads(row["body"]))):
            raise ReferencedObjectError(kind, name, row["name"], row["proxy"])
