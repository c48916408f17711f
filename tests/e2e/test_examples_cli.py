"""Every program under examples/ under the real ``pulumi`` CLI: up, an up that changes nothing, destroy.

Each example runs against a gateway of its own (the session emulator, reset for the test; a second
emulator on a temporary database for multiple-gateways), with its stack file as it ships except the
gateway URLs, which point at the test's emulators. After ``up`` the gateway holds what the example
declares, a second ``up --expect-no-changes`` finds nothing to do, and ``destroy`` leaves the gateway as
the fixture had it (adopt-existing: less the endpoints it took over, which destroy deletes).

The examples are found on disk; each needs an entry in ``EXAMPLES`` below, or its test fails.
"""

from __future__ import annotations

import copy
from collections.abc import Callable, Iterator
from contextlib import AbstractContextManager, ExitStack, contextmanager, nullcontext
from dataclasses import dataclass
from pathlib import Path
from typing import Any
from unittest import mock

import httpx
import pytest

from apinizer_emulator.testing import EmulatorServer
from examples.harness import comparable_state
from examples.test_secured_api import example_module

from .conftest import ROOT, Project, summary

EXAMPLES_DIR = ROOT / "examples"
FOUND = sorted(path.name for path in EXAMPLES_DIR.iterdir() if (path / "Pulumi.yaml").is_file())

State = dict[str, Any]


def endpoint(state: State, proxy: str, path: str, method: str) -> dict[str, Any]:
    """One endpoint of project Demo as ``/_emulator/state`` holds it."""
    (project,) = [item for item in state["projects"] if item["name"] == "Demo"]
    (api_proxy,) = [item for item in project["apiProxies"] if item["name"] == proxy]
    (found,) = [e for e in api_proxy["endpoints"] if e["endpoint"] == path and e["httpMethod"] == method]
    return dict(found)


def endpoint_count(state: State) -> int:
    return sum(len(proxy["endpoints"]) for project in state["projects"] for proxy in project["apiProxies"])


def rlcl_entries(state: State, rlcl: str) -> list[dict[str, Any]]:
    (project,) = [item for item in state["projects"] if item["name"] == "Demo"]
    (found,) = [item for item in project["rlcls"] if item["name"] == rlcl]
    return list(found["endpointRateLimitList"])


# --- what each example must have made ------------------------------------------------------------


def quickstart(before: list[State], states: list[State], outputs: dict[str, Any]) -> None:
    vaccinations = endpoint(states[0], "PetStore", "/pets/{id}/vaccinations", "GET")
    adoption = endpoint(states[0], "PetStore", "/pets/{id}/adoption", "POST")
    assert outputs["vaccinationsEndpointId"] == vaccinations["id"]
    assert outputs["adoptionEndpointId"] == adoption["id"]
    assert (vaccinations["active"], adoption["active"], outputs["adoptionActive"]) == (True, False, False)
    assert outputs["petStoreEndpoints"] == [
        "GET /pets", "GET /pets/{id}", "GET /pets/{id}/vaccinations", "POST /pets", "POST /pets/{id}/adoption"
    ]


def caching(before: list[State], states: list[State], outputs: dict[str, Any]) -> None:
    made = [endpoint(states[0], "Orders", path, method) for path, method in
            [("/orders/search", "GET"), ("/orders/{orderId}/items", "GET"), ("/orders/quote", "POST")]]
    assert outputs["cachedEndpointIds"] == [item["id"] for item in made]
    caches = [item["cacheSettings"] for item in made]
    assert [cache["cacheActive"] for cache in caches] == [True, True, True]
    assert [(cache["cacheKeyType"], cache["cacheStorageType"], cache["ttl"]) for cache in caches] == [
        ("QUERY_PARAMS", "DISTRIBUTED", 300), ("CUSTOM", "LOCAL", 60), ("CUSTOM", "DISTRIBUTED", 86_400)
    ]
    assert [variable["name"] for variable in caches[2]["variableList"]] == ["basket", "day"]


def soap_ws_addressing(before: list[State], states: list[State], outputs: dict[str, Any]) -> None:
    wsa = endpoint(states[0], "Calculator", "Subtract", "POST")["wsaSettings"]
    assert (wsa["wsaEnabled"], wsa["wsaVersion"], wsa["wsaAction"]) == (
        True, "V200408", "http://tempuri.org/Subtract"
    )
    assert endpoint(states[0], "Calculator", "Add", "POST")["wsaSettings"]["wsaEnabled"] is False
    assert outputs == {"operation": "Calculator POST Subtract"}


def rate_limits(before: list[State], states: list[State], outputs: dict[str, Any]) -> None:
    entries = rlcl_entries(states[0], "Premium")
    assert [(e["apiProxyName"], e["endpointName"], e["permittedMessageCount"]) for e in entries] == [
        ("PetStore", "/pets", 20), ("Orders", "ALL", 50_000), ("Calculator", "Add", 300),
        ("Calculator", "Subtract", 1_000),
    ]
    assert rlcl_entries(states[0], "Standard") == []
    assert outputs == {"rlcl": "Premium"}


