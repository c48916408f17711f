"""ApiProxy and ApiProxyDeployment through the dynamic provider server, against a live emulator."""

from __future__ import annotations

import io
import zipfile
from collections.abc import Iterator
from contextlib import contextmanager
from dataclasses import dataclass
from pathlib import Path
from typing import Any

import grpc
import pytest

import _emulator_http as emulator_http
from _draft_environment import draft_staging
from _spec_server import Served, spec_server
from apinizer_pulumi.client import ApinizerClient
from apinizer_pulumi.resources import ApiProxyDeploymentProvider, ApiProxyProvider, EndpointProvider
from apinizer_pulumi.resources.api_proxy import spec_inputs
from apinizer_pulumi.resources.testing import DIFF_NONE, DIFF_SOME, Engine

from ._fork_server import ForkedProviderServer
from .conftest import ADMIN_TOKEN, Gateway

SPECS = Path(__file__).parent.parent / "emulator" / "specs"
PETSTORE = SPECS / "petstore-openapi.yaml"
PROXY = "/apiops/projects/{projectName}/apiProxies/{apiProxyName}/"
FILE = "/apiops/projects/{projectName}/apiProxies/file/"
URL = "/apiops/projects/{projectName}/apiProxies/url/"
DEPLOYMENT = "/apiops/projects/{projectName}/apiProxies/{apiProxyName}/environments/{environmentName}/"


@pytest.fixture
def proxies(server: Any, emulator_url: str) -> Engine:
    return Engine(server, ApiProxyProvider(), "ApiProxy")


@pytest.fixture
def deployments(server: Any, emulator_url: str) -> Engine:
    return Engine(server, ApiProxyDeploymentProvider(), "ApiProxyDeployment")


@dataclass
class Operation:
    proxies: Engine
    deployments: Engine


@pytest.fixture
def later(emulator_url: str) -> Iterator[Operation]:
    """Engines of another Pulumi operation (a new provider process): a create of this test's first
    operation claims its object, so that a delete of the same object in that operation leaves it."""
    config = {"apinizer:url": emulator_url, "apinizer:token": ADMIN_TOKEN}
    with ForkedProviderServer(config, env={"APINIZER_SKIP_CONNECTION_CHECK": "1"}) as server:
        yield Operation(Engine(server, ApiProxyProvider(), "ApiProxy"),
                        Engine(server, ApiProxyDeploymentProvider(), "ApiProxyDeployment"))


def orders(spec: Path = PETSTORE, **extra: Any) -> dict[str, Any]:
    return {"project_name": "Demo", "name": "Shop", "spec_type": "OPEN_API", **spec_inputs(spec),
            "routing": {"addresses": [{"address": "http://orders.backend:8080", "weight": 100}]},
            "client_route": {"relative_paths": ["/orders"]}, **extra}


@contextmanager
def served(content: bytes) -> Iterator[str]:
    """A URL on 127.0.0.1 that serves ``content``: the spec the emulator fetches for ``spec_url``."""
    with spec_server() as server:
        server.files["/orders.yaml"] = Served(content)
        yield server.url("/orders.yaml")


def endpoint_names(outs: dict[str, Any]) -> set[tuple[str, str]]:
    return {(item["http_method"], item["name"]) for item in outs["endpoints"]}


def fault(gateway: Gateway, **rule: Any) -> None:
    emulator_http.post(f"{gateway.url}/_emulator/faults", json=rule).raise_for_status()


# -- ApiProxy --------------------------------------------------------------------------------------


def test_create_from_file_outputs_the_spec_endpoints_and_keeps_the_bytes_out(
        proxies: Engine, client: ApinizerClient, gateway: Gateway) -> None:
    id_, outs = proxies.up(orders(description="Orders API"))

    assert id_ == "Demo/Shop"
    assert endpoint_names(outs) == {("GET", "/pets"), ("POST", "/pets"), ("GET", "/pets/{id}"),
                                    ("DELETE", "/pets/{id}")}
    assert "spec_content" not in outs and outs["spec_hash"] == spec_inputs(PETSTORE)["spec_hash"]
    assert outs["deployments"] == {}
    live = client.api_proxies.get("Demo", "Shop")
    assert live.description == "Orders API"
    assert live.client_route is not None and live.client_route.relative_path_list == ["/orders"]
    assert live.routing is not None and live.routing.routing_address_list is not None
    assert live.routing.routing_address_list[0].address == "http://orders.backend:8080"
    requests = gateway.stats()["requests"]
    assert requests[f"POST {FILE}"] == 1


