"""The policies of a generated program: read from one policy list per proxy, written typed.

Each policy of a modelled type becomes a ``Policy`` with ``adopt=True`` and its settings class
(``apinizer.policies.<Type>``), at its live place (pipeline, target, order). Secret fields are
never written into the program: each reads a secret of the stack config instead. A policy whose
type the models do not hold stays a comment beside its endpoint, as before.
"""

from __future__ import annotations

import dataclasses
import json
from collections.abc import Mapping, Sequence
from typing import TYPE_CHECKING, Any

# The package names its models lazily: ``models.PolicyBase`` builds the policy types on first use,
# when a proxy's policies are read, not when generate is imported (docs/performance.md, "Import time").
from apinizer_pulumi import models

from ._lines import INDENT, adopted_end, every, slug

if TYPE_CHECKING:
    from pydantic import BaseModel

#: The indent of a resource's arguments in the generated dicts.
WIDTH = 100
_PIPELINES = {"REQUEST": "request_policy_list", "RESPONSE": "response_policy_list",
              "ERROR": "error_policy_list"}


@dataclasses.dataclass(frozen=True)
class PolicyRecord:
    """One modelled policy at its place in a proxy."""

    project: str
    proxy: str
    name: str
    pipeline: str
    order: int
    policy: models.PolicyBase
    endpoint: str | None = None
    http_method: str | None = None

    @property
    def resource_name(self) -> str:
        return slug(self.project, self.proxy, "policy", self.name)


@dataclasses.dataclass(frozen=True)
class ReadPolicies:
    """What one proxy's policy list gives: the modelled policies, and per endpoint the names of
    the others ((project, proxy, METHOD, endpoint) -> pipeline -> names), for comments."""

    records: list[PolicyRecord]
    unmodelled: dict[tuple[str, str, str, str], dict[str, tuple[str, ...]]]


def read_policies(project: str, proxy: str, live: Any) -> ReadPolicies:
    """The records of a ``ProxyPolicies`` (the answer of one list-policies request)."""
    records: list[PolicyRecord] = []
    unmodelled: dict[tuple[str, str, str, str], dict[str, tuple[str, ...]]] = {}
    holders: list[tuple[Any, str | None, str | None]] = [(live, None, None)]
    holders += [(item, str(item.endpoint or ""), str(item.http_method or "")) for item in live.endpoint_list]
    for holder, endpoint, method in holders:
        for pipeline, attribute in _PIPELINES.items():
            others: list[str] = []
            for index, entry in enumerate(getattr(holder, attribute) or [], start=1):
                name = str(getattr(entry, "name", None) or "")
                if isinstance(entry, models.PolicyBase) and name:
                    records.append(PolicyRecord(project, proxy, name, pipeline, index, entry,
                                                endpoint, method))
                else:
                    label = name or str(getattr(entry, "type", "?"))
                    others.append(label + ("" if getattr(entry, "active", True) else " (inactive)"))
            if others and endpoint is not None and method is not None:
                key = (project, proxy, method, endpoint)
                unmodelled.setdefault(key, {})[pipeline.lower()] = tuple(others)
    return ReadPolicies(records, unmodelled)


class _Secret:
    """A secret field's value in the program: read from the stack config, never written."""

    def __init__(self, key: str) -> None:
        self.key = key

    def __repr__(self) -> str:
        return f"pulumi.Config().require_secret({json.dumps(self.key)})"


def python_literal(value: Any, indent: str) -> str:
    """A Python literal of JSON-like data, split over lines when it does not fit."""
    if isinstance(value, _Secret):
        return repr(value)
    if isinstance(value, bool) or value is None:
        return repr(value)
    if isinstance(value, str) and '"' in value and "'" not in value:
        return repr(value)  # as ruff format writes it: the quotes that need no escapes
    if isinstance(value, str | int | float):
        return json.dumps(value, ensure_ascii=False)
    inner = indent + "    "
    if isinstance(value, Mapping):
        items = [f"{json.dumps(str(key))}: {python_literal(item, inner)}" for key, item in value.items()]
        opening, closing = "{", "}"
    else:
        items = [python_literal(item, inner) for item in value]
        opening, closing = "[", "]"
    flat = opening + ", ".join(items) + closing
    if len(indent) + len(flat) + 30 <= WIDTH and "\n" not in flat:
        return flat
    return opening + "\n" + "".join(f"{inner}{item},\n" for item in items) + indent + closing


