"""``--check``: what a program declares, read from its source, against what the gateway holds.

The program is parsed, never run: running it would need the Pulumi engine. Every
``Endpoint(...)`` call whose identifying keywords are literals counts as a declaration, wherever
it stands (so a program written by hand, or a generated one edited since, is read too).
"""

from __future__ import annotations

import ast
import dataclasses
import functools
from collections.abc import Iterable
from typing import Any

from ._snapshot import ApiProxyRecord, EndpointRecord

_IDENTITY = ("project_name", "api_proxy_name", "name", "http_method")


@dataclasses.dataclass(frozen=True)
class Declared:
    """One ``Endpoint`` the program declares: its identity and the literal settings it gives."""

    record: EndpointRecord
    #: The settings given as literals; a setting computed at run time is not compared.
    given: frozenset[str]
    line: int


def _is_call_of(node: ast.Call, name: str) -> bool:
    func = node.func
    return (isinstance(func, ast.Attribute) and func.attr == name) or (
        isinstance(func, ast.Name) and func.id == name
    )


def _is_endpoint_call(node: ast.Call) -> bool:
    return _is_call_of(node, "Endpoint")


@functools.lru_cache(maxsize=2)
def _calls(source: str, filename: str) -> tuple[ast.Call, ...]:
    """Every call of the program, in source order: one parse for all the kinds ``--check`` reads."""
    calls = (node for node in ast.walk(ast.parse(source, filename)) if isinstance(node, ast.Call))
    return tuple(sorted(calls, key=lambda node: (node.lineno, node.col_offset)))


def _literal(node: ast.expr) -> Any:
    try:
        return ast.literal_eval(node)
    except ValueError:
        return _Unknown


class _Unknown:
    """A keyword whose value is not a literal."""


def declared_endpoints(source: str, filename: str = "<program>") -> list[Declared]:
    """The ``Endpoint`` declarations of a program's source."""
    found: list[Declared] = []
    for node in _calls(source, filename):
        if not _is_endpoint_call(node):
            continue
        values = {kw.arg: _literal(kw.value) for kw in node.keywords if kw.arg}
        if not all(isinstance(values.get(key), str) for key in _IDENTITY):
            continue
        settings = {
            key: values[key]
            for key in EndpointRecord.SETTINGS
            if key in values and values[key] is not _Unknown
        }
        if settings.get("description") == "":
            settings["description"] = None  # as ``Endpoint`` reads it: no description
        record = EndpointRecord(
            project=values["project_name"],
            proxy=values["api_proxy_name"],
            name=values["name"],
            http_method=str(values["http_method"]).upper(),
            **settings,
        )
        # ``Endpoint`` defaults: active true, no description; those count as given.
        given = frozenset(settings) | {"active", "description"}
        found.append(Declared(record, given, node.lineno))
    return found


@dataclasses.dataclass(frozen=True)
class DeclaredProxy:
    """One ``ApiProxy`` the program declares, with the environments its ``ApiProxyDeployment``s name."""

    record: ApiProxyRecord
    given: frozenset[str]
    line: int
    #: Environment name -> the line of its ``ApiProxyDeployment``.
    deployments: dict[str, int] = dataclasses.field(default_factory=dict, hash=False, compare=False)


def _resource_name(node: ast.Call) -> str | None:
    first = node.args[0] if node.args else None
    value = _literal(first) if first is not None else None
    return value if isinstance(value, str) else None


def _proxy_reference(node: ast.expr, by_resource: dict[str, DeclaredProxy]) -> str | None:
    """The proxy name of ``api_proxy_name``: a literal, or ``<dict>["<resource name>"].name`` as
    the generated program writes it (a dependency on the declared proxy)."""
    value = _literal(node)
    if isinstance(value, str):
        return value
    if isinstance(node, ast.Attribute) and node.attr == "name" and isinstance(node.value, ast.Subscript):
        key = _literal(node.value.slice)
        found = by_resource.get(key) if isinstance(key, str) else None
        return found.record.name if found else None
    return None


