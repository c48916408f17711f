"""The provider servers that the tests fork (``_fork_server``) are what ``python -m pulumi.dynamic`` is.

Each report comes from a provider's create in the server process, over gRPC; the reference is a server
started as the engine starts one.
"""

from __future__ import annotations

import os
from pathlib import Path
from typing import Any

import pytest

from apinizer_pulumi.resources.testing import Engine, ProviderServer

from ._fork_server import ForkedProviderServer
from ._process_probe import ProcessProbe

TESTS = Path(__file__).resolve().parents[1]


def report(server: ProviderServer) -> dict[str, Any]:
    return Engine(server, ProcessProbe(), "Probe").create({})[1]


@pytest.mark.parametrize("settings", [
    {},
    {"APINIZER_READ_CACHE_TTL": "600", "APINIZER_PROVIDER_THREADS": "7"},
    {"APINIZER_IMPORT_GUARD": "0", "APINIZER_READ_CACHE_TTL": "0"},
], ids=["defaults", "settings", "no-guard"])
def test_a_forked_server_is_the_process_the_engine_starts(settings: dict[str, str]) -> None:
    env = {"PYTHONPATH": str(TESTS), **settings}
    with ProviderServer({}, env=env) as started:
        expected = report(started)
    with ForkedProviderServer({}, env=env) as forked:
        got = report(forked)

    assert got.pop("pid") != expected.pop("pid")
    assert got == expected
    assert expected["main"] == "pulumi.dynamic.__main__"
    assert expected["environment"] == settings
    assert expected["test"] == os.environ["PYTEST_CURRENT_TEST"]


def test_servers_forked_one_after_another_keep_their_own_settings_and_processes() -> None:
    reports = []
    for ttl in ("0", "600", "0"):
        env = {"PYTHONPATH": str(TESTS), "APINIZER_READ_CACHE_TTL": ttl}
        with ForkedProviderServer({}, env=env) as forked:
            reports.append(report(forked))
    assert [entry["read_cache_ttl"] for entry in reports] == [0.0, 600.0, 0.0]
    assert len({entry["pid"] for entry in reports}) == 3


def test_a_stopped_server_has_ended() -> None:
    forked = ForkedProviderServer({}, env={"PYTHONPATH": str(TESTS)})
    report(forked)
    forked.stop()
    assert not Path(f"/proc/{forked.process.pid}").exists() or _state(forked.process.pid) == "Z"


def _state(pid: int) -> str:
    try:
        return Path(f"/proc/{pid}/stat").read_text().rsplit(")", 1)[1].split()[0]
    except OSError:
        return "gone"
