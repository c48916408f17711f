"""HTTP handlers of credentials and their access, and their routes.

As in :mod:`api_proxy_routes`: parse and authorize, call :mod:`credentials` (writes on the app's
writer thread, each one transaction), answer what each page documents. A new password is hashed
on the emulator's password-hashing threads (:data:`auth.PASSWORD_HASHING`) before the write, so a
burst of credential writes cannot take every core from the event loop.

Roles: every page names ROLE_MANAGE_PROXIES, asked of every operation; each write is deployed to
every environment at once, for which the pages name ROLE_DEPLOY_UNDEPLOY_PROXIES as well.
"""

from __future__ import annotations

from typing import Any

from starlette.requests import Request
from starlette.responses import Response

from apinizer_pulumi.models import (
    CredentialAccess,
    CredentialAccessList,
    CredentialAccessResponse,
    CredentialList,
    CredentialPasswordChange,
    CredentialSpec,
    DeploymentResponse,
    credential_ip_problem,
    expire_date_problem,
)

from . import auth, credentials
from .auth import ROLE_DEPLOY_UNDEPLOY_PROXIES, ROLE_MANAGE_PROXIES
from .errors import BadRequestError, InvalidFieldError
from .rules import MAX_DESCRIPTION_LENGTH, MAX_NAME_LENGTH, check_text
from .web import Route, json_response, parse_model, principal, project_name, read, read_object, write

CREDENTIALS = "/apiops/projects/{projectName}/credentials/"
CREDENTIAL = CREDENTIALS + "{username}/"
ACCESS = CREDENTIAL + "access/"


def _authorize(request: Request, *, writes: bool) -> None:
    caller = principal(request, ROLE_MANAGE_PROXIES)
    if writes:
        caller.require_role(ROLE_DEPLOY_UNDEPLOY_PROXIES)


def _username(request: Request) -> str:
    return str(request.path_params["username"])


def _blank(value: Any) -> bool:
    return value is None or (isinstance(value, str) and not value.strip())


async def _hash(password: str) -> str:
    return await auth.PASSWORD_HASHING.run(lambda: auth.hash_password(password))


# -- credentials ------------------------------------------------------------------------------------


def _credential_body(body: dict[str, Any]) -> dict[str, Any]:
    """The body checked in the documented order, then every field's type and format."""
    for key, what in (
        ("username", "username"),
        ("password", "password"),
        ("fullName", "full name"),
        ("email", "email"),
    ):
        if _blank(body.get(key)):
            raise credentials.CredentialFieldEmptyError(what)
    ips = body.get("ipList")
    for index, ip in enumerate(ips if isinstance(ips, list) else []):
        problem = credential_ip_problem(ip) if isinstance(ip, str) else None
        if problem is not None:
            raise InvalidFieldError(f"ipList[{index}]", f"is not an IP address or CIDR range: {ip!r}")
    expire = body.get("expireDate")
    if isinstance(expire, str) and expire_date_problem(expire) is not None:
        raise InvalidFieldError(
            "expireDate", "must be an ISO 8601 date-time such as 2024-12-31T23:59:59.000Z"
        )
    spec = parse_model(CredentialSpec, {key: value for key, value in body.items() if value is not None})
    check_text("username", spec.username, max_length=MAX_NAME_LENGTH, single_line=True)
    check_text("fullName", spec.full_name, max_length=MAX_NAME_LENGTH, single_line=True)
    check_text("description", spec.description, max_length=MAX_DESCRIPTION_LENGTH, single_line=False)
    return spec.to_api()


async def list_credentials(request: Request) -> Response:
    _authorize(request, writes=False)
    items = read(request, credentials.list_credentials, project_name(request))
    return json_response({"success": True, "resultList": items})


async def create_credential(request: Request) -> Response:
    _authorize(request, writes=True)
    body = _credential_body(await read_object(request))
    password_hash = await _hash(body.pop("password"))
    return json_response(await write(request, credentials.create, project_name(request), body, password_hash))


async def update_credential(request: Request) -> Response:
    _authorize(request, writes=True)
    body = _credential_body(await read_object(request))
    password = body.pop("password")
    # The errors that need no hash first: a request for a credential that is not there costs no hash.
    read(request, credentials.check_exists, project_name(request), body["username"])
    password_hash = await _hash(password)
    return json_response(await write(request, credentials.update, project_name(request), body, password_hash))


async def change_password(request: Request) -> Response:
    _authorize(request, writes=True)
    body = await read_object(request)
    if _blank(body.get("password")):
        raise credentials.CredentialFieldEmptyError("password")
    # Only the password is read; the documentation says other fields are ignored.
    change = parse_model(CredentialPasswordChange, {"password": body["password"]})
    read(request, credentials.check_exists, project_name(request), _username(request))
    password_hash = await _hash(change.password)
    answer = await write(
        request, credentials.change_password, project_name(request), _username(request), password_hash
    )
    return json_response(answer)


async def delete_credential(request: Request) -> Response:
    _authorize(request, writes=True)
    return json_response(await write(request, credentials.delete, project_name(request), _username(request)))


# -- access -----------------------------------------------------------------------------------------


async def _access_items(request: Request) -> list[CredentialAccess]:
    body = await read_object(request)
    items = body.get("credentialAccessList")
    if not isinstance(items, list):
        raise BadRequestError("credentialAccessList is required and must be an array")
    for item in items:
        if not isinstance(item, dict):
            raise BadRequestError("Credential access object can not be empty!")
        if _blank(item.get("name")):
            raise credentials.AccessFieldEmptyError("name")
        if _blank(item.get("type")):
            raise credentials.AccessFieldEmptyError("type")
    return parse_model(CredentialAccessList, body).credential_access_list


async def list_access(request: Request) -> Response:
    _authorize(request, writes=False)
    items = read(request, credentials.list_access, project_name(request), _username(request))
    return json_response({"success": True, "resultList": items})


async def grant_access(request: Request) -> Response:
    _authorize(request, writes=True)
    items = await _access_items(request)
    return json_response(
        await write(request, credentials.grant, project_name(request), _username(request), items)
    )


async def revoke_access(request: Request) -> Response:
    _authorize(request, writes=True)
    items = await _access_items(request)
    return json_response(
        await write(request, credentials.revoke, project_name(request), _username(request), items)
    )


# (method, path template, handler, summary, request body model, response model), as app.API_ROUTES.
ROUTES: list[Route] = [
    ("GET", CREDENTIALS, list_credentials, "List a project's credentials", None, CredentialList),
    ("POST", CREDENTIALS, create_credential, "Create a credential", CredentialSpec, DeploymentResponse),
    (
        "PUT",
        CREDENTIALS,
        update_credential,
        "Update a credential (every field)",
        CredentialSpec,
        DeploymentResponse,
    ),
    (
        "PATCH",
        CREDENTIAL,
        change_password,
        "Change a credential's password",
        CredentialPasswordChange,
        DeploymentResponse,
    ),
    ("DELETE", CREDENTIAL, delete_credential, "Delete a credential", None, DeploymentResponse),
    ("GET", ACCESS, list_access, "List a credential's access", None, CredentialAccessResponse),
    ("PUT", ACCESS, grant_access, "Grant a credential access", CredentialAccessList, DeploymentResponse),
    (
        "DELETE",
        ACCESS,
        revoke_access,
        "Revoke a credential's access",
        CredentialAccessList,
        DeploymentResponse,
    ),
]
