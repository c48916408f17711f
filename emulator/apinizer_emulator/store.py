"""SQLite storage: WAL, one writer connection, one reader connection per thread.

The store knows tables, not rules, and no family: each family hands it its tables and migrations
(:class:`Family`), and the composition root (:mod:`families`) lists them. Writes run inside
:meth:`Store.write`, which holds a lock for in-process callers and ``BEGIN IMMEDIATE`` for other
processes on the same file (the CLI's token commands), and commits before it returns, so a handler
answers only after the write is in the database. The (proxy, name, httpMethod) uniqueness is also a
UNIQUE index, the last line of defence under concurrent creates.

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
from collections.abc import Callable, Iterator, Sequence
from concurrent.futures import Future, InvalidStateError
from contextlib import contextmanager
from dataclasses import dataclass
from pathlib import Path
from typing import Any, TypeVar

MEMORY = ":memory:"
R = TypeVar("R")

#: The store's own table: settings of the database itself (keys, versions, what is done once).
_SCHEMA = """
CREATE TABLE IF NOT EXISTS meta (
    key TEXT PRIMARY KEY,
    value TEXT NOT NULL
);
"""

Migration = Callable[[sqlite3.Connection], None]


@dataclass(frozen=True)
class Family:
    """What the store holds of one family of the emulator.

    ``schema``: its tables, indexes and triggers (``CREATE ... IF NOT EXISTS``: run every time a
    file is opened). ``before_schema``: what brings a file made before a change of its tables up to
    date, run before every family's schema; ``after_schema``: what rewrites rows, run after it.
    Each runs whenever the file is opened, in its own transaction, and changes nothing of a file
    already up to date. ``data_tables``: the tables a reset empties, children first.
    """

    name: str
    schema: str = ""
    data_tables: tuple[str, ...] = ()
    before_schema: tuple[Migration, ...] = ()
    after_schema: tuple[Migration, ...] = ()


_registered: list[Family] = []


def register(*families: Family) -> None:
    """Make ``families`` the ones a :class:`Store` holds when it is given none (the composition
    root's families, registered when it is imported). Parents before their children."""
    for family in families:
        if all(known.name != family.name for known in _registered):
            _registered.append(family)


def registered() -> tuple[Family, ...]:
    return tuple(_registered)


def data_tables(families: Sequence[Family]) -> tuple[str, ...]:
    """The tables of ``families`` in the order a wipe deletes them: later families (children)
    first, each family's tables in its own order."""
    return tuple(table for family in reversed(families) for table in family.data_tables)


#: ``synchronous`` in WAL mode: NORMAL survives a killed process (see the module's docstring).
SYNCHRONOUS_ENV = "APINIZER_EMULATOR_SYNCHRONOUS"
SYNCHRONOUS_MODES = ("NORMAL", "FULL")

#: Commits between two checkpoints: a create writes a handful of pages, so this keeps the WAL
#: near SQLite's own threshold (1000 pages).
CHECKPOINT_EVERY = 200

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
    """A SQLite database file (or ``:memory:``) with the tables of the families it holds:
    ``families``, or else the families registered (:func:`register`)."""

    def __init__(
        self,
        path: str | Path = MEMORY,
        *,
        families: Sequence[Family] | None = None,
        synchronous: str | None = None,
    ) -> None:
        self.families = tuple(families if families is not None else registered())
        self.data_tables = data_tables(self.families)
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
            for family in self.families:
                for migrate in family.before_schema:
                    migrate(self._conn)
            self._conn.executescript(_SCHEMA + "".join(family.schema for family in self.families))
            for family in self.families:
                for migrate in family.after_schema:
                    migrate(self._conn)

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
