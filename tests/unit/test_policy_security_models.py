"""The security policy models (models/_policy_security.py) beyond the pages' examples, which
test_policy_models.py replays: required fields, enums, the rules the pages state across fields
and secrets. Every refusal names the field."""

from __future__ import annotations

from typing import Any

import pydantic
import pytest

from apinizer_pulumi.models import (
    POLICY_TYPES,
    ApiAuthenticationPolicy,
    AuthBasicPolicy,
    AuthClearTextPolicy,
    AuthDigestPolicy,
    AuthJwtPolicy,
    AuthMtlsPolicy,
    AuthOauth2Policy,
    CipherAlgorithm,
    DecryptionPolicy,
    DigitalSignPolicy,
    DigitalSignVerificationPolicy,
    EncryptionPolicy,
    JoseImplementationPolicy,
    JoseValidationPolicy,
    OidcPolicy,
    PolicyBase,
    SamlValidationPolicy,
    SignatureAlgorithm,
    TokenTimeUnit,
    WsSecurityDecryptPolicy,
    WsSecurityFromTargetPolicy,
    WsSecuritySignPolicy,
    WsSecurityTimestampPolicy,
    WsSecurityToTargetPolicy,
    WsSecurityUsernamePolicy,
    parse_policy,
    unknown_fields,
)

HEADER = {"type": "HEADER", "headerName": "Authorization"}
SECURITY_TYPES = [
    kind for kind, model in POLICY_TYPES.items() if model.__module__.endswith("_policy_security")
]


def _refusal(model: type[pydantic.BaseModel], data: dict[str, Any]) -> dict[str, str]:
    """The refused fields (dotted locations) and their messages."""
    with pytest.raises(pydantic.ValidationError) as caught:
        model.model_validate(data)
    return {".".join(str(p) for p in error["loc"]): error["msg"] for error in caught.value.errors()}


def test_the_23_security_types_are_registered() -> None:
    assert len(SECURITY_TYPES) == 23
    assert {"policy-auth-oauth2", "policy-oidc", "policy-ws-security-username"} <= set(SECURITY_TYPES)
    assert POLICY_TYPES["policy-auth-oauth2"] is AuthOauth2Policy


# -- required fields and enums ----------------------------------------------------------------------


@pytest.mark.parametrize(
    ("model", "data", "missing"),
    [
        (AuthBasicPolicy, {}, {"username_var"}),
        (AuthDigestPolicy, {"usernameVar": HEADER}, {"password_var"}),
        (AuthJwtPolicy, {}, {"jwt_signature_algorithm"}),
        (
            OidcPolicy,
            {"issuer": "https://idp"},
            {"authorization_endpoint", "token_endpoint", "client_id", "redirect_uri"},
        ),
        (SamlValidationPolicy, {}, {"key_store_name"}),
        (WsSecurityDecryptPolicy, {}, {"dec_key_store_name"}),
        (
            WsSecuritySignPolicy,
            {},
            {"sig_sig_algorithm", "sig_c14n", "sig_dig_algorithm", "sig_key_store_name"},
        ),
        (WsSecurityTimestampPolicy, {}, {"time_to_live"}),
        (WsSecurityUsernamePolicy, {"username": "u"}, {"password", "password_type"}),
        (WsSecurityToTargetPolicy, {}, {"ws_security_entry_order_list"}),
        (EncryptionPolicy, {}, {"policy_encryption_def_list"}),
        (DigitalSignPolicy, {"policyDigitalSignDefList": []}, {"policy_digital_sign_def_list"}),
    ],
)
def test_a_missing_required_field_is_named(
    model: type[PolicyBase], data: dict[str, Any], missing: set[str]
) -> None:
    assert set(_refusal(model, data)) == missing


def test_a_bad_enum_names_the_field_and_the_allowed_values() -> None:
    refused = _refusal(AuthJwtPolicy, {"jwtSignatureAlgorithm": "none"})
    assert set(refused) == {"jwt_signature_algorithm"}
    assert "HS256" in refused["jwt_signature_algorithm"]
    refused = _refusal(
        WsSecurityUsernamePolicy, {"username": "u", "password": "p", "passwordType": "PASSWORDTEXT"}
    )
    assert set(refused) == {"password_type"} and "PasswordDigest" in refused["password_type"]


