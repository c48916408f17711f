"""HTTP handlers of RLCLs and their endpoint lists, and their routes. State and rules are in
:mod:`rlcls`; every operation needs :data:`auth.RLCL_OPERATIONS_ROLE`."""

from __future__ import annotations

from starlette.requests import Request
from starlette.responses import Response

from apinizer_pulumi.models import EndpointRateLimitList, RlclSpec, SuccessResponse

from . import rlcls
from .auth import RLCL_OPERATIONS_ROLE
from .errors import EmptyRateLimitListError, InvalidFieldError, RlclNameEmptyError
from .web import Route, is_blank, parse_model, principal, project_name, read_object, success, write

RLCLS = "/apiops/projects/{projectName}/rlcl/"
RLCL_ITEM = "/apiops/projects/{projectName}/rlcl/{rlclName}/"
RLCL = "/apiops/projects/{projectName}/rlcl/{rlclName}/endpoints/"


def _rlcl_ref(request: Request) -> tuple[str, str]:
    """(projectName, rlclName) of the request's path."""
    return str(request.path_params["projectName"]), str(request.path_params["rlclName"])


# -- RLCL create, update, delete (product documentation; the spec does not show them) ----------


async def _rlcl_spec(request: Request, path_name: str | None = None) -> RlclSpec:
    """The RLCL body; an update may leave ``name`` out (the documented cURL example does)."""
    principal(request, RLCL_OPERATIONS_ROLE)
    body = await read_object(request)
    if path_name is not None and "name" not in body:
        body["name"] = path_name
    if is_blank(body.get("name")):
        raise RlclNameEmptyError()
    return parse_model(RlclSpec, body)


async def rlcl_create(request: Request) -> Response:
    """https://github.com/apinizer/management-api-docs/blob/main/02-api-reference/12-rlcl/crud/create-rlcl.md"""
    spec = await _rlcl_spec(request)
    await write(request, rlcls.create, project_name(request), spec)
    return success()


async def rlcl_update(request: Request) -> Response:
    """https://github.com/apinizer/management-api-docs/blob/main/02-api-reference/12-rlcl/crud/update-rlcl.md"""
    project, name = _rlcl_ref(request)
    spec = await _rlcl_spec(request, name)
    await write(request, rlcls.update, project, name, spec)
    return success()


async def rlcl_remove(request: Request) -> Response:
    """https://github.com/apinizer/management-api-docs/blob/main/02-api-reference/12-rlcl/crud/delete-rlcl.md"""
    principal(request, RLCL_OPERATIONS_ROLE)
    await write(request, rlcls.remove, *_rlcl_ref(request))
    return success()


# -- 4.12, 4.11b, 4.13 RLCL endpoint lists ----------------------------------------------------

#: Fill-ins for the fields a delete does not match on, so a delete may send only the three keys.
_DELETE_FILL = {
    "permittedMessageCount": 1,
    "timeIntervalPeriodLength": 1,
    "timeInterval": "ONE_MINUTE",
    "cacheConnectionTimeoutInSeconds": 1,
    "cacheErrorHandlingType": "FAIL",
    "timeIntervalWindowType": "FIXED",
}


async def _rate_limit_list(request: Request, *, keys_only: bool = False) -> EndpointRateLimitList:
    principal(request, RLCL_OPERATIONS_ROLE)
    body = await read_object(request)
    entries = body.get("endpointRateLimitList")
    if entries is None or entries == []:
        raise EmptyRateLimitListError()
    if not isinstance(entries, list):
        raise InvalidFieldError("endpointRateLimitList", "must be an array")
    if keys_only:
        entries = [{**_DELETE_FILL, **item} if isinstance(item, dict) else item for item in entries]
    return parse_model(EndpointRateLimitList, {"endpointRateLimitList": entries})


async def rlcl_add(request: Request) -> Response:
    entries = await _rate_limit_list(request)
    await write(request, rlcls.add, *_rlcl_ref(request), entries.endpoint_rate_limit_list)
    return success()


async def rlcl_replace(request: Request) -> Response:
    entries = await _rate_limit_list(request)
    await write(request, rlcls.replace, *_rlcl_ref(request), entries.endpoint_rate_limit_list)
    return success()


async def rlcl_delete(request: Request) -> Response:
    entries = await _rate_limit_list(request, keys_only=True)
    await write(request, rlcls.delete, *_rlcl_ref(request), entries.endpoint_rate_limit_list)
    return success()


# (method, path template, handler, summary, request body model, response model)
ROUTES: list[Route] = [
    ("POST", RLCLS, rlcl_create, "Create an RLCL (empty)", RlclSpec, SuccessResponse),
    ("PUT", RLCL_ITEM, rlcl_update, "Update an RLCL (all fields but its name)", RlclSpec, SuccessResponse),
    ("DELETE", RLCL_ITEM, rlcl_remove, "Delete an RLCL with its lists", None, SuccessResponse),
    ("POST", RLCL, rlcl_add, "Add endpoints to an RLCL", EndpointRateLimitList, SuccessResponse),
    ("PUT", RLCL, rlcl_replace, "Replace the endpoints of an RLCL", EndpointRateLimitList, SuccessResponse),
    ("DELETE", RLCL, rlcl_delete, "Delete endpoints from an RLCL", EndpointRateLimitList, SuccessResponse),
]
