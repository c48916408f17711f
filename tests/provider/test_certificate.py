"""Certificate through the dynamic provider server over gRPC, against a live emulator: check, create
(from PEM text and from a PEM or DER file), update in place (a new PEM), replace, refresh with drift
and a gone certificate, adoption, lost answers, bad input, delete, and the content kept out of the
state but for its hash.

https://github.com/apinizer/management-api-docs/blob/main/02-api-reference/08-keys-secrets/crud/create-certificate.md
https://github.com/apinizer/management-api-docs/blob/main/02-api-reference/08-keys-secrets/crud/update-certificate.md
"""

from __future__ import annotations

import base64
import hashlib
import json
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import grpc
import pytest
from pulumi.runtime import rpc

import _emulator_http as emulator_http
import _key_material as km
from _draft_environment import draft_staging, publish_staging
from apinizer_pulumi.client import ApinizerClient
from apinizer_pulumi.resources import CertificateProvider
from apinizer_pulumi.resources.testing import DIFF_NONE, DIFF_SOME, Engine, ProviderServer

from ._fork_server import ForkedProviderServer
from .conftest import Gateway
from .test_lost_answers import fault

CERTIFICATES = "/apiops/projects/{projectName}/certificates/"
CREATE = f"POST {CERTIFICATES}"
LIST = f"GET {CERTIFICATES}"
ONE = f"{CERTIFICATES}{{certificateName}}/"


@pytest.fixture(scope="module")
def authority() -> km.Issued:
    return km.ca()


@pytest.fixture(scope="module")
def leaf(authority: km.Issued) -> km.Issued:
    return km.issue("api.example.com", issuer=authority)


@pytest.fixture(scope="module")
def renewed(authority: km.Issued) -> km.Issued:
    return km.issue("api2.example.com", issuer=authority)


@pytest.fixture
def certificates(server: ProviderServer, emulator_url: str) -> Engine:
    return Engine(server, CertificateProvider(), "Certificate")


def declared(issued: km.Issued, **overrides: Any) -> dict[str, Any]:
    return {
        "project_name": "Demo",
        "name": "ca",
        "alias": "ca-alias",
        "description": "the partners' CA",
        "environment_names": ["test", "production"],
        "pem": rpc.wrap_rpc_secret(issued.pem.decode()),
        **overrides,
    }


def sha256(issued: km.Issued) -> str:
    return hashlib.sha256(issued.der).hexdigest()


def live(client: ApinizerClient, name: str = "ca") -> Any:
    return client.certificates.find("Demo", name)


def content(found: Any) -> bytes:
    """The DER the gateway holds for the certificate's first environment."""
    return base64.b64decode(found.certificate_environment_list[0].base64_encoded_content or "")


def test_create_uploads_the_pem_and_records_only_its_hash(
    certificates: Engine, gateway: Gateway, client: ApinizerClient, authority: km.Issued
) -> None:
    gateway.reset_stats()
    id_, outs = certificates.up(declared(authority))
    # One create, then one list for the id and what only the gateway answers.
    assert gateway.stats()["requests"] == {CREATE: 1, LIST: 1}

    assert id_ == "Demo/ca"
    found = live(client)
    assert found is not None and found.description == "the partners' CA"
    environments = found.certificate_environment_list
    assert [(item.environment_name, item.alias) for item in environments] == [
        ("test", "ca-alias"), ("production", "ca-alias")]
    assert content(found) == authority.der
    assert outs["certificate_id"] == found.id
    assert outs["sha256"] == sha256(authority)
    assert outs["subject_dn"] == {item.environment_name: item.subject_dn for item in environments}
    assert "CN=Example CA" in outs["subject_dn"]["test"]
    assert set(outs["end_date"]) == {"test", "production"}
    assert "pem" not in outs
    assert authority.pem.decode().splitlines()[1] not in json.dumps(outs)


def test_check_keeps_the_pem_secret_and_hashes_it(certificates: Engine, authority: km.Issued) -> None:
    inputs = certificates.checked(declared(authority))
    assert rpc.is_rpc_secret(inputs["pem"])
    assert inputs["sha256"] == sha256(authority)
    assert inputs["description"] == "the partners' CA"


