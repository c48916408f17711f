"""Every model rule of the spec, valid and invalid, and the exact wire names and defaults."""

from __future__ import annotations

from typing import Any

import pytest
from pydantic import BaseModel, ValidationError

from apinizer_pulumi.models import (
    AccessReport,
    ApiErrorBody,
    CacheErrorHandlingType,
    CacheHandlingAction,
    CacheKeyType,
    CacheSettings,
    CacheStorageType,
    ContextValue,
    Endpoint,
    EndpointCacheUpdate,
    EndpointIdentifier,
    EndpointList,
    EndpointPolicies,
    EndpointRateLimit,
    EndpointRateLimitList,
    EndpointSpec,
    EndpointStatusUpdate,
    EndpointUpdate,
    EndpointWsaUpdate,
    ExecutionOrder,
    HttpMethod,
    IntervalWindowType,
    MessageContentType,
    ParamType,
    RateLimitTimeInterval,
    RateLimitVariable,
    RlclSpec,
    SharingType,
    SuccessResponse,
    TokenResponse,
    Variable,
    VariableDataType,
    VariableType,
    WsaMustUnderstand,
    WsaSettings,
    WsaVersion,
    is_absolute_uri,
    is_iana_zone,
)


def locs(model: type[BaseModel], data: dict[str, Any]) -> list[tuple[Any, ...]]:
    """The ``loc`` of every validation error ``model(**data)`` raises (and it must raise)."""
    with pytest.raises(ValidationError) as caught:
        model.model_validate(data)
    return [e["loc"] for e in caught.value.errors()]


def messages(model: type[BaseModel], data: dict[str, Any]) -> str:
    with pytest.raises(ValidationError) as caught:
        model.model_validate(data)
    return str(caught.value)


# -- enums ----------------------------------------------------------------------------------

DATE_TIME_VALUES = [
    "DATETIME_YEAR",
    "DATETIME_MONTH",
    "DATETIME_DAY_OF_WEEK",
    "DATETIME_DAY_OF_MONTH",
    "DATETIME_HOUR",
    "DATETIME_MINUTE",
    "DATETIME_SECOND",
    "DATETIME_EPOCH_MILLIS",
    "DATETIME_FORMATTED_TEXT",
    "DATE_FORMATTED_TEXT",
    "TIME_FORMATTED_TEXT",
]
CONTEXT_VALUES = [
    "REQUEST_REMOTE_ADDRESS",
    "REQUEST_HTTP_METHOD",
    "REQUEST_CONTENT_TYPE",
    "REQUEST_PATH_INFO",
    "REQUEST_CONTEXT_PATH",
    "REQUEST_QUERY_STRING",
    "REQUEST_REMOTE_USER",
    "REQUEST_USERNAME_KEY",
    "REQUEST_REQUESTED_SESSION_ID",
    "REQUEST_REQUEST_URI",
    "REQUEST_CHARACTER_ENCODING",
    "REQUEST_CHARSET",
    "REQUEST_CONTENT_LENGTH",
    "REQUEST_PROTOCOL",
    "REQUEST_SCHEME",
    "REQUEST_SERVER_NAME",
    "REQUEST_SERVER_PORT",
    "REQUEST_REMOTE_HOST",
    "REQUEST_REMOTE_PORT",
    "REQUEST_LOCAL_NAME",
    "REQUEST_LOCAL_ADDR",
    "REQUEST_LOCAL_PORT",
    "REQUEST_XFORWARDED_FOR",
    "REQUEST_IS_SOAP_TO_REST",
    "REQUEST_IS_APIPROXY",
    "REQUEST_IS_APIPROXYGROUP",
    "REQUEST_IS_XWWW_FORM_URL_ENCODED",
    "REQUEST_IS_FORM_DATA",
    "REQUEST_IS_BYTE_ARRAY",
    "REQUEST_HAS_ATTACHMENT",
    "REQUEST_GZIP",
    "REQUEST_DEFLATE",
    "REQUEST_BR",
    "REQUEST_ZSTD",
    "REQUEST_IDENTITY",
    "REQUEST_COMPRESS",
    "REQUEST_HTTP_SERVLET",
    "RESPONSE_IS_BYTE_ARRAY",
    "RESPONSE_GZIP",
    "RESPONSE_DEFLATE",
    "RESPONSE_BR",
    "RESPONSE_ZSTD",
    "RESPONSE_IDENTITY",
    "RESPONSE_COMPRESS",
    "RESPONSE_STATUS_CODE",
    "RESPONSE_HTTP_SERVLET",
    "MESSAGE_CORRELATION_ID",
    "ENVIRONMENT_ID",
    "ENVIRONMENT_NAME",
    "ENVIRONMENT_CERTIFICATE",
    "ENVIRONMENT_PRIVATEKEY",
    "ENVIRONMENT_PUBLICKEY",
    "ENVIRONMENT_SECRETKEY",
    "ENVIRONMENT_KEYSTORE",
    "ENVIRONMENT_JWK",
    "APIPROXYGROUP_ID",
    "APIPROXYGROUP_NAME",
    "APIPROXY_ID",
    "APIPROXY_NAME",
    "APIMETHOD_ID",
    "APIMETHOD_NAME",
    "APIMETHOD_SOAP_ACTION",
    "APIMETHOD_HTTPMETHOD",
    "APIMETHOD_ENDPOINT",
    "APIMETHOD_BACKEND_HTTPMETHOD",
    "APIMETHOD_BACKEND_ENDPOINT",
    *DATE_TIME_VALUES,
    "CREDENTIAL_USERNAME",
    "CREDENTIAL_EMAIL",
    "CREDENTIAL_FULLNAME",
    "CREDENTIAL_SECRETKEY",
    "CREDENTIAL_CERTIFICATE",
    "CREDENTIAL_PUBLICKEY",
    "CREDENTIAL_PRIVATEKEY",
    "CREDENTIAL_KEYSTORE",
    "CREDENTIAL_TRUSTSTORE",
    "CREDENTIAL_JWK_SIGNANDVALIDATION",
    "CREDENTIAL_JWK_ENCRYPTIONANDDECRYPTION",
]


