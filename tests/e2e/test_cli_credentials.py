"""A credential's whole life under the real ``pulumi`` CLI: create with access to two proxies, a
password changed in place, one access revoked, drift made in the console seen by refresh and
repaired by up, destroy; and the password never in clear text in ``pulumi stack export``.
"""

from __future__ import annotations

import json
from collections.abc import Callable, Iterator
from pathlib import Path
from typing import Any

import httpx
import pytest

from apinizer_pulumi.client import ApinizerClient

from .conftest import Project, program_source, summary

CREDENTIAL_TYPE = "pulumi-python:dynamic/apinizer:Credential"
CREDENTIALS = "/apiops/projects/{projectName}/credentials/"
PATCH = f"PATCH {CREDENTIALS}{{username}}/"
PUT = f"PUT {CREDENTIALS}"
ACCESS = f"{CREDENTIALS}{{username}}/access/"
FIRST_PASSWORD = "first-Pa55word-e2e"
SECOND_PASSWORD = "second-Pa55word-e2e"

PROGRAM = """
import pulumi

import apinizer_pulumi as apinizer

config = pulumi.Config()
partner = apinizer.Credential(
    "partner",
    project_name="Demo",
    username="partner-e2e",
    password=config.require_secret("partnerPassword"),
    email="partner@example.com",
    full_name="Partner Inc.",
    ip_list=["10.0.0.0/8"],
    access=[apinizer.CredentialAccessArgs(name=name, type="API_PROXY")
            for name in config.require("proxies").split(",")],
)
pulumi.export("access", partner.access.apply(lambda items: [item["name"] for item in items]))
pulumi.export("password", partner.password)
"""


@pytest.fixture
def project(make_project: Any, emulator_url: str, admin_token: str, tmp_path: Path) -> Project:
    source = program_source(tmp_path / "source", "credential-life", PROGRAM)
    made: Project = make_project(source, name="credential-life")
    made.configure(
        {"apinizer:url": emulator_url, "proxies": "PetStore,Orders"},
        secrets={"apinizer:token": admin_token, "partnerPassword": FIRST_PASSWORD},
    )
    return made


@pytest.fixture
def client(emulator_url: str, admin_token: str) -> Iterator[ApinizerClient]:
    with ApinizerClient(emulator_url, token=admin_token) as api:
        yield api


@pytest.fixture
def stats(emulator_url: str) -> Callable[[], dict[str, int]]:
    def take() -> dict[str, int]:
        counts: dict[str, int] = httpx.get(f"{emulator_url}/_emulator/stats", timeout=10).json()["requests"]
        httpx.post(f"{emulator_url}/_emulator/stats/reset", json={}, timeout=10).raise_for_status()
        return counts

    return take


def holds_password(emulator: Any, password: str) -> bool:
    from apinizer_emulator import auth

    with emulator.backend.store.read() as db:
        row = db.execute("SELECT password_hash FROM credentials WHERE username = 'partner-e2e'").fetchone()
    return bool(auth.verify_password(password, row[0]))


def granted(client: ApinizerClient) -> list[str]:
    return sorted(item.name for item in client.credentials.access("Demo", "partner-e2e"))


def recorded(exported: str) -> dict[str, Any]:
    """The credential's resource in a ``pulumi stack export``."""
    resources = json.loads(exported)["deployment"]["resources"]
    (found,) = [r for r in resources if r["type"] == CREDENTIAL_TYPE]
    return dict(found)


def test_a_credential_through_its_whole_life(
    project: Project, client: ApinizerClient, emulator: Any, stats: Callable[[], dict[str, int]]
) -> None:
    # Create, with access to two proxies.
    up = project.up()
    assert summary(up.stdout) == {"created": 2}, up.stdout
    [live] = client.credentials.list("Demo")
    assert (live.username, live.email, live.ip_list) == ("partner-e2e", "partner@example.com", ["10.0.0.0/8"])
    assert granted(client) == ["Orders", "PetStore"]
    assert holds_password(emulator, FIRST_PASSWORD)
    # No `up --expect-no-changes` here: that a new credential's recorded outputs are no diff is
    # tests/provider/test_credential.py's (create, then diff); this test's last up checks it under the CLI.
    outputs = project.outputs()
    assert outputs["access"] == ["Orders", "PetStore"]
    assert outputs["password"] == "[secret]"

    # The secret is in no file of the state in clear text, and not in the CLI's output.
    exported = project.export()
    assert FIRST_PASSWORD not in exported and FIRST_PASSWORD not in up.output
    state = recorded(exported)
    secret_sig = {"4dabf18193072939515e22adb298388d": "1b47061264138c4ac30d75fd1eb44270"}
    for where in ("inputs", "outputs"):
        assert secret_sig.items() <= state[where]["password"].items()

    # A new password: changed in place, through the change-password operation alone.
    stats()
    project.set_config("partnerPassword", SECOND_PASSWORD, secret=True)
    changed = project.up()
    assert summary(changed.stdout) == {"updated": 1, "unchanged": 1}, changed.stdout
    assert stats() == {PATCH: 1}
    assert holds_password(emulator, SECOND_PASSWORD) and not holds_password(emulator, FIRST_PASSWORD)
    exported = project.export()
    assert SECOND_PASSWORD not in exported and FIRST_PASSWORD not in exported

    # Revoke one access: the other stays.
    project.set_config("proxies", "PetStore")
    revoked = project.up()
    assert summary(revoked.stdout) == {"updated": 1, "unchanged": 1}, revoked.stdout
    assert granted(client) == ["PetStore"]
    counts = stats()
    assert counts.get(f"DELETE {ACCESS}") == 1 and f"PUT {ACCESS}" not in counts, counts

    # Drift from the console: disabled, and the declared access revoked; an undeclared grant added.
    client.credentials.update("Demo", {"email": "partner@example.com", "full_name": "Partner Inc.",
                                       "username": "partner-e2e", "password": SECOND_PASSWORD,
                                       "enabled": False, "ip_list": ["10.0.0.0/8"]})
    client.credentials.revoke_access("Demo", "partner-e2e", [{"name": "PetStore", "type": "API_PROXY"}])
    client.credentials.grant_access("Demo", "partner-e2e", [{"name": "Orders", "type": "API_PROXY"}])
    refreshed = project.refresh()
    assert summary(refreshed.stdout).get("updated") == 1, refreshed.stdout
    outputs = recorded(project.export())["outputs"]
    assert outputs["enabled"] is False and outputs["access"] == []
    preview = project.preview("--diff")
    assert summary(preview.stdout) == {"to update": 1, "unchanged": 1}, preview.stdout
    assert "enabled       : false => true" in preview.stdout and SECOND_PASSWORD not in preview.output
    repaired = project.up()
    assert summary(repaired.stdout) == {"updated": 1, "unchanged": 1}, repaired.stdout
    [live] = client.credentials.list("Demo")
    assert live.enabled is True
    # The declared access is back; the grant the program never declared is left alone.
    assert granted(client) == ["Orders", "PetStore"]
    assert summary(project.up("--expect-no-changes").stdout) == {"unchanged": 2}

    # Destroy: the credential goes, with every access it had.
    stats()
    destroyed = project.destroy("--skip-preview")
    assert summary(destroyed.stdout) == {"deleted": 2}, destroyed.stdout
    assert client.credentials.list("Demo") == []
    writes = {key: count for key, count in stats().items() if not key.startswith("GET ")}
    assert writes == {f"DELETE {CREDENTIALS}{{username}}/": 1}
    assert SECOND_PASSWORD not in destroyed.output
