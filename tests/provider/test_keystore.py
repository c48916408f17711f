"""Keystore through the dynamic provider server over gRPC, against a live emulator: check, create from a
file or from base64 content, update in place (a new file), replace, refresh with drift, gone, adopt,
lost answers, bad input (a wrong password names the environment), delete, and the secrets kept secret.

https://github.com/apinizer/management-api-docs/blob/main/02-api-reference/08-keys-secrets/crud/create-keystore.md
"""

from __future__ import annotations

import functools
import hashlib
import json
from pathlib import Path
from typing import Any

import grpc
import pytest
from google.protobuf import json_format
from pulumi.runtime import rpc
from pulumi.runtime.proto import provider_pb2

import _emulator_http as emulator_http
from _key_material import b64, issue, jks_file, pkcs12_file
from apinizer_pulumi.client import ApinizerClient
from apinizer_pulumi.resources import KeystoreProvider
from apinizer_pulumi.resources.testing import DIFF_NONE, DIFF_SOME, Engine, ProviderServer

from ._fork_server import ForkedProviderServer
from .conftest import Gateway

PASSWORD = "Keystore-Pa55"
KEYSTORES = "/apiops/projects/{projectName}/keystores/"
CREATE = f"POST {KEYSTORES}"
LIST = f"GET {KEYSTORES}"
UPDATE = f"PUT {KEYSTORES}{{keystoreName}}/"
DELETE = f"DELETE {KEYSTORES}{{keystoreName}}/"


@pytest.fixture(scope="module")
def files(tmp_path_factory: pytest.TempPathFactory) -> dict[str, Path]:
    """A PKCS#12 and a JKS file (each made once: RSA-free EC keys keep them quick)."""
    folder = tmp_path_factory.mktemp("keystores")
    made = {"p12": pkcs12_file(issue("api.example.com"), "api", PASSWORD),
            "p12-rotated": pkcs12_file(issue("api.example.com"), "api", PASSWORD),
            "jks": jks_file(issue("jks.example.com"), "signer", PASSWORD)}
    paths = {}
    for name, content in made.items():
        paths[name] = folder / f"{name}.bin"
        paths[name].write_bytes(content)
    return paths


def sha(path: Path) -> str:
    return hashlib.sha256(path.read_bytes()).hexdigest()


@pytest.fixture
def keystores(server: ProviderServer, emulator_url: str) -> Engine:
    return Engine(server, KeystoreProvider(), "Keystore")


def declared(files: dict[str, Path], **changes: Any) -> dict[str, Any]:
    return {"project_name": "Demo", "name": "signing", "description": "Signing keys",
            "environments": [{"environment_name": "test", "type": "PKCS12", "file": str(files["p12"]),
                              "password": PASSWORD}], **changes}


def stored(gateway: Gateway) -> list[dict[str, Any]]:
    state = emulator_http.get(f"{gateway.url}/_emulator/state").json()
    project = next(p for p in state["projects"] if p["name"] == "Demo")
    return list(project.get("keystores", []))


def fault(gateway: Gateway, **rule: Any) -> None:
    if "status" in rule:
        rule.setdefault("retry_after", 0.01)
    emulator_http.post(f"{gateway.url}/_emulator/faults", json=rule).raise_for_status()


def envs(props: dict[str, Any]) -> list[dict[str, Any]]:
    """The environments of deserialized props: the SDK's deserializer lifts a nested secret to the
    whole list (the engine keeps it where it is: see :func:`raw_secret`)."""
    return list(rpc.unwrap_rpc_secret(props["environments"]))


def plain(outs: dict[str, Any]) -> dict[str, Any]:
    """Outputs as the engine hands them back to a provider that accepts no secrets."""
    return {**outs, "environments": envs(outs)}


def raw_create(engine: Engine, inputs: dict[str, Any]) -> dict[str, Any]:
    """The outputs of a Create exactly as the provider server hands them to the engine."""
    request = provider_pb2.CreateRequest(urn=engine.urn("raw"), properties=engine._props(inputs))
    response = engine.stub.Create(request)
    return dict(json_format.MessageToDict(response.properties))


