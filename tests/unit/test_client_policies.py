"""``client.policies`` against a fake gateway (``httpx.MockTransport``): the exact request of list,
add, update and delete, every documented body sent as documented, the documented answers and
error answers, and what is refused before anything is sent."""

from __future__ import annotations

import json
from typing import Any

import httpx
import pytest

import _documented_policies as documented
from apinizer_pulumi.client import (
    ApinizerClient,
    APIResponseValidationError,
    AuthenticationError,
    BadRequestError,
    DeploymentFailedError,
    InvalidArgumentError,
    NotFoundError,
)
from apinizer_pulumi.models import (
    POLICY_TYPES,
    PolicyEntry,
    PolicyOperationMetadata,
    ScriptPolicy,
    WhiteIpPolicy,
    split_write_body,
)

from ._fake_gateway import FakeGateway, body

PAGES = documented.load()
CRUD = documented.CRUD_PAGES_DIR
ADD_PAGE = PAGES[CRUD + "add-policy.md"]
LIST_PAGE = PAGES[CRUD + "list-policies.md"]
DELETE_PAGE = PAGES[CRUD + "delete-policy.md"]

POLICIES = "/apiops/projects/Demo/apiProxies/Orders/policies/"
POLICY = POLICIES + "throttle/"
ALL_REQUEST = {"target_scope": "ALL", "target_pipeline": "REQUEST", "deploy": False}
WHITE_IP = WhiteIpPolicy(ip_list=["10.0.0.0/8"])


def _examples(page: str, kind: str) -> list[dict[str, Any]]:
    return [e["body"] for e in PAGES[page] if "body" in e and documented.kind_of(e["body"]) == kind]


def _without_nulls(value: Any) -> Any:
    if isinstance(value, dict):
        return {k: _without_nulls(v) for k, v in value.items() if v is not None}
    if isinstance(value, list):
        return [_without_nulls(v) for v in value]
    return value


def _contained(expected: Any, actual: Any) -> bool:
    if isinstance(expected, dict):
        return isinstance(actual, dict) and all(
            k in actual and _contained(v, actual[k]) for k, v in expected.items()
        )
    if isinstance(expected, list):
        return (
            isinstance(actual, list)
            and len(actual) == len(expected)
            and all(_contained(e, a) for e, a in zip(expected, actual, strict=True))
        )
    return bool(expected == actual)


# -- list -------------------------------------------------------------------------------------------


def test_list_is_one_get_and_reads_the_documented_answer(
    gateway: FakeGateway, client: ApinizerClient
) -> None:
    gateway.script("GET", POLICIES, httpx.Response(200, json=LIST_PAGE[0]["body"]))
    proxy = client.policies.list("Demo", "Orders")
    request = gateway.last
    assert (request.method, request.url.raw_path, request.content) == ("GET", POLICIES.encode(), b"")
    assert proxy.name == "Address" and proxy.type == "SOAP"
    assert [p.type for p in proxy.error_policy_list] == ["policy-script", "policy-script"]
    # The page's entries are abbreviated (no scriptBody): read as entries, not refused.
    assert all(isinstance(p, PolicyEntry) for p in proxy.error_policy_list)
    endpoint = proxy.endpoint_list[0]
    assert (endpoint.endpoint, endpoint.http_method, len(endpoint.request_policy_list)) == (
        "/UpdateAddress",
        "POST",
        1,
    )


#: Security types whose pages' list answers hide the secrets or leave out required fields
#: (docs/limits.md, "Policies"): their entries are read as PolicyEntry.
LISTS_WITHOUT_REQUIRED_FIELDS = {
    "policy-api-authentication",
    "policy-decryption",
    "policy-encryption",
    "policy-oidc",
    "policy-ws-security-to-target",
}
#: Types whose pages' list answers clear a required secret (null): read as the model, None there.
LISTS_WITH_A_CLEARED_SECRET = {"policy-ws-security-username": "password"}


