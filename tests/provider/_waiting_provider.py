"""A provider whose creates wait for one another: how many the provider server runs at once.

Pickled by reference, so the provider server imports this module (the test puts ``tests/`` on its
``PYTHONPATH``, where pytest imports it from).
"""

from __future__ import annotations

import os
import threading
from typing import Any

import pulumi.dynamic as dyn

from apinizer_pulumi.resources._base import ApinizerProvider

#: Creates that must be running together before any of them returns.
TOGETHER = int(os.environ.get("WAITING_PROVIDER_TOGETHER", "8"))
#: How long a create waits for the others: only a bound that turns a hang into a failure.
PATIENCE = float(os.environ.get("WAITING_PROVIDER_PATIENCE", "20"))
_ALL_IN = threading.Barrier(TOGETHER)


class WaitingProvider(ApinizerProvider):
    kind = "Waiting"
    replace_fields = ()

    def create(self, props: dict[str, Any]) -> dyn.CreateResult:
        # Times out (BrokenBarrierError, the create fails) unless TOGETHER creates run at once.
        # A create named "solo" waits for nothing.
        arrived = 0 if props["name"] == "solo" else _ALL_IN.wait(timeout=PATIENCE)
        return dyn.CreateResult(f"waiting/{props['name']}", {**props, "arrived": arrived})

    def check(self, olds: dict[str, Any], news: dict[str, Any]) -> dyn.CheckResult:
        return dyn.CheckResult(news, [])

    def read(self, id_: str, props: dict[str, Any]) -> dyn.ReadResult:
        # Like create: fails unless TOGETHER reads (or creates) run at once.
        _ALL_IN.wait(timeout=PATIENCE)
        return dyn.ReadResult(id_, props)
