"""Policies of API proxies: state and rules.

https://github.com/apinizer/management-api-docs/blob/main/02-api-reference/05-policies/crud/index.md

One table holds every policy, the fixture's and those added through the API: per proxy, per
pipeline (request, response, error), per scope (the proxy's own lists when ``endpoint_id`` is
NULL, the documentation's ``ALL``; one endpoint's lists otherwise, ``ENDPOINT``), in order
(``position``, 1, 2, 3... in each list, kept without gaps). ``body`` is the whole policy as the API
writes it, validated with the client's models; a fixture may declare a policy by its summary
alone (type, name, description, active), and then ``body`` is NULL.

Functions take a store connection inside the caller's transaction and raise the typed errors
below. Every change of a proxy's policies changes the proxy's fingerprint
(:func:`deployments.fingerprint`), so a deployed proxy then answers ``redeployRequired: true``.
"""

from __future__ import annotations

import json
import sqlite3
import time
from collections.abc import Mapping, Sequence
from dataclasses import dataclass
from typing import Any, Literal, get_args

from pydantic import BaseModel, ConfigDict, Field, ValidationError

from apinizer_pulumi.models import POLICY_TYPES, HttpMethod

from . import key_references, secrets_at_rest
from .deployments import (
    IN_LIST_ORDER,
    DeploymentTargetError,
    deploy_all,
    details_of,
    environment_row,
    proxy_row,
)
from .errors import BadRequestError, EndpointNotFoundError, ProjectNotFoundError, ProxyNotFoundError
from .fixtures import Fixture, FixtureError, PolicyFixture
from .models import stable_id
from .rules import extra_fields, validation_message

SCHEMA = """
CREATE TABLE IF NOT EXISTS policies (
    seq INTEGER PRIMARY KEY AUTOINCREMENT,
    proxy_id TEXT NOT NULL REFERENCES proxies(id) ON DELETE CASCADE,
    endpoint_id TEXT REFERENCES endpoints(id) ON DELETE CASCADE,
    pipeline TEXT NOT NULL CHECK (pipeline IN ('request', 'response', 'error')),
    position INTEGER NOT NULL,
    type TEXT NOT NULL,
    name TEXT NOT NULL,
    description TEXT,
    active INTEGER NOT NULL,
    body TEXT
);
CREATE INDEX IF NOT EXISTS policies_endpoint ON policies(endpoint_id);
CREATE INDEX IF NOT EXISTS policies_list ON policies(proxy_id, endpoint_id, pipeline, position);
"""
#: The family's tables, children first (the order a wipe deletes them in).
DATA_TABLES = ("policies",)

#: The lists of a proxy or an endpoint, as stored and as the API names them.
PIPELINES = ("request", "response", "error")
PIPELINE_KEYS = {p: f"{p}PolicyList" for p in PIPELINES}
#: What ``/_emulator/state`` shows instead of a secret field's value.
MASK = "******"


# -- errors -------------------------------------------------------------------------------------------
# The add page's and the update and delete pages' 400 messages; the others are the emulator's.


class PolicyExistsError(BadRequestError):
    def __init__(self, name: str) -> None:
        super().__init__(f"A policy with same name ({name}) is already exist in API Proxy!")


class PolicyNotFoundError(BadRequestError):
    def __init__(self, name: str) -> None:
        super().__init__(f"A policy with name ({name}) does not exist in API Proxy!")


class PolicyTypeChangeError(BadRequestError):
    """The update page: "The policy ``type`` cannot be changed" (no message shown; ours)."""

    def __init__(self, name: str, old: str, new: str) -> None:
        super().__init__(
            f"Policy type can not be changed: policy ({name}) is {old}, not {new}!"
            " Delete it and add a new one."
        )


#: The protocol transformation policies come and go with a proxy's SOAP/REST transformation: their
#: pages say they cannot be added or deleted through the API, and that update is not implemented.
SYSTEM_MANAGED_TYPES = frozenset(t for t, model in POLICY_TYPES.items() if not model.addable)


