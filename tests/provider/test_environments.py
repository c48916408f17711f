"""One management API, several environments: the environment check at preview and promotion
(``promote_from``), through the dynamic provider server, against a live emulator (docs/stacks.md)."""

from __future__ import annotations

from collections.abc import Callable, Iterator
from concurrent.futures import ThreadPoolExecutor
from contextlib import contextmanager
from pathlib import Path
from typing import Any, TypeVar

import grpc
import pytest

import _emulator_http as emulator_http
from _draft_environment import draft_staging, publish_staging
from apinizer_pulumi.client import ApinizerClient
from apinizer_pulumi.resources import (
    ApiProxyDeploymentProvider,
    ApiProxyGroupDeploymentProvider,
    ApiProxyGroupProvider,
    ApiProxyProvider,
    EnvironmentVariableProvider,
    EnvironmentVariableValueProvider,
    IpGroupProvider,
)
from apinizer_pulumi.resources.api_proxy import spec_inputs
from apinizer_pulumi.resources.testing import DIFF_NONE, DIFF_SOME, Engine, ProviderServer

from ._fork_server import ForkedProviderServer
from .conftest import ADMIN_TOKEN, Gateway

R = TypeVar("R")
PETSTORE = Path(__file__).parent.parent / "emulator" / "specs" / "petstore-openapi.yaml"
ENVIRONMENTS = "GET /apiops/environments/{projectName}"
TO_TEST = {"project_name": "Demo", "api_proxy_name": "Shop", "environment_name": "test"}
PROMOTED = {"project_name": "Demo", "api_proxy_name": "Shop", "environment_name": "production",
            "promote_from": "test"}


@contextmanager
def preview_process(emulator_url: str) -> Iterator[ProviderServer]:
    """The provider process of one `pulumi preview`, whose checks may read the gateway: a new one for
    each preview, as the engine starts (reads are shared within a process, and the environment list
    is read once per process)."""
    config = {"apinizer:url": emulator_url, "apinizer:token": ADMIN_TOKEN}
    with ForkedProviderServer(config) as server:
        yield server


@pytest.fixture
def later(emulator_url: str) -> Iterator[ProviderServer]:
    """The provider process of another stack's operation on the same management API."""
    config = {"apinizer:url": emulator_url, "apinizer:token": ADMIN_TOKEN}
    with ForkedProviderServer(config, env={"APINIZER_SKIP_CONNECTION_CHECK": "1",
                                     "APINIZER_READ_CACHE_TTL": "0"}) as server:
        yield server


@pytest.fixture
def previewing(emulator_url: str) -> Iterator[ProviderServer]:
    with preview_process(emulator_url) as server:
        yield server


def previewed(emulator_url: str, step: Callable[[Engine], R], provider: Any = None) -> R:
    """``step`` run by a new preview's engine of ``provider`` (an ``ApiProxyDeployment`` by default)."""
    with preview_process(emulator_url) as server:
        chosen = provider or ApiProxyDeploymentProvider()
        return step(Engine(server, chosen, chosen.kind))


def shop() -> dict[str, Any]:
    return {"project_name": "Demo", "name": "Shop", "spec_type": "OPEN_API", **spec_inputs(PETSTORE),
            "routing": {"addresses": [{"address": "http://shop.backend:8080", "weight": 100}]},
            "client_route": {"relative_paths": ["/shop"]}}


def test_an_unknown_environment_fails_at_check_listing_the_valid_ones_with_one_read(
        previewing: ProviderServer, gateway: Gateway) -> None:
    deployments = Engine(previewing, ApiProxyDeploymentProvider(), "ApiProxyDeployment")
    groups = Engine(previewing, ApiProxyGroupDeploymentProvider(), "ApiProxyGroupDeployment")
    gateway.reset_stats()

    wrong = deployments.check({**TO_TEST, "environment_name": "prod"}, name="a")
    wrong_source = deployments.check({**PROMOTED, "promote_from": "tset"}, name="b")
    group = groups.check({"project_name": "Demo", "api_proxy_group_name": "G", "environment_name": "stage"},
                         name="c")
    right = deployments.check(TO_TEST, name="d")

    assert wrong.failures == {"environment_name": (
        f"environment 'prod' does not exist in project 'Demo' on {gateway.url}; "
        "its environments are: production, test")}
    assert list(wrong_source.failures) == ["promote_from"]
    assert "'tset' does not exist" in wrong_source.failures["promote_from"]
    assert list(group.failures) == ["environment_name"]
    assert right.failures == {}
    assert gateway.stats()["requests"].get(ENVIRONMENTS) == 1


