"""Connections of every type that has a secret field, under the real ``pulumi`` CLI: no secret in clear
text in ``pulumi stack export``, in ``pulumi preview --diff``, in the CLI's output and logs
(``--logtostderr -v=7`` included; at ``-v=9`` the engine itself logs every property it marshals, secrets
and the config's token in clear text, whatever the provider) or in the emulator's ``/_emulator/state``;
a refresh that the list's masking does not turn into drift; destroy.

Each type's settings are its page's first example the model takes (tests/_documented_connections.py),
every secret field given a value of the stack config's secrets, which appear nowhere else.
"""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any

import httpx
import pytest

from apinizer_pulumi.models import CONNECTION_TYPES

from .conftest import Project, program_source, summary

CONNECTION_TYPE = "pulumi-python:dynamic/apinizer:Connection"
SECRET_SIGNATURE = "4dabf18193072939515e22adb298388d"
#: Strings in the settings of the JSON config that the program replaces by ``config.require_secret``.
MARKER = "@secret:"

PROGRAM = """
import json

import pulumi

import apinizer_pulumi as apinizer

config = pulumi.Config()


def secrets_in(value):
    # "@secret:<key>" strings become the stack's secret <key>, wherever they are nested.
    if isinstance(value, str) and value.startswith("@secret:"):
        return config.require_secret(value.removeprefix("@secret:"))
    if isinstance(value, dict):
        return {key: secrets_in(item) for key, item in value.items()}
    if isinstance(value, list):
        return [secrets_in(item) for item in value]
    return value


for name, settings in json.loads(config.require("connections")).items():
    apinizer.Connection(name, project_name="Demo", name=name, settings=secrets_in(settings))
"""


def secret_types() -> list[str]:
    return sorted(name for name, model in CONNECTION_TYPES.items() if model.secret_fields())


def declarations() -> tuple[dict[str, dict[str, Any]], dict[str, str]]:
    """{connection name: settings with markers} and {config key: secret value}."""
    from _documented_connections import TYPE_PAGES_DIR, connection_bodies
    from apinizer_pulumi.models import parse_connection
    from apinizer_pulumi.resources.connection import settings_of

    found: dict[str, dict[str, Any]] = {}
    for page, _, body in connection_bodies():
        try:
            model = parse_connection(body)
        except ValueError:
            continue
        if page.startswith(TYPE_PAGES_DIR) and model.type in secret_types() and model.type not in found:
            found[model.type] = {"type": model.type, **settings_of(model)}
    secrets: dict[str, str] = {}
    connections: dict[str, dict[str, Any]] = {}
    for connection_type, settings in sorted(found.items()):
        name = f"e2e-{connection_type.lower()}"
        for path in CONNECTION_TYPES[connection_type].secret_fields():
            mark(settings, path.split("."), name, secrets)
        connections[name] = settings
    assert sorted(found) == secret_types(), "a type with secret fields has no documented example"
    return connections, secrets


def mark(holder: Any, parts: list[str], name: str, secrets: dict[str, str]) -> None:
    """Give the secret field at ``parts`` a value of its own, as a marker the program reads."""
    if isinstance(holder, list):
        for item in holder:
            mark(item, parts, name, secrets)
        return
    if not isinstance(holder, dict):
        return
    if len(parts) > 1:
        mark(holder.get(parts[0]), parts[1:], name, secrets)
        return
    key = f"{name}-{parts[0].replace('_', '-')}-{len(secrets)}"
    secrets[key] = f"E2e-Secret-{len(secrets)}-Zq7"
    holder[parts[0]] = MARKER + key


@pytest.fixture
def declared() -> tuple[dict[str, dict[str, Any]], dict[str, str]]:
    return declarations()


@pytest.fixture
def project(make_project: Any, emulator_url: str, admin_token: str, tmp_path: Path,
            declared: tuple[dict[str, dict[str, Any]], dict[str, str]]) -> Project:
    connections, secrets = declared
    made: Project = make_project(program_source(tmp_path / "source", "connection-secrets", PROGRAM),
                                 name="connection-secrets")
    made.configure({"apinizer:url": emulator_url, "connections": json.dumps(connections)},
                   secrets={"apinizer:token": admin_token, **secrets})
    return made


def leaked(text: str, secrets: dict[str, str]) -> list[str]:
    return [value for value in secrets.values() if value in text]


def test_every_types_secret_fields_stay_secret_under_the_cli(
    project: Project, declared: tuple[dict[str, dict[str, Any]], dict[str, str]], emulator_url: str
) -> None:
    connections, secrets = declared
    up = project.up()
    assert summary(up.stdout) == {"created": len(connections) + 1}, up.stdout
    assert leaked(up.output, secrets) == []

    exported = project.export()
    assert leaked(exported, secrets) == []
    resources = [r for r in json.loads(exported)["deployment"]["resources"] if r["type"] == CONNECTION_TYPE]
    assert len(resources) == len(connections)
    for resource in resources:
        for where in ("inputs", "outputs"):
            assert resource[where]["settings"][SECRET_SIGNATURE], (resource["urn"], where)
    state = httpx.get(f"{emulator_url}/_emulator/state", timeout=10).text
    assert leaked(state, secrets) == []

    # A rotated secret: an in-place update whose diff shows [secret], never either value.
    first_key = next(iter(secrets))
    project.set_config(first_key, "E2e-Rotated-Secret-Zq7", secret=True)
    diff = project.preview("--diff", "--logtostderr", "-v=7")
    assert "[secret]" in diff.stdout and summary(diff.stdout).get("to update") == 1, diff.stdout
    assert leaked(diff.output, {**secrets, "rotated": "E2e-Rotated-Secret-Zq7"}) == []
    project.up()

    # Refresh: the list masks every secret, which is no drift.
    refreshed = project.refresh("--skip-preview", "--logtostderr", "-v=7")
    assert summary(refreshed.stdout).get("unchanged") == len(connections) + 1, refreshed.stdout
    assert leaked(refreshed.output, {**secrets, "rotated": "E2e-Rotated-Secret-Zq7"}) == []

    destroyed = project.destroy("--skip-preview")
    assert summary(destroyed.stdout) == {"deleted": len(connections) + 1}, destroyed.stdout
    projects = httpx.get(f"{emulator_url}/_emulator/state", timeout=10).json()["projects"]
    assert [p["connections"] for p in projects if p["name"] == "Demo"] == [[]]
