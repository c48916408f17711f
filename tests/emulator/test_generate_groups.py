"""``apinizer-pulumi generate`` writes the project's API proxy groups (adopt=True) and their deployments."""

from __future__ import annotations

import ast
from pathlib import Path

import pytest

from apinizer_pulumi.client import ApinizerClient
from apinizer_pulumi.generate.cli import main


@pytest.fixture
def env(monkeypatch: pytest.MonkeyPatch, emulator_url: str, admin_token: str) -> None:
    for name in ("APINIZER_URL", "APINIZER_TOKEN", "APINIZER_USERNAME", "APINIZER_PASSWORD"):
        monkeypatch.delenv(name, raising=False)
    monkeypatch.setenv("APINIZER_URL", emulator_url)
    monkeypatch.setenv("APINIZER_TOKEN", admin_token)


def test_generate_declares_each_group_and_where_it_is_deployed(
    env: None, tmp_path: Path, emulator_url: str, admin_token: str
) -> None:
    with ApinizerClient(emulator_url, token=admin_token) as client:
        client.api_proxy_groups.create("Demo", {"name": "Payments", "description": "Payment APIs",
                                                "client_route": {"relative_path_list": ["/payments"]}})
        client.api_proxy_groups.create("Demo", {"name": "Idle",
                                                "client_route": {"relative_path_list": ["/idle"]}})
        client.api_proxy_groups.add_api_proxy("Demo", "Payments", "PetStore")
        client.api_proxy_groups.deploy("Demo", "Payments", "test")
    out = tmp_path / "gateway.py"
    assert main(["generate", "--project", "Demo", "--proxy", "PetStore", "--out", str(out)]) == 0
    program = out.read_text()
    ast.parse(program)
    assert program.count("apinizer.ApiProxyGroup(") == 2
    assert '"group-demo-payments": apinizer.ApiProxyGroup(' in program
    assert 'description="Payment APIs",' in program
    # One deployment: Idle is deployed nowhere.
    assert program.count("apinizer.ApiProxyGroupDeployment(") == 1
    assert 'api_proxy_group_name=api_proxy_groups["group-demo-payments"].name,' in program
    assert "client_route" not in program.split("api_proxy_groups:", 1)[1]  # taken over as it is


def test_generate_without_the_groups_role_skips_them(
    monkeypatch: pytest.MonkeyPatch, env: None, tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    monkeypatch.setenv("APINIZER_TOKEN", "dev-developer-token")  # ROLE_MANAGE_PROXIES only
    out = tmp_path / "gateway.py"
    assert main(["generate", "--project", "Demo", "--proxy", "PetStore", "--out", str(out)]) == 0
    assert "ApiProxyGroup" not in out.read_text()
    assert "API proxy groups of Demo: not read" in capsys.readouterr().err
