"""A project's connections of every type: ``client.connections`` (list, get, create, update, delete).

Create, update and delete send the connection's JSON (``type`` is the discriminator) to
``.../connections/{connectionName}/`` and answer ``{success, deploymentResult}``; a deployment
that failed somewhere raises :class:`DeploymentFailedError`. List needs the ``type`` query
parameter and answers every secret field ``null``; get answers them in full. Neither read's body is
ever quoted in an error: it may hold a password.

What is retried (see :mod:`._retry`): list, get and update (a PUT of the same connection twice
leaves the same connection) are idempotent. Create and delete are not: their repeat answers
"already exists" or "was not found", so they are repeated only when the request never reached
the server.

Source: https://github.com/apinizer/management-api-docs/blob/main/02-api-reference/06-connections/crud/index.md
"""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any
from urllib.parse import quote

from .. import models
from ._exceptions import (
    APIResponseValidationError,
    APIStatusError,
    InvalidArgumentError,
)
from ._parsing import parse_success
from ._resources import _Resource, _segment, _typed

__all__ = ["CONNECTIONS_PATH", "CONNECTION_PATH", "Connections", "connection_body", "connection_not_found"]

CONNECTIONS_PATH = "/apiops/projects/{project}/connections/"
CONNECTION_PATH = "/apiops/projects/{project}/connections/{name}/"


def connection_not_found(error: APIStatusError) -> bool:
    """True for the documented ``Connection (name: <name>) was not found!`` (404 on get, 400 on
    update and delete)."""
    text = error.error_description
    return (
        error.status_code in (400, 404) and text.startswith("Connection (name:") and "was not found" in text
    )


def connection_body(connection: models.ConnectionBase | Mapping[str, Any]) -> models.ConnectionBase:
    """``connection`` as its type's model: validated, with every rule of its type, and free of
    unknown fields (each named)."""
    return _typed(
        connection,
        models.ConnectionBase,
        models.parse_connection,
        models.UnknownConnectionTypeError,
        "connection",
    )


class Connections(_Resource):
    """A project's connections: email, kafka, elasticsearch, database, ldap, ftp, rabbitMq,
    activeMq, snmp, linux-script, graylog, syslog, webhook and logback."""

    @staticmethod
    def _path(project: str, name: str | None = None) -> str:
        segment = _segment(project, "project")
        if name is None:
            return CONNECTIONS_PATH.format(project=segment)
        return CONNECTION_PATH.format(project=segment, name=_segment(name, "name"))

    def list(
        self, project: str, connection_type: str
    ) -> list[models.ConnectionBase | models.ConnectionEntry]:
        """``GET .../connections/?type=<connection_type>``: the project's connections of one type
        (the parameter is required: each type is its own collection). Secret fields are None."""
        if connection_type not in models.CONNECTION_TYPES:
            known = ", ".join(models.CONNECTION_TYPES)
            raise InvalidArgumentError(
                "connection_type", f"{connection_type!r} is no connection type; the known types are {known}"
            )
        path = self._path(project) + "?type=" + quote(connection_type, safe="")
        return self._read(path).result_list

    def get(self, project: str, name: str) -> models.ConnectionBase | models.ConnectionEntry:
        """``GET .../connections/{name}/``: the connection with its secret fields in full. A name
        that is not there raises :class:`NotFoundError` (404 ``Connection (name: <name>) was not
        found!``)."""
        path = self._path(project, name)
        answer = self._read(path)
        if not answer.result_list:
            raise APIResponseValidationError("GET", path, 200, "resultList holds no connection")
        return answer.result_list[0]

    def find(self, project: str, name: str) -> models.ConnectionBase | models.ConnectionEntry | None:
        """:meth:`get`, or None when the project holds no connection of that name (the get page's 404)."""
        try:
            return self.get(project, name)
        except APIStatusError as error:
            if connection_not_found(error):
                return None
            raise

    def create(
        self, project: str, connection: models.ConnectionBase | Mapping[str, Any]
    ) -> models.DeploymentResponse:
        """``POST .../connections/{name}/`` (the body's name): a new connection, deployed to the
        workers when ``deploy_to_worker``. A taken name answers 400 ``Connection (name: <name>)
        already exists!``."""
        model = connection_body(connection)
        return self._send("POST", self._path(project, model.name), model.to_api(), idempotent=False)

    def update(
        self,
        project: str,
        connection: models.ConnectionBase | Mapping[str, Any],
        *,
        name: str | None = None,
    ) -> models.DeploymentResponse:
        """``PUT .../connections/{name}/``: every field of the connection ``name`` (default: the
        body's name; a body with another name renames it). The type cannot change."""
        model = connection_body(connection)
        return self._send("PUT", self._path(project, name or model.name), model.to_api(), idempotent=True)

    def delete(self, project: str, name: str) -> models.DeploymentResponse:
        """``DELETE .../connections/{name}/``: the connection, removed from the workers."""
        return self._send("DELETE", self._path(project, name), None, idempotent=False)

    # -- helpers -------------------------------------------------------------------------------

    def _read(self, path: str) -> models.ConnectionList:
        response = self._client._request("GET", path, idempotent=True)
        # A get answers the passwords: the body is never quoted.
        return parse_success(models.ConnectionList, response, "GET", path, quote_body=False)

    def _send(
        self, method: str, path: str, body: dict[str, Any] | None, *, idempotent: bool
    ) -> models.DeploymentResponse:
        response = self._client._request(method, path, body=body, idempotent=idempotent)
        # The API proxy family's reading of a deployment answer: a failed environment is an error.
        return self._client.api_proxies._result(response, method, path)
