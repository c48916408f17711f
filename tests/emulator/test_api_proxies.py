"""Projects, environments, API proxies and their deployment against the live emulator, over raw
HTTP: every documented answer shape, status and message, specs parsed into endpoints (OpenAPI 3
YAML, Swagger 2.0 JSON, WSDL 1.1 alone or in a ZIP with its XSDs, from a URL or an upload), bad
specs and URLs refused with nothing half created, and deployment state per environment."""

from __future__ import annotations

import json
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import httpx
import pytest

from _spec_server import Served, SpecServer, spec_server, zip_of
from apinizer_emulator import specs

from .conftest import Api, assert_error, endpoints_path

SPECS = Path(__file__).parent / "specs"
PETSTORE = (SPECS / "petstore-openapi.yaml").read_bytes()
ORDERS = (SPECS / "orders-swagger.json").read_bytes()
CALCULATOR = (SPECS / "calculator.wsdl").read_bytes()
TYPES_XSD = (SPECS / "types.xsd").read_bytes()
PROXIES = "/apiops/projects/Demo/apiProxies/"
PROJECT_404 = "Project (Nope) is not found or user does not have privilege to access it!"


@pytest.fixture(scope="module")
def served() -> Iterator[SpecServer]:
    with spec_server() as server:
        server.files.update(
            {
                "/petstore.yaml": Served(PETSTORE),
                "/orders.json": Served(ORDERS, content_type="application/json"),
                "/calculator.wsdl": Served(CALCULATOR, content_type="text/xml"),
            }
        )
        yield server


def metadata(name: str = "Shop", kind: str = "OPEN_API", **extra: Any) -> dict[str, Any]:
    return {
        "apiProxyName": name,
        "apiProxyCreationType": kind,
        "clientRoute": {"relativePathList": [f"/{name.lower()}"]},
        **extra,
    }


def upload(
    api: Api,
    method: str,
    meta: dict[str, Any],
    content: bytes | None,
    filename: str = "spec",
    token: str | None = None,
) -> httpx.Response:
    files: dict[str, Any] = {"metadata": (None, json.dumps(meta), "application/json")}
    if content is not None:
        files["specFile"] = (filename, content, "application/octet-stream")
    return api.client.request(method, PROXIES + "file/", files=files, headers=api.headers(token))


def endpoint_pairs(api: Api, proxy: str) -> list[tuple[str, str]]:
    response = api.list(proxy)
    assert response.status_code == 200, response.text
    return sorted((e["httpMethod"], e["endpoint"]) for e in response.json()["resultList"])


def proxy_names(api: Api) -> list[str]:
    return [p["name"] for p in api.request("GET", PROXIES).json()["resultList"]]


def deployment(api: Api, proxy: str) -> dict[str, Any]:
    response = api.request("GET", f"{PROXIES}{proxy}/")
    assert response.status_code == 200, response.text
    return {
        d["environmentName"]: (d["deployed"], d["redeployRequired"])
        for d in response.json()["deploymentList"]
    }


# -- projects and environments ------------------------------------------------------------------------


def test_projects_are_listed_with_the_status_envelope(api: Api) -> None:
    response = api.request("GET", "/apiops/projects/")
    assert response.json() == {
        "status": "SUCCESS",
        "resultList": [{"name": "Demo", "description": "The demo project"}],
        "resultCount": 1,
    }


def test_environments_are_listed_with_the_success_envelope(api: Api) -> None:
    expected = {
        "success": True,
        "resultList": [
            {
                "name": "test",
                "description": "Test environment",
                "type": "TEST",
                "status": "PUBLISHED",
                "accessUrl": "http://test.gateway.example",
            },
            {
                "name": "production",
                "description": "Production environment",
                "type": "PRODUCTION",
                "status": "PUBLISHED",
                "accessUrl": "https://gateway.example",
            },
        ],
        "resultCount": 2,
    }
    assert api.request("GET", "/apiops/environments/").json() == expected
    assert api.request("GET", "/apiops/environments/Demo").json() == expected


def test_environments_of_an_unknown_project(api: Api) -> None:
    assert_error(
        api.request("GET", "/apiops/environments/Nope"),
        400,
        "bad_request",
        "Project not found for name: (Nope) or user has not privilege to access it!",
    )


