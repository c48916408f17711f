"""The models of JWKs, keystores, crypto keys and certificates, against every JSON example and form of
the product's pages for them (copied into ``data/keys_doc_examples.json``, keyed by page and block:
``#N`` the page's Nth JSON block, ``#curl-N`` the body of its Nth cURL example, ``#form-N`` the
fields of its Nth multipart cURL example), their cross-field rules, and their secrets."""

from __future__ import annotations

import json
from typing import Any

import pydantic
import pytest

from _documented_bodies import KEYS_EXAMPLES, assert_contained, without_nulls
from apinizer_pulumi import models
from apinizer_pulumi.models import (
    CertificateList,
    CertificateSpec,
    CryptoKeyList,
    CryptoKeySpec,
    CryptoKeyType,
    EcJwkMaterial,
    Jwk,
    JwkAlgorithm,
    JwkCreate,
    JwkFromClipboard,
    JwkFromKey,
    JwkFromUrl,
    JwkGenerate,
    JwkGenerateAlgorithm,
    JwkList,
    JwkResponse,
    JwkSourceType,
    JwkType,
    KeystoreEnvironment,
    KeystoreList,
    KeystoreSpec,
    KeystoreType,
    OctJwkMaterial,
    OkpJwkMaterial,
    ReferencedJwkUpdate,
    RsaJwkMaterial,
    jwk_algorithm_problem,
)

EXAMPLES = KEYS_EXAMPLES
PAGES = "02-api-reference/08-keys-secrets/crud/"
#: A certificate file for the forms' ``@certificate.pem`` (the markers are what the model checks).
PEM = b"-----BEGIN CERTIFICATE-----\nMIIBszCCAVmgAwIBAgIUQ==\n-----END CERTIFICATE-----\n"


def form_body(example: dict[str, Any]) -> dict[str, Any]:
    """A documented form's fields, the file's ``@name`` replaced by a certificate's content and
    the update's certificate named by its path."""
    fields = {key: value for key, value in example["body"].items() if key != "pemEncodedFile"}
    fields.setdefault("certificateName", example.get("path_name"))
    return {**fields, "pemEncodedFile": PEM}


ACCEPTED = sorted(key for key, example in EXAMPLES.items() if "refused" not in example)


@pytest.mark.parametrize("key", ACCEPTED)
def test_every_documented_example_parses_and_round_trips(key: str) -> None:
    example = EXAMPLES[key]
    model: type[models.ApiModel] = getattr(models, example["model"])
    if example.get("form"):
        spec = CertificateSpec.model_validate(form_body(example))
        fields, files = spec.to_form()
        documented = {k: v for k, v in form_body(example).items() if k != "pemEncodedFile"}
        assert fields == documented
        assert files["pemEncodedFile"][1] == PEM
        return
    parsed = model.model_validate(example["body"])
    # Every documented field is a field of the model: what comes in goes back out, by the API's names.
    assert_contained(without_nulls(example["body"]), parsed.to_api(), key)


@pytest.mark.parametrize("key", sorted(key for key, example in EXAMPLES.items() if "refused" in example))
def test_a_documented_fragment_is_refused_for_what_it_lacks(key: str) -> None:
    example = EXAMPLES[key]
    model: type[models.ApiModel] = getattr(models, example["model"])
    with pytest.raises(pydantic.ValidationError) as caught:
        model.model_validate(example["body"])
    found = {".".join(str(part) for part in error["loc"]): error["msg"] for error in caught.value.errors()}
    for field, message in example["refused"].items():
        assert message in found[field]


def test_the_examples_cover_every_page_with_a_body() -> None:
    pages = {key.split("#")[0].rsplit("/", 1)[-1][:-3] for key in EXAMPLES}
    # get-key and get-keystore answer as the lists do and show no example of their own; export
    # answers a ZIP file.
    every = {
        "create-certificate",
        "create-jwk",
        "create-key",
        "create-keystore",
        "delete-certificate",
        "delete-jwk",
        "delete-key",
        "delete-keystore",
        "export-certificate",
        "generate-jwk",
        "get-certificate",
        "get-jwk",
        "get-truststore-certificates",
        "list-certificates",
        "list-jwks",
        "list-keys",
        "list-keystores",
        "parse-jwk-from-certificate",
        "parse-jwk-from-clipboard",
        "parse-jwk-from-key",
        "parse-jwk-from-keystore",
        "parse-jwk-from-url",
        "update-certificate",
        "update-jwk",
        "update-key",
        "update-keystore",
    }
    assert pages == every


