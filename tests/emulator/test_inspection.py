"""The /_emulator/ namespace: state, counters, reset, faults, and its loopback-only guard."""

from __future__ import annotations

import asyncio

import httpx
import pytest

from apinizer_emulator.app import create_app
from apinizer_emulator.families import Backend
from apinizer_emulator.fixtures import load_fixture
from apinizer_emulator.store import Store

from .conftest import Api, assert_error, endpoints_path, new_endpoint, rlcl_path

LIST = "GET /apiops/projects/{projectName}/apiProxies/{apiProxyName}/endpoints/"
CREATE = "POST /apiops/projects/{projectName}/apiProxies/{apiProxyName}/endpoints/"
DETAILS = "POST /apiops/projects/{projectName}/apiProxies/{apiProxyName}/endpoints/details/"


def test_state_holds_everything_but_secrets(api: Api):
    state = api.state()
    assert set(state) == {"now", "users", "tokens", "projects", "dataModelList", "credentials", "geolocation"}
    assert state["credentials"] == []
    assert state["geolocation"] == {"enabled": False, "mmdb": None}
    assert state["users"] == [
        {"username": "admin", "roles": ["ROLE_ADMIN"], "systemRole": "admin"},
        {"username": "analyst", "roles": [], "systemRole": "analyzer"},
        {"username": "developer", "roles": ["ROLE_MANAGE_PROXIES"], "systemRole": None},
        {"username": "guest", "roles": [], "systemRole": None},
    ]
    assert [t["name"] for t in state["tokens"]] == ["dev-admin", "dev-developer", "dev-analyst", "dev-guest"]
    assert all(
        set(t) == {"id", "username", "name", "kind", "created_at", "expires_at", "revoked_at"}
        for t in state["tokens"]
    )
    (demo,) = state["projects"]
    assert demo["name"] == "Demo"
    assert [(p["name"], p["type"], p["sharingType"]) for p in demo["apiProxies"]] == [
        ("PetStore", "REST", "EXTERNAL"),
        ("Orders", "REST", "INTERNAL"),
        ("Calculator", "SOAP", "BOTH"),
    ]
    assert [r["name"] for r in demo["rlcls"]] == ["Standard", "Premium"]
    pets = demo["apiProxies"][0]["endpoints"][0]
    assert set(pets) == {
        "id",
        "endpoint",
        "description",
        "active",
        "httpMethod",
        "backendResourceUrl",
        "backendHttpMethod",
        "requestPolicyList",
        "responsePolicyList",
        "errorPolicyList",
        "cacheSettings",
        "wsaSettings",
    }
    text = api.client.get("/_emulator/state").text
    for secret in ("dev-admin-token", "pbkdf2", "token_hash", "password"):
        assert secret not in text


def test_fixture_ids_are_stable_across_resets(api: Api):
    before = api.list().json()["resultList"]
    api.client.post("/_emulator/reset", json={}).raise_for_status()
    assert api.list().json()["resultList"] == before


def test_reset_returns_to_the_fixture(api: Api):
    assert api.create(new_endpoint()).status_code == 200
    assert (
        api.request("POST", endpoints_path("delete"), {"name": "/pets", "httpMethod": "GET"}).status_code
        == 200
    )
    assert api.client.post("/_emulator/reset", json={}).json() == {"success": True}
    assert [e["endpoint"] for e in api.list().json()["resultList"]] == ["/pets", "/pets", "/pets/{id}"]
    policies = api.request("POST", endpoints_path("policies"), {"name": "/pets", "httpMethod": "GET"}).json()
    assert len(policies["requestPolicyList"]) == 2