def raw_secret(value: str) -> dict[str, str]:
    """A secret as the wire marks it (the engine keeps it secret, only it, inside the list)."""
    return {rpc._special_sig_key: rpc._special_secret_sig, "value": value}


def test_check_digests_the_file_and_keeps_the_password_secret(
    keystores: Engine, files: dict[str, Path]
) -> None:
    inputs = keystores.checked(declared(files))
    [entry] = envs(inputs)
    assert entry["sha256"] == sha(files["p12"])
    assert entry["file"] == str(files["p12"])
    assert entry["password"] == PASSWORD
    assert rpc.is_rpc_secret(inputs["environments"])


def test_create_sends_the_file_deploys_it_and_keeps_only_its_digest(
    keystores: Engine, gateway: Gateway, files: dict[str, Path]
) -> None:
    inputs = keystores.checked(declared(files))
    gateway.reset_stats()
    outs = raw_create(keystores, {**inputs, "environments": envs(inputs)})

    [live] = stored(gateway)
    assert live["name"] == "signing" and outs["keystore_id"] == live["id"]
    assert live["keyStoreEnvironmentList"] == [
        {"environmentName": "test", "type": "PKCS12", "aliases": ["api"]}]
    [entry] = outs["environments"]
    assert entry["sha256"] == sha(files["p12"])
    assert outs["sha256"] == {"test": sha(files["p12"])}  # beside the list, for diffs
    # The outputs handed to the engine mark the password secret; the file's bytes are nowhere.
    assert entry["password"] == raw_secret(PASSWORD)
    assert b64(files["p12"].read_bytes()) not in json.dumps(outs)
    assert PASSWORD not in json.dumps(stored(gateway))  # nor in /_emulator/state
    requests = gateway.stats()["requests"]
    assert requests[CREATE] == 1 and requests[LIST] == 1  # the id: one list after the create


def test_content_base64_is_secret_and_digested_like_a_file(
    keystores: Engine, gateway: Gateway, files: dict[str, Path]
) -> None:
    content = b64(files["jks"].read_bytes())
    inputs = keystores.checked(declared(files, environments=[
        {"environment_name": "production", "type": "JKS", "content_base64": rpc.wrap_rpc_secret(content),
         "password": rpc.wrap_rpc_secret(PASSWORD)}]))
    [entry] = envs(inputs)
    assert entry["content_base64"] == content
    assert entry["sha256"] == sha(files["jks"])

    outs = raw_create(keystores, {**inputs, "environments": envs(inputs)})
    assert outs["environments"][0]["content_base64"] == raw_secret(content)
    [live] = stored(gateway)
    assert live["keyStoreEnvironmentList"][0]["aliases"] == ["signer"]


def test_a_new_file_updates_in_place_and_the_diff_shows_its_digest(
    keystores: Engine, gateway: Gateway, files: dict[str, Path]
) -> None:
    id_, outs = keystores.up(declared(files))
    news = keystores.checked(declared(files, environments=[
        {"environment_name": "test", "type": "PKCS12", "file": str(files["p12-rotated"]),
         "password": PASSWORD}]))

    diff = keystores.diff(id_, plain(outs), news)
    assert diff.changes == DIFF_SOME and list(diff.replaces) == []

    gateway.reset_stats()
    after = keystores.update(id_, plain(outs), news)
    assert envs(after)[0]["sha256"] == sha(files["p12-rotated"])
    assert after["keystore_id"] == outs["keystore_id"]
    assert gateway.stats()["requests"] == {UPDATE: 1}
    client_file = ApinizerClient(gateway.url, token="dev-admin-token").keystores.get("Demo", "signing")
    assert client_file.key_store_environment_list[0].file == b64(files["p12-rotated"].read_bytes())


def test_a_moved_file_with_the_same_bytes_is_no_change(
    keystores: Engine, files: dict[str, Path], tmp_path: Path
) -> None:
    id_, outs = keystores.up(declared(files))
    moved = tmp_path / "moved.p12"
    moved.write_bytes(files["p12"].read_bytes())
    news = keystores.checked(declared(files, environments=[
        {"environment_name": "test", "type": "PKCS12", "file": str(moved), "password": PASSWORD}]))
    assert keystores.diff(id_, plain(outs), news).changes == DIFF_NONE


