"""The emulator's domain logic: every rule of the management API over the SQLite store.

Methods take parsed models and plain names, raise the typed errors of :mod:`errors`, and
return models. Nothing here knows about HTTP.
"""

from __future__ import annotations

import hmac
import json
import re
import secrets
import sqlite3
import time
from collections.abc import Callable, Sequence
from dataclasses import asdict, dataclass
from typing import Any

from apinizer_pulumi.models import (
    AccessReport,
    AccessReportResult,
    CacheSettings,
    Endpoint,
    EndpointPolicies,
    EndpointRateLimit,
    EndpointSpec,
    EndpointUpdate,
    HttpMethod,
    ProxyAccess,
    RlclSpec,
    SharingType,
    TokenResponse,
    WsaSettings,
)

from . import api_proxies, auth
from . import policies as policy_store
from .errors import (
    BadCredentialsError,
    BadRequestError,
    CacheEndpointNotFoundError,
    EndpointAlreadyExistsError,
    EndpointNotFoundError,
    InvalidFieldError,
    InvalidTokenError,
    NotRestProxyError,
    NotSoapProxyError,
    ProjectNotFoundError,
    ProxyNotFoundError,
    RlclAlreadyExistsError,
    RlclEndpointNotFoundError,
    RlclNotFoundError,
    RlclProxyNotFoundError,
    RlclRenameError,
)
from .fixtures import Fixture, FixtureError
from .models import PIPELINES, EndpointRecord, Proxy, endpoint_json, new_id, policy_from_row, stable_id
from .store import DATA_TABLES, Store

ACCESS_TOKEN_LIFETIME = 3600
ALL = "ALL"
_EXTERNAL = (SharingType.EXTERNAL.value, SharingType.BOTH.value)

