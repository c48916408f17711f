"""``apinizer-pulumi generate --environment NAME``: adopt a live gateway into one stack per environment.

The definitions stack (``--environment test``) owns the definitions and test's part; the production stack
(``--environment production --no-definitions``) owns production's deployments and values only. Both are
stacks of one program, on one emulator (docs/generate.md, "One stack per environment").
"""

from __future__ import annotations

import json
import subprocess
import sys
from pathlib import Path
from typing import Any

import pytest

import _emulator_http as emulator_http
from apinizer_pulumi.client import ApinizerClient
from apinizer_pulumi.generate import declared_resources
from apinizer_pulumi.generate.cli import main
from examples.harness import ProgramRun, run_program

from .test_generate_cli import env  # noqa: F401  # the fixture: connection from the environment

GENERATE = ["generate", "--project", "Demo", "--proxy", "Orders", "--proxy", "PetStore", "--no-policies"]

#: The program of both stacks: each runs the module generated for its environment.
MAIN = """\
import runpy

import pulumi

runpy.run_path(f"gateway_{pulumi.Config().require('environment')}.py")
"""


@pytest.fixture
def gateway(emulator_url: str, admin_token: str) -> None:
    """Variables of every shape, and proxies deployed to both environments."""
    with ApinizerClient(emulator_url, token=admin_token) as client:
        client.environment_variables.create("Demo", {
            "name": "BACKEND_URL", "description": "where the backend is", "global": False,
            "environmentValueList": [
                {"environmentName": "test", "value": "https://t.example", "visible": True},
                {"environmentName": "production", "value": "https://p.example", "visible": True},
            ],
        })
        client.environment_variables.create("Demo",
                                            {"name": "GREETING", "global": True, "globalValue": "hello"})
        client.environment_variables.create("Demo", {
            "name": "DB_PASSWORD",
            "environmentValueList": [
                {"environmentName": "test", "value": "test-secret-value", "visible": False},
                {"environmentName": "production", "value": "prod-secret-value", "visible": False},
            ],
        })
        client.environment_variables.create("Demo", {
            "name": "TEST_TOKEN",
            "environmentValueList": [{"environmentName": "test", "value": "test-token", "visible": False}],
        })
        client.environment_variables.create("Demo", {
            "name": "MIXED",
            "environmentValueList": [
                {"environmentName": "test", "value": "shown", "visible": True},
                {"environmentName": "production", "value": "hidden-secret", "visible": False},
            ],
        })
        for environment in ("test", "production"):
            client.api_proxies.deploy("Demo", "Orders", environment)
        client.api_proxies.deploy("Demo", "PetStore", "test")


@pytest.fixture
def group(emulator_url: str, admin_token: str) -> None:
    """A proxy group deployed to production only: the definitions stack adopts the group, the production
    stack its deployment, by the group's name."""
    with ApinizerClient(emulator_url, token=admin_token) as client:
        client.api_proxy_groups.create("Demo", {"name": "Payments",
                                                "client_route": {"relative_path_list": ["/payments"]}})
        client.api_proxy_groups.deploy("Demo", "Payments", "production")


def _generate(folder: Path, environment: str, *extra: str) -> str:
    out = folder / f"gateway_{environment}.py"
    assert main([*GENERATE, "--environment", environment, *extra, "--out", str(out)]) == 0
    return out.read_text()


def _kinds(program: str) -> list[tuple[str, tuple[str, ...]]]:
    return sorted((item.kind, item.identity) for item in declared_resources(program))


def _lint(path: Path) -> None:
    lint = subprocess.run(
        [sys.executable, "-m", "ruff", "check", "--isolated", "--line-length", "100", str(path)],
        capture_output=True, text=True, check=False)
    assert lint.returncode == 0, lint.stdout


def _values(emulator_url: str, admin_token: str) -> dict[str, dict[str, tuple[str | None, bool]]]:
    with ApinizerClient(emulator_url, token=admin_token) as client:
        return {item.name: {value.environment_name: (value.value, value.visible)
                            for value in item.environment_value_list or []}
                for item in client.environment_variables.list("Demo")}


