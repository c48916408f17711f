"""Spec 4.3 to 4.11: every endpoint operation's success and each listed error, over raw HTTP."""

from __future__ import annotations

import re
from concurrent.futures import ThreadPoolExecutor

import pytest

from .conftest import Api, assert_error, assert_success, endpoints_path, new_endpoint

IDENTIFIER_MISSING = "Endpoint identifier (name and httpMethod) must be provided in request body!"
ENDPOINT_FIELDS = {
    "id",
    "endpoint",
    "description",
    "active",
    "httpMethod",
    "backendResourceUrl",
    "backendHttpMethod",
}


def not_found(name: str, method: str) -> str:
    return f"Endpoint with name ({name}) and HTTP method ({method}) is not found!"


# -- 4.3 list ---------------------------------------------------------------------------------


def test_list_returns_the_fixture_endpoints(api: Api):
    response = api.list()
    assert response.status_code == 200
    body = response.json()
    assert set(body) == {"success", "resultList", "resultCount"}
    assert body["success"] is True
    assert body["resultCount"] == 3
    assert [(e["httpMethod"], e["endpoint"]) for e in body["resultList"]] == [
        ("GET", "/pets"),
        ("POST", "/pets"),
        ("GET", "/pets/{id}"),
    ]
    first = body["resultList"][0]
    assert set(first) == ENDPOINT_FIELDS
    assert re.fullmatch(r"[0-9a-f]{24}", first["id"])
    assert first == {
        "id": first["id"],
        "endpoint": "/pets",
        "description": "List all pets",
        "active": True,
        "httpMethod": "GET",
        "backendResourceUrl": "/pets",
        "backendHttpMethod": "GET",
    }


def test_list_works_for_soap_proxies(api: Api):
    body = api.list("Calculator").json()
    assert [(e["httpMethod"], e["endpoint"]) for e in body["resultList"]] == [
        ("POST", "Add"),
        ("POST", "Subtract"),
    ]
    assert body["resultCount"] == 2


def test_list_of_a_proxy_without_endpoints_is_empty(api: Api):
    assert_success(
        api.request(
            "POST", endpoints_path("delete", proxy="Orders"), {"name": "/orders", "httpMethod": "GET"}
        )
    )
    assert api.list("Orders").json() == {"success": True, "resultList": [], "resultCount": 0}


@pytest.mark.parametrize(("project", "proxy"), [("Demo", "Nope"), ("NoProject", "PetStore")])
def test_list_of_an_unknown_proxy_is_404(api: Api, project, proxy):
    assert_error(api.list(proxy, project), 404, "not_found", f"ApiProxy (name: {proxy}) was not found!")


# -- 4.4 create -------------------------------------------------------------------------------


def test_create_makes_an_active_endpoint(api: Api):
    assert_success(api.create(new_endpoint("/toys", "PUT", description="Toys")))
    created = api.get("/toys", "PUT").json()
    assert created["active"] is True
    assert created["description"] == "Toys"
    assert created["backendResourceUrl"] == "/backend/toys"
    assert created["backendHttpMethod"] == "PUT"
    assert re.fullmatch(r"[0-9a-f]{24}", created["id"])
    assert api.list().json()["resultCount"] == 4


def test_create_without_description_reads_back_null(api: Api):
    assert_success(api.create(new_endpoint("/plain")))
    assert api.get("/plain", "GET").json()["description"] is None


def test_create_same_name_with_another_method_is_a_new_endpoint(api: Api):
    assert_success(api.create(new_endpoint("/pets", "DELETE")))
    assert_success(api.create(new_endpoint("/pets", "GET"), proxy="Orders"))
    assert api.list().json()["resultCount"] == 4


def test_create_duplicate_pair_is_400(api: Api):
    assert_error(
        api.create(new_endpoint("/pets", "GET")),
        400,
        "bad_request",
        "Endpoint with name (/pets) and HTTP method (GET) already exists!",
    )
    assert api.list().json()["resultCount"] == 3


def test_create_on_a_soap_proxy_is_400(api: Api):
    assert_error(
        api.create(new_endpoint("Multiply", "POST"), proxy="Calculator"),
        400,
        "bad_request",
        "Endpoint can only be added to REST API Proxies!",
    )


