"""Export and import of API proxies against the live emulator: an export imports back as an equal
proxy (the same bytes when exported again), a taken name gets a suffix, import-and-override
replaces a proxy's content and applies the metadata, and every documented refusal."""

from __future__ import annotations

import io
import json
import zipfile
from collections.abc import Iterator
from typing import Any

import httpx
import pytest

from _spec_server import zip_of
from apinizer_pulumi.client import ApinizerClient, BadRequestError, NotFoundError

from .conftest import Api, assert_error

PROXIES = "/apiops/projects/Demo/apiProxies/"
NOT_A_ZIP = "apiProxyExportFile parameter must be in zip file format and must end with zip extension!"


@pytest.fixture
def client(emulator_url: str, admin_token: str) -> Iterator[ApinizerClient]:
    with ApinizerClient(emulator_url, token=admin_token) as c:
        yield c


def _export_json(content: bytes) -> dict[str, Any]:
    with zipfile.ZipFile(io.BytesIO(content)) as archive:
        (name,) = archive.namelist()
        data: dict[str, Any] = json.loads(archive.read(name))
    return data


def _import(api: Api, content: bytes, filename: str = "apiProxyExportFile.zip") -> httpx.Response:
    files = {"apiProxyExportFile": (filename, content, "application/zip")}
    return api.client.post(PROXIES + "import/", files=files, headers=api.headers())


def test_export_is_the_documented_zip(api: Api) -> None:
    response = api.request("GET", f"{PROXIES}PetStore/export/")
    assert response.status_code == 200
    assert response.headers["content-type"] == "application/octet-stream"
    assert response.headers["content-disposition"] == 'attachment; filename="apiProxyExportFile.zip"'
    with zipfile.ZipFile(io.BytesIO(response.content)) as archive:
        assert archive.namelist() == ["PetStore.json"]
    definition = _export_json(response.content)
    assert definition["name"] == "PetStore" and definition["type"] == "REST"
    pets = definition["endpoints"][0]
    assert (pets["name"], pets["httpMethod"]) == ("/pets", "GET")
    assert [p["name"] for p in pets["requestPolicyList"]] == ["throttle-list", "add-correlation-id"]
    assert "id" not in pets


def test_an_export_imports_back_as_an_equal_proxy(client: ApinizerClient) -> None:
    original = client.api_proxies.export("Demo", "PetStore")
    policies = client.endpoints.policies("Demo", "PetStore", "/pets", "GET")
    client.api_proxies.delete("Demo", "PetStore")
    assert client.api_proxies.import_proxy("Demo", original).ok
    assert client.api_proxies.export("Demo", "PetStore") == original
    again = client.endpoints.policies("Demo", "PetStore", "/pets", "GET")
    assert again.model_dump(exclude={"id"}) == policies.model_dump(exclude={"id"})
    assert client.api_proxies.get("Demo", "PetStore").deployment_list == []


def test_a_taken_name_and_path_get_a_suffix(client: ApinizerClient) -> None:
    exported = client.api_proxies.export("Demo", "Orders")
    client.api_proxies.import_proxy("Demo", exported)
    client.api_proxies.import_proxy("Demo", exported)
    names = [p.name for p in client.api_proxies.list("Demo")]
    assert names == ["Calculator", "Orders", "Orders_1", "Orders_2", "PetStore"]
    copy = client.api_proxies.get("Demo", "Orders_2")
    assert copy.client_route is not None and copy.client_route.relative_path_list == ["/Orders_2"]
    assert [e.endpoint for e in client.endpoints.list("Demo", "Orders_1")] == ["/orders"]


