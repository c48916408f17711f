"""``bash scripts/up.sh`` and ``bash scripts/down.sh --destroy`` with the real Pulumi CLI.

The scripts run from a copy of the repository's root project (scripts, tools, stack files, program and a
link to the same .venv), so that the stack file they edit for a non-default port is the copy's. The
emulator they start listens on a free port and keeps its database in a temporary state folder. The first
``up.sh`` runs as in a new user's shell, with no ``pulumi`` on PATH and a ``python3`` without a package
(``bare_python``, which test_cli_any_shell.py shares): it finds the cached build, and the lines it prints
work in a new shell.
"""

from __future__ import annotations

import os
import shutil
import subprocess
import sys
from collections.abc import Iterator
from pathlib import Path

import httpx
import pytest

from examples.harness import comparable_state

from .conftest import ROOT, PulumiCli, free_port, stop_emulators_started_in, summary

BASH = shutil.which("bash") or "/bin/bash"
SYSTEM_PATH = ("/usr/local/bin", "/usr/bin", "/bin")
COMMAND_TIMEOUT = 300


@pytest.fixture(scope="module")
def bare_python(tmp_path_factory: pytest.TempPathFactory) -> Path:
    """A folder whose ``python3`` is a virtual environment without a single package installed."""
    venv = tmp_path_factory.mktemp("bare-python") / "venv"
    subprocess.run([sys.executable, "-m", "venv", "--without-pip", str(venv)], check=True)
    probe = subprocess.run(
        [str(venv / "bin" / "python3"), "-c", "import grpc"], capture_output=True, check=False
    )
    assert probe.returncode != 0, "the bare interpreter must lack grpc"
    return venv / "bin"


@pytest.fixture
def repository_copy(tmp_path: Path) -> Path:
    copy = tmp_path / "repo"
    copy.mkdir()
    for name in ("scripts", "infra"):
        shutil.copytree(ROOT / name, copy / name, ignore=shutil.ignore_patterns("__pycache__"))
    (copy / "tools").mkdir()
    shutil.copytree(ROOT / "tools" / "pulumi-cli", copy / "tools" / "pulumi-cli")
    for name in ("pyproject.toml", "Pulumi.yaml", "Pulumi.dev.yaml"):
        shutil.copy(ROOT / name, copy / name)
    # The same virtual environment: its install stamp matches the copied pyproject.toml, so no reinstall.
    (copy / ".venv").symlink_to(ROOT / ".venv")
    return copy


@pytest.fixture
def script_env(pulumi_cli: PulumiCli, tmp_path: Path) -> Iterator[dict[str, str]]:
    env = {key: value for key, value in os.environ.items() if not key.startswith(("PULUMI_", "APINIZER_"))}
    env.update(
        PATH=f"{pulumi_cli.binary.parent}{os.pathsep}{os.environ['PATH']}",
        PULUMI_HOME=str(pulumi_cli.home),
        APINIZER_EMULATOR_PORT=str(free_port()),
        APINIZER_STATE_DIR=str(tmp_path / "state"),
    )
    yield env
    stop_emulators_started_in(tmp_path / "state")  # a failed test must not leave its emulator running


def run(script: Path, *args: str, env: dict[str, str]) -> subprocess.CompletedProcess[str]:
    return subprocess.run(
        [BASH, str(script), *args], env=env, capture_output=True, text=True, timeout=600, check=False
    )


def test_up_twice_then_down_destroy(
    repository_copy: Path, script_env: dict[str, str], bare_python: Path
) -> None:
    url = f"http://127.0.0.1:{script_env['APINIZER_EMULATOR_PORT']}"
    up = repository_copy / "scripts" / "up.sh"

    # No `pulumi` on PATH: up.sh finds the cached build and prints the PATH line for it.
    first = run(up, env={**script_env, "PATH": os.pathsep.join([str(bare_python), *SYSTEM_PATH])})
    assert first.returncode == 0, first.stdout + first.stderr
    assert "+ 10 created" in first.stdout, first.stdout
    assert "endpointIds" in first.stdout  # the outputs are printed
    exports = [line.strip() for line in first.stdout.splitlines() if line.strip().startswith("export ")]
    assert any(line.startswith("export PATH=") for line in exports), first.stdout
    with httpx.Client(base_url=url, timeout=10) as inspect:
        assert len(inspect.get("/_emulator/state").json()["projects"][0]["apiProxies"][0]["endpoints"]) > 3

        # A new shell: nothing but HOME, PULUMI_HOME (the tests' own) and a PATH whose python3 has no grpc.
        new_shell = {
            "HOME": os.environ["HOME"],
            "PULUMI_HOME": script_env["PULUMI_HOME"],
            "PATH": os.pathsep.join([str(bare_python), *SYSTEM_PATH]),
        }
        preview = subprocess.run(
            [BASH, "-c", "\n".join([*exports, "pulumi preview --stack dev"])],
            cwd=repository_copy, env=new_shell, capture_output=True, text=True, timeout=COMMAND_TIMEOUT,
        )
        assert preview.returncode == 0, preview.stdout + preview.stderr
        assert summary(preview.stdout).get("unchanged") == 10, preview.stdout
        inspect.post("/_emulator/stats/reset", json={}).raise_for_status()

        second = run(up, env=script_env)
        assert second.returncode == 0, second.stdout + second.stderr
        assert "emulator already running" in second.stdout
        assert "10 unchanged" in second.stdout, second.stdout

        down = run(repository_copy / "scripts" / "down.sh", "--destroy", env=script_env)
        assert down.returncode == 0, down.stdout + down.stderr
        assert "- 10 deleted" in down.stdout, down.stdout
    with pytest.raises(httpx.ConnectError):
        httpx.get(f"{url}/apiops/test/healthcheck", timeout=2)

    # What the stack made is gone: a fresh emulator on the same database matches the default fixture.
    from apinizer_emulator.testing import EmulatorServer

    with EmulatorServer(db=Path(script_env["APINIZER_STATE_DIR"]) / "emulator.db") as again:
        after = httpx.get(f"{again.base_url}/_emulator/state", timeout=10).json()
    with EmulatorServer() as fresh:
        fixture = httpx.get(f"{fresh.base_url}/_emulator/state", timeout=10).json()
    # Tokens differ only in when they were last used; the gateway's configuration is the fixture's.
    assert comparable_state(after)["projects"] == comparable_state(fixture)["projects"]