@pytest.mark.parametrize(
    ("enum", "values"),
    [
        (HttpMethod, ["GET", "POST", "PUT", "DELETE", "PATCH", "OPTIONS", "HEAD", "TRACE", "ALL"]),
        (CacheKeyType, ["QUERY_PARAMS", "CUSTOM"]),
        (CacheStorageType, ["LOCAL", "DISTRIBUTED"]),
        (CacheHandlingAction, ["CONTINUE", "STOP"]),
        (RateLimitTimeInterval, ["ONE_SECOND", "ONE_MINUTE", "ONE_HOUR", "ONE_DAY", "ONE_MONTH"]),
        (CacheErrorHandlingType, ["FAIL", "CONTINUE"]),
        (IntervalWindowType, ["FIXED", "SLIDING"]),
        (WsaMustUnderstand, ["NONE", "TRUE", "FALSE"]),
        (WsaVersion, ["V200408", "V200508"]),
        (VariableType, ["HEADER", "PARAMETER", "BODY", "CONTEXT_VALUES", "CUSTOM"]),
        (ParamType, ["QUERY", "PATH", "FORM"]),
        (MessageContentType, ["XML", "JSON", "ALL_BODY", "FORM"]),
        (SharingType, ["EXTERNAL", "INTERNAL", "BOTH", "NONE"]),
        (ContextValue, CONTEXT_VALUES),
    ],
    ids=lambda v: getattr(v, "__name__", ""),
)
def test_enums_hold_exactly_the_spec_values(enum: type, values: list[str]) -> None:
    assert [member.value for member in enum] == values  # type: ignore[attr-defined]


def test_zone_needing_context_values_are_the_date_and_time_ones() -> None:
    assert [v.value for v in ContextValue if v.needs_zone_id] == DATE_TIME_VALUES


@pytest.mark.parametrize("value", ["get", "Get", "CONNECT", "", "ANY"])
def test_http_method_rejects_other_spellings(value: str) -> None:
    assert locs(EndpointIdentifier, {"name": "/a", "httpMethod": value}) == [("http_method",)]


# -- Variable -------------------------------------------------------------------------------

VALID_VARIABLES = [
    {"name": "v", "type": "HEADER", "headerName": "X-Client"},
    {"name": "v", "type": "PARAMETER", "paramType": "QUERY", "paramName": "id"},
    {"name": "v", "type": "PARAMETER", "paramType": "PATH", "paramName": "id", "paramPath": "/pets/{id}"},
    {"name": "v", "type": "PARAMETER", "paramType": "FORM", "paramName": "id", "formName": "pet_id"},
    {"name": "v", "type": "BODY", "messageContentType": "XML", "xpathValue": "/a/b"},
    {"name": "v", "type": "BODY", "messageContentType": "JSON", "jsonPathValue": "$.pet.id"},
    {"name": "v", "type": "BODY", "messageContentType": "ALL_BODY"},
    {"name": "v", "type": "CONTEXT_VALUES", "contextValue": "REQUEST_REMOTE_ADDRESS"},
    {"name": "v", "type": "CONTEXT_VALUES", "contextValue": "DATETIME_HOUR", "zoneId": "Europe/Istanbul"},
    {"name": "v", "type": "CONTEXT_VALUES", "contextValue": "TIME_FORMATTED_TEXT", "zoneId": "UTC"},
    {"name": "v", "type": "CUSTOM"},
    {"name": "v", "type": "CUSTOM", "initWithScript": False},
    {
        "name": "v",
        "type": "CUSTOM",
        "initWithScript": True,
        "scriptLanguage": "GROOVY",
        "scriptBody": "return 1",
    },
    {
        "name": "v",
        "type": "CUSTOM",
        "initWithScript": True,
        "scriptLanguage": "JAVASCRIPT",
        "scriptBody": "x",
    },
    {"name": "v", "description": "d", "type": "HEADER", "headerName": "H", "dataType": "STRING"},
]


@pytest.mark.parametrize("data", VALID_VARIABLES, ids=lambda d: f"{d['type']}-{len(d)}")
def test_valid_variables_round_trip(data: dict[str, Any]) -> None:
    variable = Variable.model_validate(data)
    assert variable.to_api() == data


