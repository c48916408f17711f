"""EndpointWsa through the dynamic provider server, against a live emulator."""

from __future__ import annotations

from typing import Any

import grpc
import pytest

from apinizer_pulumi.client import ApinizerClient
from apinizer_pulumi.resources.testing import DIFF_NONE, DIFF_SOME, Engine

from .conftest import Gateway

WSA: dict[str, Any] = {
    "project_name": "Demo",
    "api_proxy_name": "Calculator",
    "endpoint_name": "Add",
    "endpoint_http_method": "POST",
    "wsa_settings": {"wsa_enabled": True, "wsa_add_default_action": True, "wsa_to": "http://calc.example/add"},
}


def _live_wsa(gateway: Gateway, name: str = "Add") -> dict[str, Any] | None:
    live = gateway.endpoint("Demo", "Calculator", "POST", name)
    assert live is not None
    settings: dict[str, Any] | None = live["wsaSettings"]
    return settings


def test_create_update_replace_and_delete(wsas: Engine, gateway: Gateway, client: ApinizerClient) -> None:
    by_hand = {"wsa_enabled": True, "wsa_from": "urn:hand"}
    client.endpoints.set_wsa("Demo", "Calculator", "Add", "POST", by_hand)

    id_, outs = wsas.up(WSA)
    live = _live_wsa(gateway)
    assert live is not None and live["wsaEnabled"] is True and live["wsaTo"] == "http://calc.example/add"
    assert live["wsaFrom"] is None
    assert outs["wsa_settings"]["wsa_version"] == "V200508"
    assert id_ == "Demo/Calculator/POST/Add"
    assert wsas.diff(id_, outs, wsas.checked(WSA)).changes == DIFF_NONE

    news = wsas.checked({**WSA, "wsa_settings": {**WSA["wsa_settings"], "wsa_version": "V200408"}})
    diff = wsas.diff(id_, outs, news)
    assert diff.changes == DIFF_SOME and list(diff.replaces) == []
    outs = wsas.update(id_, outs, news)
    live = _live_wsa(gateway)
    assert live is not None and live["wsaVersion"] == "V200408"

    moved = wsas.checked({**WSA, "endpoint_name": "Subtract"})
    assert list(wsas.diff(id_, outs, moved).replaces) == ["endpoint_name"]
    wsas.create(moved, name="r2")
    wsas.delete(id_, outs)
    subtract = _live_wsa(gateway, "Subtract")
    assert subtract is not None and subtract["wsaEnabled"] is True
    add = _live_wsa(gateway)
    assert add is not None and add["wsaEnabled"] is False and add["wsaVersion"] == "V200508"


def test_refresh_and_delete_when_the_endpoint_is_gone(wsas: Engine, gateway: Gateway,
                                                      client: ApinizerClient) -> None:
    id_, outs = wsas.up(WSA)
    client.endpoints.set_wsa("Demo", "Calculator", "Add", "POST", {"wsa_enabled": False})

    # The API cannot read WS-Addressing settings back: refresh cannot see this drift.
    assert wsas.read(id_, outs) == (id_, outs, None)

    gone = {**outs, "endpoint_name": "Multiply"}
    assert wsas.read("Demo/Calculator/POST/Multiply", gone)[:2] == ("", {})
    wsas.delete("Demo/Calculator/POST/Multiply", gone)


def test_rest_endpoint_error_is_one_line(wsas: Engine) -> None:
    with pytest.raises(grpc.RpcError) as failure:
        wsas.up({**WSA, "api_proxy_name": "PetStore", "endpoint_name": "/pets",
                 "endpoint_http_method": "GET"})

    details = failure.value.details()
    assert "\n" not in details and "Traceback" not in details
    assert details.startswith("apinizer:EndpointWsa GET /pets in Demo/PetStore: 400")
