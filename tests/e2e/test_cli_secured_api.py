"""examples/secured-api under the real ``pulumi`` CLI: one stack's whole life, and no secret in clear.

One lifecycle, shared so that no stack is made twice (each command starts the CLI, the language host
and the providers: seconds each on the 2-core machine). It is also where the key-material and connection
kinds are checked for what only the CLI shows; what the engine hands a provider and what a provider marks
secret are tests/provider's (test_jwk.py, test_certificate.py, test_keystore.py, test_crypto_key.py,
test_connection_resource.py):

* **create**: the example as it ships, with the test's gateway, JWKS URL and secrets, plus a block of
  the types the example does not use: a JWK from pasted JSON, a certificate whose PEM is plain text in the
  program (the provider, not the program, makes it secret), a keystore read from a file by the provider,
  a crypto key, and one connection of every type that has a secret field (its page's first example, each
  secret field a stack secret of its own); an ``up --diff`` with the engine's logs on stderr
  (``--logtostderr --logflow -v=7``: the engine's steps and the providers' own logs; ``-v=9`` adds every
  gRPC payload, too much for one command's output, and the engine itself then logs every property it
  marshals, secrets included, whatever the provider). ``pulumi stack export`` then holds every secret
  input and output encrypted, and the digests beside them in clear;
* **rotate**: ``keyGeneration`` raised, the plain certificate's and the keystore's files replaced, one
  connection's secret changed; ``preview --diff`` shows the new files' sha256, never their content, and
  one ``up`` updates the certificates, the keystore and the connection in place, makes the new signing
  key, points the policy at it and deploys the proxy again;
* **drift**: the connection changed and the CA certificate deleted through the API; ``refresh`` shows
  both (the connection's changed field in clear: only its secret fields are secrets) and nothing else
  (the list masks every connection's secrets, which is no drift), ``up`` repairs both;
* **destroy**: everything gone, in an order that no refusal stops (a policy before the key it names).

Along the way every secret value (the stack's secrets, the keys the program derives from them, the
private part of the key the gateway generated, the extra block's passwords, keys and files) is searched
for in ``pulumi stack export``, in the ``preview --diff`` and ``up --diff`` output, in the engine's logs
and in ``/_emulator/state``; ``stack export --show-secrets`` finds them, so the search is not blind.
"""

from __future__ import annotations

import base64
import hashlib
import json
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import httpx
import pytest

from _key_material import Issued, ec_key, issue, pkcs12_file, rsa_key
from _key_material import ca as make_ca
from apinizer_pulumi.client import ApinizerClient
from apinizer_pulumi.models import CONNECTION_TYPES
from examples.test_secured_api import example_module

from .conftest import ROOT, Project, summary

EXAMPLE = ROOT / "examples" / "secured-api"
PREFIX = "apinizer-secured-api"
ADMIN_TOKEN = "dev-admin-token"

SEED = "e2e-ca-seed-7c1d0f2a9b"
ELASTIC_PASSWORD = "e2e-Elastic-Pa55-41b7"
KEYSTORE_PASSWORD = "e2e-Keystore-Pa55-c2d8"
ROTATED_CONNECTION_SECRET = "E2e-Rotated-Secret-Zq7"
#: What ``pulumi stack export`` writes in place of a secret value (the ciphertext beside it).
SECRET_SIG = {"4dabf18193072939515e22adb298388d": "1b47061264138c4ac30d75fd1eb44270"}
#: Strings in the connections' settings (stack config) that the program replaces by ``config.require_secret``.
MARKER = "@secret:"


pki = example_module("pki")
prepare = example_module("prepare")
jwks_server = example_module("jwks_server")

