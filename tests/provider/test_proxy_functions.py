"""The read-only functions of the API proxy family, called from the program's process."""

from __future__ import annotations

from collections.abc import Iterator

import pytest

import apinizer_pulumi as apinizer
from apinizer_pulumi.client import AuthenticationError, BadRequestError, NotFoundError
from apinizer_pulumi.resources._connection import close_clients


@pytest.fixture(autouse=True)
def fresh_clients(monkeypatch: pytest.MonkeyPatch) -> Iterator[None]:
    for name in ("APINIZER_URL", "APINIZER_TOKEN", "APINIZER_USERNAME", "APINIZER_PASSWORD"):
        monkeypatch.delenv(name, raising=False)
    yield
    close_clients()


def test_projects_environments_and_proxies(emulator_url: str) -> None:
    admin = apinizer.ConnectionArgs(url=emulator_url, token="dev-admin-token")
    developer = {"url": emulator_url, "token": "dev-developer-token"}

    assert "Demo" in {project.name for project in apinizer.get_projects(connection=admin)}
    assert {env.name for env in apinizer.get_environments(connection=admin)} == {"test", "production"}
    reachable = apinizer.get_environments("Demo", connection=developer)
    assert {env.name for env in reachable} == {"test", "production"}
    with pytest.raises(AuthenticationError):
        apinizer.get_environments(connection=developer)  # every environment: administrators only
    with pytest.raises(BadRequestError):
        apinizer.get_environments("Nowhere", connection=developer)

    names = [proxy.name for proxy in apinizer.get_api_proxies("Demo", connection=developer)]
    assert names == sorted(names) and {"PetStore", "Orders", "Calculator"} <= set(names)
    pets = apinizer.get_api_proxy("Demo", "PetStore", connection=developer)
    assert pets.name == "PetStore" and pets.client_route is not None
    with pytest.raises(NotFoundError):
        apinizer.get_api_proxy("Demo", "Nothing", connection=developer)


def test_the_api_proxies_report(emulator_url: str) -> None:
    analyst = {"url": emulator_url, "token": "dev-analyst-token"}

    plain = apinizer.get_api_proxies_report(connection=analyst)
    assert {"PetStore", "Orders"} <= {item.name for item in plain} and all(i.endpoints is None for i in plain)
    detailed = apinizer.get_api_proxies_report(include_endpoints=True, connection=analyst)
    pets = next(item for item in detailed if item.name == "PetStore")
    assert pets.endpoints and {endpoint.name for endpoint in pets.endpoints} >= {"GET /pets"}
    with pytest.raises(AuthenticationError):
        apinizer.get_api_proxies_report(connection={"url": emulator_url, "token": "dev-developer-token"})
