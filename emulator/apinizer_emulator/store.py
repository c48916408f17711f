"""SQLite storage: WAL, one writer connection, one reader connection per thread.

The store knows tables, not rules. Writes run inside :meth:`Store.write`, which holds a lock
for in-process callers and ``BEGIN IMMEDIATE`` for other processes on the same file (the CLI's
token commands), and commits before it returns, so a handler answers only after the write is
in the database. The (proxy, name, httpMethod) uniqueness is also a UNIQUE index, the last line
of defence under concurrent creates.

Reads run on a connection of their thread's own, so in WAL mode they never wait for a write in
progress (nor for each other): each read is one snapshot. A ``:memory:`` database exists only on
its one connection, so there reads share the writer's connection and lock.

Durability: ``synchronous=NORMAL`` in WAL mode writes every committed transaction to the WAL
file before the commit returns, without an fsync. A killed process (``kill -9``) therefore
loses nothing acknowledged; only a crash of the machine itself can lose the last commits
before a checkpoint. ``FULL`` adds an fsync per commit; docs/performance.md has the
measurements behind the choice. ``APINIZER_EMULATOR_SYNCHRONOUS=FULL`` selects it.

Checkpoints (copying the WAL into the database file, with an fsync of each) run on a thread of
their own (:class:`_Checkpointer`), not in the commit that happens to cross SQLite's threshold:
there they held up that commit and every write queued behind it for 10 to 25 ms; now writes
wait only for the last few frames' copy (2 to 6 ms). A checkpoint
only copies what is already committed to the WAL, so where it runs changes nothing of what a
killed process keeps.

Token changes (revocation, deletion, a user's roles) bump ``meta.tokens_version`` by trigger,
whatever process or code path makes them, so a per-process cache of token lookups can tell
at once that it is out of date.
"""

from __future__ import annotations

import asyncio
import contextlib
import os
import queue
import sqlite3
import threading
from collections.abc import Callable, Iterator
from concurrent.futures import Future, InvalidStateError
from contextlib import contextmanager
from pathlib import Path
from typing import Any, TypeVar

from . import (
    api_proxies,
    api_proxy_groups,
    certificates,
    connections,
    credentials,
    crypto_keys,
    environment_variables,
    geolocation,
    ip_groups,
    jwks,
    keystores,
    policies,
    secrets_at_rest,
)

MEMORY = ":memory:"
R = TypeVar("R")

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
INSERT OR IGNORE INTO meta (key, value) VALUES ('tokens_version', '0');
""" + api_proxies.SCHEMA + policies.SCHEMA + credentials.SCHEMA
_SCHEMA += ip_groups.SCHEMA + environment_variables.SCHEMA
_SCHEMA += "".join(
    # Any change to who a token belongs to, or may do, makes cached lookups out of date.
    f"CREATE TRIGGER IF NOT EXISTS {table}_{event.lower()} AFTER {event} ON {table} BEGIN"
    " UPDATE meta SET value = value + 1 WHERE key = 'tokens_version'; END;\n"
    for table in ("tokens", "users")
    for event in ("UPDATE", "DELETE")
)
_SCHEMA += api_proxy_groups.SCHEMA
_SCHEMA += connections.SCHEMA + geolocation.SCHEMA
_SCHEMA += jwks.SCHEMA + certificates.SCHEMA + crypto_keys.SCHEMA + keystores.SCHEMA

#: ``synchronous`` in WAL mode: NORMAL survives a killed process (see the module's docstring).
SYNCHRONOUS_ENV = "APINIZER_EMULATOR_SYNCHRONOUS"
SYNCHRONOUS_MODES = ("NORMAL", "FULL")

#: Commits between two checkpoints: a create writes a handful of pages, so this keeps the WAL
#: near SQLite's own threshold (1000 pages).
CHECKPOINT_EVERY = 200

#: Tables holding the fixture-defined data, children first (the order a wipe deletes them in).
DATA_TABLES = (
    *jwks.DATA_TABLES, *certificates.DATA_TABLES, *crypto_keys.DATA_TABLES, *keystores.DATA_TABLES,
    *credentials.TABLES,
    *api_proxies.TABLES,
    *ip_groups.TABLES,
    *environment_variables.TABLES,
    *api_proxy_groups.TABLES,
    *connections.DATA_TABLES, *geolocation.DATA_TABLES,
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


#: The mode of the database file and of the files SQLite keeps beside it.
OWNER_ONLY = 0o600


def owner_only(db: Path) -> None:
    """Make the database file its owner's alone (0600): created so when new, and an existing one
    narrowed, with the ``-wal``, ``-shm`` and ``-journal`` files beside it. They hold the hashes of
    tokens and passwords and the whole configuration; SQLite creates its ``-wal`` and ``-shm``
    with the database file's mode, so a file created 0600 keeps them 0600 too."""
    os.close(os.open(db, os.O_CREAT | os.O_WRONLY, OWNER_ONLY))
    for path in (db, Path(f"{db}-wal"), Path(f"{db}-shm"), Path(f"{db}-journal")):
        with contextlib.suppress(FileNotFoundError):
            path.chmod(OWNER_ONLY)


