"""Every error the client raises, and the one function that maps an error response to its class.

Exception tree::

    ApinizerError                       the root: catch this to catch everything below
     ├── ConfigurationError             bad client settings (no base URL, no or conflicting credentials);
     │                                  also a ValueError
     ├── InvalidArgumentError           a bad argument to a method (``cache_settings.ttl: ...``);
     │    │                             also a ValueError
     │    └── InvalidArgumentTypeError  ... of the wrong kind altogether; also a TypeError
     ├── APIConnectionError             no HTTP answer at all (refused, reset, DNS, TLS): url, attempts
     │    └── APITimeoutError           ... because a timeout ran out
     ├── APIResponseValidationError     a 2xx answer that is not a success: not the JSON the spec
     │                                  describes, or ``success: false``; method, path, snippet
     └── APIStatusError                 an error status: status_code, error, error_description,
          │                             validation_errors, method, path (the gateway's
          │                             ``{error, error_description, validation_errors?}``)
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
Every class pickles (errors cross the Pulumi provider's process boundary).
"""

from __future__ import annotations

import json
import re
from typing import Any

import httpx

from ._constants import ERROR_SNIPPET_LENGTH, MIN_REDACTED_SECRET_LENGTH

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
    "InvalidArgumentError",
    "InvalidArgumentTypeError",
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


class InvalidArgumentError(ApinizerError, ValueError):
    """An argument of a client method is empty or invalid; nothing was sent.

    ``argument`` is the parameter's name (``cache_settings``) and ``problems`` the dotted path
    and reason of each fault found in it, so the message reads
    ``cache_settings.ttl: Input should be greater than 0``. A ``ValueError`` too, so code that
    caught the ``ValueError`` or pydantic ``ValidationError`` (itself a ``ValueError``) raised
    before still catches it.
    """

    def __init__(self, argument: str, problems: str | tuple[tuple[str, str], ...]) -> None:
        if isinstance(problems, str):
            problems = ((argument, problems),)
        self.argument = argument
        self.problems = tuple(problems)
        super().__init__("; ".join(f"{where}: {why}" for where, why in self.problems))

    def __reduce__(self) -> tuple[Any, ...]:
        return (type(self), (self.argument, self.problems))


class InvalidArgumentTypeError(InvalidArgumentError, TypeError):
    """An argument of the wrong kind altogether (a mapping where a list belongs); also a ``TypeError``."""


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
    """A successful status whose body is not a success: not the JSON the spec describes, or one
    that says ``success: false``.

    ``detail`` says what is wrong and ``snippet`` holds the start of the body (whitespace
    collapsed, the client's secrets redacted; empty for the token response, which is a credential)::

        GET /apiops/projects/Demo/apiProxies/PetStore/endpoints/ -> 200: the gateway answered
        success: false (body: {"success":false})
    """

    def __init__(
        self, method: str, path: str, status_code: int, message: str, *, snippet: str = ""
    ) -> None:
        self.method = method
        self.path = path
        self.status_code = status_code
        self.detail = message
        self.snippet = snippet
        text = f"{method} {path} -> {status_code}: {message}"
        super().__init__(f"{text} (body: {snippet})" if snippet else text)

    def __reduce__(self) -> tuple[Any, ...]:
        # The message passed to Exception is not __init__'s signature: rebuild from the fields.
        return (
            _rebuild_response_validation_error,
            (type(self), self.method, self.path, self.status_code, self.detail, self.snippet),
        )


def _rebuild_response_validation_error(
    cls: type[APIResponseValidationError],
    method: str,
    path: str,
    status_code: int,
    message: str,
    snippet: str,
) -> APIResponseValidationError:
    return cls(method, path, status_code, message, snippet=snippet)


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
        validation_errors: list[dict[str, Any]] | None = None,
        response: httpx.Response | None = None,
    ) -> None:
        self.status_code = status_code
        self.error = error
        self.error_description = error_description
        self.method = method
        self.path = path
        #: Seconds the server asked to wait (``Retry-After`` or ``retry_after``), when it said so.
        self.retry_after = retry_after
        #: The body's ``validation_errors`` items (``{"field": ..., "message": ...}``), as the
        #: product's error-handling page documents them for a 400; empty when there are none.
        self.validation_errors: list[dict[str, Any]] = list(validation_errors or [])
        self.response = response
        super().__init__(self._message())

    def _message(self) -> str:
        head = f"{self.method} {self.path} -> {self.status_code} {self.error}"
        text = f"{head}: {self.error_description}" if self.error_description else head
        if self.validation_errors:
            text += " [" + "; ".join(_describe_field_error(item) for item in self.validation_errors) + "]"
        return text

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
            "validation_errors": self.validation_errors,
        }

    @property
    def is_endpoint_not_found(self) -> bool:
        """True when this says that no endpoint matches the (name, httpMethod) pair."""
        return is_endpoint_not_found(self)


def _describe_field_error(item: dict[str, Any]) -> str:
    field, message = item.get("field"), item.get("message")
    if isinstance(field, str) and isinstance(message, str):
        return f"{field}: {message}"
    return message if isinstance(message, str) else json.dumps(item, ensure_ascii=False)


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
    InvalidArgumentError,
    InvalidArgumentTypeError,
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


def snippet(text: str) -> str:
    """``text`` with its whitespace collapsed, cut to a length fit for one line of a message."""
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
    return "unknown", snippet(text), body


def _validation_errors(body: Any, redact: tuple[str, ...]) -> list[dict[str, Any]]:
    """The ``validation_errors`` items of an error body (objects only), their texts redacted."""
    items = body.get("validation_errors") if isinstance(body, dict) else None
    if not isinstance(items, list):
        return []
    return [
        {key: redact_secrets(v, redact) if isinstance(v, str) else v for key, v in item.items()}
        for item in items
        if isinstance(item, dict)
    ]


#: Characters that continue a word: a secret is redacted only where none of them touches it.
_WORD = r"[^\W_]"
#: Where even a short secret is surely the credential: after ``Bearer`` or a form field's ``=``.
_CREDENTIAL_CONTEXT = r"(?:(?<=Bearer )|(?<=client_secret=)|(?<=password=))"


def redact_secrets(text: str, secrets: tuple[str, ...]) -> str:
    """``text`` with every whole occurrence of a secret replaced by ``***``, also where it is
    quoted as a Python or bytes literal (``b'Bearer tok\\n'``, as h11 quotes a header value).

    Only whole occurrences count (no letter or digit right before or after), so that a secret
    which happens to be part of a word leaves the word alone. A secret shorter than
    ``MIN_REDACTED_SECRET_LENGTH`` is replaced only where it stands as a credential
    (``Bearer x``, ``client_secret=x``): anywhere else it would garble the gateway's message
    (a one-letter token would turn ``Endpoint ... is not found!`` into asterisks).
    """
    forms = {
        form
        for secret in secrets
        if secret
        for form in (secret, repr(secret)[1:-1], repr(secret.encode())[2:-1])
    }
    for form in sorted(forms, key=len, reverse=True):
        context = "" if len(form) >= MIN_REDACTED_SECRET_LENGTH else _CREDENTIAL_CONTEXT
        pattern = f"{context}(?<!{_WORD}){re.escape(form)}(?!{_WORD})"
        text = re.sub(pattern, "***", text)
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
    error, description, body = _error_fields(response)
    error, description = redact_secrets(error, redact), redact_secrets(description, redact)
    cls = _error_class(response.status_code)
    return cls(
        status_code=response.status_code,
        error=error,
        error_description=description,
        method=method,
        path=path,
        retry_after=retry_after,
        validation_errors=_validation_errors(body, redact),
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
