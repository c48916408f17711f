"""The API proxy settings pages the emulator serves (routing addresses, routing status, client
route, metadata, CORS): what each stores, what the get then answers, that a deployed proxy then
needs a redeploy, and each page's refusals; through the client and over raw HTTP."""

from __future__ import annotations

import io
import json
import zipfile
from collections.abc import Iterator
from typing import Any

import pytest

from apinizer_pulumi.client import ApinizerClient, BadRequestError, NotFoundError
from apinizer_pulumi.models import CorsSettings

from .conftest import Api, assert_error

PROXIES = "/apiops/projects/Demo/apiProxies/"


def _exported(content: bytes) -> dict[str, Any]:
    with zipfile.ZipFile(io.BytesIO(content)) as archive:
        (name,) = archive.namelist()
        data: dict[str, Any] = json.loads(archive.read(name))
    return data


@pytest.fixture
def client(emulator_url: str, admin_token: str) -> Iterator[ApinizerClient]:
    with ApinizerClient(emulator_url, token=admin_token) as c:
        yield c


def test_routing_addresses_and_status(client: ApinizerClient) -> None:
    client.api_proxies.deploy("Demo", "PetStore", "test")
    client.api_proxies.set_routing_addresses(
        "Demo",
        "PetStore",
        [
            {"address": "https://b1.example", "weight": 100, "health_check_enabled": True},
            {"address": "https://b2.example", "weight": 50},
        ],
    )
    client.api_proxies.set_routing_status("Demo", "PetStore", routing_enabled=False)
    proxy = client.api_proxies.get("Demo", "PetStore")
    assert proxy.routing is not None and proxy.routing.routing_enabled is False
    assert [
        (a.address, a.weight, a.health_check_enabled) for a in proxy.routing.routing_address_list or []
    ] == [("https://b1.example", 100, True), ("https://b2.example", 50, False)]
    deployed = proxy.deployment("test")
    assert deployed is not None and deployed.redeploy_required
    client.api_proxies.set_routing_status("Demo", "PetStore", mirror_enabled=True)
    routing = client.api_proxies.get("Demo", "PetStore").routing
    assert routing is not None and routing.routing_enabled is False  # only what is given changes


def test_a_soap_proxys_addresses_default_to_soap11(client: ApinizerClient) -> None:
    client.api_proxies.set_routing_addresses("Demo", "Calculator", [{"address": "https://calc.example"}])
    details = _exported(client.api_proxies.export("Demo", "Calculator"))["details"]
    assert details["routing"]["routingAddressList"] == [
        {"address": "https://calc.example", "soapType": "SOAP11"}
    ]


def test_client_route_and_its_rules(client: ApinizerClient, api: Api) -> None:
    client.api_proxies.set_client_route(
        "Demo",
        "PetStore",
        {
            "relative_path_list": ["/pets/v2"],
            "host_list": ["pets.example"],
            "header_list": [{"name": "X-Version", "value": "2"}],
        },
    )
    route = client.api_proxies.get("Demo", "PetStore").client_route
    assert route is not None and route.relative_path_list == ["/pets/v2"] and route.hosts == ["pets.example"]
    assert (
        next(p for p in client.api_proxies.list("Demo") if p.name == "PetStore").relative_path == "/pets/v2"
    )
    path = PROXIES + "PetStore/settings/client-route/"
    assert_error(
        api.request("PATCH", path, {"relativePathList": None, "hostList": []}),
        400,
        "bad_request",
        "Client route must have at least one valid route configuration",
    )
    assert_error(
        api.request("PATCH", path, {"relativePathList": ["/"]}),
        400,
        "bad_request",
        "Client route must have at least one valid route configuration: relative paths must be at least"
        " 2 characters long ('/')",
    )
    assert_error(
        api.request("PATCH", PROXIES + "Gone/settings/client-route/", {"relativePathList": ["/ok"]}),
        404,
        "not_found",
        "ApiProxy (name: Gone) was not found!",
    )


