"""A gracefully stopped emulator leaves one self-contained database file."""

from __future__ import annotations

import signal
import sqlite3
from pathlib import Path

import _emulator_http as emulator_http
from apinizer_emulator.testing import start_subprocess


def test_a_stopped_emulator_checkpoints_its_wal_into_the_database(tmp_path: Path) -> None:
    db = tmp_path / "gateway.db"
    proc, url = start_subprocess(db=db)
    try:
        created = emulator_http.post(
            f"{url}/apiops/projects/Demo/apiProxies/PetStore/endpoints/",
            headers={"Authorization": "Bearer dev-developer-token"},
            json={"name": "/owners", "httpMethod": "GET", "backendResourceUrl": "/owners",
                  "backendHttpMethod": "GET"},
        )
        assert created.status_code == 200, created.text
        assert Path(f"{db}-wal").exists()
    finally:
        proc.terminate()
        # uvicorn shuts down cleanly on SIGTERM, then exits by the signal it caught
        assert proc.wait(timeout=30) == -signal.SIGTERM

    assert not Path(f"{db}-wal").exists()
    assert not Path(f"{db}-shm").exists()
    # The file alone holds the acknowledged write: opened read-only, with no WAL beside it.
    with sqlite3.connect(f"file:{db}?mode=ro", uri=True) as conn:
        names = [row[0] for row in conn.execute("SELECT name FROM sqlite_master WHERE type = 'table'")]
        assert names
        dump = "\n".join(conn.iterdump())
    assert "/owners" in dump
