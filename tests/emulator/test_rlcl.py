"""Spec 4.12, 4.11b and 4.13: the three RLCL list operations and their semantics."""

from __future__ import annotations

from typing import Any

import pytest

from .conftest import Api, assert_error, assert_success, endpoints_path, new_endpoint, rlcl_path

EMPTY = "endpointRateLimitList value can not be empty!"


def entry(proxy: str = "PetStore", name: str | None = "/pets", method: str | None = "GET", **extra: Any):
    body: dict[str, Any] = {
        "apiProxyName": proxy,
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
        **extra,
    }
    if name is not None:
        body["endpointName"] = name
    if method is not None:
        body["endpointHTTPMethod"] = method
    return body


def rl(*entries):
    return {"endpointRateLimitList": list(entries)}


def keys(entries):
    return [(e["apiProxyName"], e.get("endpointName"), e.get("endpointHTTPMethod")) for e in entries]


def test_rlcls_start_empty(api: Api):
    assert api.rlcl_entries("Standard") == []
    assert api.rlcl_entries("Premium") == []


def test_add_appends_in_the_write_shape_and_resolves_endpoint_ids(api: Api):
    first = entry(permittedMessageCount=10)
    assert_success(api.request("POST", rlcl_path(), rl(first)))
    assert api.rlcl_entries() == [first]
    second = entry(
        name="/pets/{id}", targetVariable={"name": "client", "type": "HEADER", "headerName": "X-Client"}
    )
    assert_success(api.request("POST", rlcl_path(), rl(second)))
    assert keys(api.rlcl_entries()) == [("PetStore", "/pets", "GET"), ("PetStore", "/pets/{id}", "GET")]
    assert api.rlcl_entries()[1]["targetVariable"] == {
        "name": "client",
        "type": "HEADER",
        "headerName": "X-Client",
    }
    # the endpoint id is resolved by the server and stored with the entry
    state = api.state()["projects"][0]
    ids = {e["endpoint"] + " " + e["httpMethod"]: e["id"] for e in state["apiProxies"][0]["endpoints"]}
    stored = state["rlcls"][0]["endpointRateLimitList"]
    assert [e["endpointId"] for e in stored] == [ids["/pets GET"], ids["/pets/{id} GET"]]
    assert "endpointId" not in api.rlcl_entries()[0]


def test_add_ignores_duplicates_with_all_normalized(api: Api):
    assert_success(
        api.request("POST", rlcl_path(), rl(entry(), entry(proxy="Calculator", name="ALL", method=None)))
    )
    # the same entries again (other settings, ALL spelled differently) change nothing
    assert_success(
        api.request(
            "POST",
            rlcl_path(),
            rl(
                entry(permittedMessageCount=5),
                entry(proxy="Calculator", name=None, method="ALL"),
                entry(proxy="Calculator", name="ALL", method="ALL"),
            ),
        )
    )
    stored = api.rlcl_entries()
    assert keys(stored) == [("PetStore", "/pets", "GET"), ("Calculator", "ALL", None)]
    assert stored[0]["permittedMessageCount"] == 100


def test_add_duplicates_inside_one_request_keep_the_first(api: Api):
    assert_success(
        api.request("POST", rlcl_path(), rl(entry(permittedMessageCount=1), entry(permittedMessageCount=2)))
    )
    assert [e["permittedMessageCount"] for e in api.rlcl_entries()] == [1]


def test_all_entry_has_no_endpoint_id(api: Api):
    assert_success(api.request("POST", rlcl_path("Premium"), rl(entry(name="ALL", method="ALL"))))
    assert api.state()["projects"][0]["rlcls"][1]["endpointRateLimitList"][0]["endpointId"] is None


def test_replace_swaps_the_whole_list(api: Api):
    assert_success(api.request("POST", rlcl_path(), rl(entry(), entry(name="/pets/{id}"))))
    assert_success(
        api.request("PUT", rlcl_path(), rl(entry(method="POST"), entry(proxy="Orders", name="/orders")))
    )
    assert keys(api.rlcl_entries()) == [("PetStore", "/pets", "POST"), ("Orders", "/orders", "GET")]
    # the other RLCL is untouched
    assert api.rlcl_entries("Premium") == []


def test_replace_with_an_invalid_entry_keeps_the_old_list(api: Api):
    assert_success(api.request("POST", rlcl_path(), rl(entry())))
    assert_error(
        api.request("PUT", rlcl_path(), rl(entry(method="POST"), entry(name="/cats"))),
        400,
        "bad_request",
        "API Endpoint with name (/cats) and method type (GET) is not found in API Proxy!",
    )
    assert keys(api.rlcl_entries()) == [("PetStore", "/pets", "GET")]


def test_delete_removes_only_matching_entries_and_ignores_the_rest(api: Api):
    assert_success(
        api.request(
            "POST",
            rlcl_path(),
            rl(entry(), entry(method="POST"), entry(proxy="Calculator", name="ALL", method="ALL")),
        )
    )
    assert_success(
        api.request(
            "DELETE",
            rlcl_path(),
            rl(
                entry(method="POST"),
                entry(proxy="Calculator", name=None, method="ALL"),  # matches the ALL entry once normalized
                entry(name="/pets/{id}"),  # not in the RLCL: ignored
            ),
        )
    )
    assert keys(api.rlcl_entries()) == [("PetStore", "/pets", "GET")]