def test_create_on_an_unknown_proxy_is_404(api: Api):
    assert_error(
        api.create(new_endpoint(), proxy="Ghost"), 404, "not_found", "ApiProxy (name: Ghost) was not found!"
    )


@pytest.mark.parametrize("field", ["name", "httpMethod", "backendResourceUrl", "backendHttpMethod"])
def test_create_without_a_required_field_is_400_naming_it(api: Api, field):
    body = new_endpoint()
    del body[field]
    assert_error(api.create(body), 400, "bad_request", f"{field} is required")


@pytest.mark.parametrize("field", ["httpMethod", "backendHttpMethod"])
@pytest.mark.parametrize("value", ["FETCH", "get", "", 7])
def test_create_with_an_invalid_method_is_400_naming_it(api: Api, field, value):
    response = api.create(new_endpoint(**{field: value}))
    assert_error(response, 400, "bad_request")
    assert response.json()["error_description"].startswith(field)


# -- 4.5 update -------------------------------------------------------------------------------


def test_update_changes_only_the_fields_sent(api: Api):
    before = api.get("/pets", "GET").json()
    assert_success(
        api.request(
            "PATCH", endpoints_path(), {"name": "/pets", "httpMethod": "GET", "description": "Every pet"}
        )
    )
    after = api.get("/pets", "GET").json()
    assert after == {**before, "description": "Every pet"}
    assert_success(
        api.request(
            "PATCH",
            endpoints_path(),
            {
                "name": "/pets",
                "httpMethod": "GET",
                "backendResourceUrl": "/v2/pets",
                "backendHttpMethod": "POST",
                "description": None,
            },
        )
    )
    assert api.get("/pets", "GET").json() == {
        **before,
        "description": "Every pet",
        "backendResourceUrl": "/v2/pets",
        "backendHttpMethod": "POST",
    }


def test_update_keeps_the_identity_and_policies(api: Api):
    before = api.request("POST", endpoints_path("policies"), {"name": "/pets", "httpMethod": "GET"}).json()
    assert_success(
        api.request("PATCH", endpoints_path(), {"name": "/pets", "httpMethod": "GET", "description": "x"})
    )
    after = api.request("POST", endpoints_path("policies"), {"name": "/pets", "httpMethod": "GET"}).json()
    assert after == {**before, "description": "x"}


def test_update_cannot_move_an_endpoint_onto_another_pair(api: Api):
    # The spec has no rename field; unknown fields are ignored, so no collision can arise.
    assert_success(
        api.request(
            "PATCH",
            endpoints_path(),
            {"name": "/pets", "httpMethod": "GET", "endpoint": "/pets/{id}", "newName": "/pets/{id}"},
        )
    )
    assert [(e["httpMethod"], e["endpoint"]) for e in api.list().json()["resultList"]] == [
        ("GET", "/pets"),
        ("POST", "/pets"),
        ("GET", "/pets/{id}"),
    ]


@pytest.mark.parametrize(
    "body",
    [
        {"httpMethod": "GET"},
        {"name": "/pets"},
        {"name": "", "httpMethod": "GET"},
        {"name": "/pets", "httpMethod": None},
    ],
)
def test_update_without_identifier_is_400(api: Api, body):
    assert_error(
        api.request("PATCH", endpoints_path(), {**body, "description": "x"}),
        400,
        "bad_request",
        IDENTIFIER_MISSING,
    )


def test_update_of_a_missing_endpoint_is_400(api: Api):
    assert_error(
        api.request("PATCH", endpoints_path(), {"name": "/cats", "httpMethod": "GET", "description": "x"}),
        400,
        "bad_request",
        not_found("/cats", "GET"),
    )


def test_update_with_an_invalid_value_is_400(api: Api):
    response = api.request(
        "PATCH", endpoints_path(), {"name": "/pets", "httpMethod": "GET", "backendHttpMethod": "FLY"}
    )
    assert_error(response, 400, "bad_request")
    assert response.json()["error_description"].startswith("backendHttpMethod")


def test_update_on_an_unknown_proxy_is_404(api: Api):
    assert_error(
        api.request("PATCH", endpoints_path(proxy="Ghost"), {"name": "/pets", "httpMethod": "GET"}),
        404,
        "not_found",
        "ApiProxy (name: Ghost) was not found!",
    )


