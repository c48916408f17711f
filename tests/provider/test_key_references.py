"""Policies that name a JWK, key, certificate or keystore, as a program declares them (Pulumi's mocks
stand in for the engine, with a monitor that keeps each registration's dependencies).

The typed settings take the resource itself as well as its id or name: the program checks its kind
and sends the output the field takes (an id, or a name), which also makes the policy depend on the
object, so that ``pulumi destroy`` deletes the policy first. An id string is sent as it is (the
gateway checks it: tests/emulator/test_keys_references.py).

The resources are the real ``apinizer.Jwk``, ``CryptoKey``, ``Keystore`` and ``Certificate`` (the mocks
answer each one's id output). The dependency in the registration is the program's part of the destroy
order; the engine deletes in its reverse, and the gateway refuses the delete of an object a policy
still names (tests/provider/test_certificate.py), so the wrong order could not pass unseen under the CLI.
"""

from __future__ import annotations

from collections.abc import Iterator
from typing import Any

import pulumi
import pytest
from pulumi.runtime import rpc
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


#: The id output of each kind the gateway answers one for: what its create gives back (the mocks' part).
ID_OUTPUTS = {"Jwk": "jwk_id", "CryptoKey": "crypto_key_id", "Keystore": "keystore_id",
              "Certificate": "certificate_id"}


class KeyMocks(Mocks):
    """Every resource's outputs are its inputs, and a key object's id is ``<name>-<kind>-id``."""

    def new_resource(self, args: pulumi.runtime.MockResourceArgs) -> tuple[str, dict[str, Any]]:
        id_, outputs = super().new_resource(args)
        kind = args.typ.rsplit(":", 1)[-1]
        if kind in ID_OUTPUTS:
            outputs[ID_OUTPUTS[kind]] = f"{args.name}-{kind}-id"
        return id_, outputs


@pytest.fixture(autouse=True)
def mocks() -> Iterator[None]:
    """As tests/provider/test_resources.py's, with the monitor that keeps the dependencies."""
    DEPENDENCIES.clear()
    yield from mocked_runtime(DependencyMonitor(KeyMocks()))


def jwk(resource_name: str) -> apinizer.Jwk:
    generate = apinizer.JwkGenerateArgs(type="EC", ec=apinizer.JwkEcArgs(curve_type="P256"))
    return apinizer.Jwk(resource_name, project_name="Demo", name=resource_name, generate=generate)


def crypto_key(resource_name: str) -> apinizer.CryptoKey:
    return apinizer.CryptoKey(resource_name, project_name="Demo", name=resource_name, key_type="RSA",
                              environments=[apinizer.CryptoKeyEnvironmentArgs(
                                  environment_name="test", public_key=PUBLIC_KEY)])


def keystore(resource_name: str) -> apinizer.Keystore:
    return apinizer.Keystore(resource_name, project_name="Demo", name=resource_name, environments=[
        apinizer.KeystoreEnvironmentArgs(environment_name="test", type="PKCS12",
                                         content_base64="MIIK", password="changeit")])


def certificate(resource_name: str) -> apinizer.Certificate:
    return apinizer.Certificate(resource_name, project_name="Demo", name=resource_name, alias=resource_name,
                                environment_names=["test"], pem=CERTIFICATE_PEM)


#: Neither is read here (the mocks make nothing): the program only passes them on, as secrets.
PUBLIC_KEY = "MIIBIjANBgkqhkiG9w0BAQEFAAOCAQ8AMIIBCgKCAQEA"
CERTIFICATE_PEM = "-----BEGIN CERTIFICATE-----\nMIIB\n-----END CERTIFICATE-----\n"


def _settings(resource_name: str) -> Any:
    """The settings a resource registered, a secret unwrapped (a type with secret fields sends them whole
    as one)."""
    return rpc.unwrap_rpc_secret(_registered(resource_name).inputs["settings"])


def _policy(resource_name: str, settings: Any, policy_type: str | None = None) -> apinizer.Policy:
    return apinizer.Policy(resource_name, project_name="Demo", api_proxy_name="PetStore", name=resource_name,
                           pipeline="REQUEST", settings=settings, policy_type=policy_type)


