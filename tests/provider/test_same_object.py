"""Two resources of one deployment that manage the same gateway object fail at Check, naming both.

Each test starts a provider server of its own: one process serves one deployment, and the claims
of its resources last as long as it does.
"""

from __future__ import annotations

from collections.abc import Iterator
from typing import Any

import pytest

from apinizer_pulumi.resources import (
    EndpointCacheProvider,
    EndpointProvider,
    EndpointWsaProvider,
    RlclEndpointsProvider,
    RlclProvider,
)
from apinizer_pulumi.resources.testing import UNKNOWN, Engine, ProviderServer

from ._fork_server import ForkedProviderServer
from .conftest import ADMIN_TOKEN
from .test_endpoint import USERS
from .test_endpoint_cache import CACHE
from .test_endpoint_wsa import WSA
from .test_rlcl_endpoints import RLCL


@pytest.fixture
def server(emulator: Any, emulator_url: str) -> Iterator[ProviderServer]:
    provider_server = ForkedProviderServer({"apinizer:url": emulator_url, "apinizer:token": ADMIN_TOKEN})
    try:
        yield provider_server
    finally:
        provider_server.stop()


def same_object_failure(engine: Engine, news: dict[str, Any], name: str) -> str:
    failures = engine.check(news, name=name).failures
    assert list(failures) == [""], failures
    return failures[""]


KINDS = [
    ("Endpoint", EndpointProvider, USERS,
     "project_name 'Demo', api_proxy_name 'PetStore', name '/api/users', http_method 'GET'"),
    ("EndpointCache", EndpointCacheProvider, CACHE,
     "project_name 'Demo', api_proxy_name 'PetStore', endpoint_name '/pets', endpoint_http_method 'GET'"),
    ("EndpointWsa", EndpointWsaProvider, WSA,
     "project_name 'Demo', api_proxy_name 'Calculator', endpoint_name 'Add', endpoint_http_method 'POST'"),
    ("Rlcl", RlclProvider, {"project_name": "Demo", "name": "Gold"}, "project_name 'Demo', name 'Gold'"),
    ("RlclEndpoints", RlclEndpointsProvider, RLCL, "project_name 'Demo', rlcl_name 'Standard'"),
]


@pytest.mark.parametrize(("kind", "provider", "declared", "identity"), KINDS, ids=[k[0] for k in KINDS])
def test_a_second_resource_with_the_same_identity_fails_naming_both(
    server: ProviderServer, kind: str, provider: Any, declared: dict[str, Any], identity: str
) -> None:
    engine = Engine(server, provider(), kind)
    assert engine.check(declared, name="first").failures == {}

    reason = same_object_failure(engine, declared, "second")
    assert reason.startswith(f"apinizer: {kind} 'second' and {kind} 'first' manage the same gateway object "
                             f"({identity}): "), reason
    assert "adopt=True does not help" in reason
    # The first keeps its claim; the second still fails when checked again.
    assert engine.check(declared, name="first").failures == {}
    assert same_object_failure(engine, declared, "second") == reason


def test_checking_the_same_resource_again_is_no_collision(server: ProviderServer) -> None:
    """The update after its preview, a replace, a second `pulumi up` in one process: one URN."""
    engine = Engine(server, EndpointProvider(), "Endpoint")
    for _ in range(3):
        assert engine.check(USERS, name="users").failures == {}
    # A replace changes an input of the same resource: still its own object.
    assert engine.check({**USERS, "backend_resource_url": "/v2"}, USERS, name="users").failures == {}


def test_a_resource_that_moves_releases_what_it_held(server: ProviderServer) -> None:
    engine = Engine(server, EndpointProvider(), "Endpoint")
    assert engine.check(USERS, name="a").failures == {}
    assert engine.check({**USERS, "name": "/api/people"}, name="a").failures == {}
    assert engine.check(USERS, name="b").failures == {}
    assert engine.check({**USERS, "name": "/api/people"}, name="a").failures == {}
    assert list(engine.check({**USERS, "name": "/api/people"}, name="c").failures) == [""]


def test_other_kinds_other_gateways_and_other_methods_do_not_collide(server: ProviderServer,
                                                                    emulator_url: str) -> None:
    endpoints = Engine(server, EndpointProvider(), "Endpoint")
    assert endpoints.check(USERS, name="users").failures == {}
    assert endpoints.check({**USERS, "http_method": "POST"}, name="users-post").failures == {}
    # The cache of an endpoint shares its identity by design; so do an RLCL and its list.
    pets_cache = {**CACHE, "endpoint_name": "/api/users"}
    assert Engine(server, EndpointCacheProvider(), "EndpointCache").check(pets_cache, name="c").failures == {}
    assert Engine(server, RlclProvider(), "Rlcl").check(
        {"project_name": "Demo", "name": "Standard"}, name="std").failures == {}
    rlcl_lists = Engine(server, RlclEndpointsProvider(), "RlclEndpoints")
    assert rlcl_lists.check(RLCL, name="std-list").failures == {}
    # The same names on another gateway (another URL) are another object.
    elsewhere = {**USERS, "connection": {"url": emulator_url.replace("127.0.0.1", "localhost"),
                                         "token": ADMIN_TOKEN}}
    assert endpoints.check(elsewhere, name="users-elsewhere").failures == {}


def test_values_unknown_at_preview_claim_nothing(server: ProviderServer) -> None:
    engine = Engine(server, EndpointProvider(), "Endpoint")
    assert engine.check({**USERS, "name": UNKNOWN}, name="later").failures == {}
    assert engine.check({**USERS, "connection": {"url": UNKNOWN}}, name="later-url").failures == {}
    assert engine.check(USERS, name="known").failures == {}
    # Once known (the update), the first one collides.
    assert list(engine.check(USERS, name="later").failures) == [""]
