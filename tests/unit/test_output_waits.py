"""The linear wait for a program's outputs (``resources/_output_waits.py``) against the SDK's own loop.

Both are run on the same pending outputs, in the SDK's own bookkeeping (``SETTINGS.outputs``): they
must end at the same moment (every output done), raise the same failure, take outputs created
while they wait, and the linear one must look at each output a bounded number of times where the
SDK's looks at every pending one per completion.
"""

from __future__ import annotations

import asyncio
import json
import subprocess
import sys
from collections.abc import Awaitable, Callable, Iterator
from typing import Any

import pytest
from pulumi.runtime import stack
from pulumi.runtime.settings import SETTINGS

from apinizer_pulumi.resources import _output_waits

Wait = Callable[..., Awaitable[None]]


def sdk_wait() -> Wait:
    """The SDK's ``wait_for_rpcs``, also when this process has replaced it already."""
    original = _output_waits.replaced or stack.wait_for_rpcs
    assert _output_waits.quadratic(original), "the SDK's function is not the loop this test compares with"
    return original  # type: ignore[no-any-return]


WAITS = {"sdk": sdk_wait, "linear": lambda: _output_waits.wait_for_rpcs}


@pytest.fixture(autouse=True)
def _empty_outputs() -> Iterator[None]:
    with SETTINGS.lock:
        saved = set(SETTINGS.outputs)
        SETTINGS.outputs.clear()
    yield
    with SETTINGS.lock:
        SETTINGS.outputs.clear()
        SETTINGS.outputs.update(saved)


class Counting:
    """Counts the callbacks hooked on outputs: what one round of ``asyncio.wait`` costs per output."""

    def __init__(self) -> None:
        self.hooks = 0


def tracked(loop: asyncio.AbstractEventLoop, counter: Counting,
            coroutine: Awaitable[Any]) -> asyncio.Future[Any]:
    future = asyncio.ensure_future(coroutine, loop=loop)
    hook = future.add_done_callback

    def counted(callback: Any, **kwargs: Any) -> None:
        counter.hooks += 1
        hook(callback, **kwargs)

    future.add_done_callback = counted  # type: ignore[method-assign]
    with SETTINGS.lock:
        SETTINGS.outputs.add(future)

    def forget(done: asyncio.Future[Any]) -> None:  # what Output._track's cleanup does
        if not done.cancelled() and done.exception() is None:
            with SETTINGS.lock:
                SETTINGS.outputs.discard(done)

    hook(forget)
    return future


async def after_turns(turns: int) -> None:
    """Done after ``turns`` turns of the event loop: one output a turn, however loaded the machine."""
    for _ in range(turns):
        await asyncio.sleep(0)


async def after(seconds: float, value: Any = None, error: Exception | None = None) -> Any:
    await asyncio.sleep(seconds)
    if error is not None:
        raise error
    return value


Scenario = Callable[[asyncio.AbstractEventLoop, Counting], None]


def run(wait: Wait, scenario: Scenario) -> tuple[Counting, float]:
    loop = asyncio.new_event_loop()
    counter = Counting()
    try:
        scenario(loop, counter)
        started = loop.time()
        loop.run_until_complete(wait())
        return counter, loop.time() - started
    finally:
        loop.close()


@pytest.mark.parametrize("name", WAITS)
def test_every_output_is_done_when_the_wait_ends(name: str) -> None:
    futures: list[asyncio.Future[Any]] = []

    def scenario(loop: asyncio.AbstractEventLoop, counter: Counting) -> None:
        futures.extend(tracked(loop, counter, after(0.001 * index, index)) for index in range(50))

    run(WAITS[name](), scenario)
    assert all(future.done() for future in futures)
    assert [future.result() for future in futures] == list(range(50))
    assert not SETTINGS.outputs


@pytest.mark.parametrize("name", WAITS)
def test_outputs_made_while_waiting_are_waited_for(name: str) -> None:
    late: list[asyncio.Future[Any]] = []

    def scenario(loop: asyncio.AbstractEventLoop, counter: Counting) -> None:
        async def makes_another() -> None:
            await asyncio.sleep(0.01)
            late.append(tracked(loop, counter, after(0.05, "late")))

        tracked(loop, counter, makes_another())

    _, seconds = run(WAITS[name](), scenario)
    assert late and late[0].done() and late[0].result() == "late"
    assert seconds >= 0.05


@pytest.mark.parametrize("name", WAITS)
def test_the_first_failure_is_raised_without_waiting_for_the_rest(name: str) -> None:
    def scenario(loop: asyncio.AbstractEventLoop, counter: Counting) -> None:
        tracked(loop, counter, after(0.01, error=ValueError("output 7 failed")))
        tracked(loop, counter, after(30, "slow"))

    loop = asyncio.new_event_loop()
    try:
        counter = Counting()
        scenario(loop, counter)
        started = loop.time()
        with pytest.raises(ValueError, match="output 7 failed"):
            loop.run_until_complete(WAITS[name]()())
        assert loop.time() - started < 5
        for task in asyncio.all_tasks(loop):
            task.cancel()
    finally:
        loop.close()


def test_the_linear_wait_hooks_each_output_a_bounded_number_of_times() -> None:
    count = 400

    def scenario(loop: asyncio.AbstractEventLoop, counter: Counting) -> None:
        # Outputs finishing one by one, as the engine answers resources one by one (by the loop's turns,
        # not by the clock, which a loaded machine bunches up).
        for index in range(count):
            tracked(loop, counter, after_turns(index))

    sdk, _ = run(sdk_wait(), scenario)
    linear, _ = run(_output_waits.wait_for_rpcs, scenario)
    assert linear.hooks <= 2 * count
    assert sdk.hooks > 20 * count  # the SDK's: every pending output, at every completion


def test_install_replaces_the_sdk_loop_once_and_only_that() -> None:
    assert _output_waits.install() is True
    assert stack.wait_for_rpcs is _output_waits.wait_for_rpcs
    assert _output_waits.quadratic(_output_waits.wait_for_rpcs) is False  # never wrapped again

    async def another_loop(await_all_outstanding_tasks: bool = True) -> None:
        await asyncio.wait([], return_when=asyncio.FIRST_EXCEPTION)

    assert _output_waits.quadratic(another_loop) is False  # a later SDK's different loop is left alone


def test_a_program_gets_it_from_its_first_resource_and_can_turn_it_off() -> None:
    code = (
        "import json, pulumi\n"
        "from pulumi.runtime import stack\n"
        "class Mocks(pulumi.runtime.Mocks):\n"
        "    def new_resource(self, args): return [args.name, args.inputs]\n"
        "    def call(self, args): return {}\n"
        "pulumi.runtime.set_mocks(Mocks())\n"
        "before = stack.wait_for_rpcs\n"
        "import apinizer_pulumi as apinizer\n"
        "apinizer.Endpoint('e', project_name='P', api_proxy_name='A', name='/n', http_method='GET',\n"
        "                  backend_resource_url='/b', backend_http_method='GET')\n"
        "print(json.dumps([before.__module__, stack.wait_for_rpcs.__module__]))\n"
    )
    expectations = (("1", "apinizer_pulumi.resources._output_waits"), ("0", "pulumi.runtime.stack"))
    for setting, expected in expectations:
        done = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, check=True,
                              env={**_environment(), "APINIZER_OUTPUT_WAIT_FIX": setting})
        assert json.loads(done.stdout.strip().splitlines()[-1]) == ["pulumi.runtime.stack", expected]


def _environment() -> dict[str, str]:
    import os

    return {key: value for key, value in os.environ.items() if not key.startswith("APINIZER_")}
