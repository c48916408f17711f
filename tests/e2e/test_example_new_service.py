"""examples/new-service under the CLI: its README as written, the promotion to production included (a prod
stack on the same management API), an up that changes nothing, destroy of both stacks (_examples.py)."""

from __future__ import annotations

from pathlib import Path
from typing import Any

from apinizer_pulumi.client import ApinizerClient

from ._examples import ADMIN_TOKEN, Example, State, demo, endpoint, rlcl_entries, run_example
from .conftest import PulumiCli

ENDPOINTS = [
    "DELETE /orders/{orderId}", "GET /orders", "GET /orders/{orderId}", "GET /orders/{orderId}/items",
    "POST /orders",
]


def made(before: list[State], states: list[State], outputs: dict[str, Any]) -> None:
    project = demo(states[0])
    (proxy,) = [item for item in project["apiProxies"] if item["name"] == "Orders-v2"]
    assert sorted(f"{e['httpMethod']} {e['endpoint']}" for e in proxy["endpoints"]) == ENDPOINTS
    assert sorted(outputs["endpoints"]) == ENDPOINTS
    assert (outputs["apiProxy"], outputs["environment"], outputs["deployed"]) == ("Orders-v2", "test", True)
    (variable,) = [v for v in project["environmentVariables"] if v["name"] == "ORDERS_PAYMENTS_URL"]
    assert [(e["environmentName"], e["value"]) for e in variable["environmentValueList"]] == [
        ("test", outputs["paymentsUrl"])]
    items = endpoint(states[0], "Orders-v2", "/orders/{orderId}/items", "GET")
    assert (items["cacheSettings"]["cacheActive"], items["cacheSettings"]["ttl"]) == (True, 120)
    (entry,) = rlcl_entries(states[0], "Orders-v2-limits")
    assert (entry["apiProxyName"], entry["endpointName"], entry["permittedMessageCount"]) == (
        "Orders-v2", "/orders", 10
    )


def promoted(url: str, outputs: dict[str, Any]) -> None:
    """The second environment's stack, on the same management API: both environments run the proxy."""
    assert (outputs["environment"], outputs["deployed"]) == ("production", True), outputs
    with ApinizerClient(url, token=ADMIN_TOKEN) as client:
        listed = client.api_proxies.get("Demo", outputs["apiProxy"]).deployment_list
    assert {line.environment_name for line in listed if line.deployed} == {"test", "production"}, listed


def test_readme_as_written_then_up_again_and_destroy(pulumi_cli: PulumiCli, tmp_path: Path) -> None:
    run_example(Example("new-service", 6, made, promoted=promoted), pulumi_cli, tmp_path)
