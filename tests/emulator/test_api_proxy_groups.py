"""API proxy groups in the emulator: crud, members, deployment, and what a deleted proxy does to a
group; and an RLCL's credentials and condition. Bodies, statuses and messages are the pages' own:
https://github.com/apinizer/management-api-docs/blob/main/02-api-reference/09-api-proxy-groups/index.md
"""

from __future__ import annotations

from typing import Any

import httpx
import pytest

from apinizer_emulator.testing import EmulatorServer

from .conftest import Api, assert_error, assert_success

GROUPS = "/apiops/projects/Demo/apiProxyGroups/"
NO_PATH = "clientRoute value needs at least one relativePath!"
NOT_FOUND = "API Proxy Group ({}) is not found or user does not have privilege to access it!"


def group(name: str = "Payments", **extra: Any) -> dict[str, Any]:
    return {"name": name, "description": "Payment APIs",
            "clientRoute": {"relativePathList": ["/payments"], "methodList": ["GET", "POST"]}, **extra}


def inspect(http: httpx.Client, name: str = "Payments") -> dict[str, Any]:
    response = http.get(f"/_emulator/projects/Demo/apiProxyGroups/{name}")
    response.raise_for_status()
    found: dict[str, Any] = response.json()
    return found


def deployment_line(api: Api, proxy: str, environment: str) -> dict[str, Any] | None:
    body = api.request("GET", f"/apiops/projects/Demo/apiProxies/{proxy}/").json()
    return next((line for line in body.get("deploymentList") or []
                 if line["environmentName"] == environment), None)


# -- crud ---------------------------------------------------------------------------------------------


def test_create_list_update_delete(api: Api, http: httpx.Client) -> None:
    assert api.request("GET", GROUPS).json() == {"success": True, "resultList": [], "resultCount": 0}
    assert_success(api.request("POST", GROUPS, group()))
    listed = api.request("GET", GROUPS).json()
    assert listed["resultCount"] == 1
    item = listed["resultList"][0]
    assert set(item) == {"id", "name", "description"}  # the page: only basic information
    assert (item["name"], item["description"]) == ("Payments", "Payment APIs")

    changed = group(description="v2", clientRoute={"relativePathList": ["/v2/payments"]})
    assert_success(api.request("PUT", GROUPS, changed))
    assert api.request("GET", GROUPS).json()["resultList"][0]["description"] == "v2"
    body = inspect(http)["body"]
    assert body["clientRoute"]["relativePathList"] == ["/v2/payments"]
    assert body["clientRoute"]["bufferRequest"] is True  # the documented default

    assert_success(api.request("DELETE", GROUPS + "Payments/"))
    assert api.request("GET", GROUPS).json()["resultList"] == []
    assert_error(api.request("DELETE", GROUPS + "Payments/"), 400, "bad_request",
                 NOT_FOUND.format("Payments"))


@pytest.mark.parametrize(("body", "message"), [
    ({"clientRoute": {"relativePathList": ["/a"]}}, "name value can not be empty!"),
    ({"name": " ", "clientRoute": {"relativePathList": ["/a"]}}, "name value can not be empty!"),
    ({"name": "G"}, "clientRoute value can not be empty!"),
    ({"name": "G", "clientRoute": {"relativePathList": []}}, NO_PATH),
    ({"name": "G", "clientRoute": {"methodList": ["GET"]}}, NO_PATH),
    ({"name": "G", "clientRoute": {"relativePathList": [""]}},
     "relativePath value in clientRoute object can not be empty!"),
])
def test_create_refuses_what_the_page_refuses(api: Api, body: dict[str, Any], message: str) -> None:
    assert_error(api.request("POST", GROUPS, body), 400, "bad_request", message)
    assert api.request("GET", GROUPS).json()["resultList"] == []


def test_a_path_shorter_than_two_characters_is_refused_naming_it(api: Api) -> None:
    response = api.request("POST", GROUPS, group(clientRoute={"relativePathList": ["/"]}))
    assert_error(response, 400, "bad_request")
    assert "relativePathList" in response.json()["error_description"]


def test_create_twice_is_the_documented_400(api: Api) -> None:
    assert_success(api.request("POST", GROUPS, group()))
    assert_error(api.request("POST", GROUPS, group()), 400, "bad_request",
                 "ApiProxyGroup: (Payments) is already created! If you want to udate it use update endpoint!")


def test_update_of_an_unknown_group_and_an_unknown_project(api: Api) -> None:
    assert_error(api.request("PUT", GROUPS, group("Nope")), 400, "bad_request", NOT_FOUND.format("Nope"))
    assert_error(api.request("GET", "/apiops/projects/Nope/apiProxyGroups/"), 404, "not_found",
                 "Project(Nope) was not found or user does not have privilege to access it!")


