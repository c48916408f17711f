"""Environment variables for ``apinizer-pulumi generate``: read them, write ``EnvironmentVariable``s.

One request per project. A value the gateway masks (a secret) cannot be read, so the generated program takes
it from the stack's config as a secret (``pulumi config set --secret <key> <value>``), named in a comment.
IP groups are not written: the API can neither list nor read them.

With ``--environment NAME`` (one stack per environment, docs/stacks.md) a variable with one value per
environment is written as that environment's ``EnvironmentVariableValue``, which merges its value in and
leaves the others as they are; a variable that cannot be merged (another environment's value is masked,
and the API writes a variable whole) stays whole, as without it.
"""

from __future__ import annotations

import dataclasses
import json
from collections.abc import Callable, Sequence
from typing import TYPE_CHECKING

from apinizer_pulumi.client import ApinizerClient

from ._lines import INDENT, adopted_end, declaration_head, slug
from ._snapshot import listed_or_none

if TYPE_CHECKING:
    from apinizer_pulumi.models import EnvironmentVariable


@dataclasses.dataclass(frozen=True)
class VariableRecord:
    """One variable as an ``EnvironmentVariable`` declares it; None values are masked secrets."""

    project: str
    name: str
    description: str | None
    global_value: str | None
    #: (environment, value or None when masked), in the gateway's order; None for a global variable.
    environment_values: tuple[tuple[str, str | None], ...] | None
    secret: bool
    #: Some values visible and some not: ``EnvironmentVariable`` declares one visibility for all.
    mixed: bool = False

    @classmethod
    def from_live(cls, project: str, live: EnvironmentVariable) -> VariableRecord:
        if live.global_:
            return cls(
                project,
                live.name,
                live.description or None,
                None if not live.global_visible else live.global_value,
                None,
                not live.global_visible,
            )
        items = live.environment_value_list or []
        values = tuple((v.environment_name, v.value if v.visible else None) for v in items)
        visibility = {v.visible for v in items}
        return cls(
            project,
            live.name,
            live.description or None,
            None,
            values,
            False in visibility,
            mixed=len(visibility) > 1,
        )

    def splits_for(self, environment: str) -> bool:
        """Whether ``environment``'s stack can own its value alone: per-environment, and no other
        environment's value masked (a merge writes the others back as read). Its own may be masked."""
        return (self.environment_values is not None
                and all(value is not None for env, value in self.environment_values if env != environment))

    def value_in(self, environment: str) -> tuple[bool, str | None]:
        """(whether it has a value in ``environment``, that value or None when masked)."""
        found = [value for env, value in self.environment_values or () if env == environment]
        return (bool(found), found[0] if found else None)

    @property
    def slug(self) -> str:
        return slug(self.project, self.name)


def read_environment_variables(
    client: ApinizerClient, project: str, progress: Callable[[str], None] = lambda _line: None,
    *, unread: set[str] | None = None,
) -> list[VariableRecord]:
    """The project's variables; none when this account may not read them (401, 403) or the gateway has
    no such list (404), which ``progress`` reports."""
    what = f"environment variables of {project}"
    live = listed_or_none(lambda: client.environment_variables.list(project), what, progress, unread,
                          "EnvironmentVariable") or []
    if live:
        progress(f"environment variables of {project}: {len(live)}")
    return [VariableRecord.from_live(project, item) for item in live]


def secret_key(record: VariableRecord, environment: str | None = None) -> str:
    """The stack config key of a masked value: ``demo-db-password``, or ``demo-db-password-production``."""
    return record.slug if environment is None else f"{record.slug}-{environment.lower()}"


def secret_keys(records: Sequence[VariableRecord], environment: str | None = None, *,
                whole: bool = True) -> list[str]:
    """The config key of every masked value that the program reads from the stack config, in order;
    with ``environment``, of the program of that environment's stack, which declares the variables that
    cannot be split (``whole``) or not."""
    keys: list[str] = []
    for record in records:
        if environment is not None and record.splits_for(environment):
            has, value = record.value_in(environment)
            keys += [secret_key(record, environment)] if has and value is None else []
            continue
        if record.mixed or not whole:
            continue  # not declared
        if record.environment_values is None:
            keys += [secret_key(record)] if record.global_value is None else []
        else:
            keys += [secret_key(record, env) for env, value in record.environment_values if value is None]
    return keys


