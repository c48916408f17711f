"""The RLCL family: rate limit control lists and their endpoint lists; state and rules.

The RLCL itself (create, update, delete) is the product documentation's (12-rlcl/crud); its
endpoint lists are spec 4.11b to 4.13. Functions take a store connection inside the caller's
transaction and raise the typed errors of :mod:`errors`. An RLCL's credentials and condition
are :mod:`api_proxy_groups`'s.
"""

from __future__ import annotations

import json
import sqlite3
from collections.abc import Sequence
from typing import Any

from apinizer_pulumi.models import EndpointRateLimit, RlclSpec

from .errors import (
    BadRequestError,
    ProjectNotFoundError,
    RlclAlreadyExistsError,
    RlclEndpointNotFoundError,
    RlclNotFoundError,
    RlclProxyNotFoundError,
    RlclRenameError,
)
from .fixtures import Fixture, FixtureError
from .models import new_id, stable_id
from .rules import MAX_DESCRIPTION_LENGTH, MAX_NAME_LENGTH, check_text

SCHEMA = """
CREATE TABLE IF NOT EXISTS rlcls (
    seq INTEGER PRIMARY KEY AUTOINCREMENT,
    id TEXT NOT NULL UNIQUE,
    project TEXT NOT NULL REFERENCES projects(name) ON DELETE CASCADE,
    name TEXT NOT NULL,
    UNIQUE (project, name)
);
CREATE TABLE IF NOT EXISTS rlcl_settings (
    rlcl_id TEXT PRIMARY KEY REFERENCES rlcls(id) ON DELETE CASCADE,
    body TEXT NOT NULL
);
CREATE TABLE IF NOT EXISTS rlcl_entries (
    seq INTEGER PRIMARY KEY AUTOINCREMENT,
    rlcl_id TEXT NOT NULL REFERENCES rlcls(id) ON DELETE CASCADE,
    api_proxy_name TEXT NOT NULL,
    endpoint_name TEXT NOT NULL,
    endpoint_http_method TEXT NOT NULL,
    endpoint_id TEXT,
    body TEXT NOT NULL,
    UNIQUE (rlcl_id, api_proxy_name, endpoint_name, endpoint_http_method)
);
"""
#: The family's tables, children first (the order a wipe deletes them in).
DATA_TABLES = ("rlcl_entries", "rlcl_settings", "rlcls")

ALL = "ALL"


# -- fixture ------------------------------------------------------------------------------------


def load_fixture(db: sqlite3.Connection, fixture: Fixture) -> None:
    """The fixture's RLCLs with their lists (their proxies and endpoints are loaded first)."""
    for project in fixture.projects:
        for rl in project.rlcls:
            rlcl_id = stable_id(project.name, "rlcl", rl.name)
            db.execute(
                "INSERT INTO rlcls (id, project, name) VALUES (?, ?, ?)", (rlcl_id, project.name, rl.name)
            )
            try:
                _insert_rate_limits(db, project.name, rlcl_id, rl.endpoint_rate_limit_list)
            except BadRequestError as exc:
                raise FixtureError(
                    f"RLCL {rl.name!r} of project {project.name!r}: {exc.description}"
                ) from exc


# -- RLCLs themselves (product documentation, 12-rlcl/crud) -------------------------------------


def create(db: sqlite3.Connection, project: str, spec: RlclSpec) -> None:
    """A new, empty RLCL; its name is unique within the project.

    https://github.com/apinizer/management-api-docs/blob/main/02-api-reference/12-rlcl/crud/create-rlcl.md
    """
    _check_texts(spec)
    if db.execute("SELECT 1 FROM projects WHERE name = ?", (project,)).fetchone() is None:
        raise ProjectNotFoundError(project)
    if (
        db.execute("SELECT 1 FROM rlcls WHERE project = ? AND name = ?", (project, spec.name)).fetchone()
        is not None
    ):
        raise RlclAlreadyExistsError(spec.name)
    rlcl_id = new_id()
    db.execute("INSERT INTO rlcls (id, project, name) VALUES (?, ?, ?)", (rlcl_id, project, spec.name))
    db.execute(
        "INSERT INTO rlcl_settings (rlcl_id, body) VALUES (?, ?)", (rlcl_id, json.dumps(spec.to_api()))
    )


def update(db: sqlite3.Connection, project: str, name: str, spec: RlclSpec) -> None:
    """Every field but the name; the RLCL's endpoints and credentials stay as they are.

    https://github.com/apinizer/management-api-docs/blob/main/02-api-reference/12-rlcl/crud/update-rlcl.md
    """
    if spec.name != name:
        raise RlclRenameError(name, spec.name)
    _check_texts(spec)
    rlcl_id = rlcl_of(db, project, name)
    db.execute(
        "INSERT INTO rlcl_settings (rlcl_id, body) VALUES (?, ?)"
        " ON CONFLICT (rlcl_id) DO UPDATE SET body = excluded.body",
        (rlcl_id, json.dumps(spec.to_api())),
    )


def remove(db: sqlite3.Connection, project: str, name: str) -> None:
    """The RLCL with its endpoints, credentials and conditions, permanently.

    https://github.com/apinizer/management-api-docs/blob/main/02-api-reference/12-rlcl/crud/delete-rlcl.md
    """
    db.execute("DELETE FROM rlcls WHERE id = ?", (rlcl_of(db, project, name),))


def settings(db: sqlite3.Connection, project: str, name: str) -> dict[str, Any]:
    """The RLCL's fields in the API's write shape (the API itself cannot read them back)."""
    return _settings(db, rlcl_of(db, project, name), name)


