"""Every ``examples/*/README.md`` run as a new user runs it: its commands, as written, in a fresh clone.

The "fresh clone" is a copy of the files git tracks (today's content, so a README edited but not yet
committed is the one tested) with a link to this run's ``.venv`` (its install stamp matches, so
``scripts/up.sh`` installs nothing). The README's "Run it" block runs in ``bash`` from the clone's root,
then its "Rotate the keys" block where it has one (secured-api: a new CA and signing key), its "Promote it
to production" block where it has one (the stack of another environment on the same management API),
then its "Tear it down" block from the example's folder, after the block's ``source`` and
``export`` lines again (the shell the user still has). Only three things differ from a user's terminal, each
because a test must:

* the ports: the emulator listens on a free port (``APINIZER_EMULATOR_PORT``, which ``scripts/up.sh``
  honours), and the example's stack files and the README's own commands name that port instead
  of 18080 (18081 for the second gateway), as tests/docs does for the URLs of the docs;
* the CLI asks before ``pulumi up``, ``destroy`` and ``stack rm``, and a test cannot answer: a shell
  function adds ``--yes`` to those three;
* ``PULUMI_HOME`` is the session's, so that nothing of the machine's Pulumi set-up is used or touched.
"""

from __future__ import annotations

import json
import os
import re
import shutil
import subprocess
import tempfile
from collections.abc import Iterator
from pathlib import Path

import httpx
import pytest

from apinizer_pulumi.client import ApinizerClient

from .conftest import ROOT, PulumiCli, free_port, stop_emulators_started_in

#: A token of the emulator's default fixture.
ADMIN_TOKEN = "dev-admin-token"

EXAMPLES = sorted(path.parent.name for path in (ROOT / "examples").glob("*/Pulumi.yaml"))
BASH = shutil.which("bash") or "/bin/bash"
#: Answers the CLI's confirmation prompts, which a test cannot.
CONFIRM = """
pulumi() {
  case "$1 ${2:-}" in
    "up "*|"destroy "*|"stack rm") command pulumi "$@" --yes ;;
    *) command pulumi "$@" ;;
  esac
}
"""


def section_block(readme: str, heading: str) -> str:
    """The one ``bash`` block under ``## heading`` ("" when the README has no such section)."""
    if f"\n## {heading}\n" not in readme:
        return ""
    section = readme.split(f"\n## {heading}\n", 1)[1].split("\n## ", 1)[0]
    (block,) = re.findall(r"```bash\n(.*?)```", section, re.S)
    return str(block)


def fresh_clone(destination: Path) -> Path:
    tracked = subprocess.run(
        ["git", "ls-files", "-z", "--cached", "--others", "--exclude-standard"],
        cwd=ROOT, capture_output=True, text=True, check=True,
    ).stdout.split("\0")
    for name in filter(None, tracked):
        source = ROOT / name
        if source.is_file():
            (destination / name).parent.mkdir(parents=True, exist_ok=True)
            shutil.copy2(source, destination / name)
    (destination / ".venv").symlink_to(ROOT / ".venv", target_is_directory=True)
    return destination


@pytest.fixture
def clone(tmp_path: Path) -> Iterator[Path]:
    copy = fresh_clone(tmp_path / "clone")
    yield copy
    stop_emulators_started_in(copy / ".apinizer")  # a failed test must not leave its emulators running
    # Nor secured-api's JWKS server, which its README starts in the background (a no-op once stopped).
    jwks_server = copy / "examples" / "secured-api" / "jwks_server.py"
    if (jwks_server.parent / "local" / "jwks-server.json").exists():
        subprocess.run([str(ROOT / ".venv" / "bin" / "python"), str(jwks_server), "stop"],
                       capture_output=True, timeout=60, check=False)


@pytest.fixture
def shell_env(pulumi_cli: PulumiCli) -> dict[str, str]:
    """A user's new terminal with ``pulumi`` on PATH: no virtual environment, no APINIZER_ or PULUMI_."""
    venv_bin = str(ROOT / ".venv" / "bin")
    path = [p for p in os.environ["PATH"].split(os.pathsep) if p != venv_bin]
    env = {key: os.environ[key] for key in ("HOME", "LANG", "TMPDIR", "USER") if key in os.environ}
    env.update(PATH=os.pathsep.join([str(pulumi_cli.binary.parent), *path]), PULUMI_HOME=str(pulumi_cli.home),
               PULUMI_SKIP_UPDATE_CHECK="true", NO_COLOR="1")
    return env


