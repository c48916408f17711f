"""examples/secured-api: its helpers (the program-made CA, the setup's files, the local JWKS server) and
its program under Pulumi's mocks, every resource made for real on the emulator.

The lifecycle that only the engine shows (rotate in one ``up``, drift, destroy's order, secrets in the
exported state and the logs) is tests/e2e/test_cli_secured_api.py's.
"""

from __future__ import annotations

import importlib.util
import json
import sys
from collections.abc import Callable, Iterator
from pathlib import Path
from types import ModuleType
from typing import Any

import httpx
import maxminddb
import pytest
from cryptography import x509

from apinizer_pulumi.client import ApinizerClient

from .harness import EXAMPLES, ProgramRun, comparable_state, destroy, stack_config

PROJECT_DIR = EXAMPLES / "secured-api"
PREFIX = "apinizer-secured-api"
SEED = "a-test-seed-of-the-partners-ca"
ELASTIC_PASSWORD = "examples-Elastic-Pa55"


def example_module(name: str) -> ModuleType:
    """One of the example's own modules (pki, prepare, jwks_server), loaded from its file."""
    spec = importlib.util.spec_from_file_location(f"secured_api_{name}", PROJECT_DIR / f"{name}.py")
    assert spec is not None and spec.loader is not None
    module = importlib.util.module_from_spec(spec)
    sys.modules[spec.name] = module  # dataclasses look their module up while the class is made
    spec.loader.exec_module(module)
    return module


pki = example_module("pki")
prepare = example_module("prepare")
jwks_server = example_module("jwks_server")


# --- the helpers ---------------------------------------------------------------------------------------


def test_the_ca_comes_out_the_same_on_every_run_and_signs_the_client_certificate() -> None:
    first, again = pki.certificate_authority(SEED, 1), pki.certificate_authority(SEED, 1)
    assert first == again
    client = pki.client_certificate(SEED, 1, "acme-payouts-client")
    assert client == pki.client_certificate(SEED, 1, "acme-payouts-client")

    ca = x509.load_pem_x509_certificate(first.certificate_pem.encode())
    issued = x509.load_pem_x509_certificate(client.certificate_pem.encode())
    issued.verify_directly_issued_by(ca)
    assert ca.extensions.get_extension_for_class(x509.BasicConstraints).value.ca is True
    assert ca.subject.rfc4514_string() == "CN=Partners CA 1,O=Example Payouts"


def test_a_new_generation_or_seed_is_a_new_ca() -> None:
    first = pki.certificate_authority(SEED, 1)
    assert pki.certificate_authority(SEED, 2).certificate_pem != first.certificate_pem
    assert pki.certificate_authority(SEED + "-other", 1).private_key_pem != first.private_key_pem
    rotated = x509.load_pem_x509_certificate(pki.client_certificate(SEED, 2, "acme").certificate_pem.encode())
    with pytest.raises((ValueError, TypeError)):  # signed by generation 2's CA, not generation 1's
        rotated.verify_directly_issued_by(x509.load_pem_x509_certificate(first.certificate_pem.encode()))


def test_prepare_writes_the_test_files_once(tmp_path: Path) -> None:
    local = tmp_path / "local"
    prepare.prepare(local)
    database = maxminddb.open_database(str(local / "GeoLite2-Country.mmdb"))
    assert database.get("203.0.113.7") == {"country": {"iso_code": "TR"}}
    assert database.metadata().database_type == "GeoLite2-Country"
    (key,) = json.loads((local / "jwks.json").read_text())["keys"]
    assert (key["kty"], key["crv"], key["kid"]) == ("EC", "P-256", "acme-2026")
    assert "d" not in key, "the partner publishes its public key only"

    files = {path.name: path.read_bytes() for path in local.iterdir()}
    prepare.prepare(local)
    assert {path.name: path.read_bytes() for path in local.iterdir()} == files


@pytest.fixture
def local_files(tmp_path: Path) -> Path:
    local = tmp_path / "local"
    prepare.prepare(local)
    return local


@pytest.fixture
def served_jwks(local_files: Path) -> Iterator[str]:
    with jwks_server.JwksServer(local_files / "jwks.json") as server:
        yield server.url


def test_the_jwks_server_serves_the_key_set_and_nothing_else(served_jwks: str, local_files: Path) -> None:
    assert httpx.get(served_jwks).json() == json.loads((local_files / "jwks.json").read_text())
    assert httpx.get(served_jwks.replace("jwks.json", "other")).status_code == 404
    assert served_jwks.startswith("http://127.0.0.1:")


# --- the program ---------------------------------------------------------------------------------------


