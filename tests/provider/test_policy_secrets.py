"""A policy type's secret fields stay secret: in the checked inputs, the outputs, refresh's inputs, and
never in a failure's text. Run for every type whose model declares secret fields (``SecretField``)."""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any

import pytest
from pulumi.runtime import rpc

from apinizer_pulumi.client import ApinizerClient
from apinizer_pulumi.models._policy_registry import POLICY_TYPES
from apinizer_pulumi.resources import PolicyProvider
from apinizer_pulumi.resources.policy import find_policy, settings_of
from apinizer_pulumi.resources.testing import Engine, ProviderServer, deserialize

from ._fork_server import ForkedProviderServer
from .conftest import ADMIN_TOKEN
from .test_connection_resource import as_kept, checked_as_kept, in_clear, secret_paths
from .test_key_references_deploy import hold_named_objects

EXAMPLES = Path(__file__).parents[1] / "unit" / "data" / "policy_doc_examples.json"
SECRET_TYPES = sorted(name for name, model in POLICY_TYPES.items() if model.secret_fields())


def documented_settings(policy_type: str) -> dict[str, Any]:
    """The settings of the first documented example of the type that its model takes."""
    model = POLICY_TYPES[policy_type]
    for examples in json.loads(EXAMPLES.read_text()).values():
        for example in examples:
            body = example.get("body")
            policy = body.get("policy", body) if isinstance(body, dict) else None
            if isinstance(policy, dict) and policy.get("type") == policy_type:
                try:
                    return settings_of(model.model_validate(policy))
                except ValueError:
                    continue
    raise AssertionError(f"no documented example of {policy_type} validates")


def secret_values(settings: Any, paths: tuple[str, ...]) -> list[str]:
    """The values at the dotted secret ``paths``, through dicts and the items of lists."""
    found: list[str] = []
    for path in paths:
        values: list[Any] = [settings]
        for part in path.split("."):
            values = [item for value in values
                      for item in (value if isinstance(value, list) else [value])]
            values = [value[part] for value in values if isinstance(value, dict) and part in value]
        found.extend(value for value in values if isinstance(value, str) and value)
    return found


@pytest.fixture
def policies(server: ProviderServer, emulator_url: str) -> Engine:
    return Engine(server, PolicyProvider(), "Policy")


def test_settings_of_a_type_without_secrets_are_plain(policies: Engine) -> None:
    inputs = policies.checked({"project_name": "Demo", "api_proxy_name": "Orders", "name": "ips",
                               "policy_type": "policy-white-ip", "pipeline": "REQUEST",
                               "settings": {"ip_list": ["10.0.0.0/8"]}})
    assert not rpc.is_rpc_secret(inputs["settings"])


@pytest.mark.parametrize("policy_type", SECRET_TYPES or [pytest.param(
    "none", marks=pytest.mark.skip(reason="no policy type with secret fields in the registry yet"))])
def test_secret_fields_stay_secret(policy_type: str, policies: Engine, emulator_url: str,
                                   client: ApinizerClient) -> None:
    settings = documented_settings(policy_type)
    hold_named_objects(client, settings)  # the WS-Security examples name their keystores
    secrets = secret_values(settings, POLICY_TYPES[policy_type].secret_fields())
    declared = {"project_name": "Demo", "api_proxy_name": "Orders", "name": "secretive",
                "policy_type": policy_type, "pipeline": "REQUEST", "settings": rpc.wrap_rpc_secret(settings)}

    checked = policies.check(declared)
    assert checked.failures == {} and rpc.is_rpc_secret(checked.inputs["settings"])
    plain_inputs = {**checked.inputs, "settings": rpc.unwrap_rpc_secret(checked.inputs["settings"])}
    id_, outs = policies.create(plain_inputs)
    assert rpc.is_rpc_secret(outs["settings"])

    with ForkedProviderServer({"apinizer:url": emulator_url, "apinizer:token": ADMIN_TOKEN},
                        env={"APINIZER_SKIP_CONNECTION_CHECK": "1"}) as server:
        _, _, read_inputs = Engine(server, PolicyProvider(), "Policy").read(id_, plain_inputs)
    assert read_inputs is not None and rpc.is_rpc_secret(read_inputs["settings"])

    # A failure names the field, never a secret's value.
    broken = {**settings, "no_such_field": "x"}
    failures = policies.check({**declared, "settings": rpc.wrap_rpc_secret(broken)}).failures
    assert "settings.no_such_field" in failures
    assert all(secret not in json.dumps(failures) for secret in secrets)


