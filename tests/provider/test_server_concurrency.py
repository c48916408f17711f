"""The SDK's provider server runs more than its 4 calls at once once our provider configures it.

Without that, a fifth create waits in the server's queue while four wait for the list that reads
back their ids, and creates of one proxy share a list at most four at a time.
"""

from __future__ import annotations

from pathlib import Path

import pytest

from apinizer_pulumi.resources.testing import Engine, ProviderServer

from ._waiting_provider import WaitingProvider

#: Where pytest imports this package from (as ``provider``): the provider server must find it there too.
TESTS = Path(__file__).resolve().parents[1]


@pytest.mark.parametrize("together", [8, 16])
def test_creates_beyond_the_servers_four_threads_run_at_once(together: int) -> None:
    env = {"PYTHONPATH": str(TESTS), "WAITING_PROVIDER_TOGETHER": str(together)}
    with ProviderServer({}, env=env) as server:
        engine = Engine(server, WaitingProvider(), "Waiting")
        futures = [engine.create_future({"name": f"w{index}"}, f"w{index}") for index in range(together)]
        ids = sorted(future.result(timeout=60).id for future in futures)
    assert ids == sorted(f"waiting/w{index}" for index in range(together))


def test_the_limit_is_the_configured_one() -> None:
    """With ``APINIZER_PROVIDER_THREADS=4`` the server keeps its 4: eight waiting creates fail."""
    env = {"PYTHONPATH": str(TESTS), "WAITING_PROVIDER_TOGETHER": "8", "APINIZER_PROVIDER_THREADS": "4",
           "WAITING_PROVIDER_PATIENCE": "2"}
    with ProviderServer({}, env=env) as server:
        engine = Engine(server, WaitingProvider(), "Waiting")
        futures = [engine.create_future({"name": f"w{index}"}, f"w{index}") for index in range(8)]
        errors = [future.exception(timeout=60) for future in futures]
    assert all(error is not None and "BrokenBarrierError" in str(error) for error in errors), errors
