"""The emulator's errors: each class serializes to the API's error body ``{error, error_description}``.

Handlers never build error JSON themselves; a family raises one of these and the app's
exception handler turns it into a response::

    EmulatorError                           status, error, error_description
     ├── BadRequestError                    400 bad_request
     │    ├── FieldRequiredError            "<field> is required"
     │    ├── InvalidFieldError             "<field> <problem>"
     │    ├── IdentifierMissingError        "Endpoint identifier (name and httpMethod) must be ..."
     │    ├── EndpointNotFoundError         "Endpoint with name (<n>) and HTTP method (<m>) is not found!"
     │    ├── EndpointAlreadyExistsError    duplicate (name, httpMethod)
     │    ├── NotRestProxyError             create/delete on a SOAP proxy
     │    ├── NotSoapProxyError             WS-Addressing on a REST proxy (not shown; our choice)
     │    ├── HandlingActionRequiredError   "handlingAction is required"
     │    ├── EmptyRateLimitListError       "endpointRateLimitList value can not be empty!"
     │    ├── RlclProxyNotFoundError        "API Proxy with name (<n>) is not found in project!"
     │    ├── RlclEndpointNotFoundError     "API Endpoint with name (<n>) and method type ..."
     │    ├── RlclNotFoundError             "RLCL (<n>) is not found!" (product documentation)
     │    ├── RlclNameEmptyError            "name value can not be empty!" (product documentation)
     │    ├── RlclAlreadyExistsError        "An RLCL with same name (<n>) already exists in project!"
     │    ├── RlclRenameError               a PUT whose body renames the RLCL (our choice)
     │    └── (guard.py) a request with more than one Host header
     ├── InvalidRequestError                400 invalid_request (RFC 6749, the token request)
     ├── UnsupportedGrantTypeError          400 unsupported_grant_type (RFC 6749)
     ├── UnauthorizedError                  401 unauthorized_client
     │    ├── InvalidTokenError             "Invalid token"
     │    ├── BadCredentialsError           "Bad credentials"
     │    └── UnauthorizedApiAccessError    "Unauthorized API Access!"
     ├── ForbiddenError                     403 forbidden (not shown; the product's documentation)
     │    ├── MissingRoleError              a role the endpoint and RLCL operations need
     │    └── (guard.py) a foreign Host, a cross-site Origin
     ├── NotFoundError                      404 not_found
     │    ├── ProxyNotFoundError            "ApiProxy (name: <n>) was not found!"
     │    ├── CacheEndpointNotFoundError    the cache and WS-Addressing operations' endpoint-not-found
     │    └── ProjectNotFoundError          "Project '<n>' not found" (product documentation)
     ├── MethodNotAllowedError              405 method_not_allowed (no route for the method), with Allow
     └── UnsupportedMediaTypeError          415 unsupported_media_type (an inspection write that is not JSON)
"""

from __future__ import annotations

from typing import Any, ClassVar


class EmulatorError(Exception):
    """Base of every error the emulator answers with."""

    status: ClassVar[int] = 500
    error: ClassVar[str] = "server_error"

    def __init__(self, description: str) -> None:
        super().__init__(description)
        self.description = description

    def to_body(self) -> dict[str, Any]:
        return {"error": self.error, "error_description": self.description}

    def headers(self) -> dict[str, str]:
        return {}


class BadRequestError(EmulatorError):
    status = 400
    error = "bad_request"


class FieldRequiredError(BadRequestError):
    def __init__(self, field: str) -> None:
        super().__init__(f"{field} is required")


class InvalidFieldError(BadRequestError):
    def __init__(self, field: str, problem: str) -> None:
        super().__init__(f"{field} {problem}")


class IdentifierMissingError(BadRequestError):
    def __init__(self) -> None:
        super().__init__("Endpoint identifier (name and httpMethod) must be provided in request body!")


class EndpointNotFoundError(BadRequestError):
    def __init__(self, name: str, method: str) -> None:
        super().__init__(f"Endpoint with name ({name}) and HTTP method ({method}) is not found!")


class EndpointAlreadyExistsError(BadRequestError):
    def __init__(self, name: str, method: str) -> None:
        super().__init__(f"Endpoint with name ({name}) and HTTP method ({method}) already exists!")


class NotRestProxyError(BadRequestError):
    def __init__(self, operation: str) -> None:
        verb = "added to" if operation == "create" else "deleted from"
        super().__init__(f"Endpoint can only be {verb} REST API Proxies!")


class NotSoapProxyError(BadRequestError):
    def __init__(self) -> None:
        super().__init__("WS-Addressing settings can only be set on endpoints of SOAP API Proxies!")


