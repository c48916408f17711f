"""IP groups and their addresses over raw HTTP, as the product's pages document them.

https://github.com/apinizer/management-api-docs/blob/main/02-api-reference/11-ip-groups/index.md
"""

from __future__ import annotations

from typing import Any

import pytest

from .conftest import GUEST_TOKEN, Api, assert_error, assert_success

GROUPS = "/apiops/projects/{project}/ipGroups/"
GROUP = GROUPS + "{name}/"
IPS = GROUP + "ips/"


def groups(api: Api, project: str = "Demo") -> dict[str, dict[str, Any]]:
    for item in api.state()["projects"]:
        if item["name"] == project:
            return {group["name"]: group for group in item["ipGroups"]}
    raise AssertionError(project)


def make(api: Api, name: str = "AllowedIPs", ips: list[str] | None = None) -> None:
    assert_success(
        api.request(
            "POST",
            GROUPS.format(project="Demo"),
            {"name": name, "description": "Allowed IP addresses for API access"},
        )
    )
    if ips:
        assert_success(api.request("POST", IPS.format(project="Demo", name=name), {"ipList": ips}))


def test_create_makes_an_empty_group_with_the_documented_body(api: Api) -> None:
    make(api)
    assert_success(api.request("POST", GROUPS.format(project="Demo"), {"name": "BlockedIPs"}))
    assert groups(api) == {
        "AllowedIPs": {
            "name": "AllowedIPs",
            "description": "Allowed IP addresses for API access",
            "ipList": [],
        },
        "BlockedIPs": {"name": "BlockedIPs", "description": None, "ipList": []},
    }


@pytest.mark.parametrize("body", [{}, {"name": ""}, {"name": "  "}, {"description": "x"}])
def test_create_without_a_name_is_refused_as_documented(api: Api, body: dict[str, Any]) -> None:
    response = api.request("POST", GROUPS.format(project="Demo"), body)
    assert_error(response, 400, "bad_request", "name value can not be empty!")
    assert groups(api) == {}


def test_a_taken_name_is_refused_as_documented(api: Api) -> None:
    make(api, ips=["10.0.0.0/8"])
    response = api.request("POST", GROUPS.format(project="Demo"), {"name": "AllowedIPs"})
    assert_error(
        response, 400, "bad_request", "An IP Group with same name (AllowedIPs) already exists in project!"
    )
    assert groups(api)["AllowedIPs"]["ipList"] == ["10.0.0.0/8"]


def test_update_changes_only_the_description(api: Api) -> None:
    make(api, ips=["192.168.1.100"])
    body = {"name": "AllowedIPs", "description": "Updated description for allowed IP addresses"}
    assert_success(api.request("PUT", GROUP.format(project="Demo", name="AllowedIPs"), body))
    assert groups(api)["AllowedIPs"] == {**body, "ipList": ["192.168.1.100"]}


def test_update_of_an_unknown_group_or_a_rename_is_refused(api: Api) -> None:
    response = api.request("PUT", GROUP.format(project="Demo", name="Nope"), {"name": "Nope"})
    assert_error(response, 400, "bad_request", "IP Group (Nope) is not found!")
    make(api)
    response = api.request("PUT", GROUP.format(project="Demo", name="AllowedIPs"), {"name": "Other"})
    assert_error(
        response,
        400,
        "bad_request",
        "IP Group name can not be changed: name (Other) must match the path (AllowedIPs)!",
    )
    response = api.request("PUT", GROUP.format(project="Demo", name="AllowedIPs"), {"description": "x"})
    assert_error(response, 400, "bad_request", "name value can not be empty!")


def test_delete_removes_the_group_and_its_addresses(api: Api) -> None:
    make(api, ips=["10.0.0.50"])
    assert_success(api.request("DELETE", GROUP.format(project="Demo", name="AllowedIPs")))
    assert groups(api) == {}
    response = api.request("DELETE", GROUP.format(project="Demo", name="AllowedIPs"))
    assert_error(response, 400, "bad_request", "IP Group (AllowedIPs) is not found!")


def test_add_ignores_duplicates_and_keeps_the_order(api: Api) -> None:
    make(api, ips=["192.168.1.100", "10.0.0.0/8"])
    path = IPS.format(project="Demo", name="AllowedIPs")
    assert_success(api.request("POST", path, {"ipList": ["10.0.0.0/8", "172.16.0.0/12", "172.16.0.0/12"]}))
    assert groups(api)["AllowedIPs"]["ipList"] == ["192.168.1.100", "10.0.0.0/8", "172.16.0.0/12"]


def test_replace_sets_exactly_the_list_and_delete_removes_only_the_named(api: Api) -> None:
    make(api, ips=["192.168.1.100", "10.0.0.0/8"])
    path = IPS.format(project="Demo", name="AllowedIPs")
    assert_success(api.request("PUT", path, {"ipList": ["192.168.1.100", "203.0.113.7"]}))
    assert groups(api)["AllowedIPs"]["ipList"] == ["192.168.1.100", "203.0.113.7"]
    assert_success(api.request("DELETE", path, {"ipList": ["192.168.1.100", "10.9.9.9"]}))
    assert groups(api)["AllowedIPs"]["ipList"] == ["203.0.113.7"]


@pytest.mark.parametrize("method", ["POST", "PUT", "DELETE"])
def test_an_empty_ip_list_is_refused_as_documented(api: Api, method: str) -> None:
    make(api, ips=["10.0.0.1"])
    for body in ({"ipList": []}, {}):
        response = api.request(method, IPS.format(project="Demo", name="AllowedIPs"), body)
        assert_error(response, 400, "bad_request", "ipList value can not be empty!")
    assert groups(api)["AllowedIPs"]["ipList"] == ["10.0.0.1"]


@pytest.mark.parametrize("bad", ["10.0.0.1/8", "::1", "300.1.1.1", "host.example", 7])
def test_an_address_that_is_no_ipv4_address_or_range_is_refused_by_index(api: Api, bad: Any) -> None:
    make(api)
    response = api.request(
        "POST", IPS.format(project="Demo", name="AllowedIPs"), {"ipList": ["10.0.0.1", bad]}
    )
    assert_error(
        response, 400, "bad_request", f"ipList[1] ({bad}) is not a valid IPv4 address or CIDR range!"
    )
    assert groups(api)["AllowedIPs"]["ipList"] == []


def test_addresses_of_an_unknown_group_or_project(api: Api) -> None:
    response = api.request("POST", IPS.format(project="Demo", name="Nope"), {"ipList": ["10.0.0.1"]})
    assert_error(response, 400, "bad_request", "IP Group (Nope) is not found!")
    response = api.request("POST", GROUPS.format(project="Nowhere"), {"name": "A"})
    assert_error(
        response,
        404,
        "not_found",
        "Project (Nowhere) is not found or user does not have privilege to access it!",
    )


def test_a_user_without_the_role_changes_nothing(api: Api) -> None:
    response = api.as_user(GUEST_TOKEN).request("POST", GROUPS.format(project="Demo"), {"name": "A"})
    assert_error(response, 403, "forbidden")
    assert groups(api) == {}
