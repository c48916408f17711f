"""What ``_literal_names`` notes lasts one program run: a new run (every ``configure``) starts empty."""

from __future__ import annotations

import asyncio
from collections.abc import Iterator
from typing import Any

import pulumi
import pytest
from pulumi.runtime.settings import reset_options

from apinizer_pulumi.resources import _literal_names


class Mocks(pulumi.runtime.Mocks):
    def new_resource(self, args: pulumi.runtime.MockResourceArgs) -> tuple[str, dict[str, Any]]:
        return args.name, dict(args.inputs)

    def call(self, args: pulumi.runtime.MockCallArgs) -> tuple[dict[str, Any], list[tuple[str, str]]]:
        return {}, []


@pytest.fixture(autouse=True)
def event_loop_of_its_own() -> Iterator[None]:
    """Mocks need a current event loop, which a test run earlier in this process may have cleared; the
    SDK's global settings are put back afterwards, so no later test inherits these runs."""
    loop = asyncio.new_event_loop()
    asyncio.set_event_loop(loop)
    try:
        yield
    finally:
        # The mock runs registered their stacks on this loop: let that finish before the loop goes.
        pending = asyncio.all_tasks(loop)
        loop.run_until_complete(asyncio.gather(*pending, return_exceptions=True))
        reset_options()
        asyncio.set_event_loop(None)
        loop.close()


def test_each_program_run_notes_its_own_proxies() -> None:
    pulumi.runtime.set_mocks(Mocks(), project="one", stack="dev", preview=True)
    first = _literal_names._noted()
    assert first is not None
    first.proxies[("Demo", "Orders")] = "orders"
    assert _literal_names._noted() is first  # the same run

    pulumi.runtime.set_mocks(Mocks(), project="two", stack="dev", preview=True)
    second = _literal_names._noted()
    assert second is not None and second is not first and second.proxies == {}
