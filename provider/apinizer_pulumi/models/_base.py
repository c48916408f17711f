"""The shared base of every model and the helper that raises field-named errors."""

from __future__ import annotations

import inspect
from typing import Annotated, Any

from pydantic import (
    AfterValidator,
    BaseModel,
    BeforeValidator,
    ConfigDict,
    Field,
    ValidationError,
    ValidationInfo,
)
from pydantic.alias_generators import to_camel
from pydantic_core import InitErrorDetails, PydanticCustomError

from ._checks import name_problem


class ApiModel(BaseModel):
    """snake_case attributes, the API's camelCase on the wire, unknown server fields tolerated.

    ``loc_by_alias=False`` makes validation errors name the snake_case attribute, which is
    what a Pulumi program writes and what a check failure must point at.
    """

    model_config = ConfigDict(
        alias_generator=to_camel,
        populate_by_name=True,
        extra="ignore",
        loc_by_alias=False,
        validate_assignment=True,
        str_strip_whitespace=False,
    )

    def to_api(self) -> dict[str, Any]:
        """The API's JSON for this model: camelCase names, ``None`` fields left out."""
        return self.model_dump(mode="json", by_alias=True, exclude_none=True)

    @classmethod
    def __pydantic_init_subclass__(cls, **kwargs: Any) -> None:
        super().__pydantic_init_subclass__(**kwargs)
        # pydantic names the parameters of the class's run-time signature by alias, and help(),
        # IPython and IDEs that introspect would show camelCase keywords: show the names to write.
        generated = cls.__dict__.get("__signature__")
        if generated is not None:
            cls.__signature__ = _SnakeCaseSignature(generated)  # type: ignore[assignment]


class _SnakeCaseSignature:
    """A class's ``__signature__``: pydantic's, with each alias replaced by its field's name."""

    def __init__(self, generated: Any) -> None:
        self._generated = generated
        self._signature: inspect.Signature | None = None

    def __get__(self, instance: object, owner: type[ApiModel]) -> inspect.Signature:
        if self._signature is None:
            generated = self._generated
            signature: inspect.Signature = (
                generated.__get__(instance, owner) if hasattr(generated, "__get__") else generated
            )
            names = {info.alias: name for name, info in owner.model_fields.items() if info.alias}
            self._signature = signature.replace(
                parameters=[p.replace(name=names.get(p.name, p.name)) for p in signature.parameters.values()]
            )
        return self._signature


def _reject_bool(value: Any) -> Any:
    # pydantic's lax mode reads True as 1; a boolean where a count belongs is a mistake, not a count.
    if isinstance(value, bool):
        raise ValueError("must be a positive integer, not a boolean")
    return value


#: A count, length or size: an integer above zero. Integral floats (``5.0``, as Pulumi's numbers
#: arrive) are accepted; booleans and fractions are not.
PositiveInt = Annotated[int, Field(gt=0), BeforeValidator(_reject_bool)]


def _plain_name(value: str, info: ValidationInfo) -> str:
    problem = name_problem(value, info.field_name or "name")
    if problem is not None:
        raise PydanticCustomError("value_error", problem)
    return value


#: A name that addresses or names an object (an endpoint, an RLCL, a proxy, a variable): not
#: empty, and free of control, format (bidi, zero-width) and line-separator characters.
Name = Annotated[str, Field(min_length=1), AfterValidator(_plain_name)]


def field_errors(title: str, errors: list[tuple[str, str, Any]]) -> ValidationError:
    """Build one ValidationError whose entries point at the named fields.

    Raised from an ``after`` model validator, pydantic prefixes each ``loc`` with the path of
    the enclosing model, so nested rules still name the exact property that is wrong.
    """
    details = [
        InitErrorDetails(
            type=PydanticCustomError("value_error", message),
            loc=(field,),
            input=value,
        )
        for field, message, value in errors
    ]
    return ValidationError.from_exception_data(title, details)


def SecretField(default: Any = ..., **kwargs: Any) -> Any:  # noqa: N802  (reads as a field declaration)
    """``pydantic.Field`` for a field that holds a secret: hidden from ``repr`` and marked
    ``x-secret`` in the JSON schema, which is what :meth:`PolicyBase.secret_fields` collects.

    The value stays a plain ``str`` (never ``SecretStr``) so that the model's JSON round-trips.
    """
    extra = dict(kwargs.pop("json_schema_extra", None) or {})
    extra["x-secret"] = True
    return Field(default, repr=False, json_schema_extra=extra, **kwargs)


class SecretModel(ApiModel):
    """A model that holds a secret (:func:`SecretField`): pydantic quotes no input in its
    validation errors, which would show the secret beside the field that failed."""

    model_config = ConfigDict(hide_input_in_errors=True)
