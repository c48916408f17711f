"""ApiProxyGroup and ApiProxyGroupDeployment through the dynamic provider server, against a live emulator."""

from __future__ import annotations

from collections.abc import Iterator
from typing import Any

import grpc
import pytest

import _emulator_http as emulator_http
from apinizer_pulumi.client import ApinizerClient
from apinizer_pulumi.resources import ApiProxyGroupDeploymentProvider, ApiProxyGroupProvider
from apinizer_pulumi.resources.testing import DIFF_NONE, DIFF_SOME, Engine, ProviderServer

from ._fork_server import ForkedProviderServer
from .conftest import ADMIN_TOKEN, Gateway

GROUP: dict[str, Any] = {"project_name": "Demo", "name": "Payments", "description": "Payment APIs",
                         "client_route": {"relative_paths": ["/payments"], "methods": ["GET", "POST"]},
                         "api_proxy_names": ["PetStore", "Orders"]}
DEPLOYMENT: dict[str, Any] = {"project_name": "Demo", "api_proxy_group_name": "Payments",
                              "environment_name": "test"}
CREATE = "POST /apiops/projects/{projectName}/apiProxyGroups/"
MEMBER = "/apiops/projects/{projectName}/apiProxyGroups/{apiProxyGroupName}/apiProxies/{apiProxyName}/"
DEPLOY = ("POST /apiops/projects/{projectName}/apiProxyGroups/{apiProxyGroupName}"
          "/environments/{environmentName}/")
LIST = "GET /apiops/projects/{projectName}/apiProxyGroups/"


@pytest.fixture
def groups(server: ProviderServer, emulator_url: str) -> Engine:
    return Engine(server, ApiProxyGroupProvider(), "ApiProxyGroup")


@pytest.fixture
def deployments(server: ProviderServer, emulator_url: str) -> Engine:
    return Engine(server, ApiProxyGroupDeploymentProvider(), "ApiProxyGroupDeployment")


@pytest.fixture
def later(emulator_url: str) -> Iterator[tuple[Engine, Engine]]:
    """Group and deployment engines of another Pulumi operation (a new provider process): a create
    claims its object for the rest of its operation, so that a delete there leaves it."""
    config = {"apinizer:url": emulator_url, "apinizer:token": ADMIN_TOKEN}
    with ForkedProviderServer(config, env={"APINIZER_SKIP_CONNECTION_CHECK": "1"}) as server:
        yield (Engine(server, ApiProxyGroupProvider(), "ApiProxyGroup"),
               Engine(server, ApiProxyGroupDeploymentProvider(), "ApiProxyGroupDeployment"))


def inspect(gateway: Gateway, name: str = "Payments") -> dict[str, Any] | None:
    response = emulator_http.get(f"{gateway.url}/_emulator/projects/Demo/apiProxyGroups/{name}")
    if response.status_code == 404:
        return None
    response.raise_for_status()
    found: dict[str, Any] = response.json()
    return found


def fault(gateway: Gateway, **rule: Any) -> None:
    rule = {"retry_after": 0.01, **rule}
    emulator_http.post(f"{gateway.url}/_emulator/faults", json=rule).raise_for_status()


def test_check_names_the_property(groups: Engine) -> None:
    failures = groups.check({**GROUP, "api_proxy_names": ["PetStore", "PetStore"],
                             "client_route": {"relative_paths": ["/"]}}).failures
    assert set(failures) == {"api_proxy_names", "client_route"}
    assert "listed twice" in failures["api_proxy_names"]
    assert list(groups.check({**GROUP, "client_route": {}}).failures) == ["client_route.relative_paths"]


def test_create_writes_the_group_and_its_members(groups: Engine, gateway: Gateway) -> None:
    gateway.reset_stats()
    id_, outs = groups.up(GROUP)
    assert id_ == "Demo/Payments"
    found = inspect(gateway)
    assert found is not None and found["members"] == ["PetStore", "Orders"]
    assert found["body"]["clientRoute"] == {"relativePathList": ["/payments"], "methodList": ["GET", "POST"],
                                            "hostList": None, "headerList": None,
                                            "bufferRequest": True, "bufferResponse": True}
    assert outs["api_proxy_names"] == ["PetStore", "Orders"] and outs["api_proxy_group_id"] == found["id"]
    requests = gateway.stats()["requests"]
    assert requests[CREATE] == 1 and requests[LIST] == 1
    assert groups.diff(id_, outs, groups.checked(GROUP)).changes == DIFF_NONE


