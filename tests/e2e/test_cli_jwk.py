"""JWKs under the real ``pulumi`` CLI: a generated key and a pasted private JWK made, their private
members never in clear in ``pulumi stack export``, ``preview --diff``, the stack's outputs or the CLI's
output, a description changed in place, refresh with no change, destroy."""

from __future__ import annotations

import json
from collections.abc import Iterator
from datetime import UTC, datetime
from pathlib import Path
from typing import Any

import pytest

from apinizer_emulator import key_material
from apinizer_pulumi.client import ApinizerClient

from .conftest import Project, program_source, summary

JWK_TYPE = "pulumi-python:dynamic/apinizer:Jwk"
SECRET = {"4dabf18193072939515e22adb298388d": "1b47061264138c4ac30d75fd1eb44270"}
PASTED = key_material.generate_jwk("EC", {"curveType": "P256"}, "partner-1", datetime(2026, 1, 1, tzinfo=UTC))

PROGRAM = """
import pulumi

import apinizer_pulumi as apinizer

config = pulumi.Config()
signing = apinizer.Jwk(
    "signing",
    project_name="Demo",
    name="e2e-signing",
    description=config.require("description"),
    generate=apinizer.JwkGenerateArgs(type="OKP", kid="e2e-1", okp=apinizer.JwkOkpArgs(curve_type="ED25519")),
)
partner = apinizer.Jwk(
    "partner", project_name="Demo", name="e2e-partner", jwk_json=config.require_secret("partnerJwk")
)
pulumi.export("public", signing.public_jwk)
pulumi.export("private", signing.private_jwk)
pulumi.export("partner_id", partner.jwk_id)
"""


@pytest.fixture
def project(make_project: Any, emulator_url: str, admin_token: str, tmp_path: Path) -> Project:
    made: Project = make_project(program_source(tmp_path / "source", "jwk-life", PROGRAM), name="jwk-life")
    made.configure({"apinizer:url": emulator_url, "description": "first"},
                   secrets={"apinizer:token": admin_token, "partnerJwk": json.dumps(PASTED)})
    return made


@pytest.fixture
def client(emulator_url: str, admin_token: str) -> Iterator[ApinizerClient]:
    with ApinizerClient(emulator_url, token=admin_token) as api:
        yield api


def test_jwks_through_their_whole_life_with_their_private_members_secret(
        project: Project, client: ApinizerClient) -> None:
    up = project.up()
    assert summary(up.stdout) == {"created": 3}, up.stdout
    generated = client.jwks.get("Demo", "e2e-signing")
    assert generated.okp is not None and generated.okp.d
    privates = (generated.okp.d, PASTED["d"])

    exported = project.export()
    resources = {r["urn"].rsplit("::", 1)[-1]: r for r in json.loads(exported)["deployment"]["resources"]}
    assert SECRET.items() <= resources["signing"]["outputs"]["private_jwk"].items()
    assert SECRET.items() <= resources["partner"]["outputs"]["jwk_json"].items()
    assert SECRET.items() <= resources["partner"]["inputs"]["jwk_json"].items()
    assert resources["signing"]["outputs"]["public_jwk"]["x"] == generated.okp.x  # the public part, plain
    outputs = project.outputs()
    assert outputs["private"] == "[secret]" and outputs["public"]["kid"] == "e2e-1"
    # The check below finds the members once the secrets are shown, so it is not blind.
    assert project.outputs(show_secrets=True)["private"]["d"] == generated.okp.d

    project.set_config("description", "second")
    diff = project.preview("--diff")
    assert summary(diff.stdout).get("to update") == 1, diff.stdout
    changed = project.up()
    assert summary(changed.stdout) == {"updated": 1, "unchanged": 2}, changed.stdout
    assert client.jwks.get("Demo", "e2e-signing").description == "second"

    refreshed = project.refresh("--expect-no-changes")
    destroyed = project.destroy()
    assert client.jwks.list("Demo") == []
    for text in (exported, up.output, diff.output, changed.output, refreshed.output, destroyed.output):
        assert not any(private in text for private in privates)
