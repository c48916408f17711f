"""Bad input of every kind gets a 400 in the API's error shape, never a 500 or FastAPI's 422."""

from __future__ import annotations

import json
import random
import string

import pytest

from .conftest import Api, assert_error, endpoints_path, new_endpoint, rlcl_path

JSON_OPERATIONS = [
    ("POST", endpoints_path()),
    ("PATCH", endpoints_path()),
    ("POST", endpoints_path("details")),
    ("POST", endpoints_path("policies")),
    ("POST", endpoints_path("delete")),
    ("PATCH", endpoints_path("status")),
    ("PATCH", endpoints_path("cache")),
    ("PATCH", endpoints_path("wsa", proxy="Calculator")),
    ("POST", rlcl_path()),
    ("PUT", rlcl_path()),
    ("DELETE", rlcl_path()),
]

RAW_BODIES = [
    (b"", "Request body is missing"),
    (b"   ", "Request body is missing"),
    (b"{", "Request body is not valid JSON"),
    (b"{'name': 'x'}", "Request body is not valid JSON"),
    (b'{"name": NaN}', "Request body is not valid JSON"),
    (b"\xff\xfe\x00", "Request body is not valid JSON"),
    (b"[" * 100_000 + b"]" * 100_000, "Request body is not valid JSON"),
    (b"[]", "Request body must be a JSON object"),
    (b'"text"', "Request body must be a JSON object"),
    (b"42", "Request body must be a JSON object"),
    (b"null", "Request body must be a JSON object"),
]


@pytest.mark.parametrize(("method", "path"), JSON_OPERATIONS)
@pytest.mark.parametrize(("raw", "message"), RAW_BODIES, ids=range(len(RAW_BODIES)))
def test_unparseable_bodies_are_400(api: Api, method, path, raw, message):
    response = api.client.request(
        method, path, content=raw, headers={**api.headers(), "Content-Type": "application/json"}
    )
    assert_error(response, 400, "bad_request", message)


def test_a_body_over_one_mebibyte_is_400(api: Api):
    body = new_endpoint(description="x" * (1 << 20))
    assert_error(api.create(body), 400, "bad_request", "Request body is larger than 1048576 bytes")


@pytest.mark.parametrize(
    ("field", "value"),
    [
        ("name", 42),
        ("name", ["/x"]),
        ("name", {"a": 1}),
        ("name", True),
        ("description", 3.5),
        ("backendResourceUrl", False),
        ("httpMethod", ["GET"]),
        ("httpMethod", None),
    ],
)
def test_wrong_types_are_400(api: Api, field, value):
    response = api.create(new_endpoint(**{field: value}))
    assert_error(response, 400, "bad_request")
    assert field in response.json()["error_description"]


@pytest.mark.parametrize(
    ("field", "value", "message"),
    [
        ("name", "/x\x00y", "name must not contain NUL characters"),
        ("name", "/x\ny", "name: name must not contain control characters: U+000A at position 2"),
        ("name", "/" + "a" * 3000, "name must be at most 2048 characters"),
        ("backendResourceUrl", "/b\r\n", "backendResourceUrl must not contain control characters"),
        ("description", "nul\x00", "description must not contain NUL characters"),
        ("description", "d" * 9000, "description must be at most 8192 characters"),
        ("name", "   ", "name must not be blank"),
    ],
)
def test_odd_or_huge_strings_are_400(api: Api, field, value, message):
    assert_error(api.create(new_endpoint(**{field: value})), 400, "bad_request", message)


def _scripted_cache_settings(script_body: str) -> dict:
    """Cache settings keyed by one CUSTOM variable whose script is ``script_body``."""
    variable = {
        "name": "v",
        "type": "CUSTOM",
        "initWithScript": True,
        "scriptLanguage": "GROOVY",
        "scriptBody": script_body,
    }
    return {"name": "c", "handlingAction": "STOP", "cacheKeyType": "CUSTOM", "variableList": [variable]}


def test_huge_or_nul_strings_anywhere_in_a_body_are_400_naming_the_path(api: Api):
    settings = _scripted_cache_settings("x" * 70_000)
    body = {"identifierName": "/pets", "identifierHttpMethod": "GET", "cacheSettings": settings}
    assert_error(
        api.request("PATCH", endpoints_path("cache"), body),
        400,
        "bad_request",
        "cacheSettings.variableList[0].scriptBody must be at most 65536 characters",
    )
    settings["variableList"][0]["scriptBody"] = "return\x00"
    assert_error(
        api.request("PATCH", endpoints_path("cache"), body),
        400,
        "bad_request",
        "cacheSettings.variableList[0].scriptBody must not contain NUL characters",
    )
    entry = {"apiProxyName": "Pet\x00Store"}
    assert_error(
        api.request("POST", rlcl_path(), {"endpointRateLimitList": [entry]}),
        400,
        "bad_request",
        "endpointRateLimitList[0].apiProxyName must not contain NUL characters",
    )


def test_a_long_script_within_the_bound_is_accepted(api: Api):
    settings = _scripted_cache_settings("x" * 60_000)
    response = api.request(
        "PATCH",
        endpoints_path("cache"),
        {"identifierName": "/pets", "identifierHttpMethod": "GET", "cacheSettings": settings},
    )
    assert response.status_code == 200


@pytest.mark.parametrize("depth", [17, 500, 5000])
def test_deeply_nested_bodies_are_400(api: Api, depth):
    nested: object = "leaf"
    for _ in range(depth):
        nested = {"a": nested}
    raw = (
        json.dumps({"name": nested}).encode()
        if depth < 900
        else (b'{"name": ' + b'{"a": ' * depth + b"1" + b"}" * depth + b"}")
    )
    response = api.request("POST", endpoints_path(), content=raw)
    assert_error(response, 400, "bad_request")
    assert response.json()["error_description"] in (
        "Request body is nested deeper than 16 levels",
        "Request body is not valid JSON",
    )