def declared_proxies(source: str, filename: str = "<program>") -> list[DeclaredProxy]:
    """The ``ApiProxy`` declarations of a program's source, each with its declared deployments."""
    found: list[DeclaredProxy] = []
    by_resource: dict[str, DeclaredProxy] = {}
    calls = _calls(source, filename)
    for node in calls:
        if not _is_call_of(node, "ApiProxy"):
            continue
        values = {kw.arg: _literal(kw.value) for kw in node.keywords if kw.arg}
        project, name = values.get("project_name"), values.get("name")
        if not (isinstance(project, str) and isinstance(name, str)):
            continue
        description = values.get("description")
        given = {"description"} if "description" in values and description is not _Unknown else set()
        record = ApiProxyRecord(project, name, description or None if "description" in given else None)
        item = DeclaredProxy(record, frozenset(given), node.lineno)
        found.append(item)
        resource = _resource_name(node)
        if resource:
            by_resource[resource] = item
    for node in calls:
        if not _is_call_of(node, "ApiProxyDeployment"):
            continue
        keywords = {kw.arg: kw.value for kw in node.keywords if kw.arg}
        project = _literal(keywords["project_name"]) if "project_name" in keywords else None
        environment = _literal(keywords["environment_name"]) if "environment_name" in keywords else None
        proxy = _proxy_reference(keywords["api_proxy_name"], by_resource) if "api_proxy_name" in keywords \
            else None
        if not (isinstance(project, str) and isinstance(environment, str) and proxy):
            continue
        for item in found:
            if item.record.key == (project, proxy):
                item.deployments[environment] = node.lineno
    return found


@dataclasses.dataclass
class ProxyDrift:
    """The differences between the declared API proxies (and deployments) and the gateway's."""

    undeclared: list[ApiProxyRecord] = dataclasses.field(default_factory=list)
    missing: list[DeclaredProxy] = dataclasses.field(default_factory=list)
    changed: list[tuple[DeclaredProxy, ApiProxyRecord, list[str]]] = dataclasses.field(default_factory=list)
    #: (proxy, environment): deployed on the gateway, no ApiProxyDeployment declares it.
    undeclared_deployments: list[tuple[ApiProxyRecord, str]] = dataclasses.field(default_factory=list)
    #: (declared proxy, environment, line): declared, not deployed there.
    missing_deployments: list[tuple[DeclaredProxy, str, int]] = dataclasses.field(default_factory=list)

    def __bool__(self) -> bool:
        return bool(self.undeclared or self.missing or self.changed or self.undeclared_deployments
                    or self.missing_deployments)

    def lines(self, program: str) -> list[str]:
        out = [f"+ {record.label}: on the gateway, not declared in {program}" for record in self.undeclared]
        out += [f"- {item.record.label}: declared at {program}:{item.line}, not on the gateway"
                for item in self.missing]
        for item, live, fields in self.changed:
            out.append(f"~ {live.label} ({program}:{item.line}):")
            for field in fields:
                want, have = getattr(item.record, field), getattr(live, field)
                out.append(f"    {field}: declared {want!r}, gateway has {have!r}")
        out += [f"+ {record.label} deployed to {environment}: no ApiProxyDeployment in {program} declares it"
                for record, environment in self.undeclared_deployments]
        out += [f"- {item.record.label} deployed to {environment}: declared at {program}:{line}, not deployed"
                for item, environment, line in self.missing_deployments]
        return out


def compare_proxies(
    declared: Iterable[DeclaredProxy], live: Iterable[ApiProxyRecord], project: str, proxies: Iterable[str]
) -> ProxyDrift:
    """The drift between the declared proxies and deployments and those of ``proxies`` in ``project``."""
    scope = set(proxies)
    wanted = {item.record.key: item for item in declared
              if item.record.project == project and item.record.name in scope}
    have = {record.key: record for record in live}
    drift = ProxyDrift()
    for key, record in sorted(have.items()):
        item = wanted.get(key)
        if item is None:
            drift.undeclared.append(record)
            continue
        fields = [field for field in ApiProxyRecord.SETTINGS
                  if field in item.given and getattr(item.record, field) != getattr(record, field)]
        if fields:
            drift.changed.append((item, record, fields))
        drift.undeclared_deployments += [
            (record, env) for env in record.deployed if env not in item.deployments
        ]
        drift.missing_deployments += [(item, env, line) for env, line in sorted(item.deployments.items())
                                      if env not in record.deployed]
    drift.missing = [item for key, item in sorted(wanted.items()) if key not in have]
    return drift


