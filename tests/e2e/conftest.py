"""The real Pulumi CLI for the end-to-end tests, and projects copied out of the repository to run it on.

The CLI is found as the scripts find it (``scripts/_pulumi.sh``): a ``pulumi`` on PATH or in
``~/.pulumi/bin``, then this project's cached build, then a build of the pinned version with ``go``
(``scripts/build-pulumi.sh``, once per machine). Only where there is neither ``pulumi`` nor ``go`` do the
tests skip, and they say why. ``scripts/test.sh`` sets ``APINIZER_REQUIRE_E2E=1`` when it found or built
the CLI, which turns that skip into a failure: on this project's machines the e2e tests must run.

Every command runs with a file backend, a passphrase secrets provider, no update check and no plugin
download, in a ``PULUMI_HOME`` of its own, so nothing on the machine or in the repository is touched.
"""

from __future__ import annotations

import contextlib
import json
import os
import re
import shutil
import signal
import socket
import subprocess
import textwrap
from collections.abc import Callable, Mapping, Sequence
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

import pytest
import yaml

ROOT = Path(__file__).resolve().parents[2]
VENV_BIN = ROOT / ".venv" / "bin"
# The dev stacks' files hold their tokens encrypted with this dev-only passphrase (see Pulumi.dev.yaml).
PASSPHRASE = "apinizer-local-dev-only"
COMMAND_TIMEOUT = 300
#: scripts/build-pulumi.sh --if-available: no cached build and no `go` to make one.
NEITHER_BUILT_NOR_GO = 127
#: An e2e test runs a dozen CLI commands or more, on workers beside the rest of the suite: pyproject's
#: 300 s a test, meant for a hang, was reached by whole-life tests on a 2-core machine that six other
#: test runs shared (load average 14). A hang still ends here; speed is the benchmarks' to check.
E2E_TEST_TIMEOUT = 900


def pytest_collection_modifyitems(items: list[pytest.Item]) -> None:
    here = Path(__file__).parent
    for item in items:
        if item.path.is_relative_to(here) and item.get_closest_marker("timeout") is None:
            item.add_marker(pytest.mark.timeout(E2E_TEST_TIMEOUT))


def pinned_version() -> str:
    """The Pulumi version tools/pulumi-cli/go.mod pins (for tests that lay out its cache)."""
    for line in (ROOT / "tools" / "pulumi-cli" / "go.mod").read_text().splitlines():
        parts = line.split()
        if len(parts) >= 2 and parts[0] == "github.com/pulumi/pulumi/pkg/v3":
            return parts[1].removeprefix("v")
    raise AssertionError("tools/pulumi-cli/go.mod pins no github.com/pulumi/pulumi/pkg/v3 version")


def find_or_build_cli() -> tuple[Path | None, str]:
    """The ``pulumi`` binary and how it was found, or None and the reason there is none."""
    on_path = shutil.which("pulumi")
    if on_path:
        return Path(on_path), "on PATH"
    installed = Path.home() / ".pulumi" / "bin" / "pulumi"
    if installed.is_file() and os.access(installed, os.X_OK):
        return installed, "in ~/.pulumi/bin"
    # The cached build, or a build with go; the build prints its progress on stderr, which pytest
    # shows with the test's output.
    built = subprocess.run(
        ["bash", str(ROOT / "scripts" / "build-pulumi.sh"), "--if-available"],
        stdout=subprocess.PIPE,
        text=True,
        timeout=3600,
        check=False,
    )
    if built.returncode == NEITHER_BUILT_NOR_GO:
        return None, (
            "neither the Pulumi CLI (`pulumi`) nor Go (`go`, to build the pinned CLI) is on PATH; install "
            "one of them (https://www.pulumi.com/docs/install/ or https://go.dev/dl/) to run the e2e tests"
        )
    built.check_returncode()
    return Path(built.stdout.strip().splitlines()[-1]) / "pulumi", "built from tools/pulumi-cli"


def free_port() -> int:
    """A port on 127.0.0.1 that nothing listens on now (bound, then released)."""
    with socket.socket() as sock:
        sock.bind(("127.0.0.1", 0))
        port: int = sock.getsockname()[1]
        return port


def summary(output: str) -> dict[str, int]:
    """The CLI's closing summary ("Resources:\\n    + 10 created\\n    1 unchanged") as {verb: count}."""
    found: dict[str, int] = {}
    for count, verb in re.findall(
        r"^\s+[-+~]*\s*(\d+) (created|updated|deleted|replaced|unchanged|to create|"
        r"to update|to delete|to replace)\b",
        output,
        flags=re.MULTILINE,
    ):
        found[verb] = found.get(verb, 0) + int(count)
    return found


