"""The exception tree, ``make_status_error`` and the endpoint-not-found rule."""

from __future__ import annotations

import pickle

import httpx
import pytest

from apinizer_pulumi.client import (
    APIConnectionError,
    ApinizerError,
    APIResponseValidationError,
    APIStatusError,
    APITimeoutError,
    AuthenticationError,
    BadRequestError,
    ConfigurationError,
    ConflictError,
    DeploymentFailedError,
    InternalServerError,
    InvalidArgumentError,
    InvalidArgumentTypeError,
    NotFoundError,
    PermissionDeniedError,
    RateLimitError,
    is_endpoint_not_found,
    make_status_error,
)

PATH = "/apiops/projects/P/apiProxies/A/endpoints/"


def status_error(status: int, **kwargs: object) -> APIStatusError:
    return make_status_error(httpx.Response(status, **kwargs), "POST", PATH)  # type: ignore[arg-type]


@pytest.mark.parametrize(
    ("child", "parent"),
    [
        (ConfigurationError, ApinizerError),
        (ConfigurationError, ValueError),
        (InvalidArgumentError, ApinizerError),
        (InvalidArgumentError, ValueError),
        (InvalidArgumentTypeError, InvalidArgumentError),
        (InvalidArgumentTypeError, TypeError),
        (APIConnectionError, ApinizerError),
        (APITimeoutError, APIConnectionError),
        (APIResponseValidationError, ApinizerError),
        (APIStatusError, ApinizerError),
        (BadRequestError, APIStatusError),
        (AuthenticationError, APIStatusError),
        (PermissionDeniedError, APIStatusError),
        (NotFoundError, APIStatusError),
        (ConflictError, APIStatusError),
        (RateLimitError, APIStatusError),
        (InternalServerError, APIStatusError),
    ],
)
def test_tree(child: type[Exception], parent: type[Exception]) -> None:
    assert issubclass(child, parent)


def test_status_classes_are_siblings() -> None:
    assert not issubclass(NotFoundError, BadRequestError)
    assert not issubclass(APIStatusError, APIConnectionError)


@pytest.mark.parametrize(
    ("status", "cls"),
    [
        (400, BadRequestError),
        (401, AuthenticationError),
        (403, PermissionDeniedError),
        (404, NotFoundError),
        (409, ConflictError),
        (429, RateLimitError),
        (500, InternalServerError),
        (502, InternalServerError),
        (503, InternalServerError),
        (504, InternalServerError),
        (599, InternalServerError),
        (405, APIStatusError),
        (418, APIStatusError),
        (422, APIStatusError),
    ],
)
def test_class_by_status(status: int, cls: type[APIStatusError]) -> None:
    exc = status_error(status, json={"error": "e", "error_description": "d"})
    assert type(exc) is cls
    assert exc.status_code == status


def test_fields_and_str() -> None:
    exc = status_error(
        400,
        json={"error": "bad_request", "error_description": "Endpoint can only be added to REST API Proxies!"},
    )
    assert (exc.error, exc.error_description, exc.method, exc.path) == (
        "bad_request",
        "Endpoint can only be added to REST API Proxies!",
        "POST",
        PATH,
    )
    assert str(exc) == f"POST {PATH} -> 400 bad_request: Endpoint can only be added to REST API Proxies!"
    assert exc.response is not None and exc.response.status_code == 400


def test_str_without_description() -> None:
    assert str(status_error(404, json={"error": "not_found"})) == f"POST {PATH} -> 404 not_found"


def test_non_string_description_is_dropped() -> None:
    exc = status_error(400, json={"error": "bad_request", "error_description": {"nested": 1}})
    assert exc.error_description == ""


def test_html_body_gives_a_collapsed_snippet() -> None:
    html = "<html>\n  <head><title>502 Bad Gateway</title></head>\n  <body>" + "x" * 500 + "</body></html>"
    exc = status_error(502, text=html, headers={"content-type": "text/html"})
    assert exc.error == "unknown"
    assert exc.error_description.startswith("<html> <head><title>502 Bad Gateway</title></head> <body>xxx")
    assert exc.error_description.endswith("...")
    assert len(exc.error_description) == 200
    assert str(exc).startswith(f"POST {PATH} -> 502 unknown: <html>")


def test_empty_body_names_the_reason_phrase() -> None:
    exc = status_error(503)
    assert (exc.error, exc.error_description) == ("unknown", "(empty body; Service Unavailable)")


def test_json_without_error_field_is_quoted() -> None:
    exc = status_error(500, json={"message": "boom"})
    assert exc.error == "unknown"
    assert exc.error_description == '{"message":"boom"}'


def test_json_array_body() -> None:
    assert status_error(400, json=[1]).error == "unknown"


def test_undecodable_body() -> None:
    exc = status_error(500, content=b"\xff\xfe\xfa", headers={"content-type": "text/plain; charset=utf-8"})
    assert exc.error == "unknown"
    assert isinstance(exc.error_description, str)