class SystemManagedPolicyError(BadRequestError):
    """https://github.com/apinizer/management-api-docs/blob/main/02-api-reference/05-policies/policies/policy-request-protocol-transformation.md
    (no message shown; ours)."""

    def __init__(self, policy_type: str, operation: str) -> None:
        super().__init__(
            f"A {policy_type} policy can not be {operation} through the API: it comes with the"
            " SOAP/REST transformation of the API Proxy!"
        )


def check_manageable(policy_type: str, operation: str) -> None:
    """``operation`` (added, updated, deleted) is refused for the system-managed types."""
    if policy_type in SYSTEM_MANAGED_TYPES:
        raise SystemManagedPolicyError(policy_type, operation)


class UnknownPolicyTypeError(BadRequestError):
    """The add page's "Invalid policy type" (no message shown; ours names the known types)."""

    def __init__(self, policy_type: str, known: Sequence[str]) -> None:
        super().__init__(f"Unknown policy type ({policy_type})! Known types: {', '.join(sorted(known))}")


class ImportPolicyError(BadRequestError):
    def __init__(self, where: str, problem: str) -> None:
        super().__init__(f"apiProxyExportFile does not hold a valid API Proxy export: {where}: {problem}")


class PolicyNameError(BadRequestError):
    def __init__(self) -> None:
        super().__init__("policyName value can not be empty!")


# -- what the routes hand over -----------------------------------------------------------------------


@dataclass(frozen=True)
class Placement:
    """Where a policy goes or is looked for: ``operationMetadata`` without its deployment."""

    pipeline: str
    #: None: the proxy's own lists (scope ALL); else the endpoint's (name, HTTP method).
    endpoint: tuple[str, str] | None = None
    order: int | None = None


@dataclass(frozen=True)
class Deployment:
    """``deploy`` and ``deployTargetEnvironmentNameList``."""

    deploy: bool = True
    environments: tuple[str, ...] = ()


@dataclass(frozen=True)
class PolicyData:
    """A validated policy as the API writes it (``body``), without its name."""

    type: str
    description: str | None
    active: bool
    body: Mapping[str, Any]


# -- migration -------------------------------------------------------------------------------------


def migrate(conn: sqlite3.Connection) -> None:
    """Bring a database file made before policies were stored whole to this module's table.

    The old table held endpoints' policy summaries only (no proxy, position or body): its rows
    become ENDPOINT-scoped policies, in the order they were stored, with the same ``seq``.
    Runs before the schema script, in its own transaction; checked again inside it, so two
    processes opening the same file migrate it once.
    """
    if not _needs_migration(conn):
        return
    conn.execute("BEGIN IMMEDIATE")
    try:
        if _needs_migration(conn):
            # Index names are global: the old one would keep the new table from getting its own.
            conn.execute("DROP INDEX IF EXISTS policies_endpoint")
            conn.execute("ALTER TABLE policies RENAME TO policies_before_positions")
            for statement in _statements(SCHEMA):
                conn.execute(statement)
            conn.execute(
                "INSERT INTO policies (seq, proxy_id, endpoint_id, pipeline, position, type, name,"
                " description, active, body)"
                " SELECT p.seq, e.proxy_id, p.endpoint_id, p.pipeline,"
                " row_number() OVER (PARTITION BY p.endpoint_id, p.pipeline ORDER BY p.seq),"
                " p.type, p.name, p.description, p.active, NULL"
                " FROM policies_before_positions p JOIN endpoints e ON e.id = p.endpoint_id"
            )
            conn.execute("DROP TABLE policies_before_positions")
    except BaseException:
        conn.execute("ROLLBACK")
        raise
    conn.execute("COMMIT")


def _needs_migration(conn: sqlite3.Connection) -> bool:
    columns = {row[1] for row in conn.execute("PRAGMA table_info(policies)")}
    return bool(columns) and "proxy_id" not in columns


def _statements(script: str) -> list[str]:
    return [s.strip() for s in script.split(";") if s.strip()]


# -- reads -------------------------------------------------------------------------------------------


def list_policies(db: sqlite3.Connection, project: str, proxy_name: str) -> dict[str, Any]:
    """The list page's answer: the proxy with its own three lists and every endpoint's.

    Every endpoint is listed (in the order the proxy has them), each with its three lists, empty
    arrays where a pipeline has none; entries are whole policies (the summary of one the fixture
    declared by its summary alone).
    """
    row = _proxy(db, project, proxy_name)
    return {"status": "SUCCESS", "resultList": [_proxy_policies(db, row)], "resultCount": 1}


