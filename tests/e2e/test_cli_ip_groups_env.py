"""IP groups and environment variables under the real ``pulumi`` CLI.

A program with an ``IpGroup`` and two ``EnvironmentVariable``s (one value per environment, and a secret
from the stack's config) goes through: create; a second ``up`` with no change; drift made in the
console (the client, as a console user would), seen by ``refresh`` and repaired by ``up``; the secret
absent in clear from ``pulumi stack export``; a bad address refused at preview naming its index; and
``destroy``.
"""

from __future__ import annotations

from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest

from apinizer_pulumi.client import ApinizerClient

from .conftest import Project, program_source, summary

SECRET = "partner-key-e2e-7f3a9c"
PROGRAM = """
import pulumi

import apinizer_pulumi as apinizer

config = pulumi.Config()
offices = apinizer.IpGroup(
    "offices",
    project_name="Demo",
    name="Offices-e2e",
    description="office networks",
    addresses=(config.get("addresses") or "192.168.1.100,10.0.0.0/8").split(","),
)
backend = apinizer.EnvironmentVariable(
    "backend-url",
    project_name="Demo",
    name="BACKEND_URL_E2E",
    environment_values={"test": "https://orders.test.example", "production": "https://orders.example"},
)
key = apinizer.EnvironmentVariable(
    "partner-key",
    project_name="Demo",
    name="PARTNER_KEY_E2E",
    global_value=config.require_secret("partnerKey"),
    secret=True,
)
token = apinizer.EnvironmentVariable(
    "partner-token",
    project_name="Demo",
    name="PARTNER_TOKEN_E2E",
    environment_values={"test": "visible-in-test", "production": config.require_secret("partnerKey")},
)
pulumi.export("allowed", offices.addresses)
pulumi.export("key", key.global_value)
"""


@pytest.fixture
def project(make_project: Any, emulator_url: str, admin_token: str, tmp_path: Path) -> Project:
    source = program_source(tmp_path / "source", "consumers-e2e", PROGRAM)
    made: Project = make_project(source, name="consumers-e2e")
    made.configure(
        {"apinizer:url": emulator_url}, secrets={"apinizer:token": admin_token, "partnerKey": SECRET}
    )
    return made


@pytest.fixture
def client(emulator_url: str, admin_token: str) -> Iterator[ApinizerClient]:
    with ApinizerClient(emulator_url, token=admin_token) as api:
        yield api


def variables(client: ApinizerClient) -> dict[str, Any]:
    return {v.name: v for v in client.environment_variables.list("Demo")}


def test_ip_group_and_variables_through_their_whole_life(
    project: Project, client: ApinizerClient, emulator_url: str
) -> None:
    import httpx

    up = project.up()
    assert summary(up.stdout) == {"created": 5}, up.stdout
    state = httpx.get(f"{emulator_url}/_emulator/state", timeout=10).json()
    [group] = [g for g in state["projects"][0]["ipGroups"] if g["name"] == "Offices-e2e"]
    assert group["ipList"] == ["192.168.1.100", "10.0.0.0/8"]
    found = variables(client)
    assert found["PARTNER_KEY_E2E"].global_visible is False and found["PARTNER_KEY_E2E"].global_value is None
    assert project.outputs()["allowed"] == ["192.168.1.100", "10.0.0.0/8"]
    assert project.outputs(show_secrets=True)["key"] == SECRET
    assert summary(project.up("--expect-no-changes").stdout) == {"unchanged": 5}

    # The secret never lands in the state in clear text, nor in the gateway's inspection state.
    exported = project.export()
    assert SECRET not in exported and '"ciphertext"' in exported
    # On the gateway: masked where secret=True; shown where only the program knew it as a secret.
    state = httpx.get(f"{emulator_url}/_emulator/state", timeout=10).json()
    shown = {v["name"]: v for v in state["projects"][0]["environmentVariables"]}
    assert shown["PARTNER_KEY_E2E"]["globalValue"] is None
    assert {v["value"] for v in shown["PARTNER_TOKEN_E2E"]["environmentValueList"]} == {
        SECRET,
        "visible-in-test",
    }

    # Drift from the console: refresh shows it, up writes the declaration back.
    client.environment_variables.update(
        "Demo",
        {
            "name": "BACKEND_URL_E2E",
            "description": "edited in the console",
            "global": False,
            "environmentValueList": [
                {"environmentName": "test", "value": "https://elsewhere.example", "visible": True}
            ],
        },
    )
    refreshed = project.refresh()
    assert summary(refreshed.stdout).get("updated", 0) == 1, refreshed.stdout
    repaired = project.up()
    assert summary(repaired.stdout) == {"updated": 1, "unchanged": 4}, repaired.stdout
    live = variables(client)["BACKEND_URL_E2E"]
    assert live.description is None
    assert {v.environment_name: v.value for v in live.environment_value_list or []} == {
        "test": "https://orders.test.example",
        "production": "https://orders.example",
    }

    # The address list is authoritative: a new list replaces the old in place.
    project.set_config("addresses", "203.0.113.0/24")
    changed = project.up()
    assert summary(changed.stdout) == {"updated": 1, "unchanged": 4}, changed.stdout
    state = httpx.get(f"{emulator_url}/_emulator/state", timeout=10).json()
    [group] = [g for g in state["projects"][0]["ipGroups"] if g["name"] == "Offices-e2e"]
    assert group["ipList"] == ["203.0.113.0/24"]

    # A bad address is refused at preview, naming its index; nothing is sent.
    project.set_config("addresses", "10.0.0.1,10.0.0.1/8")
    preview = project.preview(check=False)
    assert preview.returncode != 0
    assert "addresses[1]: '10.0.0.1/8' has host bits set; the range is '10.0.0.0/8'" in preview.output

    destroyed = project.destroy("--skip-preview")
    assert summary(destroyed.stdout) == {"deleted": 5}, destroyed.stdout
    state = httpx.get(f"{emulator_url}/_emulator/state", timeout=10).json()
    assert state["projects"][0]["ipGroups"] == [] and state["projects"][0]["environmentVariables"] == []
