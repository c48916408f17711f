"""The token response of ``POST /apiops/auth/token`` and the API's error body."""

from __future__ import annotations

from pydantic import ConfigDict, Field

from ._base import ApiModel


class TokenResponse(ApiModel):
    """The token endpoint's answer; its field names are snake_case on the wire too (RFC 6749)."""

    model_config = ConfigDict(alias_generator=None, populate_by_name=True, extra="ignore", loc_by_alias=False)

    access_token: str = Field(repr=False)
    token_type: str = "Bearer"
    expires_in: int = 3600


class ApiErrorBody(ApiModel):
    """``{error, error_description}``, the body of every error."""

    model_config = ConfigDict(alias_generator=None, populate_by_name=True, extra="ignore", loc_by_alias=False)

    error: str
    error_description: str = ""
