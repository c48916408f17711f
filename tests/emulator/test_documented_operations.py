"""Coverage of the product's documented operations: every ``## Endpoint`` of its API reference
(``tests/data/documented_operations.json``, written by ``scripts/gen_documented_operations.py``)
must have a client method that sends it and an emulator route that serves it. A failure lists the
missing operations by page.

The client's side is traced: each operation's call in :data:`CALLS` runs against
``httpx.MockTransport`` and must send exactly that method and path. An operation without a call
there is one the client lacks. The emulator's side is probed: each operation is sent to the live
emulator, and an answer of "no route" (404) or "method not allowed" (405) means it lacks it.
"""

from __future__ import annotations

import contextlib
import json
import os
import re
import sys
from collections.abc import Callable
from pathlib import Path
from typing import Any

import httpx

from _documented_bodies import BASIC_CACHE, KEYS_EXAMPLES
from apinizer_pulumi.client import ApinizerClient

from .conftest import Api

ROOT = Path(__file__).resolve().parents[2]
DATA = ROOT / "tests" / "data" / "documented_operations.json"
sys.path.insert(0, str(ROOT / "scripts"))
import gen_documented_operations  # noqa: E402

#: Where a copy of the documentation may be: MANAGEMENT_API_DOCS, the extracted folder, a fetched mirror.
DOCS_COPIES = [
    Path(p)
    for p in (
        os.environ.get("MANAGEMENT_API_DOCS", ""),
        "/work/apidocs",
        "/work/.mirror/apinizer+management-api-docs/repo",
    )
    if p
]
OPERATIONS: list[dict[str, Any]] = json.loads(DATA.read_text(encoding="utf-8"))

P, X, ENV = "Demo", "PetStore", "test"
ENDPOINT = {"name": "/x", "httpMethod": "GET"}
_ENTRY = {
    "apiProxyName": X,
    "endpointName": "/x",
    "endpointHTTPMethod": "GET",
    "permittedMessageCount": 1,
    "timeIntervalPeriodLength": 1,
    "timeInterval": "ONE_MINUTE",
    "cacheConnectionTimeoutInSeconds": 3,
    "cacheErrorHandlingType": "FAIL",
    "timeIntervalWindowType": "FIXED",
}
_PROXY = {"apiProxyName": X, "apiProxyCreationType": "OPEN_API", "specUrl": "https://example.com/spec.json"}
_POLICY = {"type": "policy-white-ip", "ipList": ["10.0.0.0/8"]}
_METADATA = {"targetScope": "ALL", "targetPipeline": "REQUEST"}
_CREDENTIAL = {"username": "u", "password": "p", "email": "u@example.com", "fullName": "U"}
_VARIABLE = {"name": "V", "global": True, "globalValue": "v"}
_CONDITION: dict[str, Any] = {"conditionRuleList": []}
_ACCESS = [{"type": "API_PROXY", "name": X}]
_LOGBACK = {"type": "logback", "name": "logs"}
_GROUP = {"name": "g", "clientRoute": {"relativePathList": ["/g"]}}

Call = Callable[[ApinizerClient], Any]