# -- 4.6 get and 4.7 policies --------------------------------------------------------------------


def test_get_returns_the_bare_endpoint(api: Api):
    listed = api.list().json()["resultList"][2]
    response = api.get("/pets/{id}", "GET")
    assert response.status_code == 200
    assert response.json() == listed


def test_policies_returns_the_endpoint_and_its_three_pipelines(api: Api):
    response = api.request("POST", endpoints_path("policies"), {"name": "/pets", "httpMethod": "GET"})
    assert response.status_code == 200
    body = response.json()
    assert set(body) == ENDPOINT_FIELDS | {"requestPolicyList", "responsePolicyList", "errorPolicyList"}
    assert body["requestPolicyList"] == [
        {
            "type": "policy-api-based-throttling",
            "name": "throttle-list",
            "description": "100 calls per minute",
            "active": True,
        },
        {
            "type": "policy-header",
            "name": "add-correlation-id",
            "description": "Adds X-Correlation-Id",
            "active": True,
        },
    ]
    assert [p["name"] for p in body["responsePolicyList"]] == ["shape-pets"]
    assert body["errorPolicyList"] == [
        {
            "type": "policy-script",
            "name": "map-backend-errors",
            "description": "Maps backend errors to problem JSON",
            "active": False,
        }
    ]


def test_policies_of_an_endpoint_without_any_are_empty_arrays(api: Api):
    body = api.request("POST", endpoints_path("policies"), {"name": "/pets", "httpMethod": "POST"}).json()
    assert (body["requestPolicyList"], body["responsePolicyList"], body["errorPolicyList"]) == ([], [], [])


@pytest.mark.parametrize("suffix", ["details", "policies", "delete"])
def test_identifier_operations_share_their_errors(api: Api, suffix):
    path = endpoints_path(suffix)
    assert_error(api.request("POST", path, {"name": "/pets"}), 400, "bad_request", IDENTIFIER_MISSING)
    assert_error(api.request("POST", path, {"httpMethod": "GET"}), 400, "bad_request", IDENTIFIER_MISSING)
    assert_error(
        api.request("POST", path, {"name": "/nope", "httpMethod": "GET"}),
        400,
        "bad_request",
        not_found("/nope", "GET"),
    )
    assert_error(
        api.request("POST", path, {"name": "/pets", "httpMethod": "PUT"}),
        400,
        "bad_request",
        not_found("/pets", "PUT"),
    )
    assert_error(
        api.request("POST", endpoints_path(suffix, proxy="Ghost"), {"name": "/pets", "httpMethod": "GET"}),
        404,
        "not_found",
        "ApiProxy (name: Ghost) was not found!",
    )


# -- 4.8 delete -------------------------------------------------------------------------------


def test_delete_is_permanent_and_removes_the_policies(api: Api):
    assert_success(api.request("POST", endpoints_path("delete"), {"name": "/pets", "httpMethod": "GET"}))
    assert_error(api.get("/pets", "GET"), 400, "bad_request", not_found("/pets", "GET"))
    assert_error(
        api.request("POST", endpoints_path("policies"), {"name": "/pets", "httpMethod": "GET"}),
        400,
        "bad_request",
        not_found("/pets", "GET"),
    )
    names = [e["endpoint"] + " " + e["httpMethod"] for e in api.proxy_state("PetStore")["endpoints"]]
    assert "/pets GET" not in names
    # a second delete finds nothing, and re-creating gives a new endpoint with no policies
    assert_error(
        api.request("POST", endpoints_path("delete"), {"name": "/pets", "httpMethod": "GET"}),
        400,
        "bad_request",
        not_found("/pets", "GET"),
    )
    assert_success(api.create(new_endpoint("/pets", "GET")))
    body = api.request("POST", endpoints_path("policies"), {"name": "/pets", "httpMethod": "GET"}).json()
    assert (body["requestPolicyList"], body["responsePolicyList"], body["errorPolicyList"]) == ([], [], [])


def test_delete_on_a_soap_proxy_is_400(api: Api):
    assert_error(
        api.request(
            "POST", endpoints_path("delete", proxy="Calculator"), {"name": "Add", "httpMethod": "POST"}
        ),
        400,
        "bad_request",
        "Endpoint can only be deleted from REST API Proxies!",
    )
    assert api.list("Calculator").json()["resultCount"] == 2


