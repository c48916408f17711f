"""``apinizer-emulator`` where the ``emulator`` extra (fastapi, uvicorn, maxminddb) is not installed.

The console script runs in a real subprocess whose interpreter cannot import the extra's modules: a
``sitecustomize`` on ``PYTHONPATH`` refuses them, as an environment without the extra would.
"""

from __future__ import annotations

import os
import subprocess
import sys
from pathlib import Path

import pytest

BLOCKER = '''
import importlib.abc
import sys

BLOCKED = {"fastapi", "starlette", "uvicorn", "maxminddb"}


class WithoutTheExtra(importlib.abc.MetaPathFinder):
    def find_spec(self, name, path=None, target=None):
        if name.partition(".")[0] in BLOCKED:
            raise ModuleNotFoundError(f"No module named {name!r}", name=name)
        return None


sys.meta_path.insert(0, WithoutTheExtra())
'''


@pytest.fixture
def without_extra(tmp_path: Path) -> dict[str, str]:
    site = tmp_path / "site"
    site.mkdir()
    (site / "sitecustomize.py").write_text(BLOCKER)
    env = {key: value for key, value in os.environ.items() if not key.startswith("APINIZER_")}
    env["PYTHONPATH"] = str(site)
    return env


def run(env: dict[str, str], *args: str, cwd: Path) -> subprocess.CompletedProcess[str]:
    script = Path(sys.executable).with_name("apinizer-emulator")
    return subprocess.run(
        [str(script), *args], capture_output=True, text=True, env=env, cwd=cwd, timeout=60, check=False
    )


def test_the_blocker_hides_the_extra(without_extra: dict[str, str], tmp_path: Path) -> None:
    for module in ("fastapi", "uvicorn"):
        probe = subprocess.run([sys.executable, "-c", f"import {module}"], capture_output=True, text=True,
                               env=without_extra, cwd=tmp_path, timeout=60, check=False)
        assert probe.returncode == 1 and "ModuleNotFoundError" in probe.stderr


def test_serve_without_the_extra_says_how_to_install_it(without_extra: dict[str, str], tmp_path: Path):
    result = run(without_extra, "serve", "--port", "0", "--db", ":memory:", cwd=tmp_path)
    assert result.returncode == 1
    assert result.stdout == ""
    assert result.stderr == (
        "error: the emulator needs its extra (uvicorn is not installed): "
        "pip install 'apinizer-pulumi[emulator]'\n"
    )


def test_what_needs_no_server_works_without_the_extra(without_extra: dict[str, str], tmp_path: Path) -> None:
    assert run(without_extra, "--version", cwd=tmp_path).stdout.startswith("apinizer-emulator ")
    listing = run(without_extra, "token", "list", "--db", str(tmp_path / "e.db"), "--json", cwd=tmp_path)
    assert listing.returncode == 0, listing.stderr
