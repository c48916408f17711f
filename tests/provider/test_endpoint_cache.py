"""EndpointCache through the dynamic provider server, against a live emulator."""

from __future__ import annotations

from typing import Any

from apinizer_pulumi.client import ApinizerClient
from apinizer_pulumi.resources.testing import DIFF_NONE, DIFF_SOME, Engine

from .conftest import Gateway

CACHE: dict[str, Any] = {
    "project_name": "Demo",
    "api_proxy_name": "PetStore",
    "endpoint_name": "/pets",
    "endpoint_http_method": "GET",
    "cache_settings": {
        "name": "pets-cache",
        "cache_active": True,
        "ttl": 60,
        "handling_action": "STOP",
        "cache_key_type": "CUSTOM",
        "variable_list": [{"name": "tenant", "type": "HEADER", "header_name": "X-Tenant"}],
    },
}


def _live_cache(gateway: Gateway, method: str = "GET", name: str = "/pets") -> dict[str, Any] | None:
    live = gateway.endpoint("Demo", "PetStore", method, name)
    assert live is not None
    settings: dict[str, Any] | None = live["cacheSettings"]
    return settings


def test_check_fills_the_spec_defaults(caches: Engine) -> None:
    settings = caches.checked(CACHE)["cache_settings"]

    assert settings["cache_only_http_get_requests"] is True
    assert settings["cache_storage_type"] == "DISTRIBUTED"
    assert settings["invalidation_requires_authn"] is False
    assert settings["variable_list"] == [{"name": "tenant", "type": "HEADER", "header_name": "X-Tenant"}]


def test_create_takes_over_whatever_was_there(caches: Engine, gateway: Gateway,
                                              client: ApinizerClient) -> None:
    client.endpoints.set_cache("Demo", "PetStore", "/pets", "GET",
                               {"name": "by-hand", "handling_action": "CONTINUE", "capacity": 5})
    gateway.reset_stats()

    id_, outs = caches.up(CACHE)

    live = _live_cache(gateway)
    assert live is not None
    assert live["name"] == "pets-cache" and live["cacheActive"] is True and live["ttl"] == 60
    assert live.get("capacity") is None
    assert live["variableList"][0]["headerName"] == "X-Tenant"
    assert id_ == "Demo/PetStore/GET//pets"
    assert outs["cache_settings"]["handling_action"] == "STOP"
    assert gateway.stats()["total"] == 1


def test_no_op_diff_update_and_replace(caches: Engine, gateway: Gateway) -> None:
    id_, outs = caches.up(CACHE)
    assert caches.diff(id_, outs, caches.checked(CACHE)).changes == DIFF_NONE

    changed = {**CACHE, "cache_settings": {**CACHE["cache_settings"], "ttl": 120}}
    news = caches.checked(changed)
    diff = caches.diff(id_, outs, news)
    assert diff.changes == DIFF_SOME and list(diff.replaces) == []
    outs = caches.update(id_, outs, news)
    live = _live_cache(gateway)
    assert live is not None and live["ttl"] == 120 and outs["cache_settings"]["ttl"] == 120

    moved = caches.checked({**changed, "endpoint_name": "/pets/{id}"})
    diff = caches.diff(id_, outs, moved)
    assert list(diff.replaces) == ["endpoint_name"] and diff.deleteBeforeReplace is False
    new_id, _ = caches.create(moved, name="r2")
    caches.delete(id_, outs)
    assert new_id == "Demo/PetStore/GET//pets/{id}"
    moved_live = _live_cache(gateway, name="/pets/{id}")
    assert moved_live is not None and moved_live["ttl"] == 120
    old_live = _live_cache(gateway)
    assert old_live is not None and old_live["cacheActive"] is False and old_live["name"] == "pets-cache"


def test_refresh_keeps_state_and_notices_a_deleted_endpoint(caches: Engine, client: ApinizerClient,
                                                             gateway: Gateway) -> None:
    id_, outs = caches.up({**CACHE, "api_proxy_name": "Orders", "endpoint_name": "/orders"})
    drift = {"name": "drift", "handling_action": "CONTINUE"}
    client.endpoints.set_cache("Demo", "Orders", "/orders", "GET", drift)

    read_id, read_outs, read_inputs = caches.read(id_, outs)
    # The API cannot read cache settings back: refresh cannot see this drift.
    assert read_id == id_ and read_outs == outs and read_inputs is None

    client.endpoints.delete("Demo", "Orders", "/orders", "GET")
    assert caches.read(id_, outs)[:2] == ("", {})


def test_delete_writes_defaults_and_tolerates_a_gone_endpoint(caches: Engine, gateway: Gateway,
                                                              client: ApinizerClient) -> None:
    id_, outs = caches.up(CACHE)

    caches.delete(id_, outs)

    live = _live_cache(gateway)
    assert live is not None
    assert live["cacheActive"] is False and live["name"] == "pets-cache"
    assert live["cacheKeyType"] == "QUERY_PARAMS" and live.get("variableList", []) == []

    client.endpoints.delete("Demo", "PetStore", "/pets", "GET")
    caches.delete(id_, outs)
