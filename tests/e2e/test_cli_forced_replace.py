"""Replaces under the real engine: create first, and ``pulumi up --replace`` of the same gateway object.

A replace caused by a changed identifier names another gateway object, and the providers' diff asks
for the new one to be created first: a create that fails leaves the old object running and the stack
as it was. For a targeted replace the engine asks no provider's Diff and, without the resource option
``delete_before_replace``, creates first too; the old and the new resource then name the same gateway
object (``resources/_replace.py``): settings are written in place and left alone by the old resource's
delete; an endpoint fails cleanly with "already exists", unless it has ``adopt=True`` (taken over in
place). With ``delete_before_replace=True`` the engine deletes first and the endpoint is made again.

The tests that start from the program's defaults share one stack, up once on an emulator of the module's
own (``shared_toys``), and run in the file's order: each leaves the stack as it found it, but the last.
"""

from __future__ import annotations

from collections.abc import Iterator
from pathlib import Path
from typing import Any

import httpx
import pytest

from apinizer_emulator.testing import EmulatorServer

from .conftest import Project, PulumiCli, new_project, program_source

#: A token of the emulator's default fixture.
ADMIN_TOKEN = "dev-admin-token"

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
    """The program on a stack of its own, not yet up, on the session emulator (reset)."""
    project: Project = make_project(program_source(tmp_path / "source", "toys", PROGRAM), name="toys")
    project.configure({"apinizer:url": emulator_url}, secrets={"apinizer:token": admin_token})
    return project


@pytest.fixture(scope="module")
def shared_gateway(tmp_path_factory: pytest.TempPathFactory) -> Iterator[str]:
    """An emulator of this module's own: the session one is reset before every test that asks for it."""
    with EmulatorServer(db=tmp_path_factory.mktemp("toys-gateway") / "emulator.db") as server:
        yield server.base_url


@pytest.fixture(scope="module")
def shared_toys(
    pulumi_cli: PulumiCli, tmp_path_factory: pytest.TempPathFactory, shared_gateway: str
) -> Project:
    """The program with its defaults, up once for the tests below that start from it.

    Each of them reads the gateway at its start and leaves the stack as it found it, but the last, which
    replaces the endpoint by identity, so that the CLI's start, the stack's init and its first `up` are
    paid once, not per test.
    """
    folder = tmp_path_factory.mktemp("toys")
    project = new_project(pulumi_cli, program_source(folder / "source", "toys", PROGRAM), folder, "toys")
    project.configure({"apinizer:url": shared_gateway}, secrets={"apinizer:token": ADMIN_TOKEN})
    project.up()
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


# The tests below share one stack, up once (shared_toys); the last one changes it.


def test_a_targeted_replace_of_settings_leaves_them_set(shared_toys: Project, shared_gateway: str) -> None:
    toys = shared_toys
    [first] = toys_on_gateway(shared_gateway)

    toys.up("--replace", urn(toys, "EndpointCache", "toys-cache"))

    [second] = toys_on_gateway(shared_gateway)
    assert second["id"] == first["id"]
    assert second["cacheSettings"]["cacheActive"] is True and second["cacheSettings"]["ttl"] == 77


def test_a_targeted_replace_of_an_endpoint_fails_cleanly_and_says_what_to_set(
    shared_toys: Project, shared_gateway: str
) -> None:
    toys = shared_toys
    before = toys_on_gateway(shared_gateway)
    assert replace_steps(toys, "--replace", urn(toys, "Endpoint", "toys")) == [
        "create-replacement", "replace", "delete-replaced"
    ]

    failed = toys.up("--replace", urn(toys, "Endpoint", "toys"), check=False)

    assert failed.returncode != 0, failed.stdout
    assert "already exists on the gateway" in failed.stdout and "set adopt=True" in failed.stdout
    assert "delete_before_replace=True" in failed.stdout
    assert toys_on_gateway(shared_gateway) == before
    assert toys.preview("--expect-no-changes", check=False).returncode == 0


def test_a_replace_whose_create_fails_leaves_the_old_endpoint_and_the_stack_as_they_were(
    shared_toys: Project, shared_gateway: str
) -> None:
    toys = shared_toys
    [before] = toys_on_gateway(shared_gateway)
    toys.set_config("proxy", "NoSuchProxy")

    order = replace_steps(toys)
    failed = toys.up(check=False)

    # The preview shows the order: the replacement is created first, the old one deleted after.
    assert order == ["create-replacement", "replace", "delete-replaced"], order
    assert failed.returncode != 0, failed.stdout
    assert toys_on_gateway(shared_gateway) == [before]
    # The stack still records the old endpoint: refresh finds it, and `up` back to the old proxy is a no-op.
    toys.refresh()
    assert toys.outputs()["id"] == before["id"]
    toys.set_config("proxy", "PetStore")
    assert toys.preview("--expect-no-changes").returncode == 0
    toys.up("--expect-no-changes")
    assert toys_on_gateway(shared_gateway) == [before]


def test_a_replace_by_identity_creates_the_new_endpoint_before_deleting_the_old(
    shared_toys: Project, shared_gateway: str
) -> None:
    toys = shared_toys
    toys.set_config("proxy", "Orders")

    replaced = toys.up()

    assert "replaced" in replaced.stdout, replaced.stdout
    [moved] = toys_on_gateway(shared_gateway)
    assert toys.outputs()["id"] == moved["id"]
    assert moved["cacheSettings"]["cacheActive"] is True and moved["cacheSettings"]["ttl"] == 77
