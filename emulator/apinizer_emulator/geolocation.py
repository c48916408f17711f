"""Geolocation: its MMDB file and whether it is on. State and rules.

https://github.com/apinizer/management-api-docs/blob/main/02-api-reference/13-geolocation/index.md

The uploaded file is parsed with ``maxminddb``, the MaxMind reader (:mod:`.mmdb`), as the gateway
would load it: a file that is not a MaxMind DB (or whose search tree or data section is corrupt) is
a 400 naming what failed, and nothing stored changes. What the emulator keeps is what the file says of itself
(its database type, IP version, node count, build time), its name, size and SHA-256, not its
bytes: nothing reads them back. Each change "deploys" to every environment at once and answers one
result per environment, as the pages show.

Choices where the pages are silent (docs/emulator.md lists them): a file that is no MMDB database
is a 400 in the emulator's words (the pages show only ``File can not be empty!``); a file larger
than :data:`.mmdb.MAX_MMDB_BYTES` is a 400; enable without an uploaded file is accepted, as the enable
page says only that the file "should be uploaded before enabling" and that geolocation "may not
work properly without" it.
"""

from __future__ import annotations

import sqlite3
from typing import TYPE_CHECKING, Any

from .deployments import deployed
from .errors import UnauthorizedError

if TYPE_CHECKING:  # the reader needs the emulator extra; the store, and the token commands, do not
    from .mmdb import MmdbFile

SCHEMA = """
CREATE TABLE IF NOT EXISTS geolocation (
    id INTEGER PRIMARY KEY CHECK (id = 1),
    enabled INTEGER NOT NULL DEFAULT 0,
    file_name TEXT,
    size INTEGER,
    sha256 TEXT,
    database_type TEXT,
    ip_version INTEGER,
    node_count INTEGER,
    build_epoch INTEGER
);
"""
#: The family's tables, children first.
DATA_TABLES = ("geolocation",)


class AdminSettingsError(UnauthorizedError):
    def __init__(self) -> None:
        super().__init__("User does not have privilege to access admin settings!")


def _deployed(db: sqlite3.Connection) -> dict[str, Any]:
    return deployed(db, "Deployment completed successfully", "Deployed successfully")


def upload(db: sqlite3.Connection, mmdb: MmdbFile) -> dict[str, Any]:
    """The file replaces the one there; on or off stays as it was."""
    db.execute(
        "INSERT INTO geolocation (id, file_name, size, sha256, database_type, ip_version, node_count,"
        " build_epoch) VALUES (1, ?, ?, ?, ?, ?, ?, ?) ON CONFLICT (id) DO UPDATE SET"
        " file_name = excluded.file_name, size = excluded.size, sha256 = excluded.sha256,"
        " database_type = excluded.database_type, ip_version = excluded.ip_version,"
        " node_count = excluded.node_count, build_epoch = excluded.build_epoch",
        (
            mmdb.file_name,
            mmdb.size,
            mmdb.sha256,
            mmdb.database_type,
            mmdb.ip_version,
            mmdb.node_count,
            mmdb.build_epoch,
        ),
    )
    return _deployed(db)


def set_enabled(db: sqlite3.Connection, enabled: bool) -> dict[str, Any]:
    db.execute(
        "INSERT INTO geolocation (id, enabled) VALUES (1, ?)"
        " ON CONFLICT (id) DO UPDATE SET enabled = excluded.enabled",
        (int(enabled),),
    )
    return _deployed(db)


def state(db: sqlite3.Connection) -> dict[str, Any]:
    """For ``/_emulator/state``: whether it is on, and the file's name, size, hash and metadata."""
    row = db.execute("SELECT * FROM geolocation WHERE id = 1").fetchone()
    if row is None:
        return {"enabled": False, "mmdb": None}
    mmdb = None
    if row["sha256"] is not None:
        mmdb = {
            "fileName": row["file_name"],
            "size": row["size"],
            "sha256": row["sha256"],
            "databaseType": row["database_type"],
            "ipVersion": row["ip_version"],
            "nodeCount": row["node_count"],
            "buildEpoch": row["build_epoch"],
        }
    return {"enabled": bool(row["enabled"]), "mmdb": mmdb}
