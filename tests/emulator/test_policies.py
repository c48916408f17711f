"""An API proxy's policies over raw HTTP: list, add, update and delete as the crud pages document them,
order in each list, the documented errors, deployment and ``redeployRequired``.

https://github.com/apinizer/management-api-docs/blob/main/02-api-reference/05-policies/crud/index.md
"""

from __future__ import annotations

import json
from typing import Any

import httpx
import pytest

import _emulator_http as emulator_http

from .conftest import Api, assert_error, endpoints_path

PROXIES = "/apiops/projects/Demo/apiProxies/"
LIST = PROXIES + "PetStore/policies/"
PIPELINE_LISTS = ("requestPolicyList", "responsePolicyList", "errorPolicyList")
DEVELOPER_TOKEN = "dev-developer-token"


def policy_path(name: str, proxy: str = "PetStore", project: str = "Demo") -> str:
    return f"/apiops/projects/{project}/apiProxies/{proxy}/policies/{name}/"


def metadata(
    pipeline: str = "REQUEST",
    endpoint: tuple[str, str] | None = None,
    *,
    order: int | None = None,
    deploy: bool = False,
    environments: list[str] | None = None,
) -> dict[str, Any]:
    meta: dict[str, Any] = {"targetScope": "ALL", "targetPipeline": pipeline, "deploy": deploy}
    if endpoint is not None:
        meta.update(targetScope="ENDPOINT", targetEndpoint=endpoint[0], targetEndpointHTTPMethod=endpoint[1])
    if order is not None:
        meta["order"] = order
    if environments is not None:
        meta["deployTargetEnvironmentNameList"] = environments
    return meta


def white_ip(*ips: str, description: str | None = None) -> dict[str, Any]:
    policy: dict[str, Any] = {
        "type": "policy-white-ip",
        "active": True,
        "ipList": list(ips or ["10.0.0.0/8"]),
    }
    if description is not None:
        policy["description"] = description
    return policy


def script(body: str = "return true") -> dict[str, Any]:
    return {"type": "policy-script", "scriptLanguage": "GROOVY", "scriptBody": body, "executionType": "SYNC"}


def add(api: Api, name: str, policy: dict[str, Any] | None = None, **meta: Any) -> httpx.Response:
    return api.request(
        "POST", policy_path(name), {"operationMetadata": metadata(**meta), "policy": policy or white_ip()}
    )


def update(api: Api, name: str, policy: dict[str, Any] | None = None, **meta: Any) -> httpx.Response:
    return api.request(
        "PUT", policy_path(name), {"operationMetadata": metadata(**meta), "policy": policy or white_ip()}
    )


def delete(api: Api, name: str, **meta: Any) -> httpx.Response:
    return api.request("DELETE", policy_path(name), {"operationMetadata": metadata(**meta)})


def listed(api: Api, proxy: str = "PetStore") -> dict[str, Any]:
    response = api.request("GET", PROXIES + f"{proxy}/policies/")
    assert response.status_code == 200, response.text
    body = response.json()
    assert body["status"] == "SUCCESS" and body["resultCount"] == 1
    (item,) = body["resultList"]
    return dict(item)


def names(
    api: Api, pipeline: str = "requestPolicyList", endpoint: tuple[str, str] | None = None
) -> list[str]:
    item = listed(api)
    if endpoint is not None:
        (item,) = [e for e in item["endpointList"] if (e["endpoint"], e["httpMethod"]) == endpoint]
    return [p["name"] for p in item[pipeline]]


def endpoint_policies(api: Api, name: str = "/pets", method: str = "GET") -> dict[str, Any]:
    response = api.request("POST", endpoints_path("policies"), {"name": name, "httpMethod": method})
    assert response.status_code == 200, response.text
    return dict(response.json())


def deployments(api: Api, proxy: str = "PetStore") -> dict[str, tuple[bool, bool]]:
    body = api.request("GET", PROXIES + f"{proxy}/").json()
    return {d["environmentName"]: (d["deployed"], d["redeployRequired"]) for d in body["deploymentList"]}


PETS = ("/pets", "GET")


# -- list ---------------------------------------------------------------------------------------------


