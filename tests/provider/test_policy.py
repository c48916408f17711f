"""Policy through the dynamic provider server, against a live emulator: check, order, replace, drift."""

from __future__ import annotations

from collections.abc import Iterator
from typing import Any

import grpc
import pytest

import _emulator_http as emulator_http
from apinizer_pulumi.client import ApinizerClient
from apinizer_pulumi.resources import PolicyProvider
from apinizer_pulumi.resources.policy import find_policy, pipelines
from apinizer_pulumi.resources.testing import DIFF_NONE, DIFF_SOME, UNKNOWN, Engine, ProviderServer

from ._fork_server import ForkedProviderServer
from .conftest import ADMIN_TOKEN, Gateway

PROXY = "Orders"
LIST = "/apiops/projects/{projectName}/apiProxies/{apiProxyName}/policies/"
ONE = "/apiops/projects/{projectName}/apiProxies/{apiProxyName}/policies/{policyName}/"


@pytest.fixture
def policies(server: ProviderServer, emulator_url: str) -> Engine:
    return Engine(server, PolicyProvider(), "Policy")


@pytest.fixture
def later(emulator_url: str) -> Iterator[Engine]:
    """The engine of another Pulumi operation (a new provider process, knowing no declared order)."""
    config = {"apinizer:url": emulator_url, "apinizer:token": ADMIN_TOKEN}
    with ForkedProviderServer(config, env={"APINIZER_SKIP_CONNECTION_CHECK": "1",
                                     "APINIZER_READ_CACHE_TTL": "0"}) as server:
        yield Engine(server, PolicyProvider(), "Policy")


def throttle(name: str = "throttle", **extra: Any) -> dict[str, Any]:
    return {"project_name": "Demo", "api_proxy_name": PROXY, "name": name,
            "policy_type": "policy-api-based-throttling", "pipeline": "REQUEST",
            "settings": {"target_variable_for_identity": {"type": "HEADER", "header_name": "X-Key"},
                         "message_count_for_interval": 100, "throttling_interval": "ONE_MINUTE"},
            **extra}


def white_ip(name: str, order: int | None = None, **extra: Any) -> dict[str, Any]:
    props: dict[str, Any] = {"project_name": "Demo", "api_proxy_name": PROXY, "name": name,
                             "policy_type": "policy-white-ip", "pipeline": "REQUEST",
                             "settings": {"ip_list": ["10.0.0.0/8"]}, **extra}
    if order is not None:
        props["order"] = order
    return props


def script(name: str, order: int | None = None, **extra: Any) -> dict[str, Any]:
    props: dict[str, Any] = {"project_name": "Demo", "api_proxy_name": PROXY, "name": name,
                             "policy_type": "policy-script", "pipeline": "REQUEST",
                             "settings": {"script_language": "GROOVY", "script_body": "return"}, **extra}
    if order is not None:
        props["order"] = order
    return props


def request_names(client: ApinizerClient, proxy: str = PROXY) -> list[str]:
    live = client.policies.list("Demo", proxy)
    return [str(entry.name) for entry in pipelines(live)[(("ALL", None, None), "REQUEST")]]


def requests(gateway: Gateway) -> dict[str, int]:
    counts: dict[str, int] = gateway.stats()["requests"]
    return counts


def last_line(failure: pytest.ExceptionInfo[grpc.RpcError]) -> str:
    return str(failure.value.details()).strip().splitlines()[-1]


# -- check ---------------------------------------------------------------------------------------


def test_check_names_each_bad_property(policies: Engine) -> None:
    bad = throttle(target_scope="ENDPOINT", condition={"condition_rule_list": [{
        "condition_criteria": "VALUE", "first_variable": {"type": "HEADER", "header_name": "X-Tier"},
        "variable_data_type": "STRING", "value_comparison_operator": "EQ", "second_value_source": "VALUE"}]})
    bad["settings"] = {**bad["settings"], "throttling_interval": "ONE_WEEK", "ip_lists": ["1.2.3.4"]}
    del bad["settings"]["message_count_for_interval"]

    failures = policies.check(bad).failures

    assert set(failures) == {"settings.throttling_interval", "settings.message_count_for_interval",
                             "settings.ip_lists", "target_endpoint", "target_endpoint_http_method",
                             "condition.condition_rule_list[0].second_value"}, failures
    assert "ONE_MINUTE" in failures["settings.throttling_interval"]
    assert failures["settings.ip_lists"] == "unknown property"


