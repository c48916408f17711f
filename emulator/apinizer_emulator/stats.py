"""Per-operation request counters of the ``/apiops/`` API, keyed ``"<METHOD> <path template>"``."""

from __future__ import annotations

import threading
from collections import Counter
from typing import Any

UNMATCHED = "(unmatched)"


class RequestStats:
    def __init__(self) -> None:
        self._lock = threading.Lock()
        self._counts: Counter[str] = Counter()

    def count(self, method: str, template: str) -> None:
        with self._lock:
            self._counts[f"{method} {template}"] += 1

    def snapshot(self) -> dict[str, Any]:
        with self._lock:
            return {"total": sum(self._counts.values()), "requests": dict(sorted(self._counts.items()))}

    def reset(self) -> None:
        with self._lock:
            self._counts.clear()