def test_list_shows_the_proxy_with_its_lists_and_every_endpoints(api: Api) -> None:
    item = listed(api)
    assert set(item) == {"name", "type", "relativePath", "soapToRest", *PIPELINE_LISTS, "endpointList"}
    assert (item["name"], item["type"], item["relativePath"], item["soapToRest"]) == (
        "PetStore",
        "REST",
        "/PetStore",
        False,
    )
    assert [item[k] for k in PIPELINE_LISTS] == [[], [], []]
    assert [(e["endpoint"], e["httpMethod"], e["active"]) for e in item["endpointList"]] == [
        ("/pets", "GET", True),
        ("/pets", "POST", True),
        ("/pets/{id}", "GET", True),
    ]
    pets = item["endpointList"][0]
    assert set(pets) == {"endpoint", "active", "httpMethod", *PIPELINE_LISTS}
    # The fixture's policies, known by their summaries alone.
    assert pets["requestPolicyList"] == [
        {
            "type": "policy-api-based-throttling",
            "name": "throttle-list",
            "description": "100 calls per minute",
            "active": True,
        },
        {
            "type": "policy-header",
            "name": "add-correlation-id",
            "description": "Adds X-Correlation-Id",
            "active": True,
        },
    ]
    assert [p["name"] for p in pets["responsePolicyList"]] == ["shape-pets"]
    assert pets["errorPolicyList"][0]["active"] is False
    assert item["endpointList"][1]["requestPolicyList"] == []


def test_list_of_a_soap_proxy_and_the_404s(api: Api) -> None:
    assert listed(api, "Calculator")["type"] == "SOAP"
    assert_error(
        api.request("GET", PROXIES + "Gone/policies/"),
        404,
        "not_found",
        "ApiProxy (name: Gone) was not found!",
    )
    assert_error(
        api.request("GET", "/apiops/projects/Nope/apiProxies/PetStore/policies/"),
        404,
        "not_found",
        "Project 'Nope' not found",
    )


# -- add ----------------------------------------------------------------------------------------------


def test_add_to_the_proxy_answers_status_and_lists_the_whole_policy(api: Api) -> None:
    response = add(api, "office-only", white_ip("192.168.1.0/24", description="Office"))
    assert response.status_code == 200, response.text
    assert response.json() == {"status": "SUCCESS"}
    (entry,) = listed(api)["requestPolicyList"]
    assert entry["type"] == "policy-white-ip" and entry["name"] == "office-only"
    assert entry["description"] == "Office" and entry["active"] is True
    assert entry["ipList"] == ["192.168.1.0/24"]
    assert list(entry)[:2] == ["type", "name"]
    # The proxy's own policies are not one endpoint's.
    assert [p["name"] for p in endpoint_policies(api)["requestPolicyList"]] == [
        "throttle-list",
        "add-correlation-id",
    ]


def test_add_to_one_endpoint_shows_in_its_policy_list_too(api: Api) -> None:
    assert add(api, "pets-script", script(), pipeline="RESPONSE", endpoint=PETS).status_code == 200
    assert names(api, "responsePolicyList", PETS) == ["shape-pets", "pets-script"]
    summary = endpoint_policies(api)["responsePolicyList"][1]
    assert summary == {"type": "policy-script", "name": "pets-script", "description": None, "active": True}
    assert names(api, "responsePolicyList") == []


def test_the_body_name_is_ignored_the_paths_is_used(api: Api) -> None:
    assert add(api, "from-path", {**white_ip(), "name": "from-body"}).status_code == 200
    assert names(api) == ["from-path"]


def test_a_duplicate_name_is_the_documented_400_in_any_list_and_any_case(api: Api) -> None:
    assert add(api, "my-policy").status_code == 200
    before = listed(api)
    for name, meta in (
        ("my-policy", {}),
        ("MY-POLICY", {"pipeline": "ERROR"}),
        ("throttle-LIST", {"endpoint": ("/pets", "POST")}),
    ):
        assert_error(
            add(api, name, **meta),
            400,
            "bad_request",
            f"A policy with same name ({name}) is already exist in API Proxy!",
        )
    assert listed(api) == before


def test_the_same_name_in_another_proxy_is_another_policy(api: Api) -> None:
    assert add(api, "shared").status_code == 200
    body = {"operationMetadata": metadata(), "policy": white_ip()}
    assert api.request("POST", policy_path("shared", "Orders"), body).status_code == 200


