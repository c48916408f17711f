"""Write the product's documented operations, as data, from its API reference pages.

    .venv/bin/python scripts/gen_documented_operations.py DOCS          # write the data file
    .venv/bin/python scripts/gen_documented_operations.py DOCS --check  # exit 1 when it is not current

DOCS is a copy of the documentation (github.com/apinizer/management-api-docs): a folder, or a git
directory (a fetched mirror), holding ``02-api-reference/``. Every page's ``## Endpoint`` section
(to its next ``## `` heading) names its operations as ``METHOD /path`` lines inside code fences;
a page may name two (update from URL or from a file). Each operation is kept once, with every
page that documents it. ``tests/emulator/test_documented_operations.py`` walks the file.
"""

from __future__ import annotations

import argparse
import json
import re
import subprocess
import sys
from collections.abc import Sequence
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
DATA_FILE = ROOT / "tests" / "data" / "documented_operations.json"
REFERENCE = "02-api-reference/"

_SECTION = re.compile(r"^## Endpoints?\s*$(.*?)(?=^## |\Z)", re.M | re.S)
_FENCE = re.compile(r"^```[^\n]*\n(.*?)^```", re.M | re.S)
_OPERATION = re.compile(r"^(GET|POST|PUT|PATCH|DELETE)\s+(/\S+)\s*$", re.M)


def operations_of(markdown: str) -> list[tuple[str, str]]:
    """``(METHOD, path)`` of each operation of a page's ``## Endpoint`` section, in order."""
    found: list[tuple[str, str]] = []
    for section in _SECTION.finditer(markdown):
        for fence in _FENCE.finditer(section.group(1)):
            found.extend((m.group(1), m.group(2)) for m in _OPERATION.finditer(fence.group(1)))
    return found


def _pages(docs: Path) -> dict[str, str]:
    """``{page path: text}`` of every page under ``02-api-reference/``, from a folder or a git directory."""
    if (docs / REFERENCE).is_dir():
        return {
            str(page.relative_to(docs)): page.read_text(encoding="utf-8")
            for page in sorted((docs / REFERENCE).rglob("*.md"))
        }

    def git(*args: str) -> str:
        return subprocess.run(
            ["git", f"--git-dir={docs}", *args], check=True, capture_output=True, text=True
        ).stdout

    names = [n for n in git("ls-tree", "-r", "--name-only", "HEAD", REFERENCE).split() if n.endswith(".md")]
    return {name: git("show", f"HEAD:{name}") for name in sorted(names)}


def render(docs: Path) -> str:
    operations: dict[tuple[str, str], list[str]] = {}
    for page, text in _pages(docs).items():
        for operation in operations_of(text):
            operations.setdefault(operation, []).append(page)
    rows = [
        {"method": method, "path": path, "pages": pages}
        for (method, path), pages in sorted(operations.items(), key=lambda item: (item[0][1], item[0][0]))
    ]
    return json.dumps(rows, indent=1) + "\n"


def main(argv: Sequence[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0] if __doc__ else None)
    parser.add_argument("docs", type=Path, help="the documentation: a folder or a git directory")
    parser.add_argument("--check", action="store_true", help="exit 1 when the data file is not current")
    args = parser.parse_args(argv)
    wanted = render(args.docs)
    current = DATA_FILE.read_text(encoding="utf-8") if DATA_FILE.exists() else ""
    if args.check:
        if current != wanted:
            print(f"{DATA_FILE.relative_to(ROOT)} is not current: run {Path(__file__).name}", file=sys.stderr)
            return 1
        return 0
    if current != wanted:
        DATA_FILE.parent.mkdir(parents=True, exist_ok=True)
        DATA_FILE.write_text(wanted, encoding="utf-8")
        print(f"wrote {DATA_FILE.relative_to(ROOT)}")
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
