"""Errors as a user sees them under the real ``pulumi`` CLI: one line that names the resource and the cause.

Each test runs a small program of its own against the session emulator and reads the CLI's output as a
terminal shows it: the progress line of the failed resource and its block under "Diagnostics:". The
provider's answer must be that one line, with no Python traceback (no "Traceback (most recent call
last)", no frames of the SDK's server, of apinizer_pulumi, httpx or httpcore).
"""

from __future__ import annotations

import re
import textwrap
from pathlib import Path
from typing import Any

import httpx
import pytest

from examples.harness import comparable_state

from .conftest import Project, Result, free_port, program_source

STACK = "pulumi:pulumi:Stack (errors-dev)"
ENDPOINT = "pulumi-python:dynamic/apinizer:Endpoint"
CACHE = "pulumi-python:dynamic/apinizer:EndpointCache"
TRACEBACK_MARKS = ("Traceback (most recent call last)", 'File "', "apinizer_pulumi/", "httpx", "httpcore",
                   "pulumi/dynamic/__main__.py")

def endpoint_program(proxy: str, name: str, method: str = "GET", *, adopt: bool = False) -> str:
    """A program of one ``Endpoint`` named "order-status" (its backend path is the same for every test)."""
    return textwrap.dedent(f"""
        import apinizer_pulumi as apinizer

        apinizer.Endpoint(
            "order-status", project_name="Demo", api_proxy_name={proxy!r}, name={name!r},
            http_method={method!r}, backend_resource_url="/status", backend_http_method={method!r},
            adopt={adopt},
        )
    """)


def diagnostics(output: str) -> dict[str, list[str]]:
    """The CLI's "Diagnostics:" section as {"<type> (<name>)": [its lines, unindented]}."""
    _, found, section = output.partition("\nDiagnostics:\n")
    assert found, f"no Diagnostics section in:\n{output}"
    section = section.split("\nResources:\n")[0]
    blocks: dict[str, list[str]] = {}
    current: list[str] = []
    for line in section.splitlines():
        header = re.fullmatch(r"  (\S+ \(.+\)):", line)
        if header:
            current = blocks.setdefault(header.group(1), [])
        elif line.strip():
            current.append(line.strip())
    return blocks


def assert_one_clean_line(result: Result, resource: str, expected: str) -> str:
    """The resource's diagnostic is exactly one ``error:`` line matching ``expected`` (a regex)."""
    assert result.returncode != 0, result.output
    for mark in TRACEBACK_MARKS:
        assert mark not in result.output, f"{mark!r} in the CLI's output:\n{result.output}"
    lines = diagnostics(result.stdout).get(resource)
    assert lines is not None and len(lines) == 1, result.stdout
    assert re.fullmatch(f"error: {expected}", lines[0]), lines[0]
    # The progress display shows the same line beside the resource.
    name = resource.split(" (")[1].rstrip(")")
    assert any(f" {name} " in line and lines[0] in line for line in result.stdout.splitlines()), result.stdout
    return lines[0]


def assert_up_fails_cleanly(project: Project, state_of: Any, expected: str) -> Result:
    """``pulumi up`` fails on the endpoint with ``expected`` (a regex) alone, and changes nothing."""
    initial = state_of()
    result = project.up(check=False)
    assert_one_clean_line(result, f"{ENDPOINT} (order-status)", expected)
    assert diagnostics(result.stdout)[STACK] == ["error: update failed"]
    assert state_of() == initial
    return result


@pytest.fixture
def state_of(emulator_url: str) -> Any:
    def get() -> dict[str, Any]:
        return comparable_state(httpx.get(f"{emulator_url}/_emulator/state", timeout=10).json())

    return get


@pytest.fixture
def stack(make_project: Any, emulator_url: str, admin_token: str, tmp_path: Path) -> Any:
    """``stack(program)``: a project ``errors`` running ``program`` on the emulator with a valid token."""

    def make(program: str) -> Project:
        source = program_source(tmp_path / "source", "errors", program)
        project: Project = make_project(source, name="errors")
        project.configure({"apinizer:url": emulator_url}, secrets={"apinizer:token": admin_token})
        return project

    return make


def test_a_wrong_token(stack: Any, state_of: Any) -> None:
    project: Project = stack(endpoint_program("Orders", "/orders/{orderId}/status"))
    # The operation's own error, past the connection check (test_cli_preview_checks.py has that one).
    project.configure(
        {"apinizer:skipConnectionCheck": "true"}, secrets={"apinizer:token": "not-a-valid-token"}
    )

    result = assert_up_fails_cleanly(project, state_of, re.escape(
        "apinizer:Endpoint GET /orders/{orderId}/status in Demo/Orders: 401 unauthorized_client: "
        "Invalid token"
    ))

    assert "not-a-valid-token" not in result.output


def test_an_unreachable_gateway(stack: Any, state_of: Any) -> None:
    project: Project = stack(endpoint_program("Orders", "/orders/{orderId}/status"))
    url = f"http://127.0.0.1:{free_port()}"  # nothing listens there
    # The connection check skipped as in test_a_wrong_token.
    project.configure({"apinizer:url": url, "apinizer:skipConnectionCheck": "true"})

    assert_up_fails_cleanly(project, state_of, re.escape(
        f"apinizer:Endpoint GET /orders/{{orderId}}/status in Demo/Orders: POST {url}/apiops/projects/Demo/"
        "apiProxies/Orders/endpoints/ failed after 4 attempts: ConnectError: "
    ) + ".*refused.*")


