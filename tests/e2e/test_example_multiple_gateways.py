"""examples/multiple-gateways under the CLI: its README as written (a second emulator beside the first), an
up that changes nothing, destroy, which leaves both gateways as they were (_examples.py)."""

from __future__ import annotations

from pathlib import Path
from typing import Any

from ._examples import Example, State, endpoint, run_example
from .conftest import PulumiCli


def made(before: list[State], states: list[State], outputs: dict[str, Any]) -> None:
    primary, secondary = (endpoint(state, "Orders", "/orders/{orderId}/status", "GET") for state in states)
    assert (outputs["primaryStatusEndpointId"], outputs["secondaryStatusEndpointId"]) == (
        primary["id"], secondary["id"]
    )
    assert (primary["active"], secondary["active"]) == (True, False)
    assert primary["cacheSettings"]["ttl"] == secondary["cacheSettings"]["ttl"] == 15


def test_readme_as_written_then_up_again_and_destroy(pulumi_cli: PulumiCli, tmp_path: Path) -> None:
    run_example(Example("multiple-gateways", 4, made), pulumi_cli, tmp_path)
