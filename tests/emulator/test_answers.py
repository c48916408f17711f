"""How the emulator answers: ``Allow`` on a 405, the JSON content type, a client that goes away,
integer bounds, the bounded password hashing, and the "slow but carried out" delay fault."""

from __future__ import annotations

import os
import re
import socket
import sys
import threading
import time
from pathlib import Path
from typing import Any

import httpx
import pytest

import _emulator_http as emulator_http
from apinizer_emulator import app
from apinizer_emulator.auth import PASSWORD_HASHING
from apinizer_emulator.testing import start_subprocess
from apinizer_pulumi.client import ApinizerClient

from .conftest import Api, assert_error, assert_success, endpoints_path, new_endpoint, rlcl_path
from .test_rlcl import entry, rl

JSON = "application/json;charset=UTF-8"
METHODS = ("GET", "POST", "PUT", "PATCH", "DELETE")
#: Values for each path parameter of the API's templates.
PARAMS = {"projectName": "Demo", "apiProxyName": "PetStore", "rlclName": "Standard", "name": "x",
          "environmentName": "test", "hideSpecFile": "true", "ipGroupName": "x", "policyName": "x",
          "apiProxyGroupName": "Payments"}
# Credentials and their access.
PARAMS["username"] = "partner"
# Connections.
PARAMS["connectionName"] = "x"
# Keys and secrets.
PARAMS.update(jwkName="x", certificateName="x", keyName="x", keystoreName="x")
#: The API's paths as the OpenAPI document lists them (parameters filled in).
API_PATHS = [
    re.sub(r"{(\w+)}", lambda m: PARAMS[m.group(1)], template) for _, template, *_ in app.API_ROUTES
]
#: The inspection namespace's paths and their methods (it is not in the OpenAPI document).
INSPECTION = {
    "/_emulator/state": {"GET"},
    "/_emulator/projects/Demo/rlcl/Standard/endpoints": {"GET"},
    "/_emulator/projects/Demo/rlcl/Standard": {"GET"},
    "/_emulator/projects/Demo/apiProxyGroups/Payments": {"GET"},
    "/_emulator/projects/Demo/rlcl/Standard/credentials": {"GET"},
    "/_emulator/stats": {"GET"},
    "/_emulator/stats/reset": {"POST"},
    "/_emulator/reset": {"POST"},
    "/_emulator/clock": {"GET", "POST"},
    "/_emulator/faults": {"GET", "POST", "DELETE"},
}


def _operations(http: httpx.Client) -> dict[str, set[str]]:
    """Every path of the API (parameters filled in) with its documented methods."""
    paths = http.get("/apiops/openapi.json").json()["paths"]
    operations: dict[str, set[str]] = {}
    for template in paths:
        path = re.sub(r"{(\w+)}", lambda m: PARAMS[m.group(1)], template)
        # A filled-in path can match more than one template (".../apiProxies/url/" also fits
        # ".../apiProxies/{apiProxyName}/"). OpenAPI matches concrete paths before templated ones,
        # so its methods are those of the template with the fewest parameters that it fits.
        fitting = [other for other in paths if re.fullmatch(re.sub(r"{(\w+)}", "[^/]+", other), path)]
        fewest = min(other.count("{") for other in fitting)
        operations[path] = {
            method.upper() for other in fitting if other.count("{") == fewest for method in paths[other]
        }
    return operations


def test_a_concrete_path_takes_only_its_own_methods(api: Api):
    # ".../apiProxies/url/" is the create-from-URL path, not the proxy named "url": a GET or DELETE
    # there is a 405 naming POST and PUT, as the document's paths say.
    for suffix, allowed in (("url/", "POST, PUT"), ("file/", "POST, PUT"), ("import/", "POST")):
        path = f"/apiops/projects/Demo/apiProxies/{suffix}"
        for method in ("GET", "DELETE", "PATCH"):
            response = api.request(method, path)
            assert_error(response, 405, "method_not_allowed", f"Method {method} is not allowed for {path}")
            assert response.headers["allow"] == allowed, (method, path)
    assert api.request("GET", "/apiops/projects/Demo/apiProxies/PetStore/").status_code == 200


def _state_without_clock(api: Api) -> dict[str, Any]:
    state = api.state()
    state.pop("now")
    return state


# -- 405 and Allow -------------------------------------------------------------------------------


