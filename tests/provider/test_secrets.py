"""Nothing Pulumi serializes holds a credential in clear text, except the secret connection output."""

from __future__ import annotations

import base64
import json
from typing import Any

import dill
import pytest
from pulumi.dynamic import Config, ConfigureRequest
from pulumi.dynamic.dynamic import serialize_provider
from pulumi.runtime._serialization import _serialize

from apinizer_pulumi.resources import (
    CertificateProvider,
    ConnectionArgs,
    CredentialProvider,
    CryptoKeyProvider,
    EndpointCacheProvider,
    EndpointProvider,
    EndpointWsaProvider,
    GeolocationProvider,
    KeystoreProvider,
    RlclEndpointsProvider,
)
from apinizer_pulumi.resources.testing import Engine

from .conftest import Gateway
from .test_endpoint import USERS

PROVIDERS = [EndpointProvider, EndpointCacheProvider, EndpointWsaProvider, RlclEndpointsProvider]
# Credentials (their password is a secret input of their own: tests/provider/test_credential.py).
PROVIDERS.append(CredentialProvider)
# Keystores and crypto keys (their secrets: tests/provider/test_keystore.py, test_crypto_key.py).
PROVIDERS += [KeystoreProvider, CryptoKeyProvider]
# Geolocation (its MMDB bytes never reach the outputs: tests/provider/test_geolocation.py).
PROVIDERS.append(GeolocationProvider)
# Certificates (their PEM is a secret input of their own: tests/provider/test_certificate.py).
PROVIDERS.append(CertificateProvider)


@pytest.mark.parametrize("provider_class", PROVIDERS)
def test_pickled_provider_holds_no_credential(provider_class: type[Any]) -> None:
    provider = provider_class()
    provider.configure(ConfigureRequest(Config(
        {"apinizer:url": "http://gw", "apinizer:token": "tok-secret", "apinizer:password": "pw-secret"},
        "project",
    )))

    blob, contains_secrets = _serialize(True, serialize_provider, provider)
    raw = base64.b64decode(blob)

    assert provider_class.serialize_as_secret_always is False
    assert contains_secrets is False
    assert b"tok-secret" not in raw and b"pw-secret" not in raw and b"http://gw" not in raw
    # Pickled by reference: the module path and class name are all it holds.
    assert provider_class.__module__.encode() in raw and provider_class.__name__.encode() in raw
    loaded = dill.loads(raw)
    assert type(loaded) is provider_class and vars(loaded) == {}


def test_connection_args_repr_hides_secrets() -> None:
    text = repr(ConnectionArgs(url="http://gw", token="tok-secret", username="u", password="pw-secret"))
    assert "tok-secret" not in text and "pw-secret" not in text


def test_credentials_appear_only_under_the_connection_output(endpoints: Engine, gateway: Gateway) -> None:
    token = "dev-developer-token"
    declared = {**USERS, "connection": {"url": gateway.url, "token": token}}

    id_, outs = endpoints.up(declared)
    read_id, read_outs, unchanged_inputs = endpoints.read(id_, outs)
    # A read that finds drift returns the inputs too (one that finds none leaves the recorded ones).
    _, _, read_inputs = endpoints.read(id_, {**outs, "backend_resource_url": "/drifted"})

    assert read_id == id_ and unchanged_inputs is None and read_inputs is not None
    for props in (outs, read_outs, read_inputs):
        # The engine stores this output as a secret, since the connection input was one.
        assert props["connection"]["token"] == token
        rest = {key: value for key, value in props.items() if key != "connection"}
        assert token not in json.dumps(rest)
    assert token not in id_