class Store:
    """A SQLite database file (or ``:memory:``) with the emulator's schema."""

    def __init__(self, path: str | Path = MEMORY, *, synchronous: str | None = None) -> None:
        self.path = str(path)
        if self.path != MEMORY:
            Path(self.path).parent.mkdir(parents=True, exist_ok=True)
            owner_only(Path(self.path))
        mode = (synchronous or os.environ.get(SYNCHRONOUS_ENV) or "NORMAL").upper()
        if mode not in SYNCHRONOUS_MODES:
            raise ValueError(f"synchronous must be one of {', '.join(SYNCHRONOUS_MODES)}, got {mode!r}")
        self.synchronous = mode
        # The writer connection, used by whichever thread holds the lock.
        self._conn = self._connect()
        self._lock = threading.RLock()
        self._local = threading.local()
        self._readers: list[sqlite3.Connection] = []
        self._readers_lock = threading.Lock()
        self._commits = 0
        self._checkpointer: _Checkpointer | None = None
        with self._lock:
            self._conn.execute("PRAGMA journal_mode=WAL")
            self._conn.execute(f"PRAGMA synchronous={mode}")
            self._conn.execute("PRAGMA foreign_keys=ON")
            if self.path != MEMORY:
                # Checkpoints are the checkpointer thread's (see the module's docstring).
                self._conn.execute("PRAGMA wal_autocheckpoint=0")
            # A file from before a table's change is brought up to date before the script runs.
            policies.migrate(self._conn)
            self._conn.executescript(_SCHEMA)
            # Rows from before secrets were stored hashed.
            secrets_at_rest.migrate(self._conn)

    def _connect(self) -> sqlite3.Connection:
        conn = sqlite3.connect(self.path, isolation_level=None, check_same_thread=False, timeout=10.0)
        conn.row_factory = sqlite3.Row
        conn.execute("PRAGMA busy_timeout=10000")
        return conn

    def _reader(self) -> sqlite3.Connection:
        conn: sqlite3.Connection | None = getattr(self._local, "conn", None)
        if conn is None:
            conn = self._connect()
            with self._readers_lock:
                self._readers.append(conn)
            self._local.conn = conn
        return conn

    @contextmanager
    def read(self, *, snapshot: bool = True) -> Iterator[sqlite3.Connection]:
        """A connection for a consistent read: one snapshot for all its statements.

        ``snapshot=False`` leaves out the transaction, for a read of one statement (each
        statement is its own snapshot anyway) or one that opens its own.
        """
        if self.path == MEMORY:
            with self._lock:
                if not snapshot:
                    yield self._conn
                    return
                with self._snapshot(self._conn) as conn:
                    yield conn
            return
        if not snapshot:
            yield self._reader()
            return
        with self._snapshot(self._reader()) as conn:
            yield conn

    @staticmethod
    @contextmanager
    def _snapshot(conn: sqlite3.Connection) -> Iterator[sqlite3.Connection]:
        conn.execute("BEGIN")
        try:
            yield conn
        finally:
            conn.execute("COMMIT")

    @contextmanager
    def batch(self) -> Iterator[None]:
        """One transaction around several writes of this thread, committed on exit.

        Each :meth:`write` inside is a savepoint: a write that fails is undone alone, the others
        still commit together, with one commit (one fsync under ``FULL``) for all of them.
        """
        with self._lock:
            self._conn.execute("BEGIN IMMEDIATE")
            self._local.batch = True
            try:
                yield
            except BaseException:
                self._conn.execute("ROLLBACK")
                raise
            finally:
                self._local.batch = False
            self._conn.execute("COMMIT")
            self._committed()

    @contextmanager
    def write(self, *, one_statement: bool = False) -> Iterator[sqlite3.Connection]:
        """A transaction that takes the database's write lock at once; committed on exit.

        ``one_statement``: the block changes the database with one statement at most and raises
        only before it or when it fails. SQLite undoes a failed statement alone, so inside a
        :meth:`batch` such a block needs no savepoint of its own, and outside one no transaction
        around it: the statement commits itself (autocommit) before it returns.
        """
        with self._lock:
            if one_statement:
                yield self._conn
                if not getattr(self._local, "batch", False):
                    self._committed()
                return
            if getattr(self._local, "batch", False):
                self._conn.execute("SAVEPOINT write")
                try:
                    yield self._conn
                except BaseException:
                    self._conn.execute("ROLLBACK TO write")
                    self._conn.execute("RELEASE write")
                    raise
                self._conn.execute("RELEASE write")
                return
            self._conn.execute("BEGIN IMMEDIATE")
            try:
                yield self._conn
            except BaseException:
                self._conn.execute("ROLLBACK")
                raise
            self._conn.execute("COMMIT")
            self._committed()

    def _committed(self) -> None:
        """Count a commit (under the lock); every :data:`CHECKPOINT_EVERY`, wake the checkpointer."""
        if self.path == MEMORY:
            return
        self._commits += 1
        if self._commits % CHECKPOINT_EVERY == 0:
            if self._checkpointer is None:
                self._checkpointer = _Checkpointer(self.path, self.synchronous, self._lock)
            self._checkpointer.wake()

    def close(self) -> None:
        with self._lock:
            checkpointer, self._checkpointer = self._checkpointer, None
        if checkpointer is not None:
            # Before the writer's connection: the last one to close removes the WAL.
            checkpointer.close()
        with self._readers_lock:
            readers, self._readers = self._readers, []
        for conn in readers:
            conn.close()
        with self._lock:
            # The last connection to close checkpoints the WAL and removes the -wal/-shm files.
            self._conn.close()