# -- reads of proxies -------------------------------------------------------------------------------


def test_proxies_are_listed_by_name(api: Api) -> None:
    response = api.request("GET", PROXIES)
    assert response.json() == {
        "status": "SUCCESS",
        "resultList": [
            {
                "name": "Calculator",
                "description": None,
                "type": "SOAP",
                "relativePath": "/Calculator",
                "soapToRest": False,
            },
            {
                "name": "Orders",
                "description": None,
                "type": "REST",
                "relativePath": "/Orders",
                "soapToRest": False,
            },
            {
                "name": "PetStore",
                "description": None,
                "type": "REST",
                "relativePath": "/PetStore",
                "soapToRest": False,
            },
        ],
        "resultCount": 3,
    }
    assert_error(api.request("GET", "/apiops/projects/Nope/apiProxies/"), 404, "not_found", PROJECT_404)


def test_get_answers_the_get_pages_shape(api: Api) -> None:
    body = api.request("GET", f"{PROXIES}PetStore/").json()
    assert body == {
        "name": "PetStore",
        "description": None,
        "apiType": "REST",
        "categoryList": [],
        "sharingType": "PUBLIC",  # EXTERNAL in the report's values
        "clientRoute": {"relativePathList": ["/PetStore"], "virtualHostList": []},
        "routing": {"routingEnabled": True, "routingAddressList": []},
        "deploymentList": [],
    }
    assert api.request("GET", f"{PROXIES}Orders/").json()["sharingType"] == "ORGANIZATION"
    assert_error(
        api.request("GET", f"{PROXIES}Gone/"), 404, "not_found", "ApiProxy (name: Gone) was not found!"
    )


# -- create from a URL --------------------------------------------------------------------------------


def test_create_from_url_parses_openapi_yaml(api: Api, served: SpecServer) -> None:
    body = metadata(
        "Shop",
        specUrl=served.url("/petstore.yaml"),
        apiProxyDescription="The shop",
        clientRoute={"relativePathList": ["/shop"], "virtualHostList": ["shop.example"]},
        routingInfo={
            "routingAddressList": [
                {"address": "https://pets.backend.example", "weight": 100, "healthCheckEnabled": True}
            ],
            "routingEnabled": True,
        },
        specAuthorizationValueList=[{"headerName": "X-Spec-Key", "headerValue": "k-123"}],
    )
    response = api.request("POST", PROXIES + "url/", body)
    assert response.status_code == 200, response.text
    assert response.json() == {"success": True}
    assert served.seen[-1]["X-Spec-Key"] == "k-123"
    assert endpoint_pairs(api, "Shop") == [
        ("DELETE", "/pets/{id}"),
        ("GET", "/pets"),
        ("GET", "/pets/{id}"),
        ("POST", "/pets"),
    ]
    listed = {e["endpoint"] + e["httpMethod"]: e for e in api.list("Shop").json()["resultList"]}
    assert listed["/petsGET"]["description"] == "List all pets" and listed["/petsGET"]["active"] is True
    assert listed["/petsGET"]["backendResourceUrl"] == "/pets"
    got = api.request("GET", f"{PROXIES}Shop/").json()
    assert got["description"] == "The shop" and got["apiType"] == "REST" and got["sharingType"] == "PROJECT"
    assert got["clientRoute"] == {"relativePathList": ["/shop"], "virtualHostList": ["shop.example"]}
    assert got["routing"]["routingAddressList"] == [
        {"address": "https://pets.backend.example", "weight": 100, "healthCheckEnabled": True}
    ]
    assert "Shop" in proxy_names(api)


