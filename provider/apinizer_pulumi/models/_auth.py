"""The token response of ``POST /apiops/auth/token`` and the API's error body."""

from __future__ import annotations

from pydantic import ConfigDict, Field, field_validator

from ._base import ApiModel
from ._checks import DEFAULT_TOKEN_LIFETIME, token_problem


class TokenResponse(ApiModel):
    """The token endpoint's answer; its field names are snake_case on the wire too (RFC 6749)."""

    # The input is a credential: a validation error must not print it.
    model_config = ConfigDict(
        alias_generator=None,
        populate_by_name=True,
        extra="ignore",
        loc_by_alias=False,
        hide_input_in_errors=True,
    )

    access_token: str = Field(min_length=1, repr=False)
    token_type: str = "Bearer"
    expires_in: int = DEFAULT_TOKEN_LIFETIME

    @field_validator("access_token")
    @classmethod
    def _fit_for_a_header(cls, value: str) -> str:
        # It goes into every request's Authorization header.
        problem = token_problem(value, "access_token")
        if problem is not None:
            raise ValueError(problem)
        return value


class ApiErrorBody(ApiModel):
    """``{error, error_description}``, the body of every error."""

    model_config = ConfigDict(alias_generator=None, populate_by_name=True, extra="ignore", loc_by_alias=False)

    error: str
    error_description: str = ""