#: Each documented operation's client call, by (method, path template of the docs).
CALLS: dict[tuple[str, str], Call] = {
    ("POST", "/apiops/auth/token"): lambda c: c.request_token(),
    ("GET", "/apiops/environments/"): lambda c: c.environments.list(),
    ("GET", "/apiops/environments/{projectName}"): lambda c: c.environments.list_for_project(P),
    ("GET", "/apiops/projects/"): lambda c: c.projects.list(),
    ("GET", "/apiops/projects/{projectName}/apiProxies/"): lambda c: c.api_proxies.list(P),
    ("POST", "/apiops/projects/{projectName}/apiProxies/file/"): lambda c: c.api_proxies.create_from_file(
        P, {**_PROXY, "specUrl": None}, b"{}", filename="s.json"
    ),
    ("PUT", "/apiops/projects/{projectName}/apiProxies/file/"): lambda c: c.api_proxies.update_from_file(
        P, {**_PROXY, "specUrl": None}, b"{}", filename="s.json"
    ),
    ("POST", "/apiops/projects/{projectName}/apiProxies/import/"): lambda c: c.api_proxies.import_proxy(
        P, b"PK"
    ),
    ("POST", "/apiops/projects/{projectName}/apiProxies/url/"): lambda c: c.api_proxies.create_from_url(
        P, _PROXY
    ),
    ("PUT", "/apiops/projects/{projectName}/apiProxies/url/"): lambda c: c.api_proxies.update_from_url(
        P, _PROXY
    ),
    ("DELETE", "/apiops/projects/{projectName}/apiProxies/{apiProxyName}/"): lambda c: c.api_proxies.delete(
        P, X
    ),
    ("GET", "/apiops/projects/{projectName}/apiProxies/{apiProxyName}/"): lambda c: c.api_proxies.get(P, X),
    ("GET", "/apiops/projects/{projectName}/apiProxies/{apiProxyName}/endpoints/"): lambda c: (
        c.endpoints.list(P, X)
    ),
    ("PATCH", "/apiops/projects/{projectName}/apiProxies/{apiProxyName}/endpoints/"): lambda c: (
        c.endpoints.update(P, X, "/x", "GET", description="d")
    ),
    ("POST", "/apiops/projects/{projectName}/apiProxies/{apiProxyName}/endpoints/"): lambda c: (
        c.endpoints.create(
            P, X, {"name": "/x", "httpMethod": "GET", "backendResourceUrl": "/x", "backendHttpMethod": "GET"}
        )
    ),
    ("PATCH", "/apiops/projects/{projectName}/apiProxies/{apiProxyName}/endpoints/cache/"): lambda c: (
        c.endpoints.set_cache(P, X, "/x", "GET", BASIC_CACHE)
    ),
    ("POST", "/apiops/projects/{projectName}/apiProxies/{apiProxyName}/endpoints/delete/"): lambda c: (
        c.endpoints.delete(P, X, "/x", "GET")
    ),
    ("POST", "/apiops/projects/{projectName}/apiProxies/{apiProxyName}/endpoints/details/"): lambda c: (
        c.endpoints.get(P, X, "/x", "GET")
    ),
    ("POST", "/apiops/projects/{projectName}/apiProxies/{apiProxyName}/endpoints/policies/"): lambda c: (
        c.endpoints.policies(P, X, "/x", "GET")
    ),
    ("PATCH", "/apiops/projects/{projectName}/apiProxies/{apiProxyName}/endpoints/status/"): lambda c: (
        c.endpoints.set_status(P, X, "/x", "GET", True)
    ),
    ("PATCH", "/apiops/projects/{projectName}/apiProxies/{apiProxyName}/endpoints/wsa/"): lambda c: (
        c.endpoints.set_wsa(P, X, "/x", "POST", {"wsaActive": False})
    ),
    (
        "DELETE",
        "/apiops/projects/{projectName}/apiProxies/{apiProxyName}/environments/{environmentName}/",
    ): lambda c: c.api_proxies.undeploy(P, X, ENV),
    (
        "POST",
        "/apiops/projects/{projectName}/apiProxies/{apiProxyName}/environments/{environmentName}/",
    ): lambda c: c.api_proxies.deploy(P, X, ENV),
    ("GET", "/apiops/projects/{projectName}/apiProxies/{apiProxyName}/export/"): lambda c: (
        c.api_proxies.export(P, X)
    ),
    ("PUT", "/apiops/projects/{projectName}/apiProxies/{apiProxyName}/import/"): lambda c: (
        c.api_proxies.import_and_override(P, X, b"PK")
    ),
    ("GET", "/apiops/projects/{projectName}/apiProxies/{apiProxyName}/policies/"): lambda c: c.policies.list(
        P, X
    ),
    ("DELETE", "/apiops/projects/{projectName}/apiProxies/{apiProxyName}/policies/{policyName}/"): lambda c: (
        c.policies.delete(P, X, "p", metadata=_METADATA)
    ),
    ("POST", "/apiops/projects/{projectName}/apiProxies/{apiProxyName}/policies/{policyName}/"): lambda c: (
        c.policies.add(P, X, "p", _POLICY, _METADATA)
    ),
    ("PUT", "/apiops/projects/{projectName}/apiProxies/{apiProxyName}/policies/{policyName}/"): lambda c: (
        c.policies.update(P, X, "p", _POLICY, _METADATA)
    ),
    ("GET", "/apiops/projects/{projectName}/apiProxyGroups/"): lambda c: c.api_proxy_groups.list(P),
    ("POST", "/apiops/projects/{projectName}/apiProxyGroups/"): lambda c: c.api_proxy_groups.create(
        P, _GROUP
    ),
    ("PUT", "/apiops/projects/{projectName}/apiProxyGroups/"): lambda c: c.api_proxy_groups.update(P, _GROUP),
    ("DELETE", "/apiops/projects/{projectName}/apiProxyGroups/{apiProxyGroupName}/"): lambda c: (
        c.api_proxy_groups.delete(P, "g")
    ),
    (
        "DELETE",
        "/apiops/projects/{projectName}/apiProxyGroups/{apiProxyGroupName}/apiProxies/{apiProxyName}/",
    ): lambda c: c.api_proxy_groups.remove_api_proxy(P, "g", X),
    (
        "POST",
        "/apiops/projects/{projectName}/apiProxyGroups/{apiProxyGroupName}/apiProxies/{apiProxyName}/",
    ): lambda c: c.api_proxy_groups.add_api_proxy(P, "g", X),
    ("GET", "/apiops/projects/{projectName}/apiProxyGroups/{apiProxyGroupName}/environments/"): lambda c: (
        c.api_proxy_groups.environments(P, "g")
    ),
    (
        "DELETE",
        "/apiops/projects/{projectName}/apiProxyGroups/{apiProxyGroupName}/environments/{environmentName}/",
    ): lambda c: c.api_proxy_groups.undeploy(P, "g", ENV),
    (
        "POST",
        "/apiops/projects/{projectName}/apiProxyGroups/{apiProxyGroupName}/environments/{environmentName}/",
    ): lambda c: c.api_proxy_groups.deploy(P, "g", ENV),
    ("GET", "/apiops/projects/{projectName}/connections/"): lambda c: c.connections.list(P, "logback"),
    ("DELETE", "/apiops/projects/{projectName}/connections/{connectionName}/"): lambda c: (
        c.connections.delete(P, "logs")
    ),
    ("GET", "/apiops/projects/{projectName}/connections/{connectionName}/"): lambda c: c.connections.get(
        P, "logs"
    ),
    ("POST", "/apiops/projects/{projectName}/connections/{connectionName}/"): lambda c: c.connections.create(
        P, _LOGBACK
    ),
    ("PUT", "/apiops/projects/{projectName}/connections/{connectionName}/"): lambda c: c.connections.update(
        P, _LOGBACK
    ),
    ("GET", "/apiops/projects/{projectName}/credentials/"): lambda c: c.credentials.list(P),
    ("POST", "/apiops/projects/{projectName}/credentials/"): lambda c: c.credentials.create(P, _CREDENTIAL),
    ("PUT", "/apiops/projects/{projectName}/credentials/"): lambda c: c.credentials.update(P, _CREDENTIAL),
    ("DELETE", "/apiops/projects/{projectName}/credentials/{username}/"): lambda c: c.credentials.delete(
        P, "u"
    ),
    ("PATCH", "/apiops/projects/{projectName}/credentials/{username}/"): lambda c: (
        c.credentials.change_password(P, "u", "new")
    ),
    ("DELETE", "/apiops/projects/{projectName}/credentials/{username}/access/"): lambda c: (
        c.credentials.revoke_access(P, "u", _ACCESS)
    ),
    ("GET", "/apiops/projects/{projectName}/credentials/{username}/access/"): lambda c: c.credentials.access(
        P, "u"
    ),
    ("PUT", "/apiops/projects/{projectName}/credentials/{username}/access/"): lambda c: (
        c.credentials.grant_access(P, "u", _ACCESS)
    ),
    ("GET", "/apiops/projects/{projectName}/environmentVariables/"): lambda c: c.environment_variables.list(
        P
    ),
    ("DELETE", "/apiops/projects/{projectName}/environmentVariables/{name}/"): lambda c: (
        c.environment_variables.delete(P, "V")
    ),
    ("GET", "/apiops/projects/{projectName}/environmentVariables/{name}/"): lambda c: (
        c.environment_variables.get(P, "V")
    ),
    ("POST", "/apiops/projects/{projectName}/environmentVariables/{name}/"): lambda c: (
        c.environment_variables.create(P, _VARIABLE)
    ),
    ("PUT", "/apiops/projects/{projectName}/environmentVariables/{name}/"): lambda c: (
        c.environment_variables.update(P, _VARIABLE)
    ),
    ("POST", "/apiops/projects/{projectName}/ipGroups/"): lambda c: c.ip_groups.create(P, {"name": "g"}),
    ("DELETE", "/apiops/projects/{projectName}/ipGroups/{ipGroupName}/"): lambda c: c.ip_groups.delete(
        P, "g"
    ),
    ("PUT", "/apiops/projects/{projectName}/ipGroups/{ipGroupName}/"): lambda c: c.ip_groups.update(
        P, {"name": "g"}
    ),
    ("DELETE", "/apiops/projects/{projectName}/ipGroups/{ipGroupName}/ips/"): lambda c: (
        c.ip_groups.delete_ips(P, "g", ["10.0.0.1"])
    ),
    ("POST", "/apiops/projects/{projectName}/ipGroups/{ipGroupName}/ips/"): lambda c: c.ip_groups.add_ips(
        P, "g", ["10.0.0.1"]
    ),
    ("PUT", "/apiops/projects/{projectName}/ipGroups/{ipGroupName}/ips/"): lambda c: c.ip_groups.replace_ips(
        P, "g", ["10.0.0.1"]
    ),
    ("POST", "/apiops/projects/{projectName}/rlcl/"): lambda c: c.rlcl.create(P, {"name": "r"}),
    ("DELETE", "/apiops/projects/{projectName}/rlcl/{rlclName}/"): lambda c: c.rlcl.delete(P, "r"),
    ("PUT", "/apiops/projects/{projectName}/rlcl/{rlclName}/"): lambda c: c.rlcl.update(
        P, {"description": "d"}, rlcl_name="r"
    ),
    ("DELETE", "/apiops/projects/{projectName}/rlcl/{rlclName}/condition/"): lambda c: (
        c.rlcl.delete_condition(P, "r")
    ),
    ("POST", "/apiops/projects/{projectName}/rlcl/{rlclName}/condition/"): lambda c: c.rlcl.add_condition(
        P, "r", _CONDITION
    ),
    ("PUT", "/apiops/projects/{projectName}/rlcl/{rlclName}/condition/"): lambda c: c.rlcl.update_condition(
        P, "r", _CONDITION
    ),
    ("DELETE", "/apiops/projects/{projectName}/rlcl/{rlclName}/credentials/"): lambda c: (
        c.rlcl.delete_credentials(P, "r", ["u"])
    ),
    ("POST", "/apiops/projects/{projectName}/rlcl/{rlclName}/credentials/"): lambda c: c.rlcl.add_credentials(
        P, "r", ["u"]
    ),
    ("PUT", "/apiops/projects/{projectName}/rlcl/{rlclName}/credentials/"): lambda c: (
        c.rlcl.replace_credentials(P, "r", ["u"])
    ),
    ("DELETE", "/apiops/projects/{projectName}/rlcl/{rlclName}/endpoints/"): lambda c: (
        c.rlcl.delete_endpoints(P, "r", [_ENTRY])
    ),
    ("POST", "/apiops/projects/{projectName}/rlcl/{rlclName}/endpoints/"): lambda c: c.rlcl.add_endpoints(
        P, "r", [_ENTRY]
    ),
    ("PUT", "/apiops/projects/{projectName}/rlcl/{rlclName}/endpoints/"): lambda c: c.rlcl.replace_endpoints(
        P, "r", [_ENTRY]
    ),
    ("GET", "/apiops/reports/api-proxies"): lambda c: c.reports.api_proxies(),
    ("GET", "/apiops/reports/organization-api-data-model-access"): lambda c: c.reports.organization_access(),
    ("PUT", "/apiops/settings/geolocation/disable"): lambda c: c.geolocation.disable(),
    ("PUT", "/apiops/settings/geolocation/enable"): lambda c: c.geolocation.enable(),
    ("PUT", "/apiops/settings/geolocation/mmdb"): lambda c: c.geolocation.upload_mmdb(b"mmdb"),
    ("GET", "/apiops/test/healthcheck"): lambda c: c.health(),
    ("GET", "/apiops/test/hello/{name}"): lambda c: c.hello("x"),
}
_SETTINGS = "/apiops/projects/{projectName}/apiProxies/{apiProxyName}/settings/"
CALLS.update(
    {
        ("PATCH", _SETTINGS + "addresses/"): lambda c: c.api_proxies.set_routing_addresses(
            P, X, [{"address": "https://b.example.com"}]
        ),
        ("PATCH", _SETTINGS + "cache/"): lambda c: c.api_proxies.set_cache(P, X, BASIC_CACHE),
        ("PATCH", _SETTINGS + "circuit-breaker/"): lambda c: c.api_proxies.set_circuit_breaker(P, X, {}),
        ("PATCH", _SETTINGS + "client-route/"): lambda c: c.api_proxies.set_client_route(P, X, {}),
        ("PATCH", _SETTINGS + "connection/"): lambda c: c.api_proxies.set_connection(P, X, {}),
        ("PATCH", _SETTINGS + "cors/"): lambda c: c.api_proxies.set_cors(P, X, {"name": "cors"}),
        ("PATCH", _SETTINGS + "forwarded-ip-header/"): lambda c: c.api_proxies.set_forwarded_ip_header(
            P, X, {}
        ),
        ("PATCH", _SETTINGS + "hide-spec-file/{hideSpecFile}/"): lambda c: c.api_proxies.set_hide_spec_file(
            P, X, True
        ),
        ("PATCH", _SETTINGS + "keys/"): lambda c: c.api_proxies.set_api_keys(P, X, {}),
        ("PATCH", _SETTINGS + "json-error-template/"): lambda c: c.api_proxies.set_json_error_template(
            P, X, {}
        ),
        ("PATCH", _SETTINGS + "metadata/"): lambda c: c.api_proxies.update_metadata(P, X, {}),
        ("PATCH", _SETTINGS + "mtls/"): lambda c: c.api_proxies.set_mtls(P, X, {}),
        ("PATCH", _SETTINGS + "ntlm/"): lambda c: c.api_proxies.set_ntlm(P, X, {}),
        ("PATCH", _SETTINGS + "proxy-server/"): lambda c: c.api_proxies.set_proxy_server(P, X, {}),
        ("PATCH", _SETTINGS + "routing-status/"): lambda c: c.api_proxies.set_routing_status(
            P, X, routing_enabled=True
        ),
        ("PATCH", _SETTINGS + "traffic-log/"): lambda c: c.api_proxies.set_traffic_log(P, X, {}),
        ("PATCH", _SETTINGS + "xml-error-template/"): lambda c: c.api_proxies.set_xml_error_template(
            P, X, {}
        ),
    }
)

