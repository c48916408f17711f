"""What the API never answers, stored only as a salted hash (``pbkdf2_sha256$...``, as passwords are).

* A secret environment value: ``globalValue`` when ``globalVisible`` is false, and each
  ``environmentValueList`` item's ``value`` when its ``visible`` is false; the pages answer them
  ``null``:
  https://github.com/apinizer/management-api-docs/blob/main/02-api-reference/10-environment-variables/crud/list-environment-variables.md
* An API proxy's ``secretKey``, which no page answers (its ``publicKey`` is kept as written):
  https://github.com/apinizer/management-api-docs/blob/main/02-api-reference/04-api-proxies/settings/update-api-keys.md
* The passwords that a policy type's page says a list clears (:data:`CLEARED_POLICY_FIELDS`); the
  list answers them ``null``. The other secret fields of policies (an API call's header values)
  are answered by the list, so they are kept as written.

Nothing the emulator does compares these values afterwards. Hashing costs ~50 ms of CPU per value
on purpose, so the routes run it on the password-hashing threads (:data:`auth.PASSWORD_HASHING`)
before the write. A value that is a hash already (an export of this emulator imported again) is
kept. Rows written before this rule are hashed when the database file is opened (:func:`migrate`).
"""

from __future__ import annotations

import json
import sqlite3
from collections.abc import Callable, Mapping, Sequence
from typing import Any

from . import auth

#: Per policy type, the paths (the API's names, dotted; lists walked) of the secret fields that its
#: page says a list clears.
CLEARED_POLICY_FIELDS: Mapping[str, tuple[str, ...]] = {
    # https://github.com/apinizer/management-api-docs/blob/main/02-api-reference/05-policies/policies/policy-api-authentication.md
    "policy-api-authentication": ("apiAuthCondExpressionList.password",),
    # https://github.com/apinizer/management-api-docs/blob/main/02-api-reference/05-policies/policies/policy-oidc.md
    "policy-oidc": ("clientSecret",),
    # https://github.com/apinizer/management-api-docs/blob/main/02-api-reference/05-policies/policies/policy-ws-security-to-target.md
    "policy-ws-security-to-target": ("unPassword",),
    # https://github.com/apinizer/management-api-docs/blob/main/02-api-reference/05-policies/policies/policy-ws-security-username.md
    "policy-ws-security-username": ("password",),
}
_HASH_PREFIX = auth.PASSWORD_SCHEME + "$"


def is_hashed(value: object) -> bool:
    return isinstance(value, str) and value.startswith(_HASH_PREFIX) and value.count("$") == 3


def _hashed(value: Any, stored: Any = None) -> Any:
    """``value`` hashed; the stored hash when it is that of ``value`` (so that writing the same
    secret again changes nothing stored, as for any other field), and a hash as it is."""
    if not isinstance(value, str) or is_hashed(value):
        return value
    if is_hashed(stored) and auth.verify_password(value, stored):
        return stored
    return auth.hash_password(value)


def _cleared(value: Any, stored: Any = None) -> None:
    return None


def _apply(node: Any, parts: Sequence[str], change: Callable[[Any, Any], Any], stored: Any) -> None:
    """``change(value, stored value)`` at the path, ``stored`` walked alongside (lists by index)."""
    if isinstance(node, list):
        earlier = stored if isinstance(stored, list) else []
        for index, item in enumerate(node):
            _apply(item, parts, change, earlier[index] if index < len(earlier) else None)
        return
    if not isinstance(node, dict) or node.get(parts[0]) is None:
        return
    before = stored.get(parts[0]) if isinstance(stored, dict) else None
    if len(parts) == 1:
        node[parts[0]] = change(node[parts[0]], before)
    else:
        _apply(node[parts[0]], parts[1:], change, before)


def _policy_with(
    body: Mapping[str, Any],
    change: Callable[[Any, Any], Any],
    policy_type: str | None = None,
    stored: Mapping[str, Any] | None = None,
) -> Any:
    paths = CLEARED_POLICY_FIELDS.get(str(policy_type or body.get("type")), ())
    if not paths:
        return body
    copied = json.loads(json.dumps(body))
    for path in paths:
        _apply(copied, path.split("."), change, stored)
    return copied


