"""The test server, the health check and the OpenAPI document."""

from __future__ import annotations

import httpx
import pytest

import _emulator_http as emulator_http
from apinizer_emulator.testing import EmulatorServer


def test_healthcheck_is_plain_ok_without_auth(emulator_url):
    response = emulator_http.get(f"{emulator_url}/apiops/test/healthcheck")
    assert response.status_code == 200
    assert response.text == "OK"
    assert response.headers["content-type"].startswith("text/plain")


def test_server_on_port_zero_reports_its_real_port():
    with EmulatorServer() as server:
        host, port = server.get_host_and_port()
        assert host == "127.0.0.1"
        assert port > 0
        assert server.base_url == f"http://127.0.0.1:{port}"
        assert emulator_http.get(f"{server.base_url}/apiops/test/healthcheck").text == "OK"
    # stopped: nothing answers any more
    try:
        emulator_http.get(f"http://127.0.0.1:{port}/apiops/test/healthcheck", timeout=1)
    except httpx.TransportError:
        pass
    else:
        raise AssertionError("the emulator still answers after stop()")


def test_openapi_document_lists_every_operation(emulator_url):
    doc = emulator_http.get(f"{emulator_url}/apiops/openapi.json").json()
    paths = doc["paths"]
    base = "/apiops/projects/{projectName}/apiProxies/{apiProxyName}/endpoints"
    expected = {
        "/apiops/auth/token": {"post"},
        "/apiops/reports/organization-api-data-model-access": {"get"},
        f"{base}/": {"get", "post", "patch"},
        f"{base}/details/": {"post"},
        f"{base}/policies/": {"post"},
        f"{base}/delete/": {"post"},
        f"{base}/status/": {"patch"},
        f"{base}/cache/": {"patch"},
        f"{base}/wsa/": {"patch"},
        "/apiops/projects/{projectName}/rlcl/{rlclName}/endpoints/": {"post", "put", "delete"},
        "/apiops/projects/{projectName}/rlcl/": {"post"},
        "/apiops/projects/{projectName}/rlcl/{rlclName}/": {"put", "delete"},
        "/apiops/test/healthcheck": {"get"},
        "/apiops/test/hello/{name}": {"get"},
        # The API proxy family (test_api_proxies.py covers its operations).
        "/apiops/projects/": {"get"},
        "/apiops/environments/": {"get"},
        "/apiops/environments/{projectName}": {"get"},
        "/apiops/projects/{projectName}/apiProxies/": {"get"},
        "/apiops/projects/{projectName}/apiProxies/url/": {"post", "put"},
        "/apiops/projects/{projectName}/apiProxies/file/": {"post", "put"},
        "/apiops/projects/{projectName}/apiProxies/{apiProxyName}/": {"get", "delete"},
        "/apiops/projects/{projectName}/apiProxies/{apiProxyName}/environments/{environmentName}/": {
            "post",
            "delete",
        },
        "/apiops/projects/{projectName}/apiProxies/import/": {"post"},
        "/apiops/reports/api-proxies": {"get"},
        **{
            f"/apiops/projects/{{projectName}}/apiProxies/{{apiProxyName}}/settings/{page}/": {"patch"}
            for page in (
                "addresses", "routing-status", "client-route", "metadata", "cors", "keys", "cache",
                "circuit-breaker", "connection", "forwarded-ip-header", "hide-spec-file/{hideSpecFile}",
                "json-error-template", "xml-error-template", "mtls", "ntlm", "proxy-server", "traffic-log",
            )
        },
        "/apiops/projects/{projectName}/apiProxies/{apiProxyName}/export/": {"get"},
        "/apiops/projects/{projectName}/apiProxies/{apiProxyName}/import/": {"put"},
        # IP groups and environment variables (test_ip_groups.py, test_environment_variables.py).
        "/apiops/projects/{projectName}/ipGroups/": {"post"},
        "/apiops/projects/{projectName}/ipGroups/{ipGroupName}/": {"put", "delete"},
        "/apiops/projects/{projectName}/ipGroups/{ipGroupName}/ips/": {"post", "put", "delete"},
        "/apiops/projects/{projectName}/environmentVariables/": {"get"},
        "/apiops/projects/{projectName}/environmentVariables/{name}/": {"get", "post", "put", "delete"},
        # An API proxy's policies (test_policies.py covers them).
        "/apiops/projects/{projectName}/apiProxies/{apiProxyName}/policies/": {"get"},
        "/apiops/projects/{projectName}/apiProxies/{apiProxyName}/policies/{policyName}/": {
            "post",
            "put",
            "delete",
        },
        # API proxy groups and an RLCL's credentials and condition (test_api_proxy_groups.py).
        "/apiops/projects/{projectName}/apiProxyGroups/": {"get", "post", "put"},
        "/apiops/projects/{projectName}/apiProxyGroups/{apiProxyGroupName}/": {"delete"},
        "/apiops/projects/{projectName}/apiProxyGroups/{apiProxyGroupName}/apiProxies/{apiProxyName}/": {
            "post", "delete"},
        "/apiops/projects/{projectName}/apiProxyGroups/{apiProxyGroupName}/environments/": {"get"},
        "/apiops/projects/{projectName}/apiProxyGroups/{apiProxyGroupName}/environments/{environmentName}/": {
            "post", "delete"},
        "/apiops/projects/{projectName}/rlcl/{rlclName}/credentials/": {"post", "put", "delete"},
        "/apiops/projects/{projectName}/rlcl/{rlclName}/condition/": {"post", "put", "delete"},
    }
    # Credentials and their access (test_credentials.py covers their operations).
    expected.update({
        "/apiops/projects/{projectName}/credentials/": {"get", "post", "put"},
        "/apiops/projects/{projectName}/credentials/{username}/": {"patch", "delete"},
        "/apiops/projects/{projectName}/credentials/{username}/access/": {"get", "put", "delete"},
    })
    # Connections and geolocation (test_connections.py, test_geolocation.py cover them).
    expected.update({
        "/apiops/projects/{projectName}/connections/": {"get"},
        "/apiops/projects/{projectName}/connections/{connectionName}/": {"get", "post", "put", "delete"},
        "/apiops/settings/geolocation/mmdb": {"put"},
        "/apiops/settings/geolocation/enable": {"put"},
        "/apiops/settings/geolocation/disable": {"put"},
    })
    # JWKs, certificates, crypto keys and keystores (test_keys_*.py covers their operations).
    jwks = "/apiops/projects/{projectName}/jwks/"
    certificates = "/apiops/projects/{projectName}/certificates/"
    expected.update({
        jwks: {"get", "post"},
        f"{jwks}{{jwkName}}/": {"get", "put", "delete"},
        f"{jwks}generate": {"post"},
        **{
            f"{jwks}parse-from-{source}": {"post"}
            for source in ("url", "clipboard", "certificate", "key", "keystore")
        },
        certificates: {"get", "post"},
        f"{certificates}{{certificateName}}/": {"get", "put", "delete"},
        f"{certificates}{{certificateName}}/export/": {"get"},
        f"{certificates}truststore/{{environmentName}}/": {"get"},
        "/apiops/projects/{projectName}/keys/": {"get", "post"},
        "/apiops/projects/{projectName}/keys/{keyName}/": {"get", "put", "delete"},
        "/apiops/projects/{projectName}/keystores/": {"get", "post"},
        "/apiops/projects/{projectName}/keystores/{keystoreName}/": {"get", "put", "delete"},
    })
    assert {path: set(ops) for path, ops in paths.items()} == expected
    create = paths[f"{base}/"]["post"]
    assert create["requestBody"]["content"]["application/json"]["schema"] == {
        "$ref": "#/components/schemas/EndpointSpec"
    }
    assert "EndpointSpec" in doc["components"]["schemas"]
    assert [p["name"] for p in create["parameters"]] == ["projectName", "apiProxyName"]
    assert create["security"] == [{"bearer": []}]
    assert "security" not in paths["/apiops/auth/token"]["post"]
    assert "security" not in paths["/apiops/test/healthcheck"]["get"]
    form = paths["/apiops/auth/token"]["post"]["requestBody"]["content"]
    assert list(form) == ["application/x-www-form-urlencoded"]
    assert "CacheKeyVariable" in doc["components"]["schemas"]