def test_create_from_url_parses_swagger_json_and_wsdl(api: Api, served: SpecServer) -> None:
    assert (
        api.request(
            "POST", PROXIES + "url/", metadata("Ord", "SWAGGER", specUrl=served.url("/orders.json"))
        ).status_code
        == 200
    )
    assert endpoint_pairs(api, "Ord") == [("GET", "/orders"), ("PATCH", "/orders/{id}"), ("POST", "/orders")]
    assert (
        api.request(
            "POST", PROXIES + "url/", metadata("Calc", "WSDL", specUrl=served.url("/calculator.wsdl"))
        ).status_code
        == 200
    )
    assert endpoint_pairs(api, "Calc") == [("POST", "Add"), ("POST", "Multiply")]
    add = api.get("Add", "POST", proxy="Calc").json()
    assert add["description"] == "Adds two integers" and add["backendResourceUrl"] == "/calculator.asmx"
    assert api.request("GET", f"{PROXIES}Calc/").json()["apiType"] == "SOAP"


def test_a_reverse_proxy_needs_no_spec(api: Api) -> None:
    response = api.request("POST", PROXIES + "url/", metadata("Rev", "REVERSE_PROXY", specUrl=None))
    assert response.status_code == 200, response.text
    assert endpoint_pairs(api, "Rev") == []


@pytest.mark.parametrize(
    ("spec_path", "kind", "message"),
    [
        (
            "/petstore.yaml",
            "SWAGGER",
            "Invalid specification: apiProxyCreationType is SWAGGER but the file is an OpenAPI 3 document",
        ),
        (
            "/orders.json",
            "OPEN_API",
            "Invalid specification: apiProxyCreationType is OPEN_API but the file is a Swagger 2.0 document",
        ),
        ("/calculator.wsdl", "OPEN_API", "Invalid specification: the document is not a JSON or YAML object"),
        ("/petstore.yaml", "WSDL", "Invalid specification: petstore.yaml is not well-formed XML"),
        (
            "/no-version.json",
            "OPEN_API",
            "Invalid specification (OPEN_API): at info: 'version' is a required property",
        ),
        ("/missing.json", "OPEN_API", "it answered HTTP 404"),
    ],
)
def test_a_bad_spec_is_a_400_and_creates_nothing(
    api: Api, served: SpecServer, spec_path: str, kind: str, message: str
) -> None:
    served.files["/no-version.json"] = Served(b'{"openapi": "3.0.3", "info": {"title": "t"}, "paths": {}}')
    before = proxy_names(api)
    response = api.request("POST", PROXIES + "url/", metadata("Bad", kind, specUrl=served.url(spec_path)))
    assert_error(response, 400, "bad_request")
    assert message.replace("'", '"') in response.json()["error_description"].replace("'", '"'), response.text
    assert proxy_names(api) == before


def test_unreachable_and_refused_urls(api: Api, served: SpecServer, monkeypatch: pytest.MonkeyPatch) -> None:
    # A port nothing listens on: bind one, close it.
    import socket

    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        closed = f"http://127.0.0.1:{s.getsockname()[1]}/spec.json"
    cases = [
        (closed, f"Specification could not be read from URL ({closed}): "),
        ("file:///etc/passwd", "specUrl must be an http:// or https:// URL, got (file:///etc/passwd)"),
        ("ftp://specs.example/x.json", "specUrl must be an http:// or https:// URL"),
    ]
    monkeypatch.setattr(specs, "MAX_SPEC_BYTES", 100)
    cases.append((served.url("/petstore.yaml"), "it is larger than 100 bytes"))
    for url, message in cases:
        response = api.request("POST", PROXIES + "url/", metadata("Far", specUrl=url))
        assert_error(response, 400, "bad_request")
        assert message in response.json()["error_description"], (url, response.text)
    # The deadline alone is short: the other cases are under the default one, so that a loaded
    # machine's slow answer is not taken for the case they test.
    monkeypatch.setattr(specs, "FETCH_TIMEOUT", 0.5)
    served.files["/slow.json"] = Served(PETSTORE, delay=2.0)
    response = api.request("POST", PROXIES + "url/", metadata("Far", specUrl=served.url("/slow.json")))
    assert_error(response, 400, "bad_request")
    assert "it was not read whole within 0.5 seconds" in response.json()["error_description"], response.text
    assert "Far" not in proxy_names(api)


