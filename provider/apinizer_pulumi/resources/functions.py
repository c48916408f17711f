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
    """Every endpoint of an API proxy (REST or SOAP), without their policies.

    One ``GET .../apiProxies/{api_proxy_name}/endpoints/`` request, made when called (also
    during ``pulumi preview``).

    :param project_name: The project that holds the API proxy.
    :param api_proxy_name: The API proxy whose endpoints to list.
    :param connection: Where the gateway is and how to log in (``ConnectionArgs`` or a dict with
        ``url`` and ``token``, or ``username`` and ``password``); defaults to the stack config
        ``apinizer:*``, then the environment ``APINIZER_*``.
    :returns: The endpoints, in the gateway's order; an empty list when the proxy has none.
    :raises apinizer_pulumi.client.NotFoundError: The API proxy (or project) does not exist.
    :raises apinizer_pulumi.client.ApinizerError: Any other failure (401, 403, no answer...).
    """
    return _client(connection).endpoints.list(project_name, api_proxy_name)


def get_endpoint(
    project_name: str,
    api_proxy_name: str,
    name: str,
    http_method: HttpMethod | str,
    connection: Connection = None,
) -> Endpoint:
    """One endpoint, addressed by its name (path) and HTTP method.

    :param project_name: The project that holds the API proxy.
    :param api_proxy_name: The API proxy that holds the endpoint.
    :param name: The endpoint's path, e.g. ``/pets``.
    :param http_method: Its HTTP method: an ``HttpMethod`` or its value (``"GET"``).
    :param connection: Where the gateway is, as for ``get_endpoints``.
    :returns: The endpoint with its id, description, ``active`` flag and backend.
    :raises apinizer_pulumi.client.BadRequestError: No endpoint has this (name, method); its
        ``is_endpoint_not_found`` is true.
    :raises apinizer_pulumi.client.NotFoundError: The API proxy (or project) does not exist.
    """
    return _client(connection).endpoints.get(project_name, api_proxy_name, name, http_method)


def get_endpoint_policies(
    project_name: str,
    api_proxy_name: str,
    name: str,
    http_method: HttpMethod | str,
    connection: Connection = None,
) -> EndpointPolicies:
    """One endpoint with the summaries of the policies in its request, response and error pipelines.

    :param project_name: The project that holds the API proxy.
    :param api_proxy_name: The API proxy that holds the endpoint.
    :param name: The endpoint's path, e.g. ``/pets``.
    :param http_method: Its HTTP method: an ``HttpMethod`` or its value (``"GET"``).
    :param connection: Where the gateway is, as for ``get_endpoints``.
    :returns: The endpoint plus ``request_policy_list``, ``response_policy_list`` and
        ``error_policy_list`` (type, name, description and ``active`` of each policy; empty lists
        where a pipeline has none).
    :raises apinizer_pulumi.client.BadRequestError: No endpoint has this (name, method).
    :raises apinizer_pulumi.client.NotFoundError: The API proxy (or project) does not exist.
    """
    return _client(connection).endpoints.policies(project_name, api_proxy_name, name, http_method)


def get_organization_access_report(connection: Connection = None) -> AccessReport:
    """The organization report: externally shared API proxies and data models.

    Only proxies shared ``EXTERNAL`` or ``BOTH`` are listed. The caller must be a system
    administrator or a system analyzer.

    :param connection: Where the gateway is, as for ``get_endpoints``.
    :returns: ``result.api_proxy_list`` (name, ``sharing_type`` and ``access_list`` of each
        proxy) and ``result.data_model_list``.
    :raises apinizer_pulumi.client.AuthenticationError: A 401: the token is invalid, or its user
        is neither a system administrator nor a system analyzer.
    """
    return _client(connection).reports.organization_access()
