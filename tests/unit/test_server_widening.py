"""Widening the provider server's pool happens only inside the SDK's provider server."""

from __future__ import annotations

from concurrent.futures import ThreadPoolExecutor

from apinizer_pulumi.resources._server import serving_pool, widen_provider_server


def test_outside_the_provider_server_no_pool_is_touched() -> None:
    with ThreadPoolExecutor(max_workers=2) as pool:
        assert pool.submit(serving_pool).result() is None
        pool.submit(widen_provider_server, 64).result()
        assert pool._max_workers == 2


def test_outside_a_pool_thread_there_is_nothing_to_widen() -> None:
    assert serving_pool() is None
    widen_provider_server(64)  # does nothing, raises nothing
