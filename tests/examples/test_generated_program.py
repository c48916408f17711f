"""A program generated from a live gateway adopts it as it is: a first ``up`` of adoptions only,
which changes nothing on the gateway, then an ``up`` with no changes at all.

The program runs in-process with every resource handed to its real provider (see harness.py).
"""

from __future__ import annotations

from pathlib import Path

import httpx

from .harness import comparable_state, project_name, refresh, stack_config


def test_generated_program_adopts_the_fixture_without_changes(
    generated_project: Path, program_runner, emulator_url: str, admin_token: str, monkeypatch
):
    monkeypatch.setenv("APINIZER_TOKEN", admin_token)
    before = comparable_state(httpx.get(f"{emulator_url}/_emulator/state").json())
    httpx.post(f"{emulator_url}/_emulator/stats/reset", json={}).raise_for_status()
    config = stack_config(generated_project, "dev")
    assert config == {"apinizer:url": emulator_url}  # no credential was written
    assert project_name(generated_project) == "apinizer-gateway"

    first = program_runner(generated_project, config, stack="dev")

    # Every endpoint of the fixture, each a "create" that is an adoption: nothing written.
    endpoints = first.mocks.of_type("apinizer:Endpoint")
    # ... and the fixture's three proxies, each taken over with the spec it has (none deployed).
    assert first.mocks.steps() == {"create": 9, "same": 0, "update": 0}
    proxies = first.mocks.of_type("apinizer:ApiProxy")
    assert sorted(p.inputs["name"] for p in proxies) == ["Calculator", "Orders", "PetStore"]
    assert all(p.inputs["adopt"] is True and p.inputs.get("spec_type") is None for p in proxies)
    declared = sorted((e.inputs["api_proxy_name"], e.inputs["http_method"], e.inputs["name"])
                      for e in endpoints)
    assert declared == [
        ("Calculator", "POST", "Add"),
        ("Calculator", "POST", "Subtract"),
        ("Orders", "GET", "/orders"),
        ("PetStore", "GET", "/pets"),
        ("PetStore", "GET", "/pets/{id}"),
        ("PetStore", "POST", "/pets"),
    ]
    assert all(e.inputs["adopt"] is True for e in endpoints)
    requests = httpx.get(f"{emulator_url}/_emulator/stats").json()["requests"]
    # Adoption only reads: one list per proxy, shared by its endpoints (docs/performance.md), and
    # the one list by which Check proves the token.
    reads = {"GET /apiops/projects/{projectName}/apiProxies/{apiProxyName}/endpoints/"}
    proxy_read = "GET /apiops/projects/{projectName}/apiProxies/{apiProxyName}/"
    assert set(requests) == reads | {proxy_read}, requests
    # The endpoints share one list per proxy (plus Check's proof of the token); each adopted proxy
    # is looked up, then read back with its endpoint list for its outputs.
    assert requests[proxy_read] <= 2 * 3, requests
    assert requests[next(iter(reads))] <= 3 + 1 + 3, requests
    assert comparable_state(httpx.get(f"{emulator_url}/_emulator/state").json()) == before

    # The adopted ids are the gateway's own.
    live = {e["endpoint"] + e["httpMethod"]: e["id"] for p in before["projects"][0]["apiProxies"]
            for e in p["endpoints"]}
    assert {e.outputs["name"] + e.outputs["http_method"]: e.outputs["endpoint_id"] for e in endpoints} == live

    # The next up: no change anywhere (as `pulumi up --expect-no-changes` demands).
    httpx.post(f"{emulator_url}/_emulator/stats/reset", json={}).raise_for_status()
    second = program_runner(generated_project, config, stack="dev", previous=first)
    assert second.mocks.steps() == {"create": 0, "same": 9, "update": 0}
    # Nothing but Check's proof of the token.
    assert httpx.get(f"{emulator_url}/_emulator/stats").json()["requests"] == {
        "GET /apiops/projects/{projectName}/apiProxies/{apiProxyName}/endpoints/": 1}
    # And refresh sees the gateway as the state records it.
    assert set(refresh(second).values()) == {"same"}
