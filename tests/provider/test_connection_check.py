"""Preview checks the connection: offline first, then at most one request per provider process.

Each test starts a provider server of its own, as the engine starts one per operation: the check's
outcome is kept for the process, so a shared server would hide every request but the first.
"""

from __future__ import annotations

import concurrent.futures
import socket
from collections.abc import Iterator
from typing import Any

import pytest

import _emulator_http as emulator_http
from apinizer_pulumi.resources import EndpointCacheProvider, EndpointProvider, RlclEndpointsProvider
from apinizer_pulumi.resources.testing import UNKNOWN, Engine, ProviderServer

from ._fork_server import ForkedProviderServer
from .conftest import Gateway
from .test_endpoint import USERS
from .test_endpoint_cache import CACHE
from .test_rlcl_endpoints import RLCL

LIST = "GET /apiops/projects/{projectName}/apiProxies/{apiProxyName}/endpoints/"
TOKEN = "POST /apiops/auth/token"
SKIP_HINT = "APINIZER_SKIP_CONNECTION_CHECK=1"


@pytest.fixture
def start() -> Iterator[Any]:
    """``start(config, env=None)``: a provider server of its own, stopped after the test."""
    servers: list[ProviderServer] = []

    def started(config: dict[str, str], env: dict[str, str] | None = None) -> ProviderServer:
        servers.append(ForkedProviderServer(config, env=env))
        return servers[-1]

    yield started
    for server in servers:
        server.stop()


def only_failure(engine: Engine, news: dict[str, Any], name: str = "r") -> str:
    """The check's one failure, which has no property (the engine would print the value beside it)."""
    failures = engine.check(news, name=name).failures
    assert list(failures) == [""], failures
    return failures[""]


def closed_port() -> int:
    with socket.socket() as probe:
        probe.bind(("127.0.0.1", 0))
        port: int = probe.getsockname()[1]
    return port


def test_a_missing_url_fails_the_check_naming_every_place_and_sends_nothing(start: Any,
                                                                            gateway: Gateway) -> None:
    engine = Engine(start({"apinizer:token": "dev-admin-token"}), EndpointProvider(), "Endpoint")
    reason = only_failure(engine, USERS)
    assert all(place in reason for place in ("connection.url", "apinizer:url", "APINIZER_URL")), reason
    assert gateway.stats()["total"] == 0


@pytest.mark.parametrize("url", ["127.0.0.1:18080", "ftp://gateway.example.com", "https://"])
def test_a_url_without_http_scheme_or_host_fails_naming_the_setting(start: Any, gateway: Gateway,
                                                                     url: str) -> None:
    engine = Engine(start({"apinizer:url": url, "apinizer:token": "dev-admin-token"}), EndpointProvider(),
                    "Endpoint")
    reason = only_failure(engine, USERS)
    assert reason.startswith(f"apinizer: apinizer:url {url!r} is not"), reason
    # The same URL given as the connection input is named as such.
    given = {**USERS, "connection": {"url": url, "token": "dev-admin-token"}}
    assert only_failure(engine, given).startswith(f"apinizer: connection.url {url!r} is not")
    assert gateway.stats()["total"] == 0


def test_missing_credentials_fail_naming_every_place(start: Any, gateway: Gateway) -> None:
    engine = Engine(start({"apinizer:url": gateway.url}), EndpointProvider(), "Endpoint")
    reason = only_failure(engine, USERS)
    assert all(place in reason for place in ("connection.token", "apinizer:token", "APINIZER_TOKEN")), reason
    half = Engine(start({"apinizer:url": gateway.url, "apinizer:username": "admin"}), EndpointProvider(),
                  "Endpoint")
    reason = only_failure(half, USERS)
    assert reason.startswith("apinizer: incomplete credentials: a username needs its password"), reason
    assert "'apinizer:username'/'apinizer:password'" in reason
    assert gateway.stats()["total"] == 0


def test_a_wrong_token_fails_every_check_with_one_request(start: Any, gateway: Gateway) -> None:
    server = start({"apinizer:url": gateway.url, "apinizer:token": "wrong-token"})
    engine = Engine(server, EndpointProvider(), "Endpoint")
    reasons = {only_failure(engine, {**USERS, "name": f"/n/{index}"}, name=f"r{index}")
               for index in range(10)}

    assert len(reasons) == 1, reasons
    reason = reasons.pop()
    assert reason == (f"apinizer: the gateway at {gateway.url} refused apinizer:token (401 on the token): "
                      "check the credentials, or which gateway the URL names")
    assert "wrong-token" not in reason
    assert gateway.stats()["requests"] == {LIST: 1}


def test_a_wrong_password_fails_on_the_token_request_alone(start: Any, gateway: Gateway) -> None:
    server = start({"apinizer:url": gateway.url, "apinizer:username": "admin", "apinizer:password": "nope"})
    reason = only_failure(Engine(server, EndpointProvider(), "Endpoint"), USERS)
    assert reason == (f"apinizer: the gateway at {gateway.url} refused apinizer:username/apinizer:password "
                      "(401 on the token request): check the credentials, or which gateway the URL names")
    assert "nope" not in reason
    assert gateway.stats()["requests"] == {TOKEN: 1}


def test_a_gateway_that_cannot_be_reached_fails_the_check(start: Any, gateway: Gateway) -> None:
    url = f"http://127.0.0.1:{closed_port()}"
    server = start({"apinizer:url": url, "apinizer:token": "dev-admin-token"})
    engine = Engine(server, EndpointProvider(), "Endpoint")
    first = only_failure(engine, USERS)
    assert first.startswith(f"apinizer: cannot reach the gateway at {url} (apinizer:url): ConnectError")
    assert SKIP_HINT in first and "apinizer:skipConnectionCheck" in first
    again = {**USERS, "name": "/again"}
    assert only_failure(engine, again, name="again") == first  # kept: no second attempt
    assert "dev-admin-token" not in first