INVALID_VARIABLES = [
    ({"name": "v", "type": "HEADER"}, [("header_name",)]),
    ({"name": "v", "type": "HEADER", "headerName": "  "}, [("header_name",)]),
    ({"name": "v", "type": "PARAMETER", "paramName": "id"}, [("param_type",)]),
    ({"name": "v", "type": "PARAMETER", "paramType": "QUERY"}, [("param_name",)]),
    ({"name": "v", "type": "PARAMETER"}, [("param_type",), ("param_name",)]),
    ({"name": "v", "type": "PARAMETER", "paramType": "PATH", "paramName": "id"}, [("param_path",)]),
    ({"name": "v", "type": "PARAMETER", "paramType": "COOKIE", "paramName": "id"}, [("param_type",)]),
    ({"name": "v", "type": "BODY"}, [("message_content_type",)]),
    ({"name": "v", "type": "BODY", "messageContentType": "XML"}, [("xpath_value",)]),
    ({"name": "v", "type": "BODY", "messageContentType": "XML", "jsonPathValue": "$.a"}, [("xpath_value",)]),
    ({"name": "v", "type": "BODY", "messageContentType": "JSON"}, [("json_path_value",)]),
    (
        {"name": "v", "type": "BODY", "messageContentType": "JSON", "jsonPathValue": "pet.id"},
        [("json_path_value",)],
    ),
    ({"name": "v", "type": "BODY", "messageContentType": "TEXT"}, [("message_content_type",)]),
    ({"name": "v", "type": "CONTEXT_VALUES"}, [("context_value",)]),
    ({"name": "v", "type": "CONTEXT_VALUES", "contextValue": "NOT_A_VALUE"}, [("context_value",)]),
    (
        {"name": "v", "type": "CONTEXT_VALUES", "contextValue": "DATETIME_YEAR", "zoneId": "Mars/Olympus"},
        [("zone_id",)],
    ),
    (
        {"name": "v", "type": "CONTEXT_VALUES", "contextValue": "REQUEST_SCHEME", "zoneId": "Nowhere/City"},
        [("zone_id",)],
    ),
    ({"name": "v", "type": "CUSTOM", "initWithScript": True}, [("script_language",), ("script_body",)]),
    ({"name": "v", "type": "CUSTOM", "initWithScript": True, "scriptLanguage": "GROOVY"}, [("script_body",)]),
    ({"name": "v", "type": "CUSTOM", "initWithScript": True, "scriptBody": "x"}, [("script_language",)]),
    ({"name": "", "type": "HEADER", "headerName": "H"}, [("name",)]),
    ({"type": "HEADER", "headerName": "H"}, [("name",)]),
    ({"name": "v"}, [("type",)]),
    ({"name": "v", "type": "COOKIE"}, [("type",)]),
]


@pytest.mark.parametrize(("data", "expected"), INVALID_VARIABLES, ids=lambda v: str(v)[:60])
def test_invalid_variables_name_the_field(data: dict[str, Any], expected: list[tuple[str, ...]]) -> None:
    assert locs(Variable, data) == expected


@pytest.mark.parametrize("value", DATE_TIME_VALUES)
def test_every_date_time_context_value_needs_a_zone(value: str) -> None:
    assert locs(Variable, {"name": "v", "type": "CONTEXT_VALUES", "contextValue": value}) == [("zone_id",)]
    assert "zone_id is required when context_value is " + value in messages(
        Variable, {"name": "v", "type": "CONTEXT_VALUES", "contextValue": value}
    )


@pytest.mark.parametrize(
    "zone", ["Europe/Istanbul", "UTC", "America/Argentina/Buenos_Aires", "Etc/GMT+3", "Asia/Tokyo"]
)
def test_real_iana_zones(zone: str) -> None:
    assert is_iana_zone(zone)
    Variable(name="v", type="CONTEXT_VALUES", context_value="DATETIME_HOUR", zone_id=zone)


@pytest.mark.parametrize(
    "zone",
    [
        "",
        " UTC",
        "UTC ",
        "europe/istanbul",
        "Europe/Atlantis",
        "+03:00",
        "GMT+3",
        "localtime",
        "posixrules",
        "posix/Europe/Istanbul",
        "right/UTC",
        "../etc/passwd",
        "/usr/share/zoneinfo/UTC",
        "Europe",
    ],
)
def test_not_iana_zones(zone: str) -> None:
    assert not is_iana_zone(zone)


@pytest.mark.parametrize("data_type", ["NUMERIC", "STRING", "DATE"])
def test_data_type_takes_the_documented_values(data_type: str) -> None:
    v = Variable(name="v", type="HEADER", header_name="H", data_type=data_type)
    assert v.data_type is VariableDataType(data_type)
    assert v.to_api()["dataType"] == data_type


@pytest.mark.parametrize("data_type", ["WHATEVER", "string", "INTEGER", ""])
def test_data_type_outside_the_documented_values_is_refused(data_type: str) -> None:
    with pytest.raises(ValidationError) as info:
        Variable(name="v", type="HEADER", header_name="H", data_type=data_type)
    assert [e["loc"] for e in info.value.errors()] == [("data_type",)]


@pytest.mark.parametrize("language", ["GROOVY", "JAVASCRIPT"])
def test_script_language_takes_the_documented_script_types(language: str) -> None:
    v = Variable(name="v", type="CUSTOM", init_with_script=True, script_language=language, script_body="x")
    assert v.to_api()["scriptLanguage"] == language


@pytest.mark.parametrize("language", ["Kotlin 9", "groovy", "JS", ""])
def test_script_language_outside_the_documented_script_types_is_refused(language: str) -> None:
    with pytest.raises(ValidationError) as info:
        Variable(name="v", type="CUSTOM", init_with_script=True, script_language=language, script_body="x")
    assert [e["loc"] for e in info.value.errors()] == [("script_language",)]


def test_variable_wire_names() -> None:
    v = Variable(
        name="v",
        type="PARAMETER",
        param_type="FORM",
        param_name="a",
        param_path="/p",
        form_name="f",
        message_content_type="JSON",
        xpath_value="/x",
        json_path_value="$.y",
        context_value="APIPROXY_ID",
        zone_id="UTC",
        init_with_script=False,
        script_language="GROOVY",
        script_body="1",
        data_type="STRING",
        description="d",
    )
    assert set(v.to_api()) == {
        "name",
        "description",
        "type",
        "paramType",
        "paramName",
        "paramPath",
        "formName",
        "messageContentType",
        "xpathValue",
        "jsonPathValue",
        "contextValue",
        "zoneId",
        "initWithScript",
        "scriptLanguage",
        "scriptBody",
        "dataType",
    }
    assert Variable(name="h", type="HEADER", header_name="H").to_api() == {
        "name": "h",
        "type": "HEADER",
        "headerName": "H",
    }


