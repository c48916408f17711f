"""A provider whose Read answers with what its process's collector has frozen and whether pydantic is loaded.

Pickled by reference, so the provider server imports this module (the test puts ``tests/`` on its
``PYTHONPATH``, where pytest imports it from).
"""

from __future__ import annotations

import gc
import sys
from typing import Any

import pulumi.dynamic as dyn


class HeapProvider(dyn.ResourceProvider):
    def read(self, id_: str, props: dict[str, Any]) -> dyn.ReadResult:
        return dyn.ReadResult(id_, {"frozen": gc.get_freeze_count(), "pydantic": "pydantic" in sys.modules})
