"""HTTP handlers: parse the request, call the backend, serialize the answer.

Every backend call that writes runs on the app's writer thread (:func:`in_writer`): a commit
waits for the disk, and the event loop must go on serving meanwhile. One thread, because SQLite
takes one writer at a time anyway (many threads would only queue on its lock), and it commits
the writes waiting together in one transaction (:class:`store.WriteQueue`). The token
request's password hash runs on a pool of one thread per core (:data:`auth.PASSWORD_HASHING`):
slow CPU work, bounded so that a flood of wrong passwords cannot starve the event loop. Reads
stay on the loop: each is one short snapshot on the loop thread's own connection, which no write
blocks (WAL).

Bodies are read and validated here, not by FastAPI, so that every bad body is a 400 in the
API's error shape with a message naming the field (never FastAPI's 422). Statuses and
messages come from the backend's typed errors.
"""

from __future__ import annotations

import functools
import json
import math
import re
from collections.abc import Callable
from typing import Any, TypeVar
from urllib.parse import parse_qs

from pydantic import BaseModel, ValidationError
from starlette.requests import ClientDisconnect, Request
from starlette.responses import PlainTextResponse, Response

import apinizer_pulumi.models as api
from apinizer_pulumi.models import (
    CacheSettings,
    EndpointIdentifier,
    EndpointRateLimitList,
    EndpointSpec,
    EndpointStatusUpdate,
    EndpointTarget,
    EndpointUpdate,
    RlclSpec,
    WsaSettings,
)

from .auth import PASSWORD_HASHING, ROLE_MANAGE_PROXIES, Principal
from .backend import Backend
from .errors import (
    BadRequestError,
    EmptyRateLimitListError,
    FieldRequiredError,
    HandlingActionRequiredError,
    IdentifierMissingError,
    InvalidFieldError,
    InvalidRequestError,
    RlclNameEmptyError,
    UnsupportedGrantTypeError,
)
from .models import endpoint_json
from .store import WriteQueue

MAX_BODY_BYTES = 1 << 20
#: The ``Content-Type`` of every JSON answer, as the product's documentation shows its answers.
JSON_CONTENT_TYPE = "application/json;charset=UTF-8"
#: Bounds the spec does not give (section 8): no field of the API needs more.
MAX_STRING_LENGTH = 65_536
MAX_DEPTH = 16
#: Integers are 64-bit signed, as the gateway's (Java) and SQLite's are; the documented lower
#: bounds (counts and sizes above zero) are the models'.
MIN_INTEGER, MAX_INTEGER = -(2**63), 2**63 - 1
FORM_CONTENT_TYPE = "application/x-www-form-urlencoded"
ENDPOINT_OPERATIONS_ROLE = ROLE_MANAGE_PROXIES
#: The spec does not name the RLCL operations' role; the product's documentation does, for all RLCL
#: operations: https://github.com/apinizer/management-api-docs/blob/main/02-api-reference/12-rlcl/index.md
RLCL_OPERATIONS_ROLE = ROLE_MANAGE_PROXIES

M = TypeVar("M", bound=BaseModel)
R = TypeVar("R")


# -- serialization ------------------------------------------------------------------------------


def json_response(body: Any, status: int = 200, headers: dict[str, str] | None = None) -> Response:
    return Response(
        json.dumps(body, separators=(",", ":")).encode(),
        status_code=status,
        headers=headers,
        media_type=JSON_CONTENT_TYPE,
    )


#: The answer of every write, encoded once.
_SUCCESS_BODY = json.dumps({"success": True}, separators=(",", ":")).encode()


def success() -> Response:
    return Response(_SUCCESS_BODY, media_type=JSON_CONTENT_TYPE)


# -- parsing ----------------------------------------------------------------------------------


def _alias_map() -> dict[str, str]:
    aliases: dict[str, str] = {}
    for name in api.__all__:
        cls = getattr(api, name)
        if isinstance(cls, type) and issubclass(cls, BaseModel):
            for field_name, info in cls.model_fields.items():
                aliases[field_name] = info.alias or field_name
    return aliases


_ALIASES = _alias_map()
_SNAKE_WORD = re.compile(r"\b[a-z]+(?:_[a-z]+)+\b")


def _api_name(name: str) -> str:
    return _ALIASES.get(name, name)


def validation_message(exc: ValidationError, prefix: str = "") -> str:
    """The first few problems of a validation error, each naming the field as the API spells it."""
    parts = []
    for error in exc.errors()[:3]:
        path = prefix
        for item in error["loc"]:
            if isinstance(item, int):
                path += f"[{item}]"
            else:
                path += ("." if path else "") + _api_name(str(item))
        message = _SNAKE_WORD.sub(lambda m: _api_name(m.group(0)), error["msg"])
        if error["type"] == "missing":
            parts.append(f"{path} is required")
        elif path:
            parts.append(f"{path}: {message}")
        else:
            parts.append(message)
    return "; ".join(parts)


