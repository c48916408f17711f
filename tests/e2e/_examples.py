"""An example's whole life under the real ``pulumi`` CLI: its README run as written, from a fresh clone, and
on that same stack the checks of a program under the CLI (what the gateway holds, an up that changes
nothing, a destroy that leaves the gateway as it was).

Each example has a module of its own, ``tests/e2e/test_example_<name>.py`` (so that ``--dist loadfile``
spreads them over the workers), with one test that calls :func:`run_example` with what that example must
make. Every command runs once; in order:

1. the README's "Run it against the emulator" block, in ``bash`` from the clone's root. It runs in two
   shells, split before its ``pulumi up``: the gateways' state is read between them (what the example's
   destroy must come back to, and what ``adopt-existing`` takes over);
2. the gateway holds what the example declares, and the stack its outputs (the example's ``made``);
3. ``pulumi up --expect-no-changes``: the same program again finds nothing to do;
4. the README's "Rotate the keys" (secured-api) and "Promote it to production" (new-service) blocks, where
   it has them, each checked by the example's own function;
5. the README's "Tear it down" block, split before its ``cd ../..``: first its ``pulumi destroy`` (each
   stack's) and ``pulumi stack rm``, after which every resource the stacks made is deleted and the
   gateways are as they were before the example's up; then the rest, which stops every emulator the README
   started (and secured-api's JWKS server).

Every block after the first runs after the block's ``source``, ``export`` and ``cd`` lines again (the shell
the user still has). The "fresh clone" is a copy of the files git tracks (today's content, so a README
edited but not yet committed is the one tested) with a link to this run's ``.venv`` (its install stamp
matches, so ``scripts/up.sh`` installs nothing). Only three things differ from a user's terminal, each
because a test must:

* the ports: the emulator listens on a free port (``APINIZER_EMULATOR_PORT``, which ``scripts/up.sh``
  honours), and the example's stack files and the README's own commands name that port instead of 18080
  (18081 for the second gateway), as tests/docs does for the URLs of the docs;
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
import time
from collections.abc import Callable
from dataclasses import dataclass
from pathlib import Path
from typing import Any

import httpx
import pytest
import yaml

from examples.harness import comparable_state

from .conftest import ROOT, PulumiCli, free_port, stop_emulators_started_in, summary

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
#: How long a gateway the README starts in the background may take to answer.
GATEWAY_START_TIMEOUT = 60.0

State = dict[str, Any]


def demo(state: State) -> dict[str, Any]:
    """Project Demo as ``/_emulator/state`` holds it."""
    (project,) = [item for item in state["projects"] if item["name"] == "Demo"]
    return dict(project)


def endpoint(state: State, proxy: str, path: str, method: str) -> dict[str, Any]:
    """One endpoint of project Demo as ``/_emulator/state`` holds it."""
    (api_proxy,) = [item for item in demo(state)["apiProxies"] if item["name"] == proxy]
    (found,) = [e for e in api_proxy["endpoints"] if e["endpoint"] == path and e["httpMethod"] == method]
    return dict(found)


def endpoint_count(state: State) -> int:
    return sum(len(proxy["endpoints"]) for project in state["projects"] for proxy in project["apiProxies"])


def rlcl_entries(state: State, rlcl: str) -> list[dict[str, Any]]:
    (found,) = [item for item in demo(state)["rlcls"] if item["name"] == rlcl]
    return list(found["endpointRateLimitList"])


def unchanged(initial: State) -> State:
    return initial


@dataclass(frozen=True)
class Example:
    """What one example must do under the CLI, beyond what every example must."""

    name: str
    #: How many resources the program declares (the stack itself not counted).
    resources: int
    #: Asserts the gateways' states (before and after its first up) and the stack outputs.
    made: Callable[[list[State], list[State], dict[str, Any]], None]
    #: The first gateway's expected state after destroy, from its state before up.
    destroyed: Callable[[State], State] = unchanged
    #: After the README's "Rotate the keys" block: given the gateway's URL and the outputs before it.
    rotated: Callable[[str, dict[str, Any]], None] | None = None
    #: After the README's "Promote it to production" block: given the gateway's URL and the prod stack's
    #: outputs.
    promoted: Callable[[str, dict[str, Any]], None] | None = None


def section_block(readme: str, heading: str) -> str:
    """The one ``bash`` block under ``## heading`` ("" when the README has no such section)."""
    if f"\n## {heading}\n" not in readme:
        return ""
    section = readme.split(f"\n## {heading}\n", 1)[1].split("\n## ", 1)[0]
    (block,) = re.findall(r"```bash\n(.*?)```", section, re.S)
    return str(block)


def split_before(block: str, prefix: str) -> tuple[str, str]:
    """The block's lines before its first line that starts with ``prefix``, and that line with the rest."""
    lines = block.splitlines(keepends=True)
    (first, *_) = [index for index, line in enumerate(lines) if line.startswith(prefix)]
    return "".join(lines[:first]), "".join(lines[first:])


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