@pulumi.runtime.test
def test_a_resource_given_to_a_reference_field_sends_its_id_and_orders_the_policy_after_it() -> Any:
    signer = jwk("signer")
    key = crypto_key("payload-key")
    saml_keys = keystore("saml-keystore")
    partners = certificate("partners-ca")
    jose = _policy("jose", apinizer.policies.JoseValidation(
        validate_sign=True, validate_by_issuer=False, jwk_id_for_validation_and_sign=signer))
    encrypt = _policy("encrypt", apinizer.policies.Encryption(policy_encryption_def_list=[
        apinizer.policies.EncryptionDefArgs(
            source_var={"name": "body", "type": "BODY", "message_content_type": "ALL_BODY"},
            target_var={"name": "body", "type": "BODY", "message_content_type": "ALL_BODY"},
            cipher_algorithm="RSA_ECB_PKCS1Padding", output_encoding_type="BASE64", crypto_key_info_id=key)]))
    saml = _policy("saml", {"key_store_name": saml_keys}, "policy-saml-validation")
    # A certificate by its id (signing with it) and by its name (mTLS of an API call).
    sign = _policy("sign", apinizer.policies.DigitalSign(policy_digital_sign_def_list=[
        apinizer.policies.DigitalSignDefArgs(
            enum_key_certificate_type="CERTIFICATE", certificate_id=partners,
            source_var={"name": "body", "type": "BODY"}, signature_var={"name": "X-Sig", "type": "HEADER",
                                                                        "header_name": "X-Sig"},
            signature_algorithm="SHA256_WITH_RSA")]))
    call = _policy("call", apinizer.policies.ApiCall(
        call_type="SYNCHRONOUS", http_method="GET", url="https://partner.example.com/check",
        certificate_enabled=True, certificate_name=partners))

    def verify(urns: list[str]) -> None:
        signer_urn, key_urn, keystore_urn, certificate_urn = urns[:4]
        assert _registered("jose").inputs["settings"]["jwk_id_for_validation_and_sign"] == "signer-Jwk-id"
        [definition] = _registered("encrypt").inputs["settings"]["policy_encryption_def_list"]
        assert definition["crypto_key_info_id"] == "payload-key-CryptoKey-id"
        assert _registered("saml").inputs["settings"]["key_store_name"] == "saml-keystore"
        [signing] = _registered("sign").inputs["settings"]["policy_digital_sign_def_list"]
        assert signing["certificate_id"] == "partners-ca-Certificate-id"
        assert _settings("call")["certificate_name"] == "partners-ca"
        # What the engine records and deletes in reverse: each policy before what it names.
        assert signer_urn in DEPENDENCIES["jose"]
        assert key_urn in DEPENDENCIES["encrypt"]
        assert keystore_urn in DEPENDENCIES["saml"]
        assert certificate_urn in DEPENDENCIES["sign"] and certificate_urn in DEPENDENCIES["call"]
        # And nothing the other way round: a key object never waits for a policy.
        policy_urns = set(urns[4:])
        for name in ("signer", "payload-key", "saml-keystore", "partners-ca"):
            assert not DEPENDENCIES[name] & policy_urns

    made = (signer, key, saml_keys, partners, jose, encrypt, saml, sign, call)
    return pulumi.Output.all(*(resource.urn for resource in made)).apply(verify)


@pulumi.runtime.test
def test_the_id_output_itself_also_orders_the_policy_after_the_key() -> Any:
    signer = jwk("signer")
    partners = certificate("partners-ca")
    jose = _policy("jose", apinizer.policies.JoseValidation(
        validate_sign=True, validate_by_issuer=False, jwk_id_for_validation_and_sign=signer.jwk_id))
    call = _policy("call", apinizer.policies.ApiCall(
        call_type="SYNCHRONOUS", http_method="GET", url="https://partner.example.com/check",
        certificate_enabled=True, certificate_name=partners.name))

    def verify(urns: list[str]) -> None:
        assert _registered("jose").inputs["settings"]["jwk_id_for_validation_and_sign"] == "signer-Jwk-id"
        assert _settings("call")["certificate_name"] == "partners-ca"
        assert urns[0] in DEPENDENCIES["jose"]
        assert urns[1] in DEPENDENCIES["call"]

    return pulumi.Output.all(signer.urn, partners.urn, jose.urn, call.urn).apply(verify)


@pulumi.runtime.test
def test_a_resource_of_another_kind_is_refused_naming_the_field_and_the_kinds() -> None:
    offices = apinizer.IpGroup("offices", project_name="Demo", name="Offices", addresses=["10.0.0.0/8"])
    key = crypto_key("payload-key")
    partners = certificate("partners-ca")
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
    with pytest.raises(ArgumentError, match=(
            r"^apinizer.policies.Encryption.policy_encryption_def_list\[0\].crypto_key_info_id: given the"
            r" Certificate resource 'partners-ca', but it names a CryptoKey: ")):
        _policy("encrypt", apinizer.policies.Encryption(policy_encryption_def_list=[
            {"source_var": {"name": "body", "type": "BODY"}, "target_var": {"name": "body", "type": "BODY"},
             "crypto_key_info_id": partners}]))
    with pytest.raises(ArgumentError,
                       match=r"^apinizer.policies.ApiCall.certificate_name: given the Keystore resource"):
        _policy("call", apinizer.policies.ApiCall(
            call_type="SYNCHRONOUS", http_method="GET", url="https://partner.example.com/check",
            certificate_enabled=True, certificate_name=keystore("client-keystore")))
    with pytest.raises(ArgumentError, match=r"^Policy 'saml' settings.key_store_name: given the Jwk"):
        _policy("saml", {"key_store_name": jwk("signer")}, "policy-saml-validation")
    assert not [args for args in REGISTERED if args.typ.endswith(":Policy")]


