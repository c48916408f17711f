"""Policies' references to the keys and secrets families, wherever they stand in a policy's body (the
encryption and signing policies hold them in each item of their lists):

* by id: JWKs (``jwkIdForValidationAndSign``, ``jwkIdForDecryptionAndEncryption``), crypto keys
  (``cryptoKeyInfoId``) and certificates (``certificateId``);
* by name: the API call's mTLS certificate (``certificateName``: "resolved to certificate ID
  automatically", https://github.com/apinizer/management-api-docs/blob/main/02-api-reference/05-policies/policies/policy-api-call.md)
  and the keystores of SAML validation and WS-Security (``keyStoreName``, ``decKeyStoreName``,
  ``encKeyStoreName``, ``sigKeyStoreName``, ``verKeyStoreName``: "automatically resolved to KeyStore
  ID", https://github.com/apinizer/management-api-docs/blob/main/02-api-reference/05-policies/policies/policy-saml-validation.md).
  The pages search the project, then "global" objects; the management API has no global certificates or
  keystores to make, so the emulator searches the project.

No documented policy field names a connection (06-connections): there is nothing to check for them.

* A policy that names one that the project does not hold is a 400 naming the field and the id or name.
  The policy pages show no message for it; the wording follows the pages' "<Kind> (name: ...) is not
  found!": https://github.com/apinizer/management-api-docs/blob/main/02-api-reference/05-policies/policies/policy-encryption.md
* Deleting a JWK that a policy names is allowed: the delete page says it "may break policies that
  depend on it": https://github.com/apinizer/management-api-docs/blob/main/02-api-reference/08-keys-secrets/crud/delete-jwk.md
  Deleting a crypto key, certificate or keystore that a policy names, where the pages are silent, is a
  400 naming the policy and its proxy.
"""

from __future__ import annotations

import json
import sqlite3
from collections.abc import Iterator, Mapping
from typing import Any

from .errors import BadRequestError

#: Per field of a policy body that names an object by id: the kind it names, and that kind's table.
REFERENCES: Mapping[str, tuple[str, str]] = {
    "jwkIdForValidationAndSign": ("JWK", "jwks"),
    "jwkIdForDecryptionAndEncryption": ("JWK", "jwks"),
    "cryptoKeyInfoId": ("Key", "crypto_keys"),
    "certificateId": ("Certificate", "certificates"),
}
#: Per field of a policy body that names an object by name: the kind it names, and that kind's table.
NAMED_REFERENCES: Mapping[str, tuple[str, str]] = {
    "certificateName": ("Certificate", "certificates"),
    **{field: ("Keystore", "keystores") for field in (
        "keyStoreName", "decKeyStoreName", "encKeyStoreName", "sigKeyStoreName", "verKeyStoreName")},
}
#: The table that each deleted family's kind (its module's ``KIND``) is stored in.
_TABLES = {"Key": "crypto_keys", "Certificate": "certificates", "Keystore": "keystores", "JWK": "jwks"}


class MissingReferenceError(BadRequestError):
    def __init__(self, field: str, kind: str, value: str, by: str = "id") -> None:
        super().__init__(f"{field}: {kind} ({by}: {value}) is not found in the project!")


class ReferencedObjectError(BadRequestError):
    def __init__(self, kind: str, name: str, policy: str, proxy: str, action: str = "deleting") -> None:
        super().__init__(
            f"{kind} (name: {name}) is used by policy ({policy}) of API Proxy ({proxy}):"
            f" remove it from the policy before {action} it!"
        )


def named_in(body: Any) -> Iterator[tuple[str, str]]:
    """(field, id or name) of each reference that ``body`` makes, at any depth."""
    if isinstance(body, Mapping):
        for field, value in body.items():
            if (field in REFERENCES or field in NAMED_REFERENCES) and isinstance(value, str) and value:
                yield field, value
            else:
                yield from named_in(value)
    elif isinstance(body, list):
        for item in body:
            yield from named_in(item)


def check_policy(db: sqlite3.Connection, project: str, body: Any) -> None:
    """Every id or name that the policy ``body`` names is one of the project's objects of its kind."""
    for field, value in named_in(body):
        by = "id" if field in REFERENCES else "name"
        kind, table = REFERENCES[field] if by == "id" else NAMED_REFERENCES[field]
        found = db.execute(f"SELECT 1 FROM {table} WHERE project = ? AND {by} = ?", (project, value))
        if found.fetchone() is None:
            raise MissingReferenceError(field, kind, value, by)


def names_object(field: str, value: str, table: str, name: str, object_id: str) -> bool:
    """Whether the reference ``field: value`` of a policy names this object of ``table``."""
    if field in REFERENCES:
        return REFERENCES[field][1] == table and value == object_id
    return NAMED_REFERENCES[field][1] == table and value == name


def refuse_if_named(db: sqlite3.Connection, project: str, kind: str, name: str, object_id: str,
                    *, by_name_only: bool = False) -> None:
    """A 400 if a policy of the project names the object (a crypto key, certificate or keystore being
    deleted), by its id or by its name; with ``by_name_only``, by its name (one being renamed)."""
    table = _TABLES[kind]
    for row in db.execute(
        "SELECT p.name, x.name AS proxy, p.body FROM policies p JOIN proxies x ON x.id = p.proxy_id"
        " WHERE x.project = ? AND p.body IS NOT NULL AND (p.body LIKE ? OR p.body LIKE ?) ORDER BY p.seq",
        (project, f"%{object_id}%", f"%{name}%"),
    ):
        if any(names_object(field, value, table, name, object_id)
               and not (by_name_only and field in REFERENCES)
               for field, value in named_in(json.loads(row["body"]))):
            action = "renaming" if by_name_only else "deleting"
            raise ReferencedObjectError(kind, name, row["name"], row["proxy"], action)