def test_metadata_renames_describes_and_shares(client: ApinizerClient, api: Api) -> None:
    client.api_proxies.update_metadata(
        "Demo",
        "Orders",
        {
            "name": "Orders-v2",
            "description": "Orders, second edition",
            "category_list": ["Sales"],
            "sharing_type": "EXTERNAL",
        },
    )
    assert client.api_proxies.find("Demo", "Orders") is None
    proxy = client.api_proxies.get("Demo", "Orders-v2")
    assert (proxy.description, proxy.category_list, proxy.sharing_type) == (
        "Orders, second edition",
        ["Sales"],
        "PUBLIC",
    )
    assert [e.endpoint for e in client.endpoints.list("Demo", "Orders-v2")] == ["/orders"]
    report = client.reports.organization_access()
    assert "Orders-v2" in [p.api_proxy_name for p in report.result.api_proxy_list]
    with pytest.raises(BadRequestError, match=r"ApiProxy \(name: PetStore\) is already exist!"):
        client.api_proxies.update_metadata("Demo", "Orders-v2", {"name": "PetStore"})
    client.api_proxies.update_metadata("Demo", "Orders-v2", {"description": ""})
    assert client.api_proxies.get("Demo", "Orders-v2").description == ""
    assert_error(
        api.request("PATCH", PROXIES + "Orders-v2/settings/metadata/", {}),
        400,
        "bad_request",
        "At least one of name, description, categoryList and sharingType must be provided!",
    )
    response = api.request("PATCH", PROXIES + "Orders-v2/settings/metadata/", {"sharingType": "PUBLIC"})
    assert_error(response, 400, "bad_request")
    assert response.json()["error_description"].startswith("sharingType:")


def test_cors(client: ApinizerClient, api: Api) -> None:
    cors = CorsSettings(
        name="cors",
        cors_active=True,
        allow_origin_list=["https://app.example"],
        allow_method_list=["GET", "POST"],
        allow_credentials=True,
    )
    client.api_proxies.set_cors("Demo", "PetStore", cors)
    stored = _exported(client.api_proxies.export("Demo", "PetStore"))["details"]["cors"]
    assert stored["allowCredentials"] == "true" and stored["corsActive"] is True
    assert stored["allowMethodList"] == ["GET", "POST"]
    path = PROXIES + "PetStore/settings/cors/"
    assert_error(
        api.request("PATCH", path, {"name": "c", "allowOriginList": ["*"], "allowCredentials": "true"}),
        400,
        "bad_request",
        'Invalid CORS settings: allowOriginList "*" can not be used with allowCredentials "true"',
    )
    response = api.request("PATCH", path, {"corsActive": True})
    assert_error(response, 400, "bad_request", "Invalid CORS settings: name is required")
    with pytest.raises(NotFoundError, match=r"ApiProxy \(name: Gone\) was not found!"):
        client.api_proxies.set_cors("Demo", "Gone", cors)


def test_routing_refusals(api: Api) -> None:
    path = PROXIES + "PetStore/settings/"
    assert_error(
        api.request("PATCH", path + "addresses/", {"routingAddressList": [{"weight": 1}]}),
        400,
        "bad_request",
        "Address is required",
    )
    response = api.request("PATCH", path + "routing-status/", {"routingEnabled": "yes"})
    assert_error(response, 400, "bad_request")
    assert response.json()["error_description"].startswith("Invalid routing status: routingEnabled")


# -- the other settings pages: stored (seen in the export), merged where the page says "only the fields
# given", and each page's refusals ------------------------------------------------------------------------


def _details(client: ApinizerClient, proxy: str = "PetStore") -> dict[str, Any]:
    details: dict[str, Any] = _exported(client.api_proxies.export("Demo", proxy))["details"]
    return details


def test_partial_settings_merge_and_whole_ones_replace(client: ApinizerClient) -> None:
    client.api_proxies.set_connection("Demo", "PetStore", {"connect_timeout": 5, "retry_count": 2})
    client.api_proxies.set_connection("Demo", "PetStore", {"retry_count": 3})
    assert _details(client)["connection"] == {"connectTimeout": 5, "retryCount": 3}
    client.api_proxies.set_cache("Demo", "PetStore", {"name": "a", "handling_action": "STOP", "ttl": 30})
    client.api_proxies.set_cache("Demo", "PetStore", {"name": "b", "handling_action": "CONTINUE"})
    cache = _details(client)["cache"]
    assert cache["name"] == "b" and "ttl" not in cache and cache["cacheStorageType"] == "DISTRIBUTED"


