"""An API proxy's whole life under the real ``pulumi`` CLI: from a spec file in the project to destroy.

A small program (an ``ApiProxy`` made from ``specs/orders.yaml`` beside it, and its
``ApiProxyDeployment`` to ``test``) goes through: create from the file; an edit of the spec, whose new
endpoint is there after ``up``; an undeploy made in the console (the client, as a console user would),
seen by ``refresh`` and repaired by ``up``; a redeploy forced by a trigger; and ``destroy``, which
undeploys before it deletes. Then the errors a user meets, each one line: a spec that is not a valid
spec (refused before anything is sent), an environment that does not exist, and a token without the
deploy role.
"""

from __future__ import annotations

import json
import re
import shutil
import textwrap
from collections.abc import Callable, Iterator
from pathlib import Path
from typing import Any

import httpx
import pytest

from apinizer_pulumi.client import ApinizerClient

from .conftest import ROOT, Project, summary
from .test_cli_errors import assert_one_clean_line, diagnostics

SPEC = ROOT / "examples" / "new-service" / "specs" / "orders.yaml"
PROXY_TYPE = "pulumi-python:dynamic/apinizer:ApiProxy"
DEPLOYMENT_TYPE = "pulumi-python:dynamic/apinizer:ApiProxyDeployment"
DEPLOY = "POST /apiops/projects/{projectName}/apiProxies/{apiProxyName}/environments/{environmentName}/"
UNDEPLOY = "DELETE /apiops/projects/{projectName}/apiProxies/{apiProxyName}/environments/{environmentName}/"
DELETE_PROXY = "DELETE /apiops/projects/{projectName}/apiProxies/{apiProxyName}/"
GET_PROXY = "GET /apiops/projects/{projectName}/apiProxies/{apiProxyName}/"

PROGRAM = """
import pulumi

import apinizer_pulumi as apinizer

config = pulumi.Config()
proxy = apinizer.ApiProxy(
    "orders",
    project_name="Demo",
    name="Orders-e2e",
    spec_type="OPEN_API",
    spec_file="specs/orders.yaml",
    description="Orders API",
    routing=apinizer.RoutingArgs(
        addresses=[apinizer.RoutingAddressArgs(address="https://orders.example", weight=100)]
    ),
    client_route=apinizer.ClientRouteArgs(relative_paths=["/orders/e2e"]),
)
deployment = apinizer.ApiProxyDeployment(
    "orders-deployment",
    project_name="Demo",
    api_proxy_name=proxy.name,
    environment_name=config.get("environment") or "test",
    triggers={"spec": proxy.spec_hash, "release": config.get("release") or "1"},
)
pulumi.export(
    "endpoints", proxy.endpoints.apply(lambda items: sorted(f"{e['http_method']} {e['name']}" for e in items))
)
pulumi.export("deployed", deployment.deployed)
"""

NEW_OPERATION = """\
  /orders/{orderId}/refunds:
    parameters:
      - name: orderId
        in: path
        required: true
        schema: {type: string}
    post:
      operationId: refundOrder
      summary: Refund an order
      responses:
        "202":
          description: Refund accepted
"""
SPEC_ENDPOINTS = [
    "DELETE /orders/{orderId}", "GET /orders", "GET /orders/{orderId}", "GET /orders/{orderId}/items",
    "POST /orders",
]


def source_with_spec(directory: Path, name: str) -> Path:
    """A project folder: Pulumi.yaml, the program, and the example's spec in specs/."""
    directory.mkdir()
    (directory / "Pulumi.yaml").write_text(f"name: {name}\nruntime: python\n")
    (directory / "__main__.py").write_text(textwrap.dedent(PROGRAM))
    (directory / "specs").mkdir()
    shutil.copy(SPEC, directory / "specs" / "orders.yaml")
    return directory


@pytest.fixture
def stack(make_project: Any, emulator_url: str, admin_token: str, tmp_path: Path) -> Callable[..., Project]:
    def make(token: str = admin_token) -> Project:
        source = source_with_spec(tmp_path / "source", "proxy-life")
        project: Project = make_project(source, name="proxy-life")
        project.configure({"apinizer:url": emulator_url}, secrets={"apinizer:token": token})
        return project

    return make


@pytest.fixture
def client(emulator_url: str, admin_token: str) -> Iterator[ApinizerClient]:
    with ApinizerClient(emulator_url, token=admin_token) as api:
        yield api


@pytest.fixture
def stats(emulator_url: str) -> Callable[[], dict[str, int]]:
    """The emulator's request counts since the last call (each call resets them)."""

    def take() -> dict[str, int]:
        counts: dict[str, int] = httpx.get(f"{emulator_url}/_emulator/stats", timeout=10).json()["requests"]
        httpx.post(f"{emulator_url}/_emulator/stats/reset", json={}, timeout=10).raise_for_status()
        return counts

    return take


def recorded_deployment(project: Project) -> dict[str, Any]:
    """What the stack's state holds for the deployment (refresh writes the state, not the stack outputs)."""
    resources = json.loads(project.export())["deployment"]["resources"]
    (found,) = [r for r in resources if r["type"] == DEPLOYMENT_TYPE]
    return {key: found["outputs"].get(key) for key in ("deployed", "redeploy_required")}


def deployment_of(client: ApinizerClient, environment: str = "test") -> tuple[bool, bool]:
    proxy = client.api_proxies.get("Demo", "Orders-e2e")
    found = [d for d in proxy.deployment_list if d.environment_name == environment]
    return (found[0].deployed, found[0].redeploy_required) if found else (False, False)


