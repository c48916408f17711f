"""Write the typed settings args of every policy type and of every connection type, and their
reference pages, from the models.

    .venv/bin/python scripts/gen_policy_args.py          # write the four files
    .venv/bin/python scripts/gen_policy_args.py --check  # exit 1 when one is not current

Two targets, one way: the models' registries (``POLICY_TYPES`` in ``models._policy_registry``,
``CONNECTION_TYPES`` in ``models._connection_registry``) are the one source. Each type's own
fields (those beyond the base's common ones, ``PolicyBase`` or ``ConnectionBase``, which are the
``Policy`` or ``Connection`` resource's own inputs) become a frozen keyword-only dataclass of
``pulumi.Input`` fields, each enum a ``Literal`` of its values, each nested model its own
``...Args`` dataclass, and each field's ``description=`` its docstring.
``tests/unit/test_policy_args.py`` and ``tests/unit/test_connection_args.py`` fail when the files
in the tree are not what this script writes.
"""

from __future__ import annotations

import argparse
import inspect
import json
import re
import sys
import textwrap
import types
from collections.abc import Iterable, Mapping, Sequence
from dataclasses import dataclass, field
from enum import Enum
from pathlib import Path
from typing import Any, Literal, Union, get_args, get_origin

from pydantic import BaseModel
from pydantic.fields import FieldInfo

from apinizer_pulumi.resources._policy_references import REFERENCE_FIELDS

ROOT = Path(__file__).resolve().parents[1]
SOURCE_PREFIX = "https://github.com/apinizer/management-api-docs/blob/main/"

#: Nested models that already have an args class elsewhere: reused, not generated again.
SHARED_ARGS = {"Variable": ("._args", "VariableArgs")}
WIDTH = 110


def _q(value: object) -> str:
    """A string literal in double quotes, as the project's code writes them."""
    return json.dumps(str(value))


def _tuple(values: Sequence[str]) -> str:
    if not values:
        return "()"
    return "(" + ", ".join(_q(value) for value in values) + ("," if len(values) == 1 else "") + ")"


def type_class_name(model: type[BaseModel], suffix: str = "Policy") -> str:
    """``ApiBasedThrottlingPolicy`` -> ``ApiBasedThrottling`` (``KafkaConnection`` -> ``Kafka``):
    the settings class of a type."""
    return model.__name__.removesuffix(suffix)


def _doc(text: str | None) -> str:
    return inspect.cleandoc(text or "").strip()


def _first_paragraph(text: str) -> str:
    return text.split("\n\n", 1)[0].replace("\n", " ").strip()


@dataclass
class Renderer:
    """Collects the nested args classes and the enum literals that the settings classes use."""

    nested: dict[str, type[BaseModel]] = field(default_factory=dict)
    enums: dict[str, type[Enum]] = field(default_factory=dict)
    shared: set[str] = field(default_factory=set)

    def enum_alias(self, enum: type[Enum]) -> str:
        name = f"{enum.__name__}Name"
        known = self.enums.get(name)
        if known is not None and [m.value for m in known] != [m.value for m in enum]:
            module = enum.__module__.rsplit(".", 1)[-1].strip("_").title().replace("_", "")
            name = f"{module}{enum.__name__}Name"
        self.enums[name] = enum
        return name

    def model_args(self, model: type[BaseModel]) -> str:
        shared = SHARED_ARGS.get(model.__name__)
        if shared is not None:
            self.shared.add(shared[1])
            return shared[1]
        name = f"{model.__name__}Args"
        if name not in self.nested:
            self.nested[name] = model
        return name

    def inner(self, annotation: Any) -> str:
        """A value inside a list or a mapping: plain types take an Input, models their args or a dict."""
        if isinstance(annotation, type) and issubclass(annotation, BaseModel):
            return f"{self.model_args(annotation)} | Mapping[str, Any]"
        return f"pulumi.Input[{self.plain(annotation)}]"

    def plain(self, annotation: Any) -> str:
        """The Python type of a value (inside ``pulumi.Input``)."""
        origin = get_origin(annotation)
        if annotation is Any or annotation is None:
            return "Any"
        if origin is Literal:
            return "Literal[" + ", ".join(_q(arg) for arg in get_args(annotation)) + "]"
        if origin in (Union, types.UnionType):
            args = [arg for arg in get_args(annotation) if arg is not type(None)]
            return " | ".join(self.plain(arg) for arg in args) if args else "Any"
        if origin in (list, tuple, set, frozenset, Sequence):
            args = get_args(annotation)
            return f"Sequence[{self.inner(args[0]) if args else 'Any'}]"
        if origin in (dict, Mapping):
            args = get_args(annotation)
            value = self.inner(args[1]) if len(args) == 2 else "Any"
            return f"Mapping[str, {value}]"
        if get_origin(annotation) is not None and hasattr(annotation, "__metadata__"):
            return self.plain(get_args(annotation)[0])
        if isinstance(annotation, type):
            if issubclass(annotation, Enum):
                return self.enum_alias(annotation)
            if issubclass(annotation, BaseModel):
                return f"{self.model_args(annotation)} | Mapping[str, Any]"
            if issubclass(annotation, bool):
                return "bool"
            if issubclass(annotation, int):
                return "int"
            if issubclass(annotation, float):
                return "float"
            if issubclass(annotation, str):
                return "str"
        return "Any"

    def annotation(self, info: FieldInfo) -> str:
        return f"pulumi.Input[{self.plain(info.annotation)}]"


