"""examples/secured-api under the real ``pulumi`` CLI: one stack's whole life, and no secret in clear.

One lifecycle, shared so that no stack is made twice (each command starts the CLI, the language host
and the providers: seconds each on the 2-core machine):

* **create**: the example as it ships, with the test's gateway, JWKS URL and secrets, plus a block of
  the key types the example does not use (a JWK from pasted JSON, a keystore, a crypto key, a webhook
  connection), so that every type with a secret field is checked; an ``up --diff`` with the engine's
  logs on stderr (``--logtostderr --logflow -v=7``: the engine's steps and the providers' own logs;
  ``-v=9`` adds every gRPC payload, too much for one command's output);
* **rotate**: ``keyGeneration`` raised; one ``up`` updates the CA certificate in place, makes the new
  signing key, points the policy at it and deploys the proxy again;
* **drift**: the connection changed and the CA certificate deleted through the API; ``refresh`` shows
  both, ``up`` repairs both;
* **destroy**: everything gone, in an order that no refusal stops (a policy before the key it names).

Along the way every secret value (the stack's secrets, the keys the program derives from them, the
private part of the key the gateway generated, the extra block's passwords, keys and files) is searched
for in ``pulumi stack export``, in the ``preview --diff`` and ``up --diff`` output, in the engine's logs
and in ``/_emulator/state``; ``stack export --show-secrets`` finds them, so the search is not blind.
"""

from __future__ import annotations

import base64
import json
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import httpx
import pytest

from _key_material import ca as make_ca
from _key_material import ec_key, issue, pkcs12_file, rsa_key
from apinizer_pulumi.client import ApinizerClient
from examples.test_secured_api import example_module

from .conftest import ROOT, Project, summary

EXAMPLE = ROOT / "examples" / "secured-api"
PREFIX = "apinizer-secured-api"
ADMIN_TOKEN = "dev-admin-token"

SEED = "e2e-ca-seed-7c1d0f2a9b"
ELASTIC_PASSWORD = "e2e-Elastic-Pa55-41b7"
WEBHOOK_SECRET = "e2e-webhook-signing-secret-9e03"
KEYSTORE_PASSWORD = "e2e-Keystore-Pa55-c2d8"


pki = example_module("pki")
prepare = example_module("prepare")
jwks_server = example_module("jwks_server")

#: The key types the example does not use, each with its secret fields, appended to its program.
EXTRA = '''

# --- added by tests/e2e/test_cli_secured_api.py: the other types that have secret fields -------------
pasted_key = apinizer.Jwk(
    "pasted-key", project_name=PROJECT, name="pasted-key", jwk_json=config.require_secret("pastedJwk"))
keystore = apinizer.Keystore(
    "gateway-keystore", project_name=PROJECT, name="gateway-keystore",
    environments=[apinizer.KeystoreEnvironmentArgs(
        environment_name=environment, type="PKCS12",
        content_base64=config.require_secret("keystoreBase64"),
        password=config.require_secret("keystorePassword"))])
crypto_key = apinizer.CryptoKey(
    "signing-crypto-key", project_name=PROJECT, name="signing-crypto-key", key_type="RSA",
    environments=[apinizer.CryptoKeyEnvironmentArgs(
        environment_name=environment, public_key=config.require("cryptoPublicKey"),
        private_key=config.require_secret("cryptoPrivateKey"))])
alerts = apinizer.Connection(
    "alerts", project_name=PROJECT, name="payouts-alerts",
    settings=apinizer.connections.Webhook(
        full_url="https://hooks.internal.example/payouts", http_method="POST",
        header_list=[{"name": "X-Signature-Secret", "value": config.require_secret("webhookSecret")}]))
'''
#: The resources of the example (the stack not counted) and of the block above.
EXAMPLE_RESOURCES = 11
EXTRA_RESOURCES = 4


def b64url(number: int, size: int) -> str:
    return base64.urlsafe_b64encode(number.to_bytes(size, "big")).rstrip(b"=").decode()


def pasted_jwk() -> tuple[str, str]:
    """A private EC JWK as JSON text, and its private member ``d``."""
    numbers = ec_key().private_numbers()
    public = numbers.public_numbers
    d = b64url(numbers.private_value, 32)
    jwk = {"kty": "EC", "crv": "P-256", "kid": "pasted-1", "x": b64url(public.x, 32),
           "y": b64url(public.y, 32), "d": d}
    return json.dumps(jwk), d


def pem_body(pem: str) -> str:
    """The base64 of a PEM block on one line, as a leak would most likely show it."""
    return "".join(line for line in pem.strip().splitlines() if not line.startswith("-----"))


