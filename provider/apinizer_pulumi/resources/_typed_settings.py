"""What ``Policy`` and ``Connection`` share: one resource for every type of a family, whose type's own
fields are the ``settings`` input (a generated settings class per type: ``apinizer_pulumi.policies``,
``apinizer_pulumi.connections``), checked offline against the type's model.

A :class:`SettingsFamily` names where the family's registry, base model and generated classes are, and
which resource inputs are the base's common fields; it gives the type's model, its own and secret
fields, the ``settings`` of a model, the secret marks of ``settings`` (the whole of it when the type
has secret fields, or each secret field alone), and the check of ``settings`` with the common fields,
each failure named from the resource's inputs (``settings.<field>``).

A secret mark may sit anywhere inside a property: the engine keeps the marks a provider answers where
they are (it unmarshals a provider's answer keeping secrets, and carries an input's nested marks over
to the output of the same name, into maps but not into lists: ``annotateSecrets`` in the engine's
``provider_plugin.go``), stores each one encrypted, and shows ``[secret]`` in its place in a diff.
"""

from __future__ import annotations

import importlib
from collections.abc import Callable, Iterable, Mapping, Sequence
from dataclasses import dataclass
from typing import TYPE_CHECKING, Any

import pulumi.dynamic as dyn
from pulumi.runtime import rpc

from ._base import Path, _under, is_unknown, strip_unknowns, unknown_keys
from ._connection import unwrap_secret

if TYPE_CHECKING:
    from pydantic import BaseModel


def dotted(parts: Sequence[str]) -> str:
    """``settings.header_list.0.value``: the base check's way of naming a nested property."""
    return ".".join(parts)


def mark_secrets(settings: Mapping[str, Any], paths: Iterable[str],
                 wrap: Callable[[Any], Any]) -> dict[str, Any]:
    """``settings`` with ``wrap`` around the value at each dotted secret path (``password``,
    ``header_list.value``). A path that passes through anything but a dict (a list, a value not
    known yet) marks that value whole: the engine keeps a list that holds a secret secret whole, and
    the marks the provider answers must be the ones the engine carries over from the inputs."""
    marked = dict(settings)
    for path in paths:
        _mark(marked, path.split("."), wrap)
    return marked


def _mark(holder: dict[str, Any], parts: Sequence[str], wrap: Callable[[Any], Any]) -> None:
    value = holder.get(parts[0])
    if value is None or is_unknown(value):
        return  # unset, or known only at `up`: the engine carries the input's mark over
    if len(parts) > 1 and isinstance(value, Mapping) and not rpc.is_rpc_secret(value):
        holder[parts[0]] = inner = dict(value)
        _mark(inner, parts[1:], wrap)
    else:
        holder[parts[0]] = wrap(value)


def unwrap_all(value: Any) -> Any:
    """``value`` with every secret mark taken off, wherever it sits."""
    value = unwrap_secret(value)
    if isinstance(value, Mapping):
        return {key: unwrap_all(item) for key, item in value.items()}
    if isinstance(value, list):
        return [unwrap_all(item) for item in value]
    return value


def _load(where: str) -> Any:
    module, name = where.split(":")
    return getattr(importlib.import_module(module), name)


