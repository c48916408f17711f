"""``client.projects``, ``client.environments`` and ``client.api_proxies`` against a fake gateway
(``httpx.MockTransport``): the exact request each operation sends, the multipart upload, the
parsing of every documented answer shape, the errors and what is retried."""

from __future__ import annotations

import io
import json
import os
import pickle
import zipfile
from pathlib import Path
from typing import Any

import httpx
import pytest

from apinizer_pulumi.client import (
    ApinizerClient,
    ApinizerError,
    APIResponseValidationError,
    AuthenticationError,
    BadRequestError,
    DeploymentFailedError,
    InvalidArgumentTypeError,
    NotFoundError,
)
from apinizer_pulumi.client._constants import UPLOAD_SECONDS_PER_MIB, UPLOAD_TIMEOUT, upload_timeout
from apinizer_pulumi.models import ApiProxyRequest, ApiProxySpecType, ClientRoute, RoutingInfo

from ._fake_gateway import BASE_URL, STATIC_TOKEN, FakeGateway, body, error, multipart_parts

DOCS = json.loads(
    (Path(__file__).parent / "data" / "api_proxy_doc_examples.json").read_text(encoding="utf-8")
)
PROXIES = "/apiops/projects/Demo/apiProxies/"
URL = PROXIES + "url/"
FILE = PROXIES + "file/"
DEPLOY = PROXIES + "Orders/environments/test/"
DEPLOYED = DOCS["02-api-reference/04-api-proxies/deployment/deploy.md#0"]["body"]
OPENAPI = b'{"openapi": "3.0.3", "info": {"title": "t", "version": "1"}, "paths": {}}'


def _doc(page: str, block: int = 0) -> Any:
    return next(v["body"] for k, v in DOCS.items() if k.endswith(f"/{page}#{block}"))


def _request(**changes: Any) -> ApiProxyRequest:
    return ApiProxyRequest(
        api_proxy_name="Orders",
        api_proxy_creation_type=ApiProxySpecType.OPEN_API,
        client_route=ClientRoute(relative_path_list=["/orders"]),
        **changes,
    )


# -- projects and environments ---------------------------------------------------------------------


def test_projects_list_reads_the_status_envelope(gateway: FakeGateway, client: ApinizerClient) -> None:
    gateway.script("GET", "/apiops/projects/", httpx.Response(200, json=_doc("list-projects.md")))
    projects = client.projects.list()
    assert [(p.name, p.description) for p in projects] == [
        ("default", "description text"),
        ("MyProject", "My project description"),
    ]
    assert gateway.last.method == "GET" and gateway.last.content == b""


def test_environments_list_and_per_project(gateway: FakeGateway, client: ApinizerClient) -> None:
    gateway.script("GET", "/apiops/environments/", httpx.Response(200, json=_doc("list-environments.md")))
    gateway.script(
        "GET",
        "/apiops/environments/My Project",
        httpx.Response(200, json=_doc("get-environments-by-project.md")),
    )
    assert [e.name for e in client.environments.list()] == ["production", "staging", "development"]
    assert [e.name for e in client.environments.list_for_project("My Project")] == ["production", "staging"]
    # As documented, without the trailing slash every other path has.
    assert gateway.last.url.raw_path == b"/apiops/environments/My%20Project"


def test_environments_of_an_unknown_project_is_a_bad_request(
    gateway: FakeGateway, client: ApinizerClient
) -> None:
    gateway.script(
        "GET", "/apiops/environments/Nope", error(400, "bad_request", "Project not found for name: (Nope)")
    )
    with pytest.raises(BadRequestError, match="Project not found"):
        client.environments.list_for_project("Nope")


def test_environments_list_for_non_admin_is_401(gateway: FakeGateway, client: ApinizerClient) -> None:
    gateway.script(
        "GET",
        "/apiops/environments/",
        error(401, "unauthorized_client", "Invalid token or insufficient permissions"),
    )
    with pytest.raises(AuthenticationError):
        client.environments.list()


# -- reads ------------------------------------------------------------------------------------------


