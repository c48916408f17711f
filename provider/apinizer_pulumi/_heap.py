"""The provider server's heap, frozen out of the garbage collector's full passes when our models load.

When a provider process first builds a model (its first check), the SDK's provider server has made
some 40,000 objects (pulumi, gRPC, dill, our resource modules) that live as long as the process.
Importing pydantic, httpx and the models then allocates enough that CPython ran a full collection
over all of them: 28-38 ms of CPU, a fifth of what a fresh provider's first check and create cost
(docs/performance.md, "The request floor: a fresh provider's start"), and the later full passes of
an ``up`` walk them again. :func:`freeze_provider_heap` moves what exists into the permanent
generation (``gc.freeze``), which collections do not walk; everything made after is collected as
before. Importing this module calls it (``models._base`` imports it before pydantic): it freezes
once, in the provider server's process only; a program, the emulator, tests and scripts keep their
collector as it is. ``APINIZER_GC_FREEZE=0`` turns it off.

A cycle that is already garbage when it is frozen is never freed: a one-time leak bounded by what
the server made before its first check, which lives as long as the process anyway.
"""

from __future__ import annotations

import gc
import os
import sys

#: The SDK's provider server, as ``python -m`` names its ``__main__`` (``resources._errors`` too,
#: which imports pulumi: this module must not).
PROVIDER_SERVER = "pulumi.dynamic.__main__"

FREEZE = os.environ.get("APINIZER_GC_FREEZE", "1").strip() != "0"

_frozen = False


def freeze_provider_heap() -> bool:
    """Freeze the heap once, in the provider server only; whether this call froze it."""
    global _frozen
    main = sys.modules.get("__main__")
    if _frozen or not FREEZE or getattr(getattr(main, "__spec__", None), "name", None) != PROVIDER_SERVER:
        return False
    _frozen = True
    gc.freeze()
    return True


freeze_provider_heap()
