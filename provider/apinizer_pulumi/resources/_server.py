"""Three reaches into the SDK's dynamic provider server, each documented, kill-switched and inert elsewhere.

1. :func:`widen_provider_server`: let the server run what the engine sends (below).
2. :func:`reuse_event_loops`: one event loop per server thread, not one per call (further below).
3. :func:`checking_urn`: the URN of the resource whose Check is being served (at the end).

The SDK's dynamic provider server runs at most 4 calls at once; let it run what the engine sends.

``python -m pulumi.dynamic`` serves the engine's gRPC calls from a ``ThreadPoolExecutor`` with
``max_workers=4``, while the engine sends up to ``--parallel`` calls at once (4 per CPU by
default). The fifth call waits in the pool's queue, not on the gateway: with four creates
waiting for the list that reads back their ids, nothing else runs, and creates of one proxy
that could share one list are served four at a time (docs/performance.md).

:func:`widen_provider_server`, called when the server first runs one of our providers' checks
or writes (check, create, update, delete: ``_base.WIDENING``), raises that pool's limit to
:data:`WORKERS`. A refresh sends only reads and diffs, and keeps the server's 4 threads: its reads
are CPU work under one interpreter lock, where more threads only contend for it.

It finds the pool through the thread it runs in (a pool thread's first argument is a weak
reference to its pool) and changes ``_max_workers``, which the pool reads on every submission
to decide whether to start one more thread (threads are still started only when calls are
waiting), and starts a thread for each call already queued.
Outside that server (a program, a test calling a provider directly), or if a later SDK or
Python serves calls another way, it does nothing and the server keeps its own limit.
"""

from __future__ import annotations

import asyncio
import contextlib
import os
import sys
import threading
import types
from concurrent.futures import ThreadPoolExecutor
from concurrent.futures import thread as pool_threads
from typing import Any

from .._provider_server import PROVIDER_SERVER, in_provider_server

#: The most calls the server runs at once once widened. The engine bounds what it sends
#: (``pulumi up --parallel``); above this, calls queue as before.
WORKERS = int(os.environ.get("APINIZER_PROVIDER_THREADS", "64"))


def serving_pool() -> ThreadPoolExecutor | None:
    """The pool whose thread runs this call, when it is the SDK's provider server's; else None."""
    if not in_provider_server():
        return None
    current = threading.current_thread()
    if getattr(current, "_target", None) is not pool_threads._worker:
        return None
    arguments = getattr(current, "_args", ())
    reference = arguments[0] if arguments else None
    pool = reference() if callable(reference) else None
    return pool if isinstance(pool, ThreadPoolExecutor) else None


def widen_provider_server(workers: int = WORKERS) -> None:
    """Let the provider server run up to ``workers`` calls at once (never fewer than it did)."""
    pool = serving_pool()
    if pool is None:
        return
    reuse_event_loops(sys.modules["__main__"])
    limit = getattr(pool, "_max_workers", None)
    if not isinstance(limit, int) or limit >= workers:
        return
    pool._max_workers = workers
    # The calls already waiting were queued under the old limit (the engine's first burst of
    # checks or creates arrives at once): a thread for each.
    queue, start_one = getattr(pool, "_work_queue", None), getattr(pool, "_adjust_thread_count", None)
    if queue is not None and callable(start_one):
        with contextlib.suppress(Exception):
            for _ in range(min(queue.qsize(), workers - limit)):
                start_one()


# -- one event loop per server thread -------------------------------------------------------------
#
# The SDK's server turns every call's result into its protobuf answer with
# ``loop = asyncio.new_event_loop(); loop.run_until_complete(serialize_properties(...));
# loop.close()``: a selector, a socket pair and their closing for each Check, Create, Update and
# Delete answer, about half of a Check's CPU outside its imports and a tenth of the provider's in
# `pulumi up` (docs/performance.md). :func:`reuse_event_loops`, run where the server is widened,
# gives the server module's own ``asyncio`` name a stand-in whose ``new_event_loop`` hands each
# server thread the same loop every time (its ``close`` leaves it open for the thread's next
# call); everything else is the real ``asyncio``, and no other module's ``asyncio`` changes.
# Each call still runs its coroutine to completion before answering, as before.
# ``APINIZER_REUSE_EVENT_LOOPS=0`` turns it off.

#: ``APINIZER_REUSE_EVENT_LOOPS=0`` gives the SDK's server a new event loop per call again.
REUSE_EVENT_LOOPS = os.environ.get("APINIZER_REUSE_EVENT_LOOPS", "1").strip() != "0"


class _KeptLoop(asyncio.SelectorEventLoop):
    """A server thread's loop: the SDK closes it after each call, and the thread's next call reuses it."""

    def close(self) -> None:
        if self.is_running():
            super().close()  # raises, as a running loop's close does


class ThreadLoops:
    """``asyncio`` for the SDK's server module, with one kept event loop per thread."""

    def __init__(self, real: types.ModuleType) -> None:
        self._real = real
        self._loops = threading.local()

    def new_event_loop(self) -> asyncio.AbstractEventLoop:
        loop: _KeptLoop | None = getattr(self._loops, "loop", None)
        if loop is None or loop.is_closed():
            loop = self._loops.loop = _KeptLoop()
        return loop

    def __getattr__(self, name: str) -> Any:
        return getattr(self._real, name)


def reuse_event_loops(server: types.ModuleType | None) -> None:
    """Give ``server`` (the SDK's provider server module) one event loop per thread (idempotent)."""
    if not REUSE_EVENT_LOOPS or server is None:
        return
    current = getattr(server, "asyncio", None)
    if current is asyncio:
        server.asyncio = ThreadLoops(asyncio)  # type: ignore[attr-defined]


# -- the URN of the resource being checked -------------------------------------------------------
#
# The engine's CheckRequest carries the resource's URN, but the SDK's server hands a dynamic
# provider's ``check`` only the old and new inputs. Two resources of a program that manage the
# same gateway object can only be told apart by their URNs, so :func:`checking_urn` looks for the
# server's ``Check`` frame above the calling thread's and reads ``request.urn`` from it. Anywhere
# else (a program, a test calling a provider directly), or if a later SDK serves Check another way
# or renames its arguments, it finds nothing and answers None: the checks that need the URN are
# then skipped, never wrong. ``APINIZER_SAME_OBJECT_CHECK=0`` turns the lookup off.

#: ``APINIZER_SAME_OBJECT_CHECK=0`` turns off the check that two resources do not manage one object.
SAME_OBJECT_CHECK = os.environ.get("APINIZER_SAME_OBJECT_CHECK", "1").strip() != "0"
#: How many frames up the server's Check may be from the provider's check (a decorator or two).
_MAX_DEPTH = 12


def checking_urn() -> str | None:
    """The URN of the resource whose Check the provider server is serving in this thread, or None."""
    if not SAME_OBJECT_CHECK:
        return None
    frame: types.FrameType | None = sys._getframe(1)
    for _ in range(_MAX_DEPTH):
        if frame is None:
            return None
        if frame.f_code.co_name == "Check":
            spec = frame.f_globals.get("__spec__")
            if getattr(spec, "name", None) == PROVIDER_SERVER:
                urn = getattr(frame.f_locals.get("request"), "urn", None)
                return urn if isinstance(urn, str) and urn else None
        frame = frame.f_back
    return None
