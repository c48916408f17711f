"""IP groups and their addresses: state and rules.

Functions take a store connection inside the caller's transaction and raise the typed errors
below, whose messages are the product documentation's where it shows one:
https://github.com/apinizer/management-api-docs/blob/main/02-api-reference/11-ip-groups/index.md

Choices where the pages are silent or disagree (docs/emulator.md lists them):

* the replace and remove pages say an empty ``ipList`` clears the group (or changes nothing) and
  also document ``ipList value can not be empty!``: the emulator answers the documented error;
* an address that is no IPv4 address or CIDR range ("invalid formats may cause errors") is a 400
  naming it and its index;
* an update whose body names another group is a 400 (the name "cannot be changed");
* deleting a group touches nothing else: the allow and block list policies carry their own
  ``ipList``, so nothing refers to a group by name in what the emulator stores.
"""

from __future__ import annotations

import ipaddress
import json
import sqlite3
from typing import Any

from .deployments import require_project
from .errors import BadRequestError

SCHEMA = """
CREATE TABLE IF NOT EXISTS ip_groups (
    seq INTEGER PRIMARY KEY AUTOINCREMENT,
    project TEXT NOT NULL REFERENCES projects(name) ON DELETE CASCADE,
    name TEXT NOT NULL,
    description TEXT,
    ips TEXT NOT NULL,
    UNIQUE (project, name)
);
"""
#: The family's tables, children first.
DATA_TABLES = ("ip_groups",)


class IpGroupNameEmptyError(BadRequestError):
    def __init__(self) -> None:
        super().__init__("name value can not be empty!")


class IpGroupExistsError(BadRequestError):
    def __init__(self, name: str) -> None:
        super().__init__(f"An IP Group with same name ({name}) already exists in project!")


class IpGroupNotFoundError(BadRequestError):
    def __init__(self, name: str) -> None:
        super().__init__(f"IP Group ({name}) is not found!")


class IpGroupRenameError(BadRequestError):
    """The update page: the name "must match the IP Group name in path (cannot be changed)"; no
    message is shown for a mismatch, so this wording is the emulator's."""

    def __init__(self, path_name: str, body_name: str) -> None:
        super().__init__(
            f"IP Group name can not be changed: name ({body_name}) must match the path ({path_name})!"
        )


class IpListEmptyError(BadRequestError):
    def __init__(self) -> None:
        super().__init__("ipList value can not be empty!")


class InvalidIpError(BadRequestError):
    """Not shown by the pages ("invalid formats may cause errors"): the emulator's wording."""

    def __init__(self, index: int, value: Any) -> None:
        super().__init__(f"ipList[{index}] ({value}) is not a valid IPv4 address or CIDR range!")


def check_ip_list(ips: Any) -> list[str]:
    """The body's ``ipList``: a non-empty array of IPv4 addresses and CIDR ranges."""
    if not ips:
        raise IpListEmptyError()
    if not isinstance(ips, list):
        raise BadRequestError("ipList must be an array of strings!")
    for index, value in enumerate(ips):
        if not isinstance(value, str):
            raise InvalidIpError(index, value)
        try:
            parsed = ipaddress.ip_network(value) if "/" in value else ipaddress.ip_address(value)
        except ValueError:
            raise InvalidIpError(index, value) from None
        if parsed.version != 4:
            raise InvalidIpError(index, value)
    return list(ips)


def _row(db: sqlite3.Connection, project: str, name: str) -> sqlite3.Row:
    require_project(db, project)
    row: sqlite3.Row | None = db.execute(
        "SELECT * FROM ip_groups WHERE project = ? AND name = ?", (project, name)
    ).fetchone()
    if row is None:
        raise IpGroupNotFoundError(name)
    return row


def create(db: sqlite3.Connection, project: str, name: str, description: str | None) -> None:
    require_project(db, project)
    if db.execute("SELECT 1 FROM ip_groups WHERE project = ? AND name = ?", (project, name)).fetchone():
        raise IpGroupExistsError(name)
    db.execute(
        "INSERT INTO ip_groups (project, name, description, ips) VALUES (?, ?, ?, '[]')",
        (project, name, description),
    )


def update(db: sqlite3.Connection, project: str, name: str, description: str | None) -> None:
    row = _row(db, project, name)
    db.execute("UPDATE ip_groups SET description = ? WHERE seq = ?", (description, row["seq"]))


def delete(db: sqlite3.Connection, project: str, name: str) -> None:
    row = _row(db, project, name)
    db.execute("DELETE FROM ip_groups WHERE seq = ?", (row["seq"],))


def change_ips(db: sqlite3.Connection, project: str, name: str, method: str, ips: list[str]) -> None:
    """``POST`` adds (duplicates ignored), ``PUT`` replaces, ``DELETE`` removes (absent ones ignored)."""
    row = _row(db, project, name)
    current: list[str] = json.loads(row["ips"])
    if method == "POST":
        updated = current + [ip for ip in dict.fromkeys(ips) if ip not in current]
    elif method == "PUT":
        updated = list(dict.fromkeys(ips))
    else:
        updated = [ip for ip in current if ip not in set(ips)]
    db.execute("UPDATE ip_groups SET ips = ? WHERE seq = ?", (json.dumps(updated), row["seq"]))


def state(db: sqlite3.Connection, project: str) -> list[dict[str, Any]]:
    """The project's groups for ``/_emulator/state``: what the API itself cannot read back."""
    return [
        {"name": r["name"], "description": r["description"], "ipList": json.loads(r["ips"])}
        for r in db.execute("SELECT * FROM ip_groups WHERE project = ? ORDER BY seq", (project,))
    ]
