"""Every policy type by its ``type`` string, the union that reads any of them, and the answer of
list-policies.

Source: https://github.com/apinizer/management-api-docs/blob/main/02-api-reference/05-policies/crud/list-policies.md
"""

from __future__ import annotations

import copy
from collections.abc import Mapping
from types import MappingProxyType
from typing import TYPE_CHECKING, Annotated, Any, Union

from pydantic import BaseModel, BeforeValidator, Field, ValidationError

from . import _policy_message, _policy_security, _policy_traffic
from ._base import ApiModel
from ._policy import PolicyBase, PolicyModel

__all__ = [
    "POLICY_TYPES",
    "AnyPolicy",
    "EndpointPolicyList",
    "PolicyEntry",
    "ProxyPolicies",
    "ProxyPolicyList",
    "UnknownPolicyTypeError",
    "parse_policy",
    "split_write_body",
]


def _collect() -> dict[str, type[PolicyBase]]:
    found: dict[str, type[PolicyBase]] = {}
    for module in (_policy_traffic, _policy_message, _policy_security):
        for value in vars(module).values():
            if isinstance(value, type) and issubclass(value, PolicyBase) and value.policy_type:
                if value.__module__ != module.__name__:
                    continue
                found[value.policy_type] = value
    return dict(sorted(found.items()))


#: Every modelled policy type: ``"policy-white-ip"`` -> :class:`WhiteIpPolicy`.
POLICY_TYPES: Mapping[str, type[PolicyBase]] = MappingProxyType(_collect())

if TYPE_CHECKING:
    # To the type checker any policy is a PolicyBase; at run time, the discriminated union.
    AnyPolicy = PolicyBase
else:
    # Built from the registry, so a type that lands in a module joins it with no edit here.
    AnyPolicy = Annotated[Union[tuple(POLICY_TYPES.values())], Field(discriminator="type")]  # noqa: UP007


class UnknownPolicyTypeError(ValueError):
    """A policy whose ``type`` is no documented policy type."""


def parse_policy(data: Mapping[str, Any]) -> PolicyBase:
    """The model of ``data`` chosen by its ``type`` (snake_case or camelCase keys).

    An unknown or missing type raises :class:`UnknownPolicyTypeError` naming it and the known
    types; a bad field, pydantic's ValidationError naming the field.
    """
    if not isinstance(data, Mapping):
        raise TypeError(f"a policy must be a mapping, got {type(data).__name__}")
    kind = data.get("type")
    model = POLICY_TYPES.get(kind) if isinstance(kind, str) else None
    if model is None:
        known = ", ".join(POLICY_TYPES)
        shown = "no type" if kind is None else f"unknown policy type {kind!r}"
        raise UnknownPolicyTypeError(f"type: {shown}; the known types are {known}")
    # The type's own model rather than the union: errors then name the field alone (ip_list),
    # without the union's tag in front.
    return model.model_validate(dict(data))


def split_write_body(body: Mapping[str, Any]) -> tuple[dict[str, Any] | None, dict[str, Any]]:
    """``(operationMetadata, policy)`` of an add or update body, in either documented shape:
    ``{"operationMetadata": ..., "policy": {...}}`` (the CRUD pages and most type pages) or the
    policy's fields beside ``operationMetadata`` (the client-ban and policy-group pages)."""
    metadata = body.get("operationMetadata")
    if isinstance(body.get("policy"), Mapping):
        return metadata, dict(body["policy"])
    return metadata, {key: value for key, value in body.items() if key != "operationMetadata"}


def _lenient(value: Any) -> Any:
    # A list entry of an unmodelled type (or one the docs abbreviate: "policy-throttling") stays a
    # PolicyEntry; a known type that does not validate as its model (list answers may be
    # simplified) also stays an entry rather than failing the whole list.
    if isinstance(value, Mapping) and value.get("type") in POLICY_TYPES:
        try:
            return parse_policy(value)
        except ValidationError as exc:
            return _with_cleared_secrets(value, exc) or PolicyEntry.model_validate(value)
    return value


_Step = tuple[int | str, str]


def _secret_field(model: type[BaseModel], loc: tuple[int | str, ...]) -> list[_Step] | None:
    """The way to a secret field along an error's ``loc`` (each step: an index, or the key the
    API names the field by and the field's name), or None when ``loc`` leads to anything but a
    declared secret."""
    steps: list[_Step] = []
    current: Any = model
    info = None
    for part in loc:
        if isinstance(part, int):
            steps.append((part, ""))
            continue
        fields = getattr(current, "model_fields", {})
        name = next((n for n, f in fields.items() if part in (n, f.alias)), None)
        if name is None:
            return None
        info = fields[name]
        steps.append((info.alias or name, name))
        current = next(iter(_models_in(info.annotation)), None)
    extra = info.json_schema_extra if info is not None else None
    return steps if isinstance(extra, dict) and extra.get("x-secret") else None


