"""The pydantic models of ``Keystore`` and ``CryptoKey`` inputs, named lazily by their providers.

Kept apart from ``keystore.py`` and ``crypto_key.py`` so that a program that declares them never
imports pydantic. Each environment's material comes from a file (its absolute path, read by the
provider) or from a value (a secret); ``sha256`` (``*_sha256``) is the provider's digest of it,
computed by ``check`` (``_key_material.digest_sources``), and what diffs compare.
"""

from __future__ import annotations

from typing import Any

from pydantic import Field, ValidationError, model_validator
from pydantic_core import InitErrorDetails, PydanticCustomError

from apinizer_pulumi.models import CryptoKeyType, KeystoreType, Name, ReferencedJwkUpdateScope
from apinizer_pulumi.models._base import SecretField, SecretModel, field_errors
from apinizer_pulumi.models._keystore import environment_names_problem


def entry_error(title: str, message: str) -> ValidationError:
    """An error of the environment entry as a whole: a preview whose source is not known yet (an
    Output) drops it, as it drops every failure above an unknown value."""
    return ValidationError.from_exception_data(title, [InitErrorDetails(
        type=PydanticCustomError("value_error", message), loc=(), input=None)])


class KeystoreEnvironmentInputs(SecretModel):
    """One environment's keystore: its format, its file (a path) or content (base64), its password."""

    environment_name: Name
    type: KeystoreType
    file: str | None = None
    content_base64: str | None = SecretField(None)
    password: str | None = SecretField(None)
    sha256: str | None = None

    @model_validator(mode="after")
    def _one_source(self) -> KeystoreEnvironmentInputs:
        if self.file is None and self.content_base64 is None:
            raise entry_error("KeystoreEnvironmentInputs", f"environment {self.environment_name!r}: give "
                                                           "file (a path) or content_base64")
        if self.file is not None and self.content_base64 is not None:
            raise field_errors("KeystoreEnvironmentInputs", [
                ("file", f"environment {self.environment_name!r}: give file or content_base64, not both",
                 None)])
        return self


class CryptoKeyEnvironmentInputs(SecretModel):
    """One environment's key: a public key, a private key or both, each as text (PEM or base64 DER)
    or from a file (PEM or DER)."""

    environment_name: Name
    public_key: str | None = None
    public_key_file: str | None = None
    private_key: str | None = SecretField(None)
    private_key_file: str | None = None
    public_key_sha256: str | None = None
    private_key_sha256: str | None = None

    @model_validator(mode="after")
    def _a_key_from_one_source(self) -> CryptoKeyEnvironmentInputs:
        problems: list[tuple[str, str, Any]] = []
        for half in ("public_key", "private_key"):
            if getattr(self, half) is not None and getattr(self, f"{half}_file") is not None:
                problems.append((f"{half}_file", f"environment {self.environment_name!r}: give {half} or "
                                                 f"{half}_file, not both", None))
        if not any(getattr(self, name) is not None
                   for name in ("public_key", "public_key_file", "private_key", "private_key_file")):
            raise entry_error("CryptoKeyEnvironmentInputs", f"environment {self.environment_name!r} needs a "
                              "public key, a private key or both (public_key[_file], private_key[_file])")
        if problems:
            raise field_errors("CryptoKeyEnvironmentInputs", problems)
        return self


def _each_environment_once(title: str, environments: list[Any]) -> None:
    problem = environment_names_problem([item.environment_name for item in environments])
    if problem is not None:
        raise field_errors(title, [("environments", problem, None)])


class KeystoreInputs(SecretModel):
    """A keystore: one file per environment, each environment once."""

    project_name: Name
    name: Name
    description: str | None = None
    environments: list[KeystoreEnvironmentInputs] = Field(default_factory=list)
    update_referenced_jwks: ReferencedJwkUpdateScope | None = None
    adopt: bool = False

    @model_validator(mode="after")
    def _environments_once(self) -> KeystoreInputs:
        _each_environment_once("KeystoreInputs", self.environments)
        return self


class CryptoKeyInputs(SecretModel):
    """A crypto key: its type and one key (pair) per environment, each environment once."""

    project_name: Name
    name: Name
    description: str | None = None
    key_type: CryptoKeyType
    environments: list[CryptoKeyEnvironmentInputs] = Field(default_factory=list)
    update_referenced_jwks: ReferencedJwkUpdateScope | None = None
    adopt: bool = False

    @model_validator(mode="after")
    def _environments_once(self) -> CryptoKeyInputs:
        _each_environment_once("CryptoKeyInputs", self.environments)
        return self