@dataclasses.dataclass
class Drift:
    """The differences between a program and the gateway; empty when they agree."""

    #: On the gateway, not declared: configuration made outside code.
    undeclared: list[EndpointRecord] = dataclasses.field(default_factory=list)
    #: Declared, not on the gateway (deleted outside code, or not applied yet).
    missing: list[Declared] = dataclasses.field(default_factory=list)
    #: Declared and on the gateway, with settings that differ: (declared, live, [setting, ...]).
    changed: list[tuple[Declared, EndpointRecord, list[str]]] = dataclasses.field(default_factory=list)
    #: The API proxies and their deployments (empty where the gateway has no read of a proxy).
    proxies: ProxyDrift = dataclasses.field(default_factory=ProxyDrift)
    #: Policies, routing and client routes, credentials with their access, variables, groups.
    resources: ResourceDrift = dataclasses.field(default_factory=lambda: ResourceDrift())

    def __bool__(self) -> bool:
        return bool(self.undeclared or self.missing or self.changed or self.proxies or self.resources)

    def lines(self, program: str) -> list[str]:
        """A readable diff: ``+`` on the gateway only, ``-`` in the program only, ``~`` differs."""
        out: list[str] = []
        for record in self.undeclared:
            out.append(f"+ {record.label}: on the gateway, not declared in {program}")
        for item in self.missing:
            out.append(f"- {item.record.label}: declared at {program}:{item.line}, not on the gateway")
        for item, live, fields in self.changed:
            out.append(f"~ {live.label} ({program}:{item.line}):")
            for field in fields:
                want, have = getattr(item.record, field), getattr(live, field)
                out.append(f"    {field}: declared {want!r}, gateway has {have!r}")
        return self.proxies.lines(program) + self.resources.lines(program) + out


def compare(
    declared: Iterable[Declared], live: Iterable[EndpointRecord], project: str, proxies: Iterable[str]
) -> Drift:
    """The drift between the declarations and the live endpoints of ``proxies`` in ``project``.

    Declarations of other proxies or projects than those read are left out: nothing was read
    to compare them with.
    """
    scope = set(proxies)
    wanted = {
        item.record.key: item
        for item in declared
        if item.record.project == project and item.record.proxy in scope
    }
    have = {record.key: record for record in live}
    drift = Drift()
    for key, record in sorted(have.items()):
        item = wanted.get(key)
        if item is None:
            drift.undeclared.append(record)
            continue
        fields = [
            field
            for field in EndpointRecord.SETTINGS
            if field in item.given and getattr(item.record, field) != getattr(record, field)
        ]
        if fields:
            drift.changed.append((item, record, fields))
    drift.missing = [item for key, item in sorted(wanted.items()) if key not in have]
    return drift


# -- every other kind that generate writes ------------------------------------------------------------