def _models_in(annotation: Any) -> list[type[BaseModel]]:
    if isinstance(annotation, type) and issubclass(annotation, BaseModel):
        return [annotation]
    return [m for argument in getattr(annotation, "__args__", ()) for m in _models_in(argument)]


def _with_cleared_secrets(value: Mapping[str, Any], exc: ValidationError) -> PolicyBase | None:
    """The entry as its model, when all that stops it is a secret field the list cleared (null):
    the pages of several types say a list clears their passwords. The model then holds None there."""
    model = POLICY_TYPES[value["type"]]
    ways = []
    for error in exc.errors():
        way = _secret_field(model, tuple(error["loc"])) if error.get("input", ...) is None else None
        if way is None:
            return None
        ways.append(way)
    filled: Any = copy.deepcopy(dict(value))
    for way in ways:
        holder = filled
        for key, _ in way[:-1]:
            holder = holder[key]
        holder[way[-1][0]] = ""
    try:
        policy = parse_policy(filled)
    except ValidationError:
        return None
    for way in ways:
        owner: Any = policy
        for key, name in way[:-1]:
            owner = owner[key] if isinstance(key, int) else getattr(owner, name)
        object.__setattr__(owner, way[-1][1], None)
    return policy


class PolicyEntry(PolicyModel):
    """A policy as a list shows it when its type is not modelled or the entry is abbreviated:
    the common fields, every other field kept in ``model_extra``. The docs' example entries
    lack ``name``; the gateway and the emulator send it."""

    type: str = Field(description="The policy type.")
    name: str | None = Field(None, description="The policy's name.")
    description: str | None = Field(None, description="The policy's description.")
    active: bool = Field(True, description="Whether the policy runs.")


def _entries(value: Any) -> Any:
    if isinstance(value, list):
        return [_lenient(item) for item in value]
    return value


_PolicyList = Annotated[list[PolicyBase | PolicyEntry], BeforeValidator(_entries)]


class EndpointPolicyList(PolicyModel):
    """An endpoint of list-policies with its own pipelines (an ``endpointList`` item)."""

    endpoint: str | None = Field(None, description="The endpoint's path.")
    active: bool | None = Field(None, description="Whether the endpoint is active.")
    http_method: str | None = Field(None, description="The endpoint's HTTP method.")
    request_policy_list: _PolicyList = Field(default_factory=list, description="Request pipeline policies.")
    response_policy_list: _PolicyList = Field(default_factory=list, description="Response pipeline policies.")
    error_policy_list: _PolicyList = Field(default_factory=list, description="Error pipeline policies.")


class ProxyPolicies(PolicyModel):
    """An API proxy's policies: its own pipelines and each endpoint's (a ``resultList`` item)."""

    name: str | None = Field(None, description="The API proxy's name.")
    type: str | None = Field(None, description="The API type: REST or SOAP.")
    relative_path: str | None = Field(None, description="The proxy's relative path.")
    soap_to_rest: bool | None = Field(None, description="Whether SOAP-to-REST is on.")
    request_policy_list: _PolicyList = Field(default_factory=list, description="Request pipeline policies.")
    response_policy_list: _PolicyList = Field(default_factory=list, description="Response pipeline policies.")
    error_policy_list: _PolicyList = Field(default_factory=list, description="Error pipeline policies.")
    endpoint_list: list[EndpointPolicyList] = Field(
        default_factory=list, description="The endpoints with their policies."
    )


def _unwrap_proxies(value: Any) -> Any:
    # The type pages' list examples wrap the proxy in ``{"apiProxy": {...}}``; the list page does not.
    if isinstance(value, list):
        return [
            item["apiProxy"]
            if isinstance(item, Mapping) and isinstance(item.get("apiProxy"), Mapping)
            else item
            for item in value
        ]
    return value


class ProxyPolicyList(ApiModel):
    """The answer of list-policies: ``resultList`` holds the one proxy, as the list page shows it
    or wrapped in ``apiProxy`` as the type pages show it; ``status`` (list page) or ``success``
    (type pages) says it succeeded."""

    success: bool | None = Field(None, description="True on success (the type pages' envelope).")

    status: str | None = Field(None, description="SUCCESS or FAILURE.")
    result_list: Annotated[list[ProxyPolicies], BeforeValidator(_unwrap_proxies)] = Field(
        description="The proxy with its policies (one item)."
    )
    result_count: int | None = Field(None, description="The number of results (always 1).")
