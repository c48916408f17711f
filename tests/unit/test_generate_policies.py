"""generate writes the policies of one list-policies answer as typed Policy resources with adopt=True."""

from __future__ import annotations

import ast
from pathlib import Path

from apinizer_pulumi.generate import render_program
from apinizer_pulumi.generate._policies import read_policies
from apinizer_pulumi.generate._snapshot import GatewaySnapshot, ProxySnapshot
from apinizer_pulumi.models._policy_registry import ProxyPolicyList

from .test_generate import assert_ruff_clean

ANSWER = {
    "status": "SUCCESS", "resultCount": 1,
    "resultList": [{
        "name": "Orders",
        "requestPolicyList": [
            {"type": "policy-white-ip", "name": "office", "active": True, "ipList": ["10.0.0.0/8"]},
            {"type": "policy-api-based-throttling", "name": "throttle", "description": "100 a minute",
             "active": False, "targetVariableForIdentity": {"type": "HEADER", "headerName": "X-Key"},
             "messageCountForInterval": 100, "throttlingInterval": "ONE_MINUTE", "intervalPeriodLength": 1,
             "intervalWindowType": "FIXED",
             "policyCondition": {"conditionRuleList": [{
                 "conditionCriteria": "VALUE", "firstVariable": {"type": "HEADER", "headerName": "X-Tier"},
                 "variableDataType": "STRING", "valueComparisonOperator": "EQ", "secondValueSource": "VALUE",
                 "secondValue": "GOLD"}]}},
        ],
        "responsePolicyList": [], "errorPolicyList": [],
        "endpointList": [{"endpoint": "/orders", "httpMethod": "POST", "requestPolicyList": [
            {"type": "policy-script", "name": "stamp", "active": True, "scriptLanguage": "GROOVY",
             "scriptBody": "request.setHeader('X', '1')"},
            {"type": "policy-header", "name": "legacy", "active": False},
        ]}],
    }],
}


def test_each_modelled_policy_becomes_a_typed_policy_at_its_place(tmp_path: Path) -> None:
    live = ProxyPolicyList.model_validate(ANSWER).result_list[0]
    read = read_policies("Demo", "Orders", live)
    assert [(r.name, r.pipeline, r.order, r.endpoint) for r in read.records] == [
        ("office", "REQUEST", 1, None), ("throttle", "REQUEST", 2, None), ("stamp", "REQUEST", 1, "/orders")]
    assert read.unmodelled == {("Demo", "Orders", "POST", "/orders"): {"request": ("legacy (inactive)",)}}

    proxy = ProxySnapshot("Orders", [], policy_records=read.records)
    program = render_program(GatewaySnapshot("Demo", [proxy]), command="c")
    path = tmp_path / "gateway.py"
    path.write_text(program)
    assert_ruff_clean(path)
    calls = {node.args[0].value: {kw.arg: kw.value for kw in node.keywords}  # type: ignore[attr-defined]
             for node in ast.walk(ast.parse(program))
             if isinstance(node, ast.Call) and ast.unparse(node.func) == "apinizer.Policy"}
    assert set(calls) == {f"demo-orders-policy-{name}" for name in ("office", "throttle", "stamp")}
    throttle = calls["demo-orders-policy-throttle"]
    assert ast.unparse(throttle["settings"]).startswith("apinizer.policies.ApiBasedThrottling(")
    assert ast.literal_eval(throttle["order"]) == 2 and ast.literal_eval(throttle["active"]) is False
    assert ast.literal_eval(throttle["adopt"]) is True
    assert ast.literal_eval(throttle["condition"])["condition_rule_list"][0]["second_value"] == "GOLD"
    # Defaults are left out: interval_period_length 1 and FIXED are the type's own.
    assert "interval_period_length" not in ast.unparse(throttle["settings"])
    stamp = calls["demo-orders-policy-stamp"]
    assert ast.literal_eval(stamp["target_endpoint"]) == "/orders"
    assert ast.literal_eval(stamp["target_endpoint_http_method"]) == "POST"


def test_secret_fields_are_read_from_the_stack_config_never_written(tmp_path: Path) -> None:
    import json

    from apinizer_pulumi.models._policy_registry import POLICY_TYPES

    examples = json.loads((Path(__file__).parent / "data" / "policy_doc_examples.json").read_text())
    model = POLICY_TYPES["policy-api-call"]
    bodies = [example["body"].get("policy", example["body"])
              for page in examples.values() for example in page if isinstance(example.get("body"), dict)]
    policy = next(body for body in bodies if body.get("type") == "policy-api-call"
                  and body.get("headersToBeAddedBeforeCallList"))
    model.model_validate(policy)
    secrets = [item["value"] for item in policy["headersToBeAddedBeforeCallList"] if item.get("value")]
    assert secrets
    answer = {"resultList": [{"name": "Orders", "requestPolicyList": [{**policy, "name": "call"}]}]}
    live = ProxyPolicyList.model_validate(answer).result_list[0]
    proxy = ProxySnapshot("Orders", [], policy_records=read_policies("Demo", "Orders", live).records)

    program = render_program(GatewaySnapshot("Demo", [proxy]), command="c", retain=False)

    assert all(secret not in program for secret in secrets)
    assert 'pulumi.Config().require_secret("demo-orders-policy-call-secret-1")' in program
    assert "# demo-orders-policy-call-secret-1 is settings.headers_to_be_added_before_call_list[0].value:" \
        in program
    assert "pulumi config set --secret demo-orders-policy-call-secret-1 <value>" in program
    path = tmp_path / "gateway.py"
    path.write_text(program)
    assert_ruff_clean(path)
