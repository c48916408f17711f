"""examples/consumers under the real ``pulumi`` CLI, through the lifecycle issue 18 names.

Create; the partner's password changed in place; one access revoked; drift made in the console (the
client, as a console user would) seen by ``refresh`` and repaired by ``up``; ``destroy``, which leaves the
gateway as the fixture had it; and no secret in clear text in ``pulumi stack export``.
"""

from __future__ import annotations

from collections.abc import Callable, Iterator
from typing import Any

import httpx
import pytest

from apinizer_pulumi.client import ApinizerClient
from examples.harness import comparable_state

from .conftest import ROOT, Project, summary

FIRST_PASSWORD = "consumers-e2e-First-9a7c"
SECOND_PASSWORD = "consumers-e2e-Second-3b1d"
PATCH_PASSWORD = "PATCH /apiops/projects/{projectName}/credentials/{username}/"


@pytest.fixture
def project(make_project: Any, emulator_url: str) -> Project:
    made: Project = make_project(ROOT / "examples" / "consumers")
    made.configure({"apinizer:url": emulator_url}, secrets={"partnerPassword": FIRST_PASSWORD})
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
        row = db.execute("SELECT password_hash FROM credentials WHERE username = 'partner-app'").fetchone()
    return bool(auth.verify_password(password, row[0]))


def state(emulator_url: str) -> dict[str, Any]:
    return comparable_state(httpx.get(f"{emulator_url}/_emulator/state", timeout=10).json())


def test_the_consumers_example_through_its_whole_life(
    project: Project,
    client: ApinizerClient,
    emulator: Any,
    emulator_url: str,
    stats: Callable[[], dict[str, int]],
) -> None:
    initial = state(emulator_url)

    up = project.up()
    assert summary(up.stdout) == {"created": 7}, up.stdout
    assert holds_password(emulator, FIRST_PASSWORD)
    assert sorted(a.name for a in client.credentials.access("Demo", "partner-app")) == ["Orders", "PetStore"]
    # A second up changing nothing is test_example_consumers.py's, after the README's up.
    exported = project.export()
    assert FIRST_PASSWORD not in exported and '"ciphertext"' in exported

    # A new password: in place, through the change-password operation alone.
    project.set_config("partnerPassword", SECOND_PASSWORD, secret=True)
    stats()
    changed = project.up()
    assert summary(changed.stdout) == {"updated": 1, "unchanged": 6}, changed.stdout
    assert stats().get(PATCH_PASSWORD) == 1
    assert holds_password(emulator, SECOND_PASSWORD) and not holds_password(emulator, FIRST_PASSWORD)
    assert SECOND_PASSWORD not in project.export()

    # One access revoked: the partner keeps PetStore only.
    project.set_config("partnerProxies", "PetStore")
    revoked = project.up()
    assert summary(revoked.stdout) == {"updated": 1, "unchanged": 6}, revoked.stdout
    assert [a.name for a in client.credentials.access("Demo", "partner-app")] == ["PetStore"]

    # Drift from the console: the variable edited; refresh sees it and up writes the declaration back.
    client.environment_variables.update(
        "Demo", {"name": "PARTNER_BACKEND_URL", "global": True, "globalValue": "https://edited.example"}
    )
    refreshed = project.refresh()
    assert summary(refreshed.stdout).get("updated", 0) == 1, refreshed.stdout
    repaired = project.up()
    assert summary(repaired.stdout) == {"updated": 1, "unchanged": 6}, repaired.stdout
    (variable,) = [v for v in client.environment_variables.list("Demo") if v.name == "PARTNER_BACKEND_URL"]
    assert variable.global_value == "https://sandbox.partner.example/api"

    destroyed = project.destroy("--skip-preview")
    assert summary(destroyed.stdout) == {"deleted": 7}, destroyed.stdout
    assert state(emulator_url) == initial