def parse_model(model: type[M], data: Any, prefix: str = "") -> M:
    """``data`` validated as ``model`` under the API's names only, with JSON's types as they are.

    The shared models also take their snake_case names (for Pulumi programs); the wire does
    not: a body that writes ``http_method`` lacks ``httpMethod``, as on the real gateway.
    Validation is pydantic's strict JSON mode, so ``"yes"`` or ``1`` is no boolean and ``"60"``
    no integer (a wrong type is a 400, not a guess); enum values are still read from strings.
    """
    try:
        return model.model_validate_json(json.dumps(data), strict=True, by_alias=True, by_name=False)
    except ValidationError as exc:
        raise BadRequestError(validation_message(exc, prefix)) from exc


async def read_body(request: Request) -> bytes:
    # The ASGI messages themselves, as Request.stream() reads them, without its async generator:
    # a few microseconds on the path of every write, on the thread that bounds throughput.
    chunks: list[bytes] = []
    size = 0
    while True:
        message = await request.receive()
        if message["type"] == "http.disconnect":
            raise ClientDisconnect()
        if message["type"] != "http.request":
            continue
        chunk: bytes = message.get("body", b"")
        size += len(chunk)
        if size > MAX_BODY_BYTES:
            raise BadRequestError(f"Request body is larger than {MAX_BODY_BYTES} bytes")
        chunks.append(chunk)
        if not message.get("more_body", False):
            return b"".join(chunks)


def _reject_constant(name: str) -> Any:
    raise ValueError(f"{name} is not valid JSON")


#: ``json.loads(text, parse_constant=...)`` builds a decoder per call; this one is built once.
_DECODER = json.JSONDecoder(parse_constant=_reject_constant)


async def read_object(request: Request) -> dict[str, Any]:
    """The request's JSON object; a missing, malformed or non-object body is a 400."""
    raw = await read_body(request)
    if not raw.strip():
        raise BadRequestError("Request body is missing")
    try:
        data = _DECODER.decode(raw.decode("utf-8"))
    except (UnicodeDecodeError, ValueError, RecursionError) as exc:
        raise BadRequestError("Request body is not valid JSON") from exc
    if not isinstance(data, dict):
        raise BadRequestError("Request body must be a JSON object")
    check_json_values(data)
    return data


def check_json_values(body: dict[str, Any]) -> None:
    """Refuse what no field of the API can hold: absurd nesting, huge strings, NUL characters,
    integers beyond 64 bits, numbers beyond a double (``1e400``, which Python reads as infinity).

    Iterative, so a deeply nested body cannot exhaust the stack; the path in a message is the
    JSON path of the value (``cacheSettings.variableList[0].scriptBody``).
    """
    # A stack of reversed children walks the body in document order: the first bad value is named.
    stack: list[tuple[str, Any, int]] = [(key, value, 1) for key, value in reversed(body.items())]
    while stack:
        path, value, depth = stack.pop()
        if depth > MAX_DEPTH:
            raise BadRequestError(f"Request body is nested deeper than {MAX_DEPTH} levels")
        if isinstance(value, str):
            if len(value) > MAX_STRING_LENGTH:
                raise InvalidFieldError(path, f"must be at most {MAX_STRING_LENGTH} characters")
            if "\x00" in value:
                raise InvalidFieldError(path, "must not contain NUL characters")
        elif isinstance(value, int):
            if not MIN_INTEGER <= value <= MAX_INTEGER:
                raise InvalidFieldError(path, f"must be an integer from {MIN_INTEGER} to {MAX_INTEGER}")
        elif isinstance(value, float):
            if not math.isfinite(value):
                raise InvalidFieldError(path, "must be a finite number")
        elif isinstance(value, dict):
            stack.extend((f"{path}.{key}", item, depth + 1) for key, item in reversed(value.items()))
        elif isinstance(value, list):
            stack.extend((f"{path}[{i}]", value[i], depth + 1) for i in reversed(range(len(value))))


def _without_nulls(body: dict[str, Any]) -> dict[str, Any]:
    """Top-level nulls count as absent (a PATCH with ``null`` leaves the field as it is)."""
    return {key: value for key, value in body.items() if value is not None}


def _is_blank(value: Any) -> bool:
    return value is None or (isinstance(value, str) and not value.strip())


def require_identifier(body: dict[str, Any], name_key: str, method_key: str) -> None:
    if _is_blank(body.get(name_key)) or _is_blank(body.get(method_key)):
        raise IdentifierMissingError()


