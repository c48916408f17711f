"""The endpoints family: an API proxy's endpoints and their settings (status, cache, WS-Addressing);
state and rules (spec 4.3 to 4.11).

Functions take a store connection inside the caller's transaction, raise the typed errors of
:mod:`errors`, and return models. An endpoint is identified by (name, httpMethod) within its
proxy; the spec has no field to rename it, so an update cannot move it onto another endpoint's
pair: the uniqueness rule holds by construction (and by the table's unique index, the last line
of defence under concurrent creates).
"""

from __future__ import annotations

import json
import sqlite3
from typing import Any

from apinizer_pulumi.models import (
    CacheSettings,
    Endpoint,
    EndpointPolicies,
    EndpointSpec,
    EndpointUpdate,
    HttpMethod,
    WsaSettings,
)

from .errors import (
    CacheEndpointNotFoundError,
    EndpointAlreadyExistsError,
    EndpointNotFoundError,
    InvalidFieldError,
    NotRestProxyError,
    NotSoapProxyError,
    ProxyNotFoundError,
)
from .fixtures import Fixture
from .models import PIPELINES, EndpointRecord, Proxy, endpoint_json, new_id, policy_from_row, stable_id
from .rules import MAX_DESCRIPTION_LENGTH, MAX_NAME_LENGTH, check_text

SCHEMA = """
CREATE TABLE IF NOT EXISTS endpoints (
    seq INTEGER PRIMARY KEY AUTOINCREMENT,
    id TEXT NOT NULL UNIQUE,
    proxy_id TEXT NOT NULL REFERENCES proxies(id) ON DELETE CASCADE,
    name TEXT NOT NULL,
    http_method TEXT NOT NULL,
    description TEXT,
    active INTEGER NOT NULL,
    backend_resource_url TEXT,
    backend_http_method TEXT,
    cache_settings TEXT,
    wsa_settings TEXT
);
CREATE UNIQUE INDEX IF NOT EXISTS endpoints_identity ON endpoints(proxy_id, name, http_method);
"""
#: The family's tables, children first (the order a wipe deletes them in).
DATA_TABLES = ("endpoints",)

#: A created endpoint (active), inserted only into a REST proxy of that name.
_INSERT_INTO_REST_PROXY = (
    "INSERT INTO endpoints (id, proxy_id, name, http_method, description, active,"
    " backend_resource_url, backend_http_method)"
    " SELECT ?, id, ?, ?, ?, 1, ?, ? FROM proxies WHERE project = ? AND name = ? AND type = 'REST'"
)
#: The delete's one statement: it finds its REST proxy itself, as the insert does.
_DELETE_FROM_REST_PROXY = (
    "DELETE FROM endpoints WHERE name = ? AND http_method = ? AND proxy_id ="
    " (SELECT id FROM proxies WHERE project = ? AND name = ? AND type = 'REST')"
)
#: One proxy's endpoints as the list's ``resultList``, built by SQLite's JSON functions: one
#: string for the whole list instead of a record, a model and a dict per endpoint. The keys and
#: their order are those of ``models.Endpoint`` dumped by alias (the get's answer).
#: One statement, so one snapshot without a transaction around it: the proxy's id (NULL when
#: there is no such proxy) beside the list.
_ENDPOINT_LIST_JSON = (
    "WITH p AS (SELECT id FROM proxies WHERE project = ? AND name = ?)"
    " SELECT (SELECT id FROM p) AS proxy, count(*) AS n,"
    " coalesce(json_group_array(json(item)), '[]') AS items FROM ("
    " SELECT json_object('id', id, 'endpoint', name, 'description', description,"
    " 'active', json(CASE WHEN active THEN 'true' ELSE 'false' END), 'httpMethod', http_method,"
    " 'backendResourceUrl', backend_resource_url, 'backendHttpMethod', backend_http_method) AS item"
    " FROM endpoints WHERE proxy_id = (SELECT id FROM p) ORDER BY seq)"
)


# -- fixture ------------------------------------------------------------------------------------


def load_fixture(db: sqlite3.Connection, fixture: Fixture) -> None:
    """The endpoints of the fixture's proxies, with their cache and WS-Addressing settings."""
    for project in fixture.projects:
        for px in project.api_proxies:
            proxy_id = stable_id(project.name, px.name)
            for ep in px.endpoints:
                endpoint_id = ep.id or stable_id(project.name, px.name, ep.http_method.value, ep.name)
                _insert(
                    db,
                    endpoint_id,
                    proxy_id,
                    ep.name,
                    ep.http_method.value,
                    ep.description,
                    ep.backend_resource_url,
                    ep.backend_http_method.value if ep.backend_http_method else None,
                    active=ep.active,
                )
                if ep.cache_settings is not None:
                    db.execute(
                        "UPDATE endpoints SET cache_settings = ? WHERE id = ?",
                        (json.dumps(ep.cache_settings.to_api()), endpoint_id),
                    )
                if ep.wsa_settings is not None:
                    db.execute(
                        "UPDATE endpoints SET wsa_settings = ? WHERE id = ?",
                        (json.dumps(ep.wsa_settings.to_api()), endpoint_id),
                    )


