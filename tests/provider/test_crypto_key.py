"""CryptoKey through the dynamic provider server over gRPC, against a live emulator: check, create from key
files or from text, update in place (a new key, a new type), replace, refresh with drift, gone, adopt,
lost answers, bad input (a key of another type names the environment), delete, and the private key kept
secret.

https://github.com/apinizer/management-api-docs/blob/main/02-api-reference/08-keys-secrets/crud/create-key.md
"""

from __future__ import annotations

import base64
import functools
import hashlib
import json
from pathlib import Path
from typing import Any

import grpc
import pytest
from cryptography.hazmat.primitives import serialization
from pulumi.runtime import rpc

import _emulator_http as emulator_http
from _key_material import ec_key, rsa_key
from apinizer_pulumi.client import ApinizerClient
from apinizer_pulumi.resources import CryptoKeyProvider
from apinizer_pulumi.resources.testing import DIFF_NONE, DIFF_SOME, Engine, ProviderServer

from ._fork_server import ForkedProviderServer
from .conftest import Gateway
from .test_keystore import envs, fault, plain, raw_create, raw_secret

KEYS = "/apiops/projects/{projectName}/keys/"
CREATE = f"POST {KEYS}"
LIST = f"GET {KEYS}"
UPDATE = f"PUT {KEYS}{{keyName}}/"


def private_pem(key: Any) -> bytes:
    return bytes(key.private_bytes(serialization.Encoding.PEM, serialization.PrivateFormat.PKCS8,
                                   serialization.NoEncryption()))


def public_der(key: Any) -> bytes:
    return bytes(key.public_key().public_bytes(serialization.Encoding.DER,
                                               serialization.PublicFormat.SubjectPublicKeyInfo))


@pytest.fixture(scope="module")
def files(tmp_path_factory: pytest.TempPathFactory) -> dict[str, Path]:
    """An EC key pair (the private key in PEM, the public one in DER), another EC key and an RSA key."""
    folder = tmp_path_factory.mktemp("keys")
    first, second, rsa = ec_key(), ec_key(), rsa_key(1024)
    made = {"private.pem": private_pem(first), "public.der": public_der(first),
            "rotated.pem": private_pem(second), "rsa.pem": private_pem(rsa)}
    for name, content in made.items():
        (folder / name).write_bytes(content)
    return {name: folder / name for name in made}


def sha(path: Path) -> str:
    return hashlib.sha256(path.read_bytes()).hexdigest()


@pytest.fixture
def keys(server: ProviderServer, emulator_url: str) -> Engine:
    return Engine(server, CryptoKeyProvider(), "CryptoKey")


def declared(files: dict[str, Path], **changes: Any) -> dict[str, Any]:
    return {"project_name": "Demo", "name": "payload", "key_type": "EC",
            "environments": [{"environment_name": "test", "public_key_file": str(files["public.der"]),
                              "private_key_file": str(files["private.pem"])}], **changes}


def stored(gateway: Gateway) -> list[dict[str, Any]]:
    state = emulator_http.get(f"{gateway.url}/_emulator/state").json()
    project = next(p for p in state["projects"] if p["name"] == "Demo")
    return list(project["cryptoKeys"])


def live_key(gateway: Gateway, name: str = "payload") -> Any:
    return ApinizerClient(gateway.url, token="dev-admin-token").crypto_keys.find("Demo", name)


def test_create_from_files_sends_pem_and_der_and_keeps_only_digests(
    keys: Engine, gateway: Gateway, files: dict[str, Path]
) -> None:
    inputs = keys.checked(declared(files))
    [entry] = envs(inputs)
    assert entry["public_key_sha256"] == sha(files["public.der"])
    assert entry["private_key_sha256"] == sha(files["private.pem"])
    gateway.reset_stats()
    outs = raw_create(keys, {**inputs, "environments": envs(inputs)})

    live = live_key(gateway)
    assert outs["crypto_key_id"] == live.id and outs["key_type"] == "EC"
    assert outs["sha256"] == {"test": {"public_key": sha(files["public.der"]),
                                       "private_key": sha(files["private.pem"])}}
    [item] = live.crypto_key_info_environment_list
    assert item.private_key == files["private.pem"].read_text()
    assert item.public_key is not None
    assert hashlib.sha256(base64.b64decode(item.public_key)).hexdigest() == sha(files["public.der"])
    assert files["private.pem"].read_text() not in json.dumps(outs)
    assert gateway.stats()["requests"][CREATE] == 1


