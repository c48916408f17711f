"""Jwk through the dynamic provider server over gRPC, against a live emulator: every source (URL, pasted
JWK, generated, certificate, crypto key, keystore alias), check and diff offline, the description in
place, replaces, refresh with drift and gone, adoption, lost answers, delete, and the secrets kept secret.

https://github.com/apinizer/management-api-docs/blob/main/02-api-reference/08-keys-secrets/crud/create-jwk.md
"""

from __future__ import annotations

import json
from collections.abc import Iterator
from datetime import UTC, datetime
from typing import Any

import grpc
import pytest
from pulumi.runtime import rpc

import _emulator_http as emulator_http
import _key_material as km
from _spec_server import Served, SpecServer, spec_server
from apinizer_emulator import key_material
from apinizer_pulumi.client import ApinizerClient
from apinizer_pulumi.resources import JwkProvider
from apinizer_pulumi.resources.testing import DIFF_NONE, DIFF_SOME, Engine, ProviderServer

from ._fork_server import ForkedProviderServer
from .conftest import Gateway

JWKS = "/apiops/projects/{projectName}/jwks/"
GENERATE = f"POST {JWKS}generate"
CREATE = f"POST {JWKS}"
LIST = f"GET {JWKS}"
GET = f"GET {JWKS}{{jwkName}}/"
UPDATE = f"PUT {JWKS}{{jwkName}}/"
DELETE = f"DELETE {JWKS}{{jwkName}}/"
SIGNING: dict[str, Any] = {
    "project_name": "Demo", "name": "signing", "description": "JWT signing",
    "generate": {"type": "EC", "kid": "sig-1", "algorithm": "ES256", "ec": {"curve_type": "P256"}},
}
NOW = datetime(2026, 1, 1, tzinfo=UTC)


@pytest.fixture
def jwks(server: ProviderServer, emulator_url: str) -> Engine:
    return Engine(server, JwkProvider(), "Jwk")


@pytest.fixture(scope="module")
def private_set() -> dict[str, Any]:
    """A JWK Set of two private keys (EC ``one``, OKP ``two``), as a user pastes it."""
    return {"keys": [key_material.generate_jwk("EC", {"curveType": "P256"}, "one", NOW),
                     key_material.generate_jwk("OKP", {"curveType": "ED25519"}, "two", NOW)]}


@pytest.fixture(scope="module")
def served(private_set: dict[str, Any]) -> Iterator[SpecServer]:
    public = {"keys": [key_material.public_jwk(key) for key in private_set["keys"]]}
    with spec_server() as server:
        server.files["/jwks.json"] = Served(json.dumps(public).encode(), content_type="application/json")
        yield server


@pytest.fixture(scope="module")
def issued() -> km.Issued:
    return km.issue("signer.example.com", key=km.rsa_key())


def fault(gateway: Gateway, **rule: Any) -> None:
    if "status" in rule:
        rule.setdefault("retry_after", 0.01)
    emulator_http.post(f"{gateway.url}/_emulator/faults", json=rule).raise_for_status()


def requests(gateway: Gateway) -> dict[str, int]:
    counted: dict[str, int] = gateway.stats()["requests"]
    return counted


def plain(outs: dict[str, Any]) -> dict[str, Any]:
    return {key: rpc.unwrap_rpc_secret(value) for key, value in outs.items()}


def last_line(failure: pytest.ExceptionInfo[grpc.RpcError]) -> str:
    return str(failure.value.details()).strip().splitlines()[-1]


# -- create, from every source --------------------------------------------------------------------


def test_a_generated_key_is_made_once_and_read_back_with_its_public_part_plain(
        jwks: Engine, client: ApinizerClient, gateway: Gateway) -> None:
    id_, outs = jwks.up(SIGNING)

    counted = requests(gateway)
    assert (counted[GENERATE], counted[GET]) == (1, 1)
    [live] = client.jwks.list("Demo")
    assert id_ == "Demo/signing"
    computed = (outs["jwk_id"], outs["kid"], outs["key_type"], outs["source_type"])
    assert computed == (live.id, "sig-1", "EC", "GENERATE")
    full = client.jwks.get("Demo", "signing")
    assert full.ec is not None
    public = {"kty": "EC", "kid": "sig-1", "crv": full.ec.crv, "x": full.ec.x, "y": full.ec.y}
    assert outs["public_jwk"] == public
    # The private member only as a secret, in the raw outputs handed to the engine.
    assert rpc.is_rpc_secret(outs["private_jwk"])
    assert rpc.unwrap_rpc_secret(outs["private_jwk"])["d"] == full.ec.d
    assert full.ec.d not in json.dumps({key: value for key, value in outs.items() if key != "private_jwk"})