@pytest.mark.parametrize("method", ["POST", "PUT", "DELETE"])
def test_unknown_project_proxy_and_endpoint(api: Api, method: str) -> None:
    body: dict[str, Any] = {"operationMetadata": metadata()}
    if method != "DELETE":
        body["policy"] = white_ip()
    assert_error(
        api.request(method, policy_path("throttle-list", "Gone"), body),
        404,
        "not_found",
        "ApiProxy (name: Gone) was not found!",
    )
    assert_error(
        api.request(method, policy_path("throttle-list", "PetStore", "Nope"), body),
        404,
        "not_found",
        "Project 'Nope' not found",
    )
    body["operationMetadata"] = metadata(endpoint=("/nope", "GET"))
    assert_error(
        api.request(method, policy_path("throttle-list"), body),
        400,
        "bad_request",
        "Endpoint with name (/nope) and HTTP method (GET) is not found!",
    )


def test_bad_bodies_name_the_field(api: Api) -> None:
    path = policy_path("bad")
    cases: list[tuple[dict[str, Any], str]] = [
        ({"policy": white_ip()}, "operationMetadata is required"),
        ({"operationMetadata": metadata()}, "policy is required"),
        ({"operationMetadata": [], "policy": white_ip()}, "operationMetadata must be a JSON object"),
        ({"operationMetadata": metadata(), "policy": {"ipList": ["1.2.3.4"]}}, "policy.type is required"),
        (
            {"operationMetadata": metadata(), "policy": {"type": "policy-white-ip"}},
            "policy.ipList is required",
        ),
        (
            {"operationMetadata": {"targetScope": "ALL"}, "policy": white_ip()},
            "operationMetadata.targetPipeline is required",
        ),
        (
            {"operationMetadata": metadata(order=0), "policy": white_ip()},
            "operationMetadata.order: Input should be greater than or equal to 1",
        ),
    ]
    for body, message in cases:
        response = api.request("POST", path, body)
        assert_error(response, 400, "bad_request")
        assert message in response.json()["error_description"], (body, response.json())
    unknown = api.request("POST", path, {"operationMetadata": metadata(), "policy": {"type": "policy-nope"}})
    assert_error(unknown, 400, "bad_request")
    assert unknown.json()["error_description"].startswith("Unknown policy type (policy-nope)! Known types: ")
    assert "policy-white-ip" in unknown.json()["error_description"]
    endpoint_scope = {"targetScope": "ENDPOINT", "targetPipeline": "REQUEST", "deploy": False}
    response = api.request("POST", path, {"operationMetadata": endpoint_scope, "policy": white_ip()})
    assert_error(response, 400, "bad_request")
    assert "operationMetadata.targetEndpoint" in response.json()["error_description"]
    assert "bad" not in str(listed(api))


# -- order --------------------------------------------------------------------------------------------


def test_add_places_by_order_null_or_the_lists_size_or_more_appends(api: Api) -> None:
    assert add(api, "a").status_code == 200  # null: the end
    assert add(api, "b", order=1).status_code == 200  # 1 of 1 (the size): the end, as documented
    assert names(api) == ["a", "b"]
    assert add(api, "c", order=1).status_code == 200  # 1 of 2: first
    assert add(api, "d", order=9).status_code == 200  # beyond: the end
    assert names(api) == ["c", "a", "b", "d"]
    assert add(api, "e", order=3).status_code == 200  # 3 of 4: third
    assert names(api) == ["c", "a", "e", "b", "d"]
    assert add(api, "f", order=5).status_code == 200  # 5 of 5: the end
    assert names(api) == ["c", "a", "e", "b", "d", "f"]


def test_update_moves_within_a_list_and_null_keeps_the_position(api: Api) -> None:
    for name in "abcd":
        assert add(api, name).status_code == 200
    assert update(api, "d", order=1).status_code == 200
    assert names(api) == ["d", "a", "b", "c"]
    assert update(api, "d", white_ip("1.1.1.1")).status_code == 200  # null: stays
    assert names(api) == ["d", "a", "b", "c"]
    assert update(api, "a", order=3).status_code == 200
    assert names(api) == ["d", "b", "a", "c"]
    assert update(api, "d", order=4).status_code == 200  # the size (itself counted): the end
    assert names(api) == ["b", "a", "c", "d"]
    assert update(api, "b", order=99).status_code == 200
    assert names(api) == ["a", "c", "d", "b"]
    assert_error(
        update(api, "b", order=0),
        400,
        "bad_request",
        "operationMetadata.order: Input should be greater than or equal to 1",
    )
    assert names(api) == ["a", "c", "d", "b"]


