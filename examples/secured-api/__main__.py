"""A secured API, with no console step: its key material, connection and geolocation declared beside it.

`specs/payouts.yaml` becomes the API proxy `Payouts`. Who may call it:
* partners present a client certificate signed by the partners' CA, which this program makes (`pki.py`,
  the `cryptography` package) and stores as a `Certificate` deployed to the environment; an `AuthMtls`
  policy asks for it on every call;
* a partner's `POST /payouts` and `GET /payouts/{payoutId}` carry a token of the partner's identity
  provider, validated against the partner's published key: a `Jwk` read from its JWKS URL;
* the internal reconciliation job's `GET /reconciliation` carries a token signed by our own key: a `Jwk`
  the gateway generates.
Each `JoseValidation` policy names its key by the `Jwk`'s id Output, which also orders the creates.

The proxy's traffic logs go to Elasticsearch (a `Connection`, its password a stack secret), and the
gateway's geolocation reads the MaxMind database that `prepare.py` made (`Geolocation`).

Rotation: raising `keyGeneration` makes a new CA (and client certificate) and a new signing key. One
`pulumi up` updates the CA certificate in place, makes the new key, points the policy at it, deletes
the old key, and deploys the proxy again (its `triggers` hold the policies' revisions).
"""

import json
from pathlib import Path
from typing import Literal

import pki
import pulumi

import apinizer_pulumi as apinizer

config = pulumi.Config()
#: The partner operations that need a partner's token.
PARTNER_OPERATIONS: tuple[tuple[Literal["GET", "POST"], str], ...] = (("POST", "/payouts"),
                                                                     ("GET", "/payouts/{payoutId}"))
environment = config.get("environment") or "test"
generation = config.get_int("keyGeneration") or 1
PROJECT = "Demo"
PARTNER = "acme"
MMDB_FILE = config.get("mmdbFile") or "local/GeoLite2-Country.mmdb"


def jwks_url() -> str:
    """The partner's JWKS URL: the stack's `jwksUrl`, else the local server that `jwks_server.py` started."""
    configured = config.get("jwksUrl")
    if configured:
        return configured
    try:
        return str(json.loads(Path("local/jwks-server.json").read_text())["url"])
    except (OSError, ValueError, KeyError):
        raise pulumi.RunError(
            "no JWKS URL: start the local server (`python jwks_server.py start`) or set one "
            "(`pulumi config set jwksUrl https://...`)"
        ) from None


# --- mTLS: the partners' CA, made here, trusted in the environment ----------------------------------
seed = config.require_secret("caKeySeed")
ca = seed.apply(lambda value: pki.certificate_authority(value, generation))
client = seed.apply(lambda value: pki.client_certificate(value, generation, f"{PARTNER}-payouts-client"))

partners_ca = apinizer.Certificate(
    "partners-ca",
    project_name=PROJECT,
    name="partners-ca",
    alias="partners-ca",
    description="The CA of the partners' client certificates",
    environment_names=[environment],
    pem=ca.apply(lambda issued: issued.certificate_pem),
)

# --- JWT: the partner's published key, and our own generated one -------------------------------------
partner_key = apinizer.Jwk(
    "partner-key",
    project_name=PROJECT,
    name=f"{PARTNER}-idp",
    description="The partner's identity provider, from its JWKS URL",
    url=jwks_url(),
    kid="acme-2026",
)
signing_key = apinizer.Jwk(
    "reconciliation-signing-key",
    project_name=PROJECT,
    # A new generation is a new key beside the old one: the policy moves to it, then the old one goes.
    name=f"reconciliation-signing-{generation}",
    description="Signs the reconciliation job's tokens",
    generate=apinizer.JwkGenerateArgs(
        type="EC", ec=apinizer.JwkEcArgs(curve_type="P256"), use="SIGNATURE", algorithm="ES256",
        kid=f"reconciliation-{generation}",
    ),
)

# --- where the traffic logs go, and geolocation -----------------------------------------------------
traffic_logs = apinizer.Connection(
    "traffic-logs",
    project_name=PROJECT,
    name="payouts-traffic-logs",
    description="The payouts' traffic logs",
    settings=apinizer.connections.Elasticsearch(
        elastic_host_list=[{"scheme": "https", "host": "logs.internal.example", "port": 9200}],
        authenticate=True,
        elastic_username="apinizer",
        elastic_password=config.require_secret("elasticPassword"),
        index_name="apinizer-payouts",
    ),
)
geolocation = apinizer.Geolocation("geolocation", mmdb_file=MMDB_FILE, enabled=True)