def test_the_six_source_types_of_create_match_their_parse_from_bodies() -> None:
    bodies = {EXAMPLES[f"{PAGES}create-jwk.md#{i}"]["body"]["sourceType"]: i for i in range(1, 6)}
    assert set(bodies) == {"URL", "COPY_PASTE", "CERTIFICATE", "PUBLIC_KEY", "KEYSTORE"}
    operations = {
        "URL": "parse-jwk-from-url",
        "COPY_PASTE": "parse-jwk-from-clipboard",
        "CERTIFICATE": "parse-jwk-from-certificate",
        "PUBLIC_KEY": "parse-jwk-from-key",
        "KEYSTORE": "parse-jwk-from-keystore",
    }
    for source_type, page in operations.items():
        create = JwkCreate.model_validate(EXAMPLES[f"{PAGES}create-jwk.md#{bodies[source_type]}"]["body"])
        documented = EXAMPLES[f"{PAGES}{page}.md#0"]
        operation = create.as_operation()
        assert type(operation).__name__ == documented["model"]
        # The same fields as the parse-from page's example (its description aside).
        assert {**operation.to_api(), "description": None} == {**documented["body"], "description": None}


def test_the_get_answer_carries_key_material_and_the_list_not() -> None:
    listed = JwkList.model_validate(EXAMPLES[f"{PAGES}list-jwks.md#0"]["body"])
    assert [(j.source_type, j.type) for j in listed.result_list] == [
        (JwkSourceType.URL, JwkType.RSA),
        (JwkSourceType.GENERATE, JwkType.EC),
    ]
    assert all(j.rsa is None and j.ec is None for j in listed.result_list)
    got = JwkList.model_validate(EXAMPLES[f"{PAGES}get-jwk.md#0"]["body"]).result_list[0]
    assert got.rsa is not None and (got.rsa.n, got.rsa.e, got.rsa.d) == (
        "modulus-value",
        "AQAB",
        "private-exponent",
    )


def test_the_deployment_answers_read_per_environment() -> None:
    answer = JwkResponse.model_validate(EXAMPLES[f"{PAGES}create-jwk.md#6"]["body"])
    assert answer.deployment_result is not None and answer.deployment_result.ok
    assert [r.environment_name for r in answer.deployment_result.per_environment()] == [
        "production",
        "staging",
    ]


def test_keystores_keys_and_certificates_read_per_environment() -> None:
    keystore = KeystoreList.model_validate(EXAMPLES[f"{PAGES}list-keystores.md#0"]["body"]).result_list[0]
    assert [(e.environment_name, e.type.value) for e in keystore.key_store_environment_list] == [
        ("production", "JKS")
    ]
    key = CryptoKeyList.model_validate(EXAMPLES[f"{PAGES}list-keys.md#0"]["body"]).result_list[0]
    assert key.key_type is not None and key.key_type.value == "RSA"
    certificates = CertificateList.model_validate(EXAMPLES[f"{PAGES}list-certificates.md#0"]["body"])
    assert [e.environment_name for e in certificates.result_list[0].certificate_environment_list] == [
        "production",
        "staging",
    ]
    # "Certificate file content is excluded from list response": an answer without it reads too.
    bare = {"name": "c", "certificateEnvironmentList": [{"environmentName": "production", "alias": "a"}]}
    assert CertificateList.model_validate({"success": True, "resultList": [bare]}).result_list[0].name == "c"


# -- cross-field rules ---------------------------------------------------------------------------

CERTIFICATE_JWK = {
    "name": "my-jwk",
    "sourceType": "CERTIFICATE",
    "certificateName": "my-certificate",
    "environmentName": "production",
    "useType": "SIGNATURE",
    "algorithm": "RS256",
}


def _problems(model: type[pydantic.BaseModel], body: dict[str, Any]) -> dict[str, str]:
    with pytest.raises(pydantic.ValidationError) as caught:
        model.model_validate(body)
    return {".".join(str(part) for part in error["loc"]): error["msg"] for error in caught.value.errors()}


