"""The Variable structure (a value extracted from a message) with its per-type rules."""

from __future__ import annotations

from functools import lru_cache
from typing import Any, ClassVar, Self
from zoneinfo import available_timezones

from pydantic import model_validator

from ._base import ApiModel, Name, field_errors
from ._enums import ContextValue, MessageContentType, ParamType, ScriptType, VariableDataType, VariableType


@lru_cache(maxsize=1)
def _iana_zones() -> frozenset[str]:
    # A system database may list links that are no zone of their own; Java's ZoneId knows none of them.
    return frozenset(available_timezones()) - {"localtime", "posixrules", "Factory"}


def is_iana_zone(zone_id: str) -> bool:
    """True when ``zone_id`` names a zone of the IANA database (``Europe/Istanbul``, ``UTC``).

    Checked against the database's list of keys rather than by opening ``ZoneInfo(zone_id)``:
    the latter also accepts file-system artefacts (``localtime``, ``posixrules``, ``posix/...``,
    ``right/...``) and, on case-insensitive file systems, ``europe/istanbul``, none of which the
    gateway's Java ``ZoneId`` knows.
    """
    return zone_id in _iana_zones()


class Variable(ApiModel):
    """A variable that extracts a value from a request or response message.

    Which fields are required depends on ``type``; the rules are those of the spec's
    table "Fields by type". ``script_language`` is one of :class:`ScriptType` (GROOVY,
    JAVASCRIPT): the spec shows no values, the product's documentation lists these two
    (https://github.com/apinizer/management-api-docs/blob/main/03-appendix/enum-reference.md).
    ``data_type`` is one of :class:`VariableDataType` (NUMERIC, STRING, DATE), as the
    documentation's EnumConditionVariableDataType lists them; ``message_content_type`` also
    takes FORM, which the enum reference adds to the spec's three.
    """

    name: Name
    description: str | None = None
    type: VariableType
    header_name: str | None = None
    param_type: ParamType | None = None
    param_name: str | None = None
    param_path: str | None = None
    form_name: str | None = None
    message_content_type: MessageContentType | None = None
    xpath_value: str | None = None
    json_path_value: str | None = None
    context_value: ContextValue | None = None
    zone_id: str | None = None
    init_with_script: bool | None = None
    script_language: ScriptType | None = None
    script_body: str | None = None
    data_type: VariableDataType | None = None

    #: The rate-limit variant requires a script for CUSTOM variables even without initWithScript.
    script_always_required_for_custom: ClassVar[bool] = False
    #: A HEADER variable needs headerName, a PARAMETER one paramType and paramName; the cache
    #: key's variant documents both without them.
    source_required: ClassVar[bool] = True

    @model_validator(mode="after")
    def _check_fields_for_type(self) -> Self:
        problems = self._type_problems()
        if problems:
            raise field_errors(type(self).__name__, problems)
        return self

    def _type_problems(self) -> list[tuple[str, str, Any]]:
        problems: list[tuple[str, str, Any]] = []

        def require(field: str, why: str) -> None:
            value = getattr(self, field)
            if value is None or (isinstance(value, str) and not value.strip()):
                problems.append((field, f"{field} is required {why}", value))

        kind = self.type
        if kind is VariableType.HEADER:
            if self.source_required:
                require("header_name", "when type is HEADER")
        elif kind is VariableType.PARAMETER:
            if self.source_required:
                require("param_type", "when type is PARAMETER")
                require("param_name", "when type is PARAMETER")
            if self.param_type is ParamType.PATH:
                require("param_path", "when param_type is PATH")
        elif kind is VariableType.BODY:
            require("message_content_type", "when type is BODY")
            if self.message_content_type is MessageContentType.XML:
                require("xpath_value", "when message_content_type is XML")
            elif self.message_content_type is MessageContentType.JSON:
                require("json_path_value", "when message_content_type is JSON")
                if self.json_path_value and not self.json_path_value.lstrip().startswith(("$", "@")):
                    problems.append(
                        ("json_path_value", "json_path_value must be a JsonPath expression starting with $",
                         self.json_path_value)
                    )
        elif kind is VariableType.CONTEXT_VALUES:
            require("context_value", "when type is CONTEXT_VALUES")
            if self.context_value is not None and self.context_value.needs_zone_id:
                require("zone_id", f"when context_value is {self.context_value.value}")
            if self.zone_id and not is_iana_zone(self.zone_id):
                problems.append(
                    ("zone_id", f"zone_id {self.zone_id!r} is not an IANA time zone identifier", self.zone_id)
                )
        elif kind is VariableType.CUSTOM:
            if self.init_with_script:
                require("script_language", "when init_with_script is true")
                require("script_body", "when init_with_script is true")
            elif self.script_always_required_for_custom:
                require("script_language", "when type is CUSTOM in a rate-limit variable")
                require("script_body", "when type is CUSTOM in a rate-limit variable")
        return problems


class RateLimitVariable(Variable):
    """The rate-limit variant of :class:`Variable` (RLCL ``targetVariable``).

    It differs in one rule: ``type=CUSTOM`` always needs ``script_language`` and ``script_body``.
    """

    script_always_required_for_custom: ClassVar[bool] = True


class CacheKeyVariable(Variable):
    """The cache key's variant of :class:`Variable` (``cacheSettings.variableList``).

    It differs in one rule: a HEADER variable may leave out ``header_name`` and a PARAMETER one
    ``param_type`` and ``param_name``. The product documents exactly that body as answering 200
    (cURL example 2 and "Custom Cache Key" of
    https://github.com/apinizer/management-api-docs/blob/main/02-api-reference/04-api-proxies/endpoints/update-endpoint-cache.md),
    so the client sends it and the emulator accepts it. Every other rule of the type stays.
    """

    source_required: ClassVar[bool] = False


def as_rate_limit_variable(value: Any) -> Any:
    """A ``before`` validator's step: a plain :class:`Variable` re-validated as a :class:`RateLimitVariable`.

    A plain Variable is welcome where a rate-limit variable belongs, but must pass its stricter rules.
    """
    return _revalidated_as(RateLimitVariable, value)


def as_cache_key_variables(value: Any) -> Any:
    """A ``before`` validator's step: plain :class:`Variable` list items re-read as cache key variables."""
    if isinstance(value, list | tuple):
        return [_revalidated_as(CacheKeyVariable, item) for item in value]
    return value


def _revalidated_as(variant: type[Variable], value: Any) -> Any:
    if isinstance(value, Variable) and not isinstance(value, variant):
        return value.model_dump(exclude_none=True)
    return value
