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


def test_the_servers_asyncio_hands_each_thread_one_loop_that_outlives_its_close() -> None:
    """The SDK's server makes, runs and closes a loop per answer; each thread keeps one instead."""
    import asyncio
    import types

    from apinizer_pulumi.resources._server import ThreadLoops, reuse_event_loops

    server = types.ModuleType("pulumi.dynamic.__main__")
    server.asyncio = asyncio  # type: ignore[attr-defined]
    reuse_event_loops(server)
    loops = server.asyncio
    assert isinstance(loops, ThreadLoops)
    reuse_event_loops(server)  # once only
    assert server.asyncio is loops

    async def answer(value: int) -> int:
        await asyncio.sleep(0)
        return value

    def serve(value: int) -> tuple[int, asyncio.AbstractEventLoop]:
        loop = loops.new_event_loop()  # as the SDK's server does, per call
        result = loop.run_until_complete(answer(value))
        loop.close()
        return result, loop

    first, loop = serve(1)
    second, again = serve(2)
    assert (first, second) == (1, 2)
    assert again is loop and not loop.is_closed()
    with ThreadPoolExecutor(max_workers=1) as other:
        value, elsewhere = other.submit(serve, 3).result()
    assert value == 3 and elsewhere is not loop
    assert loops.sleep is asyncio.sleep  # the rest is the real asyncio
    assert asyncio.new_event_loop is not loops.new_event_loop  # and no one else's asyncio changed
    for kept in (loop, elsewhere):  # closed for good here, as the server's end of process does
        assert isinstance(kept, asyncio.SelectorEventLoop)
        asyncio.SelectorEventLoop.close(kept)


def test_a_module_whose_asyncio_is_not_the_real_one_is_left_alone() -> None:
    import types

    from apinizer_pulumi.resources._server import reuse_event_loops

    stand_in = object()
    server = types.ModuleType("elsewhere")
    server.asyncio = stand_in  # type: ignore[attr-defined]
    reuse_event_loops(server)
    assert server.asyncio is stand_in
    reuse_event_loops(None)
