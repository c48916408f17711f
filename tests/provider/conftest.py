"""Fixtures for driving the providers through the SDK's dynamic provider server."""

from __future__ import annotations

from collections.abc import Iterator
from typing import Any

import httpx
import pytest

from _emulator_http import emulator_client
from apinizer_pulumi.client import ApinizerClient
from apinizer_pulumi.resources import (
    EndpointCacheProvider,
    EndpointProvider,
    EndpointWsaProvider,
    RlclEndpointsProvider,
)
from apinizer_pulumi.resources.testing import Engine, ProviderServer

from ._fork_server import ForkedProviderServer

ADMIN_TOKEN = "dev-admin-token"


@pytest.fixture(scope="module")
def server(emulator: Any) -> Iterator[ProviderServer]:
    """One provider server per test module, configured with stack config as the engine sends it."""
    # Each test stands for its own Pulumi operation, which gets a new provider process and so no
    # endpoint lists read before; the gateway is reset between tests. Lists are not kept here.
    # The preview's connection check (one request in the process's first Check) is tested on
    # servers of its own (test_connection_check.py): here it would add a request to whichever test
    # runs first, and these tests count requests.
    provider_server = ForkedProviderServer({"apinizer:url": emulator.base_url, "apinizer:token": ADMIN_TOKEN},
                                     env={"APINIZER_READ_CACHE_TTL": "0",
                                          "APINIZER_SKIP_CONNECTION_CHECK": "1"})
    try:
        yield provider_server
    finally:
        provider_server.stop()


@pytest.fixture
def endpoints(server: ProviderServer, emulator_url: str) -> Engine:
    return Engine(server, EndpointProvider(), "Endpoint")


@pytest.fixture
def caches(server: ProviderServer, emulator_url: str) -> Engine:
    return Engine(server, EndpointCacheProvider(), "EndpointCache")


@pytest.fixture
def wsas(server: ProviderServer, emulator_url: str) -> Engine:
    return Engine(server, EndpointWsaProvider(), "EndpointWsa")


@pytest.fixture
def rlcls(server: ProviderServer, emulator_url: str) -> Engine:
    return Engine(server, RlclEndpointsProvider(), "RlclEndpoints")


@pytest.fixture
def client(emulator_url: str) -> Iterator[ApinizerClient]:
    """The test's own client, for out-of-band changes and for looking at the gateway."""
    with ApinizerClient(emulator_url, token=ADMIN_TOKEN) as api:
        yield api


class Gateway:
    """The emulator's inspection namespace."""

    def __init__(self, url: str, http: httpx.Client) -> None:
        self.url = url
        self.http = http

    def stats(self) -> dict[str, Any]:
        body: dict[str, Any] = self.http.get("/_emulator/stats").json()
        return body

    def reset_stats(self) -> None:
        self.http.post("/_emulator/stats/reset", json={}).raise_for_status()

    def endpoint(self, project: str, proxy: str, method: str, name: str) -> dict[str, Any] | None:
        state = self.http.get("/_emulator/state").json()
        for proj in state["projects"]:
            if proj["name"] != project:
                continue
            for api in proj["apiProxies"]:
                if api["name"] != proxy:
                    continue
                for item in api["endpoints"]:
                    if item["endpoint"] == name and item["httpMethod"] == method:
                        found: dict[str, Any] = item
                        return found
        return None

    def rlcl(self, project: str, rlcl: str) -> list[dict[str, Any]]:
        body = self.http.get(f"/_emulator/projects/{project}/rlcl/{rlcl}/endpoints").json()
        entries: list[dict[str, Any]] = body["endpointRateLimitList"]
        return entries


@pytest.fixture
def gateway(emulator_url: str) -> Iterator[Gateway]:
    with emulator_client(emulator_url) as http:
        yield Gateway(emulator_url, http)
