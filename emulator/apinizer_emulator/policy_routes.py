"""HTTP handlers of an API proxy's policies (list, add, update, delete) and their routes.

https://github.com/apinizer/management-api-docs/blob/main/02-api-reference/05-policies/crud/index.md

As in :mod:`api_proxy_routes`: parse and authorize, call :mod:`policies` (writes on the app's
writer thread, each one transaction), answer what the crud pages document. The body's
``operationMetadata`` and ``policy`` are validated with the client's models
(``PolicyOperationMetadata``, and the model of the policy's ``type`` from ``POLICY_TYPES``), in
the strict JSON mode of :func:`responses.parse_model`, so every message names the field as the
API spells it (``policy.ipList is required``).

Roles, from the policies index page: ROLE_MANAGE_PROXIES for every operation, and
ROLE_DEPLOY_UNDEPLOY_PROXIES too when the request deploys (``deploy`` is true by default).
"""

from __future__ import annotations

import dataclasses
from collections.abc import Callable
from typing import Any

from pydantic import BaseModel, ConfigDict, Field
from starlette.requests import Request
from starlette.responses import Response

from apinizer_pulumi.models import (
    POLICY_TYPES,
    AnyPolicy,
    PolicyDeploymentResult,
    PolicyOperationMetadata,
    PolicyTargetScope,
    ProxyPolicyList,
    split_write_body,
)

from . import policies, secrets_at_rest
from .auth import PASSWORD_HASHING, ROLE_DEPLOY_UNDEPLOY_PROXIES
from .errors import FieldRequiredError, InvalidFieldError
from .rules import MAX_NAME_LENGTH, check_text
from .web import (
    Handler,
    json_response,
    parse_model,
    proxy_manager,
    read,
    read_object,
    settings_object,
    without_nulls,
    write,
)

#: An API proxy, as its pages name it (:mod:`api_proxy_routes`).
PROXY = "/apiops/projects/{projectName}/apiProxies/{apiProxyName}/"
POLICIES = PROXY + "policies/"
POLICY = POLICIES + "{policyName}/"


# -- the bodies, for the OpenAPI document (the handlers read them part by part) ----------------------


class PolicyWriteRequest(BaseModel):
    """The add and update pages' body."""

    model_config = ConfigDict(populate_by_name=True)

    operation_metadata: PolicyOperationMetadata = Field(alias="operationMetadata")
    policy: AnyPolicy


class PolicyDeleteRequest(BaseModel):
    """The delete page's body (``order`` is not used)."""

    model_config = ConfigDict(populate_by_name=True)

    operation_metadata: PolicyOperationMetadata = Field(alias="operationMetadata")


# -- parsing ------------------------------------------------------------------------------------------


def _metadata(body: dict[str, Any]) -> PolicyOperationMetadata:
    """``operationMetadata``; the model refuses an ENDPOINT scope without the endpoint and its method."""
    metadata = settings_object(body, "operationMetadata")
    return parse_model(PolicyOperationMetadata, without_nulls(metadata), "operationMetadata")


def _placement(metadata: PolicyOperationMetadata, *, with_order: bool = True) -> policies.Placement:
    """Where the metadata points; an ALL scope ignores any endpoint named beside it."""
    endpoint = None
    if metadata.target_scope is PolicyTargetScope.ENDPOINT:
        method = metadata.target_endpoint_http_method
        assert metadata.target_endpoint is not None and method is not None
        endpoint = (metadata.target_endpoint, str(getattr(method, "value", method)))
    return policies.Placement(
        pipeline=str(getattr(metadata.target_pipeline, "value", metadata.target_pipeline)).lower(),
        endpoint=endpoint,
        order=metadata.order if with_order else None,
    )


def _deploys(metadata: PolicyOperationMetadata) -> bool:
    """``deploy`` left out is true: the crud pages' default."""
    return metadata.deploy is not False