def has_cleared_fields(policy_type: str) -> bool:
    return policy_type in CLEARED_POLICY_FIELDS


def hash_policy(
    body: Mapping[str, Any], policy_type: str | None = None, stored: Mapping[str, Any] | None = None
) -> Any:
    """A policy body (the API's JSON) with the fields its list clears hashed (CPU-heavy); a field
    whose ``stored`` hash is that of its value keeps the stored hash."""
    return _policy_with(body, _hashed, policy_type, stored)


def clear_policy(body: Mapping[str, Any]) -> Any:
    """A policy body as the list answers it: the fields its page says a list clears are null."""
    return _policy_with(body, _cleared)


def hash_variable(body: Mapping[str, Any]) -> dict[str, Any]:
    """A variable (the API's JSON) with every value that is not visible hashed (CPU-heavy).
    Nothing tells a deployment of a variable apart by its values, so no stored hash is kept."""
    copied: dict[str, Any] = json.loads(json.dumps(body))
    if copied.get("globalVisible") is False:
        copied["globalValue"] = _hashed(copied.get("globalValue"))
    for item in copied.get("environmentValueList") or []:
        if isinstance(item, dict) and not item.get("visible", False):
            item["value"] = _hashed(item.get("value"))
    return copied


def hash_api_keys(keys: Mapping[str, Any], stored: Mapping[str, Any] | None = None) -> dict[str, Any]:
    """The keys of the API keys page with ``secretKey`` hashed (CPU-heavy); the ``stored`` hash
    when it is that of the new key."""
    copied = dict(keys)
    if copied.get("secretKey") is not None:
        copied["secretKey"] = _hashed(copied["secretKey"], (stored or {}).get("secretKey"))
    return copied


def hash_details(details: Mapping[str, Any]) -> dict[str, Any]:
    """A proxy's stored details with its API keys' ``secretKey`` hashed (CPU-heavy)."""
    copied = dict(details)
    if isinstance(copied.get("apiKeys"), Mapping):
        copied["apiKeys"] = hash_api_keys(copied["apiKeys"])
    return copied


def migrate(conn: sqlite3.Connection) -> None:
    """Hash what rows written before this rule hold in clear; rows already hashed are left alone.

    Runs when the database file is opened, in one transaction.
    """
    changes: list[tuple[str, str, int]] = []
    for row in conn.execute("SELECT seq, body FROM environment_variables"):
        body = json.loads(row["body"])
        hashed = hash_variable(body)
        if hashed != body:
            changes.append(("environment_variables", json.dumps(hashed), row["seq"]))
    for row in conn.execute("SELECT rowid AS seq, body FROM proxy_details WHERE body LIKE '%\"secretKey\"%'"):
        details = json.loads(row["body"])
        hashed_details = hash_details(details)
        if hashed_details != details:
            changes.append(("proxy_details", json.dumps(hashed_details), row["seq"]))
    types = sorted(CLEARED_POLICY_FIELDS)
    marks = ", ".join("?" * len(types))
    for row in conn.execute(
        f"SELECT seq, type, body FROM policies WHERE body IS NOT NULL AND type IN ({marks})", types
    ):
        policy = json.loads(row["body"])
        hashed_policy = hash_policy(policy, row["type"])
        if hashed_policy != policy:
            changes.append(("policies", json.dumps(hashed_policy), row["seq"]))
    if not changes:
        return
    # secure_delete: the space the clear values leave is zeroed, not left for a reader of the file.
    conn.execute("PRAGMA secure_delete=ON")
    conn.execute("BEGIN IMMEDIATE")
    try:
        for table, body, seq in changes:
            key = "rowid" if table == "proxy_details" else "seq"
            conn.execute(f"UPDATE {table} SET body = ? WHERE {key} = ?", (body, seq))
        conn.execute("COMMIT")
    except BaseException:
        conn.execute("ROLLBACK")
        raise
    finally:
        conn.execute("PRAGMA secure_delete=OFF")