def test_create_from_url_and_as_reverse_proxy(proxies: Engine, client: ApinizerClient) -> None:
    with served(PETSTORE.read_bytes()) as url:
        _, outs = proxies.up({"project_name": "Demo", "name": "FromUrl", "spec_type": "OPEN_API",
                              "spec_url": url,
                              "client_route": {"relative_paths": ["/from-url"]}})
    assert ("GET", "/pets") in endpoint_names(outs)

    _, outs = proxies.up({"project_name": "Demo", "name": "Passthrough", "spec_type": "REVERSE_PROXY",
                          "client_route": {"relative_paths": ["/pass"]},
                          "routing": {"addresses": [{"address": "http://backend:80"}]}}, name="reverse")
    assert outs["endpoints"] == [] or all(item["name"] for item in outs["endpoints"])
    assert {summary.name for summary in client.api_proxies.list("Demo")} >= {"FromUrl", "Passthrough"}


def test_check_names_a_missing_or_double_spec(proxies: Engine) -> None:
    failures = proxies.check({"project_name": "Demo", "name": "X", "spec_type": "OPEN_API"}).failures
    assert any("exactly one of spec_file and spec_url" in reason for reason in failures.values())
    failures = proxies.check({**orders(), "spec_type": "REVERSE_PROXY"}).failures
    assert any("REVERSE_PROXY has no spec" in reason for reason in failures.values())


def test_a_changed_spec_is_an_in_place_re_parse(proxies: Engine, tmp_path: Path, gateway: Gateway) -> None:
    spec = tmp_path / "orders.yaml"
    spec.write_bytes(PETSTORE.read_bytes())
    id_, outs = proxies.up(orders(spec))
    assert proxies.diff(id_, outs, proxies.checked(orders(spec))).changes == DIFF_NONE

    spec.write_text(PETSTORE.read_text() + "  /stores:\n    get:\n      responses:\n        \"200\":\n"
                    "          description: Stores\n")
    news = proxies.checked(orders(spec))
    diff = proxies.diff(id_, outs, news)
    assert diff.changes == DIFF_SOME and list(diff.replaces) == []
    # The bytes alone never make a diff: spec_hash stands for them.
    same_hash = {**news, "spec_content": "c2FtZQ=="}
    assert proxies.diff(id_, {**outs, "spec_hash": news["spec_hash"]}, same_hash).changes == DIFF_NONE
    gateway.reset_stats()

    outs = proxies.update(id_, outs, news)

    assert ("GET", "/stores") in endpoint_names(outs)
    assert gateway.stats()["requests"].get(f"PUT {FILE}") == 1


def test_settings_blocks_are_written_only_when_declared(
        proxies: Engine, client: ApinizerClient, gateway: Gateway) -> None:
    cors = {"name": "orders-cors", "cors_active": True, "allow_origin_list": ["https://shop.example"]}
    id_, outs = proxies.up(orders(cors=cors, metadata={"categories": ["sales"], "sharing_type": "INTERNAL"}))
    requests = gateway.stats()["requests"]
    settings = PROXY + "settings/"
    assert requests[f"PATCH {settings}cors/"] == 1 and requests[f"PATCH {settings}metadata/"] == 1
    assert not any("circuit-breaker" in key or "traffic-log" in key for key in requests)
    assert client.api_proxies.get("Demo", "Shop").category_list == ["sales"]

    gateway.reset_stats()
    news = proxies.checked(orders(cors=cors, metadata={"categories": ["sales", "eu"]},
                                  circuit_breaker={"circuit_breaker_enabled": True, "error_window": 30}))
    outs = proxies.update(id_, outs, news)
    requests = gateway.stats()["requests"]
    assert f"PATCH {settings}cors/" not in requests  # unchanged
    assert requests[f"PATCH {settings}metadata/"] == 1 and requests[f"PATCH {settings}circuit-breaker/"] == 1
    assert client.api_proxies.get("Demo", "Shop").category_list == ["sales", "eu"]

    # A block dropped from the program is left as it is on the gateway.
    gateway.reset_stats()
    proxies.update(id_, outs, proxies.checked(orders(cors=cors)))
    assert not any("settings" in key for key in gateway.stats()["requests"])
    assert client.api_proxies.get("Demo", "Shop").category_list == ["sales", "eu"]


