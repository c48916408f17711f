"""``CryptoKey``: a project's crypto key (``CryptoKeyInfo``), a public and/or private key per environment,
and its dynamic provider.

Create, update and delete deploy (or undeploy) the key to the environments it names at once, as
the API does. The lifecycle is the per-environment key material's (``_key_material``): key files read
by the provider and kept in the state as their sha256, private keys secret.
https://github.com/apinizer/management-api-docs/blob/main/02-api-reference/08-keys-secrets/crud/create-key.md

The provider's module path and class name (``apinizer_pulumi.resources.crypto_key.CryptoKeyProvider``)
are recorded by reference in every stack's state: they never move without an alias.
"""

from __future__ import annotations

import dataclasses
from collections.abc import Mapping, Sequence
from typing import Any

import pulumi
import pulumi.dynamic as dyn

from ._args import connection_props, one_line_arguments, resource_options, resource_props
from ._base import lazy_model
from ._connection import ConnectionArgs
from ._files import read_file
from ._key_material import (
    PerEnvironmentMaterial,
    bytes_as_text,
    checked_file,
    digest,
    names_a_file,
    secret_environments,
    text_bytes,
)

#: An environment's fields that hold a secret.
SECRET_KEYS = ("private_key",)
#: The two halves of a key pair, each given as text or as a file.
HALVES = ("public_key", "private_key")
#: The API's name of each half.
_WIRE = {"public_key": "publicKey", "private_key": "privateKey"}


class CryptoKeyProvider(PerEnvironmentMaterial):
    """A crypto key: its type and, per environment, a public key, a private key or both."""

    kind = "CryptoKey"
    inputs_model = lazy_model("apinizer_pulumi.resources._key_inputs", "CryptoKeyInputs")
    family = "crypto_keys"
    kind_word = "Key"
    list_field = "cryptoKeyInfoEnvironmentList"
    id_output = "crypto_key_id"
    noun = "key"
    secret_keys = SECRET_KEYS
    source_keys = ("public_key", "public_key_file", "private_key", "private_key_file")
    digest_fields = ("public_key_sha256", "private_key_sha256")

    def digest_view(self, entry: Mapping[str, Any]) -> Any:
        return {half: entry[f"{half}_sha256"] for half in HALVES if entry.get(f"{half}_sha256") is not None}

    def digest_keys(self, entry: Mapping[str, Any]) -> list[str]:
        return [f"{half}_sha256" for half in HALVES
                if entry.get(half) is not None or entry.get(f"{half}_file") is not None]

    def digest_sources(self, entry: dict[str, Any], where: str) -> list[tuple[str, str]]:
        failures = []
        for half in HALVES:
            source = half if entry.get(half) is not None else f"{half}_file"
            entry.pop(f"{half}_sha256", None)
            if entry.get(source) is None:
                continue
            try:
                content = read_file(str(entry[source]), f"{where}.{source}") if names_a_file(source) \
                    else text_bytes(str(entry[source]))
            except ValueError as error:
                reason = str(error) if names_a_file(source) else f"{where}.{source} {error}"
                failures.append((source, reason))
                continue
            entry[f"{half}_sha256"] = digest(content)
        return failures

    def body_item(self, entry: Mapping[str, Any], where: str) -> dict[str, Any]:
        item = {"environmentName": entry["environment_name"]}
        for half in HALVES:
            if entry.get(half) is not None:
                item[_WIRE[half]] = str(entry[half])
            elif entry.get(f"{half}_file") is not None:
                content = checked_file(str(entry[f"{half}_file"]), entry.get(f"{half}_sha256"),
                                       f"{where}.{half}_file")
                item[_WIRE[half]] = bytes_as_text(content)
        return item

    def extra_fields(self, props: Mapping[str, Any]) -> dict[str, Any]:
        return {"keyType": props.get("key_type")}

    def live_extra(self, live: Any) -> dict[str, Any]:
        key_type = live.key_type
        return {} if key_type is None else {"key_type": str(getattr(key_type, "value", key_type))}

    def live_entries(self, live: Any) -> list[dict[str, Any]]:
        entries = []
        for item in live.crypto_key_info_environment_list:
            entry: dict[str, Any] = {"environment_name": item.environment_name}
            for half in HALVES:
                text = getattr(item, half)
                if text:
                    try:
                        entry[f"{half}_sha256"] = digest(text_bytes(text))
                    except ValueError:
                        entry[f"{half}_sha256"] = "neither PEM nor base64"
            entries.append(entry)
        return entries


