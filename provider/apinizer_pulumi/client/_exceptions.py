"""Every error the client raises, and the one function that maps an error response to its class.

Exception tree::

    ApinizerError                       the root: catch this to catch everything below
     ├── ConfigurationError             bad client settings (no base URL, no or conflicting credentials)
     ├── APIConnectionError             no HTTP answer at all (refused, reset, DNS, TLS): url, attempts
     │    └── APITimeoutError           ... because a timeout ran out
     ├── APIResponseValidationError     a 2xx answer that is not what the spec says it is
     └── APIStatusError                 an error status: status_code, error, error_description,
          │                             method, path (the gateway's ``{error, error_description}``)
          ├── BadRequestError           400 bad_request
          ├── AuthenticationError       401 unauthorized_client
          ├── PermissionDeniedError     403
          ├── NotFoundError             404 not_found
          ├── ConflictError             409
          ├── RateLimitError            429
          └── InternalServerError       500 and above

``str()`` of a status error reads like the request line and the gateway's answer::

    POST /apiops/projects/P/apiProxies/A/endpoints/ -> 400 bad_request: Endpoint can only be ...

No exception holds or prints a credential: the method and path are those of the request (the
token request's form body is never part of them), and the client redacts its own secrets from
any server text it quotes and from the text of a transport error (h11 quotes a refused header).
"""

from __future__ import annotations

import json
import re
from typing import Any

import httpx

from ._constants import ERROR_SNIPPET_LENGTH

__all__ = [
    "APIConnectionError",
    "APIResponseValidationError",
    "APIStatusError",
    "APITimeoutError",
    "ApinizerError",
    "AuthenticationError",
    "BadRequestError",
    "ConfigurationError",
    "ConflictError",
    "InternalServerError",
    "NotFoundError",
    "PermissionDeniedError",
    "RateLimitError",
    "is_endpoint_not_found",
    "make_status_error",
    "redact_secrets",
]


class ApinizerError(Exception):
    """Root of every error raised by :mod:`apinizer_pulumi.client`."""


class ConfigurationError(ApinizerError, ValueError):
    """The client's settings are missing or contradict each other; the message names the setting."""


class APIConnectionError(ApinizerError):
    """The request got no HTTP answer: connection refused or reset, DNS or TLS failure.

    ``url`` is the full address that was tried and ``attempts`` how many times (1 plus the
    retries made), so that one line says where and how hard the client tried::

        GET http://127.0.0.1:18080/apiops/projects/Demo/apiProxies/PetStore/endpoints/ failed
        after 4 attempts: ConnectError: [Errno 111] Connection refused
    """

    def __init__(
        self,
        method: str,
        path: str,
        message: str,
        *,
        url: str | None = None,
        attempts: int = 1,
        sent: bool = True,
    ) -> None:
        self.method = method
        self.path = path
        self.url = url or path
        self.attempts = attempts
        #: False when the last attempt provably never left (connection refused, connect or pool
        #: timeout): the server cannot have carried it out. True when it may have.
        self.sent = sent
        #: What went wrong, without the request line: ``ConnectError: [Errno 111] ...``.
        self.detail = message
        tries = "1 attempt" if attempts == 1 else f"{attempts} attempts"
        super().__init__(f"{method} {self.url} failed after {tries}: {message}")

    def __reduce__(self) -> tuple[Any, ...]:
        # Keyword arguments defeat Exception's default pickling, and errors cross the Pulumi
        # provider's process boundary.
        return (
            _rebuild_connection_error,
            (type(self), self.method, self.path, self.detail, self.url, self.attempts, self.sent),
        )


def _rebuild_connection_error(
    cls: type[APIConnectionError],
    method: str,
    path: str,
    message: str,
    url: str,
    attempts: int,
    sent: bool = True,
) -> APIConnectionError:
    return cls(method, path, message, url=url, attempts=attempts, sent=sent)


class APITimeoutError(APIConnectionError):
    """A connect, read, write or pool timeout ran out before an answer came."""


class APIResponseValidationError(ApinizerError):
    """A successful status whose body is not the JSON the spec describes (or says ``success: false``)."""

    def __init__(self, method: str, path: str, status_code: int, message: str) -> None:
        self.method = method
        self.path = path
        self.status_code = status_code
        super().__init__(f"{method} {path} -> {status_code}: {message}")


class APIStatusError(ApinizerError):
    """The gateway answered with an error status.

    ``error`` and ``error_description`` are the two fields of the API's error body. When the body
    is not that JSON (an HTML page from a proxy in front, an empty body) ``error`` is ``"unknown"``
    and ``error_description`` a short, whitespace-collapsed snippet of the text.
    """

    def __init__(
        self,
        *,
        status_code: int,
        error: str,
        error_description: str,
        method: str,
        path: str,
        retry_after: float | None = None,
        response: httpx.Response | None = None,
    ) -> None:
        self.status_code = status_code
        self.error = error
        self.error_description = error_description
        self.method = method
        self.path = path
        #: Seconds the server asked to wait (``Retry-After`` or ``retry_after``), when it said so.
        self.retry_after = retry_after
        self.response = response
        super().__init__(self._message())

    def _message(self) -> str:
        head = f"{self.method} {self.path} -> {self.status_code} {self.error}"
        return f"{head}: {self.error_description}" if self.error_description else head

    def __reduce__(self) -> tuple[Any, ...]:
        # Keyword-only __init__ defeats Exception's default pickling; errors cross process
        # boundaries in the Pulumi provider, so rebuild them from their fields (response dropped).
        return (_rebuild_status_error, (type(self), self._fields()))

    def _fields(self) -> dict[str, Any]:
        return {
            "status_code": self.status_code,
            "error": self.error,
            "error_description": self.error_description,
            "method": self.method,
            "path": self.path,
            "retry_after": self.retry_after,
        }

    @property
    def is_endpoint_not_found(self) -> bool:
        """True when this says that no endpoint matches the (name, httpMethod) pair."""
        return is_endpoint_not_found(self)


