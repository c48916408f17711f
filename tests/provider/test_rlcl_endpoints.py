"""RlclEndpoints through the dynamic provider server, against a live emulator."""

from __future__ import annotations

from typing import Any

from apinizer_pulumi.client import ApinizerClient
from apinizer_pulumi.resources.testing import DIFF_NONE, DIFF_SOME, Engine

from .conftest import Gateway


def entry(name: str, method: str = "GET", proxy: str = "PetStore", count: int = 10) -> dict[str, Any]:
    return {
        "api_proxy_name": proxy,
        "endpoint_name": name,
        "endpoint_http_method": method,
        "permitted_message_count": count,
        "time_interval_period_length": 1,
        "time_interval": "ONE_MINUTE",
        "cache_connection_timeout_in_seconds": 3,
        "cache_error_handling_type": "FAIL",
        "time_interval_window_type": "SLIDING",
    }


RLCL: dict[str, Any] = {"project_name": "Demo", "rlcl_name": "Standard",
                        "endpoints": [entry("/pets"), entry("/pets", "POST")]}


def _keys(gateway: Gateway, rlcl: str = "Standard") -> list[tuple[str, str, str, int]]:
    return sorted((item["apiProxyName"], item["endpointName"], item["endpointHTTPMethod"],
                   item["permittedMessageCount"]) for item in gateway.rlcl("Demo", rlcl))


def test_create_replaces_the_list_whole(rlcls: Engine, gateway: Gateway, client: ApinizerClient) -> None:
    client.rlcl.add_endpoints("Demo", "Standard", [entry("/orders", proxy="Orders")])
    gateway.reset_stats()

    id_, outs = rlcls.up(RLCL)

    assert id_ == "Demo/Standard"
    assert _keys(gateway) == [("PetStore", "/pets", "GET", 10), ("PetStore", "/pets", "POST", 10)]
    assert outs["endpoints"][0]["enabled"] is True
    assert outs["endpoints"][0]["show_rate_limit_statistics_in_response_header"] is False
    assert gateway.stats()["requests"] == {"PUT /apiops/projects/{projectName}/rlcl/{rlclName}/endpoints/": 1}


def test_no_op_diff_update_and_replace(rlcls: Engine, gateway: Gateway) -> None:
    id_, outs = rlcls.up(RLCL)
    assert rlcls.diff(id_, outs, rlcls.checked(RLCL)).changes == DIFF_NONE

    news = rlcls.checked({**RLCL, "endpoints": [entry("/pets", count=99), entry("/pets/{id}")]})
    diff = rlcls.diff(id_, outs, news)
    assert diff.changes == DIFF_SOME and list(diff.replaces) == []
    outs = rlcls.update(id_, outs, news)
    assert _keys(gateway) == [("PetStore", "/pets", "GET", 99), ("PetStore", "/pets/{id}", "GET", 10)]

    moved = rlcls.checked({**RLCL, "rlcl_name": "Premium", "endpoints": outs["endpoints"]})
    diff = rlcls.diff(id_, outs, moved)
    assert list(diff.replaces) == ["rlcl_name"] and diff.deleteBeforeReplace is False
    rlcls.create(moved, name="r2")
    rlcls.delete(id_, outs)
    assert _keys(gateway) == []
    assert len(_keys(gateway, "Premium")) == 2


def test_refresh_keeps_recorded_state(rlcls: Engine, client: ApinizerClient, gateway: Gateway) -> None:
    id_, outs = rlcls.up(RLCL)
    client.rlcl.delete_endpoints("Demo", "Standard", [entry("/pets")])
    gateway.reset_stats()

    read_id, read_outs, read_inputs = rlcls.read(id_, outs)

    # The API cannot read an RLCL's list back: refresh cannot see this drift.
    assert (read_id, read_outs, read_inputs) == (id_, outs, None)
    assert gateway.stats()["total"] == 0


def test_delete_removes_exactly_its_entries_even_when_some_are_gone(
    rlcls: Engine, client: ApinizerClient, gateway: Gateway
) -> None:
    id_, outs = rlcls.up(RLCL)
    client.rlcl.add_endpoints("Demo", "Standard", [entry("/orders", proxy="Orders")])
    client.rlcl.delete_endpoints("Demo", "Standard", [entry("/pets")])

    rlcls.delete(id_, outs)
    assert _keys(gateway) == [("Orders", "/orders", "GET", 10)]

    rlcls.delete(id_, outs)
    assert _keys(gateway) == [("Orders", "/orders", "GET", 10)]


def test_delete_after_an_endpoint_of_the_list_was_deleted(
    rlcls: Engine, client: ApinizerClient, gateway: Gateway
) -> None:
    id_, outs = rlcls.up(RLCL)
    client.endpoints.delete("Demo", "PetStore", "/pets", "POST")

    rlcls.delete(id_, outs)

    assert _keys(gateway) == []
