"""A spec of Stripe's size under the real ``pulumi`` CLI: previewed, created, edited and updated (issue 27).

One lifecycle of an ``ApiProxy`` made from a generated OpenAPI spec of 500 operations:

* a broken spec fails ``pulumi preview`` with one line naming the file, before any request;
* the spec is created, then edited (one operation more) and updated in place, while the gateway takes
  11 s to answer the re-parse: more than the fixed 10 s the client allowed any request before, which
  failed the update after 4 attempts, each sending the whole re-parse again;
* a refresh that finds drift leaves the next ``preview --diff`` showing the drift alone, no spec input;
* the state holds the spec's path and hash, not its bytes.
"""

from __future__ import annotations

import json
import re
import textwrap
from pathlib import Path
from typing import Any

import httpx

from apinizer_pulumi.client import ApinizerClient

from .conftest import Project, summary
from .test_cli_errors import assert_one_clean_line

PROXY = "pulumi-python:dynamic/apinizer:ApiProxy"
CREATE = "POST /apiops/projects/{projectName}/apiProxies/file/"
REPARSE = "PUT /apiops/projects/{projectName}/apiProxies/file/"
OPERATIONS = 500

PROGRAM = """
import pulumi

import apinizer_pulumi as apinizer

proxy = apinizer.ApiProxy(
    "big",
    project_name="Demo",
    name="Big-e2e",
    spec_type="OPEN_API",
    spec_file="specs/big.json",
    description="A spec of Stripe's size",
    client_route=apinizer.ClientRouteArgs(relative_paths=["/big"]),
)
pulumi.export("endpoints", proxy.endpoints.apply(len))
"""


def big_spec(operations: int) -> dict[str, Any]:
    """An OpenAPI 3.0 document of ``operations`` operations (a list and a create per path), each with a
    parameter or a body and a response whose schema is a ``$ref`` to one of its components."""
    paths: dict[str, Any] = {}
    schemas: dict[str, Any] = {}
    for index in range(operations // 2):
        schemas[f"Thing{index}"] = {"type": "object", "properties": {
            "id": {"type": "string"}, "amount": {"type": "integer"},
            "metadata": {"type": "object", "additionalProperties": {"type": "string"}}}}
        thing = {"$ref": f"#/components/schemas/Thing{index}"}
        ok = {"200": {"description": "OK", "content": {"application/json": {"schema": thing}}}}
        paths[f"/v1/things{index}"] = {
            "get": {"summary": f"List things {index}", "responses": ok,
                    "parameters": [{"name": "limit", "in": "query", "schema": {"type": "integer"}}]},
            "post": {"summary": f"Create a thing {index}", "responses": ok,
                     "requestBody": {"content": {"application/json": {"schema": thing}}}},
        }
    return {"openapi": "3.0.3", "info": {"title": "Big", "version": "1"}, "paths": paths,
            "components": {"schemas": schemas}}


def counts(emulator_url: str) -> dict[str, int]:
    """The emulator's request counts since the last call (each call resets them)."""
    taken: dict[str, int] = httpx.get(f"{emulator_url}/_emulator/stats", timeout=10).json()["requests"]
    httpx.post(f"{emulator_url}/_emulator/stats/reset", json={}, timeout=10).raise_for_status()
    return {key: count for key, count in taken.items() if count}


def test_a_big_spec_is_previewed_created_edited_and_updated(
    make_project: Any, tmp_path: Path, emulator_url: str, admin_token: str
) -> None:
    source = tmp_path / "source"
    (source / "specs").mkdir(parents=True)
    (source / "Pulumi.yaml").write_text("name: big-spec\nruntime: python\n")
    (source / "__main__.py").write_text(textwrap.dedent(PROGRAM))
    document = big_spec(OPERATIONS)
    text = json.dumps(document, indent=1)
    (source / "specs" / "big.json").write_text(text[: len(text) // 2])  # cut short: not JSON
    project: Project = make_project(source, name="big-spec")
    project.configure(
        {"apinizer:url": emulator_url, "apinizer:timeout": "30"}, secrets={"apinizer:token": admin_token}
    )
    spec = project.directory / "specs" / "big.json"
    counts(emulator_url)

    # A broken spec: one line at preview naming the file, and not a single request.
    broken = project.preview(check=False)
    assert_one_clean_line(broken, f"{PROXY} (big)", re.escape(
        f"{PROXY} resource 'big' has a problem: apinizer: spec_file '{spec}': Invalid specification: "
        "the document is neither JSON nor YAML (") + ".*")
    assert counts(emulator_url) == {}

    # Created from the whole spec.
    spec.write_text(text)
    created = project.up()
    assert summary(created.stdout) == {"created": 2}, created.stdout  # the stack and the proxy
    assert project.outputs() == {"endpoints": OPERATIONS}
    assert counts(emulator_url).get(CREATE) == 1

    # One operation more, re-parsed while the gateway takes 11 s to answer: sent once, and it holds.
    document["paths"]["/v1/refunds"] = {"post": {"summary": "Create a refund",
                                                 "responses": {"200": {"description": "OK"}}}}
    spec.write_text(json.dumps(document, indent=1))
    slow = {"after": True, "delay": 11, "method": "PUT", "path": "/apiProxies/file/"}
    httpx.post(f"{emulator_url}/_emulator/faults", json=slow, timeout=10).raise_for_status()
    updated = project.up()
    assert summary(updated.stdout) == {"updated": 1, "unchanged": 1}, updated.stdout
    assert project.outputs() == {"endpoints": OPERATIONS + 1}
    assert counts(emulator_url).get(REPARSE) == 1
    with ApinizerClient(emulator_url, token=admin_token) as client:
        assert ("POST", "/v1/refunds") in {(e.http_method.value, e.endpoint)
                                           for e in client.endpoints.list("Demo", "Big-e2e")}
        # Drift made in the console: refresh records it, and the next preview shows it alone.
        client.api_proxies.update_metadata("Demo", "Big-e2e", {"description": "changed in the console"})
    project.refresh()
    previewed = project.preview("--diff")
    changes = [" ".join(line.split()) for line in previewed.stdout.splitlines()
               if re.match(r"\s+[-+~] \w+\s*:", line)]
    assert changes == ['~ description : "changed in the console" => "A spec of Stripe\'s size"'], \
        previewed.stdout

    # The state names the spec; its bytes stay in the file.
    state = project.export()
    assert "spec_content" not in state and "List things 123" not in state
    # What is left is mostly the endpoints output (501 names and methods).
    assert len(state) < len(text) / 2, (len(state), len(text))