def test_every_settings_page_is_stored(client: ApinizerClient) -> None:
    client.api_proxies.deploy("Demo", "PetStore", "test")
    client.api_proxies.set_api_keys("Demo", "PetStore", {"public_key": "pk-1"})
    client.api_proxies.set_circuit_breaker(
        "Demo",
        "PetStore",
        {"circuit_breaker_enabled": True, "error_window": 60, "enum_error_threshold_type": "PERCENT"},
    )
    client.api_proxies.set_forwarded_ip_header(
        "Demo", "PetStore", {"forwarded_ip_header_param_active": True, "xff_order": "LAST"}
    )
    client.api_proxies.set_hide_spec_file("Demo", "PetStore", True)
    client.api_proxies.set_json_error_template("Demo", "PetStore", {"json_value": '{"fault": "#FAULTCODE#"}'})
    client.api_proxies.set_xml_error_template("Demo", "PetStore", {"xml_value": "<fault>#FAULTCODE#</fault>"})
    client.api_proxies.set_mtls(
        "Demo", "PetStore", {"enabled": True, "key_store_id": "ks-1", "supported_protocol_list": ["TLS_1_3"]}
    )
    client.api_proxies.set_ntlm(
        "Demo", "PetStore", {"enabled": True, "domain": "D", "username": "u", "password": "p"}
    )
    client.api_proxies.set_proxy_server(
        "Demo", "PetStore", {"proxy_enabled": True, "proxy_host": "px.example", "proxy_port": 3128}
    )
    client.api_proxies.set_traffic_log(
        "Demo",
        "PetStore",
        {"enabled_trace_log": True, "api_proxy_traffic_log_settings_list": [{"environment_name": "test"}]},
    )
    details = _details(client)
    assert details["apiKeys"] == {"publicKey": "pk-1"}
    assert details["circuitBreaker"]["enumErrorThresholdType"] == "PERCENT"
    assert details["forwardedIpHeader"] == {"forwardedIpHeaderParamActive": True, "xffOrder": "LAST"}
    assert details["hideSpecFile"] is True
    assert details["jsonErrorTemplate"] == {"jsonValue": '{"fault": "#FAULTCODE#"}'}
    assert details["mtls"]["supportedProtocolList"] == ["TLS_1_3"]
    assert details["proxyServer"]["proxyPort"] == 3128
    assert details["trafficLog"]["apiProxyTrafficLogSettingsList"][0]["logBodyRequestFromClient"] is True
    deployed = client.api_proxies.get("Demo", "PetStore").deployment("test")
    assert deployed is not None and deployed.redeploy_required


@pytest.mark.parametrize(
    ("suffix", "body", "message"),
    [
        ("keys/", {}, "At least one key (publicKey or secretKey) must be provided"),
        ("keys/", {"secretKey": "  "}, "secretKey must not be blank"),
        ("cache/", {"name": "c"}, "handlingAction is required"),
        (
            "connection/",
            {"connectionPoolManagementType": "CUSTOM"},
            "Custom connection pool size is required when connectionPoolManagementType is CUSTOM",
        ),
        ("mtls/", {"enabled": True}, "KeyStore ID is required when mTLS is enabled"),
        (
            "ntlm/",
            {"enabled": True, "domain": "D"},
            "Domain, username, and password are required when NTLM is enabled",
        ),
        (
            "proxy-server/",
            {"proxyEnabled": True, "proxyHost": "px"},
            "Proxy host and port are required when proxy is enabled",
        ),
        (
            "proxy-server/",
            {"proxyAuthorizationNeeded": True, "proxyUsername": "u"},
            "Proxy username and password are required when proxy authorization is needed",
        ),
        ("json-error-template/", {"jsonValue": "{not json"}, "Invalid JSON template"),
        ("xml-error-template/", {"xmlValue": "<open>"}, "Invalid XML template"),
        (
            "traffic-log/",
            {"apiProxyTrafficLogSettingsList": [{"environmentName": ""}]},
            "environmentName value can not be empty in traffic log settings!",
        ),
        (
            "traffic-log/",
            {"apiProxyTrafficLogSettingsList": [{"environmentName": "nowhere"}]},
            "Environment (nowhere) in traffic log settings is not found!",
        ),
        ("hide-spec-file/maybe/", None, "Invalid hideSpecFile parameter"),
    ],
)
def test_settings_refusals(api: Api, client: ApinizerClient, suffix: str, body: Any, message: str) -> None:
    before = _details(client)
    assert_error(
        api.request("PATCH", f"{PROXIES}PetStore/settings/{suffix}", body), 400, "bad_request", message
    )
    assert _details(client) == before


def test_prefixed_messages_name_the_field(api: Api) -> None:
    response = api.request("PATCH", f"{PROXIES}PetStore/settings/circuit-breaker/", {"sleepWindow": -1})
    assert_error(response, 400, "bad_request")
    assert response.json()["error_description"].startswith("Invalid circuit breaker settings: sleepWindow")
    response = api.request("PATCH", f"{PROXIES}PetStore/settings/forwarded-ip-header/", {"xffOrder": "SIXTH"})
    assert response.json()["error_description"].startswith("Invalid forwarded IP header settings: xffOrder")


def test_credentials_of_settings_stay_out_of_reprs() -> None:
    from apinizer_pulumi.models import ApiKeysUpdate, NtlmSettings, ProxyServerSettings

    shown = (
        repr(ApiKeysUpdate(public_key="pk-secret", secret_key="sk-secret"))
        + repr(NtlmSettings(password="ntlm-secret"))
        + repr(ProxyServerSettings(proxy_password="proxy-secret"))
    )
    assert not any(s in shown for s in ("pk-secret", "sk-secret", "ntlm-secret", "proxy-secret"))