ADOPTED = (("PetStore", "/pets", "GET"), ("PetStore", "/pets/{id}", "GET"), ("Orders", "/orders", "GET"))


def adopt_existing(before: list[State], states: list[State], outputs: dict[str, Any]) -> None:
    # The fixture's endpoints, taken over in place: same ids, and not one endpoint more.
    assert outputs["adoptedEndpointIds"] == {
        f"{proxy} {method} {path}": endpoint(before[0], proxy, path, method)["id"]
        for proxy, path, method in ADOPTED
    }
    assert endpoint_count(states[0]) == endpoint_count(before[0])
    pets = endpoint(states[0], "PetStore", "/pets", "GET")
    assert pets["description"] == "List all pets (managed by Pulumi)"
    assert pets["requestPolicyList"] == endpoint(before[0], "PetStore", "/pets", "GET")["requestPolicyList"]
    pet = endpoint(states[0], "PetStore", "/pets/{id}", "GET")
    assert (pet["backendResourceUrl"], pet["cacheSettings"]["ttl"]) == ("/v2/pets/{id}", 120)
    assert endpoint(states[0], "Orders", "/orders", "GET")["active"] is False


def without_adopted(initial: State) -> State:
    """Adopted means managed: destroy deletes the three endpoints the example took over."""
    expected = copy.deepcopy(initial)
    for project in expected["projects"]:
        for proxy in project["apiProxies"]:
            proxy["endpoints"] = [e for e in proxy["endpoints"]
                                  if (proxy["name"], e["endpoint"], e["httpMethod"]) not in ADOPTED]
            # The proxy's policy list shows every endpoint, so the deleted ones leave it too.
            policies = proxy.get("policies") or {}
            if "endpointList" in policies:
                policies["endpointList"] = [
                    e for e in policies["endpointList"]
                    if (proxy["name"], e["endpoint"], e["httpMethod"]) not in ADOPTED]
    return expected


def multiple_gateways(before: list[State], states: list[State], outputs: dict[str, Any]) -> None:
    primary, secondary = (endpoint(state, "Orders", "/orders/{orderId}/status", "GET") for state in states)
    assert (outputs["primaryStatusEndpointId"], outputs["secondaryStatusEndpointId"]) == (
        primary["id"], secondary["id"]
    )
    assert (primary["active"], secondary["active"]) == (True, False)
    assert primary["cacheSettings"]["ttl"] == secondary["cacheSettings"]["ttl"] == 15


NEW_SERVICE_ENDPOINTS = [
    "DELETE /orders/{orderId}", "GET /orders", "GET /orders/{orderId}", "GET /orders/{orderId}/items",
    "POST /orders",
]


def new_service(before: list[State], states: list[State], outputs: dict[str, Any]) -> None:
    (project,) = [item for item in states[0]["projects"] if item["name"] == "Demo"]
    (proxy,) = [item for item in project["apiProxies"] if item["name"] == "Orders-v2"]
    assert sorted(f"{e['httpMethod']} {e['endpoint']}" for e in proxy["endpoints"]) == NEW_SERVICE_ENDPOINTS
    assert sorted(outputs["endpoints"]) == NEW_SERVICE_ENDPOINTS
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


def policies(before: list[State], states: list[State], outputs: dict[str, Any]) -> None:
    assert outputs["policies"] == [
        "authenticate", "office-only", "per-user-limit", "reshape-request", "stamp"]
    assert outputs["deployed"] is True


def consumers(before: list[State], states: list[State], outputs: dict[str, Any]) -> None:
    (project,) = [item for item in states[0]["projects"] if item["name"] == "Demo"]
    (group,) = [g for g in project["ipGroups"] if g["name"] == "PartnerNetworks"]
    assert group["ipList"] == outputs["allowedNetworks"] == ["203.0.113.0/24", "198.51.100.7"]
    (variable,) = [v for v in project["environmentVariables"] if v["name"] == "PARTNER_BACKEND_URL"]
    assert variable["globalValue"] == outputs["partnerBackendUrl"] == "https://sandbox.partner.example/api"
    assert outputs["credential"] == "partner-app"
    assert (outputs["proxyGroup"], outputs["proxyGroupDeployed"]) == ("PartnerApis", True)
    assert outputs["access"] == ["API_PROXY Orders", "API_PROXY PetStore"]