def test_the_openapi_document_lists_every_api_path(http: httpx.Client):
    # The 405 test below takes its paths from the document: it must hold every route of the API.
    assert set(API_PATHS) <= set(_operations(http))


def test_every_405_carries_allow_with_the_paths_methods(api: Api):
    checked = 0
    for path, allowed in {**_operations(api.client), **INSPECTION}.items():
        for method in [m for m in METHODS if m not in allowed] + ["HEAD", "OPTIONS"]:
            response = api.request(method, path, {})
            if method == "HEAD":  # no body, by definition
                assert response.status_code == 405, path
            else:
                message = f"Method {method} is not allowed for {path}"
                assert_error(response, 405, "method_not_allowed", message)
            listed = response.headers["allow"].split(", ")
            assert set(listed) == allowed, (method, path, listed)
            checked += 1
    assert checked > len(set(API_PATHS))


def test_allow_lists_methods_in_a_fixed_order(api: Api):
    assert api.request("DELETE", endpoints_path()).headers["allow"] == "GET, POST, PATCH"
    assert api.request("GET", rlcl_path()).headers["allow"] == "POST, PUT, DELETE"
    assert api.request("GET", "/apiops/projects/Demo/rlcl/Standard/").headers["allow"] == "PUT, DELETE"
    assert api.client.put("/_emulator/faults", json={}).headers["allow"] == "GET, POST, DELETE"


# -- the JSON content type -------------------------------------------------------------------------


def test_every_json_answer_says_utf8_json(api: Api, http: httpx.Client):
    answers = {
        "list": api.list(),
        "success": api.create(new_endpoint("/typed")),
        "details": api.get("/pets", "GET"),
        "policies": api.request("POST", endpoints_path("policies"), {"name": "/pets", "httpMethod": "GET"}),
        "report": api.request("GET", "/apiops/reports/organization-api-data-model-access"),
        "token": http.post("/apiops/auth/token", data={"grant_type": "client_credentials",
                                                        "client_id": "admin", "client_secret": "admin"}),
        "400": api.create({}),
        "401": api.request("GET", endpoints_path(), token="nope"),
        "404": api.request("GET", "/apiops/nowhere"),
        "405": api.request("DELETE", endpoints_path()),
        "openapi": http.get("/apiops/openapi.json"),
        "state": http.get("/_emulator/state"),
        "stats": http.get("/_emulator/stats"),
        "403 guard": http.get("/_emulator/state", headers={"Host": "evil.example"}),
        "415 guard": http.post("/_emulator/reset", content=b"{}", headers={"Content-Type": "text/plain"}),
    }
    http.post("/_emulator/faults", json={"status": 503, "count": 1}).raise_for_status()
    answers["fault"] = api.list()
    for name, response in answers.items():
        assert response.headers["content-type"] == JSON, name
        response.json()


def test_the_client_reads_the_utf8_json_answers(emulator_url: str, admin_token: str):
    with ApinizerClient(emulator_url, token=admin_token) as client:
        assert [e.endpoint for e in client.endpoints.list("Demo", "Orders")] == ["/orders"]
        assert client.endpoints.get("Demo", "PetStore", "/pets", "GET").endpoint == "/pets"


# -- a client that goes away ----------------------------------------------------------------------


def _send_partial_post(port: int, path: str, headers: str) -> None:
    with socket.create_connection(("127.0.0.1", port), timeout=5) as sock:
        sock.sendall(
            f"POST {path} HTTP/1.1\r\nHost: 127.0.0.1:{port}\r\n{headers}"
            "Content-Type: application/json\r\nContent-Length: 400\r\n\r\n{\"name\": \"/ha".encode()
        )
        time.sleep(0.2)  # let the server start on the request before the connection goes


def test_a_client_disconnect_logs_one_line_and_no_traceback(tmp_path: Path):
    log = tmp_path / "emulator.log"
    with log.open("w") as sink:
        proc, url = start_subprocess(stderr=sink)
    try:
        port = int(url.rsplit(":", 1)[1])
        _send_partial_post(port, endpoints_path(), "Authorization: Bearer dev-admin-token\r\n")
        _send_partial_post(port, "/_emulator/clock", "")
        deadline = time.monotonic() + 20
        while log.read_text().count("disconnected") < 2 and time.monotonic() < deadline:
            time.sleep(0.05)
        assert emulator_http.get(f"{url}/apiops/test/healthcheck").text == "OK"
    finally:
        proc.terminate()
        proc.wait(timeout=15)
    lines = [line for line in log.read_text().splitlines() if line.strip()]
    assert "Traceback" not in log.read_text()
    assert [line for line in lines if "disconnected" in line] == [
        f"WARNING:  Client disconnected before its request was read: POST {endpoints_path()}",
        "WARNING:  Client disconnected before its request was read: POST /_emulator/clock",
    ]
    assert not [line for line in lines if "ERROR" in line], lines