def test_refresh_sees_drift_in_declared_blocks_only(proxies: Engine, client: ApinizerClient) -> None:
    declared = orders(metadata={"categories": ["sales"], "sharing_type": "INTERNAL"})
    id_, outs = proxies.up(declared)
    # In sync: the get page spells INTERNAL as ORGANIZATION, which is no drift.
    _, in_sync, unchanged_inputs = proxies.read(id_, outs)
    assert unchanged_inputs is None  # nothing drifted: the engine keeps the recorded inputs
    assert in_sync["metadata"] == {"categories": ["sales"], "sharing_type": "INTERNAL"}
    assert proxies.diff(id_, in_sync, proxies.checked(declared)).changes == DIFF_NONE

    client.api_proxies.set_client_route("Demo", "Shop", {"relative_path_list": ["/changed"]})
    client.api_proxies.update_metadata("Demo", "Shop", {"description": "from the console"})

    _, read_outs, read_inputs = proxies.read(id_, outs)

    assert read_inputs is not None
    assert read_inputs["client_route"] == {"relative_paths": ["/changed"]}
    assert "description" not in read_inputs  # never declared: not managed
    assert read_outs["endpoints"] == outs["endpoints"]
    assert proxies.diff(id_, read_outs, proxies.checked(declared)).changes == DIFF_SOME


def test_replace_rules(proxies: Engine) -> None:
    id_, outs = proxies.up(orders())
    renamed = proxies.diff(id_, outs, proxies.checked(orders(name="Shop2")))
    assert list(renamed.replaces) == ["name"] and not renamed.deleteBeforeReplace
    swagger = orders(SPECS / "orders-swagger.json", spec_type="SWAGGER")
    retyped = proxies.diff(id_, outs, proxies.checked(swagger))
    assert "spec_type" in retyped.replaces and retyped.deleteBeforeReplace


def test_adopt_takes_over_and_without_it_create_names_the_fix(
        proxies: Engine, client: ApinizerClient) -> None:
    proxies.up(orders())
    with pytest.raises(grpc.RpcError) as refused:
        proxies.up(orders(), name="second")
    assert "already exists on the gateway" in str(refused.value.details())
    assert "set adopt=True" in str(refused.value.details())

    _, outs = proxies.up(orders(adopt=True, description="adopted"), name="second")
    assert client.api_proxies.get("Demo", "Shop").description == "adopted"
    assert ("GET", "/pets") in endpoint_names(outs)


@pytest.mark.parametrize("lost", [{"status": 502}, {"drop": True}], ids=["502", "dropped"])
def test_a_lost_create_answer_makes_one_proxy(
        proxies: Engine, gateway: Gateway, client: ApinizerClient, lost: dict[str, Any]) -> None:
    fault(gateway, path="/apiProxies/file/", method="POST", after=True, **lost)

    _, outs = proxies.up(orders())

    assert gateway.stats()["requests"][f"POST {FILE}"] == 1  # carried out once, then found by a look-up
    assert [p.name for p in client.api_proxies.list("Demo")].count("Shop") == 1
    assert ("GET", "/pets") in endpoint_names(outs)


