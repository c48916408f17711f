"""Where the connection comes from, and one token request for many parallel creates."""

from __future__ import annotations

import json
from collections.abc import Iterator
from typing import Any

import grpc
import pytest

from apinizer_pulumi.resources import ApinizerResourceError, EndpointProvider
from apinizer_pulumi.resources._connection import resolve
from apinizer_pulumi.resources.testing import Engine, ProviderServer

from .conftest import Gateway
from .test_endpoint import USERS
from .test_endpoint_cache import CACHE
from .test_rlcl_endpoints import RLCL


def test_connection_input_wins_over_config_and_env() -> None:
    settings = resolve(
        {"url": "http://input", "token": "t-input"},
        {"url": "http://config", "token": "t-config"},
        environ={"APINIZER_URL": "http://env", "APINIZER_TOKEN": "t-env"},
    )
    assert (settings.url, settings.token) == ("http://input", "t-input")


def test_each_field_falls_back_but_credentials_stay_together() -> None:
    settings = resolve({"url": "http://input"}, {"username": "admin", "password": "pw"},
                       environ={"APINIZER_TOKEN": "t-env"})
    assert (settings.url, settings.username, settings.password, settings.token) == (
        "http://input", "admin", "pw", None)

    from_env = resolve(None, {}, environ={"APINIZER_URL": "http://env", "APINIZER_TOKEN": "t-env"})
    assert (from_env.url, from_env.token) == ("http://env", "t-env")
    assert "t-env" not in repr(from_env)


def test_nothing_set_names_all_three_sources() -> None:
    with pytest.raises(ApinizerResourceError) as missing_url:
        resolve(None, None, environ={})
    text = str(missing_url.value)
    assert all(source in text for source in ("connection.url", "apinizer:url", "APINIZER_URL"))

    with pytest.raises(ApinizerResourceError) as missing_credentials:
        resolve({"url": "http://gw"}, None, environ={})
    text = str(missing_credentials.value)
    assert all(source in text for source in ("connection.token", "apinizer:token", "APINIZER_TOKEN"))


@pytest.fixture
def bare_server(emulator: Any) -> Iterator[ProviderServer]:
    """A provider server with no stack config and no APINIZER_* environment."""
    provider_server = ProviderServer({})
    try:
        yield provider_server
    finally:
        provider_server.stop()


def test_unconfigured_provider_fails_with_the_three_sources(bare_server: ProviderServer,
                                                            emulator_url: str) -> None:
    engine = Engine(bare_server, EndpointProvider(), "Endpoint")

    # Check (preview) already says so, naming every place the URL may come from.
    checked = engine.check(USERS)
    assert list(checked.failures) == [""]
    reason = checked.failures[""]
    assert "connection.url" in reason and "apinizer:url" in reason and "APINIZER_URL" in reason

    # The connection input alone is enough.
    id_, _ = engine.up({**USERS, "connection": {"url": emulator_url, "token": "dev-developer-token"}})
    assert id_ == "Demo/PetStore/GET//api/users"


def test_environment_is_the_last_fallback(emulator: Any, emulator_url: str, gateway: Gateway) -> None:
    env = {"APINIZER_URL": emulator_url, "APINIZER_TOKEN": "dev-admin-token"}
    provider_server = ProviderServer({}, env=env)
    try:
        Engine(provider_server, EndpointProvider(), "Endpoint").up(USERS)
    finally:
        provider_server.stop()
    assert gateway.endpoint("Demo", "PetStore", "GET", "/api/users") is not None


def test_connection_input_overrides_stack_config(endpoints: Engine, gateway: Gateway) -> None:
    as_guest = {**USERS, "connection": {"url": gateway.url, "token": "dev-guest-token"}}

    with pytest.raises(grpc.RpcError) as failure:
        endpoints.up(as_guest)

    details = failure.value.details()
    # The provider server answers with the message alone (quiet_provider_server): no traceback.
    assert details.startswith("apinizer:Endpoint GET /api/users in Demo/PetStore: 403")
    assert "dev-guest-token" not in details


