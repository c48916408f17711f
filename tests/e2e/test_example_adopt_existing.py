"""examples/adopt-existing under the CLI: its README as written, an up that changes nothing, destroy
(_examples.py)."""

from __future__ import annotations

import copy
from pathlib import Path
from typing import Any

from ._examples import Example, State, endpoint, endpoint_count, run_example
from .conftest import PulumiCli

ADOPTED = (("PetStore", "/pets", "GET"), ("PetStore", "/pets/{id}", "GET"), ("Orders", "/orders", "GET"))


def made(before: list[State], states: list[State], outputs: dict[str, Any]) -> None:
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


def test_readme_as_written_then_up_again_and_destroy(pulumi_cli: PulumiCli, tmp_path: Path) -> None:
    run_example(Example("adopt-existing", 4, made, destroyed=without_adopted), pulumi_cli, tmp_path)