def test_a_value_for_an_unknown_environment_fails_at_check_sharing_the_one_read(
        previewing: ProviderServer, gateway: Gateway) -> None:
    values_ = Engine(previewing, EnvironmentVariableValueProvider(), "EnvironmentVariableValue")
    deployments = Engine(previewing, ApiProxyDeploymentProvider(), "ApiProxyDeployment")
    gateway.reset_stats()

    wrong = values_.check(value_of("prod", "https://orders.example"), name="a")
    right = values_.check(value_of("production", "https://orders.example"), name="b")
    deployment = deployments.check(TO_TEST, name="c")

    assert wrong.failures == {"environment_name": (
        f"environment 'prod' does not exist in project 'Demo' on {gateway.url}; "
        "its environments are: production, test")}
    assert right.failures == {} and deployment.failures == {}
    assert gateway.stats()["requests"].get(ENVIRONMENTS) == 1, "one read for every check of the process"


def test_a_failed_read_of_the_environments_is_read_again_by_the_next_check(
        previewing: ProviderServer, gateway: Gateway) -> None:
    """A read that failed (a 500 here) says nothing of the environments: it is not kept, so that one
    failure does not skip the check for every later preview of the process. A refusal (403: this
    account may not read the list) is kept: asking again would get the same answer."""
    deployments = Engine(previewing, ApiProxyDeploymentProvider(), "ApiProxyDeployment")
    gateway.reset_stats()
    fault(gateway, method="GET", path="/apiops/environments/", status=500)

    first = deployments.check({**TO_TEST, "environment_name": "prod"}, name="a")
    assert first.failures == {}, "the failed read skips this check only"
    second = deployments.check({**TO_TEST, "environment_name": "prd"}, name="b")
    assert list(second.failures) == ["environment_name"]
    assert gateway.stats()["requests"].get(ENVIRONMENTS) == 2


def test_a_refused_read_of_the_environments_is_kept_for_the_process(
        previewing: ProviderServer, gateway: Gateway) -> None:
    deployments = Engine(previewing, ApiProxyDeploymentProvider(), "ApiProxyDeployment")
    gateway.reset_stats()
    fault(gateway, method="GET", path="/apiops/environments/", status=403)

    assert deployments.check({**TO_TEST, "environment_name": "prod"}, name="a").failures == {}
    second = deployments.check({**TO_TEST, "environment_name": "prd"}, name="b")
    assert second.failures == {}, "the deploy at up decides, as documented"
    assert gateway.stats()["requests"].get(ENVIRONMENTS) == 1


def test_the_environment_check_is_skipped_with_the_connection_check(
        emulator_url: str, gateway: Gateway) -> None:
    config = {"apinizer:url": emulator_url, "apinizer:token": ADMIN_TOKEN,
              "apinizer:skipConnectionCheck": "true"}
    with ForkedProviderServer(config) as server:
        gateway.reset_stats()
        checked = Engine(server, ApiProxyDeploymentProvider(), "ApiProxyDeployment").check(
            {**TO_TEST, "environment_name": "prod"})
    assert checked.failures == {} and gateway.stats()["total"] == 0


def test_promote_from_its_own_environment_is_a_check_failure(previewing: ProviderServer) -> None:
    checked = Engine(previewing, ApiProxyDeploymentProvider(), "ApiProxyDeployment").check(
        {**PROMOTED, "promote_from": "production"})
    assert "names the environment this deploys to" in checked.failures["promote_from"]


