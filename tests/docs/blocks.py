"""The fenced code blocks of README.md, docs/ and the examples' READMEs, as the tests run them.

A block is marked by an HTML comment on the line right above its fence, which renders as nothing:
``<!-- docs-test: skip -->`` (never run: it needs a real gateway, say) or ``<!-- docs-test: run -->``
(a ``bash`` block that is safe to run in a fresh shell). ``python`` blocks always run, unless skipped;
``json`` and ``yaml`` blocks always parse.
"""

from __future__ import annotations

import dataclasses
import re
from pathlib import Path

ROOT = Path(__file__).resolve().parents[2]
DOCS = ROOT / "docs"
#: The address every example uses for the local emulator; tests put their own emulator's there.
EXAMPLE_URL = "http://127.0.0.1:18080"

_FENCE = re.compile(r"^(?P<indent> *)```(?P<lang>[\w+-]*)")
_MARKER = re.compile(r"^\s*<!-- docs-test: (?P<marker>skip|run) -->\s*$")


@dataclasses.dataclass(frozen=True)
class Block:
    path: Path
    line: int
    lang: str
    code: str
    marker: str | None

    @property
    def name(self) -> str:
        return f"{self.path.relative_to(ROOT)}:{self.line}"

    @property
    def is_pulumi_program(self) -> bool:
        """A program for the Pulumi engine (it declares resources or exports), not a plain script."""
        return bool(re.search(r"^import pulumi$|^import apinizer_pulumi as apinizer$", self.code, re.M))


def markdown_files() -> list[Path]:
    return [ROOT / "README.md", *sorted(DOCS.rglob("*.md")), *sorted((ROOT / "examples").glob("*/README.md"))]


def blocks_of(path: Path) -> list[Block]:
    found: list[Block] = []
    lines = path.read_text().splitlines()
    index = 0
    while index < len(lines):
        opening = _FENCE.match(lines[index])
        if opening is None:
            index += 1
            continue
        indent, start = opening.group("indent"), index
        body: list[str] = []
        index += 1
        while index < len(lines) and lines[index].strip() != "```":
            body.append(lines[index].removeprefix(indent))
            index += 1
        if index == len(lines):
            raise AssertionError(f"{path.relative_to(ROOT)}:{start + 1}: code block never closed")
        marker = _MARKER.match(lines[start - 1]) if start > 0 else None
        found.append(
            Block(path, start + 1, opening.group("lang"), "\n".join(body) + "\n",
                  marker.group("marker") if marker else None)
        )
        index += 1
    return found


def all_blocks(*langs: str) -> list[Block]:
    return [block for path in markdown_files() for block in blocks_of(path) if block.lang in langs]
