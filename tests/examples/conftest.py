"""Fixtures of the program tests: a runner of Pulumi programs, a client and the emulator's inspection."""

from __future__ import annotations

import json
from collections.abc import Callable, Iterator, Mapping
from pathlib import Path
from typing import Any

import pytest

from _emulator_http import emulator_client
from apinizer_pulumi.client import ApinizerClient

from .harness import ProgramRun, run_program

ENV_VARS = ("APINIZER_URL", "APINIZER_TOKEN", "APINIZER_USERNAME", "APINIZER_PASSWORD")


@pytest.fixture(autouse=True)
def _isolated_environment(monkeypatch: pytest.MonkeyPatch) -> None:
    """No APINIZER_* or PULUMI_CONFIG from the caller's shell: programs see only the test's config."""
    for name in (*ENV_VARS, "PULUMI_CONFIG", "PULUMI_CONFIG_SECRET_KEYS"):
        monkeypatch.delenv(name, raising=False)


@pytest.fixture
def program_runner(monkeypatch: pytest.MonkeyPatch) -> Callable[..., ProgramRun]:
    """``program_runner(project_dir, config)``: run a program with that stack config.

    The config also goes to ``PULUMI_CONFIG``, the variable the language host sets, so code that reads
    config outside the program's context (a thread of its own) sees the same values.
    """

    def runner(
        project_dir: Path,
        config: Mapping[str, str],
        *,
        stack: str = "test",
        secret_keys: list[str] | None = None,
        previous: ProgramRun | None = None,
        preview: bool = False,
    ) -> ProgramRun:
        monkeypatch.setenv("PULUMI_CONFIG", json.dumps(dict(config)))
        monkeypatch.setenv("PULUMI_CONFIG_SECRET_KEYS", json.dumps(secret_keys or []))
        return run_program(
            project_dir, config, stack=stack, secret_keys=secret_keys, previous=previous, preview=preview
        )

    return runner


@pytest.fixture
def client(emulator_url: str, admin_token: str) -> Iterator[ApinizerClient]:
    with ApinizerClient(emulator_url, token=admin_token) as api:
        yield api


@pytest.fixture
def inspect(emulator_url: str) -> Iterator[Callable[[str], Any]]:
    """GET a path of the emulator's unauthenticated ``/_emulator/`` namespace and return its JSON."""
    with emulator_client(emulator_url) as http:

        def get(path: str) -> Any:
            response = http.get(f"/_emulator/{path.lstrip('/')}")
            response.raise_for_status()
            return response.json()

        yield get
