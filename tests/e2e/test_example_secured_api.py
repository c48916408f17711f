"""examples/secured-api under the CLI: its README as written, the key rotation included, an up that changes
nothing, destroy (_examples.py). The rest of its life (secrets, drift) is test_cli_secured_api.py's."""

from __future__ import annotations

import copy
from pathlib import Path
from typing import Any
from unittest import mock

from apinizer_pulumi.client import ApinizerClient

from ._examples import ADMIN_TOKEN, Example, State, demo, run_example
from .conftest import PulumiCli


def made(before: list[State], states: list[State], outputs: dict[str, Any]) -> None:
    project = demo(states[0])
    jwks = {item["name"]: item for item in project["jwks"]}
    sources = {name: jwk["sourceType"] for name, jwk in jwks.items()}
    assert sources == {"acme-idp": "URL", "reconciliation-signing-1": "GENERATE"}
    assert outputs["signingKeyId"] == jwks["reconciliation-signing-1"]["id"]
    assert [item["name"] for item in project["certificates"]] == ["partners-ca"]
    assert [item["type"] for item in project["connections"]] == ["elasticsearch"]
    assert states[0]["geolocation"]["enabled"] is True
    assert (outputs["apiProxy"], outputs["environment"], outputs["deployed"]) == ("Payouts", "test", True)


def rotated(url: str, outputs: dict[str, Any]) -> None:
    """A new generation of the CA and the signing key, from the same shell. The gateway shows it; that the
    stack's outputs follow is test_cli_secured_api.py's (its export after the rotation)."""
    with ApinizerClient(url, token=ADMIN_TOKEN) as client:
        keys = {jwk.id for jwk in client.jwks.list("Demo")}
        assert client.jwks.get("Demo", "reconciliation-signing-2").id in keys
        assert outputs["signingKeyId"] not in keys, "the first generation's key is deleted"
        (line,) = client.certificates.get("Demo", "partners-ca").certificate_environment_list
        assert line.subject_dn == "CN=Partners CA 2, O=Example Payouts"


def destroyed(initial: State) -> State:
    """Geolocation is turned off again; the uploaded MMDB file stays on the gateway (the API deletes none)."""
    expected = copy.deepcopy(initial)
    expected["geolocation"] = {"enabled": False, "mmdb": mock.ANY}
    return expected


def test_readme_as_written_then_up_again_and_destroy(pulumi_cli: PulumiCli, tmp_path: Path) -> None:
    example = Example("secured-api", 11, made, destroyed=destroyed, rotated=rotated)
    run_example(example, pulumi_cli, tmp_path)