def test_list_and_get(gateway: FakeGateway, client: ApinizerClient) -> None:
    gateway.script("GET", PROXIES, httpx.Response(200, json=_doc("list-api-proxies.md")))
    gateway.script("GET", PROXIES + "MyAPI/", httpx.Response(200, json=_doc("get-api-proxy.md")))
    listed = client.api_proxies.list("Demo")
    assert [(p.name, p.type, p.relative_path) for p in listed] == [
        ("Contact Application API", "REST", "/contact"),
        ("SOAP Service", "SOAP", "/soap"),
    ]
    proxy = client.api_proxies.get("Demo", "MyAPI")
    assert proxy.api_type == "REST" and proxy.deployment("production") is not None


def test_find_is_none_for_a_missing_proxy_but_raises_for_a_missing_project(
    gateway: FakeGateway, client: ApinizerClient
) -> None:
    gateway.script("GET", PROXIES + "Gone/", error(404, "not_found", "ApiProxy (name: Gone) was not found!"))
    assert client.api_proxies.find("Demo", "Gone") is None
    gateway.script(
        "GET",
        "/apiops/projects/Nope/apiProxies/X/",
        error(404, "not_found", "Project (Nope) is not found or user does not have privilege to access it!"),
    )
    with pytest.raises(NotFoundError, match="Project"):
        client.api_proxies.find("Nope", "X")


def test_proxy_names_are_percent_encoded(gateway: FakeGateway, client: ApinizerClient) -> None:
    gateway.script("GET", PROXIES + "a/b c/", httpx.Response(200, json={"name": "a/b c"}))
    assert client.api_proxies.get("Demo", "a/b c").name == "a/b c"
    assert gateway.last.url.raw_path == b"/apiops/projects/Demo/apiProxies/a%2Fb%20c/"


# -- create and update from a URL -----------------------------------------------------------------


def test_create_from_url_sends_the_documented_body(gateway: FakeGateway, client: ApinizerClient) -> None:
    gateway.script("POST", URL, httpx.Response(200, json=_doc("create-api-proxy-from-url.md", 1)))
    result = client.api_proxies.create_from_url(
        "Demo",
        _request(
            spec_url="https://specs.example/orders.json",
            routing_info=RoutingInfo.model_validate(
                {"routingAddressList": [{"address": "http://b", "weight": 100}]}
            ),
            deploy=True,
            deploy_target_environment_name_list=["production"],
        ),
    )
    assert result.deployment_result is not None and result.deployment_result.ok
    assert body(gateway.last) == {
        "apiProxyName": "Orders",
        "apiProxyCreationType": "OPEN_API",
        "specUrl": "https://specs.example/orders.json",
        "clientRoute": {"relativePathList": ["/orders"]},
        "routingInfo": {"routingAddressList": [{"address": "http://b", "weight": 100}]},
        "deploy": True,
        "deployTargetEnvironmentNameList": ["production"],
        "reParse": False,
        "soapToRest": False,
        "enableWSA": False,
        "enableWSRM": False,
        "specAuthorizationValueList": [],
    }


def test_the_documented_request_examples_are_sent_as_they_are(
    gateway: FakeGateway, client: ApinizerClient
) -> None:
    example = _doc("create-api-proxy-from-url.md", 0)
    client.api_proxies.create_from_url("Demo", example)
    assert body(gateway.last) == example
    update = _doc("update-api-proxy-from-url.md", 2)  # the reverse proxy: specUrl null
    client.api_proxies.update_from_url("Demo", update)
    assert gateway.last.method == "PUT" and body(gateway.last) == {
        k: v for k, v in update.items() if v is not None
    }


def test_a_spec_kind_without_spec_url_is_refused_before_sending(
    gateway: FakeGateway, client: ApinizerClient
) -> None:
    with pytest.raises(ValueError, match="spec_url is required for an OPEN_API proxy"):
        client.api_proxies.create_from_url("Demo", _request())
    assert gateway.api_requests == []


def test_update_from_url_sets_re_parse(gateway: FakeGateway, client: ApinizerClient) -> None:
    client.api_proxies.update_from_url("Demo", _request(spec_url="https://specs.example/o.yaml"))
    assert gateway.last.method == "PUT" and gateway.last.url.path == URL
    assert body(gateway.last)["reParse"] is True
    client.api_proxies.update("Demo", _request(api_proxy_description="only the text"))
    assert (
        body(gateway.last)["reParse"] is False
        and body(gateway.last)["apiProxyDescription"] == "only the text"
    )


