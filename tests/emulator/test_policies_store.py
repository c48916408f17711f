"""The policies table: a database file from before policies were stored whole is migrated on open,
losing nothing and keeping its deployments' fingerprints (so no spurious ``redeployRequired``)."""

from __future__ import annotations

import hashlib
import json
import sqlite3
from pathlib import Path

from apinizer_emulator import api_proxies, deployments, policies
from apinizer_emulator.families import Backend
from apinizer_emulator.fixtures import load_fixture
from apinizer_emulator.store import Store

#: The table as it was (store.py before policies were stored whole).
_OLD_TABLE = """
CREATE TABLE policies (
    seq INTEGER PRIMARY KEY AUTOINCREMENT,
    endpoint_id TEXT NOT NULL REFERENCES endpoints(id) ON DELETE CASCADE,
    pipeline TEXT NOT NULL CHECK (pipeline IN ('request', 'response', 'error')),
    type TEXT NOT NULL,
    name TEXT NOT NULL,
    description TEXT,
    active INTEGER NOT NULL
);
CREATE INDEX policies_endpoint ON policies(endpoint_id);
"""


def _old_fingerprint(db: sqlite3.Connection, proxy_id: str) -> str:
    """deployments.fingerprint as it was, over the old table."""
    digest = hashlib.sha256()
    row = db.execute("SELECT body FROM proxy_details WHERE proxy_id = ?", (proxy_id,)).fetchone()
    digest.update((row[0] if row else "").encode())
    for r in db.execute(
        "SELECT id, name, http_method, description, active, backend_resource_url, backend_http_method,"
        " cache_settings, wsa_settings FROM endpoints WHERE proxy_id = ? ORDER BY name, http_method",
        (proxy_id,),
    ):
        digest.update(json.dumps(list(r)).encode())
    for r in db.execute(
        "SELECT p.endpoint_id, p.pipeline, p.type, p.name, p.description, p.active FROM policies p"
        " JOIN endpoints e ON e.id = p.endpoint_id WHERE e.proxy_id = ? ORDER BY p.seq",
        (proxy_id,),
    ):
        digest.update(json.dumps(list(r)).encode())
    return digest.hexdigest()


def _to_old_layout(path: Path) -> None:
    conn = sqlite3.connect(path)
    with conn:
        conn.execute("ALTER TABLE policies RENAME TO policies_new")
        conn.execute("DROP INDEX policies_endpoint")
        conn.execute("DROP INDEX policies_list")
        for statement in _OLD_TABLE.split(";"):
            if statement.strip():
                conn.execute(statement)
        conn.execute(
            "INSERT INTO policies (seq, endpoint_id, pipeline, type, name, description, active)"
            " SELECT seq, endpoint_id, pipeline, type, name, description, active FROM policies_new"
            " ORDER BY seq"
        )
        conn.execute("DROP TABLE policies_new")
    conn.close()


def test_an_old_file_is_migrated_with_its_policies_in_order_and_its_fingerprints(tmp_path: Path) -> None:
    path = tmp_path / "old.db"
    store = Store(path)
    Backend(store, load_fixture())
    with store.write() as db:
        row = deployments.proxy_row(db, "Demo", "PetStore")
        assert row is not None
        proxy_id = row["id"]
        api_proxies.deploy(db, "Demo", "PetStore", "test")
        before = policies.list_policies(db, "Demo", "PetStore")
    store.close()
    _to_old_layout(path)
    old = sqlite3.connect(path)
    old_fingerprint = _old_fingerprint(old, proxy_id)
    old_rows = old.execute(
        "SELECT seq, endpoint_id, pipeline, type, name FROM policies ORDER BY seq"
    ).fetchall()
    old.close()
    assert len(old_rows) == 4

    store = Store(path)
    try:
        with store.read() as db:
            columns = {r[1] for r in db.execute("PRAGMA table_info(policies)")}
            assert {"proxy_id", "position", "body"} <= columns
            rows = db.execute(
                "SELECT seq, endpoint_id, pipeline, type, name, proxy_id, position, body FROM policies"
                " ORDER BY seq"
            ).fetchall()
            assert [tuple(r)[:5] for r in rows] == [tuple(r) for r in old_rows]
            assert {r["proxy_id"] for r in rows} == {proxy_id}
            assert [(r["pipeline"], r["position"]) for r in rows] == [
                ("request", 1),
                ("request", 2),
                ("response", 1),
                ("error", 1),
            ]
            assert all(r["body"] is None for r in rows)
            assert policies.list_policies(db, "Demo", "PetStore") == before
            # The fingerprint the old code computed is the one the new code computes.
            assert deployments.fingerprint(db, proxy_id) == old_fingerprint
            deployed = api_proxies.get_proxy(db, "Demo", "PetStore")["deploymentList"]
            assert deployed == [{"environmentName": "test", "deployed": True, "redeployRequired": False}]
            names = {r[0] for r in db.execute("SELECT name FROM sqlite_master WHERE type = 'index'")}
            assert {"policies_endpoint", "policies_list"} <= names
    finally:
        store.close()
    # Opening it again migrates nothing more.
    Store(path).close()


def test_a_new_file_needs_no_migration(tmp_path: Path) -> None:
    store = Store(tmp_path / "new.db")
    try:
        with store.read() as db:
            assert not policies._needs_migration(db)
    finally:
        store.close()
