"""Two thousand endpoints under the real CLI: preview, up and destroy, past the SDK's pickle-depth bug.

The SDK's ``serialize_provider`` stacks one pickle wrapper per resource, and a program of about 960
dynamic resources whose providers pickle a dict failed with ``RecursionError``
(``apinizer_pulumi.resources._pickle_layers`` and docs/performance.md). The program is small and the
up runs 64 operations at once, to keep the time bounded.

The file backend writes the whole state, 2 KB a resource, after every step: at 2,000 resources
that, not the provider, took most of an up (12 minutes projected on the 2-CPU machine). The
engine's ``PULUMI_SKIP_CHECKPOINTS`` writes it once, at the end.

The same preview with the workaround turned off (``APINIZER_SERIALIZE_FIX=0``) must fail exactly
when the installed SDK still has the bug: once an SDK fixes it, that half says so by passing with
nothing to work around, and the workaround, which probes the SDK, stays out of the way.
"""

from __future__ import annotations

import os
import signal
import subprocess
import sys
import textwrap
import time
from pathlib import Path
from typing import Any

import pytest

from apinizer_pulumi.client import ApinizerClient

from .conftest import Project, Result, program_source, summary

PROXIES = ("PetStore", "Orders")  # REST proxies of the emulator's default fixture
PER_PROXY = 1000
COUNT = len(PROXIES) * PER_PROXY
PREFIX = "/scale/"

PROGRAM = f"""
import apinizer_pulumi as apinizer

for proxy in {PROXIES!r}:
    for index in range({PER_PROXY}):
        apinizer.Endpoint(
            f"{{proxy}}-{{index}}", project_name="Demo", api_proxy_name=proxy, name=f"{PREFIX}{{index}}",
            http_method="GET", backend_resource_url=f"/backend/{{index}}", backend_http_method="GET",
        )
"""

#: Whether the installed SDK stacks wrappers, by the workaround's own probe, in a fresh process.
PROBE = """
from pulumi.dynamic import dynamic
from apinizer_pulumi.resources._pickle_layers import stacks_wrappers
print(stacks_wrappers(dynamic.serialize_provider))
"""


#: Each command's own bound: an up of 2,000 takes minutes on a 2-CPU machine shared with other work.
COMMAND_TIMEOUT = 900


def timed(project: Project, *args: str, env: dict[str, str] | None = None) -> Result:
    """``pulumi ARGS`` in the project, with a longer bound than the other e2e tests need; prints its time.

    On timeout the whole process group goes, the program and the provider server with the CLI.
    """
    command = [str(project.cli.binary), *args, "--stack", project.stack]
    environment = project.cli.env(project.backend, {"PULUMI_SKIP_CHECKPOINTS": "true", **(env or {})})
    started = time.perf_counter()
    with subprocess.Popen(
        command, cwd=project.directory, env=environment, text=True,
        stdout=subprocess.PIPE, stderr=subprocess.PIPE, start_new_session=True,
    ) as process:
        try:
            stdout, stderr = process.communicate(timeout=COMMAND_TIMEOUT)
        except subprocess.TimeoutExpired:
            os.killpg(process.pid, signal.SIGKILL)
            process.communicate()
            raise
    print(f"pulumi {' '.join(args)}: {time.perf_counter() - started:.1f} s, exit {process.returncode}")
    return Result(command, process.returncode, stdout, stderr)


def sdk_stacks_wrappers() -> bool:
    answer = subprocess.run([sys.executable, "-c", PROBE], capture_output=True, text=True, check=True)
    return answer.stdout.strip() == "True"


def ours(url: str, token: str) -> int:
    with ApinizerClient(url, token=token) as client:
        return sum(
            1 for proxy in PROXIES for item in client.endpoints.list("Demo", proxy)
            if item.endpoint.startswith(PREFIX)
        )


@pytest.mark.timeout(4 * COMMAND_TIMEOUT)
def test_two_thousand_endpoints_preview_up_and_destroy_under_the_cli(
    make_project: Any, tmp_path: Path, emulator_url: str, admin_token: str
) -> None:
    source = program_source(tmp_path / "source", "scale", textwrap.dedent(PROGRAM))
    project: Project = make_project(source, name="scale")
    project.configure({"apinizer:url": emulator_url}, secrets={"apinizer:token": admin_token})

    unprotected = timed(project, "preview", "--parallel", "64", env={"APINIZER_SERIALIZE_FIX": "0"})
    if sdk_stacks_wrappers():
        assert unprotected.returncode != 0, unprotected.output[-3000:]
        assert "RecursionError" in unprotected.output, unprotected.output[-3000:]
    else:
        assert unprotected.returncode == 0, unprotected.output[-3000:]

    preview = timed(project, "preview", "--parallel", "64")
    assert preview.returncode == 0, preview.output[-3000:]
    assert summary(preview.stdout).get("to create") == COUNT + 1, preview.output[-3000:]  # and the stack
    assert ours(emulator_url, admin_token) == 0

    up = timed(project, "up", "--yes", "--skip-preview", "--parallel", "64")
    assert up.returncode == 0, up.output[-3000:]
    assert summary(up.stdout).get("created") == COUNT + 1, up.output[-3000:]
    assert ours(emulator_url, admin_token) == COUNT

    destroyed = timed(project, "destroy", "--yes", "--skip-preview", "--parallel", "64")
    assert destroyed.returncode == 0, destroyed.output[-3000:]
    assert summary(destroyed.stdout).get("deleted") == COUNT + 1, destroyed.output[-3000:]
    assert ours(emulator_url, admin_token) == 0
