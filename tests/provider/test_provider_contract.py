"""Rules of the design's resource table that every kind must keep, each pinned down on its own.

These came out of mutation testing: each test here fails when one plausible bug is put into a
provider (a replace field dropped, a credentials change diffed, a default left out on destroy,
a secret echoed in a message, a partial delete stopping early, a phantom refresh drift).
"""

from __future__ import annotations

from typing import Any

import grpc
import pytest

import _emulator_http as emulator_http
from apinizer_pulumi.models import CacheSettings, WsaSettings
from apinizer_pulumi.resources.testing import DIFF_NONE, DIFF_SOME, UNKNOWN, Engine

from .conftest import Gateway
from .test_endpoint import USERS
from .test_endpoint_cache import CACHE
from .test_endpoint_wsa import WSA
from .test_rlcl_endpoints import RLCL, entry

# For each identifier of each kind, a value that names another existing gateway object.
ENDPOINT_MOVES = {"project_name": "Other", "api_proxy_name": "Orders", "name": "/api/people",
                  "http_method": "POST"}
SETTINGS_MOVES = {"project_name": "Other", "api_proxy_name": "Orders", "endpoint_name": "/pets/{id}",
                  "endpoint_http_method": "POST"}
RLCL_MOVES = {"project_name": "Other", "rlcl_name": "Premium"}
RLCL_ENDPOINTS = "/apiops/projects/{projectName}/rlcl/{rlclName}/endpoints/"


def _each_identifier_replaces(engine: Engine, declared: dict[str, Any], moves: dict[str, str]) -> None:
    id_, outs = engine.up(declared)
    for field, value in moves.items():
        diff = engine.diff(id_, outs, engine.checked({**declared, field: value}))
        assert diff.changes == DIFF_SOME, field
        assert list(diff.replaces) == [field]
        assert diff.deleteBeforeReplace is False


def test_every_endpoint_identifier_replaces(endpoints: Engine) -> None:
    _each_identifier_replaces(endpoints, USERS, ENDPOINT_MOVES)


def test_every_settings_identifier_replaces(caches: Engine, wsas: Engine) -> None:
    _each_identifier_replaces(caches, CACHE, SETTINGS_MOVES)
    wsa_moves = {**SETTINGS_MOVES, "api_proxy_name": "Other", "endpoint_name": "Subtract",
                 "endpoint_http_method": "GET"}
    _each_identifier_replaces(wsas, WSA, wsa_moves)


def test_every_rlcl_identifier_replaces(rlcls: Engine) -> None:
    _each_identifier_replaces(rlcls, RLCL, RLCL_MOVES)


@pytest.mark.parametrize("kind", ["caches", "wsas", "rlcls"])
def test_a_change_of_credentials_alone_is_no_diff(kind: str, request: pytest.FixtureRequest,
                                                   gateway: Gateway) -> None:
    engine: Engine = request.getfixturevalue(kind)
    declared = {"caches": CACHE, "wsas": WSA, "rlcls": RLCL}[kind]
    id_, outs = engine.up(declared)

    for connection in ({"url": gateway.url, "token": "dev-developer-token"},
                       {"url": gateway.url, "username": "admin", "password": "admin"}):
        news = engine.checked({**declared, "connection": connection})
        assert engine.diff(id_, outs, news).changes == DIFF_NONE
        # ... and back from a declared connection to none.
        with_connection = {**outs, "connection": connection}
        assert engine.diff(id_, with_connection, engine.checked(declared)).changes == DIFF_NONE


def test_cache_destroy_writes_exactly_the_spec_defaults(caches: Engine, gateway: Gateway) -> None:
    settings = {**CACHE["cache_settings"], "capacity": 50, "cache_storage_type": "LOCAL",
                "cache_null_value": True, "cache_only_http_get_requests": False,
                "invalidation_requires_authn": True}
    id_, outs = caches.up({**CACHE, "cache_settings": settings})

    caches.delete(id_, outs)

    live = gateway.endpoint("Demo", "PetStore", "GET", "/pets")
    assert live is not None
    assert live["cacheSettings"] == {
        "name": "pets-cache",
        "cacheActive": False,
        "cacheOnlyHttpGetRequests": True,
        "cacheKeyType": "QUERY_PARAMS",
        "cacheStorageType": "DISTRIBUTED",
        "handlingAction": "CONTINUE",
        "invalidationRequiresAuthn": False,
        "cacheNullValue": False,
        "variableList": [],
    }
    assert live["cacheSettings"] == CacheSettings.disabled("pets-cache").to_api()


