"""The workaround for the SDK's pickle wrapper per resource (``resources/_pickle_layers``).

The SDK's ``serialize_provider`` changes process-wide pickler state, so every run of it on the
real SDK happens in a fresh interpreter, and this one stays as it was.
"""

from __future__ import annotations

import base64
import pickle
import subprocess
import sys
import textwrap
import types
from collections.abc import Callable
from typing import Any

import dill
import pytest
from pulumi.dynamic import dynamic

from apinizer_pulumi.resources import _pickle_layers
from apinizer_pulumi.resources._pickle_layers import install_into, stacks_wrappers

CALLS = 3000

#: A program's serializations: ours and a foreign provider that holds instance attributes (defined
#: in ``__main__``, as in a Pulumi program, so dill pickles its class by value too).
PROGRAM = f"""
import base64, sys
from pulumi.dynamic import ResourceProvider, dynamic
from apinizer_pulumi.resources._args import resource_options
from apinizer_pulumi.resources.endpoint import EndpointProvider
from apinizer_pulumi.resources.rlcl import RlclProvider

class Foreign(ResourceProvider):
    def __init__(self, order):
        self.settings = dict(order)
        self.name = "foreign"

# The SDK's first call, before anything stacked: what every later pickle must equal.
reference = dynamic.serialize_provider(Foreign([("b", 1), ("a", 2)]))
resource_options(None)  # what every resource constructor calls before the SDK serializes
print("replaced", getattr(dynamic.serialize_provider, "_apinizer_one_layer", False))
blobs = set()
try:
    for index in range({CALLS}):
        blobs.add(dynamic.serialize_provider(EndpointProvider()))
        blobs.add(dynamic.serialize_provider(RlclProvider()))
        # The same items in the other order: the pickle is still sorted.
        foreign = dynamic.serialize_provider(Foreign([("a", 2), ("b", 1)]))
        assert foreign == reference, index
except RecursionError:
    print("RecursionError at", index + 1)
    sys.exit(3)
print("distinct", len(blobs))
"""


def run(code: str, **env: str) -> subprocess.CompletedProcess[str]:
    import os

    environment = {key: value for key, value in os.environ.items() if not key.startswith("APINIZER_")}
    return subprocess.run(
        [sys.executable, "-c", textwrap.dedent(code)], capture_output=True, text=True, timeout=300,
        env={**environment, **env},
    )


def sdk_stacks() -> bool:
    probed = run("""
        from pulumi.dynamic import dynamic
        from apinizer_pulumi.resources._pickle_layers import stacks_wrappers
        print(stacks_wrappers(dynamic.serialize_provider))
    """)
    assert probed.returncode == 0, probed.stderr
    return probed.stdout.strip() == "True"


def test_three_thousand_of_ours_and_a_foreign_provider_serialize_in_one_program() -> None:
    result = run(PROGRAM)
    assert result.returncode == 0, result.stdout + result.stderr
    assert f"replaced {sdk_stacks()}" in result.stdout
    # Ours pickle to the same text, one per class, every time.
    assert "distinct 2" in result.stdout, result.stdout


def test_the_probe_says_whether_the_unprotected_sdk_fails_with_recursion_error() -> None:
    """Notices an SDK that fixed the bug: the probe then says no, and nothing is replaced."""
    unprotected = run(PROGRAM, APINIZER_SERIALIZE_FIX="0")
    assert "replaced False" in unprotected.stdout, unprotected.stdout + unprotected.stderr
    failed = unprotected.returncode == 3 and "RecursionError at" in unprotected.stdout
    assert failed or unprotected.returncode == 0, unprotected.stdout + unprotected.stderr
    assert sdk_stacks() == failed


def test_the_probe_leaves_the_pickler_as_it_found_it() -> None:
    before = dict(vars(pickle._Pickler)), pickle.Pickler
    original = getattr(dynamic.serialize_provider, "__wrapped__", dynamic.serialize_provider)
    stacks_wrappers(original)
    assert (dict(vars(pickle._Pickler)), pickle.Pickler) == before


