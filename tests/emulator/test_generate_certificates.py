"""``apinizer-pulumi generate`` writes the project's certificates (adopt=True), each PEM exported to a
file beside the program, and the generated program's ``up`` adopts them with no change after."""

from __future__ import annotations

import json
from pathlib import Path

import pytest

import _key_material as km
from apinizer_pulumi.client import ApinizerClient
from apinizer_pulumi.generate.cli import main
from examples.harness import run_program

from .test_generate_cli import env  # noqa: F401  # the fixture: connection from the environment

GENERATE = ["generate", "--project", "Demo", "--proxy", "Orders", "--no-policies"]


@pytest.fixture
def authority() -> km.Issued:
    return km.ca()


@pytest.fixture
def certificates(emulator_url: str, admin_token: str, authority: km.Issued) -> None:
    with ApinizerClient(emulator_url, token=admin_token) as client:
        client.certificates.create("Demo", {
            "certificate_name": "partners-ca", "alias": "partners",
            "certificate_description": "the partners' CA", "environment_list": ["test", "production"],
            "pem_encoded_file": authority.pem})


@pytest.mark.usefixtures("env", "certificates")
def test_generate_writes_each_certificate_and_its_pem_file(
    tmp_path: Path, authority: km.Issued, capsys: pytest.CaptureFixture[str]
) -> None:
    out = tmp_path / "__main__.py"
    assert main([*GENERATE, "--out", str(out)]) == 0
    text = out.read_text()
    err = capsys.readouterr().err
    assert "certificates of Demo: 1" in err and "1 certificate(s), their PEM files in" in err
    assert '"certificate-demo-partners-ca": apinizer.Certificate(' in text
    assert 'alias="partners",' in text and 'description="the partners\' CA",' in text
    assert 'environment_names=["test", "production"],' in text
    assert 'file="certificates/certificate-demo-partners-ca.pem",' in text
    assert (tmp_path / "certificates" / "certificate-demo-partners-ca.pem").read_bytes() == authority.pem
    assert "BEGIN CERTIFICATE" not in text
    compile(text, str(out), "exec")


@pytest.mark.usefixtures("env", "certificates")
def test_the_generated_program_adopts_the_certificates_without_a_change(
    tmp_path: Path, emulator_url: str, admin_token: str, monkeypatch: pytest.MonkeyPatch
) -> None:
    out = tmp_path / "__main__.py"
    assert main([*GENERATE, "--out", str(out)]) == 0
    (tmp_path / "Pulumi.yaml").write_text("name: generated\nruntime: python\n")
    config = {"apinizer:url": emulator_url, "apinizer:token": admin_token}
    monkeypatch.setenv("PULUMI_CONFIG", json.dumps(config))
    monkeypatch.chdir(tmp_path)  # the program's folder, as under `pulumi up`: file= is relative to it
    run = run_program(tmp_path, config)
    again = run_program(tmp_path, config, previous=run, preview=True)
    assert again.mocks.steps() == {"create": 0, "same": len(run.mocks.registrations), "update": 0}
    with ApinizerClient(emulator_url, token=admin_token) as client:
        [found] = client.certificates.list("Demo")
    assert found.name == "partners-ca" and found.description == "the partners' CA"


@pytest.mark.usefixtures("env", "certificates")
def test_check_sees_a_certificate_changed_in_the_console(
    tmp_path: Path, emulator_url: str, admin_token: str, authority: km.Issued,
    capsys: pytest.CaptureFixture[str],
) -> None:
    out = tmp_path / "__main__.py"
    assert main([*GENERATE, "--out", str(out)]) == 0
    assert main([*GENERATE, "--check", "--out", str(out), "--quiet"]) == 0
    with ApinizerClient(emulator_url, token=admin_token) as client:
        client.certificates.update("Demo", {
            "certificate_name": "partners-ca", "alias": "partners", "certificate_description": "edited",
            "environment_list": ["test"], "pem_encoded_file": authority.pem})
    capsys.readouterr()
    assert main([*GENERATE, "--check", "--out", str(out), "--quiet"]) == 1
    report = capsys.readouterr().out
    assert "partners-ca" in report and "description" in report and "environment_names" in report