def test_delete_names_its_errors_in_the_order_of_the_checks(api: Api):
    # The delete is one statement that finds its REST proxy itself; when it deletes nothing, the
    # error is the first that applies: a missing proxy, then a SOAP one, then a missing endpoint.
    delete = endpoints_path("delete")
    assert_error(
        api.request("POST", endpoints_path("delete", proxy="Ghost"), {"name": "/nope", "httpMethod": "GET"}),
        404,
        "not_found",
        "ApiProxy (name: Ghost) was not found!",
    )
    assert_error(
        api.request(
            "POST", endpoints_path("delete", proxy="Calculator"), {"name": "/nope", "httpMethod": "GET"}
        ),
        400,
        "bad_request",
        "Endpoint can only be deleted from REST API Proxies!",
    )
    # Same name, other method: only the pair identifies an endpoint.
    assert_error(
        api.request("POST", delete, {"name": "/pets", "httpMethod": "DELETE"}),
        400,
        "bad_request",
        not_found("/pets", "DELETE"),
    )
    before = api.list("PetStore").json()["resultCount"]
    assert_success(api.request("POST", delete, {"name": "/pets", "httpMethod": "GET"}))
    assert api.list("PetStore").json()["resultCount"] == before - 1



def test_concurrent_deletes_that_fail_undo_none_of_those_committed_beside_them(api: Api):
    # Deletes that arrive together commit together (the writer's groups); a one-statement delete that
    # finds nothing raises after deleting nothing, so it has no savepoint and needs none.
    names = [f"/together-{index}" for index in range(40)]
    for name in names:
        assert_success(api.create(new_endpoint(name, "GET")))
    before = api.list("PetStore").json()["resultCount"]
    delete = endpoints_path("delete")
    bodies = [{"name": name, "httpMethod": method} for name in names for method in ("GET", "PUT")]
    with ThreadPoolExecutor(16) as pool:
        answers = list(pool.map(lambda body: api.request("POST", delete, body), bodies))
    for body, answer in zip(bodies, answers, strict=True):
        if body["httpMethod"] == "GET":
            assert_success(answer)
        else:
            assert_error(answer, 400, "bad_request", not_found(body["name"], "PUT"))
    remaining = api.list("PetStore").json()
    assert remaining["resultCount"] == before - len(names)
    assert {e["endpoint"] for e in remaining["resultList"]}.isdisjoint(names)


# -- 4.9 status -------------------------------------------------------------------------------


def test_status_flips_active_and_keeps_policies(api: Api):
    status = endpoints_path("status")
    assert_success(
        api.request(
            "PATCH", status, {"identifierName": "/pets", "identifierHttpMethod": "GET", "active": False}
        )
    )
    body = api.request("POST", endpoints_path("policies"), {"name": "/pets", "httpMethod": "GET"}).json()
    assert body["active"] is False
    assert len(body["requestPolicyList"]) == 2
    # setting the same state again is accepted
    assert_success(
        api.request(
            "PATCH", status, {"identifierName": "/pets", "identifierHttpMethod": "GET", "active": False}
        )
    )
    assert_success(
        api.request(
            "PATCH", status, {"identifierName": "/pets", "identifierHttpMethod": "GET", "active": True}
        )
    )
    assert api.get("/pets", "GET").json()["active"] is True


def test_status_works_on_soap_endpoints(api: Api):
    assert_success(
        api.request(
            "PATCH",
            endpoints_path("status", proxy="Calculator"),
            {"identifierName": "Add", "identifierHttpMethod": "POST", "active": False},
        )
    )
    assert api.get("Add", "POST", proxy="Calculator").json()["active"] is False


