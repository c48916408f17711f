"""Typed args classes shared by several kinds, and their conversion into resource properties.

Args classes are keyword-only dataclasses whose fields are ``pulumi.Input`` values; wherever
one is accepted, a plain dict with the same snake_case keys is accepted too.
"""

from __future__ import annotations

import dataclasses
import inspect
from collections.abc import Mapping, Sequence
from enum import Enum
from typing import Any, TypeVar

import pulumi

from ._connection import SECRET_FIELDS, ConnectionArgs
from ._import_guard import refuse_import_option
from ._output_waits import install as wait_for_outputs_linearly
from ._pickle_layers import install as protect_provider_serialization
from ._types import (
    ContextValueValue,
    MessageContentTypeValue,
    ParamTypeValue,
    ScriptTypeValue,
    VariableTypeValue,
)


class ArgumentError(pulumi.RunError, TypeError):
    """A wrong or missing argument of an args class. A ``pulumi.RunError``, so that ``pulumi up`` shows
    its one line and no traceback; a ``TypeError``, as the dataclass would have raised."""


class InputValueError(pulumi.RunError, ValueError):
    """An argument whose value the program cannot use (a spec file that is not there): one line under
    ``pulumi up``, as :class:`ArgumentError`; a ``ValueError`` for code that catches that."""


def one_line_arguments(*classes: type, prefix: str = "apinizer.policies") -> None:
    """Make each keyword-only dataclass of ``classes`` raise :class:`ArgumentError` naming the wrong
    argument, its value and the fix (the close name, or the arguments it takes)."""
    import difflib

    from ._check_failures import may_be_secret, shown_value

    for cls in classes:
        names = [field.name for field in dataclasses.fields(cls) if field.init]
        required = [field.name for field in dataclasses.fields(cls)
                    if field.init and field.default is dataclasses.MISSING
                    and field.default_factory is dataclasses.MISSING]
        original = vars(cls)["__init__"]

        def __init__(self: Any, *args: Any, _init: Any = original, _cls: type = cls,  # noqa: N807
                     _names: list[str] = names, _required: list[str] = required, **kwargs: Any) -> None:
            where = f"{prefix}.{_cls.__name__}"
            for name, value in kwargs.items():
                if name not in _names:
                    close = difflib.get_close_matches(name, _names, n=1)
                    fix = f"did you mean {close[0]}?" if close else f"its arguments are: {', '.join(_names)}"
                    # A misspelt secret field's value is a credential: never in the message.
                    shown = None if close and may_be_secret(close[0]) else shown_value(name, value)
                    given = f"given {shown}" if shown is not None else "value not shown"
                    raise ArgumentError(f"{where}: no argument {name} ({given}); {fix}")
            missing = [name for name in _required if name not in kwargs]
            if missing and not args:
                raise ArgumentError(f"{where}: missing the required argument(s) {', '.join(missing)}")
            try:
                _init(self, *args, **kwargs)
            except TypeError as error:
                raise ArgumentError(f"{where}: {error}") from None

        __init__.__wrapped__ = original  # type: ignore[attr-defined]
        setattr(cls, "__init__", __init__)  # noqa: B010  # mypy refuses an assignment to __init__


@dataclasses.dataclass(kw_only=True, frozen=True)
class VariableArgs:
    """A variable that extracts a value from a message (cache keys, rate-limit client identity).

    Which fields are needed depends on ``type``: ``header_name`` for HEADER; ``param_type`` and
    ``param_name`` (and ``param_path`` for PATH) for PARAMETER; ``message_content_type`` (and
    ``xpath_value`` for XML or ``json_path_value`` for JSON) for BODY; ``context_value`` (and
    ``zone_id`` for date/time values) for CONTEXT_VALUES; ``script_language`` and ``script_body``
    for CUSTOM with ``init_with_script`` (always, in a rate-limit target variable).
    """

    name: pulumi.Input[str]
    type: pulumi.Input[VariableTypeValue]
    description: pulumi.Input[str] | None = None
    header_name: pulumi.Input[str] | None = None
    param_type: pulumi.Input[ParamTypeValue] | None = None
    param_name: pulumi.Input[str] | None = None
    param_path: pulumi.Input[str] | None = None
    form_name: pulumi.Input[str] | None = None
    message_content_type: pulumi.Input[MessageContentTypeValue] | None = None
    xpath_value: pulumi.Input[str] | None = None
    json_path_value: pulumi.Input[str] | None = None
    context_value: pulumi.Input[ContextValueValue] | None = None
    zone_id: pulumi.Input[str] | None = None
    init_with_script: pulumi.Input[bool] | None = None
    script_language: pulumi.Input[ScriptTypeValue] | None = None
    script_body: pulumi.Input[str] | None = None
    data_type: pulumi.Input[str] | None = None


