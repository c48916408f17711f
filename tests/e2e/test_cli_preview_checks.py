"""What `pulumi preview` catches under the real CLI before anything is written: one line each, no traceback.

Two resources that manage one gateway object, a connection that the gateway refuses, and an import
(`pulumi import`, or the import_ resource option) of a dynamic resource, which cannot work.
"""

from __future__ import annotations

import re
import textwrap
from pathlib import Path
from typing import Any

import httpx
import pytest

from examples.harness import comparable_state

from .conftest import Project, program_source
from .test_cli_errors import ENDPOINT, TRACEBACK_MARKS, diagnostics

LIST = "GET /apiops/projects/{projectName}/apiProxies/{apiProxyName}/endpoints/"


def project_of(make_project: Any, tmp_path: Path, emulator_url: str, token: str, program: str) -> Project:
    source = program_source(tmp_path / "source", "checks", textwrap.dedent(program))
    project: Project = make_project(source, name="checks")
    project.configure({"apinizer:url": emulator_url}, secrets={"apinizer:token": token})
    return project


@pytest.fixture
def state_of(emulator_url: str) -> Any:
    return lambda: comparable_state(httpx.get(f"{emulator_url}/_emulator/state", timeout=10).json())


def stats(emulator_url: str) -> dict[str, int]:
    counted: dict[str, int] = httpx.get(f"{emulator_url}/_emulator/stats", timeout=10).json()["requests"]
    return {key: count for key, count in counted.items() if count}


def assert_no_traceback(output: str) -> None:
    for mark in TRACEBACK_MARKS:
        assert mark not in output, f"{mark!r} in the CLI's output:\n{output}"


def test_preview_fails_naming_both_resources_that_manage_one_endpoint(
    make_project: Any, tmp_path: Path, emulator_url: str, admin_token: str, state_of: Any
) -> None:
    project = project_of(make_project, tmp_path, emulator_url, admin_token, """
        import apinizer_pulumi as apinizer

        for resource_name in ("status", "status-again"):
            apinizer.Endpoint(
                resource_name, project_name="Demo", api_proxy_name="Orders", name="/orders/{orderId}/status",
                http_method="GET", backend_resource_url="/status", backend_http_method="GET", adopt=True,
            )
    """)
    initial = state_of()

    result = project.preview(check=False)

    assert result.returncode != 0, result.output
    assert_no_traceback(result.output)
    # The engine checks both at once: whichever comes second fails, naming itself and the other.
    blocks = {name: lines for name, lines in diagnostics(result.stdout).items() if name.startswith(ENDPOINT)}
    assert len(blocks) == 1, result.stdout
    (name, lines), = blocks.items()
    second = name.split(" (")[1].rstrip(")")
    first = ({"status", "status-again"} - {second}).pop()
    assert len(lines) == 1, lines
    assert re.fullmatch(re.escape(
        f"error: pulumi-python:dynamic/apinizer:Endpoint resource '{second}' has a problem: apinizer: "
        f"Endpoint '{second}' and Endpoint '{first}' manage the same gateway object (project_name 'Demo', "
        "api_proxy_name 'Orders', name '/orders/{orderId}/status', http_method 'GET'): "
    ) + ".*adopt=True does not help.*", lines[0]), lines[0]
    assert state_of() == initial


def test_preview_with_a_wrong_token_fails_with_one_line(
    make_project: Any, tmp_path: Path, emulator_url: str, state_of: Any
) -> None:
    project = project_of(make_project, tmp_path, emulator_url, "not-a-valid-token", """
        import apinizer_pulumi as apinizer

        for index in range(3):
            apinizer.Endpoint(
                f"e{index}", project_name="Demo", api_proxy_name="Orders", name=f"/checked/{index}",
                http_method="GET", backend_resource_url="/b", backend_http_method="GET",
            )
    """)
    initial = state_of()
    httpx.post(f"{emulator_url}/_emulator/stats/reset", json={}, timeout=10).raise_for_status()

    result = project.preview(check=False)

    assert result.returncode != 0, result.output
    assert_no_traceback(result.output)
    assert "not-a-valid-token" not in result.output
    expected = ("has a problem: apinizer: the gateway at " + emulator_url + " refused apinizer:token (401 on "
                "the token): check the credentials, or which gateway the URL names")
    blocks = {name: lines for name, lines in diagnostics(result.stdout).items() if name.startswith(ENDPOINT)}
    assert blocks, result.stdout
    for name, lines in blocks.items():
        resource = name.split(" (")[1].rstrip(")")
        assert lines == [f"error: {ENDPOINT} resource '{resource}' {expected}"], lines
    # One request proved the token wrong, for every resource of the provider process.
    assert stats(emulator_url) == {LIST: 1}
    assert state_of() == initial

    # The documented switch previews without the check (and so without a request).
    project.set_config("apinizer:skipConnectionCheck", "true")
    httpx.post(f"{emulator_url}/_emulator/stats/reset", json={}, timeout=10).raise_for_status()
    project.preview()
    assert stats(emulator_url) == {}


