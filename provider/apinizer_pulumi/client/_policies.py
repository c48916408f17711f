"""Policies of an API proxy: ``client.policies`` (list, add, update, delete).

Add, update and delete send ``{"operationMetadata": ..., "policy": ...}`` (delete: the metadata
alone) to ``.../apiProxies/{apiProxyName}/policies/{policyName}/`` and answer
:class:`~apinizer_pulumi.models.PolicyDeploymentResult`. The gateway deploys a change at once
unless ``deploy`` is false; a deployment that failed somewhere raises
:class:`DeploymentFailedError`.

What is retried (see :mod:`._retry`): list and update (a PUT of the same policy twice leaves the
same policy) are idempotent. Add and delete are not: their repeat answers "already exist" or
"does not exist", so they are repeated only when the request never reached the server.

Source: https://github.com/apinizer/management-api-docs/blob/main/02-api-reference/05-policies/crud/index.md
"""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any

import httpx

from .. import models
from ._api_proxies import DeploymentFailedError
from ._exceptions import APIResponseValidationError, InvalidArgumentError
from ._resources import _coerce, _Resource, _segment, _typed

__all__ = ["POLICIES_PATH", "POLICY_PATH", "Policies"]

POLICIES_PATH = "/apiops/projects/{project}/apiProxies/{proxy}/policies/"
POLICY_PATH = "/apiops/projects/{project}/apiProxies/{proxy}/policies/{policy}/"


def _policy_body(policy: models.PolicyBase | Mapping[str, Any]) -> dict[str, Any]:
    """The ``policy`` of a write: validated, free of unknown fields, without ``name`` (the path has it)."""
    model = _typed(policy, models.PolicyBase, models.parse_policy, models.UnknownPolicyTypeError, "policy")
    body = model.to_api()
    body.pop("name", None)
    return body


class Policies(_Resource):
    """The policies of an API proxy: proxy-wide (``target_scope`` ALL) or one endpoint's."""

    @staticmethod
    def _path(project: str, proxy: str, name: str | None = None) -> str:
        segments = {"project": _segment(project, "project"), "proxy": _segment(proxy, "proxy")}
        if name is None:
            return POLICIES_PATH.format(**segments)
        return POLICY_PATH.format(policy=_segment(name, "name"), **segments)

    def list(self, project: str, proxy: str) -> models.ProxyPolicies:
        """``GET .../policies/``: the proxy's request, response and error pipelines and each
        endpoint's, in order. Entries of a known type are its model, others :class:`PolicyEntry`."""
        path = self._path(project, proxy)
        response = self._client._request("GET", path, idempotent=True)
        answer = self._client._parse(models.ProxyPolicyList, response, "GET", path)
        if not answer.result_list:
            raise APIResponseValidationError(
                "GET", path, response.status_code, "resultList holds no API proxy"
            )
        return answer.result_list[0]

    def add(
        self,
        project: str,
        proxy: str,
        name: str,
        policy: models.PolicyBase | Mapping[str, Any],
        metadata: models.PolicyOperationMetadata | Mapping[str, Any],
    ) -> models.PolicyDeploymentResult:
        """``POST .../policies/{policyName}/``: add ``policy`` where ``metadata`` says. A name
        already used in the proxy raises :class:`BadRequestError`."""
        kind: type[models.PolicyBase] | None = None
        if isinstance(policy, models.PolicyBase):
            kind = type(policy)
        elif isinstance(policy, Mapping):
            kind = models.POLICY_TYPES.get(str(policy.get("type")))
        if kind is not None and not kind.addable:
            raise InvalidArgumentError(
                "policy",
                f"{kind.policy_type} cannot be added through the API: the gateway adds it with the proxy's"
                " SOAP/REST transformation",
            )
        return self._write_policy("POST", project, proxy, name, policy, metadata, idempotent=False)

    def update(
        self,
        project: str,
        proxy: str,
        name: str,
        policy: models.PolicyBase | Mapping[str, Any],
        metadata: models.PolicyOperationMetadata | Mapping[str, Any],
    ) -> models.PolicyDeploymentResult:
        """``PUT .../policies/{policyName}/``: replace the policy's fields; ``order`` left out keeps
        its position. The type cannot change (the gateway answers 400)."""
        return self._write_policy("PUT", project, proxy, name, policy, metadata, idempotent=True)

    def delete(
        self,
        project: str,
        proxy: str,
        name: str,
        *,
        metadata: models.PolicyOperationMetadata | Mapping[str, Any],
    ) -> models.PolicyDeploymentResult:
        """``DELETE .../policies/{policyName}/`` with ``operationMetadata`` (scope, pipeline and,
        for ENDPOINT scope, the endpoint; ``order`` is not used). An unknown name raises
        :class:`BadRequestError`."""
        path = self._path(project, proxy, name)
        body = {"operationMetadata": _coerce(models.PolicyOperationMetadata, metadata, "metadata").to_api()}
        response = self._client._request("DELETE", path, body=body, idempotent=False)
        return self._result(response, "DELETE", path)

    def _write_policy(
        self,
        method: str,
        project: str,
        proxy: str,
        name: str,
        policy: models.PolicyBase | Mapping[str, Any],
        metadata: models.PolicyOperationMetadata | Mapping[str, Any],
        *,
        idempotent: bool,
    ) -> models.PolicyDeploymentResult:
        path = self._path(project, proxy, name)
        body = {
            "operationMetadata": _coerce(models.PolicyOperationMetadata, metadata, "metadata").to_api(),
            "policy": _policy_body(policy),
        }
        response = self._client._request(method, path, body=body, idempotent=idempotent)
        return self._result(response, method, path)

    def _result(self, response: httpx.Response, method: str, path: str) -> models.PolicyDeploymentResult:
        """The answer, after a check that neither the envelope nor any environment says it failed."""
        if not response.content.strip():
            return models.PolicyDeploymentResult()
        try:
            result = self._client._parse(models.PolicyDeploymentResult, response, method, path)
        except APIResponseValidationError:
            # ``success: false`` under a 2xx: when a deploymentResult says where and why, that is the error.
            _raise_failed_deployment(_lenient(response), method, path)
            raise
        _raise_failed_deployment(result, method, path)
        if result.status != "SUCCESS":
            raise APIResponseValidationError(
                method, path, response.status_code, f"the gateway answered status {result.status}"
            )
        return result


def _lenient(response: httpx.Response) -> models.PolicyDeploymentResult | None:
    try:
        return models.PolicyDeploymentResult.model_validate(response.json())
    except ValueError:  # a JSONDecodeError or a pydantic ValidationError
        return None


def _raise_failed_deployment(result: models.PolicyDeploymentResult | None, method: str, path: str) -> None:
    deployment = result.deployment_result if result is not None else None
    if deployment is not None and not deployment.ok:
        failures = [(r.environment_name, r.message) for r in deployment.failures()]
        raise DeploymentFailedError(method, path, failures or [("every environment", deployment.message)])
