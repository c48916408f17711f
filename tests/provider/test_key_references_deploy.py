"""A deployed proxy whose policy names a crypto key, through the providers over gRPC: a key changed in
place deploys itself (its pages: "automatically deployed after update") and the deployment stays in
sync; a policy that names another key (a rotation to a new key) is a change of the proxy, which the
``ApiProxyDeployment``'s refresh shows as ``redeploy_required`` and its next ``up`` deploys."""

from __future__ import annotations

from typing import Any

import _key_material as km
from apinizer_pulumi.client import ApinizerClient
from apinizer_pulumi.resources.testing import DIFF_NONE, DIFF_SOME, Engine

from .conftest import Gateway
from .test_api_proxy import DEPLOYMENT, deployments  # noqa: F401  # the fixture
from .test_policy import policies  # noqa: F401  # the fixture

PROXY = "Orders"
DEPLOY_TEST = {"project_name": "Demo", "api_proxy_name": PROXY, "environment_name": "test"}


def _key(client: ApinizerClient, name: str, issued: km.Issued) -> str:
    client.crypto_keys.create("Demo", {"name": name, "keyType": "RSA", "cryptoKeyInfoEnvironmentList": [
        {"environmentName": "test", "publicKey": issued.public_b64()}]})
    return str(client.crypto_keys.get("Demo", name).id)


def hold_named_objects(client: ApinizerClient, settings: Any) -> None:
    """Make the keystores and certificates that a policy's (snake_case) settings name by name, so that the
    gateway takes it (it refuses a policy naming what the project does not hold)."""
    from apinizer_pulumi.resources._policy_references import REFERENCE_FIELDS

    def named(value: Any) -> set[tuple[str, str]]:
        found: set[tuple[str, str]] = set()
        if isinstance(value, dict):
            for field, item in value.items():
                kind, output = REFERENCE_FIELDS.get(field, ("", ""))
                if output == "name" and isinstance(item, str) and item:
                    found.add((kind, item))
                else:
                    found |= named(item)
        elif isinstance(value, list):
            for item in value:
                found |= named(item)
        return found

    issued = km.issue("named.example.com", key=km.rsa_key())
    for kind, name in sorted(named(settings)):
        if kind == "Keystore":
            client.keystores.create("Demo", {"name": name, "keyStoreEnvironmentList": [
                {"environmentName": "test", "type": "PKCS12", "password": "s3cret",
                 "file": km.b64(km.pkcs12_file(issued, "signer", "s3cret"))}]})
        else:
            client.certificates.create("Demo", {
                "certificate_name": name, "alias": name, "certificate_description": "",
                "environment_list": ["test"], "pem_encoded_file": issued.pem})


def encryption(key_id: str) -> dict[str, Any]:
    body = {"name": "body", "type": "BODY", "message_content_type": "ALL_BODY"}
    return {"project_name": "Demo", "api_proxy_name": PROXY, "name": "encrypt",
            "policy_type": "policy-encryption", "pipeline": "REQUEST",
            "settings": {"policy_encryption_def_list": [{
                "source_var": body, "target_var": body, "cipher_algorithm": "RSA_ECB_PKCS1Padding",
                "output_encoding_type": "BASE64", "crypto_key_info_id": key_id}]}}


def test_a_policy_rotated_to_another_key_makes_the_deployment_redeploy(
    policies: Engine, deployments: Engine, client: ApinizerClient, gateway: Gateway,  # noqa: F811
) -> None:
    old_key = _key(client, "payload-key", km.issue("old.example.com", key=km.rsa_key()))
    policy_id, policy_outs = policies.up(encryption(old_key))
    id_, outs = deployments.up(DEPLOY_TEST)

    # The key's material changes in place: it deploys itself; the proxy needs nothing.
    rotated = km.issue("rotated.example.com", key=km.rsa_key())
    client.crypto_keys.update("Demo", {
        "name": "payload-key", "keyType": "RSA",
        "cryptoKeyInfoEnvironmentList": [{"environmentName": "test", "publicKey": rotated.public_b64()}]})
    _, read_outs, _ = deployments.read(id_, outs)
    assert read_outs["redeploy_required"] is False
    assert deployments.diff(id_, read_outs, deployments.checked(DEPLOY_TEST)).changes == DIFF_NONE

    # The policy names a new key: the deployed proxy no longer carries what the policy says.
    new_key = _key(client, "payload-key-2", km.issue("new.example.com", key=km.rsa_key()))
    policies.update(policy_id, policy_outs, policies.checked(encryption(new_key)))
    _, read_outs, _ = deployments.read(id_, outs)
    assert read_outs["redeploy_required"] is True
    assert deployments.diff(id_, read_outs, deployments.checked(DEPLOY_TEST)).changes == DIFF_SOME
    gateway.reset_stats()
    deployments.update(id_, read_outs, deployments.checked(DEPLOY_TEST))
    assert gateway.stats()["requests"][f"POST {DEPLOYMENT}"] == 1
    line = client.api_proxies.get("Demo", PROXY).deployment("test")
    assert line is not None and line.deployed and not line.redeploy_required