# --- the API and its policies ---------------------------------------------------------------------------
payouts = apinizer.ApiProxy(
    "payouts",
    project_name=PROJECT,
    name="Payouts",
    spec_type="OPEN_API",
    spec_file="specs/payouts.yaml",
    description="Payouts to partners",
    routing=apinizer.RoutingArgs(
        addresses=[apinizer.RoutingAddressArgs(address="https://payouts.internal.example/api/v1")]),
    client_route=apinizer.ClientRouteArgs(relative_paths=["/payouts/v1"]),
    # The Elasticsearch connector sends this environment's traffic logs to the connection above.
    traffic_log={"api_proxy_traffic_log_settings_list": [
        {"environment_name": environment, "enable_elasticsearch_connector": True}]},
    opts=pulumi.ResourceOptions(depends_on=[traffic_logs]),
)


def token_check(key: apinizer.Jwk) -> apinizer.policies.JoseValidation:
    """A bearer token signed with ``key``, checked for its expiry and audience."""
    return apinizer.policies.JoseValidation(
        jose_target="AUTHORIZATION_HEADER",
        validate_sign=True,
        validate_by_issuer=False,
        validate_acl_for_issuer=False,
        jwk_id_for_validation_and_sign=key.jwk_id,
        decrypt=False,
        validate_expiration_time=True,
        accepted_audience_list=["payouts"],
    )


policies = [
    apinizer.Policy(
        "payouts-client-certificate",
        project_name=PROJECT,
        api_proxy_name=payouts.name,
        name="client-certificate",
        pipeline="REQUEST",
        order=1,
        settings=apinizer.policies.AuthMtls(validate_certificate=True, validate_acl_for_issuer=False),
        opts=pulumi.ResourceOptions(depends_on=[partners_ca]),
    ),
    *[
        apinizer.Policy(
            f"payouts-partner-token-{method.lower()}",
            project_name=PROJECT,
            api_proxy_name=payouts.name,
            name=f"partner-token-{method.lower()}",
            pipeline="REQUEST",
            target_scope="ENDPOINT",
            target_endpoint=path,
            target_endpoint_http_method=method,
            settings=token_check(partner_key),
        )
        for method, path in PARTNER_OPERATIONS
    ],
    apinizer.Policy(
        "payouts-reconciliation-token",
        project_name=PROJECT,
        api_proxy_name=payouts.name,
        name="reconciliation-token",
        pipeline="REQUEST",
        target_scope="ENDPOINT",
        target_endpoint="/reconciliation",
        target_endpoint_http_method="GET",
        settings=token_check(signing_key),
    ),
]

deployment = apinizer.ApiProxyDeployment(
    f"payouts-{environment}",
    project_name=PROJECT,
    api_proxy_name=payouts.name,
    environment_name=environment,
    # A policy that names a new key has a new revision: the proxy is deployed again in the same `up`.
    triggers={"spec": payouts.spec_hash, **{f"policy-{index}": policy.revision
                                           for index, policy in enumerate(policies)}},
    opts=pulumi.ResourceOptions(depends_on=[*policies, geolocation]),
)

pulumi.export("apiProxy", deployment.api_proxy_name)
pulumi.export("environment", deployment.environment_name)
pulumi.export("deployed", deployment.deployed)
pulumi.export("partnersCaSha256", partners_ca.sha256)
pulumi.export("signingKeyId", signing_key.jwk_id)
# The job's verifiers check its tokens with this public key (the private part stays a secret output).
pulumi.export("signingPublicJwk", signing_key.public_jwk)
pulumi.export("partnerKeyId", partner_key.jwk_id)
pulumi.export("mmdbSha256", geolocation.mmdb_sha256)
# What the partner installs to call the API: its client certificate, and its key (a secret). The
# certificate is public: it is shown in clear, though made from the secret seed.
pulumi.export("clientCertificate", pulumi.Output.unsecret(client.apply(lambda pair: pair.certificate_pem)))
pulumi.export("clientPrivateKey", pulumi.Output.secret(client.apply(lambda pair: pair.private_key_pem)))
