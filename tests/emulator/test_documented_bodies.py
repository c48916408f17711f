"""The bodies the product's documentation shows, sent to the live emulator through the client and
as raw HTTP: each is accepted and stored. And names that would display as other names are refused.

- https://github.com/apinizer/management-api-docs/blob/main/02-api-reference/12-rlcl/endpoints/delete-endpoints.md
- https://github.com/apinizer/management-api-docs/blob/main/02-api-reference/12-rlcl/crud/update-rlcl.md
- https://github.com/apinizer/management-api-docs/blob/main/02-api-reference/04-api-proxies/endpoints/update-endpoint-cache.md
- https://github.com/apinizer/management-api-docs/blob/main/03-appendix/enum-reference.md (FORM)
- https://github.com/apinizer/management-api-docs/blob/main/02-api-reference/04-api-proxies/settings/update-cache-settings.md
  (EnumConditionVariableDataType)

The documentation's examples address ``MyProject``/``MyAPI``/``/api/users``; here they address the
default fixture's ``Demo``/``PetStore``/``GET /pets`` and RLCL ``Standard``, every other field as shown.
"""

from __future__ import annotations

import json
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest

from _documented_bodies import CURL_2_CACHE, CUSTOM_KEY_CACHE, REFUSED_NAME_CHARACTERS, UPDATE_RLCL
from apinizer_pulumi.client import ApinizerClient, BadRequestError, InvalidArgumentError
from apinizer_pulumi.models import EndpointRateLimitKey, RlclUpdate

from .conftest import Api, assert_error, assert_success, endpoints_path, new_endpoint, rlcl_path

RLCL_ITEM = "/apiops/projects/Demo/rlcl/Standard/"
PETSTORE_SPEC = (Path(__file__).parent / "specs" / "petstore-openapi.yaml").read_bytes()

#: Add Endpoints' single-endpoint example, pointed at the fixture's GET /pets.
ADDED = {
    "apiProxyName": "PetStore",
    "endpointName": "/pets",
    "endpointHTTPMethod": "GET",
    "permittedMessageCount": 100,
    "timeIntervalPeriodLength": 1,
    "timeInterval": "ONE_MINUTE",
    "cacheConnectionTimeoutInSeconds": 3,
    "cacheErrorHandlingType": "FAIL",
    "timeIntervalWindowType": "FIXED",
    "showRateLimitStatisticsInResponseHeader": False,
    "enabled": True,
}
#: Delete Endpoints' cURL body: the three match keys alone.
DELETE_KEYS = {"apiProxyName": "PetStore", "endpointName": "/pets", "endpointHTTPMethod": "GET"}

CUSTOM_CACHE_KEY = CUSTOM_KEY_CACHE
CURL_2 = CURL_2_CACHE
REFUSED_CHARACTERS = REFUSED_NAME_CHARACTERS


@pytest.fixture
def client(emulator_url: str, developer_token: str) -> Iterator[ApinizerClient]:
    with ApinizerClient(emulator_url, token=developer_token, max_retries=0) as c:
        yield c


def _settings(api: Api, rlcl: str = "Standard") -> dict[str, Any]:
    for project in api.state()["projects"]:
        for item in project["rlcls"]:
            if project["name"] == "Demo" and item["name"] == rlcl:
                return dict(item["settings"])
    raise AssertionError(f"no RLCL {rlcl}")


def _cache(api: Api, name: str = "/pets", method: str = "GET") -> Any:
    for endpoint in api.proxy_state("PetStore")["endpoints"]:
        if (endpoint["endpoint"], endpoint["httpMethod"]) == (name, method):
            return endpoint["cacheSettings"]
    raise AssertionError(f"no endpoint {method} {name}")


# -- delete-endpoints.md: the keys-only body ----------------------------------------------------


@pytest.mark.parametrize(
    "entry",
    [
        DELETE_KEYS,
        EndpointRateLimitKey(api_proxy_name="PetStore", endpoint_name="/pets", endpoint_http_method="GET"),
    ],
    ids=["mapping", "model"],
)
def test_client_sends_the_documented_keys_only_delete(entry: Any, client: ApinizerClient, api: Api) -> None:
    client.rlcl.add_endpoints("Demo", "Standard", [ADDED, {**ADDED, "endpointName": "/pets/{id}"}])
    client.rlcl.delete_endpoints("Demo", "Standard", [entry])
    remaining = [(e["endpointName"], e["endpointHTTPMethod"]) for e in api.rlcl_entries()]
    assert remaining == [("/pets/{id}", "GET")]


