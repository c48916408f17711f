"""The README's main command, ``bash scripts/up.sh``, and its companion ``bash scripts/down.sh``.

These run without the Pulumi CLI: one checks that ``up.sh`` stops at once, before installing or starting
anything, when ``pulumi`` is missing; the other puts a stand-in ``pulumi`` first on PATH that only records
its calls, so that everything the scripts do themselves (the emulator started in the background and
found again, the backend, passphrase and stack they hand to Pulumi, the emulator stopped) runs for real.
The real ``pulumi up`` of the root project is covered by ``test_cli_scripts.py`` (through these scripts)
and ``test_cli_root_stack.py`` (command by command).
"""

from __future__ import annotations

import contextlib
import os
import shutil
import signal
import subprocess
import time
from collections.abc import Iterator
from pathlib import Path

import httpx
import pytest

from apinizer_emulator.testing import start_subprocess

from .conftest import free_port, stop_emulators_started_in

ROOT = Path(__file__).resolve().parents[2]
UP = ROOT / "scripts" / "up.sh"
DOWN = ROOT / "scripts" / "down.sh"
BASH = shutil.which("bash") or "/bin/bash"

STAND_IN_PULUMI = """#!/usr/bin/env bash
# Stand-in for the Pulumi CLI: records each call with the backend and whether a passphrase was set, and
# knows a stack once `stack init` made it.
printf '%s|%s|%s\\n' "$*" "${PULUMI_BACKEND_URL:-}" "${PULUMI_CONFIG_PASSPHRASE:+passphrase}" \\
  >>"$STAND_IN_LOG"
case "$1 $2" in
  "stack select") grep -qx "$3" "$STAND_IN_STACKS" 2>/dev/null ;;
  "stack init") echo "$3" >>"$STAND_IN_STACKS" ;;
esac
"""


def run(script: Path, *args: str, env: dict[str, str]) -> subprocess.CompletedProcess[str]:
    return subprocess.run(
        [BASH, str(script), *args], env=env, capture_output=True, text=True, timeout=240, check=False
    )


def alive(pid: int) -> bool:
    try:
        os.kill(pid, 0)
    except ProcessLookupError:
        return False
    return True


@pytest.fixture
def script_env(tmp_path: Path) -> Iterator[dict[str, str]]:
    """An environment for the scripts: the stand-in pulumi first on PATH, state in a temporary folder."""
    bin_dir = tmp_path / "bin"
    bin_dir.mkdir()
    stand_in = bin_dir / "pulumi"
    stand_in.write_text(STAND_IN_PULUMI)
    stand_in.chmod(0o755)
    env = {
        key: value
        for key, value in os.environ.items()
        if not key.startswith(("PULUMI_", "APINIZER_"))
    }
    env.update(
        PATH=f"{bin_dir}{os.pathsep}{os.environ['PATH']}",
        APINIZER_EMULATOR_PORT=str(free_port()),
        APINIZER_STATE_DIR=str(tmp_path / "state"),
        STAND_IN_LOG=str(tmp_path / "pulumi-calls.log"),
        STAND_IN_STACKS=str(tmp_path / "pulumi-stacks"),
    )
    yield env
    stop_emulators_started_in(tmp_path / "state")  # whatever a failed test left running


def test_up_stops_at_once_without_the_pulumi_cli(script_env: dict[str, str]) -> None:
    # The PATH without the stand-in, and without any directory where a real `pulumi` or a `go` to build
    # one lives; a HOME and a cache with no ~/.pulumi/bin and no cached build.
    script_env["PATH"] = os.pathsep.join(
        entry
        for entry in script_env["PATH"].split(os.pathsep)[1:]
        if not (Path(entry) / "pulumi").exists() and not (Path(entry) / "go").exists()
    )
    script_env["HOME"] = str(Path(script_env["APINIZER_STATE_DIR"]).parent / "home")
    script_env["XDG_CACHE_HOME"] = str(Path(script_env["APINIZER_STATE_DIR"]).parent / "cache")
    state = Path(script_env["APINIZER_STATE_DIR"])

    result = run(UP, env=script_env)

    assert result.returncode == 127, result.stderr
    assert "Pulumi CLI" in result.stderr
    assert "https://www.pulumi.com/docs/install/" in result.stderr
    assert "curl -fsSL https://get.pulumi.com | sh" in result.stderr
    assert "https://go.dev/dl/" in result.stderr
    assert result.stdout == ""
    assert not state.exists()  # nothing installed, started or created


def calls(env: dict[str, str]) -> list[tuple[str, str, str]]:
    """The stand-in's log, once read: (arguments, backend, "passphrase" if one was set), then cleared."""
    log = Path(env["STAND_IN_LOG"])
    if not log.exists():
        return []
    lines = log.read_text().splitlines()
    log.unlink()
    return [(parts[0], parts[1], parts[2]) for parts in (line.split("|") for line in lines)]