def test_promotion_is_refused_at_preview_and_up_until_test_runs_the_current_configuration(
        emulator_url: str, server: ProviderServer, client: ApinizerClient) -> None:
    up = Engine(server, ApiProxyDeploymentProvider(), "ApiProxyDeployment")  # no reads at check
    Engine(server, ApiProxyProvider(), "ApiProxy").up(shop())

    def check(engine: Engine) -> dict[str, str]:
        return engine.check(PROMOTED).failures

    # Never deployed to test: nothing tested to promote, said at preview (check of a new resource).
    assert previewed(emulator_url, check) == {"promote_from": (
        "apinizer:ApiProxyDeployment Shop in Demo to production: promote_from='test': API proxy 'Shop' "
        "is not deployed to 'test', so there is nothing tested to promote; deploy it to 'test' first "
        "(`pulumi up` of the stack that deploys there)")}

    # Deployed to test, then changed: test does not run the configuration; `up` refuses too.
    up.up(TO_TEST, name="to-test")
    client.api_proxies.set_client_route("Demo", "Shop", {"relative_path_list": ["/v2"]})
    assert "has changed since it was deployed to 'test'" in previewed(emulator_url, check)["promote_from"]
    with pytest.raises(grpc.RpcError) as failed:
        up.up(PROMOTED, name="to-production")
    assert "redeployRequired" in str(failed.value.details())
    line = client.api_proxies.get("Demo", "Shop").deployment("production")
    assert line is None or not line.deployed

    # Test deployed again (and tested): promotion goes ahead.
    client.api_proxies.deploy("Demo", "Shop", "test")
    assert previewed(emulator_url, check) == {}
    id_, outs = up.up(PROMOTED, name="to-production")
    line = client.api_proxies.get("Demo", "Shop").deployment("production")
    assert line is not None and line.deployed and not line.redeploy_required

    def diff(engine: Engine) -> Any:
        # An existing resource is checked with its old inputs: its promotion is diff's to check.
        checked = engine.check(PROMOTED, olds=PROMOTED)
        assert checked.failures == {}
        return engine.diff(id_, outs, checked.inputs).changes

    # In sync: nothing to do.
    assert previewed(emulator_url, diff) == DIFF_NONE
    # Changed again (by the stack that owns the proxy, say): production is behind, and a promotion's
    # diff deploys again, but not while test does not run that configuration.
    client.api_proxies.set_client_route("Demo", "Shop", {"relative_path_list": ["/v3"]})
    with pytest.raises(grpc.RpcError) as failed:
        previewed(emulator_url, diff)
    assert "has changed since it was deployed to 'test'" in str(failed.value.details())
    client.api_proxies.deploy("Demo", "Shop", "test")
    assert previewed(emulator_url, diff) == DIFF_SOME
    up.update(id_, outs, up.checked(PROMOTED))
    line = client.api_proxies.get("Demo", "Shop").deployment("production")
    assert line is not None and line.deployed and not line.redeploy_required


def test_a_group_is_promoted_only_once_deployed_to_the_source(
        emulator_url: str, server: ProviderServer, client: ApinizerClient) -> None:
    group = {"project_name": "Demo", "name": "Payments", "client_route": {"relative_paths": ["/pay"]},
             "api_proxy_names": ["Orders"]}
    Engine(server, ApiProxyGroupProvider(), "ApiProxyGroup").up(group)
    promoted = {"project_name": "Demo", "api_proxy_group_name": "Payments", "environment_name": "production",
                "promote_from": "test"}
    up = Engine(server, ApiProxyGroupDeploymentProvider(), "ApiProxyGroupDeployment")

    refused = previewed(emulator_url, lambda engine: engine.check(promoted),
                        ApiProxyGroupDeploymentProvider())
    assert "API proxy group 'Payments' is not deployed to 'test'" in refused.failures["promote_from"]
    with pytest.raises(grpc.RpcError):
        up.up(promoted, name="to-production")

    up.up({**promoted, "environment_name": "test", "promote_from": None}, name="to-test")
    up.up(promoted, name="to-production")
    listed = client.api_proxy_groups.environments("Demo", "Payments")
    deployed = {item.environment_name for item in listed if item.deployed}
    assert deployed == {"test", "production"}