def test_a_nested_failure_names_its_value_for_the_engine(policies: Engine) -> None:
    """The engine prints a failure's value by looking its property up among the top-level inputs, so
    a nested one would print ``{<nil>}``: it goes without a property, its reason naming path and value."""
    from pulumi.runtime.proto import provider_pb2

    bad = throttle()
    bad["settings"] = {**bad["settings"], "throttling_interval": "ONE_WEEK"}
    response = policies.stub.Check(provider_pb2.CheckRequest(
        urn=policies.urn("r"), olds=policies._props({}), news=policies._props(bad)))
    sent = [(failure.property, failure.reason) for failure in response.failures]
    assert sent == [("", "settings.throttling_interval is 'ONE_WEEK': Input should be 'ONE_SECOND', "
                         "'ONE_MINUTE', 'ONE_HOUR' or 'ONE_DAY'")], sent
    # A top-level failure keeps its property: the engine finds its value.
    later = {**throttle(), "pipeline": "LATER"}
    response = policies.stub.Check(provider_pb2.CheckRequest(
        urn=policies.urn("r"), olds=policies._props({}), news=policies._props(later)))
    assert [failure.property for failure in response.failures] == ["pipeline"]


def test_check_names_an_unknown_type_and_a_bad_pipeline(policies: Engine) -> None:
    failures = policies.check({**white_ip("x"), "policy_type": "policy-nope", "pipeline": "LATER"}).failures
    assert "policy-white-ip" in failures["policy_type"] and "pipeline" in failures


def test_check_skips_what_is_not_known_yet_and_fills_the_types_defaults(policies: Engine) -> None:
    pending = throttle(target_scope="ENDPOINT", target_endpoint=UNKNOWN, target_endpoint_http_method="GET")
    pending["settings"]["message_count_for_interval"] = UNKNOWN
    assert policies.check(pending).failures == {}

    inputs = policies.checked(throttle())
    assert inputs["settings"]["interval_window_type"] == "FIXED"
    assert inputs["settings"]["cache_error_handling_type"] == "FAIL"
    assert inputs["target_scope"] == "ALL" and inputs["active"] is True


def test_a_type_the_gateway_manages_is_refused_unless_adopted(policies: Engine) -> None:
    declared = {"project_name": "Demo", "api_proxy_name": PROXY, "name": "soap2rest",
                "policy_type": "policy-request-protocol-transformation", "pipeline": "REQUEST",
                "settings": {}}
    failures = policies.check(declared).failures
    assert "cannot be added through the API" in failures["policy_type"]
    assert "policy_type" not in policies.check({**declared, "adopt": True}).failures


def test_two_policies_of_one_name_in_one_proxy_are_refused(policies: Engine) -> None:
    assert policies.check(white_ip("dup"), name="first").failures == {}
    failures = policies.check(script("dup"), name="second").failures
    assert any("manage the same gateway object" in reason for reason in failures.values())


# -- lifecycle -----------------------------------------------------------------------------------


def test_create_update_in_place_and_delete(
        policies: Engine, later: Engine, client: ApinizerClient, gateway: Gateway) -> None:
    id_, outs = policies.up(throttle(order=1, description="100 a minute"))
    assert id_ == f"Demo/{PROXY}/throttle" and outs["position"] == 1
    found = find_policy(client.policies.list("Demo", PROXY), "throttle")
    assert found is not None and found.policy.message_count_for_interval == 100
    assert found.policy.description == "100 a minute"

    news = policies.checked(throttle(order=1, description="200 a minute"))
    news["settings"]["message_count_for_interval"] = 200
    diff = policies.diff(id_, outs, news)
    assert diff.changes == DIFF_SOME and list(diff.replaces) == []
    gateway.reset_stats()
    outs = policies.update(id_, outs, news)
    assert requests(gateway).get(f"PUT {ONE}") == 1 and f"POST {ONE}" not in requests(gateway)
    found = find_policy(client.policies.list("Demo", PROXY), "throttle")
    assert found is not None and found.policy.message_count_for_interval == 200

    # Destroy is another operation (a create of this one claims the object for a replace: _replace).
    later.delete(id_, outs)
    assert find_policy(client.policies.list("Demo", PROXY), "throttle") is None
    later.delete(id_, outs)  # already gone: nothing to do


def test_creates_in_any_order_end_in_the_declared_order(
        policies: Engine, client: ApinizerClient) -> None:
    declared = [white_ip("first", 1), script("second", 2), white_ip("third", 3), script("fourth", 4)]
    checked = [policies.checked(props) for props in declared]  # the engine checks every resource
    for index in (3, 1, 2, 0):
        policies.create(checked[index], name=declared[index]["name"])
    assert request_names(client) == ["first", "second", "third", "fourth"]


def test_creates_sent_side_by_side_end_in_the_declared_order(
        policies: Engine, client: ApinizerClient) -> None:
    declared = [white_ip(f"p{index}", index) for index in range(1, 7)]
    checked = [policies.checked(props) for props in declared]
    futures = [policies.create_future(props, props["name"]) for props in reversed(checked)]
    for future in futures:
        future.result()
    assert request_names(client) == [f"p{index}" for index in range(1, 7)]


