"""The Pulumi dynamic resources and the read-only functions.

One module per resource kind, each holding its args classes, its provider and its resource:
``endpoint``, ``endpoint_cache``, ``endpoint_wsa``, ``rlcl``, ``rlcl_endpoints``.
"""

from ._args import VariableArgs
from ._connection import ConnectionArgs
from ._errors import ApinizerResourceError
from .endpoint import Endpoint, EndpointProvider
from .endpoint_cache import CacheSettingsArgs, EndpointCache, EndpointCacheProvider
from .endpoint_wsa import EndpointWsa, EndpointWsaProvider, WsaSettingsArgs
from .functions import get_endpoint, get_endpoint_policies, get_endpoints, get_organization_access_report
from .rlcl import Rlcl, RlclProvider
from .rlcl_endpoints import EndpointRateLimitArgs, RlclEndpoints, RlclEndpointsProvider

__all__ = [
    "ApinizerResourceError",
    "CacheSettingsArgs",
    "ConnectionArgs",
    "Endpoint",
    "EndpointCache",
    "EndpointCacheProvider",
    "EndpointProvider",
    "EndpointRateLimitArgs",
    "EndpointWsa",
    "EndpointWsaProvider",
    "Rlcl",
    "RlclEndpoints",
    "RlclEndpointsProvider",
    "RlclProvider",
    "VariableArgs",
    "WsaSettingsArgs",
    "get_endpoint",
    "get_endpoint_policies",
    "get_endpoints",
    "get_organization_access_report",
]
