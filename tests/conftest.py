"""Fixtures shared by every test directory: a live emulator for the session, reset per test."""

from __future__ import annotations

from collections.abc import Iterator
from pathlib import Path

import httpx
import pytest

from apinizer_emulator.testing import EmulatorServer

ADMIN_TOKEN = "dev-admin-token"
DEVELOPER_TOKEN = "dev-developer-token"


@pytest.fixture(scope="session")
def emulator(tmp_path_factory: pytest.TempPathFactory) -> Iterator[EmulatorServer]:
    """One emulator for the whole session, on 127.0.0.1, a free port and a temporary SQLite file."""
    db: Path = tmp_path_factory.mktemp("emulator") / "emulator.db"
    with EmulatorServer(db=db) as server:
        yield server


@pytest.fixture
def emulator_url(emulator: EmulatorServer) -> str:
    """The emulator's base URL, reset to the default fixture with zeroed counters and no faults."""
    with httpx.Client(base_url=emulator.base_url, timeout=10) as client:
        client.post("/_emulator/reset").raise_for_status()
        client.post("/_emulator/stats/reset").raise_for_status()
    return emulator.base_url


@pytest.fixture
def admin_token() -> str:
    return ADMIN_TOKEN


@pytest.fixture
def developer_token() -> str:
    return DEVELOPER_TOKEN