_KEYS = "/apiops/projects/{projectName}/"
_PEM = b"-----BEGIN CERTIFICATE-----\nMIIBszCCAVmgAwIBAgIUQ==\n-----END CERTIFICATE-----\n"


def _key_doc(key: str) -> Any:
    """A request body of the keys and secrets pages, as the project keeps them."""
    return KEYS_EXAMPLES["02-api-reference/08-keys-secrets/crud/" + key]["body"]


def _certificate_form(key: str) -> dict[str, Any]:
    fields = {k: v for k, v in _key_doc(key).items() if k != "pemEncodedFile"}
    return {"certificateName": "x", **fields, "pemEncodedFile": _PEM}


CALLS.update(
    {
        ("GET", _KEYS + "jwks/"): lambda c: c.jwks.list(P),
        ("GET", _KEYS + "jwks/{jwkName}/"): lambda c: c.jwks.get(P, "x"),
        ("POST", _KEYS + "jwks/"): lambda c: c.jwks.create(P, _key_doc("create-jwk.md#curl-0")),
        ("PUT", _KEYS + "jwks/{jwkName}/"): lambda c: c.jwks.update(P, "x", {"description": "d"}),
        ("DELETE", _KEYS + "jwks/{jwkName}/"): lambda c: c.jwks.delete(P, "x"),
        ("POST", _KEYS + "jwks/generate"): lambda c: c.jwks.generate(P, _key_doc("generate-jwk.md#curl-0")),
        ("POST", _KEYS + "jwks/parse-from-url"): lambda c: c.jwks.parse_from_url(
            P, _key_doc("parse-jwk-from-url.md#0")
        ),
        ("POST", _KEYS + "jwks/parse-from-clipboard"): lambda c: c.jwks.parse_from_clipboard(
            P, _key_doc("parse-jwk-from-clipboard.md#0")
        ),
        ("POST", _KEYS + "jwks/parse-from-certificate"): lambda c: c.jwks.parse_from_certificate(
            P, _key_doc("parse-jwk-from-certificate.md#0")
        ),
        ("POST", _KEYS + "jwks/parse-from-key"): lambda c: c.jwks.parse_from_key(
            P, _key_doc("parse-jwk-from-key.md#0")
        ),
        ("POST", _KEYS + "jwks/parse-from-keystore"): lambda c: c.jwks.parse_from_keystore(
            P, _key_doc("parse-jwk-from-keystore.md#0")
        ),
        ("GET", _KEYS + "keystores/"): lambda c: c.keystores.list(P),
        ("GET", _KEYS + "keystores/{keystoreName}/"): lambda c: c.keystores.get(P, "x"),
        ("POST", _KEYS + "keystores/"): lambda c: c.keystores.create(
            P, _key_doc("create-keystore.md#curl-0")
        ),
        ("PUT", _KEYS + "keystores/{keystoreName}/"): lambda c: c.keystores.update(
            P, _key_doc("update-keystore.md#curl-0")
        ),
        ("DELETE", _KEYS + "keystores/{keystoreName}/"): lambda c: c.keystores.delete(P, "x"),
        ("GET", _KEYS + "keys/"): lambda c: c.crypto_keys.list(P),
        ("GET", _KEYS + "keys/{keyName}/"): lambda c: c.crypto_keys.get(P, "x"),
        ("POST", _KEYS + "keys/"): lambda c: c.crypto_keys.create(P, _key_doc("create-key.md#curl-0")),
        ("PUT", _KEYS + "keys/{keyName}/"): lambda c: c.crypto_keys.update(
            P, _key_doc("update-key.md#curl-0")
        ),
        ("DELETE", _KEYS + "keys/{keyName}/"): lambda c: c.crypto_keys.delete(P, "x"),
        ("GET", _KEYS + "certificates/"): lambda c: c.certificates.list(P),
        ("GET", _KEYS + "certificates/{certificateName}/"): lambda c: c.certificates.get(P, "x"),
        ("POST", _KEYS + "certificates/"): lambda c: c.certificates.create(
            P, _certificate_form("create-certificate.md#form-0")
        ),
        ("PUT", _KEYS + "certificates/{certificateName}/"): lambda c: c.certificates.update(
            P, _certificate_form("update-certificate.md#form-0")
        ),
        ("DELETE", _KEYS + "certificates/{certificateName}/"): lambda c: c.certificates.delete(P, "x"),
        ("GET", _KEYS + "certificates/{certificateName}/export/"): lambda c: c.certificates.export(P, "x"),
        ("GET", _KEYS + "certificates/truststore/{environmentName}/"): lambda c: c.certificates.truststore(
            "admin", ENV
        ),
    }
)


