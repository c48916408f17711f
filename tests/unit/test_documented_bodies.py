"""The request and response bodies of the product's documentation pages, replayed through the
models and the client (``httpx.MockTransport``): what a page shows is what the client sends, reads
or raises. Bodies are copied from the pages as they stand; only the cURL examples' outer
``identifierName``/``identifierHttpMethod`` are passed as the method's arguments.
"""

from __future__ import annotations

import copy
from typing import Any

import httpx
import pytest

from _documented_bodies import BASIC_CACHE, CURL_1_CACHE, CURL_2_CACHE, CUSTOM_KEY_CACHE, UPDATE_RLCL
from apinizer_pulumi.client import ApinizerClient, BadRequestError, RateLimitError
from apinizer_pulumi.models import (
    CacheKeyVariable,
    CacheSettings,
    EndpointCacheUpdate,
    EndpointRateLimitKey,
    MessageContentType,
    RlclSpec,
    RlclUpdate,
    Variable,
    VariableDataType,
)

from ._fake_gateway import FakeGateway, body

DOCS = "https://github.com/apinizer/management-api-docs/blob/main/"
PROJECT, PROXY, RLCL = "MyProject", "MyAPI", "PremiumUserRLCL"
RLCL_ENDPOINTS = f"/apiops/projects/{PROJECT}/rlcl/{RLCL}/endpoints/"
CACHE = f"/apiops/projects/{PROJECT}/apiProxies/{PROXY}/endpoints/cache/"

# -- 02-api-reference/12-rlcl/endpoints/delete-endpoints.md --------------------------------------

DELETE_ENDPOINTS_CURL = {
    "endpointRateLimitList": [
        {"apiProxyName": "MyAPI", "endpointName": "/users", "endpointHTTPMethod": "GET"}
    ]
}


def test_delete_endpoints_sends_the_documented_keys_only_body(
    gateway: FakeGateway, client: ApinizerClient
) -> None:
    client.rlcl.delete_endpoints(PROJECT, RLCL, DELETE_ENDPOINTS_CURL["endpointRateLimitList"])
    assert (gateway.last.method, gateway.last.url.path) == ("DELETE", RLCL_ENDPOINTS)
    assert body(gateway.last) == DELETE_ENDPOINTS_CURL


def test_delete_endpoints_takes_the_key_model_and_snake_case(
    gateway: FakeGateway, client: ApinizerClient
) -> None:
    client.rlcl.delete_endpoints(
        PROJECT,
        RLCL,
        [
            EndpointRateLimitKey(api_proxy_name="MyAPI", endpoint_name="/users", endpoint_http_method="GET"),
            {"api_proxy_name": "MyAPI", "endpoint_name": "ALL"},
        ],
    )
    assert body(gateway.last)["endpointRateLimitList"] == [
        DELETE_ENDPOINTS_CURL["endpointRateLimitList"][0],
        {"apiProxyName": "MyAPI", "endpointName": "ALL"},
    ]


@pytest.mark.parametrize(
    ("entry", "problem"),
    [
        ({"apiProxyName": "MyAPI", "endpointName": "/users"}, "entries[0].endpoint_http_method"),
        (
            {"apiProxyName": "MyAPI", "endpointName": "ALL", "endpointHTTPMethod": "GET"},
            "entries[0].endpoint_http_method",
        ),
        ({"endpointName": "/users", "endpointHTTPMethod": "GET"}, "entries[0].api_proxy_name"),
        (
            {
                "apiProxyName": "MyAPI",
                "endpointName": "/users",
                "endpointHTTPMethod": "GET",
                "permittedMessageCount": 5,
            },
            "entries[0].time_interval_period_length",
        ),
    ],
)
def test_a_delete_entry_still_follows_the_rules(
    entry: dict[str, Any], problem: str, gateway: FakeGateway, client: ApinizerClient
) -> None:
    with pytest.raises(ValueError) as caught:
        client.rlcl.delete_endpoints(PROJECT, RLCL, [entry])
    assert problem in [where for where, _ in caught.value.problems]  # type: ignore[attr-defined]
    assert gateway.api_requests == []