def user_shell(cli: PulumiCli) -> dict[str, str]:
    """A user's new terminal with ``pulumi`` on PATH: no virtual environment, no APINIZER_ or PULUMI_."""
    venv_bin = str(ROOT / ".venv" / "bin")
    path = [p for p in os.environ["PATH"].split(os.pathsep) if p != venv_bin]
    env = {key: os.environ[key] for key in ("HOME", "LANG", "TMPDIR", "USER") if key in os.environ}
    env.update(PATH=os.pathsep.join([str(cli.binary.parent), *path]), PULUMI_HOME=str(cli.home),
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


def states(urls: list[str]) -> list[State]:
    return [comparable_state(httpx.get(f"{url}/_emulator/state", timeout=10).json()) for url in urls]


def answering(urls: list[str]) -> list[str]:
    """The URLs, once each gateway answers: the README starts the second one in the background."""
    deadline = time.monotonic() + GATEWAY_START_TIMEOUT
    for url in urls:
        while True:
            try:
                httpx.get(f"{url}/apiops/test/healthcheck", timeout=2).raise_for_status()
                break
            except httpx.HTTPError:
                assert time.monotonic() < deadline, f"no gateway answers at {url}"
                time.sleep(0.2)
    return urls


def stop_what_the_readme_started(clone: Path) -> None:
    """What a failed run left running: the README's emulators and secured-api's JWKS server."""
    stop_emulators_started_in(clone / ".apinizer")
    jwks_server = clone / "examples" / "secured-api" / "jwks_server.py"
    if (jwks_server.parent / "local" / "jwks-server.json").exists():
        subprocess.run([str(ROOT / ".venv" / "bin" / "python"), str(jwks_server), "stop"],
                       capture_output=True, timeout=60, check=False)


def run_example(example: Example, cli: PulumiCli, tmp_path: Path) -> None:
    clone = fresh_clone(tmp_path / "clone")
    try:
        lifecycle(example, clone, user_shell(cli))
    finally:
        stop_what_the_readme_started(clone)


def lifecycle(example: Example, clone: Path, user_env: dict[str, str]) -> None:
    name = example.name
    folder = clone / "examples" / name
    readme = (folder / "README.md").read_text()
    ports = {"18080": str(free_port()), "18081": str(free_port())}

    def local(text: str) -> str:
        for default, port in ports.items():
            text = text.replace(f":{default}", f":{port}").replace(f"--port {default}", f"--port {port}")
        return text

    stack_file = folder / "Pulumi.dev.yaml"
    for each in folder.glob("Pulumi.*.yaml"):
        each.write_text(local(each.read_text()))
    # The gateways the example's stack names: the first is the one scripts/up.sh starts.
    urls = [f"http://127.0.0.1:{port}" for port in ports.values() if f":{port}" in stack_file.read_text()]
    run_it = local(section_block(readme, "Run it against the emulator"))
    rotate = local(section_block(readme, "Rotate the keys"))
    promote = local(section_block(readme, "Promote it to production"))
    tear_down = local(section_block(readme, "Tear it down"))
    assert f"cd examples/{name}\n" in run_it
    assert bool(rotate) == (example.rotated is not None), "the README's rotation and the test's must match"
    assert bool(promote) == (example.promoted is not None), "the README's promotion and the test's must match"
    env = {**user_env, "APINIZER_EMULATOR_PORT": ports["18080"]}
    # What the user's shell still has from the first block: the activated .venv, the exports, the folder.
    shell = "\n".join(line for line in run_it.splitlines() if line.startswith(("source ", "export ")))
    shell += f"\ncd examples/{name}\n"

    set_up, up_block = split_before(run_it, "pulumi up")
    bash(set_up, clone, env)
    initial = states(answering(urls))
    up = bash(shell + up_block, clone, env)
    resources = example.resources + 1  # and the stack
    assert summary(up) == {"to create": resources, "created": resources}, up
    assert "warning" not in up and "error" not in up, up
    outputs = json.loads(bash(f"{shell}pulumi stack output --json\n", clone, env))
    assert outputs, "the example's stack has no outputs after its up"
    example.made(initial, states(urls), outputs)

    again = bash(f"{shell}pulumi up --skip-preview --expect-no-changes\n", clone, env)
    assert summary(again) == {"unchanged": resources}, again

    if example.rotated is not None:
        bash(shell + rotate, clone, env)
        example.rotated(urls[0], outputs)
    if example.promoted is not None:
        promoted = bash(shell + promote, clone, env)
        resources += summary(promoted)["created"]
        example.promoted(urls[0], json.loads(bash(f"{shell}pulumi stack output --json --stack prod\n",
                                                  clone, env)))

    destroy, stop = split_before(tear_down, "cd ../..")
    assert "pulumi destroy" in destroy and "pulumi stack rm" in destroy, tear_down
    destroyed = bash(shell + destroy, clone, env)
    assert summary(destroyed).get("deleted") == resources, destroyed
    final = states(urls)
    assert final[0] == example.destroyed(initial[0])
    assert final[1:] == initial[1:]
    # `stack rm` (without --force) refuses a stack that still has resources, and removes its file.
    project = yaml.safe_load((folder / "Pulumi.yaml").read_text())["name"]
    assert list((clone / ".apinizer" / "state" / ".pulumi" / "stacks" / project).glob("*.json")) == []
    assert stack_file.is_file(), "the tear-down removed the example's shipped stack file"

    bash(shell + stop, clone, env)
    # Every emulator the README started is stopped, and secured-api's JWKS server.
    assert not (clone / ".apinizer" / "emulator.pid").exists()
    assert not (folder / "local" / "jwks-server.json").exists()
    for port in ports.values():
        with pytest.raises(httpx.TransportError):
            httpx.get(f"http://127.0.0.1:{port}/apiops/test/healthcheck", timeout=2)