def test_enums_hold_the_documented_spellings() -> None:
    assert CipherAlgorithm("RSA_ECB_OAEPWithSHA_256AndMGF1Padding")
    assert SignatureAlgorithm("SHA256withECDSA")
    assert TokenTimeUnit("MILLI_SECONDS")
    policy = OidcPolicy.model_validate(
        {
            "issuer": "https://idp",
            "authorizationEndpoint": "https://idp/auth",
            "tokenEndpoint": "https://idp/token",
            "clientId": "c",
            "redirectUri": "https://gw/cb",
            "expectedJwtAuthSigningAlgs": ["EdDSA", "PS256"],
        }
    )
    assert policy.to_api()["expectedJwtAuthSigningAlgs"] == ["EdDSA", "PS256"]


def test_documented_defaults() -> None:
    mtls = AuthMtlsPolicy()
    assert mtls.validate_certificate and mtls.validate_acl_for_issuer
    assert mtls.to_api()["validateACLForIssuer"] is True
    oauth = AuthOauth2Policy()
    assert oauth.token_never_expires and oauth.grant_type == "PASSWORD" and not oauth.delete_previous
    validation = JoseValidationPolicy()
    assert (validation.jose_target, validation.client_source_part, validation.strip_and_decode) == (
        "BODY",
        "CLAIMS",
        "NONE",
    )
    assert validation.client_fieldname == "iss"
    assert validation.to_api()["validateACLforIssuer"] is True


# -- rules across fields ----------------------------------------------------------------------------


@pytest.mark.parametrize("model", [AuthBasicPolicy, AuthClearTextPolicy, AuthDigestPolicy])
def test_adding_the_user_to_a_header_needs_its_name(model: type[PolicyBase]) -> None:
    data = {"usernameVar": HEADER, "passwordVar": HEADER, "addUserToHeader": True}
    assert set(_refusal(model, data)) == {"user_header_name"}
    assert model.model_validate({**data, "userHeaderName": "X-User"}).to_api()["userHeaderName"] == "X-User"


def test_clear_text_checks_the_password_only_with_its_variable() -> None:
    assert set(_refusal(AuthClearTextPolicy, {"usernameVar": HEADER})) == {"password_var"}
    assert AuthClearTextPolicy.model_validate({"usernameVar": HEADER, "checkPassword": False})


@pytest.mark.parametrize("model", [AuthJwtPolicy, AuthOauth2Policy])
def test_expiring_tokens_need_their_lifetime(model: type[PolicyBase]) -> None:
    data: dict[str, Any] = {"jwtSignatureAlgorithm": "HS256", "tokenNeverExpires": False}
    refused = _refusal(model, data)
    assert set(refused) == {"token_expires_in_amount", "token_expires_in_unit"}
    assert "when token_never_expires is false" in refused["token_expires_in_unit"]
    assert model.model_validate({**data, "tokenExpiresInAmount": 1, "tokenExpiresInUnit": "HOURS"})


def test_api_authentication_needs_credentials_and_the_fields_of_its_combination() -> None:
    assert set(_refusal(ApiAuthenticationPolicy, {})) == {"api_auth_cond_expression_list"}
    assert ApiAuthenticationPolicy.model_validate({"authApiName": "auth-api"})
    credentials = [{"username": "u", "password": "p"}]
    assert set(_refusal(ApiAuthenticationPolicy, {"apiAuthCondExpressionList": credentials})) == {
        "auth_type",
        "send_type",
    }
    digest = {"apiAuthCondExpressionList": credentials, "authType": "DIGEST", "sendType": "HEADER"}
    assert set(_refusal(ApiAuthenticationPolicy, digest)) == {
        "username_field_name",
        "password_field_name",
        "created_field_name",
        "nonce_field_name",
    }
    base64 = {**digest, "authType": "BASE64", "sendType": "PARAM"}
    assert set(_refusal(ApiAuthenticationPolicy, base64)) == {"password_field_name"}
    body = {**digest, "authType": "BASIC", "sendType": "BODY_MESSAGE"}
    assert set(_refusal(ApiAuthenticationPolicy, body)) == {"body_message", "body_message_injection_path"}
    injection = {**digest, "authType": "BASIC", "sendType": "BODY_INJECTION"}
    assert set(_refusal(ApiAuthenticationPolicy, injection)) == {
        "username_injection_path",
        "password_injection_path",
    }
    assert set(_refusal(ApiAuthenticationPolicy, {"apiAuthCondExpressionList": [{"username": "u"}]})) >= {
        "api_auth_cond_expression_list.0.password"
    }


