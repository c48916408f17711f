"""``apinizer-pulumi generate`` writes the project's connections to outside systems, each with adopt=True,
its settings class, and its set secret fields read from the stack config."""

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

PASSWORD = "smtp-Secret-Pa55"
TOKEN = "hook-Secret-Token"
GENERATE = ["generate", "--project", "Demo", "--proxy", "Orders", "--no-policies"]


@pytest.fixture
def connections(emulator_url: str, admin_token: str) -> None:
    with ApinizerClient(emulator_url, token=admin_token) as client:
        client.connections.create("Demo", {
            "type": "kafka", "name": "audit-log", "description": "audit trail", "topicName": "audit",
            "propertiesMap": {key: {"value": "x", "valueType": "STRING"} for key in (
                "bootstrap.servers", "key.serializer", "value.serializer")}})
        client.connections.create("Demo", {
            "type": "email", "name": "mailer", "host": "smtp.example.com", "port": 465, "auth": True,
            "username": "alerts", "password": PASSWORD, "enabled": False})
        client.connections.create("Demo", {
            "type": "webhook", "name": "hook", "fullUrl": "https://hooks.example.com/x",
            "headerList": [{"name": "X-Token", "value": TOKEN}], "deployToWorker": False})


@pytest.mark.usefixtures("env", "connections")
def test_generate_writes_each_connection_and_takes_secrets_from_config(tmp_path: Path, capsys) -> None:
    out = tmp_path / "__main__.py"
    assert main([*GENERATE, "--out", str(out)]) == 0
    text = out.read_text()
    err = capsys.readouterr().err
    assert "connections of Demo: 3" in err
    (keys,) = [line for line in err.splitlines() if "secret connection field" in line]
    assert keys.endswith("(keys: connection-demo-mailer-secret-1, connection-demo-hook-secret-1)")
    assert PASSWORD not in text and TOKEN not in text
    section = text[text.index("connections: dict") :]
    assert section.count("apinizer.Connection(") == 3 and section.count("adopt=True,") == 3
    assert "settings=apinizer.connections.Kafka(" in section and 'topic_name="audit",' in section
    assert 'password=pulumi.Config().require_secret("connection-demo-mailer-secret-1"),' in section
    assert "enabled=False," in section and "deploy_to_worker=False," in section and "port=465," in section
    compile(text, str(out), "exec")
    lint = subprocess.run(
        [sys.executable, "-m", "ruff", "check", "--isolated", "--line-length", "100", str(out)],
        capture_output=True, text=True, check=False)
    assert lint.returncode == 0, lint.stdout


@pytest.mark.usefixtures("env", "connections")
def test_the_generated_program_adopts_the_connections_without_a_change(
    tmp_path: Path, emulator_url: str, admin_token: str, monkeypatch: pytest.MonkeyPatch
) -> None:
    out = tmp_path / "__main__.py"
    assert main([*GENERATE, "--out", str(out)]) == 0
    (tmp_path / "Pulumi.yaml").write_text("name: generated\nruntime: python\n")
    config = {"apinizer:url": emulator_url, "apinizer:token": admin_token,
              "generated:connection-demo-mailer-secret-1": PASSWORD,
              "generated:connection-demo-hook-secret-1": TOKEN}
    monkeypatch.setenv("PULUMI_CONFIG", json.dumps(config))
    run = run_program(tmp_path, config)
    assert len(run.mocks.of_type("apinizer:Connection")) == 3
    again = run_program(tmp_path, config, previous=run, preview=True)
    assert again.mocks.steps() == {"create": 0, "same": len(run.mocks.registrations), "update": 0}
    with ApinizerClient(emulator_url, token=admin_token) as client:
        mailer = client.connections.get("Demo", "mailer")
        hook = client.connections.get("Demo", "hook")
    assert (mailer.password, mailer.port, mailer.enabled) == (PASSWORD, 465, False)  # type: ignore[union-attr]
    assert hook.header_list[0].value == TOKEN and hook.deploy_to_worker is False  # type: ignore[union-attr]


@pytest.mark.usefixtures("env", "connections")
def test_check_sees_a_connection_changed_outside(tmp_path: Path, emulator_url: str, admin_token: str,
                                                 capsys) -> None:
    out = tmp_path / "__main__.py"
    assert main([*GENERATE, "--out", str(out)]) == 0
    assert main([*GENERATE, "--out", str(out), "--check"]) == 0
    with ApinizerClient(emulator_url, token=admin_token) as client:
        live = client.connections.get("Demo", "audit-log")
        client.connections.update("Demo", live.model_copy(update={"topic_name": "elsewhere"}))
    capsys.readouterr()
    assert main([*GENERATE, "--out", str(out), "--check"]) == 1
    printed = capsys.readouterr().out
    assert "~ Connection Demo/audit-log" in printed and "settings.topic_name: declared 'audit'" in printed