@pytest.mark.parametrize(("provider", "inputs"), [
    (ApiProxyProvider(), {**shop(), "name": "PetStore"}),
    (IpGroupProvider(), {"project_name": "Demo", "name": "Offices", "addresses": ["10.0.0.0/8"]}),
    (EnvironmentVariableProvider(), {"project_name": "Demo", "name": "TIMEOUT", "global_value": "30"}),
], ids=["ApiProxy", "IpGroup", "EnvironmentVariable"])
def test_an_object_that_exists_says_adopt_it_or_refer_to_it_from_the_stack_that_manages_it(
        provider: Any, inputs: dict[str, Any], server: ProviderServer, client: ApinizerClient) -> None:
    engine = Engine(server, provider, provider.kind)
    if provider.kind != "ApiProxy":  # another stack of the program made it (the fixture has the proxy)
        engine.up(inputs, name="other-stack")

    with pytest.raises(grpc.RpcError) as failed:
        engine.up(inputs, name="this-stack")

    message = str(failed.value.details())
    assert "already exists on the gateway" in message and "set adopt=True to take it over" in message
    assert ("or, if another stack manages it (another environment's stack of this program, say), do not "
            "declare it here but refer to it by its name, with a function or a StackReference "
            "(docs/stacks.md)") in message


def values(client: ApinizerClient, name: str = "BACKEND_URL") -> dict[str, tuple[str | None, bool]]:
    found = client.environment_variables.get("Demo", name)
    return {item.environment_name: (item.value, item.visible) for item in found.environment_value_list or []}


def value_of(environment: str, value: str, **extra: Any) -> dict[str, Any]:
    return {"project_name": "Demo", "variable_name": "BACKEND_URL", "environment_name": environment,
            "value": value, **extra}


def test_each_stack_owns_its_environments_value_of_one_variable(
        server: ProviderServer, later: Any, client: ApinizerClient, gateway: Gateway) -> None:
    dev = Engine(server, EnvironmentVariableValueProvider(), "EnvironmentVariableValue")
    prod = Engine(later, EnvironmentVariableValueProvider(), "EnvironmentVariableValue")

    # The dev stack's value makes the variable; the prod stack's joins it.
    test_id, test_outs = dev.up(value_of("test", "http://orders.test"))
    assert test_id == "Demo/BACKEND_URL/test"
    prod_id, prod_outs = prod.up(value_of("production", "https://orders.example"))
    assert values(client) == {"test": ("http://orders.test", True),
                              "production": ("https://orders.example", True)}

    # A change in one environment leaves the other's value untouched.
    news = dev.checked(value_of("test", "http://orders-2.test"))
    test_outs = dev.update(test_id, test_outs, news)
    assert values(client) == {"test": ("http://orders-2.test", True),
                              "production": ("https://orders.example", True)}

    # Drift in production (the console) is seen by the prod stack's refresh only, and repaired by it.
    client.environment_variables.update("Demo", {
        "name": "BACKEND_URL", "global": False, "environmentValueList": [
            {"environmentName": "test", "value": "http://orders-2.test", "visible": True},
            {"environmentName": "production", "value": "https://elsewhere", "visible": True}]})
    assert dev.read(test_id, test_outs)[2] is None
    _, drifted, inputs = prod.read(prod_id, prod_outs)
    assert drifted["value"] == "https://elsewhere" and inputs is not None
    prod.update(prod_id, drifted, prod.checked(value_of("production", "https://orders.example")))
    assert values(client)["production"] == ("https://orders.example", True)

    # Destroying the prod stack removes its value only; the last value takes the variable with it
    # (each destroy is an operation of its own: a new provider process).
    with preview_process(gateway.url) as destroying:
        gone = Engine(destroying, EnvironmentVariableValueProvider(), "EnvironmentVariableValue")
        gone.delete(prod_id, prod_outs)
        assert values(client) == {"test": ("http://orders-2.test", True)}
        gone.delete(test_id, test_outs)
    assert [v.name for v in client.environment_variables.list("Demo") if v.name == "BACKEND_URL"] == []