def _proxy_policies(db: sqlite3.Connection, row: sqlite3.Row, *, masked: bool = False) -> dict[str, Any]:
    details = details_of(row)
    paths = (details.get("clientRoute") or {}).get("relativePathList") or [None]
    lists: dict[str | None, dict[str, list[dict[str, Any]]]] = {}
    for policy in db.execute(
        "SELECT * FROM policies WHERE proxy_id = ? ORDER BY position, seq", (row["id"],)
    ).fetchall():
        by_pipeline = lists.setdefault(policy["endpoint_id"], {p: [] for p in PIPELINES})
        by_pipeline[policy["pipeline"]].append(entry_json(policy, masked=masked))
    empty: dict[str, list[dict[str, Any]]] = {p: [] for p in PIPELINES}
    endpoints = []
    for e in db.execute(
        "SELECT id, name, http_method, active FROM endpoints WHERE proxy_id = ? ORDER BY seq", (row["id"],)
    ):
        own = lists.get(e["id"], empty)
        endpoints.append(
            {
                "endpoint": e["name"],
                "active": bool(e["active"]),
                "httpMethod": e["http_method"],
                **{PIPELINE_KEYS[p]: own[p] for p in PIPELINES},
            }
        )
    proxy_level = lists.get(None, empty)
    return {
        "name": row["name"],
        "type": row["type"],
        "relativePath": paths[0],
        "soapToRest": bool(details.get("soapToRest", False)),
        **{PIPELINE_KEYS[p]: proxy_level[p] for p in PIPELINES},
        "endpointList": endpoints,
    }


def entry_json(row: sqlite3.Row, *, masked: bool = False) -> dict[str, Any]:
    """One policy as the list shows it: type and name first, then what was written."""
    if row["body"] is None:
        entry: dict[str, Any] = {"type": row["type"], "name": row["name"]}
        if row["description"] is not None:
            entry["description"] = row["description"]
        entry["active"] = bool(row["active"])
        return entry
    body: dict[str, Any] = json.loads(row["body"])
    # The fields the type's page says a list clears are null in the list (and hashed in the row).
    body = mask_secrets(body) if masked else secrets_at_rest.clear_policy(body)
    return {"type": row["type"], "name": row["name"], **{k: v for k, v in body.items() if k != "type"}}


def stored_body(db: sqlite3.Connection, project: str, proxy_name: str, name: str) -> dict[str, Any] | None:
    """The body stored for the proxy's policy ``name``; None when there is none (or only its summary)."""
    row = db.execute(
        "SELECT p.body FROM policies p JOIN proxies x ON x.id = p.proxy_id"
        " WHERE x.project = ? AND x.name = ? AND p.name = ?",
        (project, proxy_name, name),
    ).fetchone()
    if row is None or row["body"] is None:
        return None
    body: dict[str, Any] = json.loads(row["body"])
    return body


def proxy_state(db: sqlite3.Connection, proxy_id: str) -> dict[str, Any]:
    """The proxy's policies for ``/_emulator/state``: the list's shape, secret fields masked."""
    row = db.execute(
        "SELECT p.*, d.body FROM proxies p LEFT JOIN proxy_details d ON d.proxy_id = p.id WHERE p.id = ?",
        (proxy_id,),
    ).fetchone()
    return _proxy_policies(db, row, masked=True)


def mask_secrets(body: dict[str, Any], model: Any = None) -> dict[str, Any]:
    """``body`` (the API's JSON) with the value of every secret field of its model (the model's
    ``secret_fields()``, its type's when not given) replaced by :data:`MASK`; a body whose type
    no model knows has no secret field known either, and is returned as it is."""
    if model is None:
        model = POLICY_TYPES.get(str(body.get("type")))
        if model is None:
            return body
    masked: dict[str, Any] = json.loads(json.dumps(body))
    for path in model.secret_fields():
        _mask_path(masked, path.split("."), model)
    return masked


