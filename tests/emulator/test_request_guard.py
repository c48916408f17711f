"""The defences against CSRF and DNS rebinding: Host, Origin and JSON-only inspection writes.

Each refused variant is sent to the live emulator after a change to its database, and the change
must still be there afterwards: a refusal that wiped the database first would not count.
"""

from __future__ import annotations

import http.client
import json
import socket
from typing import Any

import httpx
import pytest
from starlette.types import Scope

import _emulator_http as emulator_http
from apinizer_emulator.guard import RequestGuard, split_host
from apinizer_emulator.testing import start_subprocess

from .conftest import Api, assert_error, endpoints_path, new_endpoint

HOST_REFUSED = (
    "The Host header names neither a loopback name or address nor the address the emulator "
    "listens on (a guard against DNS rebinding)"
)
ORIGIN_REFUSED = "Requests from another origin are refused (a guard against cross-site requests)"
JSON_REQUIRED = "Writes under /_emulator/ must be sent as Content-Type: application/json"


def _port(api: Api) -> int:
    port = api.client.base_url.port
    assert port is not None
    return port


def _mark(api: Api) -> None:
    """A change that ``POST /_emulator/reset`` would undo."""
    assert api.create(new_endpoint("/csrf-canary")).status_code == 200


def _still_marked(api: Api) -> bool:
    return "/csrf-canary" in {e["endpoint"] for e in api.proxy_state("PetStore")["endpoints"]}


# (headers, body, status, error, description): what a hostile page can make a browser send.
HOSTILE_RESETS: dict[str, tuple[dict[str, str], bytes, int, str, str]] = {
    "foreign origin": (
        {"Origin": "http://evil.example", "Content-Type": "application/json"}, b"{}", 403, "forbidden",
        ORIGIN_REFUSED,
    ),
    "foreign host (DNS rebinding)": (
        {"Host": "evil.example", "Content-Type": "application/json"}, b"{}", 403, "forbidden", HOST_REFUSED,
    ),
    "foreign host with the emulator's port": (
        {"Host": "evil.example:{port}", "Content-Type": "application/json"}, b"{}", 403, "forbidden",
        HOST_REFUSED,
    ),
    "text/plain": ({"Content-Type": "text/plain"}, b"{}", 415, "unsupported_media_type", JSON_REQUIRED),
    "form-encoded": (
        {"Content-Type": "application/x-www-form-urlencoded"}, b"a=b", 415, "unsupported_media_type",
        JSON_REQUIRED,
    ),
    "multipart": (
        {"Content-Type": "multipart/form-data; boundary=x"}, b"--x--\r\n", 415, "unsupported_media_type",
        JSON_REQUIRED,
    ),
    "no content type": ({}, b"", 415, "unsupported_media_type", JSON_REQUIRED),
    "Origin: null": ({"Origin": "null", "Content-Type": "application/json"}, b"{}", 403, "forbidden",
                     ORIGIN_REFUSED),
    "another port of the same host": (
        {"Origin": "http://127.0.0.1:3000", "Content-Type": "application/json"}, b"{}", 403, "forbidden",
        ORIGIN_REFUSED,
    ),
    "https origin for an http emulator": (
        {"Origin": "https://127.0.0.1:{port}", "Content-Type": "application/json"}, b"{}", 403, "forbidden",
        ORIGIN_REFUSED,
    ),
    "Sec-Fetch-Site: cross-site": (
        {"Sec-Fetch-Site": "cross-site", "Content-Type": "application/json"}, b"{}", 403, "forbidden",
        ORIGIN_REFUSED,
    ),
    "Sec-Fetch-Site: same-site": (
        {"Sec-Fetch-Site": "same-site", "Content-Type": "application/json"}, b"{}", 403, "forbidden",
        ORIGIN_REFUSED,
    ),
}


@pytest.mark.parametrize("variant", list(HOSTILE_RESETS))
def test_a_hostile_reset_is_refused_and_wipes_nothing(api: Api, variant: str):
    headers, body, status, error, description = HOSTILE_RESETS[variant]
    port = _port(api)
    _mark(api)
    sent = {name: value.format(port=port) for name, value in headers.items()}
    response = api.client.post("/_emulator/reset", headers=sent, content=body)
    assert_error(response, status, error, description)
    assert _still_marked(api)


