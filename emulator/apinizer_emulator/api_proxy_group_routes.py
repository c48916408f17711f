"""HTTP handlers of API proxy groups (crud, members, deployment) and of an RLCL's credentials and
condition, and their routes. State and rules are in :mod:`api_proxy_groups`.

Roles, from the pages: every group operation needs ROLE_MANAGE_PROXY_GROUPS; adding and removing
a member also ROLE_MANAGE_PROXIES; deploy and undeploy also ROLE_DEPLOY_UNDEPLOY_PROXIES. The
RLCL operations need ROLE_MANAGE_PROXIES ("required for all RLCL operations"). A missing role is
403, a bad token 401, as everywhere.
"""

from __future__ import annotations

from typing import Any

from pydantic import BaseModel
from starlette.requests import Request
from starlette.responses import Response

from apinizer_pulumi.models import (
    ApiProxyGroupEnvironmentList,
    ApiProxyGroupList,
    ApiProxyGroupSpec,
    DeploymentResponse,
    RlclCondition,
    RlclCredentialNames,
    SuccessResponse,
)

from . import api_proxy_groups as groups
from .auth import RLCL_OPERATIONS_ROLE, ROLE_DEPLOY_UNDEPLOY_PROXIES, ROLE_MANAGE_PROXIES
from .errors import BadRequestError, EmulatorError, NotFoundError
from .rules import MAX_DESCRIPTION_LENGTH, MAX_NAME_LENGTH, check_text
from .web import Handler, json_response, parse_model, principal, read, read_object, success, write

ROLE_MANAGE_PROXY_GROUPS = "ROLE_MANAGE_PROXY_GROUPS"

GROUPS = "/apiops/projects/{projectName}/apiProxyGroups/"
GROUP = GROUPS + "{apiProxyGroupName}/"
MEMBER = GROUP + "apiProxies/{apiProxyName}/"
ENVIRONMENTS = GROUP + "environments/"
DEPLOYMENT = ENVIRONMENTS + "{environmentName}/"
RLCL_CREDENTIALS = "/apiops/projects/{projectName}/rlcl/{rlclName}/credentials/"
RLCL_CONDITION = "/apiops/projects/{projectName}/rlcl/{rlclName}/condition/"


def _param(request: Request, name: str) -> str:
    return str(request.path_params[name])


def _group_manager(request: Request, *also: str) -> None:
    caller = principal(request, ROLE_MANAGE_PROXY_GROUPS)
    for role in also:
        caller.require_role(role)


def _blank(value: Any) -> bool:
    return value is None or (isinstance(value, str) and not value.strip())


async def _group_body(request: Request) -> dict[str, Any]:
    """The create and update body, checked in the order of the create page's messages."""
    body = await read_object(request)
    if _blank(body.get("name")):
        raise BadRequestError("name value can not be empty!")
    route = body.get("clientRoute")
    if route is None or route == {}:
        raise BadRequestError("clientRoute value can not be empty!")
    paths = route.get("relativePathList") if isinstance(route, dict) else None
    if not paths:
        raise BadRequestError("clientRoute value needs at least one relativePath!")
    if isinstance(paths, list) and _blank(paths[0]):
        raise BadRequestError("relativePath value in clientRoute object can not be empty!")
    spec = parse_model(ApiProxyGroupSpec, body)  # also refuses paths shorter than 2 characters
    check_text("name", spec.name, max_length=MAX_NAME_LENGTH, single_line=True)
    check_text("description", spec.description, max_length=MAX_DESCRIPTION_LENGTH, single_line=False)
    return spec.to_api()


# -- crud ---------------------------------------------------------------------------------------------


async def list_groups(request: Request) -> Response:
    _group_manager(request)
    items = read(request, groups.list_groups, _param(request, "projectName"))
    return json_response({"success": True, "resultList": items, "resultCount": len(items)})


async def create_group(request: Request) -> Response:
    _group_manager(request)
    body = await _group_body(request)
    await write(request, groups.create_group, _param(request, "projectName"), body)
    return success()


async def update_group(request: Request) -> Response:
    _group_manager(request)
    body = await _group_body(request)
    await write(request, groups.update_group, _param(request, "projectName"), body)
    return success()


async def delete_group(request: Request) -> Response:
    _group_manager(request)
    await write(request, groups.delete_group, _param(request, "projectName"),
                 _param(request, "apiProxyGroupName"))
    return success()


# -- members ------------------------------------------------------------------------------------------


def _member_ref(request: Request) -> tuple[str, str, str]:
    return (_param(request, "projectName"), _param(request, "apiProxyGroupName"),
            _param(request, "apiProxyName"))


async def add_member(request: Request) -> Response:
    _group_manager(request, ROLE_MANAGE_PROXIES)
    await write(request, groups.add_member, *_member_ref(request))
    return success()


async def remove_member(request: Request) -> Response:
    _group_manager(request, ROLE_MANAGE_PROXIES)
    await write(request, groups.remove_member, *_member_ref(request))
    return success()


# -- deployment ---------------------------------------------------------------------------------------


def _deployment_ref(request: Request) -> tuple[str, str, str]:
    return (_param(request, "projectName"), _param(request, "apiProxyGroupName"),
            _param(request, "environmentName"))


async def list_environments(request: Request) -> Response:
    _group_manager(request)
    items = read(request, groups.group_environments, _param(request, "projectName"),
                  _param(request, "apiProxyGroupName"))
    return json_response({"success": True, "resultList": items, "resultCount": len(items)})


async def deploy_group(request: Request) -> Response:
    _group_manager(request, ROLE_DEPLOY_UNDEPLOY_PROXIES)
    return json_response(await write(request, groups.deploy_group, *_deployment_ref(request)))


