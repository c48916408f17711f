"""Where the connection comes from, and one token request for many parallel creates."""

from __future__ import annotations

import json
from collections.abc import Iterator
from typing import Any

import grpc
import pytest

import _emulator_http as emulator_http
from apinizer_pulumi.resources import ApinizerResourceError, EndpointProvider
from apinizer_pulumi.resources._connection import resolve, resolved
from apinizer_pulumi.resources.testing import DIFF_NONE, Engine, ProviderServer

from ._fork_server import ForkedProviderServer
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
    provider_server = ForkedProviderServer({})
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
    provider_server = ForkedProviderServer({}, env=env)
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
    provider_server = ForkedProviderServer({"apinizer:url": emulator_url, "apinizer:username": "admin",
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


def test_the_timeout_comes_from_the_input_then_the_stack_config_then_the_environment() -> None:
    base = {"url": "http://gw", "token": "t-input"}
    env = {"APINIZER_TIMEOUT": "30"}
    assert resolve({**base, "timeout": 5}, {"timeout": "20"}, environ=env).timeout == 5.0
    assert resolve(base, {"timeout": "20"}, environ=env).timeout == 20.0
    assert resolve(base, {}, environ=env).timeout == 30.0
    assert resolve(base, {}, environ={}).timeout is None  # the client's own default
    # Another timeout is another client; the credentials' fingerprint does not change with it.
    assert resolve(base, {}, environ={}).cache_key == resolve(base, {}, environ=env).cache_key


@pytest.mark.parametrize(("connection", "config", "env", "named"), [
    ({"timeout": "soon"}, {}, {}, "connection.timeout"),
    ({}, {"timeout": "-3"}, {}, "apinizer:timeout"),
    ({}, {}, {"APINIZER_TIMEOUT": "0"}, "APINIZER_TIMEOUT"),
], ids=["input", "config", "env"])
def test_a_timeout_that_is_not_a_positive_number_names_its_setting(
        connection: dict[str, Any], config: dict[str, Any], env: dict[str, str], named: str) -> None:
    with pytest.raises(ApinizerResourceError, match=rf"^apinizer: {named} must be a positive number of "
                                                    r"seconds, got '?(soon|-3|0)'?$"):
        resolve({"url": "http://gw", "token": "t", **connection}, config, environ=env)


def test_the_timeout_of_the_stack_config_reaches_the_client_and_the_input_wins(
        emulator: Any, emulator_url: str, gateway: Gateway) -> None:
    """A read delayed 1 s: given up after 0.3 s and sent again under ``apinizer:timeout: 0.3``, answered
    at once under the resource's ``connection.timeout`` of 5. A change of timeout alone is no diff."""
    config = {"apinizer:url": emulator_url, "apinizer:token": "dev-admin-token", "apinizer:timeout": "0.3"}
    read = "GET /apiops/projects/{projectName}/apiProxies/{apiProxyName}/endpoints/"
    env = {"APINIZER_SKIP_CONNECTION_CHECK": "1", "APINIZER_READ_CACHE_TTL": "0"}
    with ForkedProviderServer(config, env=env) as server:
        engine = Engine(server, EndpointProvider(), "Endpoint")
        id_, outs = engine.up(USERS)
        for connection, reads in ((None, 2), ({"timeout": 5}, 1)):
            props = {**outs, "connection": connection} if connection else outs
            gateway.reset_stats()
            delayed = {"delay": 1.0, "method": "GET", "path": "/endpoints/"}
            emulator_http.post(f"{gateway.url}/_emulator/faults", json=delayed).raise_for_status()
            engine.read(id_, props)
            assert gateway.stats()["requests"].get(read) == reads
        assert engine.diff(id_, outs, engine.checked({**USERS, "connection": {"timeout": 5}})).changes \
            == DIFF_NONE


def test_resolved_settings_are_kept_apart_by_connection_config_and_environment(
        monkeypatch: pytest.MonkeyPatch) -> None:
    """The provider process keeps what it resolved: never across another connection input, stack
    config or environment, nor across values that are equal but not the same setting."""
    for name in ("APINIZER_USERNAME", "APINIZER_PASSWORD", "APINIZER_TIMEOUT"):
        monkeypatch.delenv(name, raising=False)
    monkeypatch.setenv("APINIZER_URL", "http://env-one")
    monkeypatch.setenv("APINIZER_TOKEN", "t-one")
    first = resolved(None, None)
    assert resolved({}, {}) is first
    assert (first.url, first.token) == ("http://env-one", "t-one")
    assert resolved({"url": "http://input"}, None).url == "http://input"
    assert resolved(None, {"url": "http://config"}).url == "http://config"
    assert resolved({"url": "http://input", "token": "t-input"}, None).token == "t-input"
    assert resolved({"url": "http://input"}, None).token == "t-one"

    monkeypatch.setenv("APINIZER_URL", "http://env-two")
    monkeypatch.setenv("APINIZER_TOKEN", "t-two")
    assert (resolved(None, None).url, resolved(None, None).token) == ("http://env-two", "t-two")
    assert resolved({"url": "http://input"}, None).token == "t-two"

    assert resolved({"timeout": 1}, None).timeout == 1.0
    with pytest.raises(ApinizerResourceError, match=r"connection\.timeout must be a positive number"):
        resolved({"timeout": True}, None)


def test_a_delete_uses_each_resource_s_own_connection(bare_server: ProviderServer, emulator_url: str,
                                                       gateway: Gateway) -> None:
    """Resources of one provider process with other credentials each send theirs: what was resolved
    for one (at its create) never serves the other, whose refused token fails its own delete."""
    engine = Engine(bare_server, EndpointProvider(), "Endpoint")
    admin = {"url": emulator_url, "token": "dev-admin-token"}
    id_, outs = engine.up({**USERS, "connection": admin})
    with pytest.raises(grpc.RpcError, match="401"):
        engine.delete(id_, {**outs, "connection": {**admin, "token": "no-such-token"}})
    engine.delete(id_, outs)
    assert gateway.stats()["requests"].get(
        "POST /apiops/projects/{projectName}/apiProxies/{apiProxyName}/endpoints/delete/") == 2
