"""A provider whose Read answers with the modules its process has imported: what a call before it loaded.

Pickled by reference, so the provider server imports this module (the test puts ``tests/`` on its
``PYTHONPATH``, where pytest imports it from).
"""

from __future__ import annotations

import sys
from typing import Any

import pulumi.dynamic as dyn


class ModulesProvider(dyn.ResourceProvider):
    def read(self, id_: str, props: dict[str, Any]) -> dyn.ReadResult:
        return dyn.ReadResult(id_, {"loaded": sorted(sys.modules)})
