"""``_lazy.declared_imports`` reads a package's ``if TYPE_CHECKING:`` imports from its lines as ``ast`` would.

It reads the lines rather than a syntax tree because parsing ``models/__init__.py`` was 3-4 ms of a
fresh provider's first check (docs/performance.md, "The request floor: a fresh provider's start");
these tests hold its reading to ``ast``'s for every package of the project and for the shapes an
``__init__`` may take.
"""

from __future__ import annotations

import ast
import textwrap
from pathlib import Path

import pytest

import apinizer_pulumi
from apinizer_pulumi._lazy import declared_imports

PACKAGE = Path(apinizer_pulumi.__file__).parent


def ast_reading(source: str) -> dict[str, str]:
    """The reference: each ``from .module import name`` directly under a top-level ``if TYPE_CHECKING:``."""
    found: dict[str, str] = {}
    for node in ast.parse(source).body:
        if not isinstance(node, ast.If) or not isinstance(node.test, ast.Name):
            continue
        if node.test.id != "TYPE_CHECKING":
            continue
        for statement in node.body:
            if isinstance(statement, ast.ImportFrom) and statement.level == 1 and statement.module:
                for alias in statement.names:
                    found[alias.asname or alias.name] = "." + statement.module
    return found


@pytest.mark.parametrize("init", sorted(PACKAGE.rglob("__init__.py")),
                         ids=lambda path: str(path.relative_to(PACKAGE)))
def test_every_package_of_the_project_reads_as_ast_reads_it(init: Path) -> None:
    source = init.read_text(encoding="utf-8")

    assert declared_imports(source) == ast_reading(source)


def test_the_models_package_declares_its_names() -> None:
    declared = declared_imports((PACKAGE / "models" / "__init__.py").read_text(encoding="utf-8"))

    assert declared["EndpointSpec"] == "._endpoint"
    assert len(declared) > 300


SHAPES = {
    "aliases and comments": """
        from typing import TYPE_CHECKING

        if TYPE_CHECKING:  # the names below
            from ._a import One, Two as Second  # noqa: F401
            from ._b import (
                Three,  # a comment
                Four as Fourth,
            )
            # a comment at the block's own indentation
        # a comment at column 0 inside the block
            from ._c.deep import Five
        """,
    "what ast leaves out": """
        if TYPE_CHECKING:
            from ..parent import Up
            from . import sibling
            import os
            if True:
                from ._nested import Nested
            from ._kept import Kept
        else:
            from ._other import Other
        if typing.TYPE_CHECKING:
            from ._attribute import Attribute
        def f():
            if TYPE_CHECKING:
                from ._local import Local
        from ._runtime import Runtime
        """,
    "two blocks and no newline at the end": """
        if TYPE_CHECKING:
            from ._a import A

        x = 1

        if TYPE_CHECKING:
            from ._b import (B,
                             C)""",
}


@pytest.mark.parametrize("source", SHAPES.values(), ids=SHAPES.keys())
def test_each_shape_reads_as_ast_reads_it(source: str) -> None:
    source = textwrap.dedent(source).lstrip("\n")

    assert declared_imports(source) == ast_reading(source)
    assert declared_imports(source)  # the shape does declare names, so an empty reading would not pass