@pytest.fixture
def run_example(
    program_runner: Callable[..., ProgramRun], emulator_url: str, admin_token: str, local_files: Path,
    served_jwks: str, monkeypatch: pytest.MonkeyPatch,
) -> Callable[..., ProgramRun]:
    """Runs the program as the CLI would: its folder on ``sys.path`` (``import pki``), the stack's
    secrets as secret config, the test's gateway, MMDB file and JWKS URL."""
    monkeypatch.syspath_prepend(str(PROJECT_DIR))
    config = stack_config(PROJECT_DIR, "dev")
    config.update({
        "apinizer:url": emulator_url, "apinizer:token": admin_token,
        f"{PREFIX}:caKeySeed": SEED, f"{PREFIX}:elasticPassword": ELASTIC_PASSWORD,
        f"{PREFIX}:jwksUrl": served_jwks, f"{PREFIX}:mmdbFile": str(local_files / "GeoLite2-Country.mmdb"),
    })
    secret_keys = ["apinizer:token", f"{PREFIX}:caKeySeed", f"{PREFIX}:elasticPassword"]

    def run(**kwargs: Any) -> ProgramRun:
        return program_runner(PROJECT_DIR, config, secret_keys=secret_keys, **kwargs)

    return run


def demo(state: dict[str, Any]) -> dict[str, Any]:
    (project,) = [item for item in state["projects"] if item["name"] == "Demo"]
    return dict(project)


def test_the_program_makes_the_secured_api_and_an_up_again_changes_nothing(
    run_example: Callable[..., ProgramRun], client: ApinizerClient, inspect: Callable[[str], Any]
) -> None:
    initial = inspect("state")
    run = run_example()

    project = demo(inspect("state"))
    (certificate,) = project["certificates"]
    (line,) = certificate["certificateEnvironmentList"]
    assert (certificate["name"], line["environmentName"], line["subjectDn"]) == (
        "partners-ca", "test", "CN=Partners CA 1, O=Example Payouts")
    jwks = {item["name"]: item for item in project["jwks"]}
    assert set(jwks) == {"acme-idp", "reconciliation-signing-1"}
    assert (jwks["acme-idp"]["sourceType"], jwks["acme-idp"]["kid"]) == ("URL", "acme-2026")
    assert (jwks["reconciliation-signing-1"]["sourceType"], jwks["reconciliation-signing-1"]["kid"]) == (
        "GENERATE", "reconciliation-1")
    (connection,) = project["connections"]
    assert (connection["type"], connection["name"], connection["elasticUsername"]) == (
        "elasticsearch", "payouts-traffic-logs", "apinizer")
    assert inspect("state")["geolocation"]["enabled"] is True

    # Each token policy names its key by the id the gateway gave it.
    policies = client.policies.list("Demo", "Payouts")
    named = {
        entry.name: entry.model_dump(by_alias=True).get("jwkIdForValidationAndSign")
        for endpoint in policies.endpoint_list or [] for entry in endpoint.request_policy_list or []
    }
    assert named == {
        "partner-token-post": jwks["acme-idp"]["id"], "partner-token-get": jwks["acme-idp"]["id"],
        "reconciliation-token": jwks["reconciliation-signing-1"]["id"],
    }
    proxy = client.api_proxies.get("Demo", "Payouts")
    assert {(item.environment_name, item.deployed, item.redeploy_required)
            for item in proxy.deployment_list if item.deployed} == {("test", True, False)}
    assert run.outputs["deployed"] is True
    assert run.outputs["signingKeyId"] == jwks["reconciliation-signing-1"]["id"]
    issued = x509.load_pem_x509_certificate(run.outputs["clientCertificate"].encode())
    assert issued.issuer.rfc4514_string() == "CN=Partners CA 1,O=Example Payouts"

    # The CA and the client certificate come out the same: nothing to do the second time.
    again = run_example(previous=run)
    assert again.mocks.steps() == {"create": 0, "same": len(run.mocks.registrations), "update": 0}

    destroy(run)
    assert comparable_state(inspect("state"))["projects"] == comparable_state(initial)["projects"]


def test_secrets_reach_the_engine_marked_secret(run_example: Callable[..., ProgramRun]) -> None:
    plan = run_example(preview=True)

    by_name = {item.name: item for item in plan.mocks.registrations}

    def secret(resource: str, path: str) -> bool:
        """Whether ``path`` reached the engine inside a secret (itself, or a block holding it)."""
        return any(path == marked or path.startswith(f"{marked}.") for marked in by_name[resource].secrets)

    assert secret("traffic-logs", "settings.elastic_password")
