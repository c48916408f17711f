"""Every connection type by its ``type`` string, the union that reads any of them, and the answers
of the five operations.

Source: https://github.com/apinizer/management-api-docs/blob/main/02-api-reference/06-connections/crud/list-connections.md
"""

from __future__ import annotations

import json
from collections.abc import Mapping
from types import MappingProxyType
from typing import TYPE_CHECKING, Annotated, Any, Union

from pydantic import BeforeValidator, Field, RootModel, ValidationError

from . import _connection_types
from ._connection import ConnectionBase, ConnectionModel
from ._project import ResultEnvelope

__all__ = [
    "CONNECTION_TYPES",
    "AnyConnection",
    "ConnectionBody",
    "ConnectionEntry",
    "ConnectionList",
    "UnknownConnectionTypeError",
    "documented_connection_type",
    "masked_connection",
    "parse_connection",
]


def _collect() -> dict[str, type[ConnectionBase]]:
    found = {
        value.connection_type: value
        for value in vars(_connection_types).values()
        if isinstance(value, type) and issubclass(value, ConnectionBase) and value.connection_type
    }
    return dict(sorted(found.items()))


#: Every documented connection type: ``"email"`` -> :class:`EmailConnection`.
CONNECTION_TYPES: Mapping[str, type[ConnectionBase]] = MappingProxyType(_collect())

if TYPE_CHECKING:
    AnyConnection = ConnectionBase
else:
    # Built from the registry, so a type that lands in _connection_types joins it with no edit here.
    AnyConnection = Annotated[Union[tuple(CONNECTION_TYPES.values())], Field(discriminator="type")]  # noqa: UP007


class ConnectionBody(RootModel[AnyConnection]):
    """A create or update body: any connection type, chosen by its ``type`` (for the emulator's
    OpenAPI document; :func:`parse_connection` reads bodies)."""


class UnknownConnectionTypeError(ValueError):
    """A connection whose ``type`` is no documented connection type."""


#: The Elasticsearch page's examples end with a second ``"type"`` key, ``READ_WRITE`` (its
#: EnumElasticsearchType), which a JSON reader keeps over ``"elasticsearch"`` (docs/docs-disagreements.md).
_ELASTICSEARCH_ACCESS = frozenset({"READ_WRITE", "READ"})


def documented_connection_type(data: Mapping[str, Any]) -> Any:
    """The connection type of ``data``: its ``type``, except that an Elasticsearch body whose last
    ``type`` key is READ_WRITE or READ (the page's examples) is ``elasticsearch``."""
    kind = data.get("type")
    if kind in _ELASTICSEARCH_ACCESS and "elasticHostList" in data:
        return "elasticsearch"
    return kind


def parse_connection(data: Mapping[str, Any], *, listed: bool = False) -> ConnectionBase:
    """The model of ``data`` chosen by its ``type`` (camelCase or snake_case keys).

    ``listed``: ``data`` is an entry of a list or get answer, whose secret fields (and, for
    Elasticsearch, its CA files) may be ``null``. An unknown or missing
    type raises :class:`UnknownConnectionTypeError` naming it and the known types; a bad field,
    pydantic's ValidationError naming the field.
    """
    if not isinstance(data, Mapping):
        raise TypeError(f"a connection must be a mapping, got {type(data).__name__}")
    kind = documented_connection_type(data)
    model = CONNECTION_TYPES.get(kind) if isinstance(kind, str) else None
    if model is None:
        known = ", ".join(CONNECTION_TYPES)
        shown = "no type" if kind is None else f"unknown connection type {kind!r}"
        raise UnknownConnectionTypeError(f"type: {shown}; the known types are {known}")
    body = dict(data)
    body["type"] = kind
    return model.model_validate(body, context={"listed": listed})


def masked_connection(data: Mapping[str, Any]) -> dict[str, Any]:
    """A copy of ``data`` (a connection's API JSON, camelCase) with every secret field of its type
    ``null``, as the list answers it (and as ``/_emulator/state`` and the read-only functions show it)."""
    masked: dict[str, Any] = json.loads(json.dumps(dict(data)))
    model = CONNECTION_TYPES.get(documented_connection_type(masked))
    for path in model.secret_api_paths() if model is not None else ():
        _clear(masked, path.split("."))
    return masked


def _clear(node: Any, parts: list[str]) -> None:
    if isinstance(node, list):
        for item in node:
            _clear(item, parts)
    elif isinstance(node, dict) and parts[0] in node:
        if len(parts) == 1:
            node[parts[0]] = None
        else:
            _clear(node[parts[0]], parts[1:])


class ConnectionEntry(ConnectionModel):
    """A list entry that its type's model does not read (the pages' list examples are abbreviated):
    the common fields, every other field kept in ``model_extra``."""

    type: str = Field(description="The connection type.")
    name: str | None = Field(None, description="The connection's name.")
    description: str | None = Field(None, description="What the connection is for.")
    deploy_to_worker: bool | None = Field(None, description="Deploy the connection to the workers.")
    enabled: bool | None = Field(None, description="Whether the connection is enabled.")


def _lenient(value: Any) -> Any:
    if isinstance(value, Mapping) and documented_connection_type(value) in CONNECTION_TYPES:
        try:
            return parse_connection(value, listed=True)
        except ValidationError:
            return ConnectionEntry.model_validate(value)
    return value


def _entries(value: Any) -> Any:
    return [_lenient(item) for item in value] if isinstance(value, list) else value


class ConnectionList(ResultEnvelope):
    """The answer of list and get: ``resultList`` (get: the one connection) and ``resultCount``.
    List answers every secret field ``null``; get answers them in full."""

    result_list: Annotated[list[ConnectionBase | ConnectionEntry], BeforeValidator(_entries)] = Field(
        default_factory=list, description="The connections."
    )
    result_count: int = Field(0, description="How many connections the list holds.")