#: Bounds the spec does not give; chosen so that absurd input is refused with a 400.
MAX_NAME_LENGTH = 2048
MAX_DESCRIPTION_LENGTH = 8192
_TOKEN_COLUMNS = "SELECT id, username, name, kind, created_at, expires_at, revoked_at FROM tokens"
_CONTROL = re.compile(r"[\x00-\x1f\x7f]")
#: Token lookups kept per process (a bound, not a working set: far more than tests or benchmarks use).
_MAX_CACHED_TOKENS = 10_000
#: A created endpoint (active), inserted only into a REST proxy of that name.
_INSERT_INTO_REST_PROXY = (
    "INSERT INTO endpoints (id, proxy_id, name, http_method, description, active,"
    " backend_resource_url, backend_http_method)"
    " SELECT ?, id, ?, ?, ?, 1, ?, ? FROM proxies WHERE project = ? AND name = ? AND type = 'REST'"
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


@dataclass(frozen=True)
class TokenInfo:
    """What may be shown of a token: never its value or hash."""

    id: int
    username: str
    name: str
    kind: str
    created_at: float
    expires_at: float | None
    revoked_at: float | None

    def to_json(self) -> dict[str, Any]:
        return asdict(self)


def check_text(field: str, value: str | None, *, max_length: int, single_line: bool) -> None:
    """Refuse strings that no gateway would store: too long, or (single-line fields) with control characters.

    NUL characters and huge strings in any field are refused earlier, when the body is read.
    """
    if value is None:
        return
    if len(value) > max_length:
        raise InvalidFieldError(field, f"must be at most {max_length} characters")
    if single_line and _CONTROL.search(value):
        raise InvalidFieldError(field, "must not contain control characters")


class Backend:
    """The gateway's state and rules. Thread-safe: every operation is one store transaction."""

    def __init__(self, store: Store, fixture: Fixture, clock: Callable[[], float] = time.time) -> None:
        self.store = store
        self.fixture = fixture
        self._clock = clock
        self._offset = 0.0
        # Hashing is deliberately slow; the fixture's passwords are hashed once per process.
        self._fixture_password_hashes = {u.username: auth.hash_password(u.password) for u in fixture.users}
        with store.write() as db:
            row = db.execute("SELECT value FROM meta WHERE key = 'token_key'").fetchone()
            if row is None:
                key_hex = secrets.token_hex(32)
                db.execute("INSERT INTO meta (key, value) VALUES ('token_key', ?)", (key_hex,))
            else:
                key_hex = row["value"]
            initialized = db.execute("SELECT 1 FROM meta WHERE key = 'initialized'").fetchone() is not None
        self._token_key = bytes.fromhex(key_hex)
        #: token digest -> (tokens_version, principal, expires_at); see :meth:`authenticate`.
        self._principals: dict[str, tuple[Any, auth.Principal, float | None]] = {}
        if not initialized:
            self.reset()

    # -- clock ---------------------------------------------------------------------------------

    def now(self) -> float:
        return self._clock() + self._offset

    def advance_clock(self, seconds: float) -> float:
        """Move the emulator's clock forward (token expiry tests); returns the new time."""
        self._offset += seconds
        return self.now()

    # -- fixtures --------------------------------------------------------------------------------

    def reset(self) -> None:
        """Back to the fixture: every stored object is replaced by what the fixture declares."""
        try:
            with self.store.write() as db:
                for table in DATA_TABLES:
                    db.execute(f"DELETE FROM {table}")
                self._offset = 0.0
                self._load_fixture(db)
                api_proxies.load_fixture(db, self.fixture)
                policy_store.load_fixture(db, self.fixture)
                db.execute("INSERT OR REPLACE INTO meta (key, value) VALUES ('initialized', '1')")
        except sqlite3.IntegrityError as exc:  # the fixture declares something twice
            raise FixtureError(f"the fixture declares an object twice ({exc})") from exc

    def _load_fixture(self, db: sqlite3.Connection) -> None:
        fx, now = self.fixture, self.now()
        for user in fx.users:
            db.execute(
                "INSERT INTO users (username, password_hash, roles, system_role) VALUES (?, ?, ?, ?)",
                (
                    user.username,
                    self._fixture_password_hashes[user.username],
                    json.dumps(user.roles),
                    user.system_role,
                ),
            )
        for token in fx.tokens:
            db.execute(
                "INSERT INTO tokens (token_hash, username, name, kind, created_at, expires_at, revoked_at)"
                " VALUES (?, ?, ?, 'personal', ?, ?, ?)",
                (
                    auth.token_digest(self._token_key, token.value),
                    token.user,
                    token.name,
                    now,
                    token.expires_at(),
                    now if token.revoked else None,
                ),
            )
        for project in fx.projects:
            db.execute("INSERT INTO projects (name) VALUES (?)", (project.name,))
            for px in project.api_proxies:
                proxy_id = stable_id(project.name, px.name)
                db.execute(
                    "INSERT INTO proxies (id, project, name, type, sharing_type, access_list)"
                    " VALUES (?, ?, ?, ?, ?, ?)",
                    (
                        proxy_id,
                        project.name,
                        px.name,
                        px.type,
                        px.sharing_type.value,
                        json.dumps(px.access_list),
                    ),
                )
                for ep in px.endpoints:
                    endpoint_id = ep.id or stable_id(project.name, px.name, ep.http_method.value, ep.name)
                    self._insert_endpoint(
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
            for rl in project.rlcls:
                rlcl_id = stable_id(project.name, "rlcl", rl.name)
                db.execute(
                    "INSERT INTO rlcls (id, project, name) VALUES (?, ?, ?)", (rlcl_id, project.name, rl.name)
                )
                try:
                    self._insert_rate_limits(db, project.name, rlcl_id, rl.endpoint_rate_limit_list)
                except BadRequestError as exc:
                    raise FixtureError(
                        f"RLCL {rl.name!r} of project {project.name!r}: {exc.description}"
                    ) from exc
        for data_model in fx.data_model_list:
            db.execute("INSERT INTO data_models (body) VALUES (?)", (json.dumps(data_model),))

    # -- tokens ----------------------------------------------------------------------------------

    def check_credentials(self, username: str, password: str) -> None:
        """``Bad credentials`` unless the password is the user's (slow on purpose: see
        :data:`auth.PASSWORD_HASHING`, where the handler runs it)."""
        with self.store.read() as db:
            row = db.execute("SELECT password_hash FROM users WHERE username = ?", (username,)).fetchone()
        stored = row["password_hash"] if row else auth.DUMMY_PASSWORD_HASH
        if not auth.verify_password(password, stored) or row is None:
            raise BadCredentialsError()

    def issue_access_token(self, username: str) -> TokenResponse:
        """The client-credentials grant of spec 4.1, once :meth:`check_credentials` passed: a token
        valid for 3600 s."""
        value, now = auth.new_token_value(), self.now()
        with self.store.write() as db:
            db.execute("DELETE FROM tokens WHERE kind = 'access' AND expires_at <= ?", (now,))
            db.execute(
                "INSERT INTO tokens (token_hash, username, name, kind, created_at, expires_at)"
                " VALUES (?, ?, 'client_credentials', 'access', ?, ?)",
                (auth.token_digest(self._token_key, value), username, now, now + ACCESS_TOKEN_LIFETIME),
            )
        return TokenResponse(access_token=value, token_type="Bearer", expires_in=ACCESS_TOKEN_LIFETIME)

    def authenticate(self, authorization: str | None) -> auth.Principal:
        """The user behind an ``Authorization: Bearer <token>`` header, or ``Invalid token``.

        Lookups are cached per process, each tagged with ``meta.tokens_version``, which every
        change to a token or a user bumps (by trigger, from any process): a cached answer is
        used only while the version read in this request's snapshot is still its own, so a
        revocation counts from the next request on. Expiry is checked on every request.
        """
        value = auth.bearer_value(authorization)
        if value is None:
            raise InvalidTokenError()
        digest = auth.token_digest(self._token_key, value)
        with self.store.read(snapshot=False) as db:
            # One statement (no transaction) on the path taken by nearly every request.
            version = _tokens_version(db)
            cached = self._principals.get(digest)
            if cached is not None and cached[0] == version:
                _, principal, expires_at = cached
            else:
                # The version again, in the same snapshot as the token's row.
                db.execute("BEGIN")
                try:
                    version = _tokens_version(db)
                    principal, expires_at = self._lookup_token(db, digest)
                finally:
                    db.execute("COMMIT")
                if len(self._principals) >= _MAX_CACHED_TOKENS:
                    self._principals.clear()
                self._principals[digest] = (version, principal, expires_at)
        if expires_at is not None and self.now() >= expires_at:
            raise InvalidTokenError()
        return principal

    @staticmethod
    def _lookup_token(db: sqlite3.Connection, digest: str) -> tuple[auth.Principal, float | None]:
        row = db.execute(
            "SELECT t.token_hash, t.expires_at, t.revoked_at, u.username, u.roles, u.system_role"
            " FROM tokens t JOIN users u ON u.username = t.username WHERE t.token_hash = ?",
            (digest,),
        ).fetchone()
        if row is None or not hmac.compare_digest(row["token_hash"], digest):
            raise InvalidTokenError()
        if row["revoked_at"] is not None:
            raise InvalidTokenError()
        principal = auth.Principal(row["username"], frozenset(json.loads(row["roles"])), row["system_role"])
        return principal, row["expires_at"]

    def create_personal_token(
        self, username: str, name: str, expires_at: float | None
    ) -> tuple[str, TokenInfo]:
        """A personal token as the console makes it; its value is returned once and never stored."""
        if not name.strip():
            raise BadRequestError("token name must not be empty")
        value, now = auth.new_token_value(), self.now()
        with self.store.write() as db:
            if db.execute("SELECT 1 FROM users WHERE username = ?", (username,)).fetchone() is None:
                raise BadRequestError(f"User ({username}) was not found!")
            clash = db.execute(
                "SELECT 1 FROM tokens WHERE kind = 'personal' AND username = ? AND name = ?"
                " AND revoked_at IS NULL",
                (username, name),
            ).fetchone()
            if clash:
                raise BadRequestError(f"User ({username}) already has a token named ({name})!")
            cursor = db.execute(
                "INSERT INTO tokens (token_hash, username, name, kind, created_at, expires_at)"
                " VALUES (?, ?, ?, 'personal', ?, ?)",
                (auth.token_digest(self._token_key, value), username, name, now, expires_at),
            )
            token_id = cursor.lastrowid
        assert token_id is not None
        return value, TokenInfo(token_id, username, name, "personal", now, expires_at, None)

    def list_tokens(self, *, include_access: bool = False) -> list[TokenInfo]:
        query = _TOKEN_COLUMNS
        if not include_access:
            query += " WHERE kind = 'personal'"
        with self.store.read() as db:
            rows = db.execute(query + " ORDER BY id").fetchall()
        return [TokenInfo(**dict(row)) for row in rows]

    def revoke_token(
        self, *, token_id: int | None = None, username: str | None = None, name: str | None = None
    ) -> list[TokenInfo]:
        """Revoke by id, or by user and name; returns the tokens revoked (none is an error)."""
        args: tuple[object, ...]
        if token_id is not None:
            where, args = "id = ?", (token_id,)
        elif username is not None and name is not None:
            where, args = "kind = 'personal' AND username = ? AND name = ?", (username, name)
        else:
            raise BadRequestError("give a token id, or a user and a token name")
        now = self.now()
        with self.store.write() as db:
            ids = [
                r["id"]
                for r in db.execute(f"SELECT id FROM tokens WHERE {where} AND revoked_at IS NULL", args)
            ]
            if not ids:
                raise BadRequestError("no such active token")
            db.executemany("UPDATE tokens SET revoked_at = ? WHERE id = ?", [(now, i) for i in ids])
        return [t for t in self.list_tokens(include_access=True) if t.id in ids]

    # -- report ----------------------------------------------------------------------------------

    def organization_access(self) -> AccessReport:
        """Externally shared proxies (EXTERNAL or BOTH) and the data models (spec 4.2)."""
        with self.store.read() as db:
            proxies = [
                Proxy.from_row(r)
                for r in db.execute(
                    "SELECT * FROM proxies WHERE sharing_type IN (?, ?) ORDER BY seq", _EXTERNAL
                )
            ]
            data_models = [
                json.loads(r["body"]) for r in db.execute("SELECT body FROM data_models ORDER BY seq")
            ]
        return AccessReport(
            success=True,
            result=AccessReportResult(
                api_proxy_list=[
                    ProxyAccess(
                        api_proxy_name=p.name,
                        sharing_type=SharingType(p.sharing_type),
                        access_list=p.access_list,
                    )
                    for p in proxies
                ],
                data_model_list=data_models,
            ),
        )

    # -- endpoints -------------------------------------------------------------------------------

    @staticmethod
    def _proxy(db: sqlite3.Connection, project: str, name: str) -> Proxy:
        row = db.execute("SELECT * FROM proxies WHERE project = ? AND name = ?", (project, name)).fetchone()
        if row is None:
            raise ProxyNotFoundError(name)
        return Proxy.from_row(row)

    @staticmethod
    def _find_endpoint(db: sqlite3.Connection, proxy: Proxy, name: str, method: str) -> EndpointRecord | None:
        row = db.execute(
            "SELECT * FROM endpoints WHERE proxy_id = ? AND name = ? AND http_method = ?",
            (proxy.id, name, method),
        ).fetchone()
        return EndpointRecord.from_row(row) if row else None

    def _endpoint(self, db: sqlite3.Connection, proxy: Proxy, name: str, method: str) -> EndpointRecord:
        record = self._find_endpoint(db, proxy, name, method)
        if record is None:
            raise EndpointNotFoundError(name, method)
        return record

    @staticmethod
    def _insert_endpoint(
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

    def list_endpoints(self, project: str, proxy_name: str) -> list[Endpoint]:
        with self.store.read() as db:
            proxy = self._proxy(db, project, proxy_name)
            rows = db.execute(
                "SELECT * FROM endpoints WHERE proxy_id = ? ORDER BY seq", (proxy.id,)
            ).fetchall()
        return [EndpointRecord.from_row(r).to_model() for r in rows]

    def list_endpoints_json(self, project: str, proxy_name: str) -> tuple[int, str]:
        """(count, JSON array): what :meth:`list_endpoints` returns, serialized by SQLite."""
        with self.store.read(snapshot=False) as db:
            row = db.execute(_ENDPOINT_LIST_JSON, (project, proxy_name)).fetchone()
        if row["proxy"] is None:
            raise ProxyNotFoundError(proxy_name)
        return int(row["n"]), str(row["items"])

    def create_endpoint(self, project: str, proxy_name: str, spec: EndpointSpec) -> str:
        """The new endpoint's id (the API answers a create with ``success`` alone; a model built
        here for nobody cost the writer thread, which shares the GIL with the event loop)."""
        _check_endpoint_texts(spec.name, spec.description, spec.backend_resource_url)
        method = spec.http_method.value
        endpoint_id = new_id()
        # One statement: the insert finds its REST proxy itself, and only when it inserts nothing
        # is the proxy looked up, to tell a missing proxy from a SOAP one.
        with self.store.write(one_statement=True) as db:
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
                self._proxy(db, project, proxy_name)
                raise NotRestProxyError("create")
        return endpoint_id

    def get_endpoint(self, project: str, proxy_name: str, name: str, method: HttpMethod) -> Endpoint:
        with self.store.read() as db:
            proxy = self._proxy(db, project, proxy_name)
            return self._endpoint(db, proxy, name, method.value).to_model()

    def endpoint_policies(
        self, project: str, proxy_name: str, name: str, method: HttpMethod
    ) -> EndpointPolicies:
        with self.store.read() as db:
            proxy = self._proxy(db, project, proxy_name)
            record = self._endpoint(db, proxy, name, method.value)
            rows = db.execute(
                "SELECT * FROM policies WHERE endpoint_id = ? ORDER BY position, seq", (record.id,)
            ).fetchall()
        policies: dict[str, list[Any]] = {p: [] for p in PIPELINES}
        for row in rows:
            policies[row["pipeline"]].append(policy_from_row(row))
        return record.with_policies(policies)

    def update_endpoint(self, project: str, proxy_name: str, update: EndpointUpdate) -> Endpoint:
        """Change only the fields the request carried (a null counts as not carried).

        The endpoint is identified by (name, httpMethod) and the spec has no field to rename
        it, so an update cannot move it onto another endpoint's pair: the uniqueness rule holds
        by construction (and by the store's unique index).
        """
        changes: dict[str, Any] = {}
        if update.description is not None:
            changes["description"] = update.description
        if update.backend_resource_url is not None:
            changes["backend_resource_url"] = update.backend_resource_url
        if update.backend_http_method is not None:
            changes["backend_http_method"] = update.backend_http_method.value
        _check_endpoint_texts(None, changes.get("description"), changes.get("backend_resource_url"))
        with self.store.write() as db:
            proxy = self._proxy(db, project, proxy_name)
            record = self._endpoint(db, proxy, update.name, update.http_method.value)
            if changes:
                assignments = ", ".join(f"{column} = ?" for column in changes)
                db.execute(f"UPDATE endpoints SET {assignments} WHERE id = ?", (*changes.values(), record.id))
            return self._endpoint(db, proxy, update.name, update.http_method.value).to_model()

    def delete_endpoint(self, project: str, proxy_name: str, name: str, method: HttpMethod) -> None:
        """Permanent; the endpoint's policies go with it (foreign-key cascade)."""
        with self.store.write() as db:
            proxy = self._proxy(db, project, proxy_name)
            if not proxy.is_rest:
                raise NotRestProxyError("delete")
            record = self._endpoint(db, proxy, name, method.value)
            db.execute("DELETE FROM endpoints WHERE id = ?", (record.id,))

    def set_status(self, project: str, proxy_name: str, name: str, method: HttpMethod, active: bool) -> None:
        with self.store.write() as db:
            proxy = self._proxy(db, project, proxy_name)
            record = self._endpoint(db, proxy, name, method.value)
            db.execute("UPDATE endpoints SET active = ? WHERE id = ?", (int(active), record.id))

    def set_cache(
        self, project: str, proxy_name: str, name: str, method: HttpMethod, settings: CacheSettings
    ) -> None:
        self._store_settings(project, proxy_name, name, method, "cache_settings", settings.to_api())

    def set_wsa(
        self, project: str, proxy_name: str, name: str, method: HttpMethod, settings: WsaSettings
    ) -> None:
        self._store_settings(
            project, proxy_name, name, method, "wsa_settings", settings.to_api(), soap_only=True
        )

    def _store_settings(
        self,
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
        with self.store.write() as db:
            proxy = self._proxy(db, project, proxy_name)
            if soap_only and proxy.is_rest:
                raise NotSoapProxyError()
            record = self._find_endpoint(db, proxy, name, method.value)
            if record is None:
                raise CacheEndpointNotFoundError(name, method.value)
            db.execute(f"UPDATE endpoints SET {column} = ? WHERE id = ?", (json.dumps(body), record.id))

    # -- RLCLs themselves (product documentation, 12-rlcl/crud) ---------------------------------

    def rlcl_create(self, project: str, spec: RlclSpec) -> None:
        """A new, empty RLCL; its name is unique within the project.

        https://github.com/apinizer/management-api-docs/blob/main/02-api-reference/12-rlcl/crud/create-rlcl.md
        """
        _check_rlcl_texts(spec)
        with self.store.write() as db:
            if db.execute("SELECT 1 FROM projects WHERE name = ?", (project,)).fetchone() is None:
                raise ProjectNotFoundError(project)
            if db.execute(
                "SELECT 1 FROM rlcls WHERE project = ? AND name = ?", (project, spec.name)
            ).fetchone() is not None:
                raise RlclAlreadyExistsError(spec.name)
            rlcl_id = new_id()
            db.execute(
                "INSERT INTO rlcls (id, project, name) VALUES (?, ?, ?)", (rlcl_id, project, spec.name)
            )
            db.execute(
                "INSERT INTO rlcl_settings (rlcl_id, body) VALUES (?, ?)",
                (rlcl_id, json.dumps(spec.to_api())),
            )

    def rlcl_update(self, project: str, name: str, spec: RlclSpec) -> None:
        """Every field but the name; the RLCL's endpoints and credentials stay as they are.

        https://github.com/apinizer/management-api-docs/blob/main/02-api-reference/12-rlcl/crud/update-rlcl.md
        """
        if spec.name != name:
            raise RlclRenameError(name, spec.name)
        _check_rlcl_texts(spec)
        with self.store.write() as db:
            rlcl_id = self._rlcl(db, project, name)
            db.execute(
                "INSERT INTO rlcl_settings (rlcl_id, body) VALUES (?, ?)"
                " ON CONFLICT (rlcl_id) DO UPDATE SET body = excluded.body",
                (rlcl_id, json.dumps(spec.to_api())),
            )

    def rlcl_remove(self, project: str, name: str) -> None:
        """The RLCL with its endpoints, credentials and conditions, permanently.

        https://github.com/apinizer/management-api-docs/blob/main/02-api-reference/12-rlcl/crud/delete-rlcl.md
        """
        with self.store.write() as db:
            db.execute("DELETE FROM rlcls WHERE id = ?", (self._rlcl(db, project, name),))

    def rlcl_settings(self, project: str, name: str) -> dict[str, Any]:
        """The RLCL's fields in the API's write shape (the API itself cannot read them back)."""
        with self.store.read() as db:
            return self._rlcl_settings(db, self._rlcl(db, project, name), name)

    @staticmethod
    def _rlcl_settings(db: sqlite3.Connection, rlcl_id: str, name: str) -> dict[str, Any]:
        row = db.execute("SELECT body FROM rlcl_settings WHERE rlcl_id = ?", (rlcl_id,)).fetchone()
        # A fixture's RLCL has no stored fields: it carries the documented defaults.
        return json.loads(row["body"]) if row is not None else RlclSpec(name=name).to_api()

    # -- RLCL endpoint lists ---------------------------------------------------------------------

    @staticmethod
    def _rlcl(db: sqlite3.Connection, project: str, name: str) -> str:
        row = db.execute("SELECT id FROM rlcls WHERE project = ? AND name = ?", (project, name)).fetchone()
        if row is None:
            raise RlclNotFoundError(name)
        return str(row["id"])

    @staticmethod
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
        self, db: sqlite3.Connection, project: str, rlcl_id: str, entries: Sequence[EndpointRateLimit]
    ) -> None:
        resolved = [(entry, self._resolve_endpoint_id(db, project, entry)) for entry in entries]
        for entry, endpoint_id in resolved:
            # Duplicates (same proxy, endpoint and method, ALL spelled out) are ignored: first one wins.
            db.execute(
                "INSERT OR IGNORE INTO rlcl_entries (rlcl_id, api_proxy_name, endpoint_name,"
                " endpoint_http_method, endpoint_id, body) VALUES (?, ?, ?, ?, ?, ?)",
                (rlcl_id, *entry.normalized_key, endpoint_id, json.dumps(entry.to_api())),
            )

    def rlcl_add(self, project: str, rlcl: str, entries: Sequence[EndpointRateLimit]) -> None:
        with self.store.write() as db:
            self._insert_rate_limits(db, project, self._rlcl(db, project, rlcl), entries)

    def rlcl_replace(self, project: str, rlcl: str, entries: Sequence[EndpointRateLimit]) -> None:
        with self.store.write() as db:
            rlcl_id = self._rlcl(db, project, rlcl)
            for entry in entries:  # validate everything before the old list goes
                self._resolve_endpoint_id(db, project, entry)
            db.execute("DELETE FROM rlcl_entries WHERE rlcl_id = ?", (rlcl_id,))
            self._insert_rate_limits(db, project, rlcl_id, entries)

    def rlcl_delete(self, project: str, rlcl: str, entries: Sequence[EndpointRateLimit]) -> None:
        """Remove the entries matching each item's (proxy, endpoint, method); others are ignored."""
        with self.store.write() as db:
            rlcl_id = self._rlcl(db, project, rlcl)
            db.executemany(
                "DELETE FROM rlcl_entries WHERE rlcl_id = ? AND api_proxy_name = ? AND endpoint_name = ?"
                " AND endpoint_http_method = ?",
                [(rlcl_id, *entry.normalized_key) for entry in entries],
            )

    def rlcl_entries(
        self, project: str, rlcl: str, *, with_endpoint_ids: bool = False
    ) -> list[dict[str, Any]]:
        """The RLCL's list in the API's write shape (plus ``endpointId`` when asked)."""
        with self.store.read() as db:
            rlcl_id = self._rlcl(db, project, rlcl)
            rows = db.execute(
                "SELECT body, endpoint_id FROM rlcl_entries WHERE rlcl_id = ? ORDER BY seq", (rlcl_id,)
            ).fetchall()
        return [_entry_json(r, with_endpoint_ids) for r in rows]

    # -- inspection ------------------------------------------------------------------------------

    def state(self) -> dict[str, Any]:
        """Everything stored except secrets (no password or token hashes)."""
        with self.store.read() as db:
            users = [
                {"username": r["username"], "roles": json.loads(r["roles"]), "systemRole": r["system_role"]}
                for r in db.execute("SELECT * FROM users ORDER BY username")
            ]
            tokens = [TokenInfo(**dict(r)).to_json() for r in db.execute(_TOKEN_COLUMNS + " ORDER BY id")]
            projects = []
            for project in db.execute("SELECT name FROM projects ORDER BY seq").fetchall():
                proxies = []
                for proxy_row in db.execute(
                    "SELECT * FROM proxies WHERE project = ? ORDER BY seq", (project["name"],)
                ).fetchall():
                    proxy = Proxy.from_row(proxy_row)
                    proxies.append(
                        {
                            "id": proxy.id,
                            "name": proxy.name,
                            "type": proxy.type,
                            "sharingType": proxy.sharing_type,
                            "accessList": proxy.access_list,
                            "endpoints": [
                                self._endpoint_state(db, EndpointRecord.from_row(r))
                                for r in db.execute(
                                    "SELECT * FROM endpoints WHERE proxy_id = ? ORDER BY seq", (proxy.id,)
                                ).fetchall()
                            ],
                            "policies": policy_store.proxy_state(db, proxy.id),
                        }
                    )
                rlcls = []
                for rlcl in db.execute(
                    "SELECT * FROM rlcls WHERE project = ? ORDER BY seq", (project["name"],)
                ).fetchall():
                    entries = db.execute(
                        "SELECT body, endpoint_id FROM rlcl_entries WHERE rlcl_id = ? ORDER BY seq",
                        (rlcl["id"],),
                    ).fetchall()
                    rlcls.append(
                        {
                            "id": rlcl["id"],
                            "name": rlcl["name"],
                            "settings": self._rlcl_settings(db, rlcl["id"], rlcl["name"]),
                            "endpointRateLimitList": [_entry_json(e, True) for e in entries],
                        }
                    )
                projects.append({"name": project["name"], "apiProxies": proxies, "rlcls": rlcls})
            data_models = [
                json.loads(r["body"]) for r in db.execute("SELECT body FROM data_models ORDER BY seq")
            ]
        return {
            "now": self.now(),
            "users": users,
            "tokens": tokens,
            "projects": projects,
            "dataModelList": data_models,
        }

    @staticmethod
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


def _tokens_version(db: sqlite3.Connection) -> Any:
    row = db.execute("SELECT value FROM meta WHERE key = 'tokens_version'").fetchone()
    return row["value"] if row else None


def _entry_json(row: sqlite3.Row, with_endpoint_id: bool) -> dict[str, Any]:
    body: dict[str, Any] = json.loads(row["body"])
    if with_endpoint_id:
        body["endpointId"] = row["endpoint_id"]
    return body


def _check_rlcl_texts(spec: RlclSpec) -> None:
    check_text("name", spec.name, max_length=MAX_NAME_LENGTH, single_line=True)
    check_text("description", spec.description, max_length=MAX_DESCRIPTION_LENGTH, single_line=False)


def _check_endpoint_texts(name: str | None, description: str | None, backend_url: str | None) -> None:
    if name is not None and not name.strip():
        raise InvalidFieldError("name", "must not be blank")
    check_text("name", name, max_length=MAX_NAME_LENGTH, single_line=True)
    check_text("description", description, max_length=MAX_DESCRIPTION_LENGTH, single_line=False)
    check_text("backendResourceUrl", backend_url, max_length=MAX_NAME_LENGTH, single_line=True)
