"""Environment variables over raw HTTP, as the product's pages document them.

https://github.com/apinizer/management-api-docs/blob/main/02-api-reference/10-environment-variables/index.md
"""

from __future__ import annotations

from pathlib import Path
from typing import Any

import pytest

import _emulator_http as emulator_http
from _draft_environment import draft_staging, publish_staging

from .conftest import Api, assert_error

VARIABLES = "/apiops/projects/{project}/environmentVariables/"
VARIABLE = VARIABLES + "{name}/"

#: The create page's examples (environments renamed to the default fixture's).
GLOBAL = {
    "name": "API_KEY",
    "description": "API Key for external service",
    "global": True,
    "globalValue": "secret-api-key-12345",
    "globalVisible": False,
    "environmentValueList": None,
}
PER_ENVIRONMENT = {
    "name": "API_BASE_URL",
    "description": "Base URL for API calls",
    "global": False,
    "globalValue": None,
    "globalVisible": True,
    "environmentValueList": [
        {"environmentName": "production", "value": "https://api.production.example.com", "visible": True},
        {"environmentName": "test", "value": "https://api.test.example.com", "visible": False},
    ],
}
DEPLOYED = {
    "success": True,
    "deploymentResult": {
        "success": True,
        "message": "Deployment completed successfully",
        "environmentResults": [
            {"environmentName": "test", "success": True, "message": "Deployed successfully"},
            {"environmentName": "production", "success": True, "message": "Deployed successfully"},
        ],
    },
}


def create(api: Api, body: dict[str, Any], project: str = "Demo") -> dict[str, Any]:
    response = api.request("POST", VARIABLE.format(project=project, name=body["name"]), body)
    assert response.status_code == 200, response.text
    answer: dict[str, Any] = response.json()
    return answer


def listed(api: Api) -> dict[str, Any]:
    response = api.request("GET", VARIABLES.format(project="Demo"))
    assert response.status_code == 200, response.text
    return {item["name"]: item for item in response.json()["resultList"]}


def test_create_deploys_to_every_environment_and_the_list_masks_secrets(api: Api) -> None:
    assert create(api, GLOBAL) == DEPLOYED
    assert create(api, PER_ENVIRONMENT) == DEPLOYED
    body = api.request("GET", VARIABLES.format(project="Demo")).json()
    assert body["success"] is True and body["resultCount"] == 2
    found = {item["name"]: item for item in body["resultList"]}
    assert found["API_KEY"]["globalValue"] is None  # globalVisible false: masked
    assert found["API_KEY"]["global"] is True and found["API_KEY"]["projectName"] == "Demo"
    values = found["API_BASE_URL"]["environmentValueList"]
    assert values == [
        {"environmentName": "production", "value": "https://api.production.example.com", "visible": True},
        {"environmentName": "test", "value": None, "visible": False},
    ]
    assert set(found["API_KEY"]) == {
        "projectId",
        "name",
        "description",
        "global",
        "globalValue",
        "globalVisible",
        "projectName",
        "environmentValueList",
    }


def test_get_answers_a_list_of_one_and_the_state_holds_no_secret(api: Api) -> None:
    create(api, GLOBAL)
    body = api.request("GET", VARIABLE.format(project="Demo", name="API_KEY")).json()
    assert body["resultCount"] == 1 and body["resultList"][0]["name"] == "API_KEY"
    assert body["resultList"][0]["globalValue"] is None
    assert "secret-api-key-12345" not in api.client.get("/_emulator/state").text


def test_create_errors_are_the_documented_ones(api: Api) -> None:
    response = api.request("POST", VARIABLE.format(project="Demo", name="API_KEY"), {**GLOBAL, "name": ""})
    assert_error(response, 400, "bad_request", "Environment variable name can not be empty!")
    response = api.request(
        "POST", VARIABLE.format(project="Demo", name="API_KEY"), {**GLOBAL, "name": "API_BASE_URL"}
    )
    assert_error(
        response,
        400,
        "bad_request",
        "Environment variable name in path (API_KEY) does not match name in body (API_BASE_URL)!",
    )
    create(api, GLOBAL)
    response = api.request("POST", VARIABLE.format(project="Demo", name="API_KEY"), GLOBAL)
    assert_error(response, 400, "bad_request", "Environment variable (name: API_KEY) already exists!")


def test_name_in_path_matches_the_body_case_insensitively(api: Api) -> None:
    response = api.request("POST", VARIABLE.format(project="Demo", name="api_key"), GLOBAL)
    assert response.status_code == 200, response.text
    assert set(listed(api)) == {"API_KEY"}


