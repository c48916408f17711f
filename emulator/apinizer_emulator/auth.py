"""The auth family: users and their tokens, credentials at rest, and the caller's identity.

Passwords are stored as PBKDF2-HMAC-SHA256 with a per-user random salt; token values as an
HMAC-SHA256 keyed by a per-database random key (a salted hash that can still be looked up by
index, so authenticating a token is one indexed query whatever the number of tokens).
Comparisons go through :func:`hmac.compare_digest`.
"""

from __future__ import annotations

import asyncio
import contextlib
import hashlib
import hmac
import json
import os
import secrets
import sqlite3
import threading
from collections.abc import Callable
from concurrent.futures import ThreadPoolExecutor
from dataclasses import asdict, dataclass
from typing import Any, TypeVar

from apinizer_pulumi.models import TokenResponse

from .errors import (
    BadCredentialsError,
    BadRequestError,
    InvalidTokenError,
    MissingRoleError,
    UnauthorizedApiAccessError,
)
from .fixtures import Fixture
from .store import Store

SCHEMA = """
CREATE TABLE IF NOT EXISTS users (
    username TEXT PRIMARY KEY,
    password_hash TEXT NOT NULL,
    roles TEXT NOT NULL,
    system_role TEXT
);
CREATE TABLE IF NOT EXISTS tokens (
    id INTEGER PRIMARY KEY AUTOINCREMENT,
    token_hash TEXT NOT NULL UNIQUE,
    username TEXT NOT NULL REFERENCES users(username) ON DELETE CASCADE,
    name TEXT NOT NULL,
    kind TEXT NOT NULL CHECK (kind IN ('personal', 'access')),
    created_at REAL NOT NULL,
    expires_at REAL,
    revoked_at REAL
);
CREATE INDEX IF NOT EXISTS tokens_expiry ON tokens(kind, expires_at);
INSERT OR IGNORE INTO meta (key, value) VALUES ('tokens_version', '0');
""" + "".join(
    # Any change to who a token belongs to, or may do, makes cached lookups out of date.
    f"CREATE TRIGGER IF NOT EXISTS {table}_{event.lower()} AFTER {event} ON {table} BEGIN"
    " UPDATE meta SET value = value + 1 WHERE key = 'tokens_version'; END;\n"
    for table in ("tokens", "users")
    for event in ("UPDATE", "DELETE")
)
#: The family's tables, children first.
DATA_TABLES = ("tokens", "users")

ROLE_ADMIN = "ROLE_ADMIN"
ROLE_MANAGE_PROXIES = "ROLE_MANAGE_PROXIES"
ROLE_DEPLOY_UNDEPLOY_PROXIES = "ROLE_DEPLOY_UNDEPLOY_PROXIES"
ROLE_API_SECURITY = "ROLE_API_SECURITY"
#: The spec does not name the RLCL operations' role; the product's documentation does, for all RLCL
#: operations: https://github.com/apinizer/management-api-docs/blob/main/02-api-reference/12-rlcl/index.md
RLCL_OPERATIONS_ROLE = ROLE_MANAGE_PROXIES
ACCESS_TOKEN_LIFETIME = 3600
SYSTEM_ADMIN = "admin"
SYSTEM_ANALYZER = "analyzer"

R = TypeVar("R")

_PBKDF2_ITERATIONS = 100_000
#: The scheme that starts every stored password hash.
PASSWORD_SCHEME = "pbkdf2_sha256"
_SCHEME = PASSWORD_SCHEME
BEARER_PREFIX = "Bearer "


def hash_password(password: str, salt: bytes | None = None) -> str:
    """``pbkdf2_sha256$<iterations>$<salt hex>$<digest hex>``."""
    salt = salt if salt is not None else secrets.token_bytes(16)
    digest = hashlib.pbkdf2_hmac("sha256", password.encode(), salt, _PBKDF2_ITERATIONS)
    return f"{_SCHEME}${_PBKDF2_ITERATIONS}${salt.hex()}${digest.hex()}"


