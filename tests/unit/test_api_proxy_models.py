"""The models of projects, environments, API proxies and their deployment, against every JSON
example of the product's pages for them (copied into ``data/api_proxy_doc_examples.json``, keyed
by page and block number), and the places where those pages disagree with one another."""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any

import pydantic
import pytest

from _documented_bodies import assert_contained, without_nulls
from apinizer_pulumi import models
from apinizer_pulumi.models import (
    ApiProxy,
    ApiProxyRequest,
    ApiProxySharingType,
    ApiProxySpecType,
    ClientRoute,
    DeploymentResponse,
    DeploymentResult,
    EnvironmentList,
    EnvironmentType,
    ProjectList,
    PublishStatus,
    ResponseStatus,
    RoutingAlgorithm,
    SharingType,
    SpecAuthorizationValue,
)

EXAMPLES: dict[str, dict[str, Any]] = json.loads(
    (Path(__file__).parent / "data" / "api_proxy_doc_examples.json").read_text(encoding="utf-8")
)


@pytest.mark.parametrize("key", sorted(EXAMPLES))
def test_every_documented_example_parses_and_round_trips(key: str) -> None:
    example = EXAMPLES[key]
    model: type[models.ApiModel] = getattr(models, example["model"])
    body = example["body"]
    parsed = model.model_validate(body)
    # Every documented field is a field of the model: what comes in goes back out, by the API's names.
    assert_contained(without_nulls(body), parsed.to_api(), key)


def test_examples_cover_every_page_of_the_family() -> None:
    pages = {key.split("#")[0].rsplit("/", 1)[-1] for key in EXAMPLES}
    assert {
        "list-projects.md",
        "list-environments.md",
        "get-environments-by-project.md",
        "list-api-proxies.md",
        "get-api-proxy.md",
        "create-api-proxy-from-url.md",
        "create-api-proxy-from-file.md",
        "update-api-proxy.md",
        "update-api-proxy-from-url.md",
        "update-api-proxy-from-file.md",
        "delete-api-proxy.md",
        "deploy.md",
        "undeploy.md",
    } <= pages


def test_both_success_envelopes_are_read() -> None:
    projects = ProjectList.model_validate(EXAMPLES["02-api-reference/02-projects/list-projects.md#0"]["body"])
    assert projects.status is ResponseStatus.SUCCESS and projects.success is None and projects.ok
    assert [p.name for p in projects.result_list] == ["default", "MyProject"]
    envs = EnvironmentList.model_validate(
        EXAMPLES["02-api-reference/03-environments/list-environments.md#0"]["body"]
    )
    assert envs.success is True and envs.status is None and envs.ok
    assert not ProjectList.model_validate({"status": "FAILURE", "resultList": []}).ok
    assert not EnvironmentList.model_validate({"success": False}).ok


def test_environment_enums_hold_the_listed_and_the_example_values() -> None:
    envs = EnvironmentList.model_validate(
        EXAMPLES["02-api-reference/03-environments/list-environments.md#0"]["body"]
    )
    assert [e.type for e in envs.result_list] == [
        EnvironmentType.KUBERNETES,
        EnvironmentType.KUBERNETES,
        EnvironmentType.DOCKER,
    ]
    assert envs.result_list[2].status is PublishStatus.DRAFT
    assert envs.result_list[0].deployed is None and envs.result_list[0].redeploy_required is None
    for value in ("PRODUCTION", "SANDBOX", "TEST"):
        assert EnvironmentType(value)
    for value in ("PUBLISHED", "UNPUBLISHED", "REPUBLISH_REQUIRED"):
        assert PublishStatus(value)


def test_three_deployment_result_shapes_read_alike() -> None:
    shapes = [
        {
            "success": True,
            "deploymentResults": [
                {"environmentName": "production", "success": True, "message": "Deployment successful"}
            ],
        },
        {
            "success": True,
            "message": "Deployment completed successfully",
            "environmentResults": [{"environmentName": "production", "success": True, "message": "ok"}],
        },
        {
            "success": True,
            "responseTime": 1500,
            "detailList": [
                {
                    "envName": "production",
                    "podName": "pod-1",
                    "podIp": "10.0.0.1",
                    "success": True,
                    "responseTime": 9,
                },
                {
                    "envName": "production",
                    "podName": "pod-2",
                    "podIp": "10.0.0.2",
                    "success": True,
                    "responseTime": 9,
                },
            ],
        },
    ]
    for shape in shapes:
        result = DeploymentResult.model_validate(shape)
        assert [(r.environment_name, r.success) for r in result.per_environment()] == [("production", True)]
        assert result.ok and result.failures() == []


def test_a_failed_pod_fails_its_environment_and_names_the_pod() -> None:
    result = DeploymentResult.model_validate(
        {
            "success": False,
            "detailList": [
                {"envName": "test", "podName": "pod-a", "success": True},
                {"envName": "test", "podName": "pod-b", "success": False},
                {"envName": "production", "podName": "pod-c", "success": True},
            ],
        }
    )
    assert not result.ok
    [failure] = result.failures()
    assert failure.environment_name == "test" and failure.message is not None and "pod-b" in failure.message


