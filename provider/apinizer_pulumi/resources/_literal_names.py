"""A warning when a resource names an API proxy of the program by a literal, not by its output.

``ApiProxyDeployment(api_proxy_name="Orders")`` beside ``ApiProxy("orders", name="Orders")`` works
until the two have to be ordered: the engine sees no dependency, so removing the ``ApiProxy`` from
the program deletes the proxy while the deployment still names it, and later ``up``s fail on the
gateway. ``api_proxy_name=orders.name`` gives the engine the order. The program knows both names,
so each constructor notes what it declares or names, and the second of a pair warns (at preview
too), whichever comes first.

What is noted lives as long as one program run: it is keyed by the SDK's per-run RPC manager (a new
one for every ``pulumi.runtime.configure``, every stack and every mocked test), weakly, so nothing
leaks from one stack or test to the next.
"""

from __future__ import annotations

import dataclasses
import weakref
from collections.abc import Sequence
from typing import Any

import pulumi


@dataclasses.dataclass
class _Noted:
    #: (project, proxy name) -> the ApiProxy's resource name.
    proxies: dict[tuple[str, str], str] = dataclasses.field(default_factory=dict)
    #: (project, proxy name) -> [(resource, its kind, its resource name, the input)].
    literals: dict[tuple[str, str], list[tuple[pulumi.Resource, str, str, str]]] = dataclasses.field(
        default_factory=dict)


_RUNS: weakref.WeakKeyDictionary[Any, _Noted] = weakref.WeakKeyDictionary()


def _noted() -> _Noted | None:
    """What this program run noted so far; None outside a run (no SDK settings to key it by)."""
    from pulumi.runtime import settings

    run = getattr(settings.SETTINGS, "rpc_manager", None)
    if run is None:
        return None
    try:
        return _RUNS.setdefault(run, _Noted())
    except TypeError:  # not weakly referenceable in some SDK: no warning rather than a leak
        return None


def _warn(resource: pulumi.Resource, kind: str, name: str, key: tuple[str, str], where: str,
          proxy_resource: str) -> None:
    project, proxy = key
    pulumi.log.warn(
        f"{kind} {name!r} names the API proxy {project}/{proxy} in {where} by the literal {proxy!r}, and "
        f"this program declares it: ApiProxy {proxy_resource!r}; pass its output instead ("
        f"{proxy_resource}.name, where {proxy_resource} is that ApiProxy) so that the engine orders them: "
        "with a literal, removing the ApiProxy deletes the proxy while this still names it",
        resource=resource)


def declared_proxy(resource: pulumi.Resource, resource_name: str, project: Any, name: Any) -> None:
    """Note an ``ApiProxy``; warn for each literal already naming it."""
    noted = _noted()
    if noted is None or not (isinstance(project, str) and isinstance(name, str)):
        return
    key = (project, name)
    noted.proxies.setdefault(key, resource_name)
    for other, kind, other_name, where in noted.literals.pop(key, []):
        _warn(other, kind, other_name, key, where, resource_name)


def named_proxies(resource: pulumi.Resource, kind: str, resource_name: str, project: Any,
                  names: Any, where: str) -> None:
    """Note the proxies ``resource`` names (one name or a list); warn for each literal of a declared one."""
    noted = _noted()
    if noted is None or not isinstance(project, str):
        return
    given: Sequence[Any] = names if isinstance(names, list | tuple) else [names]
    for name in given:
        if not isinstance(name, str):
            continue  # an output: the engine has the dependency
        key = (project, name)
        if key in noted.proxies:
            _warn(resource, kind, resource_name, key, where, noted.proxies[key])
        else:
            noted.literals.setdefault(key, []).append((resource, kind, resource_name, where))
