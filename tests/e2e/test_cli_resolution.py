"""How the scripts and the tests find the Pulumi CLI: PATH, then the cached build, then a build with go.

These run without building anything: a stand-in ``pulumi`` on PATH, or a stand-in placed where the build
would have left the compiled CLI, shows which one wins; a PATH with neither ``pulumi`` nor ``go`` shows
the skip reason and the install message.
"""

from __future__ import annotations

import os
import shutil
import subprocess
from pathlib import Path

import pytest

from . import conftest
from .conftest import ROOT

BASH = shutil.which("bash") or "/bin/bash"
STAND_IN = "#!/bin/sh\necho v3.0.0-stand-in\n"


def bare_path() -> str:
    """This PATH less every folder that holds a `pulumi` or a `go`."""
    kept = [
        entry
        for entry in os.environ["PATH"].split(os.pathsep)
        if entry and not (Path(entry) / "pulumi").exists() and not (Path(entry) / "go").exists()
    ]
    return os.pathsep.join(kept)


@pytest.fixture
def isolated(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> Path:
    """HOME and XDG_CACHE_HOME in a temporary folder, and a PATH with neither pulumi nor go."""
    monkeypatch.setenv("HOME", str(tmp_path / "home"))
    monkeypatch.setenv("XDG_CACHE_HOME", str(tmp_path / "cache"))
    monkeypatch.setenv("PATH", bare_path())
    return tmp_path


def cached_build(cache: Path) -> Path:
    version = conftest.pinned_version()
    built = cache / "apinizer-pulumi" / f"pulumi-{version}" / "build" / "pulumi"
    built.parent.mkdir(parents=True)
    built.write_text(STAND_IN)
    built.chmod(0o755)
    return built


def test_without_pulumi_or_go_the_tests_skip_and_say_why(isolated: Path) -> None:
    binary, reason = conftest.find_or_build_cli()
    assert binary is None
    assert "neither the Pulumi CLI (`pulumi`) nor Go (`go`" in reason
    assert "https://www.pulumi.com/docs/install/" in reason and "https://go.dev/dl/" in reason


def test_a_pulumi_on_path_comes_first(isolated: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    cached_build(isolated / "cache")
    bin_dir = isolated / "bin"
    bin_dir.mkdir()
    (bin_dir / "pulumi").write_text(STAND_IN)
    (bin_dir / "pulumi").chmod(0o755)
    monkeypatch.setenv("PATH", f"{bin_dir}{os.pathsep}{os.environ['PATH']}")
    assert conftest.find_or_build_cli() == (bin_dir / "pulumi", "on PATH")


def test_the_cached_build_is_used_without_go(isolated: Path) -> None:
    built = cached_build(isolated / "cache")
    binary, how = conftest.find_or_build_cli()
    assert binary is not None and how == "built from tools/pulumi-cli"
    # The folder beside it holds the CLI (the same file) and both plugin launchers.
    assert binary.samefile(built)
    assert {path.name for path in binary.parent.iterdir()} >= {
        "pulumi",
        "pulumi-language-python",
        "pulumi-resource-pulumi-python",
        "language_host.py",
    }


def test_the_scripts_resolve_in_the_same_order(isolated: Path) -> None:
    env = dict(os.environ)
    script = f'source "{ROOT}/scripts/_pulumi.sh"; apinizer_find_pulumi || exit $?; echo "$PULUMI_CLI"'

    missing = subprocess.run([BASH, "-c", script], env=env, capture_output=True, text=True, check=False)
    assert missing.returncode == 127
    assert (
        "curl -fsSL https://get.pulumi.com | sh" in missing.stderr and "https://go.dev/dl/" in missing.stderr
    )

    built = cached_build(isolated / "cache")
    found = subprocess.run([BASH, "-c", script], env=env, capture_output=True, text=True, check=True)
    assert Path(found.stdout.strip().splitlines()[-1]).samefile(built)