IMPORT_ADVICE = ("Declare the resource with adopt=True to take over what the gateway has (the settings and "
                 "RLCL-list resources take it over by nature), or write the program for it with "
                 "`apinizer-pulumi generate`")


def test_pulumi_import_says_in_one_line_what_to_use(
    make_project: Any, tmp_path: Path, emulator_url: str, admin_token: str, state_of: Any
) -> None:
    project = project_of(make_project, tmp_path, emulator_url, admin_token, """
        import apinizer_pulumi as apinizer
    """)
    initial = state_of()

    result = project.run("import", "--yes", "--stack", project.stack, f"{ENDPOINT}", "pets",
                         "Demo/PetStore/GET//pets", check=False)

    assert result.returncode != 0, result.output
    assert "Traceback" not in result.output and "KeyError" not in result.output, result.output
    message = ("apinizer: dynamic resources cannot be imported: the engine reads them with neither inputs "
               f"nor state, so the provider is unknown (pulumi/pulumi#16175). {IMPORT_ADVICE}")
    # The engine prefixes it ("Preview failed: "), under the resource and again under the stack.
    assert diagnostics(result.stdout)[f"{ENDPOINT} (pets)"] == [f"error: Preview failed: {message}"]
    assert diagnostics(result.stdout)["pulumi:pulumi:Stack (checks-dev)"] == [
        f"error: preview failed: step application failed: {message}"]
    assert state_of() == initial


def test_the_import_option_is_refused_in_one_line(
    make_project: Any, tmp_path: Path, emulator_url: str, admin_token: str, state_of: Any
) -> None:
    project = project_of(make_project, tmp_path, emulator_url, admin_token, """
        import pulumi
        import apinizer_pulumi as apinizer

        apinizer.Endpoint(
            "pets", project_name="Demo", api_proxy_name="PetStore", name="/pets", http_method="GET",
            backend_resource_url="/pets", backend_http_method="GET",
            opts=pulumi.ResourceOptions(import_="Demo/PetStore/GET//pets"),
        )
    """)
    initial = state_of()

    result = project.preview(check=False)

    assert result.returncode != 0, result.output
    assert "Traceback" not in result.output and "KeyError" not in result.output, result.output
    stack_lines = diagnostics(result.stdout).get("pulumi:pulumi:Stack (checks-dev)")
    assert stack_lines is not None, result.stdout
    assert stack_lines[0] == (
        "error: apinizer: cannot import 'Demo/PetStore/GET//pets' (the import_ resource option): dynamic "
        "resources cannot be imported: the engine reads them with neither inputs nor state, so the provider "
        f"is unknown (pulumi/pulumi#16175). {IMPORT_ADVICE}"), stack_lines
    assert state_of() == initial


def test_preview_warns_of_a_declared_proxy_named_by_a_literal(
    make_project: Any, tmp_path: Path, emulator_url: str, admin_token: str
) -> None:
    """A deployment, a policy or a group member that names a proxy the program declares by a literal,
    not by the proxy's output, leaves the engine unable to order them: preview warns, naming both."""
    project = project_of(make_project, tmp_path, emulator_url, admin_token, """
        import apinizer_pulumi as apinizer

        apinizer.ApiProxyDeployment("orders-test", project_name="Demo", api_proxy_name="Orders",
                                    environment_name="test")
        orders = apinizer.ApiProxy("orders", project_name="Demo", name="Orders", adopt=True)
        apinizer.ApiProxyDeployment("orders-prod", project_name="Demo", api_proxy_name=orders.name,
                                    environment_name="production")
        apinizer.Policy("office", project_name="Demo", api_proxy_name="Orders", name="office",
                        pipeline="REQUEST", settings=apinizer.policies.WhiteIp(ip_list=["10.0.0.0/8"]))
        apinizer.ApiProxyGroup("shop", project_name="Demo", name="Shop",
                               client_route={"relative_paths": ["/shop"]},
                               api_proxy_names=["Orders", "PetStore"])
    """)

    result = project.preview(check=False)

    assert_no_traceback(result.output)
    warnings = [line.strip() for line in result.stdout.splitlines() if line.strip().startswith("warning: ")]
    fix = ("pass its output instead (orders.name, where orders is that ApiProxy) so that the engine "
           "orders them")
    for kind, name, where in (("ApiProxyDeployment", "orders-test", "api_proxy_name"),
                              ("Policy", "office", "api_proxy_name"),
                              ("ApiProxyGroup", "shop", "api_proxy_names")):
        expected = (f"warning: {kind} '{name}' names the API proxy Demo/Orders in {where} by the literal "
                    f"'Orders', and this program declares it: ApiProxy 'orders'; {fix}")
        assert any(line.startswith(expected) for line in warnings), (expected, result.stdout)
    # The deployment that gives the output, and PetStore (not declared here), are not warned about.
    assert not [line for line in warnings if "orders-prod" in line or "PetStore" in line], warnings
