"""One entry of an RLCL endpoint list: the rate-limiting rules for one endpoint (or ALL)."""

from __future__ import annotations

from typing import Any, Self

from pydantic import Field, field_validator, model_validator

from ._base import ApiModel, Name, PositiveInt, field_errors
from ._enums import CacheErrorHandlingType, HttpMethod, IntervalWindowType, RateLimitTimeInterval
from ._variable import RateLimitVariable, as_rate_limit_variable

ALL = "ALL"


class EndpointRateLimitKey(ApiModel):
    """What an RLCL entry is matched by: the proxy, the endpoint's name and its method (or ``ALL``).

    This alone is the documented body of an entry to delete:
    https://github.com/apinizer/management-api-docs/blob/main/02-api-reference/12-rlcl/endpoints/delete-endpoints.md

    ``endpoint_name="ALL"`` goes with ``endpoint_http_method="ALL"`` or none, and conversely;
    a specific endpoint needs both. The gateway resolves the endpoint id itself.
    """

    api_proxy_name: Name
    endpoint_name: Name | None = None
    endpoint_http_method: HttpMethod | None = Field(default=None, alias="endpointHTTPMethod")

    @model_validator(mode="after")
    def _all_rules(self) -> Self:
        problems: list[tuple[str, str, Any]] = []
        name, method = self.endpoint_name, self.endpoint_http_method
        if name == ALL:
            if method is not None and method is not HttpMethod.ALL:
                problems.append(("endpoint_http_method",
                                 "endpoint_http_method must be ALL or omitted when endpoint_name is ALL",
                                 method.value))
        elif method is HttpMethod.ALL:
            if name is not None:
                problems.append(("endpoint_name",
                                 "endpoint_name must be ALL or omitted when endpoint_http_method is ALL",
                                 name))
        else:
            if not name:
                problems.append(("endpoint_name", "endpoint_name is required for a specific endpoint "
                                 "(or set it to ALL)", name))
            if method is None:
                problems.append(("endpoint_http_method", "endpoint_http_method is required for a specific "
                                 "endpoint (or set it to ALL)", None))
        if problems:
            raise field_errors(type(self).__name__, problems)
        return self

    @property
    def normalized_key(self) -> tuple[str, str, str]:
        """(proxy, endpoint, method) with the ALL shorthand spelled out: how entries match."""
        name = self.endpoint_name or ALL
        method = self.endpoint_http_method.value if self.endpoint_http_method else ALL
        return (self.api_proxy_name, name, method)


class EndpointRateLimit(EndpointRateLimitKey):
    """Rate-limiting rules for one endpoint (or ``ALL``) of an API proxy in an RLCL: its
    :class:`EndpointRateLimitKey` and the rules."""

    permitted_message_count: PositiveInt
    time_interval_period_length: PositiveInt
    time_interval: RateLimitTimeInterval
    target_variable: RateLimitVariable | None = None
    target_identity_value: str | None = None
    cache_connection_timeout_in_seconds: PositiveInt
    cache_error_handling_type: CacheErrorHandlingType
    time_interval_window_type: IntervalWindowType
    show_rate_limit_statistics_in_response_header: bool = False
    enabled: bool = True

    @field_validator("target_variable", mode="before")
    @classmethod
    def _plain_variable_as_rate_limit_variable(cls, value: Any) -> Any:
        return as_rate_limit_variable(value)

    def to_api(self) -> dict[str, Any]:
        """The API's JSON; ``targetVariable`` and ``targetIdentityValue`` stay as explicit nulls."""
        body = self.model_dump(mode="json", by_alias=True, exclude_none=True)
        body.setdefault("targetVariable", None)
        body.setdefault("targetIdentityValue", None)
        return body


class EndpointRateLimitList(ApiModel):
    """The body of the three RLCL list operations."""

    endpoint_rate_limit_list: list[EndpointRateLimit]

    def to_api(self) -> dict[str, Any]:
        return {"endpointRateLimitList": [entry.to_api() for entry in self.endpoint_rate_limit_list]}
