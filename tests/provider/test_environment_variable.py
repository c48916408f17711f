"""EnvironmentVariable through the dynamic provider server, against a live emulator.

https://github.com/apinizer/management-api-docs/blob/main/02-api-reference/10-environment-variables/index.md
"""

from __future__ import annotations

from collections.abc import Iterator
from pathlib import Path
from typing import Any

import grpc
import pytest

import _emulator_http as emulator_http
from _draft_environment import draft_staging, publish_staging
from apinizer_pulumi.client import ApinizerClient
from apinizer_pulumi.resources import EnvironmentVariableProvider
from apinizer_pulumi.resources.testing import DIFF_NONE, DIFF_SOME, Engine, ProviderServer

from ._fork_server import ForkedProviderServer
from .conftest import Gateway
from .test_lost_answers import fault

BASE_URL: dict[str, Any] = {
    "project_name": "Demo",
    "name": "BACKEND_URL",
    "description": "where the backend is",
    "environment_values": {"test": "https://test.backend.example", "production": "https://backend.example"},
}
API_KEY: dict[str, Any] = {
    "project_name": "Demo",
    "name": "API_KEY",
    "global_value": "s3cr3t-value",
    "secret": True,
}
LIST = "GET /apiops/projects/{projectName}/environmentVariables/"
ONE = "/apiops/projects/{projectName}/environmentVariables/{name}/"


@pytest.fixture
def variables(server: ProviderServer, emulator_url: str) -> Engine:
    return Engine(server, EnvironmentVariableProvider(), "EnvironmentVariable")


def listed(client: ApinizerClient) -> dict[str, Any]:
    return {v.name: v for v in client.environment_variables.list("Demo")}


def test_create_sends_each_environments_value(
    variables: Engine, gateway: Gateway, client: ApinizerClient
) -> None:
    gateway.reset_stats()
    id_, outs = variables.up(BASE_URL)
    assert id_ == "Demo/BACKEND_URL"
    assert gateway.stats()["requests"] == {f"POST {ONE}": 1}
    live = listed(client)["BACKEND_URL"]
    assert live.global_ is False and live.description == "where the backend is"
    assert {v.environment_name: (v.value, v.visible) for v in live.environment_value_list or []} == {
        "test": ("https://test.backend.example", True),
        "production": ("https://backend.example", True),
    }
    assert outs["environment_values"] == BASE_URL["environment_values"] and outs["secret"] is False


def test_a_secret_global_value_is_sent_not_visible_and_never_answered(
    variables: Engine, gateway: Gateway, client: ApinizerClient
) -> None:
    id_, outs = variables.up(API_KEY)
    live = listed(client)["API_KEY"]
    assert (live.global_, live.global_visible, live.global_value) == (True, False, None)
    assert "s3cr3t-value" not in emulator_http.get(f"{gateway.url}/_emulator/state").text
    # Refresh: the masked value cannot be read, so the recorded one stays and there is no drift.
    _, read_outs, read_inputs = variables.read(id_, outs)
    assert read_outs["global_value"] == "s3cr3t-value" and read_inputs is None
    assert variables.diff(id_, read_outs, variables.checked(API_KEY)).changes == DIFF_NONE


def test_check_names_the_property(variables: Engine) -> None:
    failures = variables.check({"project_name": "Demo", "name": "X"}).failures
    assert set(failures) == {"global_value"}
    failures = variables.check({**BASE_URL, "global_value": "v"}).failures
    assert set(failures) == {"environment_values"}
    failures = variables.check({**BASE_URL, "environment_values": {}}).failures
    assert failures == {"environment_values": "needs at least one environment"}
    assert set(variables.check({**BASE_URL, "name": ""}).failures) == {"name"}


