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

import importlib as _importlib
import importlib.metadata as _metadata
import typing as _typing

if _typing.TYPE_CHECKING:
    from . import client, connections, models, policies
    from .resources import (
        ApinizerResourceError,
        ApiProxy,
        ApiProxyDeployment,
        ApiProxyGroup,
        ApiProxyGroupDeployment,
        ApiProxyMetadataArgs,
        CacheSettingsArgs,
        Certificate,
        ClientRouteArgs,
        Connection,
        ConnectionArgs,
        CorsSettingsArgs,
        Credential,
        CredentialAccessArgs,
        Endpoint,
        EndpointCache,
        EndpointRateLimitArgs,
        EndpointWsa,
        EnvironmentVariable,
        EnvironmentVariableValue,
        Geolocation,
        HeaderMatchArgs,
        IpGroup,
        Jwk,
        JwkEcArgs,
        JwkGenerateArgs,
        JwkOctArgs,
        JwkOkpArgs,
        JwkRsaArgs,
        Policy,
        Rlcl,
        RlclCondition,
        RlclCredentials,
        RlclEndpoints,
        RoutingAddressArgs,
        RoutingArgs,
        VariableArgs,
        WsaSettingsArgs,
        export_certificate,
        get_api_proxies,
        get_api_proxies_report,
        get_api_proxy,
        get_api_proxy_groups,
        get_certificate,
        get_certificates,
        get_connection,
        get_connections,
        get_credentials,
        get_endpoint,
        get_endpoint_policies,
        get_endpoints,
        get_environment_variables,
        get_environments,
        get_jwk,
        get_jwks,
        get_organization_access_report,
        get_policies,
        get_projects,
        get_truststore_certificates,
    )

try:
    # One source for the version: the installed distribution's metadata (pyproject.toml).
    __version__: str = _metadata.version("apinizer-pulumi")
except _metadata.PackageNotFoundError:  # a source tree on sys.path without an install
    __version__ = "0+unknown"

__all__ = [
    "ApiProxy",
    "ApiProxyDeployment",
    "ApiProxyGroup",
    "ApiProxyGroupDeployment",
    "ApiProxyMetadataArgs",
    "ApinizerResourceError",
    "CacheSettingsArgs",
    "ClientRouteArgs",
    "ConnectionArgs",
    "CorsSettingsArgs",
    "Endpoint",
    "EndpointCache",
    "EndpointRateLimitArgs",
    "EndpointWsa",
    "EnvironmentVariable",
    "EnvironmentVariableValue",
    "HeaderMatchArgs",
    "IpGroup",
    "Policy",
    "Rlcl",
    "RlclCondition",
    "RlclCredentials",
    "RlclEndpoints",
    "RoutingAddressArgs",
    "RoutingArgs",
    "VariableArgs",
    "WsaSettingsArgs",
    "__version__",
    "client",
    "get_api_proxies",
    "get_api_proxies_report",
    "get_api_proxy",
    "get_api_proxy_groups",
    "get_endpoint",
    "get_endpoint_policies",
    "get_endpoints",
    "get_environment_variables",
    "get_environments",
    "get_organization_access_report",
    "get_policies",
    "get_projects",
    "models",
    "policies",
]

# Credentials and their access.
__all__ += ["Credential", "CredentialAccessArgs", "get_credentials"]
# JWKs.
__all__ += ["Jwk", "JwkEcArgs", "JwkGenerateArgs", "JwkOctArgs", "JwkOkpArgs", "JwkRsaArgs", "get_jwk",
            "get_jwks"]
# Certificates, their export and the environments' truststores.
__all__ += ["Certificate", "export_certificate", "get_certificate", "get_certificates",
            "get_truststore_certificates"]

# Keystores and crypto keys: per-environment key material.
if _typing.TYPE_CHECKING:
    from .resources import (
        CryptoKey,
        CryptoKeyEnvironmentArgs,
        Keystore,
        KeystoreEnvironmentArgs,
        get_crypto_keys,
        get_keystores,
    )
__all__ += ["CryptoKey", "CryptoKeyEnvironmentArgs", "Keystore", "KeystoreEnvironmentArgs", "get_crypto_keys",
            "get_keystores"]
# Geolocation: the MMDB file and whether it is on.
__all__ += ["Geolocation"]

_SUBPACKAGES = {"client", "models", "policies"}

# Connections to outside systems (Kafka, SMTP, LDAP ...), their typed settings and functions.
__all__ += ["Connection", "connections", "get_connection", "get_connections"]
_SUBPACKAGES |= {"connections"}


def __getattr__(name: str) -> _typing.Any:
    if name in _SUBPACKAGES:
        value: _typing.Any = _importlib.import_module(f".{name}", __name__)
    elif name in __all__:
        value = getattr(_importlib.import_module(".resources", __name__), name)
    else:
        raise AttributeError(f"module {__name__!r} has no attribute {name!r}")
    globals()[name] = value
    return value


def __dir__() -> list[str]:
    # The public API only: not the helpers imported above, nor the submodules Python adds as
    # attributes once they are loaded (resources, the private _modules).
    return sorted(__all__)
