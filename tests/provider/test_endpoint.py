"""Endpoint through the dynamic provider server, against a live emulator."""

from __future__ import annotations

import grpc
import pytest

from apinizer_pulumi.client import ApinizerClient
from apinizer_pulumi.resources import EndpointProvider
from apinizer_pulumi.resources.testing import DIFF_NONE, DIFF_SOME, Engine

from ._fork_server import ForkedProviderServer
from .conftest import ADMIN_TOKEN, Gateway

ENDPOINTS = "/apiops/projects/{projectName}/apiProxies/{apiProxyName}/endpoints/"
USERS = {
    "project_name": "Demo",
    "api_proxy_name": "PetStore",
    "name": "/api/users",
    "http_method": "GET",
    "backend_resource_url": "/users",
    "backend_http_method": "GET",
    "description": "List users",
}


def test_create_records_the_gateway_id_and_fills_defaults(endpoints: Engine, gateway: Gateway) -> None:
    inputs = endpoints.checked(USERS)
    assert inputs["active"] is True and inputs["adopt"] is False

    id_, outs = endpoints.create(inputs)

    live = gateway.endpoint("Demo", "PetStore", "GET", "/api/users")
    assert live is not None and live["active"] is True and live["description"] == "List users"
    assert id_ == "Demo/PetStore/GET//api/users"
    assert outs["endpoint_id"] == live["id"]
    assert {key: outs[key] for key in inputs} == inputs
    assert gateway.stats()["requests"] == {
        f"POST {ENDPOINTS}": 1,
        f"GET {ENDPOINTS}": 1,
    }


def test_create_inactive_adds_one_status_call(endpoints: Engine, gateway: Gateway) -> None:
    endpoints.up({**USERS, "active": False})

    live = gateway.endpoint("Demo", "PetStore", "GET", "/api/users")
    assert live is not None and live["active"] is False
    assert gateway.stats()["requests"][f"PATCH {ENDPOINTS}status/"] == 1


def test_no_op_diff_and_credentials_only_change(endpoints: Engine, gateway: Gateway) -> None:
    id_, outs = endpoints.up(USERS)

    assert endpoints.diff(id_, outs, endpoints.checked(USERS)).changes == DIFF_NONE
    with_connection = {**USERS, "connection": {"url": gateway.url, "token": "dev-developer-token"}}
    assert endpoints.diff(id_, outs, endpoints.checked(with_connection)).changes == DIFF_NONE
    assert endpoints.diff(id_, outs, endpoints.checked({**USERS, "adopt": True})).changes == DIFF_NONE


def test_in_place_update_sends_only_what_changed(endpoints: Engine, gateway: Gateway) -> None:
    id_, outs = endpoints.up(USERS)
    news = endpoints.checked({**USERS, "description": "All users", "active": False})

    diff = endpoints.diff(id_, outs, news)
    assert diff.changes == DIFF_SOME
    assert list(diff.replaces) == []

    gateway.reset_stats()
    updated = endpoints.update(id_, outs, news)

    live = gateway.endpoint("Demo", "PetStore", "GET", "/api/users")
    assert live is not None and live["description"] == "All users" and live["active"] is False
    assert updated["endpoint_id"] == outs["endpoint_id"]
    assert updated["description"] == "All users"
    assert gateway.stats()["requests"] == {
        f"PATCH {ENDPOINTS}": 1,
        f"PATCH {ENDPOINTS}status/": 1,
    }


def test_identifier_change_replaces_create_before_delete(endpoints: Engine, gateway: Gateway) -> None:
    id_, outs = endpoints.up(USERS)
    news = endpoints.checked({**USERS, "name": "/api/people", "api_proxy_name": "Orders"})

    diff = endpoints.diff(id_, outs, news)
    assert diff.changes == DIFF_SOME
    assert sorted(diff.replaces) == ["api_proxy_name", "name"]
    assert diff.deleteBeforeReplace is False

    new_id, _ = endpoints.create(news, name="r2")
    endpoints.delete(id_, outs)

    assert new_id == "Demo/Orders/GET//api/people"
    assert gateway.endpoint("Demo", "Orders", "GET", "/api/people") is not None
    assert gateway.endpoint("Demo", "PetStore", "GET", "/api/users") is None


def test_refresh_shows_out_of_band_change(endpoints: Engine, client: ApinizerClient) -> None:
    id_, outs = endpoints.up(USERS)
    client.endpoints.update("Demo", "PetStore", "/api/users", "GET", description="changed by hand",
                            backend_resource_url="/v2/users")
    client.endpoints.set_status("Demo", "PetStore", "/api/users", "GET", False)

    read_id, read_outs, read_inputs = endpoints.read(id_, outs)

    assert read_id == id_
    assert read_outs["description"] == "changed by hand"
    assert read_outs["backend_resource_url"] == "/v2/users"
    assert read_outs["active"] is False
    assert read_outs["endpoint_id"] == outs["endpoint_id"]
    assert read_inputs is not None and read_inputs["description"] == "changed by hand"
    assert "endpoint_id" not in read_inputs
    # The program still declares the old values: the next diff shows the drift as an update.
    assert endpoints.diff(id_, read_outs, endpoints.checked(USERS)).changes == DIFF_SOME