#: The types the example does not use, each with its secret fields, appended to its program.
EXTRA = '''

# --- added by tests/e2e/test_cli_secured_api.py: the other types that have secret fields -------------
pasted_key = apinizer.Jwk(
    "pasted-key", project_name=PROJECT, name="pasted-key", jwk_json=config.require_secret("pastedJwk"))
# Plain text in the program: the provider keeps the PEM secret and records its sha256.
gateway_ca = apinizer.Certificate(
    "gateway-ca", project_name=PROJECT, name="gateway-ca", alias="gateway-ca",
    environment_names=[environment], pem=Path("local/gateway-ca.pem").read_text())
# The provider reads the file: its bytes are in no input, its sha256 is.
keystore = apinizer.Keystore(
    "gateway-keystore", project_name=PROJECT, name="gateway-keystore",
    environments=[apinizer.KeystoreEnvironmentArgs(
        environment_name=environment, type="PKCS12", file="local/gateway.p12",
        password=config.require_secret("keystorePassword"))])
crypto_key = apinizer.CryptoKey(
    "signing-crypto-key", project_name=PROJECT, name="signing-crypto-key", key_type="RSA",
    environments=[apinizer.CryptoKeyEnvironmentArgs(
        environment_name=environment, public_key=config.require("cryptoPublicKey"),
        private_key=config.require_secret("cryptoPrivateKey"))])


def secrets_in(value):
    # "@secret:<key>" strings become the stack's secret <key>, wherever they are nested.
    if isinstance(value, str) and value.startswith("@secret:"):
        return config.require_secret(value.removeprefix("@secret:"))
    if isinstance(value, dict):
        return {key: secrets_in(item) for key, item in value.items()}
    if isinstance(value, list):
        return [secrets_in(item) for item in value]
    return value


for connection_name, connection_settings in json.loads(config.require("connections")).items():
    apinizer.Connection(connection_name, project_name=PROJECT, name=connection_name,
                        settings=secrets_in(connection_settings))
'''
#: The resources of the example (the stack not counted) and of the block above, its connections apart.
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


def secret_types() -> list[str]:
    return sorted(name for name, model in CONNECTION_TYPES.items() if model.secret_fields())


def connection_declarations() -> tuple[dict[str, dict[str, Any]], dict[str, str]]:
    """One connection of every type with a secret field, its page's first example the model takes:
    {connection name: settings, each secret field a marker} and {config key: secret value}."""
    from _documented_connections import TYPE_PAGES_DIR, connection_bodies
    from apinizer_pulumi.models import parse_connection
    from apinizer_pulumi.resources.connection import settings_of

    found: dict[str, dict[str, Any]] = {}
    for page, _, body in connection_bodies():
        try:
            model = parse_connection(body)
        except ValueError:
            continue
        if page.startswith(TYPE_PAGES_DIR) and model.type in secret_types() and model.type not in found:
            found[model.type] = {"type": model.type, **settings_of(model)}
    assert sorted(found) == secret_types(), "a type with secret fields has no documented example"
    secrets: dict[str, str] = {}
    connections: dict[str, dict[str, Any]] = {}
    for connection_type, settings in sorted(found.items()):
        name = f"e2e-{connection_type.lower()}"
        for path in CONNECTION_TYPES[connection_type].secret_fields():
            mark(settings, path.split("."), name, secrets)
        connections[name] = settings
    return connections, secrets


def mark(holder: Any, parts: list[str], name: str, secrets: dict[str, str]) -> None:
    """Give the secret field at ``parts`` a value of its own, as a marker the program reads."""
    if isinstance(holder, list):
        for item in holder:
            mark(item, parts, name, secrets)
        return
    if not isinstance(holder, dict):
        return
    if len(parts) > 1:
        mark(holder.get(parts[0]), parts[1:], name, secrets)
        return
    key = f"{name}-{parts[0].replace('_', '-')}-{len(secrets)}"
    secrets[key] = f"E2e-Secret-{len(secrets)}-Zq7"
    holder[parts[0]] = MARKER + key


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


def by_name(exported: str) -> dict[str, dict[str, Any]]:
    """The resources of a ``pulumi stack export``, by their name in the program."""
    resources = json.loads(exported)["deployment"]["resources"]
    return {resource["urn"].rsplit("::", 1)[-1]: resource for resource in resources}


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