@pytest.mark.parametrize(
    ("method", "path", "body"),
    [
        ("POST", "/_emulator/stats/reset", b"{}"),
        ("POST", "/_emulator/faults", b'{"status": 503}'),
        ("POST", "/_emulator/clock", b'{"advance": 10}'),
        ("DELETE", "/_emulator/faults", b"{}"),
    ],
)
def test_every_inspection_write_needs_json(api: Api, method: str, path: str, body: bytes):
    response = api.client.request(method, path, headers={"Content-Type": "text/plain"}, content=body)
    assert_error(response, 415, "unsupported_media_type", JSON_REQUIRED)
    assert api.client.get("/_emulator/faults").json()["faults"] == []
    response = api.client.request(method, path, headers={"Origin": "http://evil.example",
                                                         "Content-Type": "application/json"}, content=body)
    assert_error(response, 403, "forbidden", ORIGIN_REFUSED)
    assert api.client.get("/_emulator/faults").json()["faults"] == []


def test_a_delete_without_a_body_needs_no_content_type(api: Api):
    api.client.post("/_emulator/faults", json={"status": 503}).raise_for_status()
    assert api.client.delete("/_emulator/faults").json() == {"success": True}
    assert api.client.get("/_emulator/faults").json()["faults"] == []


@pytest.mark.parametrize(
    "headers",
    [
        {"Content-Type": "application/json"},
        {"Content-Type": "application/json; charset=utf-8"},
        {"Content-Type": "Application/JSON"},
        {"Content-Type": "application/json", "Origin": "http://127.0.0.1:{port}"},
        {"Content-Type": "application/json", "Sec-Fetch-Site": "same-origin"},
        {"Content-Type": "application/json", "Host": "localhost:{port}", "Origin": "http://localhost:{port}"},
    ],
)
def test_json_writes_from_the_emulators_own_origin_pass(api: Api, headers: dict[str, str]):
    _mark(api)
    sent = {name: value.format(port=_port(api)) for name, value in headers.items()}
    response = api.client.post("/_emulator/reset", headers=sent)  # an empty body with the JSON type
    assert response.status_code == 200, response.text
    assert response.json() == {"success": True}
    assert not _still_marked(api)


@pytest.mark.parametrize("host", ["evil.example", "evil.example:{port}", "127.0.0.1.evil.example",
                                  "localhost.evil.example", "10.0.0.7:{port}", "[::1", "a:b:c"])
def test_state_refuses_a_foreign_host(api: Api, host: str):
    response = api.client.get("/_emulator/state", headers={"Host": host.format(port=_port(api))})
    assert_error(response, 403, "forbidden", HOST_REFUSED)
    assert "users" not in response.text


@pytest.mark.parametrize("host", ["127.0.0.1:{port}", "127.0.0.1", "127.8.9.10:{port}", "localhost:{port}",
                                  "LOCALHOST", "localhost.:{port}", "[::1]:{port}", "[::ffff:127.0.0.1]"])
def test_loopback_hosts_are_answered(api: Api, host: str):
    response = api.client.get("/_emulator/state", headers={"Host": host.format(port=_port(api))})
    assert response.status_code == 200, response.text
    assert "users" in response.json()


def test_the_api_refuses_a_foreign_host_too(api: Api):
    # The default fixture's tokens are public: a rebinding page could use them.
    counted = api.client.get("/_emulator/stats").json()["total"]
    response = api.client.get(endpoints_path(), headers={**api.headers(), "Host": "evil.example"})
    assert_error(response, 403, "forbidden", HOST_REFUSED)
    assert api.client.get("/_emulator/stats").json()["total"] == counted  # turned away at the door
    response = api.client.post(
        endpoints_path(), headers={**api.headers(), "Origin": "http://evil.example"},
        json=new_endpoint("/cross-site"),
    )
    assert_error(response, 403, "forbidden", ORIGIN_REFUSED)
    assert "/cross-site" not in {e["endpoint"] for e in api.proxy_state("PetStore")["endpoints"]}
    assert api.list().status_code == 200


def test_a_cross_site_token_request_is_refused(http: httpx.Client):
    response = http.post(
        "/apiops/auth/token",
        headers={"Origin": "http://evil.example"},
        data={"grant_type": "client_credentials", "client_id": "admin", "client_secret": "admin"},
    )
    assert_error(response, 403, "forbidden", ORIGIN_REFUSED)


# -- the guard on its own: the address and name the server binds ---------------------------------


def _scope(host: str, *, server: tuple[str, int] = ("192.0.2.10", 18080), **headers: str) -> Scope:
    raw: list[tuple[bytes, bytes]] = [(b"host", host.encode())]
    raw += [(name.replace("_", "-").lower().encode(), value.encode()) for name, value in headers.items()]
    scope: dict[str, Any] = {
        "type": "http", "method": "GET", "path": "/_emulator/state", "scheme": "http",
        "headers": raw, "server": server,
    }
    return scope


def test_the_address_a_connection_came_in_on_is_a_valid_host():
    guard = RequestGuard(["0.0.0.0", "::"])
    assert guard.refusal(_scope("192.0.2.10:18080")) is None
    assert guard.refusal(_scope("192.0.2.11:18080")) is not None
    assert guard.refusal(_scope("[2001:db8::5]:18080", server=("2001:db8::5", 18080))) is None
    # A wildcard the server binds names no host: a page that sends Host 0.0.0.0 is refused.
    assert guard.refusal(_scope("0.0.0.0:18080")) is not None
    assert guard.refusal(_scope("[::]:18080")) is not None


