"""``client.api_proxy_groups`` and ``client.rlcl``'s credential and condition methods over
``httpx.MockTransport``: paths, bodies, answers, and which requests are repeated after a lost answer.

https://github.com/apinizer/management-api-docs/blob/main/02-api-reference/09-api-proxy-groups/index.md
"""

from __future__ import annotations

import httpx
import pytest

from apinizer_pulumi.client import (
    APIConnectionError,
    ApinizerClient,
    BadRequestError,
    DeploymentFailedError,
    InvalidArgumentError,
    InvalidArgumentTypeError,
    group_not_found,
)

from ._fake_gateway import FakeGateway, body, error

GROUPS = "/apiops/projects/Demo/apiProxyGroups/"
PAYMENTS = GROUPS + "PaymentAPIGroup/"
GROUP = {"name": "PaymentAPIGroup", "description": "Payment API Group",
         "client_route": {"relative_path_list": ["/api/v1/payment"], "method_list": ["GET", "POST"]}}


def test_create_sends_the_documented_body(gateway: FakeGateway, client: ApinizerClient) -> None:
    client.api_proxy_groups.create("Demo", GROUP)
    request = gateway.last
    assert (request.method, request.url.path) == ("POST", GROUPS)
    # The create page's first example, with its explicit nulls and documented defaults.
    assert body(request) == {"name": "PaymentAPIGroup", "description": "Payment API Group", "clientRoute": {
        "relativePathList": ["/api/v1/payment"], "methodList": ["GET", "POST"], "hostList": None,
        "headerList": None, "bufferRequest": True, "bufferResponse": True}}


def test_update_puts_every_field_to_the_collection(gateway: FakeGateway, client: ApinizerClient) -> None:
    client.api_proxy_groups.update("Demo", {**GROUP, "description": "Updated"})
    request = gateway.last
    assert (request.method, request.url.path) == ("PUT", GROUPS)
    assert body(request)["description"] == "Updated"


@pytest.mark.parametrize("route", [{}, {"relative_path_list": []}, {"relative_path_list": ["/"]}],
                         ids=["no paths", "empty paths", "a one-character path"])
def test_a_route_the_page_refuses_is_refused_before_sending(
    gateway: FakeGateway, client: ApinizerClient, route: dict[str, list[str]]
) -> None:
    with pytest.raises(InvalidArgumentError) as info:
        client.api_proxy_groups.create("Demo", {"name": "G", "client_route": route})
    assert "relative_path_list" in str(info.value)
    assert gateway.api_requests == []


def test_list_find_and_environments_read_the_documented_answers(
    gateway: FakeGateway, client: ApinizerClient
) -> None:
    listed = {"success": True, "resultList": [{"id": "group-id-1", "name": "PaymentAPIGroup",
                                               "description": "Payment API Group"}], "resultCount": 1}
    gateway.script("GET", GROUPS, httpx.Response(200, json=listed), httpx.Response(200, json=listed))
    assert [g.id for g in client.api_proxy_groups.list("Demo")] == ["group-id-1"]
    assert client.api_proxy_groups.find("Demo", "Missing") is None
    environments = {"success": True, "resultCount": 3, "resultList": [
        {"environmentName": "production", "deployed": True}, {"environmentName": "staging", "deployed": True},
        {"environmentName": "development", "deployed": False}]}
    gateway.script("GET", PAYMENTS + "environments/", httpx.Response(200, json=environments))
    found = client.api_proxy_groups.environments("Demo", "PaymentAPIGroup")
    assert [(e.environment_name, e.deployed) for e in found] == [
        ("production", True), ("staging", True), ("development", False)]


def test_members_deploy_and_undeploy_paths(gateway: FakeGateway, client: ApinizerClient) -> None:
    client.api_proxy_groups.add_api_proxy("Demo", "PaymentAPIGroup", "PaymentAPI")
    client.api_proxy_groups.remove_api_proxy("Demo", "PaymentAPIGroup", "PaymentAPI")
    deployed = {"success": True, "deploymentResult": {
        "success": True, "message": "Deployment completed successfully",
        "environmentResults": [{"environmentName": "production", "success": True,
                                "message": "Deployed successfully"}]}}
    gateway.script("POST", PAYMENTS + "environments/production/", httpx.Response(200, json=deployed))
    answer = client.api_proxy_groups.deploy("Demo", "PaymentAPIGroup", "production")
    assert answer.deployment_result is not None
    assert [r.environment_name for r in answer.deployment_result.per_environment()] == ["production"]
    client.api_proxy_groups.undeploy("Demo", "PaymentAPIGroup", "production")
    assert [(r.method, r.url.path) for r in gateway.api_requests] == [
        ("POST", PAYMENTS + "apiProxies/PaymentAPI/"), ("DELETE", PAYMENTS + "apiProxies/PaymentAPI/"),
        ("POST", PAYMENTS + "environments/production/"), ("DELETE", PAYMENTS + "environments/production/")]