def test_secrets_are_redacted() -> None:
    response = httpx.Response(
        401,
        json={
            "error": "unauthorized_client",
            "error_description": "Bad credentials for secret-pw (token token-12345)",
        },
    )
    exc = make_status_error(response, "POST", "/apiops/auth/token", redact=("secret-pw", "token-12345", ""))
    assert exc.error_description == "Bad credentials for *** (token ***)"
    assert "secret-pw" not in str(exc) and "secret-pw" not in repr(exc)


def test_retry_after_is_kept() -> None:
    exc = make_status_error(httpx.Response(429), "GET", PATH, retry_after=4.0)
    assert isinstance(exc, RateLimitError) and exc.retry_after == 4.0


def test_status_errors_pickle() -> None:
    exc = status_error(
        404, json={"error": "not_found", "error_description": "ApiProxy (name: A) was not found!"}
    )
    copy = pickle.loads(pickle.dumps(exc))
    assert type(copy) is NotFoundError
    assert str(copy) == str(exc)
    assert (copy.status_code, copy.method, copy.path) == (404, "POST", PATH)
    assert copy.response is None


def test_connection_error_str() -> None:
    exc = APITimeoutError("GET", PATH, "ReadTimeout: timed out", url="http://gw.test" + PATH, attempts=4)
    assert str(exc) == f"GET http://gw.test{PATH} failed after 4 attempts: ReadTimeout: timed out"
    assert (exc.method, exc.path, exc.detail) == ("GET", PATH, "ReadTimeout: timed out")


def test_every_client_error_shows_its_public_path() -> None:
    import apinizer_pulumi.client as public

    for name in public.__all__:
        value = getattr(public, name)
        if isinstance(value, type) and issubclass(value, Exception):
            assert value.__module__ == "apinizer_pulumi.client", name
            assert getattr(public, value.__qualname__) is value


def test_response_validation_error_str() -> None:
    exc = APIResponseValidationError("GET", PATH, 200, "the body is not a valid EndpointList")
    assert str(exc) == f"GET {PATH} -> 200: the body is not a valid EndpointList"
    assert exc.status_code == 200


@pytest.mark.parametrize(
    ("status", "description", "expected"),
    [
        (400, "Endpoint with name (/pets) and HTTP method (GET) is not found!", True),
        (400, "Endpoint with name (/a (b)) and HTTP method (ALL) is not found!", True),
        (404, "Endpoint with name (/pets) and HTTP method (GET) is not found!", True),
        (404, "Endpoint not found", True),
        (400, "API Endpoint with name (/x) and method type (GET) is not found in API Proxy!", True),
        (404, "ApiProxy (name: PetStore) was not found!", False),
        (400, "API Proxy with name (PetStore) is not found in project!", False),
        (400, "Endpoint identifier (name and httpMethod) must be provided in request body!", False),
        (400, "Endpoint with name (/pets) and HTTP method (GET) already exists!", False),
        (400, "Endpoint can only be deleted from REST API Proxies!", False),
        (401, "Endpoint with name (/pets) and HTTP method (GET) is not found!", False),
        (500, "Endpoint not found", False),
    ],
)
def test_is_endpoint_not_found(status: int, description: str, expected: bool) -> None:
    exc = status_error(status, json={"error": "x", "error_description": description})
    assert is_endpoint_not_found(exc) is expected
    assert exc.is_endpoint_not_found is expected


# -- every class pickles (errors cross the Pulumi provider's process boundary) ----------------


def _every_error() -> list[Exception]:
    errors: list[Exception] = [
        ApinizerError("this ApinizerClient is closed"),
        ConfigurationError("base_url is missing"),
        InvalidArgumentError("project", "must be a non-empty string, got ''"),
        InvalidArgumentError(
            "cache_settings",
            (("cache_settings.ttl", "Input should be greater than 0"),
             ("cache_settings.name", "Field required")),
        ),
        InvalidArgumentTypeError("entries", "must be a list of EndpointRateLimit, got dict"),
        APIConnectionError("GET", PATH, "ConnectError: x", url="http://gw" + PATH, attempts=4, sent=False),
        APITimeoutError("GET", PATH, "ReadTimeout: timed out", url="http://gw" + PATH, attempts=2),
        APIResponseValidationError("GET", PATH, 200, "the gateway answered success: false",
                                   snippet='{"success":false}'),
        APIResponseValidationError("POST", "/apiops/auth/token", 200, "not a token"),
        DeploymentFailedError("POST", PATH, [("test", "Environment (test) is not published"),
                                             ("prod", None)]),
    ]
    for status in (400, 401, 403, 404, 409, 418, 429, 500, 503):
        errors.append(
            make_status_error(
                httpx.Response(
                    status,
                    json={"error": "e", "error_description": "d",
                          "validation_errors": [{"field": "f", "message": "m"}]},
                ),
                "PATCH",
                PATH,
                retry_after=3.0,
            )
        )
    return errors


def test_every_exception_class_of_the_tree_is_covered_by_the_pickle_test() -> None:
    import apinizer_pulumi.client as public

    classes = {
        value for name in public.__all__
        if isinstance(value := getattr(public, name), type) and issubclass(value, Exception)
    }
    assert classes == {type(error) for error in _every_error()} | {APIStatusError}


