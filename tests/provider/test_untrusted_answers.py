"""Answers that a proxy in front of the gateway, or a lagging replica, may give instead of the gateway's.

A real HTTP server (:class:`FrontProxy`) forwards the provider's requests to the emulator and
replaces the answers a test names: a 200 list that is no list (``{"success": false}``), a list
that lags behind a create, an HTML error page. A confirmed create is never failed by them, and a
refresh drops a resource only when the gateway itself says that it is gone.
"""

from __future__ import annotations

import json
from collections.abc import Iterator
from typing import Any

import grpc
import pytest

from apinizer_pulumi.resources import EndpointCacheProvider, EndpointProvider
from apinizer_pulumi.resources.testing import Engine, ProviderServer

from ._fork_server import ForkedProviderServer
from ._front_proxy import Answer, FrontProxy
from .conftest import ADMIN_TOKEN, Gateway
from .test_lost_answers import CREATE, DETAILS, TOYS, toys_on_gateway

NOT_SUCCESS = json.dumps({"success": False}).encode()


def without_toys(body: bytes) -> bytes:
    """The proxy's list as a replica that has not seen the create yet would give it."""
    listed = json.loads(body)
    listed["resultList"] = [item for item in listed["resultList"] if item["endpoint"] != "/toys"]
    listed["resultCount"] = len(listed["resultList"])
    return json.dumps(listed).encode()


@pytest.fixture(scope="module")
def front(emulator: Any) -> Iterator[FrontProxy]:
    proxy = FrontProxy(emulator.base_url)
    try:
        yield proxy
    finally:
        proxy.stop()


@pytest.fixture(scope="module")
def fronted(front: FrontProxy) -> Iterator[ProviderServer]:
    server = ForkedProviderServer({"apinizer:url": front.url, "apinizer:token": ADMIN_TOKEN},
                            env={"APINIZER_READ_CACHE_TTL": "0"})
    try:
        yield server
    finally:
        server.stop()


@pytest.fixture
def endpoints(fronted: ProviderServer, front: FrontProxy, emulator_url: str) -> Iterator[Engine]:
    front.clear()
    yield Engine(fronted, EndpointProvider(), "Endpoint")
    front.clear()


@pytest.fixture
def caches(fronted: ProviderServer, front: FrontProxy, emulator_url: str) -> Engine:
    return Engine(fronted, EndpointCacheProvider(), "EndpointCache")


LIST = "/apiProxies/PetStore/endpoints/"
TOYS_CACHE = {
    "project_name": "Demo", "api_proxy_name": "PetStore",
    "endpoint_name": "/toys", "endpoint_http_method": "GET",
    "cache_settings": {"name": "toys", "cache_active": True, "ttl": 5, "handling_action": "STOP"},
}


@pytest.mark.parametrize("listed", [NOT_SUCCESS, without_toys], ids=["success false", "a lagging list"])
def test_a_confirmed_create_whose_list_lacks_it_reads_its_id_from_the_endpoint(
    endpoints: Engine, front: FrontProxy, gateway: Gateway, listed: Any
) -> None:
    front.answer(Answer("GET", LIST, 200, listed, after=True))

    id_, outs = endpoints.up(TOYS)

    [live] = toys_on_gateway(gateway)
    assert id_ == "Demo/PetStore/GET//toys" and outs["endpoint_id"] == live["id"]


def test_a_confirmed_create_whose_id_cannot_be_read_back_succeeds_without_it(
    endpoints: Engine, front: FrontProxy, gateway: Gateway
) -> None:
    # Every read-back: the list, then the endpoint alone, each tried five times.
    front.answer(Answer("GET", LIST, 200, NOT_SUCCESS, count=5))
    front.answer(Answer("POST", "/details/", 200, NOT_SUCCESS, count=5))

    id_, outs = endpoints.up(TOYS)

    [live] = toys_on_gateway(gateway)
    assert outs.get("endpoint_id") is None
    _, refreshed, _ = endpoints.read(id_, outs)
    assert refreshed["endpoint_id"] == live["id"]


def test_an_html_4xx_from_a_proxy_after_the_create_is_an_unknown_outcome(
    endpoints: Engine, front: FrontProxy, gateway: Gateway
) -> None:
    front.answer(Answer("POST", LIST, 403, b"<html><body>Forbidden</body></html>", "text/html", after=True))

    _, outs = endpoints.up(TOYS)

    [live] = toys_on_gateway(gateway)
    assert outs["endpoint_id"] == live["id"]
    assert gateway.stats()["requests"][CREATE] == 1


@pytest.mark.parametrize("listed", [NOT_SUCCESS, without_toys], ids=["success false", "a lagging list"])
def test_a_refresh_keeps_what_a_list_does_not_show(
    endpoints: Engine, caches: Engine, front: FrontProxy, gateway: Gateway, listed: Any
) -> None:
    id_, outs = endpoints.up(TOYS)
    cache_id, cache_outs = caches.up(TOYS_CACHE)
    front.answer(Answer("GET", LIST, 200, listed, after=True, count=2))

    read_id, refreshed, _ = endpoints.read(id_, outs)
    cache_read_id, _, _ = caches.read(cache_id, cache_outs)

    assert (read_id, refreshed["endpoint_id"]) == (id_, outs["endpoint_id"])
    assert cache_read_id == cache_id
    assert gateway.stats()["requests"][DETAILS] == 2  # each asked for its endpoint by itself


def test_a_refresh_drops_what_the_gateway_says_is_gone(
    endpoints: Engine, caches: Engine, front: FrontProxy, gateway: Gateway
) -> None:
    id_, outs = endpoints.up(TOYS)
    cache_id, cache_outs = caches.up(TOYS_CACHE)
    endpoints.delete(id_, outs)

    assert endpoints.read(id_, outs)[0] == ""
    assert caches.read(cache_id, cache_outs)[0] == ""


def test_a_refresh_whose_look_up_fails_fails_instead_of_dropping(
    endpoints: Engine, front: FrontProxy, gateway: Gateway
) -> None:
    id_, outs = endpoints.up(TOYS)
    # Every read of the refresh (it tries five times); a 500, which the client does not repeat.
    front.answer(Answer("GET", LIST, 200, NOT_SUCCESS, count=5))
    front.answer(Answer("POST", "/details/", 500, b"<html>Server error</html>", "text/html", count=5))

    with pytest.raises(grpc.RpcError):
        endpoints.read(id_, outs)
