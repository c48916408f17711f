"""``get_environment_variables``, called from the program's process against a live emulator."""

from __future__ import annotations

from collections.abc import Iterator

import pytest

import apinizer_pulumi as apinizer
from apinizer_pulumi.client import ApinizerClient, NotFoundError, PermissionDeniedError
from apinizer_pulumi.resources._connection import close_clients


@pytest.fixture(autouse=True)
def fresh_clients(monkeypatch: pytest.MonkeyPatch) -> Iterator[None]:
    for name in ("APINIZER_URL", "APINIZER_TOKEN", "APINIZER_USERNAME", "APINIZER_PASSWORD"):
        monkeypatch.delenv(name, raising=False)
    yield
    close_clients()


def test_get_environment_variables_lists_the_project_with_secrets_masked(emulator_url: str) -> None:
    with ApinizerClient(emulator_url, token="dev-admin-token") as client:
        client.environment_variables.create(
            "Demo", {"name": "B_URL", "global": True, "globalValue": "https://b"}
        )
        client.environment_variables.create(
            "Demo", {"name": "A_KEY", "global": True, "globalValue": "hidden-value", "globalVisible": False}
        )
    connection = apinizer.ConnectionArgs(url=emulator_url, token="dev-admin-token")

    found = apinizer.get_environment_variables("Demo", connection=connection)

    assert [(v.name, v.global_value) for v in found] == [("A_KEY", None), ("B_URL", "https://b")]
    with pytest.raises(NotFoundError):
        apinizer.get_environment_variables("Nowhere", connection=connection)
    developer = apinizer.ConnectionArgs(url=emulator_url, token="dev-developer-token")
    with pytest.raises(PermissionDeniedError):  # ROLE_API_SECURITY
        apinizer.get_environment_variables("Demo", connection=developer)


def test_there_is_no_get_ip_groups() -> None:
    # The API can neither list nor read IP groups: a function would have nothing to call.
    assert not hasattr(apinizer, "get_ip_groups")