def secret_fragments(values: dict[str, str]) -> dict[str, list[str]]:
    """Per secret, the strings whose presence anywhere would be a leak: the value itself, and for long
    values (keys, files) 40-character pieces too (a leak may wrap or re-encode the rest)."""
    fragments: dict[str, list[str]] = {}
    for name, value in values.items():
        pieces = [value]
        if len(value) > 80:
            pieces += [value[start:start + 40] for start in range(0, len(value) - 40, 200)]
        fragments[name] = pieces
    return fragments


def leaks(text: str, secrets: dict[str, str]) -> list[str]:
    return [name for name, pieces in secret_fragments(secrets).items() if any(p in text for p in pieces)]


def emulator_state(url: str) -> str:
    return httpx.get(f"{url}/_emulator/state", timeout=10).text


def demo(url: str) -> dict[str, Any]:
    state = json.loads(emulator_state(url))
    (project,) = [item for item in state["projects"] if item["name"] == "Demo"]
    return {"geolocation": state["geolocation"], **project}


def reconciliation_jwk_id(client: ApinizerClient) -> str | None:
    for endpoint in client.policies.list("Demo", "Payouts").endpoint_list or []:
        for entry in endpoint.request_policy_list or []:
            if entry.name == "reconciliation-token":
                found: str | None = entry.model_dump(by_alias=True).get("jwkIdForValidationAndSign")
                return found
    return None


def deployment_in_test(client: ApinizerClient) -> tuple[bool, bool]:
    (line,) = [item for item in client.api_proxies.get("Demo", "Payouts").deployment_list
               if item.environment_name == "test"]
    return bool(line.deployed), bool(line.redeploy_required)


@pytest.fixture
def served_jwks(tmp_path: Path) -> Iterator[str]:
    local = tmp_path / "partner"
    prepare.prepare(local)
    with jwks_server.JwksServer(local / "jwks.json") as server:
        yield server.url


