"""examples/policies under the CLI (_examples.py): its README as written, an up that changes nothing,
destroy."""

from __future__ import annotations

from pathlib import Path
from typing import Any

from ._examples import Example, State, run_example
from .conftest import PulumiCli


def made(before: list[State], states: list[State], outputs: dict[str, Any]) -> None:
    assert outputs["policies"] == [
        "authenticate", "office-only", "per-user-limit", "reshape-request", "stamp"]
    assert outputs["deployed"] is True


def test_readme_as_written_then_up_again_and_destroy(pulumi_cli: PulumiCli, tmp_path: Path) -> None:
    run_example(Example("policies", 7, made), pulumi_cli, tmp_path)