def test_delete_undeploys_and_deletes_and_a_gone_proxy_drops(
        proxies: Engine, deployments: Engine, client: ApinizerClient, later: Operation,
        gateway: Gateway) -> None:
    id_, outs = proxies.up(orders())
    deployments.up({"project_name": "Demo", "api_proxy_name": "Shop", "environment_name": "test"})
    gateway.reset_stats()

    later.proxies.delete(id_, outs)

    assert gateway.stats()["requests"] == {f"DELETE {PROXY}": 1}  # the documented delete undeploys too
    assert client.api_proxies.find("Demo", "Shop") is None
    assert later.proxies.read(id_, outs)[0] == ""
    later.proxies.delete(id_, outs)  # nothing left to delete: no error


def test_endpoints_the_spec_made_are_declared_with_adopt(
        proxies: Engine, server: Any, gateway: Gateway) -> None:
    proxies.up(orders())
    endpoints = Engine(server, EndpointProvider(), "Endpoint")
    pets = {"project_name": "Demo", "api_proxy_name": "Shop", "name": "/pets", "http_method": "GET",
            "backend_resource_url": "/pets", "backend_http_method": "GET", "description": "All pets"}
    with pytest.raises(grpc.RpcError) as refused:
        endpoints.up(pets)
    assert "set adopt=True" in str(refused.value.details())

    _, outs = endpoints.up({**pets, "adopt": True}, name="adopted")
    live = gateway.endpoint("Demo", "Shop", "GET", "/pets")
    assert live is not None and live["description"] == "All pets" and outs["endpoint_id"] == live["id"]


# -- ApiProxyDeployment ----------------------------------------------------------------------------

DEPLOY_TEST = {"project_name": "Demo", "api_proxy_name": "Shop", "environment_name": "test"}


def test_deploy_refresh_drift_and_repair(
        proxies: Engine, deployments: Engine, client: ApinizerClient, gateway: Gateway) -> None:
    proxies.up(orders())
    id_, outs = deployments.up(DEPLOY_TEST)
    assert id_ == "Demo/Shop/test" and outs["deployed"] is True
    line = client.api_proxies.get("Demo", "Shop").deployment("test")
    assert line is not None and line.deployed

    # In sync: no diff after a refresh.
    _, read_outs, read_inputs = deployments.read(id_, outs)
    assert read_outs["deployed"] is True and read_inputs is None
    assert deployments.diff(id_, read_outs, deployments.checked(DEPLOY_TEST)).changes == DIFF_NONE

    # Undeployed in the console: drift that `up` repairs.
    client.api_proxies.undeploy("Demo", "Shop", "test")
    _, read_outs, read_inputs = deployments.read(id_, outs)
    assert read_outs["deployed"] is False and read_inputs is not None
    assert deployments.diff(id_, read_outs, deployments.checked(DEPLOY_TEST)).changes == DIFF_SOME
    outs = deployments.update(id_, read_outs, deployments.checked(DEPLOY_TEST))
    line = client.api_proxies.get("Demo", "Shop").deployment("test")
    assert line is not None and line.deployed and outs["deployed"] is True

    # Changed after deploying: redeployRequired is drift too.
    client.api_proxies.set_client_route("Demo", "Shop", {"relative_path_list": ["/v2"]})
    _, read_outs, _ = deployments.read(id_, outs)
    assert read_outs["redeploy_required"] is True
    assert deployments.diff(id_, read_outs, deployments.checked(DEPLOY_TEST)).changes == DIFF_SOME
    gateway.reset_stats()
    deployments.update(id_, read_outs, deployments.checked(DEPLOY_TEST))
    assert gateway.stats()["requests"][f"POST {DEPLOYMENT}"] == 1
    line = client.api_proxies.get("Demo", "Shop").deployment("test")
    assert line is not None and not line.redeploy_required