def test_up_twice_then_down(script_env: dict[str, str]) -> None:
    port = script_env["APINIZER_EMULATOR_PORT"]
    url = f"http://127.0.0.1:{port}"
    state = Path(script_env["APINIZER_STATE_DIR"])
    backend = f"file://{state}/state"
    dev_stack_file = (ROOT / "Pulumi.dev.yaml").read_text()

    first = run(UP, env=script_env)

    assert first.returncode == 0, first.stderr
    pid = int((state / "emulator.pid").read_text())
    assert alive(pid)
    assert httpx.get(f"{url}/apiops/test/healthcheck", timeout=10).text == "OK"
    assert (state / "emulator.db").exists()
    assert calls(script_env) == [
        ("stack select dev", backend, "passphrase"),
        ("stack init dev --secrets-provider passphrase", backend, "passphrase"),
        (f"config set apinizer:url {url} --stack dev", backend, "passphrase"),
        ("up --yes --stack dev", backend, "passphrase"),
        ("stack output --stack dev", backend, "passphrase"),
    ]
    assert "apinizer-local-dev-only" in first.stdout  # the dev-only passphrase, to run pulumi by hand
    assert f"source {ROOT}/.venv/bin/activate" in first.stdout  # the console scripts in the user's shell

    # Again: the same emulator, the stack only selected.
    second = run(UP, env=script_env)

    assert second.returncode == 0, second.stderr
    assert f"emulator already running (pid {pid})" in second.stdout
    assert int((state / "emulator.pid").read_text()) == pid
    assert [call[0] for call in calls(script_env)] == [
        "stack select dev",
        f"config set apinizer:url {url} --stack dev",
        "up --yes --stack dev",
        "stack output --stack dev",
    ]

    stopped = run(DOWN, "--destroy", env=script_env)

    assert stopped.returncode == 0, stopped.stderr
    assert calls(script_env) == [("destroy --yes --stack dev", backend, "passphrase")]
    assert not alive(pid)
    assert not (state / "emulator.pid").exists()
    assert (state / "emulator.db").exists()  # the data outlives a stop
    again = run(DOWN, env=script_env)
    assert (again.returncode, "nothing to stop" in again.stdout) == (0, True)
    # The stand-in wrote nothing, and the scripts did not touch the committed stack file either.
    assert (ROOT / "Pulumi.dev.yaml").read_text() == dev_stack_file


def test_a_given_passphrase_is_used_and_never_printed(script_env: dict[str, str]) -> None:
    script_env["PULUMI_CONFIG_PASSPHRASE"] = "not-the-dev-one-0f3a"

    result = run(UP, env=script_env)

    assert result.returncode == 0, result.stderr
    assert "not-the-dev-one-0f3a" not in result.stdout + result.stderr
    assert "apinizer-local-dev-only" not in result.stdout
    assert all(call[2] == "passphrase" for call in calls(script_env))
    assert run(DOWN, env=script_env).returncode == 0


@pytest.fixture
def other_emulator(tmp_path: Path) -> Iterator[subprocess.Popen[bytes]]:
    """An emulator started as ``up.sh`` starts one, but from another folder: another worker's, say."""
    folder = tmp_path / "elsewhere"
    folder.mkdir()
    port = free_port()
    process = subprocess.Popen(
        [str(ROOT / ".venv" / "bin" / "apinizer-emulator"), "serve", "--host", "127.0.0.1", "--port",
         str(port), "--db", str(folder / "emulator.db")],
        stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL, stdin=subprocess.DEVNULL,
    )
    try:
        for _ in range(150):
            with contextlib.suppress(httpx.TransportError):
                if httpx.get(f"http://127.0.0.1:{port}/apiops/test/healthcheck", timeout=2).text == "OK":
                    break
            time.sleep(0.2)
        yield process
    finally:
        process.terminate()
        process.wait(timeout=30)


def test_a_pid_file_naming_another_folders_emulator_is_left_alone(
    script_env: dict[str, str], other_emulator: subprocess.Popen[bytes]
) -> None:
    # Pids are reused: a stale pid file of this folder may by now name the emulator of another folder
    # (another test worker's). Neither script may take that one for its own, nor stop it.
    state = Path(script_env["APINIZER_STATE_DIR"])
    state.mkdir()
    (state / "emulator.pid").write_text(f"{other_emulator.pid}\n")

    stopped = run(DOWN, env=script_env)

    assert stopped.returncode == 0, stopped.stderr
    assert f"pid {other_emulator.pid} is no longer the emulator" in stopped.stdout
    assert other_emulator.poll() is None
    assert not (state / "emulator.pid").exists()

    (state / "emulator.pid").write_text(f"{other_emulator.pid}\n")
    started = run(UP, env=script_env)

    assert started.returncode == 0, started.stderr
    assert "emulator ready" in started.stdout, started.stdout
    own = int((state / "emulator.pid").read_text())
    assert own != other_emulator.pid
    assert run(DOWN, env=script_env).returncode == 0
    assert not alive(own)
    assert other_emulator.poll() is None


def test_the_teardown_stops_only_emulators_of_its_own_folder(
    tmp_path: Path, other_emulator: subprocess.Popen[bytes]
) -> None:
    # The tests' own clean-up after a failure reads the same pid files, so it must check the same way.
    state = tmp_path / "state"
    state.mkdir()
    (state / "emulator.pid").write_text(f"{other_emulator.pid}\n")
    (state / "garbled.pid").write_text("not a pid\n")

    stop_emulators_started_in(state)

    assert other_emulator.poll() is None
    own, _ = start_subprocess(db=state / "second.db")
    (state / "second.pid").write_text(str(own.pid))
    stop_emulators_started_in(state)
    assert own.wait(timeout=30) == -signal.SIGTERM
    assert other_emulator.poll() is None
