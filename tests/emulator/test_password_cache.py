"""The token request's password check: a password found right is not hashed again while the
stored hash stays the same; a changed password, a wrong one and an unknown user are always hashed."""

from __future__ import annotations

import sqlite3
from collections.abc import Callable, Iterator
from pathlib import Path

import httpx
import pytest

import _emulator_http as emulator_http
from apinizer_emulator import auth
from apinizer_emulator.testing import EmulatorServer

from .conftest import assert_error

TOKEN_PATH = "/apiops/auth/token"


@pytest.fixture
def hashed(monkeypatch: pytest.MonkeyPatch) -> list[str]:
    """The passwords the emulator hashed to check them, in order."""
    seen: list[str] = []
    verify = auth.verify_password

    def counted(password: str, stored: str) -> bool:
        seen.append(password)
        return verify(password, stored)

    monkeypatch.setattr(auth, "verify_password", counted)
    return seen


@pytest.fixture
def served(tmp_path: Path) -> Iterator[tuple[httpx.Client, Path]]:
    db = tmp_path / "emulator.db"
    with EmulatorServer(db=db) as server, emulator_http.client(base_url=server.base_url) as client:
        yield client, db


def _token_request(client: httpx.Client) -> Callable[[str, str], httpx.Response]:
    def ask(username: str, password: str) -> httpx.Response:
        form = {"grant_type": "client_credentials", "client_id": username, "client_secret": password}
        return client.post(TOKEN_PATH, data=form)

    return ask


def test_a_right_password_is_hashed_once_until_the_stored_hash_changes(
    served: tuple[httpx.Client, Path], hashed: list[str]
) -> None:
    client, db = served
    ask = _token_request(client)
    first, second = ask("admin", "admin"), ask("admin", "admin")
    assert first.status_code == second.status_code == 200
    assert first.json()["access_token"] != second.json()["access_token"]
    assert hashed == ["admin"]
    # Another process changes the password (as an operator would, in the database file).
    with sqlite3.connect(db) as other:
        other.execute("UPDATE users SET password_hash = ? WHERE username = 'admin'",
                      (auth.hash_password("changed"),))
    assert_error(ask("admin", "admin"), 401, "unauthorized_client", "Bad credentials")
    assert ask("admin", "changed").status_code == 200
    assert ask("admin", "changed").status_code == 200
    assert hashed == ["admin", "admin", "changed"]


def test_wrong_passwords_and_unknown_users_are_hashed_every_time(
    served: tuple[httpx.Client, Path], hashed: list[str]
) -> None:
    client, db = served
    ask = _token_request(client)
    assert ask("admin", "admin").status_code == 200
    for _ in range(2):
        assert_error(ask("admin", "wrong"), 401, "unauthorized_client", "Bad credentials")
        assert_error(ask("nobody", "admin"), 401, "unauthorized_client", "Bad credentials")
    assert hashed == ["admin", "wrong", "admin", "wrong", "admin"]
    # A user removed after a right password: refused at once.
    with sqlite3.connect(db) as other:
        other.execute("PRAGMA foreign_keys = ON")
        other.execute("DELETE FROM users WHERE username = 'admin'")
    assert_error(ask("admin", "admin"), 401, "unauthorized_client", "Bad credentials")
