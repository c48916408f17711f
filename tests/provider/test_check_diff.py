"""check and diff: offline validation with property paths, unknown values, and a request-free preview."""

from __future__ import annotations

from typing import Any

from apinizer_pulumi.resources.testing import DIFF_NONE, DIFF_SOME, UNKNOWN, Engine

from .conftest import Gateway
from .test_endpoint import USERS
from .test_endpoint_cache import CACHE
from .test_endpoint_wsa import WSA
from .test_rlcl_endpoints import RLCL, entry


def test_endpoint_failures_name_the_property(endpoints: Engine) -> None:
    bad = {**USERS, "http_method": "FETCH", "descripton": "typo"}
    del bad["backend_resource_url"]

    failures = endpoints.check(bad).failures

    assert set(failures) == {"http_method", "backend_resource_url", "descripton"}
    assert "FETCH" in failures["http_method"] or "GET" in failures["http_method"]
    assert failures["descripton"] == "unknown property"


def test_nested_failures_use_dotted_snake_case_paths(caches: Engine, wsas: Engine, rlcls: Engine) -> None:
    settings = {**CACHE["cache_settings"], "variable_list": [{"name": "tenant", "type": "BODY"}],
                "cach_active": True}
    del settings["handling_action"]
    assert set(caches.check({**CACHE, "cache_settings": settings}).failures) == {
        "cache_settings.variable_list.0.message_content_type",
        "cache_settings.handling_action",
        "cache_settings.cach_active",
    }

    assert list(wsas.check({**WSA, "wsa_settings": {"wsa_version": "V1999"}}).failures) == [
        "wsa_settings.wsa_version"]
    bad_uri = {**WSA, "wsa_settings": {"wsa_to": "not a uri"}}
    assert list(wsas.check(bad_uri).failures) == ["wsa_settings.wsa_to"]

    bad_entry = {**entry("/pets"), "time_interval": "ONE_WEEK", "permitted_message_count": 0}
    failures = rlcls.check({**RLCL, "endpoints": [bad_entry]}).failures
    assert set(failures) == {"endpoints.0.time_interval", "endpoints.0.permitted_message_count"}

    duplicate = rlcls.check({**RLCL, "endpoints": [entry("/pets"), entry("/pets", count=5)]}).failures
    assert list(duplicate) == ["endpoints.1"] and "duplicate" in duplicate["endpoints.1"]
    assert list(rlcls.check({**RLCL, "endpoints": []}).failures) == ["endpoints"]


def test_connection_failures(endpoints: Engine) -> None:
    half = {**USERS, "connection": {"url": "http://gw", "username": "admin"}}
    assert list(endpoints.check(half).failures) == ["connection.password"]
    both = {**USERS, "connection": {"token": "t", "username": "admin", "password": "p"}}
    assert list(endpoints.check(both).failures) == ["connection"]
    typo = {**USERS, "connection": {"uri": "http://gw"}}
    assert list(endpoints.check(typo).failures) == ["connection.uri"]


def test_unknown_values_pass_check_and_stay_unknown(endpoints: Engine, caches: Engine, rlcls: Engine) -> None:
    checked = endpoints.check({**USERS, "name": UNKNOWN, "backend_http_method": UNKNOWN})
    assert checked.failures == {}
    assert checked.inputs["name"] == UNKNOWN and checked.inputs["active"] is True

    variable = {"name": "tenant", "type": "HEADER", "header_name": UNKNOWN}
    settings = {**CACHE["cache_settings"], "ttl": UNKNOWN, "variable_list": [variable]}
    checked = caches.check({**CACHE, "cache_settings": settings})
    assert checked.failures == {}
    assert checked.inputs["cache_settings"]["ttl"] == UNKNOWN
    assert checked.inputs["cache_settings"]["variable_list"][0]["header_name"] == UNKNOWN

    assert caches.check({**CACHE, "cache_settings": UNKNOWN}).failures == {}
    assert rlcls.check({**RLCL, "endpoints": [UNKNOWN, entry("/pets", "POST")]}).failures == {}
    # Known bad values beside unknown ones are still reported.
    bad = rlcls.check({**RLCL, "endpoints": [UNKNOWN, {**entry("/pets"), "time_interval": "ONE_WEEK"}]})
    assert list(bad.failures) == ["endpoints.1.time_interval"]


def test_diff_with_unknown_values(endpoints: Engine) -> None:
    olds = {**endpoints.checked(USERS), "endpoint_id": "0123456789abcdef01234567"}

    replace = endpoints.diff("id", olds, endpoints.check({**USERS, "name": UNKNOWN}).inputs)
    assert replace.changes == DIFF_SOME and list(replace.replaces) == ["name"]

    update = endpoints.diff("id", olds, endpoints.check({**USERS, "description": UNKNOWN}).inputs)
    assert update.changes == DIFF_SOME and list(update.replaces) == []


def _outputs(engine: Engine, inputs: dict[str, Any], **extra: Any) -> dict[str, Any]:
    return {**engine.checked(inputs), **extra}


def test_a_preview_makes_no_gateway_request(endpoints: Engine, caches: Engine, wsas: Engine, rlcls: Engine,
                                            gateway: Gateway) -> None:
    resources = [
        (endpoints, USERS, {**USERS, "description": "changed"}, {"endpoint_id": "0123456789abcdef01234567"}),
        (caches, CACHE, {**CACHE, "endpoint_name": "/pets/{id}"}, {}),
        (wsas, WSA, {**WSA, "wsa_settings": {}}, {}),
        (rlcls, RLCL, {**RLCL, "endpoints": [entry("/pets")]}, {}),
    ]
    for engine, declared, changed, computed in resources:
        olds = _outputs(engine, declared, **computed)
        assert engine.diff("id", olds, engine.checked(declared)).changes == DIFF_NONE
        assert engine.diff("id", olds, engine.check(changed).inputs).changes == DIFF_SOME
        assert engine.check({**declared, "project_name": UNKNOWN}).failures == {}

    assert gateway.stats()["total"] == 0


def test_defaults_are_filled_around_unknown_values(caches: Engine, rlcls: Engine, endpoints: Engine) -> None:
    """A preview with a computed identifier still sees the nested defaults, so its diff shows no
    phantom removal of them."""
    full = caches.checked(CACHE)["cache_settings"]

    unknown_project = caches.check({**CACHE, "project_name": UNKNOWN})
    assert unknown_project.failures == {}
    assert unknown_project.inputs["cache_settings"] == full

    unknown_ttl = caches.check({**CACHE, "cache_settings": {**CACHE["cache_settings"], "ttl": UNKNOWN}})
    assert unknown_ttl.inputs["cache_settings"] == {**full, "ttl": UNKNOWN}

    entries = rlcls.check({**RLCL, "endpoints": [UNKNOWN, entry("/pets", "POST")]}).inputs["endpoints"]
    assert entries[0] == UNKNOWN and entries[1] == rlcls.checked(RLCL)["endpoints"][1]

    assert endpoints.check({**USERS, "name": UNKNOWN}).inputs == {**endpoints.checked(USERS), "name": UNKNOWN}