def _deployment(metadata: PolicyOperationMetadata) -> policies.Deployment:
    return policies.Deployment(
        deploy=_deploys(metadata),
        environments=tuple(metadata.deploy_target_environment_name_list or ()),
    )


def _policy(body: dict[str, Any], operation: str) -> policies.PolicyData:
    """The body's policy, validated with its type's model; its ``name`` is ignored (the path's).

    The crud pages nest it under ``policy``; some type pages (decryption, encryption, client ban,
    policy group) write its fields beside ``operationMetadata``: both are read.
    """
    if "policy" in body or "type" not in body:
        policy = settings_object(body, "policy")
    else:
        _, policy = split_write_body(body)
    data = {k: v for k, v in policy.items() if k != "name"}
    policy_type = data.get("type")
    if policy_type is None:
        raise FieldRequiredError("policy.type")
    if not isinstance(policy_type, str):
        raise InvalidFieldError("policy.type", "must be a string")
    policies.check_manageable(policy_type, operation)
    model = POLICY_TYPES.get(policy_type)
    if model is None:
        raise policies.UnknownPolicyTypeError(policy_type, list(POLICY_TYPES))
    return policies.policy_data(parse_model(model, data, "policy"))


def _target(request: Request) -> tuple[str, str, str]:
    params = request.path_params
    name = str(params["policyName"])
    check_text("policyName", name, max_length=MAX_NAME_LENGTH, single_line=True)
    return str(params["projectName"]), str(params["apiProxyName"]), name


# -- handlers -----------------------------------------------------------------------------------------


async def list_policies(request: Request) -> Response:
    proxy_manager(request)
    params = request.path_params
    project, proxy = str(params["projectName"]), str(params["apiProxyName"])
    return json_response(read(request, policies.list_policies, project, proxy))


async def _save(request: Request, operation: Callable[..., dict[str, Any]], done: str) -> Response:
    caller = proxy_manager(request)
    body = await read_object(request)
    metadata = _metadata(body)
    if _deploys(metadata):
        caller.require_role(ROLE_DEPLOY_UNDEPLOY_PROXIES)
    policy = _policy(body, done)
    if secrets_at_rest.has_cleared_fields(policy.type):
        stored = read(request, policies.stored_body, *_target(request))
        hashed = await PASSWORD_HASHING.run(lambda: secrets_at_rest.hash_policy(policy.body, stored=stored))
        policy = dataclasses.replace(policy, body=hashed)
    answer = await write(
        request, operation, *_target(request), _placement(metadata), policy, _deployment(metadata)
    )
    return json_response(answer)


async def add_policy(request: Request) -> Response:
    return await _save(request, policies.add_policy, "added")


async def update_policy(request: Request) -> Response:
    return await _save(request, policies.update_policy, "updated")


async def delete_policy(request: Request) -> Response:
    caller = proxy_manager(request)
    metadata = _metadata(await read_object(request))
    if _deploys(metadata):
        caller.require_role(ROLE_DEPLOY_UNDEPLOY_PROXIES)
    placement = _placement(metadata, with_order=False)
    answer = await write(
        request, policies.delete_policy, *_target(request), placement, _deployment(metadata)
    )
    return json_response(answer)


# (method, path template, handler, summary, request body model, response model)
ROUTES: list[tuple[str, str, Handler, str, type[BaseModel] | None, type[BaseModel] | None]] = [
    ("GET", POLICIES, list_policies, "List an API proxy's policies", None, ProxyPolicyList),
    (
        "POST",
        POLICY,
        add_policy,
        "Add a policy to an API proxy or one endpoint",
        PolicyWriteRequest,
        PolicyDeploymentResult,
    ),
    ("PUT", POLICY, update_policy, "Update (or move) a policy", PolicyWriteRequest, PolicyDeploymentResult),
    (
        "DELETE",
        POLICY,
        delete_policy,
        "Delete a policy from one list",
        PolicyDeleteRequest,
        PolicyDeploymentResult,
    ),
]
