"""HTTP handlers of environment variables, and their routes.

Roles, as the pages say: ROLE_API_SECURITY for every operation, and ROLE_DEPLOY_UNDEPLOY_PROXIES
as well for create, update and delete, which deploy the variable to every environment:
https://github.com/apinizer/management-api-docs/blob/main/02-api-reference/10-environment-variables/index.md
"""

from __future__ import annotations

from starlette.requests import Request
from starlette.responses import Response

from apinizer_pulumi.models import (
    EnvironmentVariableList,
    EnvironmentVariableResponse,
    EnvironmentVariableSpec,
)

from . import auth
from . import environment_variables as variables
from .auth import ROLE_API_SECURITY, ROLE_DEPLOY_UNDEPLOY_PROXIES
from .errors import BadRequestError
from .rules import MAX_DESCRIPTION_LENGTH, MAX_NAME_LENGTH, check_text
from .web import Route, json_response, parse_model, principal, project_name, read, read_object, write

VARIABLES = "/apiops/projects/{projectName}/environmentVariables/"
VARIABLE = VARIABLES + "{name}/"


def _name(request: Request) -> str:
    return str(request.path_params["name"])


def _writer(request: Request) -> None:
    caller = principal(request, ROLE_API_SECURITY)
    caller.require_role(ROLE_DEPLOY_UNDEPLOY_PROXIES)


async def _spec(request: Request) -> EnvironmentVariableSpec:
    _writer(request)
    body = await read_object(request)
    name = body.get("name")
    if not isinstance(name, str) or not name.strip():
        raise variables.VariableNameEmptyError()
    check_text("name", name, max_length=MAX_NAME_LENGTH, single_line=True)
    check_text(
        "description",
        body.get("description") if isinstance(body.get("description"), str) else None,
        max_length=MAX_DESCRIPTION_LENGTH,
        single_line=False,
    )
    if body.get("global") is True and body.get("globalValue") is None:
        raise BadRequestError("globalValue value can not be empty when global is true!")
    if body.get("global") is not True and not body.get("environmentValueList"):
        raise BadRequestError("environmentValueList value can not be empty when global is false!")
    return parse_model(EnvironmentVariableSpec, body)


async def list_variables(request: Request) -> Response:
    """https://github.com/apinizer/management-api-docs/blob/main/02-api-reference/10-environment-variables/crud/list-environment-variables.md"""
    principal(request, ROLE_API_SECURITY)
    found = read(request, variables.list_variables, project_name(request))
    return json_response({"success": True, "resultList": found, "resultCount": len(found)})


async def get_variable(request: Request) -> Response:
    """https://github.com/apinizer/management-api-docs/blob/main/02-api-reference/10-environment-variables/crud/get-environment-variable.md"""
    principal(request, ROLE_API_SECURITY)
    found = read(request, variables.get_variable, project_name(request), _name(request))
    return json_response({"success": True, "resultList": [found], "resultCount": 1})


async def create_variable(request: Request) -> Response:
    """https://github.com/apinizer/management-api-docs/blob/main/02-api-reference/10-environment-variables/crud/create-environment-variable.md"""
    spec = await _spec(request)
    if spec.name.casefold() != _name(request).casefold():  # "case-insensitive matching"
        raise variables.VariableNameMismatchError(_name(request), spec.name)
    body = await auth.PASSWORD_HASHING.run(lambda: variables.stored(spec))
    return json_response(await write(request, variables.create, project_name(request), spec, body))


async def update_variable(request: Request) -> Response:
    """https://github.com/apinizer/management-api-docs/blob/main/02-api-reference/10-environment-variables/crud/update-environment-variable.md"""
    spec = await _spec(request)
    body = await auth.PASSWORD_HASHING.run(lambda: variables.stored(spec))
    return json_response(
        await write(request, variables.update, project_name(request), _name(request), spec, body)
    )


async def delete_variable(request: Request) -> Response:
    """https://github.com/apinizer/management-api-docs/blob/main/02-api-reference/10-environment-variables/crud/delete-environment-variable.md"""
    _writer(request)
    return json_response(await write(request, variables.delete, project_name(request), _name(request)))


ROUTES: list[Route] = [
    (
        "GET",
        VARIABLES,
        list_variables,
        "List a project's environment variables",
        None,
        EnvironmentVariableList,
    ),
    ("GET", VARIABLE, get_variable, "Get an environment variable", None, EnvironmentVariableList),
    (
        "POST",
        VARIABLE,
        create_variable,
        "Create an environment variable and deploy it",
        EnvironmentVariableSpec,
        EnvironmentVariableResponse,
    ),
    (
        "PUT",
        VARIABLE,
        update_variable,
        "Update (or rename) an environment variable and deploy it",
        EnvironmentVariableSpec,
        EnvironmentVariableResponse,
    ),
    (
        "DELETE",
        VARIABLE,
        delete_variable,
        "Delete an environment variable and undeploy it",
        None,
        EnvironmentVariableResponse,
    ),
]
