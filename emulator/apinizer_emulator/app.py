"""The ASGI application: the spec's routes, the inspection namespace, faults and counters."""

from __future__ import annotations

import asyncio
import ipaddress
import logging
import re
from collections.abc import Sequence
from typing import Any

import yaml
from fastapi import FastAPI
from pydantic import BaseModel
from starlette.exceptions import HTTPException as StarletteHTTPException
from starlette.requests import ClientDisconnect, Request
from starlette.responses import Response
from starlette.routing import BaseRoute, Match, Route
from starlette.types import ASGIApp, Message, Receive, Scope, Send

from apinizer_pulumi.models import ApiErrorBody

from . import inspection
from .auth_routes import HEALTH_PATH, HELLO_PATH, TOKEN_PATH
from .errors import EmulatorError, ForbiddenError, MethodNotAllowedError, NotFoundError
from .families import Backend, missing_object_paths, routes
from .faults import FaultInjector, FaultRule
from .guard import RequestGuard
from .report_routes import ORGANIZATION_REPORT as REPORT_PATH
from .specs import FetchRules
from .stats import UNMATCHED, RequestStats
from .store import WriteQueue
from .web import Handler, json_response

#: uvicorn's server log (``--log-level`` sets its level).
log = logging.getLogger("uvicorn.error")
#: The order in which ``Allow`` lists methods.
_METHOD_ORDER = ("GET", "HEAD", "POST", "PUT", "PATCH", "DELETE", "OPTIONS")
#: Paths whose template is remembered (distinct paths: a few per proxy; the bound stops growth).
_MAX_TEMPLATES = 4096

OPENAPI_PATH = "/apiops/openapi"

#: (method, path template, handler, summary, request body model, response model): every family's.
API_ROUTES = routes()
#: The pages that answer 400 for a missing object even without a body (:func:`families.missing_object_paths`).
_MISSING_OBJECT_PATHS = missing_object_paths()

#: Plain-text answers: the two test paths.
_TEXT_ANSWERS = {HEALTH_PATH: {"type": "string", "const": "OK"}, HELLO_PATH: {"type": "string"}}

#: Bodies of the settings operations wrap the settings object with the identifier pair.
_WRAPPED = {"cache": "cacheSettings", "wsa": "wsaSettings"}


#: What the document says of a 400 and a 404: most of the product's pages answer 400 for an object
#: that does not exist, those of the endpoint list, a proxy's read and the list pages 404.
_BAD_REQUEST = (
    "Bad request: a missing or invalid field, or an object that the path or the body names and that does"
    " not exist (project, API proxy, endpoint, environment, RLCL, policy, credential, group, variable)"
)
_NOT_FOUND = "Not found: the project or API proxy that the path names does not exist"


def _body_schema(path: str, model: type[BaseModel]) -> dict[str, Any]:
    ref = {"$ref": f"#/components/schemas/{model.__name__}"}
    for suffix, key in _WRAPPED.items():
        if path.endswith(f"/{suffix}/"):
            return {
                "type": "object",
                "required": ["identifierName", "identifierHttpMethod", key],
                "properties": {
                    "identifierName": {"type": "string", "minLength": 1},
                    "identifierHttpMethod": {"$ref": "#/components/schemas/HttpMethod"},
                    key: ref,
                },
            }
    return ref


def _openapi_extra(path: str, body: type[BaseModel] | None, result: type[BaseModel] | None) -> dict[str, Any]:
    extra: dict[str, Any] = {"responses": {}}
    if body is not None:
        extra["requestBody"] = {
            "required": True,
            "content": {"application/json": {"schema": _body_schema(path, body)}},
        }
    elif path == TOKEN_PATH:
        extra["requestBody"] = {
            "required": True,
            "content": {
                "application/x-www-form-urlencoded": {
                    "schema": {
                        "type": "object",
                        "required": ["grant_type", "client_id", "client_secret"],
                        "properties": {
                            "grant_type": {"const": "client_credentials"},
                            "client_id": {"type": "string", "minLength": 1},
                            "client_secret": {"type": "string", "minLength": 1},
                        },
                    }
                }
            },
        }
    ok: dict[str, Any] = {"description": "Success"}
    if result is not None:
        ok["content"] = {"application/json": {"schema": {"$ref": f"#/components/schemas/{result.__name__}"}}}
    elif path in _TEXT_ANSWERS:
        ok["content"] = {"text/plain": {"schema": _TEXT_ANSWERS[path]}}
    extra["responses"]["200"] = ok
    error = {"content": {"application/json": {"schema": {"$ref": "#/components/schemas/ApiErrorBody"}}}}
    if path == TOKEN_PATH:
        statuses = [("400", "Malformed token request"), ("401", "Bad credentials")]
    elif path == HEALTH_PATH:
        statuses = []
    elif path == REPORT_PATH:
        extra["security"] = [{"bearer": []}]
        statuses = [("401", "Invalid token, or no system administrator or analyzer role")]
    elif path == HELLO_PATH:
        extra["security"] = [{"bearer": []}]
        statuses = [("401", "Invalid token")]
    else:
        extra["security"] = [{"bearer": []}]
        statuses = [
            ("400", _BAD_REQUEST),
            ("401", "Invalid token"),
            ("403", "Missing role"),
            ("404", _NOT_FOUND),
        ]
        # The endpoint list reads no body: nothing in it can be bad. Most families' pages answer
        # 400 for a missing object too, and the API proxies' uploads are multipart.
        if body is None and path not in _MISSING_OBJECT_PATHS:
            statuses = statuses[1:]
    for status, text in statuses:
        extra["responses"][status] = {"description": text, **error}
    extra["parameters"] = [
        {"name": name, "in": "path", "required": True, "schema": {"type": "string"}}
        for name in re.findall(r"{(\w+)}", path)
    ]
    return extra