def test_create_refusals_without_a_spec(api: Api, served: SpecServer) -> None:
    url = served.url("/petstore.yaml")
    assert_error(
        api.request("POST", PROXIES + "url/", metadata("PetStore", specUrl=url)),
        400,
        "bad_request",
        "ApiProxy (name: PetStore) is already exist!",
    )
    assert_error(
        api.request("POST", PROXIES + "url/", metadata("X")),
        400,
        "bad_request",
        "specUrl value can not be empty!",
    )
    assert_error(
        api.request("POST", PROXIES + "url/", {"apiProxyCreationType": "OPEN_API"}),
        400,
        "bad_request",
        "apiProxyName is required",
    )
    assert_error(
        api.request("POST", "/apiops/projects/Nope/apiProxies/url/", metadata("X", specUrl=url)),
        404,
        "not_found",
        PROJECT_404,
    )
    response = api.request("POST", PROXIES + "url/", metadata("X", apiProxyCreationType="RAML", specUrl=url))
    assert_error(response, 400, "bad_request")
    assert response.json()["error_description"].startswith("apiProxyCreationType:")
    no_route = {**metadata("X", specUrl=url), "clientRoute": {"relativePathList": [""]}}
    assert_error(
        api.request("POST", PROXIES + "url/", no_route),
        400,
        "bad_request",
        "clientRoute.relativePathList must contain at least one path, and the first can not be empty!",
    )
    assert "X" not in proxy_names(api)


# -- create from a file ---------------------------------------------------------------------------------


def test_create_from_file_openapi_and_wsdl(api: Api) -> None:
    response = upload(api, "POST", metadata("Up"), PETSTORE, "petstore.yaml")
    assert response.status_code == 200, response.text
    assert response.json() == {"success": True}
    assert len(endpoint_pairs(api, "Up")) == 4
    assert upload(api, "POST", metadata("Soap", "WSDL"), CALCULATOR, "calc.wsdl").status_code == 200
    assert endpoint_pairs(api, "Soap") == [("POST", "Add"), ("POST", "Multiply")]


def test_a_zip_holds_a_wsdl_with_its_xsds(api: Api) -> None:
    complete = zip_of({"service/calculator.wsdl": CALCULATOR, "service/xsd/types.xsd": TYPES_XSD})
    response = upload(api, "POST", metadata("Zipped", "WSDL"), complete, "calc.zip")
    assert response.status_code == 200, response.text
    assert endpoint_pairs(api, "Zipped") == [("POST", "Add"), ("POST", "Multiply")]
    incomplete = zip_of({"calculator.wsdl": CALCULATOR})
    assert_error(
        upload(api, "POST", metadata("Half", "WSDL"), incomplete, "calc.zip"),
        400,
        "bad_request",
        "Invalid specification: calculator.wsdl imports (xsd/types.xsd), which the ZIP does not hold",
    )
    assert_error(
        upload(api, "POST", metadata("Half", "WSDL"), zip_of({"a.xsd": TYPES_XSD}), "x.zip"),
        400,
        "bad_request",
        "Invalid specification: the ZIP holds no .wsdl file",
    )
    assert "Half" not in proxy_names(api)


def test_file_upload_refusals(api: Api) -> None:
    assert_error(upload(api, "POST", metadata("NoFile"), None), 400, "bad_request", "specFile is required")
    response = api.client.post(PROXIES + "file/", json=metadata("X"), headers=api.headers())
    assert_error(
        response,
        400,
        "bad_request",
        "Content-Type must be multipart/form-data with the parts metadata and specFile",
    )
    response = api.client.post(
        PROXIES + "file/", files={"specFile": ("a.yaml", PETSTORE)}, headers=api.headers()
    )
    assert_error(response, 400, "bad_request", "metadata is required")
    response = api.client.post(
        PROXIES + "file/", files={"metadata": (None, "{nope"), "specFile": ("a", b"x")}, headers=api.headers()
    )
    assert_error(response, 400, "bad_request", "metadata is not valid JSON")
    xml_bomb = (
        b'<?xml version="1.0"?><!DOCTYPE d [<!ENTITY a "aaaa"><!ENTITY b "&a;&a;&a;">]>'
        b'<d xmlns="http://schemas.xmlsoap.org/wsdl/">&b;</d>'
    )
    response = upload(api, "POST", metadata("Bomb", "WSDL"), xml_bomb, "b.wsdl")
    assert_error(response, 400, "bad_request")
    assert "forbidden XML construct" in response.json()["error_description"]
    assert not {"NoFile", "X", "Bomb"} & set(proxy_names(api))