@pytest.mark.timeout(900)
def test_create_rotate_drift_destroy_with_no_secret_in_clear(
    make_project: Any, emulator_url: str, served_jwks: str
) -> None:
    project: Project = make_project(EXAMPLE)
    with (project.directory / "__main__.py").open("a") as program:
        program.write(EXTRA)
    prepare.prepare(project.directory / "local")  # the program's default MMDB path, as the README does

    jwk_json, jwk_d = pasted_jwk()
    gateway_identity = issue("gateway.payouts.example", issuer=make_ca(), key=rsa_key())
    keystore_file = base64.b64encode(pkcs12_file(gateway_identity, "gateway", KEYSTORE_PASSWORD)).decode()
    crypto = rsa_key()
    crypto_holder = issue("signer.payouts.example", key=crypto)
    secrets = {
        f"{PREFIX}:caKeySeed": SEED, f"{PREFIX}:elasticPassword": ELASTIC_PASSWORD,
        f"{PREFIX}:pastedJwk": jwk_json, f"{PREFIX}:keystoreBase64": keystore_file,
        f"{PREFIX}:keystorePassword": KEYSTORE_PASSWORD,
        f"{PREFIX}:cryptoPrivateKey": crypto_holder.private_b64(),
        f"{PREFIX}:webhookSecret": WEBHOOK_SECRET,
    }
    project.configure(
        {"apinizer:url": emulator_url, f"{PREFIX}:jwksUrl": served_jwks,
         f"{PREFIX}:cryptoPublicKey": crypto_holder.public_b64()},
        secrets=secrets,
    )
    # Every secret value, and what the program and the gateway make from them.
    ca_1, ca_2 = (pki.certificate_authority(SEED, generation) for generation in (1, 2))
    client_1 = pki.client_certificate(SEED, 1, "acme-payouts-client")
    never_in_clear = {
        "caKeySeed": SEED, "elasticPassword": ELASTIC_PASSWORD, "pasted JWK's d": jwk_d,
        "keystore file": keystore_file, "keystorePassword": KEYSTORE_PASSWORD,
        "crypto private key": crypto_holder.private_b64(), "webhookSecret": WEBHOOK_SECRET,
        "CA 1 key": pem_body(ca_1.private_key_pem), "CA 2 key": pem_body(ca_2.private_key_pem),
        "client key": pem_body(client_1.private_key_pem),
    }
    seen: dict[str, str] = {}

    with ApinizerClient(emulator_url, token=ADMIN_TOKEN) as client:
        # --- create, with the preview's diff and the engine's logs ---------------------------------------
        up = project.run("up", "--yes", "--diff", "--stack", project.stack,
                         "--logtostderr", "--logflow", "-v=7")
        assert summary(up.stdout)["created"] == EXAMPLE_RESOURCES + EXTRA_RESOURCES + 1, up.stdout
        generated = client.jwks.get("Demo", "reconciliation-signing-1")
        assert generated.ec is not None and generated.ec.d
        never_in_clear["generated JWK's d"] = generated.ec.d
        seen["up --diff and the engine's logs"] = up.output
        seen["/_emulator/state after create"] = emulator_state(emulator_url)
        seen["stack export"] = project.export()
        revealed = project.run("stack", "export", "--show-secrets", "--stack", project.stack).stdout
        # Not blind: what the state keeps of the secret inputs and outputs is there once shown.
        for name in ("elasticPassword", "webhookSecret", "keystorePassword", "pasted JWK's d",
                     "crypto private key", "client key"):
            assert leaks(revealed, {name: never_in_clear[name]}) == [name], f"{name}: not in the state"

        created = demo(emulator_url)
        ids = {item["name"]: item["id"] for item in created["jwks"]}
        assert set(ids) == {"acme-idp", "reconciliation-signing-1", "pasted-key"}
        assert reconciliation_jwk_id(client) == ids["reconciliation-signing-1"]
        assert created["geolocation"]["enabled"] is True
        assert deployment_in_test(client) == (True, False)

        # --- rotate: a new CA and a new signing key reach the policy and the deployment in one up ---------
        project.configure({f"{PREFIX}:keyGeneration": "2"})
        preview = project.preview("--diff")
        seen["preview --diff of the rotation"] = preview.output
        rotated = project.up()
        # The CA certificate, the reconciliation policy and the deployment updated; the key replaced.
        assert summary(rotated.stdout) == {"updated": 3, "replaced": 1}, rotated.stdout
        for step in ("apinizer:Certificate: (update)", "apinizer:Jwk: (replace)",
                     "apinizer:Policy: (update)", "apinizer:ApiProxyDeployment: (update)"):
            assert step in preview.stdout, preview.stdout
        after = demo(emulator_url)
        ids = {item["name"]: item["id"] for item in after["jwks"]}
        assert set(ids) == {"acme-idp", "reconciliation-signing-2", "pasted-key"}, "the old key is deleted"
        assert reconciliation_jwk_id(client) == ids["reconciliation-signing-2"]
        (certificate,) = after["certificates"]
        (line,) = certificate["certificateEnvironmentList"]
        assert line["subjectDn"] == "CN=Partners CA 2, O=Example Payouts"
        assert deployment_in_test(client) == (True, False), "the proxy runs the policy that names the new key"
        outputs = project.outputs()
        assert outputs["signingKeyId"] == ids["reconciliation-signing-2"]
        assert outputs["clientPrivateKey"] == "[secret]"
        seen["/_emulator/state after rotate"] = emulator_state(emulator_url)

        # --- drift: changed and deleted behind Pulumi's back; refresh shows it, up repairs it -------------
        logs = client.connections.get("Demo", "payouts-traffic-logs")
        client.connections.update("Demo", logs.model_copy(update={"index_name": "console-edit"}))
        client.certificates.delete("Demo", "partners-ca")
        refreshed = project.refresh("--diff")
        seen["refresh --diff"] = refreshed.output
        drift = summary(refreshed.stdout)
        assert (drift.get("updated"), drift.get("deleted")) == (1, 1), refreshed.stdout
        # The connection's settings are one secret block (they hold its password): the diff names the
        # resource, not the field.
        steps = [line.strip() for line in refreshed.stdout.splitlines() if "dynamic/apinizer:" in line]
        assert "~ pulumi-python:dynamic/apinizer:Connection: (update)" in steps, steps
        assert "- pulumi-python:dynamic/apinizer:Certificate: (delete)" in steps, steps
        repaired = project.up()
        assert summary(repaired.stdout).get("created") == 1, repaired.stdout
        repaired_state = demo(emulator_url)
        assert [item["indexName"] for item in repaired_state["connections"]
                if item["name"] == "payouts-traffic-logs"] == ["apinizer-payouts"]
        assert [item["name"] for item in repaired_state["certificates"]] == ["partners-ca"]

        # --- destroy: everything gone, no delete refused ---------------------------------------------------
        destroyed = project.destroy("--skip-preview")
        everything = EXAMPLE_RESOURCES + EXTRA_RESOURCES + 1
        assert summary(destroyed.stdout) == {"deleted": everything}, destroyed.stdout
        gone = demo(emulator_url)
        kinds = ("jwks", "certificates", "connections", "keystores", "cryptoKeys")
        assert [kind for kind in kinds if gone[kind]] == []
        assert "Payouts" not in {proxy["name"] for proxy in gone["apiProxies"]}
        assert gone["geolocation"]["enabled"] is False
        seen["stack export after destroy"] = project.export()
        seen["/_emulator/state after destroy"] = emulator_state(emulator_url)

    found = {where: leaks(text, never_in_clear) for where, text in seen.items()}
    assert {where: names for where, names in found.items() if names} == {}
