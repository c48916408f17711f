"""The repository's own Pulumi project (infra/), run with the config of its dev and prod stack files."""

from __future__ import annotations

from typing import Any

import httpx

from .harness import ROOT, comparable_state, destroy, refresh, stack_config

EXPECTED_ENDPOINTS = {
    # output key: (proxy, path, method, backend URL, description)
    "PetStore GET /pets/search": (
        "PetStore", "/pets/search", "GET", "/pets/findByTags", "Search pets by tag"
    ),
    "PetStore PUT /pets/{id}": ("PetStore", "/pets/{id}", "PUT", "/pets/{id}", "Replace a pet"),
    "PetStore DELETE /pets/{id}": ("PetStore", "/pets/{id}", "DELETE", "/pets/{id}", "Remove a pet"),
    "Orders POST /orders": (
        "Orders", "/orders", "POST", "https://orders.internal.example/api/orders", "Place an order"
    ),
    "Orders GET /orders/{orderId}": (
        "Orders", "/orders/{orderId}", "GET", "https://orders.internal.example/api/orders/{orderId}",
        "Get one order",
    ),
}


def root_config(stack: str, emulator_url: str, token: str) -> dict[str, str]:
    """A stack file's config with the gateway pointed at the test's emulator."""
    config = stack_config(ROOT, stack)
    config["apinizer:url"] = emulator_url
    config["apinizer:token"] = token
    return config


def endpoint_state(state: dict[str, Any], proxy: str, path: str, method: str) -> dict[str, Any]:
    (project,) = [item for item in state["projects"] if item["name"] == "Demo"]
    (api_proxy,) = [item for item in project["apiProxies"] if item["name"] == proxy]
    matches = [e for e in api_proxy["endpoints"] if e["endpoint"] == path and e["httpMethod"] == method]
    assert len(matches) == 1, f"{proxy} {method} {path}: {len(matches)} endpoints"
    return dict(matches[0])


REPORT = "GET /apiops/reports/organization-api-data-model-access"  # the program's own lookup
PROOF = "GET /apiops/projects/{projectName}/apiProxies/{apiProxyName}/endpoints/"  # Check proves the token


