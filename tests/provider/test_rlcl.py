"""Rlcl (the RLCL itself) through the dynamic provider server, against a live emulator.

https://apinizer.github.io/management-api-docs/02-api-reference/12-rlcl/crud/
"""

from __future__ import annotations

from typing import Any

import grpc
import pytest

import _emulator_http as emulator_http
from apinizer_pulumi.models import RlclSpec
from apinizer_pulumi.resources import RlclProvider
from apinizer_pulumi.resources.testing import DIFF_NONE, DIFF_SOME, Engine, ProviderServer

from .conftest import Gateway
from .test_rlcl_endpoints import entry

GOLD: dict[str, Any] = {"project_name": "Demo", "name": "Gold", "description": "gold tier"}


@pytest.fixture
def lists(server: ProviderServer, emulator_url: str) -> Engine:
    return Engine(server, RlclProvider(), "Rlcl")


def stored(gateway: Gateway, name: str) -> dict[str, Any] | None:
    response = emulator_http.get(f"{gateway.url}/_emulator/projects/Demo/rlcl/{name}")
    return None if response.status_code == 404 else dict(response.json())


def test_create_makes_an_empty_rlcl_with_the_documented_defaults(lists: Engine, gateway: Gateway) -> None:
    gateway.reset_stats()
    id_, outs = lists.up(GOLD)
    assert id_ == "Demo/Gold"
    # The model's documented defaults are pinned in tests/unit; here: they reach the gateway.
    assert stored(gateway, "Gold") == RlclSpec(name="Gold", description="gold tier").to_api()
    assert outs["execution_order"] == "FIRST" and outs["adopt"] is False
    assert gateway.stats()["requests"] == {"POST /apiops/projects/{projectName}/rlcl/": 1}


def test_check_names_bad_fields(lists: Engine) -> None:
    failures = lists.check({**GOLD, "execution_order": "MIDDLE", "cache_connection_timeout_in_seconds": 0,
                            "target_variable": {"name": "v", "type": "CUSTOM"}}).failures
    assert set(failures) == {"execution_order", "cache_connection_timeout_in_seconds",
                             "target_variable.script_language", "target_variable.script_body"}


def test_update_in_place_and_replace_on_rename(lists: Engine, gateway: Gateway) -> None:
    id_, outs = lists.up(GOLD)
    assert lists.diff(id_, outs, lists.checked(GOLD)).changes == DIFF_NONE

    ip = {"name": "ip", "type": "CONTEXT_VALUES", "context_value": "REQUEST_REMOTE_ADDRESS"}
    news = lists.checked(
        {**GOLD, "enabled": False, "time_interval_window_type": "SLIDING", "target_variable": ip}
    )
    diff = lists.diff(id_, outs, news)
    assert diff.changes == DIFF_SOME and list(diff.replaces) == []
    outs = lists.update(id_, outs, news)
    live = stored(gateway, "Gold")
    assert live is not None
    assert (live["enabled"], live["timeIntervalWindowType"]) == (False, "SLIDING")
    assert live["targetVariable"]["contextValue"] == "REQUEST_REMOTE_ADDRESS"
    assert outs["target_variable"]["context_value"] == "REQUEST_REMOTE_ADDRESS"

    renamed = lists.checked({**GOLD, "name": "Platinum"})
    assert list(lists.diff(id_, outs, renamed).replaces) == ["name"]


def test_an_existing_rlcl_needs_adopt(lists: Engine, gateway: Gateway) -> None:
    with pytest.raises(grpc.RpcError) as info:
        lists.up({"project_name": "Demo", "name": "Standard"})
    assert "already exists" in str(info.value.details()) and "adopt=True" in str(info.value.details())

    id_, _ = lists.up({"project_name": "Demo", "name": "Standard", "adopt": True, "enabled": False})
    assert id_ == "Demo/Standard"
    live = stored(gateway, "Standard")
    assert live is not None and live["enabled"] is False


def test_refresh_keeps_the_recorded_state(lists: Engine, gateway: Gateway) -> None:
    id_, outs = lists.up(GOLD)
    gateway.reset_stats()
    assert lists.read(id_, outs) == (id_, outs, None)
    assert gateway.stats()["total"] == 0


def test_delete_removes_the_rlcl_and_tolerates_it_gone(lists: Engine, gateway: Gateway) -> None:
    id_, outs = lists.up(GOLD)
    lists.delete(id_, outs)
    assert stored(gateway, "Gold") is None
    lists.delete(id_, outs)  # deleted already: destroy passes


def test_rlcl_endpoints_can_fill_a_new_rlcl_and_go_with_it(
    lists: Engine, rlcls: Engine, gateway: Gateway
) -> None:
    # As a program runs it: the Rlcl first, then the RlclEndpoints that names it.
    list_id, list_outs = lists.up(GOLD)
    entries_id, entries_outs = rlcls.up(
        {"project_name": "Demo", "rlcl_name": list_outs["name"], "endpoints": [entry("/pets")]}
    )
    assert [e["endpointName"] for e in gateway.rlcl("Demo", "Gold")] == ["/pets"]
    # Destroy goes in reverse order; the list's delete after the RLCL's is harmless too.
    lists.delete(list_id, list_outs)
    rlcls.delete(entries_id, entries_outs)
    assert stored(gateway, "Gold") is None