def _rebuild_status_error(cls: type[APIStatusError], fields: dict[str, Any]) -> APIStatusError:
    return cls(**fields)


class BadRequestError(APIStatusError):
    """400: a missing or invalid field, an unknown endpoint, a wrong proxy type, a duplicate."""


class AuthenticationError(APIStatusError):
    """401: the token is invalid, expired or revoked, the credentials are wrong, or the caller
    lacks the system role the report needs."""


class PermissionDeniedError(APIStatusError):
    """403: authenticated, but the user lacks the role the operation needs."""


class NotFoundError(APIStatusError):
    """404: the API proxy does not exist (and, in the cache operation, the endpoint)."""


class ConflictError(APIStatusError):
    """409: the change collides with the gateway's current state."""


class RateLimitError(APIStatusError):
    """429: the management API itself is rate limiting this caller."""


class InternalServerError(APIStatusError):
    """500 and above: the gateway, or something in front of it, failed."""


# Tracebacks and reprs name a class by its __module__: show the path users import it from, not
# this private module. Pickling follows the same path, which re-exports every class.
for _cls in (
    ApinizerError,
    ConfigurationError,
    APIConnectionError,
    APITimeoutError,
    APIResponseValidationError,
    APIStatusError,
    BadRequestError,
    AuthenticationError,
    PermissionDeniedError,
    NotFoundError,
    ConflictError,
    RateLimitError,
    InternalServerError,
):
    _cls.__module__ = "apinizer_pulumi.client"
del _cls

_STATUS_CLASSES: dict[int, type[APIStatusError]] = {
    400: BadRequestError,
    401: AuthenticationError,
    403: PermissionDeniedError,
    404: NotFoundError,
    409: ConflictError,
    429: RateLimitError,
}


def _error_class(status_code: int) -> type[APIStatusError]:
    if status_code >= 500:
        return InternalServerError
    return _STATUS_CLASSES.get(status_code, APIStatusError)


def _snippet(text: str) -> str:
    collapsed = " ".join(text.split())
    if len(collapsed) > ERROR_SNIPPET_LENGTH:
        return collapsed[: ERROR_SNIPPET_LENGTH - 3] + "..."
    return collapsed


def _error_fields(response: httpx.Response) -> tuple[str, str, Any]:
    """(error, error_description, parsed JSON or None) of an error response, never failing."""
    try:
        text = response.text
    except (UnicodeDecodeError, LookupError):
        text = ""
    try:
        body = json.loads(text) if text.strip() else None
    except ValueError:
        body = None
    if isinstance(body, dict) and isinstance(body.get("error"), str):
        description = body.get("error_description")
        return body["error"], description if isinstance(description, str) else "", body
    if not text.strip():
        return "unknown", f"(empty body; {response.reason_phrase or 'no reason phrase'})", body
    return "unknown", _snippet(text), body


def redact_secrets(text: str, secrets: tuple[str, ...]) -> str:
    """``text`` with every secret replaced by ``***``, also where it is quoted as a Python or
    bytes literal (``b'Bearer tok\\n'``, as h11 quotes a header value it refuses)."""
    forms = {
        form
        for secret in secrets
        if secret
        for form in (secret, repr(secret)[1:-1], repr(secret.encode())[2:-1])
    }
    for form in sorted(forms, key=len, reverse=True):
        text = text.replace(form, "***")
    return text


def make_status_error(
    response: httpx.Response,
    method: str,
    path: str,
    *,
    retry_after: float | None = None,
    redact: tuple[str, ...] = (),
    attach_response: bool = True,
) -> APIStatusError:
    """The exception for an error ``response`` to ``method path``, its class chosen by status.

    ``redact`` lists secrets that must not reach the message even if the server echoes them;
    ``attach_response=False`` keeps the response (and the request it holds) off the exception.
    """
    error, description, _ = _error_fields(response)
    error, description = redact_secrets(error, redact), redact_secrets(description, redact)
    cls = _error_class(response.status_code)
    return cls(
        status_code=response.status_code,
        error=error,
        error_description=description,
        method=method,
        path=path,
        retry_after=retry_after,
        response=response if attach_response else None,
    )


_ENDPOINT_NOT_FOUND = (
    # The documented answer of get, policies, delete, status and update.
    re.compile(r"^Endpoint with name \(.*\) and HTTP method \(.*\) is not found!?$", re.DOTALL),
    # Any other wording that starts with the endpoint (the cache operation answers 404 for it).
    re.compile(r"^(api\s*)?endpoint\b.*\bnot found\b", re.IGNORECASE | re.DOTALL),
)


def is_endpoint_not_found(error: APIStatusError) -> bool:
    """True when ``error`` says no endpoint matches the identifier pair.

    That is a 400 (get, policies, update, status, delete) or a 404 (cache settings) whose
    description is about the endpoint. A 404 about the proxy (``ApiProxy (name: X) was not
    found!``) is not: the proxy's absence is an error, the endpoint's an answer.
    """
    if error.status_code not in (400, 404):
        return False
    description = error.error_description.strip()
    return any(pattern.search(description) for pattern in _ENDPOINT_NOT_FOUND)