def certificate_sha256(issued: Issued) -> str:
    return hashlib.sha256(issued.der).hexdigest()


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
    local = project.directory / "local"
    prepare.prepare(local)  # the program's default MMDB path, as the README does

    jwk_json, jwk_d = pasted_jwk()
    gateway_ca, renewed_gateway_ca = make_ca(), issue("Renewed Gateway CA", ca=True)
    (local / "gateway-ca.pem").write_bytes(gateway_ca.pem)
    gateway_identity = issue("gateway.payouts.example", issuer=gateway_ca, key=rsa_key())
    keystore_file = pkcs12_file(gateway_identity, "gateway", KEYSTORE_PASSWORD)
    rotated_keystore_file = pkcs12_file(issue("gateway.payouts.example"), "gateway", KEYSTORE_PASSWORD)
    (local / "gateway.p12").write_bytes(keystore_file)
    crypto_holder = issue("signer.payouts.example", key=rsa_key())
    connections, connection_secrets = connection_declarations()
    rotated_connection_key = next(iter(connection_secrets))
    secrets = {
        f"{PREFIX}:caKeySeed": SEED, f"{PREFIX}:elasticPassword": ELASTIC_PASSWORD,
        f"{PREFIX}:pastedJwk": jwk_json, f"{PREFIX}:keystorePassword": KEYSTORE_PASSWORD,
        f"{PREFIX}:cryptoPrivateKey": crypto_holder.private_b64(),
        **{f"{PREFIX}:{key}": value for key, value in connection_secrets.items()},
    }
    project.configure(
        {"apinizer:url": emulator_url, f"{PREFIX}:jwksUrl": served_jwks,
         f"{PREFIX}:cryptoPublicKey": crypto_holder.public_b64(),
         f"{PREFIX}:connections": json.dumps(connections)},
        secrets=secrets,
    )
    # Every secret value, and what the program and the gateway make from them.
    ca_1, ca_2 = (pki.certificate_authority(SEED, generation) for generation in (1, 2))
    client_1 = pki.client_certificate(SEED, 1, "acme-payouts-client")
    never_in_clear = {
        "caKeySeed": SEED, "elasticPassword": ELASTIC_PASSWORD, "pasted JWK's d": jwk_d,
        "keystorePassword": KEYSTORE_PASSWORD, "crypto private key": crypto_holder.private_b64(),
        "keystore file": base64.b64encode(keystore_file).decode(),
        "rotated keystore file": base64.b64encode(rotated_keystore_file).decode(),
        "CA 1 key": pem_body(ca_1.private_key_pem), "CA 2 key": pem_body(ca_2.private_key_pem),
        "client key": pem_body(client_1.private_key_pem),
        "rotated connection secret": ROTATED_CONNECTION_SECRET,
        **{f"connection secret {key}": value for key, value in connection_secrets.items()},
    }
    # Not secrets to the gateway, which stores them, but to the engine: the plain certificate's PEM.
    pems = {"gateway CA": pem_body(gateway_ca.pem.decode()),
            "renewed gateway CA": pem_body(renewed_gateway_ca.pem.decode())}
    seen: dict[str, str] = {}
    seen_by_the_engine_only: dict[str, str] = {}

    with ApinizerClient(emulator_url, token=ADMIN_TOKEN) as client:
        # --- create, with the preview's diff and the engine's logs ---------------------------------------
        up = project.run("up", "--yes", "--diff", "--stack", project.stack,
                         "--logtostderr", "--logflow", "-v=7")
        everything = EXAMPLE_RESOURCES + EXTRA_RESOURCES + len(connections) + 1
        assert summary(up.stdout)["created"] == everything, up.stdout
        generated = client.jwks.get("Demo", "reconciliation-signing-1")
        assert generated.ec is not None and generated.ec.d
        never_in_clear["generated JWK's d"] = generated.ec.d
        seen_by_the_engine_only["up --diff and the engine's logs"] = up.output
        seen["/_emulator/state after create"] = emulator_state(emulator_url)
        exported = project.export()
        seen_by_the_engine_only["stack export"] = exported
        revealed = project.run("stack", "export", "--show-secrets", "--stack", project.stack).stdout
        # Not blind: what the state keeps of the secret inputs and outputs is there once shown.
        for name in ("elasticPassword", "keystorePassword", "pasted JWK's d", "crypto private key",
                     "client key", f"connection secret {rotated_connection_key}"):
            assert leaks(revealed, {name: never_in_clear[name]}) == [name], f"{name}: not in the state"
        assert leaks(revealed, {"gateway CA": pems["gateway CA"]}) == ["gateway CA"]

        # The engine keeps each secret input and output encrypted, and the digests beside them in clear.
        recorded = by_name(exported)
        assert SECRET_SIG.items() <= recorded["pasted-key"]["inputs"]["jwk_json"].items()
        assert SECRET_SIG.items() <= recorded["pasted-key"]["outputs"]["jwk_json"].items()
        signing = recorded["reconciliation-signing-key"]["outputs"]
        assert SECRET_SIG.items() <= signing["private_jwk"].items()
        assert signing["public_jwk"]["x"] == generated.ec.x  # the public part, plain
        certificate = recorded["gateway-ca"]
        assert SECRET_SIG.items() <= certificate["inputs"]["pem"].items()
        assert "pem" not in certificate["outputs"]
        assert certificate["outputs"]["sha256"] == certificate_sha256(gateway_ca)
        keystore, crypto_key = recorded["gateway-keystore"], recorded["signing-crypto-key"]
        crypto_digests = {half: hashlib.sha256(base64.b64decode(text)).hexdigest() for half, text in
                          (("public_key", crypto_holder.public_b64()),
                           ("private_key", crypto_holder.private_b64()))}
        for where in ("inputs", "outputs"):
            # A list whose item holds a secret is kept secret whole (the engine recurses into objects
            # only): the digests stand beside it, in clear, for diffs.
            assert SECRET_SIG.items() <= keystore[where]["environments"].items()
            assert SECRET_SIG.items() <= crypto_key[where]["environments"].items()
            assert keystore[where]["sha256"] == {"test": hashlib.sha256(keystore_file).hexdigest()}
            assert crypto_key[where]["sha256"] == {"test": crypto_digests}
            for name, declared in connections.items():
                # Each secret field is a secret alone (a list holding one, whole), the rest in clear.
                kept = recorded[name][where]["settings"]
                assert not SECRET_SIG.items() <= kept.items(), (name, where)
                for path in CONNECTION_TYPES[declared["type"]].secret_fields():
                    assert SECRET_SIG.items() <= kept[path.split(".")[0]].items(), (name, where, path)

        created = demo(emulator_url)
        ids = {item["name"]: item["id"] for item in created["jwks"]}
        assert set(ids) == {"acme-idp", "reconciliation-signing-1", "pasted-key"}
        assert reconciliation_jwk_id(client) == ids["reconciliation-signing-1"]
        assert created["geolocation"]["enabled"] is True
        assert deployment_in_test(client) == (True, False)

        # --- rotate: a new CA and a new signing key reach the policy and the deployment in one up; the ---
        # --- plain certificate's and the keystore's new files, and a connection's new secret, in place ----
        (local / "gateway-ca.pem").write_bytes(renewed_gateway_ca.pem)
        (local / "gateway.p12").write_bytes(rotated_keystore_file)
        project.configure({f"{PREFIX}:keyGeneration": "2"},
                          secrets={f"{PREFIX}:{rotated_connection_key}": ROTATED_CONNECTION_SECRET})
        preview = project.preview("--diff", "--logtostderr", "--logflow", "-v=7")
        seen_by_the_engine_only["preview --diff of the rotation, and the engine's logs"] = preview.output
        for step in ("apinizer:Certificate: (update)", "apinizer:Jwk: (replace)",
                     "apinizer:Keystore: (update)", "apinizer:Connection: (update)",
                     "apinizer:Policy: (update)", "apinizer:ApiProxyDeployment: (update)"):
            assert step in preview.stdout, preview.stdout
        # A new file shows as its sha256; a changed secret as [secret].
        for digest in (certificate_sha256(renewed_gateway_ca),
                       hashlib.sha256(rotated_keystore_file).hexdigest()):
            assert digest in preview.stdout, preview.stdout
        assert "[secret]" in preview.stdout
        rotated = project.up()
        # The two certificates, the keystore, the connection, the reconciliation policy and the
        # deployment updated; the key replaced.
        changes = {verb: count for verb, count in summary(rotated.stdout).items() if verb != "unchanged"}
        assert changes == {"updated": 6, "replaced": 1}, rotated.stdout
        after = demo(emulator_url)
        ids = {item["name"]: item["id"] for item in after["jwks"]}
        assert set(ids) == {"acme-idp", "reconciliation-signing-2", "pasted-key"}, "the old key is deleted"
        assert reconciliation_jwk_id(client) == ids["reconciliation-signing-2"]
        subjects = {item["name"]: [line["subjectDn"] for line in item["certificateEnvironmentList"]]
                    for item in after["certificates"]}
        assert subjects["partners-ca"] == ["CN=Partners CA 2, O=Example Payouts"]
        assert subjects["gateway-ca"] == ["CN=Renewed Gateway CA, O=Example Inc, C=US"]
        (keystore_line,) = client.keystores.get("Demo", "gateway-keystore").key_store_environment_list
        assert keystore_line.file == base64.b64encode(rotated_keystore_file).decode()
        assert deployment_in_test(client) == (True, False), "the proxy runs the policy that names the new key"
        exported = project.export()
        seen_by_the_engine_only["stack export after rotate"] = exported
        (stack,) = [item for item in json.loads(exported)["deployment"]["resources"]
                    if item["type"] == "pulumi:pulumi:Stack"]
        outputs = stack["outputs"]
        assert outputs["signingKeyId"] == ids["reconciliation-signing-2"]
        first_ca_sha256 = recorded["partners-ca"]["outputs"]["sha256"]
        assert outputs["partnersCaSha256"] == by_name(exported)["partners-ca"]["outputs"]["sha256"]
        assert outputs["partnersCaSha256"] != first_ca_sha256
        assert SECRET_SIG.items() <= outputs["clientPrivateKey"].items()
        seen["/_emulator/state after rotate"] = emulator_state(emulator_url)

        # --- drift: changed and deleted behind Pulumi's back; refresh shows it, up repairs it -------------
        logs = client.connections.get("Demo", "payouts-traffic-logs")
        client.connections.update("Demo", logs.model_copy(update={"index_name": "console-edit"}))
        client.certificates.delete("Demo", "partners-ca")
        refreshed = project.refresh("--diff", "--logtostderr", "--logflow", "-v=7")
        seen_by_the_engine_only["refresh --diff and the engine's logs"] = refreshed.output
        drift = summary(refreshed.stdout)
        # Only these two: the list masks every other connection's secrets, which is no drift.
        assert (drift.get("updated"), drift.get("deleted")) == (1, 1), refreshed.stdout
        # Only the connection's password is a secret: the diff shows the field that drifted, in clear.
        steps = [line.strip() for line in refreshed.stdout.splitlines() if "dynamic/apinizer:" in line]
        assert "~ pulumi-python:dynamic/apinizer:Connection: (update)" in steps, steps
        assert '"console-edit"' in refreshed.stdout, refreshed.stdout
        assert "- pulumi-python:dynamic/apinizer:Certificate: (delete)" in steps, steps
        repaired = project.up()
        assert summary(repaired.stdout).get("created") == 1, repaired.stdout
        repaired_state = demo(emulator_url)
        assert [item["indexName"] for item in repaired_state["connections"]
                if item["name"] == "payouts-traffic-logs"] == ["apinizer-payouts"]
        certificates = sorted(item["name"] for item in repaired_state["certificates"])
        assert certificates == ["gateway-ca", "partners-ca"]

        # --- destroy: everything gone, no delete refused ---------------------------------------------------
        destroyed = project.destroy("--skip-preview")
        assert summary(destroyed.stdout) == {"deleted": everything}, destroyed.stdout
        gone = demo(emulator_url)
        kinds = ("jwks", "certificates", "connections", "keystores", "cryptoKeys")
        assert [kind for kind in kinds if gone[kind]] == []
        assert "Payouts" not in {proxy["name"] for proxy in gone["apiProxies"]}
        assert gone["geolocation"]["enabled"] is False
        seen_by_the_engine_only["stack export after destroy"] = project.export()
        seen["/_emulator/state after destroy"] = emulator_state(emulator_url)

    found = {where: leaks(text, never_in_clear) for where, text in seen.items()}
    found.update({where: leaks(text, {**never_in_clear, **pems})
                  for where, text in seen_by_the_engine_only.items()})
    assert {where: names for where, names in found.items() if names} == {}
