"""The SDK's provider server runs more than its 4 calls at once from our provider's first write or check.

Without that, a fifth create waits in the server's queue while four wait for the list that reads
back their ids, and creates of one proxy share a list at most four at a time. Reads (and diffs:
a refresh) before any write or check keep the server's 4: they contend for one interpreter lock.
"""

from __future__ import annotations

from pathlib import Path
from typing import Any

import pytest

from apinizer_pulumi.resources.testing import Engine

from ._fork_server import ForkedProviderServer
from ._waiting_provider import WaitingProvider

#: Where pytest imports this package from (as ``provider``): the provider server must find it there too.
TESTS = Path(__file__).resolve().parents[1]


@pytest.mark.parametrize("together", [8, 16])
def test_creates_beyond_the_servers_four_threads_run_at_once(together: int) -> None:
    env = {"PYTHONPATH": str(TESTS), "WAITING_PROVIDER_TOGETHER": str(together)}
    with ForkedProviderServer({}, env=env) as server:
        engine = Engine(server, WaitingProvider(), "Waiting")
        futures = [engine.create_future({"name": f"w{index}"}, f"w{index}") for index in range(together)]
        ids = sorted(future.result(timeout=60).id for future in futures)
    assert ids == sorted(f"waiting/w{index}" for index in range(together))


def test_the_limit_is_the_configured_one() -> None:
    """With ``APINIZER_PROVIDER_THREADS=4`` the server keeps its 4: eight waiting creates fail."""
    env = {"PYTHONPATH": str(TESTS), "WAITING_PROVIDER_TOGETHER": "8", "APINIZER_PROVIDER_THREADS": "4",
           "WAITING_PROVIDER_PATIENCE": "2"}
    with ForkedProviderServer({}, env=env) as server:
        engine = Engine(server, WaitingProvider(), "Waiting")
        futures = [engine.create_future({"name": f"w{index}"}, f"w{index}") for index in range(8)]
        errors = [future.exception(timeout=60) for future in futures]
    assert all(error is not None and "BrokenBarrierError" in str(error) for error in errors), errors


def reads(engine: Engine, count: int) -> list[Any]:
    """``count`` Reads sent at once, as a refresh sends them."""
    names = [f"r{index}" for index in range(count)]
    return [engine.read_future(f"waiting/{name}", {"name": name}, name) for name in names]


def test_reads_alone_keep_the_servers_four_threads() -> None:
    """Five reads that wait for one another never run together: the fifth waits for a thread."""
    env = {"PYTHONPATH": str(TESTS), "WAITING_PROVIDER_TOGETHER": "5", "WAITING_PROVIDER_PATIENCE": "2"}
    with ForkedProviderServer({}, env=env) as server:
        engine = Engine(server, WaitingProvider(), "Waiting")
        futures = reads(engine, 5)
        errors = [future.exception(timeout=60) for future in futures]
    assert all(error is not None and "BrokenBarrierError" in str(error) for error in errors), errors


@pytest.mark.parametrize("first", ["create", "check"])
def test_a_write_or_a_check_widens_the_server_for_the_reads_after_it(first: str) -> None:
    """After one create (or check: a preview's), five reads that wait for one another run together."""
    env = {"PYTHONPATH": str(TESTS), "WAITING_PROVIDER_TOGETHER": "5", "WAITING_PROVIDER_PATIENCE": "20"}
    with ForkedProviderServer({}, env=env) as server:
        engine = Engine(server, WaitingProvider(), "Waiting")
        if first == "create":
            assert engine.create({"name": "solo"}, "solo")[0] == "waiting/solo"
        else:
            assert not engine.check({"name": "solo"}).failures
        futures = reads(engine, 5)
        ids = [future.result(timeout=60).id for future in futures]
    assert ids == [f"waiting/r{index}" for index in range(5)]
