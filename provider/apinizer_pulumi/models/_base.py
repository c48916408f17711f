"""The shared base of every model and the helper that raises field-named errors."""

from __future__ import annotations

from typing import Annotated, Any

from pydantic import BaseModel, BeforeValidator, ConfigDict, Field, ValidationError
from pydantic.alias_generators import to_camel
from pydantic_core import InitErrorDetails, PydanticCustomError


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


def _reject_bool(value: Any) -> Any:
    # pydantic's lax mode reads True as 1; a boolean where a count belongs is a mistake, not a count.
    if isinstance(value, bool):
        raise ValueError("must be a positive integer, not a boolean")
    return value


#: A count, length or size: an integer above zero. Integral floats (``5.0``, as Pulumi's numbers
#: arrive) are accepted; booleans and fractions are not.
PositiveInt = Annotated[int, Field(gt=0), BeforeValidator(_reject_bool)]


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