def _component_schemas() -> dict[str, Any]:
    schemas: dict[str, Any] = {}
    models = {m for _, _, _, _, body, result in API_ROUTES for m in (body, result) if m is not None}
    for model in sorted(models | {ApiErrorBody}, key=lambda m: m.__name__):
        schema = model.model_json_schema(by_alias=True, ref_template="#/components/schemas/{model}")
        schemas.update(schema.pop("$defs", {}))
        schemas[model.__name__] = schema
    # Spec 4.12: the list must not be empty. The shared model allows [] (a resource may declare
    # an empty list and then sends nothing), so the rule is stated here for the wire.
    schemas["EndpointRateLimitList"]["properties"]["endpointRateLimitList"]["minItems"] = 1
    return schemas


def _error_response(exc: EmulatorError) -> Response:
    return json_response(exc.to_body(), exc.status, exc.headers() or None)


async def _emulator_error(request: Request, exc: Exception) -> Response:
    assert isinstance(exc, EmulatorError)
    return _error_response(exc)


def _most_specific(routes: list[Route]) -> list[Route]:
    """The routes whose template has the fewest parameters: OpenAPI matches a concrete path
    (``.../apiProxies/url/``) before a templated one it also fits (``.../apiProxies/{apiProxyName}/``)."""
    if not routes:
        return routes
    fewest = min(route.path.count("{") for route in routes)
    return [route for route in routes if route.path.count("{") == fewest]


def allowed_methods(routes: list[BaseRoute], path: str) -> list[str]:
    """Every method the path's most specific template takes, in a fixed order (the ``Allow`` header)."""
    matching = [
        route
        for route in routes
        if isinstance(route, Route) and route.methods and route.path_regex.match(path)
    ]
    methods: set[str] = set()
    for route in _most_specific(matching):
        methods |= route.methods or set()
    return sorted(methods, key=lambda m: (_METHOD_ORDER.index(m) if m in _METHOD_ORDER else 99, m))


async def _http_error(request: Request, exc: Exception) -> Response:
    assert isinstance(exc, StarletteHTTPException)
    if exc.status_code == 405:
        path = request.url.path
        allowed = allowed_methods(request.app.router.routes, path)
        return _error_response(MethodNotAllowedError(request.method, path, allowed))
    if exc.status_code == 404:
        return _error_response(NotFoundError(f"No route for {request.method} {request.url.path}"))
    return json_response({"error": "error", "error_description": str(exc.detail)}, exc.status_code)


def log_disconnect(scope: Scope) -> None:
    """One line for a client that went away before its request was read: no traceback, it is
    the client's doing, not a fault of the emulator."""
    log.warning("Client disconnected before its request was read: %s %s", scope["method"], scope["path"])


async def _client_disconnect(request: Request, exc: Exception) -> Response:
    log_disconnect(request.scope)
    return Response(status_code=400)  # the server drops it: there is no one to answer


async def _unexpected_error(request: Request, exc: Exception) -> Response:
    return json_response(
        {"error": "server_error", "error_description": "Internal error of the emulator"}, 500
    )


def _json_openapi(app: FastAPI) -> None:
    """Serve the OpenAPI document with the emulator's JSON content type (FastAPI's omits the charset)."""
    assert app.openapi_url is not None
    app.router.routes[:] = [
        route for route in app.router.routes if getattr(route, "path", None) != app.openapi_url
    ]

    async def openapi_json(request: Request) -> Response:
        return json_response(app.openapi())

    app.add_route(app.openapi_url, openapi_json, methods=["GET"], include_in_schema=False)