def test_an_inline_private_key_is_a_secret_output_and_never_in_a_failure(
    keys: Engine, gateway: Gateway, files: dict[str, Path]
) -> None:
    text = files["private.pem"].read_text()
    inputs = keys.checked(declared(files, environments=[
        {"environment_name": "test", "private_key": rpc.wrap_rpc_secret(text)}]))
    assert rpc.is_rpc_secret(inputs["environments"])
    assert envs(inputs)[0]["private_key_sha256"] == sha(files["private.pem"])
    outs = raw_create(keys, {**inputs, "environments": envs(inputs)})
    assert outs["environments"][0]["private_key"] == raw_secret(text)
    [shown] = stored(gateway)  # /_emulator/state: the key, its private half masked
    assert shown["name"] == "payload" and text not in json.dumps(shown)

    # The gateway refuses an RSA key under key_type EC: the message names the environment, not the key.
    rsa = files["rsa.pem"].read_text()
    with pytest.raises(grpc.RpcError) as failure:
        keys.up(declared(files, name="wrong-type", environments=[
            {"environment_name": "production", "private_key": rpc.wrap_rpc_secret(rsa)}]))
    message = str(failure.value.details())
    assert "environments[0] (environment 'production')" in message and "keyType (EC)" in message
    assert rsa not in message and "BEGIN" not in message
    assert live_key(gateway, "wrong-type") is None


def test_check_names_each_bad_property(keys: Engine, files: dict[str, Path]) -> None:
    failures = keys.check(declared(files, key_type="DSA", environments=[
        {"environment_name": "test"},
        {"environment_name": "production", "private_key": rpc.wrap_rpc_secret("%%%"),
         "private_key_file": str(files["private.pem"])},
        {"environment_name": "staging", "public_key_file": "/no/such/key.pem"},
        {"environment_name": "dev", "private_key": rpc.wrap_rpc_secret("%% not a key %%")},
    ])).failures
    assert set(failures) == {"key_type", "environments.0", "environments.1.private_key_file",
                             "environments.1.private_key", "environments.2.public_key_file",
                             "environments.3.private_key"}
    assert "neither PEM nor base64" in failures["environments.3.private_key"]
    assert "%% not a key %%" not in json.dumps(failures) and "%%%" not in json.dumps(failures)


def test_a_new_key_file_and_a_new_type_update_in_place(
    keys: Engine, gateway: Gateway, files: dict[str, Path]
) -> None:
    id_, outs = keys.up(declared(files))
    rotated = keys.checked(declared(files, environments=[
        {"environment_name": "test", "private_key_file": str(files["rotated.pem"])}]))
    diff = keys.diff(id_, plain(outs), rotated)
    assert diff.changes == DIFF_SOME and list(diff.replaces) == []
    gateway.reset_stats()
    after = keys.update(id_, plain(outs), rotated)
    assert gateway.stats()["requests"] == {UPDATE: 1}
    assert envs(after)[0]["private_key_sha256"] == sha(files["rotated.pem"])
    assert after["crypto_key_id"] == outs["crypto_key_id"]

    retyped = keys.checked(declared(files, key_type="RSA", environments=[
        {"environment_name": "test", "private_key_file": str(files["rsa.pem"])}]))
    assert list(keys.diff(id_, plain(after), retyped).replaces) == []
    keys.update(id_, plain(after), retyped)
    assert str(live_key(gateway).key_type) == "RSA"

    renamed = keys.diff(id_, plain(outs), keys.checked(declared(files, name="payload-2")))
    assert list(renamed.replaces) == ["name"]


def test_the_same_key_from_text_or_from_its_file_is_no_change(keys: Engine, files: dict[str, Path]) -> None:
    id_, outs = keys.up(declared(files))
    as_text = keys.checked(declared(files, environments=[
        {"environment_name": "test",
         "public_key": base64.b64encode(files["public.der"].read_bytes()).decode(),
         "private_key": rpc.wrap_rpc_secret(files["private.pem"].read_text())}]))
    assert keys.diff(id_, plain(outs), as_text).changes == DIFF_NONE