def test_variable_reads_tolerate_unknown_fields() -> None:
    v = Variable.model_validate({"name": "h", "type": "HEADER", "headerName": "H", "id": "x", "newField": 1})
    assert v.to_api() == {"name": "h", "type": "HEADER", "headerName": "H"}


def test_validation_on_assignment() -> None:
    v = Variable(name="h", type="HEADER", header_name="H")
    with pytest.raises(ValidationError):
        v.header_name = None


def test_rate_limit_variable_custom_needs_a_script() -> None:
    assert locs(RateLimitVariable, {"name": "v", "type": "CUSTOM"}) == [
        ("script_language",),
        ("script_body",),
    ]
    assert locs(
        RateLimitVariable, {"name": "v", "type": "CUSTOM", "initWithScript": False, "scriptBody": "x"}
    ) == [("script_language",)]
    ok = RateLimitVariable(name="v", type="CUSTOM", script_language="GROOVY", script_body="return 1")
    assert ok.to_api() == {
        "name": "v",
        "type": "CUSTOM",
        "scriptLanguage": "GROOVY",
        "scriptBody": "return 1",
    }
    assert "in a rate-limit variable" in messages(RateLimitVariable, {"name": "v", "type": "CUSTOM"})


def test_rate_limit_variable_other_types_follow_the_plain_rules() -> None:
    RateLimitVariable(name="v", type="HEADER", header_name="X")
    assert locs(RateLimitVariable, {"name": "v", "type": "HEADER"}) == [("header_name",)]


# -- CacheSettings --------------------------------------------------------------------------


def test_cache_defaults_are_the_spec_defaults() -> None:
    c = CacheSettings(name="c", handling_action="STOP")
    assert c.cache_active is False
    assert c.cache_only_http_get_requests is True
    assert c.cache_key_type is CacheKeyType.QUERY_PARAMS
    assert c.cache_storage_type is CacheStorageType.DISTRIBUTED
    assert c.invalidation_requires_authn is False
    assert c.cache_null_value is False
    assert c.variable_list == []
    assert (c.description, c.capacity, c.ttl) == (None, None, None)


def test_cache_to_api_exact() -> None:
    assert CacheSettings(name="c", handling_action="CONTINUE").to_api() == {
        "name": "c",
        "cacheActive": False,
        "cacheOnlyHttpGetRequests": True,
        "cacheKeyType": "QUERY_PARAMS",
        "cacheStorageType": "DISTRIBUTED",
        "handlingAction": "CONTINUE",
        "invalidationRequiresAuthn": False,
        "cacheNullValue": False,
        "variableList": [],
    }


def test_cache_full_wire_names_round_trip() -> None:
    data = {
        "name": "c",
        "description": "d",
        "cacheActive": True,
        "cacheOnlyHttpGetRequests": False,
        "cacheKeyType": "CUSTOM",
        "cacheStorageType": "LOCAL",
        "capacity": 1000,
        "ttl": 300,
        "handlingAction": "STOP",
        "invalidationRequiresAuthn": True,
        "cacheNullValue": True,
        "variableList": [{"name": "k", "type": "HEADER", "headerName": "X-Key", "dataType": "STRING"}],
    }
    assert CacheSettings.model_validate(data).to_api() == data


def test_cache_builds_from_snake_case() -> None:
    c = CacheSettings(name="c", handling_action=CacheHandlingAction.STOP, cache_storage_type="LOCAL", ttl=5)
    assert c.to_api()["cacheStorageType"] == "LOCAL" and c.to_api()["ttl"] == 5


@pytest.mark.parametrize(
    ("data", "expected"),
    [
        ({"handlingAction": "STOP"}, [("name",)]),
        ({"name": "", "handlingAction": "STOP"}, [("name",)]),
        ({"name": "c"}, [("handling_action",)]),
        ({"name": "c", "handlingAction": "SKIP"}, [("handling_action",)]),
        ({"name": "c", "handlingAction": "STOP", "cacheKeyType": "HEADERS"}, [("cache_key_type",)]),
        ({"name": "c", "handlingAction": "STOP", "cacheStorageType": "REMOTE"}, [("cache_storage_type",)]),
        ({"name": "c", "handlingAction": "STOP", "cacheKeyType": "CUSTOM"}, [("variable_list",)]),
        (
            {"name": "c", "handlingAction": "STOP", "cacheKeyType": "CUSTOM", "variableList": []},
            [("variable_list",)],
        ),
        (
            {
                "name": "c",
                "handlingAction": "STOP",
                "cacheKeyType": "CUSTOM",
                "variableList": [{"name": "k", "type": "PARAMETER", "paramType": "PATH", "paramName": "id"}],
            },
            [("variable_list", 0, "param_path")],
        ),
        (
            {
                "name": "c",
                "handlingAction": "STOP",
                "variableList": [
                    {"name": "ok", "type": "HEADER", "headerName": "H"},
                    {"name": "k", "type": "BODY"},
                ],
            },
            [("variable_list", 1, "message_content_type")],
        ),
    ],
    ids=lambda v: str(v)[:50],
)
def test_invalid_cache_settings(data: dict[str, Any], expected: list[tuple[Any, ...]]) -> None:
    assert locs(CacheSettings, data) == expected


def test_custom_key_with_variables_is_valid() -> None:
    c = CacheSettings(
        name="c",
        handling_action="STOP",
        cache_key_type="CUSTOM",
        variable_list=[Variable(name="k", type="HEADER", header_name="X")],
    )
    assert c.to_api()["variableList"] == [{"name": "k", "type": "HEADER", "headerName": "X"}]


