"""Stacks made before the providers shared their lifecycles still work: each resource's ``__provider``
as the state recorded it, unpickled by the SDK's provider server and driven as the engine does.

The blobs (recorded_providers.json) are the SDK's ``serialize_provider`` of each provider at commit
bd6e7fc (main before the lifecycles moved into mixins), taken from that commit's tree. dill pickles
the classes by reference (module path and class name, no state), so a state keeps working as long
as each recorded path names a provider class that still carries out every call.
"""

from __future__ import annotations

import base64
import copy
import json
from pathlib import Path
from typing import Any

import pytest

from apinizer_pulumi.resources.testing import DIFF_NONE, DIFF_SOME, Engine, ProviderServer

from .conftest import Gateway

#: kind -> {module, class, provider}: the ``__provider`` of each kind as main's stacks record it.
RECORDED: dict[str, dict[str, str]] = json.loads(
    (Path(__file__).parent / "recorded_providers.json").read_text(encoding="utf-8"))["providers"]


def recorded(server: ProviderServer, kind: str) -> Engine:
    """An engine that sends the ``__provider`` that main recorded for ``kind``, not one made now."""
    blob = RECORDED[kind]["provider"]
    assert RECORDED[kind]["module"].encode() in base64.b64decode(blob)
    assert RECORDED[kind]["class"].encode() in base64.b64decode(blob)
    engine = Engine(server, object(), kind)
    engine.blob = blob
    return engine


#: Per kind without identifiers: inputs its own check refuses, and the property it names.
BAD_INPUTS: dict[str, tuple[dict[str, Any], str]] = {
    "Geolocation": ({"enabled": "sometimes"}, "enabled"),
}


@pytest.mark.parametrize("kind", sorted(RECORDED))
def test_every_recorded_provider_still_checks(server: ProviderServer, kind: str) -> None:
    # Inputs without their identifiers: the kind's own check must run and name what is missing.
    inputs, named = BAD_INPUTS.get(kind, ({}, "project_name"))
    failures = recorded(server, kind).check(inputs).failures
    assert named in failures, failures


def test_recorded_providers_run_each_shared_lifecycle(
    server: ProviderServer, emulator_url: str, gateway: Gateway
) -> None:
    """A deployment, a settings object, a named object and a list owned whole, created, refreshed,
    updated and destroyed through the providers as main's state names them."""
    lifecycles: list[tuple[str, dict[str, Any], dict[str, Any]]] = [
        ("IpGroup", {"project_name": "Demo", "name": "Offices", "addresses": ["10.0.0.0/8"]},
         {"addresses": ["10.1.0.0/16"]}),
        ("ApiProxyGroup", {"project_name": "Demo", "name": "Payments",
                           "client_route": {"relative_paths": ["/payments"]},
                           "api_proxy_names": ["PetStore"]},
         {"description": "Payment APIs"}),
        ("ApiProxyGroupDeployment", {"project_name": "Demo", "api_proxy_group_name": "Payments",
                                     "environment_name": "test"}, {"triggers": {"n": "2"}}),
        ("ApiProxyDeployment", {"project_name": "Demo", "api_proxy_name": "PetStore",
                                "environment_name": "test"}, {"triggers": {"n": "2"}}),
        ("EndpointCache", {"project_name": "Demo", "api_proxy_name": "PetStore", "endpoint_name": "/pets",
                           "endpoint_http_method": "GET",
                           "cache_settings": {"name": "pets-cache", "handling_action": "STOP"}},
         {"cache_settings": {"name": "pets-cache", "handling_action": "STOP", "ttl": 60}}),
        ("RlclCondition", {"project_name": "Demo", "rlcl_name": "Standard", "rules": [{
            "condition_criteria": "VALUE",
            "first_variable": {"name": "t", "type": "HEADER", "header_name": "X-T"},
            "variable_data_type": "STRING", "value_comparison_operator": "EQ",
            "second_value_source": "VALUE", "second_value": "A"}]},
         {}),
        ("Jwk", {"project_name": "Demo", "name": "signing",
                 "generate": {"type": "OKP", "okp": {"curve_type": "ED25519"}}}, {"description": "EdDSA"}),
        ("Geolocation", {"enabled": True}, {"enabled": False}),
    ]
    made: list[tuple[Engine, str, dict[str, Any]]] = []
    for kind, declared, change in lifecycles:
        engine = recorded(server, kind)
        id_, outs = engine.up(declared, name=kind)
        assert engine.diff(id_, outs, engine.checked(declared), name=kind).changes == DIFF_NONE, kind
        read_id, read_outs, _ = engine.read(id_, outs, name=kind)
        assert read_id == id_ and read_outs == outs, kind
        if change:
            news = engine.checked({**copy.deepcopy(declared), **change})
            assert engine.diff(id_, outs, news, name=kind).changes == DIFF_SOME, kind
            outs = engine.update(id_, outs, news, name=kind)
        made.append((engine, id_, outs))
    assert (gateway.endpoint("Demo", "PetStore", "GET", "/pets") or {})["cacheSettings"]["ttl"] == 60
    for engine, id_, outs in reversed(made):
        engine.delete(id_, outs)
    reset = gateway.endpoint("Demo", "PetStore", "GET", "/pets") or {}
    assert reset["cacheSettings"]["cacheActive"] is False