def test_a_check_failure_names_the_property_at_preview(stack: Any, emulator_url: str) -> None:
    project: Project = stack("""
        import apinizer_pulumi as apinizer

        apinizer.EndpointCache(
            "pets-cache",
            project_name="Demo",
            api_proxy_name="PetStore",
            endpoint_name="/pets",
            endpoint_http_method="GET",
            cache_settings={"name": "pets", "cache_active": True, "handling_action": "HALT"},
        )
    """)
    httpx.post(f"{emulator_url}/_emulator/stats/reset", json={}, timeout=10).raise_for_status()

    result = project.preview(check=False)

    # The engine's own wording around our path, value and reason. (The engine looks a failure's value
    # up among the top-level inputs, so a nested property would print "value {<nil>}": our check names
    # the path and the value in the reason instead.)
    assert_one_clean_line(
        result, f"{CACHE} (pets-cache)",
        re.escape("pulumi-python:dynamic/apinizer:EndpointCache resource 'pets-cache' has a problem: "
                  "cache_settings.handling_action is 'HALT': Input should be 'CONTINUE' or 'STOP'"),
    )
    # Check is offline first: inputs that fail are not worth the connection check's request.
    assert httpx.get(f"{emulator_url}/_emulator/stats", timeout=10).json()["total"] == 0


def test_a_400_from_the_gateway(stack: Any, state_of: Any) -> None:
    project: Project = stack(endpoint_program("Calculator", "Multiply"))

    assert_up_fails_cleanly(project, state_of, re.escape(
        "apinizer:Endpoint GET Multiply in Demo/Calculator: 400 bad_request: Endpoint can only be added "
        "to REST API Proxies!"
    ))


def test_destroying_an_adopted_soap_endpoint_warns_under_the_stack(stack: Any, state_of: Any) -> None:
    """The gateway refuses to delete a SOAP proxy's endpoint: destroy releases it with a warning.

    The provider server has no engine connection, so ``pulumi.log.warn`` writes "warning: ..." to its
    stderr; the engine shows that line under the stack, not under the resource being deleted.
    """
    project: Project = stack(endpoint_program("Calculator", "Add", "POST", adopt=True))
    project.up()

    result = project.destroy("--skip-preview")

    warning = ("warning: apinizer:Endpoint POST Add in Demo/Calculator: left on the gateway and removed from "
               "the stack only: endpoints of a SOAP proxy come from its service description and the gateway "
               "refuses to delete them; re-import the service description to remove it")
    blocks = diagnostics(result.stdout)
    assert blocks == {STACK: [warning]}, result.stdout
    assert re.search(r"^\s+- 2 deleted$", result.stdout, flags=re.MULTILINE), result.stdout
    add = [e for p in state_of()["projects"][0]["apiProxies"] if p["name"] == "Calculator"
           for e in p["endpoints"] if e["endpoint"] == "Add"]
    assert len(add) == 1 and add[0]["backendResourceUrl"] == "/status"


def test_a_wrong_argument_or_a_missing_spec_file_in_the_program_is_one_line(stack: Any) -> None:
    """The program's own errors: a typo in a typed policy class, then a spec file that is not there.
    Each is the stack's one error line naming the argument, the value and the fix; no traceback."""
    project: Project = stack("""
        import apinizer_pulumi as apinizer

        apinizer.Policy(
            "throttle", project_name="Demo", api_proxy_name="PetStore", name="throttle", pipeline="REQUEST",
            settings=apinizer.policies.ApiBasedThrottling(
                target_variable_for_identity={"type": "HEADER", "header_name": "X-Key"},
                message_count_for_intervall=5, throttling_interval="ONE_MINUTE",
            ),
        )
    """)
    result = project.preview(check=False)
    assert result.returncode != 0
    for mark in TRACEBACK_MARKS:
        assert mark not in result.output, f"{mark!r} in the CLI's output:\n{result.output}"
    assert diagnostics(result.stdout)[STACK] == [
        "error: apinizer.policies.ApiBasedThrottling: no argument message_count_for_intervall (given 5); "
        "did you mean message_count_for_interval?"], result.stdout

    (project.directory / "__main__.py").write_text(textwrap.dedent("""
        import apinizer_pulumi as apinizer

        apinizer.ApiProxy("shop", project_name="Demo", name="Shop", spec_type="OPEN_API",
                          spec_file="shop.yaml")
    """))
    result = project.preview(check=False)
    assert result.returncode != 0
    for mark in TRACEBACK_MARKS:
        assert mark not in result.output, f"{mark!r} in the CLI's output:\n{result.output}"
    # The program records the absolute path (the state keeps the path and hash, not the bytes), and the
    # preview's check names it, offline, before any request.
    assert_one_clean_line(result, "pulumi-python:dynamic/apinizer:ApiProxy (shop)", re.escape(
        "pulumi-python:dynamic/apinizer:ApiProxy resource 'shop' has a problem: apinizer: spec_file "
        f"'{project.directory / 'shop.yaml'}' cannot be read: No such file or directory"))
