"""The same features through the project's own client (moto tests each feature twice)."""

from __future__ import annotations

import traceback
from collections.abc import Iterator

import pytest

import _emulator_http as emulator_http
from apinizer_pulumi.client import (
    ApinizerClient,
    AuthenticationError,
    BadRequestError,
    ConfigurationError,
    NotFoundError,
    PermissionDeniedError,
    RateLimitError,
)
from apinizer_pulumi.models import (
    CacheHandlingAction,
    CacheSettings,
    EndpointRateLimit,
    EndpointSpec,
    HttpMethod,
    WsaSettings,
)


@pytest.fixture
def client(emulator_url: str, admin_token: str) -> Iterator[ApinizerClient]:
    with ApinizerClient(emulator_url, token=admin_token, max_retries=0) as c:
        yield c


def test_endpoint_lifecycle_through_the_client(client: ApinizerClient):
    assert client.health() is True
    spec = EndpointSpec(
        name="/toys",
        http_method=HttpMethod.GET,
        backend_resource_url="/toys",
        backend_http_method=HttpMethod.GET,
        description="Toys",
    )
    client.endpoints.create("Demo", "PetStore", spec)
    created = client.endpoints.get("Demo", "PetStore", "/toys", "GET")
    assert (created.endpoint, created.active, created.description) == ("/toys", True, "Toys")
    client.endpoints.update("Demo", "PetStore", "/toys", "GET", description="More toys")
    client.endpoints.set_status("Demo", "PetStore", "/toys", "GET", False)
    client.endpoints.set_cache(
        "Demo",
        "PetStore",
        "/toys",
        "GET",
        CacheSettings(name="c", handling_action=CacheHandlingAction.STOP, ttl=10),
    )
    updated = client.endpoints.get("Demo", "PetStore", "/toys", "GET")
    assert (updated.description, updated.active, updated.id) == ("More toys", False, created.id)
    policies = client.endpoints.policies("Demo", "PetStore", "/pets", "GET")
    assert [p.name for p in policies.request_policy_list] == ["throttle-list", "add-correlation-id"]
    assert len(client.endpoints.list("Demo", "PetStore")) == 4
    client.endpoints.delete("Demo", "PetStore", "/toys", "GET")
    assert client.endpoints.find("Demo", "PetStore", "/toys", "GET") is None


def test_wsa_and_report_through_the_client(client: ApinizerClient):
    client.endpoints.set_wsa("Demo", "Calculator", "Add", "POST", WsaSettings(wsa_enabled=True))
    report = client.reports.organization_access()
    assert [p.api_proxy_name for p in report.result.api_proxy_list] == ["PetStore", "Calculator"]


def test_rlcl_through_the_client(client: ApinizerClient, emulator_url: str):
    entry = EndpointRateLimit.model_validate(
        {
            "apiProxyName": "PetStore",
            "endpointName": "/pets",
            "endpointHTTPMethod": "GET",
            "permittedMessageCount": 10,
            "timeIntervalPeriodLength": 1,
            "timeInterval": "ONE_MINUTE",
            "cacheConnectionTimeoutInSeconds": 2,
            "cacheErrorHandlingType": "FAIL",
            "timeIntervalWindowType": "FIXED",
        }
    )
    client.rlcl.add_endpoints("Demo", "Standard", [entry])
    client.rlcl.add_endpoints("Demo", "Standard", [entry])
    stored = emulator_http.get(f"{emulator_url}/_emulator/projects/Demo/rlcl/Standard/endpoints").json()
    assert stored == {"endpointRateLimitList": [entry.to_api()]}
    client.rlcl.replace_endpoints("Demo", "Standard", [entry])
    client.rlcl.delete_endpoints("Demo", "Standard", [entry])
    assert emulator_http.get(f"{emulator_url}/_emulator/projects/Demo/rlcl/Standard/endpoints").json() == {
        "endpointRateLimitList": []
    }