@pytest.mark.parametrize(
    ("source_type", "required"),
    [
        ("URL", ["url"]),
        ("COPY_PASTE", ["jwk_str"]),
        ("CERTIFICATE", ["certificate_name", "environment_name", "use_type", "algorithm"]),
        ("PUBLIC_KEY", ["key_name", "environment_name", "use_type", "algorithm"]),
        ("PRIVATE_KEY", ["key_name", "environment_name", "use_type", "algorithm"]),
        ("KEYSTORE", ["key_store_name", "alias_name", "environment_name", "use_type", "algorithm"]),
    ],
)
def test_create_names_every_field_its_source_type_requires(source_type: str, required: list[str]) -> None:
    problems = _problems(JwkCreate, {"name": "j", "sourceType": source_type})
    assert problems == {field: f"is required when source_type is {source_type}" for field in required}


def test_create_refuses_the_fields_of_another_source_type() -> None:
    problems = _problems(
        JwkCreate, {**CERTIFICATE_JWK, "url": "https://example.com/jwks.json", "keyName": "k"}
    )
    assert problems == {
        "url": "is not a field of source_type CERTIFICATE",
        "key_name": "is not a field of source_type CERTIFICATE",
    }


def test_generate_is_not_a_source_type_of_create() -> None:
    problems = _problems(JwkCreate, {"name": "j", "sourceType": "GENERATE"})
    assert "generate operation" in problems["source_type"]


def test_an_algorithm_must_fit_the_use() -> None:
    problems = _problems(JwkCreate, {**CERTIFICATE_JWK, "useType": "ENCRYPTION"})
    assert problems == {"algorithm": "'RS256' is an algorithm for SIGNATURE, not for ENCRYPTION"}
    problems = _problems(JwkFromKey, {**CERTIFICATE_JWK, "keyName": "k", "algorithm": "RSA-OAEP-256"})
    assert problems == {"algorithm": "'RSA-OAEP-256' is an algorithm for ENCRYPTION, not for SIGNATURE"}


def test_a_key_type_in_place_of_an_algorithm_is_named_as_such() -> None:
    problems = _problems(JwkCreate, {**CERTIFICATE_JWK, "algorithm": "RSA"})
    assert problems["algorithm"].endswith(
        "'RSA' is a key type, not an algorithm: give an algorithm such as RS256"
    )


#: The encryption algorithms of EC and OKP keys alike.
KEY_AGREEMENT = [
    "ECDH-ES",
    "ECDH-ES+A128KW",
    "ECDH-ES+A192KW",
    "ECDH-ES+A256KW",
    "ECDH-1PU",
    "ECDH-1PU+A128KW",
    "ECDH-1PU+A192KW",
    "ECDH-1PU+A256KW",
]


@pytest.mark.parametrize(
    ("key_type", "use", "algorithms"),
    [
        ("RSA", "SIGNATURE", ["RS256", "RS384", "RS512", "PS256", "PS384", "PS512"]),
        ("RSA", "ENCRYPTION", ["RSA1_5", "RSA-OAEP", "RSA-OAEP-256", "RSA-OAEP-384", "RSA-OAEP-512"]),
        ("EC", "SIGNATURE", ["ES256", "ES384", "ES512", "ES256K"]),
        ("EC", "ENCRYPTION", KEY_AGREEMENT),
        ("OCT", "SIGNATURE", ["HS256", "HS384", "HS512"]),
        (
            "OCT",
            "ENCRYPTION",
            [
                "A128KW",
                "A192KW",
                "A256KW",
                "A128GCMKW",
                "A192GCMKW",
                "A256GCMKW",
                "DIR",
                "PBES2-HS256+A128KW",
                "PBES2-HS384+A192KW",
                "PBES2-HS512+A256KW",
            ],
        ),
        ("OKP", "SIGNATURE", ["EdDSA"]),
        ("OKP", "ENCRYPTION", KEY_AGREEMENT),
    ],
)
def test_the_notes_table_of_algorithms(key_type: str, use: str, algorithms: list[str]) -> None:
    assert all(jwk_algorithm_problem(key_type, use, a) is None for a in algorithms)
    others = [a.value for a in JwkAlgorithm if a.value not in algorithms]
    refused = [a for a in others if jwk_algorithm_problem(key_type, use, a) is not None]
    assert refused == others
    problem = jwk_algorithm_problem(key_type, use, others[0])
    assert problem == (
        f"{others[0]!r} is not an algorithm of {key_type} keys for {use}: use one of {', '.join(algorithms)}"
    )


