"""Authentication as ``httpx.Auth`` flows: a fixed bearer token, or client credentials
(``POST /apiops/auth/token``).

Both put ``Authorization: Bearer <token>`` on each request. :class:`ClientCredentialsAuth` gets
the token itself with the form-encoded token request, keeps it until shortly before
``expires_in`` runs out, and on a 401 fetches a new one once and repeats the request once.
The token request is yielded from the flow, so it goes through the same ``httpx.Client`` and
transport as everything else; a lock makes many threads' first calls share one fetch.

When the token request fails, the flow ends and its response is what ``httpx`` returns: the
client then reports the failure as the token request's (``POST /apiops/auth/token -> 401``).
Neither class shows its secrets in ``repr()``.
"""

from __future__ import annotations

import json
import threading
import time
from collections.abc import Callable, Generator
from dataclasses import dataclass, field
from typing import TYPE_CHECKING, Any

import httpx

from ..models._checks import DEFAULT_TOKEN_LIFETIME, token_problem
from ._constants import TOKEN_REFRESH_FRACTION, TOKEN_REFRESH_MARGIN
from ._parsing import parse_success

if TYPE_CHECKING:
    from ..models import TokenResponse

__all__ = ["TOKEN_REQUEST_EXTENSION", "BearerTokenAuth", "ClientCredentialsAuth", "is_token_request"]

#: Marks the token requests this module makes, so the client can tell their answers apart.
TOKEN_REQUEST_EXTENSION = "apinizer_token_request"

_Flow = Generator[httpx.Request, httpx.Response, None]


def is_token_request(request: httpx.Request) -> bool:
    """True for a token request made on the way to an operation by :class:`ClientCredentialsAuth`."""
    return bool(request.extensions.get(TOKEN_REQUEST_EXTENSION))


def _bearer(request: httpx.Request, token: str) -> None:
    request.headers["Authorization"] = f"Bearer {token}"


@dataclass(frozen=True, slots=True)
class PlainToken:
    """A token answer that :class:`~apinizer_pulumi.models.TokenResponse` accepts as it stands."""

    access_token: str = field(repr=False)  # a credential: never in a repr
    expires_in: int


def plain_token(body: bytes) -> PlainToken | None:
    """The token of an answer in the plain shape the gateway sends, read without building a model.

    ``{"access_token": "<printable ASCII>", "token_type": "<text>", "expires_in": <integer>}``
    (the last two may be missing, other fields are ignored) gives the same token and lifetime
    as the model would. Anything else, None: the model then reads it, coercing what it may and
    naming the fault otherwise. It spares a provider process whose requests build no model
    (a delete's) from importing pydantic for its one token request.
    """
    try:
        answer: Any = json.loads(body)
    except (ValueError, UnicodeDecodeError):
        return None
    if not isinstance(answer, dict):
        return None
    token, kind = answer.get("access_token"), answer.get("token_type", "")
    lifetime = answer.get("expires_in", DEFAULT_TOKEN_LIFETIME)
    if type(token) is not str or not token or token_problem(token) is not None:
        return None
    if type(kind) is not str or type(lifetime) is not int:
        return None
    return PlainToken(token, lifetime)


class BearerTokenAuth(httpx.Auth):
    """A personal API access token from the console, sent as is. A 401 is final: no refresh exists."""

    def __init__(self, token: str) -> None:
        self._token = token

    def auth_flow(self, request: httpx.Request) -> _Flow:
        _bearer(request, self._token)
        yield request

    def __repr__(self) -> str:
        return "BearerTokenAuth(token='***')"


class ClientCredentialsAuth(httpx.Auth):
    """Username and password exchanged for a bearer token (``POST /apiops/auth/token``), cached and refreshed.

    ``clock`` is a monotonic clock in seconds; tests pass a fake one.
    """

    requires_request_body = True
    requires_response_body = True

    def __init__(
        self,
        token_url: str | httpx.URL,
        username: str,
        password: str,
        *,
        timeout: float | None = None,
        clock: Callable[[], float] = time.monotonic,
    ) -> None:
        self._token_url = httpx.URL(token_url)
        self._timeout = httpx.Timeout(timeout)
        self._username = username
        self._password = password
        self._clock = clock
        self._lock = threading.Lock()
        self._token: str | None = None
        self._refresh_at = 0.0

    def __repr__(self) -> str:
        return f"ClientCredentialsAuth(token_url='{self._token_url}', username='***', password='***')"

    @property
    def secrets(self) -> tuple[str, ...]:
        """What must never be shown: the password and any token currently held."""
        return tuple(s for s in (self._password, self._token) if s)

    def token_request(self) -> httpx.Request:
        """The form-encoded token request (``data=`` sets the form content type)."""
        return httpx.Request(
            "POST",
            self._token_url,
            data={
                "grant_type": "client_credentials",
                "client_id": self._username,
                "client_secret": self._password,
            },
            headers={"Accept": "application/json"},
            # A request yielded from an auth flow skips the client's defaults: set the timeout here.
            extensions={TOKEN_REQUEST_EXTENSION: True, "timeout": self._timeout.as_dict()},
        )

    def parse_token_response(self, response: httpx.Response) -> TokenResponse:
        """The token of a 2xx answer, or APIResponseValidationError when the body is not one.

        The body is a credential: the error never quotes it.
        """
        from ..models import TokenResponse

        return parse_success(
            TokenResponse, response, response.request.method, response.request.url.path,
            quote_body=False, expected="JSON with an access_token",
        )

    def clear(self) -> None:
        """Forget the cached token; the next request fetches a new one."""
        with self._lock:
            self._token = None

    def auth_flow(self, request: httpx.Request) -> _Flow:
        token = yield from self._valid_token(stale=None)
        if token is None:
            return
        _bearer(request, token)
        response = yield request
        if response.status_code != 401:
            return
        # The token may have been revoked or the server restarted: one new token, one new try.
        token = yield from self._valid_token(stale=token)
        if token is None:
            return
        _bearer(request, token)
        yield request

    def token_flow(self) -> Generator[httpx.Request, httpx.Response, str | None]:
        """The cached token, or the token request to send (yielded) and its outcome.

        For a caller that sends the request itself (one request, no retries); close the generator
        when done, which releases the lock held across the fetch.
        """
        return self._valid_token(stale=None)

    def _valid_token(self, stale: str | None) -> Generator[httpx.Request, httpx.Response, str | None]:
        """The cached token, or a fresh one; None when the token request got an error status.

        ``stale`` is a token the server just refused: it is replaced unless another thread has
        already replaced it. The lock is held across the fetch so that concurrent callers wait
        for it instead of each sending their own; closing the flow releases it.
        """
        with self._lock:
            token = self._token
            if token is not None and token != stale and self._clock() < self._refresh_at:
                return token
            asked_at = self._clock()
            response = yield self.token_request()
            if not response.is_success:
                return None
            # Any 2xx must carry a token: were it passed on, the client would take the token
            # request's answer for the operation's (a 201 would read as an empty endpoint list).
            parsed = plain_token(response.content) or self.parse_token_response(response)
            lifetime = float(parsed.expires_in)
            margin = min(TOKEN_REFRESH_MARGIN, lifetime * TOKEN_REFRESH_FRACTION)
            self._token = parsed.access_token
            self._refresh_at = asked_at + lifetime - margin
            return self._token
