"""Pydantic models and enums for every structure of the management API.

Attributes are snake_case; the API's camelCase names are their aliases. Every model builds from
keywords or from the API's JSON (``Model.model_validate(json)``) and gives the JSON back with
``model.to_api()`` (``model_dump(by_alias=True, exclude_none=True)`` in JSON mode).
"""

from ._auth import ApiErrorBody, TokenResponse, token_problem
from ._base import ApiModel, Name, PositiveInt, name_problem
from ._cache import CacheSettings, EndpointCacheUpdate
from ._endpoint import (
    Endpoint,
    EndpointIdentifier,
    EndpointList,
    EndpointPolicies,
    EndpointSpec,
    EndpointStatusUpdate,
    EndpointTarget,
    EndpointUpdate,
    PolicySummary,
    SuccessResponse,
)
from ._enums import (
    CacheErrorHandlingType,
    CacheHandlingAction,
    CacheKeyType,
    CacheStorageType,
    ContextValue,
    ExecutionOrder,
    HttpMethod,
    HttpMethodName,
    IntervalWindowType,
    MessageContentType,
    ParamType,
    RateLimitTimeInterval,
    ScriptType,
    SharingType,
    VariableDataType,
    VariableType,
    WsaMustUnderstand,
    WsaVersion,
)
from ._rate_limit import EndpointRateLimit, EndpointRateLimitKey, EndpointRateLimitList
from ._report import AccessReport, AccessReportResult, ProxyAccess
from ._rlcl import RlclSpec, RlclUpdate
from ._variable import CacheKeyVariable, RateLimitVariable, Variable, is_iana_zone
from ._wsa import EndpointWsaUpdate, WsaSettings, is_absolute_uri

__all__ = [
    "AccessReport",
    "AccessReportResult",
    "ApiErrorBody",
    "ApiModel",
    "CacheErrorHandlingType",
    "CacheHandlingAction",
    "CacheKeyType",
    "CacheKeyVariable",
    "CacheSettings",
    "CacheStorageType",
    "ContextValue",
    "Endpoint",
    "EndpointCacheUpdate",
    "EndpointIdentifier",
    "EndpointList",
    "EndpointPolicies",
    "EndpointRateLimit",
    "EndpointRateLimitKey",
    "EndpointRateLimitList",
    "EndpointSpec",
    "EndpointStatusUpdate",
    "EndpointTarget",
    "EndpointUpdate",
    "EndpointWsaUpdate",
    "ExecutionOrder",
    "HttpMethod",
    "HttpMethodName",
    "IntervalWindowType",
    "MessageContentType",
    "Name",
    "ParamType",
    "PolicySummary",
    "PositiveInt",
    "ProxyAccess",
    "RateLimitTimeInterval",
    "RateLimitVariable",
    "RlclSpec",
    "RlclUpdate",
    "ScriptType",
    "SharingType",
    "SuccessResponse",
    "TokenResponse",
    "Variable",
    "VariableDataType",
    "VariableType",
    "WsaMustUnderstand",
    "WsaSettings",
    "WsaVersion",
    "is_absolute_uri",
    "is_iana_zone",
    "name_problem",
    "token_problem",
]