# -- integers --------------------------------------------------------------------------------------

BEYOND_64_BITS = [2**63, 2**64, -(2**63) - 1, 10**30]
BELOW_DOCUMENTED = [0, -1, -(2**63)]


def _cache(field: str, value: Any) -> dict[str, Any]:
    return {"identifierName": "/pets", "identifierHttpMethod": "GET",
            "cacheSettings": {"name": "c", "handlingAction": "STOP", field: value}}


#: (operation, path, body for a value, field path in the message)
INTEGER_FIELDS = {
    "capacity": ("PATCH", endpoints_path("cache"), lambda v: _cache("capacity", v), "cacheSettings.capacity"),
    "ttl": ("PATCH", endpoints_path("cache"), lambda v: _cache("ttl", v), "cacheSettings.ttl"),
    "permittedMessageCount": ("POST", rlcl_path(), lambda v: rl(entry(permittedMessageCount=v)),
                              "endpointRateLimitList[0].permittedMessageCount"),
    "timeIntervalPeriodLength": ("PUT", rlcl_path(), lambda v: rl(entry(timeIntervalPeriodLength=v)),
                                 "endpointRateLimitList[0].timeIntervalPeriodLength"),
    "entry cacheConnectionTimeoutInSeconds": (
        "POST", rlcl_path(), lambda v: rl(entry(cacheConnectionTimeoutInSeconds=v)),
        "endpointRateLimitList[0].cacheConnectionTimeoutInSeconds"),
    "rlcl cacheConnectionTimeoutInSeconds": (
        "POST", "/apiops/projects/Demo/rlcl/",
        lambda v: {"name": "Big", "cacheConnectionTimeoutInSeconds": v},
        "cacheConnectionTimeoutInSeconds"),
}


@pytest.mark.parametrize("value", BEYOND_64_BITS + BELOW_DOCUMENTED)
@pytest.mark.parametrize("field", list(INTEGER_FIELDS))
def test_integers_out_of_bounds_are_400_and_store_nothing(api: Api, field: str, value: int):
    method, path, body, where = INTEGER_FIELDS[field]
    before = _state_without_clock(api)
    response = api.request(method, path, body(value))
    assert_error(response, 400, "bad_request")
    description = response.json()["error_description"]
    assert description.startswith(where), description
    if value in BEYOND_64_BITS:
        assert description == f"{where} must be an integer from -9223372036854775808 to 9223372036854775807"
    assert _state_without_clock(api) == before


def test_the_largest_64_bit_integer_is_stored_as_sent(api: Api):
    biggest = 2**63 - 1
    assert_success(api.request("PATCH", endpoints_path("cache"), _cache("ttl", biggest)))
    (pets,) = [e for e in api.proxy_state("PetStore")["endpoints"] if e["endpoint"] == "/pets"
               and e["httpMethod"] == "GET"]
    assert pets["cacheSettings"]["ttl"] == biggest
    assert_success(api.request("POST", rlcl_path(), rl(entry(permittedMessageCount=biggest))))
    assert api.rlcl_entries()[0]["permittedMessageCount"] == biggest


@pytest.mark.parametrize(
    ("path", "body", "message"),
    [
        ("/_emulator/faults", {"status": 503, "count": 2**63},
         "count must be an integer from -9223372036854775808 to 9223372036854775807"),
        ("/_emulator/faults", {"status": 503, "seed": -(2**64)},
         "seed must be an integer from -9223372036854775808 to 9223372036854775807"),
        ("/_emulator/clock", {"advance": 2**63},
         "advance must be an integer from -9223372036854775808 to 9223372036854775807"),
        ("/_emulator/clock", {"advance": 10**12}, "advance would take the clock past 3000-01-01T00:00:00Z"),
    ],
)
def test_inspection_integers_are_bounded_too(api: Api, path: str, body: dict[str, Any], message: str):
    now = api.client.get("/_emulator/clock").json()["now"]
    assert_error(api.client.post(path, json=body), 400, "bad_request", message)
    assert api.client.get("/_emulator/faults").json()["faults"] == []
    assert api.client.get("/_emulator/clock").json()["now"] < now + 60