def test_triggers_redeploy_in_place(proxies: Engine, deployments: Engine, gateway: Gateway) -> None:
    proxies.up(orders())
    id_, outs = deployments.up({**DEPLOY_TEST, "triggers": {"spec": "a"}})
    unchanged = deployments.checked({**DEPLOY_TEST, "triggers": {"spec": "a"}})
    assert deployments.diff(id_, outs, unchanged).changes == DIFF_NONE
    news = deployments.checked({**DEPLOY_TEST, "triggers": {"spec": "b"}})
    diff = deployments.diff(id_, outs, news)
    assert diff.changes == DIFF_SOME and list(diff.replaces) == []
    gateway.reset_stats()

    deployments.update(id_, outs, news)

    assert gateway.stats()["requests"] == {f"POST {DEPLOYMENT}": 1}


def test_delete_undeploys_and_a_gone_proxy_is_nothing_to_do(
        proxies: Engine, deployments: Engine, client: ApinizerClient, later: Operation) -> None:
    pid, pouts = proxies.up(orders())
    id_, outs = deployments.up(DEPLOY_TEST)

    later.deployments.delete(id_, outs)
    line = client.api_proxies.get("Demo", "Shop").deployment("test")
    assert line is not None and not line.deployed
    later.deployments.delete(id_, outs)  # already undeployed: nothing to do

    client.api_proxies.deploy("Demo", "Shop", "test")
    later.proxies.delete(pid, pouts)
    assert later.deployments.read(id_, outs)[0] == ""  # the proxy is gone: dropped
    later.deployments.delete(id_, outs)


def test_a_replace_in_one_operation_leaves_the_deployment_to_the_new_resource(
        proxies: Engine, deployments: Engine, client: ApinizerClient) -> None:
    proxies.up(orders())
    id_, outs = deployments.up(DEPLOY_TEST, name="old")
    deployments.up(DEPLOY_TEST, name="new")  # e.g. a renamed resource: created, then the old one deleted

    deployments.delete(id_, outs, name="old")

    line = client.api_proxies.get("Demo", "Shop").deployment("test")
    assert line is not None and line.deployed


def test_an_unknown_environment_is_a_one_line_error(proxies: Engine, deployments: Engine) -> None:
    proxies.up(orders())
    with pytest.raises(grpc.RpcError) as failed:
        deployments.up({**DEPLOY_TEST, "environment_name": "nowhere"})
    details = str(failed.value.details())
    assert details.startswith("apinizer:ApiProxyDeployment Shop in Demo to nowhere: 400")
    assert "\n" not in details.strip()


@pytest.fixture
def draft_emulator(tmp_path: Path) -> Iterator[str]:
    """An emulator with an environment that is not published: deploying there fails."""
    with draft_staging(tmp_path) as (url, _):
        yield url


def test_a_failed_deployment_names_the_environment_and_the_message(draft_emulator: str) -> None:

    config = {"apinizer:url": draft_emulator, "apinizer:token": "dev-admin-token"}
    with ForkedProviderServer(config, env={"APINIZER_SKIP_CONNECTION_CHECK": "1"}) as server:
        Engine(server, ApiProxyProvider(), "ApiProxy").up(orders())
        with pytest.raises(grpc.RpcError) as failed:
            Engine(server, ApiProxyDeploymentProvider(), "ApiProxyDeployment").up(
                {**DEPLOY_TEST, "environment_name": "staging"})
    assert str(failed.value.details()) == (
        "apinizer:ApiProxyDeployment Shop in Demo to staging: deployment failed in "
        "staging: Environment (staging) is not published (status DRAFT)!")


