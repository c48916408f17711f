"""HTTP handlers of an API proxy's endpoints (spec 4.3 to 4.11), and their routes. State and
rules are in :mod:`endpoints`; every operation needs ROLE_MANAGE_PROXIES."""

from __future__ import annotations

from typing import Any

from starlette.requests import Request
from starlette.responses import Response

from apinizer_pulumi.models import (
    CacheSettings,
    Endpoint,
    EndpointIdentifier,
    EndpointList,
    EndpointPolicies,
    EndpointSpec,
    EndpointStatusUpdate,
    EndpointTarget,
    EndpointUpdate,
    SuccessResponse,
    WsaSettings,
)

from . import endpoints
from .auth import ROLE_MANAGE_PROXIES
from .errors import FieldRequiredError, HandlingActionRequiredError
from .models import endpoint_json
from .web import (
    JSON_CONTENT_TYPE,
    Route,
    confirmed_at_write,
    json_response,
    parse_model,
    principal,
    read,
    read_object,
    require_identifier,
    settings_object,
    success,
    without_nulls,
    write,
)

ENDPOINT_OPERATIONS_ROLE = ROLE_MANAGE_PROXIES
PROXY = "/apiops/projects/{projectName}/apiProxies/{apiProxyName}/endpoints"


def _proxy_ref(request: Request) -> tuple[str, str]:
    """(projectName, apiProxyName) of the request's path."""
    return str(request.path_params["projectName"]), str(request.path_params["apiProxyName"])


async def list_endpoints(request: Request) -> Response:
    principal(request, ENDPOINT_OPERATIONS_ROLE)
    count, items = read(request, endpoints.list_endpoints_json, *_proxy_ref(request), snapshot=False)
    # Spliced, not re-encoded: the array is already JSON (see endpoints.list_endpoints_json).
    body = f'{{"success":true,"resultList":{items},"resultCount":{count}}}'
    return Response(body.encode(), media_type=JSON_CONTENT_TYPE)


@confirmed_at_write
async def create_endpoint(request: Request) -> Response:
    principal(request, ENDPOINT_OPERATIONS_ROLE)
    spec = parse_model(EndpointSpec, without_nulls(await read_object(request)))
    await write(request, endpoints.create_endpoint, *_proxy_ref(request), spec, one_statement=True)
    return success()


async def update_endpoint(request: Request) -> Response:
    principal(request, ENDPOINT_OPERATIONS_ROLE)
    body = await read_object(request)
    require_identifier(body, "name", "httpMethod")
    update = parse_model(EndpointUpdate, without_nulls(body))
    await write(request, endpoints.update_endpoint, *_proxy_ref(request), update)
    return success()


async def _identified(request: Request) -> EndpointIdentifier:
    principal(request, ENDPOINT_OPERATIONS_ROLE)
    body = await read_object(request)
    require_identifier(body, "name", "httpMethod")
    return parse_model(EndpointIdentifier, body)


async def get_endpoint(request: Request) -> Response:
    target = await _identified(request)
    endpoint = read(request, endpoints.get_endpoint, *_proxy_ref(request), target.name, target.http_method)
    return json_response(endpoint_json(endpoint))


async def endpoint_policies(request: Request) -> Response:
    target = await _identified(request)
    policies = read(
        request, endpoints.endpoint_policies, *_proxy_ref(request), target.name, target.http_method
    )
    return json_response(policies.model_dump(mode="json", by_alias=True))


@confirmed_at_write
async def delete_endpoint(request: Request) -> Response:
    target = await _identified(request)
    await write(
        request,
        endpoints.delete_endpoint,
        *_proxy_ref(request),
        target.name,
        target.http_method,
        one_statement=True,
    )
    return success()


async def _settings_target(request: Request) -> tuple[dict[str, Any], EndpointTarget]:
    principal(request, ENDPOINT_OPERATIONS_ROLE)
    body = await read_object(request)
    require_identifier(body, "identifierName", "identifierHttpMethod")
    target = parse_model(EndpointTarget, {k: body[k] for k in ("identifierName", "identifierHttpMethod")})
    return body, target


async def update_status(request: Request) -> Response:
    body, target = await _settings_target(request)
    if body.get("active") is None:
        raise FieldRequiredError("active")
    update = parse_model(EndpointStatusUpdate, body)
    await write(
        request,
        endpoints.set_status,
        *_proxy_ref(request),
        target.identifier_name,
        target.identifier_http_method,
        update.active,
    )
    return success()


async def update_cache(request: Request) -> Response:
    body, target = await _settings_target(request)
    raw = settings_object(body, "cacheSettings")
    if raw.get("handlingAction") is None:
        raise HandlingActionRequiredError()
    settings = parse_model(CacheSettings, raw, "cacheSettings")
    await write(
        request,
        endpoints.set_cache,
        *_proxy_ref(request),
        target.identifier_name,
        target.identifier_http_method,
        settings,
    )
    return success()


async def update_wsa(request: Request) -> Response:
    body, target = await _settings_target(request)
    settings = parse_model(WsaSettings, settings_object(body, "wsaSettings"), "wsaSettings")
    await write(
        request,
        endpoints.set_wsa,
        *_proxy_ref(request),
        target.identifier_name,
        target.identifier_http_method,
        settings,
    )
    return success()


# (method, path template, handler, summary, request body model, response model)
ROUTES: list[Route] = [
    ("GET", f"{PROXY}/", list_endpoints, "List endpoints of an API proxy", None, EndpointList),
    (
        "POST",
        f"{PROXY}/",
        create_endpoint,
        "Create an endpoint (REST proxies)",
        EndpointSpec,
        SuccessResponse,
    ),
    ("PATCH", f"{PROXY}/", update_endpoint, "Update an endpoint", EndpointUpdate, SuccessResponse),
    ("POST", f"{PROXY}/details/", get_endpoint, "Get an endpoint", EndpointIdentifier, Endpoint),
    (
        "POST",
        f"{PROXY}/policies/",
        endpoint_policies,
        "List an endpoint's policies",
        EndpointIdentifier,
        EndpointPolicies,
    ),
    (
        "POST",
        f"{PROXY}/delete/",
        delete_endpoint,
        "Delete an endpoint (REST proxies)",
        EndpointIdentifier,
        SuccessResponse,
    ),
    (
        "PATCH",
        f"{PROXY}/status/",
        update_status,
        "Enable or disable an endpoint",
        EndpointStatusUpdate,
        SuccessResponse,
    ),
    ("PATCH", f"{PROXY}/cache/", update_cache, "Set endpoint cache settings", CacheSettings, SuccessResponse),
    (
        "PATCH",
        f"{PROXY}/wsa/",
        update_wsa,
        "Set endpoint WS-Addressing settings (SOAP proxies)",
        WsaSettings,
        SuccessResponse,
    ),
]