def verify_password(password: str, stored: str) -> bool:
    try:
        scheme, iterations, salt_hex, digest_hex = stored.split("$")
        salt, expected, rounds = bytes.fromhex(salt_hex), bytes.fromhex(digest_hex), int(iterations)
    except ValueError:
        return False
    if scheme != _SCHEME:
        return False
    actual = hashlib.pbkdf2_hmac("sha256", password.encode(), salt, rounds)
    return hmac.compare_digest(actual, expected)


#: Compared against when the user does not exist, so an unknown user costs the same time as a wrong password.
DUMMY_PASSWORD_HASH = hash_password(secrets.token_urlsafe(16))


class HashingPool:
    """The threads that check passwords: at most one per core, shared by the whole process.

    A password check is ~50 ms of CPU (on purpose) and releases the GIL, so in a general
    threadpool a flood of wrong passwords would run as many hashes at once as there are threads
    and take every core from the event loop that serves everyone else. Here the excess waits in
    the queue instead. The threads also run at a lower priority (``nice`` 10, where the OS
    allows it: Linux sets it per thread), so the scheduler hands a core to the event loop as
    soon as it has work, rather than sharing it evenly with the hashes. :attr:`peak` is the most
    checks that ever ran at once (see :meth:`reset_peak`): the bound, observable.
    """

    #: How much lower than the event loop's the hashing threads' priority is.
    NICENESS = 10

    def __init__(self, workers: int) -> None:
        self.workers = workers
        self._executor = ThreadPoolExecutor(
            max_workers=workers, thread_name_prefix="apinizer-hash", initializer=self._lower_priority
        )
        self._lock = threading.Lock()
        self._running = 0
        self.peak = 0

    @classmethod
    def _lower_priority(cls) -> None:
        # On Linux the "process" of setpriority may be a thread id: only this thread is lowered.
        with contextlib.suppress(AttributeError, OSError):
            os.setpriority(os.PRIO_PROCESS, threading.get_native_id(), cls.NICENESS)

    def _counted(self, call: Callable[[], R]) -> R:
        with self._lock:
            self._running += 1
            self.peak = max(self.peak, self._running)
        try:
            return call()
        finally:
            with self._lock:
                self._running -= 1

    async def run(self, call: Callable[[], R]) -> R:
        """``call()`` on one of the pool's threads, awaited without blocking the event loop."""
        return await asyncio.get_running_loop().run_in_executor(self._executor, self._counted, call)

    def reset_peak(self) -> None:
        with self._lock:
            self.peak = self._running


#: The process's one pool: two emulators in one process (tests) still hash on at most one thread per core.
PASSWORD_HASHING = HashingPool(os.cpu_count() or 1)


def token_digest(key: bytes, value: str) -> str:
    # Not the one-shot hmac.digest: it releases the GIL, so on the event loop's path of every
    # request it hands the GIL to the writer thread and waits to get it back (ms, not us).
    return hmac.new(key, value.encode(), hashlib.sha256).hexdigest()


def new_token_value() -> str:
    return secrets.token_urlsafe(32)


def bearer_value(header: str | None) -> str | None:
    """The token of an ``Authorization`` header that is exactly ``Bearer <token>``, else None."""
    if header is None or not header.startswith(BEARER_PREFIX):
        return None
    value = header[len(BEARER_PREFIX) :]
    if not value or value != value.strip() or " " in value:
        return None
    return value


@dataclass(frozen=True)
class Principal:
    """The user a valid token belongs to."""

    username: str
    roles: frozenset[str]
    system_role: str | None

    def has_role(self, role: str) -> bool:
        return ROLE_ADMIN in self.roles or role in self.roles

    def require_role(self, role: str) -> None:
        if not self.has_role(role):
            raise MissingRoleError(role)

    def require_report_access(self) -> None:
        if self.system_role not in (SYSTEM_ADMIN, SYSTEM_ANALYZER):
            raise UnauthorizedApiAccessError()


# -- tokens ---------------------------------------------------------------------------------------

_TOKEN_COLUMNS = "SELECT id, username, name, kind, created_at, expires_at, revoked_at FROM tokens"
#: Token lookups kept per process (a bound, not a working set: far more than tests or benchmarks use).
_MAX_CACHED_TOKENS = 10_000


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