def _pattern(template: str) -> re.Pattern[str]:
    """A documented path template as a regular expression over a request's (encoded) path."""
    return re.compile(
        "".join(
            "[^/]+" if part.startswith("{") else re.escape(part) for part in re.split(r"({\w+})", template)
        )
    )


def _missing_by_page(missing: list[dict[str, Any]], what: str) -> str:
    by_page: dict[str, list[str]] = {}
    for operation in missing:
        by_page.setdefault(operation["pages"][0], []).append(f"{operation['method']} {operation['path']}")
    lines = [f"{len(missing)} documented operation(s) that {what} lacks:"]
    for page in sorted(by_page):
        lines.append(f"  {page}: " + "; ".join(by_page[page]))
    return "\n".join(lines)


# -- the data ---------------------------------------------------------------------------------------


def test_the_data_is_the_docs_endpoints() -> None:
    assert len({(o["method"], o["path"]) for o in OPERATIONS}) == len(OPERATIONS)
    assert all(o["path"].startswith("/apiops/") and o["pages"] for o in OPERATIONS)
    # Where a copy of the documentation is at hand, the data must be what it says today.
    for docs in DOCS_COPIES:
        if docs.exists():
            assert gen_documented_operations.render(docs) == DATA.read_text(encoding="utf-8"), (
                f"{DATA.name} differs from {docs}: run scripts/gen_documented_operations.py {docs}"
            )