def test_create_of_a_taken_name_is_a_bad_request(gateway: FakeGateway, client: ApinizerClient) -> None:
    gateway.script("POST", URL, error(400, "bad_request", "ApiProxy (name: Orders) is already exist!"))
    with pytest.raises(BadRequestError, match=r"is already exist"):
        client.api_proxies.create_from_url("Demo", _request(spec_url="http://s/x.json"))


def test_create_is_not_retried_after_it_may_have_arrived(
    gateway: FakeGateway, client: ApinizerClient
) -> None:
    gateway.script("POST", URL, httpx.Response(503))
    with pytest.raises(Exception, match="503"):
        client.api_proxies.create_from_url("Demo", _request(spec_url="http://s/x.json"))
    assert len(gateway.api_requests) == 1


def test_spec_authorization_values_never_reach_an_error(gateway: FakeGateway, client: ApinizerClient) -> None:
    gateway.script("POST", URL, error(400, "bad_request", "Invalid specification URL"))
    request = _request(
        spec_url="http://s/x.json",
        spec_authorization_value_list=[{"header_name": "Authorization", "header_value": "Bearer hush-123"}],
    )
    with pytest.raises(BadRequestError) as caught:
        client.api_proxies.create_from_url("Demo", request)
    assert "hush-123" not in str(caught.value) and "hush-123" not in repr(caught.value)
    assert "hush-123" not in repr(request)


# -- the file uploads --------------------------------------------------------------------------------


def test_create_from_file_sends_metadata_and_the_spec(
    gateway: FakeGateway, client: ApinizerClient, tmp_path: Path
) -> None:
    spec = tmp_path / "orders.json"
    spec.write_bytes(OPENAPI)
    gateway.script("POST", FILE, httpx.Response(200, json={"success": True}))
    client.api_proxies.create_from_file("Demo", _request(), spec)
    request = gateway.last
    assert request.headers["content-type"].startswith("multipart/form-data; boundary=")
    parts = multipart_parts(request)
    assert set(parts) == {"metadata", "specFile"}
    filename, content_type, content = parts["metadata"]
    assert filename is None and content_type == "application/json"
    assert json.loads(content)["apiProxyName"] == "Orders" and json.loads(content)["reParse"] is False
    assert parts["specFile"] == ("orders.json", "application/json", OPENAPI)


def test_a_directory_is_sent_as_a_zip_that_does_not_depend_on_file_times(
    gateway: FakeGateway, client: ApinizerClient, tmp_path: Path
) -> None:
    service = tmp_path / "service"
    (service / "xsd").mkdir(parents=True)
    (service / "service.wsdl").write_text("<definitions/>")
    (service / "xsd" / "types.xsd").write_text("<schema/>")
    request = ApiProxyRequest(
        api_proxy_name="Calc", api_proxy_creation_type="WSDL", client_route={"relative_path_list": ["/calc"]}
    )
    client.api_proxies.create_from_file("Demo", request, service)
    first = multipart_parts(gateway.last)["specFile"]
    assert first[0] == "service.zip" and first[1] == "application/zip"
    with zipfile.ZipFile(io.BytesIO(first[2])) as archive:
        assert archive.namelist() == ["service.wsdl", "xsd/types.xsd"]
        assert archive.read("xsd/types.xsd") == b"<schema/>"
    os.utime(service / "service.wsdl", (1_000_000_000, 1_000_000_000))
    client.api_proxies.create_from_file("Demo", request, service)
    assert multipart_parts(gateway.last)["specFile"] == first


def test_update_from_file_is_a_put_with_re_parse(gateway: FakeGateway, client: ApinizerClient) -> None:
    client.api_proxies.update_from_file("Demo", _request(), b"openapi: 3.0.3\n", filename="o.yaml")
    assert gateway.last.method == "PUT" and gateway.last.url.path == FILE
    parts = multipart_parts(gateway.last)
    assert json.loads(parts["metadata"][2])["reParse"] is True
    assert parts["specFile"] == ("o.yaml", "application/yaml", b"openapi: 3.0.3\n")


