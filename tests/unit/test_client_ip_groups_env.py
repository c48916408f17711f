"""``client.ip_groups`` and ``client.environment_variables`` against a fake gateway (no sockets).

https://github.com/apinizer/management-api-docs/blob/main/02-api-reference/11-ip-groups/index.md
https://github.com/apinizer/management-api-docs/blob/main/02-api-reference/10-environment-variables/index.md
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
)
from apinizer_pulumi.models import EnvironmentValue, EnvironmentVariableSpec, address_problem

from ._fake_gateway import FakeGateway, body, error

GROUPS = "/apiops/projects/Demo/ipGroups/"
IPS = "/apiops/projects/Demo/ipGroups/AllowedIPs/ips/"
VARIABLES = "/apiops/projects/Demo/environmentVariables/"
API_KEY = VARIABLES + "API_KEY/"
#: The list page's example answer, whose secret global value is shown in clear.
LISTED = {
    "success": True,
    "resultList": [
        {
            "projectId": "project-id",
            "name": "API_BASE_URL",
            "description": "Base URL for API calls",
            "global": False,
            "globalValue": None,
            "globalVisible": True,
            "projectName": "MyProject",
            "environmentValueList": [
                {
                    "environmentName": "production",
                    "value": "https://api.production.example.com",
                    "visible": True,
                }
            ],
        },
        {
            "projectId": "project-id",
            "name": "API_KEY",
            "description": "API Key for external service",
            "global": True,
            "globalValue": "secret-api-key-12345",
            "globalVisible": False,
            "projectName": "MyProject",
            "environmentValueList": None,
        },
    ],
    "resultCount": 2,
}


def test_ip_group_create_update_delete_send_the_documented_requests(
    gateway: FakeGateway, client: ApinizerClient
) -> None:
    client.ip_groups.create("Demo", {"name": "AllowedIPs", "description": "Allowed IP addresses"})
    client.ip_groups.update("Demo", {"name": "AllowedIPs", "description": "Updated"})
    client.ip_groups.delete("Demo", "AllowedIPs")
    sent = [(r.method, r.url.path, body(r) if r.content else None) for r in gateway.api_requests]
    assert sent == [
        ("POST", GROUPS, {"name": "AllowedIPs", "description": "Allowed IP addresses"}),
        ("PUT", GROUPS + "AllowedIPs/", {"name": "AllowedIPs", "description": "Updated"}),
        ("DELETE", GROUPS + "AllowedIPs/", None),
    ]


def test_the_three_address_operations_send_ip_list(gateway: FakeGateway, client: ApinizerClient) -> None:
    client.ip_groups.add_ips("Demo", "AllowedIPs", ["192.168.1.100", "10.0.0.0/8"])
    client.ip_groups.replace_ips("Demo", "AllowedIPs", ["172.16.0.0/12"])
    client.ip_groups.delete_ips("Demo", "AllowedIPs", ["10.0.0.0/8"])
    client.ip_groups.replace_ips("Demo", "AllowedIPs", [])  # sent as given: the gateway decides
    assert [(r.method, r.url.path, body(r)) for r in gateway.api_requests] == [
        ("POST", IPS, {"ipList": ["192.168.1.100", "10.0.0.0/8"]}),
        ("PUT", IPS, {"ipList": ["172.16.0.0/12"]}),
        ("DELETE", IPS, {"ipList": ["10.0.0.0/8"]}),
        ("PUT", IPS, {"ipList": []}),
    ]


@pytest.mark.parametrize(("ips", "where"), [(["10.0.0.1", "10.0.0.1/8"], "ips[1]"), (["::1"], "ips[0]")])
def test_a_bad_address_is_refused_before_sending(
    gateway: FakeGateway, client: ApinizerClient, ips: list[str], where: str
) -> None:
    with pytest.raises(InvalidArgumentError) as info:
        client.ip_groups.add_ips("Demo", "AllowedIPs", ips)
    assert where in str(info.value)
    assert gateway.api_requests == []


def test_a_taken_group_name_is_the_gateways_400(gateway: FakeGateway, client: ApinizerClient) -> None:
    message = "An IP Group with same name (AllowedIPs) already exists in project!"
    gateway.script("POST", GROUPS, error(400, "bad_request", message))
    with pytest.raises(BadRequestError) as info:
        client.ip_groups.create("Demo", {"name": "AllowedIPs"})
    assert info.value.error_description == message


def test_ip_group_create_is_not_repeated_after_a_lost_answer(
    gateway: FakeGateway, client: ApinizerClient
) -> None:
    gateway.script("POST", GROUPS, httpx.RemoteProtocolError("server disconnected"))
    with pytest.raises(APIConnectionError):
        client.ip_groups.create("Demo", {"name": "X"})
    assert len(gateway.api_requests) == 1


def test_address_problem_uses_ipaddress() -> None:
    assert address_problem("192.168.1.100") is None and address_problem("10.0.0.0/8") is None
    assert address_problem("10.0.0.1/8") == "'10.0.0.1/8' has host bits set; the range is '10.0.0.0/8'"
    assert "IPv6" in (address_problem("2001:db8::/32") or "")
    assert "not an IPv4 address" in (address_problem("192.168.1") or "")


def test_list_accepts_both_documented_shapes_of_a_secret(
    gateway: FakeGateway, client: ApinizerClient
) -> None:
    gateway.script("GET", VARIABLES, httpx.Response(200, json=LISTED))
    found = {v.name: v for v in client.environment_variables.list("Demo")}
    assert found["API_KEY"].global_ is True and found["API_KEY"].global_value == "secret-api-key-12345"
    assert "secret-api-key-12345" not in repr(found["API_KEY"])  # not visible: masked in reprs
    values = found["API_BASE_URL"].environment_value_list or []
    assert (values[0].environment_name, values[0].value) == (
        "production",
        "https://api.production.example.com",
    )


def test_get_answers_the_one_variable(gateway: FakeGateway, client: ApinizerClient) -> None:
    one = {**LISTED, "resultList": [LISTED["resultList"][1]], "resultCount": 1}  # type: ignore[index]
    gateway.script("GET", API_KEY, httpx.Response(200, json=one))
    assert client.environment_variables.get("Demo", "API_KEY").name == "API_KEY"


def test_create_sends_the_documented_body_and_reads_the_deployment(
    gateway: FakeGateway, client: ApinizerClient
) -> None:
    answer = {
        "success": True,
        "deploymentResult": {
            "success": True,
            "message": "Deployment completed successfully",
            "environmentResults": [{"environmentName": "production", "success": True, "message": "ok"}],
        },
    }
    gateway.script("POST", API_KEY, httpx.Response(200, json=answer))
    spec = EnvironmentVariableSpec(
        name="API_KEY",
        description="API Key for external service",
        global_=True,
        global_value="secret-api-key-12345",
        global_visible=False,
    )
    result = client.environment_variables.create("Demo", spec)
    assert body(gateway.last) == {
        "name": "API_KEY",
        "description": "API Key for external service",
        "global": True,
        "globalValue": "secret-api-key-12345",
        "globalVisible": False,
        "environmentValueList": None,
    }
    assert result.deployment_result is not None and result.deployment_result.ok


def test_a_failed_deployment_raises_naming_the_environment(
    gateway: FakeGateway, client: ApinizerClient
) -> None:
    answer = {
        "success": True,
        "deploymentResult": {
            "success": False,
            "environmentResults": [
                {"environmentName": "production", "success": False, "message": "pod unreachable"}
            ],
        },
    }
    gateway.script("PUT", API_KEY, httpx.Response(200, json=answer))
    spec = EnvironmentVariableSpec(
        name="API_KEY",
        environment_value_list=[EnvironmentValue(environment_name="production", value="v", visible=True)],
    )
    with pytest.raises(DeploymentFailedError) as info:
        client.environment_variables.update("Demo", spec)
    assert info.value.failures == [("production", "pod unreachable")]


def test_update_may_rename_from_the_current_name(gateway: FakeGateway, client: ApinizerClient) -> None:
    client.environment_variables.update(
        "Demo", {"name": "NEW", "global": True, "globalValue": "v"}, current_name="API_KEY"
    )
    assert (gateway.last.method, gateway.last.url.path, body(gateway.last)["name"]) == ("PUT", API_KEY, "NEW")


def test_a_variable_without_a_value_of_its_kind_is_refused_offline(client: ApinizerClient) -> None:
    with pytest.raises(InvalidArgumentError) as info:
        client.environment_variables.create("Demo", {"name": "X", "global": True})
    assert "global_value" in str(info.value)
    with pytest.raises(InvalidArgumentError) as info:
        client.environment_variables.create("Demo", {"name": "X"})
    assert "environment_value_list" in str(info.value)


def test_a_secret_value_stays_out_of_reprs() -> None:
    spec = EnvironmentVariableSpec(
        name="K", global_=True, global_value="hunter2-hunter2", global_visible=False
    )
    value = EnvironmentValue(environment_name="prod", value="hunter2-hunter2", visible=False)
    assert "hunter2" not in repr(spec) and "hunter2" not in str(spec) and "hunter2" not in repr(value)
    assert spec.to_api()["globalValue"] == "hunter2-hunter2"