def test_wsa_destroy_writes_exactly_the_spec_defaults(wsas: Engine, gateway: Gateway) -> None:
    declared = {**WSA, "wsa_settings": {**WSA["wsa_settings"], "wsa_must_understand": "TRUE",
                                        "wsa_generate_message_id": True, "wsa_from": "urn:me"}}
    id_, outs = wsas.up(declared)

    wsas.delete(id_, outs)

    live = gateway.endpoint("Demo", "Calculator", "POST", "Add")
    assert live is not None
    assert live["wsaSettings"] == WsaSettings().to_api()
    assert live["wsaSettings"]["wsaEnabled"] is False and live["wsaSettings"]["wsaMustUnderstand"] == "NONE"


def test_rlcl_delete_goes_on_one_by_one_past_a_refused_entry(rlcls: Engine, gateway: Gateway) -> None:
    declared = {**RLCL, "endpoints": [entry("/pets/{id}"), entry("/pets"), entry("/pets", "POST")]}
    id_, outs = rlcls.up(declared)
    # The emulator ignores entries it does not hold; a gateway may instead refuse the whole
    # batch with a 400 naming one entry. Here it refuses the batch and then the first entry.
    emulator_http.post(f"{gateway.url}/_emulator/faults", json={
        "status": 400, "count": 2, "method": "DELETE", "path": "/rlcl/", "error": "bad_request",
        "error_description": "Endpoint with name (/pets/{id}) and HTTP method (GET) is not found!",
    }).raise_for_status()

    rlcls.delete(id_, outs)

    entries = gateway.rlcl("Demo", "Standard")
    assert [(item["endpointName"], item["endpointHTTPMethod"]) for item in entries] == [("/pets/{id}", "GET")]
    # The batch, then each entry on its own.
    assert gateway.stats()["requests"][f"DELETE {RLCL_ENDPOINTS}"] == 4


def test_check_failures_never_echo_a_secret(endpoints: Engine, caches: Engine, rlcls: Engine) -> None:
    secrets = {"token": "tok-s3cret-value", "username": "admin", "password": "pw-s3cret-value"}
    cases: list[tuple[Engine, dict[str, Any], dict[str, str]]] = [
        (endpoints, USERS, secrets),
        (caches, CACHE, {"token": "tok-s3cret-value", "password": "pw-s3cret-value"}),
        (rlcls, RLCL, {"url": "", "token": "tok-s3cret-value", "username": "admin"}),
    ]
    for engine, declared, connection in cases:
        failures = engine.check({**declared, "connection": connection}).failures
        assert failures
        text = " ".join(f"{prop} {reason}" for prop, reason in failures.items())
        assert "tok-s3cret-value" not in text and "pw-s3cret-value" not in text


def test_a_refused_token_is_not_echoed_in_the_error(endpoints: Engine, gateway: Gateway) -> None:
    declared = {**USERS, "connection": {"url": gateway.url, "token": "tok-s3cret-value"}}

    with pytest.raises(grpc.RpcError) as failure:
        endpoints.up(declared)

    details = failure.value.details()
    assert "401" in details.strip().splitlines()[-1]
    assert "tok-s3cret-value" not in details


def test_refresh_of_an_unchanged_endpoint_reports_no_drift(endpoints: Engine) -> None:
    # An empty description is no description: create records it the way a read sees it.
    without = {key: value for key, value in USERS.items() if key != "description"}
    for index, declared in enumerate((USERS, {**USERS, "description": ""}, without)):
        id_, outs = endpoints.up(declared, name=f"r{index}")
        read_id, read_outs, read_inputs = endpoints.read(id_, outs)
        assert read_id == id_ and read_outs == outs
        assert read_inputs is None  # nothing drifted: the engine keeps the recorded inputs
        assert endpoints.diff(read_id, read_outs, endpoints.checked(declared)).changes == DIFF_NONE
        endpoints.delete(id_, outs)


