"""The generated settings classes: current with the models, equal to them, and checked by mypy."""

from __future__ import annotations

import dataclasses
import importlib
import subprocess
import sys
import textwrap
from pathlib import Path
from typing import get_args

import pytest

from apinizer_pulumi import policies
from apinizer_pulumi.models import PolicyBase
from apinizer_pulumi.models._policy_registry import POLICY_TYPES
from apinizer_pulumi.resources import _policy_args

from .test_types import Checked, checked_files, mypy

ROOT = Path(__file__).resolve().parents[2]


def test_the_generated_files_are_current() -> None:
    result = subprocess.run([sys.executable, str(ROOT / "scripts" / "gen_policy_args.py"), "--check"],
                            capture_output=True, text=True, check=False)
    assert result.returncode == 0, result.stderr


@pytest.mark.parametrize("policy_type", sorted(POLICY_TYPES))
def test_each_type_has_its_class_with_the_models_own_fields(policy_type: str) -> None:
    model = POLICY_TYPES[policy_type]
    args = policies.POLICY_ARGS[policy_type]
    assert args.policy_type == policy_type  # type: ignore[attr-defined]
    assert args.secret_fields == model.secret_fields()  # type: ignore[attr-defined]
    own = set(model.model_fields) - set(PolicyBase.model_fields) - {"type"}
    assert {item.name for item in dataclasses.fields(args)} == own
    required = {item.name for item in dataclasses.fields(args) if item.default is dataclasses.MISSING}
    assert required == {name for name in own if model.model_fields[name].is_required()}
    assert getattr(policies, args.__name__) is args
    assert "Source: https://github.com/apinizer/management-api-docs" in " ".join((args.__doc__ or "").split())


@pytest.mark.parametrize("alias", sorted(_policy_args.ENUM_LITERALS))
def test_each_literal_holds_exactly_its_enums_values(alias: str) -> None:
    module, name = _policy_args.ENUM_LITERALS[alias]
    enum = getattr(importlib.import_module(module), name)
    assert get_args(getattr(_policy_args, alias)) == tuple(member.value for member in enum)


def test_the_reference_page_has_every_type() -> None:
    text = (ROOT / "docs" / "policies" / "reference.md").read_text()
    for policy_type, args in policies.POLICY_ARGS.items():
        assert f"## {args.__name__}\n" in text and f"`{policy_type}`" in text


GOOD = """
    import apinizer_pulumi as apinizer

    apinizer.Policy(
        "throttle", project_name="Demo", api_proxy_name="PetStore", name="throttle", pipeline="REQUEST",
        order=1,
        settings=apinizer.policies.ApiBasedThrottling(
            target_variable_for_identity=apinizer.policies.PolicyVariableArgs(type="HEADER",
                                                                              header_name="X-Key"),
            message_count_for_interval=10,
            throttling_interval="ONE_MINUTE",
            interval_window_type="SLIDING",
        ),
    )
    apinizer.Policy("ips", project_name="Demo", api_proxy_name="PetStore", name="ips", pipeline="REQUEST",
                    settings=apinizer.policies.WhiteIp(ip_list=["10.0.0.0/8"]))
    apinizer.Policy("script", project_name="Demo", api_proxy_name="PetStore", name="s", pipeline="RESPONSE",
                    settings=apinizer.policies.Script(script_language="GROOVY", script_body="1"))
"""


def test_mypy_flags_a_bad_enum_value_a_wrong_field_and_a_bad_pipeline() -> None:
    files = checked_files("policy_args", {
        "good": textwrap.dedent(GOOD),
        "bad": (textwrap.dedent(GOOD)
                .replace('throttling_interval="ONE_MINUTE"', 'throttling_interval="ONE_WEEK"')
                .replace('ip_list=["10.0.0.0/8"]', 'ip_lists=["10.0.0.0/8"]')
                .replace('pipeline="RESPONSE"', 'pipeline="AFTER"')),
        # The connection settings classes, the script's second target, in the same start of mypy.
        "connection_good": textwrap.dedent(CONNECTION_GOOD),
        "connection_bad": (textwrap.dedent(CONNECTION_GOOD)
                           .replace('version="V2c"', 'version="V4"')
                           .replace('topic_name="audit"', 'topic="audit"')),
    })
    good, bad, connection_good, connection_bad = files.values()

    result = Checked(mypy(good, bad, connection_good, connection_bad))  # one start of mypy (20-40 s)
    assert result.errors(good) == [], result.result.stdout
    errors = result.errors(bad)
    assert any('Argument "throttling_interval" to "ApiBasedThrottling"' in line for line in errors), errors
    assert any('Unexpected keyword argument "ip_lists" for "WhiteIp"' in line for line in errors), errors
    assert any('Argument "pipeline" to "Policy"' in line for line in errors), errors
    assert result.errors(connection_good) == [], result.result.stdout
    errors = result.errors(connection_bad)
    assert any('Argument "version" to "Snmp"' in line for line in errors), errors
    assert any('Unexpected keyword argument "topic" for "Kafka"' in line for line in errors), errors


