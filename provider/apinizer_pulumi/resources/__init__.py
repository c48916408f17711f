"""The Pulumi dynamic resources and the read-only functions.

Every public module but two is one resource kind, named after its family (``ip_group``,
``api_proxy_deployment``), and holds the kind's args classes, its provider ``<Kind>Provider`` and its
resource ``<Kind>``; ``functions`` holds the read-only functions and ``testing`` drives the provider
server the way the engine does, for tests and benchmarks. The lifecycles the kinds share are in the
private modules (CONTRIBUTING.md, "Adding a resource kind"). ``_HOMES`` below names the module of each
public name, loaded at its first use. The ``...Name`` types are the enumerated inputs' values as
``Literal`` types, for annotating a program's own helpers (``method: HttpMethodName``).
"""

import importlib
from typing import TYPE_CHECKING, Any

if TYPE_CHECKING:
    from ._args import VariableArgs
    from ._connection import ConnectionArgs
    from ._errors import ApinizerResourceError
    from ._types import (
        AccessTypeName,
        ApiProxySpecTypeName,
        CacheErrorHandlingTypeName,
        CacheHandlingActionName,
        CacheKeyTypeName,
        CacheStorageTypeName,
        ContextValueName,
        ExecutionOrderName,
        HttpMethodName,
        IntervalWindowTypeName,
        MessageContentTypeName,
        ParamTypeName,
        RateLimitTimeIntervalName,
        ScriptTypeName,
        SharingTypeName,
        VariableTypeName,
        WsaMustUnderstandName,
        WsaVersionName,
    )
    from .api_proxy import (
        ApiProxy,
        ApiProxyMetadataArgs,
        ApiProxyProvider,
        ClientRouteArgs,
        CorsSettingsArgs,
        HeaderMatchArgs,
        RoutingAddressArgs,
        RoutingArgs,
    )
    from .api_proxy_deployment import ApiProxyDeployment, ApiProxyDeploymentProvider
    from .api_proxy_group import ApiProxyGroup, ApiProxyGroupProvider
    from .api_proxy_group_deployment import ApiProxyGroupDeployment, ApiProxyGroupDeploymentProvider
    from .certificate import Certificate, CertificateProvider
    from .connection import Connection, ConnectionProvider
    from .credential import Credential, CredentialAccessArgs, CredentialProvider
    from .endpoint import Endpoint, EndpointProvider
    from .endpoint_cache import CacheSettingsArgs, EndpointCache, EndpointCacheProvider
    from .endpoint_wsa import EndpointWsa, EndpointWsaProvider, WsaSettingsArgs
    from .environment_variable import EnvironmentVariable, EnvironmentVariableProvider
    from .environment_variable_value import EnvironmentVariableValue, EnvironmentVariableValueProvider
    from .functions import (
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
    from .geolocation import Geolocation, GeolocationProvider
    from .ip_group import IpGroup, IpGroupProvider
    from .jwk import Jwk, JwkEcArgs, JwkGenerateArgs, JwkOctArgs, JwkOkpArgs, JwkProvider, JwkRsaArgs
    from .policy import Policy, PolicyProvider
    from .rlcl import Rlcl, RlclProvider
    from .rlcl_condition import RlclCondition, RlclConditionProvider
    from .rlcl_credentials import RlclCredentials, RlclCredentialsProvider
    from .rlcl_endpoints import EndpointRateLimitArgs, RlclEndpoints, RlclEndpointsProvider

#: Where each public name lives. A program imports only the modules of the kinds it declares:
#: ``from apinizer_pulumi import Endpoint`` loads neither the settings kinds nor the functions.
_HOMES = {
    "VariableArgs": "_args",
    "ConnectionArgs": "_connection",
    "ApinizerResourceError": "_errors",
    "HttpMethodName": "_types",
    "ApiProxySpecTypeName": "_types",
    "SharingTypeName": "_types",
    "CacheKeyTypeName": "_types",
    "CacheStorageTypeName": "_types",
    "CacheHandlingActionName": "_types",
    "RateLimitTimeIntervalName": "_types",
    "CacheErrorHandlingTypeName": "_types",
    "IntervalWindowTypeName": "_types",
    "ExecutionOrderName": "_types",
    "ScriptTypeName": "_types",
    "WsaMustUnderstandName": "_types",
    "WsaVersionName": "_types",
    "VariableTypeName": "_types",
    "ParamTypeName": "_types",
    "MessageContentTypeName": "_types",
    "ContextValueName": "_types",
    "ApiProxy": "api_proxy",
    "ApiProxyMetadataArgs": "api_proxy",
    "ApiProxyProvider": "api_proxy",
    "ClientRouteArgs": "api_proxy",
    "CorsSettingsArgs": "api_proxy",
    "HeaderMatchArgs": "api_proxy",
    "RoutingAddressArgs": "api_proxy",
    "RoutingArgs": "api_proxy",
    "ApiProxyDeployment": "api_proxy_deployment",
    "ApiProxyDeploymentProvider": "api_proxy_deployment",
    "Endpoint": "endpoint",
    "EndpointProvider": "endpoint",
    "CacheSettingsArgs": "endpoint_cache",
    "EndpointCache": "endpoint_cache",
    "EndpointCacheProvider": "endpoint_cache",
    "EndpointWsa": "endpoint_wsa",
    "EndpointWsaProvider": "endpoint_wsa",
    "WsaSettingsArgs": "endpoint_wsa",
    "get_api_proxies": "functions",
    "get_api_proxies_report": "functions",
    "get_api_proxy": "functions",
    "get_environments": "functions",
    "get_projects": "functions",
    "get_endpoint": "functions",
    "get_endpoint_policies": "functions",
    "get_endpoints": "functions",
    "get_organization_access_report": "functions",
    "get_policies": "functions",
    "Policy": "policy",
    "PolicyProvider": "policy",
    "Rlcl": "rlcl",
    "RlclProvider": "rlcl",
    "EndpointRateLimitArgs": "rlcl_endpoints",
    "RlclEndpoints": "rlcl_endpoints",
    "RlclEndpointsProvider": "rlcl_endpoints",
    "EnvironmentVariable": "environment_variable",
    "EnvironmentVariableProvider": "environment_variable",
    "EnvironmentVariableValue": "environment_variable_value",
    "EnvironmentVariableValueProvider": "environment_variable_value",
    "IpGroup": "ip_group",
    "IpGroupProvider": "ip_group",
    "get_environment_variables": "functions",
    "ApiProxyGroup": "api_proxy_group",
    "ApiProxyGroupProvider": "api_proxy_group",
    "ApiProxyGroupDeployment": "api_proxy_group_deployment",
    "ApiProxyGroupDeploymentProvider": "api_proxy_group_deployment",
    "RlclCondition": "rlcl_condition",
    "RlclConditionProvider": "rlcl_condition",
    "RlclCredentials": "rlcl_credentials",
    "RlclCredentialsProvider": "rlcl_credentials",
    "get_api_proxy_groups": "functions",
}
# Credentials and their access.
_HOMES.update({
    "AccessTypeName": "_types",
    "Credential": "credential",
    "CredentialAccessArgs": "credential",
    "CredentialProvider": "credential",
    "get_credentials": "functions",
})
# JWKs.
_HOMES.update({
    "Jwk": "jwk",
    "JwkEcArgs": "jwk",
    "JwkGenerateArgs": "jwk",
    "JwkOctArgs": "jwk",
    "JwkOkpArgs": "jwk",
    "JwkProvider": "jwk",
    "JwkRsaArgs": "jwk",
    "get_jwk": "functions",
    "get_jwks": "functions",
})
# Geolocation: the MMDB file and whether it is on.
_HOMES.update({"Geolocation": "geolocation", "GeolocationProvider": "geolocation"})
# Connections to outside systems (Kafka, SMTP, LDAP ...): not the gateway's ConnectionArgs.
_HOMES.update({
    "Connection": "connection",
    "ConnectionProvider": "connection",
    "get_connection": "functions",
    "get_connections": "functions",
})
# Certificates, their export and the environments' truststores.
_HOMES.update({
    "Certificate": "certificate",
    "CertificateProvider": "certificate",
    "export_certificate": "functions",
    "get_certificate": "functions",
    "get_certificates": "functions",
    "get_truststore_certificates": "functions",
})

__all__ = [
    "ApiProxy",
    "ApiProxyDeployment",
    "ApiProxyDeploymentProvider",
    "ApiProxyGroup",
    "ApiProxyGroupDeployment",
    "ApiProxyGroupDeploymentProvider",
    "ApiProxyGroupProvider",
    "ApiProxyMetadataArgs",
    "ApiProxyProvider",
    "ApiProxySpecTypeName",
    "ApinizerResourceError",
    "CacheErrorHandlingTypeName",
    "CacheHandlingActionName",
    "CacheKeyTypeName",
    "CacheSettingsArgs",
    "CacheStorageTypeName",
    "ClientRouteArgs",
    "ConnectionArgs",
    "ContextValueName",
    "CorsSettingsArgs",
    "Endpoint",
    "EndpointCache",
    "EndpointCacheProvider",
    "EndpointProvider",
    "EndpointRateLimitArgs",
    "EndpointWsa",
    "EndpointWsaProvider",
    "EnvironmentVariable",
    "EnvironmentVariableProvider",
    "EnvironmentVariableValue",
    "EnvironmentVariableValueProvider",
    "ExecutionOrderName",
    "HeaderMatchArgs",
    "HttpMethodName",
    "IntervalWindowTypeName",
    "IpGroup",
    "IpGroupProvider",
    "MessageContentTypeName",
    "ParamTypeName",
    "Policy",
    "PolicyProvider",
    "RateLimitTimeIntervalName",
    "Rlcl",
    "RlclCondition",
    "RlclConditionProvider",
    "RlclCredentials",
    "RlclCredentialsProvider",
    "RlclEndpoints",
    "RlclEndpointsProvider",
    "RlclProvider",
    "RoutingAddressArgs",
    "RoutingArgs",
    "ScriptTypeName",
    "SharingTypeName",
    "VariableArgs",
    "VariableTypeName",
    "WsaMustUnderstandName",
    "WsaSettingsArgs",
    "WsaVersionName",
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
]


# Credentials and their access.
__all__ += ["AccessTypeName", "Credential", "CredentialAccessArgs", "CredentialProvider", "get_credentials"]
# JWKs.
__all__ += ["Jwk", "JwkEcArgs", "JwkGenerateArgs", "JwkOctArgs", "JwkOkpArgs", "JwkProvider", "JwkRsaArgs",
            "get_jwk", "get_jwks"]

# Keystores and crypto keys: per-environment key material.
if TYPE_CHECKING:
    from .crypto_key import CryptoKey, CryptoKeyEnvironmentArgs, CryptoKeyProvider
    from .functions import get_crypto_keys, get_keystores
    from .keystore import Keystore, KeystoreEnvironmentArgs, KeystoreProvider
_HOMES.update({
    "CryptoKey": "crypto_key",
    "CryptoKeyEnvironmentArgs": "crypto_key",
    "CryptoKeyProvider": "crypto_key",
    "Keystore": "keystore",
    "KeystoreEnvironmentArgs": "keystore",
    "KeystoreProvider": "keystore",
    "get_crypto_keys": "functions",
    "get_keystores": "functions",
})
__all__ += ["CryptoKey", "CryptoKeyEnvironmentArgs", "CryptoKeyProvider", "Keystore",
            "KeystoreEnvironmentArgs", "KeystoreProvider", "get_crypto_keys", "get_keystores"]
# Geolocation.
__all__ += ["Geolocation", "GeolocationProvider"]


# Connections to outside systems (Kafka, SMTP, LDAP ...): not the gateway's ConnectionArgs.
__all__ += ["Connection", "ConnectionProvider", "get_connection", "get_connections"]
# Certificates, their export and the environments' truststores.
__all__ += ["Certificate", "CertificateProvider", "export_certificate", "get_certificate", "get_certificates",
            "get_truststore_certificates"]


def __getattr__(name: str) -> Any:
    home = _HOMES.get(name)
    if home is None:
        raise AttributeError(f"module {__name__!r} has no attribute {name!r}")
    value = getattr(importlib.import_module(f".{home}", __name__), name)
    globals()[name] = value
    return value


def __dir__() -> list[str]:
    return sorted(__all__)