def test_members_change_in_place(groups: Engine, gateway: Gateway) -> None:
    id_, outs = groups.up(GROUP)
    news = groups.checked({**GROUP, "api_proxy_names": ["Orders", "Calculator"]})
    diff = groups.diff(id_, outs, news)
    assert diff.changes == DIFF_SOME and list(diff.replaces) == []
    gateway.reset_stats()
    groups.update(id_, outs, news)
    found = inspect(gateway)
    assert found is not None and found["members"] == ["Orders", "Calculator"]
    # One add and one remove; the group itself is not written (its fields did not change).
    assert gateway.stats()["requests"] == {f"POST {MEMBER}": 1, f"DELETE {MEMBER}": 1}


def test_an_unknown_member_fails_the_update_naming_it(groups: Engine) -> None:
    id_, outs = groups.up(GROUP)
    with pytest.raises(grpc.RpcError) as info:
        groups.update(id_, outs, groups.checked({**GROUP, "api_proxy_names": ["Ghost"]}))
    assert "ApiProxy (Ghost) is not found" in str(info.value.details())


def test_refresh_shows_description_drift_and_a_deleted_group(
    groups: Engine, client: ApinizerClient, gateway: Gateway
) -> None:
    id_, outs = groups.up(GROUP)
    spec = {"name": "Payments", "description": "edited in the console",
            "client_route": {"relative_path_list": ["/payments"]}}
    client.api_proxy_groups.update("Demo", spec)
    _, read_outs, read_inputs = groups.read(id_, outs)
    assert read_outs["description"] == "edited in the console" and read_inputs is not None
    assert read_outs["api_proxy_names"] == ["PetStore", "Orders"]  # not readable: kept
    diff = groups.diff(id_, read_outs, groups.checked(GROUP))
    assert diff.changes == DIFF_SOME
    groups.update(id_, read_outs, groups.checked(GROUP))
    assert client.api_proxy_groups.find("Demo", "Payments").description == "Payment APIs"  # type: ignore[union-attr]

    client.api_proxy_groups.delete("Demo", "Payments")
    read_id, _, _ = groups.read(id_, outs)
    assert not read_id  # dropped from the state: the next `up` creates it again


def test_adopt_takes_over_an_existing_group(groups: Engine, client: ApinizerClient, gateway: Gateway) -> None:
    client.api_proxy_groups.create("Demo", {"name": "Billing",
                                            "client_route": {"relative_path_list": ["/x1"]}})
    billing = {**GROUP, "name": "Billing"}
    with pytest.raises(grpc.RpcError) as info:
        groups.up(billing)
    assert "already exists" in str(info.value.details()) and "adopt=True" in str(info.value.details())
    groups.up({**billing, "adopt": True}, name="adopted")
    found = inspect(gateway, "Billing")
    assert found is not None and found["body"]["clientRoute"]["relativePathList"] == ["/payments"]
    assert found["members"] == ["PetStore", "Orders"]


@pytest.mark.parametrize("lost", [{"status": 502, "after": True}, {"drop": True, "after": True}],
                         ids=["502 after the create", "connection dropped after the create"])
def test_a_create_whose_answer_was_lost_is_this_resources(
    groups: Engine, gateway: Gateway, lost: dict[str, Any]
) -> None:
    fault(gateway, method="POST", path="/apiProxyGroups/", count=1, **lost)
    id_, _ = groups.up(GROUP)
    assert id_ == "Demo/Payments" and inspect(gateway) is not None
    assert gateway.stats()["requests"][CREATE] == 1  # the look-up found it: not sent again


def test_a_create_that_never_arrived_is_sent_again(groups: Engine, gateway: Gateway) -> None:
    fault(gateway, method="POST", path="/apiProxyGroups/", count=1, status=503)
    groups.up(GROUP)
    assert gateway.stats()["requests"][CREATE] == 2


