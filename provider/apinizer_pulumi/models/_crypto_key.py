"""Crypto keys (``CryptoKeyInfo``): a public and/or private key per environment, the source of JWKs
made from a key, and of the encryption and signing policies' ``crypto_key_info_id``.

Every field is the product documentation's:
https://github.com/apinizer/management-api-docs/blob/main/02-api-reference/08-keys-secrets/crud/list-keys.md
https://github.com/apinizer/management-api-docs/blob/main/02-api-reference/08-keys-secrets/crud/create-key.md
https://github.com/apinizer/management-api-docs/blob/main/02-api-reference/08-keys-secrets/crud/update-key.md

Key material is base64-encoded. A private key is a secret: kept out of reprs, and validation
errors quote no input.
"""

from __future__ import annotations

from enum import StrEnum

from pydantic import ConfigDict, Field, model_validator

from ._api_proxy import DeploymentResponse
from ._base import Name, SecretField, SecretModel, field_errors
from ._keystore import environment_names_problem
from ._project import ResultEnvelope

__all__ = [
    "CryptoKey",
    "CryptoKeyEnvironment",
    "CryptoKeyList",
    "CryptoKeyResponse",
    "CryptoKeySpec",
    "CryptoKeyType",
]


class CryptoKeyType(StrEnum):
    """A key's algorithm family (``keyType``), the values the pages show."""

    RSA = "RSA"
    EC = "EC"


class CryptoKeyEnvironment(SecretModel):
    """One environment's key (``cryptoKeyInfoEnvironmentList`` items): a public key, a private
    key, or both, base64-encoded."""

    environment_name: Name
    public_key: str | None = None
    private_key: str | None = SecretField(None)


class CryptoKeySpec(SecretModel):
    """The body of create (``POST .../keys/``) and update (``PUT .../keys/{name}/``, where
    ``name`` may differ from the path's to rename): one key per environment, each environment
    once, each with a public or a private key."""

    name: Name
    description: str | None = None
    key_type: CryptoKeyType
    crypto_key_info_environment_list: list[CryptoKeyEnvironment]

    @model_validator(mode="after")
    def _each_environment_once_with_a_key(self) -> CryptoKeySpec:
        environments = self.crypto_key_info_environment_list
        problem = environment_names_problem([e.environment_name for e in environments])
        problems = [] if problem is None else [("crypto_key_info_environment_list", problem, None)]
        problems += [
            (
                f"crypto_key_info_environment_list[{index}]",
                f"environment {item.environment_name!r} needs a public_key or a private_key",
                None,
            )
            for index, item in enumerate(environments)
            if not item.public_key and not item.private_key
        ]
        if problems:
            raise field_errors(type(self).__name__, problems)
        return self


class CryptoKey(SecretModel):
    """A key as list and get answer it (key material included, as the list page shows); a key
    type the pages do not show is read as it comes. ``id`` is what a policy's ``crypto_key_info_id``
    names; the pages do not show it, so it may be absent."""

    id: str | None = None
    name: str
    description: str | None = None
    project_id: str | None = None
    key_type: CryptoKeyType | str | None = Field(default=None, union_mode="left_to_right")
    crypto_key_info_environment_list: list[CryptoKeyEnvironment] = Field(default_factory=list)


class CryptoKeyList(ResultEnvelope):
    """``GET .../keys/`` and ``GET .../keys/{name}/`` (a list of one)."""

    # The items carry key material: an answer that fails to validate is not quoted.
    model_config = ConfigDict(hide_input_in_errors=True)

    result_list: list[CryptoKey] = Field(default_factory=list)


class CryptoKeyResponse(DeploymentResponse):
    """The answer of create, update and delete: ``success`` and the (un)deployment's result."""