def test_errors_map_to_the_clients_exception_classes(client: ApinizerClient, emulator_url: str):
    spec = EndpointSpec(
        name="Mul",
        http_method=HttpMethod.POST,
        backend_resource_url="/x",
        backend_http_method=HttpMethod.POST,
    )
    with pytest.raises(BadRequestError) as bad:
        client.endpoints.create("Demo", "Calculator", spec)
    assert bad.value.error_description == "Endpoint can only be added to REST API Proxies!"
    with pytest.raises(NotFoundError) as missing:
        client.endpoints.list("Demo", "Ghost")
    assert missing.value.error_description == "ApiProxy (name: Ghost) was not found!"
    with (
        ApinizerClient(emulator_url, token="dev-guest-token", max_retries=0) as guest,
        pytest.raises(PermissionDeniedError),
    ):
        guest.endpoints.list("Demo", "PetStore")
    with (
        ApinizerClient(emulator_url, token="wrong", max_retries=0) as stranger,
        pytest.raises(AuthenticationError),
    ):
        stranger.endpoints.list("Demo", "PetStore")


def test_the_secure_hello_through_the_client(emulator_url: str):
    # The guest has no role at all: the hello checks authentication alone.
    with ApinizerClient(emulator_url, token="dev-guest-token", max_retries=0) as guest:
        assert guest.hello("John") == "Hello John"
        assert guest.hello("Jo Ann") == "Hello Jo Ann"
    with ApinizerClient(emulator_url, username="developer", password="developer", max_retries=0) as login:
        assert login.hello("developer") == "Hello developer"
    with (
        ApinizerClient(emulator_url, token="wrong", max_retries=0) as stranger,
        pytest.raises(AuthenticationError) as refused,
    ):
        stranger.hello("John")
    assert refused.value.error_description == "Invalid token"


def test_client_credentials_login_against_the_emulator(emulator_url: str):
    with ApinizerClient(emulator_url, username="developer", password="developer", max_retries=0) as c:
        assert c.request_token().expires_in == 3600
        assert len(c.endpoints.list("Demo", "Orders")) == 1


def test_the_client_retries_an_injected_503(emulator_url: str, admin_token: str):
    emulator_http.post(
        f"{emulator_url}/_emulator/faults", json={"status": 503, "retry_after": 0, "count": 2}
    ).raise_for_status()
    with ApinizerClient(emulator_url, token=admin_token, max_retries=3) as c:
        assert len(c.endpoints.list("Demo", "PetStore")) == 3
    requests = emulator_http.get(f"{emulator_url}/_emulator/stats").json()["requests"]
    assert requests["GET /apiops/projects/{projectName}/apiProxies/{apiProxyName}/endpoints/"] == 3


def test_the_client_gives_up_on_a_persistent_429(emulator_url: str, admin_token: str):
    emulator_http.post(
        f"{emulator_url}/_emulator/faults", json={"status": 429, "retry_after": 0, "count": 10}
    ).raise_for_status()
    with ApinizerClient(emulator_url, token=admin_token, max_retries=1) as c, pytest.raises(RateLimitError):
        c.endpoints.list("Demo", "PetStore")


def test_a_token_read_from_a_file_loses_its_newline(emulator_url: str, admin_token: str):
    with ApinizerClient(emulator_url, token=admin_token + "\n", max_retries=0) as c:
        assert c.endpoints.list("Demo", "PetStore")


@pytest.mark.parametrize("suffix", ["\r\nX-Injected: 1", "\x00"])
def test_a_token_no_header_can_carry_is_refused_and_not_shown(
    emulator_url: str, admin_token: str, suffix: str
):
    # Sent, h11 would refuse the header and quote its value (httpcore logs it at DEBUG): the
    # client refuses it before any request.
    with pytest.raises(ConfigurationError) as caught:
        ApinizerClient(emulator_url, token=admin_token + suffix, max_retries=0)
    assert "token holds U+00" in str(caught.value)
    shown = "".join(traceback.format_exception(caught.value))
    assert admin_token not in shown
    assert admin_token not in repr(caught.value)