def test_the_name_given_to_host_is_a_valid_host():
    guard = RequestGuard(["gateway.lan"])
    assert guard.refusal(_scope("gateway.lan:18080")) is None
    assert guard.refusal(_scope("gateway.lan:18080", origin="http://gateway.lan:18080")) is None
    assert guard.refusal(_scope("gateway.lan:18080", origin="http://evil.example")) is not None
    assert RequestGuard().refusal(_scope("gateway.lan:18080")) is not None


def test_a_request_without_host_passes_but_not_with_an_origin():
    scope = _scope("x")
    scope["headers"] = []
    assert RequestGuard().refusal(scope) is None
    scope["headers"] = [(b"origin", b"http://127.0.0.1")]
    assert RequestGuard().refusal(scope) is not None


@pytest.mark.parametrize(
    ("value", "parsed"),
    [
        ("127.0.0.1:18080", ("127.0.0.1", 18080)),
        ("LocalHost.", ("localhost", None)),
        ("[::1]:80", ("::1", 80)),
        ("[::1]", ("::1", None)),
        ("[::1]x", None),
        ("::1", None),
        ("a:1:2", None),
        ("a:port", None),
        ("a:123456", None),
        (":80", None),
        ("", None),
    ],
)
def test_split_host(value: str, parsed: tuple[str, int | None] | None):
    assert split_host(value) == parsed


def test_allow_host_names_a_host_the_served_emulator_answers_to():
    allowed = ["--allow-host", "host.docker.internal", "--allow-host", "ci.lan"]
    proc, url = start_subprocess(extra_args=allowed)
    try:
        port = url.rsplit(":", 1)[1]
        for host in (f"host.docker.internal:{port}", "ci.lan", f"127.0.0.1:{port}"):
            response = emulator_http.get(f"{url}/_emulator/stats", headers={"Host": host})
            assert response.status_code == 200, (host, response.text)
        refused = emulator_http.get(f"{url}/_emulator/stats", headers={"Host": "other.lan"})
        assert_error(refused, 403, "forbidden", HOST_REFUSED)
    finally:
        proc.terminate()
        proc.wait(timeout=15)


# -- more than one Host ----------------------------------------------------------------------------

HOST_TWICE = "A request must carry exactly one Host header"


def _raw_get(port: int, path: str, header_lines: list[str]) -> tuple[int, dict[str, str], bytes]:
    """A GET sent as raw bytes, so that headers httpx would merge or refuse go out as written."""
    request = f"GET {path} HTTP/1.1\r\n" + "".join(f"{line}\r\n" for line in header_lines)
    request += "Connection: close\r\n\r\n"
    with socket.create_connection(("127.0.0.1", port), timeout=10) as sock:
        sock.sendall(request.encode("latin-1"))
        answer = http.client.HTTPResponse(sock)
        answer.begin()
        return answer.status, {k.lower(): v for k, v in answer.getheaders()}, answer.read()


@pytest.mark.parametrize(
    "hosts",
    [
        ["evil.example", "127.0.0.1"],  # the last one passing the guard must not make it pass
        ["127.0.0.1", "evil.example"],
        ["127.0.0.1:{port}", "127.0.0.1:{port}"],  # even the same value twice (RFC 9112, 3.2)
    ],
)
@pytest.mark.parametrize("path", ["/_emulator/state", "/apiops/projects/Demo/apiProxies/PetStore/endpoints/"])
def test_a_request_with_two_host_headers_is_a_400(api: Api, hosts: list[str], path: str):
    port = _port(api)
    counted = api.client.get("/_emulator/stats").json()["total"]
    lines = [f"Host: {host.format(port=port)}" for host in hosts] + [f"Authorization: Bearer {api.token}"]
    status, headers, body = _raw_get(port, path, lines)
    assert status == 400, body
    assert headers["content-type"].startswith("application/json")
    assert json.loads(body) == {"error": "bad_request", "error_description": HOST_TWICE}
    assert b"users" not in body
    assert api.client.get("/_emulator/stats").json()["total"] == counted  # turned away at the door


def test_the_guard_refuses_two_hosts_before_judging_either():
    scope = _scope("127.0.0.1:18080")
    scope["headers"] = [(b"host", b"127.0.0.1:18080"), *scope["headers"]]
    refusal = RequestGuard().refusal(scope)
    assert refusal is not None
    assert refusal.status == 400
    assert refusal.to_body() == {"error": "bad_request", "error_description": HOST_TWICE}