def test_a_refresh_of_the_values_of_one_project_reads_its_variable_list_once(
        server: ProviderServer, client: ApinizerClient, gateway: Gateway) -> None:
    """Two variables with a value in each of two environments: four reads, one list (as
    EnvironmentVariable refreshes), also while the first list is still on its way."""
    made = Engine(server, EnvironmentVariableValueProvider(), "EnvironmentVariableValue")
    declared = [{**value_of(env, f"http://{name.lower()}.{env}"), "variable_name": name}
                for name in ("PAYMENTS_URL", "STOCK_URL") for env in ("test", "production")]
    outs = [made.up(inputs, name=f"{inputs['variable_name']}-{inputs['environment_name']}")
            for inputs in declared]
    with preview_process(gateway.url) as refreshing:  # a refresh is an operation of its own
        values_ = made.on(refreshing)
        gateway.reset_stats()
        emulator_http.post(f"{gateway.url}/_emulator/faults", json={
            "delay": 0.5, "method": "GET", "path": "/environmentVariables/", "count": 1}).raise_for_status()
        futures = [values_.read_future(id_, props) for id_, props in outs]
        read = [future.result() for future in futures]
    assert [response.id for response in read] == [id_ for id_, _ in outs]
    assert gateway.stats()["requests"] == {
        "GET /apiops/projects/{projectName}/environmentVariables/": 1}, "one list for the project's values"


def test_a_merge_that_would_erase_another_environments_secret_is_refused_changing_nothing(
        server: ProviderServer, later: Any, client: ApinizerClient) -> None:
    prod = Engine(later, EnvironmentVariableValueProvider(), "EnvironmentVariableValue")
    prod.up(value_of("production", "s3cr3t", secret=True))
    dev = Engine(server, EnvironmentVariableValueProvider(), "EnvironmentVariableValue")

    with pytest.raises(grpc.RpcError) as failed:
        dev.up(value_of("test", "http://orders.test"))

    message = str(failed.value.details())
    assert message.startswith("apinizer:EnvironmentVariableValue BACKEND_URL in Demo for test: the value of "
                              "production is secret")
    assert "s3cr3t" not in message
    assert values(client) == {"production": (None, False)}


@pytest.mark.parametrize("theirs", ["https://elsewhere.example", "https://orders.example"],
                         ids=["different", "equal"])
def test_a_value_another_stack_declares_is_refused_without_adopt_and_taken_over_with_it(
        server: ProviderServer, later: ProviderServer, client: ApinizerClient, theirs: str) -> None:
    """Two stacks declaring production's value would overwrite each other, and the first destroy would
    delete what the other declares: a create that finds its environment's entry refuses, saying both ways
    out, even when the value is the one it declares (it is still someone else's)."""
    Engine(later, EnvironmentVariableValueProvider(), "EnvironmentVariableValue").up(
        value_of("production", theirs))
    client.environment_variables.update("Demo", {
        "name": "BACKEND_URL", "global": False, "environmentValueList": [
            {"environmentName": "test", "value": "http://orders.test", "visible": True},
            {"environmentName": "production", "value": theirs, "visible": True}]})
    ours = Engine(server, EnvironmentVariableValueProvider(), "EnvironmentVariableValue")

    with pytest.raises(grpc.RpcError) as failed:
        ours.up(value_of("production", "https://orders.example"), name="production")

    message = str(failed.value.details())
    assert message == (
        "apinizer:EnvironmentVariableValue BACKEND_URL in Demo for production: already exists on the gateway "
        "(variable BACKEND_URL has a value for production); set adopt=True to take it over (it then gets the "
        "declared value) (a `pulumi up --replace` of this resource needs adopt=True, which replaces it in "
        "place, or the resource option delete_before_replace=True, which deletes and creates it again); or, "
        "if another stack manages it (another environment's stack of this program, say), do not declare it "
        "here but refer to it by its name, with a function or a StackReference (docs/stacks.md)")
    assert values(client) == {"test": ("http://orders.test", True), "production": (theirs, True)}

    id_, outs = ours.up(value_of("production", "https://orders.example", adopt=True), name="production")
    assert id_ == "Demo/BACKEND_URL/production" and outs["adopt"] is True and outs["deployed"] is True
    assert values(client) == {"test": ("http://orders.test", True),
                              "production": ("https://orders.example", True)}