@pytest.mark.parametrize("policy_type", ["policy-ws-security-username", "policy-api-authentication"])
def test_a_password_the_list_clears_is_no_drift(policy_type: str, policies: Engine) -> None:
    # The gateway's list answers these passwords null (and the emulator keeps only their hashes):
    # a refresh keeps the declared password and finds nothing changed.
    settings = documented_settings(policy_type)
    declared = {"project_name": "Demo", "api_proxy_name": "Orders", "name": "cleared",
                "policy_type": policy_type, "pipeline": "REQUEST", "settings": settings}
    inputs = policies.checked(declared)
    plain = {**inputs, "settings": rpc.unwrap_rpc_secret(inputs["settings"])}
    id_, outs = policies.create(plain)
    plain_outs = {**outs, "settings": rpc.unwrap_rpc_secret(outs["settings"])}
    _, read_outs, read_inputs = policies.read(id_, plain_outs, plain)
    assert read_inputs is None  # in sync
    assert rpc.unwrap_rpc_secret(read_outs["settings"]) == plain_outs["settings"]


CLIENT_SECRET = "Oidc-Client-S3cret"


def test_only_the_secret_fields_are_secret_and_drift_of_another_shows_in_clear(
        policies: Engine, client: ApinizerClient) -> None:
    # The engine keeps the marks the provider answers where they are: on the client secret only, so
    # `preview --diff` and `refresh --diff` show the other fields, and a drift of one, in clear.
    settings = {**documented_settings("policy-oidc"), "client_secret": CLIENT_SECRET}
    declared = {"project_name": "Demo", "api_proxy_name": "Orders", "name": "login",
                "policy_type": "policy-oidc", "pipeline": "REQUEST", "settings": settings}
    assert secret_paths(as_kept(checked_as_kept(policies, declared))) == {"settings.client_secret"}
    created = policies.create_future(policies.checked(declared), "r").result()
    outs = as_kept(created.properties)
    assert secret_paths(outs) == {"settings.client_secret"}
    assert outs["settings"]["client_id"] == settings["client_id"] and CLIENT_SECRET not in in_clear(outs)
    live = find_policy(client.policies.list("Demo", "Orders"), "login")
    assert live is not None
    changed = live.policy.model_copy(update={"client_id": "console-edit"})
    client.policies.update("Demo", "Orders", "login", changed,
                           {"target_scope": "ALL", "target_pipeline": "REQUEST", "deploy": False})
    read = policies.read_future(created.id, deserialize(created.properties)).result()
    assert read.HasField("inputs"), "the drift was not seen"
    for drifted in (as_kept(read.properties), as_kept(read.inputs)):
        assert secret_paths(drifted) == {"settings.client_secret"}
        assert drifted["settings"]["client_id"] == "console-edit"
        assert CLIENT_SECRET not in in_clear(drifted)


@pytest.mark.parametrize("policy_type", SECRET_TYPES)
def test_every_types_secret_fields_are_secret_alone(policy_type: str, policies: Engine,
                                                    client: ApinizerClient) -> None:
    settings = documented_settings(policy_type)
    hold_named_objects(client, settings)
    paths = POLICY_TYPES[policy_type].secret_fields()
    secrets = secret_values(settings, paths)
    assert secrets, f"the documented {policy_type} example sets no secret field"
    declared = {"project_name": "Demo", "api_proxy_name": "Orders", "name": "alone",
                "policy_type": policy_type, "pipeline": "REQUEST", "settings": settings}
    created = policies.create_future(policies.checked(declared), "r").result()
    read = policies.read_future(created.id, deserialize(created.properties)).result()
    assert not read.HasField("inputs"), "the list's masked secrets showed as drift"
    # A secret field is marked alone; a list that holds one is marked whole (as the engine keeps it).
    marked = {f"settings.{path.split('.')[0]}" for path in paths if path.split(".")[0] in settings}
    for answer in (as_kept(checked_as_kept(policies, declared)), as_kept(created.properties),
                   as_kept(read.properties)):
        assert secret_paths(answer) == marked, policy_type
        assert not [value for value in secrets if value in in_clear(answer)]