async def undeploy_group(request: Request) -> Response:
    _group_manager(request, ROLE_DEPLOY_UNDEPLOY_PROXIES)
    return json_response(await write(request, groups.undeploy_group, *_deployment_ref(request)))


# -- RLCL credentials and condition -------------------------------------------------------------------


def _rlcl_ref(request: Request) -> tuple[str, str]:
    return _param(request, "projectName"), _param(request, "rlclName")


async def _credential_names(request: Request) -> list[str]:
    principal(request, RLCL_OPERATIONS_ROLE)
    body = await read_object(request)
    if not body.get("credentialNameList"):
        raise BadRequestError("credentialNameList value can not be empty!")
    return list(parse_model(RlclCredentialNames, body).credential_name_list)


async def add_rlcl_credentials(request: Request) -> Response:
    names = await _credential_names(request)
    await write(request, groups.add_rlcl_credentials, *_rlcl_ref(request), names)
    return success()


async def replace_rlcl_credentials(request: Request) -> Response:
    names = await _credential_names(request)
    await write(request, groups.replace_rlcl_credentials, *_rlcl_ref(request), names)
    return success()


async def delete_rlcl_credentials(request: Request) -> Response:
    names = await _credential_names(request)
    await write(request, groups.delete_rlcl_credentials, *_rlcl_ref(request), names)
    return success()


async def _condition_rules(request: Request) -> list[dict[str, Any]]:
    principal(request, RLCL_OPERATIONS_ROLE)
    try:
        body = await read_object(request)
    except BadRequestError as error:
        if error.description == "Request body is missing":
            raise BadRequestError("condition value can not be empty!") from None
        raise
    if "conditionRuleList" not in body or body["conditionRuleList"] is None:
        raise BadRequestError("condition value can not be empty!")
    return parse_model(RlclCondition, body).to_api()["conditionRuleList"]  # type: ignore[no-any-return]


async def set_rlcl_condition(request: Request) -> Response:
    rules = await _condition_rules(request)
    await write(request, groups.set_rlcl_condition, *_rlcl_ref(request), rules)
    return success()


async def delete_rlcl_condition(request: Request) -> Response:
    principal(request, RLCL_OPERATIONS_ROLE)
    await write(request, groups.delete_rlcl_condition, *_rlcl_ref(request))
    return success()


Route = tuple[str, str, Handler, str, type[BaseModel] | None, type[BaseModel] | None]

ROUTES: list[Route] = [
    ("GET", GROUPS, list_groups, "List a project's API proxy groups", None, ApiProxyGroupList),
    ("POST", GROUPS, create_group, "Create an API proxy group", ApiProxyGroupSpec, SuccessResponse),
    ("PUT", GROUPS, update_group, "Update an API proxy group (every field)", ApiProxyGroupSpec,
     SuccessResponse),
    ("DELETE", GROUP, delete_group, "Delete an API proxy group (its proxies stay)", None, SuccessResponse),
    ("POST", MEMBER, add_member, "Add an API proxy to a group", None, SuccessResponse),
    ("DELETE", MEMBER, remove_member, "Remove an API proxy from a group", None, SuccessResponse),
    ("GET", ENVIRONMENTS, list_environments, "List the environments a group is deployed to", None,
     ApiProxyGroupEnvironmentList),
    ("POST", DEPLOYMENT, deploy_group, "Deploy a group's proxies to an environment", None,
     DeploymentResponse),
    ("DELETE", DEPLOYMENT, undeploy_group, "Undeploy a group's proxies from an environment", None,
     DeploymentResponse),
    ("POST", RLCL_CREDENTIALS, add_rlcl_credentials, "Add credentials to an RLCL", RlclCredentialNames,
     SuccessResponse),
    ("PUT", RLCL_CREDENTIALS, replace_rlcl_credentials, "Replace the credentials of an RLCL",
     RlclCredentialNames, SuccessResponse),
    ("DELETE", RLCL_CREDENTIALS, delete_rlcl_credentials, "Delete credentials from an RLCL",
     RlclCredentialNames, SuccessResponse),
    ("POST", RLCL_CONDITION, set_rlcl_condition, "Add a condition to an RLCL", RlclCondition,
     SuccessResponse),
    ("PUT", RLCL_CONDITION, set_rlcl_condition, "Replace the condition of an RLCL", RlclCondition,
     SuccessResponse),
    ("DELETE", RLCL_CONDITION, delete_rlcl_condition, "Reset an RLCL's condition to the default", None,
     SuccessResponse),
]


# -- /_emulator inspection: what the API cannot read back -------------------------------------------


async def inspect_group(request: Request) -> Response:
    """``/_emulator/projects/{project}/apiProxyGroups/{group}``: body, members, environments."""
    try:
        found = read(request, groups.group_state, _param(request, "project"), _param(request, "group"))
    except EmulatorError as exc:  # an inspection URL that names nothing is a 404
        raise NotFoundError(exc.description) from exc
    return json_response(found)


async def inspect_rlcl_lists(request: Request) -> Response:
    """``/_emulator/projects/{project}/rlcl/{rlcl}/credentials``: the credentials and the condition."""
    try:
        found = read(request, groups.rlcl_lists, _param(request, "project"), _param(request, "rlcl"))
    except EmulatorError as exc:
        raise NotFoundError(exc.description) from exc
    return json_response(found)


INSPECTION: list[tuple[str, str, Handler]] = [
    ("GET", "/_emulator/projects/{project}/apiProxyGroups/{group}", inspect_group),
    ("GET", "/_emulator/projects/{project}/rlcl/{rlcl}/credentials", inspect_rlcl_lists),
]