def _insert(
    db: sqlite3.Connection,
    endpoint_id: str,
    proxy_id: str,
    name: str,
    method: str,
    description: str | None,
    backend_url: str | None,
    backend_method: str | None,
    *,
    active: bool = True,
) -> None:
    db.execute(
        "INSERT INTO endpoints (id, proxy_id, name, http_method, description, active,"
        " backend_resource_url, backend_http_method) VALUES (?, ?, ?, ?, ?, ?, ?, ?)",
        (endpoint_id, proxy_id, name, method, description, int(active), backend_url, backend_method),
    )


# -- reads --------------------------------------------------------------------------------------


def list_endpoints(db: sqlite3.Connection, project: str, proxy_name: str) -> list[Endpoint]:
    proxy = _proxy(db, project, proxy_name)
    rows = db.execute("SELECT * FROM endpoints WHERE proxy_id = ? ORDER BY seq", (proxy.id,)).fetchall()
    return [EndpointRecord.from_row(r).to_model() for r in rows]


def list_endpoints_json(db: sqlite3.Connection, project: str, proxy_name: str) -> tuple[int, str]:
    """(count, JSON array): what :func:`list_endpoints` returns, serialized by SQLite in one
    statement (so a read without a snapshot of its own: ``snapshot=False``)."""
    row = db.execute(_ENDPOINT_LIST_JSON, (project, proxy_name)).fetchone()
    if row["proxy"] is None:
        raise ProxyNotFoundError(proxy_name)
    return int(row["n"]), str(row["items"])


def get_endpoint(
    db: sqlite3.Connection, project: str, proxy_name: str, name: str, method: HttpMethod
) -> Endpoint:
    proxy = _proxy(db, project, proxy_name)
    return _endpoint(db, proxy, name, method.value).to_model()


def endpoint_policies(
    db: sqlite3.Connection, project: str, proxy_name: str, name: str, method: HttpMethod
) -> EndpointPolicies:
    proxy = _proxy(db, project, proxy_name)
    record = _endpoint(db, proxy, name, method.value)
    rows = db.execute(
        "SELECT * FROM policies WHERE endpoint_id = ? ORDER BY position, seq", (record.id,)
    ).fetchall()
    policies: dict[str, list[Any]] = {p: [] for p in PIPELINES}
    for row in rows:
        policies[row["pipeline"]].append(policy_from_row(row))
    return record.with_policies(policies)


def state(db: sqlite3.Connection, proxy_id: str) -> list[dict[str, Any]]:
    """The proxy's endpoints for ``/_emulator/state``: each with its policies and settings."""
    return [
        _endpoint_state(db, EndpointRecord.from_row(r))
        for r in db.execute("SELECT * FROM endpoints WHERE proxy_id = ? ORDER BY seq", (proxy_id,)).fetchall()
    ]


def _endpoint_state(db: sqlite3.Connection, record: EndpointRecord) -> dict[str, Any]:
    body = endpoint_json(record.to_model())
    for pipeline in PIPELINES:
        body[f"{pipeline}PolicyList"] = [
            policy_from_row(r).model_dump(mode="json", by_alias=True)
            for r in db.execute(
                "SELECT * FROM policies WHERE endpoint_id = ? AND pipeline = ? ORDER BY position, seq",
                (record.id, pipeline),
            )
        ]
    body["cacheSettings"] = record.cache_settings
    body["wsaSettings"] = record.wsa_settings
    return body


# -- writes -------------------------------------------------------------------------------------


def create_endpoint(db: sqlite3.Connection, project: str, proxy_name: str, spec: EndpointSpec) -> str:
    """The new endpoint's id (the API answers a create with ``success`` alone; a model built
    here for nobody cost the writer thread, which shares the GIL with the event loop).

    One statement (``one_statement=True``): the insert finds its REST proxy itself, and only when
    it inserts nothing is the proxy looked up, to tell a missing proxy from a SOAP one.
    """
    _check_texts(spec.name, spec.description, spec.backend_resource_url)
    method = spec.http_method.value
    endpoint_id = new_id()
    try:
        inserted = db.execute(
            _INSERT_INTO_REST_PROXY,
            (
                endpoint_id,
                spec.name,
                method,
                spec.description,
                spec.backend_resource_url,
                spec.backend_http_method.value,
                project,
                proxy_name,
            ),
        ).rowcount
    except sqlite3.IntegrityError as exc:  # the (proxy, name, method) index: it exists already
        raise EndpointAlreadyExistsError(spec.name, method) from exc
    if not inserted:
        _proxy(db, project, proxy_name)
        raise NotRestProxyError("create")
    return endpoint_id


