"""The harness's own promises: what an operation of the engine would start afresh, it starts afresh."""

from __future__ import annotations

from functools import partial

from apinizer_pulumi.resources import _reads
from apinizer_pulumi.resources._reads import ListCache

from .harness import new_operation


def test_a_new_operation_forgets_every_shared_list_of_the_provider_process() -> None:
    """The engine starts a provider process per operation; the harness runs the providers in this one,
    where a list read by ``up`` would otherwise answer a ``refresh`` begun within its 10 s, and miss a
    change made in between. Every family's list is found by its type, so a new one cannot be missed."""
    shared = {name: cache for name, cache in vars(_reads).items() if isinstance(cache, ListCache)}
    assert {"LISTS", "KEY_OBJECTS", "CREDENTIALS", "CONNECTIONS", "VARIABLES"} <= shared.keys()
    key = ("http://gateway.invalid", "Demo", "harness")
    fetched: list[str] = []

    def fetch(name: str) -> object:
        fetched.append(name)
        return {}

    for name, cache in shared.items():
        cache.get(key, "who", partial(fetch, name))
    assert sorted(fetched) == sorted(shared)
    new_operation()
    fetched.clear()
    for name, cache in shared.items():
        cache.get(key, "who", partial(fetch, name))
    assert sorted(fetched) == sorted(shared), f"kept from the last operation: {set(shared) - set(fetched)}"