@pytest.mark.parametrize(
    ("change", "message"),
    [
        ({"global": True, "globalValue": None}, "globalValue value can not be empty when global is true!"),
        (
            {"global": False, "environmentValueList": []},
            "environmentValueList value can not be empty when global is false!",
        ),
        (
            {"global": False, "environmentValueList": [{"environmentName": "staging", "value": "x"}]},
            "Environment (name: staging) was not found!",
        ),
    ],
)
def test_values_that_do_not_fit_the_kind_are_refused(api: Api, change: dict[str, Any], message: str) -> None:
    response = api.request("POST", VARIABLE.format(project="Demo", name="API_KEY"), {**GLOBAL, **change})
    assert_error(response, 400, "bad_request", message)
    assert listed(api) == {}


def test_update_rewrites_every_field_and_may_rename(api: Api) -> None:
    create(api, PER_ENVIRONMENT)
    body = {
        **PER_ENVIRONMENT,
        "description": "Updated base URL",
        "environmentValueList": [
            {
                "environmentName": "production",
                "value": "https://new-api.production.example.com",
                "visible": True,
            }
        ],
    }
    response = api.request("PUT", VARIABLE.format(project="Demo", name="API_BASE_URL"), body)
    assert response.json() == DEPLOYED
    found = listed(api)["API_BASE_URL"]
    assert found["description"] == "Updated base URL"
    assert found["environmentValueList"] == body["environmentValueList"]
    renamed = {**body, "name": "BASE_URL"}
    assert (
        api.request("PUT", VARIABLE.format(project="Demo", name="API_BASE_URL"), renamed).status_code == 200
    )
    assert set(listed(api)) == {"BASE_URL"}


def test_update_of_an_unknown_variable_or_onto_a_taken_name(api: Api) -> None:
    response = api.request("PUT", VARIABLE.format(project="Demo", name="NOPE"), {**GLOBAL, "name": "NOPE"})
    assert_error(response, 400, "bad_request", "Environment variable (name: NOPE) was not found!")
    create(api, GLOBAL)
    create(api, PER_ENVIRONMENT)
    response = api.request("PUT", VARIABLE.format(project="Demo", name="API_BASE_URL"), GLOBAL)
    assert_error(response, 400, "bad_request", "Environment variable (name: API_KEY) already exists!")


def test_delete_undeploys_and_a_second_delete_is_not_found(api: Api) -> None:
    create(api, GLOBAL)
    response = api.request("DELETE", VARIABLE.format(project="Demo", name="API_KEY"))
    answer = response.json()
    assert answer["deploymentResult"]["message"] == "Undeployment completed successfully"
    assert {r["message"] for r in answer["deploymentResult"]["environmentResults"]} == {
        "Undeployed successfully"
    }
    assert listed(api) == {}
    response = api.request("DELETE", VARIABLE.format(project="Demo", name="API_KEY"))
    assert_error(response, 400, "bad_request", "Environment variable (name: API_KEY) was not found!")
    response = api.request("GET", VARIABLE.format(project="Demo", name="API_KEY"))
    assert_error(response, 400, "bad_request", "Environment variable (name: API_KEY) was not found!")


def test_an_unknown_project_is_the_list_pages_404(api: Api) -> None:
    response = api.request("GET", VARIABLES.format(project="MyProject"))
    assert_error(
        response,
        404,
        "not_found",
        "Project(MyProject) was not found or user does not have privilege to access it!",
    )


def test_the_developer_lacks_role_api_security(dev_api: Api, api: Api) -> None:
    response = dev_api.request("GET", VARIABLES.format(project="Demo"))
    assert_error(response, 403, "forbidden")
    response = dev_api.request("POST", VARIABLE.format(project="Demo", name="API_KEY"), GLOBAL)
    assert_error(response, 403, "forbidden")
    assert listed(api) == {}


def test_a_deployment_fails_alone_in_an_environment_that_is_not_published(tmp_path: Path) -> None:
    with draft_staging(tmp_path) as (url, database):
        headers = {"Authorization": "Bearer dev-admin-token"}
        path = url + VARIABLE.format(project="Demo", name=GLOBAL["name"])
        answer = emulator_http.post(path, json=GLOBAL, headers=headers).json()
        assert answer == {"success": True, "deploymentResult": {
            "success": False,
            "message": "Deployment failed",
            "environmentResults": [
                {"environmentName": "staging", "success": False,
                 "message": "Environment (staging) is not published (status DRAFT)!"},
                *DEPLOYED["deploymentResult"]["environmentResults"],
            ],
        }}
        # The write stands: the variable is stored, and its update deploys everywhere once published.
        assert emulator_http.get(path, headers=headers).json()["success"] is True
        publish_staging(database)
        answer = emulator_http.put(path, json=GLOBAL, headers=headers).json()
        assert answer["deploymentResult"]["success"] is True