def test_status_errors(api: Api):
    status = endpoints_path("status")
    assert_error(
        api.request("PATCH", status, {"identifierHttpMethod": "GET", "active": True}),
        400,
        "bad_request",
        IDENTIFIER_MISSING,
    )
    assert_error(
        api.request("PATCH", status, {"identifierName": "/pets", "active": True}),
        400,
        "bad_request",
        IDENTIFIER_MISSING,
    )
    assert_error(
        api.request("PATCH", status, {"identifierName": "/pets", "identifierHttpMethod": "GET"}),
        400,
        "bad_request",
        "active is required",
    )
    assert_error(
        api.request("PATCH", status, {"identifierName": "/x", "identifierHttpMethod": "GET", "active": True}),
        400,
        "bad_request",
        not_found("/x", "GET"),
    )
    response = api.request(
        "PATCH", status, {"identifierName": "/pets", "identifierHttpMethod": "GET", "active": "maybe"}
    )
    assert_error(response, 400, "bad_request")
    assert response.json()["error_description"].startswith("active")
    assert_error(
        api.request(
            "PATCH",
            endpoints_path("status", proxy="Ghost"),
            {"identifierName": "/pets", "identifierHttpMethod": "GET", "active": True},
        ),
        404,
        "not_found",
        "ApiProxy (name: Ghost) was not found!",
    )


# -- 4.10 cache -------------------------------------------------------------------------------


def cache_body(settings, name="/pets", method="GET"):
    return {"identifierName": name, "identifierHttpMethod": method, "cacheSettings": settings}


def test_cache_settings_are_stored_with_the_spec_defaults(api: Api):
    assert_success(
        api.request(
            "PATCH",
            endpoints_path("cache"),
            cache_body({"name": "pets-cache", "handlingAction": "STOP", "ttl": 60}),
        )
    )
    stored = next(
        e
        for e in api.proxy_state("PetStore")["endpoints"]
        if e["endpoint"] == "/pets" and e["httpMethod"] == "GET"
    )["cacheSettings"]
    assert stored == {
        "name": "pets-cache",
        "cacheActive": False,
        "cacheOnlyHttpGetRequests": True,
        "cacheKeyType": "QUERY_PARAMS",
        "cacheStorageType": "DISTRIBUTED",
        "ttl": 60,
        "handlingAction": "STOP",
        "invalidationRequiresAuthn": False,
        "cacheNullValue": False,
        "variableList": [],
    }


def test_cache_settings_with_a_custom_key(api: Api):
    settings = {
        "name": "by-user",
        "cacheActive": True,
        "cacheKeyType": "CUSTOM",
        "cacheStorageType": "LOCAL",
        "capacity": 100,
        "handlingAction": "CONTINUE",
        "variableList": [{"name": "user", "type": "HEADER", "headerName": "X-User", "dataType": "STRING"}],
    }
    assert_success(api.request("PATCH", endpoints_path("cache"), cache_body(settings)))
    stored = api.proxy_state("PetStore")["endpoints"][0]["cacheSettings"]
    assert stored["cacheKeyType"] == "CUSTOM"
    assert stored["variableList"] == [
        {"name": "user", "type": "HEADER", "headerName": "X-User", "dataType": "STRING"}
    ]


@pytest.mark.parametrize("settings", [{"name": "c"}, {"name": "c", "handlingAction": None}])
def test_cache_without_handling_action_is_400(api: Api, settings):
    assert_error(
        api.request("PATCH", endpoints_path("cache"), cache_body(settings)),
        400,
        "bad_request",
        "handlingAction is required",
    )


@pytest.mark.parametrize(
    ("settings", "field"),
    [
        ({"name": "c", "handlingAction": "PAUSE"}, "cacheSettings.handlingAction"),
        ({"name": "c", "handlingAction": "STOP", "cacheKeyType": "HEADERS"}, "cacheSettings.cacheKeyType"),
        (
            {"name": "c", "handlingAction": "STOP", "cacheStorageType": "DISK"},
            "cacheSettings.cacheStorageType",
        ),
        ({"name": "c", "handlingAction": "STOP", "cacheKeyType": "CUSTOM"}, "cacheSettings.variableList"),
        (
            {
                "name": "c",
                "handlingAction": "STOP",
                "cacheKeyType": "CUSTOM",
                "variableList": [{"name": "v", "type": "BODY", "messageContentType": "XML"}],
            },
            "cacheSettings.variableList[0].xpathValue",
        ),
        ({"name": "c", "handlingAction": "STOP", "ttl": -5}, "cacheSettings.ttl"),
        ({"handlingAction": "STOP"}, "cacheSettings.name"),
    ],
)
def test_cache_with_an_invalid_setting_is_400_naming_it(api: Api, settings, field):
    response = api.request("PATCH", endpoints_path("cache"), cache_body(settings))
    assert_error(response, 400, "bad_request")
    assert response.json()["error_description"].startswith(field), response.json()