@pytest.mark.parametrize(("generate", "public_members"), [
    ({"type": "RSA", "rsa": {"key_size": 2048}}, {"kty", "n", "e"}),
    ({"type": "OKP", "use": "ENCRYPTION", "algorithm": "ECDH-ES", "okp": {"curve_type": "X25519"}},
     {"kty", "crv", "x"}),
    ({"type": "OKP", "okp": {"curve_type": "X25519"}}, {"kty", "crv", "x"}),  # the generate page's Example 7
    ({"type": "OCT", "algorithm": "HS256", "oct": {"key_size": 256}}, None),
], ids=["RSA", "OKP", "X25519 without a use", "OCT"])
def test_each_generated_type(jwks: Engine, generate: dict[str, Any], public_members: set[str] | None) -> None:
    _, outs = jwks.up({"project_name": "Demo", "name": "k", "generate": generate})

    assert outs["key_type"] == generate["type"]
    private = rpc.unwrap_rpc_secret(outs["private_jwk"])
    if public_members is None:  # a symmetric key has no public part: all of it is secret
        assert "public_jwk" not in outs and set(private) >= {"kty", "k"}
    else:
        assert set(outs["public_jwk"]) - {"kid"} == public_members and "d" in private


def test_from_a_url_a_key_of_its_set(jwks: Engine, served: SpecServer, private_set: dict[str, Any]) -> None:
    url = served.url("/jwks.json")
    _, outs = jwks.up({"project_name": "Demo", "name": "partner", "url": url, "kid": "two",
                       "url_read_timeout": 2000})

    public = key_material.public_jwk(private_set["keys"][1])
    assert (outs["source_type"], outs["key_type"], outs["kid"]) == ("URL", "OKP", "two")
    assert outs["public_jwk"] == {"kty": "OKP", "kid": "two", "crv": public["crv"], "x": public["x"]}
    assert "private_jwk" not in outs  # a URL serves no private member


def test_from_a_pasted_jwk_kept_secret(jwks: Engine, private_set: dict[str, Any]) -> None:
    text = json.dumps(private_set)
    inputs = jwks.checked({"project_name": "Demo", "name": "pasted", "jwk_json": rpc.wrap_rpc_secret(text),
                           "kid": "one"})
    assert rpc.is_rpc_secret(inputs["jwk_json"])

    _, outs = jwks.create(inputs)

    assert rpc.is_rpc_secret(outs["jwk_json"]) and rpc.is_rpc_secret(outs["private_jwk"])
    assert rpc.unwrap_rpc_secret(outs["private_jwk"])["d"] == private_set["keys"][0]["d"]
    assert private_set["keys"][0]["d"] not in json.dumps({k: v for k, v in outs.items()
                                                          if k not in ("jwk_json", "private_jwk")})
    assert outs["source_type"] == "COPY_PASTE"


def test_from_a_certificate_a_key_and_a_keystore_of_the_project(
        jwks: Engine, client: ApinizerClient, issued: km.Issued) -> None:
    client.certificates.create("Demo", {
        "certificate_name": "signer", "alias": "signer", "certificate_description": "d",
        "environment_list": ["production"], "pem_encoded_file": issued.pem})
    client.crypto_keys.create("Demo", {
        "name": "signer-key", "key_type": "RSA", "crypto_key_info_environment_list": [{
            "environment_name": "production", "public_key": issued.public_b64(),
            "private_key": issued.private_b64()}]})
    client.keystores.create("Demo", {"name": "store", "key_store_environment_list": [{
        "environment_name": "production", "type": "PKCS12",
        "file": km.b64(km.pkcs12_file(issued, "signer", "pw")), "password": "pw"}]})
    use = {"project_name": "Demo", "environment_name": "production", "use_type": "SIGNATURE",
           "algorithm": "RS256"}

    _, from_certificate = jwks.up({**use, "name": "c", "certificate_name": "signer"}, name="c")
    _, from_public = jwks.up({**use, "name": "pub", "key_name": "signer-key"}, name="pub")
    _, from_private = jwks.up({**use, "name": "priv", "key_name": "signer-key", "use_private_key": True},
                              name="priv")
    _, from_keystore = jwks.up({**use, "name": "ks", "keystore_name": "store", "alias_name": "signer"},
                               name="ks")

    assert [o["source_type"] for o in (from_certificate, from_public, from_private, from_keystore)] == [
        "CERTIFICATE", "PUBLIC_KEY", "PRIVATE_KEY", "KEYSTORE"]
    modulus = from_certificate["public_jwk"]["n"]
    assert all(o["public_jwk"]["n"] == modulus for o in (from_public, from_private, from_keystore))
    assert "private_jwk" not in from_certificate and "private_jwk" not in from_public
    assert "d" in rpc.unwrap_rpc_secret(from_private["private_jwk"])