@pytest.mark.parametrize("policy_type", sorted(t for t in documented.type_pages() if t in POLICY_TYPES))
def test_list_reads_each_type_pages_answer_as_its_model(
    gateway: FakeGateway, client: ApinizerClient, policy_type: str
) -> None:
    page = f"{documented.TYPE_PAGES_DIR}{policy_type}.md"
    answers = _examples(page, "list")
    assert answers, f"{page} documents no list answer"
    for answer in answers:
        gateway.script("GET", POLICIES, httpx.Response(200, json=answer))
        proxy = client.policies.list("Demo", "Orders")
        listed = [*proxy.request_policy_list, *proxy.response_policy_list, *proxy.error_policy_list]
        if policy_type in LISTS_WITHOUT_REQUIRED_FIELDS:
            # Read, not refused: an entry with every field the page shows kept.
            entry = next(p for p in listed if p.type == policy_type)
            shown = next(e for e in documented.listed_policies(answer) if e["type"] == policy_type)
            assert isinstance(entry, PolicyEntry), page
            assert set(shown) <= set(entry.model_dump(by_alias=True)), page
            continue
        (read,) = [p for p in listed if isinstance(p, POLICY_TYPES[policy_type])]
        if policy_type in LISTS_WITH_A_CLEARED_SECRET:
            assert getattr(read, LISTS_WITH_A_CLEARED_SECRET[policy_type]) is None, page


def test_list_segments_are_escaped(gateway: FakeGateway, client: ApinizerClient) -> None:
    path = "/apiops/projects/My Project/apiProxies/a/b?c#d/policies/"
    gateway.script(
        "GET", path, httpx.Response(200, json={"status": "SUCCESS", "resultList": [{"name": "x"}]})
    )
    client.policies.list("My Project", "a/b?c#d")
    assert gateway.last.url.raw_path == b"/apiops/projects/My%20Project/apiProxies/a%2Fb%3Fc%23d/policies/"


def test_a_list_without_the_proxy_is_an_unexpected_answer(
    gateway: FakeGateway, client: ApinizerClient
) -> None:
    gateway.script("GET", POLICIES, httpx.Response(200, json={"status": "SUCCESS", "resultList": []}))
    with pytest.raises(APIResponseValidationError, match="no API proxy"):
        client.policies.list("Demo", "Orders")


@pytest.mark.parametrize(
    ("status", "answer", "exception"),
    [(401, LIST_PAGE[1]["body"], AuthenticationError), (404, LIST_PAGE[2]["body"], NotFoundError)],
)
def test_list_raises_the_documented_errors(
    gateway: FakeGateway,
    client: ApinizerClient,
    status: int,
    answer: dict[str, str],
    exception: type[Exception],
) -> None:
    gateway.script("GET", POLICIES, httpx.Response(status, json=answer))
    with pytest.raises(exception, match=answer["error_description"]):
        client.policies.list("Demo", "Orders")


# -- add and update ---------------------------------------------------------------------------------


@pytest.mark.parametrize(("method", "operation"), [("POST", "add"), ("PUT", "update")])
def test_a_write_sends_metadata_and_policy_to_the_escaped_path(
    gateway: FakeGateway, client: ApinizerClient, method: str, operation: str
) -> None:
    result = getattr(client.policies, operation)("My Project", "a/b", "ip list/1", WHITE_IP, ALL_REQUEST)
    request = gateway.last
    assert request.method == method
    assert request.url.raw_path == b"/apiops/projects/My%20Project/apiProxies/a%2Fb/policies/ip%20list%2F1/"
    assert body(request) == {
        "operationMetadata": {"targetScope": "ALL", "targetPipeline": "REQUEST", "deploy": False},
        "policy": {"type": "policy-white-ip", "active": True, "ipList": ["10.0.0.0/8"]},
    }
    # The fake gateway's default answer, {"success": true}: no deployment.
    assert (result.status, result.success, result.deployment_result) == ("SUCCESS", True, None)


def test_the_name_goes_in_the_path_never_in_the_body(gateway: FakeGateway, client: ApinizerClient) -> None:
    client.policies.add(
        "Demo", "Orders", "throttle", WhiteIpPolicy(name="other", ip_list=["10.0.0.1"]), ALL_REQUEST
    )
    assert "name" not in body(gateway.last)["policy"]


def _documented_writes() -> list[tuple[str, int, dict[str, Any]]]:
    writes = []
    for page, examples in PAGES.items():
        for index, example in enumerate(examples):
            data = example.get("body")
            if documented.kind_of(data) in ("write", "flat-write"):
                _, policy = split_write_body(data)
                if policy["type"] in POLICY_TYPES:
                    writes.append((f"{page}#{index}", index, data))
    return writes


@pytest.mark.parametrize(
    ("key", "index", "data"), _documented_writes(), ids=[w[0] for w in _documented_writes()]
)
def test_every_documented_write_body_is_sent_as_documented(
    gateway: FakeGateway, client: ApinizerClient, key: str, index: int, data: dict[str, Any]
) -> None:
    metadata, policy = split_write_body(data)
    # Passed as the mappings the page shows; the client validates them and sends them back.
    client.policies.update("Demo", "Orders", "throttle", policy, metadata or {})
    sent = body(gateway.last)
    assert sent["operationMetadata"] == _without_nulls(metadata), key
    documented_policy = _without_nulls({k: v for k, v in policy.items() if k != "name"})
    assert _contained(documented_policy, sent["policy"]), key
    assert "name" not in sent["policy"]