CONNECTION_GOOD = """
    import apinizer_pulumi as apinizer

    apinizer.Connection(
        "audit", project_name="Demo", name="audit",
        settings=apinizer.connections.Kafka(
            topic_name="audit",
            properties_map={"bootstrap.servers": apinizer.connections.MapValueArgs(value="kafka:9092")},
        ),
    )
    apinizer.Connection(
        "traps", project_name="Demo", name="traps",
        settings=apinizer.connections.Snmp(connection_string="udp:10.0.0.1/162", version="V2c",
                                           security_or_community_name="public", pdu_oid_for_message="1.3.6"),
    )
"""


def test_a_wrong_or_missing_argument_is_one_line_naming_it_the_value_and_the_fix() -> None:
    """Under ``pulumi up`` a ``pulumi.RunError`` is one line (the language host prints no traceback)."""
    import pulumi

    variable = {"type": "HEADER", "header_name": "X-Key"}
    with pytest.raises(pulumi.RunError) as typo:
        policies.ApiBasedThrottling(  # type: ignore[call-arg]
            target_variable_for_identity=variable, message_count_for_intervall=5,
            throttling_interval="ONE_MINUTE")
    assert str(typo.value) == (
        "apinizer.policies.ApiBasedThrottling: no argument message_count_for_intervall (given 5); "
        "did you mean message_count_for_interval?")
    assert isinstance(typo.value, TypeError)  # what a dataclass raises, for code that catches that

    with pytest.raises(pulumi.RunError) as missing:
        policies.ApiBasedThrottling(target_variable_for_identity=variable)  # type: ignore[call-arg]
    assert str(missing.value) == (
        "apinizer.policies.ApiBasedThrottling: missing the required argument(s) message_count_for_interval, "
        "throttling_interval")
    with pytest.raises(pulumi.RunError, match=r"^apinizer.policies.WhiteIp: no argument ips "
                       r"\(given \['10.0.0.0/8'\]\); did you mean ip_list\?$"):
        policies.WhiteIp(ips=["10.0.0.0/8"])  # type: ignore[call-arg]
    with pytest.raises(pulumi.RunError, match=r"^apinizer.policies.WhiteIp: no argument zzz \(given 1\); "
                       r"its arguments are: target_variable_for_ip, ip_list$"):
        policies.WhiteIp(ip_list=[], zzz=1)  # type: ignore[call-arg]
    # A misspelt secret field's value is never shown (a credential), nor a list or a long text.
    with pytest.raises(pulumi.RunError) as secret:
        policies.Oidc(client_secrt="Hunter2-secret")  # type: ignore[call-arg]
    assert "Hunter2-secret" not in str(secret.value)
    assert "no argument client_secrt (value not shown); did you mean client_secret?" in str(secret.value)
    # A nested args class says the same.
    with pytest.raises(pulumi.RunError,
                       match=r"^apinizer.policies.PolicyVariableArgs: no argument hedaer_name"):
        policies.PolicyVariableArgs(type="HEADER", hedaer_name="X")  # type: ignore[call-arg]


ARGS_CLASSES = ["VariableArgs", "ConnectionArgs", "RoutingAddressArgs", "RoutingArgs", "HeaderMatchArgs",
                "ClientRouteArgs", "ApiProxyMetadataArgs", "CorsSettingsArgs", "CredentialAccessArgs",
                "CacheSettingsArgs", "WsaSettingsArgs", "EndpointRateLimitArgs"]


@pytest.mark.parametrize("name", ARGS_CLASSES)
def test_every_args_class_of_the_resources_says_a_wrong_argument_in_one_line(name: str) -> None:
    import pulumi

    import apinizer_pulumi as apinizer

    cls = getattr(apinizer, name)
    field = dataclasses.fields(cls)[0].name
    expected = rf"^apinizer\.{name}: no argument {field}x \(.*\); did you mean {field}\?$"
    with pytest.raises(pulumi.RunError, match=expected):
        cls(**{f"{field}x": "x"})