def test_read_and_delete_find_the_endpoint_from_the_id_alone(endpoints: Engine, gateway: Gateway) -> None:
    id_, outs = endpoints.up(USERS)

    read_id, read_outs, _ = endpoints.read(id_, {})

    assert read_id == id_
    assert (read_outs["name"], read_outs["http_method"]) == ("/api/users", "GET")
    assert read_outs["endpoint_id"] == outs["endpoint_id"]
    endpoints.delete(id_, {})
    assert gateway.endpoint("Demo", "PetStore", "GET", "/api/users") is None


def test_an_unknown_connection_passes_check(endpoints: Engine, rlcls: Engine) -> None:
    checked = endpoints.check({**USERS, "connection": UNKNOWN})
    assert checked.failures == {}
    assert checked.inputs["connection"] == UNKNOWN
    assert rlcls.check({**RLCL, "connection": {"url": UNKNOWN, "token": "t"}}).failures == {}


def test_a_connection_url_with_blanks_and_a_trailing_slash_works(endpoints: Engine, gateway: Gateway) -> None:
    connection = {"url": f"  {gateway.url}/ ", "token": "dev-admin-token"}
    id_, outs = endpoints.up({**USERS, "connection": connection})

    assert gateway.endpoint("Demo", "PetStore", "GET", "/api/users") is not None
    assert endpoints.read(id_, outs)[0] == id_


def test_settings_and_rlcl_whose_container_is_gone(caches: Engine, wsas: Engine, rlcls: Engine) -> None:
    # Refresh drops them, destroy passes: the proxy (or RLCL) took them along.
    for engine, declared, field in ((caches, CACHE, "api_proxy_name"), (wsas, WSA, "api_proxy_name")):
        _, outs = engine.up(declared)
        gone = {**outs, field: "NoSuchProxy"}
        gone_id = "Demo/NoSuchProxy/{endpoint_http_method}/{endpoint_name}".format(**outs)
        assert engine.read(gone_id, gone)[:2] == ("", {})
        engine.delete(gone_id, gone)

    _, outs = rlcls.up(RLCL)
    rlcls.delete("Demo/NoSuchRlcl", {**outs, "rlcl_name": "NoSuchRlcl"})


def test_refresh_keeps_the_adopt_input(endpoints: Engine) -> None:
    pets = {**USERS, "name": "/pets", "backend_resource_url": "/pets", "adopt": True}
    id_, outs = endpoints.up(pets)
    assert outs["adopt"] is True

    read_id, read_outs, read_inputs = endpoints.read(id_, outs)

    assert read_id == id_ and read_inputs is None  # unchanged: the recorded inputs (adopt=True) stay
    assert read_outs["adopt"] is True
    assert read_outs == outs

    drifted_id, drifted_outs, drifted_inputs = endpoints.read(id_, {**outs, "backend_resource_url": "/old"})
    assert drifted_id == id_ and drifted_inputs is not None
    assert drifted_inputs["adopt"] is True and drifted_inputs["backend_resource_url"] == "/pets"
    assert drifted_outs == outs


def test_a_read_from_the_id_alone_returns_the_inputs(endpoints: Engine) -> None:
    id_, outs = endpoints.up(USERS)
    read_id, _, read_inputs = endpoints.read(id_, {})
    assert read_id == id_ and read_inputs is not None
    assert read_inputs["name"] == "/api/users"
    assert read_inputs["backend_resource_url"] == outs["backend_resource_url"]
    endpoints.delete(id_, outs)


def test_create_without_a_description_sends_none(endpoints: Engine, gateway: Gateway) -> None:
    without = {key: value for key, value in USERS.items() if key != "description"}

    endpoints.up(without)

    live = gateway.endpoint("Demo", "PetStore", "GET", "/api/users")
    assert live is not None and live["description"] is None
