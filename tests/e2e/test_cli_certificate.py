"""A certificate under the real ``pulumi`` CLI: what only the engine shows. Its PEM is in no file of the
state in clear (``pulumi stack export``: a secret input, left out of the outputs, its sha256 recorded),
``preview --diff`` of a rotation shows the hash and not the PEM, the rotation is one update in place,
and a second ``up`` changes nothing. The provider's own behaviour is tests/provider/test_certificate.py's.
"""

from __future__ import annotations

import hashlib
import json
from pathlib import Path
from typing import Any

import _key_material as km
from apinizer_pulumi.client import ApinizerClient

from .conftest import Project, program_source, summary

CERTIFICATE_TYPE = "pulumi-python:dynamic/apinizer:Certificate"
SECRET_SIG = {"4dabf18193072939515e22adb298388d": "1b47061264138c4ac30d75fd1eb44270"}

# The PEM text comes from a file of the program's folder (a CA the program's setup made), not from the
# stack config: the engine records every config value among the inputs of the dynamic provider itself.
PROGRAM = """
from pathlib import Path

import pulumi

import apinizer_pulumi as apinizer

ca = apinizer.Certificate(
    "partners-ca",
    project_name="Demo",
    name="partners-ca-e2e",
    alias="partners-ca-e2e",
    environment_names=["test", "production"],
    pem=Path("partners-ca.pem").read_text(),
)
pulumi.export("certificate_id", ca.certificate_id)
pulumi.export("subject", ca.subject_dn["production"])
"""


def recorded(exported: str) -> dict[str, Any]:
    """The certificate's resource in a ``pulumi stack export``."""
    resources = json.loads(exported)["deployment"]["resources"]
    (found,) = [r for r in resources if r["type"] == CERTIFICATE_TYPE]
    return dict(found)


def body(issued: km.Issued) -> str:
    """A line of the PEM's base64 body: what must not appear in clear."""
    return issued.pem.decode().splitlines()[2]


def test_a_certificate_rotated_under_the_cli_keeps_its_pem_out_of_the_state(
    make_project: Any, emulator_url: str, admin_token: str, tmp_path: Path
) -> None:
    authority, renewed = km.ca(), km.issue("Renewed CA", ca=True)
    source = program_source(tmp_path / "source", "certificate-life", PROGRAM)
    project: Project = make_project(source, name="certificate-life")
    project.configure({"apinizer:url": emulator_url}, secrets={"apinizer:token": admin_token})
    (project.directory / "partners-ca.pem").write_bytes(authority.pem)

    up = project.up()
    assert summary(up.stdout) == {"created": 2}, up.stdout
    state = recorded(project.export())
    assert SECRET_SIG.items() <= state["inputs"]["pem"].items()
    assert "pem" not in state["outputs"]
    assert state["outputs"]["sha256"] == hashlib.sha256(authority.der).hexdigest()
    assert body(authority) not in project.export()
    assert "CN=Example CA" in project.outputs()["subject"]

    # A rotation: a new PEM under the same name, one update in place; the diff shows the hash only.
    (project.directory / "partners-ca.pem").write_bytes(renewed.pem)
    preview = project.preview("--diff")
    assert summary(preview.stdout) == {"to update": 1, "unchanged": 1}, preview.stdout
    assert hashlib.sha256(renewed.der).hexdigest() in preview.stdout
    assert body(renewed) not in preview.output and body(authority) not in preview.output
    rotated = project.up()
    assert summary(rotated.stdout) == {"updated": 1, "unchanged": 1}, rotated.stdout
    assert "CN=Renewed CA" in project.outputs()["subject"]
    with ApinizerClient(emulator_url, token=admin_token) as client:
        live = client.certificates.get("Demo", "partners-ca-e2e")
    assert project.outputs()["certificate_id"] == live.id
    exported = project.export()
    assert body(renewed) not in exported and body(authority) not in exported
    assert summary(project.up("--expect-no-changes").stdout) == {"unchanged": 2}

    destroyed = project.destroy("--skip-preview")
    assert summary(destroyed.stdout) == {"deleted": 2}, destroyed.stdout
    with ApinizerClient(emulator_url, token=admin_token) as client:
        assert client.certificates.list("Demo") == []