def test_a_new_password_is_a_change_and_a_new_name_replaces(
    keystores: Engine, files: dict[str, Path]
) -> None:
    id_, outs = keystores.up(declared(files))
    news = keystores.checked(declared(files, environments=[
        {"environment_name": "test", "type": "PKCS12", "file": str(files["p12"]), "password": "other"}]))
    assert keystores.diff(id_, plain(outs), news).changes == DIFF_SOME

    renamed = keystores.diff(id_, plain(outs), keystores.checked(declared(files, name="signing-2")))
    assert list(renamed.replaces) == ["name"] and not renamed.deleteBeforeReplace


def test_a_wrong_password_names_the_environment_and_makes_nothing(
    keystores: Engine, gateway: Gateway, files: dict[str, Path]
) -> None:
    wrong = "Wrong-Pa55-word"
    with pytest.raises(grpc.RpcError) as failure:
        keystores.up(declared(files, environments=[
            {"environment_name": "test", "type": "PKCS12", "file": str(files["p12"]), "password": wrong}]))
    message = str(failure.value.details())
    assert "apinizer:Keystore signing in Demo" in message
    assert "environments[0] (environment 'test')" in message and "password is wrong" in message
    assert wrong not in message and PASSWORD not in message
    assert stored(gateway) == []


def test_check_names_each_bad_property_and_no_secret(keystores: Engine, files: dict[str, Path]) -> None:
    failures = keystores.check(declared(files, environments=[
        {"environment_name": "test", "type": "PEM", "file": str(files["p12"]), "password": PASSWORD},
        {"environment_name": "production", "type": "JKS", "file": "/no/such/file.jks", "password": PASSWORD},
        {"environment_name": "staging", "type": "JKS",
         "content_base64": rpc.wrap_rpc_secret("!!not-base64!!"), "password": PASSWORD},
    ])).failures
    assert set(failures) == {"environments.0.type", "environments.1.file", "environments.2.content_base64"}
    assert "cannot be read" in failures["environments.1.file"]
    assert "not base64" in failures["environments.2.content_base64"]
    assert PASSWORD not in json.dumps(failures) and "!!not-base64!!" not in json.dumps(failures)

    twice = keystores.check(declared(files, environments=[
        {"environment_name": "test", "type": "JKS", "file": str(files["jks"])},
        {"environment_name": "test", "type": "JKS", "file": str(files["jks"])}])).failures
    assert list(twice) == ["environments"] and "twice" in twice["environments"]

    both = keystores.check(declared(files, environments=[
        {"environment_name": "test", "type": "JKS", "file": str(files["jks"]),
         "content_base64": "AAAA"}])).failures
    assert list(both) == ["environments.0.file"]


def test_unknown_content_during_preview_is_skipped_and_shows_a_change(
    keystores: Engine, files: dict[str, Path]
) -> None:
    id_, outs = keystores.up(declared(files))
    checked = keystores.check(declared(files, environments=[
        {"environment_name": "test", "type": "PKCS12", "content_base64": rpc.UNKNOWN, "password": PASSWORD}]))
    assert checked.failures == {}
    assert keystores.diff(id_, plain(outs), checked.inputs).changes == DIFF_SOME


def test_refresh_is_in_sync_then_shows_a_file_changed_outside_then_gone(
    keystores: Engine, gateway: Gateway, files: dict[str, Path]
) -> None:
    id_, outs = keystores.up(declared(files))
    _, read_outs, read_inputs = keystores.read(id_, plain(outs))
    assert read_inputs is None
    assert read_outs["keystore_id"] == outs["keystore_id"]

    client = ApinizerClient(gateway.url, token="dev-admin-token")
    client.keystores.update("Demo", {
        "name": "signing", "description": "changed", "key_store_environment_list": [
            {"environment_name": "test", "type": "JKS", "file": b64(files["jks"].read_bytes()),
             "password": PASSWORD}]})
    _, read_outs, read_inputs = keystores.read(id_, plain(outs))
    assert read_inputs is not None
    [entry] = envs(read_inputs)
    assert (entry["type"], entry["sha256"]) == ("JKS", sha(files["jks"]))
    assert read_inputs["description"] == "changed"
    # The recorded password, still secret.
    assert entry["password"] == PASSWORD and rpc.is_rpc_secret(read_inputs["environments"])

    client.keystores.delete("Demo", "signing")
    gone_id, gone_outs, _ = keystores.read(id_, plain(outs))
    assert gone_id == "" and gone_outs == {}