def _secret(record: VariableRecord, environment: str | None = None) -> str:
    return f"config.require_secret({json.dumps(secret_key(record, environment))})"


def variable_section(records: Sequence[VariableRecord], *, retain_option: str | None,
                     environment: str | None = None) -> list[str]:
    """The ``EnvironmentVariable`` declarations, each with ``adopt=True``; empty when there are none.

    With ``environment``, each variable that can be split is that environment's
    ``EnvironmentVariableValue`` instead (:func:`value_section`), and the rest are whole.
    """
    if environment is not None:
        split = [record for record in records if record.splits_for(environment)]
        whole = [record for record in records if not record.splits_for(environment)]
        return [*variable_section(whole, retain_option=retain_option),
                *value_section(split, environment, retain_option=retain_option, config_declared=bool(whole))]
    if not records:
        return []
    out = [
        "",
        "# Environment variables, each taken over as it is (adopt=True). A secret value cannot be read",
        "# back: each comes from the stack's config (`pulumi config set --secret <key> <value>`).",
        "config = pulumi.Config()",
        "",
        "#: Every environment variable, by Pulumi resource name.",
        "environment_variables: dict[str, apinizer.EnvironmentVariable] = {",
    ]
    skipped = [record for record in records if record.mixed]
    for record in records:
        if record.mixed:
            continue
        out += declaration_head("EnvironmentVariable", record.slug, record.project, record.name)
        if record.description is not None:
            out.append(f"{INDENT}description={json.dumps(record.description, ensure_ascii=False)},")
        if record.environment_values is None:
            value = json.dumps(record.global_value) if record.global_value is not None else _secret(record)
            out.append(f"{INDENT}global_value={value},")
        else:
            out.append(f"{INDENT}environment_values={{")
            for environment, item in record.environment_values:
                value = json.dumps(item) if item is not None else _secret(record, environment)
                out.append(f"{INDENT}    {json.dumps(environment)}: {value},")
            out.append(f"{INDENT}}},")
        out += _ending(record, retain_option)
    if len(out) and out[-1].endswith("= {"):
        out[-1] += "}"
    else:
        out.append("}")
    for record in skipped:
        out.append(
            f"# Not declared: {record.project}/{record.name} has secret and visible values side by side, "
            "and EnvironmentVariable"
        )
        out.append("# declares one visibility for all its values (secret=True or not); declare it by hand.")
    return out


def _ending(record: VariableRecord, retain_option: str | None) -> list[str]:
    """The last keywords of a declaration, and its end."""
    return [*([f"{INDENT}secret=True,"] if record.secret else []), *adopted_end(retain_option)]


_VALUE_NOTE = """\
# This stack's environment ({environment}): its value of each variable with one value per environment,
# taken over as it is (adopt=True). Each write merges this value in and leaves the other environments'
# values as they are, so each environment's stack owns its own (docs/stacks.md)."""


def value_section(records: Sequence[VariableRecord], environment: str, *, retain_option: str | None,
                  config_declared: bool = False) -> list[str]:
    """``environment``'s ``EnvironmentVariableValue`` of each record that has a value there."""
    present = [(record, value) for record in records
               for has, value in [record.value_in(environment)] if has]
    if not present:
        return []
    out = ["", _VALUE_NOTE.format(environment=environment)]
    if not config_declared:
        out.append("config = pulumi.Config()")
    out += ["", f"#: The value in {environment} of each environment variable, by Pulumi resource name.",
            "environment_variable_values: dict[str, apinizer.EnvironmentVariableValue] = {"]
    for record, value in present:
        name = slug(record.project, record.name, environment)
        out += [
            f"    {json.dumps(name)}: apinizer.EnvironmentVariableValue(",
            f"{INDENT}{json.dumps(name)},",
            f"{INDENT}project_name={json.dumps(record.project)},",
            f"{INDENT}variable_name={json.dumps(record.name)},",
            f"{INDENT}environment_name={json.dumps(environment)},",
            f"{INDENT}value={json.dumps(value) if value is not None else _secret(record, environment)},",
        ]
        # Secret where this environment's value is masked: a variable may mix visibilities.
        out += _ending(dataclasses.replace(record, secret=value is None), retain_option)
    out.append("}")
    return out