def test_refresh_is_in_sync_then_shows_a_key_changed_outside_then_gone(
    keys: Engine, gateway: Gateway, files: dict[str, Path]
) -> None:
    id_, outs = keys.up(declared(files))
    _, read_outs, read_inputs = keys.read(id_, plain(outs))
    assert read_inputs is None and read_outs["crypto_key_id"] == outs["crypto_key_id"]

    client = ApinizerClient(gateway.url, token="dev-admin-token")
    client.crypto_keys.update("Demo", {
        "name": "payload", "key_type": "EC", "crypto_key_info_environment_list": [
            {"environment_name": "test", "private_key": files["rotated.pem"].read_text()}]})
    _, _, read_inputs = keys.read(id_, plain(outs))
    assert read_inputs is not None
    [entry] = envs(read_inputs)
    assert entry["private_key_sha256"] == sha(files["rotated.pem"])
    assert "public_key_sha256" not in entry

    client.crypto_keys.delete("Demo", "payload")
    gone_id, gone_outs, _ = keys.read(id_, plain(outs))
    assert gone_id == "" and gone_outs == {}


def test_adopt_takes_an_existing_key_over_and_without_it_create_fails(
    keys: Engine, gateway: Gateway, files: dict[str, Path]
) -> None:
    ApinizerClient(gateway.url, token="dev-admin-token").crypto_keys.create("Demo", {
        "name": "adopted", "key_type": "EC", "crypto_key_info_environment_list": [
            {"environment_name": "test", "private_key": files["rotated.pem"].read_text()}]})
    with pytest.raises(grpc.RpcError) as failure:
        keys.up(declared(files, name="adopted"))
    assert "adopt=True" in str(failure.value.details())

    _, outs = keys.up(declared(files, name="adopted", adopt=True))
    [item] = live_key(gateway, "adopted").crypto_key_info_environment_list
    assert item.private_key == files["private.pem"].read_text()
    assert outs["crypto_key_id"] == live_key(gateway, "adopted").id


def test_a_create_whose_answer_was_lost_is_recognised_not_repeated(
    keys: Engine, gateway: Gateway, files: dict[str, Path]
) -> None:
    fault(gateway, method="POST", path="/keys/", count=1, drop=True, after=True)
    gateway.reset_stats()
    _, outs = keys.up(declared(files))
    assert outs["crypto_key_id"] == live_key(gateway).id
    assert gateway.stats()["requests"][CREATE] == 1, "the create was sent again"


def test_delete_removes_it_and_a_key_gone_already_is_deleted(
    keys: Engine, gateway: Gateway, files: dict[str, Path]
) -> None:
    id_, outs = keys.up(declared(files))
    keys.delete(id_, plain(outs))
    assert live_key(gateway) is None
    keys.delete(id_, plain(outs))


def test_a_refresh_of_many_keys_reads_the_list_once(
    server: ProviderServer, emulator_url: str, gateway: Gateway, files: dict[str, Path]
) -> None:
    engine = Engine(server, CryptoKeyProvider(), "CryptoKey")
    created = [engine.up(declared(files, name=f"key-{index}"), name=f"key-{index}") for index in range(5)]
    with ForkedProviderServer({"apinizer:url": emulator_url, "apinizer:token": "dev-admin-token"},
                        env={"APINIZER_SKIP_CONNECTION_CHECK": "1"}) as fresh:
        reader = Engine(fresh, CryptoKeyProvider(), "CryptoKey")
        gateway.reset_stats()
        results = [future.result() for future in
                   [reader.read_future(id_, plain(outs), name=id_) for id_, outs in created]]
    assert all(result.id for result in results)
    assert gateway.stats()["requests"].get(LIST) == 1


def test_an_update_the_gateway_refuses_names_the_environment_and_changes_nothing(
    keys: Engine, gateway: Gateway, files: dict[str, Path]
) -> None:
    id_, outs = keys.up(declared(files))
    before = live_key(gateway)
    news = keys.checked(declared(files, environments=[
        {"environment_name": "test", "private_key_file": str(files["private.pem"])},
        {"environment_name": "production", "private_key_file": str(files["rsa.pem"])}]))
    with pytest.raises(grpc.RpcError) as failure:
        keys.update(id_, plain(outs), news)
    message = str(failure.value.details())
    where = "environments[1] (environment 'production')"
    assert message.startswith(f"apinizer:CryptoKey payload in Demo: {where}")
    assert "BEGIN" not in message
    assert live_key(gateway) == before


@functools.cache
def _inline_key() -> str:
    return private_pem(ec_key()).decode()


def inline_declaration() -> dict[str, Any]:
    """A key given as text (no file on disk): for tests of every kind."""
    return {"project_name": "Demo", "name": "inline", "key_type": "EC",
            "environments": [{"environment_name": "test", "private_key": _inline_key()}]}
