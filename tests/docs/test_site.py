"""The documentation site builds without a warning, and the pages say what a newcomer needs."""

from __future__ import annotations

import os
import re
import subprocess
import sys
from pathlib import Path

import pytest

from .blocks import ROOT, blocks_of, markdown_files

README_LIMIT = 12_500  # "at most ~12,000 characters": the README points into docs/ for the rest


def test_mkdocs_build_strict(tmp_path: Path):
    env = {**os.environ, "NO_MKDOCS_2_WARNING": "1"}
    result = subprocess.run(
        [sys.executable, "-m", "mkdocs", "build", "--strict", "--config-file", str(ROOT / "mkdocs.yml"),
         "--site-dir", str(tmp_path / "site")],
        cwd=ROOT, env=env, capture_output=True, text=True, timeout=600,
    )
    assert result.returncode == 0, result.stderr
    # The reference sections come from the docstrings: a rename in the code shows up here.
    endpoint_page = (tmp_path / "site" / "resources" / "endpoint" / "index.html").read_text()
    assert "backend_resource_url" in endpoint_page and "Take over an existing endpoint" in endpoint_page
    functions_page = (tmp_path / "site" / "functions" / "get-endpoints" / "index.html").read_text()
    assert "The API proxy (or project) does not exist." in functions_page
    for page in (tmp_path / "site").rglob("*.html"):
        assert not re.search(r"\bspec(ification)? \d", page.read_text()), page  # docstrings included


def test_every_docs_page_is_in_the_nav():
    nav = (ROOT / "mkdocs.yml").read_text()
    pages = {str(path.relative_to(ROOT / "docs")) for path in (ROOT / "docs").rglob("*.md")}
    assert {page for page in pages if page not in nav} == set()


def test_the_readme_is_short_and_links_into_the_docs():
    readme = (ROOT / "README.md").read_text()
    assert len(readme) <= README_LIMIT, len(readme)
    linked = set(re.findall(r"\]\((docs/[^)#]+)", readme))
    assert {"docs/getting-started.md", "docs/emulator.md", "docs/client.md", "docs/limits.md"} <= linked
    assert all((ROOT / link).is_file() for link in linked), linked


def test_the_emulator_page_shows_the_writes_of_common_console_changes():
    """To rehearse drift, a user changes the gateway as the console would: the page shows the writes,
    in a block that tests/docs/test_code_blocks.py runs against a live emulator (``curl -f``: every
    write must be accepted)."""
    page = (ROOT / "docs" / "emulator.md").read_text()
    assert "## Changing the gateway as the console would" in page
    runs = [block.code for block in blocks_of(ROOT / "docs" / "emulator.md")
            if block.lang == "bash" and block.marker == "run"]
    writes = [code for code in runs if "/apiops/projects/" in code and "curl -sf" in code]
    assert writes, "no tested block of console writes"
    code = writes[0]
    for method, path in (("PATCH", "/endpoints/status/"), ("PATCH", "/settings/addresses/"),
                         ("POST", "/environments/test/"), ("POST", "/policies/"), ("PUT", "/policies/")):
        assert re.search(rf"-X {method} .*{re.escape(path)}", code), (method, path)


def test_the_readme_says_near_the_top_that_this_is_python_only():
    readme = (ROOT / "README.md").read_text()
    top = readme[: readme.index("## The two commands")]
    assert "Python only" in top
    # What that means: the language of programs, what replaces `pulumi import`, where the connection is set.
    assert "programs are written in Python" in top
    assert "`pulumi import`" in top and "`adopt=True`" in top and "`apinizer-pulumi generate`" in top
    assert "per stack or per resource" in top and "no provider resource" in top


def test_the_readmes_performance_is_a_short_table_without_the_measurement_history():
    readme = (ROOT / "README.md").read_text()
    section = readme[readme.index("## Performance") :]
    section = section[: section.index("\n## ", 1)]
    hashes = re.search(r"\b[0-9a-f]{7}\b", section.replace("`", " "))
    assert not hashes, "commit hashes belong in docs/performance.md"
    assert "UTC" not in section, "times of day belong in docs/performance.md"
    rows = [line for line in section.splitlines() if line.startswith("|")]
    assert 3 <= len(rows) <= 10 and all(line.count("|") <= 5 for line in rows), rows
    assert "bash scripts/bench.sh" in section and "docs/performance.md" in section
    history = (ROOT / "docs" / "performance.md").read_text()
    assert "e2b18ef" in history and "2d2bc2e" in history  # the runs the README cited are kept there


@pytest.mark.parametrize("path", markdown_files(), ids=lambda p: str(p.relative_to(ROOT)))
def test_pages_cite_the_product_docs_not_section_numbers(path: Path):
    text = path.read_text()
    assert not re.search(r"\b(spec|section|rule)\s+\d", text, re.I), "cite the API documentation's page"
    assert not re.search(r"(?<![\d])8080\b", text), "the one default port is 18080"


def test_pages_that_describe_the_gateway_link_its_documentation():
    for page in ("emulator.md", "client.md", "limits.md", "resources/endpoint.md", "real-gateway.md"):
        text = (ROOT / "docs" / page).read_text()
        assert "https://github.com/apinizer/management-api-docs/blob/main/" in text, page


@pytest.mark.parametrize("path", sorted((ROOT / "examples").glob("*/README.md")),
                         ids=lambda p: str(p.relative_to(ROOT)))
def test_example_readmes_link_to_files_that_exist(path: Path):
    text = path.read_text()
    for heading in ("## Run it against the emulator", "## What it creates", "## Tear it down"):
        assert heading in text, heading
    links = re.findall(r"\]\(([^)#:]+)(?:#[^)]*)?\)", text)
    assert links and all((path.parent / link).resolve().is_file() for link in links), links


def test_the_examples_page_lists_every_example():
    table = (ROOT / "docs" / "examples.md").read_text()
    listed = set(re.findall(r"^\| `([a-z-]+)` \(`examples/\1/README\.md`\) \|", table, flags=re.MULTILINE))
    assert listed == {path.parent.name for path in (ROOT / "examples").glob("*/README.md")}
