"""HTTP handlers of the token request (spec 4.1) and the test paths, and their routes. State and
rules are in :mod:`auth` (the app's ``state.tokens``)."""

from __future__ import annotations

import functools
from urllib.parse import parse_qs

from starlette.requests import Request
from starlette.responses import PlainTextResponse, Response

from apinizer_pulumi.models import TokenResponse

from .auth import PASSWORD_HASHING, Tokens
from .errors import InvalidRequestError, UnsupportedGrantTypeError
from .web import Route, in_writer, json_response, principal, read_body

TOKEN_PATH = "/apiops/auth/token"
HEALTH_PATH = "/apiops/test/healthcheck"
HELLO_PATH = "/apiops/test/hello/{name}"
FORM_CONTENT_TYPE = "application/x-www-form-urlencoded"


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
    tokens: Tokens = request.app.state.tokens
    # The password hash is slow on purpose: on the bounded pool, off the loop; the insert commits.
    await PASSWORD_HASHING.run(
        functools.partial(tokens.check_credentials, values["client_id"], values["client_secret"])
    )
    issued = await in_writer(request, tokens.issue_access_token, values["client_id"])
    return json_response(
        issued.model_dump(mode="json"), headers={"Cache-Control": "no-store", "Pragma": "no-cache"}
    )


async def healthcheck(request: Request) -> Response:
    return PlainTextResponse("OK")


async def hello(request: Request) -> Response:
    """Any valid token, no role: a check of authentication alone.

    https://github.com/apinizer/management-api-docs/blob/main/02-api-reference/16-test/secure-hello.md
    """
    principal(request)
    return PlainTextResponse(f"Hello {request.path_params['name']}")


# (method, path template, handler, summary, request body model, response model)
TOKEN_ROUTES: list[Route] = [
    (
        "POST",
        TOKEN_PATH,
        token,
        "Obtain an access token (form-encoded client credentials)",
        None,
        TokenResponse,
    ),
]
TEST_ROUTES: list[Route] = [
    ("GET", HEALTH_PATH, healthcheck, "Health check (unauthenticated, text/plain OK)", None, None),
    ("GET", HELLO_PATH, hello, "Secure hello (any valid token, text/plain)", None, None),
]
ROUTES = TOKEN_ROUTES + TEST_ROUTES