# -- check and diff, offline ----------------------------------------------------------------------


def test_check_names_each_bad_input_and_quotes_no_secret(jwks: Engine, gateway: Gateway) -> None:
    pasted = json.dumps({"kty": "oct", "k": "c2VjcmV0LXZhbHVlLW5ldmVyLXNob3du"})
    cases: list[tuple[dict[str, Any], dict[str, str]]] = [
        ({}, {"": "give exactly one source"}),
        ({"url": "https://keys.example.com/jwks.json", "jwk_json": rpc.wrap_rpc_secret(pasted)},
         {"jwk_json": "conflicts with url"}),
        ({"generate": {"type": "RSA", "rsa": {"key_size": 1024}}},
         {"generate.rsa.key_size": "2048, 3072 or 4096"}),
        ({"generate": {"type": "EC", "algorithm": "ES384", "ec": {"curve_type": "P256"}}},
         {"generate.ec.curve_type": "must be P384"}),
        ({"generate": {"type": "OKP"}}, {"generate.okp": "is required when type is OKP"}),
        ({"generate": {"type": "OKP", "use": "SIGNATURE", "okp": {"curve_type": "X25519"}}},
         {"generate.okp.curve_type": "must be ED25519 for SIGNATURE"}),
        ({"certificate_name": "c"}, {"environment_name": "is required", "use_type": "is required",
                                     "algorithm": "is required"}),
        ({"key_name": "k", "environment_name": "production", "use_type": "SIGNATURE", "algorithm": "RSA"},
         {"algorithm": "is a key type, not an algorithm"}),
        ({"url": "https://keys.example.com/jwks.json", "alias_name": "a"},
         {"alias_name": "is not taken with url"}),
        ({"jwk_json": rpc.wrap_rpc_secret(pasted[:-1])}, {"jwk_json": "is not JSON"}),
        ({"url": "ftp://keys.example.com/jwks.json"}, {"url": "is not an http(s) URL"}),
    ]
    for given, expected in cases:
        failures = jwks.check({"project_name": "Demo", "name": "k", **given}).failures
        assert set(failures) == set(expected), (given, failures)
        for prop, words in expected.items():
            assert words in failures[prop], (given, failures)
        assert "c2VjcmV0" not in json.dumps(failures)
    assert requests(gateway) == {}


def test_check_skips_values_unknown_during_preview(jwks: Engine) -> None:
    unknown = {"project_name": "Demo", "name": "k", "certificate_name": rpc.UNKNOWN,
               "environment_name": "production", "use_type": "SIGNATURE", "algorithm": "RS256"}
    assert jwks.check(unknown).failures == {}


def test_diff_the_same_inputs_never_make_another_key(jwks: Engine) -> None:
    id_, outs = jwks.up(SIGNING)
    assert jwks.diff(id_, outs, jwks.checked(SIGNING)).changes == DIFF_NONE
    # The algorithm in either page's spelling is the same declaration.
    rsa = {"project_name": "Demo", "name": "rsa", "generate": {"type": "RSA", "algorithm": "RS256",
                                                                "rsa": {"key_size": 2048}}}
    rsa_as_generate_spells_it = {**rsa, "generate": {**rsa["generate"], "algorithm": "RSA256"}}
    assert jwks.checked(rsa) == jwks.checked(rsa_as_generate_spells_it)
    # use_private_key=False is its default: the same declaration as none.
    key = {"project_name": "Demo", "name": "k", "key_name": "signer-key", "environment_name": "production",
           "use_type": "SIGNATURE", "algorithm": "RS256"}
    assert jwks.checked({**key, "use_private_key": False}) == jwks.checked(key)


def test_diff_a_changed_source_replaces_deleting_first_a_new_name_creating_first(jwks: Engine) -> None:
    id_, outs = jwks.up(SIGNING)

    rotated = jwks.diff(id_, outs, jwks.checked({**SIGNING, "generate": {**SIGNING["generate"], "kid": "2"}}))
    assert (rotated.changes, list(rotated.replaces)) == (DIFF_SOME, ["generate"])
    assert rotated.deleteBeforeReplace
    renamed = jwks.diff(id_, outs, jwks.checked({**SIGNING, "name": "signing-2"}))
    assert (list(renamed.replaces), renamed.deleteBeforeReplace) == (["name"], False)
    described = jwks.diff(id_, outs, jwks.checked({**SIGNING, "description": "new"}))
    assert (described.changes, list(described.replaces)) == (DIFF_SOME, [])