def test_update_moves_to_another_pipeline_or_scope(api: Api) -> None:
    for name in "abc":
        assert add(api, name).status_code == 200
    assert update(api, "a", pipeline="RESPONSE").status_code == 200
    assert (names(api), names(api, "responsePolicyList")) == (["b", "c"], ["a"])
    # Into an endpoint's list: at the end without an order, where the order says with one.
    assert update(api, "b", endpoint=PETS).status_code == 200
    assert names(api, endpoint=PETS) == ["throttle-list", "add-correlation-id", "b"]
    assert update(api, "c", endpoint=PETS, order=1).status_code == 200
    assert names(api, endpoint=PETS) == ["c", "throttle-list", "add-correlation-id", "b"]
    assert names(api) == []
    assert [p["name"] for p in endpoint_policies(api)["requestPolicyList"]] == [
        "c",
        "throttle-list",
        "add-correlation-id",
        "b",
    ]
    # And back to the proxy.
    assert update(api, "c").status_code == 200
    assert names(api) == ["c"]


def test_order_is_kept_across_deletes_and_a_replace(api: Api) -> None:
    for name in "abcd":
        assert add(api, name).status_code == 200
    assert delete(api, "b").status_code == 200
    assert names(api) == ["a", "c", "d"]
    assert add(api, "e", order=2).status_code == 200
    assert names(api) == ["a", "e", "c", "d"]
    # A replace by type: delete, add (order 1 of 3 is first), the others in place.
    assert delete(api, "a").status_code == 200
    assert add(api, "a", script(), order=1).status_code == 200
    assert names(api) == ["a", "e", "c", "d"]


# -- update -------------------------------------------------------------------------------------------


def test_update_changes_the_fields_and_keeps_the_type(api: Api) -> None:
    assert add(api, "ips", white_ip("10.0.0.0/8", description="old")).status_code == 200
    changed = {**white_ip("10.0.0.0/8", "192.168.0.0/16", description="new"), "active": False}
    response = update(api, "IPS", changed)  # found without case
    assert response.status_code == 200, response.text
    assert response.json() == {"status": "SUCCESS"}
    (entry,) = listed(api)["requestPolicyList"]
    assert (entry["name"], entry["description"], entry["active"]) == ("ips", "new", False)
    assert entry["ipList"] == ["10.0.0.0/8", "192.168.0.0/16"]


def test_a_type_change_is_the_documented_400(api: Api) -> None:
    assert add(api, "ips").status_code == 200
    assert_error(
        update(api, "ips", script()),
        400,
        "bad_request",
        "Policy type can not be changed: policy (ips) is policy-white-ip, not policy-script!"
        " Delete it and add a new one.",
    )
    assert listed(api)["requestPolicyList"][0]["type"] == "policy-white-ip"


def test_update_of_a_fixture_summary_stores_the_whole_policy(api: Api) -> None:
    throttle = {
        "type": "policy-api-based-throttling",
        "targetVariableForIdentity": {"name": "apiKey", "type": "HEADER", "headerName": "X-API-Key"},
        "messageCountForInterval": 100,
        "throttlingInterval": "ONE_MINUTE",
        "intervalPeriodLength": 1,
        "intervalWindowType": "FIXED",
    }
    response = update(api, "throttle-list", throttle, endpoint=PETS)
    assert response.status_code == 200, response.text
    entry = listed(api)["endpointList"][0]["requestPolicyList"][0]
    assert entry["name"] == "throttle-list" and entry["messageCountForInterval"] == 100
    assert "description" not in entry  # the update sent none


def test_update_and_delete_of_a_missing_policy(api: Api) -> None:
    message = "A policy with name (ghost) does not exist in API Proxy!"
    assert_error(update(api, "ghost"), 400, "bad_request", message)
    assert_error(delete(api, "ghost"), 400, "bad_request", message)


# -- delete -------------------------------------------------------------------------------------------


def test_delete_from_the_named_list_only(api: Api) -> None:
    assert add(api, "ips", pipeline="ERROR").status_code == 200
    before = listed(api)
    assert_error(
        delete(api, "ips"), 400, "bad_request", "A policy with name (ips) does not exist in API Proxy!"
    )
    assert_error(
        delete(api, "ips", pipeline="ERROR", endpoint=PETS),
        400,
        "bad_request",
        "A policy with name (ips) does not exist in API Proxy!",
    )
    assert listed(api) == before
    response = delete(api, "IPS", pipeline="ERROR")
    assert response.status_code == 200 and response.json() == {"status": "SUCCESS"}
    assert names(api, "errorPolicyList") == []