def test_a_retried_upload_sends_the_whole_body_again(gateway: FakeGateway, client: ApinizerClient) -> None:
    gateway.script("PUT", FILE, httpx.ConnectError("refused"), httpx.Response(200, json={"success": True}))
    client.api_proxies.update_from_file("Demo", _request(), OPENAPI, filename="o.json")
    first, second = gateway.api_requests
    assert multipart_parts(first) == multipart_parts(second)
    assert multipart_parts(second)["specFile"][2] == OPENAPI


@pytest.mark.parametrize("lost", [httpx.ReadTimeout("timed out"), httpx.Response(504)],
                         ids=["timeout", "504"])
@pytest.mark.parametrize("call", ["update_from_file", "update_from_url", "update with re_parse"])
def test_a_re_parse_that_may_have_arrived_is_not_sent_again(
    gateway: FakeGateway, client: ApinizerClient, lost: httpx.Response | Exception, call: str
) -> None:
    # A re-parse of a big spec takes seconds on the gateway: repeating it blindly after a lost
    # answer re-parses it again (the provider reads the proxy back first instead).
    path = FILE if call == "update_from_file" else URL
    gateway.script("PUT", path, lost, httpx.Response(200, json={"success": True}))
    with pytest.raises(ApinizerError):
        if call == "update_from_file":
            client.api_proxies.update_from_file("Demo", _request(), OPENAPI, filename="o.json")
        elif call == "update_from_url":
            client.api_proxies.update_from_url("Demo", _request(spec_url="http://s/x.json"))
        else:
            client.api_proxies.update("Demo", _request(spec_url="http://s/x.json", re_parse=True))
    assert len(gateway.api_requests) == 1


def test_an_update_without_re_parse_is_retried(gateway: FakeGateway, client: ApinizerClient) -> None:
    gateway.script("PUT", URL, httpx.ReadTimeout("timed out"), httpx.Response(200, json={"success": True}))
    client.api_proxies.update("Demo", _request(spec_url="http://s/x.json"))
    assert len(gateway.api_requests) == 2


def _read_timeout(request: httpx.Request) -> float:
    timeout: dict[str, float] = request.extensions["timeout"]
    return timeout["read"]


def test_an_upload_waits_for_its_answer_in_proportion_to_its_size(gateway: FakeGateway) -> None:
    transport = httpx.MockTransport(gateway)
    with ApinizerClient(BASE_URL, token=STATIC_TOKEN, timeout=10, transport=transport) as client:
        client.api_proxies.update_from_file("Demo", _request(), OPENAPI, filename="o.json")
        # The metadata part counts too: a few hundred bytes, a few ms.
        assert _read_timeout(gateway.last) == pytest.approx(UPLOAD_TIMEOUT, abs=0.1)
        big = b"#" * (4 * 1024 * 1024)
        client.api_proxies.update_from_file("Demo", _request(), big, filename="o.yaml")
        assert _read_timeout(gateway.last) == pytest.approx(upload_timeout(len(big), 10), abs=0.1)
        assert upload_timeout(len(big), 10) == UPLOAD_TIMEOUT + 4 * UPLOAD_SECONDS_PER_MIB
    # A timeout set above the size's default wins for uploads too; other requests keep it as set.
    with ApinizerClient(BASE_URL, token=STATIC_TOKEN, timeout=900, transport=transport) as client:
        client.api_proxies.update_from_file("Demo", _request(), OPENAPI, filename="o.json")
        assert _read_timeout(gateway.last) == 900
    with ApinizerClient(BASE_URL, token=STATIC_TOKEN, timeout=7, transport=transport) as client:
        gateway.script("GET", PROXIES, httpx.Response(200, json={"success": True, "resultList": []}))
        client.api_proxies.list("Demo")
        assert _read_timeout(gateway.last) == 7