#: The kinds compared by their keywords, each by the keywords that identify it on the gateway. An
#: ``ApiProxy``'s presence, description and deployments are :func:`compare_proxies`'s; here only the
#: blocks below are compared.
IDENTITIES: dict[str, tuple[str, ...]] = {
    "ApiProxy": ("project_name", "name"),
    "Policy": ("project_name", "api_proxy_name", "name"),
    "Credential": ("project_name", "username"),
    "EnvironmentVariable": ("project_name", "name"),
    "EnvironmentVariableValue": ("project_name", "variable_name", "environment_name"),
    # Compared here for an environment's program without definitions only (compare_proxies otherwise).
    "ApiProxyDeployment": ("project_name", "api_proxy_name", "environment_name"),
    "ApiProxyGroup": ("project_name", "name"),
    "ApiProxyGroupDeployment": ("project_name", "api_proxy_group_name", "environment_name"),
    "Jwk": ("project_name", "name"),
    "Connection": ("project_name", "name"),
    "Certificate": ("project_name", "name"),
}
#: The keywords compared for each kind: those ``generate`` writes from what the gateway holds (a
#: keyword such as ``deploy_to`` or ``opts`` says how Pulumi manages it, not what the gateway holds).
#: An ApiProxy's presence and description are compare_proxies's.
_COMPARED: dict[str, frozenset[str]] = {
    "ApiProxy": frozenset({"routing", "client_route"}),
    "Policy": frozenset({"pipeline", "target_scope", "target_endpoint", "target_endpoint_http_method",
                         "order", "description", "active", "condition", "error_messages", "settings"}),
    "Credential": frozenset({"email", "full_name", "description", "role_name_list", "enabled", "ip_list",
                             "expire_date", "access"}),
    "EnvironmentVariable": frozenset({"description", "global_value", "environment_values", "secret"}),
    "EnvironmentVariableValue": frozenset({"value", "secret"}),
    "ApiProxyDeployment": frozenset(),
    "ApiProxyGroup": frozenset({"description"}),
    "ApiProxyGroupDeployment": frozenset(),
    "Jwk": frozenset({"description", "url"}),
    "Connection": frozenset({"description", "enabled", "deploy_to_worker", "settings"}),
    "Certificate": frozenset({"alias", "description", "environment_names"}),
}
#: What a keyword left out means, where generate leaves the default out.
_DEFAULTS: dict[str, dict[str, Any]] = {
    "Policy": {"target_scope": "ALL", "active": True},
    "EnvironmentVariable": {"secret": False},
    "EnvironmentVariableValue": {"secret": False},
    "Credential": {"enabled": True},
    "Connection": {"enabled": True, "deploy_to_worker": True},
}
#: Keywords compared only where the program gives them (left out, the gateway's value is kept).
_WHEN_GIVEN = {"ApiProxy": frozenset({"routing", "client_route"}), "Policy": frozenset({"order"})}


@dataclasses.dataclass(frozen=True)
class DeclaredResource:
    """One resource of a program: its kind, its identity and the keywords whose values are readable."""

    kind: str
    identity: tuple[str, ...]
    #: Keyword -> value; a value computed at run time (a secret from the config) is ``_Unknown``.
    values: dict[str, Any] = dataclasses.field(hash=False, compare=False)
    line: int = dataclasses.field(compare=False)

    @property
    def label(self) -> str:
        return f"{self.kind} {'/'.join(self.identity)}"

    @property
    def proxy(self) -> str | None:
        """The API proxy it belongs to (a policy's), for the scope of what was read."""
        return self.identity[1] if self.kind in ("Policy", "ApiProxy", "ApiProxyDeployment") else None


def _value(node: ast.expr, names: dict[str, dict[str, Any]]) -> Any:
    """A keyword's value: literals, typed args classes as dicts of their keywords, and
    ``<dict>["<resource name>"].<keyword>`` references to a resource of the same program."""
    literal = _literal(node)
    if literal is not _Unknown:
        return literal
    if isinstance(node, ast.Call) and not node.args and all(kw.arg for kw in node.keywords):
        return {kw.arg: _value(kw.value, names) for kw in node.keywords if kw.arg}
    if isinstance(node, ast.Dict) and None not in node.keys:
        return {_literal(key): _value(value, names) for key, value in zip(node.keys, node.values, strict=True)
                if key is not None}
    if isinstance(node, ast.List | ast.Tuple):
        return [_value(item, names) for item in node.elts]
    if isinstance(node, ast.Attribute) and isinstance(node.value, ast.Subscript):
        key = _literal(node.value.slice)
        found = names.get(key) if isinstance(key, str) else None
        return found.get(node.attr, _Unknown) if found else _Unknown
    return _Unknown


def declared_resources(source: str, filename: str = "<program>") -> list[DeclaredResource]:
    """Every call of a kind of :data:`IDENTITIES` whose identifying keywords are known."""
    calls = _calls(source, filename)
    names: dict[str, dict[str, Any]] = {}  # Pulumi resource name -> its keywords, for references
    found: list[DeclaredResource] = []
    for node in calls:
        kind = next((kind for kind in IDENTITIES if _is_call_of(node, kind)), None)
        if kind is None:
            continue
        values = {kw.arg: _value(kw.value, names) for kw in node.keywords if kw.arg}
        resource = _resource_name(node)
        if resource:
            names[resource] = values
        identity = tuple(values.get(key) for key in IDENTITIES[kind])
        if all(isinstance(part, str) for part in identity):
            found.append(DeclaredResource(kind, tuple(str(part) for part in identity), values, node.lineno))
    return found