def test_adopt_is_checked_offline_and_changes_nothing_in_a_diff(server: ProviderServer) -> None:
    values_ = Engine(server, EnvironmentVariableValueProvider(), "EnvironmentVariableValue")
    assert list(values_.check(value_of("test", "http://orders.test", adopt="maybe")).failures) == ["adopt"]

    declared = value_of("test", "http://orders.test")
    assert values_.checked(declared)["adopt"] is False
    olds = {**values_.checked(declared), "deployed": True}
    assert values_.diff("Demo/BACKEND_URL/test", olds,
                        values_.checked({**declared, "adopt": True})).changes == DIFF_NONE


def test_a_refused_recorded_token_says_which_command_uses_the_current_config(
        server: ProviderServer, emulator_url: str, client: ApinizerClient) -> None:
    variable = {"project_name": "Demo", "name": "TIMEOUT", "global_value": "30"}
    _, outs = Engine(server, EnvironmentVariableProvider(), "EnvironmentVariable").up(variable)
    # A refresh or destroy that does not run the program configures the provider with the config recorded
    # at the last `up`: here a token since revoked.
    recorded = {"apinizer:url": emulator_url, "apinizer:token": "revoked-token"}
    with ForkedProviderServer(recorded, env={"APINIZER_SKIP_CONNECTION_CHECK": "1"}) as stale:
        engine = Engine(stale, EnvironmentVariableProvider(), "EnvironmentVariable")
        with pytest.raises(grpc.RpcError) as refreshing:
            engine.read("Demo/TIMEOUT", outs)
        with pytest.raises(grpc.RpcError) as destroying:
            engine.delete("Demo/TIMEOUT", outs)

    for failed, command in ((refreshing, "pulumi refresh --run-program"),
                            (destroying, "pulumi destroy --run-program")):
        message = str(failed.value.details())
        assert message.startswith("apinizer:EnvironmentVariable TIMEOUT in Demo: 401")
        assert command in message and "revoked-token" not in message


def test_a_preview_that_also_deploys_to_the_source_leaves_the_promotion_to_up(
        previewing: ProviderServer, server: ProviderServer) -> None:
    Engine(server, ApiProxyProvider(), "ApiProxy").up(shop())
    preview = Engine(previewing, ApiProxyDeploymentProvider(), "ApiProxyDeployment")

    # One program deploys to test and promotes to production: its first preview cannot know what the
    # deployment to test will make, so it does not refuse; `up` checks once test is deployed.
    assert preview.check(TO_TEST, name="to-test").failures == {}
    assert preview.check(PROMOTED, name="to-production").failures == {}


def fault(gateway: Gateway, **rule: Any) -> None:
    emulator_http.post(f"{gateway.url}/_emulator/faults", json={"count": 1, **rule}).raise_for_status()


@pytest.mark.parametrize(("method", "secret"), [("POST", False), ("PUT", False), ("POST", True)],
                         ids=["POST", "PUT", "POST-secret"])
