"""A program generated from a gateway with policies adopts them as they are: typed Policy resources at
their places, a first ``up`` that writes nothing, then an ``up`` with no changes at all."""

from __future__ import annotations

import sys
from pathlib import Path

import httpx

from apinizer_pulumi.client import ApinizerClient
from apinizer_pulumi.generate import generate_program, write_project

from .harness import comparable_state, refresh, stack_config

WRITES = ("POST /apiops/projects/{projectName}/apiProxies/{apiProxyName}/policies/{policyName}/",
          "PUT /apiops/projects/{projectName}/apiProxies/{apiProxyName}/policies/{policyName}/")
LIST = "GET /apiops/projects/{projectName}/apiProxies/{apiProxyName}/policies/"


def test_generated_policies_are_adopted_without_a_write(
    tmp_path: Path, program_runner, emulator_url: str, admin_token: str, client: ApinizerClient, monkeypatch
):
    where = {"target_scope": "ALL", "target_pipeline": "REQUEST", "deploy": False}
    client.policies.add("Demo", "Orders", "office", {"type": "policy-white-ip", "ip_list": ["10.0.0.0/8"],
                                                     "description": "Office only"}, where)
    client.policies.add("Demo", "Orders", "limit", {
        "type": "policy-api-based-throttling", "active": False,
        "target_variable_for_identity": {"type": "HEADER", "header_name": "X-Key"},
        "message_count_for_interval": 5, "throttling_interval": "ONE_SECOND"}, where)
    client.policies.add("Demo", "Orders", "stamp", {
        "type": "policy-script", "script_language": "GROOVY", "script_body": "return"},
        {**where, "target_scope": "ENDPOINT", "target_endpoint": "/orders",
         "target_endpoint_http_method": "GET", "target_pipeline": "RESPONSE"})
    program = generate_program(client, "Demo", ["Orders"])
    assert "apinizer.policies.ApiBasedThrottling(" in program and "apinizer.policies.Script(" in program
    project = write_project(tmp_path / "generated", program, config={"apinizer:url": emulator_url},
                            virtualenv=sys.prefix)
    monkeypatch.setenv("APINIZER_TOKEN", admin_token)
    before = comparable_state(httpx.get(f"{emulator_url}/_emulator/state").json())
    httpx.post(f"{emulator_url}/_emulator/stats/reset", json={}).raise_for_status()

    first = program_runner(project, stack_config(project, "dev"), stack="dev")

    policies = first.mocks.of_type("apinizer:Policy")
    assert sorted((p.inputs["name"], p.inputs["order"], p.inputs["pipeline"]) for p in policies) == [
        ("limit", 2, "REQUEST"), ("office", 1, "REQUEST"), ("stamp", 1, "RESPONSE")]
    assert all(p.inputs["adopt"] is True for p in policies)
    requests = httpx.get(f"{emulator_url}/_emulator/stats").json()["requests"]
    assert not any(key in requests for key in WRITES), requests
    assert comparable_state(httpx.get(f"{emulator_url}/_emulator/state").json()) == before

    second = program_runner(project, stack_config(project, "dev"), stack="dev", previous=first)
    assert second.mocks.steps()["create"] == 0 and second.mocks.steps()["update"] == 0
    verdicts = refresh(second)
    assert set(verdicts.values()) == {"same"}, verdicts
