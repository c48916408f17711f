"""Environment variables: ``client.environment_variables``.

Create, update and delete deploy (or undeploy) the variable to every environment at once; their
answer carries the per-environment result, and a failure in any environment raises
:class:`DeploymentFailedError`. Secret values come back masked (None).
https://github.com/apinizer/management-api-docs/blob/main/02-api-reference/10-environment-variables/index.md
"""

from __future__ import annotations

import builtins
from collections.abc import Mapping
from typing import Any

import httpx

from .. import models
from ._api_proxies import _raise_failed_deployment
from ._exceptions import APIResponseValidationError
from ._parsing import parse_success
from ._resources import _coerce, _Resource, _segment

__all__ = ["ENVIRONMENT_VARIABLES_PATH", "ENVIRONMENT_VARIABLE_PATH", "EnvironmentVariables"]

ENVIRONMENT_VARIABLES_PATH = "/apiops/projects/{project}/environmentVariables/"
ENVIRONMENT_VARIABLE_PATH = "/apiops/projects/{project}/environmentVariables/{name}/"


class EnvironmentVariables(_Resource):
    """List, get, create, update and delete a project's environment variables."""

    def list(self, project: str) -> builtins.list[models.EnvironmentVariable]:
        """``GET .../environmentVariables/``: every variable of the project, secret values masked."""
        path = ENVIRONMENT_VARIABLES_PATH.format(project=_segment(project, "project"))
        return self._read(path).result_list

    def get(self, project: str, name: str) -> models.EnvironmentVariable:
        """``GET .../environmentVariables/{name}/``. An unknown name answers 400
        ``Environment variable (name: <name>) was not found!``."""
        path = self._path(project, name)
        found = self._read(path).result_list
        if not found:
            raise APIResponseValidationError("GET", path, 200, "the answer lists no variable")
        return found[0]

    def create(
        self, project: str, variable: models.EnvironmentVariableSpec | Mapping[str, Any]
    ) -> models.EnvironmentVariableResponse:
        """``POST .../environmentVariables/{name}/``: create and deploy to every environment.
        A taken name answers 400 ``Environment variable (name: <name>) already exists!``."""
        spec = _coerce(models.EnvironmentVariableSpec, variable, "variable")
        return self._answer("POST", self._path(project, spec.name), spec, idempotent=False)

    def update(
        self,
        project: str,
        variable: models.EnvironmentVariableSpec | Mapping[str, Any],
        *,
        current_name: str | None = None,
    ) -> models.EnvironmentVariableResponse:
        """``PUT .../environmentVariables/{current_name}/`` with every field, and deploy. The body's
        ``name`` renames the variable when it differs from ``current_name`` (default: the same)."""
        spec = _coerce(models.EnvironmentVariableSpec, variable, "variable")
        path = self._path(project, current_name if current_name is not None else spec.name)
        return self._answer("PUT", path, spec, idempotent=True)

    def delete(self, project: str, name: str) -> models.EnvironmentVariableResponse:
        """``DELETE .../environmentVariables/{name}/``: delete and undeploy everywhere. Retried only
        when the request never reached the server: a repeat answers 400 "was not found"."""
        path = self._path(project, name)
        response = self._client._request("DELETE", path, idempotent=False)
        return self._result(response, "DELETE", path)

    @staticmethod
    def _path(project: str, name: str) -> str:
        return ENVIRONMENT_VARIABLE_PATH.format(
            project=_segment(project, "project"), name=_segment(name, "name")
        )

    def _read(self, path: str) -> models.EnvironmentVariableList:
        response = self._client._request("GET", path, idempotent=True)
        # Never quoted into an error: the list page's example shows a secret value in clear.
        return parse_success(models.EnvironmentVariableList, response, "GET", path, quote_body=False)

    def _answer(
        self, method: str, path: str, spec: models.EnvironmentVariableSpec, *, idempotent: bool
    ) -> models.EnvironmentVariableResponse:
        response = self._client._request(method, path, body=spec.to_api(), idempotent=idempotent)
        return self._result(response, method, path)

    def _result(self, response: httpx.Response, method: str, path: str) -> models.EnvironmentVariableResponse:
        if not response.content.strip():
            return models.EnvironmentVariableResponse(success=True)
        result = parse_success(
            models.EnvironmentVariableResponse, response, method, path, redact=self._client._secrets()
        )
        _raise_failed_deployment(result, method, path)
        return result
