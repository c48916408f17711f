"""The RLCL's own lifecycle as the product's documentation describes it, over raw HTTP.

https://apinizer.github.io/management-api-docs/02-api-reference/12-rlcl/crud/create-rlcl/
https://apinizer.github.io/management-api-docs/02-api-reference/12-rlcl/crud/update-rlcl/
https://apinizer.github.io/management-api-docs/02-api-reference/12-rlcl/crud/delete-rlcl/
"""

from __future__ import annotations

from typing import Any

import pytest

from .conftest import GUEST_TOKEN, Api, assert_error, assert_success, rlcl_path
from .test_rlcl import entry, rl

RLCLS = "/apiops/projects/{project}/rlcl/"
RLCL = "/apiops/projects/{project}/rlcl/{name}/"

#: The documentation's first example body.
PREMIUM = {
    "name": "PremiumUserRLCL",
    "description": "Rate limit for premium users",
    "enabled": True,
    "executionOrder": "FIRST",
    "cacheConnectionTimeoutInSeconds": 3,
    "cacheErrorHandlingType": "FAIL",
    "timeIntervalWindowType": "FIXED",
    "showRateLimitStatisticsInResponseHeader": False,
    "targetVariable": None,
}

#: The documentation's second example body.
IP_BASED = {
    "name": "IPBasedRLCL",
    "description": "Rate limit based on IP address",
    "enabled": True,
    "executionOrder": "FIRST",
    "cacheConnectionTimeoutInSeconds": 5,
    "cacheErrorHandlingType": "CONTINUE",
    "timeIntervalWindowType": "SLIDING",
    "showRateLimitStatisticsInResponseHeader": True,
    "targetVariable": {
        "name": "clientIp",
        "type": "CONTEXT_VALUES",
        "contextValue": "REQUEST_REMOTE_ADDRESS",
    },
}


def create(api: Api, body: dict[str, Any], project: str = "Demo") -> Any:
    return api.request("POST", RLCLS.format(project=project), body)


def stored(api: Api, name: str, project: str = "Demo") -> dict[str, Any]:
    response = api.client.get(f"/_emulator/projects/{project}/rlcl/{name}")
    assert response.status_code == 200, response.text
    body: dict[str, Any] = response.json()
    return body


@pytest.mark.parametrize("body", [PREMIUM, IP_BASED], ids=["basic", "target-variable"])
def test_create_stores_the_documented_example_as_sent(api: Api, body):
    assert_success(create(api, body))
    assert stored(api, body["name"]) == body
    # "RLCL is created empty (no credentials or endpoints)".
    assert api.rlcl_entries(body["name"]) == []


def test_create_fills_the_documented_defaults(api: Api):
    assert_success(create(api, {"name": "Bare"}))
    # The first documented example spells out every default.
    defaults = {key: value for key, value in PREMIUM.items() if key != "description"}
    assert stored(api, "Bare") == {**defaults, "name": "Bare"}


@pytest.mark.parametrize("body", [{}, {"name": ""}, {"name": "  "}, {"name": None, "enabled": True}])
def test_create_without_a_name_is_the_documented_400(api: Api, body):
    assert_error(create(api, body), 400, "bad_request", "name value can not be empty!")


def test_create_with_a_taken_name_is_the_documented_400(api: Api):
    assert_success(create(api, PREMIUM))
    assert_error(
        create(api, PREMIUM),
        400,
        "bad_request",
        "An RLCL with same name (PremiumUserRLCL) already exists in project!",
    )
    assert_error(
        create(api, {"name": "Standard"}),
        400,
        "bad_request",
        "An RLCL with same name (Standard) already exists in project!",
    )


def test_create_in_an_unknown_project_is_404(api: Api):
    assert_error(create(api, PREMIUM, project="Nowhere"), 404, "not_found", "Project 'Nowhere' not found")