def test_docs_pages_are_off(emulator_url):
    for path in ("/docs", "/redoc", "/openapi.json"):
        assert emulator_http.get(f"{emulator_url}{path}").status_code == 404


def test_openapi_error_statuses_are_those_each_operation_can_answer(emulator_url):
    paths = emulator_http.get(f"{emulator_url}/apiops/openapi.json").json()["paths"]
    base = "/apiops/projects/{projectName}/apiProxies/{apiProxyName}/endpoints/"

    def statuses(path: str, method: str) -> list[str]:
        return sorted(paths[path][method]["responses"])

    # the report has no body and no proxy: a bad token or a missing system role, both 401
    assert statuses("/apiops/reports/organization-api-data-model-access", "get") == ["200", "401"]
    # the list has no body, so no 400
    assert statuses(base, "get") == ["200", "401", "403", "404"]
    assert statuses(base, "post") == ["200", "400", "401", "403", "404"]


def test_the_test_servers_own_reset_does_what_both_reset_requests_do():
    """``EmulatorServer.reset`` (the fixtures' reset between tests, in the process, without a request):
    the fixture's objects back, no faults, the clock's offset gone and the counters at zero, as
    ``POST /_emulator/reset`` and ``POST /_emulator/stats/reset`` leave them."""
    with EmulatorServer() as server, emulator_http.emulator_client(server.base_url) as http:
        auth = {"Authorization": "Bearer dev-admin-token"}
        pets = "/apiops/projects/Demo/apiProxies/PetStore/endpoints/"
        fixture_endpoints = http.get(pets, headers=auth).json()["resultList"]
        body = {"name": "/toys", "httpMethod": "GET", "backendResourceUrl": "/toys"}
        assert http.post(pets, headers=auth, json={**body, "backendHttpMethod": "GET"}).status_code == 200
        http.post("/_emulator/clock", json={"advance": 3600}).raise_for_status()
        fault = {"status": 503, "path": "/apiops/test/healthcheck"}
        http.post("/_emulator/faults", json=fault).raise_for_status()
        clock_before = http.get("/_emulator/clock").json()["now"]

        server.reset()

        assert http.get("/_emulator/faults").json()["faults"] == []
        assert http.get("/_emulator/stats").json() == {"total": 0, "requests": {}}
        assert http.get(pets, headers=auth).json()["resultList"] == fixture_endpoints
        assert http.get("/_emulator/clock").json()["now"] < clock_before - 3000


def test_reset_of_a_server_not_started_says_so():
    with pytest.raises(RuntimeError, match="the emulator is not started"):
        EmulatorServer().reset()
