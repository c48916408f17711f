"""HTTP handlers of JWKs (create from six sources, generate, the five parse-from operations), and
their routes:
https://github.com/apinizer/management-api-docs/blob/main/02-api-reference/08-keys-secrets/crud/index.md

A JWK is parsed, fetched or generated before the write; the write then checks the name and stores
it, so a refusal leaves nothing made. A URL is fetched by :func:`specs.fetch_url`, the spec URL's
rules (http(s) only, one deadline, a size cap, no link-local or ``/_emulator/`` target, the
``--public-spec-urls-only`` setting), within the body's ``urlOption*`` bounds.
"""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any

from pydantic import BaseModel
from starlette.requests import Request
from starlette.responses import Response

from apinizer_pulumi.models import (
    JwkCreate,
    JwkFromCertificate,
    JwkFromClipboard,
    JwkFromKey,
    JwkFromKeystore,
    JwkFromUrl,
    JwkGenerate,
    JwkList,
    JwkResponse,
    JwkUpdate,
)

from . import jwks, key_material, specs
from .errors import BadRequestError
from .key_families import read_name
from .key_family_routes import listed, now, off_loop, security
from .web import Route, json_response, project_name, read, read_object, write

JWKS = "/apiops/projects/{projectName}/jwks/"
JWK = JWKS + "{jwkName}/"
GENERATE = JWKS + "generate"

#: The create page's defaults of the URL options.
URL_OPTION_DEFAULTS = {
    "urlOptionConnectTimeout": 5000, "urlOptionReadTimeout": 10000, "urlOptionSizeLimit": 1 << 20
}


def _name(request: Request) -> str:
    return str(request.path_params["jwkName"])


def _kid(body: Mapping[str, Any]) -> str | None:
    kid = body.get("kid")
    if kid is not None and not isinstance(kid, str):
        raise BadRequestError("kid must be a string!")
    return kid or None


def _url_option(body: Mapping[str, Any], field: str) -> int:
    value = body.get(field)
    if value is None:
        return URL_OPTION_DEFAULTS[field]
    if isinstance(value, bool) or not isinstance(value, int) or value <= 0:
        raise BadRequestError(f"{field} must be a positive integer!")
    return value


async def _fetched(request: Request, url: str, body: Mapping[str, Any]) -> str:
    """The text at ``url``, within the body's timeouts (one deadline for both, never beyond the spec
    URL's) and size limit (never beyond :data:`key_material.MAX_JWK_TEXT`)."""
    milliseconds = _url_option(body, "urlOptionConnectTimeout") + _url_option(body, "urlOptionReadTimeout")
    limits = specs.FetchLimits(
        field="url",
        subject="JWK",
        timeout=min(milliseconds / 1000, specs.FETCH_TIMEOUT),
        max_bytes=min(_url_option(body, "urlOptionSizeLimit"), key_material.MAX_JWK_TEXT),
    )
    rules: specs.FetchRules = getattr(request.app.state, "spec_fetch_rules", specs.FetchRules())
    content, _ = await specs.fetch_url(url, {}, rules, limits)
    try:
        return content.decode("utf-8")
    except UnicodeDecodeError:
        raise BadRequestError(f"JWK could not be read from URL ({url}): it is not UTF-8 text") from None


async def _create(request: Request, body: Mapping[str, Any], source_type: str) -> Response:
    name, description = read_name(body, jwks.JwkNameEmptyError())
    project = project_name(request)
    if source_type == "URL":
        url = jwks.required(body, "url", source_type)
        jwk = await off_loop(key_material.parse_jwk, await _fetched(request, url, body), _kid(body), "url")
        answer = await write(request, jwks.create_parsed, project, name, description, source_type, url, jwk)
    elif source_type == "COPY_PASTE":
        text = jwks.required(body, "jwkStr", source_type)
        jwk = await off_loop(key_material.parse_jwk, text, _kid(body), "jwkStr")
        answer = await write(request, jwks.create_parsed, project, name, description, source_type, None, jwk)
    else:
        source = jwks.source_of(body, source_type)
        answer = await write(
            request, jwks.create_from_object, project, name, description, source_type, source
        )
    return json_response(answer)


async def list_jwks(request: Request) -> Response:
    """https://github.com/apinizer/management-api-docs/blob/main/02-api-reference/08-keys-secrets/crud/list-jwks.md"""
    security(request)
    return listed(read(request, jwks.list_jwks, project_name(request)))