def test_dev_stack_makes_every_declared_object(program_runner, emulator_url, admin_token, client, inspect):
    run = program_runner(ROOT, root_config("dev", emulator_url, admin_token), stack="dev")

    # Endpoints: created on the gateway with the declared fields; the outputs carry the gateway's ids.
    ids = run.outputs["endpointIds"]
    assert set(ids) == set(EXPECTED_ENDPOINTS)
    for key, (proxy, path, method, backend, description) in EXPECTED_ENDPOINTS.items():
        live = client.endpoints.get("Demo", proxy, path, method)
        assert live.id == ids[key]
        assert (live.backend_resource_url, live.backend_http_method, live.description, live.active) == (
            backend, method, description, True
        )
    assert len(set(ids.values())) == len(ids)

    # The organization report's externally shared proxies: EXTERNAL PetStore and BOTH Calculator.
    assert run.outputs["externallySharedProxies"] == ["Calculator", "PetStore"]

    state = inspect("state")
    # Cache by query string, with the dev stack's lifetime, size and storage.
    search_cache = endpoint_state(state, "PetStore", "/pets/search", "GET")["cacheSettings"]
    assert search_cache["cacheActive"] is True
    assert (search_cache["cacheKeyType"], search_cache["handlingAction"]) == ("QUERY_PARAMS", "STOP")
    assert (search_cache["ttl"], search_cache["capacity"]) == (30, 100)
    assert search_cache["cacheStorageType"] == "LOCAL"
    # Cache with a CUSTOM key from a header variable and a query-parameter variable.
    order_cache = endpoint_state(state, "Orders", "/orders/{orderId}", "GET")["cacheSettings"]
    assert order_cache["cacheKeyType"] == "CUSTOM"
    variables = {item["name"]: item for item in order_cache["variableList"]}
    assert variables["tenant"]["type"] == "HEADER"
    assert variables["tenant"]["headerName"] == "X-Tenant-Id"
    assert (variables["currency"]["type"], variables["currency"]["paramType"]) == ("PARAMETER", "QUERY")
    assert variables["currency"]["paramName"] == "currency"

    # WS-Addressing on the SOAP operation Add only.
    add_wsa = endpoint_state(state, "Calculator", "Add", "POST")["wsaSettings"]
    assert add_wsa["wsaEnabled"] is True
    assert (add_wsa["wsaAddDefaultAction"], add_wsa["wsaAddDefaultTo"], add_wsa["wsaGenerateMessageId"]) == (
        True, True, True
    )
    assert add_wsa["wsaReplyTo"] == "http://www.w3.org/2005/08/addressing/anonymous"
    assert endpoint_state(state, "Calculator", "Subtract", "POST")["wsaSettings"] is None

    # The Standard RLCL's list is exactly the three declared entries, with the dev stack's limits.
    entries = inspect("projects/Demo/rlcl/Standard/endpoints")["endpointRateLimitList"]
    by_target = {(e["apiProxyName"], e["endpointName"], e.get("endpointHTTPMethod")): e for e in entries}
    assert set(by_target) == {
        ("PetStore", "ALL", "ALL"),
        ("Orders", "/orders", "POST"),
        ("Orders", "/orders/{orderId}", "GET"),
    }
    petstore = by_target[("PetStore", "ALL", "ALL")]
    assert petstore["permittedMessageCount"] == 1000
    assert petstore["targetVariable"]["contextValue"] == "REQUEST_REMOTE_ADDRESS"
    assert by_target[("Orders", "/orders", "POST")]["permittedMessageCount"] == 100
    assert by_target[("Orders", "/orders", "POST")]["targetVariable"]["headerName"] == "X-Api-Key"
    partners = by_target[("Orders", "/orders/{orderId}", "GET")]
    assert (partners["permittedMessageCount"], partners["targetIdentityValue"]) == (10000, "partners")
    assert inspect("projects/Demo/rlcl/Premium/endpoints")["endpointRateLimitList"] == []


def test_preview_of_a_new_stack_plans_everything_and_writes_nothing(
    program_runner, emulator_url, admin_token, inspect
):
    initial = inspect("state")

    plan = program_runner(ROOT, root_config("dev", emulator_url, admin_token), stack="dev", preview=True)

    # 5 endpoints, 2 caches, 1 WS-Addressing setting and 1 rate-limit list, all planned as creates.
    assert plan.mocks.steps() == {"create": 9, "same": 0, "update": 0}
    # The endpoints' ids are unknown before they exist (None here); the report is read (a lookup).
    assert plan.outputs["endpointIds"] is None
    assert plan.outputs["externallySharedProxies"] == ["Calculator", "PetStore"]
    assert inspect("stats")["requests"] == {REPORT: 1, PROOF: 1}
    assert comparable_state(inspect("state")) == comparable_state(initial)


def test_preview_after_an_input_change_plans_updates_in_place(
    program_runner, emulator_url, admin_token, inspect, emulator
):
    dev = program_runner(ROOT, root_config("dev", emulator_url, admin_token), stack="dev")
    before = inspect("state")
    _reset_stats(emulator.base_url)

    plan = program_runner(
        ROOT, root_config("prod", emulator_url, admin_token), stack="dev", previous=dev, preview=True
    )

    assert plan.mocks.steps() == {"create": 0, "same": 6, "update": 3}
    assert inspect("stats")["requests"] == {REPORT: 1, PROOF: 1}
    assert _without_clock(inspect("state")) == _without_clock(before)


def test_second_up_changes_nothing_and_writes_nothing(
    program_runner, emulator_url, admin_token, inspect, emulator
):
    config = root_config("dev", emulator_url, admin_token)
    first = program_runner(ROOT, config, stack="dev")
    state_after_first = inspect("state")
    _reset_stats(emulator.base_url)

    second = program_runner(ROOT, config, stack="dev", previous=first)

    assert second.mocks.steps() == {"create": 0, "same": len(first.mocks.registrations), "update": 0}
    assert second.outputs == first.outputs
    # Diffs are offline: the only request of the second run is the program's own report lookup.
    assert inspect("stats")["requests"] == {REPORT: 1, PROOF: 1}
    assert _without_clock(inspect("state")) == _without_clock(state_after_first)