def test_stats_count_apiops_requests_by_route_template(api: Api):
    assert api.client.get("/_emulator/stats").json() == {"total": 0, "requests": {}}
    api.list()
    api.list("Calculator")
    api.create(new_endpoint())
    api.get("/pets", "GET")
    api.get("/nope", "GET")  # errors count too
    api.request("GET", endpoints_path(), token="bad")  # and refused ones
    api.client.post(
        "/apiops/auth/token",
        data={"grant_type": "client_credentials", "client_id": "admin", "client_secret": "admin"},
    )
    api.client.get("/apiops/test/healthcheck")
    api.client.get("/apiops/unknown")
    api.client.get("/_emulator/state")  # not counted
    stats = api.client.get("/_emulator/stats").json()
    assert stats == {
        "total": 9,
        "requests": {
            LIST: 3,
            CREATE: 1,
            DETAILS: 2,
            "POST /apiops/auth/token": 1,
            "GET /apiops/test/healthcheck": 1,
            "GET (unmatched)": 1,
        },
    }
    assert api.client.post("/_emulator/stats/reset", json={}).json() == {"success": True}
    assert api.client.get("/_emulator/stats").json() == {"total": 0, "requests": {}}


def test_stats_of_rlcl_operations(api: Api):
    for method in ("POST", "PUT", "DELETE"):
        api.request(method, rlcl_path(), {"endpointRateLimitList": []})
    requests = api.client.get("/_emulator/stats").json()["requests"]
    assert requests == {
        f"{m} /apiops/projects/{{projectName}}/rlcl/{{rlclName}}/endpoints/": 1
        for m in ("POST", "PUT", "DELETE")
    }


# -- faults ---------------------------------------------------------------------------------------


def add_fault(api: Api, **rule) -> dict:
    response = api.client.post("/_emulator/faults", json=rule)
    assert response.status_code == 200, response.text
    return dict(response.json())


def test_status_fault_for_the_next_n_requests_with_retry_after(api: Api):
    add_fault(api, status=503, retry_after=2, count=2)
    for _ in range(2):
        response = api.list()
        assert_error(response, 503, "service_unavailable", "Fault injected by the emulator (503)")
        assert response.headers["retry-after"] == "2"
    assert api.list().status_code == 200
    assert api.client.get("/_emulator/faults").json()["faults"] == []
    # faulted requests are counted like any other
    assert api.client.get("/_emulator/stats").json()["requests"][LIST] == 3


def test_status_fault_with_custom_error_and_path_filter(api: Api):
    add_fault(
        api, status=429, path="/details/", error="too_many_requests", error_description="slow down", count=1
    )
    assert api.list().status_code == 200  # does not match the filter
    assert_error(api.get("/pets", "GET"), 429, "too_many_requests", "slow down")
    assert api.get("/pets", "GET").status_code == 200


def test_a_status_without_a_phrase_gets_a_generic_error(api: Api):
    add_fault(api, status=599)
    assert_error(api.list(), 599, "error", "Fault injected by the emulator (599)")


def test_method_filter_and_faults_do_not_touch_the_inspection_namespace(api: Api):
    add_fault(api, status=500, method="POST", count=1)
    assert api.client.get("/_emulator/state").status_code == 200
    assert api.list().status_code == 200
    assert_error(api.create(new_endpoint()), 500, "internal_error")
    # the faulted create never reached the backend
    assert api.list().json()["resultCount"] == 3


def test_fraction_fault_hits_some_requests_reproducibly(api: Api):
    def run() -> list[int]:
        api.client.delete("/_emulator/faults")
        add_fault(api, status=502, fraction=0.5, seed=7)
        return [api.list().status_code for _ in range(40)]

    first = run()
    assert set(first) == {200, 502}
    assert 5 < first.count(502) < 35
    assert run() == first  # same seed, same choices
    assert api.client.delete("/_emulator/faults").json() == {"success": True}
    assert {api.list().status_code for _ in range(5)} == {200}


def test_fraction_with_a_count_stops_after_count_hits(api: Api):
    add_fault(api, status=502, fraction=1.0, count=3)
    assert [api.list().status_code for _ in range(5)] == [502, 502, 502, 200, 200]