def test_whole_entries_are_still_deleted_as_given(gateway: FakeGateway, client: ApinizerClient) -> None:
    whole = {
        **DELETE_ENDPOINTS_CURL["endpointRateLimitList"][0],
        "permittedMessageCount": 100,
        "timeIntervalPeriodLength": 1,
        "timeInterval": "ONE_MINUTE",
        "cacheConnectionTimeoutInSeconds": 3,
        "cacheErrorHandlingType": "FAIL",
        "timeIntervalWindowType": "FIXED",
    }
    client.rlcl.delete_endpoints(PROJECT, RLCL, [whole])
    sent = body(gateway.last)["endpointRateLimitList"][0]
    assert {key: sent[key] for key in whole} == whole


# -- 02-api-reference/12-rlcl/crud/update-rlcl.md -------------------------------------------------

UPDATE_RLCL_CURL = UPDATE_RLCL


def test_update_rlcl_sends_the_documented_body_without_name(
    gateway: FakeGateway, client: ApinizerClient
) -> None:
    client.rlcl.update(PROJECT, UPDATE_RLCL_CURL, rlcl_name=RLCL)
    assert (gateway.last.method, gateway.last.url.path) == ("PUT", f"/apiops/projects/{PROJECT}/rlcl/{RLCL}/")
    # Every documented field as shown; the one not shown, targetVariable, as the documented null.
    assert body(gateway.last) == {**UPDATE_RLCL_CURL, "targetVariable": None}


def test_update_rlcl_with_a_spec_names_the_rlcl_by_it(gateway: FakeGateway, client: ApinizerClient) -> None:
    client.rlcl.update(PROJECT, RlclSpec.model_validate({**UPDATE_RLCL_CURL, "name": RLCL}))
    assert gateway.last.url.path == f"/apiops/projects/{PROJECT}/rlcl/{RLCL}/"
    assert body(gateway.last)["name"] == RLCL


def test_update_rlcl_documented_error(gateway: FakeGateway, client: ApinizerClient) -> None:
    gateway.script(
        "PUT",
        f"/apiops/projects/{PROJECT}/rlcl/{RLCL}/",
        httpx.Response(
            400, json={"error": "bad_request", "error_description": "RLCL (PremiumUserRLCL) is not found!"}
        ),
    )
    with pytest.raises(BadRequestError, match=r"RLCL \(PremiumUserRLCL\) is not found!$"):
        client.rlcl.update(PROJECT, RlclUpdate.model_validate(UPDATE_RLCL_CURL), rlcl_name=RLCL)


# -- 02-api-reference/04-api-proxies/endpoints/update-endpoint-cache.md ---------------------------

IDENTIFIERS = {"identifierName": "/api/users", "identifierHttpMethod": "GET"}
BASIC = {**IDENTIFIERS, "cacheSettings": BASIC_CACHE}
CUSTOM_KEY = {**IDENTIFIERS, "cacheSettings": CUSTOM_KEY_CACHE}
CURL_1 = {**IDENTIFIERS, "cacheSettings": CURL_1_CACHE}
CURL_2 = {**IDENTIFIERS, "cacheSettings": CURL_2_CACHE}
#: What the spec's defaults fill in where a cURL example leaves a field out.
CACHE_DEFAULTS = {
    "cacheActive": False,
    "cacheOnlyHttpGetRequests": True,
    "cacheKeyType": "QUERY_PARAMS",
    "cacheStorageType": "DISTRIBUTED",
    "invalidationRequiresAuthn": False,
    "cacheNullValue": False,
    "variableList": [],
}