class Tokens:
    """The tokens of one store: issued, looked up (with a per-process cache), revoked.

    Token values are stored as an HMAC keyed by the database's own random key (``meta.token_key``,
    made with the database); ``now`` is the emulator's clock (which tests move forward).
    """

    def __init__(self, store: Store, now: Callable[[], float]) -> None:
        self.store = store
        self._now = now
        with store.write() as db:
            row = db.execute("SELECT value FROM meta WHERE key = 'token_key'").fetchone()
            if row is None:
                key_hex = secrets.token_hex(32)
                db.execute("INSERT INTO meta (key, value) VALUES ('token_key', ?)", (key_hex,))
            else:
                key_hex = row["value"]
        self._key = bytes.fromhex(key_hex)
        #: token digest -> (tokens_version, principal, expires_at); see :meth:`authenticate`.
        self._principals: dict[str, tuple[Any, Principal, float | None]] = {}
        #: username -> (the stored hash, the digest of the password found right against it), keyed
        #: by a key of this process alone (in memory, never in the database file).
        self._verified: dict[str, tuple[str, str]] = {}
        self._process_key = secrets.token_bytes(32)

    def digest(self, value: str) -> str:
        return token_digest(self._key, value)

    def check_credentials(self, username: str, password: str) -> None:
        """``Bad credentials`` unless the password is the user's (slow on purpose: see
        :data:`PASSWORD_HASHING`, where the handler runs it).

        A password found right is remembered per user, as a digest keyed by this process's own
        random key, beside the stored hash it matched: the same password against the same stored
        hash skips the hash (each provider process asks for a token with it). A changed password
        (another stored hash), a removed user, a wrong password and an unknown user always take
        the slow way.
        """
        with self.store.read() as db:
            row = db.execute("SELECT password_hash FROM users WHERE username = ?", (username,)).fetchone()
        stored = row["password_hash"] if row else DUMMY_PASSWORD_HASH
        proof = token_digest(self._process_key, f"{username}\0{password}")
        remembered = self._verified.get(username)
        if row is not None and remembered is not None and remembered[0] == stored \
                and hmac.compare_digest(remembered[1], proof):
            return
        if not verify_password(password, stored) or row is None:
            raise BadCredentialsError()
        if len(self._verified) >= _MAX_CACHED_TOKENS:
            self._verified.clear()
        self._verified[username] = (stored, proof)

    def issue_access_token(self, username: str) -> TokenResponse:
        """The client-credentials grant of spec 4.1, once :meth:`check_credentials` passed: a token
        valid for 3600 s."""
        value, now = new_token_value(), self._now()
        with self.store.write() as db:
            db.execute("DELETE FROM tokens WHERE kind = 'access' AND expires_at <= ?", (now,))
            db.execute(
                "INSERT INTO tokens (token_hash, username, name, kind, created_at, expires_at)"
                " VALUES (?, ?, 'client_credentials', 'access', ?, ?)",
                (self.digest(value), username, now, now + ACCESS_TOKEN_LIFETIME),
            )
        return TokenResponse(access_token=value, token_type="Bearer", expires_in=ACCESS_TOKEN_LIFETIME)

    def authenticate(self, authorization: str | None) -> Principal:
        """The user behind an ``Authorization: Bearer <token>`` header, or ``Invalid token``.

        Lookups are cached per process, each tagged with ``meta.tokens_version``, which every
        change to a token or a user bumps (by trigger, from any process): a cached answer is
        used only while the version read in this request's snapshot is still its own, so a
        revocation counts from the next request on. Expiry is checked on every request.
        """
        value = bearer_value(authorization)
        if value is None:
            raise InvalidTokenError()
        digest = self.digest(value)
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
                    principal, expires_at = _lookup_token(db, digest)
                finally:
                    db.execute("COMMIT")
                if len(self._principals) >= _MAX_CACHED_TOKENS:
                    self._principals.clear()
                self._principals[digest] = (version, principal, expires_at)
        if expires_at is not None and self._now() >= expires_at:
            raise InvalidTokenError()
        return principal

    def remembered(self, authorization: str | None) -> tuple[Principal, Any] | None:
        """The user this process last found behind the header's token, and the tokens version it
        was found at, without reading the store; None for a token not remembered (or expired, or a
        header without a token), which :meth:`authenticate` then settles.

        What it returns stands only once :meth:`is_current` finds that version still current, before
        anything is done or answered on the user's authority (:func:`web.confirmed_at_write`).
        """
        value = bearer_value(authorization)
        if value is None:
            return None
        cached = self._principals.get(self.digest(value))
        if cached is None:
            return None
        version, principal, expires_at = cached
        if expires_at is not None and self._now() >= expires_at:
            return None
        return principal, version

    @staticmethod
    def is_current(db: sqlite3.Connection, version: Any) -> bool:
        """No token or user has changed since ``version`` was read, in any process."""
        return bool(_tokens_version(db) == version)

    def create_personal_token(
        self, username: str, name: str, expires_at: float | None
    ) -> tuple[str, TokenInfo]:
        """A personal token as the console makes it; its value is returned once and never stored."""
        if not name.strip():
            raise BadRequestError("token name must not be empty")
        value, now = new_token_value(), self._now()
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
                (self.digest(value), username, name, now, expires_at),
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
        now = self._now()
        with self.store.write() as db:
            ids = [
                r["id"]
                for r in db.execute(f"SELECT id FROM tokens WHERE {where} AND revoked_at IS NULL", args)
            ]
            if not ids:
                raise BadRequestError("no such active token")
            db.executemany("UPDATE tokens SET revoked_at = ? WHERE id = ?", [(now, i) for i in ids])
        return [t for t in self.list_tokens(include_access=True) if t.id in ids]

    def load_fixture(
        self, db: sqlite3.Connection, fixture: Fixture, password_hashes: dict[str, str], now: float
    ) -> None:
        """The fixture's users (``password_hashes``: hashed once per backend, at its first reset), tokens."""
        for user in fixture.users:
            db.execute(
                "INSERT INTO users (username, password_hash, roles, system_role) VALUES (?, ?, ?, ?)",
                (user.username, password_hashes[user.username], json.dumps(user.roles), user.system_role),
            )
        for token in fixture.tokens:
            db.execute(
                "INSERT INTO tokens (token_hash, username, name, kind, created_at, expires_at, revoked_at)"
                " VALUES (?, ?, ?, 'personal', ?, ?, ?)",
                (
                    self.digest(token.value),
                    token.user,
                    token.name,
                    now,
                    token.expires_at(),
                    now if token.revoked else None,
                ),
            )