def test_refresh_shares_one_list_and_shows_console_drift_which_up_repairs(
    variables: Engine, gateway: Gateway, client: ApinizerClient
) -> None:
    id_, outs = variables.up(BASE_URL)
    key_id, key_outs = variables.up(API_KEY, name="key")
    changed = client.environment_variables.get("Demo", "BACKEND_URL").model_copy()
    client.environment_variables.update(
        "Demo",
        {
            "name": "BACKEND_URL",
            "description": "edited",
            "global": False,
            "environmentValueList": [
                {"environmentName": "test", "value": "https://elsewhere.example", "visible": True}
            ],
        },
    )
    assert changed.name == "BACKEND_URL"
    gateway.reset_stats()
    # A slow list, so that the second read arrives while the first one's list is on its way.
    fault(gateway, method="GET", path="/environmentVariables/", delay=0.5, count=1)
    futures = [variables.read_future(id_, outs), variables.read_future(key_id, key_outs, name="key")]
    results = [future.result() for future in futures]
    assert all(result.id for result in results)
    assert gateway.stats()["requests"] == {LIST: 1}, "one list for the project's variables"

    _, read_outs, _read_inputs = variables.read(id_, outs)
    assert read_outs["description"] == "edited"
    assert read_outs["environment_values"] == {"test": "https://elsewhere.example"}
    declared = variables.checked(BASE_URL)
    assert variables.diff(id_, read_outs, declared).changes == DIFF_SOME
    outs = variables.update(id_, read_outs, declared)
    live = listed(client)["BACKEND_URL"]
    assert live.description == "where the backend is" and len(live.environment_value_list or []) == 2


def test_refresh_of_a_variable_deleted_outside_drops_it(variables: Engine, client: ApinizerClient) -> None:
    id_, outs = variables.up(BASE_URL)
    client.environment_variables.delete("Demo", "BACKEND_URL")
    read_id, read_outs, _ = variables.read(id_, outs)
    assert read_id == "" and read_outs == {}
    variables.delete(id_, outs)  # already gone: not an error


def test_an_existing_variable_needs_adopt(variables: Engine, client: ApinizerClient) -> None:
    client.environment_variables.create("Demo", {"name": "BACKEND_URL", "global": True, "globalValue": "old"})
    with pytest.raises(grpc.RpcError) as info:
        variables.up(BASE_URL)
    assert "already exists" in str(info.value.details()) and "adopt=True" in str(info.value.details())
    variables.up({**BASE_URL, "adopt": True})
    live = listed(client)["BACKEND_URL"]
    assert live.global_ is False and live.description == "where the backend is"


@pytest.mark.parametrize("lost", [{"drop": True, "after": True}, {"status": 504, "after": True}])
def test_a_create_whose_answer_was_lost_is_recognised_not_repeated(
    variables: Engine, gateway: Gateway, client: ApinizerClient, lost: dict[str, Any]
) -> None:
    fault(gateway, method="POST", path="/environmentVariables/", count=1, **lost)
    id_, _ = variables.up(BASE_URL)
    assert id_ == "Demo/BACKEND_URL" and "BACKEND_URL" in listed(client)
    assert gateway.stats()["requests"][f"POST {ONE}"] == 1, "the create was sent again"


@pytest.mark.parametrize("lost", [{"drop": True, "after": True}, {"status": 504, "after": True}])
def test_a_create_whose_answer_was_lost_records_its_deployment_as_unknown_and_the_next_up_deploys(
    variables: Engine, gateway: Gateway, lost: dict[str, Any]
) -> None:
    """The look-up finds the variable, but the deployment's result was in the lost answer, and the API
    shows no deployments of a variable: recorded as not done, so that the next up deploys it."""
    declared = {**BASE_URL, "name": "LOST_URL"}
    fault(gateway, method="POST", path="/environmentVariables/", count=1, **lost)
    id_, outs = variables.up(declared)
    assert outs["undeployed_environments"] == ["production", "test"]
    assert variables.diff(id_, outs, variables.checked(declared)).changes == DIFF_SOME
    gateway.reset_stats()
    outs = variables.update(id_, outs, variables.checked(declared))
    assert gateway.stats()["requests"] == {f"PUT {ONE}": 1}
    assert "undeployed_environments" not in outs
    assert variables.diff(id_, outs, variables.checked(declared)).changes == DIFF_NONE
    variables.delete(id_, outs)