def test_many_resources_of_every_kind_cost_one_request(start: Any, gateway: Gateway) -> None:
    server = start({"apinizer:url": gateway.url, "apinizer:token": "dev-admin-token"})
    kinds = [(Engine(server, EndpointProvider(), "Endpoint"), lambda i: {**USERS, "name": f"/n/{i}"}),
             (Engine(server, EndpointCacheProvider(), "EndpointCache"),
              lambda i: {**CACHE, "endpoint_name": f"/n/{i}"}),
             (Engine(server, RlclEndpointsProvider(), "RlclEndpoints"),
              lambda i: {**RLCL, "rlcl_name": f"L{i}"})]
    with concurrent.futures.ThreadPoolExecutor(8) as pool:
        checks = [pool.submit(engine.check, declared(index), None, f"{engine.urn_type}-{index}")
                  for index in range(10) for engine, declared in kinds]
        assert all(check.result().failures == {} for check in checks)
    assert gateway.stats()["requests"] == {LIST: 1}


def test_with_a_password_the_checks_token_serves_the_creates(start: Any, gateway: Gateway) -> None:
    server = start({"apinizer:url": gateway.url, "apinizer:username": "admin", "apinizer:password": "admin"})
    engine = Engine(server, EndpointProvider(), "Endpoint")
    checked = [engine.checked({**USERS, "name": f"/n/{index}"}) for index in range(5)]
    assert gateway.stats()["requests"] == {TOKEN: 1}
    for index, inputs in enumerate(checked):
        engine.create(inputs, name=f"r{index}")
    assert gateway.stats()["requests"][TOKEN] == 1


def test_a_guest_without_the_role_passes_the_check(start: Any, gateway: Gateway) -> None:
    """A 403 says the token is valid: what it may do is the operations' business."""
    server = start({"apinizer:url": gateway.url, "apinizer:token": "dev-guest-token"})
    assert Engine(server, EndpointProvider(), "Endpoint").check(USERS).failures == {}
    assert gateway.stats()["requests"] == {LIST: 1}


@pytest.mark.parametrize("switch", [
    ({"apinizer:skipConnectionCheck": "true"}, None),
    ({}, {"APINIZER_SKIP_CONNECTION_CHECK": "1"}),
])
def test_the_skip_switch_turns_the_check_off(start: Any, gateway: Gateway,
                                             switch: tuple[dict[str, str], dict[str, str] | None]) -> None:
    config, env = switch
    server = start({"apinizer:url": gateway.url, "apinizer:token": "wrong-token", **config}, env)
    engine = Engine(server, EndpointProvider(), "Endpoint")
    assert engine.check(USERS).failures == {}
    url = f"http://127.0.0.1:{closed_port()}"
    assert engine.check({**USERS, "connection": {"url": url, "token": "t"}}, name="other").failures == {}
    assert gateway.stats()["total"] == 0


def test_a_connection_unknown_at_preview_is_not_checked(start: Any, gateway: Gateway) -> None:
    engine = Engine(start({}), EndpointProvider(), "Endpoint")
    assert engine.check({**USERS, "connection": {"url": UNKNOWN, "token": "wrong-token"}}).failures == {}
    assert engine.check({**USERS, "connection": UNKNOWN}, name="whole").failures == {}
    assert gateway.stats()["total"] == 0


def fault(gateway: Gateway, **rule: Any) -> None:
    emulator_http.post(f"{gateway.url}/_emulator/faults", json={"count": 1, **rule}).raise_for_status()


@pytest.mark.parametrize("failure", [{"drop": True}, {"status": 500}, {"status": 503},
                                     {"status": 429, "retry_after": 0.01}],
                         ids=["dropped connection", "500", "503", "429"])
def test_a_transient_failure_of_the_check_is_tried_again(start: Any, gateway: Gateway,
                                                        failure: dict[str, Any]) -> None:
    fault(gateway, **failure)
    server = start({"apinizer:url": gateway.url, "apinizer:token": "dev-admin-token"})
    engine = Engine(server, EndpointProvider(), "Endpoint")
    for index in range(5):
        assert engine.check({**USERS, "name": f"/n/{index}"}, name=f"r{index}").failures == {}
    # The failed request and the one after it, then the outcome is kept.
    assert gateway.stats()["requests"] == {LIST: 2}


def test_a_check_that_only_met_transient_failures_is_not_kept(start: Any, gateway: Gateway) -> None:
    fault(gateway, drop=True, count=4)  # every attempt of the first check
    server = start({"apinizer:url": gateway.url, "apinizer:token": "dev-admin-token"},
                   env={"APINIZER_CONNECTION_RECHECK_AFTER": "0"})
    engine = Engine(server, EndpointProvider(), "Endpoint")
    first = only_failure(engine, USERS)
    assert first.startswith(f"apinizer: cannot reach the gateway at {gateway.url} (apinizer:url): "), first
    assert engine.check({**USERS, "name": "/later"}, name="later").failures == {}


def test_a_401_after_a_transient_failure_is_kept(start: Any, gateway: Gateway) -> None:
    fault(gateway, status=503)
    server = start({"apinizer:url": gateway.url, "apinizer:token": "wrong-token"})
    engine = Engine(server, EndpointProvider(), "Endpoint")
    reasons = {only_failure(engine, {**USERS, "name": f"/n/{index}"}, name=f"r{index}") for index in range(3)}
    assert len(reasons) == 1 and "refused apinizer:token (401 on the token)" in reasons.pop()
    assert gateway.stats()["requests"] == {LIST: 2}