def program_source(directory: Path, project_name: str, program: str) -> Path:
    """A project folder of one program: Pulumi.yaml (Python, ``project_name``) and its __main__.py."""
    directory.mkdir()
    (directory / "Pulumi.yaml").write_text(yaml.safe_dump({"name": project_name, "runtime": "python"}))
    (directory / "__main__.py").write_text(textwrap.dedent(program))
    return directory


@dataclass
class Result:
    args: Sequence[str]
    returncode: int
    stdout: str
    stderr: str

    @property
    def output(self) -> str:
        return self.stdout + self.stderr

    def json(self) -> Any:
        return json.loads(self.stdout)


@dataclass
class PulumiCli:
    """The CLI binary and the environment every e2e command runs in."""

    binary: Path
    home: Path
    extra_env: dict[str, str] = field(default_factory=dict)

    def env(self, backend: Path, overrides: Mapping[str, str] | None = None) -> dict[str, str]:
        env = {
            key: value
            for key, value in os.environ.items()
            # The developer's own credentials and gateway must never leak into a test stack.
            if not key.startswith(("APINIZER_", "PULUMI_"))
        }
        env.update(
            {
                "PATH": os.pathsep.join([str(self.binary.parent), str(VENV_BIN), os.environ.get("PATH", "")]),
                "PULUMI_HOME": str(self.home),
                "PULUMI_BACKEND_URL": f"file://{backend}",
                "PULUMI_CONFIG_PASSPHRASE": PASSPHRASE,
                "PULUMI_SKIP_UPDATE_CHECK": "true",
                "PULUMI_DISABLE_AUTOMATIC_PLUGIN_ACQUISITION": "true",
                "PULUMI_SKIP_CONFIRMATIONS": "true",
                "NO_COLOR": "1",
            }
        )
        env.update(self.extra_env)
        env.update(overrides or {})
        return env


@pytest.fixture(scope="session")
def pulumi_cli(tmp_path_factory: pytest.TempPathFactory) -> PulumiCli:
    binary, how = find_or_build_cli()
    if binary is None:
        if os.environ.get("APINIZER_REQUIRE_E2E") == "1":
            pytest.fail(f"the e2e tests must run on this machine, but: {how}")
        pytest.skip(how)
    version = subprocess.run(
        [str(binary), "version"], capture_output=True, text=True, check=True
    ).stdout.strip()
    print(f"Pulumi CLI {version} ({how}): {binary}")
    return PulumiCli(binary=binary, home=tmp_path_factory.mktemp("pulumi-home"))


@dataclass
class Project:
    """A Pulumi project copied into a temporary directory, with its own file backend."""

    cli: PulumiCli
    directory: Path
    backend: Path
    stack: str = "dev"

    def run(
        self, *args: str, env: Mapping[str, str] | None = None, check: bool = True, stdin: str | None = None
    ) -> Result:
        command = [str(self.cli.binary), *args]
        completed = subprocess.run(
            command,
            cwd=self.directory,
            env=self.cli.env(self.backend, env),
            capture_output=True,
            text=True,
            timeout=COMMAND_TIMEOUT,
            input=stdin,
            check=False,
        )
        result = Result(command, completed.returncode, completed.stdout, completed.stderr)
        if check and completed.returncode != 0:
            raise AssertionError(
                f"`pulumi {' '.join(args)}` exited {completed.returncode}\n--- stdout\n{completed.stdout}"
                f"\n--- stderr\n{completed.stderr}"
            )
        return result

    def init(self) -> None:
        self.run("stack", "init", self.stack, "--secrets-provider", "passphrase")

    def configure(
        self, plain: Mapping[str, str] | None = None, *, secrets: Mapping[str, str] | None = None
    ) -> None:
        """Sets all these values with one start of the CLI (``pulumi config set-all``), not one each.

        ``secrets`` are stored encrypted, as ``config set --secret`` stores them. The CLI splits each
        pair at its first ``=``, so a value may hold ``=`` (a URL's query, a JSON document).
        """
        pairs = [("--plaintext", key, value) for key, value in (plain or {}).items()]
        pairs += [("--secret", key, value) for key, value in (secrets or {}).items()]
        if not pairs:
            raise ValueError("configure() needs at least one value to set")
        self.run(
            "config", "set-all", "--stack", self.stack,
            *(arg for kind, key, value in pairs for arg in (kind, f"{key}={value}")),
        )

    def set_config(self, key: str, value: str, *, secret: bool = False) -> None:
        if secret:
            self.configure(secrets={key: value})
        else:
            self.configure({key: value})

    def up(self, *extra: str, check: bool = True) -> Result:
        return self.run("up", "--yes", "--stack", self.stack, "--skip-preview", *extra, check=check)

    def preview(self, *extra: str, check: bool = True) -> Result:
        return self.run("preview", "--stack", self.stack, *extra, check=check)

    def refresh(self, *extra: str, check: bool = True) -> Result:
        return self.run("refresh", "--yes", "--stack", self.stack, *extra, check=check)

    def destroy(self, *extra: str, check: bool = True) -> Result:
        return self.run("destroy", "--yes", "--stack", self.stack, *extra, check=check)

    def outputs(self, *, show_secrets: bool = False) -> dict[str, Any]:
        args = ["stack", "output", "--json", "--stack", self.stack]
        result: dict[str, Any] = self.run(*args, *(["--show-secrets"] if show_secrets else [])).json()
        return result

    def export(self) -> str:
        return self.run("stack", "export", "--stack", self.stack).stdout


