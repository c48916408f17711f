"""Every code block of README.md and docs/ does what it shows: Python runs, JSON and YAML parse, and the
shell blocks marked safe run in a fresh shell, each against a live emulator where it needs one."""

from __future__ import annotations

import json
import os
import re
import subprocess
import sys
from pathlib import Path

import httpx
import pytest
import yaml

from examples.harness import run_program

from .blocks import EXAMPLE_URL, ROOT, Block, all_blocks

PYTHON = [b for b in all_blocks("python") if b.marker != "skip"]
PROGRAMS = [b for b in PYTHON if b.is_pulumi_program]
SCRIPTS = [b for b in PYTHON if not b.is_pulumi_program]
SHELL = [b for b in all_blocks("bash") if b.marker == "run"]
ENV_VARS = ("APINIZER_URL", "APINIZER_TOKEN", "APINIZER_USERNAME", "APINIZER_PASSWORD")


def names(blocks: list[Block]) -> list[str]:
    return [block.name for block in blocks]


def test_the_collection_finds_the_blocks_it_should():
    # A wrong fence pattern would silently test nothing: pin the kinds the docs are known to hold.
    assert len(PROGRAMS) >= 15 and len(SCRIPTS) >= 6 and len(SHELL) >= 3
    assert any(block.path.name == "README.md" for block in PROGRAMS)
    assert any(block.path.name == "README.md" for block in SCRIPTS)
    skipped = [b.name for b in all_blocks("python", "bash", "json", "yaml") if b.marker == "skip"]
    assert len(skipped) <= 3, f"blocks marked not runnable should be few: {skipped}"


@pytest.fixture
def clean_environment(monkeypatch: pytest.MonkeyPatch) -> None:
    for name in (*ENV_VARS, "PULUMI_CONFIG", "PULUMI_CONFIG_SECRET_KEYS"):
        monkeypatch.delenv(name, raising=False)


@pytest.mark.usefixtures("clean_environment")
@pytest.mark.parametrize("block", PROGRAMS, ids=names(PROGRAMS))
def test_pulumi_program_runs_and_a_second_up_changes_nothing(
    block: Block, tmp_path: Path, emulator_url: str, admin_token: str, monkeypatch: pytest.MonkeyPatch
):
    """``pulumi up`` of the block as a program, each resource made for real on the emulator, then
    ``up`` again: every resource the same (no update, no replace), as a program in an infra repo must be."""
    (tmp_path / "Pulumi.yaml").write_text("name: docs-example\nruntime: python\n")
    (tmp_path / "__main__.py").write_text(block.code.replace(EXAMPLE_URL, emulator_url))
    config = {"apinizer:url": emulator_url, "apinizer:token": admin_token}
    monkeypatch.setenv("PULUMI_CONFIG", json.dumps(config))
    monkeypatch.setenv("PULUMI_CONFIG_SECRET_KEYS", json.dumps(["apinizer:token"]))
    first = run_program(tmp_path, config)
    second = run_program(tmp_path, config, previous=first)
    assert second.mocks.steps() == {"create": 0, "same": len(first.mocks.registrations), "update": 0}
    assert second.outputs == first.outputs


def run_script(block: Block, cwd: Path, emulator_url: str) -> subprocess.CompletedProcess[str]:
    env = {key: value for key, value in os.environ.items() if key not in ENV_VARS}
    return subprocess.run(
        [sys.executable, "-c", block.code.replace(EXAMPLE_URL, emulator_url)],
        cwd=cwd, env=env, capture_output=True, text=True, timeout=120,
    )


@pytest.mark.parametrize("block", SCRIPTS, ids=names(SCRIPTS))
def test_python_script_runs_and_can_run_again(block: Block, tmp_path: Path, emulator_url: str):
    for attempt in ("first", "second"):
        result = run_script(block, tmp_path, emulator_url)
        assert result.returncode == 0, f"{block.name}, {attempt} run:\n{result.stderr}"


@pytest.mark.parametrize("block", all_blocks("json"), ids=names(all_blocks("json")))
def test_json_block_parses(block: Block):
    json.loads(block.code)


@pytest.mark.parametrize("block", all_blocks("yaml"), ids=names(all_blocks("yaml")))
def test_yaml_block_parses(block: Block):
    yaml.safe_load(block.code)


def fresh_shell_environment() -> dict[str, str]:
    """What a new terminal has: the system PATH without this test run's virtual environment."""
    venv_bin = str(Path(sys.executable).parent)
    path = os.pathsep.join(p for p in os.environ["PATH"].split(os.pathsep) if p != venv_bin)
    keep = ("HOME", "LANG", "TMPDIR", "USER")
    return {"PATH": path, **{key: os.environ[key] for key in keep if key in os.environ}}


@pytest.mark.parametrize("block", SHELL, ids=names(SHELL))
def test_shell_block_runs_in_a_fresh_shell(block: Block, tmp_path: Path, emulator_url: str):
    """The block as written, in a new ``bash`` that has only activated ``.venv``, as the docs say to do.

    It runs in an empty folder that holds a ``.venv`` link to this test run's environment, so that
    relative paths (``.apinizer/emulator.db``) land in the temporary folder, not in the repository.
    """
    (tmp_path / ".venv").symlink_to(Path(sys.prefix), target_is_directory=True)
    (tmp_path / ".apinizer").mkdir()
    code = block.code.replace(EXAMPLE_URL, emulator_url)
    if "source .venv/bin/activate" not in code:
        code = "source .venv/bin/activate\n" + code
    result = subprocess.run(
        ["bash", "-e", "-o", "pipefail", "-c", code],
        cwd=tmp_path, env=fresh_shell_environment(), capture_output=True, text=True, timeout=120,
    )
    assert result.returncode == 0, f"{block.name}:\n{result.stdout}\n{result.stderr}"


def test_a_fresh_shell_needs_the_activation_the_docs_ask_for(tmp_path: Path):
    result = subprocess.run(
        ["bash", "-c", "command -v apinizer-emulator"],
        cwd=tmp_path, env=fresh_shell_environment(), capture_output=True, text=True, timeout=60,
    )
    assert result.returncode != 0
    getting_started = (ROOT / "docs" / "getting-started.md").read_text()
    assert "source .venv/bin/activate" in getting_started
    assert "source .venv/bin/activate" in (ROOT / "README.md").read_text()


def test_the_documented_fault_rules_are_accepted_by_the_emulator(emulator_url: str):
    """The rules shown on the emulator page, in blocks and inline, are rules the emulator takes as written."""
    page = (ROOT / "docs" / "emulator.md").read_text()
    section = page.split("### Fault rules", 1)[1].split("\n## ", 1)[0]
    examples = section.split("Examples, each one rule:", 1)[1].split("\n\n", 1)[0]
    rules = [json.loads(code) for code in re.findall(r"`(\{[^`]*\})`", examples)]
    rules += [json.loads(block) for block in re.findall(r"```json\n(.*?)```", section, re.S)][:1]
    assert len(rules) == 7
    for rule in rules:
        response = httpx.post(f"{emulator_url}/_emulator/faults", json=rule, timeout=10)
        assert response.status_code == 200, (rule, response.text)
    httpx.delete(f"{emulator_url}/_emulator/faults", timeout=10).raise_for_status()
