"""Credentials and their access: ``client.credentials``.

Every write answers ``{success, deploymentResult}``: the gateway deploys the change to every
environment at once. A ``deploymentResult`` that reports a failed environment raises
:class:`~apinizer_pulumi.client.DeploymentFailedError`, as the API proxy operations do.

What is retried (see :mod:`._retry`): reads, update and change password (they set values) and
revoke (the documentation says revoking an access that is gone "fails silently") are idempotent.
Create, delete and grant are not: a repeat answers "already a credential", "not found" or "has
already access", so they are repeated only when the request never reached the server.

Sources: https://github.com/apinizer/management-api-docs/blob/main/02-api-reference/07-credentials/crud/index.md
and https://github.com/apinizer/management-api-docs/blob/main/02-api-reference/07-credentials/access/index.md
"""

from __future__ import annotations

import builtins
from collections.abc import Mapping, Sequence
from typing import Any

from .. import models
from ._exceptions import APIStatusError, InvalidArgumentError, InvalidArgumentTypeError
from ._resources import _coerce, _Resource, _segment

__all__ = [
    "CREDENTIALS_PATH",
    "CREDENTIAL_ACCESS_PATH",
    "CREDENTIAL_PATH",
    "Credentials",
    "credential_not_found",
]

CREDENTIALS_PATH = "/apiops/projects/{project}/credentials/"
CREDENTIAL_PATH = "/apiops/projects/{project}/credentials/{username}/"
CREDENTIAL_ACCESS_PATH = "/apiops/projects/{project}/credentials/{username}/access/"


def credential_not_found(error: APIStatusError) -> bool:
    """True for the documented 400 ``Credential (username: <name>) was not found!``."""
    text = error.error_description
    return error.status_code == 400 and text.startswith("Credential (username:") and "was not found" in text


class Credentials(_Resource):
    """A project's credentials: list, create, update, change password, delete; and their access to
    API proxies and API proxy groups: list, grant, revoke."""

    # -- credentials ---------------------------------------------------------------------------

    def list(self, project: str) -> list[models.Credential]:
        """``GET .../credentials/``: the project's credentials; ``password`` is always None."""
        path = CREDENTIALS_PATH.format(project=_segment(project, "project"))
        response = self._client._request("GET", path, idempotent=True)
        return self._client._parse(models.CredentialList, response, "GET", path).result_list

    def find(self, project: str, username: str) -> models.Credential | None:
        """The credential ``username`` from the project's list, or None when it has none such."""
        _segment(username, "username")
        return next((item for item in self.list(project) if item.username == username), None)

    def create(
        self, project: str, credential: models.CredentialSpec | Mapping[str, Any]
    ) -> models.DeploymentResponse:
        """``POST .../credentials/``: a new credential, deployed to every environment.

        A taken username answers 400 ``There is already a credential has this name!``.
        """
        path = CREDENTIALS_PATH.format(project=_segment(project, "project"))
        spec = _coerce(models.CredentialSpec, credential, "credential")
        return self._send("POST", path, spec.to_api(), idempotent=False)

    def update(
        self, project: str, credential: models.CredentialSpec | Mapping[str, Any]
    ) -> models.DeploymentResponse:
        """``PUT .../credentials/``: every field (the password too) of the credential the body's
        ``username`` names; the username cannot change. Unknown: 400 ``Credential (username: <name>)
        was not found!``."""
        path = CREDENTIALS_PATH.format(project=_segment(project, "project"))
        spec = _coerce(models.CredentialSpec, credential, "credential")
        return self._send("PUT", path, spec.to_api(), idempotent=True)

    def change_password(self, project: str, username: str, password: str) -> models.DeploymentResponse:
        """``PATCH .../credentials/{username}/``: the password alone; every other field stays."""
        path = self._path(CREDENTIAL_PATH, project, username)
        if not isinstance(password, str):
            raise InvalidArgumentTypeError("password", f"must be a string, got {type(password).__name__}")
        if not password.strip():
            raise InvalidArgumentError("password", "must not be empty")
        body = models.CredentialPasswordChange(password=password)
        return self._send("PATCH", path, body.model_dump(by_alias=True), idempotent=True)

    def delete(self, project: str, username: str) -> models.DeploymentResponse:
        """``DELETE .../credentials/{username}/``: the credential and every access it had, undeployed."""
        path = self._path(CREDENTIAL_PATH, project, username)
        return self._send("DELETE", path, None, idempotent=False)

    # -- access --------------------------------------------------------------------------------

    def access(self, project: str, username: str) -> builtins.list[models.CredentialAccess]:
        """``GET .../credentials/{username}/access/``: the proxies and groups the credential may call."""
        path = self._path(CREDENTIAL_ACCESS_PATH, project, username)
        response = self._client._request("GET", path, idempotent=True)
        return self._client._parse(models.CredentialAccessResponse, response, "GET", path).result_list

    def grant_access(
        self, project: str, username: str, access: Sequence[models.CredentialAccess | Mapping[str, Any]]
    ) -> models.DeploymentResponse:
        """``PUT .../credentials/{username}/access/``: access to each proxy or group of ``access``.

        Each must exist, and none may be granted already (400 ``Credential (username:<name>) has
        already access to API Proxy (name:<proxy>)!``).
        """
        path = self._path(CREDENTIAL_ACCESS_PATH, project, username)
        return self._send("PUT", path, self._access_body(access), idempotent=False)

    def revoke_access(
        self, project: str, username: str, access: Sequence[models.CredentialAccess | Mapping[str, Any]]
    ) -> models.DeploymentResponse:
        """``DELETE .../credentials/{username}/access/`` (with a body): the access to each of ``access``."""
        path = self._path(CREDENTIAL_ACCESS_PATH, project, username)
        return self._send("DELETE", path, self._access_body(access), idempotent=True)

    # -- helpers -------------------------------------------------------------------------------

    @staticmethod
    def _path(template: str, project: str, username: str) -> str:
        return template.format(project=_segment(project, "project"), username=_segment(username, "username"))

    @staticmethod
    def _access_body(access: Any) -> dict[str, Any]:
        if isinstance(access, Mapping | str | bytes) or not isinstance(access, Sequence):
            raise InvalidArgumentTypeError(
                "access", f"must be a list of access objects, got {type(access).__name__}"
            )
        if not access:
            raise InvalidArgumentError("access", "must hold at least one access object")
        items = [
            _coerce(models.CredentialAccess, item, f"access[{index}]") for index, item in enumerate(access)
        ]
        return models.CredentialAccessList(credential_access_list=items).to_api()

    def _send(
        self, method: str, path: str, body: dict[str, Any] | None, *, idempotent: bool
    ) -> models.DeploymentResponse:
        response = self._client._request(method, path, body=body, idempotent=idempotent)
        # The API proxy family's reading of a deployment answer: a failed environment is an error.
        return self._client.api_proxies._result(response, method, path)