def copy_project(source: Path, destination: Path) -> Path:
    """A copy of a project (Pulumi.yaml, stack files, program) whose virtualenv is this repository's."""
    destination.mkdir(parents=True)
    settings = yaml.safe_load((source / "Pulumi.yaml").read_text())
    settings.setdefault("runtime", {"name": "python"})
    if isinstance(settings["runtime"], str):
        settings["runtime"] = {"name": settings["runtime"]}
    settings["runtime"].setdefault("options", {})["virtualenv"] = str(ROOT / ".venv")
    (destination / "Pulumi.yaml").write_text(yaml.safe_dump(settings, sort_keys=False))
    for stack_file in source.glob("Pulumi.*.yaml"):
        shutil.copy(stack_file, destination / stack_file.name)
    main = settings.get("main")
    if main:
        shutil.copytree(source / main, destination / main, ignore=shutil.ignore_patterns("__pycache__"))
    else:
        for program in source.glob("*.py"):
            shutil.copy(program, destination / program.name)
        # Files the program reads beside it (examples/new-service/specs/), by path relative to its folder.
        for folder in source.iterdir():
            if folder.is_dir() and not folder.name.startswith((".", "__")):
                shutil.copytree(
                    folder, destination / folder.name, ignore=shutil.ignore_patterns("__pycache__")
                )
    return destination


@pytest.fixture
def make_project(pulumi_cli: PulumiCli, tmp_path: Path) -> Callable[..., Project]:
    """Copies a project out of the repository and inits its stack.

    Nothing is removed after: the stack's state lives in the test's temporary folder and what it made in
    the worker's emulator, which the next test resets; a ``pulumi stack rm`` would only cost every
    project one more start of the CLI.
    """

    def make(source: Path, name: str | None = None, stack: str = "dev") -> Project:
        return new_project(pulumi_cli, source, tmp_path, name, stack)

    return make


def new_project(
    cli: PulumiCli, source: Path, folder: Path, name: str | None = None, stack: str = "dev"
) -> Project:
    """A copy of ``source`` in ``folder`` with its own file backend and its stack made (``make_project``;
    a module-scoped fixture calls it with a folder of the module's, for a stack its tests share)."""
    label = name or source.name
    project = Project(
        cli=cli, directory=copy_project(source, folder / label), backend=folder / f"{label}-state",
        stack=stack,
    )
    project.backend.mkdir()
    project.init()
    return project


def emulator_database(pid: int) -> Path | None:
    """The database of the emulator process ``pid``, or None if that process is no emulator (or gone).

    Read from ``/proc`` (Linux): its command line's ``--db``, resolved against its working directory.
    """
    proc = Path("/proc") / str(pid)
    try:
        args = (proc / "cmdline").read_bytes().decode(errors="replace").split("\0")
        cwd = (proc / "cwd").resolve(strict=True)
    except OSError:
        return None
    is_emulator = any(arg.endswith("apinizer-emulator") or arg == "apinizer_emulator" for arg in args)
    if not is_emulator or "--db" not in args[:-1]:
        return None
    return (cwd / args[args.index("--db") + 1]).resolve()


def stop_emulators_started_in(folder: Path) -> None:
    """SIGTERM the emulators that the ``*.pid`` files in ``folder`` name, what a failed test left running.

    Pids get reused, and the e2e tests start processes by the thousand on several workers: a pid file's
    pid may by now belong to another test's emulator. Only a process that is still an emulator whose
    database lies in ``folder`` is stopped; up.sh and the examples' READMEs keep theirs there.
    """
    for pid_file in folder.glob("*.pid"):
        try:
            pid = int(pid_file.read_text())
        except ValueError:
            continue
        database = emulator_database(pid)
        if database is not None and database.is_relative_to(folder.resolve()):
            with contextlib.suppress(ProcessLookupError):
                os.kill(pid, signal.SIGTERM)