async def get_jwk(request: Request) -> Response:
    """https://github.com/apinizer/management-api-docs/blob/main/02-api-reference/08-keys-secrets/crud/get-jwk.md"""
    security(request)
    return listed([read(request, jwks.get_jwk, project_name(request), _name(request))])


async def create_jwk(request: Request) -> Response:
    """https://github.com/apinizer/management-api-docs/blob/main/02-api-reference/08-keys-secrets/crud/create-jwk.md"""
    security(request, writes=True)
    body = await read_object(request)
    read_name(body, jwks.JwkNameEmptyError())
    return await _create(request, body, jwks.read_source_type(body))


async def update_jwk(request: Request) -> Response:
    """https://github.com/apinizer/management-api-docs/blob/main/02-api-reference/08-keys-secrets/crud/update-jwk.md"""
    security(request, writes=True)
    body = await read_object(request)
    return json_response(await write(request, jwks.update, project_name(request), _name(request), body))


async def delete_jwk(request: Request) -> Response:
    """https://github.com/apinizer/management-api-docs/blob/main/02-api-reference/08-keys-secrets/crud/delete-jwk.md"""
    security(request, writes=True)
    return json_response(await write(request, jwks.delete, project_name(request), _name(request)))


async def generate_jwk(request: Request) -> Response:
    """https://github.com/apinizer/management-api-docs/blob/main/02-api-reference/08-keys-secrets/crud/generate-jwk.md"""
    security(request, writes=True)
    body = await read_object(request)
    name, description = read_name(body, jwks.JwkNameEmptyError())
    kind = body.get("type")
    if not kind:
        raise BadRequestError("JWK type can not be empty!")
    if kind not in key_material.JWK_TYPES:
        raise BadRequestError(f"type ({kind}) is not one of {', '.join(key_material.JWK_TYPES)}!")
    params = body.get(str(kind).lower())
    if not isinstance(params, dict):
        raise BadRequestError(f"{str(kind).lower()} is required when type is {kind}!")
    jwk = await off_loop(key_material.generate_jwk, kind, params, _kid(body), now(request))
    answer = await write(
        request, jwks.create_parsed, project_name(request), name, description, "GENERATE", None, jwk
    )
    return json_response(answer)


def _parse_from(source_type: str) -> Any:
    async def handler(request: Request) -> Response:
        security(request, writes=True)
        body = await read_object(request)
        chosen = source_type
        if source_type == "PUBLIC_KEY" and body.get("sourceType") == "PRIVATE_KEY":
            chosen = "PRIVATE_KEY"
        return await _create(request, body, chosen)

    handler.__name__ = f"parse_jwk_from_{source_type.lower()}"
    return handler


#: The five parse-from operations: (path's tail, source type, body).
_PARSE_FROM: tuple[tuple[str, str, type[BaseModel]], ...] = (
    ("url", "URL", JwkFromUrl),
    ("clipboard", "COPY_PASTE", JwkFromClipboard),
    ("certificate", "CERTIFICATE", JwkFromCertificate),
    ("key", "PUBLIC_KEY", JwkFromKey),
    ("keystore", "KEYSTORE", JwkFromKeystore),
)

ROUTES: list[Route] = [
    ("GET", JWKS, list_jwks, "List a project's JWKs (no key material)", None, JwkList),
    ("GET", JWK, get_jwk, "Get a JWK with its key material", None, JwkList),
    ("POST", JWKS, create_jwk, "Create a JWK (URL, COPY_PASTE, CERTIFICATE, key or KEYSTORE) and deploy it",
     JwkCreate, JwkResponse),
    ("PUT", JWK, update_jwk, "Rename or describe a JWK (detaching it from its source) and deploy it",
     JwkUpdate, JwkResponse),
    ("DELETE", JWK, delete_jwk, "Delete a JWK and undeploy it", None, JwkResponse),
    ("POST", GENERATE, generate_jwk, "Generate a JWK (RSA, EC, OCT or OKP) and deploy it", JwkGenerate,
     JwkResponse),
    *[
        ("POST", f"{JWKS}parse-from-{tail}", _parse_from(source_type),
         f"Create a JWK from a {tail} ({source_type} source) and deploy it", body, JwkResponse)
        for tail, source_type, body in _PARSE_FROM
    ],
]