def own_fields(model: type[BaseModel], base: type[BaseModel] | None) -> dict[str, FieldInfo]:
    """The fields of ``model`` that ``base`` does not have (all of them without a base)."""
    common = set(base.model_fields) if base is not None else set()
    return {name: info for name, info in model.model_fields.items() if name not in common}


def _default_text(info: FieldInfo) -> str | None:
    if info.is_required():
        return None
    default = info.get_default(call_default_factory=True)
    if default is None or default == [] or default == {}:
        return None
    if isinstance(default, Enum):
        return repr(default.value)
    if isinstance(default, BaseModel):
        return None
    return repr(default)


def _field_doc(info: FieldInfo, secret: bool) -> str:
    parts = [(info.description or "").strip()]
    default = _default_text(info)
    if default is not None:
        parts.append(f"Default (the API's): ``{default}``.")
    if secret:
        parts.append("Secret: stored in the state only as a secret.")
    return " ".join(part for part in parts if part) or "See the type's documentation page."


def _docstring(text: str, indent: str) -> list[str]:
    lines: list[str] = []
    paragraphs = [p for p in text.split("\n\n") if p.strip()] or [""]
    for index, paragraph in enumerate(paragraphs):
        flat = " ".join(paragraph.split())
        wrapped = textwrap.wrap(flat, WIDTH - len(indent) - 6, break_on_hyphens=False,
                                break_long_words=False) or [""]
        lines.extend(wrapped)
        if index < len(paragraphs) - 1:
            lines.append("")
    escaped = [line.replace("\\", "\\\\").replace('"""', '\\"\\"\\"') for line in lines]
    if len(escaped) == 1:
        return [f'{indent}"""{escaped[0]}"""']
    return [f'{indent}"""{escaped[0]}', *(f"{indent}{line}" if line else "" for line in escaped[1:]),
            f'{indent}"""']


def _class_lines(name: str, doc: str, fields: Mapping[str, FieldInfo], renderer: Renderer,
                 secrets: Iterable[str], type_string: str | None, target: Target) -> list[str]:
    secret_names = set(secrets)
    lines = ["", "", "@dataclasses.dataclass(kw_only=True, frozen=True)", f"class {name}:"]
    lines.extend(_docstring(doc, "    "))
    lines.append("")
    if type_string is not None:
        lines.append(f"    {target.type_attribute}: ClassVar[str] = {_q(type_string)}")
        lines.append(f'    """The {target.noun} type this settings class declares."""')
        line = f"    secret_fields: ClassVar[tuple[str, ...]] = {_tuple(secrets)}"
        if len(line) > WIDTH:
            line = ("    secret_fields: ClassVar[tuple[str, ...]] = (\n"
                    + "".join(f"        {_q(path)},\n" for path in secrets) + "    )")
        lines.append(line)
        lines.append('    """The dotted paths of the fields stored only as secrets."""')
    for field_name, info in fields.items():
        annotation = renderer.annotation(info)
        if field_name in REFERENCE_FIELDS:  # also the resource that makes the object (_policy_references)
            annotation = f"{annotation} | pulumi.Resource"
        text = annotation if info.is_required() else f"{annotation} | None"
        tail = "" if info.is_required() else " = None"
        line = f"    {field_name}: {text}{tail}"
        if len(line) > WIDTH:  # parenthesized, so the line fits
            line = f"    {field_name}: (\n        {text}\n    ){tail}"
        lines.append(line)
        lines.extend(_docstring(_field_doc(info, field_name in secret_names), "    "))
    return lines


