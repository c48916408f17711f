"""A provider whose Read answers with what its process's collector has frozen, and what is loaded.

Pickled by reference, so the provider server imports this module (the test puts ``tests/`` on its
``PYTHONPATH``, where pytest imports it from).
"""

from __future__ import annotations

import gc
import sys
from typing import Any

import pulumi.dynamic as dyn


def where(module: str, name: str) -> str:
    """Where the collector has that class: ``collected`` (in a generation), ``frozen``, or ``absent``."""
    loaded = sys.modules.get(module)
    if loaded is None:
        return "absent"
    cls = getattr(loaded, name)
    return "collected" if any(tracked is cls for tracked in gc.get_objects()) else "frozen"


class HeapProvider(dyn.ResourceProvider):
    def read(self, id_: str, props: dict[str, Any]) -> dyn.ReadResult:
        return dyn.ReadResult(id_, {"frozen": gc.get_freeze_count(), "pydantic": "pydantic" in sys.modules,
                                    "spec": where("apinizer_pulumi.models._endpoint", "EndpointSpec")})