def test_a_spec_given_as_an_open_binary_file_is_sent(
    gateway: FakeGateway, client: ApinizerClient, tmp_path: Path
) -> None:
    spec = tmp_path / "orders.json"
    spec.write_bytes(OPENAPI)
    with spec.open("rb") as opened:
        client.api_proxies.create_from_file("Demo", _request(), opened)
    assert multipart_parts(gateway.last)["specFile"] == ("orders.json", "application/json", OPENAPI)
    client.api_proxies.update_from_file("Demo", _request(), io.BytesIO(OPENAPI), filename="o.json")
    assert multipart_parts(gateway.last)["specFile"] == ("o.json", "application/json", OPENAPI)


@pytest.mark.parametrize("wrong", ["text file", 42], ids=["text-file", "int"])
def test_a_spec_of_another_kind_names_the_argument_and_what_it_takes(
    client: ApinizerClient, tmp_path: Path, wrong: str | int
) -> None:
    spec = tmp_path / "orders.json"
    spec.write_bytes(OPENAPI)
    with spec.open("r", encoding="utf-8") as text:
        given = text if wrong == "text file" else wrong
        with pytest.raises(InvalidArgumentTypeError) as caught:
            client.api_proxies.create_from_file("Demo", _request(), given)  # type: ignore[arg-type]
    assert caught.value.argument == "spec_file"
    assert "bytes, a path to a file or a directory, or a file opened in binary mode" in str(caught.value)


def test_reverse_proxy_upload_needs_no_file_but_others_do(
    gateway: FakeGateway, client: ApinizerClient
) -> None:
    client.api_proxies.create_from_file(
        "Demo", ApiProxyRequest(api_proxy_name="R", api_proxy_creation_type="REVERSE_PROXY"), None
    )
    assert set(multipart_parts(gateway.last)) == {"metadata"}
    with pytest.raises(ValueError, match="spec_file is required for an WSDL proxy"):
        client.api_proxies.create_from_file(
            "Demo", ApiProxyRequest(api_proxy_name="W", api_proxy_creation_type="WSDL"), None
        )
    with pytest.raises(ValueError, match="spec_file cannot be read"):
        client.api_proxies.create_from_file("Demo", _request(), "/nonexistent/spec.json")
    with pytest.raises(ValueError, match="spec_file is empty"):
        client.api_proxies.create_from_file("Demo", _request(), b"")


# -- delete and deployment ---------------------------------------------------------------------------


def test_deploy_undeploy_delete_send_no_body(gateway: FakeGateway, client: ApinizerClient) -> None:
    gateway.script("POST", DEPLOY, httpx.Response(200, json=DEPLOYED))
    gateway.script("DELETE", DEPLOY, httpx.Response(200, json=_doc("undeploy.md")))
    gateway.script("DELETE", PROXIES + "Orders/", httpx.Response(200, json=_doc("delete-api-proxy.md")))
    deployed = client.api_proxies.deploy("Demo", "Orders", "test")
    assert deployed.deployment_result is not None
    assert deployed.deployment_result.per_environment()[0].message == "Deployment successful"
    client.api_proxies.undeploy("Demo", "Orders", "test")
    removed = client.api_proxies.delete("Demo", "Orders")
    assert removed.deployment_result is not None
    assert [r.environment_name for r in removed.deployment_result.per_environment()] == [
        "production",
        "staging",
    ]
    assert [(r.method, r.url.path, r.content) for r in gateway.api_requests] == [
        ("POST", DEPLOY, b""),
        ("DELETE", DEPLOY, b""),
        ("DELETE", PROXIES + "Orders/", b""),
    ]


@pytest.mark.parametrize(
    "result",
    [
        {
            "success": False,
            "deploymentResults": [
                {"environmentName": "test", "success": False, "message": "Gateway pods unreachable"}
            ],
        },
        {
            "success": False,
            "message": "x",
            "environmentResults": [
                {"environmentName": "test", "success": False, "message": "Gateway pods unreachable"}
            ],
        },
        {
            "success": False,
            "detailList": [{"envName": "test", "podName": "Gateway pods unreachable", "success": False}],
        },
    ],
)
def test_a_failed_deployment_names_the_environment_and_message(
    gateway: FakeGateway, client: ApinizerClient, result: dict[str, Any]
) -> None:
    gateway.script("POST", DEPLOY, httpx.Response(200, json={"success": True, "deploymentResult": result}))
    with pytest.raises(DeploymentFailedError) as caught:
        client.api_proxies.deploy("Demo", "Orders", "test")
    assert caught.value.failures[0][0] == "test"
    assert "test: " in str(caught.value) and "Gateway pods unreachable" in str(caught.value)
    again = pickle.loads(pickle.dumps(caught.value))
    assert str(again) == str(caught.value)


