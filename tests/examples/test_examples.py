"""Every program in examples/ runs with its dev stack's config and leaves the gateway as it says."""

from __future__ import annotations

from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest

from apinizer_emulator.testing import EmulatorServer
from apinizer_pulumi.client import ApinizerClient

from .harness import EXAMPLES, comparable_state, destroy, stack_config


def example_config(name: str, emulator_url: str, token: str) -> dict[str, str]:
    """The example's Pulumi.dev.yaml, its gateway moved to the test's emulator."""
    config = stack_config(EXAMPLES / name, "dev")
    config["apinizer:url"] = emulator_url
    config["apinizer:token"] = token
    return config


def live_endpoint(state: dict[str, Any], proxy: str, path: str, method: str) -> dict[str, Any]:
    (project,) = [item for item in state["projects"] if item["name"] == "Demo"]
    (api_proxy,) = [item for item in project["apiProxies"] if item["name"] == proxy]
    (found,) = [e for e in api_proxy["endpoints"] if e["endpoint"] == path and e["httpMethod"] == method]
    return dict(found)


def endpoint_count(state: dict[str, Any]) -> int:
    return sum(len(proxy["endpoints"]) for project in state["projects"] for proxy in project["apiProxies"])


def test_every_example_has_a_project_a_program_and_a_dev_stack() -> None:
    names = sorted(path.name for path in EXAMPLES.iterdir() if (path / "Pulumi.yaml").exists())
    assert names == sorted(
        ["quickstart", "caching", "soap-ws-addressing", "rate-limits", "adopt-existing", "multiple-gateways",
         "new-service", "policies", "consumers", "secured-api"]
    )
    for name in names:
        for file in ("Pulumi.yaml", "__main__.py", "Pulumi.dev.yaml"):
            assert (EXAMPLES / name / file).is_file(), f"examples/{name}/{file}"


def test_quickstart(program_runner, emulator_url, admin_token, client: ApinizerClient):
    run = program_runner(EXAMPLES / "quickstart", example_config("quickstart", emulator_url, admin_token))

    vaccinations = client.endpoints.get("Demo", "PetStore", "/pets/{id}/vaccinations", "GET")
    adoption = client.endpoints.get("Demo", "PetStore", "/pets/{id}/adoption", "POST")
    assert run.outputs["vaccinationsEndpointId"] == vaccinations.id
    assert run.outputs["adoptionEndpointId"] == adoption.id
    assert vaccinations.active is True
    assert (adoption.active, run.outputs["adoptionActive"]) == (False, False)
    assert (adoption.backend_resource_url, adoption.backend_http_method) == ("/adoptions", "POST")
    # Read after both were made: the fixture's three endpoints and the two new ones.
    assert run.outputs["petStoreEndpoints"] == [
        "GET /pets", "GET /pets/{id}", "GET /pets/{id}/vaccinations", "POST /pets", "POST /pets/{id}/adoption"
    ]


def test_caching(program_runner, emulator_url, admin_token, inspect):
    run = program_runner(EXAMPLES / "caching", example_config("caching", emulator_url, admin_token))

    state = inspect("state")
    search = live_endpoint(state, "Orders", "/orders/search", "GET")
    items = live_endpoint(state, "Orders", "/orders/{orderId}/items", "GET")
    quote = live_endpoint(state, "Orders", "/orders/quote", "POST")
    assert run.outputs["cachedEndpointIds"] == [search["id"], items["id"], quote["id"]]

    # Both key types and both storage types.
    assert (search["cacheSettings"]["cacheKeyType"], search["cacheSettings"]["cacheStorageType"]) == (
        "QUERY_PARAMS", "DISTRIBUTED"
    )
    assert (items["cacheSettings"]["cacheKeyType"], items["cacheSettings"]["cacheStorageType"]) == (
        "CUSTOM", "LOCAL"
    )
    assert items["cacheSettings"]["handlingAction"] == "CONTINUE"
    item_vars = {v["name"]: v for v in items["cacheSettings"]["variableList"]}
    assert item_vars["order-id"]["paramType"] == "PATH"
    assert item_vars["order-id"]["paramPath"] == "/orders/{orderId}/items"
    assert item_vars["language"]["headerName"] == "Accept-Language"

    quote_cache = quote["cacheSettings"]
    assert quote_cache["cacheOnlyHttpGetRequests"] is False
    assert quote_cache["invalidationRequiresAuthn"] is True
    quote_vars = {v["name"]: v for v in quote_cache["variableList"]}
    basket = quote_vars["basket"]
    assert (basket["messageContentType"], basket["jsonPathValue"]) == ("JSON", "$.items")
    assert (quote_vars["day"]["contextValue"], quote_vars["day"]["zoneId"]) == (
        "DATE_FORMATTED_TEXT", "Europe/Istanbul"
    )
    for endpoint in (search, items, quote):
        assert endpoint["cacheSettings"]["cacheActive"] is True