def test_jose_implementation_needs_what_each_switch_adds() -> None:
    refused = _refusal(
        JoseImplementationPolicy, {"joseTarget": "CHOOSE_FROM_VARIABLE", "signByIssuer": False}
    )
    assert set(refused) == {
        "jose_target_variable",
        "issuer",
        "audience_list",
        "subject",
        "type_value",
        "expiration_time_value",
        "expiration_time_unit",
        "jwk_id_for_validation_and_sign",
        "encryption_method",
    }
    minimal = {
        "addIssuer": False,
        "addAudience": False,
        "addSubject": False,
        "addTypeToHeader": False,
        "addExpirationTime": False,
        "sign": False,
        "encrypt": True,
        "encryptByIssuer": False,
        "encryptionMethod": "A256GCM",
        "encodedClaimsTargetForDataManipulation": "CHOOSE_FROM_VARIABLE",
    }
    assert set(_refusal(JoseImplementationPolicy, minimal)) == {
        "jwk_id_for_decryption_and_encryption",
        "decoded_claims_target_variable_for_data_manipulation",
    }
    assert set(_refusal(JoseImplementationPolicy, {**minimal, "expirationTimeValue": 0})) >= {
        "expiration_time_value"
    }


def test_jose_validation_needs_what_each_choice_names() -> None:
    refused = _refusal(
        JoseValidationPolicy,
        {
            "joseTarget": "CHOOSE_FROM_VARIABLE",
            "clientSourcePart": "VARIABLE",
            "validateByIssuer": False,
            "decryptByIssuer": False,
            "stripAndDecode": "PARTIAL",
            "decodedClaimsTargetForDataManipulation": "CHOOSE_FROM_VARIABLE",
        },
    )
    assert set(refused) == {
        "jose_target_variable",
        "client_source_variable",
        "jwk_id_for_validation_and_sign",
        "jwk_id_for_decryption_and_encryption",
        "jwt_claims_to_decode",
        "decoded_claims_target_variable_for_data_manipulation",
    }
    assert JoseValidationPolicy.model_validate(
        {"validateSign": False, "decrypt": False, "validateByIssuer": False}
    )


OIDC = {
    "issuer": "https://idp",
    "authorizationEndpoint": "https://idp/auth",
    "tokenEndpoint": "https://idp/token",
    "clientId": "c",
    "redirectUri": "https://gw/cb",
}


def test_oidc_rules() -> None:
    assert set(_refusal(OidcPolicy, {**OIDC, "validateJwtSignature": True})) == {"jwks_endpoint"}
    assert set(_refusal(OidcPolicy, {**OIDC, "validateAudience": True})) == {"expected_audience"}
    assert set(_refusal(OidcPolicy, {**OIDC, "scopes": ["profile"]})) == {"scopes"}
    assert OidcPolicy.model_validate({**OIDC, "scopes": ["profile"], "flowType": "OAUTH2_AUTHORIZATION_CODE"})
    assert set(_refusal(OidcPolicy, {**OIDC, "roleMappings": [{"claimPath": "groups"}]})) == {
        "role_mappings.0.role_name"
    }
    both = OidcPolicy.model_validate(
        {**OIDC, "roleMappings": [{"claimPath": "g", "roleName": "a"}, {"claimPath": "g", "role": "b"}]}
    )
    assert [m.role_name or m.role for m in both.role_mappings] == ["a", "b"]