@pytest.mark.parametrize(
    "documented", [BASIC, CUSTOM_KEY, CURL_1, CURL_2], ids=["basic", "custom-cache-key", "curl-1", "curl-2"]
)
def test_set_cache_sends_every_documented_body(
    documented: dict[str, Any], gateway: FakeGateway, client: ApinizerClient
) -> None:
    original = copy.deepcopy(documented)
    client.endpoints.set_cache(PROJECT, PROXY, "/api/users", "GET", documented["cacheSettings"])
    assert (gateway.last.method, gateway.last.url.path) == ("PATCH", CACHE)
    assert body(gateway.last) == {
        **documented,
        "cacheSettings": {**CACHE_DEFAULTS, **documented["cacheSettings"]},
    }
    assert documented == original


@pytest.mark.parametrize("documented", [BASIC, CUSTOM_KEY], ids=["basic", "custom-cache-key"])
def test_the_full_bodies_round_trip_through_the_model(documented: dict[str, Any]) -> None:
    assert EndpointCacheUpdate.model_validate(documented).to_api() == documented


def test_the_custom_key_variables_are_cache_key_variables() -> None:
    settings = CacheSettings.model_validate(CUSTOM_KEY["cacheSettings"])
    assert all(isinstance(v, CacheKeyVariable) for v in settings.variable_list)
    assert [v.data_type for v in settings.variable_list] == [VariableDataType.STRING] * 2
    assert settings.variable_list[0].header_name is None


def test_a_plain_variable_is_welcome_in_the_cache_key() -> None:
    header = Variable(name="u", type="HEADER", header_name="X-User")
    settings = CacheSettings(
        name="c", handling_action="STOP", cache_key_type="CUSTOM", variable_list=[header]
    )
    assert isinstance(settings.variable_list[0], CacheKeyVariable)
    assert settings.to_api()["variableList"] == [{"name": "u", "type": "HEADER", "headerName": "X-User"}]


@pytest.mark.parametrize(
    "variable",
    [{"name": "userId", "type": "HEADER"}, {"name": "apiVersion", "type": "PARAMETER"}],
)
def test_outside_the_cache_key_a_variable_still_needs_its_source(variable: dict[str, Any]) -> None:
    with pytest.raises(ValueError, match="is required when type is"):
        Variable.model_validate(variable)
    with pytest.raises(ValueError, match="is required when type is"):
        RlclSpec.model_validate({"name": "r", "targetVariable": variable})


def test_update_endpoint_cache_documented_errors(gateway: FakeGateway, client: ApinizerClient) -> None:
    gateway.script(
        "PATCH",
        CACHE,
        httpx.Response(
            404,
            json={
                "error": "not_found",
                "error_description": "Endpoint with name (/api/users) and HTTP method (GET) is not found!",
            },
        ),
    )
    with pytest.raises(Exception) as caught:
        client.endpoints.set_cache(PROJECT, PROXY, "/api/users", "GET", BASIC["cacheSettings"])
    assert caught.value.is_endpoint_not_found  # type: ignore[attr-defined]


# -- 03-appendix/variable-definition.md and 03-appendix/enum-reference.md -------------------------

