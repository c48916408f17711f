"""The emulator's writer thread: writes waiting together commit together, each failing alone; checkpoints."""

from __future__ import annotations

import asyncio
import sqlite3
import threading
import time
from concurrent.futures import Future
from pathlib import Path

import pytest

from apinizer_emulator.store import CHECKPOINT_EVERY, Store, WriteQueue


def put(store: Store, key: str, fail: bool = False) -> str:
    with store.write() as db:
        db.execute("INSERT INTO meta (key, value) VALUES (?, 'x')", (key,))
        if fail:
            raise ValueError(f"{key} failed after its insert")
    return key


def stored(path: Path, key: str) -> bool:
    conn = sqlite3.connect(path)
    try:
        return conn.execute("SELECT 1 FROM meta WHERE key = ?", (key,)).fetchone() is not None
    finally:
        conn.close()


def hold_the_writer(writes: WriteQueue) -> tuple[Future[None], threading.Event]:
    """Keep the writer thread busy until the event is set: what is submitted meanwhile queues."""
    busy, release = threading.Event(), threading.Event()

    def hold() -> None:
        busy.set()
        assert release.wait(10)

    first = writes.submit(hold)
    assert busy.wait(10)
    return first, release


def test_a_group_commits_together_and_a_failed_write_is_undone_alone(tmp_path: Path) -> None:
    path = tmp_path / "queue.db"
    store = Store(path)
    writes = WriteQueue(store)
    first, release = hold_the_writer(writes)
    # Queued while the writer is busy: the next group holds all three.
    kept = writes.submit(lambda: put(store, "kept"))
    failed = writes.submit(lambda: put(store, "failed", fail=True))
    also = writes.submit(lambda: put(store, "also kept"))
    release.set()

    first.result(10)
    assert kept.result(10) == "kept" and also.result(10) == "also kept"
    with pytest.raises(ValueError, match="failed after its insert"):
        failed.result(10)
    # Answered only once committed: another connection sees them at once.
    assert stored(path, "kept") and stored(path, "also kept")
    assert not stored(path, "failed")
    store.close()


def test_the_event_loop_gets_each_result_or_error_after_the_commit(tmp_path: Path) -> None:
    path = tmp_path / "loop.db"
    store = Store(path)
    writes = WriteQueue(store)

    async def main() -> tuple[list[str], BaseException | None]:
        kept = [writes.run(lambda k=f"k{i}": put(store, k)) for i in range(10)]
        failed = writes.run(lambda: put(store, "failed", fail=True))
        results = await asyncio.gather(*kept, failed, return_exceptions=True)
        error = results.pop()
        return [str(r) for r in results], error if isinstance(error, BaseException) else None

    keys, error = asyncio.run(main())
    assert keys == [f"k{i}" for i in range(10)]
    assert isinstance(error, ValueError)
    assert all(stored(path, key) for key in keys) and not stored(path, "failed")
    store.close()


def _wal_checkpoint_sequence(path: Path) -> int:
    """The WAL header's checkpoint sequence number: SQLite adds one each time the WAL starts over."""
    with open(f"{path}-wal", "rb") as wal:
        return int.from_bytes(wal.read(16)[12:16], "big")


def test_the_wal_starts_over_once_checkpointed_in_the_background(tmp_path: Path) -> None:
    path = tmp_path / "wal.db"
    store = Store(path)
    put(store, "first")
    before = _wal_checkpoint_sequence(path)
    for i in range(CHECKPOINT_EVERY):
        put(store, f"k{i}")
    # The checkpointer runs on its own thread: the WAL starts over at some write after it is done.
    deadline = time.monotonic() + 30
    n = 0
    while _wal_checkpoint_sequence(path) == before and time.monotonic() < deadline:
        n += 1
        put(store, f"after {n}")
        time.sleep(0.01)
    assert _wal_checkpoint_sequence(path) != before
    store.close()
    assert not Path(f"{path}-wal").exists()
    assert stored(path, "first") and stored(path, f"after {n}")


def test_a_waiter_that_gives_up_leaves_the_writer_running(tmp_path: Path) -> None:
    path = tmp_path / "cancel.db"
    store = Store(path)
    writes = WriteQueue(store)
    first, release = hold_the_writer(writes)
    abandoned = writes.submit(lambda: put(store, "abandoned by a thread"))
    assert abandoned.cancel()

    async def main() -> str:
        waiter = asyncio.ensure_future(writes.run(lambda: put(store, "abandoned by the loop")))
        await asyncio.sleep(0)
        waiter.cancel()
        release.set()
        return await writes.run(lambda: put(store, "later"))

    assert asyncio.run(main()) == "later"
    first.result(10)
    # Both were queued before they were given up on: they were written all the same.
    assert stored(path, "abandoned by a thread") and stored(path, "abandoned by the loop")
    assert writes.submit(lambda: put(store, "still served")).result(10) == "still served"
    store.close()
