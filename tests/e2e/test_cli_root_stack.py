"""The root project's dev stack under the real ``pulumi`` CLI, command by command, as a user runs it.

Each step counts the gateway requests it caused through the emulator's ``/_emulator/stats``. The program
itself calls ``get_organization_access_report()`` on every run (one report request, preview included);
every other request comes from the resources.
"""

from __future__ import annotations

from collections.abc import Iterator
from typing import Any

import httpx
import pytest

from apinizer_pulumi.client import ApinizerClient
from examples.harness import comparable_state

from .conftest import ROOT, Project, summary

REPORT = "GET /apiops/reports/organization-api-data-model-access"
LIST = "GET /apiops/projects/{projectName}/apiProxies/{apiProxyName}/endpoints/"
DRIFTED = ("PetStore", "/pets/search", "GET")


@pytest.fixture
def inspect(emulator_url: str) -> Iterator[httpx.Client]:
    with httpx.Client(base_url=emulator_url, timeout=10) as client:
        yield client


def resource_requests(inspect: httpx.Client) -> dict[str, int]:
    """The gateway requests since the last reset, less the report the program calls, then resets."""
    requests: dict[str, int] = inspect.get("/_emulator/stats").json()["requests"]
    inspect.post("/_emulator/stats/reset", json={}).raise_for_status()
    return {key: count for key, count in requests.items() if key != REPORT and count}


def drifted_cache_ttl(inspect: httpx.Client) -> int:
    state = inspect.get("/_emulator/state").json()
    for proxy in state["projects"][0]["apiProxies"]:
        for endpoint in proxy["endpoints"]:
            if (proxy["name"], endpoint["endpoint"], endpoint["httpMethod"]) == DRIFTED:
                ttl: int = endpoint["cacheSettings"]["ttl"]
                return ttl
    raise AssertionError(f"{DRIFTED} is not on the gateway")


@pytest.fixture
def dev_stack(make_project: Any, emulator_url: str) -> Project:
    project: Project = make_project(ROOT, name="root")
    project.set_config("apinizer:url", emulator_url)
    return project


def test_root_stack_lifecycle_under_the_cli(
    dev_stack: Project, inspect: httpx.Client, admin_token: str
) -> None:
    initial = comparable_state(inspect.get("/_emulator/state").json())
    resource_requests(inspect)

    preview = dev_stack.preview()
    assert summary(preview.stdout).get("to create") == 10, preview.stdout
    # The resources' one request in a preview: the connection check proving the token (a proxy's list).
    assert resource_requests(inspect) == {LIST: 1}, "a preview makes one request from the resources"

    up = dev_stack.up()
    assert summary(up.stdout).get("created") == 10, up.stdout
    outputs = dev_stack.outputs()
    assert len(outputs["endpointIds"]) == 5
    assert outputs["externallySharedProxies"] == ["Calculator", "PetStore"]
    created = resource_requests(inspect)
    assert created["POST /apiops/projects/{projectName}/apiProxies/{apiProxyName}/endpoints/"] == 5, created

    dev_stack.up("--expect-no-changes")
    # Only the connection check of its one provider process (up runs here with --skip-preview).
    assert resource_requests(inspect) == {LIST: 1}, "an unchanged up makes no other request"

    # A refresh with nothing drifted changes nothing: each kind's read gives back what it recorded
    # (tests/provider: test_provider_contract's unchanged endpoint, test_endpoint_cache's, test_endpoint_wsa's
    # and test_rlcl_endpoints' refresh tests), and under the CLI test_cli_generated.py's refresh.

    # Drift made through the API: the endpoint is disabled and its cache gets another lifetime.
    with ApinizerClient(inspect.base_url.__str__(), token=admin_token) as client:
        client.endpoints.set_status("Demo", *DRIFTED, active=False)
        client.endpoints.set_cache(
            "Demo",
            *DRIFTED,
            {"name": "pet-search", "cache_active": True, "ttl": 999, "handling_action": "STOP"},
        )
        refreshed = dev_stack.refresh()
        assert summary(refreshed.stdout).get("updated") == 1, refreshed.stdout
        restored = dev_stack.up()
        assert summary(restored.stdout).get("updated") == 1, restored.stdout
        assert client.endpoints.get("Demo", *DRIFTED).active is True
    # The API has no read of cache settings, so neither refresh nor up can see the changed lifetime (a
    # documented limit); the next change of the cache's inputs writes them whole again, below.
    assert drifted_cache_ttl(inspect) == 999

    # A config change becomes an in-place update of both caches, and of nothing else.
    dev_stack.set_config("apinizer-gateway:cacheTtl", "45")
    updated = dev_stack.up()
    assert summary(updated.stdout) == {"updated": 2, "unchanged": 8}, updated.stdout
    state = inspect.get("/_emulator/state").json()
    ttls = sorted(
        endpoint["cacheSettings"]["ttl"]
        for proxy in state["projects"][0]["apiProxies"]
        for endpoint in proxy["endpoints"]
        if (endpoint.get("cacheSettings") or {}).get("cacheActive")
    )
    assert ttls == [45, 45]

    # A changed identity input (the endpoint's path) is a replace, shown as such before it happens; the
    # cache that names the endpoint through its outputs is replaced with it.
    program = dev_stack.directory / "infra" / "__main__.py"
    source = program.read_text()
    program.write_text(source.replace('"/orders/{orderId}",', '"/orders/{orderId}/details",', 1))
    replace_preview = dev_stack.preview("--diff")
    assert summary(replace_preview.stdout).get("to replace") == 2, replace_preview.stdout
    replaced = dev_stack.up()
    assert summary(replaced.stdout).get("replaced") == 2, replaced.stdout
    with ApinizerClient(inspect.base_url.__str__(), token=admin_token) as client:
        names = {endpoint.endpoint for endpoint in client.endpoints.list("Demo", "Orders")}
    assert "/orders/{orderId}/details" in names and "/orders/{orderId}" not in names

    destroyed = dev_stack.destroy()
    assert summary(destroyed.stdout).get("deleted") == 10, destroyed.stdout
    assert comparable_state(inspect.get("/_emulator/state").json()) == initial