LDAP = {"server_address": "ldaps://ldap.example.com:636", "username": "cn=gateway", "password": "secret",
        "base_dn": "dc=example,dc=com", "use_ssl": True, "require_certificate_type": "REQUIRED"}


@pulumi.runtime.test
def test_a_connection_takes_its_keystore_and_certificate_resources_and_refuses_another_kind() -> Any:
    """A connection's keystore and certificate fields take the resource as a policy's do."""
    BROKERS = {"bootstrap.servers": {"value": "kafka:9093", "value_type": "STRING"}}  # noqa: N806
    brokers = keystore("broker-keystore")
    directory_ca = certificate("directory-ca")
    kafka = apinizer.Connection(
        "events", project_name="Demo", name="events",
        settings=apinizer.connections.Kafka(topic_name="audit", properties_map=BROKERS, enable_secure=True,
                                            protocol_types=["TLS_1_2"], key_store_name=brokers))
    ldap = apinizer.Connection(
        "directory", project_name="Demo", name="directory",
        settings=apinizer.connections.Ldap(**LDAP, certificate_id=directory_ca,
                                           certificate_name=directory_ca))
    with pytest.raises(ArgumentError, match=r"apinizer\.connections\.Kafka\.key_store_name: given the Jwk "
                                            r"resource 'signer-2', but it names a Keystore"):
        apinizer.Connection(
            "events-2", project_name="Demo", name="events-2",
            settings=apinizer.connections.Kafka(topic_name="audit", properties_map=BROKERS,
                                                key_store_name=jwk("signer-2")))
    with pytest.raises(ArgumentError, match=r"apinizer\.connections\.Ldap\.certificate_id: given the "
                                            r"Keystore resource 'broker-keystore', but it names a "
                                            r"Certificate"):
        apinizer.Connection("directory-2", project_name="Demo", name="directory-2",
                            settings=apinizer.connections.Ldap(**LDAP, certificate_id=brokers))

    def check(values: list[Any]) -> None:
        kafka_settings, ldap_settings, keystore_urn, certificate_urn = values
        assert kafka_settings["key_store_name"] == "broker-keystore"
        assert keystore_urn in DEPENDENCIES["events"]
        assert ldap_settings["certificate_id"] == "directory-ca-Certificate-id"
        assert ldap_settings["certificate_name"] == "directory-ca"
        assert certificate_urn in DEPENDENCIES["directory"]

    return pulumi.Output.all(kafka.settings, ldap.settings, brokers.urn, directory_ca.urn).apply(check)


@pulumi.runtime.test
def test_a_jwk_takes_the_certificate_key_or_keystore_it_is_made_from_and_refuses_another_kind() -> Any:
    """``Jwk(certificate_name=cert)``: the certificate's name, and the JWK made after it."""
    partners = certificate("partners-ca")
    signing = keystore("signing-store")
    from_certificate = apinizer.Jwk("from-certificate", project_name="Demo", name="from-certificate",
                                    certificate_name=partners, environment_name="test", use_type="SIGNATURE",
                                    algorithm="RS256")
    from_keystore = apinizer.Jwk("from-keystore", project_name="Demo", name="from-keystore",
                                 keystore_name=signing, alias_name="signer", environment_name="test",
                                 use_type="SIGNATURE", algorithm="RS256")
    with pytest.raises(ArgumentError, match=r"Jwk\.key_name: given the Certificate resource 'partners-ca', "
                                            r"but it names a CryptoKey"):
        apinizer.Jwk("from-key", project_name="Demo", name="from-key", key_name=partners,
                     environment_name="test", use_type="SIGNATURE", algorithm="RS256")

    def check(values: list[Any]) -> None:
        certificate_name, keystore_name, certificate_urn, keystore_urn = values
        assert (certificate_name, keystore_name) == ("partners-ca", "signing-store")
        assert certificate_urn in DEPENDENCIES["from-certificate"]
        assert keystore_urn in DEPENDENCIES["from-keystore"]

    return pulumi.Output.all(from_certificate.certificate_name, from_keystore.keystore_name, partners.urn,
                             signing.urn).apply(check)
