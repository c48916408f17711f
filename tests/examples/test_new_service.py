"""examples/new-service: an OpenAPI file in the repository made into a proxy, configured and deployed.

The program runs as in ``pulumi up`` (each resource handed to its real provider against the emulator),
with the dev stack's config (the definitions and environment ``test``) and with the prod stack's (only
the deployment to ``production``, promoted from ``test``), both against one emulator.
"""

from __future__ import annotations

from typing import Any

from apinizer_pulumi.client import ApinizerClient

from .harness import EXAMPLES, comparable_state, destroy, refresh, stack_config

PROJECT_DIR = EXAMPLES / "new-service"
SPEC_ENDPOINTS = [
    ("DELETE", "/orders/{orderId}"),
    ("GET", "/orders"),
    ("GET", "/orders/{orderId}"),
    ("GET", "/orders/{orderId}/items"),
    ("POST", "/orders"),
]


def config_of(stack: str, emulator_url: str, token: str) -> dict[str, str]:
    config = stack_config(PROJECT_DIR, stack)
    config["apinizer:url"] = emulator_url
    config["apinizer:token"] = token
    return config


def deployments(client: ApinizerClient) -> dict[str, tuple[bool, bool]]:
    proxy = client.api_proxies.get("Demo", "Orders-v2")
    return {d.environment_name: (d.deployed, d.redeploy_required) for d in proxy.deployment_list}


def payments_urls(client: ApinizerClient) -> dict[str, str | None]:
    """The values of ORDERS_PAYMENTS_URL by environment ({} when the variable is gone)."""
    found = [v for v in client.environment_variables.list("Demo") if v.name == "ORDERS_PAYMENTS_URL"]
    return {item.environment_name: item.value for v in found for item in v.environment_value_list or []}


def proxy_state(state: dict[str, Any]) -> dict[str, Any]:
    (project,) = [item for item in state["projects"] if item["name"] == "Demo"]
    (proxy,) = [item for item in project["apiProxies"] if item["name"] == "Orders-v2"]
    return dict(proxy)


def test_the_stacks_choose_the_environment_and_share_one_management_api() -> None:
    dev, prod = stack_config(PROJECT_DIR, "dev"), stack_config(PROJECT_DIR, "prod")
    assert dev["apinizer-new-service:environment"] == "test"
    assert prod["apinizer-new-service:environment"] == "production"
    assert prod["apinizer-new-service:promoteFrom"] == "test"
    assert prod["apinizer:url"] == dev["apinizer:url"]


def test_dev_stack_makes_the_proxy_from_the_spec_and_deploys_it_to_test(
    program_runner, emulator_url, admin_token, client: ApinizerClient, inspect
):
    initial = inspect("state")
    config = config_of("dev", emulator_url, admin_token)

    run = program_runner(PROJECT_DIR, config)

    # The spec's five operations are the proxy's endpoints, and the outputs say so.
    live = sorted((e.http_method.value, e.endpoint) for e in client.endpoints.list("Demo", "Orders-v2"))
    assert live == SPEC_ENDPOINTS
    assert sorted(run.outputs["endpoints"]) == sorted(f"{m} {p}" for m, p in SPEC_ENDPOINTS)
    assert run.outputs["apiProxy"] == "Orders-v2"
    assert (run.outputs["environment"], run.outputs["deployed"]) == ("test", True)
    assert payments_urls(client) == {"test": "https://payments.sandbox.example/v1"}
    assert run.outputs["paymentsUrl"] == "https://payments.sandbox.example/v1"
    # Deployed to test only, and up to date: the cache was set before the deployment.
    assert deployments(client).get("test") == (True, False)
    assert deployments(client).get("production", (False, False))[0] is False
    proxy = client.api_proxies.get("Demo", "Orders-v2")
    assert proxy.client_route is not None and proxy.client_route.relative_path_list == ["/orders/v2"]
    assert proxy.routing is not None and proxy.routing.routing_address_list is not None
    assert [a.address for a in proxy.routing.routing_address_list] == ["https://orders.internal.example/api/v2"]
    # The cache on one endpoint, the rate limit in the new RLCL.
    (items,) = [e for e in proxy_state(inspect("state"))["endpoints"]
                if (e["httpMethod"], e["endpoint"]) == ("GET", "/orders/{orderId}/items")]
    assert (items["cacheSettings"]["cacheActive"], items["cacheSettings"]["ttl"]) == (True, 120)
    (entry,) = inspect("projects/Demo/rlcl/Orders-v2-limits/endpoints")["endpointRateLimitList"]
    assert (entry["apiProxyName"], entry["endpointName"], entry["endpointHTTPMethod"]) == (
        "Orders-v2", "/orders", "POST"
    )
    assert entry["permittedMessageCount"] == 10

    # A second up changes nothing; a refresh finds nothing drifted.
    again = program_runner(PROJECT_DIR, config, previous=run)
    assert again.mocks.steps() == {"create": 0, "same": len(run.mocks.registrations), "update": 0}
    # Refresh finds nothing drifted; the proxy's `deployments` output, recorded when it was created
    # (before its deployment), now shows the deployment to test.
    verdicts = refresh(run)
    assert verdicts.pop("orders-v2") == "update"
    assert set(verdicts.values()) == {"same"}

    # Destroy undeploys and deletes everything it made: the gateway is as the fixture had it.
    destroy(run)
    assert client.api_proxies.find("Demo", "Orders-v2") is None
    assert comparable_state(inspect("state")) == comparable_state(initial)


def test_prod_stack_promotes_what_test_runs_on_the_same_management_api(
    program_runner, emulator_url, admin_token, client: ApinizerClient, inspect
):
    initial = inspect("state")
    dev = program_runner(PROJECT_DIR, config_of("dev", emulator_url, admin_token), stack="dev")

    prod = program_runner(PROJECT_DIR, config_of("prod", emulator_url, admin_token), stack="prod")

    # The prod stack declares only production's: its value of the variable and its deployment; nothing
    # of the dev stack's is claimed twice.
    assert sorted(item.type for item in prod.mocks.registrations) == [
        "apinizer:ApiProxyDeployment", "apinizer:EnvironmentVariableValue"]
    assert (prod.outputs["environment"], prod.outputs["deployed"]) == ("production", True)
    assert deployments(client) == {"test": (True, False), "production": (True, False)}
    assert payments_urls(client) == {"test": "https://payments.sandbox.example/v1",
                                     "production": "https://payments.example/v1"}

    # Destroying the prod stack leaves everything of test running, its value of the variable included.
    destroy(prod)
    found = deployments(client)
    assert found["test"] == (True, False) and found.get("production", (False, False))[0] is False
    assert payments_urls(client) == {"test": "https://payments.sandbox.example/v1"}
    destroy(dev)
    assert payments_urls(client) == {}
    assert comparable_state(inspect("state")) == comparable_state(initial)


def test_preview_plans_every_resource_and_changes_nothing(program_runner, emulator_url, admin_token, inspect):
    initial = inspect("state")

    plan = program_runner(PROJECT_DIR, config_of("dev", emulator_url, admin_token), stack="dev", preview=True)

    assert plan.mocks.steps()["create"] == len(plan.mocks.registrations) == 6
    assert comparable_state(inspect("state")) == comparable_state(initial)

