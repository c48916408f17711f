"""RlclCredentials and RlclCondition through the dynamic provider server, against a live emulator."""

from __future__ import annotations

from collections.abc import Iterator
from typing import Any

import grpc
import pytest

import _emulator_http as emulator_http
from apinizer_pulumi.resources import RlclConditionProvider, RlclCredentialsProvider
from apinizer_pulumi.resources.testing import DIFF_NONE, DIFF_SOME, Engine, ProviderServer

from ._fork_server import ForkedProviderServer
from .conftest import ADMIN_TOKEN, Gateway

RULE = {"condition_criteria": "VALUE",
        "first_variable": {"name": "userType", "type": "HEADER", "header_name": "X-User-Type"},
        "variable_data_type": "STRING", "value_comparison_operator": "EQ",
        "second_value_source": "VALUE", "second_value": "PREMIUM"}
CREDENTIALS: dict[str, Any] = {"project_name": "Demo", "rlcl_name": "Standard",
                               "credential_names": ["alice", "bob"]}
CONDITION: dict[str, Any] = {"project_name": "Demo", "rlcl_name": "Standard", "rules": [RULE]}


@pytest.fixture
def credentials(server: ProviderServer, emulator_url: str, emulator: Any) -> Iterator[Engine]:
    from tests.emulator.conftest import Api
    from tests.emulator.test_api_proxy_groups import make_credential

    with emulator_http.client(base_url=emulator_url) as http:
        for name in ("alice", "bob", "carol"):
            make_credential(Api(http, ADMIN_TOKEN), emulator, name)
    yield Engine(server, RlclCredentialsProvider(), "RlclCredentials")


@pytest.fixture
def conditions(server: ProviderServer, emulator_url: str) -> Engine:
    return Engine(server, RlclConditionProvider(), "RlclCondition")


@pytest.fixture
def later(emulator_url: str) -> Iterator[tuple[Engine, Engine]]:
    config = {"apinizer:url": emulator_url, "apinizer:token": ADMIN_TOKEN}
    with ForkedProviderServer(config, env={"APINIZER_SKIP_CONNECTION_CHECK": "1"}) as server:
        yield (Engine(server, RlclCredentialsProvider(), "RlclCredentials"),
               Engine(server, RlclConditionProvider(), "RlclCondition"))


def lists(gateway: Gateway) -> dict[str, Any]:
    response = emulator_http.get(f"{gateway.url}/_emulator/projects/Demo/rlcl/Standard/credentials")
    found: dict[str, Any] = response.json()
    return found


def test_credentials_create_update_refresh_delete(
    credentials: Engine, later: tuple[Engine, Engine], gateway: Gateway
) -> None:
    gateway.reset_stats()
    id_, outs = credentials.up(CREDENTIALS)
    assert id_ == "Demo/Standard" and lists(gateway)["credentials"] == ["alice", "bob"]
    assert gateway.stats()["requests"] == {
        "PUT /apiops/projects/{projectName}/rlcl/{rlclName}/credentials/": 1}
    assert credentials.diff(id_, outs, credentials.checked(CREDENTIALS)).changes == DIFF_NONE

    news = credentials.checked({**CREDENTIALS, "credential_names": ["carol"]})
    assert credentials.diff(id_, outs, news).changes == DIFF_SOME
    outs = credentials.update(id_, outs, news)
    assert lists(gateway)["credentials"] == ["carol"]

    gateway.reset_stats()
    assert credentials.read(id_, outs) == (id_, outs, None)  # not readable: the recorded state
    assert gateway.stats()["total"] == 0
    later[0].delete(id_, outs)
    assert lists(gateway)["credentials"] == []


def test_credentials_check_and_unknown_names(credentials: Engine) -> None:
    failures = credentials.check({**CREDENTIALS, "credential_names": ["alice", "alice"]}).failures
    assert "listed twice" in failures["credential_names"]
    assert list(credentials.check({**CREDENTIALS, "credential_names": []}).failures) == ["credential_names"]
    with pytest.raises(grpc.RpcError) as info:
        credentials.up({**CREDENTIALS, "credential_names": ["ghost"]})
    assert "Credential with name (ghost) is not found in project!" in str(info.value.details())


def test_condition_create_update_delete(
    conditions: Engine, later: tuple[Engine, Engine], gateway: Gateway
) -> None:
    id_, outs = conditions.up(CONDITION)
    stored = lists(gateway)["condition"]["conditionRuleList"]
    assert stored[0]["firstVariable"]["headerName"] == "X-User-Type"
    either = {"condition_criteria": "OR", "condition_rule_list": [RULE, {**RULE, "second_value": "GOLD"}]}
    outs = conditions.update(id_, outs, conditions.checked({**CONDITION, "rules": [either]}))
    assert lists(gateway)["condition"]["conditionRuleList"][0]["conditionCriteria"] == "OR"
    later[1].delete(id_, outs)
    assert lists(gateway)["condition"] == {"conditionCriteria": "AND", "conditionRuleList": []}


def test_condition_check_names_the_rule_property(conditions: Engine) -> None:
    failures = conditions.check({**CONDITION, "rules": [{**RULE, "second_value": None}]}).failures
    assert list(failures) == ["rules.0.second_value"]


def test_a_deleted_rlcl_takes_its_lists_with_it(
    conditions: Engine, credentials: Engine, later: tuple[Engine, Engine], gateway: Gateway
) -> None:
    cred_id, cred_outs = credentials.up(CREDENTIALS)
    cond_id, cond_outs = conditions.up(CONDITION)
    emulator_http.delete(f"{gateway.url}/apiops/projects/Demo/rlcl/Standard/",
                 headers={"Authorization": f"Bearer {ADMIN_TOKEN}"}).raise_for_status()
    later[0].delete(cred_id, cred_outs)
    later[1].delete(cond_id, cond_outs)


def test_a_create_carried_out_whose_answers_were_lost_then_refused_is_sent_again(
        credentials: Engine, gateway: Gateway) -> None:
    """The first answer is lost after the list was written, the client's own repeat gets a 500 (which it
    never repeats): the list is on the gateway, so failing the step would leave it there unknown to the
    stack. A replace is harmless to repeat, so it is sent again until it is answered."""
    for rule in ({"drop": True, "after": True, "method": "PUT", "path": "/credentials", "count": 1},
                 {"status": 500, "method": "PUT", "path": "/credentials", "count": 1}):
        emulator_http.post(f"{gateway.url}/_emulator/faults", json=rule).raise_for_status()
    _, outs = credentials.up(CREDENTIALS)
    assert outs["credential_names"] == ["alice", "bob"]
    assert lists(gateway)["credentials"] == ["alice", "bob"]