def test_the_two_spellings_name_the_same_algorithms() -> None:
    assert len(JwkAlgorithm) == len(JwkGenerateAlgorithm)
    assert jwk_algorithm_problem("RSA", "SIGNATURE", "RSA256", generate=True) is None
    assert jwk_algorithm_problem("RSA", "SIGNATURE", "RS256", generate=True) is not None
    # Each body reads the other page's spelling as its own, and sends its own.
    generated = JwkGenerate.model_validate(
        {"name": "g", "type": "RSA", "rsa": {"keySize": 2048, "algorithm": "RS256"}}
    )
    assert generated.to_api()["rsa"]["algorithm"] == "RSA256"
    created = JwkFromKey.model_validate(
        {**CERTIFICATE_JWK, "keyName": "k", "useType": "ENCRYPTION", "algorithm": "ECDH_ES_A128KW"}
    )
    assert created.to_api()["algorithm"] == "ECDH-ES+A128KW"


@pytest.mark.parametrize(
    ("body", "field", "message"),
    [
        ({"type": "RSA"}, "rsa", "is required when type is RSA"),
        (
            {"type": "EC", "ec": {"curveType": "P256"}, "rsa": {"keySize": 2048}},
            "rsa",
            "is not a parameter of type EC (give ec)",
        ),
        ({"type": "RSA", "rsa": {"keySize": 1024}}, "rsa.key_size", "must be 2048, 3072 or 4096 (bits)"),
        ({"type": "OCT", "oct": {"keySize": 512}}, "oct.key_size", "must be 128, 192 or 256 (bits)"),
        (
            {"type": "EC", "ec": {"curveType": "P256", "keyUseType": "ENCRYPTION", "algorithm": "ES256"}},
            "ec.algorithm",
            "'ES256' is not an algorithm of EC keys for ENCRYPTION: use one of ECDH_ES, ECDH_ES_A128KW, "
            "ECDH_ES_A192KW, ECDH_ES_A256KW, ECDH_1PU, ECDH_1PU_A128KW, ECDH_1PU_A192KW, ECDH_1PU_A256KW",
        ),
        (
            {"type": "OCT", "oct": {"keySize": 256, "algorithm": "A256KW"}},
            "oct.algorithm",
            "'A256KW' is not an algorithm of OCT keys for SIGNATURE: use one of HS256, HS384, HS512",
        ),
        (
            {"type": "OKP", "okp": {"curveType": "X25519", "algorithm": "EdDSA"}},
            "okp.curve_type",
            "must be ED25519 for EdDSA (X25519 cannot sign)",
        ),
        (
            {
                "type": "OKP",
                "okp": {"curveType": "ED25519", "keyUseType": "ENCRYPTION", "algorithm": "ECDH_ES"},
            },
            "okp.curve_type",
            "must be X25519 for ECDH_ES (ED25519 signs only)",
        ),
        # Without an algorithm, the use decides (an X25519 key without one is for key exchange: the
        # page's Example 7): X25519 cannot sign, and ED25519 cannot agree keys.
        ({"type": "OKP", "okp": {"curveType": "X25519", "keyUseType": "SIGNATURE"}}, "okp.curve_type",
         "must be ED25519 for SIGNATURE (X25519 cannot sign)"),
        ({"type": "OKP", "okp": {"curveType": "ED25519", "keyUseType": "ENCRYPTION"}}, "okp.curve_type",
         "must be X25519 for ENCRYPTION (ED25519 signs only)"),
        (
            {
                "type": "EC",
                "ec": {
                    "curveType": "P384",
                    "notBeforeTime": "2025-01-01T00:00:00Z",
                    "expirationTime": "2024-01-01T00:00:00Z",
                },
            },
            "ec.expiration_time",
            "must be after not_before_time",
        ),
        (
            {"type": "EC", "ec": {"curveType": "P384", "notBeforeTime": "2025-01-01T00:00:00"}},
            "ec.not_before_time",
            "has no time zone",
        ),
        ({"type": "OKP", "okp": {"curveType": "ED448"}}, "okp.curve_type", "Input should be"),
        (
            {"type": "EC", "ec": {"curveType": "P256", "algorithm": "ES384"}},
            "ec.curve_type",
            "must be P384 for ES384 (an ES algorithm signs on its own curve)",
        ),
        (
            {"type": "EC", "ec": {"curveType": "P521", "algorithm": "ES256K"}},
            "ec.curve_type",
            "must be SECP256K1 for ES256K",
        ),
    ],
)
def test_generate_rules(body: dict[str, Any], field: str, message: str) -> None:
    problems = _problems(JwkGenerate, {"name": "g", **body})
    assert message in problems[field]