VARIABLE_EXAMPLES = [
    {
        "name": "apiKeyVariable",
        "description": "Extracts API key from header",
        "type": "HEADER",
        "headerName": "X-API-Key",
    },
    {
        "name": "userIdFromQuery",
        "description": "Extracts user ID from query parameter",
        "type": "PARAMETER",
        "paramType": "QUERY",
        "paramName": "userId",
    },
    {
        "name": "orderIdFromPath",
        "description": "Extracts order ID from path",
        "type": "PARAMETER",
        "paramType": "PATH",
        "paramName": "orderId",
        "paramPath": "/orders/{orderId}",
    },
    {
        "name": "usernameFromForm",
        "description": "Extracts username from form data",
        "type": "PARAMETER",
        "paramType": "FORM",
        "paramName": "username",
        "formName": "username",
    },
    {
        "name": "customerNameFromXml",
        "description": "Extracts customer name from XML body",
        "type": "BODY",
        "messageContentType": "XML",
        "xpathValue": "//customer/firstName",
    },
    {
        "name": "emailFromJson",
        "description": "Extracts email address from JSON body",
        "type": "BODY",
        "messageContentType": "JSON",
        "jsonPathValue": "$.user.contact.email",
    },
    {
        "name": "rawBody",
        "description": "Extracts raw body content",
        "type": "BODY",
        "messageContentType": "ALL_BODY",
    },
    {
        "name": "requestTime",
        "description": "Extracts request time from system context",
        "type": "CONTEXT_VALUES",
        "contextValue": "DATETIME_EPOCH_MILLIS",
        "zoneId": "Europe/Istanbul",
    },
    {
        "name": "clientIp",
        "description": "Extracts client IP address",
        "type": "CONTEXT_VALUES",
        "contextValue": "REQUEST_REMOTE_ADDRESS",
    },
    {
        "name": "customVariable",
        "description": "Custom variable with script",
        "type": "CUSTOM",
        "initWithScript": True,
        "scriptLanguage": "JAVASCRIPT",
        "scriptBody": "return request.header['X-User-ID'];",
    },
]


@pytest.mark.parametrize("example", VARIABLE_EXAMPLES, ids=lambda e: e["name"])
def test_every_variable_example_round_trips(example: dict[str, Any]) -> None:
    assert Variable.model_validate(example).to_api() == example


def test_form_message_content_type(gateway: FakeGateway, client: ApinizerClient) -> None:
    form = {"name": "username", "type": "BODY", "messageContentType": "FORM", "dataType": "STRING"}
    assert Variable.model_validate(form).message_content_type is MessageContentType.FORM
    settings = {"name": "c", "handlingAction": "STOP", "cacheKeyType": "CUSTOM", "variableList": [form]}
    client.endpoints.set_cache(PROJECT, PROXY, "/api/users", "GET", settings)
    assert body(gateway.last)["cacheSettings"]["variableList"] == [form]


@pytest.mark.parametrize("language", ["GROOVY", "JAVASCRIPT"])
def test_script_language_is_the_documented_enum(language: str) -> None:
    custom = {
        "name": "c",
        "type": "CUSTOM",
        "initWithScript": True,
        "scriptLanguage": language,
        "scriptBody": "1",
    }
    assert Variable.model_validate(custom).to_api()["scriptLanguage"] == language
    with pytest.raises(ValueError, match="script_language"):
        Variable.model_validate({**custom, "scriptLanguage": "PYTHON"})


# -- 01-getting-started/error-handling.md ---------------------------------------------------------


def test_the_documented_validation_errors_are_kept(gateway: FakeGateway, client: ApinizerClient) -> None:
    documented = {
        "error": "validation_failed",
        "error_description": "Validation failed",
        "validation_errors": [
            {"field": "name", "message": "Name is required"},
            {"field": "email", "message": "Invalid email format"},
        ],
    }
    gateway.script("PATCH", CACHE, httpx.Response(400, json=documented))
    with pytest.raises(BadRequestError) as caught:
        client.endpoints.set_cache(PROJECT, PROXY, "/api/users", "GET", BASIC["cacheSettings"])
    assert caught.value.error == "validation_failed"
    assert caught.value.validation_errors == documented["validation_errors"]
    assert str(caught.value).endswith("[name: Name is required; email: Invalid email format]")


def test_the_documented_rate_limit_body(gateway: FakeGateway) -> None:
    from ._fake_gateway import make_client

    documented = {
        "error": "rate_limit_exceeded",
        "error_description": "Rate limit exceeded. Please try again later.",
        "retry_after": 60,
    }
    gateway.script("PATCH", CACHE, httpx.Response(429, json=documented))
    with make_client(gateway, max_retries=0) as client, pytest.raises(RateLimitError) as caught:
        client.endpoints.set_cache(PROJECT, PROXY, "/api/users", "GET", BASIC["cacheSettings"])
    assert (caught.value.retry_after, caught.value.validation_errors) == (60.0, [])