def secured_api(before: list[State], states: list[State], outputs: dict[str, Any]) -> None:
    (project,) = [item for item in states[0]["projects"] if item["name"] == "Demo"]
    jwks = {item["name"]: item for item in project["jwks"]}
    sources = {name: jwk["sourceType"] for name, jwk in jwks.items()}
    assert sources == {"acme-idp": "URL", "reconciliation-signing-1": "GENERATE"}
    assert outputs["signingKeyId"] == jwks["reconciliation-signing-1"]["id"]
    assert [item["name"] for item in project["certificates"]] == ["partners-ca"]
    assert [item["type"] for item in project["connections"]] == ["elasticsearch"]
    assert states[0]["geolocation"]["enabled"] is True
    assert (outputs["apiProxy"], outputs["environment"], outputs["deployed"]) == ("Payouts", "test", True)


def secured_api_destroyed(initial: State) -> State:
    """Geolocation is turned off again; the uploaded MMDB file stays on the gateway (the API deletes none)."""
    expected = copy.deepcopy(initial)
    expected["geolocation"] = {"enabled": False, "mmdb": mock.ANY}
    return expected


@contextmanager
def secured_api_setup(directory: Path) -> Iterator[dict[str, str]]:
    """What secured-api's README does before `pulumi up`: prepare.py's files in the project's folder, and
    the partner's key set served on a local URL (the example's own server, in this process)."""
    example_module("prepare").prepare(directory / "local")
    with example_module("jwks_server").JwksServer(directory / "local" / "jwks.json") as server:
        yield {"apinizer-secured-api:jwksUrl": server.url}


def no_setup(directory: Path) -> AbstractContextManager[dict[str, str]]:
    return nullcontext({})


def stack_gateway(urls: list[str]) -> dict[str, str]:
    return {"apinizer:url": urls[0]}


def two_gateways(urls: list[str]) -> dict[str, str]:
    prefix = "apinizer-multiple-gateways"
    return {f"{prefix}:primaryUrl": urls[0], f"{prefix}:secondaryUrl": urls[1]}


def unchanged(initial: State) -> State:
    return initial


@dataclass(frozen=True)
class Example:
    #: How many resources the program declares (the stack itself not counted).
    resources: int
    #: Asserts the gateways' states (before and after) and the stack outputs of the first ``up``.
    made: Callable[[list[State], list[State], dict[str, Any]], None]
    #: The stack config that points the example at the test's gateways.
    config: Callable[[list[str]], dict[str, str]] = stack_gateway
    gateways: int = 1
    #: The first gateway's expected state after destroy, from its state before up.
    destroyed: Callable[[State], State] = unchanged
    #: What the example's README sets up before `up` (files, a local server), given the project's folder;
    #: it holds for the test and yields more stack config.
    setup: Callable[[Path], AbstractContextManager[dict[str, str]]] = no_setup


EXAMPLES = {
    "quickstart": Example(2, quickstart),
    "caching": Example(6, caching),
    "soap-ws-addressing": Example(1, soap_ws_addressing),
    "rate-limits": Example(1, rate_limits),
    "adopt-existing": Example(4, adopt_existing, destroyed=without_adopted),
    "multiple-gateways": Example(4, multiple_gateways, config=two_gateways, gateways=2),
    "new-service": Example(6, new_service),
    "policies": Example(7, policies),
    "consumers": Example(6, consumers),
    "secured-api": Example(11, secured_api, destroyed=secured_api_destroyed, setup=secured_api_setup),
}


def test_every_expectation_names_an_example() -> None:
    assert sorted(EXAMPLES) == FOUND, "EXAMPLES must list exactly the directories of examples/"


def states(urls: list[str]) -> list[State]:
    return [comparable_state(httpx.get(f"{url}/_emulator/state", timeout=10).json()) for url in urls]


@pytest.mark.parametrize("name", FOUND)
def test_example_up_again_and_destroy(
    name: str, make_project: Any, emulator_url: str, tmp_path: Path
) -> None:
    if name not in EXAMPLES:
        pytest.fail(f"examples/{name} has no expectations: add an entry to EXAMPLES in {Path(__file__).name}")
    example = EXAMPLES[name]
    with ExitStack() as servers:
        urls = [emulator_url] + [
            servers.enter_context(EmulatorServer(db=str(tmp_path / f"gateway-{index}.db"))).base_url
            for index in range(1, example.gateways)
        ]
        initial = states(urls)
        project: Project = make_project(EXAMPLES_DIR / name)
        project.configure({**example.config(urls), **servers.enter_context(example.setup(project.directory))})

        up = project.up()
        assert summary(up.stdout) == {"created": example.resources + 1}, up.stdout
        assert "warning" not in up.stdout and "error" not in up.stdout, up.stdout
        example.made(initial, states(urls), project.outputs())

        again = project.up("--expect-no-changes")
        assert summary(again.stdout) == {"unchanged": example.resources + 1}, again.stdout

        destroyed = project.destroy("--skip-preview")
        assert summary(destroyed.stdout) == {"deleted": example.resources + 1}, destroyed.stdout
        final = states(urls)
        assert final[0] == example.destroyed(initial[0])
        assert final[1:] == initial[1:]
