"""What a check does per resource once its connection is proven: no settings resolved anew, and a
kept proof answers for its own settings only."""

from __future__ import annotations

from typing import Any

import pytest

from apinizer_pulumi.resources import EndpointProvider, _base, _connection
from apinizer_pulumi.resources.testing import Engine

from .conftest import Gateway
from .test_connection_check import TOKEN, only_failure, start  # noqa: F401 (the fixture)
from .test_endpoint import USERS


def test_checks_of_one_connection_resolve_its_settings_once(gateway: Gateway,
                                                            monkeypatch: pytest.MonkeyPatch) -> None:
    resolving = _connection.resolve
    resolved: list[Any] = []

    def counted(*args: Any, **kwargs: Any) -> _connection.Settings:
        resolved.append(args)
        return resolving(*args, **kwargs)

    monkeypatch.setattr(_connection, "resolve", counted)
    monkeypatch.setattr(_base, "resolve", counted, raising=False)  # where the check took it from before
    connection = {"url": gateway.url, "username": "admin", "password": "admin"}
    provider = EndpointProvider()
    for index in range(20):
        result = provider.check({}, {**USERS, "name": f"/n/{index}", "connection": connection})
        assert not result.failures, result.failures
    assert len(resolved) <= 1, f"{len(resolved)} resolutions for 20 checks of one connection"
    assert gateway.stats()["requests"].get(TOKEN, 0) <= 1


def test_a_proven_connection_vouches_for_no_other_settings(start: Any, gateway: Gateway) -> None:  # noqa: F811
    server = start({"apinizer:url": gateway.url, "apinizer:username": "admin", "apinizer:password": "admin"})
    engine = Engine(server, EndpointProvider(), "Endpoint")
    assert engine.check({**USERS, "name": "/proven"}, name="proven").failures == {}

    wrong = {**USERS, "name": "/wrong",
             "connection": {"url": gateway.url, "username": "admin", "password": "x"}}
    assert only_failure(engine, wrong, name="wrong") == (
        f"apinizer: the gateway at {gateway.url} refused connection.username/connection.password "
        "(401 on the token request): check the credentials, or which gateway the URL names")
    no_host = {**USERS, "name": "/no-host", "connection": {"url": "https://", "username": "admin",
                                                          "password": "admin"}}
    refused = only_failure(engine, no_host, name="no-host")
    assert refused.startswith("apinizer: connection.url 'https://' is not")
    # The proven one is still answered from what was kept: one token request for it, one for the refusal.
    assert engine.check({**USERS, "name": "/again"}, name="again").failures == {}
    assert gateway.stats()["requests"] == {TOKEN: 2}
