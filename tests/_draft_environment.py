"""An emulator whose default fixture gains an environment that is not published (``staging``,
status DRAFT): a deployment there fails, as the gateway reports it, while the write it follows
stands. :func:`publish_staging` is what an operator does on the console to make it pass."""

from __future__ import annotations

import contextlib
import sqlite3
from collections.abc import Iterator
from pathlib import Path

from apinizer_emulator.testing import EmulatorServer


@contextlib.contextmanager
def draft_staging(folder: Path) -> Iterator[tuple[str, Path]]:
    """A running emulator on a database file in ``folder``: its URL and the file."""
    default = Path(__import__("apinizer_emulator").__file__).parent / "default_fixture.yaml"
    text = default.read_text().replace(
        "environments:\n",
        "environments:\n  - {name: staging, description: Staging, type: TEST, status: DRAFT,"
        " access_url: \"http://staging.example\"}\n", 1)
    fixture = folder / "fixture.yaml"
    fixture.write_text(text)
    database = folder / "gateway.db"
    with EmulatorServer(db=database, fixtures=fixture) as emulator:
        yield emulator.base_url, database


def publish_staging(database: Path) -> None:
    """Publish ``staging`` in the running emulator's database: deployments there pass from now on."""
    with contextlib.closing(sqlite3.connect(database)) as db, db:
        db.execute("UPDATE environments SET status = 'PUBLISHED' WHERE name = 'staging'")