@pytest.mark.parametrize(
    "answer", [e["body"] for e in ADD_PAGE if documented.kind_of(e.get("body")) == "answer"]
)
def test_add_returns_the_documented_answers(
    gateway: FakeGateway, client: ApinizerClient, answer: dict[str, Any]
) -> None:
    gateway.script("POST", POLICY, httpx.Response(200, json=answer))
    result = client.policies.add("Demo", "Orders", "throttle", WHITE_IP, ALL_REQUEST)
    assert result.to_api() == answer
    if "deploymentResult" in answer:
        assert result.deployed and result.deployment_result is not None
        assert result.deployment_result.detail_list[0].pod_name == "pod-123"  # type: ignore[index]
    else:
        assert not result.deployed


@pytest.mark.parametrize(
    ("status", "exception"), [(400, BadRequestError), (401, AuthenticationError), (404, NotFoundError)]
)
def test_add_raises_the_documented_errors(
    gateway: FakeGateway, client: ApinizerClient, status: int, exception: type[Exception]
) -> None:
    answers = {
        e["body"]["error"]: e["body"] for e in ADD_PAGE if documented.kind_of(e.get("body")) == "error"
    }
    answer = answers[{400: "bad_request", 401: "unauthorized_client", 404: "not_found"}[status]]
    gateway.script("POST", POLICY, httpx.Response(status, json=answer))
    with pytest.raises(exception) as caught:
        client.policies.add("Demo", "Orders", "throttle", WHITE_IP, ALL_REQUEST)
    assert answer["error_description"] in str(caught.value)


def test_add_is_not_retried_after_it_may_have_arrived_but_update_is(
    gateway: FakeGateway, client: ApinizerClient
) -> None:
    gateway.script("POST", POLICY, httpx.Response(503))
    with pytest.raises(Exception, match="503"):
        client.policies.add("Demo", "Orders", "throttle", WHITE_IP, ALL_REQUEST)
    assert len(gateway.api_requests) == 1
    gateway.script("PUT", POLICY, httpx.Response(503), httpx.Response(200, json={"status": "SUCCESS"}))
    client.policies.update("Demo", "Orders", "throttle", WHITE_IP, ALL_REQUEST)
    assert len(gateway.api_requests) == 3


def test_a_failed_deployment_names_the_environment(gateway: FakeGateway, client: ApinizerClient) -> None:
    failed = {
        "status": "SUCCESS",
        "deploymentResult": {
            "success": False,
            "responseTime": 10,
            "detailList": [
                {"envName": "production", "podName": "pod-1", "podIp": "10.0.0.1", "success": False}
            ],
        },
    }
    gateway.script("PUT", POLICY, httpx.Response(200, json=failed))
    with pytest.raises(DeploymentFailedError) as caught:
        client.policies.update("Demo", "Orders", "throttle", WHITE_IP, {**ALL_REQUEST, "deploy": True})
    assert caught.value.failures == [("production", "failed on pod(s) pod-1")]


def test_a_failure_status_under_200_is_an_error(gateway: FakeGateway, client: ApinizerClient) -> None:
    gateway.script("PUT", POLICY, httpx.Response(200, json={"status": "FAILURE"}))
    with pytest.raises(APIResponseValidationError, match="FAILURE"):
        client.policies.update("Demo", "Orders", "throttle", WHITE_IP, ALL_REQUEST)
    gateway.script("PUT", POLICY, httpx.Response(200, json={"success": False}))
    with pytest.raises(APIResponseValidationError):
        client.policies.update("Demo", "Orders", "throttle", WHITE_IP, ALL_REQUEST)


# -- refused before sending -------------------------------------------------------------------------


def test_unknown_policy_fields_are_refused_by_name(gateway: FakeGateway, client: ApinizerClient) -> None:
    with pytest.raises(InvalidArgumentError) as caught:
        client.policies.add(
            "Demo",
            "Orders",
            "throttle",
            {"type": "policy-white-ip", "ipList": ["10.0.0.1"], "ipLists": []},
            ALL_REQUEST,
        )
    assert caught.value.argument == "policy"
    assert caught.value.problems == (("policy.ipLists", "is not a field of this policy type"),)
    assert gateway.api_requests == []