@pytest.mark.parametrize("field", ["capacity", "ttl"])
@pytest.mark.parametrize("value", [0, -1, True, False, 1.5, "x"])
def test_capacity_and_ttl_must_be_positive_integers(field: str, value: Any) -> None:
    assert locs(CacheSettings, {"name": "c", "handlingAction": "STOP", field: value}) == [(field,)]


@pytest.mark.parametrize("field", ["capacity", "ttl"])
def test_capacity_and_ttl_accept_integral_numbers(field: str) -> None:
    c = CacheSettings.model_validate({"name": "c", "handlingAction": "STOP", field: 60.0})
    assert getattr(c, field) == 60 and isinstance(getattr(c, field), int)


def test_cache_disabled_helper() -> None:
    c = CacheSettings.disabled()
    assert c.cache_active is False and c.name == "default"
    assert c.to_api() == {**CacheSettings(name="default", handling_action="CONTINUE").to_api()}


def test_cache_reads_tolerate_unknown_fields() -> None:
    c = CacheSettings.model_validate({"name": "c", "handlingAction": "STOP", "id": "1", "proxyLevel": True})
    assert "id" not in c.to_api()


# -- EndpointRateLimit ----------------------------------------------------------------------

RL_BASE: dict[str, Any] = {
    "apiProxyName": "PetStore",
    "permittedMessageCount": 10,
    "timeIntervalPeriodLength": 1,
    "timeInterval": "ONE_MINUTE",
    "cacheConnectionTimeoutInSeconds": 3,
    "cacheErrorHandlingType": "FAIL",
    "timeIntervalWindowType": "FIXED",
}


@pytest.mark.parametrize(
    ("name", "method"),
    [
        ("/pets", "GET"),
        ("ALL", "ALL"),
        ("ALL", None),
        (None, "ALL"),
        ("/pets/{id}", "DELETE"),
    ],
)
def test_valid_endpoint_selections(name: str | None, method: str | None) -> None:
    data = {**RL_BASE, "endpointName": name, "endpointHTTPMethod": method}
    entry = EndpointRateLimit.model_validate({k: v for k, v in data.items() if v is not None})
    assert entry.endpoint_name == name
    assert entry.endpoint_http_method == method


@pytest.mark.parametrize(
    ("name", "method", "expected"),
    [
        ("ALL", "GET", [("endpoint_http_method",)]),
        ("/pets", "ALL", [("endpoint_name",)]),
        ("/pets", None, [("endpoint_http_method",)]),
        (None, "GET", [("endpoint_name",)]),
        (None, None, [("endpoint_name",), ("endpoint_http_method",)]),
        ("", "GET", [("endpoint_name",)]),
        ("/pets", "get", [("endpoint_http_method",)]),
    ],
)
def test_invalid_endpoint_selections(
    name: str | None, method: str | None, expected: list[tuple[str]]
) -> None:
    data = {**RL_BASE, "endpointName": name, "endpointHTTPMethod": method}
    assert locs(EndpointRateLimit, {k: v for k, v in data.items() if v is not None}) == expected


def test_all_rule_messages() -> None:
    assert "must be ALL or omitted when endpoint_name is ALL" in messages(
        EndpointRateLimit, {**RL_BASE, "endpointName": "ALL", "endpointHTTPMethod": "POST"}
    )
    assert "must be ALL or omitted when endpoint_http_method is ALL" in messages(
        EndpointRateLimit, {**RL_BASE, "endpointName": "/x", "endpointHTTPMethod": "ALL"}
    )


@pytest.mark.parametrize(
    "field", ["permitted_message_count", "time_interval_period_length", "cache_connection_timeout_in_seconds"]
)
@pytest.mark.parametrize("value", [0, -5, True, 2.5, None])
def test_counts_and_lengths_are_positive_integers(field: str, value: Any) -> None:
    data = {**RL_BASE, "endpointName": "ALL"}
    data = {k: v for k, v in data.items() if k != EndpointRateLimit.model_fields[field].alias}
    data[EndpointRateLimit.model_fields[field].alias or field] = value
    assert locs(EndpointRateLimit, data) == [(field,)]


@pytest.mark.parametrize("key", list(RL_BASE))
def test_required_rate_limit_fields(key: str) -> None:
    data = {k: v for k, v in {**RL_BASE, "endpointName": "ALL"}.items() if k != key}
    snake = {f.alias: name for name, f in EndpointRateLimit.model_fields.items()}.get(key)
    assert locs(EndpointRateLimit, data) == [(snake,)]


@pytest.mark.parametrize(
    ("field", "bad"),
    [
        ("timeInterval", "ONE_WEEK"),
        ("cacheErrorHandlingType", "RETRY"),
        ("timeIntervalWindowType", "ROLLING"),
    ],
)
def test_rate_limit_enums(field: str, bad: str) -> None:
    assert len(locs(EndpointRateLimit, {**RL_BASE, "endpointName": "ALL", field: bad})) == 1


def test_rate_limit_defaults_and_exact_wire_names() -> None:
    entry = EndpointRateLimit.model_validate(
        {**RL_BASE, "endpointName": "/pets", "endpointHTTPMethod": "GET"}
    )
    assert entry.show_rate_limit_statistics_in_response_header is False
    assert entry.enabled is True
    assert entry.target_variable is None and entry.target_identity_value is None
    assert entry.to_api() == {
        "apiProxyName": "PetStore",
        "endpointName": "/pets",
        "endpointHTTPMethod": "GET",
        "permittedMessageCount": 10,
        "timeIntervalPeriodLength": 1,
        "timeInterval": "ONE_MINUTE",
        "targetVariable": None,
        "targetIdentityValue": None,
        "cacheConnectionTimeoutInSeconds": 3,
        "cacheErrorHandlingType": "FAIL",
        "timeIntervalWindowType": "FIXED",
        "showRateLimitStatisticsInResponseHeader": False,
        "enabled": True,
    }