@dataclass(frozen=True)
class SettingsFamily:
    """One family of typed settings."""

    #: ``policy`` or ``connection``, and the resource, for messages.
    noun: str
    resource: str
    #: The input holding the type string (``policy_type``).
    type_input: str
    #: ``module:NAME`` of the models' registry, of the base model, and of the generated settings classes.
    registry: str
    base: str
    args: str
    #: The resource's inputs that are the base's common fields: input name -> model field.
    common: Mapping[str, str]
    #: Mark each secret field alone (a drift of another field shows in clear), or the whole ``settings``.
    secret_fields_alone: bool = False

    def model(self, type_string: str) -> type[BaseModel]:
        """The model of a type string; an unknown one is an error naming the known types."""
        registry: Mapping[str, type[BaseModel]] = _load(self.registry)
        model = registry.get(type_string)
        if model is None:
            raise ValueError(f"unknown {self.noun} type {type_string!r}; known types: "
                             f"{', '.join(sorted(registry))}")
        return model

    def secret_fields(self, type_string: Any) -> tuple[str, ...]:
        """The dotted snake_case paths of the type's secret fields, from the generated settings classes
        (no models imported: a program's process asks too); none for an unknown type."""
        classes: Mapping[str, type] = _load(self.args)
        found = classes.get(type_string) if isinstance(type_string, str) else None
        return tuple(getattr(found, "secret_fields", ()))

    def own_field_names(self, type_string: str) -> set[str]:
        """The type's own fields: those beyond the base's common ones."""
        base: type[BaseModel] = _load(self.base)
        return set(self.model(type_string).model_fields) - set(base.model_fields) - {"type"}

    def settings_of(self, instance: BaseModel) -> dict[str, Any]:
        """The type's own fields of a (declared or live) model, as the ``settings`` input holds them."""
        own = self.own_field_names(str(getattr(instance, "type", "")))
        dumped = instance.model_dump(mode="json", exclude_none=True)
        return {key: value for key, value in dumped.items() if key in own}

    def plain(self, props: Mapping[str, Any]) -> dict[str, Any]:
        """``props`` with ``settings`` unwrapped: it arrives as a secret, or with secrets inside, when
        its type has secret fields."""
        out = dict(props)
        if "settings" in out:
            out["settings"] = unwrap_all(out["settings"])
        return out

    def secret(self, props: Mapping[str, Any], type_string: Any = None) -> dict[str, Any]:
        """``props`` with the secrets of ``settings`` marked again when its type (``type_string``, else
        the props' own) has secret fields: each secret field, or the whole of ``settings``."""
        out = dict(props)
        kind = type_string if type_string is not None else out.get(self.type_input)
        paths = self.secret_fields(kind)
        settings = out.get("settings")
        if not paths or settings is None or is_unknown(settings):
            return out
        if self.secret_fields_alone and isinstance(settings, Mapping):
            out["settings"] = mark_secrets(settings, paths, rpc.wrap_rpc_secret)
        else:
            out["settings"] = rpc.wrap_rpc_secret(settings)
        return out

    def merged(self, *groups: Sequence[dyn.CheckFailure],
               path_text: Callable[[Sequence[str]], str] = dotted) -> list[dyn.CheckFailure]:
        """One failure per property of the base check's and the settings check's, a reason said twice
        given once; the base's nested paths (``a.0.b``) as ``path_text`` writes them."""
        failures: dict[str, list[str]] = {}
        for group in groups:
            for failure in group:
                prop = path_text(failure.property.split(".")) if failure.property else ""
                reasons = failures.setdefault(prop, [])
                if failure.reason not in "; ".join(reasons):
                    reasons.append(failure.reason)
        return [dyn.CheckFailure(prop, "; ".join(reasons)) for prop, reasons in failures.items()]

    def check_settings(
        self, news: Mapping[str, Any], *, path_text: Callable[[Sequence[str]], str] = dotted,
        extra: Mapping[str, Any] | None = None,
    ) -> tuple[list[dyn.CheckFailure], dict[str, Any] | None]:
        """The type's model over ``settings`` and the common fields: failures named from the inputs,
        and the settings with the type's defaults filled in (None while a part is unknown, or when
        they fail). ``extra``: fields the model needs that the inputs hold elsewhere (a name)."""
        from pydantic import ValidationError

        type_string = news.get(self.type_input)
        if not isinstance(type_string, str) or is_unknown(type_string):
            return [], None
        try:
            model = self.model(type_string)
        except ValueError as error:
            return [dyn.CheckFailure(self.type_input, str(error))], None
        raw = unwrap_secret(news.get("settings"))
        if is_unknown(raw):
            return [], None
        if raw is not None and not isinstance(raw, Mapping):
            return [dyn.CheckFailure("settings", "must be the type's settings class or a dict")], None
        settings, unknown = strip_unknowns(dict(raw or {}))
        own = self.own_field_names(type_string)
        renamed = {field: name for name, field in self.common.items()}
        failures = [dyn.CheckFailure(path_text(("settings", *path)), "unknown property")
                    for path in unknown_keys(model, settings)]
        failures.extend(dyn.CheckFailure(path_text(("settings", key)), (
            f"not a setting of the type: it is the {self.resource}'s own input {renamed.get(key, key)!r}"))
            for key in settings if key not in own and key in model.model_fields)
        data: dict[str, Any] = {key: value for key, value in settings.items() if key in own}
        common_unknown: list[Path] = []
        for key, field_name in self.common.items():
            value = news.get(key)
            if value is None:
                continue
            cleaned, inner = strip_unknowns(value)
            common_unknown.extend((key, *path) for path in inner)
            if is_unknown(value):
                common_unknown.append((key,))
                continue
            data[field_name] = cleaned
        data.update(extra or {})
        data["type"] = type_string
        try:
            instance = model.model_validate(data)
        except ValidationError as error:
            found: dict[str, list[str]] = {}
            unknown_paths = [("settings", *path) for path in unknown] + common_unknown
            for item in error.errors():
                loc = tuple(str(part) for part in item["loc"])
                head = loc[0] if loc else ""
                if head in renamed:
                    path: Path = (renamed[head], *loc[1:])
                elif head in own:
                    path = ("settings", *loc)
                elif not loc:
                    path = ("settings",)
                else:
                    continue  # a common field the resource does not take (name, type): its own check
                if _under(path, unknown_paths):
                    continue
                found.setdefault(path_text(path), []).append(item["msg"])
            failures.extend(dyn.CheckFailure(prop, "; ".join(reasons)) for prop, reasons in found.items())
            return failures, None
        if unknown or common_unknown or failures:
            return failures, None
        return failures, self.settings_of(instance)
