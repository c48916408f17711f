"""``get_api_proxy_groups``, called from the program's process, against a live emulator."""

from __future__ import annotations

from collections.abc import Iterator

import pytest

import _emulator_http as emulator_http
import apinizer_pulumi as apinizer
from apinizer_pulumi.client import ApinizerClient, NotFoundError, PermissionDeniedError
from apinizer_pulumi.resources._connection import close_clients


@pytest.fixture(autouse=True)
def fresh_clients(monkeypatch: pytest.MonkeyPatch) -> Iterator[None]:
    for name in ("APINIZER_URL", "APINIZER_TOKEN", "APINIZER_USERNAME", "APINIZER_PASSWORD"):
        monkeypatch.delenv(name, raising=False)
    yield
    close_clients()


def test_groups_with_their_environments(emulator_url: str) -> None:
    admin = apinizer.ConnectionArgs(url=emulator_url, token="dev-admin-token")
    assert apinizer.get_api_proxy_groups("Demo", connection=admin) == []
    with ApinizerClient(emulator_url, token="dev-admin-token") as client:
        for name in ("Payments", "Idle"):
            route = {"relative_path_list": [f"/{name.lower()}"]}
            client.api_proxy_groups.create("Demo", {"name": name, "description": f"{name} APIs",
                                                    "client_route": route})
        client.api_proxy_groups.add_api_proxy("Demo", "Payments", "PetStore")
        client.api_proxy_groups.deploy("Demo", "Payments", "test")
        client.api_proxy_groups.deploy("Demo", "Payments", "production")
    emulator_http.post(f"{emulator_url}/_emulator/stats/reset", json={}).raise_for_status()

    groups = apinizer.get_api_proxy_groups("Demo", connection=admin)

    assert [(g.name, g.description, g.environments) for g in groups] == [
        ("Payments", "Payments APIs", ["test", "production"]), ("Idle", "Idle APIs", [])]
    assert all(g.id for g in groups)
    # One list, one environments list per group.
    assert emulator_http.get(f"{emulator_url}/_emulator/stats").json()["total"] == 3
    bare = apinizer.get_api_proxy_groups("Demo", with_environments=False, connection=admin)
    assert [g.environments for g in bare] == [[], []]


def test_errors_are_the_clients(emulator_url: str) -> None:
    admin = {"url": emulator_url, "token": "dev-admin-token"}
    developer = {"url": emulator_url, "token": "dev-developer-token"}
    with pytest.raises(NotFoundError):
        apinizer.get_api_proxy_groups("Nowhere", connection=admin)
    with pytest.raises(PermissionDeniedError):  # the developer lacks ROLE_MANAGE_PROXY_GROUPS
        apinizer.get_api_proxy_groups("Demo", connection=developer)