def test_refresh_of_a_deleted_endpoint_returns_no_id(endpoints: Engine, client: ApinizerClient) -> None:
    id_, outs = endpoints.up(USERS)
    client.endpoints.delete("Demo", "PetStore", "/api/users", "GET")

    read_id, read_outs, _ = endpoints.read(id_, outs)

    assert read_id == ""
    assert read_outs == {}


def test_refresh_when_the_proxy_is_gone_returns_no_id(endpoints: Engine) -> None:
    id_, outs = endpoints.up(USERS)
    gone = {**outs, "api_proxy_name": "NoSuchProxy"}

    read_id, read_outs, _ = endpoints.read("Demo/NoSuchProxy/GET//api/users", gone)

    assert (read_id, read_outs) == ("", {})
    assert endpoints.read(id_, outs)[0] == id_


def test_existing_endpoint_without_adopt_says_to_set_adopt(endpoints: Engine, gateway: Gateway) -> None:
    pets = {**USERS, "name": "/pets", "backend_resource_url": "/pets"}

    with pytest.raises(grpc.RpcError) as failure:
        endpoints.up(pets)

    message = failure.value.details().strip().splitlines()[-1]
    assert "apinizer:Endpoint GET /pets in Demo/PetStore: already exists" in message
    assert "set adopt=True to take it over" in message


def test_adopt_takes_over_with_only_the_needed_calls(endpoints: Engine, gateway: Gateway) -> None:
    before = gateway.endpoint("Demo", "PetStore", "GET", "/pets")
    assert before is not None
    pets = {**USERS, "name": "/pets", "backend_resource_url": "/pets", "description": before["description"],
            "adopt": True, "active": False}

    id_, outs = endpoints.up(pets)

    after = gateway.endpoint("Demo", "PetStore", "GET", "/pets")
    assert after is not None and after["active"] is False and after["id"] == before["id"]
    assert after["requestPolicyList"] == before["requestPolicyList"]
    assert outs["endpoint_id"] == before["id"]
    assert id_ == "Demo/PetStore/GET//pets"
    assert gateway.stats()["requests"] == {
        f"GET {ENDPOINTS}": 1,
        f"PATCH {ENDPOINTS}status/": 1,
    }


def test_delete_and_delete_of_an_endpoint_already_gone(endpoints: Engine, gateway: Gateway,
                                                       client: ApinizerClient) -> None:
    id_, outs = endpoints.up(USERS)

    endpoints.delete(id_, outs)
    assert gateway.endpoint("Demo", "PetStore", "GET", "/api/users") is None

    endpoints.delete(id_, outs)
    endpoints.delete("Demo/NoSuchProxy/GET//api/users", {**outs, "api_proxy_name": "NoSuchProxy"})


def test_gateway_errors_reach_the_user_as_one_clean_line(endpoints: Engine) -> None:
    soap = {**USERS, "api_proxy_name": "Calculator"}

    with pytest.raises(grpc.RpcError) as failure:
        endpoints.up(soap)

    details = failure.value.details()
    assert details == (
        "apinizer:Endpoint GET /api/users in Demo/Calculator: "
        "400 bad_request: Endpoint can only be added to REST API Proxies!"
    )
    assert "During handling" not in details
    assert "httpx" not in details
    assert "dev-admin-token" not in details


def test_removing_the_description_clears_it(endpoints: Engine, gateway: Gateway) -> None:
    id_, outs = endpoints.up(USERS)
    without = {key: value for key, value in USERS.items() if key != "description"}
    news = endpoints.checked(without)
    assert "description" not in news

    assert endpoints.diff(id_, outs, news).changes == DIFF_SOME
    updated = endpoints.update(id_, outs, news)

    live = gateway.endpoint("Demo", "PetStore", "GET", "/api/users")
    assert live is not None and not live["description"]
    assert "description" not in updated
    read_id, read_outs, _ = endpoints.read(id_, updated)
    assert endpoints.diff(read_id, read_outs, news).changes == DIFF_NONE


def test_destroy_of_an_adopted_soap_endpoint_releases_it_with_a_warning(
    emulator_url: str, gateway: Gateway, capfd: pytest.CaptureFixture[str]
) -> None:
    # Servers of their own, started here, so that their stderr (where the warning goes) is captured;
    # one per operation (`pulumi up`, then `pulumi destroy`), as the engine starts them.
    config = {"apinizer:url": emulator_url, "apinizer:token": ADMIN_TOKEN}
    add = {"project_name": "Demo", "api_proxy_name": "Calculator", "name": "Add", "http_method": "POST",
           "backend_resource_url": "/add", "backend_http_method": "POST", "adopt": True}
    with ForkedProviderServer(config) as server:
        id_, outs = Engine(server, EndpointProvider(), "Endpoint").up(add)
    gateway.reset_stats()

    with ForkedProviderServer(config) as server:
        Engine(server, EndpointProvider(), "Endpoint").delete(id_, outs)

    assert gateway.endpoint("Demo", "Calculator", "POST", "Add") is not None
    warning = capfd.readouterr().err
    assert "warning: apinizer:Endpoint POST Add in Demo/Calculator: left on the gateway" in warning
    assert "service description" in warning
    assert ADMIN_TOKEN not in warning