def state(db: sqlite3.Connection) -> dict[str, Any]:
    """Users and tokens for ``/_emulator/state``: never a password, a token or their hashes."""
    users = [
        {"username": r["username"], "roles": json.loads(r["roles"]), "systemRole": r["system_role"]}
        for r in db.execute("SELECT * FROM users ORDER BY username")
    ]
    tokens = [TokenInfo(**dict(r)).to_json() for r in db.execute(_TOKEN_COLUMNS + " ORDER BY id")]
    return {"users": users, "tokens": tokens}


def _tokens_version(db: sqlite3.Connection) -> Any:
    row = db.execute("SELECT value FROM meta WHERE key = 'tokens_version'").fetchone()
    return row["value"] if row else None


def _lookup_token(db: sqlite3.Connection, digest: str) -> tuple[Principal, float | None]:
    row = db.execute(
        "SELECT t.token_hash, t.expires_at, t.revoked_at, u.username, u.roles, u.system_role"
        " FROM tokens t JOIN users u ON u.username = t.username WHERE t.token_hash = ?",
        (digest,),
    ).fetchone()
    if row is None or not hmac.compare_digest(row["token_hash"], digest):
        raise InvalidTokenError()
    if row["revoked_at"] is not None:
        raise InvalidTokenError()
    principal = Principal(row["username"], frozenset(json.loads(row["roles"])), row["system_role"])
    return principal, row["expires_at"]