def test_unicode_and_spaces_in_names_are_fine(api: Api):
    name = "/päts/ünïcödé/日本/{id} with space"
    assert api.create(new_endpoint(name, description="multi\nline ✓")).status_code == 200
    assert api.get(name, "GET").json()["endpoint"] == name


def test_unknown_routes_and_methods_answer_in_the_error_shape(api: Api):
    assert_error(
        api.request("GET", "/apiops/nothing/here"), 404, "not_found", "No route for GET /apiops/nothing/here"
    )
    assert_error(api.request("PUT", endpoints_path("details"), {}), 405, "method_not_allowed")
    # the spec's paths end with a slash; without it there is no such route
    assert_error(api.request("GET", endpoints_path().rstrip("/")), 404, "not_found")


def test_unknown_fields_are_ignored(api: Api):
    assert api.create(new_endpoint(colour="blue", id="ffffffffffffffffffffffff")).status_code == 200
    assert api.get("/toys", "GET").json()["id"] != "ffffffffffffffffffffffff"


def _random_value(rng: random.Random, depth: int = 0):
    kind = rng.randrange(9 if depth < 2 else 6)
    if kind == 0:
        return None
    if kind == 1:
        return rng.choice([True, False])
    if kind == 2:
        return rng.choice([0, -1, 2**63, 3.14, 1e308])
    if kind == 3:
        return "".join(rng.choice(string.printable) for _ in range(rng.randrange(12)))
    if kind == 4:
        return rng.choice(
            ["GET", "ALL", "STOP", "CUSTOM", "HEADER", "ONE_MINUTE", "FIXED", "FAIL", "V200508"]
        )
    if kind == 5:
        return rng.choice(["/pets", "Add", "PetStore", "Calculator", "ALL"])
    if kind in (6, 7):
        return [_random_value(rng, depth + 1) for _ in range(rng.randrange(3))]
    return {k: _random_value(rng, depth + 1) for k in rng.sample(FIELDS, rng.randrange(4))}


FIELDS = [
    "name",
    "httpMethod",
    "backendResourceUrl",
    "backendHttpMethod",
    "description",
    "identifierName",
    "identifierHttpMethod",
    "active",
    "cacheSettings",
    "wsaSettings",
    "handlingAction",
    "cacheKeyType",
    "variableList",
    "type",
    "headerName",
    "endpointRateLimitList",
    "apiProxyName",
    "endpointName",
    "endpointHTTPMethod",
    "permittedMessageCount",
    "targetVariable",
    "wsaTo",
    "wsaEnabled",
]


def test_random_bodies_never_cause_a_server_error(api: Api):
    rng = random.Random(20261122)
    for _ in range(300):
        method, path = rng.choice(JSON_OPERATIONS)
        body = {k: _random_value(rng) for k in rng.sample(FIELDS, rng.randrange(1, 8))}
        response = api.request(method, path, content=json.dumps(body).encode())
        assert response.status_code in (200, 400, 404), (method, path, body, response.text)
        assert response.status_code == 200 or set(response.json()) == {"error", "error_description"}


def test_snake_case_field_names_are_not_the_apis_names(api: Api):
    # The spec's names are camelCase; a body that spells them otherwise lacks the field.
    body = {
        "name": "/snake",
        "http_method": "GET",
        "backend_resource_url": "/x",
        "backend_http_method": "GET",
    }
    assert_error(api.create(body), 400, "bad_request")
    assert "httpMethod is required" in api.create(body).json()["error_description"]
    settings = {"name": "c", "handling_action": "STOP"}
    response = api.request(
        "PATCH",
        endpoints_path("cache"),
        {"identifierName": "/pets", "identifierHttpMethod": "GET", "cacheSettings": settings},
    )
    assert_error(response, 400, "bad_request", "handlingAction is required")
    entry = {
        "api_proxy_name": "PetStore",
        "endpointName": "ALL",
        "permittedMessageCount": 1,
        "timeIntervalPeriodLength": 1,
        "timeInterval": "ONE_MINUTE",
        "cacheConnectionTimeoutInSeconds": 1,
        "cacheErrorHandlingType": "FAIL",
        "timeIntervalWindowType": "FIXED",
    }
    response = api.request("POST", rlcl_path(), {"endpointRateLimitList": [entry]})
    assert_error(response, 400, "bad_request", "endpointRateLimitList[0].apiProxyName is required")


_PETS = {"identifierName": "/pets", "identifierHttpMethod": "GET"}


@pytest.mark.parametrize(
    ("path", "body", "field"),
    [
        (endpoints_path("status"), {**_PETS, "active": "yes"}, "active"),
        (endpoints_path("status"), {**_PETS, "active": 0}, "active"),
        (
            endpoints_path("cache"),
            {**_PETS, "cacheSettings": {"name": "c", "handlingAction": "STOP", "ttl": "60"}},
            "cacheSettings.ttl",
        ),
        (
            endpoints_path("cache"),
            {**_PETS, "cacheSettings": {"name": "c", "handlingAction": "STOP", "cacheActive": "true"}},
            "cacheSettings.cacheActive",
        ),
        (
            endpoints_path("wsa", proxy="Calculator"),
            {"identifierName": "Add", "identifierHttpMethod": "POST", "wsaSettings": {"wsaEnabled": 1}},
            "wsaSettings.wsaEnabled",
        ),
    ],
)
def test_strings_and_numbers_are_not_coerced_to_booleans_or_integers(api: Api, path, body, field):
    response = api.request("PATCH", path, body)
    assert_error(response, 400, "bad_request")
    assert response.json()["error_description"].startswith(f"{field}:"), response.json()