def test_fifty_parallel_creates_make_one_token_request(emulator: Any, emulator_url: str,
                                                       gateway: Gateway) -> None:
    provider_server = ProviderServer({"apinizer:url": emulator_url, "apinizer:username": "admin",
                                      "apinizer:password": "admin"})
    try:
        engine = Engine(provider_server, EndpointProvider(), "Endpoint")
        futures = [engine.create_future(engine.checked({**USERS, "name": f"/parallel/{index}"}), f"r{index}")
                   for index in range(50)]
        ids = sorted(future.result().id for future in futures)
    finally:
        provider_server.stop()

    assert ids == sorted(f"Demo/PetStore/GET//parallel/{index}" for index in range(50))
    requests = gateway.stats()["requests"]
    assert requests["POST /apiops/auth/token"] == 1, json.dumps(requests)
    assert requests["POST /apiops/projects/{projectName}/apiProxies/{apiProxyName}/endpoints/"] == 50


def test_refresh_and_destroy_survive_a_revoked_connection_token(
    endpoints: Engine, caches: Engine, rlcls: Engine, gateway: Gateway
) -> None:
    """A token rotated in the program is no diff, so the state keeps the old one (the engine's
    same step keeps the old outputs): read and delete fall back to the stack config's credentials."""
    connection = {"url": gateway.url, "token": "dev-developer-token"}
    revoked = {"url": gateway.url, "token": "revoked-token"}
    resources = [
        (endpoints, {**USERS, "connection": connection}),
        (caches, {**CACHE, "connection": connection}),
        (rlcls, {**RLCL, "connection": connection}),
    ]
    for engine, declared in resources:
        id_, outs = engine.up(declared)
        recorded = {**outs, "connection": revoked}

        read_id, read_outs, _ = engine.read(id_, recorded)
        assert read_id == id_ and read_outs["connection"] == revoked
        engine.delete(id_, recorded)

    assert gateway.endpoint("Demo", "PetStore", "GET", "/api/users") is None
    assert gateway.rlcl("Demo", "Standard") == []
    live = gateway.endpoint("Demo", "PetStore", "GET", "/pets")
    assert live is not None and live["cacheSettings"]["cacheActive"] is False


def test_a_refused_connection_without_other_credentials_still_fails(bare_server: ProviderServer,
                                                                    emulator_url: str) -> None:
    engine = Engine(bare_server, EndpointProvider(), "Endpoint")
    id_, outs = engine.up({**USERS, "connection": {"url": emulator_url, "token": "dev-developer-token"}})

    with pytest.raises(grpc.RpcError) as failure:
        engine.delete(id_, {**outs, "connection": {"url": emulator_url, "token": "revoked-token"}})

    last = failure.value.details().strip().splitlines()[-1]
    assert "apinizer:Endpoint GET /api/users in Demo/PetStore: 401" in last
    assert "revoked-token" not in failure.value.details()


def test_a_wrong_url_is_an_error_not_a_resource_gone(endpoints: Engine, caches: Engine, rlcls: Engine,
                                                     gateway: Gateway) -> None:
    """A 404 that is not the gateway saying the proxy (or RLCL) does not exist, here a URL with
    a wrong path, must not drop resources from the state on refresh nor pass destroy."""
    wrong = {"url": f"{gateway.url}/wrong", "token": "dev-admin-token"}
    resources = [(endpoints, USERS), (caches, CACHE), (rlcls, RLCL)]
    for engine, declared in resources:
        id_, outs = engine.up(declared)
        misdirected = {**outs, "connection": wrong}

        failures = []
        if engine is not rlcls:  # its refresh makes no request
            with pytest.raises(grpc.RpcError) as refresh:
                engine.read(id_, misdirected)
            failures.append(refresh)
        with pytest.raises(grpc.RpcError) as destroy:
            engine.delete(id_, misdirected)
        failures.append(destroy)
        for failure in failures:
            assert ": 404 not_found: No route for" in failure.value.details().strip().splitlines()[-1]

    assert gateway.endpoint("Demo", "PetStore", "GET", "/api/users") is not None
    assert len(gateway.rlcl("Demo", "Standard")) == 2