class _Checkpointer:
    """A thread that checkpoints the WAL when woken, on a connection of its own.

    PASSIVE checkpoints never wait for readers or writers. The first runs beside the writes;
    the second, short, holds this process's writes back (the store's lock, not SQLite's busy
    wait with its sleeps) so that it can finish.
    """

    def __init__(self, path: str, synchronous: str, lock: threading.RLock) -> None:
        self._path, self._synchronous, self._lock = path, synchronous, lock
        self._due = threading.Event()
        self._closing = False
        self._thread = threading.Thread(target=self._run, name="apinizer-checkpointer", daemon=True)
        self._thread.start()

    def wake(self) -> None:
        self._due.set()

    def close(self) -> None:
        self._closing = True
        self._due.set()
        self._thread.join()

    def _run(self) -> None:
        conn = sqlite3.connect(self._path, isolation_level=None, check_same_thread=False)
        try:
            # The connection that checkpoints decides its fsyncs: the store's own setting.
            conn.execute(f"PRAGMA synchronous={self._synchronous}")
            while True:
                self._due.wait()
                self._due.clear()
                if self._closing:
                    return
                try:
                    # The bulk of the copy and its fsyncs while writes go on; then, with the writes
                    # held back, the little appended meanwhile: only a checkpoint that leaves no
                    # frame behind lets the next write start the WAL over (else it only grows).
                    conn.execute("PRAGMA wal_checkpoint(PASSIVE)").fetchall()
                    with self._lock:
                        conn.execute("PRAGMA wal_checkpoint(PASSIVE)").fetchall()
                except sqlite3.Error:
                    # Another process's checkpoint at the same moment, say: the next wake tries again.
                    continue
        finally:
            conn.close()