def test_each_es_algorithm_on_its_curve_and_ecdh_on_any() -> None:
    pairs = {"ES256": "P256", "ES384": "P384", "ES512": "P521", "ES256K": "SECP256K1"}
    for algorithm, curve in pairs.items():
        assert (
            JwkGenerate(name="g", type="EC", ec={"curve_type": curve, "algorithm": algorithm}).ec is not None
        )
    for curve in pairs.values():
        params = {"curve_type": curve, "key_use_type": "ENCRYPTION", "algorithm": "ECDH_ES_A256KW"}
        assert JwkGenerate(name="g", type="EC", ec=params).ec is not None


def test_x25519_without_algorithm_is_the_documented_example_7() -> None:
    body = EXAMPLES[f"{PAGES}generate-jwk.md#curl-6"]["body"]
    assert JwkGenerate.model_validate(body).okp is not None
    # Without a use, it is for key exchange: an ECDH algorithm fits it, as on the gateway.
    with_algorithm = {**body, "okp": {**body["okp"], "algorithm": "ECDH_ES"}}
    assert JwkGenerate.model_validate(with_algorithm).okp is not None


@pytest.mark.parametrize(
    ("jwk_str", "kid", "message"),
    [
        ('{"kty": "RSA"', None, "is not JSON (Expecting"),
        ("[1, 2]", None, "must be a JWK or a JWK Set: a JSON object"),
        ('{"n": "x"}', None, "is neither a JWK (no 'kty') nor a JWK Set (no 'keys')"),
        ('{"keys": []}', None, "is a JWK Set whose 'keys' is not a list of keys"),
        (
            '{"keys": [{"kty": "oct", "kid": "a"}, {"kty": "oct", "kid": "b"}]}',
            None,
            "is a JWK Set of 2 keys: give kid to choose one",
        ),
        ('{"keys": [{"kty": "oct", "kid": "a"}]}', "c", "is a JWK Set with no key whose kid is 'c'"),
    ],
)
def test_a_pasted_jwk_is_checked(jwk_str: str, kid: str | None, message: str) -> None:
    problems = _problems(JwkFromClipboard, {"name": "j", "jwkStr": jwk_str, "kid": kid})
    assert message in problems["jwk_str"]


def test_create_checks_a_pasted_jwk_as_parse_from_clipboard_does() -> None:
    keys = '{"keys": [{"kty": "oct", "kid": "a"}, {"kty": "oct", "kid": "b"}]}'
    problems = _problems(JwkCreate, {"name": "j", "sourceType": "COPY_PASTE", "jwkStr": keys})
    assert problems == {"jwk_str": "is a JWK Set of 2 keys: give kid to choose one"}
    assert JwkCreate(name="j", source_type="COPY_PASTE", jwk_str=keys, kid="a").kid == "a"


def test_one_key_of_a_set_is_chosen_by_kid() -> None:
    keys = '{"keys": [{"kty": "oct", "kid": "a"}, {"kty": "oct", "kid": "b"}]}'
    assert JwkFromClipboard(name="j", jwk_str=keys, kid="b").kid == "b"


@pytest.mark.parametrize(
    "url", ["ftp://example.com/jwks.json", "file:///etc/passwd", "example.com/jwks", "https://"]
)
def test_a_jwk_url_is_http_or_https(url: str) -> None:
    assert "is not an http(s) URL" in _problems(JwkFromUrl, {"name": "j", "url": url})["url"]