def test_a_merge_whose_answer_was_lost_is_made_once(
        server: ProviderServer, later: Any, client: ApinizerClient, gateway: Gateway, method: str,
        secret: bool) -> None:
    """The write was carried out but its answer dropped (the create of the variable with the first
    value, or the update that merges the second): the merge is read again and done once, and the
    refresh after it, whose read gets a 500, still finds the value. After a lost POST (the client
    repeats a PUT itself), the merge's read again finds the environment's entry, which its own lost
    write made (the declared value, or a masked one for a secret): the create goes on without adopt."""
    dev = Engine(server, EnvironmentVariableValueProvider(), "EnvironmentVariableValue")
    prod = Engine(later, EnvironmentVariableValueProvider(), "EnvironmentVariableValue")
    if method == "PUT":
        dev.up(value_of("test", "http://orders.test"))
    fault(gateway, method=method, path="/environmentVariables", drop=True, after=True)
    engine, environment = (dev, "test") if method == "POST" else (prod, "production")
    id_, outs = engine.up(value_of(environment, "https://orders.example", secret=secret))

    assert values(client)[environment] == ((None, False) if secret else ("https://orders.example", True))
    assert [v.name for v in client.environment_variables.list("Demo")].count("BACKEND_URL") == 1
    fault(gateway, method="GET", path="/environmentVariables", status=500)
    assert engine.read(id_, outs)[1]["value"] == "https://orders.example"


def test_a_value_is_deployed_again_until_its_own_environment_took_it(tmp_path: Path) -> None:
    """A deployment that failed in another environment is that environment's business (a warning);
    one that failed in the value's own is recorded, and the next up writes the value again."""
    with draft_staging(tmp_path) as (url, database):
        config = {"apinizer:url": url, "apinizer:token": ADMIN_TOKEN}
        with ForkedProviderServer(config, env={"APINIZER_SKIP_CONNECTION_CHECK": "1"}) as server:
            values_ = Engine(server, EnvironmentVariableValueProvider(), "EnvironmentVariableValue")
            test_id, test_outs = values_.up(value_of("test", "http://orders.test"), name="test")
            assert test_outs["deployed"] is True
            declared = value_of("staging", "http://orders.staging")
            staging_id, outs = values_.up(declared, name="staging")
            assert outs["deployed"] is False
            assert values_.diff(staging_id, outs, values_.checked(declared)).changes == DIFF_SOME
            _, outs, _ = values_.read(staging_id, outs)
            assert outs["deployed"] is False
            publish_staging(database)
            outs = values_.update(staging_id, outs, values_.checked(declared))
            assert outs["deployed"] is True
            assert values_.diff(staging_id, outs, values_.checked(declared)).changes == DIFF_NONE
            assert values_.diff(test_id, test_outs, values_.checked(
                value_of("test", "http://orders.test"))).changes == DIFF_NONE


@pytest.mark.parametrize("phase", ["create", "delete"])
def test_values_of_one_variable_written_side_by_side_are_merged_one_after_the_other(
        server: ProviderServer, later: ProviderServer, client: ApinizerClient, gateway: Gateway,
        phase: str) -> None:
    """The engine runs the steps of one `pulumi up` side by side: two values of one variable merged at
    once would both start from the same read, and the second write would undo the first (a value
    lost, or one left behind by a destroy). Both reads are slowed, so that they overlap unless the
    merges take turns."""
    values_ = Engine(server, EnvironmentVariableValueProvider(), "EnvironmentVariableValue")
    declared = {"test": value_of("test", "http://orders.test"),
                "production": value_of("production", "https://orders.example")}
    slow_reads = {"delay": 0.5, "method": "GET", "path": "/environmentVariables/BACKEND_URL", "count": 2}
    if phase == "create":
        emulator_http.post(f"{gateway.url}/_emulator/faults", json=slow_reads).raise_for_status()
        futures = [values_.create_future(values_.checked(inputs), name=env)
                   for env, inputs in declared.items()]
        for future in futures:
            future.result()
        assert values(client) == {"test": ("http://orders.test", True),
                                  "production": ("https://orders.example", True)}
        return
    made = {env: values_.up(inputs, name=env) for env, inputs in declared.items()}
    emulator_http.post(f"{gateway.url}/_emulator/faults", json=slow_reads).raise_for_status()
    destroying = values_.on(later)  # a destroy is an operation of its own: a new provider process
    with ThreadPoolExecutor(2) as pool:
        list(pool.map(lambda env: destroying.delete(*made[env], name=env), made))
    assert [v.name for v in client.environment_variables.list("Demo") if v.name == "BACKEND_URL"] == []