def test_a_refresh_reads_each_proxy_once_for_it_and_its_deployments(
        proxies: Engine, deployments: Engine, emulator_url: str, gateway: Gateway) -> None:
    states: list[tuple[str, str, dict[str, Any]]] = []
    for index in range(3):
        name = f"Shop{index}"
        route = {"relative_paths": [f"/shop{index}"]}
        id_, outs = proxies.up(orders(name=name, client_route=route), name=name)
        states.append(("ApiProxy", id_, outs))
        for environment in ("test", "production"):
            id_, outs = deployments.up({"project_name": "Demo", "api_proxy_name": name,
                                        "environment_name": environment}, name=f"{name}-{environment}")
            states.append(("ApiProxyDeployment", id_, outs))
    gateway.reset_stats()

    config = {"apinizer:url": emulator_url, "apinizer:token": ADMIN_TOKEN}
    with ForkedProviderServer(config, env={"APINIZER_SKIP_CONNECTION_CHECK": "1",
                                     "APINIZER_READ_CACHE_TTL": "600"}) as server:
        engines = {"ApiProxy": Engine(server, ApiProxyProvider(), "ApiProxy"),
                   "ApiProxyDeployment": Engine(server, ApiProxyDeploymentProvider(), "ApiProxyDeployment")}
        # A refresh sends its reads at once, in no particular order.
        futures = [engines[kind].read_future(id_, outs, name=id_) for kind, id_, outs in reversed(states)]
        results = [future.result() for future in futures]

    assert all(result.id for result in results)
    assert gateway.stats()["requests"] == {f"GET {PROXY}": 3}


def test_a_directory_is_zipped_and_a_missing_file_is_named(tmp_path: Path) -> None:
    from apinizer_pulumi.resources.api_proxy import read_spec, spec_inputs

    folder = tmp_path / "calculator"
    folder.mkdir()
    (folder / "calculator.wsdl").write_bytes(b"<definitions/>")
    (folder / "types.xsd").write_bytes(b"<schema/>")
    first = spec_inputs(folder)
    assert first["spec_filename"] == "calculator.zip" and first["spec_file"] == str(folder)
    names = zipfile.ZipFile(io.BytesIO(read_spec(folder)[1])).namelist()
    assert names == ["calculator.wsdl", "types.xsd"]
    assert spec_inputs(folder)["spec_hash"] == first["spec_hash"]  # the same folder, the same hash

    # A file that cannot be read has no hash: the preview's check names it (see the tests below).
    assert spec_inputs(tmp_path / "nowhere.yaml")["spec_hash"] is None
    with pytest.raises(ValueError, match=r"spec_file 'nowhere\.yaml' cannot be read"):
        read_spec("nowhere.yaml")
    (tmp_path / "empty.yaml").write_bytes(b"")
    with pytest.raises(ValueError, match="is empty"):
        read_spec(tmp_path / "empty.yaml")


def test_credential_blocks_stay_secret_in_the_inputs(proxies: Engine, gateway: Gateway,
                                                     client: ApinizerClient) -> None:
    from pulumi.runtime import rpc

    keys = {"public_key": "pub-123", "secret_key": "sec-456"}
    checked = proxies.check(orders(api_keys=rpc.wrap_rpc_secret(keys)))
    assert checked.failures == {}
    assert rpc.is_rpc_secret(checked.inputs["api_keys"])
    assert rpc.unwrap_rpc_secret(checked.inputs["api_keys"]) == keys
    gateway.reset_stats()

    id_, outs = proxies.create(checked.inputs)

    assert gateway.stats()["requests"][f"PATCH {PROXY}settings/keys/"] == 1
    assert proxies.read(id_, outs, checked.inputs)[2] is None  # in sync: the recorded inputs stay
    client.api_proxies.set_client_route("Demo", "Shop", {"relative_path_list": ["/moved"]})
    _, _, read_inputs = proxies.read(id_, outs, checked.inputs)
    assert read_inputs is not None and rpc.is_rpc_secret(read_inputs["api_keys"])


def test_a_wsdl_folder_is_sent_as_one_zip(proxies: Engine, tmp_path: Path) -> None:
    folder = tmp_path / "calculator"
    (folder / "xsd").mkdir(parents=True)
    (folder / "calculator.wsdl").write_bytes((SPECS / "calculator.wsdl").read_bytes())
    (folder / "xsd" / "types.xsd").write_bytes((SPECS / "types.xsd").read_bytes())

    _, outs = proxies.up({"project_name": "Demo", "name": "Calc", "spec_type": "WSDL", **spec_inputs(folder),
                          "client_route": {"relative_paths": ["/calc"]}})

    assert outs["spec_filename"] == "calculator.zip"
    assert {"Add", "Multiply"} <= {item["name"] for item in outs["endpoints"]}