@pytest.mark.parametrize(
    ("field", "value", "message"),
    [
        ("executionOrder", "MIDDLE", "executionOrder"),
        ("cacheErrorHandlingType", "IGNORE", "cacheErrorHandlingType"),
        ("timeIntervalWindowType", "ROLLING", "timeIntervalWindowType"),
        ("cacheConnectionTimeoutInSeconds", 0, "cacheConnectionTimeoutInSeconds"),
        ("enabled", "yes", "enabled"),
    ],
)
def test_create_with_a_bad_field_is_400_naming_it(api: Api, field, value, message):
    response = create(api, {**PREMIUM, field: value})
    assert_error(response, 400, "bad_request")
    assert message in response.json()["error_description"]
    assert api.client.get("/_emulator/projects/Demo/rlcl/PremiumUserRLCL").status_code == 404


def test_a_custom_target_variable_needs_its_script(api: Api):
    variable = {"name": "v", "type": "CUSTOM"}
    response = create(api, {**PREMIUM, "targetVariable": variable})
    assert_error(response, 400, "bad_request")
    assert "targetVariable.scriptLanguage" in response.json()["error_description"]


def test_update_replaces_every_field_but_keeps_the_lists(api: Api):
    assert_success(create(api, PREMIUM))
    assert_success(api.request("POST", rlcl_path("PremiumUserRLCL"), rl(entry())))
    # The documented cURL example sends no name: the path names the RLCL.
    change = {k: v for k, v in IP_BASED.items() if k != "name"}
    assert_success(api.request("PUT", RLCL.format(project="Demo", name="PremiumUserRLCL"), change))
    assert stored(api, "PremiumUserRLCL") == {**IP_BASED, "name": "PremiumUserRLCL"}
    assert len(api.rlcl_entries("PremiumUserRLCL")) == 1


def test_update_of_an_unknown_rlcl_is_the_documented_400(api: Api):
    assert_error(
        api.request("PUT", RLCL.format(project="Demo", name="PremiumUserRLCL"), PREMIUM),
        400,
        "bad_request",
        "RLCL (PremiumUserRLCL) is not found!",
    )


def test_update_cannot_rename(api: Api):
    response = api.request("PUT", RLCL.format(project="Demo", name="Standard"), {**PREMIUM, "name": "Gold"})
    assert_error(response, 400, "bad_request")
    assert stored(api, "Standard")["name"] == "Standard"
    assert api.client.get("/_emulator/projects/Demo/rlcl/Gold").status_code == 404


def test_delete_removes_the_rlcl_with_its_list(api: Api):
    assert_success(api.request("POST", rlcl_path("Standard"), rl(entry())))
    assert_success(api.request("DELETE", RLCL.format(project="Demo", name="Standard")))
    assert [r["name"] for r in api.state()["projects"][0]["rlcls"]] == ["Premium"]
    assert_error(
        api.request("DELETE", RLCL.format(project="Demo", name="Standard")),
        400,
        "bad_request",
        "RLCL (Standard) is not found!",
    )
    # The name is free again, and the new RLCL starts empty.
    assert_success(create(api, {"name": "Standard"}))
    assert api.rlcl_entries("Standard") == []


def test_fixture_rlcls_carry_the_documented_defaults(api: Api):
    assert stored(api, "Premium")["executionOrder"] == "FIRST"
    state = {r["name"]: r for r in api.state()["projects"][0]["rlcls"]}
    assert state["Standard"]["settings"]["cacheConnectionTimeoutInSeconds"] == 3


@pytest.mark.parametrize(
    ("method", "path", "body"),
    [
        ("POST", RLCLS.format(project="Demo"), PREMIUM),
        ("PUT", RLCL.format(project="Demo", name="Standard"), PREMIUM),
        ("DELETE", RLCL.format(project="Demo", name="Standard"), None),
    ],
)
def test_rlcl_operations_need_role_manage_proxies(api: Api, method, path, body):
    # "ROLE_MANAGE_PROXIES - Required for all RLCL operations" (12-rlcl/index).
    response = api.request(method, path, body, token=GUEST_TOKEN)
    assert_error(response, 403, "forbidden")
    assert api.request(method, path, body, token="no-such-token").status_code == 401
    assert stored(api, "Standard")["name"] == "Standard"


def test_developer_may_manage_rlcls(dev_api: Api):
    assert_success(create(dev_api, PREMIUM))
    assert_success(dev_api.request("DELETE", RLCL.format(project="Demo", name="PremiumUserRLCL")))