def test_someone_elses_variable_found_after_a_lost_answer_is_not_taken(
    variables: Engine, gateway: Gateway, client: ApinizerClient
) -> None:
    client.environment_variables.create(
        "Demo", {"name": "BACKEND_URL", "global": True, "globalValue": "theirs"}
    )
    fault(gateway, method="POST", path="/environmentVariables/", count=1, drop=True)
    with pytest.raises(grpc.RpcError) as info:
        variables.up(BASE_URL)
    assert "already exists" in str(info.value.details())
    assert listed(client)["BACKEND_URL"].global_value == "theirs"


def test_update_and_delete_deploy_and_undeploy(
    variables: Engine, gateway: Gateway, client: ApinizerClient
) -> None:
    # A name no other test of this provider process adopts (an adopted one is left by a delete).
    declared = {**BASE_URL, "name": "MIRROR_URL"}
    id_, outs = variables.up(declared)
    news = variables.checked({**declared, "environment_values": {"test": "https://t2.example"}})
    assert list(variables.diff(id_, outs, news).replaces) == []
    outs = variables.update(id_, outs, news)
    live = listed(client)["MIRROR_URL"]
    assert [(v.environment_name, v.value) for v in live.environment_value_list or []] == [
        ("test", "https://t2.example")
    ]
    assert list(variables.diff(id_, outs, variables.checked({**declared, "name": "OTHER"})).replaces) == [
        "name"
    ]
    gateway.reset_stats()
    variables.delete(id_, outs)
    assert gateway.stats()["requests"] == {f"DELETE {ONE}": 1}
    assert "MIRROR_URL" not in listed(client)


@pytest.fixture
def staging_draft(tmp_path: Path) -> Iterator[tuple[str, Path]]:
    with draft_staging(tmp_path) as emulator:
        yield emulator


STAGED = {**BASE_URL, "environment_values": {
    **BASE_URL["environment_values"], "staging": "https://staging.backend.example"}}


@pytest.mark.parametrize("declared", [API_KEY, STAGED], ids=["global", "per-environment"])
def test_a_deployment_that_failed_somewhere_is_sent_again_by_the_next_up(
        staging_draft: tuple[str, Path], declared: dict[str, Any]) -> None:
    url, database = staging_draft
    config = {"apinizer:url": url, "apinizer:token": "dev-admin-token"}
    with ForkedProviderServer(config, env={"APINIZER_SKIP_CONNECTION_CHECK": "1"}) as server:
        variables = Engine(server, EnvironmentVariableProvider(), "EnvironmentVariable")
        id_, outs = variables.up(declared)
        assert outs["undeployed_environments"] == ["staging"]
        # The gateway holds the value but runs the old one in staging: the next up must see a change.
        assert variables.diff(id_, outs, variables.checked(declared)).changes == DIFF_SOME
        # A refresh cannot see deployments: it keeps what the last write's answer said.
        _, read_outs, _ = variables.read(id_, outs)
        assert read_outs["undeployed_environments"] == ["staging"]
        assert variables.diff(id_, read_outs, variables.checked(declared)).changes == DIFF_SOME
        # Still not published: the update records the failure again, so nothing is claimed.
        outs = variables.update(id_, read_outs, variables.checked(declared))
        assert outs["undeployed_environments"] == ["staging"]
        publish_staging(database)
        outs = variables.update(id_, outs, variables.checked(declared))
        assert "undeployed_environments" not in outs
        assert variables.diff(id_, outs, variables.checked(declared)).changes == DIFF_NONE
