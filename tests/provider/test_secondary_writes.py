"""A primary write that succeeds, then a secondary write that fails: the outputs record only what the
gateway confirmed, so that the engine's next diff shows the rest and the next `pulumi up` sends it.

One test per kind whose create or update makes more than one write (docs/faults.md, "Once a create is
confirmed"). Each fault hits the secondary write alone; the gateway's own record
(``/_emulator/state``) is the proof.
"""

from __future__ import annotations

from typing import Any

import grpc
import pytest

import _emulator_http as emulator_http
from apinizer_pulumi.resources import (
    ApiProxyGroupProvider,
    CredentialProvider,
    EndpointProvider,
    IpGroupProvider,
)
from apinizer_pulumi.resources.testing import DIFF_NONE, DIFF_SOME, Engine, ProviderServer

from ._fork_server import ForkedProviderServer
from .conftest import ADMIN_TOKEN, Gateway
from .test_api_proxy_group import GROUP, inspect
from .test_credential import PARTNER, stored

#: The two ways a secondary write is lost: the gateway's 500 (never retried by the client) and a
#: connection dropped before the request was read (a non-idempotent write is not repeated).
LOST = [{"status": 500}, {"drop": True}]
LOST_IDS = ["500", "dropped connection"]


def fault(gateway: Gateway, **rule: Any) -> None:
    emulator_http.post(f"{gateway.url}/_emulator/faults", json={"count": 1, **rule}).raise_for_status()


def converges(engine: Engine, id_: str, outs: dict[str, Any], declared: dict[str, Any],
              url: str) -> dict[str, Any]:
    """The next `pulumi up`, in a new provider process as the engine starts one: the diff shows a
    change, the update carries it out, and then nothing is left."""
    config = {"apinizer:url": url, "apinizer:token": ADMIN_TOKEN}
    with ForkedProviderServer(config, env={"APINIZER_SKIP_CONNECTION_CHECK": "1"}) as server:
        engine = engine.on(server)
        news = engine.checked(declared)
        assert engine.diff(id_, outs, news).changes == DIFF_SOME, "the next up would not send what failed"
        outs = engine.update(id_, outs, news)
        assert engine.diff(id_, outs, engine.checked(declared)).changes == DIFF_NONE
    return outs


@pytest.fixture
def credentials(server: ProviderServer, emulator_url: str) -> Engine:
    return Engine(server, CredentialProvider(), "Credential")


@pytest.fixture
def groups(server: ProviderServer, emulator_url: str) -> Engine:
    return Engine(server, ApiProxyGroupProvider(), "ApiProxyGroup")


@pytest.fixture
def ip_groups(server: ProviderServer, emulator_url: str) -> Engine:
    return Engine(server, IpGroupProvider(), "IpGroup")


@pytest.mark.parametrize("lost", LOST, ids=LOST_IDS)
def test_a_credential_whose_grant_failed_records_no_access_and_the_next_up_grants_it(
    credentials: Engine, gateway: Gateway, lost: dict[str, Any]
) -> None:
    fault(gateway, method="PUT", path="/access/", **lost)
    id_, outs = credentials.up(PARTNER)

    [live] = stored(gateway)
    assert live["accessList"] == []
    assert outs["access"] == [], "the outputs say the access was granted; the gateway has none"

    converges(credentials, id_, outs, PARTNER, gateway.url)
    assert [item["name"] for item in stored(gateway)[0]["accessList"]] == ["Orders", "PetStore"]


def test_a_credential_update_whose_grant_failed_fails_and_keeps_the_old_outputs(
    credentials: Engine, gateway: Gateway
) -> None:
    id_, outs = credentials.up({**PARTNER, "access": []})
    changed = {**PARTNER, "full_name": "Partner Ltd."}
    fault(gateway, status=500, method="PUT", path="/access/")
    with pytest.raises(grpc.RpcError) as info:
        credentials.update(id_, outs, credentials.checked(changed))
    assert "apinizer:Credential partner in Demo" in str(info.value.details())
    # The engine keeps ``outs``: the next up diffs against them and sends the update again.
    converges(credentials, id_, outs, changed, gateway.url)
    [live] = stored(gateway)
    assert live["fullName"] == "Partner Ltd." and len(live["accessList"]) == 2


