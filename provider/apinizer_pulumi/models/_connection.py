"""The fields every connection type shares: :class:`ConnectionBase`, the base of one model per
documented connection type (``_connection_types``), as :class:`~apinizer_pulumi.models.PolicyBase`
is for policies. The registry and the answers are ``_connection_registry``'s.

A connection is read and written as the policies are: every model keeps the unknown fields of a
read (``model_extra``), :func:`~apinizer_pulumi.models.unknown_fields` names them so that a write
can refuse them, secret fields are declared with :func:`~apinizer_pulumi.models.SecretField`
(hidden from ``repr``, listed by :meth:`ConnectionBase.secret_fields`), and errors quote no input.

The list answers every secret field ``null`` ("Secret fields are masked and returned as null in
list operations"); get answers them in full. A list entry is read with ``context={"listed": True}``
(:func:`parse_connection`'s ``listed=True``), under which the rules that ask for a secret are not
applied.

Sources: https://github.com/apinizer/management-api-docs/blob/main/02-api-reference/06-connections/index.md
and https://github.com/apinizer/management-api-docs/blob/main/02-api-reference/06-connections/crud/create-connection.md
"""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any, ClassVar

from pydantic import Field, ValidationInfo

from ._base import Name
from ._policy import PolicyModel, _secret_paths

__all__ = [
    "ConnectionBase",
    "ConnectionModel",
    "connection_source",
    "is_listed",
]


def connection_source(page: str) -> str:
    """The URL of a connection type's page (``connection-email``)."""
    return (
        "https://github.com/apinizer/management-api-docs/blob/main/02-api-reference/06-connections/"
        f"connections/{page}.md"
    )


def is_listed(info: ValidationInfo) -> bool:
    """True while a list entry is read: its secret fields are ``null``, so no rule may ask for them."""
    context = info.context
    return isinstance(context, Mapping) and bool(context.get("listed"))


class ConnectionModel(PolicyModel):
    """A structure of a connection: the same reading rules as a policy's (unknown fields kept and
    named, secrets out of ``repr``, no input quoted in errors)."""


class ConnectionBase(ConnectionModel):
    """The fields every connection type shares. Subclasses set ``connection_type`` and a ``type``
    ``Literal`` with that default (the discriminator)."""

    connection_type: ClassVar[str] = ""

    name: Name = Field(description="The connection's name (the path's, compared case-insensitively).")
    description: str | None = Field(None, description="What the connection is for.")
    deploy_to_worker: bool = Field(True, description="Deploy the connection to the workers.")
    enabled: bool = Field(True, description="Whether the connection is enabled.")

    @classmethod
    def secret_fields(cls) -> tuple[str, ...]:
        """The dotted snake_case paths of the fields that hold secrets (``password``,
        ``header_list.value``)."""
        return tuple(_secret_paths(cls, "", set()))

    @classmethod
    def secret_api_paths(cls) -> tuple[str, ...]:
        """:meth:`secret_fields` under the API's names (``headerList.value``): what a list masks."""
        paths = []
        for path in cls.secret_fields():
            model: Any = cls
            parts = []
            for part in path.split("."):
                info = model.model_fields[part]
                parts.append(info.alias or part)
                model = next(iter(_nested(info.annotation)), None)
            paths.append(".".join(parts))
        return tuple(paths)


def _nested(annotation: Any) -> list[type[ConnectionModel]]:
    if isinstance(annotation, type) and issubclass(annotation, ConnectionModel):
        return [annotation]
    return [found for argument in getattr(annotation, "__args__", ()) for found in _nested(argument)]