def endpoints_of(client: ApinizerClient) -> list[str]:
    return sorted(f"{e.http_method.value} {e.endpoint}" for e in client.endpoints.list("Demo", "Orders-e2e"))


def test_a_proxy_from_a_spec_file_through_its_whole_life(
    stack: Callable[..., Project], client: ApinizerClient, stats: Callable[[], dict[str, int]]
) -> None:
    project = stack()
    stats()

    # Create from the file: the spec's endpoints, deployed to test.
    up = project.up()
    assert summary(up.stdout) == {"created": 3}, up.stdout
    assert endpoints_of(client) == SPEC_ENDPOINTS
    assert deployment_of(client) == (True, False)
    assert project.outputs() == {"endpoints": SPEC_ENDPOINTS, "deployed": True}
    assert stats().get(DEPLOY) == 1

    # Edit the spec: an in-place re-parse, and the trigger (the spec's hash) redeploys.
    spec = project.directory / "specs" / "orders.yaml"
    text = spec.read_text()
    spec.write_text(text.replace("components:\n", NEW_OPERATION + "components:\n", 1))
    edited = project.up()
    assert summary(edited.stdout) == {"updated": 2, "unchanged": 1}, edited.stdout
    assert "POST /orders/{orderId}/refunds" in endpoints_of(client)
    assert "POST /orders/{orderId}/refunds" in project.outputs()["endpoints"]
    assert deployment_of(client) == (True, False)
    assert stats().get(DEPLOY) == 1
    assert summary(project.up("--expect-no-changes").stdout) == {"unchanged": 3}

    # Undeployed in the console: refresh sees it, up deploys again.
    client.api_proxies.undeploy("Demo", "Orders-e2e", "test")
    refreshed = project.refresh()
    assert summary(refreshed.stdout).get("updated", 0) >= 1, refreshed.stdout
    assert recorded_deployment(project) == {"deployed": False, "redeploy_required": False}
    stats()
    repaired = project.up()
    assert summary(repaired.stdout) == {"updated": 1, "unchanged": 2}, repaired.stdout
    assert deployment_of(client) == (True, False)
    assert stats().get(DEPLOY) == 1

    # A trigger forces a redeploy; the proxy itself is unchanged.
    project.set_config("release", "2")
    triggered = project.up()
    assert summary(triggered.stdout) == {"updated": 1, "unchanged": 2}, triggered.stdout
    assert stats().get(DEPLOY) == 1

    # Destroy undeploys, then deletes.
    destroyed = project.destroy("--skip-preview")
    assert summary(destroyed.stdout) == {"deleted": 3}, destroyed.stdout
    order = [line for line in destroyed.stdout.splitlines() if "deleted" in line and "apinizer:" in line]
    assert [("Deployment" in line) for line in order] == [True, False], destroyed.stdout
    counts = stats()
    assert (counts.get(UNDEPLOY), counts.get(DELETE_PROXY)) == (1, 1), counts
    assert client.api_proxies.find("Demo", "Orders-e2e") is None


def test_a_spec_that_is_not_valid_is_one_line_before_anything_is_sent(
    stack: Callable[..., Project], client: ApinizerClient
) -> None:
    project = stack()
    (project.directory / "specs" / "orders.yaml").write_text("openapi: 3.0.3\npaths: {}\n")

    result = project.up(check=False)

    # Parsed offline before anything is sent, as the emulator parses it (the gateway's own 400 no more).
    spec = project.directory / "specs" / "orders.yaml"
    assert_one_clean_line(result, f"{PROXY_TYPE} (orders)", re.escape(
        f"{PROXY_TYPE} resource 'orders' has a problem: apinizer: spec_file '{spec}': Invalid specification "
        '(OPEN_API): at the document: "info" is a required property'))
    assert client.api_proxies.find("Demo", "Orders-e2e") is None


def test_an_unknown_environment_is_one_line(stack: Callable[..., Project], client: ApinizerClient) -> None:
    project = stack()
    project.set_config("environment", "staging")

    result = project.up(check=False)

    line = assert_one_clean_line(result, f"{DEPLOYMENT_TYPE} (orders-deployment)", r".*staging.*")
    # Refused by check (a preview would refuse it too), listing the environments there are.
    assert "environment 'staging' does not exist in project 'Demo'" in line, line
    assert "its environments are: production, test" in line, line
    # The proxy was made; nothing was deployed anywhere.
    proxy = client.api_proxies.get("Demo", "Orders-e2e")
    assert [d.environment_name for d in proxy.deployment_list if d.deployed] == []
    project.destroy()


def test_a_token_without_the_deploy_role_is_one_line(
    stack: Callable[..., Project], developer_token: str, client: ApinizerClient
) -> None:
    # The fixture's developer has ROLE_MANAGE_PROXIES but not ROLE_DEPLOY_UNDEPLOY_PROXIES.
    project = stack(developer_token)

    result = project.up(check=False)

    line = assert_one_clean_line(
        result, f"{DEPLOYMENT_TYPE} (orders-deployment)", r".*403.*ROLE_DEPLOY_UNDEPLOY_PROXIES.*"
    )
    assert "test" in line and developer_token not in result.output, line
    assert deployment_of(client) == (False, False)
    assert set(diagnostics(result.stdout)) >= {f"{DEPLOYMENT_TYPE} (orders-deployment)"}
    # The proxy was made; an admin cleans up in the console (delete needs the deploy role too).
    client.api_proxies.delete("Demo", "Orders-e2e")
