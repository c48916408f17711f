"""Every operation of spec section 4: the exact request sent, the parsing of the answer, and
the mapping of each error status to its exception."""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass
from typing import Any

import httpx
import pytest

from apinizer_pulumi.client import (
    ApinizerClient,
    APIResponseValidationError,
    APIStatusError,
    AuthenticationError,
    BadRequestError,
    ConflictError,
    InternalServerError,
    NotFoundError,
    PermissionDeniedError,
    RateLimitError,
)
from apinizer_pulumi.models import (
    AccessReport,
    CacheSettings,
    Endpoint,
    EndpointPolicies,
    EndpointRateLimit,
    EndpointSpec,
    HttpMethod,
    SharingType,
    WsaSettings,
)

from ._fake_gateway import STATIC_TOKEN, FakeGateway, body, error, make_client

EP = "/apiops/projects/Demo/apiProxies/PetStore/endpoints/"
RL = "/apiops/projects/Demo/rlcl/Standard/endpoints/"
REPORT = "/apiops/reports/organization-api-data-model-access"

ENDPOINT_JSON = {
    "id": "65f1c0ffee0000000000abcd",
    "endpoint": "/pets",
    "description": "List pets",
    "active": True,
    "httpMethod": "GET",
    "backendResourceUrl": "/v1/pets",
    "backendHttpMethod": "GET",
}
POLICY = {"type": "policy-basic-auth", "name": "auth", "description": "Basic auth", "active": True}
SUCCESS = {"success": True}

