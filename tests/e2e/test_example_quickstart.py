"""examples/quickstart under the CLI (_examples.py): its README as written, an up that changes nothing,
destroy."""

from __future__ import annotations

from pathlib import Path
from typing import Any

from ._examples import Example, State, demo, endpoint, run_example
from .conftest import PulumiCli


def made(before: list[State], states: list[State], outputs: dict[str, Any]) -> None:
    vaccinations = endpoint(states[0], "PetStore", "/pets/{id}/vaccinations", "GET")
    adoption = endpoint(states[0], "PetStore", "/pets/{id}/adoption", "POST")
    assert outputs["vaccinationsEndpointId"] == vaccinations["id"]
    assert outputs["adoptionEndpointId"] == adoption["id"]
    assert (vaccinations["active"], adoption["active"], outputs["adoptionActive"]) == (True, False, False)
    # The gateway's whole list of PetStore, read by the program once both exist: scripts/up.sh's root stack
    # made some of them, the example the two new ones.
    listed = [sorted(f"{e['httpMethod']} {e['endpoint']}" for e in proxy["endpoints"])
              for state in (before[0], states[0])
              for proxy in demo(state)["apiProxies"] if proxy["name"] == "PetStore"]
    assert outputs["petStoreEndpoints"] == listed[1]
    assert set(listed[1]) - set(listed[0]) == {"GET /pets/{id}/vaccinations", "POST /pets/{id}/adoption"}


def test_readme_as_written_then_up_again_and_destroy(pulumi_cli: PulumiCli, tmp_path: Path) -> None:
    run_example(Example("quickstart", 2, made), pulumi_cli, tmp_path)
