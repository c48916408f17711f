"""One reach into the SDK's program runtime: wait for a program's outputs in linear time, not quadratic.

Documented, kill-switched, and inert wherever the SDK waits another way (docs/performance.md).

When a program's code has run, the SDK's ``pulumi.runtime.stack.wait_for_rpcs`` waits for every
``Output`` still pending. It does so in a loop that calls ``asyncio.wait(pending, FIRST_COMPLETED)``
on *all* of them, awaits the one or few that finished, and goes round again with the rest: each
round hooks and unhooks a callback on every pending output, so P outputs that finish one after
another cost P rounds of P: O(P²). During ``pulumi up`` the outputs finish as the engine answers
each resource, one by one; an ``Endpoint`` has eleven, so at 1,000 endpoints the program's
interpreter spent 2.8 s in that loop (py-spy, ``--gil``), on the two cores the engine, the
provider and the gateway need. The engine's floor (a resource with six outputs) pays it too.

:func:`install` (called by every resource constructor of this package; once per process does the
work) replaces ``wait_for_rpcs`` in its module by :func:`wait_for_rpcs`, the SDK's own loop with one
change: each round waits for the whole snapshot of pending outputs *or the first failure*
(``FIRST_EXCEPTION``) instead of the first completion. The outcome is the same: the loop ends when
every output is done, and the first output to fail raises its exception as soon as it fails; a
round now costs P once for all the outputs of its snapshot, and outputs created meanwhile are taken
in the next round, as before. Only the program's entry point calls the function by its module
global (``run_pulumi_func``); the provider servers, which import it by name and never wait for
outputs, keep the SDK's. A later SDK whose function no longer has that loop (its code no longer
names ``FIRST_COMPLETED`` and the outputs set) is left alone. ``APINIZER_OUTPUT_WAIT_FIX=0`` turns
it off.
"""

from __future__ import annotations

import asyncio
import os
import threading
import types
from typing import Any

#: ``APINIZER_OUTPUT_WAIT_FIX=0`` leaves the SDK's ``wait_for_rpcs`` as it is.
ENABLED = os.environ.get("APINIZER_OUTPUT_WAIT_FIX", "1").strip() != "0"

#: The names the SDK's quadratic loop uses (pulumi 3.x up to at least 3.259): what :func:`install`
#: recognizes before replacing anything.
SDK_LOOP_NAMES = frozenset({"FIRST_COMPLETED", "wait", "outputs", "_get_rpc_manager", "rpcs", "SETTINGS"})

_MARK = "_apinizer_linear_waits"
_INSTALL_LOCK = threading.Lock()
#: None until the first call decides; then whether the module's function is this one.
_decided: bool | None = None
#: The SDK's function this module replaced (for tests and for comparison), once replaced.
replaced: Any = None


async def wait_for_rpcs(await_all_outstanding_tasks: bool = True) -> None:
    """The SDK's ``wait_for_rpcs``, waiting for each snapshot of outputs at once (see the module)."""
    from pulumi import log
    from pulumi.runtime import settings, stack
    from pulumi.runtime.settings import SETTINGS

    log.debug("Waiting for outstanding RPCs to complete")
    rpc_manager = stack._get_rpc_manager()  # type: ignore[attr-defined]
    while True:
        while len(rpc_manager.rpcs) > 0:
            await asyncio.sleep(0)
            if settings.excessive_debug_output:
                log.debug(f"waiting for quiescence; {len(rpc_manager.rpcs)} RPCs outstanding")
            try:
                await rpc_manager.rpcs.pop()
            except Exception as exn:
                if rpc_manager.unhandled_exception is not None:
                    cause = rpc_manager.unhandled_exception.with_traceback(rpc_manager.exception_traceback)
                    raise exn from cause
                raise

        if rpc_manager.unhandled_exception is not None:
            raise rpc_manager.unhandled_exception.with_traceback(rpc_manager.exception_traceback)

        log.debug("RPCs successfully completed")

        if await_all_outstanding_tasks:
            while True:
                with SETTINGS.lock:
                    if len(SETTINGS.outputs) == 0:
                        break
                    pending_outputs: list[asyncio.Future[Any]] = list(SETTINGS.outputs)
                    SETTINGS.outputs.clear()
                # The one change: all of the snapshot, or its first failure, in one wait.
                done, not_done = await asyncio.wait(pending_outputs, return_when=asyncio.FIRST_EXCEPTION)
                for task in done:
                    await task
                if not_done:
                    with SETTINGS.lock:
                        for task in not_done:
                            SETTINGS.outputs.add(task)
            log.debug("All outstanding outputs completed.")

        if len(rpc_manager.rpcs) == 0:
            break


setattr(wait_for_rpcs, _MARK, True)


def quadratic(function: object) -> bool:
    """Whether ``function`` is the SDK's loop this module replaces (recognized by the names it uses)."""
    if not isinstance(function, types.FunctionType) or getattr(function, _MARK, False):
        return False
    names: set[str] = set()
    codes = [function.__code__]
    while codes:  # the names of the function and of any code nested in it
        code = codes.pop()
        names.update(code.co_names)
        codes.extend(const for const in code.co_consts if isinstance(const, types.CodeType))
    return names >= SDK_LOOP_NAMES


def install() -> bool:
    """Replace the SDK's ``wait_for_rpcs``, where it is the quadratic loop; decided once per process.

    True when the module's function is this one.
    """
    global _decided, replaced
    if _decided is not None:
        return _decided
    with _INSTALL_LOCK:
        if _decided is None:
            from pulumi.runtime import stack

            current = getattr(stack, "wait_for_rpcs", None)
            if getattr(current, _MARK, False):
                _decided = True
            elif ENABLED and quadratic(current):
                replaced = current
                stack.wait_for_rpcs = wait_for_rpcs
                _decided = True
            else:
                _decided = False
        return _decided