@dataclass
class TypeInfo:
    type_string: str
    model: type[BaseModel]
    class_name: str
    fields: dict[str, FieldInfo]
    secrets: tuple[str, ...]


@dataclass(frozen=True)
class Target:
    """One family of typed settings: where its registry is and what the script writes for it."""

    #: ``policy`` or ``connection``: the word in the generated text.
    noun: str
    #: The models' registry (``module:NAME``) and the base whose fields are the resource's own.
    registry: str
    base: str
    #: The suffix a model's class name drops to name its settings class.
    suffix: str
    #: The settings classes' ClassVar holding the type string, and the dict of them by type string.
    type_attribute: str
    by_type: str
    args_file: Path
    reference_file: Path
    header: str
    #: The public module and the resource's page (relative to the reference page).
    public_module: str
    resource: str
    resource_page: str
    #: The reference page's text after its title, before the table.
    intro: tuple[str, ...]


def collect(target: Target) -> list[TypeInfo]:
    import importlib

    module, name = target.registry.split(":")
    registry = getattr(importlib.import_module(module), name)
    base = getattr(importlib.import_module("apinizer_pulumi.models"), target.base)
    infos = []
    for type_string in sorted(registry):
        model = registry[type_string]
        fields = {name: info for name, info in own_fields(model, base).items() if name != "type"}
        secrets = tuple(model.secret_fields())
        infos.append(TypeInfo(type_string, model, type_class_name(model, target.suffix), fields, secrets))
    return infos


POLICIES = Target(
    noun="policy",
    registry="apinizer_pulumi.models._policy_registry:POLICY_TYPES",
    base="PolicyBase",
    suffix="Policy",
    type_attribute="policy_type",
    by_type="POLICY_ARGS",
    args_file=ROOT / "provider" / "apinizer_pulumi" / "resources" / "_policy_args.py",
    reference_file=ROOT / "docs" / "policies" / "reference.md",
    header='''"""The typed settings of every policy type: ``apinizer_pulumi.policies.<Type>``.

GENERATED by scripts/gen_policy_args.py from the models (``POLICY_TYPES``): do not edit by hand;
run the script after a model changes (tests/unit/test_policy_args.py fails until then).

Each class holds one type's own fields; the fields every policy shares (description, active,
condition, error messages) and where it runs (pipeline, target, order) are the ``Policy``
resource's own inputs. Enumerated fields are ``Literal`` types, so that mypy and IDEs check them;
nested structures are their own ``...Args`` classes (a plain dict with the same snake_case keys
is accepted too).
"""

from __future__ import annotations

import dataclasses
from collections.abc import Mapping, Sequence
from typing import Any, ClassVar, Literal

import pulumi
''',
    public_module="policies",
    resource="Policy",
    resource_page="../resources/policy.md",
    intro=(
        "One section per policy type: the settings class to pass as `settings=` to",
        "[`Policy`](../resources/policy.md), its type string, and its own fields (snake_case, as a",
        "program writes them). The fields every policy shares are the `Policy` resource's inputs.",
        "Secret fields are stored only as secrets (see [Secrets](../secrets.md)).",
    ),
)
CONNECTIONS = Target(
    noun="connection",
    registry="apinizer_pulumi.models._connection_registry:CONNECTION_TYPES",
    base="ConnectionBase",
    suffix="Connection",
    type_attribute="connection_type",
    by_type="CONNECTION_ARGS",
    args_file=ROOT / "provider" / "apinizer_pulumi" / "resources" / "_connection_args.py",
    reference_file=ROOT / "docs" / "resources" / "connection-types.md",
    header='''"""The typed settings of every connection type: ``apinizer_pulumi.connections.<Type>``.

GENERATED by scripts/gen_policy_args.py from the models (``CONNECTION_TYPES``): do not edit by hand;
run the script after a model changes (tests/unit/test_connection_args.py fails until then).

Each class holds one type's own fields; the fields every connection shares (name, description,
enabled, deploy_to_worker) are the ``Connection`` resource's own inputs. Enumerated fields are
``Literal`` types, so that mypy and IDEs check them; nested structures are their own ``...Args``
classes (a plain dict with the same snake_case keys is accepted too).
"""

from __future__ import annotations

import dataclasses
from collections.abc import Mapping, Sequence
from typing import Any, ClassVar, Literal

import pulumi
''',
    public_module="connections",
    resource="Connection",
    resource_page="connection.md",
    intro=(
        "One section per connection type: the settings class to pass as `settings=` to",
        "[`Connection`](connection.md), its type string, and its own fields (snake_case, as a",
        "program writes them). The fields every connection shares (`name`, `description`, `enabled`,",
        "`deploy_to_worker`) are the `Connection` resource's inputs. Secret fields are stored only as",
        "secrets (see [Secrets](../secrets.md)).",
    ),
)
TARGETS = (POLICIES, CONNECTIONS)


