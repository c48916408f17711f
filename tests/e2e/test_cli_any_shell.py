"""The CLI the project builds, run as a user runs it: from their own project, in a shell with nothing set.

Each command runs with an environment made from nothing (``env -i``): HOME, a PATH of the CLI's folder and
system folders only (never this repository's .venv/bin) and the PULUMI_* settings of a file backend, a
passphrase and no update check. The first ``python3`` on that PATH is a bare virtual environment with no
package at all: no ``grpc``, no ``pulumi``. The language host must run on its own interpreter regardless,
and run the program in the interpreter Pulumi's own host would pick (the ``virtualenv`` runtime option,
else the ``python3`` on PATH).
"""

from __future__ import annotations

import os
import subprocess
import textwrap
from pathlib import Path

import pytest
import yaml

from apinizer_pulumi.client import ApinizerClient

from .conftest import PASSPHRASE, ROOT, PulumiCli, pinned_version, summary
from .test_cli_scripts import BASH, SYSTEM_PATH, bare_python

__all__ = ["bare_python"]  # the fixture shared with test_cli_scripts (which runs up.sh in a new shell)

#: `pulumi install` makes a virtual environment and installs this repository and its dependencies.
INSTALL_TIMEOUT = 900
COMMAND_TIMEOUT = 300
ADMIN_TOKEN = "dev-admin-token"

PROGRAM = """
    import pulumi

    import apinizer_pulumi as apinizer

    owners = apinizer.Endpoint(
        "owners",
        project_name="Demo",
        api_proxy_name="PetStore",
        name="/any-shell-owners",
        http_method="GET",
        backend_resource_url="/v1/owners",
        backend_http_method="GET",
    )
    pulumi.export("owners_id", owners.endpoint_id)
"""


def clean_env(cli: PulumiCli, bare_bin: Path, backend: Path) -> dict[str, str]:
    path = [str(cli.binary.parent), str(bare_bin), *SYSTEM_PATH]
    assert not any(Path(entry).resolve() == (ROOT / ".venv" / "bin").resolve() for entry in path)
    return {
        "HOME": os.environ["HOME"],
        "PATH": os.pathsep.join(path),
        "PULUMI_HOME": str(cli.home),
        "PULUMI_BACKEND_URL": f"file://{backend}",
        "PULUMI_CONFIG_PASSPHRASE": PASSPHRASE,
        "PULUMI_SKIP_UPDATE_CHECK": "true",
    }


def user_project(directory: Path, runtime: dict[str, object], *, requirements: str | None) -> Path:
    directory.mkdir()
    (directory / "Pulumi.yaml").write_text(yaml.safe_dump({"name": "any-shell", "runtime": runtime}))
    (directory / "__main__.py").write_text(textwrap.dedent(PROGRAM))
    if requirements is not None:
        (directory / "requirements.txt").write_text(requirements)
    return directory


def pulumi(
    cli: PulumiCli, project: Path, env: dict[str, str], *args: str, timeout: int = COMMAND_TIMEOUT
) -> subprocess.CompletedProcess[str]:
    # A relative "pulumi", found on the clean PATH as a user's shell finds it.
    return subprocess.run(
        ["pulumi", *args], cwd=project, env=env, capture_output=True, text=True, timeout=timeout, check=False
    )


def gateway_endpoint_ids(url: str) -> set[str]:
    with ApinizerClient(url, token=ADMIN_TOKEN) as client:
        return {endpoint.id for endpoint in client.endpoints.list("Demo", "PetStore")}


def output(result: subprocess.CompletedProcess[str]) -> str:
    return f"exit {result.returncode}\n--- stdout\n{result.stdout}\n--- stderr\n{result.stderr}"


def test_install_up_and_destroy_from_a_project_outside_the_repository(
    pulumi_cli: PulumiCli, bare_python: Path, emulator_url: str, tmp_path: Path
) -> None:
    project = user_project(
        tmp_path / "my-gateway",
        {"name": "python", "options": {"virtualenv": "venv"}},
        requirements=f"{ROOT}\n",
    )
    (tmp_path / "state").mkdir()
    env = clean_env(pulumi_cli, bare_python, tmp_path / "state")

    for command in (
        ("stack", "init", "dev", "--secrets-provider", "passphrase"),
        # One start of the CLI for both values; the token stays a secret.
        ("config", "set-all", "--plaintext", f"apinizer:url={emulator_url}",
         "--secret", f"apinizer:token={ADMIN_TOKEN}"),
    ):
        result = pulumi(pulumi_cli, project, env, *command)
        assert result.returncode == 0, output(result)

    installed = pulumi(pulumi_cli, project, env, "install", timeout=INSTALL_TIMEOUT)
    assert installed.returncode == 0, output(installed)
    assert "Creating virtual environment..." in installed.stdout, output(installed)
    assert "Finished installing dependencies" in installed.stdout, output(installed)
    # The virtualenv is the project's, relative to Pulumi.yaml, and holds this repository's package.
    venv_python = project / "venv" / "bin" / "python"
    probe = subprocess.run(
        [str(venv_python), "-c", "import apinizer_pulumi, grpc, pulumi; print(apinizer_pulumi.__file__)"],
        capture_output=True,
        text=True,
        check=False,
    )
    assert probe.returncode == 0 and str(project / "venv") in probe.stdout, probe.stderr

    up = pulumi(pulumi_cli, project, env, "up", "--yes", "--stack", "dev")
    assert up.returncode == 0, output(up)
    assert summary(up.stdout).get("created") == 2, output(up)  # the stack and the endpoint
    outputs = pulumi(pulumi_cli, project, env, "stack", "output", "--json", "--stack", "dev")
    endpoint_id = yaml.safe_load(outputs.stdout)["owners_id"]
    assert endpoint_id in gateway_endpoint_ids(emulator_url)

    destroyed = pulumi(pulumi_cli, project, env, "destroy", "--yes", "--stack", "dev")
    assert destroyed.returncode == 0, output(destroyed)
    assert summary(destroyed.stdout).get("deleted") == 2, output(destroyed)
    assert endpoint_id not in gateway_endpoint_ids(emulator_url)