class HandlingActionRequiredError(BadRequestError):
    def __init__(self) -> None:
        super().__init__("handlingAction is required")


class EmptyRateLimitListError(BadRequestError):
    def __init__(self) -> None:
        super().__init__("endpointRateLimitList value can not be empty!")


class RlclProxyNotFoundError(BadRequestError):
    def __init__(self, name: str) -> None:
        super().__init__(f"API Proxy with name ({name}) is not found in project!")


class RlclEndpointNotFoundError(BadRequestError):
    def __init__(self, name: str, method: str) -> None:
        super().__init__(
            f"API Endpoint with name ({name}) and method type ({method}) is not found in API Proxy!"
        )


class RlclNotFoundError(BadRequestError):
    """An unknown RLCL, in the RLCL's own operations and in those on its endpoint list.

    https://github.com/apinizer/management-api-docs/blob/main/02-api-reference/12-rlcl/crud/update-rlcl.md
    """

    def __init__(self, name: str) -> None:
        super().__init__(f"RLCL ({name}) is not found!")


class RlclNameEmptyError(BadRequestError):
    """https://github.com/apinizer/management-api-docs/blob/main/02-api-reference/12-rlcl/crud/create-rlcl.md"""

    def __init__(self) -> None:
        super().__init__("name value can not be empty!")


class RlclAlreadyExistsError(BadRequestError):
    """https://github.com/apinizer/management-api-docs/blob/main/02-api-reference/12-rlcl/crud/create-rlcl.md"""

    def __init__(self, name: str) -> None:
        super().__init__(f"An RLCL with same name ({name}) already exists in project!")


class RlclRenameError(BadRequestError):
    """The documentation says the name "must match the RLCL name in path (cannot be changed)" and
    shows no message for a mismatch; this wording is the emulator's."""

    def __init__(self, path_name: str, body_name: str) -> None:
        super().__init__(
            f"RLCL name can not be changed: name ({body_name}) must match the path ({path_name})!"
        )


class InvalidRequestError(EmulatorError):
    """RFC 6749 section 5.2 ``invalid_request``: the token request is malformed."""

    status = 400
    error = "invalid_request"


class UnsupportedGrantTypeError(EmulatorError):
    status = 400
    error = "unsupported_grant_type"

    def __init__(self) -> None:
        super().__init__("grant_type must be client_credentials")


class UnauthorizedError(EmulatorError):
    status = 401
    error = "unauthorized_client"

    def headers(self) -> dict[str, str]:
        return {"WWW-Authenticate": "Bearer"}


class InvalidTokenError(UnauthorizedError):
    def __init__(self) -> None:
        super().__init__("Invalid token")


class BadCredentialsError(UnauthorizedError):
    def __init__(self) -> None:
        super().__init__("Bad credentials")


class UnauthorizedApiAccessError(UnauthorizedError):
    def __init__(self) -> None:
        super().__init__("Unauthorized API Access!")


class ForbiddenError(EmulatorError):
    status = 403
    error = "forbidden"


class MissingRoleError(ForbiddenError):
    def __init__(self, role: str) -> None:
        super().__init__(f"Access is denied! The user of this token lacks {role}.")


class NotFoundError(EmulatorError):
    status = 404
    error = "not_found"


class ProxyNotFoundError(NotFoundError):
    def __init__(self, name: str) -> None:
        super().__init__(f"ApiProxy (name: {name}) was not found!")


class CacheEndpointNotFoundError(NotFoundError):
    def __init__(self, name: str, method: str) -> None:
        super().__init__(f"Endpoint with name ({name}) and HTTP method ({method}) is not found!")


class ProjectNotFoundError(NotFoundError):
    """An RLCL created in a project that does not exist.

    The spec is silent; the wording is the documentation's example of a 404:
    https://github.com/apinizer/management-api-docs/blob/main/01-getting-started/error-handling.md
    """

    def __init__(self, name: str) -> None:
        super().__init__(f"Project '{name}' not found")


class MethodNotAllowedError(EmulatorError):
    """A known path with a method it does not take; ``Allow`` lists the methods it does take."""

    status = 405
    error = "method_not_allowed"

    def __init__(self, method: str, path: str, allowed: list[str]) -> None:
        super().__init__(f"Method {method} is not allowed for {path}")
        self.allowed = allowed

    def headers(self) -> dict[str, str]:
        return {"Allow": ", ".join(self.allowed)}


class UnsupportedMediaTypeError(EmulatorError):
    status = 415
    error = "unsupported_media_type"