def test_a_der_file_and_a_pem_file_are_read_and_hash_as_the_same_certificate(
    certificates: Engine, client: ApinizerClient, authority: km.Issued, tmp_path: Path
) -> None:
    der_file, pem_file = tmp_path / "ca.cer", tmp_path / "ca.pem"
    der_file.write_bytes(authority.der)
    pem_file.write_bytes(authority.pem)
    from_der = {**declared(authority, file=str(der_file))}
    del from_der["pem"]
    id_, outs = certificates.up(from_der)

    found = live(client)
    assert found is not None
    assert content(found) == authority.der
    assert outs["file"] == str(der_file) and outs["sha256"] == sha256(authority)
    # The same certificate as PEM, or as text: no change.
    from_pem = {**from_der, "file": str(pem_file)}
    assert certificates.diff(id_, outs, certificates.checked(from_pem)).changes == DIFF_NONE
    assert certificates.diff(id_, outs, certificates.checked(declared(authority))).changes == DIFF_NONE


def test_a_new_pem_updates_in_place_and_the_id_and_subject_follow(
    certificates: Engine, gateway: Gateway, client: ApinizerClient, authority: km.Issued, renewed: km.Issued
) -> None:
    id_, outs = certificates.up(declared(authority))
    news = certificates.checked(declared(renewed, alias="ca-2"))

    diff = certificates.diff(id_, outs, news)
    assert diff.changes == DIFF_SOME and list(diff.replaces) == []
    gateway.reset_stats()
    updated = certificates.update(id_, outs, news)
    assert gateway.stats()["requests"] == {f"PUT {ONE}": 1, LIST: 1}

    found = live(client)
    assert found is not None
    assert content(found) == renewed.der
    assert updated["sha256"] == sha256(renewed) and updated["alias"] == "ca-2"
    assert "CN=api2.example.com" in updated["subject_dn"]["production"]
    assert updated["certificate_id"] == found.id


@pytest.mark.parametrize("scope", [None, "SAME_PROJECT", "ALL_PROJECTS"])
def test_a_rotation_remakes_the_jwks_made_from_it_only_when_asked(
    certificates: Engine, client: ApinizerClient, leaf: km.Issued, renewed: km.Issued, scope: str | None
) -> None:
    """The update page's ``updateReferencedJwks`` and ``updateScope``: a JWK made from the certificate
    (``Jwk(certificate_name=...)``) follows its rotation only when the certificate says so."""
    id_, outs = certificates.up(declared(leaf, update_referenced_jwks=scope))
    client.jwks.parse_from_certificate("Demo", {
        "name": "partner-jwk", "certificate_name": "ca", "environment_name": "test",
        "use_type": "SIGNATURE", "algorithm": "ES256"})
    before = client.jwks.get("Demo", "partner-jwk").ec
    # The option alone is never a change.
    other = certificates.checked(declared(leaf, update_referenced_jwks="ALL_PROJECTS"))
    assert certificates.diff(id_, outs, other).changes == DIFF_NONE
    rotated = certificates.checked(declared(renewed, update_referenced_jwks=scope))
    updated = certificates.update(id_, outs, rotated)
    assert updated.get("update_referenced_jwks") == scope
    after = client.jwks.get("Demo", "partner-jwk").ec
    assert before is not None and after is not None
    assert (after.x != before.x) == (scope is not None)
    assert certificates.check(declared(leaf, update_referenced_jwks="EVERYWHERE")).failures.keys() == {
        "update_referenced_jwks"}


def test_a_new_name_or_project_replaces(certificates: Engine, authority: km.Issued) -> None:
    id_, outs = certificates.up(declared(authority))
    diff = certificates.diff(id_, outs, certificates.checked(declared(authority, name="ca-new")))
    assert diff.changes == DIFF_SOME and list(diff.replaces) == ["name"]


def test_refresh_reads_one_list_and_shows_a_certificate_replaced_outside(
    certificates: Engine, gateway: Gateway, client: ApinizerClient, authority: km.Issued, renewed: km.Issued
) -> None:
    id_, outs = certificates.up(declared(authority))
    gateway.reset_stats()
    _, same, inputs = certificates.read(id_, outs)
    assert same == outs and inputs is None
    assert gateway.stats()["requests"] == {LIST: 1}

    client.certificates.update("Demo", {
        "certificate_name": "ca", "alias": "ca-alias", "certificate_description": "changed in the console",
        "environment_list": ["production"], "pem_encoded_file": renewed.pem})
    _, drifted, inputs = certificates.read(id_, outs)

    assert inputs is not None
    assert inputs["description"] == "changed in the console"
    assert inputs["environment_names"] == ["production"]
    assert inputs["sha256"] == drifted["sha256"] == sha256(renewed)
    assert "CN=api2.example.com" in drifted["subject_dn"]["production"]
    # The next `up` puts the declared certificate back, in place.
    diff = certificates.diff(id_, drifted, certificates.checked(declared(authority)))
    assert diff.changes == DIFF_SOME and list(diff.replaces) == []


