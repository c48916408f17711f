"""``apinizer-pulumi generate`` writes the project's environment variables, each with adopt=True."""

from __future__ import annotations

import json
import subprocess
import sys
from pathlib import Path

import pytest

from apinizer_pulumi.client import ApinizerClient
from apinizer_pulumi.generate.cli import main
from examples.harness import run_program

from .test_generate_cli import env  # noqa: F401  # the fixture: connection from the environment


@pytest.fixture
def variables(emulator_url: str, admin_token: str) -> None:
    with ApinizerClient(emulator_url, token=admin_token) as client:
        client.environment_variables.create(
            "Demo",
            {
                "name": "BACKEND_URL",
                "description": "where the backend is",
                "global": False,
                "environmentValueList": [
                    {"environmentName": "test", "value": "https://t.example", "visible": True},
                    {"environmentName": "production", "value": "https://p.example", "visible": True},
                ],
            },
        )
        client.environment_variables.create(
            "Demo", {"name": "GREETING", "global": True, "globalValue": "hello"}
        )
        client.environment_variables.create(
            "Demo",
            {
                "name": "DB_PASSWORD",
                "environmentValueList": [
                    {"environmentName": "test", "value": "test-secret-value", "visible": False},
                    {"environmentName": "production", "value": "prod-secret-value", "visible": False},
                ],
            },
        )
        client.environment_variables.create(
            "Demo",
            {
                "name": "MIXED",
                "environmentValueList": [
                    {"environmentName": "test", "value": "shown", "visible": True},
                    {"environmentName": "production", "value": "hidden-secret", "visible": False},
                ],
            },
        )


@pytest.mark.usefixtures("env", "variables")
def test_generate_writes_each_variable_and_takes_secrets_from_config(tmp_path: Path, capsys) -> None:
    out = tmp_path / "__main__.py"
    assert (
        main(["generate", "--project", "Demo", "--proxy", "Orders", "--out", str(out), "--no-policies"]) == 0
    )
    text = out.read_text()
    err = capsys.readouterr().err
    assert "environment variables of Demo: 4" in err
    # Each secret value's config key is printed, as each credential password's is.
    (keys,) = [line for line in err.splitlines() if "secret environment value" in line]
    assert keys.endswith("(keys: demo-db-password-test, demo-db-password-production)")
    assert "pulumi config set --secret <key> <value>" in keys
    assert "secret-value" not in text and "hidden-secret" not in text
    assert "# Not declared: Demo/MIXED has secret and visible values side by side" in text
    assert '"demo-greeting": apinizer.EnvironmentVariable(' in text and 'global_value="hello",' in text
    assert '"test": "https://t.example",' in text
    assert '"production": config.require_secret("demo-db-password-production"),' in text
    section = text[text.index("environment_variables: dict") :]
    assert section.count("apinizer.EnvironmentVariable(") == 3 and section.count("adopt=True,") == 3
    assert "secret=True," in text and "IP groups (apinizer.IpGroup)" in text
    compile(text, str(out), "exec")
    assert max(len(line) for line in text.splitlines()) <= 100
    lint = subprocess.run(
        [sys.executable, "-m", "ruff", "check", "--isolated", "--line-length", "100", str(out)],
        capture_output=True,
        text=True,
        check=False,
    )
    assert lint.returncode == 0, lint.stdout


@pytest.mark.usefixtures("env", "variables")
def test_the_generated_program_adopts_the_variables_without_a_change(
    tmp_path: Path, emulator_url: str, admin_token: str, monkeypatch: pytest.MonkeyPatch
) -> None:
    out = tmp_path / "__main__.py"
    assert (
        main(["generate", "--project", "Demo", "--proxy", "Orders", "--out", str(out), "--no-policies"]) == 0
    )
    (tmp_path / "Pulumi.yaml").write_text("name: generated\nruntime: python\n")
    config = {
        "apinizer:url": emulator_url,
        "apinizer:token": admin_token,
        "generated:demo-db-password-test": "test-secret-value",
        "generated:demo-db-password-production": "prod-secret-value",
    }
    monkeypatch.setenv("PULUMI_CONFIG", json.dumps(config))
    run = run_program(tmp_path, config)
    # Then a preview of the same stack, against the gateway it came from, shows no change: the whole
    # variables, per-environment values included, are the stack's as they are (docs/generate.md).
    again = run_program(tmp_path, config, previous=run, preview=True)
    assert again.mocks.steps() == {"create": 0, "same": len(run.mocks.registrations), "update": 0}
    with ApinizerClient(emulator_url, token=admin_token) as client:
        found = {v.name: v for v in client.environment_variables.list("Demo")}
    assert found["GREETING"].global_value == "hello"
    values = {
        v.environment_name: (v.value, v.visible) for v in found["BACKEND_URL"].environment_value_list or []
    }
    assert values == {"test": ("https://t.example", True), "production": ("https://p.example", True)}
    secret = {
        v.environment_name: (v.value, v.visible) for v in found["DB_PASSWORD"].environment_value_list or []
    }
    assert secret == {"test": (None, False), "production": (None, False)}