def test_delete_matches_on_the_three_keys_only(api: Api):
    assert_success(api.request("POST", rlcl_path(), rl(entry(), entry(method="POST"))))
    key_only = {"apiProxyName": "PetStore", "endpointName": "/pets", "endpointHTTPMethod": "GET"}
    assert_success(api.request("DELETE", rlcl_path(), rl(key_only)))
    assert keys(api.rlcl_entries()) == [("PetStore", "/pets", "POST")]
    # an entry whose endpoint no longer exists can still be removed
    assert_success(api.request("POST", endpoints_path("delete"), {"name": "/pets", "httpMethod": "POST"}))
    assert_success(api.request("DELETE", rlcl_path(), rl(entry(method="POST", permittedMessageCount=7))))
    assert api.rlcl_entries() == []


@pytest.mark.parametrize("method", ["POST", "PUT", "DELETE"])
@pytest.mark.parametrize("body", [{"endpointRateLimitList": []}, {"endpointRateLimitList": None}, {}])
def test_empty_list_is_refused(api: Api, method, body):
    assert_error(api.request(method, rlcl_path(), body), 400, "bad_request", EMPTY)


@pytest.mark.parametrize("method", ["POST", "PUT"])
def test_unknown_proxy_or_endpoint_is_refused(api: Api, method):
    assert_error(
        api.request(method, rlcl_path(), rl(entry(proxy="Ghost"))),
        400,
        "bad_request",
        "API Proxy with name (Ghost) is not found in project!",
    )
    assert_error(
        api.request(method, rlcl_path(), rl(entry(name="/pets", method="DELETE"))),
        400,
        "bad_request",
        "API Endpoint with name (/pets) and method type (DELETE) is not found in API Proxy!",
    )
    # a proxy of another project is not in this project
    assert api.rlcl_entries() == []


def test_an_endpoint_of_method_all_matches_any_method(api: Api):
    assert_success(api.create(new_endpoint("/any", "ALL")))
    assert_success(api.request("POST", rlcl_path(), rl(entry(name="/any", method="PATCH"))))
    endpoint_id = api.get("/any", "ALL").json()["id"]
    assert api.state()["projects"][0]["rlcls"][0]["endpointRateLimitList"][0]["endpointId"] == endpoint_id


@pytest.mark.parametrize(
    ("bad", "field"),
    [
        ({"endpointName": "ALL", "endpointHTTPMethod": "GET"}, "endpointRateLimitList[0].endpointHTTPMethod"),
        ({"endpointName": "/pets", "endpointHTTPMethod": "ALL"}, "endpointRateLimitList[0].endpointName"),
        ({"endpointHTTPMethod": None}, "endpointRateLimitList[0].endpointHTTPMethod"),
        ({"permittedMessageCount": 0}, "endpointRateLimitList[0].permittedMessageCount"),
        ({"timeInterval": "ONE_WEEK"}, "endpointRateLimitList[0].timeInterval"),
        ({"cacheErrorHandlingType": "IGNORE"}, "endpointRateLimitList[0].cacheErrorHandlingType"),
        ({"timeIntervalWindowType": "ROLLING"}, "endpointRateLimitList[0].timeIntervalWindowType"),
        (
            {"targetVariable": {"name": "v", "type": "CUSTOM"}},
            "endpointRateLimitList[0].targetVariable.scriptLanguage",
        ),
    ],
)
def test_invalid_entries_are_400_naming_the_field(api: Api, bad, field):
    response = api.request("POST", rlcl_path(), rl({**entry(), **bad}))
    assert_error(response, 400, "bad_request")
    assert response.json()["error_description"].startswith(field), response.json()


def test_missing_required_entry_field_is_named(api: Api):
    body = entry()
    del body["timeInterval"]
    assert_error(
        api.request("POST", rlcl_path(), rl(body)),
        400,
        "bad_request",
        "endpointRateLimitList[0].timeInterval is required",
    )


@pytest.mark.parametrize("method", ["POST", "PUT", "DELETE"])
def test_unknown_rlcl_or_project_is_the_documented_400(api: Api, method):
    # https://apinizer.github.io/management-api-docs/02-api-reference/12-rlcl/crud/update-rlcl/
    assert_error(
        api.request(method, rlcl_path("Gold"), rl(entry())), 400, "bad_request", "RLCL (Gold) is not found!"
    )
    assert_error(
        api.request(method, rlcl_path("Standard", project="Other"), rl(entry())),
        400,
        "bad_request",
        "RLCL (Standard) is not found!",
    )


def test_inspection_of_an_unknown_rlcl_is_404(api: Api):
    response = api.client.get("/_emulator/projects/Demo/rlcl/Gold/endpoints")
    assert_error(response, 404, "not_found", "RLCL (Gold) is not found!")
