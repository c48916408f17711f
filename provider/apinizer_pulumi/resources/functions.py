"""Read-only functions: look things up on the gateway from a Pulumi program.

They run in the program's process (not in the provider's), synchronously, and return the typed
models; call them directly or inside ``Output.apply``. The connection comes from the
``connection`` argument, then the stack config ``apinizer:*``, then the environment ``APINIZER_*``.
Gateway errors raise the client's typed exceptions (``apinizer_pulumi.client.NotFoundError``...).
"""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any

from apinizer_pulumi.client import ApinizerClient
from apinizer_pulumi.models import AccessReport, Endpoint, EndpointPolicies, HttpMethod

from ._args import to_props
from ._connection import ConnectionArgs, client_for, program_stack_config, resolve, unwrap_secret

Connection = ConnectionArgs | Mapping[str, Any] | None


def _client(connection: Connection) -> ApinizerClient:
    given = unwrap_secret(to_props(connection)) if connection is not None else None
    return client_for(resolve(given if isinstance(given, Mapping) else None, program_stack_config()))


def get_endpoints(project_name: str, api_proxy_name: str, connection: Connection = None) -> list[Endpoint]:
    """Every endpoint of an API proxy (REST or SOAP), without their policies."""
    return _client(connection).endpoints.list(project_name, api_proxy_name)


def get_endpoint(
    project_name: str,
    api_proxy_name: str,
    name: str,
    http_method: HttpMethod | str,
    connection: Connection = None,
) -> Endpoint:
    """One endpoint, addressed by its name (path) and HTTP method."""
    return _client(connection).endpoints.get(project_name, api_proxy_name, name, http_method)


def get_endpoint_policies(
    project_name: str,
    api_proxy_name: str,
    name: str,
    http_method: HttpMethod | str,
    connection: Connection = None,
) -> EndpointPolicies:
    """One endpoint with the summaries of the policies in its request, response and error pipelines."""
    return _client(connection).endpoints.policies(project_name, api_proxy_name, name, http_method)


def get_organization_access_report(connection: Connection = None) -> AccessReport:
    """The organization report: externally shared API proxies and data models (admin or analyzer only)."""
    return _client(connection).reports.organization_access()