def test_without_a_virtualenv_the_program_runs_on_the_python3_of_path(
    pulumi_cli: PulumiCli, bare_python: Path, tmp_path: Path
) -> None:
    # The bare python3 comes first: the host itself must still start (no "No module named 'grpc'", no
    # "failed to load language plugin"), and then report, as Pulumi's host does, that the interpreter
    # it picked for the program has no Pulumi SDK.
    project = user_project(tmp_path / "no-venv", {"name": "python"}, requirements=None)
    (tmp_path / "state").mkdir()
    env = clean_env(pulumi_cli, bare_python, tmp_path / "state")
    assert pulumi(pulumi_cli, project, env, "stack", "init", "dev").returncode == 0

    preview = pulumi(pulumi_cli, project, env, "preview", "--stack", "dev")
    combined = preview.stdout + preview.stderr
    assert preview.returncode != 0, output(preview)
    assert "No module named 'grpc'" not in combined and "failed to load language plugin" not in combined
    assert "It looks like the Pulumi SDK has not been installed" in combined, output(preview)
    assert str(bare_python.parent) in combined, output(preview)

    # `pulumi about` asks the host which interpreter the program gets: the python3 of PATH.
    about = pulumi(pulumi_cli, project, env, "about", "--json")
    assert about.returncode == 0, output(about)
    runtime = yaml.safe_load(about.stdout)["runtime"]
    assert runtime["language"] == "python" and runtime["toolchain"] == "pip", about.stdout
    assert Path(runtime["executable"]) == bare_python / "python3", about.stdout


@pytest.mark.parametrize("how", ["option", "lock file"])
def test_the_uv_toolchain_is_refused_with_a_reason(
    pulumi_cli: PulumiCli, bare_python: Path, tmp_path: Path, how: str
) -> None:
    runtime: dict[str, object] = {"name": "python"}
    if how == "option":
        runtime["options"] = {"toolchain": "uv"}
    project = user_project(tmp_path / "uv", runtime, requirements=None)
    if how == "lock file":
        (project / "uv.lock").write_text("version = 1\n")
    (tmp_path / "state").mkdir()
    env = clean_env(pulumi_cli, bare_python, tmp_path / "state")
    assert pulumi(pulumi_cli, project, env, "stack", "init", "dev").returncode == 0

    preview = pulumi(pulumi_cli, project, env, "preview", "--stack", "dev")
    assert preview.returncode != 0, output(preview)
    combined = preview.stdout + preview.stderr
    assert "uv toolchain" in combined and ("does not support" in combined or "is not supported" in combined)
    assert "toolchain: pip" in combined, output(preview)


def test_concurrent_first_uses_make_one_host_environment(tmp_path: Path, bare_python: Path) -> None:
    # A new bin folder over a cached build (a stand-in here, as in test_cli_resolution) has no host-python/
    # yet: the launcher makes it on first use. Two at once (two shells, two test runs) must both succeed.
    cache = tmp_path / "cache"
    version = pinned_version()
    built = cache / "apinizer-pulumi" / f"pulumi-{version}" / "build" / "pulumi"
    built.parent.mkdir(parents=True)
    built.write_text("#!/bin/sh\necho v3.0.0-stand-in\n")
    built.chmod(0o755)
    env = {
        "HOME": os.environ["HOME"],  # the pip cache, as a user's
        "XDG_CACHE_HOME": str(cache),
        "PATH": os.pathsep.join([str(bare_python), *SYSTEM_PATH]),
    }
    listed = subprocess.run(
        [BASH, str(ROOT / "scripts" / "build-pulumi.sh"), "--if-available"],
        env=env,
        capture_output=True,
        text=True,
        check=True,
    )
    folder = Path(listed.stdout.strip().splitlines()[-1])
    assert not (folder / "host-python").exists()

    makers = [
        subprocess.Popen(
            [str(folder / "make-host-python")],
            env=env,
            stdout=subprocess.PIPE,
            stderr=subprocess.PIPE,
            text=True,
        )
        for _ in range(2)
    ]
    for maker in makers:
        stdout, stderr = maker.communicate(timeout=INSTALL_TIMEOUT)
        assert maker.returncode == 0, stdout + stderr
    assert sorted(path.name for path in folder.iterdir() if path.name.startswith("host-python")) == [
        "host-python"
    ]
    probe = subprocess.run(
        [
            str(folder / "host-python" / "bin" / "python"),
            "-c",
            "import grpc, importlib.metadata as m; print(m.version('pulumi'))",
        ],
        env=env,
        capture_output=True,
        text=True,
        check=False,
    )
    assert probe.returncode == 0 and probe.stdout.strip() == version, probe.stderr