def _settings_object(body: dict[str, Any], key: str) -> dict[str, Any]:
    value = body.get(key)
    if value is None:
        raise FieldRequiredError(key)
    if not isinstance(value, dict):
        raise InvalidFieldError(key, "must be a JSON object")
    return value


def _proxy_ref(request: Request) -> tuple[str, str]:
    """(projectName, apiProxyName) of the request's path."""
    return str(request.path_params["projectName"]), str(request.path_params["apiProxyName"])


def _rlcl_ref(request: Request) -> tuple[str, str]:
    """(projectName, rlclName) of the request's path."""
    return str(request.path_params["projectName"]), str(request.path_params["rlclName"])


async def in_writer(request: Request, call: Callable[..., R], *args: Any) -> R:
    """``call(*args)`` on the app's writer thread, awaited without blocking the event loop."""
    writer: WriteQueue = request.app.state.writer
    return await writer.run(functools.partial(call, *args))


def _backend(request: Request) -> Backend:
    backend: Backend = request.app.state.backend
    return backend


def _principal(request: Request, role: str | None = None) -> Principal:
    principal = _backend(request).authenticate(request.headers.get("authorization"))
    if role is not None:
        principal.require_role(role)
    return principal


# -- 4.1 token ----------------------------------------------------------------------------------


async def token(request: Request) -> Response:
    content_type = request.headers.get("content-type", "").split(";")[0].strip().lower()
    if content_type != FORM_CONTENT_TYPE:
        raise InvalidRequestError(f"The token request must be form-encoded ({FORM_CONTENT_TYPE})")
    raw = await read_body(request)
    try:
        form = parse_qs(raw.decode("utf-8"), keep_blank_values=True, strict_parsing=False)
    except (UnicodeDecodeError, ValueError) as exc:
        raise InvalidRequestError("The token request body is not valid form encoding") from exc
    values: dict[str, str] = {}
    for param in ("grant_type", "client_id", "client_secret"):
        given = form.get(param)
        if not given or not given[0]:
            raise InvalidRequestError(f"{param} is required")
        if len(given) > 1:
            raise InvalidRequestError(f"{param} must not be repeated")
        values[param] = given[0]
    if values["grant_type"] != "client_credentials":
        raise UnsupportedGrantTypeError()
    backend = _backend(request)
    # The password hash is slow on purpose: on the bounded pool, off the loop; the insert commits.
    await PASSWORD_HASHING.run(
        functools.partial(backend.check_credentials, values["client_id"], values["client_secret"])
    )
    issued = await in_writer(request, backend.issue_access_token, values["client_id"])
    return json_response(
        issued.model_dump(mode="json"), headers={"Cache-Control": "no-store", "Pragma": "no-cache"}
    )


# -- 4.2 report -------------------------------------------------------------------------------


async def organization_report(request: Request) -> Response:
    _principal(request).require_report_access()
    return json_response(_backend(request).organization_access().model_dump(mode="json", by_alias=True))


# -- 4.3 to 4.11 endpoints ---------------------------------------------------------------------


async def list_endpoints(request: Request) -> Response:
    _principal(request, ENDPOINT_OPERATIONS_ROLE)
    count, items = _backend(request).list_endpoints_json(*_proxy_ref(request))
    # Spliced, not re-encoded: the array is already JSON (see Backend.list_endpoints_json).
    body = f'{{"success":true,"resultList":{items},"resultCount":{count}}}'
    return Response(body.encode(), media_type=JSON_CONTENT_TYPE)


async def create_endpoint(request: Request) -> Response:
    _principal(request, ENDPOINT_OPERATIONS_ROLE)
    spec = parse_model(EndpointSpec, _without_nulls(await read_object(request)))
    await in_writer(request, _backend(request).create_endpoint, *_proxy_ref(request), spec)
    return success()


async def update_endpoint(request: Request) -> Response:
    _principal(request, ENDPOINT_OPERATIONS_ROLE)
    body = await read_object(request)
    require_identifier(body, "name", "httpMethod")
    update = parse_model(EndpointUpdate, _without_nulls(body))
    await in_writer(request, _backend(request).update_endpoint, *_proxy_ref(request), update)
    return success()


async def _identified(request: Request) -> EndpointIdentifier:
    _principal(request, ENDPOINT_OPERATIONS_ROLE)
    body = await read_object(request)
    require_identifier(body, "name", "httpMethod")
    return parse_model(EndpointIdentifier, body)


async def get_endpoint(request: Request) -> Response:
    target = await _identified(request)
    endpoint = _backend(request).get_endpoint(*_proxy_ref(request), target.name, target.http_method)
    return json_response(endpoint_json(endpoint))