def test_order_is_kept_across_ups_and_replaces(
        policies: Engine, later: Engine, client: ApinizerClient) -> None:
    a_id, a_outs = policies.up(white_ip("a", 1), name="a")
    b_id, b_outs = policies.up(script("b", 2), name="b")
    assert request_names(client) == ["a", "b"]

    # Another up, with nothing changed: no diff, nothing moves.
    for id_, outs, props in ((a_id, a_outs, white_ip("a", 1)), (b_id, b_outs, script("b", 2))):
        assert later.diff(id_, outs, later.checked(props)).changes == DIFF_NONE

    # A renamed first policy: replaced, the new one made first, in front of the old one.
    renamed = later.checked(white_ip("a2", 1))
    diff = later.diff(a_id, a_outs, renamed, name="a")
    assert list(diff.replaces) == ["name"] and not diff.deleteBeforeReplace
    later.checked(script("b", 2))
    a_id, a_outs = later.create(renamed, name="a")
    later.delete(f"Demo/{PROXY}/a", a_outs | {"name": "a"}, name="a")
    assert request_names(client) == ["a2", "b"]

    # A second policy whose type changes: the old one goes first (same name), the new one at order 2.
    retyped = later.checked(white_ip("b", 2))
    diff = later.diff(b_id, b_outs, retyped, name="b")
    assert "policy_type" in diff.replaces and diff.deleteBeforeReplace
    later.delete(b_id, b_outs, name="b")
    b_id, b_outs = later.create(retyped, name="b")
    assert request_names(client) == ["a2", "b"]
    assert find_policy(client.policies.list("Demo", PROXY), "b").policy.type == "policy-white-ip"  # type: ignore[union-attr]


def test_a_changed_order_moves_the_policy_with_one_update(
        policies: Engine, client: ApinizerClient, gateway: Gateway) -> None:
    ids = {}
    for index, name in enumerate(("x", "y", "z"), start=1):
        ids[name] = policies.up(white_ip(name, index), name=name)
    gateway.reset_stats()
    id_, outs = ids["z"]
    news = policies.checked(white_ip("z", 1))
    policies.checked(white_ip("x", 2))
    policies.checked(white_ip("y", 3))
    policies.update(id_, outs, news, name="z")
    assert request_names(client) == ["z", "x", "y"]
    counts = requests(gateway)
    assert counts.get(f"PUT {ONE}") == 1 and f"POST {ONE}" not in counts


def test_refresh_shows_drift_from_the_console_and_up_repairs_it(
        policies: Engine, later: Engine, client: ApinizerClient) -> None:
    a_id, a_outs = policies.up(throttle(order=1), name="t")
    b_id, b_outs = policies.up(white_ip("w", 2), name="w")
    # In the console: the throttle's limit changed and disabled, and it is moved behind the other.
    live = find_policy(client.policies.list("Demo", PROXY), "throttle")
    assert live is not None
    changed = live.policy.model_copy(update={"message_count_for_interval": 5, "active": False})
    client.policies.update("Demo", PROXY, "throttle", changed,
                           {"target_scope": "ALL", "target_pipeline": "REQUEST", "deploy": False, "order": 2})
    assert request_names(client) == ["w", "throttle"]

    read_id, read_outs, read_inputs = later.read(a_id, a_outs, name="t")
    assert read_id == a_id and read_inputs is not None
    assert read_inputs["settings"]["message_count_for_interval"] == 5
    assert read_inputs["active"] is False and read_inputs["order"] == 2 and read_outs["position"] == 2
    declared = later.checked(throttle(order=1))
    later.checked(white_ip("w", 2))
    diff = later.diff(a_id, read_outs, declared, name="t")
    assert diff.changes == DIFF_SOME and list(diff.replaces) == []
    later.update(a_id, read_outs, declared, name="t")
    assert request_names(client) == ["throttle", "w"]
    repaired = find_policy(client.policies.list("Demo", PROXY), "throttle")
    assert repaired is not None and repaired.policy.active is True
    assert repaired.policy.message_count_for_interval == 100

    # Deleted in the console: refresh drops it from the state.
    client.policies.delete("Demo", PROXY, "w", metadata={"target_scope": "ALL", "target_pipeline": "REQUEST",
                                                          "deploy": False})
    gone_id, _, _ = later.read(b_id, b_outs, name="w")
    assert gone_id == ""


