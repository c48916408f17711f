"""An API proxy group's whole life under the real ``pulumi`` CLI.

A small program (an ``ApiProxyGroup`` of the fixture's proxies and its ``ApiProxyGroupDeployment``
to ``test``, whose trigger is the member list) goes through: create (the members deployed with the
group); a change of members in place, which redeploys through the trigger; an undeploy and a
description edit made in the console, seen by ``refresh`` and repaired by ``up``; and ``destroy``,
which undeploys before it deletes the group, leaving its proxies.
"""

from __future__ import annotations

from collections.abc import Callable, Iterator
from pathlib import Path
from typing import Any

import httpx
import pytest

from apinizer_pulumi.client import ApinizerClient

from .conftest import Project, program_source, summary

GROUP = "/apiops/projects/{projectName}/apiProxyGroups/{apiProxyGroupName}/"
DEPLOY = f"POST {GROUP}environments/{{environmentName}}/"
UNDEPLOY = f"DELETE {GROUP}environments/{{environmentName}}/"
DELETE_GROUP = f"DELETE {GROUP}"

PROGRAM = """
import pulumi

import apinizer_pulumi as apinizer

config = pulumi.Config()
group = apinizer.ApiProxyGroup(
    "payments",
    project_name="Demo",
    name="Payments-e2e",
    description="Payment APIs",
    client_route=apinizer.ClientRouteArgs(relative_paths=["/payments"], methods=["GET", "POST"]),
    api_proxy_names=(config.get("members") or "PetStore").split(","),
)
deployment = apinizer.ApiProxyGroupDeployment(
    "payments-test",
    project_name="Demo",
    api_proxy_group_name=group.name,
    environment_name="test",
    triggers={"members": group.api_proxy_names},
)
pulumi.export("members", group.api_proxy_names)
pulumi.export("deployed", deployment.deployed)
"""


@pytest.fixture
def project(make_project: Any, emulator_url: str, admin_token: str, tmp_path: Path) -> Project:
    source = program_source(tmp_path / "source", "group-life", PROGRAM)
    made: Project = make_project(source, name="group-life")
    made.configure({"apinizer:url": emulator_url}, secrets={"apinizer:token": admin_token})
    return made


@pytest.fixture
def client(emulator_url: str, admin_token: str) -> Iterator[ApinizerClient]:
    with ApinizerClient(emulator_url, token=admin_token) as api:
        yield api


@pytest.fixture
def stats(emulator_url: str) -> Callable[[], dict[str, int]]:
    def take() -> dict[str, int]:
        counts: dict[str, int] = httpx.get(f"{emulator_url}/_emulator/stats", timeout=10).json()["requests"]
        httpx.post(f"{emulator_url}/_emulator/stats/reset", json={}, timeout=10).raise_for_status()
        return counts

    return take


def members(emulator_url: str) -> list[str]:
    found: list[str] = httpx.get(f"{emulator_url}/_emulator/projects/Demo/apiProxyGroups/Payments-e2e",
                                 timeout=10).json()["members"]
    return found


def environments(client: ApinizerClient) -> list[str]:
    return [e.environment_name for e in client.api_proxy_groups.environments("Demo", "Payments-e2e")]


def deployed_in_test(client: ApinizerClient, proxy: str) -> bool:
    line = client.api_proxies.get("Demo", proxy).deployment("test")
    return bool(line and line.deployed)


def test_a_group_through_its_whole_life(
    project: Project, client: ApinizerClient, stats: Callable[[], dict[str, int]], emulator_url: str
) -> None:
    stats()
    up = project.up()
    assert summary(up.stdout) == {"created": 3}, up.stdout
    assert members(emulator_url) == ["PetStore"]
    assert environments(client) == ["test"]
    assert deployed_in_test(client, "PetStore")
    assert project.outputs() == {"members": ["PetStore"], "deployed": True}
    assert stats().get(DEPLOY) == 1
    assert summary(project.up("--expect-no-changes").stdout) == {"unchanged": 3}

    # Members change in place, and the trigger deploys the group again: the new member with it.
    project.set_config("members", "PetStore,Orders")
    changed = project.up()
    assert summary(changed.stdout) == {"updated": 2, "unchanged": 1}, changed.stdout
    assert members(emulator_url) == ["PetStore", "Orders"]
    assert deployed_in_test(client, "Orders")
    assert stats().get(DEPLOY) == 1

    # Undeployed and edited in the console: refresh sees both, up repairs both.
    client.api_proxy_groups.undeploy("Demo", "Payments-e2e", "test")
    client.api_proxy_groups.update("Demo", {"name": "Payments-e2e", "description": "console edit",
                                            "client_route": {"relative_path_list": ["/payments"]}})
    refreshed = project.refresh()
    assert summary(refreshed.stdout).get("updated", 0) == 2, refreshed.stdout
    stats()
    repaired = project.up()
    assert summary(repaired.stdout) == {"updated": 2, "unchanged": 1}, repaired.stdout
    assert client.api_proxy_groups.find("Demo", "Payments-e2e").description == "Payment APIs"  # type: ignore[union-attr]
    assert environments(client) == ["test"]
    assert stats().get(DEPLOY) == 1

    # Destroy undeploys, then deletes the group; its proxies stay.
    destroyed = project.destroy("--skip-preview")
    assert summary(destroyed.stdout) == {"deleted": 3}, destroyed.stdout
    counts = stats()
    assert (counts.get(UNDEPLOY), counts.get(DELETE_GROUP)) == (1, 1), counts
    assert client.api_proxy_groups.list("Demo") == []
    assert not deployed_in_test(client, "Orders")
    assert client.api_proxies.find("Demo", "PetStore") is not None
