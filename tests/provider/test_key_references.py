"""Policies that name a JWK, key, certificate or keystore, as a program declares them (Pulumi's mocks
stand in for the engine, with a monitor that keeps each registration's dependencies).

The typed settings take the resource itself as well as its id or name: the program checks its kind
and sends the output the field takes (an id, or a name), which also makes the policy depend on the
object, so that ``pulumi destroy`` deletes the policy first. An id string is sent as it is (the
gateway checks it: tests/emulator/test_keys_references.py).
"""

from __future__ import annotations

from collections.abc import Iterator
from typing import Any

import pulumi
import pulumi.dynamic as dyn
import pytest
from pulumi.runtime.mocks import MockMonitor

import apinizer_pulumi as apinizer
from apinizer_pulumi.resources._args import ArgumentError

from .test_resources import REGISTERED, Mocks, _registered, mocked_runtime

#: Per registered resource name: the URNs it depends on (what the engine records, and orders by).
DEPENDENCIES: dict[str, set[str]] = {}


class DependencyMonitor(MockMonitor):
    def RegisterResource(self, request: Any) -> Any:  # noqa: N802  # the gRPC method's name
        DEPENDENCIES[request.name] = set(request.dependencies)
        return super().RegisterResource(request)


@pytest.fixture(autouse=True)
def mocks() -> Iterator[None]:
    """As tests/provider/test_resources.py's, with the monitor that keeps the dependencies."""
    DEPENDENCIES.clear()
    yield from mocked_runtime(DependencyMonitor(Mocks()))


class _KeyFamilyResource(dyn.Resource):
    """A JWK, crypto key or keystore as the program sees one: a resource of its kind's type token with
    its id and name outputs. (The families' own classes are other modules; the policy side needs only
    the type token, ``dynamic/apinizer:<Kind>``, and the output.)"""

    def __init__(self, name: str, **outputs: Any) -> None:
        super().__init__(dyn.ResourceProvider(), name, {"name": name, **outputs})


class Jwk(_KeyFamilyResource, module="apinizer", name="Jwk"):
    jwk_id: pulumi.Output[str]


class CryptoKey(_KeyFamilyResource, module="apinizer", name="CryptoKey"):
    crypto_key_id: pulumi.Output[str]


class Keystore(_KeyFamilyResource, module="apinizer", name="Keystore"):
    name: pulumi.Output[str]


def _policy(resource_name: str, settings: Any, policy_type: str | None = None) -> apinizer.Policy:
    return apinizer.Policy(resource_name, project_name="Demo", api_proxy_name="PetStore", name=resource_name,
                           pipeline="REQUEST", settings=settings, policy_type=policy_type)


@pulumi.runtime.test
def test_a_resource_given_to_a_reference_field_sends_its_id_and_orders_the_policy_after_it() -> Any:
    signer = Jwk("signer", jwk_id="jwk-0001")
    key = CryptoKey("payload-key", crypto_key_id="key-0001")
    saml_keys = Keystore("saml-keystore")
    jose = _policy("jose", apinizer.policies.JoseValidation(
        validate_sign=True, validate_by_issuer=False, jwk_id_for_validation_and_sign=signer))
    encrypt = _policy("encrypt", apinizer.policies.Encryption(policy_encryption_def_list=[
        apinizer.policies.EncryptionDefArgs(
            source_var={"name": "body", "type": "BODY", "message_content_type": "ALL_BODY"},
            target_var={"name": "body", "type": "BODY", "message_content_type": "ALL_BODY"},
            cipher_algorithm="RSA_ECB_PKCS1Padding", output_encoding_type="BASE64", crypto_key_info_id=key)]))
    saml = _policy("saml", {"key_store_name": saml_keys}, "policy-saml-validation")

    def verify(urns: list[str]) -> None:
        signer_urn, key_urn, keystore_urn = urns[:3]
        assert _registered("jose").inputs["settings"]["jwk_id_for_validation_and_sign"] == "jwk-0001"
        [definition] = _registered("encrypt").inputs["settings"]["policy_encryption_def_list"]
        assert definition["crypto_key_info_id"] == "key-0001"
        assert _registered("saml").inputs["settings"]["key_store_name"] == "saml-keystore"
        # The engine records these and deletes in their reverse: each policy before what it names.
        assert signer_urn in DEPENDENCIES["jose"]
        assert key_urn in DEPENDENCIES["encrypt"]
        assert keystore_urn in DEPENDENCIES["saml"]

    made = (signer, key, saml_keys, jose, encrypt, saml)
    return pulumi.Output.all(*(resource.urn for resource in made)).apply(verify)


