"""examples/soap-ws-addressing under the CLI: its README as written, an up that changes nothing, destroy
(_examples.py)."""

from __future__ import annotations

from pathlib import Path
from typing import Any

from ._examples import Example, State, endpoint, run_example
from .conftest import PulumiCli


def made(before: list[State], states: list[State], outputs: dict[str, Any]) -> None:
    wsa = endpoint(states[0], "Calculator", "Subtract", "POST")["wsaSettings"]
    assert (wsa["wsaEnabled"], wsa["wsaVersion"], wsa["wsaAction"]) == (
        True, "V200408", "http://tempuri.org/Subtract"
    )
    # Add's settings are the root project's (scripts/up.sh made them): the example's are Subtract's only.
    assert (endpoint(states[0], "Calculator", "Add", "POST")["wsaSettings"]
            == endpoint(before[0], "Calculator", "Add", "POST")["wsaSettings"])
    assert outputs == {"operation": "Calculator POST Subtract"}


def test_readme_as_written_then_up_again_and_destroy(pulumi_cli: PulumiCli, tmp_path: Path) -> None:
    run_example(Example("soap-ws-addressing", 1, made), pulumi_cli, tmp_path)
