"""What the keys and secrets families' HTTP handlers share: roles, the clock, the update pages' query
parameters, and the CPU-heavy reading of key material off the event loop.

Roles: ROLE_API_SECURITY for every operation ("required for all keys and secrets operations", and
the spec names certificates among its objects), and ROLE_DEPLOY_UNDEPLOY_PROXIES as well for the
writes, which deploy:
https://github.com/apinizer/management-api-docs/blob/main/02-api-reference/08-keys-secrets/index.md
"""

from __future__ import annotations

import sqlite3
from collections.abc import Callable, Mapping
from dataclasses import dataclass
from datetime import UTC, datetime
from typing import Any, Protocol, TypeVar

from pydantic import BaseModel
from starlette.requests import Request
from starlette.responses import Response

from . import auth, jwks, key_families
from .auth import ROLE_DEPLOY_UNDEPLOY_PROXIES
from .web import Route, clock, json_response, principal, project_name, read, read_object, write

ROLE_API_SECURITY = "ROLE_API_SECURITY"
R = TypeVar("R")


def security(request: Request, *, writes: bool = False) -> None:
    caller = principal(request, ROLE_API_SECURITY)
    if writes:
        caller.require_role(ROLE_DEPLOY_UNDEPLOY_PROXIES)


def now(request: Request) -> datetime:
    """The emulator's clock (which tests move forward), for certificate expiry and generated keys."""
    return datetime.fromtimestamp(clock(request), UTC)


def remakes_jwks(request: Request) -> bool:
    """The update pages' ``updateReferencedJwks`` and ``updateScope``."""
    params = request.query_params
    return key_families.referenced_jwks_update(params.get("updateReferencedJwks"), params.get("updateScope"))


async def off_loop(call: Callable[..., R], *args: Any) -> R:
    """``call(*args)`` on the bounded, low-priority CPU threads (a 4096-bit RSA key takes seconds)."""
    return await auth.PASSWORD_HASHING.run(lambda: call(*args))


def listed(found: list[dict[str, Any]]) -> Response:
    return json_response({"success": True, "resultList": found})


class MaterialState(Protocol):
    """What a material family's state module (:mod:`crypto_keys`, :mod:`keystores`) offers its routes."""

    def read_spec(self, body: Mapping[str, Any], /) -> Any: ...
    def create(self, db: sqlite3.Connection, project: str, spec: Any, /) -> dict[str, Any]: ...
    def update(
        self, db: sqlite3.Connection, project: str, current: str, spec: Any, /
    ) -> tuple[str, dict[str, Any]]: ...
    def delete(self, db: sqlite3.Connection, project: str, name: str, /) -> tuple[str, dict[str, Any]]: ...
    def list_all(self, db: sqlite3.Connection, project: str, /) -> list[dict[str, Any]]: ...
    def get_one(self, db: sqlite3.Connection, project: str, name: str, /) -> dict[str, Any]: ...


@dataclass(frozen=True)
class MaterialFamily:
    """A family whose object is a JSON body of per-environment material (crypto keys, keystores):
    its name in messages, its pages and models, and its state module, from which
    :func:`material_routes` makes the five documented operations."""

    kind: str
    collection: str
    item_parameter: str
    state: MaterialState
    spec_model: type[BaseModel]
    list_model: type[BaseModel]
    response_model: type[BaseModel]


def _updated(
    db: sqlite3.Connection, family: MaterialFamily, project: str, current: str, spec: Any, remake: bool
) -> dict[str, Any]:
    object_id, answer = family.state.update(db, project, current, spec)
    if remake:
        jwks.remake_from(db, project, object_id)
    return answer


def _deleted(db: sqlite3.Connection, family: MaterialFamily, project: str, name: str) -> dict[str, Any]:
    object_id, answer = family.state.delete(db, project, name)
    jwks.detach_from(db, object_id)
    return answer


def material_routes(family: MaterialFamily) -> list[Route]:
    """List, get, create, update (``updateReferencedJwks`` makes the JWKs made from the object again,
    in the same transaction) and delete (its JWKs are detached). The body is read, every file and
    key opened, off the event loop before the write."""
    item = f"{family.collection}{{{family.item_parameter}}}/"

    def name(request: Request) -> str:
        return str(request.path_params[family.item_parameter])

    async def list_all(request: Request) -> Response:
        security(request)
        return listed(read(request, family.state.list_all, project_name(request)))

    async def get_one(request: Request) -> Response:
        security(request)
        return listed([read(request, family.state.get_one, project_name(request), name(request))])

    async def create(request: Request) -> Response:
        security(request, writes=True)
        spec = await off_loop(family.state.read_spec, await read_object(request))
        return json_response(await write(request, family.state.create, project_name(request), spec))

    async def update(request: Request) -> Response:
        security(request, writes=True)
        remake = remakes_jwks(request)
        spec = await off_loop(family.state.read_spec, await read_object(request))
        return json_response(
            await write(request, _updated, family, project_name(request), name(request), spec, remake)
        )

    async def delete(request: Request) -> Response:
        security(request, writes=True)
        return json_response(await write(request, _deleted, family, project_name(request), name(request)))

    kind = family.kind
    return [
        ("GET", family.collection, list_all, f"List a project's {kind}s", None, family.list_model),
        ("GET", item, get_one, f"Get a {kind}", None, family.list_model),
        ("POST", family.collection, create, f"Create a {kind} and deploy it", family.spec_model,
         family.response_model),
        ("PUT", item, update, f"Update a {kind} and deploy it", family.spec_model, family.response_model),
        ("DELETE", item, delete, f"Delete a {kind} and undeploy it", None, family.response_model),
    ]
