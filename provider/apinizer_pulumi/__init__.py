"""apinizer-pulumi: an Apinizer API gateway's endpoints, cache, WS-Addressing and RLCLs as Pulumi resources.

    import apinizer_pulumi as apinizer

    apinizer.Endpoint("users", project_name="Payments", api_proxy_name="PetStore",
                      name="/api/users", http_method="GET",
                      backend_resource_url="/users", backend_http_method="GET")

The typed client is ``apinizer_pulumi.client``; the API's models are ``apinizer_pulumi.models``.
"""

from .resources import (
    ApinizerResourceError,
    CacheSettingsArgs,
    ConnectionArgs,
    Endpoint,
    EndpointCache,
    EndpointRateLimitArgs,
    EndpointWsa,
    RlclEndpoints,
    VariableArgs,
    WsaSettingsArgs,
    get_endpoint,
    get_endpoint_policies,
    get_endpoints,
    get_organization_access_report,
)

__all__ = [
    "ApinizerResourceError",
    "CacheSettingsArgs",
    "ConnectionArgs",
    "Endpoint",
    "EndpointCache",
    "EndpointRateLimitArgs",
    "EndpointWsa",
    "RlclEndpoints",
    "VariableArgs",
    "WsaSettingsArgs",
    "get_endpoint",
    "get_endpoint_policies",
    "get_endpoints",
    "get_organization_access_report",
]