def build_fastapi(backend: Backend, stats: RequestStats, faults: FaultInjector) -> FastAPI:
    app = FastAPI(
        title="Apinizer management API (emulator)",
        version="1.0",
        # The product's documented places: https://github.com/apinizer/management-api-docs/blob/main/03-appendix/openapi-spec.md
        openapi_url=f"{OPENAPI_PATH}.json",
        docs_url=OPENAPI_PATH,
        redoc_url=None,
        redirect_slashes=False,
    )
    app.state.backend, app.state.stats, app.state.faults = backend, stats, faults
    # What the families' handlers use (:mod:`web`): the store, the tokens, and the one thread that
    # runs the writes (see web.in_writer).
    app.state.store, app.state.tokens = backend.store, backend.tokens
    app.state.writer = WriteQueue(backend.store)
    for method, path, handler, summary, body, result in API_ROUTES:
        app.add_api_route(
            path,
            handler,
            methods=[method],
            summary=summary,
            openapi_extra=_openapi_extra(path, body, result),
            response_model=None,
        )
    inspection.register(app)
    app.add_exception_handler(EmulatorError, _emulator_error)
    app.add_exception_handler(ClientDisconnect, _client_disconnect)
    app.add_exception_handler(StarletteHTTPException, _http_error)
    app.add_exception_handler(Exception, _unexpected_error)

    def openapi() -> dict[str, Any]:
        if app.openapi_schema is None:
            schema = FastAPI.openapi(app)
            schema.setdefault("components", {}).setdefault("schemas", {}).update(_component_schemas())
            schema["components"]["securitySchemes"] = {"bearer": {"type": "http", "scheme": "bearer"}}
            app.openapi_schema = schema
        return app.openapi_schema

    app.openapi = openapi  # type: ignore[method-assign]

    async def openapi_yaml(request: Request) -> Response:
        text = yaml.safe_dump(app.openapi(), sort_keys=False, allow_unicode=True)
        return Response(text, media_type="application/yaml")

    app.add_route(f"{OPENAPI_PATH}.yaml", openapi_yaml, methods=["GET"], include_in_schema=False)
    _json_openapi(app)
    return app


def is_loopback(scope: Scope) -> bool:
    client = scope.get("client")
    if not client:
        return False
    try:
        return ipaddress.ip_address(str(client[0]).removeprefix("::ffff:")).is_loopback
    except ValueError:
        return False


async def _drop_connection(receive: Receive) -> None:
    """Close the client's connection without an answer (uvicorn: the protocol's transport)."""
    cycle = getattr(receive, "__self__", None)
    transport = getattr(cycle, "transport", None)
    if transport is None:
        raise ConnectionAbortedError("fault injection: connection dropped")
    transport.abort()
    for _ in range(100):  # let the protocol see the loss, so the server sends nothing afterwards
        if getattr(cycle, "disconnected", True):
            return
        await asyncio.sleep(0)


