"""Every JSON example of the product's policy pages (``02-api-reference/05-policies/``): the
```json blocks and the ``-d '...'`` bodies of the cURL examples, copied into
``tests/unit/data/policy_doc_examples.json`` keyed by page, in page order.

The unit tests replay them through the models and the client, the emulator's tests through the
emulator. Re-copy after the docs change with::

    python -m tests._documented_policies /work/.mirror/apinizer+management-api-docs/repo
"""

from __future__ import annotations

import json
import re
import subprocess
import sys
from pathlib import Path
from typing import Any

DATA = Path(__file__).parent / "unit" / "data" / "policy_doc_examples.json"
FAMILY = "02-api-reference/05-policies/"
#: The 43 pages of policy types, and the CRUD pages.
TYPE_PAGES_DIR = FAMILY + "policies/"
CRUD_PAGES_DIR = FAMILY + "crud/"

_JSON_BLOCK = re.compile(r"^```json\s*\n(.*?)^```", re.S | re.M)
_CURL_BODY = re.compile(r"-d '(\{.*?\})'", re.S)


def extract(markdown: str) -> list[dict[str, Any]]:
    """Each example of a page: ``{"kind": "json" | "curl", "body": <the parsed JSON>}``, in order.

    A block that is not JSON (the docs hold a few with comments or ellipses) is kept as
    ``{"kind": ..., "text": <the block>}`` so a test can name it.
    """
    found: list[tuple[int, str, str]] = [
        (m.start(), "json", m.group(1)) for m in _JSON_BLOCK.finditer(markdown)
    ]
    found += [(m.start(), "curl", m.group(1)) for m in _CURL_BODY.finditer(markdown)]
    examples: list[dict[str, Any]] = []
    for _, kind, text in sorted(found):
        try:
            examples.append({"kind": kind, "body": json.loads(text)})
        except ValueError:
            examples.append({"kind": kind, "text": text})
    return examples


def load() -> dict[str, list[dict[str, Any]]]:
    """``{page path: [example, ...]}`` for every page of the family."""
    loaded: dict[str, list[dict[str, Any]]] = json.loads(DATA.read_text(encoding="utf-8"))
    return loaded


def type_pages() -> dict[str, list[dict[str, Any]]]:
    """The pages of policy types (``policy-*.md``), by policy type string (``policy-white-ip``)."""
    return {
        Path(page).stem: examples
        for page, examples in load().items()
        if page.startswith(TYPE_PAGES_DIR) and Path(page).stem.startswith("policy-")
    }


def _copy(repo: str) -> None:
    def git(*args: str) -> str:
        return subprocess.run(
            ["git", f"--git-dir={repo}", *args], check=True, capture_output=True, text=True
        ).stdout

    pages = [p for p in git("ls-tree", "-r", "--name-only", "HEAD", FAMILY).split() if p.endswith(".md")]
    data = {page: extract(git("show", f"HEAD:{page}")) for page in sorted(pages)}
    DATA.write_text(json.dumps(data, indent=1, ensure_ascii=False) + "\n", encoding="utf-8")


if __name__ == "__main__":
    _copy(sys.argv[1])


def kind_of(body: Any) -> str:
    """What a documented example is: ``write`` (``{operationMetadata, policy}``), ``flat-write``
    (the policy's fields beside ``operationMetadata``), ``delete`` (the metadata alone),
    ``answer`` (add/update/delete's answer), ``list`` (list-policies' answer), ``error``, or
    ``policy`` (a policy alone)."""
    if not isinstance(body, dict):
        return "other"
    keys = set(body)
    if "error" in keys:
        return "error"
    if "resultList" in keys:
        return "list"
    if keys & {"status", "success", "deploymentResult"}:
        return "answer"
    if isinstance(body.get("policy"), dict):
        return "write"
    if keys == {"operationMetadata"}:
        return "delete"
    if "operationMetadata" in keys:
        return "flat-write"
    if "type" in keys:
        return "policy"
    return "other"


def listed_policies(body: dict[str, Any]) -> list[dict[str, Any]]:
    """Every policy entry of a list answer: the proxy's pipelines and each endpoint's, in either
    documented shape (``resultList`` items bare or wrapped in ``apiProxy``)."""
    entries: list[dict[str, Any]] = []
    pipelines = ("requestPolicyList", "responsePolicyList", "errorPolicyList")
    for item in body.get("resultList") or []:
        proxy = item.get("apiProxy", item)
        for holder in [proxy, *(proxy.get("endpointList") or [])]:
            for pipeline in pipelines:
                entries.extend(holder.get(pipeline) or [])
    return entries
