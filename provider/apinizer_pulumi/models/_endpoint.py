"""Endpoints (API methods) of an API proxy and their policy summaries."""

from __future__ import annotations

from typing import TYPE_CHECKING, Any

from pydantic import Field

from ._base import ApiModel, Name
from ._enums import HttpMethod, HttpMethodName


class EndpointSpec(ApiModel):
    """What a create request sends. The endpoint's path is ``name`` on writes.

    Build it from snake_case keywords, ``EndpointSpec(name="/pets", http_method="GET",
    backend_resource_url="/v1/pets", backend_http_method="GET")``, or from the API's JSON with
    ``EndpointSpec.model_validate({"name": ..., "httpMethod": ...})``.
    """

    name: Name
    description: str | None = None
    http_method: HttpMethod
    backend_resource_url: str = Field(min_length=1)
    backend_http_method: HttpMethod

    if TYPE_CHECKING:
        # What type checkers and IDEs show: the snake_case keywords, methods as the enum or its
        # exact value. At run time pydantic's own __init__ validates (and takes the aliases too).
        def __init__(
            self,
            *,
            name: str,
            description: str | None = None,
            http_method: HttpMethod | HttpMethodName,
            backend_resource_url: str,
            backend_http_method: HttpMethod | HttpMethodName,
        ) -> None: ...


class Endpoint(ApiModel):
    """An endpoint as reads return it: the path is ``endpoint``, and ``id`` is the gateway's."""

    id: str
    endpoint: str
    description: str | None = None
    active: bool = True
    http_method: HttpMethod
    backend_resource_url: str | None = None
    backend_http_method: HttpMethod | None = None

    @property
    def name(self) -> str:
        """The endpoint's path under the name that write requests use."""
        return self.endpoint


class PolicySummary(ApiModel):
    """All that the API shows of a policy attached to an endpoint."""

    type: str
    name: str
    description: str | None = None
    active: bool = True


class EndpointPolicies(Endpoint):
    """An endpoint with its request, response and error pipelines."""

    request_policy_list: list[PolicySummary] = Field(default_factory=list)
    response_policy_list: list[PolicySummary] = Field(default_factory=list)
    error_policy_list: list[PolicySummary] = Field(default_factory=list)


class EndpointList(ApiModel):
    """The list response of a proxy's endpoints. ``resultList`` is required: a body without it
    is no list (an empty proxy answers ``"resultList": []``)."""

    success: bool = True
    result_list: list[Endpoint]
    result_count: int = 0


class EndpointIdentifier(ApiModel):
    """The (name, httpMethod) pair that addresses one endpoint in get, delete and policies."""

    name: Name
    http_method: HttpMethod


class EndpointUpdate(EndpointIdentifier):
    """The PATCH body of an update: the identifier plus only the fields that change."""

    description: str | None = None
    backend_resource_url: str | None = Field(default=None, min_length=1)
    backend_http_method: HttpMethod | None = None


class EndpointTarget(ApiModel):
    """``identifierName`` and ``identifierHttpMethod``: how the status, cache and WS-Addressing
    bodies address their endpoint (get, delete and policies say ``name`` and ``httpMethod``)."""

    identifier_name: Name
    identifier_http_method: HttpMethod


class EndpointStatusUpdate(EndpointTarget):
    """The body of an endpoint status change."""

    active: bool


class SuccessResponse(ApiModel):
    """``{success: boolean}``, the body of most writes."""

    success: bool

    def to_api(self) -> dict[str, Any]:
        return {"success": self.success}