def test_endpoint_http_method_alias_is_exact() -> None:
    entry = EndpointRateLimit(**{**_snake(RL_BASE), "endpoint_name": "/a", "endpoint_http_method": "PUT"})
    assert entry.to_api()["endpointHTTPMethod"] == "PUT"
    assert "endpointHttpMethod" not in entry.to_api()
    # The generated camelCase spelling is not the API's; it is ignored like any unknown field.
    assert locs(EndpointRateLimit, {**RL_BASE, "endpointName": "/a", "endpointHttpMethod": "PUT"}) == [
        ("endpoint_http_method",)
    ]


def _snake(data: dict[str, Any]) -> dict[str, Any]:
    by_alias = {f.alias: name for name, f in EndpointRateLimit.model_fields.items()}
    return {by_alias[k]: v for k, v in data.items()}


def test_rate_limit_target_variable_uses_the_rate_limit_rules() -> None:
    data = {**RL_BASE, "endpointName": "ALL", "targetVariable": {"name": "v", "type": "CUSTOM"}}
    assert locs(EndpointRateLimit, data) == [
        ("target_variable", "script_language"),
        ("target_variable", "script_body"),
    ]
    data["targetVariable"] = {"name": "v", "type": "HEADER", "headerName": "X-Api-Key"}
    entry = EndpointRateLimit.model_validate(data)
    assert isinstance(entry.target_variable, RateLimitVariable)
    assert entry.to_api()["targetVariable"] == {"name": "v", "type": "HEADER", "headerName": "X-Api-Key"}


def test_rate_limit_target_accepts_a_plain_variable_under_the_stricter_rules() -> None:
    entry = EndpointRateLimit(
        **_snake(RL_BASE),
        endpoint_name="ALL",
        target_variable=Variable(name="v", type="HEADER", header_name="X"),
    )
    assert isinstance(entry.target_variable, RateLimitVariable)
    assert entry.target_variable.header_name == "X"
    with pytest.raises(ValidationError) as caught:
        EndpointRateLimit(
            **_snake(RL_BASE), endpoint_name="ALL", target_variable=Variable(name="v", type="CUSTOM")
        )
    assert [e["loc"] for e in caught.value.errors()] == [
        ("target_variable", "script_language"),
        ("target_variable", "script_body"),
    ]


def test_rate_limit_target_identity_and_flags() -> None:
    data = {
        **RL_BASE,
        "endpointName": "ALL",
        "targetIdentityValue": "tenant-1",
        "enabled": False,
        "showRateLimitStatisticsInResponseHeader": True,
    }
    api = EndpointRateLimit.model_validate(data).to_api()
    assert (api["targetIdentityValue"], api["enabled"], api["showRateLimitStatisticsInResponseHeader"]) == (
        "tenant-1",
        False,
        True,
    )


@pytest.mark.parametrize(
    ("name", "method", "key"),
    [
        ("ALL", None, ("PetStore", "ALL", "ALL")),
        (None, "ALL", ("PetStore", "ALL", "ALL")),
        ("/a", "GET", ("PetStore", "/a", "GET")),
    ],
)
def test_normalized_key(name: str | None, method: str | None, key: tuple[str, str, str]) -> None:
    entry = EndpointRateLimit(**_snake(RL_BASE), endpoint_name=name, endpoint_http_method=method)
    assert entry.normalized_key == key


def test_rate_limit_list_body() -> None:
    entry = EndpointRateLimit.model_validate({**RL_BASE, "endpointName": "ALL"})
    body = EndpointRateLimitList(endpoint_rate_limit_list=[entry]).to_api()
    assert list(body) == ["endpointRateLimitList"] and body["endpointRateLimitList"] == [entry.to_api()]
    parsed = EndpointRateLimitList.model_validate(body)
    assert parsed.endpoint_rate_limit_list == [entry]


def test_rate_limit_reads_tolerate_unknown_fields() -> None:
    entry = EndpointRateLimit.model_validate({**RL_BASE, "endpointName": "ALL", "endpointId": "abc"})
    assert "endpointId" not in entry.to_api()


# -- WsaSettings ----------------------------------------------------------------------------

WSA_KEYS = [
    "wsaEnabled",
    "wsaMustUnderstand",
    "wsaVersion",
    "wsaAddDefaultAction",
    "wsaAction",
    "wsaAddDefaultTo",
    "wsaTo",
    "wsaReplyTo",
    "wsaGenerateMessageId",
    "wsaMessageId",
    "wsaFrom",
    "wsaFaultTo",
    "wsaRelatesTo",
    "wsaRelationShipType",
]
URI_FIELDS = ["wsa_action", "wsa_to", "wsa_reply_to", "wsa_message_id", "wsa_from", "wsa_fault_to"]


def test_wsa_defaults_and_wire_names() -> None:
    api = WsaSettings().to_api()
    assert list(api) == WSA_KEYS
    assert (api["wsaEnabled"], api["wsaMustUnderstand"], api["wsaVersion"]) == (False, "NONE", "V200508")
    assert api["wsaAddDefaultAction"] is False and api["wsaAddDefaultTo"] is False
    assert api["wsaGenerateMessageId"] is False
    assert all(
        api[k] is None
        for k in WSA_KEYS
        if k
        not in (
            "wsaEnabled",
            "wsaMustUnderstand",
            "wsaVersion",
            "wsaAddDefaultAction",
            "wsaAddDefaultTo",
            "wsaGenerateMessageId",
        )
    )


