"""The provider server's heap, frozen out of the garbage collector's full passes before our models load.

When a provider process first loads our models, the SDK's provider server has made some 40,000
objects (pulumi, gRPC, dill, our resource modules) that live as long as the process. The first
check then imports pydantic, httpx and the models, which allocates enough that CPython ran a full
collection over all of them: 28-38 ms of CPU, a fifth of what a fresh provider's first check and
create cost (docs/performance.md, "The request floor: a fresh provider's start").
:func:`freeze_provider_heap` moves what exists into the permanent generation (``gc.freeze``),
which collections do not walk; what is made after is collected as before. Importing this module
calls it: ``apinizer_pulumi.models`` imports it, before any model or pydantic. Freezing again
after each models module loaded was measured and left out: inside the noise, for the first create
and for the 300 after it (``benchmarks/first_create.py --next 300``; the collector's share of
those is about 3 % either way).

It freezes in the provider server's process only: a program, the emulator, tests and scripts keep
their collector as it is. ``APINIZER_GC_FREEZE=0`` turns it off. A cycle that is already garbage
when it is frozen is never freed: a one-time leak bounded by what the process made before then.
"""

from __future__ import annotations

import gc
import os

from ._provider_server import in_provider_server


def freeze_provider_heap() -> bool:
    """Freeze what the heap holds now, in the provider server only; whether this call froze it."""
    if not in_provider_server():
        return False
    # Read here, and only in the provider server: the tests' fork server imports the models once for
    # every environment and refuses a package whose import reads a setting (tests/provider/_fork_server.py).
    if os.environ.get("APINIZER_GC_FREEZE", "1").strip() == "0":
        return False
    gc.freeze()
    return True


freeze_provider_heap()