def test_refresh_of_a_deleted_certificate_returns_no_id(
    certificates: Engine, client: ApinizerClient, authority: km.Issued
) -> None:
    id_, outs = certificates.up(declared(authority))
    client.certificates.delete("Demo", "ca")
    gone_id, props, _ = certificates.read(id_, outs)
    assert gone_id == "" and props == {}


def test_delete_removes_it_and_a_gone_one_is_no_failure(
    certificates: Engine, client: ApinizerClient, authority: km.Issued
) -> None:
    id_, outs = certificates.up(declared(authority))
    certificates.delete(id_, outs)
    assert live(client) is None
    certificates.delete(id_, outs)  # already gone: done


def test_a_taken_name_fails_saying_to_adopt_and_adopt_takes_it_over(
    certificates: Engine, client: ApinizerClient, authority: km.Issued, renewed: km.Issued
) -> None:
    client.certificates.create("Demo", {
        "certificate_name": "ca", "alias": "console-alias", "certificate_description": "from the console",
        "environment_list": ["test"], "pem_encoded_file": renewed.pem})

    with pytest.raises(grpc.RpcError) as failure:
        certificates.up(declared(authority))
    assert "already exists" in str(failure.value.details()) and "adopt=True" in str(failure.value.details())
    found = live(client)
    assert found is not None and found.description == "from the console"

    _, outs = certificates.up(declared(authority, adopt=True))
    found = live(client)
    assert found is not None and found.description == "the partners' CA"
    assert [item.alias for item in found.certificate_environment_list] == ["ca-alias", "ca-alias"]
    assert content(found) == authority.der
    assert outs["certificate_id"] == found.id


@pytest.mark.parametrize(
    "lost",
    [{"drop": True, "after": True}, {"status": 504, "after": True}],
    ids=["connection dropped after the create", "504 after the create"],
)
def test_a_multipart_create_whose_answer_was_lost_is_not_made_twice(
    certificates: Engine, gateway: Gateway, client: ApinizerClient, authority: km.Issued, lost: dict[str, Any]
) -> None:
    fault(gateway, method="POST", path="/certificates/", count=1, **lost)
    gateway.reset_stats()

    _, outs = certificates.up(declared(authority))

    assert gateway.stats()["requests"][CREATE] == 1, "the create was sent again"
    [found] = client.certificates.list("Demo")
    assert outs["certificate_id"] == found.id


def test_a_create_that_never_arrived_is_sent_again(
    certificates: Engine, gateway: Gateway, client: ApinizerClient, authority: km.Issued
) -> None:
    fault(gateway, method="POST", path="/certificates/", count=1, drop=True)
    gateway.reset_stats()
    certificates.up(declared(authority))
    assert gateway.stats()["requests"][CREATE] == 2
    assert len(client.certificates.list("Demo")) == 1


def test_check_names_each_bad_property(certificates: Engine, authority: km.Issued, tmp_path: Path) -> None:
    failures = certificates.check({
        "project_name": "Demo", "name": "ca", "alias": "", "environment_names": ["test", "test"],
        "pem": rpc.wrap_rpc_secret("-----BEGIN PRIVATE KEY-----\nAAAA\n-----END PRIVATE KEY-----\n"),
    }).failures
    assert set(failures) == {"alias", "environment_names", "pem"}
    assert "twice" in failures["environment_names"]
    assert "CERTIFICATE" in failures["pem"]
    assert "AAAA" not in json.dumps(failures)

    missing = tmp_path / "nowhere.pem"
    failures = certificates.check({**declared(authority), "pem": None, "file": str(missing)}).failures
    assert set(failures) == {"file"} and "cannot be read" in failures["file"]
    failures = certificates.check({k: v for k, v in declared(authority).items() if k != "pem"}).failures
    assert set(failures) == {"pem"}
    present = tmp_path / "ca.pem"
    present.write_bytes(authority.pem)
    both = certificates.check({**declared(authority), "file": str(present)}).failures
    assert set(both) == {"file"} and "not both" in both["file"]


