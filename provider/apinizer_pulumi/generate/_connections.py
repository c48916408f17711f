"""The connections to outside systems (Kafka, SMTP, LDAP ...) of a generated program: one list per
type (the API lists one type at a time), each written as ``Connection(..., adopt=True)`` with its
settings class (``apinizer.connections.<Type>``).

Not the gateway connection (``_connection.py``: where the gateway is). A list answers secret fields
``null``, so a connection of a type with secret fields is read once more by itself (a get answers them),
only to know which are set: their values are never written into the program, each is read from a
secret of the stack config instead, as a policy's secret fields are.
"""

from __future__ import annotations

import dataclasses
import functools
import json
from collections.abc import Callable, Sequence
from typing import Any

# Named lazily by the package: the connection types are built when they are read, not at import.
from apinizer_pulumi import models
from apinizer_pulumi.client import ApinizerClient

from ._lines import INDENT, declaration_head, every, slug
from ._policies import _with_secrets, adopted_settings, own_settings
from ._snapshot import listed_or_none

_NOTE = """\
# Connections to outside systems, each taken over as it is (adopt=True), with its type's settings
# class. Secret fields cannot be listed: each is read from the stack config
# (`pulumi config set --secret <key> <value>`)."""


@dataclasses.dataclass(frozen=True)
class ConnectionRecord:
    """One connection as the gateway holds it; its secret fields are only known to be set or not."""

    project: str
    connection: models.ConnectionBase

    @property
    def resource_name(self) -> str:
        """``connection-demo-audit-log`` for the connection audit-log of project Demo."""
        return "connection-" + slug(self.project, str(self.connection.name))

    def settings(self) -> tuple[dict[str, Any], list[tuple[str, str]]]:
        """The type's own fields that differ from their defaults, each set secret a config key, and
        (config key, field) of each."""
        return _with_secrets(own_settings(self.connection, models.ConnectionBase),
                             self.connection.secret_fields(), self.resource_name)


def read_connections(client: ApinizerClient, project: str,
                     progress: Callable[[str], None] = lambda _line: None,
                     *, unread: set[str] | None = None) -> list[ConnectionRecord]:
    """The project's connections of every type: one list per type, and one get per connection of a
    type with secret fields. None where this account may not read them (it lacks ROLE_API_SECURITY)
    or the gateway has no such list."""
    records: list[ConnectionRecord] = []
    skipped: list[str] = []
    for connection_type, model in models.CONNECTION_TYPES.items():
        listed = listed_or_none(functools.partial(client.connections.list, project, connection_type),
                                f"connections of {project}", progress, unread, "Connection")
        if listed is None:
            return []
        for item in listed:
            if model.secret_fields():
                item = client.connections.get(project, str(item.name))
            if isinstance(item, models.ConnectionBase):
                records.append(ConnectionRecord(project, item))
            else:
                skipped.append(f"{item.name} ({connection_type})")
    if records:
        progress(f"connections of {project}: {len(records)}")
    for name in skipped:
        progress(f"connection {project}/{name}: its type's model cannot read it, not written")
    return records


def secret_keys(records: Sequence[ConnectionRecord]) -> list[str]:
    """The config key of every set secret field that the program reads from the stack config."""
    return [key for record in records for key, _ in record.settings()[1]]


def connection_section(records: Sequence[ConnectionRecord], *, retain_option: str | None) -> list[str]:
    """The ``Connection`` declarations, each with ``adopt=True``; empty when there are none."""
    if not records:
        return []
    out = ["", _NOTE, *every("connection to an outside system", "connections", "Connection")]
    for record in records:
        live = record.connection
        name = record.resource_name
        class_name = type(live).__name__.removesuffix("Connection")
        out += declaration_head("Connection", name, record.project, live.name)
        if live.description:
            out.append(f"{INDENT}description={json.dumps(live.description, ensure_ascii=False)},")
        if not live.enabled:
            out.append(f"{INDENT}enabled=False,")
        if not live.deploy_to_worker:
            out.append(f"{INDENT}deploy_to_worker=False,")
        settings, secrets = record.settings()
        out += adopted_settings(f"connections.{class_name}", settings, secrets, retain_option=retain_option)
    out.append("}")
    return out