@pytest.mark.parametrize(
    "url", ["https://user:pa55word@example.com/jwks.json", "https://token@example.com/jwks"]
)
def test_a_jwk_url_carries_no_credentials(url: str) -> None:
    # The URL is kept as the JWK's sourceUrl, shown by every list: a password in it would be in clear.
    problems = _problems(JwkCreate, {"name": "j", "sourceType": "URL", "url": url})
    assert problems == {
        "url": "Value error, must not carry credentials (user:password@): the gateway shows its URL in clear"
    }
    assert "pa55word" not in str(_problems(JwkFromUrl, {"name": "j", "url": url}))


@pytest.mark.parametrize("field", ["urlOptionConnectTimeout", "urlOptionReadTimeout", "urlOptionSizeLimit"])
@pytest.mark.parametrize("value", [0, -1, True])
def test_url_options_are_positive(field: str, value: Any) -> None:
    from pydantic.alias_generators import to_snake

    body = {"name": "j", "url": "https://example.com/jwks.json", field: value}
    assert to_snake(field) in _problems(JwkFromUrl, body)


def test_the_scope_is_required_to_update_referenced_jwks() -> None:
    assert ReferencedJwkUpdate().to_params() == {}
    assert ReferencedJwkUpdate(update_referenced_jwks=True, update_scope="ALL_PROJECTS").to_params() == {
        "updateReferencedJwks": "true",
        "updateScope": "ALL_PROJECTS",
    }
    assert _problems(ReferencedJwkUpdate, {"updateReferencedJwks": True}) == {
        "update_scope": "is required when update_referenced_jwks is true"
    }


KEYSTORE = EXAMPLES[f"{PAGES}create-keystore.md#curl-0"]["body"]
KEY = EXAMPLES[f"{PAGES}create-key.md#curl-0"]["body"]


def test_a_keystore_names_each_environment_once() -> None:
    twice = {**KEYSTORE, "keyStoreEnvironmentList": KEYSTORE["keyStoreEnvironmentList"] * 2}
    assert _problems(KeystoreSpec, twice) == {
        "key_store_environment_list": "names environment 'production' twice"
    }
    empty = {**KEYSTORE, "keyStoreEnvironmentList": []}
    assert _problems(KeystoreSpec, empty) == {"key_store_environment_list": "needs at least one environment"}
    bad_type = {
        **KEYSTORE,
        "keyStoreEnvironmentList": [{**KEYSTORE["keyStoreEnvironmentList"][0], "type": "PEM"}],
    }
    assert "key_store_environment_list.0.type" in _problems(KeystoreSpec, bad_type)


def test_a_key_names_each_environment_once_with_a_key() -> None:
    keyless = {**KEY, "cryptoKeyInfoEnvironmentList": [{"environmentName": "production"}]}
    assert _problems(CryptoKeySpec, keyless) == {
        "crypto_key_info_environment_list[0]": "environment 'production' needs a public_key or a private_key"
    }
    public_only = {
        **KEY,
        "cryptoKeyInfoEnvironmentList": [{"environmentName": "production", "publicKey": "MIIB"}],
    }
    assert CryptoKeySpec.model_validate(public_only).to_api()["cryptoKeyInfoEnvironmentList"] == [
        {"environmentName": "production", "publicKey": "MIIB"}
    ]
    assert "key_type" in _problems(CryptoKeySpec, {**KEY, "keyType": "DSA"})


CERTIFICATE = {
    "certificateName": "my-certificate",
    "alias": "my-cert-alias",
    "certificateDescription": "SSL certificate for API",
    "environmentList": ["production", "staging"],
    "pemEncodedFile": PEM,
}


def test_a_certificate_form() -> None:
    spec = CertificateSpec.model_validate(CERTIFICATE)
    fields, files = spec.to_form()
    assert fields == {
        "certificateName": "my-certificate",
        "alias": "my-cert-alias",
        "certificateDescription": "SSL certificate for API",
        "environmentList": "production,staging",
    }
    assert files == {"pemEncodedFile": ("my-certificate.pem", PEM, "application/x-pem-file")}
    assert (
        CertificateSpec.model_validate({**CERTIFICATE, "pemEncodedFile": PEM.decode()}).pem_encoded_file
        == PEM
    )
    assert "MII" not in repr(spec)


