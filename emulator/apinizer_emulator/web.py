"""What every family's HTTP handlers share: reading and checking a request, authorizing its
caller, running its work on the store, and answering in the API's JSON.

Every write runs on the app's writer thread (:func:`write`, :func:`in_writer`): a commit waits
for the disk, and the event loop must go on serving meanwhile. One thread, because SQLite takes
one writer at a time anyway (many threads would only queue on its lock), and it commits the
writes waiting together in one transaction (:class:`store.WriteQueue`). Slow CPU work (a password
hash) runs on :data:`auth.PASSWORD_HASHING`, bounded so that a flood of wrong passwords cannot
starve the event loop. Reads stay on the loop (:func:`read`): each is one short snapshot on the
loop thread's own connection, which no write blocks (WAL).

Bodies are read and validated here, not by FastAPI, so that every bad body is a 400 in the
API's error shape with a message naming the field (never FastAPI's 422). Statuses and
messages come from the families' typed errors.
"""

from __future__ import annotations

import functools
import json
import math
import sqlite3
from collections.abc import Awaitable, Callable
from dataclasses import dataclass
from typing import Any, Protocol, TypeVar

from pydantic import BaseModel, ValidationError
from starlette.datastructures import UploadFile
from starlette.formparsers import MultiPartException
from starlette.requests import ClientDisconnect, Request
from starlette.responses import Response

from . import specs
from .auth import ROLE_DEPLOY_UNDEPLOY_PROXIES, ROLE_MANAGE_PROXIES, Principal
from .errors import (
    BadRequestError,
    EmulatorError,
    FieldRequiredError,
    IdentifierMissingError,
    InvalidFieldError,
)
from .rules import validation_message
from .store import Store, WriteQueue

MAX_BODY_BYTES = 1 << 20

MULTIPART = "multipart/form-data"
#: The ``Content-Type`` of every JSON answer, as the product's documentation shows its answers.
JSON_CONTENT_TYPE = "application/json;charset=UTF-8"
#: Bounds the spec does not give (section 8): no field of the API needs more.
MAX_STRING_LENGTH = 65_536
MAX_DEPTH = 16
#: Integers are 64-bit signed, as the gateway's (Java) and SQLite's are; the documented lower
#: bounds (counts and sizes above zero) are the models'.
MIN_INTEGER, MAX_INTEGER = -(2**63), 2**63 - 1

M = TypeVar("M", bound=BaseModel)
R = TypeVar("R")

Handler = Callable[[Request], Awaitable[Response]]
#: A family's route: (method, path template, handler, summary, request body model, response model).
Route = tuple[str, str, Handler, str, type[BaseModel] | None, type[BaseModel] | None]


class Authenticator(Protocol):
    """What tells the user behind a request's ``Authorization`` header (the app's ``state.tokens``):
    :meth:`auth.Tokens.authenticate`, or what the process remembers of it and the check that it
    still holds (:meth:`auth.Tokens.remembered`, :meth:`auth.Tokens.is_current`)."""

    def authenticate(self, authorization: str | None) -> Principal: ...

    def remembered(self, authorization: str | None) -> tuple[Principal, Any] | None: ...

    def is_current(self, db: sqlite3.Connection, version: Any) -> bool: ...


# -- answers ------------------------------------------------------------------------------------


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


# -- bodies -------------------------------------------------------------------------------------


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


def without_nulls(body: dict[str, Any]) -> dict[str, Any]:
    """Top-level nulls count as absent (a PATCH with ``null`` leaves the field as it is)."""
    return {key: value for key, value in body.items() if value is not None}


def is_blank(value: Any) -> bool:
    return value is None or (isinstance(value, str) and not value.strip())


def require_identifier(body: dict[str, Any], name_key: str, method_key: str) -> None:
    if is_blank(body.get(name_key)) or is_blank(body.get(method_key)):
        raise IdentifierMissingError()


