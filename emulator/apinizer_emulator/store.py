"""SQLite storage: one connection, WAL, every write in an immediate transaction.

The store knows tables, not rules. Writes run inside :meth:`Store.write`, which holds a lock
for in-process callers and ``BEGIN IMMEDIATE`` for other processes on the same file (the CLI's
token commands), and commits before it returns, so a handler answers only after the write is
on disk. The (proxy, name, httpMethod) uniqueness is also a UNIQUE index, the last line of
defence under concurrent creates.
"""

from __future__ import annotations

import sqlite3
import threading
from collections.abc import Iterator
from contextlib import contextmanager
from pathlib import Path

MEMORY = ":memory:"

_SCHEMA = """
CREATE TABLE IF NOT EXISTS meta (
    key TEXT PRIMARY KEY,
    value TEXT NOT NULL
);
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
CREATE TABLE IF NOT EXISTS projects (
    seq INTEGER PRIMARY KEY AUTOINCREMENT,
    name TEXT NOT NULL UNIQUE
);
CREATE TABLE IF NOT EXISTS proxies (
    seq INTEGER PRIMARY KEY AUTOINCREMENT,
    id TEXT NOT NULL UNIQUE,
    project TEXT NOT NULL REFERENCES projects(name) ON DELETE CASCADE,
    name TEXT NOT NULL,
    type TEXT NOT NULL CHECK (type IN ('REST', 'SOAP')),
    sharing_type TEXT NOT NULL,
    access_list TEXT NOT NULL,
    UNIQUE (project, name)
);
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
CREATE TABLE IF NOT EXISTS policies (
    seq INTEGER PRIMARY KEY AUTOINCREMENT,
    endpoint_id TEXT NOT NULL REFERENCES endpoints(id) ON DELETE CASCADE,
    pipeline TEXT NOT NULL CHECK (pipeline IN ('request', 'response', 'error')),
    type TEXT NOT NULL,
    name TEXT NOT NULL,
    description TEXT,
    active INTEGER NOT NULL
);
CREATE INDEX IF NOT EXISTS policies_endpoint ON policies(endpoint_id);
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
CREATE TABLE IF NOT EXISTS data_models (
    seq INTEGER PRIMARY KEY AUTOINCREMENT,
    body TEXT NOT NULL
);
"""

#: Tables holding the fixture-defined data, children first (the order a wipe deletes them in).
DATA_TABLES = (
    "rlcl_entries",
    "rlcl_settings",
    "rlcls",
    "policies",
    "endpoints",
    "proxies",
    "projects",
    "tokens",
    "users",
    "data_models",
)


class Store:
    """A SQLite database file (or ``:memory:``) with the emulator's schema."""

    def __init__(self, path: str | Path = MEMORY) -> None:
        self.path = str(path)
        if self.path != MEMORY:
            Path(self.path).parent.mkdir(parents=True, exist_ok=True)
        # One connection shared by the server's threads; the lock serializes its use.
        self._conn = sqlite3.connect(self.path, isolation_level=None, check_same_thread=False, timeout=10.0)
        self._conn.row_factory = sqlite3.Row
        self._lock = threading.RLock()
        with self._lock:
            self._conn.execute("PRAGMA journal_mode=WAL")
            # FULL: a commit is fsynced before the handler answers, so an acknowledged write
            # survives a crash of the machine, not only of the process.
            self._conn.execute("PRAGMA synchronous=FULL")
            self._conn.execute("PRAGMA foreign_keys=ON")
            self._conn.execute("PRAGMA busy_timeout=10000")
            self._conn.executescript(_SCHEMA)

    @contextmanager
    def read(self) -> Iterator[sqlite3.Connection]:
        """The connection for a consistent read (one snapshot)."""
        with self._lock:
            self._conn.execute("BEGIN")
            try:
                yield self._conn
            finally:
                self._conn.execute("COMMIT")

    @contextmanager
    def write(self) -> Iterator[sqlite3.Connection]:
        """A transaction that takes the database's write lock at once; committed on exit."""
        with self._lock:
            self._conn.execute("BEGIN IMMEDIATE")
            try:
                yield self._conn
            except BaseException:
                self._conn.execute("ROLLBACK")
                raise
            self._conn.execute("COMMIT")

    def close(self) -> None:
        with self._lock:
            self._conn.close()
