"""Credentials under the real engine: never in clear text in the state, and every ``connection`` secret.

A gateway of its own (the default fixture plus a user and a token whose values appear nowhere else) lets
the tests search the exported state for the exact strings.
"""

from __future__ import annotations

import json
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest
import yaml

from apinizer_emulator.testing import EmulatorServer

from .conftest import ROOT, Project, program_source

PASSWORD = "e2e-Secret-Pa55word"
TOKEN = "e2e-distinct-token-3f9a"
SECRET_SIGNATURE = "4dabf18193072939515e22adb298388d"

PROGRAM = """
import pulumi

import apinizer_pulumi as apinizer

config = pulumi.Config()
by_password = apinizer.Endpoint(
    "by-password",
    project_name="Demo",
    api_proxy_name="PetStore",
    name="/pets/by-password",
    http_method="GET",
    backend_resource_url="/pets",
    backend_http_method="GET",
    connection=apinizer.ConnectionArgs(
        url=config.require("url"), username="operator", password=config.require_secret("password")
    ),
)
by_token = apinizer.Endpoint(
    "by-token",
    project_name="Demo",
    api_proxy_name="PetStore",
    name="/pets/by-token",
    http_method="GET",
    backend_resource_url="/pets",
    backend_http_method="GET",
)
pulumi.export("ids", [by_password.endpoint_id, by_token.endpoint_id])
pulumi.export("connection", by_password.connection)
"""


@pytest.fixture
def gateway(tmp_path: Path) -> Iterator[EmulatorServer]:
    fixture = yaml.safe_load((ROOT / "emulator" / "apinizer_emulator" / "default_fixture.yaml").read_text())
    fixture["users"].append({"username": "operator", "password": PASSWORD, "roles": ["ROLE_MANAGE_PROXIES"]})
    fixture["tokens"].append({"value": TOKEN, "user": "admin", "name": "e2e", "expires": "never"})
    path = tmp_path / "fixture.yaml"
    path.write_text(yaml.safe_dump(fixture))
    with EmulatorServer(db=tmp_path / "gateway.db", fixtures=path) as server:
        yield server


@pytest.fixture
def secrets_stack(make_project: Any, tmp_path: Path, gateway: EmulatorServer) -> Project:
    project: Project = make_project(program_source(tmp_path / "source", "secrets", PROGRAM), name="secrets")
    project.configure(
        {"url": gateway.base_url, "apinizer:url": gateway.base_url},
        secrets={"password": PASSWORD, "apinizer:token": TOKEN},
    )
    return project


def test_state_holds_no_credential_in_clear_text(secrets_stack: Project) -> None:
    secrets_stack.up()

    exported = secrets_stack.export()
    assert PASSWORD not in exported
    assert TOKEN not in exported
    # The same check finds them once the secrets are shown, so it is not blind.
    revealed = secrets_stack.run("stack", "export", "--show-secrets", "--stack", secrets_stack.stack).stdout
    assert PASSWORD in revealed and TOKEN in revealed

    state = json.loads(exported)
    resources = {item["urn"].rsplit("::", 1)[-1]: item for item in state["deployment"]["resources"]}
    # The engine re-marks the echoed `connection` output secret because its input was.
    connection = resources["by-password"]["outputs"]["connection"]
    assert connection[SECRET_SIGNATURE] == "1b47061264138c4ac30d75fd1eb44270"
    assert "ciphertext" in connection
    # Stack config reaches the dynamic provider's state as the provider's inputs: secret there too.
    provider = next(
        item for item in state["deployment"]["resources"] if item["type"].startswith("pulumi:providers:")
    )
    assert provider["inputs"]["apinizer:token"][SECRET_SIGNATURE] == "1b47061264138c4ac30d75fd1eb44270"


def test_secret_outputs_are_shown_only_when_asked(secrets_stack: Project) -> None:
    secrets_stack.up()
    hidden = secrets_stack.run("stack", "output", "connection", "--stack", secrets_stack.stack).stdout
    assert PASSWORD not in hidden and "[secret]" in hidden

    shown = secrets_stack.outputs(show_secrets=True)["connection"]
    assert shown["password"] == PASSWORD and shown["username"] == "operator"


def test_refresh_and_destroy_reach_the_gateway_through_the_secret_connection(secrets_stack: Project) -> None:
    secrets_stack.up()
    secrets_stack.refresh("--expect-no-changes")
    secrets_stack.destroy()
    assert TOKEN not in secrets_stack.export() and PASSWORD not in secrets_stack.export()