def test_delete_removes_the_group_and_tolerates_one_already_gone(
    groups: Engine, later: tuple[Engine, Engine], client: ApinizerClient, gateway: Gateway
) -> None:
    id_, outs = groups.up(GROUP)
    later[0].delete(id_, outs)
    assert inspect(gateway) is None
    later[0].delete(id_, outs)  # gone already: no error
    assert [p.name for p in client.api_proxies.list("Demo")] == ["Calculator", "Orders", "PetStore"]


# -- deployment ---------------------------------------------------------------------------------------


def test_deploy_refresh_drift_and_undeploy(
    groups: Engine, deployments: Engine, later: tuple[Engine, Engine], client: ApinizerClient,
    gateway: Gateway
) -> None:
    groups.up(GROUP)
    id_, outs = deployments.up(DEPLOYMENT)
    assert id_ == "Demo/Payments/test" and outs["deployed"] is True
    assert client.api_proxies.get("Demo", "Orders").deployment("test").deployed  # type: ignore[union-attr]

    gateway.reset_stats()
    _, read_outs, read_inputs = deployments.read(id_, outs)
    assert read_outs["deployed"] is True and read_inputs is None
    assert gateway.stats()["total"] == 1  # one environments list

    client.api_proxy_groups.undeploy("Demo", "Payments", "test")  # from the console
    _, drifted, drifted_inputs = deployments.read(id_, outs)
    assert drifted["deployed"] is False and drifted_inputs is not None
    assert deployments.diff(id_, drifted, deployments.checked(DEPLOYMENT)).changes == DIFF_SOME
    outs = deployments.update(id_, drifted, deployments.checked(DEPLOYMENT))
    assert [e.environment_name for e in client.api_proxy_groups.environments("Demo", "Payments")] == ["test"]

    later[1].delete(id_, outs)
    assert client.api_proxy_groups.environments("Demo", "Payments") == []
    later[1].delete(id_, outs)  # nothing to undeploy: no error


def test_a_changed_trigger_redeploys_and_a_deleted_group_drops_the_deployment(
    groups: Engine, deployments: Engine, later: tuple[Engine, Engine], client: ApinizerClient,
    gateway: Gateway
) -> None:
    groups.up(GROUP)
    id_, outs = deployments.up({**DEPLOYMENT, "triggers": {"members": "a"}})
    news = deployments.checked({**DEPLOYMENT, "triggers": {"members": "b"}})
    assert deployments.diff(id_, outs, news).changes == DIFF_SOME
    gateway.reset_stats()
    deployments.update(id_, outs, news)
    assert gateway.stats()["requests"] == {DEPLOY: 1}
    client.api_proxy_groups.delete("Demo", "Payments")
    read_id, _, _ = deployments.read(id_, outs)
    assert not read_id
    later[1].delete(id_, outs)  # the group is gone: nothing to undeploy


def test_an_unknown_environment_fails_naming_it(groups: Engine, deployments: Engine) -> None:
    groups.up(GROUP)
    with pytest.raises(grpc.RpcError) as info:
        deployments.up({**DEPLOYMENT, "environment_name": "nowhere"})
    details = str(info.value.details())
    assert "apinizer:ApiProxyGroupDeployment Payments in Demo to nowhere" in details
    assert "Environment (nowhere) is not found" in details


def test_adopt_without_a_route_takes_the_group_over_as_it_is(
    groups: Engine, client: ApinizerClient, gateway: Gateway
) -> None:
    client.api_proxy_groups.create("Demo", {"name": "Kept",
                                            "client_route": {"relative_path_list": ["/kept"]}})
    generated = {"project_name": "Demo", "name": "Kept", "adopt": True, "api_proxy_names": ["Orders"]}
    gateway.reset_stats()
    groups.up(generated, name="kept")
    found = inspect(gateway, "Kept")
    assert found is not None and found["body"]["clientRoute"]["relativePathList"] == ["/kept"]
    assert found["members"] == ["Orders"]
    assert "PUT /apiops/projects/{projectName}/apiProxyGroups/" not in gateway.stats()["requests"]
    with pytest.raises(grpc.RpcError) as info:
        groups.up({**generated, "name": "Absent"}, name="absent")
    assert "adopt=True found no group of this name" in str(info.value.details())
    assert "client_route is required" in groups.check({**generated, "adopt": False}).failures["client_route"]