def settings_object(body: dict[str, Any], key: str) -> dict[str, Any]:
    value = body.get(key)
    if value is None:
        raise FieldRequiredError(key)
    if not isinstance(value, dict):
        raise InvalidFieldError(key, "must be a JSON object")
    return value


# -- the path -----------------------------------------------------------------------------------


def project_name(request: Request) -> str:
    return str(request.path_params["projectName"])


# -- the caller ---------------------------------------------------------------------------------


#: Set on the requests of the handlers of :func:`confirmed_at_write`.
_CONFIRMED_AT_WRITE = "apinizer.caller_confirmed_at_write"
#: The request's caller as the process remembers it (an :class:`_Unconfirmed`).
_UNCONFIRMED = "apinizer.unconfirmed_caller"


@dataclass
class _Unconfirmed:
    """A caller taken from what the process remembers of its token, at tokens ``version``: it stands
    once that version is found current (``confirmed``), else its token is looked up again."""

    tokens: Authenticator
    version: Any
    role: str | None
    confirmed: bool = False


class _CallerChangedError(Exception):
    """A token or a user changed since the caller was remembered: its token is looked up again."""


def principal(request: Request, role: str | None = None) -> Principal:
    """The caller, from its token (401 without a valid one), holding ``role`` when one is named (403).

    In a handler of :func:`confirmed_at_write`, a caller the process remembers, holding ``role``, is
    taken without reading the store; its write confirms it.
    """
    tokens: Authenticator = request.app.state.tokens
    authorization = request.headers.get("authorization")
    if request.scope.get(_CONFIRMED_AT_WRITE) and _UNCONFIRMED not in request.scope:
        remembered = tokens.remembered(authorization)
        if remembered is not None and (role is None or remembered[0].has_role(role)):
            request.scope[_UNCONFIRMED] = _Unconfirmed(tokens, remembered[1], role)
            return remembered[0]
    return _authenticated(tokens, authorization, role)


def _authenticated(tokens: Authenticator, authorization: str | None, role: str | None) -> Principal:
    """The caller looked up from the store: 401 without a valid token, 403 without ``role``."""
    caller = tokens.authenticate(authorization)
    if role is not None:
        caller.require_role(role)
    return caller


def confirmed_at_write(handler: Handler) -> Handler:
    """A handler whose caller, when the process remembers its token, is confirmed by its write
    instead of by a read on the event loop: the tokens version is read on the writer's connection
    just before the write, inside its transaction when it has one (:func:`write`). A token revoked
    or a role taken away since, in any process, is then answered 401 or 403 as before, and nothing
    is written: the write finds the version changed, the token is looked up again, and the write
    goes ahead only if the caller still stands.

    An answer that leaves before a write (a bad body, say: the token comes first) or without one
    has its caller confirmed on the loop first. Only for handlers that authorize with one
    :func:`principal` call and do nothing on the caller's authority but through :func:`write`.
    Why: on the loop that one-statement read cost far more than its SQL, the interpreter lock
    passing to the writer thread at each of its SQLite calls (docs/performance.md).
    """

    @functools.wraps(handler)
    async def handle(request: Request) -> Response:
        request.scope[_CONFIRMED_AT_WRITE] = True
        try:
            response = await handler(request)
        except EmulatorError:
            _confirm(request)
            raise
        _confirm(request)
        return response

    return handle


def _confirm(request: Request) -> None:
    """The request's remembered caller checked on the loop: 401 or 403 when its token or user changed."""
    caller: _Unconfirmed | None = request.scope.get(_UNCONFIRMED)
    if caller is None or caller.confirmed:
        return
    with store_of(request).read(snapshot=False) as db:
        current = caller.tokens.is_current(db, caller.version)
    caller.confirmed = True
    if not current:
        _look_up_again(request, caller)


def _look_up_again(request: Request, caller: _Unconfirmed) -> None:
    _authenticated(caller.tokens, request.headers.get("authorization"), caller.role)