def test_prod_stack_config_gives_other_limits(program_runner, emulator_url, admin_token, inspect):
    config = root_config("prod", emulator_url, admin_token)
    program_runner(ROOT, config, stack="prod", secret_keys=["apinizer:token"])

    state = inspect("state")
    search_cache = endpoint_state(state, "PetStore", "/pets/search", "GET")["cacheSettings"]
    assert (search_cache["ttl"], search_cache["capacity"], search_cache["cacheStorageType"]) == (
        300, 10000, "DISTRIBUTED"
    )
    counts = sorted(e["permittedMessageCount"] for e in inspect("projects/Demo/rlcl/Standard/endpoints")[
        "endpointRateLimitList"
    ])
    assert counts == [12, 120, 1200]


def test_changed_config_updates_in_place(program_runner, emulator_url, admin_token, client, inspect):
    dev = program_runner(ROOT, root_config("dev", emulator_url, admin_token), stack="dev")

    # The same stack, its limits and cache raised to prod's values: settings change in place, nothing
    # is replaced, and the endpoints keep their ids.
    again = program_runner(ROOT, root_config("prod", emulator_url, admin_token), stack="dev", previous=dev)

    steps = {(item.type, item.name): item.step for item in again.mocks.registrations}
    assert steps[("apinizer:EndpointCache", "petstore-search-pets-cache")] == "update"
    assert steps[("apinizer:EndpointCache", "orders-get-order-cache")] == "update"
    assert steps[("apinizer:RlclEndpoints", "standard-rate-limits")] == "update"
    assert {step for (kind, _), step in steps.items() if kind == "apinizer:Endpoint"} == {"same"}
    assert steps[("apinizer:EndpointWsa", "calculator-add-wsa")] == "same"
    assert again.outputs["endpointIds"] == dev.outputs["endpointIds"]

    cache = endpoint_state(inspect("state"), "Orders", "/orders/{orderId}", "GET")["cacheSettings"]
    assert (cache["ttl"], cache["cacheStorageType"]) == (300, "DISTRIBUTED")
    entries = inspect("projects/Demo/rlcl/Standard/endpoints")["endpointRateLimitList"]
    assert sorted(e["permittedMessageCount"] for e in entries) == [12, 120, 1200]
    live = client.endpoints.get("Demo", "Orders", "/orders/{orderId}", "GET")
    assert live.id == dev.outputs["endpointIds"]["Orders GET /orders/{orderId}"]


def test_refresh_reports_only_what_changed_outside_pulumi(
    program_runner, emulator_url, admin_token, client, inspect
):
    run = program_runner(ROOT, root_config("dev", emulator_url, admin_token), stack="dev")
    assert set(refresh(run).values()) == {"same"}

    # Edited in the console, and deleted in the console.
    client.endpoints.update("Demo", "PetStore", "/pets/search", "GET", description="edited by hand")
    client.endpoints.delete("Demo", "PetStore", "/pets/{id}", "PUT")

    verdicts = refresh(run)
    assert verdicts.pop("petstore-search-pets") == "update"
    assert verdicts.pop("petstore-update-pet") == "delete"
    assert set(verdicts.values()) == {"same"}


def test_destroy_returns_the_gateway_to_the_fixture(program_runner, emulator_url, admin_token, inspect):
    initial = inspect("state")
    run = program_runner(ROOT, root_config("dev", emulator_url, admin_token), stack="dev")
    assert comparable_state(inspect("state")) != comparable_state(initial)

    destroy(run)

    assert comparable_state(inspect("state")) == comparable_state(initial)


def _reset_stats(base_url: str) -> None:
    httpx.post(f"{base_url}/_emulator/stats/reset", json={}, timeout=10.0).raise_for_status()


def _without_clock(state: dict[str, Any]) -> dict[str, Any]:
    return {key: value for key, value in state.items() if key != "now"}