def test_wsa_relationship_type_alias() -> None:
    w = WsaSettings.model_validate({"wsaRelationShipType": "http://www.w3.org/2005/08/addressing/reply"})
    assert w.wsa_relation_ship_type == "http://www.w3.org/2005/08/addressing/reply"
    assert w.to_api()["wsaRelationShipType"] == "http://www.w3.org/2005/08/addressing/reply"
    assert WsaSettings.model_validate({"wsaRelationshipType": "x"}).wsa_relation_ship_type is None


@pytest.mark.parametrize("field", URI_FIELDS)
@pytest.mark.parametrize(
    "uri",
    [
        "http://svc.test/calc",
        "https://svc.test:8443/a?b=c",
        "urn:uuid:6b29fc40-ca47-1067-b31d-00dd010662da",
        "urn:example:action:Add",
        "mailto:ops@example.com",
    ],
)
def test_wsa_valid_uris(field: str, uri: str) -> None:
    assert getattr(WsaSettings(**{field: uri}), field) == uri


@pytest.mark.parametrize("field", URI_FIELDS)
@pytest.mark.parametrize(
    "uri",
    [
        "",
        "not a uri",
        "relative/path",
        "/absolute/path",
        "http://",
        "http:///x",
        "http://host with space/",
        "urn:",
        "1http://x",
        "http://<x>",
    ],
)
def test_wsa_invalid_uris_name_the_field(field: str, uri: str) -> None:
    assert locs(WsaSettings, {field: uri}) == [(field,)]


def test_wsa_several_bad_addresses_are_all_reported() -> None:
    assert locs(WsaSettings, {"wsaTo": "x", "wsaFrom": "y"}) == [("wsa_to",), ("wsa_from",)]


def test_wsa_message_id_urn_uuid() -> None:
    w = WsaSettings(
        wsa_generate_message_id=False, wsa_message_id="urn:uuid:123e4567-e89b-12d3-a456-426614174000"
    )
    assert w.to_api()["wsaMessageId"] == "urn:uuid:123e4567-e89b-12d3-a456-426614174000"


@pytest.mark.parametrize(
    ("field", "bad"),
    [
        ("wsaMustUnderstand", "true"),
        ("wsaMustUnderstand", "YES"),
        ("wsaVersion", "V2005"),
        ("wsaVersion", "v200508"),
    ],
)
def test_wsa_enums(field: str, bad: str) -> None:
    assert len(locs(WsaSettings, {field: bad})) == 1


def test_wsa_full_round_trip() -> None:
    data = {
        "wsaEnabled": True,
        "wsaMustUnderstand": "TRUE",
        "wsaVersion": "V200408",
        "wsaAddDefaultAction": True,
        "wsaAction": None,
        "wsaAddDefaultTo": False,
        "wsaTo": "http://to.test/",
        "wsaReplyTo": "http://reply.test/",
        "wsaGenerateMessageId": True,
        "wsaMessageId": None,
        "wsaFrom": "urn:from",
        "wsaFaultTo": "http://fault.test/",
        "wsaRelatesTo": "urn:uuid:1",
        "wsaRelationShipType": "reply",
    }
    assert WsaSettings.model_validate({**data, "unknown": 1}).to_api() == data


@pytest.mark.parametrize(
    ("value", "expected"),
    [
        ("http://a", True),
        ("HTTPS://A.test", True),
        ("urn:uuid:x", True),
        ("tag:example.com,2026:x", True),
        ("soap.tcp://host/svc", True),
        ("http:/x", False),
        ("://x", False),
        ("x", False),
        ("http://a b", False),
        ("urn:x\n", False),
    ],
)
def test_is_absolute_uri(value: str, expected: bool) -> None:
    assert is_absolute_uri(value) is expected


# -- endpoints, report, token, error --------------------------------------------------------


def test_endpoint_spec_wire_names() -> None:
    spec = EndpointSpec(name="/a", http_method="GET", backend_resource_url="/b", backend_http_method="POST")
    assert spec.to_api() == {
        "name": "/a",
        "httpMethod": "GET",
        "backendResourceUrl": "/b",
        "backendHttpMethod": "POST",
    }
    assert EndpointSpec(**{**spec.model_dump(), "description": ""}).to_api()["description"] == ""


@pytest.mark.parametrize(
    ("data", "expected"),
    [
        ({"httpMethod": "GET", "backendResourceUrl": "/b", "backendHttpMethod": "GET"}, [("name",)]),
        (
            {"name": "", "httpMethod": "GET", "backendResourceUrl": "/b", "backendHttpMethod": "GET"},
            [("name",)],
        ),
        ({"name": "/a", "backendResourceUrl": "/b", "backendHttpMethod": "GET"}, [("http_method",)]),
        ({"name": "/a", "httpMethod": "GET", "backendHttpMethod": "GET"}, [("backend_resource_url",)]),
        ({"name": "/a", "httpMethod": "GET", "backendResourceUrl": "/b"}, [("backend_http_method",)]),
        (
            {"name": "/a", "httpMethod": "FETCH", "backendResourceUrl": "/b", "backendHttpMethod": "GET"},
            [("http_method",)],
        ),
    ],
)
def test_endpoint_spec_required_fields(data: dict[str, Any], expected: list[tuple[str]]) -> None:
    assert locs(EndpointSpec, data) == expected


def test_endpoint_read_shape() -> None:
    e = Endpoint.model_validate({"id": "1", "endpoint": "/a", "httpMethod": "GET", "whatever": [1]})
    assert (e.id, e.endpoint, e.name, e.active, e.description) == ("1", "/a", "/a", True, None)
    assert locs(Endpoint, {"endpoint": "/a", "httpMethod": "GET"}) == [("id",)]