# -- members ------------------------------------------------------------------------------------------


def test_members_are_existing_proxies_added_and_removed_idempotently(api: Api, http: httpx.Client) -> None:
    assert_success(api.request("POST", GROUPS, group()))
    member = GROUPS + "Payments/apiProxies/{}/"
    assert_success(api.request("POST", member.format("PetStore")))
    assert_success(api.request("POST", member.format("PetStore")))  # documented: no error twice
    assert_success(api.request("POST", member.format("Orders")))
    assert inspect(http)["members"] == ["PetStore", "Orders"]
    assert_error(api.request("POST", member.format("Ghost")), 400, "bad_request",
                 "ApiProxy (Ghost) is not found or user does not have privilege to access it!")
    assert_error(api.request("POST", GROUPS + "Nope/apiProxies/PetStore/"), 400, "bad_request",
                 NOT_FOUND.format("Nope"))
    assert_success(api.request("DELETE", member.format("Orders")))
    assert_success(api.request("DELETE", member.format("Orders")))  # not a member: still success
    assert inspect(http)["members"] == ["PetStore"]


def test_a_deleted_proxy_leaves_every_group(api: Api, http: httpx.Client) -> None:
    assert_success(api.request("POST", GROUPS, group()))
    assert_success(api.request("POST", GROUPS + "Payments/apiProxies/Orders/"))
    assert api.request("DELETE", "/apiops/projects/Demo/apiProxies/Orders/").status_code == 200
    assert inspect(http)["members"] == []


def test_a_deleted_group_leaves_its_proxies(api: Api) -> None:
    assert_success(api.request("POST", GROUPS, group()))
    assert_success(api.request("POST", GROUPS + "Payments/apiProxies/PetStore/"))
    assert api.request("POST", GROUPS + "Payments/environments/test/").status_code == 200
    assert_success(api.request("DELETE", GROUPS + "Payments/"))
    assert api.request("GET", "/apiops/projects/Demo/apiProxies/PetStore/").status_code == 200
    line = deployment_line(api, "PetStore", "test")
    assert line is not None and line["deployed"] is True  # its deployment stays as it was


# -- deployment ---------------------------------------------------------------------------------------


def test_deploy_deploys_the_members_and_undeploy_undeploys_them(api: Api, http: httpx.Client) -> None:
    assert_success(api.request("POST", GROUPS, group()))
    assert_success(api.request("POST", GROUPS + "Payments/apiProxies/PetStore/"))
    environments = GROUPS + "Payments/environments/"
    assert api.request("GET", environments).json() == {"success": True, "resultList": [], "resultCount": 0}

    deployed = api.request("POST", environments + "test/")
    assert deployed.status_code == 200
    assert deployed.json() == {"success": True, "deploymentResult": {
        "success": True, "message": "Deployment completed successfully",
        "environmentResults": [
            {"environmentName": "test", "success": True, "message": "Deployed successfully"}]}}
    assert api.request("GET", environments).json() == {
        "success": True, "resultList": [{"environmentName": "test", "deployed": True}], "resultCount": 1}
    line = deployment_line(api, "PetStore", "test")
    assert line is not None and line["deployed"] is True and line["redeployRequired"] is False
    orders = deployment_line(api, "Orders", "test")  # no member: not deployed by the group
    assert orders is None or orders["deployed"] is False

    undeployed = api.request("DELETE", environments + "test/")
    assert undeployed.json()["deploymentResult"]["message"] == "Undeployment completed successfully"
    assert api.request("GET", environments).json()["resultList"] == []
    line = deployment_line(api, "PetStore", "test")
    assert line is None or line["deployed"] is False
    # Documented errors only for an unknown group or environment: a repeat undeploy succeeds.
    assert api.request("DELETE", environments + "test/").status_code == 200


def test_deploy_to_an_unknown_environment_or_group(api: Api) -> None:
    assert_success(api.request("POST", GROUPS, group()))
    assert_error(api.request("POST", GROUPS + "Payments/environments/nowhere/"), 400, "bad_request",
                 "Environment (nowhere) is not found or user does not have privilege to access it!")
    assert_error(api.request("POST", GROUPS + "Nope/environments/test/"), 400, "bad_request",
                 NOT_FOUND.format("Nope"))
    assert_error(api.request("GET", GROUPS + "Nope/environments/"), 400, "bad_request",
                 NOT_FOUND.format("Nope"))


# -- RLCL credentials and condition -------------------------------------------------------------------

RLCL = "/apiops/projects/Demo/rlcl/Standard/"