def _mask_path(value: Any, parts: Sequence[str], model: Any) -> None:
    """Walk ``value`` (JSON) along snake_case field names, translated to the API's by each model."""
    if isinstance(value, list):
        for item in value:
            _mask_path(item, parts, model)
        return
    if not isinstance(value, dict) or model is None:
        return
    field = model.model_fields.get(parts[0])
    if field is None:
        return
    key = field.alias or parts[0]
    if key not in value or value[key] is None:
        return
    if len(parts) == 1:
        value[key] = MASK
        return
    _mask_path(value[key], parts[1:], _nested_model(field.annotation))


def _nested_model(annotation: Any) -> Any:
    """The model class inside an annotation such as ``Foo | None`` or ``list[Foo]``."""
    if isinstance(annotation, type) and issubclass(annotation, BaseModel):
        return annotation
    for arg in get_args(annotation):
        found = _nested_model(arg)
        if found is not None:
            return found
    return None


# -- writes -------------------------------------------------------------------------------------------


def add_policy(
    db: sqlite3.Connection,
    project: str,
    proxy_name: str,
    name: str,
    placement: Placement,
    policy: PolicyData,
    deployment: Deployment,
) -> dict[str, Any]:
    """The add page: a name new to the proxy; ``order`` null or >= the list's size appends."""
    row = _writable(db, project, proxy_name, name, deployment)
    key_references.check_policy(db, project, policy.body)
    endpoint_id = _endpoint_id(db, row["id"], placement.endpoint)
    if _instances(db, row["id"], name):
        raise PolicyExistsError(name)
    others = _list(db, row["id"], endpoint_id, placement.pipeline)
    index = _insertion_index(placement.order, len(others))
    seq = db.execute(
        "INSERT INTO policies (proxy_id, endpoint_id, pipeline, position, type, name, description, active,"
        " body) VALUES (?, ?, ?, 0, ?, ?, ?, ?, ?)",
        (
            row["id"],
            endpoint_id,
            placement.pipeline,
            policy.type,
            name,
            policy.description,
            int(policy.active),
            json.dumps(dict(policy.body)),
        ),
    ).lastrowid
    assert seq is not None
    _renumber(db, [*others[:index], seq, *others[index:]])
    return _answer(db, row, deployment)


def update_policy(
    db: sqlite3.Connection,
    project: str,
    proxy_name: str,
    name: str,
    placement: Placement,
    policy: PolicyData,
    deployment: Deployment,
) -> dict[str, Any]:
    """The update page: the same type; the placement may name another list (the policy moves
    there, at the end unless ``order`` says where); ``order`` null keeps the position."""
    row = _writable(db, project, proxy_name, name, deployment)
    key_references.check_policy(db, project, policy.body)
    instances = _instances(db, row["id"], name)
    if not instances:
        raise PolicyNotFoundError(name)
    endpoint_id = _endpoint_id(db, row["id"], placement.endpoint)
    # Several only where a fixture or an import brought them: the one in the target list if any.
    current = next(
        (p for p in instances if p["endpoint_id"] == endpoint_id and p["pipeline"] == placement.pipeline),
        instances[0],
    )
    check_manageable(current["type"], "updated")
    if current["type"] != policy.type:
        raise PolicyTypeChangeError(current["name"], current["type"], policy.type)
    db.execute(
        "UPDATE policies SET endpoint_id = ?, pipeline = ?, description = ?, active = ?, body = ?"
        " WHERE seq = ?",
        (
            endpoint_id,
            placement.pipeline,
            policy.description,
            int(policy.active),
            json.dumps(dict(policy.body)),
            current["seq"],
        ),
    )
    moved = current["endpoint_id"] != endpoint_id or current["pipeline"] != placement.pipeline
    if moved:
        _renumber(db, _list(db, row["id"], current["endpoint_id"], current["pipeline"]))
    listed = _list(db, row["id"], endpoint_id, placement.pipeline)
    others = [s for s in listed if s != current["seq"]]
    if placement.order is not None:
        # The list counts the policy itself: order n of n is the end, where n or more moves it.
        index = min(placement.order - 1, len(others))
    elif moved:
        index = len(others)
    else:
        index = listed.index(current["seq"])
    _renumber(db, [*others[:index], current["seq"], *others[index:]])
    return _answer(db, row, deployment)