def test_the_reader_finds_every_operation_of_an_endpoint_section() -> None:
    page = (
        "# X\n\n## Endpoint\n\n### From URL\n```\nPUT /apiops/a/url/\n```\n\n```\nPOST /apiops/a/\n```\n\n"
        "## Request\n\n```\nGET /apiops/not-this/\n```\n"
    )
    assert gen_documented_operations.operations_of(page) == [
        ("PUT", "/apiops/a/url/"),
        ("POST", "/apiops/a/"),
    ]


# -- the client -------------------------------------------------------------------------------------


def _sent(call: Call) -> list[tuple[str, str]]:
    """What ``call`` sends (method, path), answered 200 with a body that may not parse."""
    sent: list[tuple[str, str]] = []

    def handler(request: httpx.Request) -> httpx.Response:
        if request.url.path == "/apiops/auth/token":
            sent.append((request.method, request.url.path))
            return httpx.Response(200, json={"access_token": "t", "token_type": "Bearer", "expires_in": 3600})
        sent.append((request.method, request.url.raw_path.decode().split("?")[0]))
        return httpx.Response(200, json={"success": True})

    transport = httpx.MockTransport(handler)
    client = ApinizerClient(
        "http://gateway.test", username="u", password="p", transport=transport, max_retries=0
    )
    # The answer need not parse: only what went out counts.
    with client, contextlib.suppress(Exception):
        call(client)
    return [item for item in sent if item != ("POST", "/apiops/auth/token")] or sent