@pytest.mark.usefixtures("env", "gateway", "group")
def test_each_environment_gets_its_deployments_and_its_values(
    tmp_path: Path, capsys: pytest.CaptureFixture[str], emulator_url: str
) -> None:
    test = _generate(tmp_path, "test")
    test_err = capsys.readouterr().err
    emulator_http.post(f"{emulator_url}/_emulator/stats/reset", json={}, timeout=10).raise_for_status()
    production = _generate(tmp_path, "production", "--no-definitions")
    production_err = capsys.readouterr().err
    # Only what that stack declares is read: no policies, credentials, keys, connections or certificates.
    requests = emulator_http.get(f"{emulator_url}/_emulator/stats", timeout=10).json()["requests"]
    assert requests == {
        "GET /apiops/projects/": 1,
        "GET /apiops/projects/{projectName}/apiProxies/{apiProxyName}/": 2,
        "GET /apiops/projects/{projectName}/apiProxies/{apiProxyName}/endpoints/": 2,
        "GET /apiops/projects/{projectName}/environmentVariables/": 1,
        "GET /apiops/projects/{projectName}/apiProxyGroups/": 1,
        "GET /apiops/projects/{projectName}/apiProxyGroups/{apiProxyGroupName}/environments/": 1,
        "GET /apiops/environments/{projectName}": 1,  # the name given is one of them
    }

    # The definitions stack: every definition, test's deployments, test's values; what cannot be split whole.
    found = _kinds(test)
    assert [identity for kind, identity in found if kind == "ApiProxyDeployment"] == [
        ("Demo", "Orders", "test"), ("Demo", "PetStore", "test")]
    assert 'environment_name="production"' not in test
    assert "apinizer.ApiProxyGroup(" in test and "apinizer.ApiProxyGroupDeployment(" not in test
    assert ("EnvironmentVariableValue", ("Demo", "BACKEND_URL", "test")) in found
    assert ("EnvironmentVariableValue", ("Demo", "TEST_TOKEN", "test")) in found
    assert ("EnvironmentVariable", ("Demo", "DB_PASSWORD")) in found  # production's value is masked
    assert ("EnvironmentVariable", ("Demo", "GREETING")) in found  # one global value
    assert ("EnvironmentVariable", ("Demo", "BACKEND_URL")) not in found
    assert 'value=config.require_secret("demo-test-token-test"),' in test
    assert "test-token" not in test.replace("demo-test-token-test", "") and "secret-value" not in test
    assert "--environment test" in test
    (keys,) = [line for line in test_err.splitlines() if "secret environment value" in line]
    assert keys.endswith("(keys: demo-db-password-test, demo-db-password-production, demo-test-token-test)")

    # The production stack: production's deployments and values only, the definitions named by literals.
    assert _kinds(production) == [
        ("ApiProxyDeployment", ("Demo", "Orders", "production")),
        ("ApiProxyGroupDeployment", ("Demo", "Payments", "production")),
        ("EnvironmentVariableValue", ("Demo", "BACKEND_URL", "production")),
        # Its own value secret, test's visible: written back as read, so production's stack owns its own.
        ("EnvironmentVariableValue", ("Demo", "MIXED", "production")),
    ]
    assert 'value=config.require_secret("demo-mixed-production"),' in production
    assert "hidden-secret" not in production
    assert "apinizer.Endpoint(" not in production and "apinizer.ApiProxy(" not in production
    assert 'value="https://p.example",' in production
    assert "#   DB_PASSWORD" in production and "#   GREETING" in production
    assert "--environment production --no-definitions" in production
    (keys,) = [line for line in production_err.splitlines() if "secret environment value" in line]
    assert keys.endswith("(keys: demo-mixed-production)")
    # test's stack cannot merge test's value beside production's secret one: declared by hand.
    assert ("EnvironmentVariable", ("Demo", "MIXED")) not in found
    assert ("EnvironmentVariableValue", ("Demo", "MIXED", "test")) not in found
    assert "# Not declared: Demo/MIXED has secret and visible values side by side" in test
    for environment in ("test", "production"):
        _lint(tmp_path / f"gateway_{environment}.py")


@pytest.mark.usefixtures("env", "gateway", "group")
def test_two_stacks_of_one_program_adopt_their_environments_and_leave_the_others_alone(
    tmp_path: Path, emulator_url: str, admin_token: str, monkeypatch: pytest.MonkeyPatch
) -> None:
    _generate(tmp_path, "test")
    _generate(tmp_path, "production", "--no-definitions")
    (tmp_path / "Pulumi.yaml").write_text("name: generated\nruntime: python\n")
    (tmp_path / "__main__.py").write_text(MAIN)
    before = _values(emulator_url, admin_token)
    connection = {"apinizer:url": emulator_url, "apinizer:token": admin_token}
    stacks = {
        "test": {**connection, "generated:environment": "test",
                 "generated:demo-db-password-test": "test-secret-value",
                 "generated:demo-db-password-production": "prod-secret-value",
                 "generated:demo-test-token-test": "test-token"},
        "production": {**connection, "generated:environment": "production",
                       "generated:demo-mixed-production": "hidden-secret"},
    }
    runs: dict[str, ProgramRun] = {}
    for stack, config in stacks.items():
        monkeypatch.setenv("PULUMI_CONFIG", json.dumps(config))
        runs[stack] = run_program(tmp_path, config, stack=stack)
        # Each adoption leaves every value as it was: its own environment's and the other's.
        assert _values(emulator_url, admin_token) == before
    kinds = {stack: sorted({item.type for item in run.mocks.registrations}) for stack, run in runs.items()}
    assert "apinizer:EnvironmentVariableValue" in kinds["production"]
    assert "apinizer:Endpoint" not in kinds["production"] and "apinizer:Endpoint" in kinds["test"]
    for stack, config in stacks.items():
        monkeypatch.setenv("PULUMI_CONFIG", json.dumps(config))
        again = run_program(tmp_path, config, stack=stack, previous=runs[stack], preview=True)
        assert again.mocks.steps() == {"create": 0, "same": len(runs[stack].mocks.registrations), "update": 0}
    assert len(runs["production"].mocks.of_type("apinizer:ApiProxyGroupDeployment")) == 1
    with ApinizerClient(emulator_url, token=admin_token) as client:
        orders = client.api_proxies.get("Demo", "Orders")
        assert {d.environment_name for d in orders.deployment_list if d.deployed} == {"test", "production"}
        environments = client.api_proxy_groups.environments("Demo", "Payments")
        assert {item.environment_name for item in environments if item.deployed} == {"production"}