def delete_policy(
    db: sqlite3.Connection,
    project: str,
    proxy_name: str,
    name: str,
    placement: Placement,
    deployment: Deployment,
) -> dict[str, Any]:
    """The delete page: every instance of the name (any case) in the one list the placement names."""
    row = _writable(db, project, proxy_name, name, deployment)
    endpoint_id = _endpoint_id(db, row["id"], placement.endpoint)
    doomed = [
        p
        for p in _instances(db, row["id"], name)
        if p["endpoint_id"] == endpoint_id and p["pipeline"] == placement.pipeline
    ]
    if not doomed:
        raise PolicyNotFoundError(name)
    for p in doomed:
        check_manageable(p["type"], "deleted")
    db.executemany("DELETE FROM policies WHERE seq = ?", [(p["seq"],) for p in doomed])
    _renumber(db, _list(db, row["id"], endpoint_id, placement.pipeline))
    return _answer(db, row, deployment)


def insert_summary(
    db: sqlite3.Connection,
    proxy_id: str,
    endpoint_id: str | None,
    pipeline: str,
    policy_type: str,
    name: str,
    description: str | None,
    active: bool,
    body: Mapping[str, Any] | None = None,
) -> None:
    """Append a policy to a list (fixtures and imports): the caller checked what it holds."""
    position = len(_list(db, proxy_id, endpoint_id, pipeline)) + 1
    db.execute(
        "INSERT INTO policies (proxy_id, endpoint_id, pipeline, position, type, name, description, active,"
        " body) VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?)",
        (
            proxy_id,
            endpoint_id,
            pipeline,
            position,
            policy_type,
            name,
            description,
            int(active),
            json.dumps(dict(body)) if body is not None else None,
        ),
    )


def policy_data(policy: Any) -> PolicyData:
    """A validated policy model as stored: the API's JSON without nulls, without ``name`` (the add
    page: the name is the path's, the body's is ignored) and without the fields no model declares
    (the emulator ignores unknown fields, as the product's tolerant readers do)."""
    body = policy.model_dump(mode="json", by_alias=True, exclude_none=True, exclude=extra_fields(policy))
    body.pop("name", None)
    return PolicyData(
        type=str(body["type"]),
        description=body.get("description"),
        active=bool(body.get("active", True)),
        body=body,
    )


def validated_body(model: Any, data: Mapping[str, Any]) -> Mapping[str, Any]:
    """``data`` (the API's names) validated with a policy model, as stored (see :func:`policy_data`)."""
    return policy_data(model.model_validate(data, by_alias=True, by_name=False)).body


def _fields_named(exc: ValidationError) -> str:
    return validation_message(exc)


# -- export and import ---------------------------------------------------------------------------


class ExportedPolicy(BaseModel):
    """One policy of the export's ``policies``: its list (the proxy's when ``endpoint`` is null), its
    summary, and the whole policy as written (null for one known by its summary alone)."""

    model_config = ConfigDict(extra="forbid")

    endpoint: str | None = None
    httpMethod: HttpMethod | None = None  # noqa: N815
    pipeline: Literal["request", "response", "error"]
    type: str = Field(min_length=1)
    name: str = Field(min_length=1)
    description: str | None = None
    active: bool = True
    body: dict[str, Any] | None = None



# -- fixture ------------------------------------------------------------------------------------------


