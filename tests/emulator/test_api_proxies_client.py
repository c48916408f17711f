"""``client.projects``, ``client.environments`` and ``client.api_proxies`` against the live
emulator: a proxy's whole life (created from a file or a URL, read, re-parsed, deployed,
undeployed, deleted), and the gateway's errors as the client's exceptions."""

from __future__ import annotations

from collections.abc import Iterator
from pathlib import Path

import pytest

from _spec_server import Served, SpecServer, spec_server
from apinizer_pulumi.client import (
    ApinizerClient,
    AuthenticationError,
    BadRequestError,
    NotFoundError,
    PermissionDeniedError,
)
from apinizer_pulumi.models import ApiProxyRequest, ApiProxySpecType, ClientRoute

SPECS = Path(__file__).parent / "specs"


@pytest.fixture
def client(emulator_url: str, admin_token: str) -> Iterator[ApinizerClient]:
    with ApinizerClient(emulator_url, token=admin_token) as c:
        yield c


@pytest.fixture(scope="module")
def served() -> Iterator[SpecServer]:
    with spec_server() as server:
        server.files["/orders.json"] = Served((SPECS / "orders-swagger.json").read_bytes())
        yield server


def request(name: str, kind: str, **extra: object) -> ApiProxyRequest:
    return ApiProxyRequest.model_validate(
        {
            "api_proxy_name": name,
            "api_proxy_creation_type": kind,
            "client_route": ClientRoute(relative_path_list=[f"/{name.lower()}"]),
            **extra,
        }
    )


def test_projects_and_environments(client: ApinizerClient, emulator_url: str, developer_token: str) -> None:
    assert [(p.name, p.description) for p in client.projects.list()] == [("Demo", "The demo project")]
    assert [e.name for e in client.environments.list()] == ["test", "production"]
    assert [e.type for e in client.environments.list_for_project("Demo")] == ["TEST", "PRODUCTION"]
    with pytest.raises(BadRequestError, match=r"Project not found for name: \(Nope\)"):
        client.environments.list_for_project("Nope")
    with ApinizerClient(emulator_url, token=developer_token) as developer:
        with pytest.raises(AuthenticationError, match="insufficient permissions"):
            developer.environments.list()
        assert len(developer.environments.list_for_project("Demo")) == 2


def test_a_wsdl_directory_becomes_a_soap_proxy(client: ApinizerClient, tmp_path: Path) -> None:
    service = tmp_path / "calculator"
    (service / "xsd").mkdir(parents=True)
    (service / "calculator.wsdl").write_bytes((SPECS / "calculator.wsdl").read_bytes())
    (service / "xsd" / "types.xsd").write_bytes((SPECS / "types.xsd").read_bytes())
    client.api_proxies.create_from_file("Demo", request("Calc", "WSDL"), service)
    proxy = client.api_proxies.get("Demo", "Calc")
    assert proxy.api_type == "SOAP" and proxy.client_route is not None
    assert proxy.client_route.hosts == [] and proxy.client_route.relative_path_list == ["/calc"]
    assert sorted(e.endpoint for e in client.endpoints.list("Demo", "Calc")) == ["Add", "Multiply"]
    (service / "xsd" / "types.xsd").unlink()
    with pytest.raises(BadRequestError, match=r"imports \(xsd/types.xsd\), which the ZIP does not hold"):
        client.api_proxies.create_from_file("Demo", request("Calc2", "WSDL"), service)
    assert client.api_proxies.find("Demo", "Calc2") is None


def test_a_proxys_whole_life(client: ApinizerClient, served: SpecServer, tmp_path: Path) -> None:
    created = client.api_proxies.create_from_url(
        "Demo",
        request(
            "Orders2",
            "SWAGGER",
            spec_url=served.url("/orders.json"),
            deploy=True,
            deploy_target_environment_name_list=["test"],
        ),
    )
    assert created.deployment_result is not None and created.deployment_result.ok
    assert [(p.name, p.type) for p in client.api_proxies.list("Demo")] == [
        ("Calculator", "SOAP"),
        ("Orders", "REST"),
        ("Orders2", "REST"),
        ("PetStore", "REST"),
    ]
    deployed = client.api_proxies.get("Demo", "Orders2").deployment("test")
    assert deployed is not None and deployed.deployed and not deployed.redeploy_required

    spec = tmp_path / "orders.yaml"
    spec.write_text(
        "swagger: '2.0'\ninfo: {title: Orders, version: '3'}\npaths:\n"
        "  /orders:\n    get:\n      responses: {'200': {description: ok}}\n"
        "  /invoices:\n    get:\n      responses: {'200': {description: ok}}\n"
    )
    client.api_proxies.update_from_file("Demo", request("Orders2", "SWAGGER"), spec)
    assert sorted((e.http_method, e.endpoint) for e in client.endpoints.list("Demo", "Orders2")) == [
        ("GET", "/invoices"),
        ("GET", "/orders"),
    ]
    after = client.api_proxies.get("Demo", "Orders2").deployment("test")
    assert after is not None and after.redeploy_required

    client.api_proxies.deploy("Demo", "Orders2", "production")
    client.api_proxies.deploy("Demo", "Orders2", "test")
    assert {
        (d.environment_name, d.deployed, d.redeploy_required)
        for d in client.api_proxies.get("Demo", "Orders2").deployment_list
    } == {("test", True, False), ("production", True, False)}
    client.api_proxies.undeploy("Demo", "Orders2", "production")
    with pytest.raises(BadRequestError, match=r"is not deployed to Environment\(production\)"):
        client.api_proxies.undeploy("Demo", "Orders2", "production")

    removed = client.api_proxies.delete("Demo", "Orders2")
    assert removed.deployment_result is not None
    assert [r.environment_name for r in removed.deployment_result.per_environment()] == ["test"]
    assert client.api_proxies.find("Demo", "Orders2") is None
    with pytest.raises(NotFoundError, match=r"ApiProxy \(name: Orders2\) was not found!"):
        client.api_proxies.get("Demo", "Orders2")
    with pytest.raises(BadRequestError, match=r"Api Proxy \(Orders2\) is not found!"):
        client.api_proxies.delete("Demo", "Orders2")


def test_errors_reach_the_client_as_their_classes(
    client: ApinizerClient, served: SpecServer, emulator_url: str, developer_token: str
) -> None:
    with pytest.raises(BadRequestError, match=r"ApiProxy \(name: PetStore\) is already exist!"):
        client.api_proxies.create_from_url(
            "Demo", request("PetStore", "SWAGGER", spec_url=served.url("/orders.json"))
        )
    with pytest.raises(BadRequestError, match="it answered HTTP 404"):
        client.api_proxies.create_from_url(
            "Demo", request("Nope", "SWAGGER", spec_url=served.url("/none.json"))
        )
    with pytest.raises(NotFoundError, match=r"Project \(Nope\) is not found"):
        client.api_proxies.list("Nope")
    with (
        ApinizerClient(emulator_url, token=developer_token) as developer,
        pytest.raises(PermissionDeniedError, match="ROLE_DEPLOY_UNDEPLOY_PROXIES"),
    ):
        developer.api_proxies.delete("Demo", "PetStore")
    assert client.api_proxies.get("Demo", "PetStore").name == "PetStore"
    assert client.api_proxies.create_from_url("Demo", request("Rev", ApiProxySpecType.REVERSE_PROXY)).ok