def test_saml_clearing_needs_its_path() -> None:
    assert set(_refusal(SamlValidationPolicy, {"keyStoreName": "ks", "clearSaml": True})) == {
        "clear_saml_path"
    }


def test_signing_definitions_need_their_key_and_algorithm() -> None:
    source = {"name": "body", "type": "BODY"}
    sign = {"sourceVar": source, "signatureVar": HEADER, "signatureAlgorithm": "SHA256withRSA"}
    assert set(_refusal(DigitalSignPolicy, {"policyDigitalSignDefList": [sign]})) == {
        "policy_digital_sign_def_list.0.crypto_key_info_id"
    }
    certificate = {**sign, "enumKeyCertificateType": "CERTIFICATE"}
    assert set(_refusal(DigitalSignPolicy, {"policyDigitalSignDefList": [certificate]})) == {
        "policy_digital_sign_def_list.0.certificate_id"
    }
    verify = {"sourceVar": source, "signatureVar": HEADER, "cryptoKeyInfoId": "k"}
    assert set(
        _refusal(DigitalSignVerificationPolicy, {"policyDigitalSignVerificationDefList": [verify]})
    ) == {"policy_digital_sign_verification_def_list.0.signature_algorithm"}
    by_variable = {**verify, "signatureAlgorithmVar": HEADER}
    assert DigitalSignVerificationPolicy.model_validate(
        {"policyDigitalSignVerificationDefList": [by_variable]}
    )


def test_crypto_variables_need_a_header_name_unless_they_name_a_stored_variable() -> None:
    definition = {
        "sourceVar": {"type": "HEADER"},
        "targetVar": {"name": "stored", "type": "HEADER", "dataType": "STRING"},
        "inputEncodingType": "BASE64",
    }
    assert set(_refusal(DecryptionPolicy, {"policyDecryptionDefList": [definition]})) == {
        "policy_decryption_def_list.0.source_var.header_name"
    }


def test_ws_security_from_target_needs_a_step_and_its_keystore() -> None:
    assert set(_refusal(WsSecurityFromTargetPolicy, {})) == {"dec_exists"}
    assert set(_refusal(WsSecurityFromTargetPolicy, {"decExists": True, "verExists": True})) == {
        "dec_key_store_name",
        "ver_key_store_name",
    }


def test_ws_security_to_target_needs_each_listed_entry_s_settings() -> None:
    refused = _refusal(
        WsSecurityToTargetPolicy,
        {"wsSecurityEntryOrderList": ["TIMESTAMP", "USERNAME_TOKEN", "ENCRYPTION", "SIGNATURE"]},
    )
    assert set(refused) == {
        "ts_time_to_live",
        "un_username",
        "un_password",
        "un_password_type",
        "enc_key_store_name",
        "enc_key_id_type",
        "enc_sym_enc_algorithm",
        "enc_key_enc_algorithm",
        "enc_part_list",
        "sig_key_store_name",
        "sig_key_id_type",
        "sig_part_list",
    }
    assert "USERNAME_TOKEN" in refused["un_password"]
    timestamp_only = WsSecurityToTargetPolicy.model_validate(
        {"wsSecurityEntryOrderList": ["TIMESTAMP"], "tsTimeToLive": 0}
    )
    assert timestamp_only.to_api()["wsSecurityEntryOrderList"] == ["TIMESTAMP"]


def test_a_custom_key_identifier_needs_its_value_type() -> None:
    sign = {
        "sigSigAlgorithm": "RSA_SHA256",
        "sigC14n": "C14N_EXCL_OMIT_COMMENTS",
        "sigDigAlgorithm": "SHA256",
        "sigKeyStoreName": "ks",
        "sigKeyIdType": "CUSTOM_KEY_INFO",
        "sigCustomKeyIdentifier": "kid",
    }
    assert set(_refusal(WsSecuritySignPolicy, sign)) == {"sig_custom_key_identifier_value_type"}
    policy = WsSecuritySignPolicy.model_validate({**sign, "sigCustomKeyIdentifierValueType": "vt"})
    # The canonicalization keeps the page's spelling on the wire.
    assert policy.to_api()["sigC14n"] == "C14N_EXCL_OMIT_COMMENTS"
    assert unknown_fields(policy) == []


