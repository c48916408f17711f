"""An endpoint's create and delete by a token the process remembers: the caller is confirmed by the
write itself, on the writer thread, not by a read on the event loop; what the caller sees is the same.

Another process (here a plain SQLite connection to the same file, as the CLI's ``token revoke`` is)
revokes tokens and changes roles between two requests: the next write is refused as before, in the
same order of errors (the token before the body), and nothing is written on its authority.
"""

from __future__ import annotations

import json
import sqlite3
from collections.abc import Iterator
from contextlib import AbstractContextManager
from pathlib import Path
from typing import Any

import httpx
import pytest

import _emulator_http as emulator_http
from apinizer_emulator.store import Store
from apinizer_emulator.testing import EmulatorServer

from .conftest import assert_error, assert_success, endpoints_path, new_endpoint

ADMIN = {"Authorization": "Bearer dev-admin-token"}
DEVELOPER = {"Authorization": "Bearer dev-developer-token"}
GUEST = {"Authorization": "Bearer dev-guest-token"}
MISSING_ROLE = "Access is denied! The user of this token lacks ROLE_MANAGE_PROXIES."


@pytest.fixture
def served(tmp_path: Path) -> Iterator[tuple[httpx.Client, Path, Store]]:
    db = tmp_path / "emulator.db"
    with EmulatorServer(db=db) as server, emulator_http.client(base_url=server.base_url) as client:
        assert server.backend is not None
        yield client, db, server.backend.store


def another_process(db: Path, statement: str, *parameters: Any) -> None:
    with sqlite3.connect(db) as other:
        other.execute(statement, parameters)


def names(client: httpx.Client) -> set[str]:
    listed = client.get(endpoints_path(), headers=ADMIN).json()["resultList"]
    return {endpoint["endpoint"] for endpoint in listed}


def delete(client: httpx.Client, name: str, headers: dict[str, str]) -> httpx.Response:
    return client.post(endpoints_path("delete"), json={"name": name, "httpMethod": "GET"}, headers=headers)


class CountedReads:
    """How many snapshots the store gave (each a read on the thread that asked)."""

    def __init__(self, store: Store, monkeypatch: pytest.MonkeyPatch) -> None:
        self.count = 0
        read = store.read

        def counted(*, snapshot: bool = True) -> AbstractContextManager[sqlite3.Connection]:
            self.count += 1
            return read(snapshot=snapshot)

        monkeypatch.setattr(store, "read", counted)


def test_a_create_and_a_delete_by_a_remembered_token_read_nothing_on_the_event_loop(
    served: tuple[httpx.Client, Path, Store], monkeypatch: pytest.MonkeyPatch
) -> None:
    client, _, store = served
    assert_success(client.post(endpoints_path(), json=new_endpoint("/first"), headers=ADMIN))  # remembered
    reads = CountedReads(store, monkeypatch)
    for index in range(5):
        assert_success(client.post(endpoints_path(), json=new_endpoint(f"/n{index}"), headers=ADMIN))
        assert_success(delete(client, f"/n{index}", ADMIN))
    assert reads.count == 0
    assert "/n0" not in names(client) and "/first" in names(client)


#: A change by another process, and how every write of the developer's is refused after it.
CHANGES = {
    "revoked": ("UPDATE tokens SET revoked_at = 1 WHERE username = 'developer'",
                (401, "unauthorized_client", "Invalid token")),
    "role-taken": ("UPDATE users SET roles = '[]' WHERE username = 'developer'",
                   (403, "forbidden", MISSING_ROLE)),
}


@pytest.fixture(params=CHANGES)
def refused(request: pytest.FixtureRequest,
            served: tuple[httpx.Client, Path, Store]) -> tuple[httpx.Client, tuple[int, str, str]]:
    """``/kept`` created by the developer (whose token the emulator then remembers), then a change
    by another process: the client, and the status, error and description of each refusal."""
    client, db, _ = served
    change, refusal = CHANGES[request.param]
    assert_success(client.post(endpoints_path(), json=new_endpoint("/kept"), headers=DEVELOPER))
    another_process(db, change)
    return client, refusal


def test_a_token_revoked_or_a_role_taken_away_by_another_process_refuses_the_next_writes(
    refused: tuple[httpx.Client, tuple[int, str, str]],
) -> None:
    client, refusal = refused
    for _ in range(2):
        assert_error(client.post(endpoints_path(), json=new_endpoint("/late"), headers=DEVELOPER), *refusal)
        assert_error(delete(client, "/kept", DEVELOPER), *refusal)
    assert names(client) >= {"/kept"} and "/late" not in names(client)


#: Requests each refused for their body or a missing endpoint, by a token and role that still hold.
BAD_REQUESTS = [
    (endpoints_path(), b"{not json"),
    (endpoints_path(), json.dumps({"name": "/no-method"}).encode()),
    (endpoints_path("delete"), json.dumps({"name": "/kept"}).encode()),
    (endpoints_path("delete"), json.dumps({"name": "/missing", "httpMethod": "GET"}).encode()),
]


def test_the_changed_token_or_role_is_named_before_the_body_or_a_missing_endpoint(
    refused: tuple[httpx.Client, tuple[int, str, str]],
) -> None:
    client, refusal = refused
    for path, body in BAD_REQUESTS:
        answer = client.post(path, content=body, headers={**DEVELOPER, "Content-Type": "application/json"})
        assert_error(answer, *refusal)
    assert "/kept" in names(client)


def test_a_role_given_by_another_process_lets_the_next_write_through(
    served: tuple[httpx.Client, Path, Store],
) -> None:
    client, db, _ = served
    assert_error(client.post(endpoints_path(), json=new_endpoint("/early"), headers=GUEST),
                 403, "forbidden", MISSING_ROLE)
    another_process(db, "UPDATE users SET roles = '[\"ROLE_MANAGE_PROXIES\"]' WHERE username = 'guest'")

    assert_success(client.post(endpoints_path(), json=new_endpoint("/now"), headers=GUEST))
    assert_success(delete(client, "/now", GUEST))
    assert "/early" not in names(client) and "/now" not in names(client)


def test_another_tokens_revocation_leaves_a_remembered_token_writing(
    served: tuple[httpx.Client, Path, Store],
) -> None:
    client, db, _ = served
    assert_success(client.post(endpoints_path(), json=new_endpoint("/a"), headers=DEVELOPER))
    another_process(db, "UPDATE tokens SET revoked_at = 1 WHERE username = 'guest'")

    assert_success(client.post(endpoints_path(), json=new_endpoint("/b"), headers=DEVELOPER))
    assert_success(delete(client, "/a", DEVELOPER))
    assert_error(client.post(endpoints_path(), json=new_endpoint("/b"), headers=DEVELOPER),
                 400, "bad_request")
    assert_error(delete(client, "/a", DEVELOPER), 400, "bad_request")
    assert names(client) >= {"/b"} and "/a" not in names(client)
