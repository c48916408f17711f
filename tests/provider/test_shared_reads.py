"""Reads of one proxy share one list per provider process; own writes are never read stale.

Request counts come from the emulator's counters: they are exact, whatever the timing.
"""

from __future__ import annotations

from collections.abc import Iterator
from typing import Any

import pytest

from apinizer_pulumi.client import ApinizerClient
from apinizer_pulumi.resources import EndpointCacheProvider, EndpointProvider
from apinizer_pulumi.resources.testing import Engine, ProviderServer, deserialize

from ._fork_server import ForkedProviderServer
from .conftest import Gateway

LIST = "GET /apiops/projects/{projectName}/apiProxies/{apiProxyName}/endpoints/"
CREATE = "POST /apiops/projects/{projectName}/apiProxies/{apiProxyName}/endpoints/"
TOKEN = "POST /apiops/auth/token"


@pytest.fixture
def server(emulator_url: str) -> Iterator[ProviderServer]:
    """A provider process of its own (no lists read before), logging in with a password.

    The cache's lifetime is raised so that a slow machine cannot make a count depend on timing.
    """
    config = {"apinizer:url": emulator_url, "apinizer:username": "admin", "apinizer:password": "admin"}
    with ForkedProviderServer(config, env={"APINIZER_READ_CACHE_TTL": "600"}) as provider_server:
        yield provider_server


@pytest.fixture
def endpoints(server: ProviderServer) -> Engine:
    return Engine(server, EndpointProvider(), "Endpoint")


def state_of(project: str, proxy: str, name: str, method: str, backend: str = "/b") -> dict[str, Any]:
    return {"project_name": project, "api_proxy_name": proxy, "name": name, "http_method": method,
            "backend_resource_url": backend, "backend_http_method": method, "active": True,
            "adopt": False}


def resource_id(state: dict[str, Any]) -> str:
    return f"{state['project_name']}/{state['api_proxy_name']}/{state['http_method']}/{state['name']}"


def test_a_refresh_of_n_endpoints_on_k_proxies_sends_k_lists_and_one_token(
        endpoints: Engine, client: ApinizerClient, gateway: Gateway) -> None:
    for index in range(12):
        spec = {"name": f"/r/{index}", "http_method": "GET", "backend_resource_url": "/b",
                "backend_http_method": "GET"}
        client.endpoints.create("Demo", "PetStore", spec)
    states = [state_of("Demo", "PetStore", f"/r/{index}", "GET") for index in range(12)]
    states += [state_of("Demo", "Orders", "/orders", "GET"), state_of("Demo", "Calculator", "Add", "POST"),
               state_of("Demo", "Calculator", "Subtract", "POST")]
    gateway.reset_stats()

    futures = [endpoints.read_future(resource_id(s), s, name=f"e{index}") for index, s in enumerate(states)]
    read = [(response.id, deserialize(response.properties)) for response in (f.result() for f in futures)]

    assert gateway.stats()["requests"] == {LIST: 3, TOKEN: 1}
    for state, (id_, outs) in zip(states, read, strict=True):
        live = gateway.endpoint(state["project_name"], state["api_proxy_name"], state["http_method"],
                                state["name"])
        assert live is not None and id_ and outs["endpoint_id"] == live["id"]


def test_a_read_after_an_own_update_is_never_served_from_the_older_list(
        endpoints: Engine, gateway: Gateway) -> None:
    id_, outs = endpoints.up({**state_of("Demo", "PetStore", "/fresh", "GET"), "description": "one"})
    assert endpoints.read(id_, outs)[1]["description"] == "one"
    news = endpoints.checked({**state_of("Demo", "PetStore", "/fresh", "GET"), "description": "two"})

    updated = endpoints.update(id_, outs, news)

    assert endpoints.read(id_, updated)[1]["description"] == "two"
    # One list read back the create and served the first read; the update made it stale.
    assert gateway.stats()["requests"][LIST] == 2


def test_a_create_reads_its_id_from_a_list_sent_after_it_even_with_a_list_at_hand(
        endpoints: Engine, gateway: Gateway) -> None:
    pets = state_of("Demo", "PetStore", "/pets", "GET")
    endpoints.read("Demo/PetStore/GET//pets", pets)  # a list of PetStore is now cached

    _, outs = endpoints.up(state_of("Demo", "PetStore", "/new", "GET"))

    live = gateway.endpoint("Demo", "PetStore", "GET", "/new")
    assert live is not None and outs["endpoint_id"] == live["id"]
    assert gateway.stats()["requests"] == {LIST: 2, CREATE: 1, TOKEN: 1}


def test_an_out_of_band_delete_after_a_cached_list_is_seen_after_an_own_write(
        endpoints: Engine, client: ApinizerClient, gateway: Gateway) -> None:
    id_, outs = endpoints.up(state_of("Demo", "PetStore", "/gone", "GET"))
    client.endpoints.delete("Demo", "PetStore", "/gone", "GET")
    endpoints.up(state_of("Demo", "PetStore", "/other", "GET"))  # an own write: lists are stale

    assert endpoints.read(id_, outs)[:2] == ("", {})


def test_settings_refresh_confirms_endpoints_from_the_shared_list(
        server: ProviderServer, endpoints: Engine, gateway: Gateway) -> None:
    caches = Engine(server, EndpointCacheProvider(), "EndpointCache")
    settings = {"name": "c", "handling_action": "STOP"}
    targets = [("/pets", "GET"), ("/pets", "POST"), ("/pets/{id}", "GET")]
    created = [caches.up({"project_name": "Demo", "api_proxy_name": "PetStore", "endpoint_name": name,
                          "endpoint_http_method": method, "cache_settings": settings}, name=f"c{index}")
               for index, (name, method) in enumerate(targets)]
    gateway.reset_stats()

    for index, (id_, outs) in enumerate(created):
        assert caches.read(id_, outs, name=f"c{index}")[0] == id_

    assert gateway.stats()["requests"] == {LIST: 1}