def load_fixture(db: sqlite3.Connection, fixture: Fixture) -> None:
    """The fixture's policies, the proxies' own and their endpoints', in the order declared.

    Names are unique within a proxy (without case), as the add page makes them; a policy with
    ``settings`` is validated whole with its type's model.
    """
    for project in fixture.projects:
        for px in project.api_proxies:
            proxy_id = stable_id(project.name, px.name)
            seen: set[str] = set()
            lists: list[tuple[str | None, str, str, list[PolicyFixture]]] = [
                (None, "", p, list(getattr(px, f"{p}_policies"))) for p in PIPELINES
            ]
            for ep in px.endpoints:
                ep_id = ep.id or stable_id(project.name, px.name, ep.http_method.value, ep.name)
                label = f"endpoint {ep.http_method.value} {ep.name}: "
                lists.extend((ep_id, label, p, list(getattr(ep, f"{p}_policies"))) for p in PIPELINES)
            for endpoint_id, label, pipeline, declared in lists:
                for policy in declared:
                    where = f"proxy {px.name!r}, {label}{pipeline} policy {policy.name!r}"
                    if policy.name.casefold() in seen:
                        raise FixtureError(f"{where}: a policy of that name is already in the proxy")
                    seen.add(policy.name.casefold())
                    body = _fixture_body(policy, where)
                    insert_summary(
                        db,
                        proxy_id,
                        endpoint_id,
                        pipeline,
                        policy.type,
                        policy.name,
                        policy.description,
                        policy.active,
                        body,
                    )


def _fixture_body(policy: PolicyFixture, where: str) -> dict[str, Any] | None:
    if policy.settings is None:
        return None
    model = POLICY_TYPES.get(policy.type)
    if model is None:
        raise FixtureError(f"{where}: {UnknownPolicyTypeError(policy.type, list(POLICY_TYPES)).description}")
    data = {**policy.settings, "type": policy.type, "active": policy.active}
    if policy.description is not None:
        data["description"] = policy.description
    try:
        return dict(validated_body(model, data))
    except ValidationError as exc:
        raise FixtureError(f"{where}: {_fields_named(exc)}") from exc


# -- export and import -------------------------------------------------------------------------------


def export_policies(db: sqlite3.Connection, proxy_id: str) -> list[dict[str, Any]]:
    """Every policy of the proxy for an export: its list by names (no ids), in list order."""
    return [
        {
            "endpoint": r["endpoint_name"],
            "httpMethod": r["http_method"],
            "pipeline": r["pipeline"],
            "type": r["type"],
            "name": r["name"],
            "description": r["description"],
            "active": bool(r["active"]),
            "body": json.loads(r["body"]) if r["body"] is not None else None,
        }
        for r in db.execute(
            "SELECT p.*, e.name AS endpoint_name, e.http_method FROM policies p"
            " LEFT JOIN endpoints e ON e.id = p.endpoint_id WHERE p.proxy_id = ?" + IN_LIST_ORDER,
            (proxy_id,),
        )
    ]


def import_policies(
    db: sqlite3.Connection, proxy_id: str, items: Sequence[ExportedPolicy]
) -> None:
    """An export's policies into the proxy (its endpoints already in), each checked as an add is."""
    project = db.execute("SELECT project FROM proxies WHERE id = ?", (proxy_id,)).fetchone()["project"]
    seen: set[str] = set()
    for index, item in enumerate(items):
        where = f"policies[{index}] ({item.name})"
        if item.name.casefold() in seen:
            raise ImportPolicyError(where, "a policy of that name is already in the proxy")
        seen.add(item.name.casefold())
        endpoint_id = None
        if item.endpoint is not None or item.httpMethod is not None:
            method = item.httpMethod.value if item.httpMethod is not None else ""
            try:
                endpoint_id = _endpoint_id(db, proxy_id, (item.endpoint or "", method))
            except EndpointNotFoundError as exc:
                raise ImportPolicyError(where, exc.description) from None
        body = None
        if item.body is not None:
            model = POLICY_TYPES.get(item.type)
            if model is None:
                raise ImportPolicyError(
                    where, UnknownPolicyTypeError(item.type, list(POLICY_TYPES)).description
                )
            try:
                body = validated_body(model, {**item.body, "type": item.type})
            except ValidationError as exc:
                raise ImportPolicyError(where, _fields_named(exc)) from None
            try:
                key_references.check_policy(db, project, body)
            except key_references.MissingReferenceError as exc:
                raise ImportPolicyError(where, exc.description) from None
        insert_summary(
            db,
            proxy_id,
            endpoint_id,
            item.pipeline,
            item.type,
            item.name,
            item.description,
            item.active,
            body,
        )


# -- helpers ------------------------------------------------------------------------------------------