class WriteQueue:
    """The one thread that runs the writes handed to it, committing them in groups.

    The writes waiting when the thread comes round run in one transaction (:meth:`Store.batch`),
    each in its own savepoint (a write found alone runs as it is, committing itself); every
    one's result (or error) is handed back only after the group's commit, so an answer never
    goes out before its write is in the database.

    :meth:`run` is the event loop's way in: the group's answers reach the loop in one callback
    (one wake-up of the loop per group, not one per write, and no concurrent future to chain).
    :meth:`submit` is for threads.
    """

    #: Most writes in one transaction: a bound on what one failed commit can take with it.
    MAX_GROUP = 64

    def __init__(self, store: Store) -> None:
        self._store = store
        self._jobs: queue.SimpleQueue[tuple[Callable[[], Any], Future[Any] | asyncio.Future[Any]]] = (
            queue.SimpleQueue()
        )
        self._thread = threading.Thread(target=self._run, name="apinizer-writer", daemon=True)
        self._thread.start()

    def submit(self, job: Callable[[], Any]) -> Future[Any]:
        done: Future[Any] = Future()
        self._jobs.put((job, done))
        return done

    async def run(self, job: Callable[[], R]) -> R:
        """``job()`` on the writer thread, awaited on the running event loop."""
        done: asyncio.Future[R] = asyncio.get_running_loop().create_future()
        self._jobs.put((job, done))
        return await done

    def _run(self) -> None:
        while True:
            group = [self._jobs.get()]
            while len(group) < self.MAX_GROUP:
                try:
                    group.append(self._jobs.get_nowait())
                except queue.Empty:
                    break
            outcomes: list[tuple[Future[Any] | asyncio.Future[Any], Any, BaseException | None]] = []
            if len(group) == 1:
                # Alone, a write is its own transaction: a one-statement write (a create) then needs
                # no BEGIN and COMMIT around it, two fewer round trips through SQLite and the GIL.
                job, done = group[0]
                try:
                    outcomes.append((done, job(), None))
                except BaseException as error:
                    outcomes.append((done, None, error))
                _settle(outcomes)
                continue
            try:
                with self._store.batch():
                    for job, done in group:
                        try:
                            outcomes.append((done, job(), None))
                        except Exception as error:  # the job's own failure, undone by its savepoint
                            outcomes.append((done, None, error))
            except BaseException as error:  # the commit itself failed: nothing of the group is in
                outcomes = [(done, None, error) for _, done in group]
            _settle(outcomes)


def _settle(outcomes: list[tuple[Future[Any] | asyncio.Future[Any], Any, BaseException | None]]) -> None:
    """Hand each outcome to its waiter: threads' futures at once, each loop's in one callback."""
    by_loop: dict[asyncio.AbstractEventLoop, list[tuple[asyncio.Future[Any], Any, BaseException | None]]] = {}
    for done, result, failure in outcomes:
        if isinstance(done, asyncio.Future):
            by_loop.setdefault(done.get_loop(), []).append((done, result, failure))
            continue
        with contextlib.suppress(InvalidStateError):  # cancelled by its caller: the writer lives on
            _resolve(done, result, failure)
    for loop, settled in by_loop.items():
        with contextlib.suppress(RuntimeError):  # the loop is closed: nobody waits any more
            loop.call_soon_threadsafe(_settle_on_loop, settled)


def _settle_on_loop(settled: list[tuple[asyncio.Future[Any], Any, BaseException | None]]) -> None:
    for done, result, failure in settled:
        if not done.done():  # else cancelled meanwhile (the write itself is in all the same)
            _resolve(done, result, failure)


def _resolve(done: Future[Any] | asyncio.Future[Any], result: Any, failure: BaseException | None) -> None:
    if failure is None:
        done.set_result(result)
    else:
        done.set_exception(failure)
