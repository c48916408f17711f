"""``pulumi up --replace`` under the real engine.

For a targeted replace the engine does not ask the provider's Diff; only the resource option
``delete_before_replace`` decides, and Pulumi's own default is create-before-delete. The gateway names
an endpoint by its name and method and settings by their endpoint, so the old and the new resource of
a forced replace are the same gateway object. Every resource here therefore defaults the option to
true: the endpoint is deleted and created again (a new gateway id) and its cache written again, and a
replace of the cache alone leaves it set. A program that turns the option off gets Pulumi's order: the
endpoint's replace then fails with the adopt message and changes nothing.
"""

from __future__ import annotations

from pathlib import Path
from typing import Any

import httpx
import pytest

from .conftest import Project, program_source

PROGRAM = """
import pulumi

import apinizer_pulumi as apinizer

create_first = pulumi.Config().get_bool("createFirst") or False
endpoint = apinizer.Endpoint(
    "toys",
    project_name="Demo",
    api_proxy_name="PetStore",
    name="/toys",
    http_method="GET",
    backend_resource_url="/toys",
    backend_http_method="GET",
    opts=pulumi.ResourceOptions(delete_before_replace=False) if create_first else None,
)
apinizer.EndpointCache(
    "toys-cache",
    project_name="Demo",
    api_proxy_name="PetStore",
    endpoint_name=endpoint.name,
    endpoint_http_method=endpoint.http_method,
    cache_settings=apinizer.CacheSettingsArgs(name="toys", cache_active=True, ttl=77, handling_action="STOP"),
)
pulumi.export("id", endpoint.endpoint_id)
"""


@pytest.fixture
def toys(make_project: Any, tmp_path: Path, emulator_url: str, admin_token: str) -> Project:
    project: Project = make_project(program_source(tmp_path / "source", "toys", PROGRAM), name="toys")
    project.set_config("apinizer:url", emulator_url)
    project.set_config("apinizer:token", admin_token, secret=True)
    return project


def toys_on_gateway(emulator_url: str) -> list[dict[str, Any]]:
    state = httpx.get(f"{emulator_url}/_emulator/state", timeout=10).json()
    return [
        endpoint
        for proxy in state["projects"][0]["apiProxies"]
        for endpoint in proxy["endpoints"]
        if endpoint["endpoint"] == "/toys"
    ]


def urn(project: Project, kind: str, name: str) -> str:
    return f"urn:pulumi:{project.stack}::toys::pulumi-python:dynamic/apinizer:{kind}::{name}"


def test_a_targeted_replace_fails_cleanly_without_delete_before_replace(
    toys: Project, emulator_url: str
) -> None:
    toys.set_config("createFirst", "true")
    toys.up()
    before = toys_on_gateway(emulator_url)

    failed = toys.up("--replace", urn(toys, "Endpoint", "toys"), check=False)

    assert failed.returncode != 0, failed.stdout
    assert "already exists on the gateway" in failed.stdout and "set adopt=True" in failed.stdout
    assert toys_on_gateway(emulator_url) == before


def test_a_targeted_replace_of_an_endpoint_deletes_then_creates_it(toys: Project, emulator_url: str) -> None:
    toys.up()
    [first] = toys_on_gateway(emulator_url)

    replaced = toys.up("--replace", urn(toys, "Endpoint", "toys"))

    assert "replaced" in replaced.stdout, replaced.stdout
    [second] = toys_on_gateway(emulator_url)
    assert second["id"] != first["id"] and toys.outputs()["id"] == second["id"]
    # The cache named the endpoint through its outputs, so it was replaced with it and is set again.
    assert second["cacheSettings"]["cacheActive"] is True and second["cacheSettings"]["ttl"] == 77


def test_a_targeted_replace_of_settings_leaves_them_set(toys: Project, emulator_url: str) -> None:
    toys.up()
    [first] = toys_on_gateway(emulator_url)

    toys.up("--replace", urn(toys, "EndpointCache", "toys-cache"))

    [second] = toys_on_gateway(emulator_url)
    assert second["id"] == first["id"]
    assert second["cacheSettings"]["cacheActive"] is True and second["cacheSettings"]["ttl"] == 77