def test_a_changed_spec_url_re_parses_from_the_new_url(proxies: Engine, gateway: Gateway) -> None:
    extra = PETSTORE.read_text() + (
        '  /stores:\n    get:\n      responses:\n        "200":\n          description: S\n')
    with served(PETSTORE.read_bytes()) as first, served(extra.encode()) as second:
        inputs = {"project_name": "Demo", "name": "FromUrl", "spec_type": "OPEN_API", "spec_url": first,
                  "client_route": {"relative_paths": ["/from-url"]}}
        id_, outs = proxies.up(inputs)
        news = proxies.checked({**inputs, "spec_url": second})
        diff = proxies.diff(id_, outs, news)
        assert diff.changes == DIFF_SOME and list(diff.replaces) == []
        gateway.reset_stats()
        outs = proxies.update(id_, outs, news)
    assert gateway.stats()["requests"].get(f"PUT {URL}") == 1
    assert ("GET", "/stores") in endpoint_names(outs)


def test_a_missing_deploy_role_is_the_gateways_403_on_one_line(
        proxies: Engine, deployments: Engine, emulator_url: str) -> None:
    proxies.up(orders())
    developer = {"url": emulator_url, "token": "dev-developer-token"}  # may manage proxies, not deploy them
    with pytest.raises(grpc.RpcError) as refused:
        deployments.up({**DEPLOY_TEST, "connection": developer})
    details = str(refused.value.details())
    assert details.startswith("apinizer:ApiProxyDeployment Shop in Demo to test: 403")
    assert "\n" not in details.strip() and "dev-developer-token" not in details


def test_two_resources_cannot_manage_one_proxy(proxies: Engine) -> None:
    # A name no other test of this provider process claimed (claims last for the process: one operation).
    assert proxies.check(orders(name="Claimed"), name="first").failures == {}
    failures = proxies.check(orders(name="Claimed", description="other"), name="second").failures
    assert "manage the same gateway object" in " ".join(failures.values())


def test_adopt_without_a_spec_keeps_the_proxys_spec(
        proxies: Engine, client: ApinizerClient, gateway: Gateway) -> None:
    adopted = {"project_name": "Demo", "name": "PetStore", "spec_type": "OPEN_API", "adopt": True,
               "client_route": {"relative_paths": ["/pets-v2"]}}
    before = {(e.http_method.value, e.endpoint) for e in client.endpoints.list("Demo", "PetStore")}

    _, outs = proxies.up(adopted, name="adopted")

    requests = gateway.stats()["requests"]
    assert not any(key.startswith("PUT") for key in requests)  # no re-parse
    assert requests[f"PATCH {PROXY}settings/client-route/"] == 1
    assert endpoint_names(outs) == before
    route = client.api_proxies.get("Demo", "PetStore").client_route
    assert route is not None and route.relative_path_list == ["/pets-v2"]

    failures = proxies.check({**adopted, "adopt": False}).failures
    assert any("or adopt=True" in reason for reason in failures.values())
    with pytest.raises(grpc.RpcError) as refused:
        proxies.up({**adopted, "name": "Nowhere"}, name="nowhere")
    assert "nothing to create it from" in str(refused.value.details())


def test_a_block_that_fails_after_the_create_is_sent_by_the_next_up(
        proxies: Engine, gateway: Gateway, client: ApinizerClient) -> None:
    cors = {"name": "shop-cors", "cors_active": True}
    fault(gateway, path="/settings/cors/", method="PATCH", status=400, error="bad_request",
          error_description="CORS store unavailable")
    declared = orders(cors=cors)

    id_, outs = proxies.up(declared)  # created: the failed block is a warning, not the step's error

    assert client.api_proxies.find("Demo", "Shop") is not None
    assert "cors" not in outs
    news = proxies.checked(declared)
    assert proxies.diff(id_, outs, news).changes == DIFF_SOME
    gateway.reset_stats()
    proxies.update(id_, outs, news)
    assert gateway.stats()["requests"] == {f"PATCH {PROXY}settings/cors/": 1, f"GET {PROXY}": 1}
