"""Fixtures shared by every test directory: a live emulator for the session, reset per test."""

from __future__ import annotations

import sys
from collections.abc import Iterator
from pathlib import Path

import pytest

from _suite_clock import register as register_suite_clock
from apinizer_emulator.testing import EmulatorServer
from apinizer_pulumi.client import ApinizerClient
from apinizer_pulumi.generate import generate_program, write_project

ADMIN_TOKEN = "dev-admin-token"
DEVELOPER_TOKEN = "dev-developer-token"
#: Every proxy of the default fixture; the report would leave out Orders (shared internally only).
FIXTURE_PROXIES = ("PetStore", "Orders", "Calculator")
E2E = "tests/e2e/"

# pytest keeps each test module's assertion rewrite as bytecode in its __pycache__ (git-ignored), unless
# writing bytecode is off, as PYTHONDONTWRITEBYTECODE turns it off on this project's machines: then every
# run, and every xdist worker of it, rewrites every test module again (7 s of CPU for all of them). Set
# here, after this file's own rewrite and before the test modules'; the processes the tests start keep
# the environment's setting (scripts/_venv.sh compiles the project's own modules for them).
sys.dont_write_bytecode = False


def pytest_configure(config: pytest.Config) -> None:
    register_suite_clock(config)


def pytest_collection_modifyitems(config: pytest.Config, items: list[pytest.Item]) -> None:
    """Under pytest-xdist (``--dist loadfile``, as scripts/test.sh runs it), the end-to-end tests first.

    loadfile sends a module's tests to one worker, in their order, so that its module fixtures (a
    provider server, a seeded gateway) are made once and what it counts across its tests (the fuzzing's
    cases) stays in one process. The e2e modules are the longest: sent first (with
    ``--no-loadscope-reorder``, which keeps this order), longest first, they are not the tail of the run;
    the longest of the other modules follow them, and the many short modules after those even out the
    workers' ends.
    """
    if hasattr(config, "workerinput"):
        items.sort(key=lambda item: (not item.nodeid.startswith(E2E), -module_seconds(item)))


#: The e2e modules' worker time in seconds, the longest (setup and call from ``--durations=0``, one process,
#: load 2 to 5: test_cli_environments, _root_stack, _generated and _scripts as last measured; the others
#: from the last quiet run of all of tests/e2e, less what moved out of any_shell since).
#: loadfile hands the modules out in the order they are collected, so these go first: one long module taken
#: last would be the run's tail on its worker while the others idle. Only the order matters; a module not
#: listed (most examples', the short ones) counts as ``E2E_UNLISTED_SECONDS``.
E2E_MODULE_SECONDS: dict[str, float] = {
    "test_cli_environments.py": 106.0,
    "test_cli_any_shell.py": 71.0,
    "test_cli_secured_api.py": 63.0,
    "test_cli_many_resources.py": 59.0,
    "test_example_new_service.py": 45.0,
    "test_example_secured_api.py": 45.0,
    "test_cli_root_stack.py": 41.0,
    "test_cli_generated.py": 40.0,
    "test_cli_scripts.py": 31.0,
}
E2E_UNLISTED_SECONDS = 30.0

#: The longest modules of the other folders, in seconds of their tests (`bash scripts/test.sh --fast
#: --junitxml=...`, quiet machine, 2026-11-27): sent first after the e2e modules, longest first, for the
#: same reason. In collection order, the fuzzing (39 s) and the docs' code blocks (36 s) came in the
#: middle of the fast loop and were its tail. A module not listed counts 0 and keeps its collection order.
LONG_MODULE_SECONDS: dict[str, float] = {
    "tests/fuzz/test_openapi_fuzz.py": 39.0,
    "tests/docs/test_code_blocks.py": 36.0,
    "tests/emulator/test_authz_matrix.py": 22.0,
    "tests/provider/test_fault_convergence.py": 19.0,
    "tests/provider/test_lost_answers.py": 15.0,
    "tests/provider/test_rlcl.py": 11.0,
    "tests/provider/test_server_concurrency.py": 11.0,
    "tests/unit/test_policy_args.py": 10.5,
    "tests/provider/test_untrusted_answers.py": 10.0,
    "tests/provider/test_refresh_retries.py": 10.0,
    "tests/emulator/test_spec_trust.py": 10.0,
}


def module_seconds(item: pytest.Item) -> float:
    module = item.nodeid.split("::", 1)[0]
    if not module.startswith(E2E):
        return LONG_MODULE_SECONDS.get(module, 0.0)
    return E2E_MODULE_SECONDS.get(module.removeprefix(E2E), E2E_UNLISTED_SECONDS)


@pytest.fixture(scope="session")
def emulator(tmp_path_factory: pytest.TempPathFactory) -> Iterator[EmulatorServer]:
    """One emulator for the whole session, on 127.0.0.1, a free port and a temporary SQLite file."""
    db: Path = tmp_path_factory.mktemp("emulator") / "emulator.db"
    with EmulatorServer(db=db) as server:
        yield server


@pytest.fixture
def emulator_url(emulator: EmulatorServer) -> str:
    """The emulator's base URL, reset to the default fixture with zeroed counters and no faults.

    Reset in the process (``EmulatorServer.reset``, what the two reset requests do): the two requests
    were 3.3 to 3.8 ms of CPU per test, the reset alone 0.6 ms, before each of about 4,000 tests.
    """
    emulator.reset()
    return emulator.base_url


@pytest.fixture
def admin_token() -> str:
    return ADMIN_TOKEN


@pytest.fixture
def developer_token() -> str:
    return DEVELOPER_TOKEN


@pytest.fixture
def generated_project(tmp_path: Path, emulator_url: str) -> Path:
    """A Pulumi project (stack ``dev``) whose program ``apinizer-pulumi generate`` wrote from the
    default fixture's project Demo, every proxy included.

    The stack file holds only ``apinizer:url``; give the token as ``APINIZER_TOKEN``. The project's
    runtime uses this interpreter's environment, so the Pulumi CLI can run it as it stands.
    """
    with ApinizerClient(emulator_url, token=ADMIN_TOKEN) as client:
        program = generate_program(client, "Demo", FIXTURE_PROXIES)
    return write_project(
        tmp_path / "generated", program, config={"apinizer:url": emulator_url}, virtualenv=sys.prefix
    )