RATE_LIMIT = EndpointRateLimit(
    api_proxy_name="PetStore",
    endpoint_name="/pets",
    endpoint_http_method=HttpMethod.GET,
    permitted_message_count=100,
    time_interval_period_length=1,
    time_interval="ONE_MINUTE",
    cache_connection_timeout_in_seconds=3,
    cache_error_handling_type="FAIL",
    time_interval_window_type="FIXED",
)
RATE_LIMIT_JSON = {
    "apiProxyName": "PetStore",
    "endpointName": "/pets",
    "endpointHTTPMethod": "GET",
    "permittedMessageCount": 100,
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
CACHE_DEFAULTS_JSON = {
    "name": "c1",
    "cacheActive": False,
    "cacheOnlyHttpGetRequests": True,
    "cacheKeyType": "QUERY_PARAMS",
    "cacheStorageType": "DISTRIBUTED",
    "handlingAction": "STOP",
    "invalidationRequiresAuthn": False,
    "cacheNullValue": False,
    "variableList": [],
}
WSA_DEFAULTS_JSON = {
    "wsaEnabled": False,
    "wsaMustUnderstand": "NONE",
    "wsaVersion": "V200508",
    "wsaAddDefaultAction": False,
    "wsaAction": None,
    "wsaAddDefaultTo": False,
    "wsaTo": None,
    "wsaReplyTo": None,
    "wsaGenerateMessageId": False,
    "wsaMessageId": None,
    "wsaFrom": None,
    "wsaFaultTo": None,
    "wsaRelatesTo": None,
    "wsaRelationShipType": None,
}


@dataclass(frozen=True)
class Op:
    name: str
    method: str
    path: str
    call: Callable[[ApinizerClient], Any]
    sent: Any  # the exact JSON body, or None for no body
    answer: Any  # the success JSON the gateway gives

    def __str__(self) -> str:
        return self.name


OPS = [
    Op(
        "report",
        "GET",
        REPORT,
        lambda c: c.reports.organization_access(),
        None,
        {"success": True, "result": {"apiProxyList": [], "dataModelList": []}},
    ),
    Op(
        "list",
        "GET",
        EP,
        lambda c: c.endpoints.list("Demo", "PetStore"),
        None,
        {"success": True, "resultList": [ENDPOINT_JSON], "resultCount": 1},
    ),
    Op(
        "create",
        "POST",
        EP,
        lambda c: c.endpoints.create(
            "Demo",
            "PetStore",
            EndpointSpec(
                name="/pets", http_method="GET", backend_resource_url="/v1/pets", backend_http_method="GET"
            ),
        ),
        {"name": "/pets", "httpMethod": "GET", "backendResourceUrl": "/v1/pets", "backendHttpMethod": "GET"},
        SUCCESS,
    ),
    Op(
        "update",
        "PATCH",
        EP,
        lambda c: c.endpoints.update("Demo", "PetStore", "/pets", "GET", backend_resource_url="/v2/pets"),
        {"name": "/pets", "httpMethod": "GET", "backendResourceUrl": "/v2/pets"},
        SUCCESS,
    ),
    Op(
        "get",
        "POST",
        EP + "details/",
        lambda c: c.endpoints.get("Demo", "PetStore", "/pets", "GET"),
        {"name": "/pets", "httpMethod": "GET"},
        ENDPOINT_JSON,
    ),
    Op(
        "policies",
        "POST",
        EP + "policies/",
        lambda c: c.endpoints.policies("Demo", "PetStore", "/pets", HttpMethod.GET),
        {"name": "/pets", "httpMethod": "GET"},
        {**ENDPOINT_JSON, "requestPolicyList": [POLICY], "responsePolicyList": [], "errorPolicyList": []},
    ),
    Op(
        "delete",
        "POST",
        EP + "delete/",
        lambda c: c.endpoints.delete("Demo", "PetStore", "/pets", "GET"),
        {"name": "/pets", "httpMethod": "GET"},
        SUCCESS,
    ),
    Op(
        "status",
        "PATCH",
        EP + "status/",
        lambda c: c.endpoints.set_status("Demo", "PetStore", "/pets", "GET", False),
        {"identifierName": "/pets", "identifierHttpMethod": "GET", "active": False},
        SUCCESS,
    ),
    Op(
        "cache",
        "PATCH",
        EP + "cache/",
        lambda c: c.endpoints.set_cache(
            "Demo", "PetStore", "/pets", "GET", CacheSettings(name="c1", handling_action="STOP")
        ),
        {"identifierName": "/pets", "identifierHttpMethod": "GET", "cacheSettings": CACHE_DEFAULTS_JSON},
        SUCCESS,
    ),
    Op(
        "wsa",
        "PATCH",
        EP + "wsa/",
        lambda c: c.endpoints.set_wsa("Demo", "PetStore", "Add", "POST", WsaSettings()),
        {"identifierName": "Add", "identifierHttpMethod": "POST", "wsaSettings": WSA_DEFAULTS_JSON},
        SUCCESS,
    ),
    Op(
        "rlcl-add",
        "POST",
        RL,
        lambda c: c.rlcl.add_endpoints("Demo", "Standard", [RATE_LIMIT]),
        {"endpointRateLimitList": [RATE_LIMIT_JSON]},
        SUCCESS,
    ),
    Op(
        "rlcl-replace",
        "PUT",
        RL,
        lambda c: c.rlcl.replace_endpoints("Demo", "Standard", [RATE_LIMIT]),
        {"endpointRateLimitList": [RATE_LIMIT_JSON]},
        SUCCESS,
    ),
    Op(
        "rlcl-delete",
        "DELETE",
        RL,
        lambda c: c.rlcl.delete_endpoints("Demo", "Standard", [RATE_LIMIT]),
        {"endpointRateLimitList": [RATE_LIMIT_JSON]},
        SUCCESS,
    ),
]


@pytest.mark.parametrize("op", OPS, ids=str)
def test_sends_the_exact_request(op: Op, gateway: FakeGateway, client: ApinizerClient) -> None:
    gateway.script(op.method, op.path, httpx.Response(200, json=op.answer))
    op.call(client)
    [request] = gateway.requests
    assert request.method == op.method
    assert request.url.raw_path.decode() == op.path
    assert request.url.host == "gateway.test"
    assert request.headers["authorization"] == f"Bearer {STATIC_TOKEN}"
    assert request.headers["accept"] == "application/json"
    if op.sent is None:
        assert request.content == b""
        assert "content-type" not in request.headers
    else:
        assert request.headers["content-type"] == "application/json"
        assert body(request) == op.sent


ERRORS = [
    (400, "bad_request", BadRequestError),
    (401, "unauthorized_client", AuthenticationError),
    (403, "forbidden", PermissionDeniedError),
    (404, "not_found", NotFoundError),
    (409, "conflict", ConflictError),
    (429, "too_many_requests", RateLimitError),
    (500, "server_error", InternalServerError),
    (503, "service_unavailable", InternalServerError),
]


@pytest.mark.parametrize("op", OPS, ids=str)
@pytest.mark.parametrize(("status", "code", "cls"), ERRORS, ids=[str(e[0]) for e in ERRORS])
def test_error_status_raises_its_class(
    op: Op, status: int, code: str, cls: type[APIStatusError], gateway: FakeGateway
) -> None:
    gateway.script(op.method, op.path, error(status, code, "something went wrong"))
    with make_client(gateway, max_retries=0) as client, pytest.raises(cls) as caught:
        op.call(client)
    exc = caught.value
    assert type(exc) is cls
    assert (exc.status_code, exc.error, exc.error_description) == (status, code, "something went wrong")
    assert (exc.method, exc.path) == (op.method, op.path)
    assert str(exc) == f"{op.method} {op.path} -> {status} {code}: something went wrong"


def test_spec_error_message_reads_as_in_the_issue(gateway: FakeGateway, client: ApinizerClient) -> None:
    gateway.script("POST", EP, error(400, "bad_request", "Endpoint can only be added to REST API Proxies!"))
    with pytest.raises(BadRequestError) as caught:
        client.endpoints.create(
            "Demo",
            "PetStore",
            {"name": "/x", "http_method": "GET", "backend_resource_url": "/x", "backend_http_method": "GET"},
        )
    assert str(caught.value) == (
        "POST /apiops/projects/Demo/apiProxies/PetStore/endpoints/ -> 400 bad_request: "
        "Endpoint can only be added to REST API Proxies!"
    )


# -- parsing of answers ---------------------------------------------------------------------


def test_list_parses_endpoints(gateway: FakeGateway, client: ApinizerClient) -> None:
    second = {**ENDPOINT_JSON, "id": "2", "endpoint": "/pets/{id}", "active": False, "extra": "ignored"}
    gateway.script(
        "GET",
        EP,
        httpx.Response(200, json={"success": True, "resultList": [ENDPOINT_JSON, second], "resultCount": 2}),
    )
    endpoints = client.endpoints.list("Demo", "PetStore")
    assert [e.endpoint for e in endpoints] == ["/pets", "/pets/{id}"]
    assert endpoints[0] == Endpoint(
        id="65f1c0ffee0000000000abcd",
        endpoint="/pets",
        description="List pets",
        active=True,
        http_method="GET",
        backend_resource_url="/v1/pets",
        backend_http_method="GET",
    )
    assert endpoints[1].active is False


def test_list_of_empty_proxy(gateway: FakeGateway, client: ApinizerClient) -> None:
    gateway.script("GET", EP, httpx.Response(200, json={"success": True, "resultList": [], "resultCount": 0}))
    assert client.endpoints.list("Demo", "PetStore") == []


def test_get_parses_the_bare_endpoint(gateway: FakeGateway, client: ApinizerClient) -> None:
    gateway.script("POST", EP + "details/", httpx.Response(200, json=ENDPOINT_JSON))
    endpoint = client.endpoints.get("Demo", "PetStore", "/pets", "GET")
    assert isinstance(endpoint, Endpoint)
    assert (endpoint.id, endpoint.name, endpoint.http_method) == (
        "65f1c0ffee0000000000abcd",
        "/pets",
        HttpMethod.GET,
    )


def test_policies_parse_three_pipelines(gateway: FakeGateway, client: ApinizerClient) -> None:
    answer = {
        **ENDPOINT_JSON,
        "requestPolicyList": [POLICY],
        "responsePolicyList": [],
        "errorPolicyList": [{**POLICY, "type": "policy-log", "active": False}],
    }
    gateway.script("POST", EP + "policies/", httpx.Response(200, json=answer))
    result = client.endpoints.policies("Demo", "PetStore", "/pets", "GET")
    assert isinstance(result, EndpointPolicies)
    assert [p.type for p in result.request_policy_list] == ["policy-basic-auth"]
    assert result.response_policy_list == []
    assert result.error_policy_list[0].active is False
    assert result.endpoint == "/pets"


def test_report_parses(gateway: FakeGateway, client: ApinizerClient) -> None:
    answer = {
        "success": True,
        "result": {
            "apiProxyList": [
                {"apiProxyName": "PetStore", "sharingType": "EXTERNAL", "accessList": [{"x": 1}]},
                {"apiProxyName": "Calculator", "sharingType": "BOTH", "accessList": []},
            ],
            "dataModelList": [{"anything": True}],
        },
    }
    gateway.script("GET", REPORT, httpx.Response(200, json=answer))
    report = client.reports.organization_access()
    assert isinstance(report, AccessReport)
    assert [(p.api_proxy_name, p.sharing_type) for p in report.result.api_proxy_list] == [
        ("PetStore", SharingType.EXTERNAL),
        ("Calculator", SharingType.BOTH),
    ]
    assert report.result.data_model_list == [{"anything": True}]


def test_write_answers_success_false_is_an_error(gateway: FakeGateway, client: ApinizerClient) -> None:
    gateway.script("PATCH", EP + "status/", httpx.Response(200, json={"success": False}))
    with pytest.raises(APIResponseValidationError, match="success: false"):
        client.endpoints.set_status("Demo", "PetStore", "/pets", "GET", True)


def test_read_with_html_body_is_a_clear_error(gateway: FakeGateway, client: ApinizerClient) -> None:
    gateway.script("GET", EP, httpx.Response(200, text="<html>login</html>"))
    with pytest.raises(APIResponseValidationError) as caught:
        client.endpoints.list("Demo", "PetStore")
    assert str(caught.value).startswith(f"GET {EP} -> 200: the body is not a valid EndpointList")


def test_read_with_wrong_shape_names_the_field(gateway: FakeGateway, client: ApinizerClient) -> None:
    gateway.script("POST", EP + "details/", httpx.Response(200, json={"endpoint": "/pets"}))
    with pytest.raises(APIResponseValidationError, match=r"Endpoint \(id: Field required\)"):
        client.endpoints.get("Demo", "PetStore", "/pets", "GET")


# -- arguments ------------------------------------------------------------------------------


@pytest.mark.parametrize(
    ("project", "proxy", "raw"),
    [
        ("My Project", "Pet/Store", "/apiops/projects/My%20Project/apiProxies/Pet%2FStore/endpoints/"),
        ("a?b", "c#d", "/apiops/projects/a%3Fb/apiProxies/c%23d/endpoints/"),
        ("ü", "x%y", "/apiops/projects/%C3%BC/apiProxies/x%25y/endpoints/"),
    ],
)
def test_path_parameters_are_percent_encoded(
    project: str, proxy: str, raw: str, gateway: FakeGateway, client: ApinizerClient
) -> None:
    gateway.script(
        "GET",
        httpx.URL("http://x" + raw).path,
        httpx.Response(200, json={"success": True, "resultList": [], "resultCount": 0}),
    )
    client.endpoints.list(project, proxy)
    assert gateway.last.url.raw_path.decode() == raw


def test_rlcl_name_is_percent_encoded(gateway: FakeGateway, client: ApinizerClient) -> None:
    client.rlcl.replace_endpoints("Demo", "Gold/Tier 1", [RATE_LIMIT])
    assert gateway.last.url.raw_path.decode() == "/apiops/projects/Demo/rlcl/Gold%2FTier%201/endpoints/"


def test_empty_path_parameter_is_refused_before_sending(gateway: FakeGateway, client: ApinizerClient) -> None:
    with pytest.raises(ValueError, match="non-empty"):
        client.endpoints.list("", "PetStore")
    assert gateway.requests == []


def test_invalid_http_method_is_refused_before_sending(gateway: FakeGateway, client: ApinizerClient) -> None:
    with pytest.raises(ValueError, match=r"^http_method: must be one of GET, .*got 'get'"):
        client.endpoints.get("Demo", "PetStore", "/pets", "get")
    assert gateway.requests == []


def test_create_sends_description_when_given(gateway: FakeGateway, client: ApinizerClient) -> None:
    client.endpoints.create(
        "Demo",
        "PetStore",
        EndpointSpec(
            name="/pets",
            description="All pets",
            http_method="POST",
            backend_resource_url="https://b.test/pets",
            backend_http_method="PUT",
        ),
    )
    assert body(gateway.last) == {
        "name": "/pets",
        "description": "All pets",
        "httpMethod": "POST",
        "backendResourceUrl": "https://b.test/pets",
        "backendHttpMethod": "PUT",
    }


def test_create_accepts_a_mapping_in_api_shape(gateway: FakeGateway, client: ApinizerClient) -> None:
    client.endpoints.create(
        "Demo",
        "PetStore",
        {"name": "/a", "httpMethod": "GET", "backendResourceUrl": "/a", "backendHttpMethod": "GET"},
    )
    assert body(gateway.last)["httpMethod"] == "GET"


@pytest.mark.parametrize(
    ("changes", "sent"),
    [
        ({}, {}),
        ({"description": "new text"}, {"description": "new text"}),
        ({"description": ""}, {"description": ""}),
        ({"description": None}, {"description": ""}),
        ({"backend_http_method": "POST"}, {"backendHttpMethod": "POST"}),
        (
            {"backend_resource_url": "/v2", "backend_http_method": HttpMethod.PUT, "description": "d"},
            {"backendResourceUrl": "/v2", "backendHttpMethod": "PUT", "description": "d"},
        ),
    ],
)
def test_update_sends_only_the_keywords_given(
    changes: dict[str, Any], sent: dict[str, Any], gateway: FakeGateway, client: ApinizerClient
) -> None:
    client.endpoints.update("Demo", "PetStore", "/pets", "GET", **changes)
    assert body(gateway.last) == {"name": "/pets", "httpMethod": "GET", **sent}


def test_set_cache_sends_custom_key_variables(gateway: FakeGateway, client: ApinizerClient) -> None:
    settings = CacheSettings(
        name="c",
        handling_action="CONTINUE",
        cache_active=True,
        cache_key_type="CUSTOM",
        capacity=100,
        ttl=60,
        variable_list=[{"name": "h", "type": "HEADER", "header_name": "X-Id", "data_type": "STRING"}],
    )
    client.endpoints.set_cache("Demo", "PetStore", "/pets", "GET", settings)
    sent = body(gateway.last)["cacheSettings"]
    assert sent["capacity"] == 100 and sent["ttl"] == 60 and sent["cacheKeyType"] == "CUSTOM"
    assert sent["variableList"] == [
        {"name": "h", "type": "HEADER", "headerName": "X-Id", "dataType": "STRING"}
    ]


def test_set_wsa_sends_every_field(gateway: FakeGateway, client: ApinizerClient) -> None:
    settings = WsaSettings(
        wsa_enabled=True,
        wsa_to="http://svc.test/calc",
        wsa_message_id="urn:uuid:1234",
        wsa_relation_ship_type="http://www.w3.org/2005/08/addressing/reply",
    )
    client.endpoints.set_wsa("Demo", "Calculator", "Add", "POST", settings)
    sent = body(gateway.last)["wsaSettings"]
    assert set(sent) == set(WSA_DEFAULTS_JSON)
    assert sent["wsaTo"] == "http://svc.test/calc"
    assert sent["wsaRelationShipType"] == "http://www.w3.org/2005/08/addressing/reply"


def test_rlcl_all_entry_and_target_variable(gateway: FakeGateway, client: ApinizerClient) -> None:
    entry = {
        **RATE_LIMIT_JSON,
        "endpointName": "ALL",
        "endpointHTTPMethod": "ALL",
        "targetVariable": {"name": "ip", "type": "CONTEXT_VALUES", "contextValue": "REQUEST_REMOTE_ADDRESS"},
    }
    client.rlcl.add_endpoints("Demo", "Standard", [entry, RATE_LIMIT])
    sent = body(gateway.last)["endpointRateLimitList"]
    assert sent[0]["endpointName"] == "ALL" and sent[0]["endpointHTTPMethod"] == "ALL"
    assert sent[0]["targetVariable"] == {
        "name": "ip",
        "type": "CONTEXT_VALUES",
        "contextValue": "REQUEST_REMOTE_ADDRESS",
    }
    assert sent[1] == RATE_LIMIT_JSON


def test_rlcl_delete_carries_a_json_body(gateway: FakeGateway, client: ApinizerClient) -> None:
    client.rlcl.delete_endpoints("Demo", "Standard", [RATE_LIMIT])
    request = gateway.last
    assert request.method == "DELETE"
    assert request.headers["content-length"] == str(len(request.content))
    assert body(request) == {"endpointRateLimitList": [RATE_LIMIT_JSON]}


def test_rlcl_empty_list_is_left_to_the_gateway(gateway: FakeGateway, client: ApinizerClient) -> None:
    gateway.script("POST", RL, error(400, "bad_request", "endpointRateLimitList value can not be empty!"))
    with pytest.raises(BadRequestError, match="can not be empty"):
        client.rlcl.add_endpoints("Demo", "Standard", [])
    assert body(gateway.last) == {"endpointRateLimitList": []}


def test_rlcl_refuses_a_single_mapping(client: ApinizerClient) -> None:
    with pytest.raises(TypeError, match=r"^entries: must be a list"):
        client.rlcl.add_endpoints("Demo", "Standard", RATE_LIMIT_JSON)  # type: ignore[arg-type]


# -- find -----------------------------------------------------------------------------------


def test_find_returns_the_endpoint(gateway: FakeGateway, client: ApinizerClient) -> None:
    gateway.script("POST", EP + "details/", httpx.Response(200, json=ENDPOINT_JSON))
    found = client.endpoints.find("Demo", "PetStore", "/pets", "GET")
    assert found is not None and found.id == "65f1c0ffee0000000000abcd"


def test_find_returns_none_on_the_400_not_found_answer(gateway: FakeGateway, client: ApinizerClient) -> None:
    gateway.script(
        "POST",
        EP + "details/",
        error(400, "bad_request", "Endpoint with name (/nope) and HTTP method (GET) is not found!"),
    )
    assert client.endpoints.find("Demo", "PetStore", "/nope", "GET") is None


def test_find_returns_none_on_a_404_about_the_endpoint(gateway: FakeGateway, client: ApinizerClient) -> None:
    gateway.script("POST", EP + "details/", error(404, "not_found", "Endpoint not found"))
    assert client.endpoints.find("Demo", "PetStore", "/nope", "GET") is None


def test_find_raises_when_the_proxy_is_missing(gateway: FakeGateway, client: ApinizerClient) -> None:
    gateway.script(
        "POST", EP + "details/", error(404, "not_found", "ApiProxy (name: PetStore) was not found!")
    )
    with pytest.raises(NotFoundError, match="ApiProxy"):
        client.endpoints.find("Demo", "PetStore", "/pets", "GET")


@pytest.mark.parametrize(
    "description",
    [
        "Endpoint identifier (name and httpMethod) must be provided in request body!",
        "Endpoint with name (/pets) and HTTP method (GET) already exists!",
    ],
)
def test_find_raises_other_bad_requests(
    description: str, gateway: FakeGateway, client: ApinizerClient
) -> None:
    gateway.script("POST", EP + "details/", error(400, "bad_request", description))
    with pytest.raises(BadRequestError):
        client.endpoints.find("Demo", "PetStore", "/pets", "GET")


def test_find_raises_authentication_errors(gateway: FakeGateway, client: ApinizerClient) -> None:
    gateway.revoke_all()
    with pytest.raises(AuthenticationError, match="Invalid token"):
        client.endpoints.find("Demo", "PetStore", "/pets", "GET")


# -- health and token -----------------------------------------------------------------------


def test_health_is_unauthenticated(gateway: FakeGateway, cc_client: ApinizerClient) -> None:
    assert cc_client.health() is True
    [request] = gateway.requests
    assert (request.method, request.url.path) == ("GET", "/apiops/test/healthcheck")
    assert "authorization" not in request.headers
    assert gateway.token_requests == 0


def test_health_raises_on_an_error_status(gateway: FakeGateway) -> None:
    gateway.script("GET", "/apiops/test/healthcheck", httpx.Response(500, text="down"))
    with make_client(gateway, max_retries=0) as client, pytest.raises(InternalServerError, match="down"):
        client.health()


def test_request_token_sends_the_form(gateway: FakeGateway, cc_client: ApinizerClient) -> None:
    token = cc_client.request_token()
    assert (token.access_token, token.token_type, token.expires_in) == ("fetched-token-1", "Bearer", 3600)
    [request] = gateway.requests
    assert (request.method, request.url.path) == ("POST", "/apiops/auth/token")
    assert request.headers["content-type"] == "application/x-www-form-urlencoded"
    assert request.headers["accept"] == "application/json"
    assert "authorization" not in request.headers
    assert request.content == b"grant_type=client_credentials&client_id=admin&client_secret=pa55-w0rd-secret"


def test_request_token_with_bad_credentials(gateway: FakeGateway) -> None:
    client = make_client(gateway, username="admin", password="wrong")
    with client, pytest.raises(AuthenticationError) as caught:
        client.request_token()
    assert str(caught.value) == "POST /apiops/auth/token -> 401 unauthorized_client: Bad credentials"