def test_endpoint_policies_and_list() -> None:
    p = EndpointPolicies.model_validate(
        {
            "id": "1",
            "endpoint": "/a",
            "httpMethod": "GET",
            "requestPolicyList": [{"type": "policy-x", "name": "n"}],
        }
    )
    assert p.request_policy_list[0].active is True and p.error_policy_list == []
    lst = EndpointList.model_validate({"success": True, "resultList": [], "resultCount": 0})
    assert lst.result_list == [] and lst.result_count == 0


def test_request_bodies_wire_names() -> None:
    assert EndpointIdentifier(name="/a", http_method="GET").to_api() == {"name": "/a", "httpMethod": "GET"}
    assert EndpointUpdate(name="/a", http_method="GET", backend_http_method="PUT").to_api() == {
        "name": "/a",
        "httpMethod": "GET",
        "backendHttpMethod": "PUT",
    }
    assert EndpointStatusUpdate(
        identifier_name="/a", identifier_http_method="GET", active=False
    ).to_api() == {"identifierName": "/a", "identifierHttpMethod": "GET", "active": False}
    cache = EndpointCacheUpdate(
        identifier_name="/a", identifier_http_method="GET", cache_settings=CacheSettings.disabled()
    )
    assert list(cache.to_api()) == ["identifierName", "identifierHttpMethod", "cacheSettings"]
    wsa = EndpointWsaUpdate(identifier_name="Add", identifier_http_method="POST", wsa_settings=WsaSettings())
    assert wsa.to_api()["wsaSettings"] == WsaSettings().to_api()


def test_status_body_requires_active() -> None:
    assert locs(EndpointStatusUpdate, {"identifierName": "/a", "identifierHttpMethod": "GET"}) == [
        ("active",)
    ]


def test_report() -> None:
    r = AccessReport.model_validate(
        {
            "success": True,
            "result": {
                "apiProxyList": [
                    {
                        "apiProxyName": "A",
                        "sharingType": "EXTERNAL",
                        "accessList": [{"any": "thing"}],
                        "extra": 1,
                    }
                ]
            },
        }
    )
    assert r.result.api_proxy_list[0].sharing_type is SharingType.EXTERNAL
    assert r.result.data_model_list == []
    # A report without its result is no report (the client raises APIResponseValidationError).
    with pytest.raises(ValidationError, match="result"):
        AccessReport.model_validate({"success": True})
    assert (
        len(
            locs(
                AccessReport,
                {
                    "success": True,
                    "result": {"apiProxyList": [{"apiProxyName": "A", "sharingType": "PUBLIC"}]},
                },
            )
        )
        == 1
    )


def test_token_response_keeps_snake_case_and_hides_the_token() -> None:
    t = TokenResponse.model_validate({"access_token": "sekrit", "token_type": "Bearer", "expires_in": 3600})
    assert (t.access_token, t.token_type, t.expires_in) == ("sekrit", "Bearer", 3600)
    assert "sekrit" not in repr(t) and "sekrit" not in str(t)
    assert t.to_api() == {"access_token": "sekrit", "token_type": "Bearer", "expires_in": 3600}
    assert locs(TokenResponse, {"token_type": "Bearer"}) == [("access_token",)]


def test_error_body() -> None:
    assert ApiErrorBody.model_validate({"error": "bad_request", "error_description": "x"}).to_api() == {
        "error": "bad_request",
        "error_description": "x",
    }
    assert ApiErrorBody.model_validate({"error": "not_found"}).error_description == ""


def test_success_response() -> None:
    assert SuccessResponse.model_validate({"success": False, "x": 1}).to_api() == {"success": False}


def test_rlcl_spec_has_the_documented_defaults_and_wire_names() -> None:
    # https://apinizer.github.io/management-api-docs/02-api-reference/12-rlcl/crud/create-rlcl/
    assert RlclSpec(name="Gold").to_api() == {
        "name": "Gold",
        "enabled": True,
        "executionOrder": "FIRST",
        "cacheConnectionTimeoutInSeconds": 3,
        "cacheErrorHandlingType": "FAIL",
        "timeIntervalWindowType": "FIXED",
        "showRateLimitStatisticsInResponseHeader": False,
        "targetVariable": None,
    }
    last = RlclSpec.model_validate({"name": "G", "executionOrder": "LAST"})
    assert last.execution_order is ExecutionOrder.LAST


def test_rlcl_spec_target_variable_follows_the_rate_limit_rules() -> None:
    plain = Variable(name="v", type="CUSTOM")  # fine as a plain variable
    with pytest.raises(ValidationError) as info:
        RlclSpec(name="G", target_variable=plain)
    assert {e["loc"] for e in info.value.errors()} == {
        ("target_variable", "script_language"), ("target_variable", "script_body")
    }


@pytest.mark.parametrize("name", ["/a", "/api/users/{id}", "/ünïcode/路径", " /spaced ", "/a?b#c"])
@pytest.mark.parametrize("method", ["GET", "ALL", HttpMethod.DELETE])
def test_the_endpoint_identifier_body_is_the_model_s(name: str, method: HttpMethod | str) -> None:
    """Deletes send the identifier built without the model when it accepts the name: the same body."""
    from apinizer_pulumi.client._resources import Endpoints

    assert Endpoints._identifier(name, method) == EndpointIdentifier(name=name, http_method=method).to_api()


@pytest.mark.parametrize("name", ["", "/a\nb", "/zero\u200bwidth", 7])
def test_a_refused_endpoint_identifier_names_its_argument(name: Any) -> None:
    from apinizer_pulumi.client import InvalidArgumentError
    from apinizer_pulumi.client._resources import Endpoints

    with pytest.raises(InvalidArgumentError) as refused:
        Endpoints._identifier(name, "GET")
    assert refused.value.argument == "name"
