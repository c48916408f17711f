"""The read-only functions, called from the program's process."""

from __future__ import annotations

import asyncio
import contextvars
from collections.abc import Iterator

import pulumi
import pytest

import apinizer_pulumi as apinizer
from apinizer_pulumi.client import BadRequestError
from apinizer_pulumi.models import HttpMethod, SharingType
from apinizer_pulumi.resources._connection import close_clients


@pytest.fixture(autouse=True)
def fresh_clients(monkeypatch: pytest.MonkeyPatch) -> Iterator[None]:
    for name in ("APINIZER_URL", "APINIZER_TOKEN", "APINIZER_USERNAME", "APINIZER_PASSWORD"):
        monkeypatch.delenv(name, raising=False)
    yield
    close_clients()


def test_functions_with_a_connection_argument(emulator_url: str) -> None:
    connection = apinizer.ConnectionArgs(url=emulator_url, token="dev-developer-token")

    endpoints = apinizer.get_endpoints("Demo", "PetStore", connection=connection)
    assert sorted((item.http_method.value, item.endpoint) for item in endpoints) == [
        ("GET", "/pets"), ("GET", "/pets/{id}"), ("POST", "/pets")]

    one = apinizer.get_endpoint("Demo", "PetStore", "/pets", HttpMethod.GET, connection=connection)
    assert one.id == next(item.id for item in endpoints
                          if item.endpoint == "/pets" and item.http_method == "GET")

    policies = apinizer.get_endpoint_policies("Demo", "PetStore", "/pets", "GET", connection=connection)
    assert policies.request_policy_list or policies.response_policy_list or policies.error_policy_list

    with pytest.raises(BadRequestError):
        apinizer.get_endpoint("Demo", "PetStore", "/nothing", "GET", connection=connection)


def test_environment_fallback_and_the_access_report(emulator_url: str,
                                                    monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setenv("APINIZER_URL", emulator_url)
    monkeypatch.setenv("APINIZER_USERNAME", "analyst")
    monkeypatch.setenv("APINIZER_PASSWORD", "analyst")

    report = apinizer.get_organization_access_report()

    shared = {proxy.api_proxy_name: proxy.sharing_type for proxy in report.result.api_proxy_list}
    assert shared == {"PetStore": SharingType.EXTERNAL, "Calculator": SharingType.BOTH}


def test_nothing_configured_names_the_three_sources() -> None:
    with pytest.raises(apinizer.ApinizerResourceError) as failure:
        apinizer.get_endpoints("Demo", "PetStore")
    assert "APINIZER_URL" in str(failure.value) and "apinizer:url" in str(failure.value)


def test_usable_inside_apply(emulator_url: str) -> None:
    connection = {"url": emulator_url, "token": "dev-admin-token"}
    names: list[str] = []

    async def run() -> None:
        proxy = pulumi.Output.from_input("Orders")
        listed = proxy.apply(lambda name: apinizer.get_endpoints("Demo", name, connection=connection))
        names.extend(item.endpoint for item in await listed.future() or [])

    asyncio.run(run())
    assert names == ["/orders"]


def test_stack_config_wins_over_the_environment(emulator_url: str, monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setenv("APINIZER_URL", "http://127.0.0.1:9")
    monkeypatch.setenv("APINIZER_TOKEN", "not-a-token")

    def program() -> list[str]:
        # What the language host does for `pulumi config set [--secret] apinizer:...`.
        pulumi.runtime.set_all_config({"apinizer:url": emulator_url, "apinizer:token": "dev-admin-token"},
                                      ["apinizer:token"])
        return [item.endpoint for item in apinizer.get_endpoints("Demo", "Orders")]

    assert contextvars.copy_context().run(program) == ["/orders"]