def test_a_urls_fetch_bounds_change_in_place_and_write_nothing(
        jwks: Engine, served: SpecServer, gateway: Gateway) -> None:
    declared = {"project_name": "Demo", "name": "partner", "url": served.url("/jwks.json"), "kid": "one"}
    id_, outs = jwks.up(declared)
    news = jwks.checked({**declared, "url_read_timeout": 3000})
    bounded = jwks.diff(id_, outs, news)
    assert (bounded.changes, list(bounded.replaces)) == (DIFF_SOME, [])
    gateway.reset_stats()

    updated = jwks.update(id_, outs, news)

    assert updated["url_read_timeout"] == 3000 and updated["jwk_id"] == outs["jwk_id"]
    assert requests(gateway) == {}
    # Another key of the set, or none named (the recorded kid is the live key's), are as they say.
    assert list(jwks.diff(id_, outs, jwks.checked({**declared, "kid": "two"})).replaces) == ["kid"]
    assert jwks.diff(id_, outs, jwks.checked({**declared, "kid": None})).changes == DIFF_NONE


# -- update, replace, delete ----------------------------------------------------------------------


def test_a_description_changes_in_place_and_the_key_stays(
        jwks: Engine, client: ApinizerClient, gateway: Gateway) -> None:
    id_, outs = jwks.up(SIGNING)
    gateway.reset_stats()

    news = jwks.checked({**SIGNING, "description": "rotated monthly"})
    updated = jwks.update(id_, outs, news)

    assert requests(gateway) == {UPDATE: 1}
    live = client.jwks.get("Demo", "signing")
    assert live.description == "rotated monthly"
    kept = (updated["jwk_id"], updated["public_jwk"], updated["kid"])
    assert kept == (outs["jwk_id"], outs["public_jwk"], "sig-1")
    assert rpc.is_rpc_secret(updated["private_jwk"])


def test_a_replace_of_a_generated_key_deletes_then_generates(
        jwks: Engine, client: ApinizerClient) -> None:
    id_, outs = jwks.up(SIGNING)
    jwks.delete(id_, outs)
    _, new = jwks.up({**SIGNING, "generate": {**SIGNING["generate"], "kid": "sig-2"}})

    [live] = client.jwks.list("Demo")
    assert (live.kid, new["jwk_id"]) == ("sig-2", live.id) and new["jwk_id"] != outs["jwk_id"]


def test_delete_removes_it_and_a_gone_one_is_no_failure(
        jwks: Engine, client: ApinizerClient, gateway: Gateway) -> None:
    id_, outs = jwks.up(SIGNING)
    jwks.delete(id_, outs)
    assert client.jwks.list("Demo") == []
    jwks.delete(id_, outs)  # deleted outside, or a repeated delete whose answer was lost
    assert requests(gateway)[DELETE] == 2


# -- refresh ---------------------------------------------------------------------------------------


def test_refresh_shows_drift_of_the_description_and_of_the_key(
        jwks: Engine, client: ApinizerClient, gateway: Gateway) -> None:
    id_, outs = jwks.up(SIGNING)
    gateway.reset_stats()

    same_id, unchanged, inputs = jwks.read(id_, outs)
    assert (same_id, inputs) == (id_, None) and plain(unchanged) == plain(outs)
    assert requests(gateway) == {LIST: 1}  # the list alone: no key read

    client.jwks.update("Demo", "signing", {"name": "signing", "description": "changed in the console"})
    _, drifted, inputs = jwks.read(id_, outs)
    assert inputs is not None and inputs["description"] == "changed in the console"
    assert drifted["jwk_id"] == outs["jwk_id"]

    client.jwks.delete("Demo", "signing")
    client.jwks.generate("Demo", {"name": "signing", "type": "EC", "kid": "other",
                                  "ec": {"curve_type": "P256"}})
    _, remade, inputs = jwks.read(id_, outs)
    assert inputs is not None and remade["jwk_id"] != outs["jwk_id"] and remade["kid"] == "other"
    assert remade["public_jwk"] != outs["public_jwk"] and rpc.is_rpc_secret(remade["private_jwk"])


def test_refresh_of_a_gone_jwk_returns_no_id(jwks: Engine, client: ApinizerClient) -> None:
    id_, outs = jwks.up(SIGNING)
    client.jwks.delete("Demo", "signing")

    gone_id, props, _ = jwks.read(id_, outs)

    assert (gone_id, props) == ("", {})