def test_delete_a_fixture_policy_from_its_endpoint(api: Api) -> None:
    assert delete(api, "throttle-list", endpoint=PETS).status_code == 200
    assert [p["name"] for p in endpoint_policies(api)["requestPolicyList"]] == ["add-correlation-id"]


def test_deleting_an_endpoint_takes_its_policies_not_the_proxys(api: Api) -> None:
    assert add(api, "proxy-wide").status_code == 200
    assert add(api, "pets-only", endpoint=PETS).status_code == 200
    assert (
        api.request("POST", endpoints_path("delete"), {"name": "/pets", "httpMethod": "GET"}).status_code
        == 200
    )
    assert names(api) == ["proxy-wide"]
    assert "pets-only" not in str(listed(api))
    assert add(api, "pets-only").status_code == 200  # its name is free again


# -- deployment ---------------------------------------------------------------------------------------


def test_deploy_true_deploys_to_the_named_environments_only(api: Api) -> None:
    assert deployments(api) == {}
    response = add(api, "ips", deploy=True, environments=["test"])
    assert response.status_code == 200, response.text
    body = response.json()
    assert set(body) == {"status", "deploymentResult"} and body["status"] == "SUCCESS"
    result = body["deploymentResult"]
    assert set(result) == {"success", "responseTime", "detailList"} and result["success"] is True
    assert isinstance(result["responseTime"], int) and result["responseTime"] >= 0
    (detail,) = result["detailList"]
    assert set(detail) == {"envName", "podName", "podIp", "success", "responseTime"}
    assert (detail["envName"], detail["success"]) == ("test", True)
    assert deployments(api) == {"test": (True, False)}


def test_deploy_true_without_environments_deploys_nowhere(api: Api) -> None:
    response = add(api, "ips", deploy=True)
    assert response.json()["deploymentResult"]["detailList"] == []
    assert response.json()["deploymentResult"]["success"] is True
    assert deployments(api) == {}


def test_an_unknown_environment_is_refused_before_anything_is_written(api: Api) -> None:
    before = listed(api)
    assert_error(
        add(api, "ips", deploy=True, environments=["test", "nowhere"]),
        400,
        "bad_request",
        "ApiProxy with name (PetStore) can not be deployed to Environment(nowhere) because it is not exist!",
    )
    assert listed(api) == before and deployments(api) == {}
    # deploy false: the list is not looked at.
    assert add(api, "ips", deploy=False, environments=["nowhere"]).status_code == 200


def test_deploying_needs_the_deploy_role(api: Api) -> None:
    developer = api.as_user(DEVELOPER_TOKEN)
    before = listed(api)
    for response in (
        add(developer, "ips", deploy=True, environments=["test"]),
        api.request(
            "POST",
            policy_path("ips"),
            {"operationMetadata": {"targetScope": "ALL", "targetPipeline": "REQUEST"}, "policy": white_ip()},
            token=DEVELOPER_TOKEN,
        ),  # deploy's default
        update(developer, "throttle-list", endpoint=PETS, deploy=True),
        delete(developer, "throttle-list", endpoint=PETS, deploy=True),
    ):
        assert_error(
            response,
            403,
            "forbidden",
            "Access is denied! The user of this token lacks ROLE_DEPLOY_UNDEPLOY_PROXIES.",
        )
    assert listed(api) == before
    assert add(developer, "ips").status_code == 200


@pytest.mark.parametrize("change", ["add", "update", "reorder", "disable", "delete"])
def test_a_policy_change_on_a_deployed_proxy_requires_a_redeploy(api: Api, change: str) -> None:
    assert add(api, "a").status_code == 200
    assert add(api, "b").status_code == 200
    assert api.request("POST", PROXIES + "PetStore/environments/test/").status_code == 200
    assert deployments(api) == {"test": (True, False)}
    response = {
        "add": lambda: add(api, "c"),
        "update": lambda: update(api, "a", white_ip("8.8.8.8")),
        "reorder": lambda: update(api, "b", order=1),
        "disable": lambda: update(api, "a", {**white_ip(), "active": False}),
        "delete": lambda: delete(api, "b"),
    }[change]()
    assert response.status_code == 200, response.text
    assert deployments(api) == {"test": (True, True)}
    # A change deployed to test brings it up to date there, and nowhere else.
    assert update(api, "a", white_ip("9.9.9.9"), deploy=True, environments=["test"]).status_code == 200
    assert deployments(api) == {"test": (True, False)}


