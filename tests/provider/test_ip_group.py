"""IpGroup through the dynamic provider server, against a live emulator.

https://github.com/apinizer/management-api-docs/blob/main/02-api-reference/11-ip-groups/index.md
"""

from __future__ import annotations

from typing import Any

import grpc
import pytest

import _emulator_http as emulator_http
from apinizer_pulumi.client import ApinizerClient
from apinizer_pulumi.resources import IpGroupProvider
from apinizer_pulumi.resources.ip_group import STEPPING_STONE
from apinizer_pulumi.resources.testing import DIFF_NONE, DIFF_SOME, Engine, ProviderServer

from .conftest import Gateway
from .test_lost_answers import fault

OFFICES: dict[str, Any] = {
    "project_name": "Demo",
    "name": "Offices",
    "description": "office networks",
    "addresses": ["192.168.1.100", "10.0.0.0/8"],
}
GROUPS = "/apiops/projects/{projectName}/ipGroups/"
IPS = "/apiops/projects/{projectName}/ipGroups/{ipGroupName}/ips/"


@pytest.fixture
def groups(server: ProviderServer, emulator_url: str) -> Engine:
    return Engine(server, IpGroupProvider(), "IpGroup")


def stored(gateway: Gateway, name: str = "Offices") -> dict[str, Any] | None:
    state = emulator_http.get(f"{gateway.url}/_emulator/state").json()
    found = [g for g in state["projects"][0]["ipGroups"] if g["name"] == name]
    return found[0] if found else None


def test_create_makes_the_group_and_sets_its_addresses_in_two_requests(
    groups: Engine, gateway: Gateway
) -> None:
    gateway.reset_stats()
    id_, outs = groups.up(OFFICES)
    assert id_ == "Demo/Offices"
    assert stored(gateway) == {
        "name": "Offices",
        "description": "office networks",
        "ipList": ["192.168.1.100", "10.0.0.0/8"],
    }
    assert outs["addresses"] == OFFICES["addresses"] and outs["adopt"] is False
    assert gateway.stats()["requests"] == {f"POST {GROUPS}": 1, f"PUT {IPS}": 1}


def test_check_names_each_bad_address_by_index(groups: Engine) -> None:
    failures = groups.check(
        {**OFFICES, "addresses": ["10.0.0.1", "10.0.0.1/8", "fe80::1", "nope", "10.0.0.1"]}
    ).failures
    assert set(failures) == {"addresses.1", "addresses.2", "addresses.3", "addresses.4"}
    assert (
        failures["addresses.1"] == "addresses[1]: '10.0.0.1/8' has host bits set; the range is '10.0.0.0/8'"
    )
    assert "IPv6" in failures["addresses.2"] and "'nope'" in failures["addresses.3"]
    assert failures["addresses.4"] == "addresses[4]: '10.0.0.1' repeats addresses[0]"


def test_a_preview_makes_no_request(groups: Engine, gateway: Gateway) -> None:
    gateway.reset_stats()
    groups.check(OFFICES)
    groups.diff("Demo/Offices", groups.checked(OFFICES), groups.checked({**OFFICES, "addresses": []}))
    assert gateway.stats()["total"] == 0


def test_update_sends_only_what_changed_and_the_list_is_authoritative(
    groups: Engine, gateway: Gateway
) -> None:
    id_, outs = groups.up(OFFICES)
    assert groups.diff(id_, outs, groups.checked(OFFICES)).changes == DIFF_NONE
    news = groups.checked({**OFFICES, "addresses": ["203.0.113.0/24"]})
    diff = groups.diff(id_, outs, news)
    assert diff.changes == DIFF_SOME and list(diff.replaces) == []
    gateway.reset_stats()
    outs = groups.update(id_, outs, news)
    assert stored(gateway) == {
        "name": "Offices",
        "description": "office networks",
        "ipList": ["203.0.113.0/24"],
    }
    assert gateway.stats()["requests"] == {f"PUT {IPS}": 1}
    assert list(groups.diff(id_, outs, groups.checked({**OFFICES, "name": "Branches"})).replaces) == ["name"]


def test_an_empty_list_empties_the_group_although_the_gateway_refuses_an_empty_replace(
    groups: Engine, gateway: Gateway
) -> None:
    id_, outs = groups.up(OFFICES)
    news = groups.checked({**OFFICES, "addresses": []})
    gateway.reset_stats()
    groups.update(id_, outs, news)
    assert stored(gateway)["ipList"] == []  # type: ignore[index]
    # The empty replace (refused), then the stepping stone in and out again.
    assert gateway.stats()["requests"] == {f"PUT {IPS}": 2, f"DELETE {IPS}": 1}
    assert STEPPING_STONE == "192.0.2.1"


def test_refresh_keeps_the_recorded_state_since_the_api_cannot_read_a_group(
    groups: Engine, gateway: Gateway, client: ApinizerClient
) -> None:
    id_, outs = groups.up(OFFICES)
    client.ip_groups.add_ips("Demo", "Offices", ["172.16.0.0/12"])  # console drift, unseen
    gateway.reset_stats()
    read_id, read_outs, _ = groups.read(id_, outs)
    assert (read_id, read_outs["addresses"]) == (id_, OFFICES["addresses"])
    assert gateway.stats()["total"] == 0
    # The next change of the list writes it whole, which repairs the drift.
    outs = groups.update(id_, outs, groups.checked({**OFFICES, "addresses": ["10.0.0.0/8"]}))
    assert stored(gateway)["ipList"] == ["10.0.0.0/8"]  # type: ignore[index]


def test_an_existing_group_needs_adopt_and_adopt_overwrites_it(
    groups: Engine, gateway: Gateway, client: ApinizerClient
) -> None:
    client.ip_groups.create("Demo", {"name": "Offices", "description": "by hand"})
    client.ip_groups.add_ips("Demo", "Offices", ["1.2.3.4"])
    with pytest.raises(grpc.RpcError) as info:
        groups.up(OFFICES)
    assert "already exists" in str(info.value.details()) and "adopt=True" in str(info.value.details())
    assert stored(gateway)["ipList"] == ["1.2.3.4"]  # type: ignore[index]

    id_, outs = groups.up({**OFFICES, "adopt": True})
    assert stored(gateway) == {
        "name": "Offices",
        "description": "office networks",
        "ipList": ["192.168.1.100", "10.0.0.0/8"],
    }
    assert outs["adopt"] is True and id_ == "Demo/Offices"


@pytest.mark.parametrize("lost", [{"drop": True, "after": True}, {"status": 504, "after": True}])
def test_a_create_whose_answer_was_lost_is_made_once(
    groups: Engine, gateway: Gateway, lost: dict[str, Any]
) -> None:
    fault(gateway, method="POST", path="/ipGroups/", count=1, **lost)
    id_, _ = groups.up(OFFICES)
    assert id_ == "Demo/Offices"
    assert stored(gateway)["ipList"] == OFFICES["addresses"]  # type: ignore[index]
    # The repeat was answered "already exists", which after a lost answer is this create's own.
    assert gateway.stats()["requests"][f"POST {GROUPS}"] == 2


def test_delete_of_a_group_already_gone_succeeds(
    groups: Engine, gateway: Gateway, client: ApinizerClient
) -> None:
    id_, outs = groups.up(OFFICES)
    client.ip_groups.delete("Demo", "Offices")
    groups.delete(id_, outs)
    assert stored(gateway) is None
