"""A package's names imported on first use, from the imports it declares for type checkers.

A package ``__init__`` writes its imports as usual, under ``if TYPE_CHECKING:``, and ends with
``__getattr__, __dir__ = lazy_names(__name__, __file__, globals())``. Type checkers and readers
see the imports; at runtime, the first use of a name imports its module (PEP 562), and the
name is then kept in the package like an import would keep it. The imports are read from the
package's own source, once, as scientific-python's ``lazy_loader.attach_stub`` reads a stub:
one list of names to keep, not two.
"""

from __future__ import annotations

import importlib
import re
from collections.abc import Callable
from pathlib import Path
from typing import Any

#: A top-level ``if TYPE_CHECKING:`` and its body: the lines after it that are indented, blank or
#: comments, up to the next statement at column 0.
_TYPE_CHECKING_BLOCK = re.compile(r"^if TYPE_CHECKING:[ \t]*(?:#.*)?\n((?:[ \t]+.*\n|[ \t]*\n|#.*\n)*)", re.M)
#: ``from .module import a, b as c`` or its parenthesised form; ``indent`` tells the block's own
#: statements from those of a block nested in it.
_RELATIVE_IMPORT = re.compile(
    r"^(?P<indent>[ \t]+)from \.(?P<module>\w[\w.]*) import[ \t]+"
    r"(?:\((?P<grouped>[^)]*)\)|(?P<plain>[^\n]*))",
    re.M,
)
_COMMENT = re.compile(r"#[^\n]*")


def declared_imports(source: str) -> dict[str, str]:
    """``name -> relative module`` for every ``from .module import name`` under ``if TYPE_CHECKING:``.

    Read from the lines as they are written (one statement a line, or names in parentheses, as ruff
    formats them), not through ``ast``: parsing the 800 lines of ``models/__init__.py`` into a
    tree was 3-4 ms of every provider process's first check (docs/performance.md, "The request
    floor: a fresh provider's start"). ``tests/unit/test_lazy.py`` holds it to ``ast``'s reading.
    """
    found: dict[str, str] = {}
    for block in _TYPE_CHECKING_BLOCK.finditer(source if source.endswith("\n") else source + "\n"):
        body = block.group(1)
        first = next((line for line in body.splitlines() if line.strip() and not line.startswith("#")), "")
        indent = first[: len(first) - len(first.lstrip())]
        for statement in _RELATIVE_IMPORT.finditer(body):
            if statement.group("indent") != indent:
                continue
            names = _COMMENT.sub("", statement.group("grouped") or statement.group("plain"))
            for written in names.split(","):
                name, _, alias = written.strip().partition(" as ")
                if name:
                    found[alias.strip() or name.strip()] = "." + statement.group("module")
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