def render_args(target: Target) -> str:
    infos = collect(target)
    renderer = Renderer()
    type_blocks: list[str] = []
    for info in infos:
        doc = _doc(info.model.__doc__)
        type_blocks.extend(_class_lines(info.class_name, doc, info.fields, renderer, info.secrets,
                                        info.type_string, target))
    nested_blocks: list[str] = []
    done: set[str] = set()
    while len(done) < len(renderer.nested):  # nested models may nest further
        for name in sorted(set(renderer.nested) - done):
            model = renderer.nested[name]
            nested_blocks.extend(_class_lines(name, _doc(model.__doc__), model.model_fields, renderer, (),
                                              None, target))
            done.add(name)
    out = [target.header.rstrip("\n")]
    imports: dict[str, list[str]] = {"._args": ["one_line_arguments"]}
    for name in sorted(renderer.shared):
        module = next(mod for mod, cls in SHARED_ARGS.values() if cls == name)
        imports.setdefault(module, []).append(name)
    out.append("")
    for module, names_there in sorted(imports.items()):
        out.append(f"from {module} import {', '.join(sorted(names_there))}")
    out.append("")
    for alias in sorted(renderer.enums):
        values = ", ".join(_q(member.value) for member in renderer.enums[alias])
        line = f"{alias} = Literal[{values}]"
        if len(line) > WIDTH:
            items = [_q(member.value) for member in renderer.enums[alias]]
            body = textwrap.wrap(", ".join(items), WIDTH - 4)
            line = f"{alias} = Literal[\n" + "\n".join(f"    {part}" for part in body) + "\n]"
        out.append(line)
    out.extend(nested_blocks)
    out.extend(type_blocks)
    out.append("")
    out.append("")
    out.append("#: Each type string's settings class.")
    out.append(f"{target.by_type}: dict[str, type] = {{")
    out.extend(f"    {_q(info.type_string)}: {info.class_name}," for info in infos)
    out.append("}")
    out.append(f"#: Each literal's enum, by name (tests/unit/test_{target.noun}_args.py keeps them equal).")
    out.append("ENUM_LITERALS: dict[str, tuple[str, str]] = {")
    for alias, enum in sorted(renderer.enums.items()):
        line = f"    {_q(alias)}: ({_q(enum.__module__)}, {_q(enum.__name__)}),"
        if len(line) > WIDTH:
            line = f"    {_q(alias)}: (\n        {_q(enum.__module__)}, {_q(enum.__name__)}),"
        out.append(line)
    out.append("}")
    names = sorted({info.class_name for info in infos} | set(renderer.nested) | set(renderer.enums))
    out.append("")
    out.append("__all__ = [")
    out.extend(f"    {_q(name)}," for name in names)
    out.append("]")
    out.append("")
    out.append("# A wrong or missing argument is one line under `pulumi up`, not a traceback (_args.py).")
    out.append(f"one_line_arguments(*({target.by_type}.values()), *(globals()[name] for name in (")
    nested = sorted(renderer.nested)
    out.extend(textwrap.wrap(", ".join(_q(name) for name in nested) + ",", WIDTH - 4,
                             initial_indent="    ", subsequent_indent="    "))
    # The policies' prefix is the helper's default; another family names its own public module.
    prefix = _q(f"apinizer.{target.public_module}")
    out.append(")))" if target.public_module == "policies" else f")), prefix={prefix})")
    return "\n".join(out) + "\n"