def test_adopt_takes_an_existing_keystore_over_and_without_it_create_fails(
    keystores: Engine, gateway: Gateway, files: dict[str, Path]
) -> None:
    # Named apart: the provider process remembers what it took over (a later delete leaves it, _replace).
    ApinizerClient(gateway.url, token="dev-admin-token").keystores.create("Demo", {
        "name": "adopted", "key_store_environment_list": [
            {"environment_name": "test", "type": "JKS", "file": b64(files["jks"].read_bytes()),
             "password": PASSWORD}]})
    with pytest.raises(grpc.RpcError) as failure:
        keystores.up(declared(files, name="adopted"))
    assert "adopt=True" in str(failure.value.details())

    _, outs = keystores.up(declared(files, name="adopted", adopt=True))
    [live] = stored(gateway)
    assert live["keyStoreEnvironmentList"][0]["type"] == "PKCS12"
    assert outs["keystore_id"] == live["id"]


@pytest.mark.parametrize("lost", [{"drop": True, "after": True}, {"status": 504, "after": True}],
                         ids=["dropped after the create", "504 after the create"])
def test_a_create_whose_answer_was_lost_is_recognised_not_repeated(
    keystores: Engine, gateway: Gateway, files: dict[str, Path], lost: dict[str, Any]
) -> None:
    fault(gateway, method="POST", path="/keystores/", count=1, **lost)
    gateway.reset_stats()
    _, outs = keystores.up(declared(files))
    [live] = stored(gateway)
    assert outs["keystore_id"] == live["id"]
    assert gateway.stats()["requests"][CREATE] == 1, "the create was sent again"


def test_delete_removes_it_and_a_keystore_gone_already_is_deleted(
    keystores: Engine, gateway: Gateway, files: dict[str, Path]
) -> None:
    id_, outs = keystores.up(declared(files))
    keystores.delete(id_, plain(outs))
    assert stored(gateway) == []
    keystores.delete(id_, plain(outs))  # gone already: no failure


def test_a_refresh_of_many_keystores_reads_the_list_once(
    server: ProviderServer, emulator_url: str, gateway: Gateway, files: dict[str, Path]
) -> None:
    created = []
    keystores = Engine(server, KeystoreProvider(), "Keystore")
    for index in range(5):
        created.append(keystores.up(declared(files, name=f"ks-{index}"), name=f"ks-{index}"))
    with ForkedProviderServer({"apinizer:url": emulator_url, "apinizer:token": "dev-admin-token"},
                        env={"APINIZER_SKIP_CONNECTION_CHECK": "1"}) as fresh:
        engine = Engine(fresh, KeystoreProvider(), "Keystore")
        gateway.reset_stats()
        futures = [engine.read_future(id_, plain(outs), name=id_) for id_, outs in created]
        results = [future.result() for future in futures]
    assert all(result.id for result in results)
    assert gateway.stats()["requests"].get(LIST) == 1