def test_soap_ws_addressing(program_runner, emulator_url, admin_token, inspect):
    program_runner(
        EXAMPLES / "soap-ws-addressing", example_config("soap-ws-addressing", emulator_url, admin_token)
    )

    state = inspect("state")
    wsa = live_endpoint(state, "Calculator", "Subtract", "POST")["wsaSettings"]
    assert wsa["wsaEnabled"] is True
    assert (wsa["wsaVersion"], wsa["wsaMustUnderstand"]) == ("V200408", "TRUE")
    assert (wsa["wsaAddDefaultAction"], wsa["wsaAction"]) == (False, "http://tempuri.org/Subtract")
    assert (wsa["wsaAddDefaultTo"], wsa["wsaTo"]) == (False, "https://calculator.example.com/calculator.asmx")
    assert wsa["wsaFaultTo"] == "https://callbacks.example.com/calculator/faults"
    assert wsa["wsaGenerateMessageId"] is True
    # The other operation is left alone: the root project owns it.
    assert live_endpoint(state, "Calculator", "Add", "POST")["wsaSettings"] is None


def test_rate_limits(program_runner, emulator_url, admin_token, inspect):
    program_runner(EXAMPLES / "rate-limits", example_config("rate-limits", emulator_url, admin_token))

    entries = inspect("projects/Demo/rlcl/Premium/endpoints")["endpointRateLimitList"]
    by_target = {(e["apiProxyName"], e["endpointName"], e.get("endpointHTTPMethod")): e for e in entries}
    assert set(by_target) == {
        ("PetStore", "/pets", "GET"),
        ("Orders", "ALL", "ALL"),
        ("Calculator", "Add", "POST"),
        ("Calculator", "Subtract", "POST"),
    }
    one = by_target[("PetStore", "/pets", "GET")]
    assert (one["permittedMessageCount"], one["timeInterval"], one["timeIntervalWindowType"]) == (
        20, "ONE_SECOND", "FIXED"
    )
    assert one["targetVariable"]["headerName"] == "X-Api-Key"
    assert one["showRateLimitStatisticsInResponseHeader"] is True
    everything = by_target[("Orders", "ALL", "ALL")]
    assert (everything["timeInterval"], everything["cacheErrorHandlingType"]) == ("ONE_DAY", "FAIL")
    assert everything["targetVariable"]["contextValue"] == "CREDENTIAL_USERNAME"
    scripted = by_target[("Calculator", "Add", "POST")]["targetVariable"]
    assert (scripted["type"], scripted["scriptLanguage"]) == ("CUSTOM", "GROOVY")
    off = by_target[("Calculator", "Subtract", "POST")]
    assert (off["enabled"], off["targetIdentityValue"], off["targetVariable"]) == (False, "batch-jobs", None)
    # The other list is untouched.
    assert inspect("projects/Demo/rlcl/Standard/endpoints")["endpointRateLimitList"] == []


def test_adopt_existing_takes_over_without_recreating(program_runner, emulator_url, admin_token, inspect):
    before = inspect("state")
    targets = [("PetStore", "/pets", "GET"), ("PetStore", "/pets/{id}", "GET"), ("Orders", "/orders", "GET")]
    fixture_ids = {key: live_endpoint(before, *key)["id"] for key in targets}
    config = example_config("adopt-existing", emulator_url, admin_token)

    run = program_runner(EXAMPLES / "adopt-existing", config)

    # The same endpoints (same ids, policies kept), brought to the declared fields.
    after = inspect("state")
    assert run.outputs["adoptedEndpointIds"] == {
        "PetStore GET /pets": fixture_ids[("PetStore", "/pets", "GET")],
        "PetStore GET /pets/{id}": fixture_ids[("PetStore", "/pets/{id}", "GET")],
        "Orders GET /orders": fixture_ids[("Orders", "/orders", "GET")],
    }
    pets = live_endpoint(after, "PetStore", "/pets", "GET")
    assert pets["description"] == "List all pets (managed by Pulumi)"
    assert pets["requestPolicyList"] == live_endpoint(before, "PetStore", "/pets", "GET")["requestPolicyList"]
    pet = live_endpoint(after, "PetStore", "/pets/{id}", "GET")
    assert pet["backendResourceUrl"] == "/v2/pets/{id}"
    assert (pet["cacheSettings"]["cacheActive"], pet["cacheSettings"]["ttl"]) == (True, 120)
    assert live_endpoint(after, "Orders", "/orders", "GET")["active"] is False
    # Nothing was added: the proxies hold as many endpoints as before.
    assert endpoint_count(after) == endpoint_count(before)

    # The next up of the same stack finds nothing to do.
    again = program_runner(EXAMPLES / "adopt-existing", config, previous=run)
    assert again.mocks.steps() == {"create": 0, "same": len(run.mocks.registrations), "update": 0}