def make_credential(api: Api, emulator: EmulatorServer, username: str) -> None:
    """A credential in project Demo: through the credentials API where the emulator has it, or
    else straight into the table that the RLCL's check reads."""
    body = {"username": username, "password": "pw-" + username, "email": f"{username}@example.com",
            "fullName": username}
    response = api.request("POST", "/apiops/projects/Demo/credentials/", body)
    if response.status_code == 200:
        return
    assert emulator.backend is not None
    with emulator.backend.store.write() as db:
        db.execute("CREATE TABLE IF NOT EXISTS credentials (project TEXT NOT NULL, username TEXT NOT NULL)")
        db.execute("INSERT INTO credentials (project, username) VALUES ('Demo', ?)", (username,))


def rlcl_lists(http: httpx.Client) -> dict[str, Any]:
    response = http.get("/_emulator/projects/Demo/rlcl/Standard/credentials")
    response.raise_for_status()
    found: dict[str, Any] = response.json()
    return found


def test_rlcl_credentials_add_replace_delete(api: Api, http: httpx.Client, emulator: EmulatorServer) -> None:
    for name in ("alice", "bob", "carol"):
        make_credential(api, emulator, name)
    path = RLCL + "credentials/"
    assert_success(api.request("POST", path, {"credentialNameList": ["alice", "bob", "alice"]}))
    assert_success(api.request("POST", path, {"credentialNameList": ["bob"]}))  # duplicates ignored
    assert rlcl_lists(http)["credentials"] == ["alice", "bob"]
    assert_success(api.request("PUT", path, {"credentialNameList": ["carol"]}))
    assert rlcl_lists(http)["credentials"] == ["carol"]
    assert_success(api.request("DELETE", path, {"credentialNameList": ["carol", "nobody"]}))
    assert rlcl_lists(http)["credentials"] == []


def test_rlcl_credentials_refuse_unknown_names_and_empty_lists(api: Api, http: httpx.Client) -> None:
    path = RLCL + "credentials/"
    assert_error(api.request("POST", path, {"credentialNameList": ["ghost"]}), 400, "bad_request",
                 "Credential with name (ghost) is not found in project!")
    assert_error(api.request("PUT", path, {"credentialNameList": []}), 400, "bad_request",
                 "credentialNameList value can not be empty!")
    assert_error(api.request("POST", "/apiops/projects/Demo/rlcl/Nope/credentials/",
                             {"credentialNameList": ["ghost"]}),
                 400, "bad_request", "RLCL (Nope) is not found!")
    assert rlcl_lists(http)["credentials"] == []


RULE = {"conditionCriteria": "VALUE",
        "firstVariable": {"name": "userType", "type": "HEADER", "headerName": "X-User-Type"},
        "variableDataType": "STRING", "valueComparisonOperator": "EQ",
        "secondValueSource": "VALUE", "secondValue": "PREMIUM"}


def test_rlcl_condition_add_update_delete(api: Api, http: httpx.Client) -> None:
    path = RLCL + "condition/"
    assert rlcl_lists(http)["condition"] == {"conditionCriteria": "AND", "conditionRuleList": []}
    assert_success(api.request("POST", path, {"conditionRuleList": [RULE]}))
    assert rlcl_lists(http)["condition"]["conditionRuleList"] == [RULE]
    either = {"conditionCriteria": "OR", "conditionRuleList": [RULE, {**RULE, "secondValue": "GOLD"}]}
    assert_success(api.request("PUT", path, {"conditionRuleList": [either]}))
    assert rlcl_lists(http)["condition"]["conditionRuleList"] == [either]
    assert_success(api.request("DELETE", path))
    assert rlcl_lists(http)["condition"] == {"conditionCriteria": "AND", "conditionRuleList": []}


def test_rlcl_condition_refuses_an_empty_or_bad_body(api: Api, http: httpx.Client) -> None:
    path = RLCL + "condition/"
    assert_error(api.request("POST", path), 400, "bad_request", "condition value can not be empty!")
    assert_error(api.request("PUT", path, {}), 400, "bad_request", "condition value can not be empty!")
    bad = api.request("POST", path, {"conditionRuleList": [{**RULE, "valueComparisonOperator": "NEAR"}]})
    assert_error(bad, 400, "bad_request")
    assert "valueComparisonOperator" in bad.json()["error_description"]
    assert rlcl_lists(http)["condition"]["conditionRuleList"] == []


def test_deleting_the_rlcl_takes_its_credentials_and_condition(
    api: Api, http: httpx.Client, emulator: EmulatorServer
) -> None:
    make_credential(api, emulator, "alice")
    assert_success(api.request("POST", RLCL + "credentials/", {"credentialNameList": ["alice"]}))
    assert_success(api.request("POST", RLCL + "condition/", {"conditionRuleList": [RULE]}))
    assert_success(api.request("DELETE", RLCL))
    assert http.get("/_emulator/projects/Demo/rlcl/Standard/credentials").status_code == 404