def test_raw_keys_only_delete(api: Api) -> None:
    assert_success(api.request("POST", rlcl_path(), {"endpointRateLimitList": [ADDED]}))
    assert_success(api.request("DELETE", rlcl_path(), {"endpointRateLimitList": [DELETE_KEYS]}))
    assert api.rlcl_entries() == []


# -- update-rlcl.md: the body without name -------------------------------------------------------


@pytest.mark.parametrize(
    "body", [UPDATE_RLCL, RlclUpdate.model_validate(UPDATE_RLCL)], ids=["mapping", "model"]
)
def test_client_sends_the_documented_update_without_name(body: Any, client: ApinizerClient, api: Api) -> None:
    client.rlcl.update("Demo", body, rlcl_name="Standard")
    settings = _settings(api)
    assert {key: settings[key] for key in UPDATE_RLCL} == UPDATE_RLCL
    assert settings["name"] == "Standard"


def test_client_refuses_an_update_that_would_rename(client: ApinizerClient, api: Api) -> None:
    renamed = r"^rlcl\.name: 'Premium' differs from rlcl_name 'Standard'"
    with pytest.raises(InvalidArgumentError, match=renamed):
        client.rlcl.update("Demo", {**UPDATE_RLCL, "name": "Premium"}, rlcl_name="Standard")
    with pytest.raises(InvalidArgumentError, match=r"^rlcl_name: is required when the body has no name$"):
        client.rlcl.update("Demo", UPDATE_RLCL)
    assert _settings(api)["timeIntervalWindowType"] == "FIXED"


def test_raw_update_without_name(api: Api) -> None:
    assert_success(api.request("PUT", RLCL_ITEM, UPDATE_RLCL))
    assert _settings(api)["cacheConnectionTimeoutInSeconds"] == 5


# -- update-endpoint-cache.md: HEADER and PARAMETER variables without their source fields ---------


@pytest.mark.parametrize("settings", [CUSTOM_CACHE_KEY, CURL_2], ids=["custom-cache-key", "curl-2"])
def test_client_sends_the_documented_custom_cache_key(
    settings: dict[str, Any], client: ApinizerClient, api: Api
) -> None:
    client.endpoints.set_cache("Demo", "PetStore", "/pets", "GET", settings)
    stored = _cache(api)
    assert stored["variableList"] == settings["variableList"]
    assert stored["cacheKeyType"] == "CUSTOM" and stored["ttl"] == 7200


@pytest.mark.parametrize("settings", [CUSTOM_CACHE_KEY, CURL_2], ids=["custom-cache-key", "curl-2"])
def test_raw_documented_custom_cache_key(settings: dict[str, Any], api: Api) -> None:
    body = {"identifierName": "/pets", "identifierHttpMethod": "GET", "cacheSettings": settings}
    assert_success(api.request("PATCH", endpoints_path("cache"), body))
    assert _cache(api)["variableList"] == settings["variableList"]


def test_the_other_variable_rules_still_hold_in_the_cache_key(api: Api) -> None:
    settings = {
        **CURL_2,
        "variableList": [{"name": "id", "type": "PARAMETER", "paramType": "PATH", "paramName": "id"}],
    }
    body = {"identifierName": "/pets", "identifierHttpMethod": "GET", "cacheSettings": settings}
    response = api.request("PATCH", endpoints_path("cache"), body)
    assert_error(response, 400, "bad_request")
    assert "cacheSettings.variableList[0].paramPath" in response.json()["error_description"]


def test_a_rate_limit_target_variable_still_needs_its_header_name(api: Api) -> None:
    entry = {**ADDED, "targetVariable": {"name": "u", "type": "HEADER"}}
    response = api.request("POST", rlcl_path(), {"endpointRateLimitList": [entry]})
    assert_error(response, 400, "bad_request")
    assert "headerName" in response.json()["error_description"]