# -- update -----------------------------------------------------------------------------------------------


CHANGED = PETSTORE.replace(
    b"  /pets/{id}:",
    b'  /toys:\n    get:\n      responses:\n        "200":\n          description: toys\n  /pets/{id}:',
).replace(b'    delete:\n      responses:\n        "204":\n          description: Deleted\n', b"")


def test_update_re_parses_keeping_what_stays(api: Api, served: SpecServer) -> None:
    served.files["/shop.yaml"] = Served(PETSTORE)
    assert (
        api.request(
            "POST",
            PROXIES + "url/",
            metadata("Shop2", specUrl=served.url("/shop.yaml"), apiProxyDescription="v1"),
        ).status_code
        == 200
    )
    kept = api.get("/pets", "GET", proxy="Shop2").json()
    cache = {
        "identifierName": "/pets",
        "identifierHttpMethod": "GET",
        "cacheSettings": {"name": "c", "handlingAction": "STOP", "cacheActive": True},
    }
    assert api.request("PATCH", endpoints_path("cache", proxy="Shop2"), cache).status_code == 200
    served.files["/shop.yaml"] = Served(CHANGED)
    response = api.request(
        "PUT",
        PROXIES + "url/",
        {
            "apiProxyName": "Shop2",
            "apiProxyCreationType": "OPEN_API",
            "specUrl": served.url("/shop.yaml"),
            "apiProxyDescription": "",
            "reParse": True,
        },
    )
    assert response.status_code == 200, response.text
    assert endpoint_pairs(api, "Shop2") == [
        ("GET", "/pets"),
        ("GET", "/pets/{id}"),
        ("GET", "/toys"),
        ("POST", "/pets"),
    ]
    assert api.get("/pets", "GET", proxy="Shop2").json()["id"] == kept["id"]
    state = api.proxy_state("Shop2")
    assert (
        next(e for e in state["endpoints"] if e["endpoint"] == "/pets" and e["httpMethod"] == "GET")[
            "cacheSettings"
        ]["cacheActive"]
        is True
    )
    got = api.request("GET", f"{PROXIES}Shop2/").json()
    assert got["description"] == "v1"  # an empty description keeps the stored one
    assert got["clientRoute"]["relativePathList"] == ["/shop2"]  # no clientRoute keeps the stored one


def test_update_from_file_and_its_refusals(api: Api) -> None:
    assert upload(api, "POST", metadata("Files"), PETSTORE, "p.yaml").status_code == 200
    response = upload(
        api,
        "PUT",
        {"apiProxyName": "Files", "apiProxyCreationType": "OPEN_API", "reParse": True},
        CHANGED,
        "p.yaml",
    )
    assert response.status_code == 200, response.text
    assert ("GET", "/toys") in endpoint_pairs(api, "Files")
    assert_error(
        upload(
            api,
            "PUT",
            {"apiProxyName": "Files", "apiProxyCreationType": "SWAGGER", "reParse": True},
            ORDERS,
            "o.json",
        ),
        400,
        "bad_request",
        "ApiProxy (name: Files) was created as OPEN_API; its type can not be changed to SWAGGER!",
    )
    assert_error(
        upload(
            api,
            "PUT",
            {"apiProxyName": "Missing", "apiProxyCreationType": "OPEN_API", "reParse": True},
            PETSTORE,
        ),
        400,
        "bad_request",
        "ApiProxy (name: Missing) can not be reparsed because it is not exist. First create it!",
    )
    assert_error(
        upload(
            api,
            "PUT",
            {
                "apiProxyName": "Files",
                "apiProxyCreationType": "OPEN_API",
                "soapToRest": True,
                "reParse": True,
            },
            PETSTORE,
        ),
        400,
        "bad_request",
        "ApiProxy (name: Files) was not created with soapToRest; it can not be enabled on update!",
    )
    # A failed update changed nothing.
    assert ("GET", "/toys") in endpoint_pairs(api, "Files")


# -- deployment -----------------------------------------------------------------------------------------