def test_a_failed_deployment_under_an_envelope_of_success_false_is_the_deployment_error(
    gateway: FakeGateway, client: ApinizerClient
) -> None:
    # What the emulator answers, and a gateway may: the envelope says false, the result says where.
    failed = {"success": False, "deploymentResults": [
        {"environmentName": "staging", "success": False,
         "message": "Environment (staging) is not published"}]}
    gateway.script("POST", DEPLOY, httpx.Response(200, json={"success": False, "deploymentResult": failed}))
    with pytest.raises(DeploymentFailedError) as caught:
        client.api_proxies.deploy("Demo", "Orders", "test")
    assert caught.value.failures == [("staging", "Environment (staging) is not published")]

    # Without a deploymentResult that names a failure, success: false stays an unexpected answer.
    gateway.script("POST", DEPLOY, httpx.Response(200, json={"success": False}))
    with pytest.raises(APIResponseValidationError):
        client.api_proxies.deploy("Demo", "Orders", "test")


def test_deploy_is_retried_but_undeploy_and_delete_are_not(
    gateway: FakeGateway, client: ApinizerClient
) -> None:
    gateway.script("POST", DEPLOY, httpx.Response(502), httpx.Response(200, json=DEPLOYED))
    client.api_proxies.deploy("Demo", "Orders", "test")
    assert len(gateway.api_requests) == 2
    gateway.script("DELETE", DEPLOY, httpx.Response(502))
    with pytest.raises(Exception, match="502"):
        client.api_proxies.undeploy("Demo", "Orders", "test")
    gateway.script("DELETE", PROXIES + "Orders/", httpx.Response(502))
    with pytest.raises(Exception, match="502"):
        client.api_proxies.delete("Demo", "Orders")
    assert len(gateway.api_requests) == 4


def test_status_failure_envelope_is_an_error(gateway: FakeGateway, client: ApinizerClient) -> None:
    gateway.script("POST", DEPLOY, httpx.Response(200, json={"status": "FAILURE"}))
    with pytest.raises(APIResponseValidationError, match="success: false"):
        client.api_proxies.deploy("Demo", "Orders", "test")


def test_deploy_to_an_unknown_environment_is_the_gateways_400(
    gateway: FakeGateway, client: ApinizerClient
) -> None:
    message = (
        "ApiProxy with name (Orders) can not be deployed to Environment(nowhere) because it is not exist!"
    )
    gateway.script("POST", PROXIES + "Orders/environments/nowhere/", error(400, "bad_request", message))
    with pytest.raises(BadRequestError) as caught:
        client.api_proxies.deploy("Demo", "Orders", "nowhere")
    assert caught.value.error_description == message


# -- export and import -------------------------------------------------------------------------------

EXPORT = PROXIES + "Orders/export/"
ZIP_BYTES = b"PK\x03\x04 an export"


def test_export_returns_the_zip_bytes(gateway: FakeGateway, client: ApinizerClient) -> None:
    gateway.script(
        "GET",
        EXPORT,
        httpx.Response(200, content=ZIP_BYTES, headers={"Content-Type": "application/octet-stream"}),
    )
    assert client.api_proxies.export("Demo", "Orders") == ZIP_BYTES
    assert gateway.last.method == "GET"


def test_import_sends_the_export_file_part(
    gateway: FakeGateway, client: ApinizerClient, tmp_path: Path
) -> None:
    gateway.script("POST", PROXIES + "import/", httpx.Response(200, json=_doc("import-api-proxy.md")))
    assert client.api_proxies.import_proxy("Demo", ZIP_BYTES).ok
    assert multipart_parts(gateway.last) == {
        "apiProxyExportFile": ("apiProxyExportFile.zip", "application/zip", ZIP_BYTES)
    }
    saved = tmp_path / "orders-export.zip"
    saved.write_bytes(ZIP_BYTES)
    client.api_proxies.import_proxy("Demo", saved)
    assert multipart_parts(gateway.last)["apiProxyExportFile"][0] == "orders-export.zip"
    # The gateway refuses a name without .zip; the client sends the documented one instead.
    odd = tmp_path / "export.bin"
    odd.write_bytes(ZIP_BYTES)
    client.api_proxies.import_proxy("Demo", odd)
    assert multipart_parts(gateway.last)["apiProxyExportFile"][0] == "apiProxyExportFile.zip"