def test_delay_fault_delays_then_answers(api: Api):
    rules = add_fault(api, delay=0.1, count=1)["faults"]
    assert rules == [{"delay": 0.1, "drop": False, "after": False, "count": 1}]
    assert api.list().status_code == 200
    assert api.client.get("/_emulator/faults").json()["faults"] == []


def test_a_long_delay_outlasts_a_short_client_timeout(api: Api):
    add_fault(api, delay=3, count=1)
    with pytest.raises(httpx.ReadTimeout):
        api.client.get(endpoints_path(), headers=api.headers(), timeout=0.3)
    assert api.client.get("/_emulator/faults").json()["faults"] == []


def test_drop_fault_closes_the_connection_without_an_answer(api: Api):
    add_fault(api, drop=True, count=1)
    with pytest.raises(httpx.RemoteProtocolError):
        api.list()
    assert api.list().status_code == 200


def test_after_faults_carry_the_request_out_and_lose_or_replace_its_answer(api: Api):
    add_fault(api, drop=True, after=True, count=1)
    with pytest.raises(httpx.RemoteProtocolError):
        api.create(new_endpoint("/lost"))
    add_fault(api, status=504, after=True, count=1)
    assert_error(api.create(new_endpoint("/replaced")), 504, "gateway_timeout")
    names = {e["endpoint"] for e in api.proxy_state("PetStore")["endpoints"]}
    assert {"/lost", "/replaced"} <= names


def test_fired_faults_are_counted_by_kind_until_cleared(api: Api):
    add_fault(api, status=503, count=2)
    add_fault(api, drop=True, after=True, count=1)
    for _ in range(2):
        api.list()
    with pytest.raises(httpx.RemoteProtocolError):
        api.list()
    api.list()
    assert api.client.get("/_emulator/faults").json() == {"faults": [], "fired": {"503": 2, "drop after": 1}}
    api.client.delete("/_emulator/faults").raise_for_status()
    assert api.client.get("/_emulator/faults").json()["fired"] == {}


def test_reset_clears_faults(api: Api):
    add_fault(api, status=503, count=5)
    api.client.post("/_emulator/reset", json={}).raise_for_status()
    assert api.list().status_code == 200


@pytest.mark.parametrize(
    "rule",
    [
        {},
        {"status": 200},
        {"status": 700},
        {"status": 503, "drop": True},
        {"after": True},
        {"after": True, "count": 2},
        {"delay": -1},
        {"status": 503, "count": 0},
        {"status": 503, "fraction": 1.5},
        {"status": 503, "colour": "red"},
        {"status": "503x"},
        {"drop": True, "seed": "x"},
    ],
)
def test_invalid_fault_rules_are_400(api: Api, rule):
    assert_error(api.client.post("/_emulator/faults", json=rule), 400, "bad_request")
    assert api.client.get("/_emulator/faults").json()["faults"] == []


# -- loopback only ------------------------------------------------------------------------------


def _call(client_host: str, path: str) -> httpx.Response:
    app = create_app(Backend(Store(), load_fixture()))

    async def go() -> httpx.Response:
        transport = httpx.ASGITransport(app=app, client=(client_host, 40000))
        async with httpx.AsyncClient(transport=transport, base_url="http://emulator") as client:
            return await client.get(path, headers={"Authorization": "Bearer dev-admin-token"})

    return asyncio.run(go())


@pytest.mark.parametrize("host", ["10.0.0.7", "192.168.1.20", "2001:db8::1", "testclient"])
def test_inspection_refuses_other_clients(host):
    response = _call(host, "/_emulator/state")
    assert_error(response, 403, "forbidden", "The inspection namespace answers loopback clients only")
    # the API itself answers them
    assert _call(host, "/apiops/projects/Demo/apiProxies/PetStore/endpoints/").status_code == 200


@pytest.mark.parametrize("host", ["127.0.0.1", "127.8.9.10", "::1", "::ffff:127.0.0.1"])
def test_inspection_answers_loopback_clients(host):
    assert _call(host, "/_emulator/stats").status_code == 200