def bash(script: str, cwd: Path, env: dict[str, str]) -> str:
    """The script's output. It goes to a file, not a pipe: an emulator a README starts in the background
    keeps its copy of the output open, which a pipe's reader would wait on for ever."""
    with tempfile.TemporaryFile("w+") as output:
        result = subprocess.run(
            [BASH, "-e", "-o", "pipefail", "-c", CONFIRM + script],
            cwd=cwd, env=env, stdout=output, stderr=subprocess.STDOUT, text=True, timeout=600, check=False,
        )
        output.seek(0)
        text = output.read()
    assert result.returncode == 0, f"--- script\n{script}\n--- output\n{text}"
    return text


def test_every_example_has_a_readme() -> None:
    assert EXAMPLES and all((ROOT / "examples" / name / "README.md").is_file() for name in EXAMPLES)


@pytest.mark.parametrize("name", EXAMPLES)
def test_readme_commands_run_from_a_fresh_clone(
    name: str, clone: Path, shell_env: dict[str, str]
) -> None:
    readme = (clone / "examples" / name / "README.md").read_text()
    ports = {"18080": str(free_port()), "18081": str(free_port())}

    def local(text: str) -> str:
        for default, port in ports.items():
            text = text.replace(f":{default}", f":{port}").replace(f"--port {default}", f"--port {port}")
        return text

    stack_file = clone / "examples" / name / "Pulumi.dev.yaml"
    for each in stack_file.parent.glob("Pulumi.*.yaml"):
        each.write_text(local(each.read_text()))
    run_it = local(section_block(readme, "Run it against the emulator"))
    promote = local(section_block(readme, "Promote it to production"))
    tear_down = local(section_block(readme, "Tear it down"))
    assert f"cd examples/{name}\n" in run_it
    env = {**shell_env, "APINIZER_EMULATOR_PORT": ports["18080"]}

    bash(run_it, clone, env)
    # What the user's shell still has from the run: the activated .venv, the exports, the folder.
    shell = "\n".join(line for line in run_it.splitlines() if line.startswith(("source ", "export ")))
    shell += f"\ncd examples/{name}\n"
    outputs = json.loads(bash(f"{shell}pulumi stack output --json\n", clone, env))
    assert outputs, "the example's stack has no outputs after its up"
    rotate = local(section_block(readme, "Rotate the keys"))
    if rotate:
        # secured-api: a new generation of its CA and signing key, from the same shell. The gateway shows
        # it; that the stack's outputs follow is test_cli_secured_api.py's (its export after the rotation).
        bash(shell + rotate, clone, env)
        with ApinizerClient(f"http://127.0.0.1:{ports['18080']}", token=ADMIN_TOKEN) as client:
            keys = {jwk.id for jwk in client.jwks.list("Demo")}
            assert client.jwks.get("Demo", "reconciliation-signing-2").id in keys
            assert outputs["signingKeyId"] not in keys, "the first generation's key is deleted"
            (line,) = client.certificates.get("Demo", "partners-ca").certificate_environment_list
            assert line.subject_dn == "CN=Partners CA 2, O=Example Payouts"
    if promote:
        # The second environment's stack, on the same management API: both environments run the proxy.
        bash(shell + promote, clone, env)
        promoted = json.loads(bash(f"{shell}pulumi stack output --json --stack prod\n", clone, env))
        assert (promoted["environment"], promoted["deployed"]) == ("production", True), promoted
        with ApinizerClient(f"http://127.0.0.1:{ports['18080']}", token=ADMIN_TOKEN) as client:
            listed = client.api_proxies.get("Demo", promoted["apiProxy"]).deployment_list
        assert {line.environment_name for line in listed if line.deployed} == {"test", "production"}, listed

    bash(shell + tear_down, clone, env)
    # `stack rm` (without --force) refuses a stack that still has resources: destroy emptied it.
    stacks = json.loads(bash(f"{shell}pulumi stack ls --json\n", clone, env))
    assert [stack["name"] for stack in stacks if stack["name"].endswith(("dev", "prod"))] == [], stacks
    assert stack_file.is_file(), "the tear-down removed the example's shipped stack file"
    # Every emulator the README started is stopped, and secured-api's JWKS server.
    assert not (clone / ".apinizer" / "emulator.pid").exists()
    assert not (clone / "examples" / name / "local" / "jwks-server.json").exists()
    for port in ports.values():
        with pytest.raises(httpx.TransportError):
            httpx.get(f"http://127.0.0.1:{port}/apiops/test/healthcheck", timeout=2)
