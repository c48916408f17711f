"""HTTP handlers of connections, and their routes.

Every operation needs ROLE_API_SECURITY ("Required for all connection operations"):
https://github.com/apinizer/management-api-docs/blob/main/02-api-reference/06-connections/index.md

A write body is read as its type's model (``type`` the discriminator; the Elasticsearch page's
examples, whose last ``type`` key says READ_WRITE, read as elasticsearch), under the API's names
and JSON's types; a bad field is a 400 naming it, and nothing is written.
"""

from __future__ import annotations

from typing import Any

from starlette.requests import Request
from starlette.responses import Response

from apinizer_pulumi.models import (
    CONNECTION_TYPES,
    ConnectionBase,
    ConnectionBody,
    ConnectionList,
    DeploymentResponse,
    documented_connection_type,
)

from . import connections
from .auth import ROLE_API_SECURITY
from .rules import MAX_DESCRIPTION_LENGTH, MAX_NAME_LENGTH, check_text
from .web import Route, json_response, parse_model, principal, project_name, read, read_object, write

CONNECTIONS = "/apiops/projects/{projectName}/connections/"
CONNECTION = CONNECTIONS + "{connectionName}/"


def _name(request: Request) -> str:
    return str(request.path_params["connectionName"])


async def _connection(request: Request) -> dict[str, Any]:
    """The body as stored: validated with its type's model."""
    principal(request, ROLE_API_SECURITY)
    body = await read_object(request)
    name = body.get("name")
    if not isinstance(name, str) or not name.strip():
        raise connections.ConnectionNameEmptyError()
    check_text("name", name, max_length=MAX_NAME_LENGTH, single_line=True)
    description = body.get("description")
    check_text(
        "description",
        description if isinstance(description, str) else None,
        max_length=MAX_DESCRIPTION_LENGTH,
        single_line=False,
    )
    kind = documented_connection_type(body)
    model = CONNECTION_TYPES.get(kind) if isinstance(kind, str) else None
    if model is None:
        raise connections.ConnectionTypeError(kind)
    parsed: ConnectionBase = parse_model(model, {**body, "type": kind})
    return connections.stored(parsed)


async def list_connections(request: Request) -> Response:
    """https://github.com/apinizer/management-api-docs/blob/main/02-api-reference/06-connections/crud/list-connections.md"""
    principal(request, ROLE_API_SECURITY)
    kind = request.query_params.get("type")
    if kind not in CONNECTION_TYPES:
        raise connections.ConnectionTypeError(kind)
    found = read(request, connections.list_connections, project_name(request), kind)
    return json_response({"success": True, "resultList": found, "resultCount": len(found)})


async def get_connection(request: Request) -> Response:
    """https://github.com/apinizer/management-api-docs/blob/main/02-api-reference/06-connections/crud/get-connection.md"""
    principal(request, ROLE_API_SECURITY)
    if not _name(request).strip():
        raise connections.ConnectionNameEmptyError()
    found = read(request, connections.get_connection, project_name(request), _name(request))
    return json_response({"success": True, "resultList": [found], "resultCount": 1})


async def create_connection(request: Request) -> Response:
    """https://github.com/apinizer/management-api-docs/blob/main/02-api-reference/06-connections/crud/create-connection.md"""
    body = await _connection(request)
    if body["name"].casefold() != _name(request).casefold():  # "(case-insensitive)"
        raise connections.ConnectionNameMismatchError(_name(request), body["name"])
    return json_response(await write(request, connections.create, project_name(request), body))


async def update_connection(request: Request) -> Response:
    """https://github.com/apinizer/management-api-docs/blob/main/02-api-reference/06-connections/crud/update-connection.md"""
    body = await _connection(request)
    project = project_name(request)
    return json_response(await write(request, connections.update, project, _name(request), body))


async def delete_connection(request: Request) -> Response:
    """https://github.com/apinizer/management-api-docs/blob/main/02-api-reference/06-connections/crud/delete-connection.md"""
    principal(request, ROLE_API_SECURITY)
    return json_response(await write(request, connections.delete, project_name(request), _name(request)))


ROUTES: list[Route] = [
    ("GET", CONNECTIONS, list_connections, "List a project's connections of one type", None, ConnectionList),
    ("GET", CONNECTION, get_connection, "Get a connection (secrets in full)", None, ConnectionList),
    (
        "POST",
        CONNECTION,
        create_connection,
        "Create a connection of any type",
        ConnectionBody,
        DeploymentResponse,
    ),
    (
        "PUT",
        CONNECTION,
        update_connection,
        "Update (or rename) a connection",
        ConnectionBody,
        DeploymentResponse,
    ),
    ("DELETE", CONNECTION, delete_connection, "Delete a connection", None, DeploymentResponse),
]