@pytest.mark.parametrize(
    ("change", "field", "message"),
    [
        ({"pemEncodedFile": b"  \n"}, "pem_encoded_file", "is empty: give a PEM-encoded certificate file"),
        ({"pemEncodedFile": b"\x30\x82\x01\x0a"}, "pem_encoded_file", "is not PEM"),
        (
            {"pemEncodedFile": b"-----END CERTIFICATE-----\n-----BEGIN CERTIFICATE-----"},
            "pem_encoded_file",
            "is not PEM",
        ),
        ({"environmentList": []}, "environment_list", "needs at least one environment"),
        (
            {"environmentList": "production,production"},
            "environment_list",
            "names environment 'production' twice",
        ),
        ({"alias": ""}, "alias", "at least 1 character"),
        ({"certificateName": ""}, "certificate_name", "at least 1 character"),
    ],
)
def test_certificate_form_rules(change: dict[str, Any], field: str, message: str) -> None:
    assert message in _problems(CertificateSpec, {**CERTIFICATE, **change})[field]


def test_certificate_description_is_required_as_the_page_says() -> None:
    body = {k: v for k, v in CERTIFICATE.items() if k != "certificateDescription"}
    assert "certificate_description" in _problems(CertificateSpec, body)


# -- secrets ---------------------------------------------------------------------------------------

SECRET = "s3cr3t-Value-0f-The-Key"


@pytest.mark.parametrize(
    "model",
    [
        RsaJwkMaterial(n="N", e="AQAB", d=SECRET, p=SECRET, q=SECRET, dp=SECRET, dq=SECRET, qi=SECRET),
        EcJwkMaterial(crv="P-256", x="X", y="Y", d=SECRET),
        OctJwkMaterial(k=SECRET),
        OkpJwkMaterial(crv="Ed25519", x="X", d=SECRET),
        Jwk(name="j", rsa=RsaJwkMaterial(n="N", d=SECRET)),
        JwkFromClipboard(name="j", jwk_str=json.dumps({"kty": "oct", "k": SECRET})),
        JwkCreate(name="j", source_type="COPY_PASTE", jwk_str=json.dumps({"kty": "oct", "k": SECRET})),
        KeystoreEnvironment(environment_name="e", type="PKCS12", file=SECRET, password=SECRET),
        KeystoreSpec(
            name="k",
            key_store_environment_list=[KeystoreEnvironment(environment_name="e", type="JKS", file=SECRET)],
        ),
        CryptoKeySpec(
            name="k",
            key_type="RSA",
            crypto_key_info_environment_list=[
                {"environment_name": "e", "public_key": "P", "private_key": SECRET}
            ],
        ),
    ],
    ids=lambda model: type(model).__name__,
)
def test_secrets_stay_out_of_reprs(model: pydantic.BaseModel) -> None:
    assert SECRET not in repr(model)
    assert SECRET not in str(model)
    assert SECRET in json.dumps(model.model_dump(mode="json"))  # still sent to the gateway


@pytest.mark.parametrize(
    ("model", "body"),
    [
        # A secret whose own check fails, and a secret beside another field's failure.
        (JwkFromClipboard, {"name": "j", "jwkStr": '{"kty": "oct", "k": "' + SECRET + '"', "kid": 5}),
        (
            JwkFromClipboard,
            {"name": "", "jwkStr": '{"keys": [{"kty": "oct", "k": "' + SECRET + '"}]}', "kid": "x"},
        ),
        (JwkCreate, {"name": "j", "sourceType": "URL", "jwkStr": '{"k": "' + SECRET + '"}'}),
        (JwkCreate, {"name": "j", "sourceType": "COPY_PASTE", "jwkStr": {"k": SECRET}}),
        (
            KeystoreSpec,
            {"name": "k", "keyStoreEnvironmentList": [{"environmentName": "e", "type": "X", "file": SECRET}]},
        ),
        (
            KeystoreSpec,
            {
                "name": "k",
                "keyStoreEnvironmentList": [
                    {"environmentName": "e", "type": "JKS", "file": 5, "password": [SECRET]}
                ],
            },
        ),
        (
            CryptoKeySpec,
            {
                "name": "k",
                "keyType": "X",
                "cryptoKeyInfoEnvironmentList": [{"environmentName": "e", "privateKey": [SECRET]}],
            },
        ),
        (RsaJwkMaterial, {"n": 5, "d": [SECRET]}),
        # The lists as the gateway answers them: the envelope quotes nothing either.
        (KeystoreList, {"resultList": [{"keyStoreEnvironmentList": [{"file": SECRET}]}]}),
        (JwkList, {"resultList": [{"rsa": {"d": [SECRET]}}]}),
        (
            CryptoKeyList,
            {"resultList": [{"name": "k", "cryptoKeyInfoEnvironmentList": [{"privateKey": SECRET}]}]},
        ),
    ],
)
def test_validation_errors_quote_no_secret(model: type[pydantic.BaseModel], body: dict[str, Any]) -> None:
    with pytest.raises(pydantic.ValidationError) as caught:
        model.model_validate(body)
    assert SECRET not in str(caught.value)
    assert SECRET not in repr(caught.value)
    assert SECRET not in json.dumps(
        [{k: str(v) for k, v in e.items() if k != "ctx"} for e in caught.value.errors(include_input=False)]
    )


