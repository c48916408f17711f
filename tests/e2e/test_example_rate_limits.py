"""examples/rate-limits under the CLI: its README as written, an up that changes nothing, destroy
(_examples.py)."""

from __future__ import annotations

from pathlib import Path
from typing import Any

from ._examples import Example, State, rlcl_entries, run_example
from .conftest import PulumiCli


def made(before: list[State], states: list[State], outputs: dict[str, Any]) -> None:
    entries = rlcl_entries(states[0], "Premium")
    assert [(e["apiProxyName"], e["endpointName"], e["permittedMessageCount"]) for e in entries] == [
        ("PetStore", "/pets", 20), ("Orders", "ALL", 50_000), ("Calculator", "Add", 300),
        ("Calculator", "Subtract", 1_000),
    ]
    # The root project's list (scripts/up.sh made it): the example owns Premium only.
    assert rlcl_entries(states[0], "Standard") == rlcl_entries(before[0], "Standard")
    assert outputs == {"rlcl": "Premium"}


def test_readme_as_written_then_up_again_and_destroy(pulumi_cli: PulumiCli, tmp_path: Path) -> None:
    run_example(Example("rate-limits", 1, made), pulumi_cli, tmp_path)