def test_refresh_of_n_jwks_of_a_project_reads_its_list_once(
        emulator_url: str, client: ApinizerClient, gateway: Gateway) -> None:
    names = [f"k{index}" for index in range(6)]
    for name in names:
        client.jwks.generate("Demo", {"name": name, "type": "OKP", "okp": {"curve_type": "ED25519"}})
    config = {"apinizer:url": emulator_url, "apinizer:token": "dev-admin-token"}
    with ForkedProviderServer(config, env={"APINIZER_READ_CACHE_TTL": "600"}) as own:
        engine = Engine(own, JwkProvider(), "Jwk")
        adopted = [engine.up({"project_name": "Demo", "name": name, "adopt": True,
                              "generate": {"type": "OKP", "okp": {"curve_type": "ED25519"}}}, name=name)
                   for name in names]
        gateway.reset_stats()
        futures = [engine.read_future(id_, outs, name=name)
                   for name, (id_, outs) in zip(names, adopted, strict=True)]
        assert all(future.result().id for future in futures)
    assert requests(gateway) == {LIST: 1}


# -- adopt, lost answers ---------------------------------------------------------------------------


def test_a_taken_name_fails_saying_adopt_and_adopt_takes_it_over_as_it_is(
        jwks: Engine, client: ApinizerClient) -> None:
    client.jwks.generate("Demo", {"name": "signing", "type": "EC", "kid": "console",
                                  "ec": {"curve_type": "P256"}})
    before = client.jwks.get("Demo", "signing")

    with pytest.raises(grpc.RpcError) as failure:
        jwks.up(SIGNING)
    assert "already exists" in last_line(failure) and "set adopt=True" in last_line(failure)

    _, outs = jwks.up({**SIGNING, "adopt": True})

    after = client.jwks.get("Demo", "signing")
    assert (outs["jwk_id"], outs["kid"], after.description) == (before.id, "console", "JWT signing")
    assert after.ec is not None and before.ec is not None and after.ec.x == before.ec.x


@pytest.mark.parametrize("lost", [{"drop": True, "after": True}, {"status": 504, "after": True}],
                         ids=["connection dropped after the generate", "504 after the generate"])
def test_a_generate_whose_answer_was_lost_makes_one_key(
        jwks: Engine, client: ApinizerClient, gateway: Gateway, lost: dict[str, Any]) -> None:
    fault(gateway, method="POST", path="/jwks/generate", count=1, **lost)

    _, outs = jwks.up(SIGNING)

    [live] = client.jwks.list("Demo")
    assert outs["jwk_id"] == live.id
    assert requests(gateway)[GENERATE] == 1, "the generate was sent again"


def test_a_create_that_never_arrived_is_sent_again(
        jwks: Engine, client: ApinizerClient, gateway: Gateway, private_set: dict[str, Any]) -> None:
    fault(gateway, method="POST", path="/jwks/", count=1, drop=True)

    pasted = json.dumps(private_set["keys"][0])
    _, outs = jwks.up({"project_name": "Demo", "name": "pasted", "jwk_json": pasted})

    [live] = client.jwks.list("Demo")
    assert outs["jwk_id"] == live.id and requests(gateway)[CREATE] == 2


def test_someone_elses_jwk_found_after_a_lost_answer_is_not_taken(
        jwks: Engine, client: ApinizerClient, gateway: Gateway) -> None:
    client.jwks.generate("Demo", {"name": "signing", "type": "RSA", "rsa": {"keySize": 2048}})
    fault(gateway, method="POST", path="/jwks/generate", count=1, drop=True)

    with pytest.raises(grpc.RpcError) as failure:
        jwks.up(SIGNING)

    assert "already exists" in last_line(failure) and "set adopt=True" in last_line(failure)
    [live] = client.jwks.list("Demo")
    assert live.type is not None and live.type.value == "RSA"


def test_a_pasted_jwk_the_gateway_refuses_is_not_quoted_in_the_error(
        jwks: Engine, client: ApinizerClient) -> None:
    private_member = "cHJpdmF0ZS1leHBvbmVudC1uZXZlci1zaG93bg"
    broken = json.dumps({"kty": "RSA", "n": "not-a-modulus!", "e": "AQAB", "d": private_member})

    with pytest.raises(grpc.RpcError) as failure:
        jwks.up({"project_name": "Demo", "name": "pasted", "jwk_json": rpc.wrap_rpc_secret(broken)})

    details = str(failure.value.details())
    assert "400" in details and "jwk" in details.lower()
    assert private_member not in details and "not-a-modulus" not in details
    assert client.jwks.list("Demo") == []  # nothing half made