def test_the_secret_fields_are_marked_in_the_schema() -> None:
    marked = {
        model.__name__: sorted(
            name
            for name, info in model.model_fields.items()
            if isinstance(info.json_schema_extra, dict) and info.json_schema_extra.get("x-secret")
        )
        for model in (
            JwkCreate,
            JwkFromClipboard,
            RsaJwkMaterial,
            EcJwkMaterial,
            OctJwkMaterial,
            OkpJwkMaterial,
        )
    }
    assert marked == {
        "JwkCreate": ["jwk_str"],
        "JwkFromClipboard": ["jwk_str"],
        "RsaJwkMaterial": ["d", "dp", "dq", "p", "q", "qi"],
        "EcJwkMaterial": ["d"],
        "OctJwkMaterial": ["k"],
        "OkpJwkMaterial": ["d"],
    }


def test_answers_read_formats_and_key_types_the_pages_do_not_show() -> None:
    keystore = KeystoreList.model_validate(
        {
            "success": True,
            "resultList": [
                {
                    "name": "k",
                    "keyStoreEnvironmentList": [
                        {"environmentName": "production", "type": "PKCS12"},
                        {"environmentName": "staging", "type": "JCEKS", "file": SECRET},
                    ],
                }
            ],
        }
    ).result_list[0]
    assert [e.type for e in keystore.key_store_environment_list] == [KeystoreType.PKCS12, "JCEKS"]
    assert SECRET not in repr(keystore)
    key = CryptoKeyList.model_validate({"success": True, "resultList": [{"name": "k", "keyType": "OKP"}]})
    assert [k.key_type for k in key.result_list] == ["OKP"]
    assert (
        CryptoKeyList.model_validate({"resultList": [{"name": "k", "keyType": "EC"}]}).result_list[0].key_type
        is CryptoKeyType.EC
    )
    # Writes still take the values shown only.
    assert "key_store_environment_list.0.type" in _problems(
        KeystoreSpec,
        {**KEYSTORE, "keyStoreEnvironmentList": [{"environmentName": "e", "type": "JCEKS", "file": "x"}]},
    )


@pytest.mark.parametrize(
    ("envelope", "item"),
    [
        (JwkList, {"name": "j", "sourceType": "GENERATE", "type": "EC"}),
        (CertificateList, {"name": "c", "certificateEnvironmentList": []}),
        (CryptoKeyList, {"name": "k", "keyType": "RSA"}),
        (KeystoreList, {"name": "s", "keyStoreEnvironmentList": []}),
    ],
)
def test_answers_keep_the_id_that_policies_refer_to(
    envelope: type[pydantic.BaseModel], item: dict[str, Any]
) -> None:
    # The pages show no id, but a policy names these objects by it (certificateId, cryptoKeyInfoId,
    # jwkIdForValidationAndSign): an answer that carries one keeps it, one without reads as None.
    [read] = envelope.model_validate({"success": True, "resultList": [{**item, "id": "6f1c"}]}).result_list
    assert read.id == "6f1c"
    assert read.to_api()["id"] == "6f1c"
    [bare] = envelope.model_validate({"success": True, "resultList": [item]}).result_list
    assert bare.id is None
