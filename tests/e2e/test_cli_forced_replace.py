"""Replaces under the real engine: create first, and ``pulumi up --replace`` of the same gateway object.

A replace caused by a changed identifier names another gateway object, and the providers' diff asks
for the new one to be created first: a create that fails leaves the old object running and the stack
as it was. For a targeted replace the engine asks no provider's Diff and, without the resource option
``delete_before_replace``, creates first too; the old and the new resource then name the same gateway
object (``resources/_replace.py``): settings are written in place and left alone by the old resource's
delete; an endpoint fails cleanly with "already exists", unless it has ``adopt=True`` (taken over in
place). With ``delete_before_replace=True`` the engine deletes first and the endpoint is made again.
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

config = pulumi.Config()
delete_first = config.get_bool("deleteFirst") or False
endpoint = apinizer.Endpoint(
    "toys",
    project_name="Demo",
    api_proxy_name=config.get("proxy") or "PetStore",
    name="/toys",
    http_method="GET",
    backend_resource_url="/toys",
    backend_http_method="GET",
    adopt=config.get_bool("adopt"),
    opts=pulumi.ResourceOptions(delete_before_replace=True) if delete_first else None,
)
apinizer.EndpointCache(
    "toys-cache",
    project_name="Demo",
    api_proxy_name=endpoint.api_proxy_name,
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


def replace_steps(project: Project, *extra: str) -> list[str]:
    """The operations that ``pulumi preview --json`` plans for the endpoint, in their order."""
    steps = project.preview("--json", "--show-replacement-steps", *extra).json()["steps"]
    return [step["op"] for step in steps if step["urn"] == urn(project, "Endpoint", "toys")]


def test_a_replace_whose_create_fails_leaves_the_old_endpoint_and_the_stack_as_they_were(
    toys: Project, emulator_url: str
) -> None:
    toys.up()
    [before] = toys_on_gateway(emulator_url)
    toys.set_config("proxy", "NoSuchProxy")

    order = replace_steps(toys)
    failed = toys.up(check=False)

    # The preview shows the order: the replacement is created first, the old one deleted after.
    assert order == ["create-replacement", "replace", "delete-replaced"], order
    assert failed.returncode != 0, failed.stdout
    assert toys_on_gateway(emulator_url) == [before]
    # The stack still records the old endpoint: refresh finds it, and `up` back to the old proxy is a no-op.
    toys.refresh()
    assert toys.outputs()["id"] == before["id"]
    toys.set_config("proxy", "PetStore")
    assert toys.preview("--expect-no-changes").returncode == 0
    toys.up("--expect-no-changes")
    assert toys_on_gateway(emulator_url) == [before]


def test_a_replace_by_identity_creates_the_new_endpoint_before_deleting_the_old(
    toys: Project, emulator_url: str
) -> None:
    toys.up()
    toys.set_config("proxy", "Orders")

    replaced = toys.up()

    assert "replaced" in replaced.stdout, replaced.stdout
    [moved] = toys_on_gateway(emulator_url)
    assert toys.outputs()["id"] == moved["id"]
    assert moved["cacheSettings"]["cacheActive"] is True and moved["cacheSettings"]["ttl"] == 77


def test_a_targeted_replace_of_an_endpoint_fails_cleanly_and_says_what_to_set(
    toys: Project, emulator_url: str
) -> None:
    toys.up()
    before = toys_on_gateway(emulator_url)
    assert replace_steps(toys, "--replace", urn(toys, "Endpoint", "toys")) == [
        "create-replacement", "replace", "delete-replaced"
    ]

    failed = toys.up("--replace", urn(toys, "Endpoint", "toys"), check=False)

    assert failed.returncode != 0, failed.stdout
    assert "already exists on the gateway" in failed.stdout and "set adopt=True" in failed.stdout
    assert "delete_before_replace=True" in failed.stdout
    assert toys_on_gateway(emulator_url) == before
    assert toys.preview("--expect-no-changes", check=False).returncode == 0


def test_a_targeted_replace_of_an_adopting_endpoint_replaces_it_in_place(
    toys: Project, emulator_url: str
) -> None:
    toys.set_config("adopt", "true")
    toys.up()
    [first] = toys_on_gateway(emulator_url)

    replaced = toys.up("--replace", urn(toys, "Endpoint", "toys"))

    assert "replaced" in replaced.stdout, replaced.stdout
    # Taken over by the create, left alone by the old resource's delete.
    [second] = toys_on_gateway(emulator_url)
    assert second["id"] == first["id"] and toys.outputs()["id"] == second["id"]
    assert second["cacheSettings"]["cacheActive"] is True and second["cacheSettings"]["ttl"] == 77


def test_a_targeted_replace_with_delete_before_replace_makes_the_endpoint_again(
    toys: Project, emulator_url: str
) -> None:
    toys.set_config("deleteFirst", "true")
    toys.up()
    [first] = toys_on_gateway(emulator_url)
    assert replace_steps(toys, "--replace", urn(toys, "Endpoint", "toys")) == [
        "delete-replaced", "replace", "create-replacement"
    ]

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
