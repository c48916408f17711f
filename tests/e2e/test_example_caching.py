"""examples/caching under the CLI (_examples.py): its README as written, an up that changes nothing,
destroy."""

from __future__ import annotations

from pathlib import Path
from typing import Any

from ._examples import Example, State, endpoint, run_example
from .conftest import PulumiCli


def made(before: list[State], states: list[State], outputs: dict[str, Any]) -> None:
    made = [endpoint(states[0], "Orders", path, method) for path, method in
            [("/orders/search", "GET"), ("/orders/{orderId}/items", "GET"), ("/orders/quote", "POST")]]
    assert outputs["cachedEndpointIds"] == [item["id"] for item in made]
    caches = [item["cacheSettings"] for item in made]
    assert [cache["cacheActive"] for cache in caches] == [True, True, True]
    assert [(cache["cacheKeyType"], cache["cacheStorageType"], cache["ttl"]) for cache in caches] == [
        ("QUERY_PARAMS", "DISTRIBUTED", 300), ("CUSTOM", "LOCAL", 60), ("CUSTOM", "DISTRIBUTED", 86_400)
    ]
    assert [variable["name"] for variable in caches[2]["variableList"]] == ["basket", "day"]


def test_readme_as_written_then_up_again_and_destroy(pulumi_cli: PulumiCli, tmp_path: Path) -> None:
    run_example(Example("caching", 6, made), pulumi_cli, tmp_path)
