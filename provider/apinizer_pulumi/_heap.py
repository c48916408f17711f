"""The provider server's heap, frozen out of the garbage collector's full passes as our models load.

When a provider process first loads our models, the SDK's provider server has made some 40,000
objects (pulumi, gRPC, dill, our resource modules) that live as long as the process. The first
check then imports pydantic, httpx and the models, which allocates enough that CPython ran a full
collection over all of them: 28-38 ms of CPU, a fifth of what a fresh provider's first check and
create cost (docs/performance.md, "The request floor: a fresh provider's start"); and every later
full pass of an ``up`` walked them again. :func:`freeze_provider_heap` moves what exists into the
permanent generation (``gc.freeze``), which collections do not walk; what is made after is
collected as before. Importing this module calls it (``apinizer_pulumi.models`` imports it, before
any model or pydantic), and so does the first use of each models module (``models.__getattr__``),
so that pydantic's and the models' own objects are left out too. ``benchmarks/first_create.py
--next N`` times the creates after the first and the collector's share of them.

It freezes in the provider server's process only: a program, the emulator, tests and scripts keep
their collector as it is. ``APINIZER_GC_FREEZE=0`` turns it off. A cycle that is already garbage
when it is frozen is never freed: a leak bounded by what the process made before its last models
module loaded.
"""

from __future__ import annotations

import gc
import os
import sys

#: The SDK's provider server, as ``python -m`` names its ``__main__`` (``resources._errors`` too,
#: which imports pulumi: this module must not).
PROVIDER_SERVER = "pulumi.dynamic.__main__"

FREEZE = os.environ.get("APINIZER_GC_FREEZE", "1").strip() != "0"


def freeze_provider_heap() -> bool:
    """Freeze what the heap holds now, in the provider server only; whether this call froze it."""
    main = sys.modules.get("__main__")
    if not FREEZE or getattr(getattr(main, "__spec__", None), "name", None) != PROVIDER_SERVER:
        return False
    gc.freeze()
    return True


freeze_provider_heap()