# -- messageContentType FORM and the dataType enum -----------------------------------------------


def test_form_message_content_type(client: ApinizerClient, api: Api) -> None:
    variable = {"name": "user", "type": "BODY", "messageContentType": "FORM", "dataType": "STRING"}
    client.endpoints.set_cache("Demo", "PetStore", "/pets", "GET", {**CURL_2, "variableList": [variable]})
    assert _cache(api)["variableList"] == [variable]


@pytest.mark.parametrize("data_type", ["NUMERIC", "STRING", "DATE"])
def test_documented_data_types(data_type: str, api: Api) -> None:
    variable = {"name": "v", "type": "HEADER", "headerName": "X-V", "dataType": data_type}
    body = {
        "identifierName": "/pets",
        "identifierHttpMethod": "GET",
        "cacheSettings": {**CURL_2, "variableList": [variable]},
    }
    assert_success(api.request("PATCH", endpoints_path("cache"), body))
    assert _cache(api)["variableList"] == [variable]


def test_an_undocumented_data_type_is_refused(api: Api) -> None:
    variable = {"name": "v", "type": "HEADER", "headerName": "X-V", "dataType": "INTEGER"}
    body = {
        "identifierName": "/pets",
        "identifierHttpMethod": "GET",
        "cacheSettings": {**CURL_2, "variableList": [variable]},
    }
    response = api.request("PATCH", endpoints_path("cache"), body)
    assert_error(response, 400, "bad_request")
    assert response.json()["error_description"].startswith("cacheSettings.variableList[0].dataType: ")
    assert _cache(api) is None


# -- names that display as other names -------------------------------------------------------


@pytest.mark.parametrize("char", REFUSED_CHARACTERS, ids=[f"U+{ord(c):04X}" for c in REFUSED_CHARACTERS])
def test_the_emulator_refuses_names_that_display_as_others(char: str, api: Api) -> None:
    code = f"U+{ord(char):04X}"
    before = api.state()
    cases = [
        ("POST", endpoints_path(), new_endpoint(f"/toys{char}"), "name: "),
        (
            "PATCH",
            endpoints_path(),
            {"name": f"/pets{char}", "httpMethod": "GET", "description": "x"},
            "name: ",
        ),
        ("POST", "/apiops/projects/Demo/rlcl/", {"name": f"Gold{char}"}, "name: "),
        (
            "POST",
            rlcl_path(),
            {"endpointRateLimitList": [{**ADDED, "endpointName": f"/pets{char}"}]},
            "endpointRateLimitList[0].endpointName: ",
        ),
        (
            "PATCH",
            endpoints_path("cache"),
            {
                "identifierName": "/pets",
                "identifierHttpMethod": "GET",
                "cacheSettings": {**CURL_2, "variableList": [{"name": f"user{char}", "type": "HEADER"}]},
            },
            "cacheSettings.variableList[0].name: ",
        ),
    ]
    for method, path, body, field in cases:
        response = api.request(method, path, body)
        assert_error(response, 400, "bad_request")
        description = response.json()["error_description"]
        assert description.startswith(field) and code in description, (method, path, description)
    assert api.state()["projects"] == before["projects"]


def test_the_client_refuses_them_before_sending(client: ApinizerClient, api: Api) -> None:
    api.client.post("/_emulator/stats/reset", json={}).raise_for_status()
    with pytest.raises(InvalidArgumentError, match="U\\+202E"):
        client.endpoints.create("Demo", "PetStore", new_endpoint("/toys\u202e"))
    assert api.client.get("/_emulator/stats").json()["total"] == 0


def test_a_plain_unicode_name_is_still_fine(client: ApinizerClient, api: Api) -> None:
    client.endpoints.create("Demo", "PetStore", new_endpoint("/çiçek/ağaç"))
    assert client.endpoints.get("Demo", "PetStore", "/çiçek/ağaç", "GET").endpoint == "/çiçek/ağaç"
    with pytest.raises(BadRequestError):
        client.endpoints.create("Demo", "PetStore", new_endpoint("/çiçek/ağaç"))


# -- answers that leave out what a page's example shows ----------------------------------------------