def test_a_group_whose_second_member_failed_records_the_first_alone(
    groups: Engine, gateway: Gateway
) -> None:
    fault(gateway, status=500, method="POST", path="/apiProxies/Orders/")
    id_, outs = groups.up(GROUP)

    group = inspect(gateway)
    assert group is not None and group["members"] == ["PetStore"]
    assert outs["api_proxy_names"] == ["PetStore"]

    converges(groups, id_, outs, GROUP, gateway.url)
    group = inspect(gateway)
    assert group is not None and sorted(group["members"]) == ["Orders", "PetStore"]


def test_an_ip_group_whose_addresses_failed_records_none(ip_groups: Engine, gateway: Gateway) -> None:
    declared = {"project_name": "Demo", "name": "Office", "addresses": ["10.0.0.0/8", "192.168.1.7"]}
    fault(gateway, status=500, method="PUT", path="/ipGroups/Office/")
    id_, outs = ip_groups.up(declared)
    assert outs["addresses"] == []

    converges(ip_groups, id_, outs, declared, gateway.url)
    state = emulator_http.get(f"{gateway.url}/_emulator/state").json()
    [demo] = [project for project in state["projects"] if project["name"] == "Demo"]
    [group] = [item for item in demo["ipGroups"] if item["name"] == "Office"]
    assert sorted(group["ipList"]) == ["10.0.0.0/8", "192.168.1.7"]


def test_an_endpoint_whose_disable_failed_records_it_active(
    server: ProviderServer, emulator_url: str, gateway: Gateway
) -> None:
    endpoints = Engine(server, EndpointProvider(), "Endpoint")
    declared = {"project_name": "Demo", "api_proxy_name": "PetStore", "name": "/off", "http_method": "GET",
                "backend_resource_url": "/off", "backend_http_method": "GET", "active": False}
    fault(gateway, status=500, method="PATCH", path="/status/")
    id_, outs = endpoints.up(declared)
    assert outs["active"] is True
    assert (gateway.endpoint("Demo", "PetStore", "GET", "/off") or {})["active"] is True

    converges(endpoints, id_, outs, declared, gateway.url)
    assert (gateway.endpoint("Demo", "PetStore", "GET", "/off") or {})["active"] is False


@pytest.mark.parametrize("lost", [{"status": 500}, {"status": 400, "error": "bad_request",
                                                     "error_description": "order store unavailable"}],
                         ids=["500", "400"])
def test_a_policy_whose_move_after_its_add_failed_records_no_order(
    emulator_url: str, gateway: Gateway, lost: dict[str, Any]
) -> None:
    from apinizer_pulumi.client import ApinizerClient
    from apinizer_pulumi.resources import PolicyProvider

    from .conftest import ADMIN_TOKEN
    from .test_policy import request_names, white_ip

    config = {"apinizer:url": emulator_url, "apinizer:token": ADMIN_TOKEN}
    env = {"APINIZER_SKIP_CONNECTION_CHECK": "1", "APINIZER_READ_CACHE_TTL": "0"}
    with ForkedProviderServer(config, env=env) as first:
        policies = Engine(first, PolicyProvider(), "Policy")
        policies.up(white_ip("a", 1), name="a")
        policies.up(white_ip("c", 2), name="c")
    # Another operation declares b second: before the last policy of the pipeline, a place that only
    # an update after the add reaches. The update fails.
    fault(gateway, method="PUT", path="/policies/b/", **lost)
    with (ForkedProviderServer(config, env=env) as later,
          ApinizerClient(emulator_url, token=ADMIN_TOKEN) as client):
        policies = Engine(later, PolicyProvider(), "Policy")
        id_, outs = policies.up(white_ip("b", 2), name="b")  # created: b is the stack's
        assert request_names(client) == ["a", "c", "b"]
        assert outs.get("order") is None and outs["position"] == 3

        news = policies.checked(white_ip("b", 2))
        assert policies.diff(id_, outs, news).changes == DIFF_SOME
        policies.update(id_, outs, news, name="b")
        assert request_names(client) == ["a", "b", "c"]


def test_a_group_whose_id_read_back_failed_once_reads_it_again(groups: Engine, gateway: Gateway) -> None:
    fault(gateway, status=500, method="GET", path="/apiProxyGroups/")
    _, outs = groups.up(GROUP)
    assert outs.get("api_proxy_group_id"), "the id was left for a refresh to fill in"