def test_import_and_override_replaces_and_applies_the_metadata(client: ApinizerClient, api: Api) -> None:
    client.api_proxies.deploy("Demo", "PetStore", "test")
    orders = client.api_proxies.export("Demo", "Orders")
    result = client.api_proxies.import_and_override(
        "Demo",
        "PetStore",
        orders,
        {
            "routing": {
                "algorithm": "WEIGHTED",
                "address_list": [{"address": "https://b1.example", "weight": 3}],
            },
            "maintenance_mode": True,
        },
    )
    assert result.ok and result.deployment_result is None
    assert [e.endpoint for e in client.endpoints.list("Demo", "PetStore")] == ["/orders"]
    proxy = client.api_proxies.get("Demo", "PetStore")
    assert proxy.routing is not None and proxy.routing.routing_address_list is not None
    assert [(a.address, a.weight) for a in proxy.routing.routing_address_list] == [("https://b1.example", 3)]
    deployed = proxy.deployment("test")
    assert deployed is not None and deployed.deployed and deployed.redeploy_required
    definition = _export_json(client.api_proxies.export("Demo", "PetStore"))
    assert definition["details"]["routing"]["loadBalanceAlgorithm"] == "WEIGHTED"
    assert definition["details"]["maintenanceModeSetting"]["enabled"] is True

    raw = api.client.put(
        PROXIES + "PetStore/import/",
        files={
            "metadata": (None, json.dumps({"deploy": True, "deployTargetEnvironmentNameList": ["test"]})),
            "apiProxyExportFile": ("x.zip", orders, "application/zip"),
        },
        headers=api.headers(),
    )
    assert raw.json() == {
        "status": "SUCCESS",
        "deploymentResult": {
            "success": True,
            "message": "Deployment completed successfully",
            "environmentResults": [
                {"environmentName": "test", "success": True, "message": "Deployed successfully"}
            ],
        },
    }
    deployed = client.api_proxies.get("Demo", "PetStore").deployment("test")
    assert deployed is not None and not deployed.redeploy_required


def test_override_creates_a_missing_proxy_under_the_paths_name(client: ApinizerClient) -> None:
    client.api_proxies.import_and_override("Demo", "Copy", client.api_proxies.export("Demo", "Calculator"))
    assert sorted(e.endpoint for e in client.endpoints.list("Demo", "Copy")) == ["Add", "Subtract"]
    assert client.api_proxies.get("Demo", "Copy").api_type == "SOAP"


def test_import_refusals(api: Api, client: ApinizerClient) -> None:
    exported = client.api_proxies.export("Demo", "Orders")
    before = [p.name for p in client.api_proxies.list("Demo")]
    assert_error(_import(api, exported, "export.json"), 400, "bad_request", NOT_A_ZIP)
    assert_error(_import(api, b"not a zip at all"), 400, "bad_request", NOT_A_ZIP)
    assert_error(_import(api, b""), 400, "bad_request", "apiProxyExportFile value can not be empty!")
    assert_error(
        _import(api, zip_of({"readme.txt": b"x"})),
        400,
        "bad_request",
        "apiProxyExportFile does not hold an API Proxy export (one .json file)",
    )
    definition = _export_json(exported)
    del definition["type"]
    assert_error(
        _import(api, zip_of({"Orders.json": json.dumps(definition).encode()})),
        400,
        "bad_request",
        "apiProxyExportFile does not hold a valid API Proxy export: type is required",
    )
    assert_error(
        api.client.post(
            "/apiops/projects/Nope/apiProxies/import/",
            files={"apiProxyExportFile": ("a.zip", exported)},
            headers=api.headers(),
        ),
        404,
        "not_found",
        "Project(Nope) was not found or user does not have privilege to access it!",
    )
    override = api.client.put(
        PROXIES + "Orders/import/", files={"metadata": (None, "{}")}, headers=api.headers()
    )
    assert_error(override, 400, "bad_request", "apiProxyExportFile parameter can not be empty!")
    assert [p.name for p in client.api_proxies.list("Demo")] == before
    with pytest.raises(BadRequestError, match=r"ApiProxy \(name: Gone\) was not found!"):
        client.api_proxies.export("Demo", "Gone")
    with pytest.raises(NotFoundError, match=r"Project\(Nope\) was not found"):
        client.api_proxies.export("Nope", "Orders")


def test_override_with_deploy_needs_the_deploy_role(
    emulator_url: str, developer_token: str, api: Api
) -> None:
    exported = api.request("GET", f"{PROXIES}Orders/export/").content
    response = api.client.put(
        PROXIES + "PetStore/import/",
        files={
            "metadata": (None, json.dumps({"deploy": True, "deployTargetEnvironmentNameList": ["test"]})),
            "apiProxyExportFile": ("a.zip", exported),
        },
        headers={"Authorization": f"Bearer {developer_token}"},
    )
    assert_error(response, 403, "forbidden")
    assert [e["endpoint"] for e in api.list("PetStore").json()["resultList"]] == [
        "/pets",
        "/pets",
        "/pets/{id}",
    ]