def restoring_sdk(provider: Any) -> str:
    """An SDK that fixed the bug the likely way: it sorts, then puts the pickler's function back."""
    unsorted = pickle._Pickler._batch_setitems  # type: ignore[attr-defined]

    def batch_set_items_sorted(self: Any, items: Any) -> None:
        unsorted(self, sorted(items))

    pickle._Pickler._batch_setitems = batch_set_items_sorted  # type: ignore[attr-defined]
    try:
        return base64.b64encode(dill.dumps(provider, recurse=True)).decode()
    finally:
        pickle._Pickler._batch_setitems = unsorted  # type: ignore[attr-defined]


def plain_sdk(provider: Any) -> str:
    """An SDK that serializes some other way, touching no pickler state."""
    return base64.b64encode(dill.dumps(provider, recurse=True)).decode()


@pytest.mark.parametrize("fixed", [restoring_sdk, plain_sdk])
def test_an_sdk_without_the_bug_is_left_alone(fixed: Callable[[Any], str]) -> None:
    module = types.SimpleNamespace(serialize_provider=fixed)
    assert stacks_wrappers(fixed) is False
    assert install_into(module) is False
    assert module.serialize_provider is fixed


def stacking_sdk(provider: Any) -> str:
    """The SDK's pattern (3.272.0): sort by wrapping whatever the pickler has, and never put it back."""
    unsorted = pickle._Pickler._batch_setitems  # type: ignore[attr-defined]

    def batch_set_items_sorted(self: Any, items: Any) -> None:
        unsorted(self, sorted(items))

    pickle._Pickler._batch_setitems = batch_set_items_sorted  # type: ignore[attr-defined]
    return base64.b64encode(dill.dumps(provider, recurse=True)).decode()


def test_a_stacking_sdk_gets_one_layer_and_is_replaced_once() -> None:
    module = types.SimpleNamespace(serialize_provider=stacking_sdk)
    found = pickle._Pickler.__dict__["_batch_setitems"]
    try:
        assert stacks_wrappers(stacking_sdk) is True
        assert install_into(module) is True
        replaced = module.serialize_provider
        assert replaced is not stacking_sdk and replaced.__wrapped__ is stacking_sdk
        assert install_into(module) is True and module.serialize_provider is replaced
        first = replaced(_pickle_layers._Probe())
        for _ in range(CALLS):
            assert replaced(_pickle_layers._Probe()) == first
            # Back to the interpreter's own after each call: nothing stacks.
            assert pickle._Pickler.__dict__["_batch_setitems"] is _pickle_layers._STOCK
    finally:
        pickle._Pickler._batch_setitems = found  # type: ignore[attr-defined]


def test_the_kill_switch_leaves_the_sdk_as_it_is() -> None:
    result = run("""
        from pulumi.dynamic import dynamic
        original = dynamic.serialize_provider
        from apinizer_pulumi.resources._args import resource_options
        resource_options(None)
        print(dynamic.serialize_provider is original)
    """, APINIZER_SERIALIZE_FIX="0")
    assert result.stdout.strip() == "True", result.stdout + result.stderr


#: Whether ``Nesting`` serializes another provider while it is being pickled.
NESTED: list[Callable[[Any], str]] = []


class Nesting:
    """Serializes another provider from inside its own pickling, as a captured Output's may."""

    def __getstate__(self) -> dict[str, Any]:
        for serialize in NESTED:
            serialize(_pickle_layers._Probe())
        return {"b": 1, "a": 2}


def test_a_serialization_inside_another_leaves_the_outer_pickle_sorted() -> None:
    module = types.SimpleNamespace(serialize_provider=stacking_sdk)
    found = pickle._Pickler.__dict__["_batch_setitems"]
    try:
        assert install_into(module) is True
        alone = module.serialize_provider(Nesting())
        NESTED.append(module.serialize_provider)
        assert module.serialize_provider(Nesting()) == alone
        assert pickle._Pickler.__dict__["_batch_setitems"] is _pickle_layers._STOCK
    finally:
        NESTED.clear()
        pickle._Pickler._batch_setitems = found  # type: ignore[attr-defined]
