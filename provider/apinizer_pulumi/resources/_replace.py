"""A replace that addresses the same gateway object twice: ``pulumi up --replace`` and tainted resources.

A replace caused by a changed identifier (project, proxy, name, method; an RLCL's name) makes a
different gateway object, and the providers' ``diff`` asks the engine to create the new one first:
a create that fails then leaves the old object running. For a *targeted* replace (``pulumi up
--replace <urn>``, or a tainted resource) the engine asks no provider: it calls ``Check`` without
the old inputs, never ``Diff`` (pkg/resource/deploy/step_generator.go, ``isTargetedReplace``), and
orders by the resource option ``delete_before_replace`` alone, whose absence means create first.
The provider then cannot tell that create from one of a new resource, and the old and the new
resource name the same gateway object.

So the create behaves as for a new resource: an endpoint or RLCL that exists fails with "already
exists; set adopt=True", and nothing changes. What the provider can see is what happens within one
operation (one provider process): a create that made, wrote or took over an object *claims* it,
and a later delete of a resource with the same identity leaves the object to the new resource.
That makes a forced replace of settings or of an RLCL's list rewrite them in place (instead of
writing them and then resetting them with the old resource's delete), and a forced replace of an
endpoint or RLCL declared with ``adopt=True`` take it over in place. With the option
``delete_before_replace=True``, the engine deletes first and the object is made again.
"""

from __future__ import annotations

import threading
from collections.abc import Mapping, Sequence
from typing import TYPE_CHECKING, Any

if TYPE_CHECKING:
    import pulumi.dynamic as dyn

Key = tuple[str, ...]

_lock = threading.Lock()
#: (kind, identity) of the objects that a create of this operation made or took over.
_claimed: set[tuple[str, Key]] = set()


def identity_key(fields: Sequence[str], props: Mapping[str, Any]) -> Key | None:
    """The values of ``fields`` in ``props``, or None when one is missing or not a plain string."""
    values = [props.get(name) for name in fields]
    if not all(isinstance(value, str) and value for value in values):
        return None
    return tuple(str(value) for value in values)


def claim(kind: str, fields: Sequence[str], props: Mapping[str, Any]) -> None:
    """A create of this operation made or took over the object of ``props``."""
    key = identity_key(fields, props)
    if key is not None:
        with _lock:
            _claimed.add((kind, key))


def claimed(kind: str, fields: Sequence[str], props: Mapping[str, Any]) -> bool:
    """Whether the object of ``props`` belongs to a resource created in this operation."""
    if not _claimed:  # a destroy creates nothing: its Deletes need not work out their identities
        return False
    key = identity_key(fields, props)
    with _lock:
        return key is not None and (kind, key) in _claimed


def unchangeable(result: dyn.DiffResult, field: str, olds: Mapping[str, Any],
                 news: Mapping[str, Any]) -> dyn.DiffResult:
    """``result``, made a replace when ``field`` changed, a field the API cannot change in place (a
    proxy's creation type, a policy's type). One recorded without it (adopted as it was) takes it in
    place. The new object keeps the old one's name when no identifier changes, so the old one is
    deleted first; with a new name the new one is created first."""
    import pulumi.dynamic as dyn

    from ._base import same

    if same(olds.get(field), news.get(field)) or olds.get(field) is None:
        return result
    keeps_name = not result.replaces
    return dyn.DiffResult(changes=True, replaces=[*(result.replaces or []), field], stables=[],
                          delete_before_replace=keeps_name)
