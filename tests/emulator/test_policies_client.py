"""``client.policies`` against the live emulator: list, add, update and delete with typed models, the
answers as ``PolicyDeploymentResult``, and the gateway's errors as the client's exceptions."""

from __future__ import annotations

from collections.abc import Iterator
from pathlib import Path

import pytest

from apinizer_emulator.testing import EmulatorServer
from apinizer_pulumi.client import (
    ApinizerClient,
    BadRequestError,
    DeploymentFailedError,
    NotFoundError,
    PermissionDeniedError,
)
from apinizer_pulumi.models import (
    PolicyEntry,
    PolicyOperationMetadata,
    PolicyTargetPipeline,
    PolicyTargetScope,
    ScriptPolicy,
    WhiteIpPolicy,
)


@pytest.fixture
def client(emulator_url: str, admin_token: str) -> Iterator[ApinizerClient]:
    with ApinizerClient(emulator_url, token=admin_token) as c:
        yield c


def where(
    pipeline: str = "REQUEST", endpoint: tuple[str, str] | None = None, **extra: object
) -> PolicyOperationMetadata:
    fields: dict[str, object] = {"target_pipeline": PolicyTargetPipeline(pipeline), "deploy": False, **extra}
    if endpoint is None:
        fields["target_scope"] = PolicyTargetScope.ALL
    else:
        fields.update(
            target_scope=PolicyTargetScope.ENDPOINT,
            target_endpoint=endpoint[0],
            target_endpoint_http_method=endpoint[1],
        )
    return PolicyOperationMetadata.model_validate(fields)


def office(*ips: str) -> WhiteIpPolicy:
    return WhiteIpPolicy(description="Office", ip_list=list(ips or ["192.168.1.0/24"]))


def test_a_policys_life_through_the_client(client: ApinizerClient) -> None:
    answer = client.policies.add("Demo", "PetStore", "office", office(), where())
    assert (answer.status, answer.deployment_result, answer.deployed) == ("SUCCESS", None, False)
    script = ScriptPolicy(script_language="GROOVY", script_body="return 1", execution_type="SYNC")
    client.policies.add("Demo", "PetStore", "first", script, where(order=1))
    listed = client.policies.list("Demo", "PetStore")
    assert [p.name for p in listed.request_policy_list] == ["office", "first"]  # 1 of 1: the end
    first = listed.request_policy_list[1]
    assert isinstance(first, ScriptPolicy) and first.script_body == "return 1"
    assert isinstance(listed.request_policy_list[0], WhiteIpPolicy)

    client.policies.update("Demo", "PetStore", "first", script, where(order=1))
    client.policies.update(
        "Demo", "PetStore", "office", office("10.0.0.0/8"), where(endpoint=("/pets", "GET"))
    )
    listed = client.policies.list("Demo", "PetStore")
    assert [p.name for p in listed.request_policy_list] == ["first"]
    pets = listed.endpoint_list[0]
    assert [p.name for p in pets.request_policy_list] == ["throttle-list", "add-correlation-id", "office"]
    moved = pets.request_policy_list[2]
    assert isinstance(moved, WhiteIpPolicy) and moved.ip_list == ["10.0.0.0/8"]
    # The fixture's summaries read as entries of their type (the list is their whole record).
    assert isinstance(pets.request_policy_list[1], PolicyEntry)
    assert (
        client.endpoints.policies("Demo", "PetStore", "/pets", "GET").request_policy_list[2].name == "office"
    )

    client.policies.delete("Demo", "PetStore", "office", metadata=where(endpoint=("/pets", "GET")))
    client.policies.delete("Demo", "PetStore", "first", metadata=where())
    listed = client.policies.list("Demo", "PetStore")
    assert listed.request_policy_list == []
    assert [p.name for p in listed.endpoint_list[0].request_policy_list] == [
        "throttle-list",
        "add-correlation-id",
    ]


def test_deploying_answers_the_deployment_result(client: ApinizerClient) -> None:
    answer = client.policies.add(
        "Demo",
        "PetStore",
        "office",
        office(),
        where(deploy=True, deploy_target_environment_name_list=["test"]),
    )
    assert answer.deployed and answer.deployment_result is not None
    assert [(e.environment_name, e.success) for e in answer.deployment_result.per_environment()] == [
        ("test", True)
    ]
    deployments = client.api_proxies.get("Demo", "PetStore").deployment_list
    assert [(d.environment_name, d.deployed, d.redeploy_required) for d in deployments] == [
        ("test", True, False)
    ]
    client.policies.update("Demo", "PetStore", "office", office("10.0.0.0/8"), where())
    deployments = client.api_proxies.get("Demo", "PetStore").deployment_list
    assert [(d.environment_name, d.redeploy_required) for d in deployments] == [("test", True)]


def test_the_gateways_errors_are_the_clients_exceptions(
    client: ApinizerClient, emulator_url: str, developer_token: str
) -> None:
    client.policies.add("Demo", "PetStore", "office", office(), where())
    with pytest.raises(
        BadRequestError, match=r"A policy with same name \(office\) is already exist in API Proxy!"
    ):
        client.policies.add("Demo", "PetStore", "office", office(), where(pipeline="ERROR"))
    with pytest.raises(BadRequestError, match=r"A policy with name \(ghost\) does not exist in API Proxy!"):
        client.policies.update("Demo", "PetStore", "ghost", office(), where())
    with pytest.raises(BadRequestError, match=r"Policy type can not be changed: policy \(office\)"):
        client.policies.update(
            "Demo", "PetStore", "office", ScriptPolicy(script_language="GROOVY", script_body="x"), where()
        )
    with pytest.raises(
        BadRequestError, match=r"Endpoint with name \(/nope\) and HTTP method \(GET\) is not found!"
    ):
        client.policies.add("Demo", "PetStore", "x", office(), where(endpoint=("/nope", "GET")))
    with pytest.raises(NotFoundError, match=r"ApiProxy \(name: Gone\) was not found!"):
        client.policies.list("Demo", "Gone")
    with pytest.raises(NotFoundError, match="Project 'Nope' not found"):
        client.policies.delete("Nope", "PetStore", "office", metadata=where())
    with ApinizerClient(emulator_url, token=developer_token) as developer:
        with pytest.raises(PermissionDeniedError, match="ROLE_DEPLOY_UNDEPLOY_PROXIES"):
            developer.policies.add("Demo", "PetStore", "dev", office(), where(deploy=True))
        developer.policies.add("Demo", "PetStore", "dev", office(), where())


def test_a_failed_deployment_is_deployment_failed_error_and_the_change_is_kept(tmp_path: Path) -> None:
    fixture = tmp_path / "fixture.yaml"
    fixture.write_text(
        "users: [{username: admin, password: admin, roles: [ROLE_ADMIN]}]\n"
        "tokens: [{value: t, user: admin, name: t}]\n"
        "environments: [{name: staging, status: UNPUBLISHED}, {name: live}]\n"
        "projects: [{name: P, api_proxies: [{name: X}]}]\n"
    )
    with EmulatorServer(fixtures=fixture) as server, ApinizerClient(server.base_url, token="t") as client:
        metadata = where(deploy=True, deploy_target_environment_name_list=["live", "staging"])
        with pytest.raises(DeploymentFailedError) as caught:
            client.policies.add("P", "X", "office", office(), metadata)
        assert [env for env, _ in caught.value.failures] == ["staging"]
        assert [p.name for p in client.policies.list("P", "X").request_policy_list] == ["office"]
        deployments = client.api_proxies.get("P", "X").deployment_list
        assert [(d.environment_name, d.deployed) for d in deployments] == [("live", True)]