def test_the_client_has_a_method_for_every_documented_operation() -> None:
    missing = []
    for operation in OPERATIONS:
        call = CALLS.get((operation["method"], operation["path"]))
        sent = _sent(call) if call is not None else []
        pattern = _pattern(operation["path"])
        if not any(method == operation["method"] and pattern.fullmatch(path) for method, path in sent):
            missing.append(operation)
    assert not missing, _missing_by_page(missing, "the client")


# -- the emulator -----------------------------------------------------------------------------------

#: A value for each path parameter of the docs' templates.
_PARAMETERS = {
    "projectName": P,
    "apiProxyName": X,
    "environmentName": ENV,
    "hideSpecFile": "true",
    "name": "x",
    "username": "x",
    "apiProxyGroupName": "x",
    "ipGroupName": "x",
    "rlclName": "x",
    "policyName": "x",
    "connectionName": "x",
    "jwkName": "x",
    "keyName": "x",
    "keystoreName": "x",
    "certificateName": "x",
}


def test_the_emulator_serves_every_documented_operation(api: Api) -> None:
    missing = []
    for operation in OPERATIONS:
        path = re.sub(r"{(\w+)}", lambda m: _PARAMETERS.get(m.group(1), "x"), operation["path"])
        response = api.request(operation["method"], path, {})
        body = (
            response.json() if response.headers.get("content-type", "").startswith("application/json") else {}
        )
        unrouted = response.status_code == 405 or (
            response.status_code == 404 and str(body.get("error_description", "")).startswith("No route for")
        )
        if unrouted:
            missing.append(operation)
    assert not missing, _missing_by_page(missing, "the emulator")