@pytest.mark.parametrize("name", ["quickstart", "caching", "soap-ws-addressing", "rate-limits"])
def test_destroying_an_example_leaves_the_fixture(name, program_runner, emulator_url, admin_token, inspect):
    initial = inspect("state")
    run = program_runner(EXAMPLES / name, example_config(name, emulator_url, admin_token))
    assert comparable_state(inspect("state")) != comparable_state(initial)

    destroy(run)

    assert comparable_state(inspect("state")) == comparable_state(initial)


def test_destroying_adopted_endpoints_deletes_them(program_runner, emulator_url, admin_token, client):
    """Adopted means managed: destroy removes them from the gateway, as the example's docstring warns."""
    run = program_runner(
        EXAMPLES / "adopt-existing", example_config("adopt-existing", emulator_url, admin_token)
    )

    destroy(run)

    assert client.endpoints.find("Demo", "PetStore", "/pets", "GET") is None
    assert client.endpoints.find("Demo", "Orders", "/orders", "GET") is None
    assert [e.http_method.value for e in client.endpoints.list("Demo", "PetStore")] == ["POST"]


@pytest.fixture
def second_gateway(tmp_path: Path) -> Iterator[EmulatorServer]:
    with EmulatorServer(db=str(tmp_path / "second.db")) as server:
        yield server


def test_multiple_gateways(program_runner, emulator_url, admin_token, second_gateway: EmulatorServer):
    project = EXAMPLES / "multiple-gateways"
    config = stack_config(project, "dev")
    config["apinizer-multiple-gateways:primaryUrl"] = emulator_url
    config["apinizer-multiple-gateways:secondaryUrl"] = second_gateway.base_url
    # No stack-wide gateway: each resource names its own through `connection`.
    assert not any(key.startswith("apinizer:") for key in config)

    run = program_runner(project, config)

    with (
        ApinizerClient(emulator_url, token=admin_token) as primary,
        ApinizerClient(second_gateway.base_url, token=admin_token) as secondary,
    ):
        on_primary = primary.endpoints.get("Demo", "Orders", "/orders/{orderId}/status", "GET")
        on_secondary = secondary.endpoints.get("Demo", "Orders", "/orders/{orderId}/status", "GET")
    assert run.outputs["primaryStatusEndpointId"] == on_primary.id
    assert run.outputs["secondaryStatusEndpointId"] == on_secondary.id
    assert (on_primary.active, on_secondary.active) == (True, False)
    # Each resource got its gateway's token inside a secret (the SDK marks the whole `connection`).
    for registration in run.mocks.registrations:
        assert registration.secrets in (["connection"], ["connection.token"])
        assert registration.inputs["connection"]["token"] == admin_token
    urls = {item.name: item.inputs["connection"]["url"] for item in run.mocks.registrations}
    assert urls == {
        "primary-order-status": emulator_url,
        "primary-order-status-cache": emulator_url,
        "secondary-order-status": second_gateway.base_url,
        "secondary-order-status-cache": second_gateway.base_url,
    }


LIST = "GET /apiops/projects/{projectName}/apiProxies/{apiProxyName}/endpoints/"


@pytest.mark.parametrize(
    "name", ["quickstart", "caching", "soap-ws-addressing", "rate-limits", "adopt-existing"]
)
def test_preview_of_an_example_plans_everything_and_proves_the_connection_once(
    name, program_runner, emulator_url, admin_token, inspect
):
    initial = inspect("state")

    plan = program_runner(EXAMPLES / name, example_config(name, emulator_url, admin_token), preview=True)

    assert plan.mocks.steps()["create"] == len(plan.mocks.registrations) > 0
    # Checks and plans are offline but for one request that proves the token (a proxy's
    # endpoint list), however many resources the program declares.
    assert inspect("stats")["requests"] == {LIST: 1}
    assert comparable_state(inspect("state")) == comparable_state(initial)
