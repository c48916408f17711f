"""The ``/_emulator/`` namespace: state, counters, reset, clock and faults (loopback only)."""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

from fastapi import FastAPI
from starlette.requests import Request
from starlette.responses import Response

from . import api_proxy_group_routes, rlcls
from .errors import BadRequestError, NotFoundError, RlclNotFoundError
from .families import Backend
from .faults import FaultInjector
from .stats import RequestStats
from .web import json_response, read, read_object, success


def _backend(request: Request) -> Backend:
    backend: Backend = request.app.state.backend
    return backend


def _stats(request: Request) -> RequestStats:
    stats: RequestStats = request.app.state.stats
    return stats


def _faults(request: Request) -> FaultInjector:
    faults: FaultInjector = request.app.state.faults
    return faults


async def state(request: Request) -> Response:
    return json_response(_backend(request).state())


def _inspect_rlcl(request: Request, inspect: Callable[..., Any]) -> Any:
    try:
        return read(request, inspect, request.path_params["project"], request.path_params["rlcl"])
    except RlclNotFoundError as exc:  # the API's 400; an inspection URL that names nothing is a 404
        raise NotFoundError(exc.description) from exc


async def rlcl_endpoints(request: Request) -> Response:
    entries = _inspect_rlcl(request, rlcls.entries)
    return json_response({"endpointRateLimitList": entries})


async def rlcl_settings(request: Request) -> Response:
    """The RLCL's own fields in the API's write shape: what the API cannot read back."""
    return json_response(_inspect_rlcl(request, rlcls.settings))


async def stats(request: Request) -> Response:
    return json_response(_stats(request).snapshot())


async def stats_reset(request: Request) -> Response:
    _stats(request).reset()
    return success()


async def reset(request: Request) -> Response:
    """Back to the fixtures; faults are cleared and the clock's offset too."""
    _faults(request).clear()
    _backend(request).reset()
    return success()


#: The clock goes no further than 3000-01-01T00:00:00Z: far beyond any token's life, and far below
#: the year 9999 past which datetime (the CLI's token listing) cannot show a date.
CLOCK_LIMIT = 32_503_680_000


async def clock(request: Request) -> Response:
    """``{"advance": seconds}`` moves the emulator's clock forward; answers ``{"now": epoch seconds}``."""
    body = await read_object(request)
    advance = body.get("advance", 0)
    if isinstance(advance, bool) or not isinstance(advance, int | float) or advance < 0:
        raise BadRequestError("advance must be a non-negative number of seconds")
    if _backend(request).now() + advance > CLOCK_LIMIT:
        raise BadRequestError("advance would take the clock past 3000-01-01T00:00:00Z")
    return json_response({"now": _backend(request).advance_clock(float(advance))})


async def get_clock(request: Request) -> Response:
    return json_response({"now": _backend(request).now()})


async def add_fault(request: Request) -> Response:
    faults = _faults(request)
    body = await read_object(request)
    seed = body.pop("seed", None)
    if seed is not None:
        if isinstance(seed, bool) or not isinstance(seed, int):
            raise BadRequestError("seed must be an integer")
        faults.seed(seed)
    faults.add(faults.parse(body))
    return json_response({"success": True, "faults": faults.active()})


async def list_faults(request: Request) -> Response:
    faults = _faults(request)
    return json_response({"faults": faults.active(), "fired": faults.fired()})


async def clear_faults(request: Request) -> Response:
    _faults(request).clear()
    return success()


def register(app: FastAPI) -> None:
    for method, path, handler in (
        ("GET", "/_emulator/state", state),
        ("GET", "/_emulator/projects/{project}/rlcl/{rlcl}/endpoints", rlcl_endpoints),
        ("GET", "/_emulator/projects/{project}/rlcl/{rlcl}", rlcl_settings),
        ("GET", "/_emulator/stats", stats),
        ("POST", "/_emulator/stats/reset", stats_reset),
        ("POST", "/_emulator/reset", reset),
        ("GET", "/_emulator/clock", get_clock),
        ("POST", "/_emulator/clock", clock),
        ("GET", "/_emulator/faults", list_faults),
        ("POST", "/_emulator/faults", add_fault),
        ("DELETE", "/_emulator/faults", clear_faults),
        *api_proxy_group_routes.INSPECTION,
    ):
        app.add_api_route(path, handler, methods=[method], include_in_schema=False)