PROXY_CRUD = "https://github.com/apinizer/management-api-docs/blob/main/02-api-reference/04-api-proxies/crud/"
DISAGREEMENTS = Path(__file__).parents[2] / "docs" / "docs-disagreements.md"
#: create-api-proxy-from-file.md, cURL "Example 1" (``deploy: false``), addressed to the project Demo.
FILE_EXAMPLE_1 = {
    "apiProxyName": "petstore-api",
    "apiProxyDescription": "Petstore API Proxy",
    "apiProxyCreationType": "OPEN_API",
    "clientRoute": {"relativePathList": ["/api/v1"]},
    "deploy": False,
    "reParse": False,
    "soapToRest": False,
}
#: Its page's one success example, which is the answer of a create that deploys.
DOCUMENTED_DEPLOYED = {
    "success": True,
    "deploymentResult": {
        "success": True,
        "deploymentResults": [
            {"environmentName": "production", "success": True, "message": "Deployment successful"}
        ],
    },
}
#: (page, field): where the emulator's answer to a documented example leaves out a field the page's
#: example answer shows, or shows one it does not; each must be a row of docs/docs-disagreements.md.
ANSWER_DIFFERENCES = [
    (PROXY_CRUD + "create-api-proxy-from-file.md", "deploymentResult"),
    (PROXY_CRUD + "create-api-proxy-from-url.md", "deploymentResult"),
    (PROXY_CRUD + "update-api-proxy-from-url.md", "deploymentResult"),
    (PROXY_CRUD + "update-api-proxy.md", "deploymentResult"),
    ("https://github.com/apinizer/management-api-docs/blob/main/02-api-reference/05-policies/crud/list-policies.md",
     "responsePolicyList"),
]


def _keys(value: Any) -> Any:
    """The shape of a JSON value: its keys, recursively, lists by their first item."""
    if isinstance(value, dict):
        return {key: _keys(item) for key, item in value.items()}
    if isinstance(value, list):
        return [_keys(value[0])] if value else []
    return None


def _upload(api: Api, method: str, metadata: dict[str, Any]) -> Any:
    files = {"metadata": (None, json.dumps(metadata), "application/json"),
             "specFile": ("openapi.yaml", PETSTORE_SPEC, "application/octet-stream")}
    response = api.client.request(method, "/apiops/projects/Demo/apiProxies/file/", files=files,
                                  headers=api.headers())
    assert response.status_code == 200, response.text
    return response.json()


def test_a_documented_create_answers_deployment_result_only_when_it_deploys(api: Api) -> None:
    # The cURL examples send deploy: false; the field tables say deploymentResult comes "if deploy=true".
    assert _upload(api, "POST", FILE_EXAMPLE_1) == {"success": True}
    example_4 = {"apiProxyName": "petstore-api", "apiProxyDescription": "Updated Petstore API",
                 "apiProxyCreationType": "OPEN_API", "reParse": True, "deploy": False}
    assert _upload(api, "PUT", example_4) == {"success": True}
    deploying = {**example_4, "deploy": True, "deployTargetEnvironmentNameList": ["production"]}
    deployed = _upload(api, "PUT", deploying)
    assert _keys(deployed) == _keys(DOCUMENTED_DEPLOYED)
    assert deployed["deploymentResult"]["deploymentResults"][0]["environmentName"] == "production"


def test_the_endpoints_of_the_policy_list_carry_their_three_pipelines(api: Api) -> None:
    listed = api.request("GET", "/apiops/projects/Demo/apiProxies/PetStore/policies/").json()
    for endpoint in listed["resultList"][0]["endpointList"]:
        assert {"requestPolicyList", "responsePolicyList", "errorPolicyList"} <= set(endpoint), endpoint


@pytest.mark.parametrize(
    ("page", "field"), ANSWER_DIFFERENCES, ids=[page.rsplit("/", 1)[1] for page, _ in ANSWER_DIFFERENCES]
)
def test_each_answer_that_differs_from_its_pages_example_is_listed(page: str, field: str) -> None:
    rows = [line for line in DISAGREEMENTS.read_text(encoding="utf-8").splitlines() if line.startswith("|")]
    assert [row for row in rows if page in row and f"`{field}`" in row], (page, field)