def test_an_update_that_changes_nothing_keeps_the_deployment_current(api: Api) -> None:
    assert add(api, "a", white_ip("1.2.3.4")).status_code == 200
    assert api.request("POST", PROXIES + "PetStore/environments/test/").status_code == 200
    assert update(api, "a", white_ip("1.2.3.4")).status_code == 200
    assert deployments(api) == {"test": (True, False)}


def test_the_type_pages_flat_body_is_read_too(api: Api) -> None:
    # Some type pages write the policy's fields beside operationMetadata instead of under "policy".
    body = {**white_ip("172.16.0.0/12"), "name": "ignored", "operationMetadata": metadata(pipeline="ERROR")}
    assert api.request("POST", policy_path("flat"), body).status_code == 200
    (entry,) = listed(api)["errorPolicyList"]
    assert (entry["name"], entry["ipList"]) == ("flat", ["172.16.0.0/12"])
    assert "operationMetadata" not in entry


def test_a_policy_name_with_spaces_and_unicode_round_trips(api: Api) -> None:
    assert add(api, "Büro nur").status_code == 200
    assert names(api) == ["Büro nur"]
    assert delete(api, "BÜRO NUR").status_code == 200
    assert names(api) == []


# -- export and import --------------------------------------------------------------------------------


def _import(api: Api, content: bytes) -> httpx.Response:
    files = {"apiProxyExportFile": ("apiProxyExportFile.zip", content, "application/zip")}
    return api.client.post(PROXIES + "import/", files=files, headers=api.headers())


def test_an_export_carries_every_policy_whole_and_imports_back(api: Api) -> None:
    assert add(api, "office", white_ip("192.168.1.0/24", description="Office")).status_code == 200
    assert add(api, "pets-script", script(), pipeline="RESPONSE", endpoint=PETS, order=1).status_code == 200
    before = listed(api)
    exported = api.request("GET", PROXIES + "PetStore/export/").content
    assert api.request("DELETE", PROXIES + "PetStore/").status_code == 200
    assert _import(api, exported).status_code == 200
    assert listed(api) == before
    assert api.request("GET", PROXIES + "PetStore/export/").content == exported


def test_an_override_replaces_the_proxys_own_policies_too(api: Api) -> None:
    exported = api.request("GET", PROXIES + "PetStore/export/").content
    assert add(api, "added-later").status_code == 200
    files = {
        "apiProxyExportFile": ("apiProxyExportFile.zip", exported, "application/zip"),
        "metadata": (None, '{"deploy": false}', "application/json"),
    }
    response = api.client.put(PROXIES + "PetStore/import/", files=files, headers=api.headers())
    assert response.status_code == 200, response.text
    assert names(api) == []
    assert names(api, endpoint=PETS) == ["throttle-list", "add-correlation-id"]


def test_an_import_with_a_bad_policy_is_refused_naming_it(api: Api) -> None:
    import io
    import zipfile

    assert add(api, "office").status_code == 200
    exported = api.request("GET", PROXIES + "PetStore/export/").content
    with zipfile.ZipFile(io.BytesIO(exported)) as archive:
        (entry,) = archive.namelist()
        definition = json.loads(archive.read(entry))
    definition["name"] = "Copy"
    office = next(p for p in definition["policies"] if p["name"] == "office")
    del office["body"]["ipList"]
    buffer = io.BytesIO()
    with zipfile.ZipFile(buffer, "w") as archive:
        archive.writestr(entry, json.dumps(definition))
    assert_error(
        _import(api, buffer.getvalue()),
        400,
        "bad_request",
        "apiProxyExportFile does not hold a valid API Proxy export:"
        f" policies[{definition['policies'].index(office)}] (office): ipList is required",
    )
    assert api.request("GET", PROXIES + "Copy/").status_code == 404


# -- inspection ---------------------------------------------------------------------------------------


def test_the_state_shows_each_proxys_policies_in_the_lists_shape(api: Api) -> None:
    assert add(api, "office", white_ip("192.168.1.0/24")).status_code == 200
    pets = api.proxy_state("PetStore")
    assert pets["policies"] == listed(api)
    assert api.proxy_state("Orders")["policies"]["requestPolicyList"] == []
    # The endpoints keep their summaries there, as before.
    assert [p["name"] for p in pets["endpoints"][0]["requestPolicyList"]] == [
        "throttle-list",
        "add-correlation-id",
    ]


