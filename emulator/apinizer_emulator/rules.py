"""Rules of the API's text that every family applies: the bounds of names and descriptions, and
messages that name a field as the API spells it. Nothing here knows about HTTP or the store."""

from __future__ import annotations

import re
from typing import Any

from pydantic import BaseModel, ValidationError

import apinizer_pulumi.models as api

from .errors import BadRequestError, InvalidFieldError

#: Bounds the spec does not give; chosen so that absurd input is refused with a 400.
MAX_NAME_LENGTH = 2048
MAX_DESCRIPTION_LENGTH = 8192
_CONTROL = re.compile(r"[\x00-\x1f\x7f]")


def check_text(field: str, value: str | None, *, max_length: int, single_line: bool) -> None:
    """Refuse strings that no gateway would store: too long, or (single-line fields) with control characters.

    NUL characters and huge strings in any field are refused earlier, when the body is read.
    """
    if value is None:
        return
    if len(value) > max_length:
        raise InvalidFieldError(field, f"must be at most {max_length} characters")
    if single_line and _CONTROL.search(value):
        raise InvalidFieldError(field, "must not contain control characters")


def check_path_name(field: str, value: str) -> None:
    """A name that the item pages address as one path segment, and that reads as itself: at most
    :data:`MAX_NAME_LENGTH` characters, no control, invisible format, bidirectional control or line
    separator character, no ``/``, and not ``.`` or ``..`` (clients drop those dot segments). An
    object named otherwise could be made but never read, updated or deleted."""
    check_text(field, value, max_length=MAX_NAME_LENGTH, single_line=False)
    problem = api.name_problem(value, field)
    if problem is not None:
        raise BadRequestError(problem)
    if "/" in value or value in (".", ".."):
        raise InvalidFieldError(
            field, f"({value}) cannot be a path segment: it must not contain / nor be . or .."
        )


def _alias_map() -> dict[str, str]:
    aliases: dict[str, str] = {}
    for name in api.__all__:
        cls = getattr(api, name)
        if isinstance(cls, type) and issubclass(cls, BaseModel):
            for field_name, info in cls.model_fields.items():
                aliases[field_name] = info.alias or field_name
    return aliases


_ALIASES = _alias_map()
_SNAKE_WORD = re.compile(r"\b[a-z]+(?:_[a-z]+)+\b")


def _api_name(name: str) -> str:
    return _ALIASES.get(name, name)


def validation_message(exc: ValidationError, prefix: str = "") -> str:
    """The first few problems of a validation error, each naming the field as the API spells it."""
    parts = []
    for error in exc.errors()[:3]:
        path = prefix
        for item in error["loc"]:
            if isinstance(item, int):
                path += f"[{item}]"
            else:
                path += ("." if path else "") + _api_name(str(item))
        message = _SNAKE_WORD.sub(lambda m: _api_name(m.group(0)), error["msg"])
        if error["type"] == "missing":
            parts.append(f"{path} is required")
        elif path:
            parts.append(f"{path}: {message}")
        else:
            parts.append(message)
    return "; ".join(parts)


def extra_fields(model: Any) -> dict[Any, Any]:
    """pydantic's ``exclude`` for the unknown fields a model (and each nested one) kept."""
    exclude: dict[Any, Any] = {key: True for key in model.model_extra or {}}
    for name in type(model).model_fields:
        value = getattr(model, name)
        if isinstance(value, BaseModel):
            nested = extra_fields(value)
            if nested:
                exclude[name] = nested
        elif isinstance(value, list):
            items = {i: extra_fields(v) for i, v in enumerate(value) if isinstance(v, BaseModel)}
            items = {i: e for i, e in items.items() if e}
            if items:
                exclude[name] = items
    return exclude
