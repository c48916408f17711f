"""A program that ``apinizer-pulumi generate`` wrote from the live gateway, run by the real Pulumi CLI.

Its first ``pulumi up`` only adopts (the gateway is read, never written), and the next one runs with
``--expect-no-changes``. The token comes from ``APINIZER_TOKEN``; the generated stack file holds none.
"""

from __future__ import annotations

from pathlib import Path
from typing import Any

import httpx

from examples.harness import comparable_state

from .conftest import Project, summary

DETAILS = "POST /apiops/projects/{projectName}/apiProxies/{apiProxyName}/endpoints/details/"


def test_generated_program_adopts_the_gateway_under_the_cli(
    generated_project: Path, make_project: Any, emulator_url: str, admin_token: str
) -> None:
    project: Project = make_project(generated_project, name="generated-copy")
    credentials = {"APINIZER_TOKEN": admin_token}
    with httpx.Client(base_url=emulator_url, timeout=10) as inspect:
        before = comparable_state(inspect.get("/_emulator/state").json())
        inspect.post("/_emulator/stats/reset").raise_for_status()

        adopted = project.run("up", "--yes", "--skip-preview", "--stack", project.stack, env=credentials)
        # The stack and its six endpoints, each a "create" that is an adoption.
        assert summary(adopted.stdout).get("created") == 7, adopted.stdout
        requests = inspect.get("/_emulator/stats").json()["requests"]
        assert set(requests) <= {
            DETAILS,
            "GET /apiops/projects/{projectName}/apiProxies/{apiProxyName}/endpoints/",
        }, requests
        assert comparable_state(inspect.get("/_emulator/state").json()) == before

        inspect.post("/_emulator/stats/reset").raise_for_status()
        project.run("up", "--yes", "--expect-no-changes", "--stack", project.stack, env=credentials)
        # Only the connection check of each provider process (the preview's and the update's).
        assert inspect.get("/_emulator/stats").json()["requests"] == {
            "GET /apiops/projects/{projectName}/apiProxies/{apiProxyName}/endpoints/": 2}
        project.run("refresh", "--yes", "--expect-no-changes", "--stack", project.stack, env=credentials)