def _proxy(db: sqlite3.Connection, project: str, name: str) -> sqlite3.Row:
    """The list page's 404s: the project's wording, then the add, update and delete pages' proxy's."""
    if db.execute("SELECT 1 FROM projects WHERE name = ?", (project,)).fetchone() is None:
        raise ProjectNotFoundError(project)
    row = proxy_row(db, project, name)
    if row is None:
        raise ProxyNotFoundError(name)
    return row


def _writable(
    db: sqlite3.Connection, project: str, proxy_name: str, name: str, deployment: Deployment
) -> sqlite3.Row:
    """The checks every write makes first: the project and proxy, the name, the environments."""
    row = _proxy(db, project, proxy_name)
    if not name.strip():
        raise PolicyNameError()
    _check_targets(db, proxy_name, deployment)
    return row


def _insertion_index(order: int | None, size: int) -> int:
    """The add page: order starts from 1; null, or the list's size or more, is the end."""
    if order is None:
        return size
    return size if order >= size else order - 1


def _check_targets(db: sqlite3.Connection, proxy_name: str, deployment: Deployment) -> None:
    """Every environment named exists, before anything is written (the deploy page's message)."""
    if not deployment.deploy:
        return
    for environment in deployment.environments:
        if environment_row(db, environment) is None:
            raise DeploymentTargetError(proxy_name, environment)


def _instances(db: sqlite3.Connection, proxy_id: str, name: str) -> list[sqlite3.Row]:
    """The proxy's policies of this name, compared without case (the delete page), lists in order."""
    wanted = name.casefold()
    rows = db.execute(
        "SELECT p.* FROM policies p LEFT JOIN endpoints e ON e.id = p.endpoint_id WHERE p.proxy_id = ?"
        + IN_LIST_ORDER,
        (proxy_id,),
    ).fetchall()
    return [r for r in rows if r["name"].casefold() == wanted]


def _endpoint_id(db: sqlite3.Connection, proxy_id: str, endpoint: tuple[str, str] | None) -> str | None:
    if endpoint is None:
        return None
    name, method = endpoint
    row = db.execute(
        "SELECT id FROM endpoints WHERE proxy_id = ? AND name = ? AND http_method = ?",
        (proxy_id, name, method),
    ).fetchone()
    if row is None:
        raise EndpointNotFoundError(name, method)
    return str(row["id"])


def _list(db: sqlite3.Connection, proxy_id: str, endpoint_id: str | None, pipeline: str) -> list[int]:
    """The seqs of one list, in order."""
    return [
        r[0]
        for r in db.execute(
            "SELECT seq FROM policies WHERE proxy_id = ? AND endpoint_id IS ? AND pipeline = ?"
            " ORDER BY position, seq",
            (proxy_id, endpoint_id, pipeline),
        )
    ]


def _renumber(db: sqlite3.Connection, seqs: Sequence[int]) -> None:
    db.executemany(
        "UPDATE policies SET position = ? WHERE seq = ? AND position IS NOT ?",
        [(i, seq, i) for i, seq in enumerate(seqs, start=1)],
    )


def _answer(db: sqlite3.Connection, row: sqlite3.Row, deployment: Deployment) -> dict[str, Any]:
    """``{"status"}``, with the crud pages' ``deploymentResult`` when it deploys: one entry per
    environment named (the emulator is one pod per environment), none when none is named."""
    if not deployment.deploy:
        return {"status": "SUCCESS"}
    details = []
    started = time.perf_counter()
    for number, environment in enumerate(dict.fromkeys(deployment.environments), start=1):
        began = time.perf_counter()
        (result,) = deploy_all(
            db, row["id"], row["name"], [environment], "Deployment successful"
        )["deploymentResults"]
        details.append(
            {
                "envName": environment,
                "podName": f"apinizer-emulator-{environment}",
                "podIp": f"127.0.0.{number}",
                "success": result["success"],
                "responseTime": round((time.perf_counter() - began) * 1000),
            }
        )
    success = all(d["success"] for d in details)
    return {
        "status": "SUCCESS" if success else "FAILURE",
        "deploymentResult": {
            "success": success,
            "responseTime": round((time.perf_counter() - started) * 1000),
            "detailList": details,
        },
    }