def test_timestamps_live_zero_seconds_or_more() -> None:
    assert set(_refusal(WsSecurityTimestampPolicy, {"timeToLive": -1})) == {"time_to_live"}


# -- secrets ----------------------------------------------------------------------------------------


def test_the_secret_fields_of_each_type() -> None:
    secrets = {kind: POLICY_TYPES[kind].secret_fields() for kind in SECURITY_TYPES}
    assert {kind: fields for kind, fields in secrets.items() if fields} == {
        "policy-api-authentication": ("api_auth_cond_expression_list.password",),
        "policy-oidc": ("client_secret",),
        "policy-ws-security-to-target": ("un_password",),
        "policy-ws-security-username": ("password",),
    }


def test_secrets_are_never_in_repr_and_still_sent() -> None:
    policies = [
        parse_policy(
            {
                "type": "policy-api-authentication",
                "authType": "BASIC",
                "sendType": "HEADER",
                "usernameFieldName": "X-User",
                "passwordFieldName": "X-Password",
                "apiAuthCondExpressionList": [{"username": "svc", "password": "hunter2-a"}],
            }
        ),
        parse_policy({"type": "policy-oidc", **OIDC, "clientSecret": "hunter2-b"}),
        parse_policy(
            {
                "type": "policy-ws-security-username",
                "username": "u",
                "password": "hunter2-c",
                "passwordType": "PasswordDigest",
            }
        ),
        parse_policy(
            {
                "type": "policy-ws-security-to-target",
                "wsSecurityEntryOrderList": ["USERNAME_TOKEN"],
                "unUsername": "u",
                "unPassword": "hunter2-d",
                "unPasswordType": "PasswordText",
            }
        ),
    ]
    for policy in policies:
        assert "hunter2" not in repr(policy), type(policy).__name__
        assert "hunter2" not in str(policy), type(policy).__name__
        assert "hunter2" in str(policy.to_api()), type(policy).__name__


@pytest.mark.parametrize(
    "data",
    [
        # A missing field makes pydantic quote the whole body, the secret with it.
        {"type": "policy-ws-security-username", "username": "u", "password": "hunter2-e"},
        {
            "type": "policy-ws-security-username",
            "username": "u",
            "password": "hunter2-e",
            "passwordType": "bad",
        },
        {"type": "policy-oidc", "clientSecret": "hunter2-f"},
        {"type": "policy-api-authentication", "apiAuthCondExpressionList": [{"password": "hunter2-g"}]},
        {
            "type": "policy-ws-security-to-target",
            "unPassword": "hunter2-h",
            "wsSecurityEntryOrderList": ["X"],
        },
        # The API call's added header values are secrets too (they carry API keys).
        {
            "type": "policy-api-call",
            "headersToBeAddedBeforeCallList": [{"name": "Authorization", "value": "hunter2-i"}],
        },
        # An unknown field may hold a secret no model knows to hide.
        {"type": "policy-white-ip", "ipList": ["not-an-ip"], "apiKey": "hunter2-j"},
    ],
)
def test_a_refused_policy_s_error_never_quotes_its_secret(data: dict[str, Any]) -> None:
    with pytest.raises(pydantic.ValidationError) as caught:
        parse_policy(data)
    assert "hunter2" not in str(caught.value)
    assert "hunter2" not in repr(caught.value)


def test_clear_text_variables_take_the_xpath_their_page_lists() -> None:
    policy = AuthClearTextPolicy.model_validate(
        {"usernameVar": {"type": "BODY", "bodyXPath": "/root/username"}, "checkPassword": False}
    )
    assert policy.to_api()["usernameVar"]["bodyXPath"] == "/root/username"
    assert unknown_fields(policy) == []