@pytest.mark.parametrize(
    "policy_type", ["policy-request-protocol-transformation", "policy-response-protocol-transformation"]
)
def test_the_protocol_transformations_are_not_managed_through_the_api(policy_type: str) -> None:
    # Their pages: added with the proxy's SOAP/REST transformation, never by hand; no delete; no update.
    from apinizer_emulator import policies
    from apinizer_emulator.families import Backend
    from apinizer_emulator.fixtures import parse_fixture
    from apinizer_emulator.store import Store

    declared = {"name": "t", "type": policy_type}
    fixture = parse_fixture(
        json.dumps(
            {"projects": [{"name": "P", "api_proxies": [{"name": "X", "request_policies": [declared]}]}]}
        )
    )
    backend = Backend(Store(), fixture)
    try:
        with backend.store.write() as db:
            for call, operation in (
                (
                    lambda: policies.delete_policy(
                        db, "P", "X", "t", policies.Placement("request"), policies.Deployment(False)
                    ),
                    "deleted",
                ),
                (
                    lambda: policies.update_policy(
                        db,
                        "P",
                        "X",
                        "t",
                        policies.Placement("request"),
                        policies.PolicyData(policy_type, None, True, {"type": policy_type}),
                        policies.Deployment(False),
                    ),
                    "updated",
                ),
            ):
                with pytest.raises(policies.SystemManagedPolicyError) as caught:
                    call()
                assert caught.value.description == (
                    f"A {policy_type} policy can not be {operation} through the API: it comes with the"
                    " SOAP/REST transformation of the API Proxy!"
                )
            assert [
                p["name"] for p in policies.list_policies(db, "P", "X")["resultList"][0]["requestPolicyList"]
            ] == ["t"]
    finally:
        backend.store.close()


def test_adding_a_protocol_transformation_is_refused(api: Api) -> None:
    response = add(api, "t", {"type": "policy-request-protocol-transformation"})
    assert_error(
        response,
        400,
        "bad_request",
        "A policy-request-protocol-transformation policy can not be added through the API: it comes"
        " with the SOAP/REST transformation of the API Proxy!",
    )


def test_unknown_fields_are_ignored_not_stored(api: Api) -> None:
    policy = {
        **white_ip(),
        "notAField": 1,
        "targetVariableForIP": {"type": "HEADER", "headerName": "X-IP", "bogus": 2},
    }
    assert add(api, "tolerant", policy).status_code == 200
    (entry,) = listed(api)["requestPolicyList"]
    assert "notAField" not in entry and "bogus" not in entry["targetVariableForIP"]
    assert entry["targetVariableForIP"]["headerName"] == "X-IP"


def test_parallel_adds_keep_every_list_whole_and_names_unique(api: Api) -> None:
    from concurrent.futures import ThreadPoolExecutor

    def add_one(name: str) -> int:
        with emulator_http.client(base_url=str(api.client.base_url), timeout=10) as client:
            return add(Api(client, api.token), name).status_code

    with ThreadPoolExecutor(8) as pool:
        distinct = list(pool.map(add_one, [f"p{i}" for i in range(24)]))
        same = list(pool.map(add_one, ["twin"] * 8))
    assert distinct == [200] * 24
    assert sorted(same) == [200] + [400] * 7
    assert sorted(names(api)) == sorted([f"p{i}" for i in range(24)] + ["twin"])
    # The positions are 1..n without gaps: order 24 of 25 is the 24th place.
    before = names(api)
    assert add(api, "placed", order=24).status_code == 200
    assert names(api) == [*before[:23], "placed", *before[23:]]


@pytest.mark.parametrize("scope", ["API_PROXY", "GLOBAL"])
def test_the_type_pages_other_scopes_mean_the_whole_proxy(api: Api, scope: str) -> None:
    meta = {"targetScope": scope, "targetPipeline": "RESPONSE", "deploy": False}
    response = api.request("POST", policy_path("wide"), {"operationMetadata": meta, "policy": white_ip()})
    assert response.status_code == 200, response.text
    assert names(api, "responsePolicyList") == ["wide"]
    assert delete(api, "wide", pipeline="RESPONSE").status_code == 200