def test_an_unknown_pem_at_preview_is_skipped_and_shows_a_change(
    certificates: Engine, authority: km.Issued
) -> None:
    id_, outs = certificates.up(declared(authority))
    checked = certificates.check(declared(authority, pem=rpc.UNKNOWN))
    assert checked.failures == {}
    diff = certificates.diff(id_, outs, checked.inputs)
    assert diff.changes == DIFF_SOME and list(diff.replaces) == []


def test_an_expired_certificate_is_the_gateways_400_and_nothing_is_made(
    certificates: Engine, client: ApinizerClient, authority: km.Issued
) -> None:
    old = km.expired(authority)
    with pytest.raises(grpc.RpcError) as failure:
        certificates.up(declared(old))
    message = str(failure.value.details())
    assert "apinizer:Certificate ca in Demo" in message and "expired" in message
    assert old.pem.decode().splitlines()[1] not in message
    assert live(client) is None


def test_a_file_that_is_no_certificate_is_the_gateways_400_and_nothing_is_made(
    certificates: Engine, client: ApinizerClient, tmp_path: Path, authority: km.Issued
) -> None:
    # Starts like DER (an ASN.1 SEQUENCE) but is none: offline it passes, the gateway refuses it.
    bad = tmp_path / "bad.cer"
    bad.write_bytes(b"\x30\x03\x02\x01\x01")
    inputs = {k: v for k, v in declared(authority).items() if k != "pem"}
    with pytest.raises(grpc.RpcError) as failure:
        certificates.up({**inputs, "file": str(bad)})
    assert "not a valid X.509 certificate" in str(failure.value.details())
    assert live(client) is None


def test_a_file_changed_after_the_preview_is_not_sent(
    certificates: Engine, gateway: Gateway, client: ApinizerClient, authority: km.Issued, renewed: km.Issued,
    tmp_path: Path,
) -> None:
    path = tmp_path / "ca.pem"
    path.write_bytes(authority.pem)
    inputs = certificates.checked({**{k: v for k, v in declared(authority).items() if k != "pem"},
                                   "file": str(path)})
    path.write_bytes(renewed.pem)
    gateway.reset_stats()
    with pytest.raises(grpc.RpcError) as failure:
        certificates.create(inputs)
    assert "changed after the preview" in str(failure.value.details())
    assert gateway.stats()["requests"] == {}
    assert live(client) is None


def test_the_state_never_holds_the_pem_in_clear(
    certificates: Engine, gateway: Gateway, authority: km.Issued, renewed: km.Issued
) -> None:
    body = authority.pem.decode().splitlines()[1]
    id_, outs = certificates.up(declared(authority))
    updated = certificates.update(id_, outs, certificates.checked(declared(renewed)))
    _, read, _ = certificates.read(id_, updated)
    for recorded in (outs, updated, read):
        assert "pem" not in recorded and body not in json.dumps(recorded)
    assert emulator_http.get(f"{gateway.url}/_emulator/state").status_code == 200


def test_refresh_of_many_certificates_reads_the_list_once(
    certificates: Engine, gateway: Gateway, emulator_url: str, authority: km.Issued
) -> None:
    made = [certificates.up(declared(authority, name=f"ca{n}", alias=f"alias{n}"), name=f"c{n}")
            for n in range(5)]
    gateway.reset_stats()
    # A refresh gets a provider process of its own; the list lives long there, so that a slow
    # machine cannot make the count depend on timing (as in test_shared_reads.py).
    config = {"apinizer:url": emulator_url, "apinizer:token": "dev-admin-token"}
    with ForkedProviderServer(config, env={"APINIZER_READ_CACHE_TTL": "600",
                                     "APINIZER_SKIP_CONNECTION_CHECK": "1"}) as refreshing:
        engine = Engine(refreshing, CertificateProvider(), "Certificate")
        futures = [engine.read_future(id_, outs, name=f"c{n}") for n, (id_, outs) in enumerate(made)]
        assert [future.result().id for future in futures] == [id_ for id_, _ in made]
    assert gateway.stats()["requests"] == {LIST: 1}