class EmulatorApp:
    """The ASGI entry point: loopback guard, counters and faults around the FastAPI app.

    A request that matches one of the API's routes (path and method) goes straight to its handler:
    the handlers read the request themselves, so FastAPI's per-request machinery (dependency
    solving, middleware stack, exit stacks) would only add time. Everything else (other
    methods, unknown paths, the inspection namespace, the OpenAPI document) goes through FastAPI,
    which also describes the API's routes in the OpenAPI document.
    """

    def __init__(self, app: FastAPI, guard: RequestGuard | None = None) -> None:
        self.app = app
        self.guard = guard or RequestGuard()
        self.stats: RequestStats = app.state.stats
        self.faults: FaultInjector = app.state.faults
        self._api_routes: list[BaseRoute] = [
            route for route in app.router.routes if getattr(route, "path", "").startswith("/apiops/")
        ]
        self._handlers: dict[tuple[str, str], Handler] = {
            (method, path): handler for method, path, handler, *_ in API_ROUTES
        }
        #: Each API template's methods, in the order ``Allow`` lists them.
        self._methods: dict[str, list[str]] = {
            template: allowed_methods(self._api_routes, template) for _, template, *_ in API_ROUTES
        }
        #: request path -> its template and path parameters: matching every route's regex per
        #: request costs more than the handler of a small list.
        self._templates: dict[str, tuple[str, dict[str, Any]]] = {}

    def route_of(self, scope: Scope) -> tuple[str, dict[str, Any]]:
        """The path template of the route a request goes to (whatever its method), and its parameters:
        of the templates the path fits, the one with the fewest parameters (see :func:`_most_specific`)."""
        path = scope["path"]
        found = self._templates.get(path)
        if found is None:
            found = (UNMATCHED, {})
            matches: list[tuple[Route, dict[str, Any]]] = []
            for route in self._api_routes:
                match, child = route.matches(scope)
                if match is not Match.NONE and isinstance(route, Route):
                    matches.append((route, dict(child.get("path_params", {}))))
            best = _most_specific([route for route, _ in matches])
            if best:
                route, params = next((r, p) for r, p in matches if r is best[0])
                found = (route.path, params)
            if len(self._templates) >= _MAX_TEMPLATES:
                self._templates.clear()
            self._templates[path] = found
        return found

    def template(self, scope: Scope) -> str:
        """The path template of the route a request goes to (whatever its method)."""
        return self.route_of(scope)[0]

    async def __call__(self, scope: Scope, receive: Receive, send: Send) -> None:
        if scope["type"] == "http":
            refusal = self.guard.refusal(scope)
            if refusal is not None:
                await _error_response(refusal)(scope, receive, send)
                return
            path: str = scope["path"]
            if path.startswith("/_emulator"):
                if not is_loopback(scope):
                    await _error_response(
                        ForbiddenError("The inspection namespace answers loopback clients only")
                    )(scope, receive, send)
                    return
            elif path.startswith("/apiops/"):
                method: str = scope["method"]
                template, params = self.route_of(scope)
                self.stats.count(method, template)
                rule = self.faults.take(method, path)
                if rule is not None and await self._apply(rule, scope, receive, send):
                    return
                handler = self._handlers.get((method, template))
                if handler is not None:
                    scope = {**scope, "app": self.app, "path_params": dict(params)}
                    await self._dispatch(handler, scope, receive, send)
                    return
                allowed = self._methods.get(template)
                if allowed is not None:
                    # Not FastAPI's router: it would hand ``GET .../apiProxies/url/`` to the proxy
                    # named "url", where the document's concrete path takes POST and PUT only.
                    refusal = MethodNotAllowedError(method, path, allowed)
                    await _error_response(refusal)(scope, receive, send)
                    return
        await self.app(scope, receive, send)

    @staticmethod
    async def _dispatch(handler: Handler, scope: Scope, receive: Receive, send: Send) -> None:
        """Run an API handler with the app's error handling: typed errors in the API's shape,
        anything else a 500 that is then raised for the server to log, as Starlette does."""
        try:
            response = await handler(Request(scope, receive))
        except EmulatorError as exc:
            response = _error_response(exc)
        except ClientDisconnect:
            log_disconnect(scope)
            return
        except Exception as exc:
            failure = await _unexpected_error(Request(scope, receive), exc)
            await failure(scope, receive, send)
            raise
        await response(scope, receive, send)

    async def _apply(self, rule: FaultRule, scope: Scope, receive: Receive, send: Send) -> bool:
        """Carry out a fault; True when it answered (or dropped) the request itself.

        Without ``after`` the delay comes first (a client that gives up meanwhile finds nothing
        done); with it, the request is carried out and committed first, then the delay, then its
        answer (kept, replaced or dropped): "slow, but done".
        """
        if rule.after:
            answer: list[Message] = []

            async def keep(message: Message) -> None:
                answer.append(message)

            await self.app(scope, receive, keep)
            if rule.delay:
                await asyncio.sleep(rule.delay)
            if rule.status is None and not rule.drop:
                for message in answer:
                    await send(message)
                return True
        elif rule.delay:
            await asyncio.sleep(rule.delay)
        if rule.drop:
            await _drop_connection(receive)
            return True
        if rule.status is not None:
            headers = {}
            if rule.retry_after_seconds is not None:
                headers["Retry-After"] = str(rule.retry_after_seconds)
            await json_response(rule.error_body(), rule.status, headers)(scope, receive, send)
            return True
        return False


def create_app(
    backend: Backend,
    *,
    stats: RequestStats | None = None,
    faults: FaultInjector | None = None,
    host_names: Sequence[str] = (),
    spec_fetch_rules: FetchRules | None = None,
) -> ASGIApp:
    """The emulator's ASGI application over a backend.

    :param host_names: names or addresses requests may give in their Host header besides the
        loopback ones and the connection's own address: the server's ``--host`` and ``--allow-host``.
    :param spec_fetch_rules: where a spec URL may lead (``serve --public-spec-urls-only``).
    """
    app = build_fastapi(backend, stats or RequestStats(), faults or FaultInjector())
    app.state.spec_fetch_rules = spec_fetch_rules or FetchRules()
    return EmulatorApp(app, RequestGuard(host_names))