def test_deployment_state_per_environment(api: Api) -> None:
    deploy = f"{PROXIES}PetStore/environments/test/"
    response = api.request("POST", deploy)
    assert response.json() == {
        "success": True,
        "deploymentResult": {
            "success": True,
            "deploymentResults": [
                {"environmentName": "test", "success": True, "message": "Deployment successful"}
            ],
        },
    }
    assert deployment(api, "PetStore") == {"test": (True, False)}
    assert (
        api.create(
            {"name": "/toys", "httpMethod": "GET", "backendResourceUrl": "/toys", "backendHttpMethod": "GET"}
        ).status_code
        == 200
    )
    assert deployment(api, "PetStore") == {"test": (True, True)}
    api.request("POST", f"{PROXIES}PetStore/environments/production/")
    assert deployment(api, "PetStore") == {"test": (True, True), "production": (True, False)}
    assert api.request("POST", deploy).status_code == 200  # a redeploy
    assert deployment(api, "PetStore") == {"test": (True, False), "production": (True, False)}
    response = api.request("DELETE", deploy)
    assert response.json()["deploymentResult"]["deploymentResults"] == [
        {"environmentName": "test", "success": True, "message": "Undeployment successful"}
    ]
    assert deployment(api, "PetStore") == {"test": (False, False), "production": (True, False)}
    assert_error(
        api.request("DELETE", deploy),
        400,
        "bad_request",
        "ApiProxy with name (PetStore) is not deployed to Environment(test)!",
    )


def test_settings_and_policies_changes_also_require_a_redeploy(api: Api) -> None:
    api.request("POST", f"{PROXIES}Orders/environments/test/")
    status = {"identifierName": "/orders", "identifierHttpMethod": "GET", "active": False}
    assert api.request("PATCH", endpoints_path("status", proxy="Orders"), status).status_code == 200
    assert deployment(api, "Orders") == {"test": (True, True)}


def test_deploy_to_what_does_not_exist(api: Api) -> None:
    assert_error(
        api.request("POST", f"{PROXIES}PetStore/environments/nowhere/"),
        400,
        "bad_request",
        "ApiProxy with name (PetStore) can not be deployed to Environment(nowhere) because it is not exist!",
    )
    assert_error(
        api.request("POST", f"{PROXIES}Gone/environments/test/"),
        400,
        "bad_request",
        "ApiProxy with name (Gone) can not be deployed to Environment(test) because it is not exist!",
    )
    assert_error(
        api.request("DELETE", f"{PROXIES}Gone/environments/test/"),
        400,
        "bad_request",
        "ApiProxy with name (Gone) can not be deployed to Environment(test) because it is not exist!",
    )
    assert_error(
        api.request("POST", "/apiops/projects/Nope/apiProxies/X/environments/test/"),
        404,
        "not_found",
        PROJECT_404,
    )


def test_create_and_deploy_in_one_request(api: Api) -> None:
    body = metadata(
        "Both", "REVERSE_PROXY", deploy=True, deployTargetEnvironmentNameList=["test", "production"]
    )
    response = api.request("POST", PROXIES + "url/", body)
    assert response.json() == {
        "success": True,
        "deploymentResult": {
            "success": True,
            "deploymentResults": [
                {"environmentName": "test", "success": True, "message": "Deployment successful"},
                {"environmentName": "production", "success": True, "message": "Deployment successful"},
            ],
        },
    }
    assert deployment(api, "Both") == {"test": (True, False), "production": (True, False)}
    bad = metadata("Never", "REVERSE_PROXY", deploy=True, deployTargetEnvironmentNameList=["test", "nowhere"])
    assert_error(
        api.request("POST", PROXIES + "url/", bad),
        400,
        "bad_request",
        "ApiProxy with name (Never) can not be deployed to Environment(nowhere) because it is not exist!",
    )
    assert "Never" not in proxy_names(api)