def test_bad_policy_fields_and_types_are_refused_by_name(
    gateway: FakeGateway, client: ApinizerClient
) -> None:
    with pytest.raises(InvalidArgumentError) as caught:
        client.policies.add(
            "Demo", "Orders", "s", {"type": "policy-script", "scriptLanguage": "PERL"}, ALL_REQUEST
        )
    assert [where for where, _ in caught.value.problems] == ["policy.script_language", "policy.script_body"]
    with pytest.raises(InvalidArgumentError, match="unknown policy type 'policy-nope'"):
        client.policies.add("Demo", "Orders", "s", {"type": "policy-nope"}, ALL_REQUEST)
    with pytest.raises(InvalidArgumentError, match="must be a PolicyBase or a mapping"):
        client.policies.add("Demo", "Orders", "s", ["policy-script"], ALL_REQUEST)  # type: ignore[arg-type]
    assert gateway.api_requests == []


def test_endpoint_scope_without_its_endpoint_is_refused(gateway: FakeGateway, client: ApinizerClient) -> None:
    with pytest.raises(InvalidArgumentError) as caught:
        client.policies.add(
            "Demo", "Orders", "s", WHITE_IP, {"target_scope": "ENDPOINT", "target_pipeline": "REQUEST"}
        )
    assert [where for where, _ in caught.value.problems] == [
        "metadata.target_endpoint",
        "metadata.target_endpoint_http_method",
    ]
    assert gateway.api_requests == []


def test_the_types_the_gateway_manages_cannot_be_added(gateway: FakeGateway, client: ApinizerClient) -> None:
    with pytest.raises(InvalidArgumentError, match="cannot be added"):
        client.policies.add(
            "Demo", "Orders", "s", {"type": "policy-request-protocol-transformation"}, ALL_REQUEST
        )
    assert gateway.api_requests == []


def test_empty_names_are_refused(gateway: FakeGateway, client: ApinizerClient) -> None:
    with pytest.raises(InvalidArgumentError, match="name"):
        client.policies.add("Demo", "Orders", "", WHITE_IP, ALL_REQUEST)
    assert gateway.api_requests == []


# -- delete -----------------------------------------------------------------------------------------


@pytest.mark.parametrize("data", _examples(CRUD + "delete-policy.md", "delete"))
def test_delete_sends_the_documented_metadata_alone(
    gateway: FakeGateway, client: ApinizerClient, data: dict[str, Any]
) -> None:
    client.policies.delete("Demo", "Orders", "throttle", metadata=data["operationMetadata"])
    request = gateway.last
    assert (request.method, request.url.raw_path) == ("DELETE", POLICY.encode())
    assert body(request) == {"operationMetadata": _without_nulls(data["operationMetadata"])}
    assert request.headers["content-type"] == "application/json"


def test_delete_returns_the_documented_answer_and_is_not_retried(
    gateway: FakeGateway, client: ApinizerClient
) -> None:
    answer = next(e["body"] for e in DELETE_PAGE if "deploymentResult" in (e.get("body") or {}))
    gateway.script("DELETE", POLICY, httpx.Response(200, json=answer))
    metadata = PolicyOperationMetadata(target_scope="ALL", target_pipeline="REQUEST")  # type: ignore[arg-type]
    assert client.policies.delete("Demo", "Orders", "throttle", metadata=metadata).to_api() == answer
    gateway.script("DELETE", POLICY, httpx.Response(502))
    with pytest.raises(Exception, match="502"):
        client.policies.delete("Demo", "Orders", "throttle", metadata=metadata)
    assert len(gateway.api_requests) == 2


def test_delete_of_an_unknown_name_is_the_documented_400(
    gateway: FakeGateway, client: ApinizerClient
) -> None:
    answer = next(e["body"] for e in DELETE_PAGE if (e.get("body") or {}).get("error") == "bad_request")
    gateway.script("DELETE", POLICY, httpx.Response(400, json=answer))
    with pytest.raises(BadRequestError) as caught:
        client.policies.delete("Demo", "Orders", "throttle", metadata=ALL_REQUEST)
    assert caught.value.error_description == answer["error_description"]


def test_a_policy_model_is_sent_as_its_json(gateway: FakeGateway, client: ApinizerClient) -> None:
    script = ScriptPolicy(script_language="GROOVY", script_body="log.info('x')", description="d")  # type: ignore[arg-type]
    client.policies.add("Demo", "Orders", "throttle", script, ALL_REQUEST)
    assert body(gateway.last)["policy"] == json.loads(json.dumps(script.to_api()))