@pytest.mark.parametrize("scope", [None, "SAME_PROJECT"])
def test_a_new_file_remakes_the_jwks_made_from_it_only_when_asked(
    keystores: Engine, gateway: Gateway, files: dict[str, Path], scope: str | None
) -> None:
    id_, outs = keystores.up(declared(files, update_referenced_jwks=scope))
    client = ApinizerClient(gateway.url, token="dev-admin-token")
    client.jwks.parse_from_keystore("Demo", {
        "name": "signing-jwk", "key_store_name": "signing", "alias_name": "api", "environment_name": "test",
        "use_type": "SIGNATURE", "algorithm": "ES256"})
    before = client.jwks.get("Demo", "signing-jwk").ec
    news = keystores.checked(declared(files, update_referenced_jwks=scope, environments=[
        {"environment_name": "test", "type": "PKCS12", "file": str(files["p12-rotated"]),
         "password": PASSWORD}]))
    # The option alone is never a change.
    other = keystores.checked(declared(files, update_referenced_jwks="ALL_PROJECTS"))
    assert keystores.diff(id_, plain(outs), other).changes == DIFF_NONE
    keystores.update(id_, plain(outs), news)
    after = client.jwks.get("Demo", "signing-jwk").ec
    assert before is not None and after is not None
    assert (after.x != before.x) == (scope is not None)


def test_a_create_that_never_arrived_is_sent_again_after_looking(
    keystores: Engine, gateway: Gateway, files: dict[str, Path]
) -> None:
    fault(gateway, method="POST", path="/keystores/", count=1, drop=True)
    gateway.reset_stats()
    _, outs = keystores.up(declared(files))
    [live] = stored(gateway)
    assert outs["keystore_id"] == live["id"]
    requests = gateway.stats()["requests"]
    assert requests[CREATE] == 2
    assert requests[f"GET {KEYSTORES}{{keystoreName}}/"] == 1  # the look-up that found nothing


def test_the_program_names_a_file_that_is_not_there(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    import apinizer_pulumi as apinizer
    from apinizer_pulumi.resources._args import InputValueError

    monkeypatch.chdir(tmp_path)
    with pytest.raises(InputValueError, match=r"environments\[0\]\.file 'missing\.p12' cannot be read"):
        apinizer.Keystore("signing", project_name="Demo", name="signing", environments=[
            apinizer.KeystoreEnvironmentArgs(environment_name="test", type="PKCS12", file="missing.p12")])
    with pytest.raises(TypeError, match="did you mean file"):
        apinizer.KeystoreEnvironmentArgs(environment_name="test", type="PKCS12", fil="x.p12")  # type: ignore[call-arg]


def test_a_refresh_under_the_examples_harness_sees_a_change_made_after_the_up(
    tmp_path: Path, emulator_url: str, monkeypatch: pytest.MonkeyPatch, files: dict[str, Path]
) -> None:
    # The harness runs the providers in this process, where a list read by the up (the ids) must not
    # answer the refresh that follows as a new operation: the engine would start a new provider process.
    from examples.harness import refresh, run_program

    (tmp_path / "Pulumi.yaml").write_text("name: keystores\nruntime: python\n")
    (tmp_path / "__main__.py").write_text(
        "import apinizer_pulumi as apinizer\n"
        "apinizer.Keystore('signing', project_name='Demo', name='signing', environments=[\n"
        f"    {{'environment_name': 'test', 'type': 'PKCS12', 'file': {str(files['p12'])!r},\n"
        f"     'password': {PASSWORD!r}}}])\n")
    config = {"apinizer:url": emulator_url, "apinizer:token": "dev-admin-token"}
    monkeypatch.setenv("PULUMI_CONFIG", json.dumps(config))
    run = run_program(tmp_path, config)
    # A password is a secret in the outputs the create recorded and in those the read gives: the same.
    assert refresh(run) == {"signing": "same"}
    ApinizerClient(emulator_url, token="dev-admin-token").keystores.update("Demo", {
        "name": "signing", "key_store_environment_list": [
            {"environment_name": "test", "type": "JKS", "file": b64(files["jks"].read_bytes()),
             "password": PASSWORD}]})
    assert refresh(run) == {"signing": "update"}


@functools.cache
def _inline_file() -> str:
    return b64(pkcs12_file(issue("inline.example.com"), "inline", PASSWORD))


def inline_declaration() -> dict[str, Any]:
    """A keystore whose file is given as base64 content (no file on disk): for tests of every kind."""
    return {"project_name": "Demo", "name": "inline", "environments": [
        {"environment_name": "test", "type": "PKCS12", "content_base64": _inline_file(),
         "password": PASSWORD}]}
