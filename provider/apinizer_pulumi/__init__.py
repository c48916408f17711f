"""apinizer-pulumi: an Apinizer API gateway's endpoints, cache, WS-Addressing and RLCLs as Pulumi resources.

    import apinizer_pulumi as apinizer

    apinizer.Endpoint("users", project_name="Payments", api_proxy_name="PetStore",
                      name="/api/users", http_method="GET",
                      backend_resource_url="/users", backend_http_method="GET")

The typed client is ``apinizer_pulumi.client``; the API's models are ``apinizer_pulumi.models``.

The Pulumi names below are loaded on first use, so that ``apinizer_pulumi.models`` and
``apinizer_pulumi.client`` (which the emulator and plain scripts import) do not pay for importing
the Pulumi SDK and gRPC.
"""

from __future__ import annotations

import importlib
from typing import TYPE_CHECKING, Any

if TYPE_CHECKING:
    from .resources import (
        ApinizerResourceError,
        CacheSettingsArgs,
        ConnectionArgs,
        Endpoint,
        EndpointCache,
        EndpointRateLimitArgs,
        EndpointWsa,
        Rlcl,
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
    "Rlcl",
    "RlclEndpoints",
    "VariableArgs",
    "WsaSettingsArgs",
    "get_endpoint",
    "get_endpoint_policies",
    "get_endpoints",
    "get_organization_access_report",
]


def __getattr__(name: str) -> Any:
    if name in __all__:
        value = getattr(importlib.import_module(".resources", __name__), name)
        globals()[name] = value
        return value
    raise AttributeError(f"module {__name__!r} has no attribute {name!r}")


def __dir__() -> list[str]:
    return sorted([*globals(), *__all__])