def test_import_is_not_retried_after_it_may_have_arrived(
    gateway: FakeGateway, client: ApinizerClient
) -> None:
    gateway.script("POST", PROXIES + "import/", httpx.Response(503))
    with pytest.raises(Exception, match="503"):
        client.api_proxies.import_proxy("Demo", ZIP_BYTES)
    assert len(gateway.api_requests) == 1


def test_import_and_override_sends_metadata_and_reads_the_deployment(
    gateway: FakeGateway, client: ApinizerClient
) -> None:
    gateway.script(
        "PUT",
        PROXIES + "Orders/import/",
        httpx.Response(200, json=_doc("import-api-proxy-and-override.md", 3)),
    )
    result = client.api_proxies.import_and_override(
        "Demo",
        "Orders",
        ZIP_BYTES,
        {
            "deploy": True,
            "deploy_target_environment_name_list": ["production"],
            "routing": {
                "algorithm": "ROUND_ROBIN",
                "address_list": [{"address": "https://b1.example", "weight": 1}],
            },
        },
    )
    assert result.deployment_result is not None
    assert [(r.environment_name, r.message) for r in result.deployment_result.per_environment()] == [
        ("production", "Deployed successfully")
    ]
    parts = multipart_parts(gateway.last)
    assert json.loads(parts["metadata"][2]) == {
        "deploy": True,
        "deployTargetEnvironmentNameList": ["production"],
        "routing": {
            "algorithm": "ROUND_ROBIN",
            "addressList": [{"address": "https://b1.example", "weight": 1}],
        },
    }
    client.api_proxies.import_and_override("Demo", "Orders", ZIP_BYTES)
    assert json.loads(multipart_parts(gateway.last)["metadata"][2]) == {"deploy": False}


# -- the API proxies report --------------------------------------------------------------------------


def test_api_proxies_report_with_and_without_endpoints(gateway: FakeGateway, client: ApinizerClient) -> None:
    gateway.script(
        "GET",
        "/apiops/reports/api-proxies",
        httpx.Response(200, json=_doc("api-report.md")),
        httpx.Response(
            200, json={"success": True, "resultList": [{"name": "A", "type": "SOAP"}], "resultCount": 1}
        ),
    )
    report = client.reports.api_proxies(include_endpoints=True)
    assert gateway.last.url.query == b"includeEndpoints=true"
    assert report[0].endpoints is not None
    assert [(e.method, e.path, e.name) for e in report[0].endpoints] == [("GET", "/users", "GET /users")]
    plain = client.reports.api_proxies()
    assert gateway.last.url.query == b"" and plain[0].endpoints is None and plain[0].type == "SOAP"


def test_api_proxies_report_for_others_is_401(gateway: FakeGateway, client: ApinizerClient) -> None:
    gateway.script(
        "GET", "/apiops/reports/api-proxies", error(401, "unauthorized_client", "Unauthorized API Access!")
    )
    with pytest.raises(AuthenticationError, match="Unauthorized API Access!"):
        client.reports.api_proxies()


# -- settings -------------------------------------------------------------------------------------------

SETTINGS = PROXIES + "Orders/settings/"