async def endpoint_policies(request: Request) -> Response:
    target = await _identified(request)
    policies = _backend(request).endpoint_policies(*_proxy_ref(request), target.name, target.http_method)
    return json_response(policies.model_dump(mode="json", by_alias=True))


async def delete_endpoint(request: Request) -> Response:
    target = await _identified(request)
    await in_writer(request, _backend(request).delete_endpoint, *_proxy_ref(request), target.name,
                            target.http_method)
    return success()


async def _settings_target(request: Request) -> tuple[dict[str, Any], EndpointTarget]:
    _principal(request, ENDPOINT_OPERATIONS_ROLE)
    body = await read_object(request)
    require_identifier(body, "identifierName", "identifierHttpMethod")
    target = parse_model(EndpointTarget, {k: body[k] for k in ("identifierName", "identifierHttpMethod")})
    return body, target


async def update_status(request: Request) -> Response:
    body, target = await _settings_target(request)
    if body.get("active") is None:
        raise FieldRequiredError("active")
    update = parse_model(EndpointStatusUpdate, body)
    await in_writer(
        request,
        _backend(request).set_status,
        *_proxy_ref(request),
        target.identifier_name,
        target.identifier_http_method,
        update.active,
    )
    return success()


async def update_cache(request: Request) -> Response:
    body, target = await _settings_target(request)
    raw = _settings_object(body, "cacheSettings")
    if raw.get("handlingAction") is None:
        raise HandlingActionRequiredError()
    settings = parse_model(CacheSettings, raw, "cacheSettings")
    await in_writer(
        request,
        _backend(request).set_cache,
        *_proxy_ref(request),
        target.identifier_name,
        target.identifier_http_method,
        settings,
    )
    return success()


async def update_wsa(request: Request) -> Response:
    body, target = await _settings_target(request)
    settings = parse_model(WsaSettings, _settings_object(body, "wsaSettings"), "wsaSettings")
    await in_writer(
        request,
        _backend(request).set_wsa,
        *_proxy_ref(request),
        target.identifier_name,
        target.identifier_http_method,
        settings,
    )
    return success()


# -- RLCL create, update, delete (product documentation; the spec does not show them) ----------


async def _rlcl_spec(request: Request, path_name: str | None = None) -> RlclSpec:
    """The RLCL body; an update may leave ``name`` out (the documented cURL example does)."""
    _principal(request, RLCL_OPERATIONS_ROLE)
    body = await read_object(request)
    if path_name is not None and "name" not in body:
        body["name"] = path_name
    if _is_blank(body.get("name")):
        raise RlclNameEmptyError()
    return parse_model(RlclSpec, body)


async def rlcl_create(request: Request) -> Response:
    """https://github.com/apinizer/management-api-docs/blob/main/02-api-reference/12-rlcl/crud/create-rlcl.md"""
    spec = await _rlcl_spec(request)
    _backend(request).rlcl_create(str(request.path_params["projectName"]), spec)
    return success()


async def rlcl_update(request: Request) -> Response:
    """https://github.com/apinizer/management-api-docs/blob/main/02-api-reference/12-rlcl/crud/update-rlcl.md"""
    project, name = _rlcl_ref(request)
    spec = await _rlcl_spec(request, name)
    _backend(request).rlcl_update(project, name, spec)
    return success()


async def rlcl_remove(request: Request) -> Response:
    """https://github.com/apinizer/management-api-docs/blob/main/02-api-reference/12-rlcl/crud/delete-rlcl.md"""
    _principal(request, RLCL_OPERATIONS_ROLE)
    _backend(request).rlcl_remove(*_rlcl_ref(request))
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
    _principal(request, RLCL_OPERATIONS_ROLE)
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
    await in_writer(request, _backend(request).rlcl_add, *_rlcl_ref(request),
                    entries.endpoint_rate_limit_list)
    return success()


async def rlcl_replace(request: Request) -> Response:
    entries = await _rate_limit_list(request)
    await in_writer(request, _backend(request).rlcl_replace, *_rlcl_ref(request),
                            entries.endpoint_rate_limit_list)
    return success()


async def rlcl_delete(request: Request) -> Response:
    entries = await _rate_limit_list(request, keys_only=True)
    await in_writer(request, _backend(request).rlcl_delete, *_rlcl_ref(request),
                            entries.endpoint_rate_limit_list)
    return success()


# -- health -----------------------------------------------------------------------------------


async def healthcheck(request: Request) -> Response:
    return PlainTextResponse("OK")


async def hello(request: Request) -> Response:
    """Any valid token, no role: a check of authentication alone.

    https://github.com/apinizer/management-api-docs/blob/main/02-api-reference/16-test/secure-hello.md
    """
    _principal(request)
    return PlainTextResponse(f"Hello {request.path_params['name']}")
