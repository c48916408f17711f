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


def test_outside_the_provider_server_no_urn_is_found() -> None:
    """A program, or a test calling a provider's check directly, has no CheckRequest above it."""
    from apinizer_pulumi.resources._server import checking_urn

    def Check(request: object) -> str | None:  # noqa: N802 - named as the server's method is
        return checking_urn()

    class Request:
        urn = "urn:pulumi:s::p::t::n"

    assert checking_urn() is None
    # A frame named Check outside the SDK's server module is not the server's.
    assert Check(Request()) is None