def proxy_manager(request: Request, *, deploys: bool = False) -> Principal:
    """A caller who manages API proxies (and deploys them, when the operation does)."""
    caller = principal(request, ROLE_MANAGE_PROXIES)
    if deploys:
        caller.require_role(ROLE_DEPLOY_UNDEPLOY_PROXIES)
    return caller


# -- the store ----------------------------------------------------------------------------------


def store_of(request: Request) -> Store:
    store: Store = request.app.state.store
    return store


async def in_writer(request: Request, call: Callable[..., R], *args: Any) -> R:
    """``call(*args)`` on the app's writer thread, awaited without blocking the event loop."""
    writer: WriteQueue = request.app.state.writer
    return await writer.run(functools.partial(call, *args))


def _transaction(
    store: Store, one_statement: bool, caller: _Unconfirmed | None, call: Callable[..., R], *args: Any
) -> R:
    with store.write(one_statement=one_statement) as db:
        if caller is not None:
            if not caller.tokens.is_current(db, caller.version):
                raise _CallerChangedError()
            caller.confirmed = True
        return call(db, *args)


async def write(request: Request, call: Callable[..., R], *args: Any, one_statement: bool = False) -> R:
    """``call(db, *args)`` in one write transaction, on the writer thread (see :meth:`Store.write`
    for ``one_statement``), after confirming the request's caller when it is not yet
    (:func:`confirmed_at_write`)."""
    store = store_of(request)
    caller: _Unconfirmed | None = request.scope.get(_UNCONFIRMED)
    if caller is None or caller.confirmed:
        return await in_writer(request, _transaction, store, one_statement, None, call, *args)
    try:
        return await in_writer(request, _transaction, store, one_statement, caller, call, *args)
    except _CallerChangedError:
        caller.confirmed = True  # by the lookup: what it answers stands for the whole request
        _look_up_again(request, caller)
    return await in_writer(request, _transaction, store, one_statement, None, call, *args)


def read(request: Request, call: Callable[..., R], *args: Any, snapshot: bool = True) -> R:
    """``call(db, *args)`` on one snapshot of the store (see :meth:`Store.read` for ``snapshot``)."""
    with store_of(request).read(snapshot=snapshot) as db:
        return call(db, *args)


async def multipart_parts(
    request: Request, described: str, file_field: str, max_file_bytes: int = specs.MAX_SPEC_BYTES
) -> dict[str, tuple[bytes, str]]:
    """The parts of a multipart body: name -> (bytes, file name); ``file_field`` must be a file part,
    each file at most ``max_file_bytes`` (an API spec's cap unless the family says less)."""
    content_type = request.headers.get("content-type", "")
    if not content_type.lower().startswith(MULTIPART):
        raise BadRequestError(f"Content-Type must be {MULTIPART} with the parts {described}")
    declared = request.headers.get("content-length", "")
    if declared.isdigit() and int(declared) > max_file_bytes + (1 << 20):
        raise BadRequestError(f"{file_field} is larger than {max_file_bytes} bytes")
    try:
        form = await request.form(max_files=4, max_fields=16, max_part_size=1 << 20)
    except MultiPartException as exc:
        raise BadRequestError(f"The multipart body cannot be read: {exc.message}") from None
    parts: dict[str, tuple[bytes, str]] = {}
    try:
        for name, value in form.multi_items():
            if isinstance(value, UploadFile):
                content = await value.read(max_file_bytes + 1)
                if len(content) > max_file_bytes:
                    raise BadRequestError(f"{name} is larger than {max_file_bytes} bytes")
                parts[name] = (content, value.filename or "")
            elif name == file_field:
                raise BadRequestError(f"{file_field} must be a file part")
            else:
                parts[name] = (value.encode(), "")
    finally:
        await form.close()
    return parts


class _Clock(Protocol):
    def now(self) -> float: ...


def clock(request: Request) -> float:
    """The emulator's clock in seconds since the epoch (tests move it forward)."""
    backend: _Clock = request.app.state.backend
    return backend.now()