def test_a_refresh_reads_each_proxys_policy_list_once(
        policies: Engine, emulator_url: str, gateway: Gateway) -> None:
    created = [policies.up(white_ip(f"r{index}", index), name=f"r{index}") for index in range(1, 9)]
    gateway.reset_stats()
    # A refresh's provider process, with the list cache's own lifetime: the server runs four reads
    # at once (a refresh sends no check or write), so the later ones take the list the first ones shared.
    config = {"apinizer:url": emulator_url, "apinizer:token": ADMIN_TOKEN}
    with ForkedProviderServer(config, env={"APINIZER_SKIP_CONNECTION_CHECK": "1"}) as server:
        refresh = Engine(server, PolicyProvider(), "Policy")
        futures = [refresh.read_future(id_, outs, name=outs["name"]) for id_, outs in created]
        for future in futures:
            assert future.result().id
    counts = requests(gateway)
    assert counts.get(f"GET {LIST}") == 1, counts


def test_an_existing_policy_is_refused_unless_adopted(
        policies: Engine, client: ApinizerClient) -> None:
    client.policies.add("Demo", PROXY, "front", {"type": "policy-white-ip", "ip_list": ["1.1.1.1"]},
                        {"target_scope": "ALL", "target_pipeline": "REQUEST", "deploy": False})
    client.policies.add("Demo", PROXY, "old", {"type": "policy-script", "script_language": "GROOVY",
                                               "script_body": "x"},
                        {"target_scope": "ALL", "target_pipeline": "REQUEST", "deploy": False})
    assert request_names(client) == ["front", "old"]
    with pytest.raises(grpc.RpcError) as failure:
        policies.up(script("old", 1))
    assert "already exist" in last_line(failure) and "adopt=True" in last_line(failure)

    _, outs = policies.up(script("old", 1, adopt=True, description="taken over"))
    assert request_names(client) == ["old", "front"] and outs["position"] == 1

    with pytest.raises(grpc.RpcError) as failure:
        policies.up(white_ip("old", adopt=True), name="other-type")
    assert "policy-script" in last_line(failure)


def test_endpoint_scoped_policy_lives_in_the_endpoints_pipeline(
        policies: Engine, later: Engine, client: ApinizerClient) -> None:
    endpoint = next(iter(client.endpoints.list("Demo", PROXY)))
    props = script("per-endpoint", 1, target_scope="ENDPOINT", target_endpoint=endpoint.endpoint,
                   target_endpoint_http_method=endpoint.http_method.value, pipeline="RESPONSE")
    id_, outs = policies.up(props)
    found = find_policy(client.policies.list("Demo", PROXY), "per-endpoint")
    assert found is not None and found.target == ("ENDPOINT", endpoint.endpoint, endpoint.http_method.value)
    assert found.pipeline == "RESPONSE"
    later.delete(id_, outs)
    assert find_policy(client.policies.list("Demo", PROXY), "per-endpoint") is None


def test_a_create_whose_answer_was_lost_is_recognised_not_repeated(
        policies: Engine, client: ApinizerClient, gateway: Gateway) -> None:
    emulator_http.post(f"{gateway.url}/_emulator/faults",
               json={"method": "POST", "path": "/policies/", "count": 1, "drop": True, "after": True}
               ).raise_for_status()
    id_, _ = policies.up(white_ip("lost", 1))
    assert id_ == f"Demo/{PROXY}/lost" and request_names(client) == ["lost"]
    assert requests(gateway).get(f"POST {ONE}") == 1


# -- deployment ----------------------------------------------------------------------------------


def _deployments(client: ApinizerClient) -> dict[str, tuple[bool, bool]]:
    live = client.api_proxies.get("Demo", PROXY)
    return {line.environment_name: (line.deployed, line.redeploy_required) for line in live.deployment_list}


def test_a_policy_change_reaches_only_the_environments_named(
        policies: Engine, client: ApinizerClient) -> None:
    client.api_proxies.deploy("Demo", PROXY, "test")
    client.api_proxies.deploy("Demo", PROXY, "production")
    assert _deployments(client) == {"test": (True, False), "production": (True, False)}

    policies.up(white_ip("not-deployed", 1), name="a")
    assert _deployments(client) == {"test": (True, True), "production": (True, True)}

    client.api_proxies.deploy("Demo", PROXY, "test")
    client.api_proxies.deploy("Demo", PROXY, "production")
    policies.up(white_ip("to-test", 2, deploy_to=["test"]), name="b")
    assert _deployments(client) == {"test": (True, False), "production": (True, True)}


def test_the_revision_is_the_same_after_a_refresh_and_changes_with_the_policy(
        policies: Engine, later: Engine) -> None:
    id_, outs = policies.up(throttle(order=1))
    _, read_outs, read_inputs = later.read(id_, outs)
    assert read_outs["revision"] == outs["revision"]  # no drift, no redeploy of a deployment triggered by it
    assert read_inputs is None  # and the engine keeps the recorded inputs
    news = later.checked(throttle(order=1))
    news["settings"]["message_count_for_interval"] = 7
    assert later.update(id_, read_outs, news)["revision"] != outs["revision"]
