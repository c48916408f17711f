"""HTTP handlers of IP groups and their addresses, and their routes.

Every operation needs ROLE_MANAGE_PROXIES ("required for all IP Group operations"):
https://github.com/apinizer/management-api-docs/blob/main/02-api-reference/11-ip-groups/index.md
"""

from __future__ import annotations

from typing import Any

from starlette.requests import Request
from starlette.responses import Response

from apinizer_pulumi.models import IpGroupSpec, IpList, SuccessResponse

from . import ip_groups
from .auth import ROLE_MANAGE_PROXIES
from .errors import BadRequestError
from .rules import MAX_DESCRIPTION_LENGTH, MAX_NAME_LENGTH, check_text
from .web import Route, principal, project_name, read_object, success, write

GROUPS = "/apiops/projects/{projectName}/ipGroups/"
GROUP = GROUPS + "{ipGroupName}/"
IPS = GROUP + "ips/"


def _group_name(request: Request) -> str:
    return str(request.path_params["ipGroupName"])


async def _spec(request: Request) -> tuple[str, str | None]:
    principal(request, ROLE_MANAGE_PROXIES)
    body = await read_object(request)
    name = body.get("name")
    if not isinstance(name, str) or not name.strip():
        raise ip_groups.IpGroupNameEmptyError()
    description = body.get("description")
    if description is not None and not isinstance(description, str):
        raise BadRequestError("description must be a string!")
    check_text("name", name, max_length=MAX_NAME_LENGTH, single_line=True)
    check_text("description", description, max_length=MAX_DESCRIPTION_LENGTH, single_line=False)
    return name, description


async def create_group(request: Request) -> Response:
    """https://github.com/apinizer/management-api-docs/blob/main/02-api-reference/11-ip-groups/crud/create-ip-group.md"""
    name, description = await _spec(request)
    await write(request, ip_groups.create, project_name(request), name, description)
    return success()


async def update_group(request: Request) -> Response:
    """https://github.com/apinizer/management-api-docs/blob/main/02-api-reference/11-ip-groups/crud/update-ip-group.md"""
    name, description = await _spec(request)
    if name != _group_name(request):
        raise ip_groups.IpGroupRenameError(_group_name(request), name)
    await write(request, ip_groups.update, project_name(request), name, description)
    return success()


async def delete_group(request: Request) -> Response:
    """https://github.com/apinizer/management-api-docs/blob/main/02-api-reference/11-ip-groups/crud/delete-ip-group.md"""
    principal(request, ROLE_MANAGE_PROXIES)
    await write(request, ip_groups.delete, project_name(request), _group_name(request))
    return success()


async def change_ips(request: Request) -> Response:
    """``POST`` (add), ``PUT`` (replace) and ``DELETE`` (remove) of ``.../ips/``:
    https://github.com/apinizer/management-api-docs/blob/main/02-api-reference/11-ip-groups/ips/index.md"""
    principal(request, ROLE_MANAGE_PROXIES)
    body: dict[str, Any] = await read_object(request)
    ips = ip_groups.check_ip_list(body.get("ipList"))
    await write(
        request, ip_groups.change_ips, project_name(request), _group_name(request), request.method, ips
    )
    return success()


# (method, path template, handler, summary, request body model, response model)
ROUTES: list[Route] = [
    ("POST", GROUPS, create_group, "Create an IP group (empty)", IpGroupSpec, SuccessResponse),
    ("PUT", GROUP, update_group, "Update an IP group (its description)", IpGroupSpec, SuccessResponse),
    ("DELETE", GROUP, delete_group, "Delete an IP group with its addresses", None, SuccessResponse),
    ("POST", IPS, change_ips, "Add addresses to an IP group", IpList, SuccessResponse),
    ("PUT", IPS, change_ips, "Replace the addresses of an IP group", IpList, SuccessResponse),
    ("DELETE", IPS, change_ips, "Remove addresses from an IP group", IpList, SuccessResponse),
]
