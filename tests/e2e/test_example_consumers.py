"""examples/consumers under the CLI (_examples.py): its README as written, an up that changes nothing,
destroy.

The rest of its life (a new password, access revoked) is test_cli_consumers.py's.
"""

from __future__ import annotations

from pathlib import Path
from typing import Any

from ._examples import Example, State, demo, run_example
from .conftest import PulumiCli


def made(before: list[State], states: list[State], outputs: dict[str, Any]) -> None:
    project = demo(states[0])
    (group,) = [g for g in project["ipGroups"] if g["name"] == "PartnerNetworks"]
    assert group["ipList"] == outputs["allowedNetworks"] == ["203.0.113.0/24", "198.51.100.7"]
    (variable,) = [v for v in project["environmentVariables"] if v["name"] == "PARTNER_BACKEND_URL"]
    assert variable["globalValue"] == outputs["partnerBackendUrl"] == "https://sandbox.partner.example/api"
    assert outputs["credential"] == "partner-app"
    assert (outputs["proxyGroup"], outputs["proxyGroupDeployed"]) == ("PartnerApis", True)
    assert outputs["access"] == ["API_PROXY Orders", "API_PROXY PetStore"]


def test_readme_as_written_then_up_again_and_destroy(pulumi_cli: PulumiCli, tmp_path: Path) -> None:
    run_example(Example("consumers", 6, made), pulumi_cli, tmp_path)