def test_deployment_response_of_every_operation_page() -> None:
    for key, example in EXAMPLES.items():
        if example["model"] != "DeploymentResponse" or "deploymentResult" not in example["body"]:
            continue
        response = DeploymentResponse.model_validate(example["body"])
        assert response.ok, key
        assert response.deployment_result is not None and response.deployment_result.ok, key
        assert response.deployment_result.per_environment(), key


def test_client_route_reads_host_list_and_virtual_host_list() -> None:
    by_url = ClientRoute.model_validate({"relativePathList": ["/a"], "virtualHostList": ["a.example"]})
    by_file = ClientRoute.model_validate({"relativePathList": ["/a"], "hostList": ["b.example"]})
    assert by_url.hosts == ["a.example"] and by_url.to_api() == {
        "relativePathList": ["/a"],
        "virtualHostList": ["a.example"],
    }
    assert by_file.hosts == ["b.example"] and by_file.to_api() == {
        "relativePathList": ["/a"],
        "hostList": ["b.example"],
    }
    assert ClientRoute().hosts == []


def test_both_sharing_type_sets_are_read() -> None:
    assert ApiProxy.model_validate({"name": "a", "sharingType": "PROJECT"}).sharing_type is (
        ApiProxySharingType.PROJECT
    )
    assert (
        ApiProxy.model_validate({"name": "a", "sharingType": "EXTERNAL"}).sharing_type is SharingType.EXTERNAL
    )
    with pytest.raises(pydantic.ValidationError, match="sharing_type"):
        ApiProxy.model_validate({"name": "a", "sharingType": "EVERYONE"})


def test_routing_algorithm_holds_every_pages_values() -> None:
    for value in (
        "IP_HASH",
        "URL_HASH",
        "ROUND_ROBIN",
        "LRU",
        "WEIGHTED",
        "RANDOM",
        "PICK_FIRST",
        "WEIGHTED_ROUND_ROBIN",
        "LEAST_CONNECTIONS",
    ):
        assert RoutingAlgorithm(value).value == value


def test_request_defaults_and_wire_names() -> None:
    request = ApiProxyRequest(
        api_proxy_name="orders", api_proxy_creation_type=ApiProxySpecType.OPEN_API, enable_wsa=True
    )
    assert request.to_api() == {
        "apiProxyName": "orders",
        "apiProxyCreationType": "OPEN_API",
        "deploy": False,
        "deployTargetEnvironmentNameList": [],
        "reParse": False,
        "soapToRest": False,
        "enableWSA": True,
        "enableWSRM": False,
        "specAuthorizationValueList": [],
    }


@pytest.mark.parametrize(
    ("body", "field"),
    [
        ({"apiProxyCreationType": "OPEN_API"}, "api_proxy_name"),
        ({"apiProxyName": "", "apiProxyCreationType": "OPEN_API"}, "api_proxy_name"),
        ({"apiProxyName": "x"}, "api_proxy_creation_type"),
        ({"apiProxyName": "x", "apiProxyCreationType": "RAML"}, "api_proxy_creation_type"),
        (
            {
                "apiProxyName": "x",
                "apiProxyCreationType": "WSDL",
                "routingInfo": {"routingAddressList": [{"weight": 1}]},
            },
            "routing_info.routing_address_list.0.address",
        ),
        (
            {
                "apiProxyName": "x",
                "apiProxyCreationType": "WSDL",
                "maintenanceModeSetting": {"httpStatusCode": 42},
            },
            "maintenance_mode_setting.http_status_code",
        ),
    ],
)
def test_bad_requests_name_the_field(body: dict[str, Any], field: str) -> None:
    with pytest.raises(pydantic.ValidationError) as caught:
        ApiProxyRequest.model_validate(body)
    assert field in {".".join(str(p) for p in e["loc"]) for e in caught.value.errors()}


def test_spec_authorization_value_stays_out_of_reprs() -> None:
    value = SpecAuthorizationValue(header_name="Authorization", header_value="Bearer s3cr3t-value")
    request = ApiProxyRequest(
        api_proxy_name="a",
        api_proxy_creation_type="OPEN_API",
        spec_url="https://x.example/spec.json",
        spec_authorization_value_list=[value],
    )
    assert "s3cr3t-value" not in repr(value) and "s3cr3t-value" not in repr(request)
    assert request.to_api()["specAuthorizationValueList"] == [
        {"headerName": "Authorization", "headerValue": "Bearer s3cr3t-value"}
    ]


def test_get_answer_deployment_lookup() -> None:
    proxy = ApiProxy.model_validate(
        EXAMPLES["02-api-reference/04-api-proxies/crud/get-api-proxy.md#0"]["body"]
    )
    deployment = proxy.deployment("production")
    assert deployment is not None and deployment.deployed and not deployment.redeploy_required
    assert proxy.deployment("test") is None
    assert proxy.client_route is not None and proxy.client_route.hosts == ["api.example.com"]
    assert proxy.routing is not None and proxy.routing.routing_address_list is not None
    assert proxy.routing.routing_address_list[0].health_check_enabled is True
