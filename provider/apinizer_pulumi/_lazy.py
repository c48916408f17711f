"""A package's names imported on first use, from the imports it declares for type checkers.

A package ``__init__`` writes its imports as usual, under ``if TYPE_CHECKING:``, and ends with
``__getattr__, __dir__ = lazy_names(__name__, __file__, globals())``. Type checkers and readers
see the imports; at runtime, the first use of a name imports its module (PEP 562), and the
name is then kept in the package like an import would keep it. The imports are read from the
package's own source, once, as scientific-python's ``lazy_loader.attach_stub`` reads a stub:
one list of names to keep, not two.
"""

from __future__ import annotations

import ast
import importlib
from collections.abc import Callable
from pathlib import Path
from typing import Any


def declared_imports(source: str) -> dict[str, str]:
    """``name -> relative module`` for every ``from .module import name`` under ``if TYPE_CHECKING:``."""
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


def lazy_names(
    package: str, init_file: str, namespace: dict[str, Any]
) -> tuple[Callable[[str], Any], Callable[[], list[str]]]:
    """The ``__getattr__`` and ``__dir__`` of a package whose names load on first use."""
    where: dict[str, str] = {}

    def declared() -> dict[str, str]:
        if not where:
            where.update(declared_imports(Path(init_file).read_text(encoding="utf-8")))
        return where

    def attribute(name: str) -> Any:
        module = declared().get(name)
        if module is None:
            raise AttributeError(f"module {package!r} has no attribute {name!r}")
        value = getattr(importlib.import_module(module, package), name)
        namespace[name] = value
        return value

    def names() -> list[str]:
        return sorted(set(namespace) | set(declared()))

    return attribute, names