def test_a_number_beyond_a_double_is_400(api: Api):
    raw = b'{"identifierName": "/pets", "identifierHttpMethod": "GET", ' \
          b'"cacheSettings": {"name": "c", "handlingAction": "STOP", "ttl": 1e400}}'
    response = api.client.patch(endpoints_path("cache"), content=raw,
                                headers={**api.headers(), "Content-Type": "application/json"})
    assert_error(response, 400, "bad_request", "cacheSettings.ttl must be a finite number")


# -- password hashing -----------------------------------------------------------------------------


def test_wrong_passwords_are_hashed_on_at_most_one_thread_per_core(emulator_url: str):
    PASSWORD_HASHING.reset_peak()
    statuses: list[int] = []

    def wrong_password() -> None:
        response = emulator_http.post(f"{emulator_url}/apiops/auth/token", timeout=60, data={
            "grant_type": "client_credentials", "client_id": "admin", "client_secret": "wrong"})
        statuses.append(response.status_code)

    threads = [threading.Thread(target=wrong_password) for _ in range(16)]
    for thread in threads:
        thread.start()
    for thread in threads:
        thread.join()
    assert statuses == [401] * 16
    cores = os.cpu_count() or 1
    assert PASSWORD_HASHING.workers == cores
    assert 1 <= PASSWORD_HASHING.peak <= cores
    hashing_threads = [t for t in threading.enumerate() if t.name.startswith("apinizer-hash")]
    assert 1 <= len(hashing_threads) <= cores
    if sys.platform == "linux":  # where a thread's priority is its own: below the event loop's
        loop_niceness = os.getpriority(os.PRIO_PROCESS, 0)
        for thread in hashing_threads:
            assert thread.native_id is not None
            niceness = os.getpriority(os.PRIO_PROCESS, thread.native_id)
            assert niceness == min(19, loop_niceness + PASSWORD_HASHING.NICENESS)


def test_a_right_password_still_gets_a_token(http: httpx.Client):
    response = http.post("/apiops/auth/token", data={
        "grant_type": "client_credentials", "client_id": "developer", "client_secret": "developer"})
    assert response.status_code == 200, response.text
    token = response.json()["access_token"]
    listed = http.get(endpoints_path(), headers={"Authorization": f"Bearer {token}"})
    assert listed.status_code == 200


# -- "slow but carried out" --------------------------------------------------------------------------


def test_a_delay_after_the_work_stores_the_write_a_timed_out_client_gave_up_on(api: Api):
    rule = {"delay": 2, "after": True, "method": "POST"}
    api.client.post("/_emulator/faults", json=rule).raise_for_status()
    with pytest.raises(httpx.ReadTimeout):
        api.client.post(endpoints_path(), json=new_endpoint("/slow"), headers=api.headers(), timeout=0.5)
    # The write was committed before the delay began: it is there while the answer is still due.
    assert "/slow" in {e["endpoint"] for e in api.proxy_state("PetStore")["endpoints"]}
    assert api.client.get("/_emulator/faults").json()["fired"] == {"delay after": 1}


def test_a_delay_after_the_work_then_sends_the_real_answer(api: Api):
    api.client.post("/_emulator/faults", json={"delay": 0.2, "after": True, "count": 1}).raise_for_status()
    started = time.monotonic()
    response = api.create(new_endpoint("/slow-ok"))
    assert time.monotonic() - started >= 0.2
    assert_success(response)
    # The same create again is the duplicate: the first one was carried out once, not twice.
    assert_error(api.create(new_endpoint("/slow-ok")), 400, "bad_request")


def test_a_plain_delay_does_nothing_for_a_client_that_gave_up(api: Api):
    api.client.post("/_emulator/faults", json={"delay": 1, "count": 1}).raise_for_status()
    with pytest.raises(httpx.ReadTimeout):
        api.client.post(endpoints_path(), json=new_endpoint("/never"), headers=api.headers(), timeout=0.3)
    time.sleep(1.5)  # past the delay: the request was dropped, not carried out late
    assert "/never" not in {e["endpoint"] for e in api.proxy_state("PetStore")["endpoints"]}

