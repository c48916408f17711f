"""``apinizer-pulumi generate`` writes the project's credentials with their access, without their
passwords: each comes from a secret stack config key that the program names and the CLI lists."""

from __future__ import annotations

import ast
from pathlib import Path

import pytest

import _emulator_http as emulator_http
from apinizer_pulumi.client import ApinizerClient
from apinizer_pulumi.generate.cli import main
from unit.test_generate import assert_ruff_clean

from .test_generate_cli import ALL_PROXIES

SECRET = "Never-In-The-Program-1"


@pytest.fixture(autouse=True)
def env(monkeypatch: pytest.MonkeyPatch, emulator_url: str, admin_token: str) -> None:
    monkeypatch.setenv("APINIZER_URL", emulator_url)
    monkeypatch.setenv("APINIZER_TOKEN", admin_token)


def test_generate_writes_each_credential_with_its_access_and_no_password(
    tmp_path: Path, capsys: pytest.CaptureFixture[str], emulator_url: str, admin_token: str
) -> None:
    with ApinizerClient(emulator_url, token=admin_token) as client:
        client.credentials.create(
            "Demo",
            {
                "email": "partner@example.com",
                "full_name": "Partner Inc.",
                "username": "partner",
                "password": SECRET,
                "role_name_list": ["API_USER"],
                "ip_list": ["10.0.0.0/8"],
                "expire_date": "2030-12-31T23:59:59.000Z",
                "description": "The partner's app",
            },
        )
        client.credentials.grant_access(
            "Demo",
            "partner",
            [{"name": "PetStore", "type": "API_PROXY"}, {"name": "Orders", "type": "API_PROXY"}],
        )
        client.credentials.create(
            "Demo",
            {
                "email": "b@example.com",
                "full_name": "B",
                "username": "b",
                "password": SECRET,
                "enabled": False,
            },
        )
    emulator_http.post(f"{emulator_url}/_emulator/stats/reset", json={}, timeout=10).raise_for_status()
    out = tmp_path / "gateway.py"

    assert main(["generate", "--project", "Demo", *ALL_PROXIES, "--out", str(out), "--no-policies"]) == 0

    text = out.read_text()
    assert SECRET not in text
    assert_ruff_clean(out)
    calls = [
        node
        for node in ast.walk(ast.parse(text))
        if isinstance(node, ast.Call)
        and isinstance(node.func, ast.Attribute)
        and node.func.attr == "Credential"
    ]
    declared = {
        ast.literal_eval(next(k.value for k in call.keywords if k.arg == "username")): {
            k.arg: k.value for k in call.keywords
        }
        for call in calls
    }
    assert sorted(declared) == ["b", "partner"]
    partner = declared["partner"]
    assert ast.literal_eval(partner["access"]) == [
        {"name": "Orders", "type": "API_PROXY"},
        {"name": "PetStore", "type": "API_PROXY"},
    ]
    assert ast.literal_eval(partner["ip_list"]) == ["10.0.0.0/8"]
    assert ast.literal_eval(partner["expire_date"]) == "2030-12-31T23:59:59.000Z"
    assert ast.literal_eval(partner["adopt"]) is True
    assert ast.unparse(partner["password"]) == "config.require_secret('password-demo-partner')"
    assert ast.literal_eval(declared["b"]["enabled"]) is False and "access" not in declared["b"]
    err = capsys.readouterr().err
    assert "2 credential(s)" in err and "password-demo-b, password-demo-partner" in err
    # The list once, one access read per credential.
    requests = emulator_http.get(f"{emulator_url}/_emulator/stats", timeout=10).json()["requests"]
    assert requests["GET /apiops/projects/{projectName}/credentials/"] == 1
    assert requests["GET /apiops/projects/{projectName}/credentials/{username}/access/"] == 2
