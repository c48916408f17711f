"""``--check``: what a program declares, read from its source, against what the gateway holds.

The program is parsed, never run: running it would need the Pulumi engine. Every
``Endpoint(...)`` call whose identifying keywords are literals counts as a declaration, wherever
it stands (so a program written by hand, or a generated one edited since, is read too).
"""

from __future__ import annotations

import ast
import dataclasses
from collections.abc import Iterable
from typing import Any

from ._snapshot import EndpointRecord

_IDENTITY = ("project_name", "api_proxy_name", "name", "http_method")


@dataclasses.dataclass(frozen=True)
class Declared:
    """One ``Endpoint`` the program declares: its identity and the literal settings it gives."""

    record: EndpointRecord
    #: The settings given as literals; a setting computed at run time is not compared.
    given: frozenset[str]
    line: int


def _is_endpoint_call(node: ast.Call) -> bool:
    func = node.func
    return (isinstance(func, ast.Attribute) and func.attr == "Endpoint") or (
        isinstance(func, ast.Name) and func.id == "Endpoint"
    )


def _literal(node: ast.expr) -> Any:
    try:
        return ast.literal_eval(node)
    except ValueError:
        return _Unknown


class _Unknown:
    """A keyword whose value is not a literal."""


def declared_endpoints(source: str, filename: str = "<program>") -> list[Declared]:
    """The ``Endpoint`` declarations of a program's source."""
    found: list[Declared] = []
    for node in ast.walk(ast.parse(source, filename)):
        if not (isinstance(node, ast.Call) and _is_endpoint_call(node)):
            continue
        values = {kw.arg: _literal(kw.value) for kw in node.keywords if kw.arg}
        if not all(isinstance(values.get(key), str) for key in _IDENTITY):
            continue
        settings = {
            key: values[key]
            for key in EndpointRecord.SETTINGS
            if key in values and values[key] is not _Unknown
        }
        if settings.get("description") == "":
            settings["description"] = None  # as ``Endpoint`` reads it: no description
        record = EndpointRecord(
            project=values["project_name"],
            proxy=values["api_proxy_name"],
            name=values["name"],
            http_method=str(values["http_method"]).upper(),
            **settings,
        )
        # ``Endpoint`` defaults: active true, no description; those count as given.
        given = frozenset(settings) | {"active", "description"}
        found.append(Declared(record, given, node.lineno))
    return found


@dataclasses.dataclass
class Drift:
    """The differences between a program and the gateway; empty when they agree."""

    #: On the gateway, not declared: configuration made outside code.
    undeclared: list[EndpointRecord] = dataclasses.field(default_factory=list)
    #: Declared, not on the gateway (deleted outside code, or not applied yet).
    missing: list[Declared] = dataclasses.field(default_factory=list)
    #: Declared and on the gateway, with settings that differ: (declared, live, [setting, ...]).
    changed: list[tuple[Declared, EndpointRecord, list[str]]] = dataclasses.field(default_factory=list)

    def __bool__(self) -> bool:
        return bool(self.undeclared or self.missing or self.changed)

    def lines(self, program: str) -> list[str]:
        """A readable diff: ``+`` on the gateway only, ``-`` in the program only, ``~`` differs."""
        out: list[str] = []
        for record in self.undeclared:
            out.append(f"+ {record.label}: on the gateway, not declared in {program}")
        for item in self.missing:
            out.append(f"- {item.record.label}: declared at {program}:{item.line}, not on the gateway")
        for item, live, fields in self.changed:
            out.append(f"~ {live.label} ({program}:{item.line}):")
            for field in fields:
                want, have = getattr(item.record, field), getattr(live, field)
                out.append(f"    {field}: declared {want!r}, gateway has {have!r}")
        return out


def compare(
    declared: Iterable[Declared], live: Iterable[EndpointRecord], project: str, proxies: Iterable[str]
) -> Drift:
    """The drift between the declarations and the live endpoints of ``proxies`` in ``project``.

    Declarations of other proxies or projects than those read are left out: nothing was read
    to compare them with.
    """
    scope = set(proxies)
    wanted = {
        item.record.key: item
        for item in declared
        if item.record.project == project and item.record.proxy in scope
    }
    have = {record.key: record for record in live}
    drift = Drift()
    for key, record in sorted(have.items()):
        item = wanted.get(key)
        if item is None:
            drift.undeclared.append(record)
            continue
        fields = [
            field
            for field in EndpointRecord.SETTINGS
            if field in item.given and getattr(item.record, field) != getattr(record, field)
        ]
        if fields:
            drift.changed.append((item, record, fields))
    drift.missing = [item for key, item in sorted(wanted.items()) if key not in have]
    return drift