def test_settings_send_the_documented_bodies(gateway: FakeGateway, client: ApinizerClient) -> None:
    client.api_proxies.set_routing_addresses(
        "Demo", "Orders", [{"address": "https://b1", "weight": 100, "soap_type": "SOAP11"}]
    )
    assert (gateway.last.method, gateway.last.url.path) == ("PATCH", SETTINGS + "addresses/")
    assert body(gateway.last) == {
        "routingAddressList": [{"address": "https://b1", "weight": 100, "soapType": "SOAP11"}]
    }
    client.api_proxies.set_routing_status("Demo", "Orders", mirror_enabled=False)
    assert body(gateway.last) == {"mirrorEnabled": False}
    client.api_proxies.set_client_route("Demo", "Orders", _doc("update-client-route.md", 2))
    assert gateway.last.url.path == SETTINGS + "client-route/"
    assert body(gateway.last) == {k: v for k, v in _doc("update-client-route.md", 2).items() if v is not None}
    client.api_proxies.update_metadata("Demo", "Orders", _doc("update-metadata.md", 0))
    assert body(gateway.last) == _doc("update-metadata.md", 0)
    client.api_proxies.set_cors("Demo", "Orders", _doc("update-cors-settings.md", 0))
    assert body(gateway.last) == _doc("update-cors-settings.md", 0)
    with pytest.raises(TypeError, match="sequence of RoutingAddress"):
        client.api_proxies.set_routing_addresses("Demo", "Orders", {"address": "x"})  # type: ignore[arg-type]


def test_a_rename_is_not_retried_but_other_metadata_is(gateway: FakeGateway, client: ApinizerClient) -> None:
    gateway.script(
        "PATCH", SETTINGS + "metadata/", httpx.Response(503), httpx.Response(200, json={"success": True})
    )
    client.api_proxies.update_metadata("Demo", "Orders", {"description": "x"})
    assert len(gateway.api_requests) == 2
    gateway.script("PATCH", SETTINGS + "metadata/", httpx.Response(503))
    with pytest.raises(Exception, match="503"):
        client.api_proxies.update_metadata("Demo", "Orders", {"name": "Orders-v2"})
    assert len(gateway.api_requests) == 3


def test_settings_success_false_is_an_error(gateway: FakeGateway, client: ApinizerClient) -> None:
    gateway.script("PATCH", SETTINGS + "cors/", httpx.Response(200, json={"success": False}))
    with pytest.raises(APIResponseValidationError, match="success: false"):
        client.api_proxies.set_cors("Demo", "Orders", {"name": "c"})


@pytest.mark.parametrize(
    ("call", "suffix", "page"),
    [
        ("set_api_keys", "keys/", "update-api-keys.md"),
        ("set_cache", "cache/", "update-cache-settings.md"),
        ("set_circuit_breaker", "circuit-breaker/", "update-circuit-breaker-settings.md"),
        ("set_connection", "connection/", "update-connection-settings.md"),
        ("set_forwarded_ip_header", "forwarded-ip-header/", "update-forwarded-ip-header.md"),
        ("set_json_error_template", "json-error-template/", "update-json-error-template.md"),
        ("set_xml_error_template", "xml-error-template/", "update-xml-error-template.md"),
        ("set_mtls", "mtls/", "update-mtls-settings.md"),
        ("set_ntlm", "ntlm/", "update-ntlm-settings.md"),
        ("set_proxy_server", "proxy-server/", "update-proxy-server-settings.md"),
        ("set_traffic_log", "traffic-log/", "update-traffic-log-settings.md"),
    ],
)
def test_each_settings_page_sends_its_documented_example(
    gateway: FakeGateway, client: ApinizerClient, call: str, suffix: str, page: str
) -> None:
    example = _doc(page, 0)
    getattr(client.api_proxies, call)("Demo", "Orders", example)
    assert (gateway.last.method, gateway.last.url.path) == ("PATCH", SETTINGS + suffix)
    sent = body(gateway.last)
    for key, value in example.items():
        assert sent[key] == value, key


def test_hide_spec_file_is_a_path_flag(gateway: FakeGateway, client: ApinizerClient) -> None:
    client.api_proxies.set_hide_spec_file("Demo", "Orders", True)
    assert gateway.last.url.path == SETTINGS + "hide-spec-file/true/" and gateway.last.content == b""
    client.api_proxies.set_hide_spec_file("Demo", "Orders", False)
    assert gateway.last.url.path == SETTINGS + "hide-spec-file/false/"
    with pytest.raises(TypeError, match="hide must be a boolean"):
        client.api_proxies.set_hide_spec_file("Demo", "Orders", "yes")  # type: ignore[arg-type]
