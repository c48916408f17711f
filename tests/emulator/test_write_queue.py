"""The emulator's writer thread: writes waiting together commit together, each failing alone."""

from __future__ import annotations

import sqlite3
import threading
from pathlib import Path

import pytest

from apinizer_emulator.store import Store, WriteQueue


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


def test_a_group_commits_together_and_a_failed_write_is_undone_alone(tmp_path: Path) -> None:
    path = tmp_path / "queue.db"
    store = Store(path)
    writes = WriteQueue(store)
    busy, release = threading.Event(), threading.Event()

    def hold() -> None:
        busy.set()
        assert release.wait(10)

    first = writes.submit(hold)
    assert busy.wait(10)
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