def _settings(db: sqlite3.Connection, rlcl_id: str, name: str) -> dict[str, Any]:
    row = db.execute("SELECT body FROM rlcl_settings WHERE rlcl_id = ?", (rlcl_id,)).fetchone()
    # A fixture's RLCL has no stored fields: it carries the documented defaults.
    return json.loads(row["body"]) if row is not None else RlclSpec(name=name).to_api()


def rlcl_of(db: sqlite3.Connection, project: str, name: str) -> str:
    """The RLCL's id, or ``RlclNotFoundError``."""
    row = db.execute("SELECT id FROM rlcls WHERE project = ? AND name = ?", (project, name)).fetchone()
    if row is None:
        raise RlclNotFoundError(name)
    return str(row["id"])


# -- endpoint lists (spec 4.11b to 4.13) --------------------------------------------------------


def _resolve_endpoint_id(db: sqlite3.Connection, project: str, entry: EndpointRateLimit) -> str | None:
    """The id of the endpoint an entry names (None for ALL).

    An endpoint whose own method is ALL matches an entry of any method.
    """
    proxy_name, name, method = entry.normalized_key
    proxy = db.execute(
        "SELECT id FROM proxies WHERE project = ? AND name = ?", (project, proxy_name)
    ).fetchone()
    if proxy is None:
        raise RlclProxyNotFoundError(proxy_name)
    if name == ALL and method == ALL:
        return None
    row = db.execute(
        "SELECT id FROM endpoints WHERE proxy_id = ? AND name = ? AND http_method IN (?, 'ALL')"
        " ORDER BY http_method = 'ALL' LIMIT 1",
        (proxy["id"], name, method),
    ).fetchone()
    if row is None:
        raise RlclEndpointNotFoundError(name, method)
    return str(row["id"])


def _insert_rate_limits(
    db: sqlite3.Connection, project: str, rlcl_id: str, entries: Sequence[EndpointRateLimit]
) -> None:
    resolved = [(entry, _resolve_endpoint_id(db, project, entry)) for entry in entries]
    for entry, endpoint_id in resolved:
        # Duplicates (same proxy, endpoint and method, ALL spelled out) are ignored: first one wins.
        db.execute(
            "INSERT OR IGNORE INTO rlcl_entries (rlcl_id, api_proxy_name, endpoint_name,"
            " endpoint_http_method, endpoint_id, body) VALUES (?, ?, ?, ?, ?, ?)",
            (rlcl_id, *entry.normalized_key, endpoint_id, json.dumps(entry.to_api())),
        )


def add(db: sqlite3.Connection, project: str, rlcl: str, entries: Sequence[EndpointRateLimit]) -> None:
    _insert_rate_limits(db, project, rlcl_of(db, project, rlcl), entries)


def replace(db: sqlite3.Connection, project: str, rlcl: str, entries: Sequence[EndpointRateLimit]) -> None:
    rlcl_id = rlcl_of(db, project, rlcl)
    for entry in entries:  # validate everything before the old list goes
        _resolve_endpoint_id(db, project, entry)
    db.execute("DELETE FROM rlcl_entries WHERE rlcl_id = ?", (rlcl_id,))
    _insert_rate_limits(db, project, rlcl_id, entries)


def delete(db: sqlite3.Connection, project: str, rlcl: str, entries: Sequence[EndpointRateLimit]) -> None:
    """Remove the entries matching each item's (proxy, endpoint, method); others are ignored."""
    rlcl_id = rlcl_of(db, project, rlcl)
    db.executemany(
        "DELETE FROM rlcl_entries WHERE rlcl_id = ? AND api_proxy_name = ? AND endpoint_name = ?"
        " AND endpoint_http_method = ?",
        [(rlcl_id, *entry.normalized_key) for entry in entries],
    )


def entries(
    db: sqlite3.Connection, project: str, rlcl: str, *, with_endpoint_ids: bool = False
) -> list[dict[str, Any]]:
    """The RLCL's list in the API's write shape (plus ``endpointId`` when asked)."""
    rlcl_id = rlcl_of(db, project, rlcl)
    rows = db.execute(
        "SELECT body, endpoint_id FROM rlcl_entries WHERE rlcl_id = ? ORDER BY seq", (rlcl_id,)
    ).fetchall()
    return [_entry_json(r, with_endpoint_ids) for r in rows]


def state(db: sqlite3.Connection, project: str) -> list[dict[str, Any]]:
    """The project's RLCLs for ``/_emulator/state``: their fields and lists."""
    found = []
    for rlcl in db.execute("SELECT * FROM rlcls WHERE project = ? ORDER BY seq", (project,)).fetchall():
        rows = db.execute(
            "SELECT body, endpoint_id FROM rlcl_entries WHERE rlcl_id = ? ORDER BY seq", (rlcl["id"],)
        ).fetchall()
        found.append(
            {
                "id": rlcl["id"],
                "name": rlcl["name"],
                "settings": _settings(db, rlcl["id"], rlcl["name"]),
                "endpointRateLimitList": [_entry_json(e, True) for e in rows],
            }
        )
    return found


def _entry_json(row: sqlite3.Row, with_endpoint_id: bool) -> dict[str, Any]:
    body: dict[str, Any] = json.loads(row["body"])
    if with_endpoint_id:
        body["endpointId"] = row["endpoint_id"]
    return body


def _check_texts(spec: RlclSpec) -> None:
    check_text("name", spec.name, max_length=MAX_NAME_LENGTH, single_line=True)
    check_text("description", spec.description, max_length=MAX_DESCRIPTION_LENGTH, single_line=False)