def to_props(value: Any) -> Any:
    """Args objects to snake_case dicts (``None`` fields left out), enums to their values.

    Outputs are left in place, wherever they are nested: the SDK's serializer awaits them.
    """
    if isinstance(value, Enum):
        return value.value
    if dataclasses.is_dataclass(value) and not isinstance(value, type):
        return {
            item.name: to_props(getattr(value, item.name))
            for item in dataclasses.fields(value)
            if getattr(value, item.name) is not None
        }
    if isinstance(value, Mapping):
        return {str(key): to_props(item) for key, item in value.items() if item is not None}
    if isinstance(value, Sequence) and not isinstance(value, str | bytes):
        return [to_props(item) for item in value]
    return value


def resource_props(**values: Any) -> dict[str, Any]:
    """Resource properties from constructor arguments; ``None`` ones stay as keys (declared outputs)."""
    return {key: None if value is None else to_props(value) for key, value in values.items()}


def connection_props(connection: ConnectionArgs | Mapping[str, Any] | None) -> dict[str, Any] | None:
    """The ``connection`` property, with the token and the password marked secret."""
    if connection is None:
        return None
    props = to_props(connection)
    if not isinstance(props, dict):
        raise TypeError("connection must be a ConnectionArgs or a dict")
    for name in SECRET_FIELDS:
        if props.get(name) is not None:
            props[name] = pulumi.Output.secret(props[name])
    return props


def resource_options(
    opts: pulumi.ResourceOptions | None, *, delete_first: bool = False
) -> pulumi.ResourceOptions:
    """The caller's options, with ``connection`` added to the outputs stored as secrets. Options with
    ``import_`` are refused at once (see ``_import_guard``). The first call protects the SDK's
    provider serialization from its wrapper-per-resource bug (see ``_pickle_layers``) and its wait
    for the program's outputs from its quadratic loop (see ``_output_waits``).

    ``delete_first`` (settings, RLCL lists) sets ``delete_before_replace`` unless the caller chose:
    a forced replace (``pulumi up --replace``, for which the engine asks no provider and only this
    option decides) writes them where the old resource wrote, and the old one's delete, coming
    after, would reset what the new one just wrote. Elsewhere the provider's diff decides: a
    replace always names another gateway object, so the new one is created first (see ``_replace``).
    """
    refuse_import_option(opts)
    # Called by every resource constructor just before the SDK serializes its provider.
    protect_provider_serialization()
    wait_for_outputs_linearly()
    extra = pulumi.ResourceOptions(additional_secret_outputs=["connection"])
    if delete_first and (opts is None or opts.delete_before_replace is None):
        extra.delete_before_replace = True
    return pulumi.ResourceOptions.merge(opts, extra) if opts is not None else extra


ResourceClass = TypeVar("ResourceClass", bound=type)


def _needs_translation(typ: Any) -> bool:
    """Whether the SDK turns an output of this type into something else than the value it got."""
    from enum import Enum as _Enum

    from pulumi import _types

    typ = _types.unwrap_optional_type(typ) if typ is not None else typ
    return isinstance(typ, type) and ((issubclass(typ, int | float | _Enum) and typ is not bool)
                                      or _types.is_output_type(typ))


def typed_statically(cls: ResourceClass) -> ResourceClass:
    """Keep a resource class's output annotations for type checkers and the docs only.

    At every construction the SDK resolves the class's annotations again (``typing.get_type_hints``
    on a class it makes anew each time, 0.3 ms for ``Endpoint``'s eleven, compiling each string
    annotation: a third of what the program process spends on an ``Endpoint`` beyond a bare dynamic
    resource, docs/performance.md). It uses the types only to turn a float output into an int, a
    value into an enum or a dict into an output type; the strings, booleans, lists and dicts of
    these classes come back as they are without them. So the runtime ``__annotations__`` keep only
    the outputs that need such a turn (an int, say); where the SDK cannot resolve them, all stay.
    """
    from pulumi import _types

    try:
        types = _types.resource_types(cls)
    except Exception:
        return cls
    annotations = inspect.get_annotations(cls)
    cls.__annotations__ = {name: annotation for name, annotation in annotations.items()
                           if name in types and _needs_translation(types[name])}
    return cls


# A wrong or missing argument is one line under `pulumi up`, not a traceback (_args.py).
one_line_arguments(VariableArgs, ConnectionArgs, prefix="apinizer")