def encryption_policy(certificate_id: str) -> dict[str, Any]:
    """The encryption page's policy, encrypting the body with the certificate."""
    return {
        "project_name": "Demo", "api_proxy_name": "PetStore", "name": "encrypt-body",
        "policy_type": "policy-encryption", "pipeline": "REQUEST",
        "settings": {"policy_encryption_def_list": [{
            "source_var": {"name": "requestBody", "type": "BODY", "message_content_type": "ALL_BODY"},
            "target_var": {"name": "encryptedBody", "type": "BODY", "message_content_type": "ALL_BODY"},
            "cipher_algorithm": "RSA_ECB_PKCS1Padding", "enum_key_certificate_type": "CERTIFICATE",
            "certificate_id": certificate_id, "output_encoding_type": "BASE64",
        }]},
    }


def test_a_policy_names_the_certificate_through_a_rotation_and_its_delete_is_refused_first(
    certificates: Engine, server: ProviderServer, client: ApinizerClient, emulator_url: str
) -> None:
    from apinizer_pulumi.resources import PolicyProvider

    policies = Engine(server, PolicyProvider(), "Policy")
    rsa = km.issue("enc.example.com", key=km.rsa_key())
    renewed = km.issue("enc2.example.com", key=km.rsa_key())
    id_, outs = certificates.up(declared(rsa))
    policy_id, policy_outs = policies.up(encryption_policy(outs["certificate_id"]), name="p")

    # A rotation: the id the policy names is the certificate's after the update (the product makes it anew).
    rotated = certificates.update(id_, outs, certificates.checked(declared(renewed)))
    found = live(client)
    assert found is not None and rotated["certificate_id"] == found.id
    assert content(found) == renewed.der
    if rotated["certificate_id"] != outs["certificate_id"]:
        policy_outs = policies.update(policy_id, policy_outs, policies.checked(
            encryption_policy(rotated["certificate_id"])), name="p")

    # Destroy (an operation, a provider process, of its own) deletes the policy first: it depends on the
    # certificate's id. Out of order, the gateway's refusal names the policy and nothing is deleted.
    config = {"apinizer:url": emulator_url, "apinizer:token": "dev-admin-token"}
    with ForkedProviderServer(config, env={"APINIZER_SKIP_CONNECTION_CHECK": "1"}) as destroying:
        with pytest.raises(grpc.RpcError) as failure:
            certificates.on(destroying).delete(id_, rotated)
        assert "is used by policy (encrypt-body)" in str(failure.value.details())
        assert live(client) is not None
        policies.on(destroying).delete(policy_id, policy_outs, name="p")
        certificates.on(destroying).delete(id_, rotated)
    assert live(client) is None


def test_a_failed_read_back_after_the_create_is_read_again(
    certificates: Engine, gateway: Gateway, client: ApinizerClient, authority: km.Issued
) -> None:
    # A 500 (which the client never repeats) on the list that gives the new certificate's id.
    fault(gateway, method="GET", path="/certificates/", count=1, status=500)
    _, outs = certificates.up(declared(authority))
    found = live(client)
    assert found is not None and outs["certificate_id"] == found.id
    assert gateway.stats()["requests"][CREATE] == 1


@pytest.fixture
def staging_draft(tmp_path: Path) -> Iterator[tuple[str, Path]]:
    with draft_staging(tmp_path) as emulator:
        yield emulator


def test_a_deployment_that_failed_somewhere_leaves_the_certificate_the_stacks_and_is_sent_again(
        staging_draft: tuple[str, Path], authority: km.Issued) -> None:
    url, database = staging_draft
    config = {"apinizer:url": url, "apinizer:token": "dev-admin-token"}
    staged = declared(authority, environment_names=["test", "staging"])
    with ForkedProviderServer(config, env={"APINIZER_SKIP_CONNECTION_CHECK": "1"}) as server:
        engine = Engine(server, CertificateProvider(), "Certificate")
        # Made on the gateway, deployed to test, not to staging (a draft): the stack records it.
        id_, outs = engine.up(staged)
        assert id_ == "Demo/ca" and outs["undeployed_environments"] == ["staging"]
        assert outs["certificate_id"]
        # The next up sees a change, and a refresh keeps what the last write's answer said.
        assert engine.diff(id_, outs, engine.checked(staged)).changes == DIFF_SOME
        _, read_outs, _ = engine.read(id_, outs)
        assert read_outs["undeployed_environments"] == ["staging"]
        publish_staging(database)
        outs = engine.update(id_, read_outs, engine.checked(staged))
        assert "undeployed_environments" not in outs
        assert engine.diff(id_, outs, engine.checked(staged)).changes == DIFF_NONE