def _differences(declared: Any, live: Any, path: str) -> list[tuple[str, Any, Any]]:
    """(path, declared, gateway's) of each leaf that differs, ``settings.message_count_for_interval``
    rather than the whole block. A value unknown to the parser (a config secret) matches anything,
    a key left out of a dict is the same as None, and lists of different lengths differ whole."""
    if declared is _Unknown or live is _Unknown:
        return []
    if isinstance(declared, dict) and isinstance(live, dict):
        return [found for key in sorted({*declared, *live}, key=str)
                for found in _differences(declared.get(key), live.get(key), f"{path}.{key}")]
    if isinstance(declared, list | tuple) and isinstance(live, list | tuple) and len(declared) == len(live):
        return [found for index, (a, b) in enumerate(zip(declared, live, strict=True))
                for found in _differences(a, b, f"{path}[{index}]")]
    return [] if declared == live else [(path, declared, live)]


def _shown(value: Any) -> str:
    return "(not declared)" if value is None else repr(value)


@dataclasses.dataclass
class ResourceDrift:
    """The differences for the kinds of :data:`IDENTITIES`: policies, credentials, variables, groups."""

    undeclared: list[DeclaredResource] = dataclasses.field(default_factory=list)
    missing: list[DeclaredResource] = dataclasses.field(default_factory=list)
    #: (declared, as generated now, [(path, declared value, gateway's value), ...]).
    changed: list[tuple[DeclaredResource, DeclaredResource, list[tuple[str, Any, Any]]]] = dataclasses.field(
        default_factory=list)

    def __bool__(self) -> bool:
        return bool(self.undeclared or self.missing or self.changed)

    def lines(self, program: str) -> list[str]:
        out = [f"+ {item.label}: on the gateway, not declared in {program}" for item in self.undeclared]
        out += [f"- {item.label}: declared at {program}:{item.line}, not on the gateway"
                for item in self.missing]
        for item, live, differences in self.changed:
            out.append(f"~ {live.label} ({program}:{item.line}):")
            out += [f"    {path}: declared {_shown(want)}, gateway has {_shown(have)}"
                    for path, want, have in differences]
        return out


def compare_resources(
    declared: Iterable[DeclaredResource], live: Iterable[DeclaredResource], project: str,
    proxies: Iterable[str], unread: Iterable[str] = (),
) -> ResourceDrift:
    """The drift between a program's resources and those of a program generated from the gateway now.

    Only ``project``, the ``proxies`` read (for policies) and the kinds read are compared: a kind in
    ``unread`` (the account may not list it) is left out.
    """
    scope, skipped = set(proxies), set(unread)

    def in_scope(item: DeclaredResource) -> bool:
        return (item.identity[0] == project and item.kind not in skipped
                and (item.proxy is None or item.proxy in scope))

    wanted = {(item.kind, item.identity): item for item in declared if in_scope(item)}
    have = {(item.kind, item.identity): item for item in live if in_scope(item)}
    drift = ResourceDrift()
    for key, record in sorted(have.items()):
        item = wanted.get(key)
        if item is None:
            if record.kind != "ApiProxy":
                drift.undeclared.append(record)
            continue
        given = _WHEN_GIVEN.get(record.kind, frozenset())
        keys = sorted(key for key in _COMPARED[record.kind] & {*item.values, *record.values}
                      if key in item.values or key not in given)
        defaults = _DEFAULTS.get(record.kind, {})
        differences = [found for key in keys
                       for found in _differences(item.values.get(key, defaults.get(key)),
                                                 record.values.get(key, defaults.get(key)), key)]
        if differences:
            drift.changed.append((item, record, differences))
    drift.missing = [item for key, item in sorted(wanted.items())
                     if key not in have and item.kind != "ApiProxy"]
    return drift
