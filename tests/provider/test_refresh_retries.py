"""A refresh's read that fails on the way (a 500, dropped connections) is tried again, with the pauses
of the look-ups after a create, and a read that keeps failing fails the refresh: it is never taken
for "gone", so nothing is dropped from the state or changed because of it.
"""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

import grpc
import pytest

import _emulator_http as emulator_http
from apinizer_pulumi.resources import (
    ApiProxyGroupProvider,
    ApiProxyProvider,
    ConnectionProvider,
    CredentialProvider,
    CryptoKeyProvider,
    EndpointProvider,
    EnvironmentVariableProvider,
    KeystoreProvider,
)
from apinizer_pulumi.resources.testing import Engine, ProviderServer

from .conftest import Gateway
from .test_api_proxy import orders
from .test_api_proxy_group import GROUP
from .test_connection_resource import EMAIL
from .test_credential import PARTNER
from .test_crypto_key import inline_declaration as crypto_key_declaration
from .test_endpoint import USERS
from .test_environment_variable import BASE_URL
from .test_keystore import inline_declaration as keystore_declaration

KINDS: dict[str, tuple[Callable[[], Any], Callable[[], dict[str, Any]]]] = {
    "Endpoint": (EndpointProvider, lambda: USERS),
    "Credential": (CredentialProvider, lambda: PARTNER),
    "ApiProxy": (ApiProxyProvider, orders),
    "EnvironmentVariable": (EnvironmentVariableProvider, lambda: BASE_URL),
    "ApiProxyGroup": (ApiProxyGroupProvider, lambda: GROUP),
    "Connection": (ConnectionProvider, lambda: EMAIL),
}
# Keystores and crypto keys: material given inline, no file on disk.
KINDS.update({"Keystore": (KeystoreProvider, keystore_declaration),
              "CryptoKey": (CryptoKeyProvider, crypto_key_declaration)})


def fault(gateway: Gateway, **rule: Any) -> None:
    rule = {"method": "GET", "count": 1, **rule}
    emulator_http.post(f"{gateway.url}/_emulator/faults", json=rule).raise_for_status()


def made(server: ProviderServer, kind: str) -> tuple[Engine, str, dict[str, Any]]:
    provider, declared = KINDS[kind]
    engine = Engine(server, provider(), kind)
    id_, outs = engine.up(declared())
    return engine, id_, outs


@pytest.mark.parametrize("kind", list(KINDS))
def test_a_read_answered_500_is_tried_again(
    server: ProviderServer, emulator_url: str, gateway: Gateway, kind: str
) -> None:
    engine, id_, outs = made(server, kind)
    fault(gateway, status=500)  # the client never repeats a 500 by itself
    new_id, read_outs, _ = engine.read(id_, outs)
    assert new_id == id_
    assert read_outs == outs


def test_a_read_whose_connections_dropped_past_the_clients_retries_is_tried_again(
    server: ProviderServer, emulator_url: str, gateway: Gateway
) -> None:
    engine, id_, outs = made(server, "ApiProxy")
    fault(gateway, drop=True, count=5)  # one more than the client's four attempts
    assert engine.read(id_, outs)[:2] == (id_, outs)


def test_a_read_that_keeps_failing_fails_the_refresh_and_drops_nothing(
    server: ProviderServer, emulator_url: str, gateway: Gateway
) -> None:
    engine, id_, outs = made(server, "Endpoint")
    gateway.reset_stats()
    fault(gateway, status=500, count=100)
    with pytest.raises(grpc.RpcError) as info:
        engine.read(id_, outs)
    details = str(info.value.details())
    assert "apinizer:Endpoint GET /api/users in Demo/PetStore: 500 internal_error" in details, details
    # Five reads of the proxy's list, as many as the look-ups after a create.
    assert sum(gateway.stats()["requests"].values()) == 5