@pytest.mark.usefixtures("env", "gateway", "group")
def test_check_with_environment_compares_only_what_that_stack_owns(
    tmp_path: Path, emulator_url: str, admin_token: str, capsys
) -> None:
    _generate(tmp_path, "test")
    _generate(tmp_path, "production", "--no-definitions")
    capsys.readouterr()

    def check(environment: str, *extra: str) -> int:
        out = tmp_path / f"gateway_{environment}.py"
        return main([*GENERATE, "--environment", environment, *extra, "--check", "--out", str(out)])

    assert check("test") == 0
    assert check("production", "--no-definitions") == 0
    # What another environment's stack owns is not this one's drift, even where the program declares it.
    with (tmp_path / "gateway_test.py").open("a") as program:
        program.write('apinizer.ApiProxyDeployment("x", project_name="Demo", api_proxy_name="PetStore", '
                      'environment_name="production")\n'
                      'apinizer.EnvironmentVariableValue("y", project_name="Demo", '
                      'variable_name="BACKEND_URL", environment_name="production", value="elsewhere")\n')
    assert check("test") == 0
    with ApinizerClient(emulator_url, token=admin_token) as client:
        live = {item.name: item for item in client.environment_variables.list("Demo")}["BACKEND_URL"]
        client.environment_variables.update("Demo", {
            "name": "BACKEND_URL", "description": live.description, "global": False,
            "environmentValueList": [
                {"environmentName": "test", "value": "https://t.example", "visible": True},
                {"environmentName": "production", "value": "https://changed.example", "visible": True},
            ],
        }, current_name="BACKEND_URL")
        client.api_proxies.undeploy("Demo", "PetStore", "test")
    capsys.readouterr()
    # production's value is production's stack's business; PetStore's deployment to test is test's.
    assert check("production", "--no-definitions") == 1
    drift = capsys.readouterr().out
    assert "~ EnvironmentVariableValue Demo/BACKEND_URL/production" in drift
    assert "value: declared 'https://p.example', gateway has 'https://changed.example'" in drift
    changes = [line for line in drift.splitlines() if line.startswith(("+", "-", "~"))]
    assert len(changes) == 1, changes
    assert changes[0].startswith("~ EnvironmentVariableValue Demo/BACKEND_URL/production")
    assert "regenerate with: apinizer-pulumi generate --project Demo --environment production" in drift
    assert check("test") == 1
    drift = capsys.readouterr().out
    assert "- API proxy Demo/PetStore deployed to test" in drift and "BACKEND_URL" not in drift


@pytest.mark.usefixtures("env", "gateway")
def test_an_unknown_environment_or_no_definitions_alone_is_refused(tmp_path: Path, capsys) -> None:
    out = tmp_path / "gateway.py"
    assert main([*GENERATE, "--environment", "prod", "--out", str(out)]) == 2
    assert ("--environment prod: project Demo has no such environment; it has production, test"
            in capsys.readouterr().err)
    assert main([*GENERATE, "--no-definitions", "--out", str(out)]) == 2
    assert "--no-definitions needs --environment" in capsys.readouterr().err
    assert not out.exists()



@pytest.mark.usefixtures("env", "gateway", "group")
def test_generate_program_writes_each_stacks_program_as_the_command_does(
    tmp_path: Path, emulator_url: str, admin_token: str
) -> None:
    from apinizer_pulumi.generate import ConnectionSettingsError, generate_program

    with ApinizerClient(emulator_url, token=admin_token) as client:
        def program(**stack: Any) -> str:
            return generate_program(client, "Demo", ["Orders", "PetStore"], with_policies=False, **stack)

        assert program(environment="test") == _generate(tmp_path, "test")
        assert program(environment="production", definitions=False) == _generate(
            tmp_path, "production", "--no-definitions")
        every = program()
        assert 'environment_name="production"' in every and 'environment_name="test"' in every
        with pytest.raises(ConnectionSettingsError) as unknown:
            program(environment="prod")
        assert str(unknown.value) == ("--environment prod: project Demo has no such environment; "
                                      "it has production, test")
        with pytest.raises(ValueError) as alone:
            program(definitions=False)
        assert str(alone.value).startswith("definitions=False needs environment")