def test_a_failed_environment_raises_naming_it(gateway: FakeGateway, client: ApinizerClient) -> None:
    failed = {"success": False, "deploymentResult": {"success": False, "message": "Deployment failed",
              "environmentResults": [{"environmentName": "production", "success": False,
                                      "message": "pods down"}]}}
    gateway.script("POST", PAYMENTS + "environments/production/", httpx.Response(200, json=failed))
    with pytest.raises(DeploymentFailedError) as info:
        client.api_proxy_groups.deploy("Demo", "PaymentAPIGroup", "production")
    assert info.value.failures == [("production", "pods down")]


def test_create_and_delete_are_not_repeated_after_a_lost_answer_but_members_are(
    gateway: FakeGateway, client: ApinizerClient
) -> None:
    gateway.script("POST", GROUPS, httpx.RemoteProtocolError("server disconnected"))
    with pytest.raises(APIConnectionError):
        client.api_proxy_groups.create("Demo", GROUP)
    gateway.script("DELETE", PAYMENTS, httpx.RemoteProtocolError("server disconnected"))
    with pytest.raises(APIConnectionError):
        client.api_proxy_groups.delete("Demo", "PaymentAPIGroup")
    assert len(gateway.api_requests) == 2
    gateway.script("POST", PAYMENTS + "apiProxies/A/", httpx.RemoteProtocolError("server disconnected"))
    client.api_proxy_groups.add_api_proxy("Demo", "PaymentAPIGroup", "A")  # idempotent: sent again
    assert len(gateway.api_requests) == 4


def test_the_group_not_found_answer_is_recognised(gateway: FakeGateway, client: ApinizerClient) -> None:
    message = "API Proxy Group (PaymentAPIGroup) is not found or user does not have privilege to access it!"
    gateway.script("DELETE", PAYMENTS, error(400, "bad_request", message))
    with pytest.raises(BadRequestError) as info:
        client.api_proxy_groups.delete("Demo", "PaymentAPIGroup")
    assert group_not_found(info.value)


# -- RLCL credentials and condition -------------------------------------------------------------------

RLCL = "/apiops/projects/Demo/rlcl/PremiumUserRLCL/"


def test_rlcl_credentials_methods_send_the_name_list(gateway: FakeGateway, client: ApinizerClient) -> None:
    client.rlcl.add_credentials("Demo", "PremiumUserRLCL", ["api-user-1", "api-user-2"])
    client.rlcl.replace_credentials("Demo", "PremiumUserRLCL", ["new-user-1"])
    client.rlcl.delete_credentials("Demo", "PremiumUserRLCL", ["api-user-1"])
    sent = [(r.method, r.url.path, body(r)) for r in gateway.api_requests]
    assert sent == [
        ("POST", RLCL + "credentials/", {"credentialNameList": ["api-user-1", "api-user-2"]}),
        ("PUT", RLCL + "credentials/", {"credentialNameList": ["new-user-1"]}),
        ("DELETE", RLCL + "credentials/", {"credentialNameList": ["api-user-1"]}),
    ]


def test_rlcl_credentials_refuse_an_empty_list_or_a_string(
    gateway: FakeGateway, client: ApinizerClient
) -> None:
    with pytest.raises(InvalidArgumentError):
        client.rlcl.add_credentials("Demo", "PremiumUserRLCL", [])
    with pytest.raises(InvalidArgumentTypeError):
        client.rlcl.add_credentials("Demo", "PremiumUserRLCL", "api-user")  # type: ignore[arg-type]
    assert gateway.api_requests == []


RULE = {"conditionCriteria": "VALUE", "firstVariable": {"name": "userTypeHeader", "type": "HEADER",
                                                        "headerName": "X-User-Type"},
        "variableDataType": "STRING", "valueComparisonOperator": "EQ", "secondValueSource": "VALUE",
        "secondValue": "PREMIUM"}


def test_rlcl_condition_methods(gateway: FakeGateway, client: ApinizerClient) -> None:
    client.rlcl.add_condition("Demo", "PremiumUserRLCL", {"conditionRuleList": [RULE]})
    client.rlcl.update_condition("Demo", "PremiumUserRLCL", {"conditionRuleList": []})
    client.rlcl.delete_condition("Demo", "PremiumUserRLCL")
    first, second, third = gateway.api_requests
    assert (first.method, first.url.path) == ("POST", RLCL + "condition/")
    assert body(first) == {"conditionRuleList": [RULE]}
    assert (second.method, body(second)) == ("PUT", {"conditionRuleList": []})
    assert (third.method, third.content) == ("DELETE", b"")


def test_a_rule_the_page_refuses_names_the_field(gateway: FakeGateway, client: ApinizerClient) -> None:
    with pytest.raises(InvalidArgumentError) as info:
        bad = {"conditionRuleList": [{**RULE, "secondValue": None}]}
        client.rlcl.add_condition("Demo", "PremiumUserRLCL", bad)
    assert "second_value" in str(info.value)
    assert gateway.api_requests == []