def test_delete_undeploys_everywhere(api: Api) -> None:
    api.request("POST", f"{PROXIES}PetStore/environments/production/")
    api.request("POST", f"{PROXIES}PetStore/environments/test/")
    response = api.request("DELETE", f"{PROXIES}PetStore/")
    assert response.json() == {
        "success": True,
        "deploymentResult": {
            "success": True,
            "deploymentResults": [
                {"environmentName": "test", "success": True, "message": "Undeployment successful"},
                {"environmentName": "production", "success": True, "message": "Undeployment successful"},
            ],
        },
    }
    assert_error(api.request("GET", f"{PROXIES}PetStore/"), 404, "not_found")
    assert_error(api.list("PetStore"), 404, "not_found")
    assert_error(
        api.request("DELETE", f"{PROXIES}PetStore/"), 400, "bad_request", "Api Proxy (PetStore) is not found!"
    )
    assert "PetStore" not in proxy_names(api)


def test_spec_authorization_values_never_reach_an_answer(api: Api, served: SpecServer) -> None:
    url = served.url("/petstore.yaml")
    bad_value = [{"headerName": "Authorization", "headerValue": "Bearer s3cret\r\nX-Injected: 1"}]
    response = api.request(
        "POST", PROXIES + "url/", metadata("Auth", specUrl=url, specAuthorizationValueList=bad_value)
    )
    assert_error(
        response,
        400,
        "bad_request",
        "specAuthorizationValueList: the value of header (Authorization) can not be sent",
    )
    assert "s3cret" not in response.text
    bad_name = [{"headerName": "Bad Name", "headerValue": "s3cret"}]
    response = api.request(
        "POST", PROXIES + "url/", metadata("Auth", specUrl=url, specAuthorizationValueList=bad_name)
    )
    assert_error(
        response, 400, "bad_request", "specAuthorizationValueList: (Bad Name) is not a valid header name"
    )
    assert "Auth" not in proxy_names(api)


def test_a_put_without_re_parse_re_parses_as_the_update_pages_default(api: Api) -> None:
    assert upload(api, "POST", metadata("Dflt"), PETSTORE, "p.yaml").status_code == 200
    response = upload(
        api, "PUT", {"apiProxyName": "Dflt", "apiProxyCreationType": "OPEN_API"}, CHANGED, "p.yaml"
    )
    assert response.status_code == 200, response.text
    assert ("GET", "/toys") in endpoint_pairs(api, "Dflt")
    # reParse false: the settings change, the spec is not read (none is needed).
    response = upload(
        api,
        "PUT",
        {
            "apiProxyName": "Dflt",
            "apiProxyCreationType": "OPEN_API",
            "reParse": False,
            "apiProxyDescription": "settings only",
        },
        None,
    )
    assert response.status_code == 200, response.text
    assert ("GET", "/toys") in endpoint_pairs(api, "Dflt")
    assert api.request("GET", f"{PROXIES}Dflt/").json()["description"] == "settings only"


def test_api_proxies_report(api: Api) -> None:
    plain = api.request("GET", "/apiops/reports/api-proxies").json()
    assert plain["success"] is True and plain["resultCount"] == 3
    assert [(p["name"], p["type"]) for p in plain["resultList"]] == [
        ("Calculator", "SOAP"),
        ("Orders", "REST"),
        ("PetStore", "REST"),
    ]
    assert set(plain["resultList"][0]) == {"id", "name", "description", "type"}
    full = api.request("GET", "/apiops/reports/api-proxies?includeEndpoints=true").json()
    pets = full["resultList"][2]["endpoints"]
    assert [(e["name"], e["method"], e["path"]) for e in pets] == [
        ("GET /pets", "GET", "/pets"),
        ("POST /pets", "POST", "/pets"),
        ("GET /pets/{id}", "GET", "/pets/{id}"),
    ]
    assert pets[0]["id"] == api.get("/pets", "GET").json()["id"]
    assert_error(
        api.request("GET", "/apiops/reports/api-proxies?includeEndpoints=maybe"),
        400,
        "bad_request",
        "includeEndpoints must be true or false",
    )
    analyst = api.as_user("dev-analyst-token").request("GET", "/apiops/reports/api-proxies")
    assert analyst.status_code == 200
    assert_error(
        api.as_user("dev-developer-token").request("GET", "/apiops/reports/api-proxies"),
        401,
        "unauthorized_client",
        "Unauthorized API Access!",
    )