def test_each_identifier_replaces_and_nothing_else_does(lists: Engine, gateway: Gateway) -> None:
    id_, outs = lists.up(GOLD)
    for field, value in (("project_name", "Other"), ("name", "Premium")):
        diff = lists.diff(id_, outs, lists.checked({**GOLD, field: value}))
        assert list(diff.replaces) == [field] and diff.deleteBeforeReplace is False
    # adopt says how to take over, a connection how to reach: neither is a change.
    for news in ({**GOLD, "adopt": True},
                 {**GOLD, "connection": {"url": gateway.url, "token": "dev-developer-token"}}):
        assert lists.diff(id_, outs, lists.checked(news)).changes == DIFF_NONE


def test_a_refused_token_is_never_echoed(lists: Engine, gateway: Gateway) -> None:
    secret = "not-a-valid-token-4f1c"
    with pytest.raises(grpc.RpcError) as info:
        lists.up({**GOLD, "connection": {"url": gateway.url, "token": secret}})
    details = str(info.value.details())
    assert "apinizer:Rlcl Gold in Demo: 401 unauthorized_client: Invalid token" in details
    assert secret not in details


RLCL_CREATE = "POST /apiops/projects/{projectName}/rlcl/"


def rlcl_fault(gateway: Gateway, **rule: Any) -> None:
    rule = {"retry_after": 0.01, **rule}
    emulator_http.post(f"{gateway.url}/_emulator/faults", json=rule).raise_for_status()


@pytest.mark.parametrize(
    "lost",
    [{"status": 502, "after": True}, {"status": 504, "after": True}, {"drop": True, "after": True}],
    ids=["502 after the create", "504 after the create", "connection dropped after the create"],
)
def test_an_rlcl_create_whose_answer_was_lost_is_this_resources(
    lists: Engine, gateway: Gateway, lost: dict[str, Any]
) -> None:
    rlcl_fault(gateway, method="POST", path="/rlcl/", count=1, **lost)

    id_, outs = lists.up(GOLD)

    assert id_ == "Demo/Gold" and outs["description"] == "gold tier"
    assert stored(gateway, "Gold") == RlclSpec(name="Gold", description="gold tier").to_api()
    # The API cannot read an RLCL: the repeat's "already exists" is what recognises it.
    assert gateway.stats()["requests"][RLCL_CREATE] == 2
    # And the next `up` sees nothing to do: no "already exists ... set adopt=True".
    assert lists.diff(id_, outs, lists.checked(GOLD)).changes == DIFF_NONE


def test_an_rlcl_create_that_never_arrived_is_sent_again(lists: Engine, gateway: Gateway) -> None:
    rlcl_fault(gateway, method="POST", path="/rlcl/", count=1, status=503)

    lists.up(GOLD)

    assert stored(gateway, "Gold") is not None
    assert gateway.stats()["requests"][RLCL_CREATE] == 2


def test_an_rlcl_that_existed_before_is_refused_even_when_answers_are_lost(
    lists: Engine, gateway: Gateway
) -> None:
    # The first answer is a definite "already exists": no lost answer, so no taking over.
    with pytest.raises(grpc.RpcError) as info:
        lists.up({"project_name": "Demo", "name": "Premium"})
    assert "already exists" in str(info.value.details()) and "adopt=True" in str(info.value.details())


def test_an_rlcl_create_whose_outcome_stays_unknown_fails_and_says_what_to_do(
    lists: Engine, gateway: Gateway
) -> None:
    # Eight sends: without a look-up, giving up may leave an RLCL that the stack does not know, so a
    # create that cannot look keeps sending longer than one that can (four sends).
    rlcl_fault(gateway, method="POST", path="/rlcl/", count=8, status=503)

    with pytest.raises(grpc.RpcError) as info:
        lists.up(GOLD)

    message = str(info.value.details()).strip().splitlines()[-1]
    assert message.startswith(
        "apinizer:Rlcl Gold in Demo: the gateway never confirmed the create in 8 attempts"
    )
    assert "set adopt=True" in message
    assert gateway.stats()["requests"][RLCL_CREATE] == 8


def test_a_forced_replace_of_an_adopting_rlcl_keeps_it(lists: Engine, gateway: Gateway) -> None:
    # `pulumi up --replace` in Pulumi's create-first order: the new resource's create, then the old
    # one's delete, of the same RLCL, in one operation (one provider process).
    silver = {"project_name": "Demo", "name": "Silver", "description": "silver tier"}
    old_id, old_outs = lists.up(silver)

    new_id, _ = lists.up({**silver, "adopt": True}, name="replacement")
    lists.delete(old_id, old_outs)

    assert new_id == old_id
    assert stored(gateway, "Silver") is not None, "the old resource's delete removed what the new one holds"