@dataclasses.dataclass(kw_only=True, frozen=True)
class CryptoKeyEnvironmentArgs:
    """One environment's key: a public key, a private key or both, each as text (``public_key``,
    ``private_key``: PEM or base64 DER; the private key is a secret, e.g. ``config.require_secret``)
    or as a file in the program's folder (``public_key_file``, ``private_key_file``: PEM or DER).
    A private key is unencrypted (PKCS#8 or the traditional RSA/EC form). A plain dict with the same
    keys does as well."""

    environment_name: pulumi.Input[str]
    public_key: pulumi.Input[str] | None = None
    public_key_file: pulumi.Input[str] | None = None
    private_key: pulumi.Input[str] | None = None
    private_key_file: pulumi.Input[str] | None = None


class CryptoKey(dyn.Resource, module="apinizer", name="CryptoKey"):
    """A crypto key: a public and/or private key per environment, what encryption, decryption and
    signing policies name by ``crypto_key_info_id`` (:attr:`crypto_key_id`) and JWKs are made from.

    Id: ``{project}/{name}``. Changing ``project_name`` or ``name`` replaces it (the new one is made
    first); ``description``, ``key_type`` and ``environments`` (a new key or key file, an environment
    added or removed) change in place, and the gateway deploys the key to each environment it names.
    A key file is read by the provider when it is sent; the state keeps its path and its sha256,
    never its bytes, and diffs show the sha256s (``public_key_sha256``, ``private_key_sha256``).
    Private keys are secrets. Refresh reads the project's key list (once per project) and shows a
    changed key (its sha256), type, description or environment list. With ``adopt=True`` a key of that
    name that exists already is taken over (written whole). The gateway refuses to delete a key that a
    policy still names.
    See https://github.com/apinizer/management-api-docs/blob/main/02-api-reference/08-keys-secrets/crud/create-key.md
    """

    project_name: pulumi.Output[str]
    """The project that holds the key."""
    name: pulumi.Output[str]
    """The key's name, unique within the project."""
    description: pulumi.Output[str | None]
    """Free text."""
    key_type: pulumi.Output[str]
    """``RSA`` or ``EC``: the type of every key it holds."""
    environments: pulumi.Output[list[dict[str, Any]]]
    """Per environment: ``environment_name``, the sources (``public_key`` or ``public_key_file``,
    ``private_key`` (secret) or ``private_key_file``) and the sha256 of each key given."""
    crypto_key_id: pulumi.Output[str | None]
    """The gateway's id of the key: a policy's ``crypto_key_info_id``."""
    update_referenced_jwks: pulumi.Output[str | None]
    """Whether (and in which scope) an update remakes the JWKs made from this key."""
    adopt: pulumi.Output[bool]
    """The adopt input: whether create may take over a key that already exists."""
    connection: pulumi.Output[dict[str, Any] | None]
    """The connection input, stored as a secret."""

    def __init__(
        self,
        resource_name: str,
        *,
        project_name: pulumi.Input[str],
        name: pulumi.Input[str],
        key_type: pulumi.Input[str],
        environments: Sequence[CryptoKeyEnvironmentArgs | Mapping[str, Any]],
        description: pulumi.Input[str] | None = None,
        update_referenced_jwks: pulumi.Input[str] | None = None,
        adopt: pulumi.Input[bool] | None = None,
        connection: ConnectionArgs | Mapping[str, Any] | None = None,
        opts: pulumi.ResourceOptions | None = None,
    ) -> None:
        """Declare a crypto key.

        :param resource_name: The Pulumi name of this resource.
        :param project_name: The project that holds the key.
        :param name: Unique within the project; it cannot change in place.
        :param key_type: ``RSA`` or ``EC``, the type of every key given.
        :param environments: One :class:`CryptoKeyEnvironmentArgs` (or dict) per environment, each
            environment once: the whole list (an environment left out is removed from the key).
        :param description: Free text.
        :param update_referenced_jwks: ``SAME_PROJECT`` or ``ALL_PROJECTS``: an update also remakes the
            JWKs made from this key in that scope (the update page's ``updateReferencedJwks``). Default:
            none, they keep the material they were made from. Never a change by itself.
        :param adopt: Take over an existing key of that name (default false).
        :param connection: Where the gateway is and how to log in; defaults to the stack config
            ``apinizer:*``, then the environment ``APINIZER_*``.
        :param opts: Pulumi resource options.
        """
        props = resource_props(project_name=project_name, name=name, description=description,
                               key_type=key_type, update_referenced_jwks=update_referenced_jwks, adopt=adopt,
                               crypto_key_id=None)
        props["environments"] = secret_environments(environments, SECRET_KEYS)
        props["connection"] = connection_props(connection)
        super().__init__(CryptoKeyProvider(), resource_name, props, resource_options(opts))


# A wrong or missing argument is one line under `pulumi up`, not a traceback (_args.py).
one_line_arguments(CryptoKeyEnvironmentArgs, prefix="apinizer")