@pytest.mark.parametrize("error", _every_error(), ids=lambda e: type(e).__name__)
def test_every_error_survives_pickling(error: Exception) -> None:
    copy = pickle.loads(pickle.dumps(error))
    assert type(copy) is type(error)
    assert str(copy) == str(error)
    fields = {k: v for k, v in vars(error).items() if k != "response"}
    assert {k: v for k, v in vars(copy).items() if k != "response"} == fields


def test_plain_status_error_pickles() -> None:
    error = make_status_error(httpx.Response(418, json={"error": "teapot"}), "GET", PATH)
    assert type(error) is APIStatusError
    assert str(pickle.loads(pickle.dumps(error))) == str(error)


def test_response_validation_error_keeps_its_fields() -> None:
    exc = APIResponseValidationError("GET", PATH, 200, "the gateway answered success: false", snippet="{}")
    assert (exc.method, exc.path, exc.status_code, exc.detail, exc.snippet) == (
        "GET", PATH, 200, "the gateway answered success: false", "{}"
    )
    assert str(exc) == f"GET {PATH} -> 200: the gateway answered success: false (body: {{}})"


def test_invalid_argument_error_names_the_argument() -> None:
    exc = InvalidArgumentError("project", "must be a non-empty string, got ''")
    assert str(exc) == "project: must be a non-empty string, got ''"
    assert exc.argument == "project"
    assert exc.problems == (("project", "must be a non-empty string, got ''"),)


# -- validation_errors of a 400 -------------------------------------------------------------

#: The documented body: https://github.com/apinizer/management-api-docs/blob/main/01-getting-started/error-handling.md
VALIDATION_FAILED = {
    "error": "validation_failed",
    "error_description": "Validation failed",
    "validation_errors": [
        {"field": "name", "message": "Name is required"},
        {"field": "email", "message": "Invalid email format"},
    ],
}


def test_validation_errors_are_kept_on_the_exception() -> None:
    exc = status_error(400, json=VALIDATION_FAILED)
    assert isinstance(exc, BadRequestError)
    assert exc.validation_errors == VALIDATION_FAILED["validation_errors"]
    assert str(exc) == (
        f"POST {PATH} -> 400 validation_failed: Validation failed "
        "[name: Name is required; email: Invalid email format]"
    )
    assert pickle.loads(pickle.dumps(exc)).validation_errors == exc.validation_errors


@pytest.mark.parametrize(
    "body",
    [
        {"error": "bad_request", "error_description": "x"},
        {"error": "bad_request", "error_description": "x", "validation_errors": None},
        {"error": "bad_request", "error_description": "x", "validation_errors": "name is required"},
        {"error": "bad_request", "error_description": "x", "validation_errors": ["name", 3]},
    ],
)
def test_absent_or_malformed_validation_errors_give_an_empty_list(body: dict[str, object]) -> None:
    exc = status_error(400, json=body)
    assert exc.validation_errors == []
    assert str(exc) == f"POST {PATH} -> 400 bad_request: x"


def test_validation_errors_are_redacted() -> None:
    body = {"error": "validation_failed", "error_description": "Validation failed",
            "validation_errors": [{"field": "token", "message": "tok-secret-123 is not allowed"}]}
    exc = make_status_error(httpx.Response(400, json=body), "POST", PATH, redact=("tok-secret-123",))
    assert exc.validation_errors == [{"field": "token", "message": "*** is not allowed"}]
    assert "tok-secret-123" not in str(exc)


# -- redaction: whole tokens only, short secrets only as credentials ----------------------------

NOT_FOUND = "Endpoint with name (/pets) and HTTP method (GET) is not found!"


@pytest.mark.parametrize("secret", ["e", "t", "o", "GET", "pets", "method", "/", "(", "!"])
def test_a_short_secret_does_not_garble_the_message(secret: str) -> None:
    exc = make_status_error(
        httpx.Response(400, json={"error": "bad_request", "error_description": NOT_FOUND}),
        "POST", PATH, redact=(secret,),
    )
    assert exc.error_description == NOT_FOUND
    assert exc.is_endpoint_not_found


@pytest.mark.parametrize(
    ("text", "secret", "expected"),
    [
        ("Illegal header value b'Bearer x\\n'", "x", "Illegal header value b'Bearer ***\\n'"),
        ("Bearer e", "e", "Bearer ***"),
        ("client_secret=pw&grant_type=x", "pw", "client_secret=***&grant_type=x"),
        ("token abcd-1234 expired", "abcd-1234", "token *** expired"),
        ("tokens abcd-12345 and xabcd-1234 differ", "abcd-1234", "tokens abcd-12345 and xabcd-1234 differ"),
        ("(abcd-1234)", "abcd-1234", "(***)"),
        ("petstore-token petstore-tokens", "petstore-token", "*** petstore-tokens"),
        ("Bad credentials for admin", "admin", "Bad credentials for admin"),
    ],
)
def test_redaction_replaces_whole_occurrences(text: str, secret: str, expected: str) -> None:
    from apinizer_pulumi.client._exceptions import redact_secrets

    assert redact_secrets(text, (secret,)) == expected