def _md_type(info: FieldInfo, renderer: Renderer) -> str:
    text = renderer.plain(info.annotation)
    text = re.sub(r"pulumi\.Input\[(.*?)\]", r"\1", text)
    return text.replace("|", "\\|")


def render_reference(target: Target) -> str:
    infos = collect(target)
    renderer = Renderer()
    out = [
        f"# {target.noun.capitalize()} type reference",
        "",
        "<!-- GENERATED by scripts/gen_policy_args.py from the models' docstrings: do not edit. -->",
        "",
        *target.intro,
        "",
        "| Settings class | Type | Summary |",
        "|---|---|---|",
    ]
    for info in infos:
        anchor = info.class_name.lower()
        summary = _first_paragraph(_doc(info.model.__doc__)).replace("|", "\\|")
        out.append(f"| [`{target.public_module}.{info.class_name}`](#{anchor}) | `{info.type_string}` "
                   f"| {summary} |")
    for info in infos:
        doc = _doc(info.model.__doc__)
        out += ["", f"## {info.class_name}", "", f"Type `{info.type_string}`; "
                f"`apinizer_pulumi.{target.public_module}.{info.class_name}`.", ""]
        source = re.search(r"Source:\s*(\S+)", doc)
        text = re.sub(r"\s*Source:\s*\S+", "", doc).strip()
        out.append(" ".join(text.split()) if text else "")
        if source:
            out += ["", f"Source: <{source.group(1)}>"]
        out += _md_fields(info.fields, renderer, set(info.secrets))
    done: set[str] = set()
    nested_out: list[str] = []
    while len(done) < len(renderer.nested):
        for name in sorted(set(renderer.nested) - done):
            model = renderer.nested[name]
            nested_out += ["", f"### {name}", "", " ".join(_doc(model.__doc__).split())]
            nested_out += _md_fields(model.model_fields, renderer, set())
            done.add(name)
    if nested_out:
        out += ["", "## Nested structures", ""]
        out += nested_out[1:] if nested_out and nested_out[0] == "" else nested_out
    return "\n".join(out).rstrip() + "\n"


def _md_fields(fields: Mapping[str, FieldInfo], renderer: Renderer, secrets: set[str]) -> list[str]:
    if not fields:
        return ["", "No fields of its own."]
    lines = ["", "| Field | Type | Required | Default | Description |", "|---|---|---|---|---|"]
    for name, info in fields.items():
        default = _default_text(info) or ""
        description = " ".join((info.description or "").split()).replace("|", "\\|")
        if name in secrets:
            description = (description + " **Secret.**").strip()
        lines.append(f"| `{name}` | `{_md_type(info, renderer)}` | {'yes' if info.is_required() else 'no'} | "
                     f"{('`' + default + '`') if default else ''} | {description} |")
    return lines


def main(argv: Sequence[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0] if __doc__ else None)
    parser.add_argument("--check", action="store_true", help="exit 1 when a generated file is not current")
    args = parser.parse_args(argv)
    wanted = {}
    for target in TARGETS:
        wanted[target.args_file] = render_args(target)
        wanted[target.reference_file] = render_reference(target)
    stale = [path for path, text in wanted.items()
             if not path.exists() or path.read_text(encoding="utf-8") != text]
    if args.check:
        for path in stale:
            print(f"{path.relative_to(ROOT)} is not current: run scripts/gen_policy_args.py", file=sys.stderr)
        return 1 if stale else 0
    for path in stale:
        path.parent.mkdir(parents=True, exist_ok=True)
        path.write_text(wanted[path], encoding="utf-8")
        print(f"wrote {path.relative_to(ROOT)}")
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
