"""A typed, thread-safe client of the Apinizer management API.

::

    from apinizer_pulumi.client import ApinizerClient

    with ApinizerClient("http://127.0.0.1:18080", token="...") as client:
        for endpoint in client.endpoints.list("Demo", "PetStore"):
            print(endpoint.http_method, endpoint.endpoint, endpoint.active)

See ``ApinizerClient`` for the settings and ``_exceptions`` for the error tree.
"""

# First: the modules below import httpx, and this imports it without its CLI.
from . import _httpx  # noqa: F401  # isort: skip
from ._api_proxies import ApiProxies, ApiProxyReports, DeploymentFailedError
from ._api_proxy_groups import ApiProxyGroups, group_not_found
from ._auth import BearerTokenAuth, ClientCredentialsAuth
from ._client import ApinizerClient
from ._constants import DEFAULT_MAX_RETRIES, DEFAULT_TIMEOUT
from ._credentials import Credentials
from ._environment_variables import EnvironmentVariables
from ._exceptions import (
    APIConnectionError,
    ApinizerError,
    APIResponseValidationError,
    APIStatusError,
    APITimeoutError,
    AuthenticationError,
    BadRequestError,
    ConfigurationError,
    ConflictError,
    InternalServerError,
    InvalidArgumentError,
    InvalidArgumentTypeError,
    NotFoundError,
    PermissionDeniedError,
    RateLimitError,
    is_endpoint_not_found,
    make_status_error,
)
from ._ip_groups import IpGroups
from ._keys import Certificates, CryptoKeys, Jwks, Keystores, key_object_not_found
from ._policies import Policies
from ._projects import Environments, Projects
from ._resources import NOT_GIVEN, Endpoints, NotGiven, Reports, Rlcl
from ._transport_pool import close_all as close_pooled_clients

__all__ = [
    "DEFAULT_MAX_RETRIES",
    "DEFAULT_TIMEOUT",
    "NOT_GIVEN",
    "APIConnectionError",
    "APIResponseValidationError",
    "APIStatusError",
    "APITimeoutError",
    "ApiProxies",
    "ApiProxyGroups",
    "ApiProxyReports",
    "ApinizerClient",
    "ApinizerError",
    "AuthenticationError",
    "BadRequestError",
    "BearerTokenAuth",
    "ClientCredentialsAuth",
    "ConfigurationError",
    "ConflictError",
    "DeploymentFailedError",
    "Endpoints",
    "EnvironmentVariables",
    "Environments",
    "InternalServerError",
    "InvalidArgumentError",
    "InvalidArgumentTypeError",
    "IpGroups",
    "NotFoundError",
    "NotGiven",
    "PermissionDeniedError",
    "Policies",
    "Projects",
    "RateLimitError",
    "Reports",
    "Rlcl",
    "close_pooled_clients",
    "group_not_found",
    "is_endpoint_not_found",
    "make_status_error",
]

# Credentials and their access (client/_credentials.py).
__all__ += ["Credentials"]

# Keys and secrets: JWKs, keystores, crypto keys, certificates (client/_keys.py).
__all__ += ["Certificates", "CryptoKeys", "Jwks", "Keystores", "key_object_not_found"]
