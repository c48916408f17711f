"""Every JSON example of the product's connection and geolocation pages (``02-api-reference/
06-connections/`` and ``13-geolocation/``): the ```json blocks and the ``-d '...'`` bodies of the
cURL examples (:func:`_documented_policies.extract`), copied into
``tests/unit/data/connection_doc_examples.json`` keyed by page, in page order.

The unit tests replay them through the models and the client, the emulator's tests through the
emulator. Re-copy after the docs change with::

    python tests/_documented_connections.py /work/apidocs
"""

from __future__ import annotations

import json
import sys
from pathlib import Path
from typing import Any

sys.path.insert(0, str(Path(__file__).parent))

from _documented_policies import extract

DATA = Path(__file__).parent / "unit" / "data" / "connection_doc_examples.json"
FAMILIES = ("02-api-reference/06-connections/", "02-api-reference/13-geolocation/")
TYPE_PAGES_DIR = FAMILIES[0] + "connections/"
CRUD_PAGES_DIR = FAMILIES[0] + "crud/"
#: Names some examples use beside the type page's tables (the SNMP page), and the names a write
#: sends for them (docs/docs-disagreements.md).
READ_ALIASES = {
    "pduUdpForMessage": "pduOidForMessage",
    "pduUdpForTime": "pduOidForTime",
    "enabledUserAuthentication": "enableUserAuthentication",
}


def load() -> dict[str, list[dict[str, Any]]]:
    """``{page path: [example, ...]}`` for every page of the two families."""
    loaded: dict[str, list[dict[str, Any]]] = json.loads(DATA.read_text(encoding="utf-8"))
    return loaded


def read_pages(docs: Path) -> dict[str, list[dict[str, Any]]]:
    """The examples of the pages under ``docs`` (a copy of the documentation's repository)."""
    pages = sorted(p for family in FAMILIES for p in (docs / family).rglob("*.md"))
    return {str(page.relative_to(docs)): extract(page.read_text(encoding="utf-8")) for page in pages}


def connection_bodies() -> list[tuple[str, int, dict[str, Any]]]:
    """``(page, index, connection)`` for every example that is a connection: a write body (it has
    ``type`` and ``name``) or an item of a list or get answer."""
    found: list[tuple[str, int, dict[str, Any]]] = []
    for page, examples in load().items():
        for index, example in enumerate(examples):
            body = example.get("body")
            if not isinstance(body, dict):
                continue
            if isinstance(body.get("resultList"), list):
                found.extend((page, index, item) for item in body["resultList"])
            elif "type" in body and "name" in body:
                found.append((page, index, body))
    return found


def answers() -> list[tuple[str, int, dict[str, Any]]]:
    """``(page, index, answer)`` for every success answer of a write (``success`` without a list)."""
    return [
        (page, index, example["body"])
        for page, examples in load().items()
        for index, example in enumerate(examples)
        if isinstance(example.get("body"), dict)
        and "success" in example["body"]
        and "resultList" not in example["body"]
    ]


def errors() -> list[tuple[str, int, dict[str, Any]]]:
    """``(page, index, error)`` for every error body."""
    return [
        (page, index, example["body"])
        for page, examples in load().items()
        for index, example in enumerate(examples)
        if isinstance(example.get("body"), dict) and "error" in example["body"]
    ]


if __name__ == "__main__":
    DATA.write_text(
        json.dumps(read_pages(Path(sys.argv[1])), indent=1, ensure_ascii=False) + "\n", encoding="utf-8"
    )