def update_endpoint(
    db: sqlite3.Connection, project: str, proxy_name: str, update: EndpointUpdate
) -> Endpoint:
    """Change only the fields the request carried (a null counts as not carried)."""
    changes: dict[str, Any] = {}
    if update.description is not None:
        changes["description"] = update.description
    if update.backend_resource_url is not None:
        changes["backend_resource_url"] = update.backend_resource_url
    if update.backend_http_method is not None:
        changes["backend_http_method"] = update.backend_http_method.value
    _check_texts(None, changes.get("description"), changes.get("backend_resource_url"))
    proxy = _proxy(db, project, proxy_name)
    record = _endpoint(db, proxy, update.name, update.http_method.value)
    if changes:
        assignments = ", ".join(f"{column} = ?" for column in changes)
        db.execute(f"UPDATE endpoints SET {assignments} WHERE id = ?", (*changes.values(), record.id))
    return _endpoint(db, proxy, update.name, update.http_method.value).to_model()


def delete_endpoint(
    db: sqlite3.Connection, project: str, proxy_name: str, name: str, method: HttpMethod
) -> None:
    """Permanent; the endpoint's policies go with it (foreign-key cascade).

    One statement (``one_statement=True``), as a create: only when it deletes nothing are the
    proxy and the endpoint looked up, to tell which error it is, in the order of the checks
    (a missing proxy, a SOAP one, a missing endpoint).
    """
    if db.execute(_DELETE_FROM_REST_PROXY, (name, method.value, project, proxy_name)).rowcount:
        return
    proxy = _proxy(db, project, proxy_name)
    if not proxy.is_rest:
        raise NotRestProxyError("delete")
    raise EndpointNotFoundError(name, method.value)


def set_status(
    db: sqlite3.Connection, project: str, proxy_name: str, name: str, method: HttpMethod, active: bool
) -> None:
    proxy = _proxy(db, project, proxy_name)
    record = _endpoint(db, proxy, name, method.value)
    db.execute("UPDATE endpoints SET active = ? WHERE id = ?", (int(active), record.id))


def set_cache(
    db: sqlite3.Connection,
    project: str,
    proxy_name: str,
    name: str,
    method: HttpMethod,
    settings: CacheSettings,
) -> None:
    _store_settings(db, project, proxy_name, name, method, "cache_settings", settings.to_api())


def set_wsa(
    db: sqlite3.Connection,
    project: str,
    proxy_name: str,
    name: str,
    method: HttpMethod,
    settings: WsaSettings,
) -> None:
    _store_settings(db, project, proxy_name, name, method, "wsa_settings", settings.to_api(), soap_only=True)


def _store_settings(
    db: sqlite3.Connection,
    project: str,
    proxy_name: str,
    name: str,
    method: HttpMethod,
    column: str,
    body: dict[str, Any],
    *,
    soap_only: bool = False,
) -> None:
    """Cache or WS-Addressing settings of one endpoint; an unknown endpoint is a 404 here."""
    proxy = _proxy(db, project, proxy_name)
    if soap_only and proxy.is_rest:
        raise NotSoapProxyError()
    record = _find_endpoint(db, proxy, name, method.value)
    if record is None:
        raise CacheEndpointNotFoundError(name, method.value)
    db.execute(f"UPDATE endpoints SET {column} = ? WHERE id = ?", (json.dumps(body), record.id))


# -- helpers ------------------------------------------------------------------------------------


def _proxy(db: sqlite3.Connection, project: str, name: str) -> Proxy:
    row = db.execute("SELECT * FROM proxies WHERE project = ? AND name = ?", (project, name)).fetchone()
    if row is None:
        raise ProxyNotFoundError(name)
    return Proxy.from_row(row)


def _find_endpoint(db: sqlite3.Connection, proxy: Proxy, name: str, method: str) -> EndpointRecord | None:
    row = db.execute(
        "SELECT * FROM endpoints WHERE proxy_id = ? AND name = ? AND http_method = ?",
        (proxy.id, name, method),
    ).fetchone()
    return EndpointRecord.from_row(row) if row else None


def _endpoint(db: sqlite3.Connection, proxy: Proxy, name: str, method: str) -> EndpointRecord:
    record = _find_endpoint(db, proxy, name, method)
    if record is None:
        raise EndpointNotFoundError(name, method)
    return record


def _check_texts(name: str | None, description: str | None, backend_url: str | None) -> None:
    if name is not None and not name.strip():
        raise InvalidFieldError("name", "must not be blank")
    check_text("name", name, max_length=MAX_NAME_LENGTH, single_line=True)
    check_text("description", description, max_length=MAX_DESCRIPTION_LENGTH, single_line=False)
    check_text("backendResourceUrl", backend_url, max_length=MAX_NAME_LENGTH, single_line=True)
