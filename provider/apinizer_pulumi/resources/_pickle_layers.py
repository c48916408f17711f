"""One reach into the SDK's provider serialization: stop it stacking one pickle wrapper per resource.

Documented, kill-switched, and inert wherever the SDK does not have the bug (docs/performance.md).

Every dynamic resource's constructor calls the SDK's ``pulumi.dynamic.dynamic.serialize_provider``,
which, to sort dict items, replaces ``pickle._Pickler._batch_setitems`` by a function that sorts and
then calls *the one it replaced*, and never puts the old one back. After N resources, pickling a
dict goes down N such functions, one Python frame each: a provider whose pickle holds a dict (ours
pickle an empty one; any provider with instance attributes, or pickled by value, holds one) makes
``pulumi preview`` fail with ``RecursionError`` at about 960 resources (pulumi/pulumi#17803).

:func:`install` (called by every resource constructor of this package, once per process does the
work) first *probes* the SDK: it serializes a small provider three times with a measuring
``_batch_setitems`` in place, and looks whether the call stack under which that function runs
grows from one call to the next. Only if it does, it replaces the module's ``serialize_provider``
by one that puts the interpreter's own ``_batch_setitems`` back before and after each call, under
a lock: the SDK's function then wraps it exactly once, so its pickles are sorted, and byte for byte
the same, as before. The replacement serves every dynamic resource of the program, this package's
and any other's, since the SDK's ``Resource`` looks the function up in its module at each call.
A later SDK that restores the function, or sorts another way, shows no growth: nothing is
replaced. ``APINIZER_SERIALIZE_FIX=0`` turns it off.
"""

from __future__ import annotations

import functools
import os
import pickle
import sys
import threading
import types
from collections.abc import Callable
from typing import Any

#: ``APINIZER_SERIALIZE_FIX=0`` leaves the SDK's ``serialize_provider`` as it is.
ENABLED = os.environ.get("APINIZER_SERIALIZE_FIX", "1").strip() != "0"

#: Set on the replacement, so that it is never wrapped twice.
_MARK = "_apinizer_one_layer"
#: Serialization calls through the replacement, one at a time: one restores what another pickles with.
_SERIALIZING = threading.RLock()
_INSTALL_LOCK = threading.Lock()
_installed = False

Serialize = Callable[[Any], str]


def _is_stock(function: object) -> bool:
    return (
        isinstance(function, types.FunctionType)
        and function.__module__ == "pickle"
        and function.__qualname__ == "_Pickler._batch_setitems"
    )


def _unwrapped(function: object) -> types.FunctionType | None:
    """The interpreter's own ``_batch_setitems`` under ``function``'s chain of closures, or None."""
    seen: set[int] = set()
    while not _is_stock(function):
        if not isinstance(function, types.FunctionType) or id(function) in seen:
            return None
        seen.add(id(function))
        inner = [
            cell.cell_contents for cell in function.__closure__ or ()
            if isinstance(cell.cell_contents, types.FunctionType)
        ]
        if len(inner) != 1:
            return None
        function = inner[0]
    assert isinstance(function, types.FunctionType)
    return function


#: Found when this module is imported, even if some ``serialize_provider`` already ran.
_STOCK = _unwrapped(pickle._Pickler.__dict__.get("_batch_setitems"))


class _Probe:
    """Pickled with a dict of state, like any provider with an instance attribute."""

    def __init__(self) -> None:
        self.setting = "probe"


def _stack_depth() -> int:
    frame: types.FrameType | None
    depth, frame = 0, sys._getframe(1)
    while frame is not None:
        depth, frame = depth + 1, frame.f_back
    return depth


def stacks_wrappers(serialize: Serialize) -> bool:
    """Whether ``serialize`` pickles a dict one frame deeper at each call: the SDK's bug.

    Runs ``serialize`` three times on a small object, with a measuring ``_batch_setitems`` in
    place of the interpreter's, and puts every attribute of the pickler it touched back after.
    """
    stock = _STOCK
    if stock is None:
        return False
    pickler = pickle._Pickler
    touched = ("_batch_setitems", "save_dict")
    saved = {name: pickler.__dict__[name] for name in touched if name in pickler.__dict__}
    saved_public = pickle.Pickler
    depths: list[int] = []

    def measuring(self: Any, *args: Any) -> Any:
        depths.append(_stack_depth())
        return stock(self, *args)

    firsts: list[int] = []
    with _SERIALIZING:
        try:
            pickler._batch_setitems = measuring  # type: ignore[attr-defined]
            for _ in range(3):
                depths.clear()
                serialize(_Probe())
                if not depths:
                    return False
                firsts.append(depths[0])
        except Exception:
            return False
        finally:
            for name, value in saved.items():
                setattr(pickler, name, value)
            pickle.Pickler = saved_public  # type: ignore[misc]
    return firsts[0] < firsts[1] < firsts[2]


def one_layer(serialize: Serialize, stock: types.FunctionType) -> Serialize:
    """``serialize`` with the interpreter's ``_batch_setitems`` put back before and after each call."""

    # Pickling an Output that a provider captured runs the event loop in this thread, where another
    # resource may be constructed: only the outermost call resets, or the rest of its pickle would
    # go unsorted.
    depth = 0

    @functools.wraps(serialize)
    def serialize_provider(provider: Any) -> str:
        nonlocal depth
        with _SERIALIZING:
            if depth == 0:
                pickle._Pickler._batch_setitems = stock  # type: ignore[attr-defined]
            depth += 1
            try:
                return serialize(provider)
            finally:
                depth -= 1
                if depth == 0:
                    pickle._Pickler._batch_setitems = stock  # type: ignore[attr-defined]

    setattr(serialize_provider, _MARK, True)
    return serialize_provider


def install_into(module: Any) -> bool:
    """Replace ``module.serialize_provider`` when it stacks wrappers; whether it is (now) replaced."""
    current = getattr(module, "serialize_provider", None)
    if getattr(current, _MARK, False):
        return True
    if not ENABLED or _STOCK is None or not callable(current) or not stacks_wrappers(current):
        return False
    module.serialize_provider = one_layer(current, _STOCK)
    # Whatever ran before (other dynamic resources of the program) stacked: start again from one.
    pickle._Pickler._batch_setitems = _STOCK  # type: ignore[attr-defined]
    return True


def install() -> None:
    """Probe the SDK once per process, and protect its ``serialize_provider`` if it has the bug."""
    global _installed
    if _installed:
        return
    with _INSTALL_LOCK:
        if not _installed:
            from pulumi.dynamic import dynamic

            install_into(dynamic)
            _installed = True
