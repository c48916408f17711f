"""The lines that every generated declaration shares, below the family modules that write them: the
indent of a keyword, a Pulumi name made from the gateway's names, the opening of a kind's dict, the
head of a resource declared by its project and name, the end of one taken over as it is
(``adopt=True``), and the head of a generated module."""

from __future__ import annotations

import json
import re
from collections.abc import Callable, Sequence

#: A keyword of a declaration, inside ``"<name>": apinizer.<Kind>(``.
INDENT = "        "


def slug(*parts: str) -> str:
    """``demo-petstore`` for ("Demo", "PetStore"): lowercase, every other run of characters one hyphen."""
    return re.sub(r"[^a-z0-9]+", "-", "-".join(parts).lower()).strip("-")


def every(what: str, variable: str, kind: str) -> list[str]:
    """A blank line, ``#: Every <what> ...`` and ``<variable>: dict[str, apinizer.<kind>] = {``."""
    return ["", f"#: Every {what}, by Pulumi resource name.", f"{variable}: dict[str, apinizer.{kind}] = {{"]


def declaration_head(kind: str, resource_name: str, project: str, name: str, *,
                     literal: Callable[[str], str] = json.dumps, name_key: str = "name",
                     indent: str = INDENT) -> list[str]:
    """``"<resource name>": apinizer.<kind>(``, its resource name, ``project_name`` and the name."""
    return [f"    {json.dumps(resource_name)}: apinizer.{kind}(", f"{indent}{json.dumps(resource_name)},",
            f"{indent}project_name={literal(project)},", f"{indent}{name_key}={literal(name)},"]


def adopted_end(retain_option: str | None, *, indent: str = INDENT) -> list[str]:
    """``adopt=True``, the retain option where the program retains, and the closing parenthesis."""
    return [f"{indent}adopt=True,", *([f"{indent}{retain_option}"] if retain_option else []), "    ),"]


def module_head(docstring: Sequence[str], body: Sequence[str]) -> list[str]:
    """The module docstring, the imports, and ``import pulumi`` exactly where ``body`` uses it (a family's
    section reads secrets through ``pulumi.Config()``; a retained resource names ``pulumi.ResourceOptions``),
    so that no condition beside the sections has to know which of them does."""
    uses_pulumi = any("pulumi.Config(" in line or "pulumi.ResourceOptions(" in line for line in body)
    return ['"""' + docstring[0], *docstring[1:], '"""', "", "from __future__ import annotations", "",
            "import apinizer_pulumi as apinizer", *(["import pulumi"] if uses_pulumi else [])]
