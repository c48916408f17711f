"""The pydantic models of provider inputs that the resource modules name lazily.

Kept apart from the resource modules so that declaring a resource in a Pulumi program does not
import pydantic and the API's models; the provider process imports this on its first check.
"""

from __future__ import annotations

from pydantic import BaseModel, ConfigDict, Field, field_validator
from pydantic_core import PydanticCustomError

from apinizer_pulumi.models import EndpointSpec, Name, token_problem


class ConnectionInput(BaseModel):
    """The shape of the ``connection`` input; every field may come from config or env instead."""

    model_config = ConfigDict(extra="forbid")

    url: str | None = Field(default=None, min_length=1)
    token: str | None = Field(default=None, min_length=1, repr=False)
    username: str | None = Field(default=None, min_length=1)
    password: str | None = Field(default=None, min_length=1, repr=False)
    timeout: float | None = Field(default=None, gt=0, allow_inf_nan=False)

    @field_validator("token")
    @classmethod
    def _fit_for_a_header(cls, value: str | None) -> str | None:
        # The client strips surrounding whitespace and refuses the rest; a preview says so first.
        problem = token_problem(value.strip(), "token") if value is not None else None
        if problem is not None:
            raise PydanticCustomError("value_error", problem)
        return value


class EndpointInputs(EndpointSpec):
    """The inputs of an ``Endpoint`` resource, validated offline by ``check``."""

    project_name: Name
    api_proxy_name: Name
    active: bool = True
    adopt: bool = False
