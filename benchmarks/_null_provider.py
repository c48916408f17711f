"""A dynamic provider that makes no request: what the SDK's server costs by itself per resource.

Pickled by reference, so the provider server imports this module (``benchmarks/`` is put on its
``PYTHONPATH``).
"""

from __future__ import annotations

from typing import Any

import pulumi.dynamic as dyn


class NullProvider(dyn.ResourceProvider):
    def check(self, _olds: dict[str, Any], news: dict[str, Any]) -> dyn.CheckResult:
        return dyn.CheckResult(news, [])

    def create(self, props: dict[str, Any]) -> dyn.CreateResult:
        return dyn.CreateResult(f"null/{props['name']}", dict(props))
