"""Keystores: a JKS or PKCS#12 file per environment, the source of JWKs made from one of its aliases.

Every field is the product documentation's:
https://github.com/apinizer/management-api-docs/blob/main/02-api-reference/08-keys-secrets/crud/list-keystores.md
https://github.com/apinizer/management-api-docs/blob/main/02-api-reference/08-keys-secrets/crud/create-keystore.md
https://github.com/apinizer/management-api-docs/blob/main/02-api-reference/08-keys-secrets/crud/update-keystore.md

The create and update bodies are "a complete Keystore object", the object the list answers. The
file (base64) holds private keys and the password opens it: both are secrets, kept out of reprs,
and validation errors quote no input. The pages show no password; ``password`` is this client's
name for it (docs/docs-disagreements.md).
"""

from __future__ import annotations

from enum import StrEnum

from pydantic import ConfigDict, Field, model_validator

from ._api_proxy import DeploymentResponse
from ._base import Name, SecretField, SecretModel, field_errors
from ._project import ResultEnvelope

__all__ = [
    "Keystore",
    "KeystoreEnvironment",
    "KeystoreEnvironmentInfo",
    "KeystoreList",
    "KeystoreResponse",
    "KeystoreSpec",
    "KeystoreType",
    "environment_names_problem",
]


class KeystoreType(StrEnum):
    """A keystore file's format (``type``)."""

    JKS = "JKS"
    PKCS12 = "PKCS12"


class KeystoreEnvironment(SecretModel):
    """One environment's keystore (``keyStoreEnvironmentList`` items): its format and its file,
    base64-encoded."""

    environment_name: Name
    type: KeystoreType
    file: str = SecretField(min_length=1)
    password: str | None = SecretField(None)


def environment_names_problem(names: list[str]) -> str | None:
    """Why a list of per-environment items cannot be one object's (empty, or an environment
    twice), or None."""
    if not names:
        return "needs at least one environment"
    seen: set[str] = set()
    for name in names:
        if name in seen:
            return f"names environment {name!r} twice"
        seen.add(name)
    return None


class KeystoreSpec(SecretModel):
    """The body of create (``POST .../keystores/``) and update (``PUT .../keystores/{name}/``,
    where ``name`` may differ from the path's to rename): one file per environment, each
    environment once."""

    name: Name
    description: str | None = None
    key_store_environment_list: list[KeystoreEnvironment]

    @model_validator(mode="after")
    def _each_environment_once(self) -> KeystoreSpec:
        problem = environment_names_problem([e.environment_name for e in self.key_store_environment_list])
        if problem is not None:
            raise field_errors(type(self).__name__, [("key_store_environment_list", problem, None)])
        return self


class KeystoreEnvironmentInfo(SecretModel):
    """One environment's keystore as list and get answer it: read as it comes (a format the
    pages do not show, a file left out), so that an answer never fails to read."""

    environment_name: str
    # The known formats as the enum, any other as its text.
    type: KeystoreType | str | None = Field(default=None, union_mode="left_to_right")
    file: str | None = SecretField(None)
    password: str | None = SecretField(None)


class Keystore(SecretModel):
    """A keystore as list and get answer it (the file included, as the list page shows). ``id`` is
    the gateway's; the pages do not show it, so it may be absent."""

    id: str | None = None
    name: str
    description: str | None = None
    project_id: str | None = None
    key_store_environment_list: list[KeystoreEnvironmentInfo] = Field(default_factory=list)


class KeystoreList(ResultEnvelope):
    """``GET .../keystores/`` and ``GET .../keystores/{name}/`` (a list of one)."""

    # The items carry key material: an answer that fails to validate is not quoted.
    model_config = ConfigDict(hide_input_in_errors=True)

    result_list: list[Keystore] = Field(default_factory=list)


class KeystoreResponse(DeploymentResponse):
    """The answer of create, update and delete: ``success`` and the (un)deployment's result."""