def test_cache_errors(api: Api):
    cache = endpoints_path("cache")
    settings = {"name": "c", "handlingAction": "STOP"}
    assert_error(
        api.request("PATCH", cache, {"identifierHttpMethod": "GET", "cacheSettings": settings}),
        400,
        "bad_request",
        IDENTIFIER_MISSING,
    )
    assert_error(
        api.request("PATCH", cache, {"identifierName": "/pets", "identifierHttpMethod": "GET"}),
        400,
        "bad_request",
        "cacheSettings is required",
    )
    assert_error(
        api.request("PATCH", cache, cache_body(settings, "/cats")),
        404,
        "not_found",
        not_found("/cats", "GET"),
    )
    assert_error(
        api.request("PATCH", endpoints_path("cache", proxy="Ghost"), cache_body(settings)),
        404,
        "not_found",
        "ApiProxy (name: Ghost) was not found!",
    )


# -- 4.11 WS-Addressing --------------------------------------------------------------------------


def wsa_body(settings, name="Add", method="POST"):
    return {"identifierName": name, "identifierHttpMethod": method, "wsaSettings": settings}


def test_wsa_settings_are_stored_on_soap_endpoints(api: Api):
    settings = {
        "wsaEnabled": True,
        "wsaVersion": "V200408",
        "wsaAddDefaultAction": True,
        "wsaTo": "http://calc.example/svc",
        "wsaGenerateMessageId": True,
        "wsaMustUnderstand": "TRUE",
    }
    assert_success(api.request("PATCH", endpoints_path("wsa", proxy="Calculator"), wsa_body(settings)))
    stored = api.proxy_state("Calculator")["endpoints"][0]["wsaSettings"]
    assert stored == {
        "wsaEnabled": True,
        "wsaMustUnderstand": "TRUE",
        "wsaVersion": "V200408",
        "wsaAddDefaultAction": True,
        "wsaAction": None,
        "wsaAddDefaultTo": False,
        "wsaTo": "http://calc.example/svc",
        "wsaReplyTo": None,
        "wsaGenerateMessageId": True,
        "wsaMessageId": None,
        "wsaFrom": None,
        "wsaFaultTo": None,
        "wsaRelatesTo": None,
        "wsaRelationShipType": None,
    }
    assert api.proxy_state("Calculator")["endpoints"][1]["wsaSettings"] is None


def test_wsa_on_a_rest_proxy_is_400(api: Api):
    assert_error(
        api.request("PATCH", endpoints_path("wsa"), wsa_body({"wsaEnabled": True}, "/pets", "GET")),
        400,
        "bad_request",
        "WS-Addressing settings can only be set on endpoints of SOAP API Proxies!",
    )


def test_wsa_errors(api: Api):
    wsa = endpoints_path("wsa", proxy="Calculator")
    assert_error(
        api.request("PATCH", wsa, wsa_body({}, "Divide")), 404, "not_found", not_found("Divide", "POST")
    )
    assert_error(
        api.request("PATCH", wsa, {"identifierName": "Add", "wsaSettings": {}}),
        400,
        "bad_request",
        IDENTIFIER_MISSING,
    )
    assert_error(
        api.request("PATCH", wsa, {"identifierName": "Add", "identifierHttpMethod": "POST"}),
        400,
        "bad_request",
        "wsaSettings is required",
    )
    response = api.request("PATCH", wsa, wsa_body({"wsaReplyTo": "not a uri"}))
    assert_error(response, 400, "bad_request")
    assert response.json()["error_description"].startswith("wsaSettings.wsaReplyTo")
    response = api.request("PATCH", wsa, wsa_body({"wsaVersion": "V2020"}))
    assert response.json()["error_description"].startswith("wsaSettings.wsaVersion")
    assert_error(
        api.request("PATCH", endpoints_path("wsa", proxy="Ghost"), wsa_body({})),
        404,
        "not_found",
        "ApiProxy (name: Ghost) was not found!",
    )