@pulumi.runtime.test
def test_the_id_output_itself_also_orders_the_policy_after_the_key() -> Any:
    signer = Jwk("signer", jwk_id="jwk-0001")
    jose = _policy("jose", apinizer.policies.JoseValidation(
        validate_sign=True, validate_by_issuer=False, jwk_id_for_validation_and_sign=signer.jwk_id))

    def verify(urns: list[str]) -> None:
        assert _registered("jose").inputs["settings"]["jwk_id_for_validation_and_sign"] == "jwk-0001"
        assert urns[0] in DEPENDENCIES["jose"]

    return pulumi.Output.all(signer.urn, jose.urn).apply(verify)


@pulumi.runtime.test
def test_a_resource_of_another_kind_is_refused_naming_the_field_and_the_kinds() -> None:
    offices = apinizer.IpGroup("offices", project_name="Demo", name="Offices", addresses=["10.0.0.0/8"])
    key = CryptoKey("payload-key", crypto_key_id="key-0001")
    with pytest.raises(ArgumentError) as wrong_kind:
        _policy("jose", apinizer.policies.JoseValidation(
            validate_sign=True, validate_by_issuer=False, jwk_id_for_validation_and_sign=offices))
    assert str(wrong_kind.value) == (
        "apinizer.policies.JoseValidation.jwk_id_for_validation_and_sign: given the IpGroup resource"
        " 'offices', but it names a Jwk: give an apinizer.Jwk (its jwk_id is used) or the Jwk's jwk_id")
    with pytest.raises(ArgumentError, match=(
            r"^apinizer.policies.Encryption.policy_encryption_def_list\[0\].certificate_id: given the"
            r" CryptoKey resource 'payload-key', but it names a Certificate: ")):
        _policy("encrypt", apinizer.policies.Encryption(policy_encryption_def_list=[
            {"source_var": {"name": "body", "type": "BODY"}, "target_var": {"name": "body", "type": "BODY"},
             "enum_key_certificate_type": "CERTIFICATE", "certificate_id": key}]))
    with pytest.raises(ArgumentError, match=r"^Policy 'saml' settings.key_store_name: given the Jwk"):
        _policy("saml", {"key_store_name": Jwk("signer", jwk_id="jwk-0001")}, "policy-saml-validation")
    assert not [args for args in REGISTERED if args.typ.endswith(":Policy")]


@pulumi.runtime.test
def test_a_connection_takes_a_keystore_resource_by_its_name_and_refuses_another_kind() -> Any:
    """A connection's keystore and certificate fields take the resource as a policy's do."""
    BROKERS = {"bootstrap.servers": {"value": "kafka:9093", "value_type": "STRING"}}  # noqa: N806
    brokers = Keystore("broker-keystore")
    kafka = apinizer.Connection(
        "events", project_name="Demo", name="events",
        settings=apinizer.connections.Kafka(topic_name="audit", properties_map=BROKERS, enable_secure=True,
                                            protocol_types=["TLS_1_2"], key_store_name=brokers))
    with pytest.raises(ArgumentError, match=r"apinizer\.connections\.Kafka\.key_store_name: given the Jwk "
                                            r"resource 'signer-2', but it names a Keystore"):
        apinizer.Connection(
            "events-2", project_name="Demo", name="events-2",
            settings=apinizer.connections.Kafka(topic_name="audit", properties_map=BROKERS,
                                                key_store_name=Jwk("signer-2", jwk_id="jwk-2")))

    def check(settings: dict[str, Any]) -> None:
        assert settings["key_store_name"] == "broker-keystore"
        assert any("broker-keystore" in urn for urn in DEPENDENCIES["events"])

    return kafka.settings.apply(check)