def _with_secrets(data: dict[str, Any], paths: Sequence[str],
                  prefix: str) -> tuple[dict[str, Any], list[tuple[str, str]]]:
    """``data`` with the value at each secret path (through lists too) replaced by a stack config
    secret, and (config key, field) of each: ``<resource>-secret-<n>``, short enough for a line."""
    keys: list[tuple[str, str]] = []
    out = json.loads(json.dumps(data))

    def replace(holder: Any, parts: list[str], where: str) -> None:
        if isinstance(holder, list):
            for index, item in enumerate(holder):
                replace(item, parts, f"{where}[{index}]")
            return
        if not isinstance(holder, dict) or holder.get(parts[0]) is None:
            return
        field = f"{where}.{parts[0]}" if where else parts[0]
        if len(parts) > 1:
            replace(holder[parts[0]], parts[1:], field)
            return
        key = f"{prefix}-secret-{len(keys) + 1}"
        holder[parts[0]] = _Secret(key)
        keys.append((key, field))

    for path in paths:
        replace(out, path.split("."), "")
    return out, keys


def own_settings(model: Any, base: type[BaseModel]) -> dict[str, Any]:
    """The fields of ``model`` (a policy or a connection) beyond ``base``'s that differ from their
    defaults: what a settings class is generated with."""
    cls = type(model)
    own = set(cls.model_fields) - set(base.model_fields) - {"type"}
    dumped = model.model_dump(mode="json", exclude_none=True)
    settings: dict[str, Any] = {}
    for name in cls.model_fields:
        if name not in own or name not in dumped:
            continue
        info = cls.model_fields[name]
        if not info.is_required():
            default = info.get_default(call_default_factory=True)
            default = getattr(default, "value", default)
            if dumped[name] == default or (default is None and dumped[name] in ([], {})):
                continue
        settings[name] = dumped[name]
    return settings


def _settings(record: PolicyRecord) -> tuple[dict[str, Any], list[tuple[str, str]]]:
    """The type's own fields that differ from their defaults, secrets replaced."""
    settings = own_settings(record.policy, models.PolicyBase)
    return _with_secrets(settings, type(record.policy).secret_fields(), record.resource_name)


def policy_section(records: Sequence[PolicyRecord], *, retain: bool, retain_option: str) -> list[str]:
    """The ``policies`` dict of the program: one ``Policy`` per record, typed, with ``adopt=True``."""
    if not records:
        return []
    out = ["", "# The policies, each taken over where it is (adopt=True), with its type's settings class.",
           "# Secret fields are read from the stack config: `pulumi config set --secret <key> <value>`.",
           *every("policy", "policies", "Policy")]
    for record in records:
        name = record.resource_name
        class_name = type(record.policy).__name__.removesuffix("Policy")
        out += [f"    {json.dumps(name)}: apinizer.Policy(", f"{INDENT}{json.dumps(name)},",
                f"{INDENT}project_name={json.dumps(record.project)},",
                f"{INDENT}api_proxy_name={json.dumps(record.proxy)},",
                f"{INDENT}name={json.dumps(record.name)},",
                f"{INDENT}pipeline={json.dumps(record.pipeline)},"]
        if record.endpoint is not None:
            out += [f'{INDENT}target_scope="ENDPOINT",',
                    f"{INDENT}target_endpoint={json.dumps(record.endpoint)},",
                    f"{INDENT}target_endpoint_http_method={json.dumps(record.http_method)},"]
        out.append(f"{INDENT}order={record.order},")
        policy = record.policy
        if policy.description:
            out.append(f"{INDENT}description={json.dumps(policy.description, ensure_ascii=False)},")
        if not policy.active:
            out.append(f"{INDENT}active=False,")
        condition = policy.policy_condition.model_dump(mode="json", exclude_none=True) \
            if policy.policy_condition else None
        if condition and condition.get("condition_rule_list"):
            out.append(f"{INDENT}condition={python_literal(condition, INDENT)},")
        if policy.error_message_list:
            messages = [item.model_dump(mode="json", exclude_none=True) for item in policy.error_message_list]
            out.append(f"{INDENT}error_messages={python_literal(messages, INDENT)},")
        settings, secrets = _settings(record)
        out += adopted_settings(f"policies.{class_name}", settings, secrets,
                                retain_option=retain_option if retain else None)
    out.append("}")
    return out


def adopted_settings(settings_class: str, settings: Mapping[str, Any], secrets: Sequence[tuple[str, str]],
                     *, retain_option: str | None) -> list[str]:
    """The end of a typed resource taken over as it is (a policy, a connection): its
    ``settings=apinizer.<settings_class>(...)``, where each secret's config key comes from, ``adopt=True``
    and the retain option, and the closing parenthesis."""
    out = []
    if settings:
        out.append(f"{INDENT}settings=apinizer.{settings_class}(")
        for key, value in settings.items():
            out.append(f"{INDENT}    {key}={python_literal(value, INDENT + '    ')},")
        out.append(f"{INDENT}),")
    else:
        out.append(f"{INDENT}settings=apinizer.{settings_class}(),")
    for key, field in secrets:
        out.append(f"{INDENT}# {key} is settings.{field}:")
        out.append(f"{INDENT}#     pulumi config set --secret {key} <value>")
    return out + adopted_end(retain_option)
